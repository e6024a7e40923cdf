"""Full-tree CFR in three straight loops over the nodes, and its variants as one update rule.

One player's CFR pass computes reach probabilities top-down, values
bottom-up, then counterfactual regrets over the edges (Zinkevich et al.
2007); :func:`apply_update` folds them into the running sums under the variant's
rule (vanilla CFR, CFR+, linear CFR, DCFR).  The readable recursive version
the tests compare this with is :func:`cfrviz.reference.cfr_variant`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import regret as core_regret
from ..core.regret import ROUNDING
from ..core.tree import TERMINAL
from ..core.types import BoolArray, FloatArray
from .jit import kernel
from .plan import CHANCE_EDGE, PlanArrays

__all__ = ["ROUNDING", "Tables", "UpdateRule", "apply_update", "copy_table", "match_row",
           "payoff_scale", "play_strategy", "predictive_matching_table", "reach_pass",
           "regret_matching_table", "rounding_tolerance", "run_full_tree", "value_pass"]


class Tables(NamedTuple):
    """A solver's (information sets x actions) tables, updated in place by the kernels.

    Attributes
    ----------
    regret_sum : float64 array
        Cumulative regrets.
    strategy_sum : float64 array
        Cumulative (weighted) strategies; normalised, the average strategy.
    current : float64 array
        Output: the strategy played at the last iteration of a call.
    instant : float64 array
        Output: the last iteration's regrets.
    """

    regret_sum: FloatArray
    strategy_sum: FloatArray
    current: FloatArray
    instant: FloatArray


class UpdateRule(NamedTuple):
    """How one iteration's regrets and strategies are folded into the running sums.

    Attributes
    ----------
    alternating : bool
        Update player 1, then player 2 against player 1's new strategy;
        ``False`` updates both from the same strategies.
    plus : bool
        Floor cumulative regrets at zero after each update (CFR+, Tammelin 2014).
    discount : bool
        Discount the sums after iteration t by ``alpha``, ``beta``, ``gamma``
        (DCFR, Brown and Sandholm 2019).
    alpha, beta, gamma : float
        DCFR's exponents for positive regrets, negative regrets and the strategy sum.
    linear_average : bool
        Iteration t's strategy weighs t ** ``average_power`` in the average
        (CFR+: power 1, linear; PCFR+: power 2, quadratic).
    predictive : bool
        Play regret matching on the cumulative regrets *plus* a prediction of
        the next iteration's regrets, the last iteration's (``tables.instant``):
        predictive regret matching (Farina, Kroer and Sandholm 2021).
    average_power : float
        The exponent of t in the average's weight when ``linear_average``.
    """

    alternating: bool = True
    plus: bool = False
    discount: bool = False
    alpha: float = 1.0
    beta: float = 1.0
    gamma: float = 1.0
    linear_average: bool = False
    predictive: bool = False
    average_power: float = 1.0


# ----------------------------------------------------------------------------- regret matching

@kernel
def copy_table(source: FloatArray, target: FloatArray) -> None:
    """``target[:, :] = source`` for two tables of one shape, written as a loop.

    The slice assignment would compile numba's shape-mismatch error message (integer
    formatting, string joins), which took 4.6 of the 12.5 seconds a first CFR solve spent
    compiling; the loop compiles in a fraction of a second.
    """
    for i in range(source.shape[0]):
        for j in range(source.shape[1]):
            target[i, j] = source[i, j]


#: Regret matching's rounding tolerance, compiled: :func:`cfrviz.core.regret.rounding_tolerance`
#: (one formula for the engine, the reference and the solvers).
rounding_tolerance = kernel(core_regret.rounding_tolerance)


@kernel
def payoff_scale(utility: FloatArray) -> float:
    """The largest |payoff| in a table of payoffs (the ``U`` of :func:`rounding_tolerance`)."""
    largest = 0.0
    for h in range(utility.shape[0]):
        for p in range(utility.shape[1]):
            largest = max(largest, abs(utility[h, p]))
    return largest


@kernel
def match_row(regret_sum: FloatArray, mask: BoolArray, info: int, out: FloatArray,
              tol: float) -> None:
    """Regret matching on one information set's row, written into ``out``: positive parts
    normalised; uniform over the legal actions where they sum to at most ``tol``, rounding
    residue of zero (:func:`rounding_tolerance`)."""
    width = regret_sum.shape[1]
    total = 0.0
    legal = 0
    for a in range(width):
        if mask[info, a]:
            legal += 1
            r = regret_sum[info, a]
            if r > 0.0:
                total += r
    for a in range(width):
        if not mask[info, a]:
            out[a] = 0.0
        elif total > tol:
            r = regret_sum[info, a]
            out[a] = r / total if r > 0.0 else 0.0
        else:
            out[a] = 1.0 / legal


@kernel
def regret_matching_table(regret_sum: FloatArray, mask: BoolArray, out: FloatArray,
                          tol: float = 0.0) -> None:
    """Regret matching on every row of a (information sets x actions) table (``tol`` as in
    :func:`match_row`; 0, the default, is the textbook rule)."""
    for info in range(regret_sum.shape[0]):
        match_row(regret_sum, mask, info, out[info], tol)


@kernel
def predictive_matching_table(regret_sum: FloatArray, prediction: FloatArray, mask: BoolArray,
                              out: FloatArray, tol: float) -> None:
    """Predictive regret matching on every row: regret matching on ``regret_sum + prediction``
    (positive parts normalised; uniform over the legal actions where they sum to at most
    ``tol``)."""
    width = regret_sum.shape[1]
    for info in range(regret_sum.shape[0]):
        total = 0.0
        legal = 0
        for a in range(width):
            if mask[info, a]:
                legal += 1
                r = regret_sum[info, a] + prediction[info, a]
                if r > 0.0:
                    total += r
        for a in range(width):
            if not mask[info, a]:
                out[info, a] = 0.0
            elif total > tol:
                r = regret_sum[info, a] + prediction[info, a]
                out[info, a] = r / total if r > 0.0 else 0.0
            else:
                out[info, a] = 1.0 / legal


@kernel
def play_strategy(tables: Tables, mask: BoolArray, rule: UpdateRule, out: FloatArray,
                  tol: float) -> None:
    """The strategy the variant plays from the current tables: regret matching on the
    cumulative regrets, or on them plus the last regrets when ``rule.predictive``; a row whose
    positive regrets sum to at most ``tol`` is rounding residue and plays uniformly
    (:func:`rounding_tolerance`)."""
    if rule.predictive:
        predictive_matching_table(tables.regret_sum, tables.instant, mask, out, tol)
    else:
        regret_matching_table(tables.regret_sum, mask, out, tol)


# ----------------------------------------------------------------------------- one CFR pass

@kernel
def reach_pass(arrays: PlanArrays, strategy: FloatArray, reach: FloatArray,
               prob: FloatArray) -> None:
    """Top-down: each node's reach split into rows (player 1, player 2, chance).

    ``prob[h]`` is the probability of the edge into ``h``; the edge label is
    the row it multiplies.
    """
    parent, edge, slot, chance_prob = arrays.parent, arrays.edge, arrays.slot, arrays.chance_prob
    flat = strategy.ravel()
    reach[0, 0] = 1.0
    reach[1, 0] = 1.0
    reach[2, 0] = 1.0
    prob[0] = 1.0
    for h in range(1, parent.shape[0]):
        par = parent[h]
        e = edge[h]
        p = chance_prob[h] if e == CHANCE_EDGE else flat[slot[h]]
        prob[h] = p
        reach[0, h] = reach[0, par]
        reach[1, h] = reach[1, par]
        reach[2, h] = reach[2, par]
        reach[e, h] *= p


@kernel
def value_pass(arrays: PlanArrays, prob: FloatArray, who: int, value: FloatArray) -> None:
    """Bottom-up: each node's expected value for player ``who`` (preorder: one loop is enough)."""
    parent, player, utility = arrays.parent, arrays.player, arrays.utility
    n = parent.shape[0]
    for h in range(n):
        value[h] = utility[h, who] if player[h] == TERMINAL else 0.0
    for h in range(n - 1, 0, -1):
        value[parent[h]] += prob[h] * value[h]


