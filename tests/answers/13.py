"""The answers of lesson 13's exercises, as an output would give them away (issue 29).

All three exercises of the Deep CFR lesson ask for code (reservoir sampling, the network's
target at a set, Single Deep CFR's average at a set), so none is listed: their checkers compare
functions on many inputs, and no single number printed by the lesson is an answer.  The
checkers' own messages to a blank say only "not done yet".
"""

from __future__ import annotations

from collections.abc import Callable

ANSWERS: dict[str, Callable[[], list[str]]] = {}
