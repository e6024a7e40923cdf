"""The answers of lesson 01's exercises, as an output would give them away (issue 29).

Each entry maps an exercise's tag to a function that computes its answer with cfrviz and
returns the strings that would show it.  Exercises 2 and 4 (regret matching, the sampled
trainer) ask for code, which no output prints: the regret-matching checker refuses a call to
``cfrviz.regret_matching``, listed in ANSWER_FUNCTIONS.  Exercise 3 is a prediction; the cell
after its check reveals the equilibrium only once ``my_prediction`` holds a guess.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import cfrviz
from cfrviz.exercises import lesson01


def _vector_forms(values) -> list[str]:
    """How a printed list or array of these numbers reads: [0, 1, 2], [0.0, 1.0, 2.0] or
    [0. 1. 2.]."""
    values = np.asarray(values, dtype=float)
    forms = {str(values), str(values.tolist())}
    if np.allclose(values, np.round(values)):
        forms.add(str([int(v) for v in np.round(values)]))
    return sorted(forms)


def _regret_vector() -> list[str]:
    return _vector_forms(lesson01.round_regrets(**lesson01.ROUND))


def _variant_prediction() -> list[str]:
    row = cfrviz.matrix_equilibrium(lesson01.VARIANT).row
    rounded = np.round(row, 6)
    return sorted({str({a: round(float(p), 6) for a, p in zip(lesson01.ACTIONS, row)}),
                   *_vector_forms(rounded),
                   ", ".join(f"{p:.3f}" for p in row),
                   "  ".join(f"{a} {p:.3f}" for a, p in zip(lesson01.ACTIONS, row))})


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-regret-vector": _regret_vector,
    "exercise-variant-prediction": _variant_prediction,
}

ANSWER_FUNCTIONS: dict[str, set[str]] = {
    "exercise-regret-matching": {"regret_matching"},
}
