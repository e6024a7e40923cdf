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
