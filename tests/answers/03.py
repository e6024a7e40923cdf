"""The answers of lesson 03's exercises, as an output would give them away (issue 29).

Exercise 1's counterfactual values are computed from the checker's profile.  Exercises 2 and 3
ask for code, which no output prints; ANSWER_FUNCTIONS lists the functions that compute them,
which the lesson imports only after each exercise and the checkers refuse to be called.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

import cfrviz
from cfrviz.analysis.explain import counterfactual_values
from cfrviz.exercises import lesson03


def _counterfactual_values() -> list[str]:
    kuhn = cfrviz.load_game("kuhn_poker")
    values = counterfactual_values(kuhn, cfrviz.Policy.from_dict(kuhn, lesson03.BLUFF_POLICY),
                                   lesson03.CF_INFOSET)["action_values"]
    shown = {str(np.round(values, 4))}
    for v in values:
        shown |= {f"{v:.4f}", f"{v:.3f}", f"{v:+.3f}",
                  str(Fraction(float(v)).limit_denominator(100))}
    return sorted(shown)


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-counterfactual-values": _counterfactual_values,
}

ANSWER_FUNCTIONS: dict[str, set[str]] = {
    "exercise-counterfactual-function": {"counterfactual_values", "counterfactual_table",
                                         "cf_variants"},
    "exercise-regret-update": {"counterfactual_regret", "regret_update"},
}
