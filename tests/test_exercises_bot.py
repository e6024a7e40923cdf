"""The "your own pocket-poker bot" checker: right bots in several styles pass with their rank,
wrong ones are named (crash at its line, illegal action, bad probabilities, no answer, slow, too
weak), and the pass bar is measured, not assumed."""

from __future__ import annotations

import pytest
from _solutions import as_cell, run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import bots as ex
from cfrviz.play.tournament import run_tournament

CORRECT_BOTS = {
    "numpy": """
def my_bot(situation):
    labels = list(situation.actions)
    p = np.zeros(len(labels))
    if situation.strength > 0.3 and "r" in labels:
        p[labels.index("r")] = 0.8              # mostly raise, sometimes just call
        p[labels.index("c")] = 0.2
    elif situation.facing_bet and situation.strength < 0:
        p[labels.index("f")] = 1.0
    else:
        p[labels.index("c")] = 1.0
    return p
""",
    "iteration": """
from cfrviz.games.pocket import hand_strength as showdown

def my_bot(situation):
    kind = showdown(situation.hand + situation.public)[0]   # 2 trips, 1 pair, 0 high card
    plan = {2: ["raise", "call"], 1: ["raise", "call"], 0: ["check", "fold"]}[kind]
    for choice in plan:
        if choice in situation.names or (choice == "raise" and "bet" in situation.names):
            return {choice: 1.0}
    return "call"
""",
    "recursion": """
def count(cards, rank):
    return 0 if not cards else (cards[0] == rank) + count(cards[1:], rank)

def my_bot(situation):
    cards = situation.hand + situation.public
    best = max(count(cards, r) for r in cards)
    if best >= 2 and "r" in situation.actions:
        return "r"
    if situation.facing_bet:
        return "c" if best >= 2 or "A" in situation.hand else "f"
    return "c"
""",
    "class": """
class Tight:
    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, situation):
        if situation.strength > self.threshold:
            return "raise" if "r" in situation.actions else "call"
        return "fold" if situation.facing_bet else "check"

my_bot = Tight(0.1)
""",
}

WRONG_BOTS = {
    "crash": ("""
def my_bot(situation):
    odds = situation.strength / (situation.strength - situation.strength)
    return "r" if odds > 1 else "c"
""", "crash", "raised ZeroDivisionError: float division by zero at line 3 of your cell"),
    "illegal": ("""
def my_bot(situation):
    if situation.strength > 0:
        return "raise"                 # also at 'crr', where a third bet is not allowed
    return "fold" if situation.facing_bet else "check"
""", "illegal", "returned 'raise', which is not a legal action here at"),
    "probabilities": ("""
def my_bot(situation):
    return {"c": 0.5, "r": 0.6} if "r" in situation.actions else "c"
""", "probabilities", "sum to 1.1, not 1"),
    "nan": ("""
def my_bot(situation):
    weights = np.array([max(situation.strength, 0.0)] * len(situation.actions))
    return weights / weights.sum()     # 0/0 for a weak hand
""", "probabilities", "not all finite"),
    "no return": ("""
def my_bot(situation):
    choice = "r" if "r" in situation.actions else "c"
""", "answer", "returned None (is a `return` missing?)"),
    "slow": ("""
def my_bot(situation):
    while situation.strength < 10:
        pass
""", "slow", "took more than 1 s to decide"),
    "always fold": ("""
def my_bot(situation):
    return "fold" if situation.facing_bet else "check"
""", "weak", "not yet against always_call"),
    "random": ("""
def my_bot(situation):
    return [1 / len(situation.actions)] * len(situation.actions)
""", "weak", "not yet against always_call and uniform_random"),
    "calling station": ("""
def my_bot(situation):
    return "call"
""", "weak", "not yet against always_call and uniform_random"),
    "maniac": ("""
def my_bot(situation):
    return "raise" if "r" in situation.actions else "call"
""", "weak", "not yet against always_call."),
    "never folds": ("""
def my_bot(situation):
    if situation.strength > 0 and "r" in situation.actions:
        return "r"                     # raises its better half, calls everything else
    return "c"
""", "exploitable", "A best response to your bot would win 0.743 chips per hand from it"),
}


