"""Checkers for lesson 07, faster CFR: CFR+, linear CFR and discounted CFR."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..analysis.variants import dcfr_discounts
from ..solvers.registry import ALGORITHMS
from . import Feedback, as_vector, correct, not_done, unanswered, wrong

#: Exercise 1: DCFR's multipliers after this iteration, with the paper's parameters.
DISCOUNT_T = 4
DISCOUNT_PARAMS = (1.5, 0.0, 2.0)
#: Exercise 2: the race on Leduc poker.
RACE_GAME = "leduc_poker"
RACE_ITERATIONS = 500
#: The variants the race compares (the answer key of exercise 2).
VARIANTS = ("cfr", "cfr+", "linear_cfr", "dcfr")


def check_dcfr_discounts(answer) -> Feedback:
    """Exercise 1: the three factors DCFR (1.5, 0, 2) applies after iteration 4.

    Positive regrets × 4^1.5 / (4^1.5 + 1) = 8/9, negative regrets
    × 4^0 / (4^0 + 1) = 1/2, strategy sum × (4/5)^2 = 16/25.
    """
    if unanswered(answer):
        return not_done("Set `my_factors` to three numbers: the multipliers for positive "
                        "regrets, negative regrets and the strategy sum.")
    got = as_vector(answer, 3)
    if got is None:
        return wrong(f"Expected three numbers [positive, negative, average]; got {answer!r}.",
                     "shape")
    alpha, beta, gamma = DISCOUNT_PARAMS
    t = DISCOUNT_T
    right = np.array(dcfr_discounts(t, alpha, beta, gamma))
    if np.allclose(got, right, atol=2e-3):
        return correct("Right: 8/9 ≈ 0.889 (4^1.5 = 8), 1/2 (any t^0 is 1) and (4/5)^2 = 0.64. "
                       "Positive regrets are barely touched, negative regrets are halved after "
                       "every iteration — so an action that was bad early can recover quickly "
                       "— and the average forgets early strategies.")
    if np.allclose(got, right[[1, 0, 2]], atol=2e-3):
        return wrong("α and β are swapped: α discounts the positive regrets (t^1.5 → 8/9) and "
                     "β the negative ones (t^0 → 1/2).", "swapped")
    if np.allclose(got, dcfr_discounts(t + 1, alpha, beta, gamma), atol=2e-3):
        return wrong("Those are the factors after iteration 5. Use t = 4, the iteration just "
                     "finished.", "next-iteration")
    if np.allclose(got[:2], right[:2], atol=2e-3) and np.isclose(got[2], t / (t + 1), atol=2e-3):
        return wrong("The regret factors are right. The average's factor is (t/(t+1)) raised "
                     "to the power γ = 2.", "gamma-power")
    if np.allclose(got[:2], right[:2], atol=2e-3) and np.isclose(got[2], t**gamma / (t**gamma + 1),
                                                              atol=2e-3):
        return wrong("The regret factors are right, but the strategy sum uses a different "
                     "formula: (t/(t+1))^γ, not t^γ/(t^γ+1).", "average-formula")
    if np.isclose(got[0], right[0], atol=2e-3) and np.isclose(got[1], 0.0):
        return wrong("Setting negative regrets to 0 is what CFR+ does. DCFR multiplies them "
                     "by t^β/(t^β+1), which for β = 0 is 1/2.", "cfr-plus")
    if np.any(got > 1):
        return wrong("A discount is a multiplier between 0 and 1. Did you forget to divide: "
                     "t^α / (t^α + 1)?", "not-a-factor")
    return wrong("Not quite. Positive regrets: t^α/(t^α+1); negative regrets: t^β/(t^β+1); "
                 "strategy sum: (t/(t+1))^γ; with t = 4, α = 1.5, β = 0, γ = 2.")


@lru_cache(maxsize=1)
def race() -> dict[str, float]:
    """Exploitability of each variant's average after :data:`RACE_ITERATIONS` on Leduc."""
    from ..analysis.evaluation import exploitability
    from ..games import load_game
    from ..solvers import solve

    game = load_game(RACE_GAME)
    out = {}
    for name in VARIANTS:
        trace = solve(game, name, RACE_ITERATIONS, checkpoints=[], progress=False)
        out[name] = float(exploitability(game, trace.average_policy()))
    return out


def _name(item) -> str | None:
    """The variant a student's name refers to (any registered alias), if the race has it."""
    name = ALGORITHMS.resolve(item)
    return name if name in VARIANTS else None


def check_variant_ranking(answer) -> Feedback:
    """Exercise 2: rank CFR, CFR+, linear CFR and DCFR by exploitability after 500 iterations.

    The answer is a list, lowest exploitability first (a single name is
    taken as the prediction of the lowest).  The truth is computed here, by
    running the four solvers on Leduc poker.
    """
    if unanswered(answer):
        return not_done("Set `my_ranking` to the four names, lowest exploitability first, "
                        "e.g. ['cfr', 'linear_cfr', 'cfr+', 'dcfr'].")
    results = race()
    truth = tuple(sorted(results, key=results.__getitem__))
    numbers = ", ".join(f"{n} {results[n]:.1e}" for n in truth)
    if isinstance(answer, str):
        name = _name(answer)
        if name is None:
            return wrong(f"Use one of {', '.join(VARIANTS)}; got {answer!r}.", "names")
        if name == truth[0]:
            return correct(f"Yes, {name} is lowest after {RACE_ITERATIONS} iterations "
                           f"({numbers}).")
        names: tuple[str, ...] = (name,)
    else:
        try:
            items = list(answer)
        except TypeError:
            return wrong(f"Give a list of the four names; got {answer!r}.", "shape")
        # the names the race has, in the given order (an unknown one leaves fewer than four)
        names = tuple(n for n in map(_name, items) if n is not None)
        if len(items) != 4 or len(names) != 4 or sorted(names) != sorted(VARIANTS):
            return wrong(f"List each of {', '.join(VARIANTS)} exactly once; got {items!r}.",
                         "names")
        if names == truth:
            ratio = results[truth[-1]] / results[truth[0]]
            return correct(f"All four in the right order: {numbers}. Discounting the early, "
                           f"bad iterations pays: after the same work {truth[0]} is {ratio:.0f} "
                           f"times less exploitable than {truth[-1]}.")
    first = names[0]
    if first == "cfr":
        return wrong("Vanilla CFR is the slowest of the four here: its average gives the "
                     "terrible first iterations as much weight as the last ones, and its "
                     f"negative regrets pile up. Measured: {numbers}.", "vanilla-best")
    if first == "linear_cfr":
        return wrong("Linear CFR helps (recent iterations count more) but keeps large "
                     "negative regrets, so an action that looked bad early stays unplayed for "
                     f"long. Measured: {numbers}.", "linear-best")
    if first == "cfr+" and truth[0] == "dcfr":
        return wrong("Close: CFR+ is a strong second. DCFR also halves negative regrets every "
                     "iteration (β = 0) and weights the average quadratically (γ = 2), and "
                     f"on Leduc that edges ahead. Measured: {numbers}.", "plus-vs-dcfr")
    if len(names) == 4 and first == truth[0]:
        if names.index("linear_cfr") < names.index("cfr+"):
            return wrong("The winner is right. Further down, CFR+ beats linear CFR: throwing "
                         "negative regrets away (regret matching+) matters more than weighting "
                         f"iterations linearly. Measured: {numbers}.", "linear-vs-plus")
        return wrong(f"The winner is right, the rest is not. Measured: {numbers}.", "partly")
    return wrong(f"Not quite. Measured: {numbers}.")
