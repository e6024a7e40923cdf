"""The arithmetic of the faster CFR variants: discount factors and how much each iteration counts.

Discounted CFR (Brown and Sandholm, 2019, "Solving imperfect-information
games via discounted regret minimization", AAAI) multiplies, after
iteration ``t``, the positive cumulative regrets by ``t^α / (t^α + 1)``, the
negative ones by ``t^β / (t^β + 1)`` and the strategy sum by
``(t / (t + 1))^γ`` -- exactly what :func:`cfrviz.solve` does for
``"dcfr"``.  These functions compute those numbers without running a solver,
for the lessons' sliders and exercises.
"""

from __future__ import annotations

import numpy as np

from ..core.registry import Param


def _exponent(value, name: str) -> float:
    return Param(name, kind="float").check(value)


def _iterations(t) -> np.ndarray:
    arr = np.asarray(t, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr < 1):
        raise ValueError(f"iterations are numbers >= 1; got {t!r}")
    return arr


def _log_factor(t: np.ndarray, exponent: float) -> np.ndarray:
    """log(t^e / (t^e + 1)) = -log(1 + t^-e), computed without overflow for any e."""
    return -np.logaddexp(0.0, -exponent * np.log(t))


def dcfr_discounts(t, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0):
    """The three multipliers DCFR applies after iteration ``t``.

    Parameters
    ----------
    t : int or array of int
        Iteration number(s), 1-based.
    alpha, beta, gamma : float
        DCFR's parameters (defaults: the paper's recommended 1.5, 0, 2).

    Returns
    -------
    (positive, negative, average) : floats or arrays like ``t``
        ``t^α/(t^α+1)`` for positive cumulative regrets, ``t^β/(t^β+1)``
        for negative ones, ``(t/(t+1))^γ`` for the strategy sum.

    Examples
    --------
    >>> [round(float(x), 4) for x in dcfr_discounts(4)]
    [0.8889, 0.5, 0.64]
    """
    alpha, beta, gamma = (_exponent(v, n) for v, n in ((alpha, "alpha"), (beta, "beta"),
                                                       (gamma, "gamma")))
    arr = _iterations(t)
    positive = np.exp(_log_factor(arr, alpha))
    negative = np.exp(_log_factor(arr, beta))
    average = np.exp(gamma * (np.log(arr) - np.log1p(arr)))
    if np.ndim(t) == 0:
        return float(positive), float(negative), float(average)
    return positive, negative, average


def iteration_weights(iterations: int, alpha: float = 1.5, beta: float = 0.0,
                      gamma: float = 2.0) -> dict[str, np.ndarray]:
    """How much iteration ``k``'s contribution still weighs after ``iterations`` of DCFR.

    Entry ``k - 1`` of each array is the product of the factors applied from
    iteration ``k`` to the last:

    - ``"positive regrets"``: for a regret that stays positive,
      ``prod_{t=k}^{T} t^α / (t^α + 1)``;
    - ``"negative regrets"``: for one that stays negative, the same with β;
    - ``"average strategy"``: iteration ``k``'s share of the average,
      proportional to ``k^γ``, scaled so that the last iteration weighs 1.

    Vanilla CFR weighs every iteration 1 in all three; linear CFR is
    α = β = γ = 1.  Products are summed in log space, so large exponents do
    not overflow.
    """
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) \
            or iterations < 1:
        raise ValueError(f"iterations must be a whole number >= 1; got {iterations!r}")
    alpha, beta, gamma = (_exponent(v, n) for v, n in ((alpha, "alpha"), (beta, "beta"),
                                                       (gamma, "gamma")))
    t = np.arange(1, int(iterations) + 1, dtype=float)

    def surviving(log_factors):
        return np.exp(np.cumsum(log_factors[::-1])[::-1])

    # Iteration k's strategy enters the sum before the factor of iteration k is applied, so
    # by the end it carries prod_{t=k}^{T} (t/(t+1))^γ = (k/(T+1))^γ; scale the last to 1.
    average = np.exp(gamma * (np.log(t) - np.log(t[-1])))
    return {"positive regrets": surviving(_log_factor(t, alpha)),
            "negative regrets": surviving(_log_factor(t, beta)),
            "average strategy": average}
