"""The answers of lesson 08's exercises, as an output would give them away (issue 29).

Exercise 1 (a CFR+ iteration) asks for code: its checker refuses a call of the package's
``plus_iteration``.  Exercise 2's three DCFR factors after iteration 4 are computed here with
``dcfr_discounts``; the negative-regret factor, 1/2 with β = 0, is the same at every iteration
(the lesson's table of other iterations shows it, as the text after it says), so only the other
two and the triple are looked for.  Exercise 3 asks for a ranking of four names: the race after
its check cell gives it as each variant's exploitability after 500 iterations, and the checker
tells it to a right answer as ``name value, ...`` (``lesson08.race()``, which measures it).
(The explorer of section 4 and the current strategies of section 5 show the same ranking, as
lines and as the averages after 2,000 iterations, which are other numbers; the lesson holds them
back with the race.)
"""

from __future__ import annotations

from collections.abc import Callable

from cfrviz.analysis.variants import dcfr_discounts
from cfrviz.exercises import lesson08

ANSWER_FUNCTIONS: dict[str, set[str]] = {
    "exercise-cfr-plus-iteration": {"plus_iteration", "cfr_plus_iteration"},
}


def _dcfr_discounts() -> list[str]:
    positive, negative, average = dcfr_discounts(lesson08.DISCOUNT_T, *lesson08.DISCOUNT_PARAMS)
    return [f"{positive:.4f}", f"{positive:.3f}", f"{average:.4f}", f"{average:.3f}",
            f"positive × {positive:.4f}", f"strategy sum × {average:.4f}",
            f"[{positive:.4g}, {negative:.4g}, {average:.4g}]"]


def _variant_ranking() -> list[str]:
    measured = lesson08.race()
    lowest_first = sorted(measured, key=measured.__getitem__)
    return [*(f"{measured[name]:.2e}" for name in lowest_first),  # as the race prints them
            ", ".join(f"{name} {measured[name]:.1e}" for name in lowest_first)]


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-dcfr-discounts": _dcfr_discounts,
    "exercise-variant-ranking": _variant_ranking,
}
