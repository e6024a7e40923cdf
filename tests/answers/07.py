"""The answers of lesson 07's exercises, as an output would give them away (issue 29).

Exercise 1 (outcome sampling's regrets on a path) asks for code: its checker refuses a call of
the package's ``outcome_regrets``.  Exercise 2 asks for an order of four algorithm names: the
measurement after its check cell gives it as each algorithm's nodes per iteration, printed
fewest first, and the checker tells it to a right answer as ``name nodes, ...``.  Both are
computed here with ``nodes_per_iteration``, as the lesson and the checker compute them.  (The
race of section 6, on the iterations axis, gives the order away too, by where each line ends;
its numbers are not strings to look for, so the lesson holds it back with the measurement.)
"""

from __future__ import annotations

from collections.abc import Callable

import cfrviz
from cfrviz.analysis.sampling import nodes_per_iteration


def _fewest_nodes() -> list[str]:
    measured = nodes_per_iteration(cfrviz.load_game("leduc_poker"))
    fewest_first = sorted(measured, key=measured.__getitem__)
    return [*(f"{measured[name]:,.1f} nodes per iteration" for name in fewest_first),
            ", ".join(f"{name} {measured[name]:,.0f}" for name in fewest_first)]


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-fewest-nodes": _fewest_nodes,
}
