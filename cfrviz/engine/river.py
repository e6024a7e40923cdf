"""Vector-form CFR on a hold'em river spot, straight from its public tree (issue 32 item 3).

The public tree of a river spot is its bet tree (8 decisions and 13 terminals on the reference
spot), and each player's private state is a combo of its range
(:class:`~cfrviz.games.holdem.public.RiverPublic`).  The sweep is
:mod:`cfrviz.engine.vector_cfr`'s (Johanson et al. 2012; the range vectors of DeepStack and of
the open solvers): ranges down, each hand's counterfactual values up, regrets per hand at the
updated player's decisions, folded in by the same :func:`.cfr.apply_update` into tables laid
out as the dealt tree's (``holdem_river``), so the iterates are the tabular engine's (tested to
1e-12 at every iteration on spots small enough to deal out).

The leaves carry the work.  Chance's probability of a deal is ``w_i * w_j / total`` for two
combos sharing no card, so hand ``h``'s value at a leaf is a sum over the opponent's combos of
``m_j = w_j * reach_j`` (its *mass*) that share no card with ``h``.  With per-card sums
``C[c]`` (the mass of the opponent's combos holding card ``c``), that sum is

- at a fold, ``total - C[c1] - C[c2] + m(same)``: combos holding either of ``h``'s cards are
  removed, and the combo holding both (``h`` itself, if the opponent can hold it) was removed
  twice;
- at a showdown, the same over the opponent's combos weaker than ``h`` (``won``) and those at
  most as strong (``not lost``), each a running sum over the opponent's combos sorted by
  strength, with running per-card sums (the identical combo is as strong as ``h``: it is in the
  second sum only).  Walking ``h`` by strength makes both one pass: linear in the hands per
  leaf after one sort, done once when the plan is built.

The values are ``w_h / total`` times the payoff-weighted masses: won times the winner's
payoff, lost times the loser's, tied (``not lost - won``) times the tie's.  Everything a loop
touches is a preallocated contiguous array (float64; int64, or uint16 for the entries the
leaves read); an iteration allocates nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.types import FloatArray
from .cfr import Tables, UpdateRule, payoff_scale, rounding_tolerance
from .jit import kernel, step
from .plan import PlanArrays
from .river_plan import NUM_CARDS, RiverPlan, RiverPlanArrays, river_plan

__all__ = ["RiverPlan", "RiverPlanArrays", "river_best_response", "river_combo_ev",
           "river_exploitability", "river_plan", "river_values", "run_river_cfr"]

#: What :func:`_values_up` computes at the updated player's decisions.
_REGRETS, _EXPECTED, _BEST = 0, 1, 2
#: 1 as an entry (``uint16``): an entry minus it stays unsigned, read without a sign test.
_ONE = np.uint16(1)


# ----------------------------------------------------------------------------- the kernels

@step
def _ranges_down(r: RiverPlanArrays, strategy: FloatArray, reach: FloatArray, p: int,
                 leaves: bool) -> None:
    """Top-down: ``reach[p, s, h]``, player ``p``'s own probability of playing to state ``s``
    with hand ``h`` (``strategy`` in the kernels' layout, see ``block``; the other player's
    row is left as it is), at the terminals too if ``leaves`` (the leaves of a pass read
    their parent's row and the strategy instead)."""
    n = r.num_hands[p]
    rows = reach[p]
    rows[0, :n] = 1.0
    for s in range(r.player.shape[0]):
        first = r.child_ptr[s]
        here = rows[s]
        for k in range(first, r.child_ptr[s + 1]):
            if not leaves and r.player[r.child_ids[k]] < 0:
                continue
            child = rows[r.child_ids[k]]
            if r.player[s] == p:
                row = strategy[r.block[s] + (k - first) * n:]
                for h in range(n):
                    child[h] = here[h] * row[h]
            else:
                for h in range(n):
                    child[h] = here[h]


@step
def _match(r: RiverPlanArrays, regret_sum: FloatArray, prediction: FloatArray, p: int,
           tol: float, later: float, total: FloatArray, out: FloatArray) -> bool:
    """Regret matching (predictive when ``prediction`` is not empty: on ``regret_sum +
    prediction``) at each of player ``p``'s decisions, hand by hand, into ``out``: as
    :func:`.cfr.match_row`, uniform where the positive regrets sum to at most ``tol``;
    ``total`` (hands) is scratch.  Returns whether a sum lies in ``(tol, later]``: whether
    matching the same regrets with the tolerance ``later`` could give another strategy."""
    n = r.num_hands[p]
    predictive = prediction.shape[0] > 0
    near = False
    for s in range(r.player.shape[0]):
        if r.player[s] != p:
            continue
        base = r.block[s]
        end = base + (r.child_ptr[s + 1] - r.child_ptr[s]) * n
        _positive_totals(regret_sum, prediction, base, end, n, total)
        for h in range(n):
            near |= (tol < total[h]) & (total[h] <= later)
        uniform = 1.0 / (r.child_ptr[s + 1] - r.child_ptr[s])
        # np.divide, numpy's division, has no test for a 0 divisor (numba's ``/`` raises on
        # one), so these loops run on vectors; where it is taken, the divisor is above tol.
        for row in range(base, end, n):
            regrets, played = regret_sum[row:], out[row:]
            if predictive:
                predicted = prediction[row:]
                for h in range(n):
                    x = max(regrets[h] + predicted[h], 0.0)
                    played[h] = np.divide(x, total[h]) if total[h] > tol else uniform
            else:
                for h in range(n):
                    x = max(regrets[h], 0.0)
                    played[h] = np.divide(x, total[h]) if total[h] > tol else uniform
    return near


@step
def _positive_totals(regret_sum: FloatArray, prediction: FloatArray, base: int, end: int,
                     n: int, total: FloatArray) -> None:
    """Each hand's sum of positive regrets (plus predictions, if any) over the rows
    ``base, base + n, .. end`` of one decision."""
    total[:n] = 0.0
    for row in range(base, end, n):
        regrets = regret_sum[row:]
        if prediction.shape[0] > 0:
            predicted = prediction[row:]
            for h in range(n):
                total[h] += max(regrets[h] + predicted[h], 0.0)
        else:
            for h in range(n):
                total[h] += max(regrets[h], 0.0)


@step
def _leaf(r: RiverPlanArrays, who: int, s: int, strategy: FloatArray, reach: FloatArray,
          value: FloatArray, scratch: FloatArray, card_sums: FloatArray) -> None:
    """Player ``who``'s value of leaf ``s`` for each hand: the opponent's mass that the hand
    beats, loses to and ties, card removal corrected card by card (see the module's
    docstring).  One pass over the opponent's hands from the weakest builds the running sum
    ``prefix`` (hands + 1) and the per-card running sums ``card_sums`` (2, 2 hands + 52; the
    segments' zeros are never written); each hand then reads six of them, at entries fixed
    when the plan was built: no branch depends on the ranges.

    A fold of ``who``'s meets the opponent's range of its sibling call (``call``): that
    showdown, processed first, writes the fold's values from the mass each hand meets there
    (into a spare row of ``scratch`` when there is no such fold)."""
    other = 1 - who
    if r.fold[s] and r.folder[s] == who and r.call[s] >= 0:
        return
    mass, prefix = scratch[0], scratch[1]
    _opponent_mass(r, other, s, strategy, reach, mass)
    sums = card_sums[other]
    slot1, slot2 = r.slot1[other], r.slot2[other]
    total = 0.0
    prefix[0] = 0.0
    for j in range(r.num_hands[other]):
        m = mass[j]
        total += m
        prefix[j + 1] = total
        e = slot1[j]
        sums[e] = sums[e - _ONE] + m
        e = slot2[j]
        sums[e] = sums[e - _ONE] + m
    weight, out, gather = r.weight[who], value[s], r.gather[who]
    win, lose, tie = r.payoff[s, who, 0], r.payoff[s, who, 1], r.payoff[s, who, 2]
    if r.fold[s]:
        for h in range(r.num_hands[who]):
            g = gather[h]
            out[h] = weight[h] * win * (total - sums[g[0]] - sums[g[1]] + mass[g[2]])
        return
    f = r.fold_at[s]
    mine = f >= 0 and r.folder[f] == who
    folded, fold_win = (value[f], r.payoff[f, who, 0]) if mine else (scratch[2], 0.0)
    for h in range(r.num_hands[who]):
        g = gather[h]
        all1, all2 = sums[g[0]], sums[g[1]]
        met = total - all1 - all2 + mass[g[2]]
        folded[h] = weight[h] * fold_win * met
        won = prefix[g[3]] - sums[g[4]] - sums[g[5]]
        lost = (total - prefix[g[6]]) - (all1 - sums[g[7]]) - (all2 - sums[g[8]])
        out[h] = weight[h] * (win * won + lose * lost + tie * (met - won - lost))


@step
def _opponent_mass(r: RiverPlanArrays, other: int, s: int, strategy: FloatArray,
                   reach: FloatArray, mass: FloatArray) -> None:
    """``mass[j]``, the opponent's ``w_j * reach_j`` at leaf ``s``: its reach at the parent,
    times its strategy there if it acted (the product :func:`_ranges_down` would store), and
    a 0 past its hands (the hand ``same`` names when the opponent holds none)."""
    weight, here = r.weight[other], reach[other, r.parent[s]]
    n = r.num_hands[other]
    if r.player[r.parent[s]] == other:
        row = strategy[r.edge_row[s]:]
        for j in range(n):
            mass[j] = weight[j] * (here[j] * row[j])
    else:
        for j in range(n):
            mass[j] = weight[j] * here[j]
    mass[mass.shape[0] - 1] = 0.0


class _Fold(NamedTuple):
    """What :func:`.cfr.apply_update` does with iteration t's regrets, as numbers: the floor of
    the regret sums (0 for CFR+, else minus infinity), the factors of the positive and the
    negative ones and of the strategy sum (1 without discounting), the average's weight."""

    floor: float
    pos: float
    neg: float
    keep: float
    avg_weight: float
    record: bool


@step
def _fold_of(rule: UpdateRule, t: int, record: bool) -> _Fold:
    """Iteration ``t``'s discount factors and average weight (as :func:`.cfr.apply_update`),
    and whether to record its regrets (the next prediction, or the last iteration's)."""
    pos = neg = keep = 1.0
    if rule.discount:
        pos = 1.0 / (1.0 + float(t) ** -rule.alpha)
        neg = 1.0 / (1.0 + float(t) ** -rule.beta)
        keep = (t / (t + 1.0)) ** rule.gamma
    avg_weight = float(t) ** rule.average_power if rule.linear_average else 1.0
    return _Fold(0.0 if rule.plus else -np.inf, pos, neg, keep, avg_weight, record)


@step
def _decision_up(r: RiverPlanArrays, strategy: FloatArray, who: int, s: int, mode: int,
                 reach: FloatArray, value: FloatArray, sums: FloatArray, fold: _Fold) -> None:
    """At ``who``'s decision ``s``: each hand's value (under the strategy, or the best
    action's for ``_BEST``); for ``_REGRETS`` also the regrets, folded into ``sums``
    (regret sum, strategy sum, last regrets: 3 rows in the kernels' layout) as
    :func:`.cfr.apply_update` folds them."""
    n = r.num_hands[who]
    base = r.block[s]
    first, end = r.child_ptr[s], r.child_ptr[s + 1]
    out = value[s]
    for h in range(n):
        out[h] = -np.inf if mode == _BEST else 0.0
    for k in range(first, end):
        child = value[r.child_ids[k]]
        row = strategy[base + (k - first) * n:]
        if mode == _BEST:
            for h in range(n):
                out[h] = max(out[h], child[h])
        else:
            for h in range(n):
                out[h] += row[h] * child[h]
    if mode == _REGRETS:
        _fold_in(r, strategy, who, s, reach, value, sums, fold)


@step
def _fold_in(r: RiverPlanArrays, strategy: FloatArray, who: int, s: int, reach: FloatArray,
             value: FloatArray, sums: FloatArray, fold: _Fold) -> None:
    """``who``'s regrets at decision ``s`` (each action's value minus the state's), folded
    into ``sums`` with the own-reach-weighted strategy as :func:`.cfr.apply_update` folds
    them (the regrets themselves kept in ``sums[2]`` only if ``fold.record``).

    Each loop reads a few rows and writes one, without a branch on the rule (its floor and
    factors do nothing where it does not floor or discount), so that it runs on vectors."""
    n = r.num_hands[who]
    first, end = r.child_ptr[s], r.child_ptr[s + 1]
    pos, neg, keep, average, floor = fold.pos, fold.neg, fold.keep, fold.avg_weight, fold.floor
    own, members, out = reach[who, s], r.members[who], value[s]
    for k in range(first, end):
        child = value[r.child_ids[k]]
        row = r.block[s] + (k - first) * n
        played = strategy[row:]
        regret_sum, strategy_sum, last = sums[0, row:], sums[1, row:], sums[2, row:]
        if fold.record:
            for h in range(n):
                last[h] = child[h] - out[h]
        for h in range(n):
            x = max(regret_sum[h] + (child[h] - out[h]), floor)
            regret_sum[h] = x * (pos if x > 0.0 else neg)
        for h in range(n):
            strategy_sum[h] = (strategy_sum[h] + average * ((own[h] * members[h]) * played[h])
                               ) * keep


@step
def _values_up(r: RiverPlanArrays, strategy: FloatArray, who: int, mode: int,
               reach: FloatArray, value: FloatArray, sums: FloatArray, fold: _Fold,
               scratch: FloatArray, card_sums: FloatArray) -> None:
    """Bottom-up: ``value[s, h]``, player ``who``'s counterfactual value of state ``s`` with
    hand ``h`` against the opponent's range in ``reach``."""
    for s in range(r.player.shape[0] - 1, -1, -1):
        if r.player[s] < 0:
            _leaf(r, who, s, strategy, reach, value, scratch, card_sums)
        elif r.player[s] == who:
            _decision_up(r, strategy, who, s, mode, reach, value, sums, fold)
        else:
            out = value[s]
            out[:r.num_hands[who]] = 0.0
            for k in range(r.child_ptr[s], r.child_ptr[s + 1]):
                child = value[r.child_ids[k]]
                for h in range(r.num_hands[who]):
                    out[h] += child[h]


@kernel
def _to_blocks(r: RiverPlanArrays, table: FloatArray, out: FloatArray) -> None:
    """A (information sets x actions) table in the kernels' layout."""
    for s in range(r.player.shape[0]):
        p = r.player[s]
        if p < 0:
            continue
        n = r.num_hands[p]
        for a in range(r.child_ptr[s + 1] - r.child_ptr[s]):
            for h in range(n):
                out[r.block[s] + a * n + h] = table[r.info[s, h], a]


@kernel
def _to_table(r: RiverPlanArrays, blocks: FloatArray, table: FloatArray) -> None:
    """The kernels' layout back into a (information sets x actions) table (its padding
    entries, actions a set does not have, left as they are)."""
    for s in range(r.player.shape[0]):
        p = r.player[s]
        if p < 0:
            continue
        n = r.num_hands[p]
        for a in range(r.child_ptr[s + 1] - r.child_ptr[s]):
            for h in range(n):
                table[r.info[s, h], a] = blocks[r.block[s] + a * n + h]


@kernel
def _scratch(r: RiverPlanArrays) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray,
                                          FloatArray]:
    """The passes' scratch: reach (2, states, hands), value (states, hands), the opponent's
    masses, their running sum and a spare row (3, hands + 1), per-card sums (2, 2 hands +
    52), per-hand totals (hands)."""
    states, hands = r.info.shape
    return (np.zeros((2, states, hands)), np.zeros((states, hands)), np.zeros((3, hands + 1)),
            np.zeros((2, 2 * hands + NUM_CARDS)), np.zeros(hands))


