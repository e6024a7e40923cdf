"""Two-player zero-sum games in normal form (one simultaneous move each).

A matrix game is the smallest game the course uses: rock-paper-scissors.  It
already speaks the vocabulary of the larger games: each player has exactly one
information set (``"P1"`` and ``"P2"``), because when choosing, neither player
knows what the other chose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike

from ..core.tree import GameTree, build_tree
from ..core.types import BoolArray, FloatArray, IntArray
from .reading import TOO_LARGE, short_text

RPS_ACTIONS = ("R", "P", "S")
RPS_ACTION_NAMES = ("rock", "paper", "scissors")
#: Row player's payoffs: rows are P1's action, columns P2's, order R, P, S.
RPS_PAYOFFS = ((0, -1, 1), (1, 0, -1), (-1, 1, 0))


@dataclass(frozen=True, eq=False, init=False)
class MatrixGame:
    """A two-player zero-sum game given by the row player's payoff matrix.

    Parameters
    ----------
    name : str
        Short identifier, e.g. ``"rock_paper_scissors"``.
    payoffs : array_like, shape (m, n)
        ``payoffs[i][j]`` is what player 1 (rows) wins, and player 2 loses,
        when player 1 plays action ``i`` and player 2 plays action ``j``.
    row_actions, col_actions : sequence of str
        Action labels of player 1 and player 2.
    action_names : sequence of str, optional
        Long names for display (``"rock"`` for ``"R"``).

    Notes
    -----
    The game exposes the same information-set table the extensive-form games
    use: ``infoset_keys``, ``infoset_player``, ``infoset_actions`` and
    ``legal_mask`` (shape ``(information sets, max actions)``).
    """

    name: str
    payoffs: FloatArray
    row_actions: tuple[str, ...]
    col_actions: tuple[str, ...]
    action_names: tuple[str, ...] = ()

    def __init__(self, name: str, payoffs: ArrayLike, row_actions: tuple[str, ...],
                 col_actions: tuple[str, ...], action_names: tuple[str, ...] = ()) -> None:
        # Written out because the constructor takes any array_like while the
        # field holds the validated, read-only float matrix.
        if not isinstance(name, str):
            raise ValueError(f"a matrix game's name must be a string; got {name!r}")
        for what, labels in (("row_actions", row_actions), ("col_actions", col_actions)):
            if not (isinstance(labels, (tuple, list)) and labels
                    and all(isinstance(a, str) for a in labels)
                    and len(set(labels)) == len(labels)):
                raise ValueError(f"{what} must be a tuple of action labels (distinct strings, at "
                                 f"least one), e.g. ('R', 'P', 'S'); got {labels!r}")
        row_actions, col_actions = tuple(row_actions), tuple(col_actions)
        matrix = validate_payoffs(payoffs, (len(row_actions), len(col_actions)),
                                  row_actions, col_actions)
        matrix.setflags(write=False)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "payoffs", matrix)
        object.__setattr__(self, "row_actions", row_actions)
        object.__setattr__(self, "col_actions", col_actions)
        object.__setattr__(self, "action_names", action_names)

    # --- the information-set table shared with extensive-form games -------------------
    @property
    def num_players(self) -> int:
        """Two: the row player (P1) and the column player (P2)."""
        return 2

    @property
    def infoset_keys(self) -> tuple[str, ...]:
        """One information set per player, ``("P1", "P2")``: neither sees the other's choice."""
        return ("P1", "P2")

    @property
    def infoset_player(self) -> IntArray:
        """The player of each information set: ``[0, 1]``."""
        return np.array([0, 1], dtype=np.int64)

    @property
    def infoset_actions(self) -> tuple[tuple[str, ...], ...]:
        """The action labels of each information set: the row player's, then the column player's."""
        return (self.row_actions, self.col_actions)

    @property
    def num_infosets(self) -> int:
        """Two: one information set per player."""
        return 2

    @property
    def max_actions(self) -> int:
        """The larger of the two players' numbers of actions (the width of strategy tables)."""
        return max(len(self.row_actions), len(self.col_actions))

    @property
    def legal_mask(self) -> BoolArray:
        """``(2, max_actions)`` booleans: which columns of a strategy table are real actions."""
        mask = np.zeros((2, self.max_actions), dtype=bool)
        mask[0, : len(self.row_actions)] = True
        mask[1, : len(self.col_actions)] = True
        return mask

    def infoset_index(self, key: str) -> int:
        """Index of an information set in the table, with a helpful error."""
        try:
            return self.infoset_keys.index(key)
        except ValueError:
            raise ValueError(
                f"{self.name} has no information set {key!r}; "
                f"its information sets are {list(self.infoset_keys)}"
            ) from None

    @cached_property
    def tree(self) -> GameTree:
        """The same game in extensive form, so tree solvers and views run on it.

        Player 1 moves at the root; player 2 then moves at one information
        set holding all of player 1's choices, which is how a tree says the
        moves are simultaneous.  The information-set keys (``"P1"``,
        ``"P2"``) and action labels are the matrix game's, so a
        :class:`~cfrviz.core.policy.Policy`'s probability array means the same
        in both.  Built on first use and cached.
        """
        return build_tree(_MatrixDefinition(self))

    def with_payoffs(self, payoffs: ArrayLike) -> MatrixGame:
        """A copy of this game with another payoff matrix (same actions)."""
        return MatrixGame(self.name, payoffs, self.row_actions, self.col_actions,
                          self.action_names)

    def __repr__(self) -> str:
        rows = "; ".join(" ".join(f"{v:g}" for v in row) for row in self.payoffs)
        return f"MatrixGame({self.name!r}, payoffs=[{rows}])"


