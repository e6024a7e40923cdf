"""Checkers for lesson 01, regret matching on rock-paper-scissors."""

from __future__ import annotations

import numpy as np

from ..analysis.equilibrium import matrix_equilibrium
from ..games.matrix import RPS_PAYOFFS
from . import Feedback, as_vector, correct, not_done, unanswered, wrong
from .coding import run_student

ACTIONS = ("R", "P", "S")
#: The round of exercise 1: player 1 played rock, player 2 played paper.
ROUND = {"mine": "R", "theirs": "P"}
VARIANT = ((0, -1, 2), (1, 0, -2), (-2, 2, 0))


def round_regrets(mine: str = "R", theirs: str = "P", payoffs=RPS_PAYOFFS) -> np.ndarray:
    """Player 1's regret per action after one round: what it would have won minus what it won."""
    A = np.asarray(payoffs, dtype=float)
    i, j = ACTIONS.index(mine), ACTIONS.index(theirs)
    return A[:, j] - A[i, j]


def check_regret_vector(answer) -> Feedback:
    """Exercise 1: player 1 played rock, player 2 played paper; give player 1's regrets.

    The right answer is ``[0, 1, 2]`` (order R, P, S): rock itself has no
    regret, paper would have tied (1 better than losing), scissors would have
    won (2 better).
    """
    if unanswered(answer):
        return not_done("Set `my_regrets` to a list of three numbers: the regrets for rock, "
                        "paper and scissors.")
    values = as_vector(answer, 3)
    if values is None:
        return wrong(f"Expected a list of three numbers (rock, paper, scissors); got {answer!r}.",
                     "shape")
    expected = round_regrets(**ROUND)
    payoff_column = np.asarray(RPS_PAYOFFS, dtype=float)[:, ACTIONS.index(ROUND["theirs"])]
    if np.allclose(values, expected):
        return correct("Rock earned -1. Paper would have earned 0 (1 better) and scissors +1 "
                       "(2 better), so the regrets are [0, 1, 2]. The action you played always "
                       "has regret 0.")
    if np.allclose(values, -expected):
        return wrong("The signs are flipped. Regret is (what the other action would have "
                     "earned) minus (what you earned): positive means 'I wish I had played "
                     "that'.", "sign")
    if np.allclose(values, payoff_column):
        return wrong("These are the payoffs each action would have earned against paper. "
                     "Regret subtracts what you actually earned with rock (-1) from each.",
                     "payoff-not-regret")
    if np.allclose(values, -payoff_column):
        return wrong("These look like player 2's payoffs. The question asks about player 1, "
                     "who played rock against paper.", "other-player")
    if np.isclose(values[0], 0):
        return wrong("Rock's regret is right (0: it is what you played). For paper and "
                     "scissors, compare what each would have earned against paper with the -1 "
                     "that rock earned.", "partly")
    return wrong("Not quite. For each action a, regret[a] = payoff(a vs paper) - payoff(rock "
                 "vs paper). Rock vs paper pays -1.")


REGRET_MATCHING_CASES = (
    ([2.0, -1.0, 1.0], [2 / 3, 0.0, 1 / 3]),
    ([0.0, 3.0, 0.0], [0.0, 1.0, 0.0]),
    ([-1.0, -2.0, -0.5], [1 / 3, 1 / 3, 1 / 3]),
    ([0.0, 0.0, 0.0], [1 / 3, 1 / 3, 1 / 3]),
    ([5.0, 5.0, -10.0], [0.5, 0.5, 0.0]),
    ([1.0, 2.0, 3.0, -4.0], [1 / 6, 2 / 6, 3 / 6, 0.0]),
    # No positive regret with two, four and five actions: uniform is 1/k, not always 1/3.
    ([-1.0, -3.0], [0.5, 0.5]),
    ([0.0, -2.0, -1.0, 0.0], [0.25, 0.25, 0.25, 0.25]),
    ([-0.5, -0.5, -0.5, -0.5, -0.5], [0.2, 0.2, 0.2, 0.2, 0.2]),
    # Positive regrets that sum to less than 1, and tiny ones: a regret counts however small,
    # so a tolerance (`r > 1e-9`), rounding, or dividing by max(sum, 1) all fail here.
    ([0.25, 0.5, -1.0], [1 / 3, 2 / 3, 0.0]),
    ([1e-12, -1.0, -1.0], [1.0, 0.0, 0.0]),
    ([3e-10, 1e-10, 0.0, -5.0], [0.75, 0.25, 0.0, 0.0]),
)


