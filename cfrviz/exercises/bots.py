"""Checker for "your own pocket-poker bot": it joins the archetype tournament and gets its rank.

The student writes ``my_bot(situation)`` (see :mod:`cfrviz.play.entrants` for
what a situation holds and what a bot may return).  The checker enters it in a
round robin with the four archetypes of :mod:`cfrviz.play.bots`
(:func:`archetype_tournament`) and reports its rank, its winnings against each
archetype with 95% confidence intervals, and the opponent and seat where it
loses most.

The feedback also gives the bot's **exploitability**: what a best response to its
strategy would win per hand (computed exactly, :func:`cfrviz.exploitability`).

It passes when it beats :data:`WEAKEST`, the two archetypes that finish last
when the archetypes play only each other (the calling station and the random
bot), each with its whole 95% interval above zero, **and** is less exploitable
than the calling station (:data:`BAR_ARCHETYPE`, 0.521 chips per hand), the bot
that plays without looking at its cards.  Beating weak bots alone is a low bar: a
bot that raises its better hands and never folds wins against both (measured in
``tests/test_exercises_bot.py``) while a best response would take 0.743 chips a
hand from it.  The tests also measure that a bot that folds to every bet, a random
bot, and copies of the calling station or the maniac fail, and that a few lines
that bet good hands and fold bad ones to a bet pass.  Beating the tight archetype
too is the real contest, and the message says how far off it is.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache

from ..core.policy import Policy
from ..games import load_game
from ..play.bots import bot
from ..play.entrants import BUDGET, DECISION_LIMIT, Problem, tabulate
from ..play.tournament import Tournament, run_tournament
from . import Feedback, not_done, unanswered, wrong
from .diagnosis import Case, diagnose, fallback

#: The student's bot's name in the tournament and the leaderboard.
YOU = "your bot"
#: The game, and deals per pair (each played in both seats).
GAME, HANDS = "pocket_poker", 20_000
#: The two archetypes that finish last among the archetypes alone (measured in the tests).
WEAKEST = ("always_call", "uniform_random")
#: The bar on exploitability: a passing bot is less exploitable than this archetype, the
#: calling station, which ignores its cards.
BAR_ARCHETYPE = "always_call"

#: A sentence of advice per archetype the bot fails to beat.
ADVICE = {
    "always_call": ("The calling station never folds and never bets, so only the cards decide "
                    "at showdown: you win from it by betting your strong hands (it pays you "
                    "off) and checking weak ones, and lose by folding when you need not."),
    "uniform_random": ("The random bot folds half its hands to a bet and raises with rubbish: "
                       "bet your good hands and call its raises with them, and do not fold "
                       "hands that are ahead."),
}


@cache
def _game():
    """The game, built once: its tree and the situations cached on it are read-only."""
    return load_game(GAME)


@dataclass(frozen=True)
class Field(Tournament):
    """A :class:`~cfrviz.play.tournament.Tournament` with the student's bot in it, and the
    bot's strategy (``None`` when it could not play), so that the checker can measure its
    exploitability without asking the bot again."""

    policy: Policy | None = None


def archetype_tournament(my_bot, hands: int = HANDS, seed: int = 0) -> Field:
    """The archetypes and ``my_bot`` (entered as :data:`YOU`) in a round robin of pocket poker.

    ``my_bot`` may be ``None`` (the starter cell): then only the archetypes play.
    Nothing the bot does raises here; its problems are in the result's
    ``problems``.  The bot's prints are shown (``quiet=False``), so a student can
    debug with them.  The bot is asked once about every situation; its strategy is
    the result's ``policy``.
    """
    game = _game()
    entry = None if unanswered(my_bot) or not callable(my_bot) else tabulate(
        game, my_bot, YOU, decision_limit=DECISION_LIMIT, budget=BUDGET, quiet=False)
    policy = None if entry is None or isinstance(entry, Problem) else entry.policy
    played = run_tournament(game, None if policy is None else {YOU: policy}, hands=hands,
                            seed=seed, decision_limit=DECISION_LIMIT, budget=BUDGET)
    parts = {f.name: getattr(played, f.name) for f in fields(Tournament)}
    if isinstance(entry, Problem):
        parts["problems"] = (*played.problems, entry)
    return Field(**parts, policy=policy)


@cache
def bar() -> float:
    """The exploitability a passing bot must stay below: :data:`BAR_ARCHETYPE`'s (0.521)."""
    from ..analysis.evaluation import exploitability

    return float(exploitability(_game(), bot(_game(), BAR_ARCHETYPE)))


def exploitability_of(field: Field) -> float:
    """What a best response to the student's bot wins per hand (its exploitability)."""
    from ..analysis.evaluation import exploitability

    assert field.policy is not None
    return float(exploitability(_game(), field.policy))


def _signed(x: float) -> str:
    return f"{round(x, 3) + 0.0:+.3f}"  # + 0.0 turns a rounded -0.000 into 0.000


def _line(field: Tournament, opponent: str) -> str:
    r = field.pairs[YOU][opponent]
    return f"{opponent} {_signed(r.mean)} ± {r.half_width:.3f}"


def _where_it_loses(field: Tournament) -> str:
    """The opponent the bot does worst against, and in which seat."""
    me = field.standing(YOU)
    assert me.worst is not None  # the archetypes always play
    r = field.pairs[YOU][me.worst]
    seat = 1 if r.seat_means[0] < r.seat_means[1] else 2
    verb = "loses" if r.mean < 0 else "wins least"
    return (f"It {verb} against {me.worst} ({_signed(r.mean)} ± {r.half_width:.3f} per hand), "
            f"and does worse as player {seat} ({_signed(r.seat_means[seat - 1])} per hand in "
            "that seat).")


