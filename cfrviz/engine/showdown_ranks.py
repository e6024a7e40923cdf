"""Showdown ranks read from a public leaf's deals, for :mod:`cfrviz.engine.vector_cfr`'s sorted
prefix sum: which hands tie, and which beat which, merged into one ranking of both players'
hands (or None when the deals contradict each other)."""

from __future__ import annotations

import numpy as np

from ..core.types import FloatArray, IntArray

__all__ = ["showdown_ranks"]


def showdown_ranks(pairs: IntArray, u: FloatArray,
                    hands: int) -> tuple[IntArray, IntArray] | None:
    """Ranks of both players' hands on one scale, from the deals: hands that tie are merged,
    and each hand sits one level above the highest hand it beats (longest path in the
    "beats" graph).  None if the deals contradict each other (a cycle)."""
    up = list(range(2 * hands))  # hand a of player 1 is a, hand b of player 2 is hands + b
    for (a, b), x in zip(pairs, u, strict=True):
        if x == 0:
            up[_find(up, int(a))] = _find(up, hands + int(b))
    beats: list[tuple[int, int]] = []
    for (a, b), x in zip(pairs, u, strict=True):
        if x > 0:
            beats.append((_find(up, int(a)), _find(up, hands + int(b))))
        elif x < 0:
            beats.append((_find(up, hands + int(b)), _find(up, int(a))))
    level = _longest_paths(beats, 2 * hands)
    if level is None:
        return None  # a cycle: no ranking
    roots = np.array([_find(up, x) for x in range(2 * hands)])
    return level[roots[:hands]], level[roots[hands:]]


def _find(up: list[int], x: int) -> int:
    """The representative of ``x``'s class of tied hands (union-find, halving the path)."""
    while up[x] != x:
        up[x] = up[up[x]]
        x = up[x]
    return x


def _longest_paths(beats: list[tuple[int, int]], size: int) -> IntArray | None:
    """Each node's level, one above the highest it beats (``beats``: winner, loser pairs);
    None when the relaxation has not settled after ``size + 1`` rounds (a cycle)."""
    level = np.zeros(size, dtype=np.int64)
    for _ in range(size + 1):
        changed = False
        for winner, loser in beats:
            if level[winner] <= level[loser]:
                level[winner] = level[loser] + 1
                changed = True
        if not changed:
            return level
    return None
