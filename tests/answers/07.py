"""The answers of lesson 07's exercises, as an output would give them away (issue 29).

Exercise 1 (outcome sampling's regrets on a path) asks for code: its checker refuses a call of
the package's ``outcome_regrets``.  Exercise 2 asks for an order of four algorithm names, which
no output prints as such: the measurement after its check cell prints the nodes per iteration
of each, sorted, which is the reveal the exercise asks the student to predict.
"""

from __future__ import annotations

from collections.abc import Callable

ANSWERS: dict[str, Callable[[], list[str]]] = {}

UNSEARCHABLE: dict[str, str] = {
    "exercise-fewest-nodes": "an order of four names, not a string an output would print; the "
                             "measurement after the check cell is the lesson's reveal, and the "
                             "checker tells a wrong order which pair is out of place, not the "
                             "measured order",
}
