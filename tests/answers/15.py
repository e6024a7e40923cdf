"""The answers of lesson 15's exercises, as an output would give them away (issue 29).

Exercise 1 ("exercise-combos") asks how many combos of AT a player can hold on the board: a
range's repr would say it ("<Range: 12 combos, 4 removed by the board ...>"), so the lesson prints
no range of AT before the check.  Exercise 2 ("exercise-showdown") asks for code; the package's
version, the checker's double loop ``showdown_values``, is used only after the check cell.
"""

from __future__ import annotations

from collections.abc import Callable

from cfrviz.exercises import lesson15


def _combos() -> list[str]:
    count = lesson15.at_combos()
    return [f"<Range: {count} combos, {16 - count} removed by the board",
            f"AT: {count} combos", f"{count} combos of AT"]


ANSWERS: dict[str, Callable[[], list[str]]] = {"exercise-combos": _combos}
ANSWER_FUNCTIONS = {"exercise-showdown": {"showdown_values", "my_showdown_values"}}
