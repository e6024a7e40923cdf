"""The answers of lesson 02's exercises, as an output would give them away (issue 29).

Exercise 2's reach probability is computed with the checker's own profile and node.  The
package's breakdown after the exercise works another node (``KJ:pb``), whose reach differs.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import cfrviz
from cfrviz.exercises import lesson02


def _reach() -> list[str]:
    kuhn = cfrviz.load_game("kuhn_poker")
    p = lesson02.reach_breakdown(kuhn, lesson02.REACH_POLICY, lesson02.REACH_NODE).total
    return [str(Fraction(p).limit_denominator(1000)), f"{p:.4f}", f"{p:.3f}", f"{p:.6f}"]


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-reach": _reach,
}

UNSEARCHABLE: dict[str, str] = {
    "exercise-which-set": "the answer (the key 'Qb' and the node 'KQ:b') is read off the tree, "
                          "as the exercise means it to be: every drawing of Kuhn poker names "
                          "each node's history and set when hovered, and section 2 prints all "
                          "twelve keys",
}
