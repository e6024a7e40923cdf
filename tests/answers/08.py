"""The answers of lesson 08's exercises, as an output would give them away (issue 29).

Exercise 1 (a CFR+ iteration) asks for code: its checker refuses a call of the package's
``plus_iteration``.  Exercise 2's three DCFR factors after iteration 4 are computed here with
``dcfr_discounts``; the negative-regret factor, 1/2 with β = 0, is the same at every iteration
(the lesson's table of other iterations shows it, as the text after it says), so only the other
two and the triple are looked for.  Exercise 3 asks for a ranking of four names, which no output
prints as such: the race after its check cell is the lesson's measurement, and the checker
tells a wrong ranking what is wrong, not the measured order.
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


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-dcfr-discounts": _dcfr_discounts,
}

UNSEARCHABLE: dict[str, str] = {
    "exercise-variant-ranking": "a ranking of four names, not a string an output would print; "
                                "the race after the check cell is the lesson's measurement",
}