@pytest.mark.parametrize("style", sorted(CORRECT_BOTS))
def test_right_bots_in_every_style_pass_with_their_rank(style):
    feedback = ex.check_my_bot(as_cell(CORRECT_BOTS[style])["my_bot"])
    assert feedback.status == CORRECT, feedback
    assert feedback.message.startswith("Your bot ranks ")
    assert "It beats both always_call and uniform_random" in feedback.message
    # Issue 29: the feedback shows the bot's exploitability and the bar it is under.
    assert "A best response to your bot would win 0." in feedback.message
    assert f"the bar is below always_call's {ex.bar():.3f}" in feedback.message


def test_the_solution_passes_and_beats_every_archetype():
    feedback = ex.check_my_bot(run_solution("10_my_bot.py")["my_bot"])
    assert feedback.correct and "Your bot ranks 1 of 5" in feedback.message
    assert "It even beats every archetype." in feedback.message
    assert "It wins least against strong_hands" in feedback.message


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # the 0/0 bot
@pytest.mark.parametrize("name", sorted(WRONG_BOTS))
def test_wrong_bots_are_named(name):
    source, mistake, words = WRONG_BOTS[name]
    feedback = ex.check_my_bot(as_cell(source)["my_bot"])
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert words in feedback.message, feedback.message


def test_a_weak_bot_hears_its_rank_and_where_it_loses():
    feedback = ex.check_my_bot(as_cell(WRONG_BOTS["always fold"][0])["my_bot"])
    assert "Your bot ranks 5 of 5" in feedback.message
    assert "It loses against always_raise (-1.000 ± 0.000 per hand)" in feedback.message
    assert ex.ADVICE["always_call"] in feedback.message


def test_placeholders_and_non_functions():
    assert ex.check_my_bot(None).status == NOT_DONE
    assert ex.check_my_bot(...).status == NOT_DONE
    starter = as_cell("def my_bot(situation):\n    raise NotImplementedError\n")["my_bot"]
    assert ex.check_my_bot(starter).status == NOT_DONE
    feedback = ex.check_my_bot("raise")
    assert feedback.status == WRONG and feedback.mistake == "shape"


def test_the_bar_is_the_two_weakest_archetypes():
    """WEAKEST are the two archetypes that finish last when the archetypes play each other."""
    field = run_tournament("pocket_poker", hands=ex.HANDS)
    assert set(field.names[-2:]) == set(ex.WEAKEST)


def test_a_tournament_already_played_is_reused():
    bot = run_solution("10_my_bot.py")["my_bot"]
    field = ex.archetype_tournament(bot)
    assert ex.YOU in field.names
    assert ex.check_my_bot(bot, field).message == ex.check_my_bot(bot).message
    # A field the bot is not in (the starter's None enters nobody) is played again.
    archetypes = ex.archetype_tournament(None)
    assert set(archetypes.names) == set(ex.WEAKEST) | {"always_raise", "strong_hands"}
    assert ex.check_my_bot(bot, archetypes).correct


def test_the_exploitability_bar_is_the_calling_stations_and_a_never_folding_bot_fails_it():
    """Issue 29: a bot that never folds beat both weak archetypes and passed, though a best
    response takes 0.743 a hand from it; the bar (always_call's exploitability) stops it, and
    every right bot above is under it."""
    import cfrviz

    game = cfrviz.load_game("pocket_poker")
    assert ex.bar() == pytest.approx(cfrviz.exploitability(game, cfrviz.bot(game, "always_call")))
    field = ex.archetype_tournament(as_cell(WRONG_BOTS["never folds"][0])["my_bot"])
    assert not ex._failing(field)                  # it does beat both weak archetypes
    assert ex.exploitability_of(field) > ex.bar()
    for style in CORRECT_BOTS:
        assert ex.exploitability_of(
            ex.archetype_tournament(as_cell(CORRECT_BOTS[style])["my_bot"])) < ex.bar(), style
