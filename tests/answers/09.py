"""The answers of lesson 09's exercises, as an output would give them away (issue 29).

Lesson 09's only exercise (exercise-predictive-rm) asks for code, PCFR+'s step: its answer is
code, which no output prints, so there is nothing to search for.
"""

from __future__ import annotations

from collections.abc import Callable

ANSWERS: dict[str, Callable[[], list[str]]] = {}