@kernel
def run_river_cfr(r: RiverPlanArrays, arrays: PlanArrays, tables: Tables, first: int,
                  last: int, rule: UpdateRule) -> None:
    """Iterations ``first..last`` (1-based) of the full-tree CFR family on a river spot's
    public tree: the iterates of :func:`.cfr.run_full_tree` on the spot's dealt tree
    (``holdem_river``), in the same tables.

    The tables are read into the kernels' layout (per state, action and hand, contiguous
    over the hands) on entry and written back on return; in between, regret matching, the
    two passes and the update of each player run over contiguous rows, allocating nothing.

    Parameters
    ----------
    r : RiverPlanArrays
        ``river_plan(spot).arrays``.
    arrays : PlanArrays
        ``river_plan(spot).tree_arrays`` (its payoffs set the rounding tolerance).
    tables : Tables
        Shape (information sets, widest set's actions), in the spot's set order.  On return
        ``current`` holds the strategy played at iteration ``last`` and ``instant`` that
        iteration's regrets, as :func:`.cfr.run_full_tree`'s.
    first, last : int
    rule : UpdateRule
        Vanilla CFR, CFR+, linear CFR, DCFR, PCFR+ (see :func:`.cfr.run_full_tree`).
    """
    sums = np.zeros((3, r.block[-1]))  # regret sum, strategy sum, last regrets
    for row, table in enumerate((tables.regret_sum, tables.strategy_sum, tables.instant)):
        _to_blocks(r, table, sums[row])
    prediction = sums[2] if rule.predictive else sums[2, :0]
    strategy = np.zeros(r.block[-1])
    reach, value, scratch, card_sums, total = _scratch(r)
    scale = payoff_scale(arrays.utility)
    stale = True  # whether player 1's strategy must be matched again at the next iteration
    for t in range(first, last + 1):
        tol = rounding_tolerance(scale, t)
        fold = _fold_of(rule, t, rule.predictive or t == last)
        if stale:
            _match(r, sums[0], prediction, 0, tol, tol, total, strategy)
        _match(r, sums[0], prediction, 1, tol, tol, total, strategy)
        if t == last:
            _to_table(r, strategy, tables.current)
        for p in range(0 if stale else 1, 2):  # else player 1's range is still its matched one
            _ranges_down(r, strategy, reach, p, False)
        for who in range(2):
            _values_up(r, strategy, who, _REGRETS, reach, value, sums, fold, scratch, card_sums)
            if rule.alternating and who == 0:
                # Player 2's pass needs player 1's new range only.  Its regrets do not change
                # again before the next iteration, whose matching gives the same strategy
                # unless that iteration's larger tolerance catches a sum.
                stale = _match(r, sums[0], prediction, 0, tol,
                               rounding_tolerance(scale, t + 1), total, strategy)
                _ranges_down(r, strategy, reach, 0, False)
    for row, table in enumerate((tables.regret_sum, tables.strategy_sum, tables.instant)):
        _to_table(r, sums[row], table)


