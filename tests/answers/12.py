"""The answers of lesson 12's exercises, as an output would give them away (issue 29).

Each entry maps an exercise's tag to a function that computes its answer with cfrviz and
returns the strings that would show it.  Exercise 1's answer also appears, rounded to three
significant figures ("1.53e+04 TB"), in the extrapolation printed after its check cell, where
the lesson reveals it on purpose; the forms below are the ones an earlier output could show.
"""

from __future__ import annotations

from collections.abc import Callable

from cfrviz.exercises import lesson12


def _hulhe_memory() -> list[str]:
    terabytes = lesson12.hulhe_terabytes()
    # Not the bare digits "15312": the size chart's memory view holds the same tables in bytes,
    # 15312000000000000 in the browser's copy of its data, which is no answer in terabytes.
    return [f"{terabytes:,.0f}", f"{terabytes:.0f} TB", f"{terabytes:.4g}",
            f"{terabytes / 1000:,.2f} PB"]


def _milestones() -> list[str]:
    out = []
    for system, letter in lesson12.MATCH.items():
        out += [f"{system}: {letter}", f"'{system}': '{letter}'", f"{system} → {letter}",
                f"{system} = {letter}"]
    return out


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-hulhe-memory": _hulhe_memory,
    "exercise-milestones": _milestones,
}
