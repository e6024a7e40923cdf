"""Checkers for lesson 15, a real river: combos on a board, and the showdown as a sorted prefix
sum with card removal.

``my_showdown_values(strength, opp_strength, cards, opp_cards, opp_reach)`` returns, per combo
``i`` of the player, ``Σ_j r_j sign(s_i - s_j)`` over the opponent combos ``j`` sharing no card
with it (ties count 0), compared to :data:`TOLERANCE` with that quadratic sum written out
(:func:`showdown_values`) on random river spots (:func:`showdown_cases`).  A wrong answer is
named when a slip of :data:`VARIANTS` reproduces it at every combo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from numbers import Real
from typing import Any

import numpy as np

from ..games.holdem import all_combos, hand_strength, parse_board, parse_range
from . import Feedback, unanswered, wrong
from .coding import checks, floats, run_student, short_repr
from .diagnosis import Case, close_to, diagnose, fallback

#: Answers within this of the quadratic sum count as equal.
TOLERANCE = 1e-9
#: The board of the lesson's spot (the reference spot's).
BOARD = "Td9d6h4c2s"


# --- exercise 1: combos on a board --------------------------------------------------------------

def at_combos(board: str = BOARD) -> int:
    """How many combos of AT (suited and offsuit) a player can hold on ``board``."""
    return len(parse_range("AT", parse_board(board)))


def check_combos(answer) -> Feedback:
    """Exercise 1: the combos of AT on the board Td9d6h4c2s (12: the ten of diamonds is on the
    board, which removes the four combos that hold it)."""
    number = (float(answer) if not isinstance(answer, bool)
              and isinstance(answer, (Real, np.integer, np.floating)) else None)
    right = at_combos()
    return diagnose(number, (
        Case.not_done(lambda _: unanswered(answer), "Set `my_combos` to a whole number."),
        Case("shape", lambda value: value is None or not float(value).is_integer(),
             f"A number of combos is a whole number; got {answer!r}."),
        Case.correct(lambda value: value == right,
                     f"Yes, {right}: AT has 4 x 4 = 16 combos, and the board's Td is in four of "
                     "them (AcTd, AdTd, AhTd, AsTd), which nobody can hold. Of the 12 left, 3 "
                     "are suited (the diamonds' AdTd is gone) and 9 offsuit."),
        Case("board-ignored", lambda value: value == 16,
             "That counts every combo of AT, 4 aces x 4 tens. One ten is on the board: a "
             "combo holding it cannot be dealt."),
        Case("suited-only", lambda value: value in (3, 4),
             "That counts the suited combos (AKs-style). AT without a letter means suited and "
             "offsuit together: 16 before the board."),
        Case("offsuit-only", lambda value: value == 9,
             "That counts the offsuit combos only. AT means both: suited and offsuit."),
        fallback("Not quite: count the ace-ten pairs of cards (4 aces x 4 tens), then remove "
                 "those holding a card that is on the board."),
    ))


# --- exercise 2: the showdown --------------------------------------------------------------------

@dataclass(frozen=True)
class ShowdownCase:
    """One showdown as the student's function receives it."""

    name: str
    strength: np.ndarray      # (n,) the player's combos' strengths
    opp_strength: np.ndarray  # (m,)
    cards: np.ndarray         # (n, 2)
    opp_cards: np.ndarray     # (m, 2)
    opp_reach: np.ndarray     # (m,)


def showdown_values(strength, opp_strength, cards, opp_cards, opp_reach, *,
                    removal: str = "both", ties: float = 0.0, same: float = 0.0
                    ) -> np.ndarray:
    """The quadratic sum, one opponent combo at a time, with the usual slips as switches:
    ``removal`` ("both": skip combos sharing a card; "none"; "wins": only when counting wins;
    "losses": only when counting losses), ``ties`` (what a tie counts, 0 right) and ``same``
    (what the opponent's combo of exactly the player's two cards counts: a prefix sum that puts
    ties on one side counts it there once and takes it out twice, once per card)."""
    values = np.zeros(len(strength))
    for i in range(len(strength)):
        mine = set(cards[i].tolist())
        for j in range(len(opp_strength)):
            theirs = set(opp_cards[j].tolist())
            shares = bool(mine & theirs)
            sign = float(np.sign(strength[i] - opp_strength[j])) or ties
            if mine == theirs and same and removal == "both":
                values[i] += opp_reach[j] * same
                continue
            if shares and {"both": True, "none": False, "wins": sign > 0,
                           "losses": sign < 0}[removal]:
                continue
            values[i] += opp_reach[j] * sign
    return values