@kernel
def river_values(r: RiverPlanArrays, strategy: FloatArray, who: int, mode: int,
                 value: FloatArray) -> None:
    """Player ``who``'s counterfactual value of every state with every hand (kernel order),
    into ``value`` (states, hands), the opponent playing ``strategy``: ``who`` playing it too
    (``mode`` 1), or best-responding (``mode`` 2).

    A counterfactual value weighs each deal by chance and the opponent's reach, not ``who``'s
    own: the sum over ``who``'s hands of the root's values is ``who``'s expected payoff (its
    best-response value in mode 2).
    """
    states, hands = r.info.shape
    blocks = np.zeros(r.block[states])
    _to_blocks(r, strategy, blocks)
    reach = np.zeros((2, states, hands))
    _ranges_down(r, blocks, reach, 1 - who, False)
    _values_up(r, blocks, who, mode, reach, value, np.zeros((3, 0)),
               _Fold(-np.inf, 1.0, 1.0, 1.0, 1.0, False), np.zeros((3, hands + 1)),
               np.zeros((2, 2 * hands + NUM_CARDS)))


def _values(plan: RiverPlan, strategy: FloatArray, who: int, mode: int) -> FloatArray:
    value = np.zeros((len(plan.spot.bets.nodes), plan.hands))
    river_values(plan.arrays, np.ascontiguousarray(strategy, dtype=np.float64), who, mode,
                 value)
    return value