class _MatrixDefinition:
    """A matrix game as a two-move game definition for :func:`~cfrviz.core.tree.build_tree`."""

    def __init__(self, game: MatrixGame) -> None:
        self.game = game
        self.name = game.name
        self.__doc__ = (f"{game.name} as a tree: player 1 picks a row, then player 2 picks a "
                        "column without seeing it.")

    def initial_state(self) -> _MatrixState:
        return _MatrixState(self.game, ())


@dataclass(frozen=True)
class _MatrixState:
    game: MatrixGame
    moves: tuple[str, ...]

    def is_terminal(self) -> bool:
        return len(self.moves) == 2

    def current_player(self) -> int:
        return len(self.moves)

    def legal_actions(self) -> tuple[str, ...]:
        return self.game.infoset_actions[len(self.moves)]

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return ()

    def child(self, action: str) -> _MatrixState:
        return _MatrixState(self.game, self.moves + (action,))

    def returns(self) -> tuple[float, float]:
        row, col = self.moves
        value: float = self.game.payoffs[self.game.row_actions.index(row),
                                         self.game.col_actions.index(col)]
        return (value, -value)

    def infoset_key(self) -> str:
        return self.game.infoset_keys[len(self.moves)]

    def history(self) -> str:
        return ",".join(self.moves)


def validate_payoffs(payoffs: object, shape: tuple[int, int], row_labels: Sequence[str],
                     col_labels: Sequence[str]) -> FloatArray:
    """Check a payoff matrix cell by cell and return it as a float array.

    Raises
    ------
    ValueError
        Naming the row, the column or the cell at fault and what is valid.
    """
    m, n = shape
    where = f"a {m}x{n} payoff matrix (rows: P1 plays {'/'.join(row_labels)}; " \
            f"columns: P2 plays {'/'.join(col_labels)})"
    rows = _payoff_rows(payoffs, where)
    if len(rows) != m:
        raise ValueError(f"payoffs must be {where}; got {len(rows)} rows")
    out = np.empty((m, n))
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise ValueError(f"payoffs row {i} ({row_labels[i]}) must be a list of {n} numbers; "
                             f"got {row!r}")
        if len(row) != n:
            raise ValueError(f"payoffs row {i} ({row_labels[i]}) has {len(row)} entries; "
                             f"{where} needs {n}")
        for j, value in enumerate(row):
            cell = f"payoff cell [{i}][{j}] (P1 {row_labels[i]} vs P2 {col_labels[j]})"
            out[i, j] = _payoff(value, cell)
    return out


def _payoff_rows(payoffs: object, where: str) -> list[object]:
    """The matrix's rows, from a 2-d array or a sequence (not text)."""
    if isinstance(payoffs, np.ndarray):
        if payoffs.ndim != 2:
            raise ValueError(f"payoffs must be {where}; got an array of shape {payoffs.shape}")
        rows: list[object] = payoffs.tolist()
        return rows
    if isinstance(payoffs, Sequence) and not isinstance(payoffs, (str, bytes)):
        return list(payoffs)
    raise ValueError(f"payoffs must be {where}; got {type(payoffs).__name__}")


def _payoff(value: object, cell: str) -> float:
    """One cell's payoff: a finite real number (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (Real, np.number)):
        raise ValueError(f"{cell} is {value!r}; payoffs must be real numbers")
    try:
        number = float(value)
    except OverflowError:  # an int or Fraction beyond a float: 10**400
        raise ValueError(f"{cell} is {short_text(repr(value))}, {TOO_LARGE}") from None
    if not np.isfinite(number):
        raise ValueError(f"{cell} is {value}; payoffs must be finite numbers")
    return number


def rock_paper_scissors(payoffs: ArrayLike | None = None) -> MatrixGame:
    """Rock-paper-scissors as a zero-sum matrix game.

    Parameters
    ----------
    payoffs : array_like, shape (3, 3), optional
        Player 1's payoff for each pair of actions, rows and columns in the
        order rock, paper, scissors.  Defaults to win 1, lose 1, tie 0.
        The course's variant in which scissors wins and loses 2 is
        ``[[0, -1, 2], [1, 0, -2], [-2, 2, 0]]``.
    """
    return MatrixGame("rock_paper_scissors", RPS_PAYOFFS if payoffs is None else payoffs,
                      RPS_ACTIONS, RPS_ACTIONS, RPS_ACTION_NAMES)


def matrix_exploitability(payoffs: FloatArray, row: FloatArray, col: FloatArray) -> FloatArray:
    """Exploitability of many profiles at once (rows of ``row`` and ``col``)."""
    best_row: FloatArray = (col @ payoffs.T).max(axis=-1)
    best_col: FloatArray = -(row @ payoffs).min(axis=-1)
    return (best_row + best_col) / 2