def check_regret_matching(function) -> Feedback:
    """Exercise 2: ``function(cumulative_regrets) -> strategy`` implements regret matching.

    The strategy must be proportional to the positive parts of the regrets,
    and uniform when no regret is positive.
    """
    if unanswered(function):
        return not_done("Write the body of `my_regret_matching` (it should return a list or "
                        "array of probabilities), then run this cell again.")
    if not callable(function):
        return wrong(f"Pass the function itself, e.g. check(my_regret_matching); got {function!r}.")
    hints = {ZeroDivisionError: "When no regret is positive, the sum of positive regrets is 0: "
                                "play uniformly (every action equally often) instead of "
                                "dividing by it."}
    for regrets, expected in REGRET_MATCHING_CASES:
        shown = f"regrets {regrets}"
        with np.errstate(all="ignore"):
            result, failed = run_student(lambda r=regrets: function(np.array(r)),
                                         name="`my_regret_matching`", hints=hints)
        if failed is not None:
            if failed.mistake == "crash":
                return wrong(f"For {shown}: {failed.message}", "crash")
            return failed
        if result is None:
            return wrong(f"For {shown} your function returned None: did you forget `return`?",
                         "no-return")
        got = as_vector(result, len(regrets))
        thirds = as_vector(result, 3) if got is None else got
        if len(regrets) != 3 and thirds is not None and np.allclose(thirds, 1 / 3):
            return wrong(f"For {shown} ({len(regrets)} actions) you returned "
                         f"{np.round(thirds, 3).tolist()}: one third each, as if there were "
                         "always three actions. Rock-paper-scissors has three, but the function "
                         "should work for any number: uniform gives each of the len(regrets) "
                         f"actions 1/len(regrets), here 1/{len(regrets)}.", "hard-coded-length")
        if got is None:
            if _has_nan(result):
                return wrong(f"For {shown} you returned {np.round(result, 3).tolist()}: "
                             "dividing by a zero sum gives NaN. When no regret is positive, "
                             "play uniformly.", "nan-uniform")
            return wrong(f"For {shown} expected {len(regrets)} probabilities; got {result!r}.",
                         "shape")
        if np.allclose(got, expected):
            continue
        raw = np.array(regrets)
        if raw.sum() != 0 and np.allclose(got, raw / raw.sum()):
            return wrong(f"For {shown} you returned {np.round(got, 3).tolist()}, which "
                         "normalises the raw regrets, negative ones included, so probabilities "
                         "can be negative or above 1. Clip negative regrets to 0 first.",
                         "negative-regrets")
        if np.abs(raw).sum() and np.allclose(got, np.abs(raw) / np.abs(raw).sum()):
            return wrong(f"For {shown} you returned {np.round(got, 3).tolist()}: a large "
                         "negative regret is a reason to avoid an action, not to play it. Use "
                         "max(regret, 0), not the absolute value.", "absolute")
        positive = np.maximum(raw, 0)
        if positive.sum() > 0 and np.allclose(got, np.full(len(raw), 1 / len(raw))):
            return wrong(f"For {shown} you returned uniform, as if no regret were positive. "
                         "Some are, if only a little: a regret counts as positive however "
                         "small it is. Compare with `> 0` (no tolerance, no rounding) and "
                         "divide by the sum of the positive parts.", "threshold")
        if 0 < positive.sum() < 1 and np.allclose(got, positive):
            return wrong(f"For {shown} you returned {np.round(got, 3).tolist()}: the positive "
                         "regrets as they are. Here they sum to less than 1; divide by their "
                         "sum always, not by max(sum, 1) or only when it is large.",
                         "sum-floor")
        if np.allclose(got, 0):
            return wrong(f"For {shown} you returned all zeros, which is not a probability "
                         "distribution. When no regret is positive, play uniformly.",
                         "zeros-not-uniform")
        if not np.isclose(got.sum(), 1):
            return wrong(f"For {shown} your probabilities {np.round(got, 3).tolist()} sum to "
                         f"{got.sum():.3g}; a strategy must sum to 1.", "not-normalised")
        return wrong(f"For {shown} expected {np.round(expected, 3).tolist()}, got "
                     f"{np.round(got, 3).tolist()}.")
    return correct(f"Your function agrees with regret matching on all "
                   f"{len(REGRET_MATCHING_CASES)} test cases, including the ones where no "
                   "regret is positive.")


def _has_nan(result) -> bool:
    """True for numbers of which some are NaN or infinite (never raises)."""
    try:
        values = np.array(result, dtype=float, ndmin=1)
    except (TypeError, ValueError):
        return False
    return bool(np.any(~np.isfinite(values)))


def check_variant_prediction(answer) -> Feedback:
    """Predict the equilibrium of the variant in which scissors wins and loses 2.

    The equilibrium is rock 0.4, paper 0.4, scissors 0.2; a guess within
    0.05 of each probability counts.
    """
    if unanswered(answer):
        return not_done("Set `my_prediction` to three probabilities for rock, paper and "
                        "scissors before you look.")
    values = as_vector(answer, 3)
    if values is not None and np.all(values >= 0) and np.isclose(values.sum(), 100, atol=1e-4):
        return wrong(f"These look like percentages (they sum to 100). Give probabilities: "
                     f"{np.round(values / 100, 3).tolist()} is the same guess.", "percentage")
    if values is None or np.any(values < 0) or not np.isclose(values.sum(), 1, atol=1e-6):
        return wrong(f"A prediction is three non-negative probabilities that sum to 1; got "
                     f"{answer!r}.", "not-a-distribution")
    eq = matrix_equilibrium(VARIANT).row
    if np.allclose(values, eq, atol=0.05):
        return correct("Yes: rock 0.4, paper 0.4, scissors 0.2. Against that mix rock, paper "
                       "and scissors all earn exactly 0, so no player can gain by changing: "
                       "doubling scissors' stakes makes it played less, not more.")
    if values[2] > 1 / 3 + 0.01:
        return wrong("A natural guess, and the opposite of the truth: scissors is played "
                     "*less*. At an equilibrium each action played must earn the same against "
                     "the opponent's mix (r, p, s). Rock earns -p + 2s, paper r - 2s, "
                     "scissors 2p - 2r; setting them all to 0 gives r = p = 2s, so "
                     "(0.4, 0.4, 0.2).", "more-scissors")
    return wrong(f"Not quite: the equilibrium is rock {eq[0]:.1f}, paper {eq[1]:.1f}, "
                 f"scissors {eq[2]:.1f}. Check it: against that mix, every action earns "
                 "exactly 0.", "off")
