"""The answers of lesson 06's exercises, as an output would give them away (issue 29).

Exercise 1 (importance weights) has a numeric answer, computed here from the checker's own
deal and sampler probabilities.  Exercises 2 and 3 (chance sampling, external sampling) ask for
code, which no output prints: the checkers refuse the package's walks (ANSWER_FUNCTIONS lists
them), and the listing of ``external_sampling_walk`` comes after exercise 3, behind a button.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from cfrviz.exercises import lesson06

#: The package's own versions of the functions exercises 2 and 3 ask for (no cell before the
#: exercise may name them).
ANSWER_FUNCTIONS: dict[str, set[str]] = {
    "exercise-chance-sampling": {"chance_sampling_walk", "chance_sampling_variant",
                                 "sampled_walk"},
    "exercise-external-sampling": {"external_sampling_walk", "external_sampling_variant",
                                   "sampled_walk"},
}


def _importance_weights() -> list[str]:
    weights = lesson06.DEAL_P / lesson06.SAMPLER_Q
    fractions = [str(Fraction(float(w)).limit_denominator(100)) for w in weights]
    return [f"{weights[0]:.4f}", f"{weights[1]:.4f}", f"{weights[0]:.3f}", f"{weights[1]:.3f}",
            "(" + ", ".join(fractions) + ")", "[" + ", ".join(f"{w:.4g}" for w in weights) + "]"]


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-importance-weights": _importance_weights,
}