def _summary(field: Tournament) -> str:
    me = field.standing(YOU)
    others = ", ".join(_line(field, b) for b in field.pairs[YOU])
    return (f"Your bot ranks {me.rank} of {len(field.standings)}, winning {_signed(me.score)} ± "
            f"{me.half_width:.3f} chips per hand on average (95% CI, {field.hands:,} deals per "
            f"opponent, both seats). Against each: {others}. {_where_it_loses(field)}")


def _failing(field: Tournament) -> list[str]:
    """The weakest archetypes the bot does not beat with its whole interval above zero."""
    return [b for b in WEAKEST if field.pairs[YOU][b].ci[0] <= 0]


@dataclass(frozen=True)
class _Outcome:
    """What the checker judges: the tournament, the bot's problem if it could not play, and
    its exploitability if it could."""

    field: Field
    problem: Problem | None
    exploitability: float | None = None

    @property
    def exploitable(self) -> bool:
        return self.exploitability is not None and self.exploitability >= bar()

    def exploitation(self) -> str:
        """The sentence on the bot's exploitability and the bar."""
        if self.exploitability is None:
            return ""
        return (f"A best response to your bot would win {self.exploitability:.3f} chips per hand "
                f"from it (its exploitability; the bar is below {BAR_ARCHETYPE}'s "
                f"{bar():.3f}, a bot that ignores its cards).")

    def failed(self, kind: str) -> bool:
        return self.problem is not None and self.problem.kind == kind


def _verdict(field: Field) -> Feedback:
    problem = next((p for p in field.problems if p.name == YOU), None)
    outcome = _Outcome(field, problem,
                       exploitability_of(field) if problem is None and field.policy is not None
                       else None)
    table = (
        Case.not_done(lambda o: o.problem is not None
                      and o.problem.error == "NotImplementedError",
                      "`my_bot` still raises NotImplementedError: replace that line with your "
                      "bot, then run this cell again."),
        Case("crash", lambda o: o.failed("crash"),
             lambda o: f"Your bot {o.problem.message}. A bot must answer every situation "
                       "without an error; try it on the situation named."),
        Case("illegal", lambda o: o.failed("illegal action"),
             lambda o: f"Your bot {o.problem.message}. Choose from `situation.actions` (you may "
                       "fold only when `situation.facing_bet`, and raise only while 'r' is "
                       "legal: at most two bets)."),
        Case("answer", lambda o: o.failed("bad answer"),
             lambda o: f"Your bot {o.problem.message}."),
        Case("probabilities", lambda o: o.failed("bad probabilities"),
             lambda o: f"Your bot {o.problem.message}. Probabilities must be finite, at least "
                       "0, and add up to 1 over `situation.actions`."),
        Case("slow", lambda o: o.failed("slow"),
             lambda o: f"Your bot {o.problem.message}. A decision should take well under a "
                       "millisecond: is there a loop that never ends?"),
        Case("other", lambda o: o.problem is not None,
             lambda o: f"Your bot could not play: {o.problem.message}."),
        Case.correct(lambda o: not _failing(o.field) and not o.exploitable,
                     lambda o: f"{_summary(o.field)} {o.exploitation()} It beats both "
                               f"{' and '.join(WEAKEST)}, each with its whole 95% interval "
                               "above zero, and is less exploitable than "
                               f"{BAR_ARCHETYPE}. "
                               + ("It even beats every archetype."
                                  if o.field.standing(YOU).rank == 1
                                  else "Can you beat strong_hands too?")),
        Case("weak", lambda o: bool(_failing(o.field)),
             lambda o: f"{_summary(o.field)} {o.exploitation()} To pass, beat both "
                       f"{' and '.join(WEAKEST)} with the whole 95% interval above zero, and "
                       f"stay below {BAR_ARCHETYPE}'s exploitability; not yet against "
                       f"{' and '.join(_failing(o.field))}. "
                       + " ".join(ADVICE[b] for b in _failing(o.field))),
        fallback(lambda o: f"{_summary(o.field)} {o.exploitation()} It beats "
                           f"{' and '.join(WEAKEST)}, but a best response would take more from "
                           f"it than from {BAR_ARCHETYPE}, which ignores its cards. A bot that "
                           "never folds, or always raises some hands, pays off every opponent "
                           "who notices: fold your weakest hands to a bet, and do not raise "
                           "with them.", "exploitable"),
    )
    return diagnose(outcome, table)


def check_my_bot(my_bot, field: Tournament | None = None) -> Feedback:
    """Your own pocket-poker bot, ranked among the archetypes, with its exploitability; passes
    by beating :data:`WEAKEST` while being less exploitable than :data:`BAR_ARCHETYPE`.

    Parameters
    ----------
    my_bot : callable
        ``my_bot(situation) -> action, {action: probability} or probabilities``.
    field : Tournament, optional
        The result of :func:`archetype_tournament` for this bot, to show the same
        numbers as a leaderboard without playing again; played here if not given.
    """
    if unanswered(my_bot):
        return not_done("Write `my_bot(situation)` above, then run this cell again.")
    if not callable(my_bot):
        return wrong(f"`my_bot` should be a function of one situation; got "
                     f"{type(my_bot).__name__}.", "shape")
    if not isinstance(field, Field) or (YOU not in field.names
                                        and all(p.name != YOU for p in field.problems)):
        field = archetype_tournament(my_bot)
    return _verdict(field)