@lru_cache(maxsize=1)
def showdown_cases() -> tuple[ShowdownCase, ...]:
    """The showdowns the exercise is checked on: the lesson's board and four random ones, each
    with random ranges of 30 to 80 combos that share some combos, random reaches (a few 0)."""
    rng = np.random.default_rng(15)
    combos = all_combos()
    cases = []
    boards = [BOARD] + ["".join(f"{'23456789TJQKA'[c // 4]}{'cdhs'[c % 4]}"
                                for c in rng.choice(52, 5, replace=False)) for _ in range(4)]
    for number, board in enumerate(boards):
        cards = parse_board(board)
        free = np.array([k for k, (a, b) in enumerate(combos.tolist())
                         if a not in cards and b not in cards])
        mine = np.sort(rng.choice(free, rng.integers(30, 80), replace=False))
        shared = rng.choice(mine, 10, replace=False)
        theirs = np.union1d(shared, rng.choice(free, rng.integers(30, 80), replace=False))
        reach = rng.random(len(theirs)) * (rng.random(len(theirs)) > 0.1)
        cases.append(ShowdownCase(
            f"board {board}, {len(mine)} combos against {len(theirs)}",
            hand_strength(cards, combos[mine]), hand_strength(cards, combos[theirs]),
            combos[mine].copy(), combos[theirs].copy(), reach))
        if number == 0:  # the lesson's board: ties are plentiful (one pair on it is common)
            assert len(np.unique(cases[-1].strength)) < len(mine)
    return tuple(cases)


def _formula(**options: Any) -> Callable[[ShowdownCase], np.ndarray]:
    def formula(case: ShowdownCase) -> np.ndarray:
        return showdown_values(case.strength, case.opp_strength, case.cards, case.opp_cards,
                               case.opp_reach, **options)
    return formula


#: Wrong answers the checker recognises: (mistake, formula, message).
VARIANTS: tuple[tuple[str, Callable[[ShowdownCase], np.ndarray], str], ...] = (
    ("no-card-removal", _formula(removal="none"),
     "You count every opponent combo, including those that hold one of your cards. Those "
     "cannot be dealt against you: subtract, card by card, the reach of the opponent combos "
     "holding each of your two cards (a prefix sum per card, in the same sorted order)."),
    ("ties-as-wins", _formula(ties=1.0),
     "You count a tie as a win. Equal hands split the pot: a tie adds 0. Sort so that equal "
     "strengths are grouped, and count only the strictly weaker combos as won "
     "(np.searchsorted(..., side='left')) and the strictly stronger as lost (side='right')."),
    ("ties-as-wins", _formula(ties=1.0, same=-1.0),
     "You count a tie as a win (and so your own combo in the opponent's range, which ties, is "
     "counted once and taken out twice). Equal hands split the pot: a tie adds 0. Count only "
     "the strictly weaker combos as won (np.searchsorted(..., side='left')) and the strictly "
     "stronger as lost (side='right')."),
    ("ties-as-losses", _formula(ties=-1.0),
     "You count a tie as a loss. Equal hands split the pot: a tie adds 0. Count only the "
     "strictly stronger combos as lost (np.searchsorted(..., side='right')) and the strictly "
     "weaker as won (side='left')."),
    ("ties-as-losses", _formula(ties=-1.0, same=1.0),
     "You count a tie as a loss (and so your own combo in the opponent's range, which ties, is "
     "counted once and taken out twice). Equal hands split the pot: a tie adds 0. Count only "
     "the strictly stronger combos as lost (np.searchsorted(..., side='right')) and the "
     "strictly weaker as won (side='left')."),
    ("removal-on-wins-only", _formula(removal="wins"),
     "You remove the blocked combos from the ones you beat but not from the ones you lose to. "
     "A combo holding one of your cards is never dealt against you, stronger or weaker: "
     "correct both sums, card by card."),
    ("removal-on-losses-only", _formula(removal="losses"),
     "You remove the blocked combos from the ones you lose to but not from the ones you "
     "beat. A combo holding one of your cards is never dealt against you: correct both "
     "sums, card by card."),
)

