"""Exact equilibria of zero-sum matrix games, by the linear program of :mod:`.lp`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..solvers.lp import solve_sequence_form


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

    Player 1's maximin strategy solves the linear program (von Neumann's
    minimax theorem; Dantzig 1951)

        maximise v  subject to  x^T A[:, j] >= v for every column j,
                                x >= 0,  sum(x) = 1,

    the one-move case of the sequence-form program that
    :func:`cfrviz.exact_equilibrium` solves (von Stengel 1996).  HiGHS'
    simplex method solves it (:func:`scipy.optimize.linprog`); player 2's
    strategy is the program's dual solution, so one solve gives both, exact
    up to rounding (about 1e-15), with no limit on the size beyond memory.

    The strategies are a *basic* optimal solution, a vertex of each player's
    set of optimal strategies.  When that set is not a single point (a
    degenerate game, e.g. a matrix of zeros, where every strategy is optimal)
    the vertex returned is whichever the simplex method reaches, usually a
    pure strategy and not the centre of the set: it is an equilibrium, but
    which one is not specified.

    Parameters
    ----------
    payoffs : array_like, shape (m, n)
        Player 1's payoffs, finite numbers, at least 1 row and 1 column.

    Raises
    ------
    ValueError
        For something that is not a matrix of finite numbers (bools and
        strings included) or an empty matrix, naming the first bad cell.
    RuntimeError
        If HiGHS does not report an optimal solution (it always exists).
    """
    A = _payoff_matrix(payoffs)
    m, n = A.shape
    x, y, value, _ = solve_sequence_form(A, np.ones((1, m)), np.ones((1, n)),
                                         what=f"the {m}x{n} matrix game")
    return MatrixEquilibrium(_distribution(x), _distribution(y), value)


def _distribution(weights: np.ndarray) -> np.ndarray:
    """A solver's plan as a distribution: rounding below 0 clipped, the sum made exactly 1."""
    weights = np.clip(weights, 0.0, None)
    return weights / weights.sum()


def _payoff_matrix(payoffs) -> np.ndarray:
    """``payoffs`` as a float matrix of at least 1x1 finite numbers, or a ValueError."""
    try:
        raw = np.asarray(payoffs)
    except ValueError:  # a ragged nested list
        raw = np.asarray(None)
    if raw.dtype.kind == "b":
        raise ValueError("matrix_equilibrium needs a payoff matrix of numbers, not bools")
    if raw.dtype.kind not in "iuf":
        raise ValueError(f"matrix_equilibrium needs a payoff matrix (a list of rows of numbers); "
                         f"got {payoffs!r:.80}")
    if raw.ndim != 2 or not (raw.shape[0] >= 1 and raw.shape[1] >= 1):
        raise ValueError(f"matrix_equilibrium needs a payoff matrix of at least 1x1 (one row "
                         f"and one column); got shape {raw.shape}")
    A = raw.astype(float)
    bad = np.argwhere(~np.isfinite(A))
    if len(bad):
        i, j = bad[0]
        raise ValueError(f"payoffs must be finite numbers; cell [{i}][{j}] is {A[i, j]}")
    return A