def river_best_response(plan: RiverPlan, strategy: FloatArray, who: int) -> float:
    """Player ``who``'s best-response value against the opponent's part of ``strategy``
    (information sets x actions, in the spot's order), exact: the best action per hand, by
    one pass up the public tree (each information set is a hand at a public state).

    The same number as :func:`cfrviz.engine.evaluation.best_response_values` on the spot's
    dealt tree.
    """
    return float(_values(plan, strategy, who, _BEST)[0].sum())


def river_exploitability(plan: RiverPlan, strategy: FloatArray) -> float:
    """The exploitability of ``strategy`` (both players' parts): the mean of the two
    best-response values (NashConv / 2, as :func:`cfrviz.exploitability`; the game is
    zero-sum, so the values of ``strategy`` itself cancel)."""
    return (river_best_response(plan, strategy, 0) + river_best_response(plan, strategy, 1)) / 2


def river_combo_ev(plan: RiverPlan, strategy: FloatArray, who: int) -> FloatArray:
    """Each of ``who``'s hands' expected payoff at each public state, both players playing
    ``strategy``: shape (states, ``who``'s hands in the spot's order), NaN where the opponent
    never reaches the state against the hand.

    The expectation is over the opponent's hands given ``who``'s hand and that the opponent
    played to the state (the counterfactual value divided by the chance-and-opponent mass it
    weighs), in the game's payoffs: the hand's share of the final pot minus its river chips
    minus half the starting pot (add ``pot / 2`` for the share of the pot the hand takes
    home).  At the root, ``ev[0] @ p`` over the hands' dealing probabilities ``p`` is ``who``'s
    value.
    """
    value = _values(plan, strategy, who, _EXPECTED)
    met = np.zeros_like(value)
    _met_mass(plan.arrays, np.ascontiguousarray(strategy, dtype=np.float64), who, met)
    met /= plan.spot.total_weight
    out = np.full_like(value, np.nan)
    np.divide(value, met, out=out, where=met > 0)
    return plan.to_spot(out, who)


@kernel
def _met_mass(r: RiverPlanArrays, strategy: FloatArray, who: int, met: FloatArray) -> None:
    """``met[s, h]``: ``w_h`` times the opponent's mass sharing no card with ``who``'s hand
    ``h`` at state ``s`` (chance's and the opponent's probability, times the total weight)."""
    states, hands = r.info.shape
    blocks = np.zeros(r.block[states])
    _to_blocks(r, strategy, blocks)
    reach = np.zeros((2, states, hands))
    _ranges_down(r, blocks, reach, 1 - who, True)
    other = 1 - who
    mass = np.zeros(hands + 1)
    by_card = np.zeros(NUM_CARDS)
    for s in range(states):
        by_card[:] = 0.0
        total = 0.0
        for j in range(r.num_hands[other]):
            mass[j] = r.weight[other, j] * reach[other, s, j]
            total += mass[j]
            by_card[r.card1[other, j]] += mass[j]
            by_card[r.card2[other, j]] += mass[j]
        for h in range(r.num_hands[who]):
            met[s, h] = r.weight[who, h] * (total - by_card[r.card1[who, h]]
                                            - by_card[r.card2[who, h]] + mass[r.same[who, h]])
