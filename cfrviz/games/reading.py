"""What both game-file readers share: the depth and path-text limits, node paths, exact
numbers and the text checks of their messages."""

from __future__ import annotations

import math
import re
from fractions import Fraction

from .nodes import Node, shown_path

MAX_DEPTH = 5_000
"""The most moves from the root to a node that a game file may have."""
MAX_PATH_TEXT = 100_000_000
"""The most characters that the paths of all the nodes of a game file may add up to.

Each node keeps its path as text (its ``history``), so memory grows with depth
times the number of nodes: a chain 5,000 moves deep with two-letter labels
holds about 75 million characters, and without a limit a file of a few
megabytes, with long labels on a deep chain, would need gigabytes.
"""



def short_text(text: str, limit: int = 60) -> str:
    """``text`` cut to about ``limit`` characters for a message."""
    return text if len(text) <= limit else text[:limit] + "..."


class Paths:
    """Makes the paths of a file's nodes, refusing one past :data:`MAX_DEPTH` moves or the
    one that takes the text of all paths past :data:`MAX_PATH_TEXT` characters."""

    def __init__(self, file: str):
        self.file = file
        self.size = len("root")

    def step(self, parent: Node, label: str, depth: int) -> str:
        """The path of the child of ``parent`` reached by ``label``, ``depth`` moves deep."""
        path = parent.step(label)
        if depth > MAX_DEPTH:
            raise ValueError(f"{self.file}: node {shown_path(path)} is {depth:,} moves from the "
                             f"root; cfrviz reads trees at most {MAX_DEPTH:,} levels deep")
        self.size += len(path)
        if self.size > MAX_PATH_TEXT:
            raise ValueError(f"{self.file}: at node {shown_path(path)} the paths of the nodes "
                             f"add up to more than {MAX_PATH_TEXT:,} characters; cfrviz keeps each "
                             f"node's path as text, and this tree is too deep for labels this "
                             f"long: shorten the labels or the tree")
        return path


# --- numbers ---------------------------------------------------------------------------------

_NUMBER = re.compile(r"\s*(?:([-+]?\d+)/(\d+)|[-+]?(\d*)(\.\d*)?(?:[eE]([-+]?\d+))?)\s*")
TOO_LARGE = "too large; numbers must lie between about -1.8e308 and 1.8e308"


def exact_number(text: str) -> Fraction | int:
    """The exact value of an integer, a decimal or a fraction ``a/b`` written in ``text``.

    Raises
    ------
    ValueError
        For other text.
    OverflowError
        For a number far beyond the range of a float (``float()`` of the result
        raises it for the others).
    """
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise ValueError(text)
    numerator, denominator, whole, decimals, exponent = match.groups()
    if numerator is not None:
        if int(denominator) == 0:
            raise ValueError(text)
        return Fraction(int(numerator), int(denominator))
    if not (whole or decimals and len(decimals) > 1):
        raise ValueError(text)  # no digits: "", ".", "e5"
    if len(text) > 400 or exponent and abs(int(exponent)) > 400:
        # Fraction("1e999999999") would compute a power of ten with a billion digits;
        # beyond these sizes a float holds all there is (or overflows).
        number = float(text)
        if math.isinf(number):
            raise OverflowError(text)
        return Fraction(number)
    return int(text) if decimals is None and exponent is None else Fraction(text)



_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text: str, where: str) -> None:
    """Refuse a string holding a lone surrogate (JSON can write one, ``"\\ud800"``; UTF-8
    cannot): no browser or widget can send it, and a key holding one breaks the widgets."""
    found = _SURROGATE.search(text)
    if found:
        raise ValueError(f"{where} {short_text(text)!r} holds a lone surrogate "
                         f"({found.group()!r} at character {found.start() + 1}), half of a "
                         f"character and not text (a JSON \\u escape of half a pair, or a file "
                         f"name that is not UTF-8): write the character itself, or rename")

