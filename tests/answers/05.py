"""The answers of lesson 05's exercises, as an output would give them away (issue 29).

Each entry maps an exercise's tag to a function that computes its answer with cfrviz and
returns the strings that would show it.  Exercise 1's answer is "fold, -1": folding always
loses the ante, so what gives it away is the value of the call it beats (-4/3 against the
bluffer), listed here.  Exercise 2 (exercise-best-response-code) asks for code: no output
prints its answer.  Its ANSWER_FUNCTIONS are the package's implementations of the skeleton's
computation, which no cell before the exercise names.  ``cfrviz.best_response`` is not among
them: section 1 teaches it (the honest player's table, the solver's view of a spot) before the
exercise on purpose, and the exercise compares with it; instead the checker refuses a function
that calls it, or any of these, under any name (run_student's ``forbidden=``).
"""

from __future__ import annotations

from collections.abc import Callable

import cfrviz
from cfrviz.exercises import lesson05


def _best_response_by_hand() -> list[str]:
    kuhn = cfrviz.load_game("kuhn_poker")
    spot = lesson05.spot_analysis(kuhn, cfrviz.Policy.from_dict(kuhn, lesson05.BLUFFER),
                                  lesson05.SPOT)
    call = float(spot["conditional"][spot["actions"].index("b")])
    return sorted({f"{call:+.3f}", f"{call:+.4f}", f"{call:.2f}", f"{round(call, 4)}"})


def _exploitability() -> list[str]:
    kuhn = cfrviz.load_game("kuhn_poker")
    trace = cfrviz.solve(kuhn, "cfr", 10_000, seed=0, progress=False)
    e = cfrviz.exploitability(kuhn, trace.average_policy(lesson05.EXPLOIT_ITERATION))
    return [f"{e:.5f}", f"{e:.4f}", f"{e:.3f}"]


ANSWER_FUNCTIONS: dict[str, set[str]] = {
    "exercise-best-response-code": {"my_best_response", "tree_best_response",
                                    "variant_best_response", "exploiter"},
}

ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-best-response-by-hand": _best_response_by_hand,
    "exercise-exploitability": _exploitability,
}