_HINTS = {
    IndexError: "strength and cards have one row per combo of yours, opp_strength, opp_cards "
                "and opp_reach one per combo of the opponent; cards hold card numbers 0-51.",
    TypeError: "The checker calls my_showdown_values(strength, opp_strength, cards, opp_cards, "
               "opp_reach) with numpy arrays and expects one number per combo of yours.",
}


def _flat(formula: Callable[[ShowdownCase], np.ndarray]) -> np.ndarray:
    return np.concatenate([np.asarray(formula(case), dtype=float) for case in showdown_cases()])


@checks("`my_showdown_values`", "check_showdown(my_showdown_values)")
def check_showdown(function: Any) -> Feedback:
    """Exercise 2: ``function(strength, opp_strength, cards, opp_cards, opp_reach)`` gives each
    combo's showdown value per chip: the reach it beats minus the reach it loses to, over the
    opponent combos sharing none of its cards.  Compared with :func:`showdown_values` on
    :func:`showdown_cases`."""
    got = []
    for case in showdown_cases():
        given = (case.strength.copy(), case.opp_strength.copy(), case.cards.copy(),
                 case.opp_cards.copy(), case.opp_reach.copy())
        answer, failed = run_student(
            lambda g=given: function(*g), name="`my_showdown_values`", hints=_HINTS,
            unchanged=[(name, value) for name, value in
                       zip(("strength", "opp_strength", "cards", "opp_cards", "opp_reach"),
                           given)])
        if failed is not None:
            return failed
        try:
            vector = floats(answer).ravel()
        except (TypeError, ValueError):
            vector = None
        if vector is None or vector.shape != (len(case.strength),):
            return wrong(f"On {case.name}, your function returned {short_repr(answer)}: return "
                         f"{len(case.strength)} numbers, one per combo of yours.", "shape")
        got.append(vector)
    values = np.concatenate(got)
    right = _flat(_formula())
    return diagnose(values, (
        Case.correct(close_to(right, rtol=0, atol=TOLERANCE),
                     f"Right at all {right.size} combos of the {len(showdown_cases())} "
                     "showdowns: each combo's value is the weaker reach minus the stronger, "
                     "blocked combos removed card by card. One sort and a few prefix sums do "
                     "in time proportional to the combos what the pairwise sum does in their "
                     "square: with 1,081 combos a side, about a thousand times fewer steps."),
        *(Case(name, close_to(_flat(formula), rtol=0, atol=TOLERANCE), message)
          for name, formula, message in VARIANTS),
        fallback(_first_difference),
    ))


def _first_difference(values: np.ndarray) -> str:
    at = 0
    for case in showdown_cases():
        right = _formula()(case)
        for i, value in enumerate(right.tolist()):
            if not np.isclose(values[at + i], value, rtol=0, atol=TOLERANCE):
                a, b = case.cards[i].tolist()
                return (f"On {case.name}, for your combo of cards {a} and {b} (strength "
                        f"{case.strength[i]}), your value is {values[at + i]:.4f}; the weaker "
                        f"reach minus the stronger, blocked combos removed, is {value:.4f}.")
        at += len(right)
    return "Not quite: the weaker reach minus the stronger, blocked combos removed."


__all__ = ["BOARD", "TOLERANCE", "VARIANTS", "ShowdownCase", "at_combos", "check_combos",
           "check_showdown", "showdown_cases", "showdown_values"]
