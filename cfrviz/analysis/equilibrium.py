"""Exact equilibria of small zero-sum matrix games."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

_TOL = 1e-9


@dataclass(frozen=True)
class MatrixEquilibrium:
    """A Nash equilibrium of a zero-sum matrix game.

    Attributes
    ----------
    row, col : numpy.ndarray
        Player 1's and player 2's equilibrium strategies.
    value : float
        The game's value to player 1.
    """

    row: np.ndarray
    col: np.ndarray
    value: float


def matrix_equilibrium(payoffs) -> MatrixEquilibrium:
    """Solve a zero-sum matrix game exactly by linear programming.

    Player 1's maximin strategy solves the linear program

        maximise v  subject to  x^T A[:, j] >= v for every column j,
                                x >= 0,  sum(x) = 1,

    and player 2's is player 1's in the game ``-A^T`` (von Neumann's minimax
    theorem makes both values equal).  The program is solved by enumerating
    the vertices of its feasible polytope, which is exact up to rounding and
    needs no LP library for the small games of the course.  When the optimal
    set is not a single point (a degenerate game) the centroid of its optimal
    vertices is returned, which is itself optimal because the set is convex.

    Parameters
    ----------
    payoffs : array_like, shape (m, n)
        Player 1's payoffs, finite numbers, from 1 row and 1 column up to 8
        rows and 8 columns.

    Raises
    ------
    ValueError
        For something that is not a matrix of finite numbers (bools and
        strings included) or a matrix of another size, naming the first bad cell.
    """
    A = _payoff_matrix(payoffs)
    x, v = _maximin(A)
    y, w = _maximin(-A.T)
    return MatrixEquilibrium(x, y, float((v - w) / 2))


def _payoff_matrix(payoffs) -> np.ndarray:
    """``payoffs`` as a float matrix of 1x1 up to 8x8 finite numbers, or a ValueError."""
    try:
        raw = np.asarray(payoffs)
    except ValueError:  # a ragged nested list
        raw = np.asarray(None)
    if raw.dtype.kind == "b":
        raise ValueError("matrix_equilibrium needs a payoff matrix of numbers, not bools")
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"matrix_equilibrium needs a payoff matrix (a list of rows of numbers); "
                         f"got {payoffs!r:.80}")
    if raw.ndim != 2 or not (1 <= raw.shape[0] <= 8 and 1 <= raw.shape[1] <= 8):
        raise ValueError(f"matrix_equilibrium solves payoff matrices from 1x1 up to 8x8; got "
                         f"shape {raw.shape}")
    A = raw.astype(float)
    bad = np.argwhere(~np.isfinite(A))
    if len(bad):
        i, j = bad[0]
        raise ValueError(f"payoffs must be finite numbers; cell [{i}][{j}] is {A[i, j]}")
    return A


def _maximin(A: np.ndarray) -> tuple[np.ndarray, float]:
    """Optimal mixed strategy of the row player of ``A`` and the value."""
    m, n = A.shape
    # Unknowns z = (x_1..x_m, v).  Inequalities G z >= 0: x_i >= 0 and x^T A_j - v >= 0.
    G = np.zeros((m + n, m + 1))
    G[:m, :m] = np.eye(m)
    G[m:, :m] = A.T
    G[m:, m] = -1.0
    equality = np.append(np.ones(m), 0.0)
    feasible: list[np.ndarray] = []
    for tight in combinations(range(m + n), m):
        system = np.vstack([equality, G[list(tight)]])
        if abs(np.linalg.det(system)) < 1e-12:
            continue
        rhs = np.zeros(m + 1)
        rhs[0] = 1.0
        z = np.linalg.solve(system, rhs)
        if np.all(G @ z >= -_TOL):
            feasible.append(z)
    vertices = np.array(feasible)
    best = vertices[:, m].max()
    optimal = vertices[vertices[:, m] >= best - _TOL]
    x = np.clip(optimal[:, :m].mean(axis=0), 0.0, None)
    return x / x.sum(), float(best)