@kernel
def _cfr_pass(arrays: PlanArrays, strategy: FloatArray, who: int, reach: FloatArray,
              prob: FloatArray, value: FloatArray, regret: FloatArray,
              weighted: FloatArray) -> None:
    """One player's counterfactual regrets and own-reach-weighted strategy (Zinkevich et al. 2007).

    ``regret`` and ``weighted`` are flat (infoset * width + action) and are
    overwritten for the player's slots only; ``reach``, ``prob`` and
    ``value`` are scratch.
    """
    parent, edge, slot = arrays.parent, arrays.edge, arrays.slot
    reach_pass(arrays, strategy, reach, prob)
    value_pass(arrays, prob, who, value)
    other = 1 - who
    n = parent.shape[0]
    for h in range(1, n):
        if edge[h] == who:
            s = slot[h]
            regret[s] = 0.0
            weighted[s] = 0.0
    for h in range(1, n):
        if edge[h] == who:
            par = parent[h]
            s = slot[h]
            regret[s] += reach[CHANCE_EDGE, par] * reach[other, par] * (value[h] - value[par])
            weighted[s] += reach[who, par] * prob[h]


# ----------------------------------------------------------------------------- the CFR family

@kernel
def apply_update(arrays: PlanArrays, tables: Tables, rule: UpdateRule, who: int, t: int,
           regret: FloatArray, weighted: FloatArray) -> None:
    """Fold one player's iteration-t regrets and strategy weights into the running sums.

    - vanilla CFR: add; average weighted by own reach;
    - CFR+ (Tammelin 2014): add, then floor regrets at 0; average weighted by t;
    - DCFR (Brown and Sandholm 2019): add, then multiply positive regrets by
      t^a / (t^a + 1), negative ones by t^b / (t^b + 1), and the strategy
      sum by (t / (t + 1))^g — the order OpenSpiel uses.

    ``tables.instant`` receives the player's regrets of this iteration.
    """
    owner, mask = arrays.owner, arrays.mask
    regret_sum, strategy_sum, instant = tables.regret_sum, tables.strategy_sum, tables.instant
    width = regret_sum.shape[1]
    if rule.discount:
        # t^a / (t^a + 1) written so that a large exponent cannot overflow to inf / inf
        pos = 1.0 / (1.0 + float(t) ** -rule.alpha)
        neg = 1.0 / (1.0 + float(t) ** -rule.beta)
        keep = (t / (t + 1.0)) ** rule.gamma
    avg_weight = float(t) ** rule.average_power if rule.linear_average else 1.0
    for info in range(regret_sum.shape[0]):
        if owner[info] != who:
            continue
        for a in range(width):
            if not mask[info, a]:
                continue
            s = info * width + a
            instant[info, a] = regret[s]
            r = regret_sum[info, a] + regret[s]
            if rule.plus and r < 0.0:
                r = 0.0
            strategy_sum[info, a] += avg_weight * weighted[s]
            if rule.discount:
                r *= pos if r > 0.0 else neg
                strategy_sum[info, a] *= keep
            regret_sum[info, a] = r


