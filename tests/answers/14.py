"""The answers of lesson 14's exercises, as an output would give them away (issue 29).

The one exercise ("exercise-root-values") asks for code, the re-solve gadget's input, so it is
not listed.  What would give it away is the package function that computes it: the lesson no
longer imports ``root_values`` (nor the ``subgame`` module) before the exercise's check cell,
prints no per-hand best-response value before it, and the checker refuses a function that calls
``root_values`` (tests/test_exercises_lesson14.py).  The values themselves are printed after the
check, where the lesson compares them with the student's.
"""

from __future__ import annotations

from collections.abc import Callable

ANSWERS: dict[str, Callable[[], list[str]]] = {}
