"""The answers of lesson 10's exercises, as an output would give them away (issue 29).

Exercise 1 counts the information sets of Leduc poker with four ranks; the lesson prints the
three-rank game's 288 on purpose (to check a method on), so only the four-rank count is an
answer.  Exercise 2 names the archetype the trained strategy beats by the most: its name is
everywhere, so what gives it away is its exact winnings per hand, which the tournament cell
shows only once a pick is made.  Exercise 3 (a bot) is code.
"""

from __future__ import annotations

from collections.abc import Callable

from cfrviz.exercises import lesson10


def _leduc_infosets() -> list[str]:
    n = lesson10.leduc_infosets()
    return [f"{n} information sets", f"{n:>18,}", f"= {n}", f"{n} in all"]


def _most_exploited() -> list[str]:
    values = lesson10.tournament_values()
    best = max(values, key=values.__getitem__)
    return [f"{values[best]:+.3f}", f"{best} {values[best]:+.3f}"]


#: Exercise 3 asks for `my_bot`; the package's `cfrviz.bot` (the archetypes, used before it) is
#: not an answer to it, so only the student's own name counts as "at hand".
ANSWER_FUNCTIONS: dict[str, set[str]] = {"exercise-my-bot": set()}

ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-leduc-infosets": _leduc_infosets,
    "exercise-most-exploited": _most_exploited,
}
