"""Checkers for lesson 01, regret matching on rock-paper-scissors."""

from __future__ import annotations

import numpy as np

from ..analysis.equilibrium import matrix_equilibrium
from ..core.regret import regret_matching
from ..games.matrix import RPS_PAYOFFS
from . import Feedback, as_vector, correct, unanswered, wrong
from .coding import checks, floats, run_student
from .diagnosis import Case, close_to, diagnose, fallback

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
    """Exercise 1: player 1's regrets after rock against paper, ``[0, 1, 2]`` (R, P, S)."""
    expected = round_regrets(**ROUND)
    payoff_column = np.asarray(RPS_PAYOFFS, dtype=float)[:, ACTIONS.index(ROUND["theirs"])]
    return diagnose(as_vector(answer, 3), (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_regrets` to a list of three numbers: the regrets for rock, "
                      "paper and scissors."),
        Case("shape", lambda values: values is None,
             f"Expected a list of three numbers (rock, paper, scissors); got {answer!r}."),
        Case.correct(close_to(expected),
                     "Rock earned -1. Paper would have earned 0 (1 better) and scissors +1 "
                     "(2 better), so the regrets are [0, 1, 2]. The action you played always "
                     "has regret 0."),
        Case("sign", close_to(-expected),
             "The signs are flipped. Regret is (what the other action would have earned) minus "
             "(what you earned): positive means 'I wish I had played that'."),
        Case("payoff-not-regret", close_to(payoff_column),
             "These are the payoffs each action would have earned against paper. Regret "
             "subtracts what you actually earned with rock (-1) from each."),
        Case("other-player", close_to(-payoff_column),
             "These look like player 2's payoffs. The question asks about player 1, who played "
             "rock against paper."),
        Case("partly", lambda values: bool(np.isclose(values[0], 0)),
             "Rock's regret is right (0: it is what you played). For paper and scissors, "
             "compare what each would have earned against paper with the -1 that rock earned."),
        fallback("Not quite. For each action a, regret[a] = payoff(a vs paper) - payoff(rock vs "
                 "paper). Rock vs paper pays -1."),
    ))


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


#: The package's regret matching, which exercise 2 asks the student to write.
_ANSWERS = {regret_matching: "`cfrviz.regret_matching`"}


@checks("`my_regret_matching`", "check_regret_matching(my_regret_matching)")
def check_regret_matching(function) -> Feedback:
    """Exercise 2: ``function(cumulative_regrets) -> strategy`` is regret matching on each of
    :data:`REGRET_MATCHING_CASES` (judged by :func:`regret_matching_cases`), leaves its
    argument as it was and does not call :func:`cfrviz.regret_matching`."""
    hints = {ZeroDivisionError: "When no regret is positive, the sum of positive regrets is 0: "
                                "play uniformly (every action equally often) instead of "
                                "dividing by it."}
    for regrets, expected in REGRET_MATCHING_CASES:
        given = np.array(regrets)
        with np.errstate(all="ignore"):
            result, failed = run_student(lambda g=given: function(g),
                                         name="`my_regret_matching`", hints=hints,
                                         forbidden=_ANSWERS,
                                         unchanged=[("cumulative_regrets", given)])
        if failed is not None:
            if failed.mistake == "crash":
                return wrong(f"For regrets {regrets}: {failed.message}", "crash")
            if failed.mistake == "changes its input":
                return wrong(f"For regrets {regrets}: {failed.message} The caller keeps its "
                             "running totals in that array (exercise 4's loop does): clipped "
                             "there, the negative regrets are lost and the loop learns "
                             "something else.", failed.mistake)
            return failed
        verdict = diagnose(as_vector(result, len(regrets)),
                           regret_matching_cases(regrets, expected, result))
        if not verdict.correct:
            return verdict
    return correct(f"Your function agrees with regret matching on all "
                   f"{len(REGRET_MATCHING_CASES)} test cases, including the ones where no "
                   "regret is positive.")


def regret_matching_cases(regrets, expected, result) -> tuple[Case, ...]:
    """The table for one input of exercise 2: what the student's ``result`` for ``regrets``
    (whose right strategy is ``expected``) can tell.  The value it judges is ``result`` as
    ``len(regrets)`` finite numbers, or None."""
    shown, n = f"regrets {regrets}", len(regrets)
    raw = np.array(regrets)
    positive = np.maximum(raw, 0)
    thirds = as_vector(result, 3)

    def rounded(values) -> list:
        return np.round(values, 3).tolist()

    def uniform_of_three(got) -> bool:
        values = thirds if got is None else got
        return n != 3 and values is not None and bool(np.allclose(values, 1 / 3))

    return (
        Case("no-return", lambda _: result is None,
             f"For {shown} your function returned None: did you forget `return`?"),
        Case("hard-coded-length", uniform_of_three,
             lambda got: f"For {shown} ({n} actions) you returned "
                         f"{rounded(thirds if got is None else got)}: one third each, as if "
                         "there were always three actions. Rock-paper-scissors has three, but "
                         "the function should work for any number: uniform gives each of the "
                         f"len(regrets) actions 1/len(regrets), here 1/{n}."),
        Case("nan-uniform", lambda got: got is None and _has_nan(result),
             lambda _: f"For {shown} you returned {rounded(result)}: dividing by a zero sum "
                       "gives NaN. When no regret is positive, play uniformly."),
        Case("shape", lambda got: got is None,
             f"For {shown} expected {n} probabilities; got {result!r}."),
        Case.correct(close_to(expected), f"Right for {shown}."),
        Case("negative-regrets", lambda got: raw.sum() != 0 and np.allclose(got, raw / raw.sum()),
             lambda got: f"For {shown} you returned {rounded(got)}, which normalises the raw "
                         "regrets, negative ones included, so probabilities can be negative or "
                         "above 1. Clip negative regrets to 0 first."),
        Case("absolute", lambda got: bool(np.abs(raw).sum())
             and np.allclose(got, np.abs(raw) / np.abs(raw).sum()),
             lambda got: f"For {shown} you returned {rounded(got)}: a large negative regret is "
                         "a reason to avoid an action, not to play it. Use max(regret, 0), not "
                         "the absolute value."),
        Case("threshold", lambda got: positive.sum() > 0 and np.allclose(got, np.full(n, 1 / n)),
             f"For {shown} you returned uniform, as if no regret were positive. Some are, if "
             "only a little: a regret counts as positive however small it is. Compare with "
             "`> 0` (no tolerance, no rounding) and divide by the sum of the positive parts."),
        Case("sum-floor", lambda got: 0 < positive.sum() < 1 and np.allclose(got, positive),
             lambda got: f"For {shown} you returned {rounded(got)}: the positive regrets as "
                         "they are. Here they sum to less than 1; divide by their sum always, "
                         "not by max(sum, 1) or only when it is large."),
        Case("zeros-not-uniform", close_to(0),
             f"For {shown} you returned all zeros, which is not a probability distribution. "
             "When no regret is positive, play uniformly."),
        Case("not-normalised", lambda got: not np.isclose(got.sum(), 1),
             lambda got: f"For {shown} your probabilities {rounded(got)} sum to "
                         f"{got.sum():.3g}; a strategy must sum to 1."),
        fallback(lambda got: f"For {shown} expected {rounded(expected)}, got {rounded(got)}."),
    )


def _has_nan(result) -> bool:
    """True for numbers of which some are NaN or infinite (never raises)."""
    try:
        values = np.atleast_1d(floats(result))
    except (TypeError, ValueError):
        return False
    return bool(np.any(~np.isfinite(values)))


def check_variant_prediction(answer) -> Feedback:
    """Predict the equilibrium of the variant in which scissors wins and loses 2: rock 0.4,
    paper 0.4, scissors 0.2, each to 0.05."""
    eq = matrix_equilibrium(VARIANT).row
    return diagnose(as_vector(answer, 3), (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_prediction` to three probabilities for rock, paper and scissors "
                      "before you look."),
        Case("percentage", lambda values: values is not None and bool(np.all(values >= 0))
             and bool(np.isclose(values.sum(), 100, atol=1e-4)),
             lambda values: "These look like percentages (they sum to 100). Give "
                            f"probabilities: {np.round(values / 100, 3).tolist()} is the same "
                            "guess."),
        Case("not-a-distribution", lambda values: values is None or bool(np.any(values < 0))
             or not np.isclose(values.sum(), 1, atol=1e-6),
             "A prediction is three non-negative probabilities that sum to 1; got "
             f"{answer!r}."),
        Case.correct(close_to(eq, atol=0.05),
                     "Yes: rock 0.4, paper 0.4, scissors 0.2. Against that mix rock, paper and "
                     "scissors all earn exactly 0, so no player can gain by changing: doubling "
                     "scissors' stakes makes it played less, not more."),
        Case("more-scissors", lambda values: values[2] > 1 / 3 + 0.01,
             "A natural guess, and the opposite of the truth: scissors is played *less*. At an "
             "equilibrium each action played must earn the same against the opponent's mix "
             "(r, p, s). Rock earns -p + 2s, paper r - 2s, scissors 2p - 2r; setting them all "
             "to 0 gives r = p = 2s, so (0.4, 0.4, 0.2)."),
        fallback(f"Not quite: the equilibrium is rock {eq[0]:.1f}, paper {eq[1]:.1f}, scissors "
                 f"{eq[2]:.1f}. Check it: against that mix, every action earns exactly 0.",
                 "off"),
    ))
