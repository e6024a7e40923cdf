"""Regret matching: the rule that turns accumulated regrets into a strategy."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .types import BoolArray, FloatArray


def regret_matching(regrets: npt.ArrayLike, mask: npt.ArrayLike | None = None) -> FloatArray:
    """Strategy proportional to the positive part of the regrets.

    Regret matching (Hart and Mas-Colell, 2000, "A simple adaptive procedure
    leading to correlated equilibrium") plays each action with probability
    proportional to its positive cumulative regret; when no regret is
    positive it plays uniformly over the legal actions.

    Parameters
    ----------
    regrets : array_like, shape (..., actions)
        Cumulative regrets; the last axis indexes actions.
    mask : array_like of bool, same shape as ``regrets``, optional
        Legal actions.  Illegal actions always get probability 0.

    Returns
    -------
    numpy.ndarray
        Probabilities over the last axis, each row summing to 1.

    Raises
    ------
    ValueError
        For regrets that are not finite numbers (bools and strings included),
        or a mask of another shape.

    Examples
    --------
    >>> regret_matching([2.0, -1.0, 1.0]).tolist()
    [0.6666666666666666, 0.0, 0.3333333333333333]
    >>> regret_matching([-1.0, 0.0, -3.0]).tolist()
    [0.3333333333333333, 0.3333333333333333, 0.3333333333333333]
    """
    raw = np.asarray(regrets)
    if raw.dtype.kind not in "iuf" or raw.ndim == 0:
        raise ValueError(f"regrets must be an array of numbers, one per action (the last axis); "
                         f"got {regrets!r:.80}")
    values = raw.astype(float)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"regrets must be finite numbers; got {values.tolist()!r:.80}")
    legal_mask = np.ones(values.shape, dtype=bool) if mask is None \
        else np.asarray(mask, dtype=bool)
    if legal_mask.shape != values.shape:
        raise ValueError(f"mask must have the regrets' shape {values.shape}; got shape "
                         f"{legal_mask.shape}")
    positive = np.where(legal_mask, np.maximum(values, 0.0), 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    legal = legal_mask.sum(axis=-1, keepdims=True)
    uniform = np.where(legal_mask, 1.0 / np.maximum(legal, 1), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)


def average_strategy(strategy_sum: FloatArray, mask: BoolArray) -> FloatArray:
    """Normalise a strategy sum per information set; never-reached sets play uniformly.

    The average strategy of CFR and regret matching is the strategy sum divided by its row
    total (Zinkevich et al. 2007, eq. 4); a row that sums to 0 (a set never reached, or never
    yet played) plays uniformly over its legal actions.  The one normaliser of the package:
    solvers, the readable reference and the exercises all call it.
    """
    totals = strategy_sum.sum(axis=-1, keepdims=True)
    uniform = mask / mask.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, strategy_sum / np.where(totals > 0, totals, 1), uniform)


#: The C of :func:`rounding_tolerance`: a regret sum within C * eps * U * t of zero is zero.
ROUNDING = 1024.0
_EPS = float(np.finfo(np.float64).eps)


def rounding_tolerance(scale: float, t: int) -> float:
    """How far from zero a regret sum can be and still be rounding residue: ``C * eps * U * t``.

    Two layouts of one computation (tabular :func:`cfrviz.engine.run_full_tree` and vector-form
    CFR, the engine and :mod:`cfrviz.reference`) add the same numbers in different orders, so a
    regret sum that is exactly 0 in one can be 1e-19 in the other, and regret matching turns the
    second into a pure strategy where the first plays uniformly: the runs part for good
    (Leduc with suits, after iteration 2).  Regret matching therefore plays uniformly where a
    row's positive regrets sum to at most this tolerance, the same in every engine and the
    reference.  Only that sum is compared, not each regret: regret matching is continuous in
    the regrets everywhere but where the sum reaches zero, so that is the one place where
    two layouts' last bits can send it two ways.

    The bound.  One iteration's regret of an action is a sum of terms
    ``reach * (v(ha) - v(h))`` whose reach weights (chance times the others) sum to at most
    1, each value itself a weighted sum of payoffs with weights summing to 1; so the terms'
    magnitudes sum to at most ``2 U`` (``scale``, the largest |payoff| or, for sampled
    values, whatever bounds them), and a recursive sum of n terms is off by at most
    ``(n - 1) eps`` times that (Higham, *Accuracy and Stability of Numerical Algorithms*,
    section 4.2).  The longest chains of roundings here are a leaf's sum over the opponent's
    hands in vector-form CFR and a node's value through the tree's depth: tens of terms in
    Leduc, a few hundred in a hold'em river's ranges.  C = 1024 covers that worst case for
    chains of up to 512 roundings per iteration, t iterations t times it.  (Not a bound for
    every run: the running sums' own roundings add eps times their size at each step, which
    a sum that wandered far from zero and came back could pile past it.)  Measured, rounding
    errors mostly cancel: tabular and vector-form CFR's regret sums differ by at most
    0.34 eps U t over 50 iterations of Leduc with suits, 2.9 over 60 of Leduc, 1.0 over 200
    of Kuhn, 0.03 over 30 of a small hold'em river: C sits 350 times above the largest.

    A genuine regret is never that small in practice: a set's positive regrets summing to at
    most ``C eps U t`` (2.3e-13 U t) means its reach-weighted value differences average
    under 2.3e-13 U per iteration: a set the others reach with probability about 1e-13 or
    less, where any strategy moves the player's value by less than the rounding of the
    values themselves.  In those four runs the smallest positive sum was 7e6 times the
    tolerance.  Nor does playing uniformly there cost regret matching's guarantee: with
    positive regrets summing to at most ``tol`` it adds at most ``2 tol d`` per iteration to
    the squared norm of the positive regrets (Blackwell's argument; d the largest |regret|
    of one iteration), so the average-regret bound ``d sqrt(|A| / T)`` gains at most
    ``sqrt(d C eps U)``, smaller than the bound itself until T nears ``|A| d / (C eps U)``:
    about 3e13 iterations where a set's regrets span the payoffs (d = 2U, |A| = 3).
    """
    return ROUNDING * _EPS * scale * t


def rounded_regret_matching(regrets: npt.ArrayLike, mask: npt.ArrayLike | None = None,
                            tol: float = 0.0) -> FloatArray:
    """:func:`regret_matching` that sees a sum within rounding of zero as zero: a row whose
    positive regrets sum to at most ``tol`` (:func:`rounding_tolerance`; 0 is the textbook
    rule) plays uniformly over its legal actions."""
    values = np.asarray(regrets, dtype=float)
    legal = np.ones(values.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    positive = np.where(legal, np.maximum(values, 0.0), 0.0).sum(axis=-1, keepdims=True)
    return regret_matching(np.where(positive > tol, values, 0.0), mask)
