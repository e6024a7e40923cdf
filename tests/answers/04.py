"""The answers of lesson 04's exercises, as an output would give them away (issue 29).

Each entry maps an exercise's tag to a function that computes its answer with cfrviz and
returns the strings that would show it.  Exercise 3 (exercise-my-cfr) asks for code: no
output prints its answer.  ``cfrviz.solve(tree, "cfr", n)`` computes it and is used throughout
the lesson by design (the checker compares with it), so the checker refuses a ``my_cfr`` that
calls it; the name the exercise asks for, ``my_cfr``, and the checker's own vanilla CFR,
``cfr_variant_run`` (refused too), are at hand nowhere before it.
"""

from __future__ import annotations

from collections.abc import Callable

import cfrviz
from cfrviz.exercises import lesson04


def _average_at_set() -> list[str]:
    # The run the lesson's explorer shows, read where exercise 1 asks.
    trace = cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr", lesson04.EXPLORER_ITERATIONS,
                         seed=0, progress=False)
    p = trace.average_policy(lesson04.ITERATION)[lesson04.SET][lesson04.ACTION]
    return [f"{p:.4f}", f"{p:.3f}"]


def _alpha() -> list[str]:
    # The run of exercise 2, as the lesson trains it: any of its three readings counts.
    mystery = cfrviz.solve(cfrviz.load_game("kuhn_poker"), "linear_cfr", 2_000, seed=0,
                           progress=False)
    readings = lesson04.alpha_estimates(mystery).values()
    return sorted({f"{a:.4f}" for a in readings} | {f"{a:.3f}" for a in readings})


ANSWER_FUNCTIONS: dict[str, set[str]] = {
    "exercise-my-cfr": {"my_cfr", "cfr_variant_run"},
}

ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-average-at-set": _average_at_set,
    "exercise-alpha": _alpha,
}