@kernel
def run_full_tree(arrays: PlanArrays, tables: Tables, first: int, last: int,
                  rule: UpdateRule) -> None:
    """Iterations ``first..last`` (1-based) of the full-tree CFR family, in place.

    Parameters
    ----------
    arrays : PlanArrays
        The tree, from ``plan(tree).arrays``.
    tables : Tables
        The solver's tables.  On return ``current`` holds the strategy played
        at iteration ``last`` and ``instant`` that iteration's regrets.
    first, last : int
    rule : UpdateRule
        The variant: vanilla CFR (Zinkevich et al. 2007), CFR+ (Tammelin
        2014), linear CFR or DCFR (Brown and Sandholm 2019), PCFR+ (Farina,
        Kroer and Sandholm 2021) or PDCFR+ (Xu et al. 2024).
    """
    n = arrays.parent.shape[0]
    mask = arrays.mask
    regret_sum = tables.regret_sum
    num, width = regret_sum.shape
    reach = np.empty((3, n))
    prob = np.empty(n)
    value = np.empty(n)
    regret = np.zeros(num * width)
    weighted = np.zeros(num * width)
    strategy = np.empty((num, width))
    scale = payoff_scale(arrays.utility)
    for t in range(first, last + 1):
        tol = rounding_tolerance(scale, t)
        play_strategy(tables, mask, rule, strategy, tol)
        copy_table(strategy, tables.current)
        if rule.alternating:
            for who in range(2):
                _cfr_pass(arrays, strategy, who, reach, prob, value, regret, weighted)
                apply_update(arrays, tables, rule, who, t, regret, weighted)
                play_strategy(tables, mask, rule, strategy, tol)
        else:
            for who in range(2):
                _cfr_pass(arrays, strategy, who, reach, prob, value, regret, weighted)
            for who in range(2):
                apply_update(arrays, tables, rule, who, t, regret, weighted)

