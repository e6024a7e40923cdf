"""The types the layers share: numpy arrays by dtype, and what every game exposes.

Static types only (``mypy --strict`` holds on ``core``, ``engine``, ``solvers`` and
``games``: see ``[tool.mypy]`` in pyproject.toml); nothing here runs at solve time.
"""

from __future__ import annotations

from typing import Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

#: A float64 array: tables of regrets and strategies, utilities, probabilities.
FloatArray: TypeAlias = npt.NDArray[np.float64]
#: An int64 array: node ids, parents, players, information-set ids.
IntArray: TypeAlias = npt.NDArray[np.int64]
#: A bool array: legal-action masks.
BoolArray: TypeAlias = npt.NDArray[np.bool_]
#: A uint64 array: the SplitMix64 state of the compiled engine's generator.
UIntArray: TypeAlias = npt.NDArray[np.uint64]


class GameLike(Protocol):
    """The information-set table every game from :func:`cfrviz.load_game` exposes.

    Both a :class:`~cfrviz.core.tree.GameTree` and a
    :class:`~cfrviz.games.matrix.MatrixGame` have it; it is what a
    :class:`~cfrviz.core.policy.Policy` and a solver state are shaped by:
    ``(num_infosets, max_actions)``, legal actions given by ``legal_mask``.
    """

    @property
    def name(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_infosets(self) -> int: ...
    @property
    def max_actions(self) -> int: ...
    @property
    def infoset_keys(self) -> tuple[str, ...]: ...
    @property
    def infoset_player(self) -> IntArray: ...
    @property
    def infoset_actions(self) -> tuple[tuple[str, ...], ...]: ...
    @property
    def legal_mask(self) -> BoolArray: ...
    def infoset_index(self, key: str) -> int: ...
