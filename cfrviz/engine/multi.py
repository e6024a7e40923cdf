"""Full-tree CFR for any number of players, and what its runs can honestly be measured by.

The two-player kernels (:mod:`.cfr`) label an edge by who chose it, 0, 1 or chance (2),
and that label is also the row of a three-row reach table.  Here the same layout holds
for N players: rows ``0 .. N-1`` are the players' own reaches and row ``N`` is chance's,
so a decision edge of player 2 is no longer mistaken for a chance edge.  A player's
counterfactual reach is the product of every other row (the other players' and chance's).
Iterations fold regrets and strategies into the tables with the two-player engine's own
:func:`~cfrviz.engine.cfr.apply_update` (vanilla CFR, CFR+, linear CFR, DCFR, PCFR+), so on a
two-player tree :func:`run_multi_full_tree` gives the tables :func:`~cfrviz.engine.run_full_tree`
gives.

With more than two players nothing says the average profile is a Nash equilibrium.  What
no-regret learning does guarantee is about the *joint* play: the empirical distribution of
the profiles played, sigma^1 .. sigma^T, approaches the set of coarse correlated equilibria.
:class:`JointPlay` accumulates, at every iteration, each player's counterfactual reach of
every terminal (the product of the other players' and chance's reach under sigma^t) and the
value each player received; player i's best fixed deviation against the whole sequence is
then a best response in the tree whose leaves carry (accumulated reach) x u_i, and the
coarse-correlated gap is the largest such external regret divided by T.  The readable
recursive versions the tests compare these with are in :mod:`cfrviz.reference.multi`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.tree import CHANCE, TERMINAL, GameTree
from ..core.types import BoolArray, FloatArray, IntArray
from .cfr import (
    Tables,
    UpdateRule,
    apply_update,
    copy_table,
    payoff_scale,
    play_strategy,
    rounding_tolerance,
    value_pass,
)
from .jit import kernel, step
from .plan import ROOT_EDGE, PlanArrays

__all__ = ["JointPlay", "MultiPlan", "best_deviation_total", "coarse_correlated_gaps",
           "deviation_gains", "multi_plan", "profile_values", "run_multi_full_tree"]


class MultiPlan:
    """A tree's arrays for the N-player kernels (built once per tree).

    Attributes
    ----------
    arrays : PlanArrays
        As the two-player :class:`~cfrviz.engine.plan.Plan`'s, except that ``edge`` labels a
        decision edge with its player (0 .. N-1) and a chance edge with N.
    players : int
    n : int
        Nodes.
    stage : int64 array (players, nodes)
        How many of the player's own decisions lie above each node (its sequence length):
        the best response decides the information sets of the deepest stage first.
    terminals : int64 array
        The terminal nodes, in preorder.
    """

    def __init__(self, tree: GameTree) -> None:
        n, players = tree.num_nodes, tree.num_players
        self.n, self.players = n, players
        parent = np.ascontiguousarray(tree.parent, dtype=np.int64)
        player = np.ascontiguousarray(tree.player, dtype=np.int64)
        infoset = np.ascontiguousarray(tree.infoset, dtype=np.int64)
        if np.any(parent[1:] >= np.arange(1, n)) or parent[0] != -1:
            raise ValueError(f"{tree.name}: node ids must list parents before children")
        counts = np.array([len(c) for c in tree.children], dtype=np.int64)
        child_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        child_ids = (np.concatenate(tree.children).astype(np.int64) if n > 1
                     else np.zeros(0, dtype=np.int64))
        par = np.maximum(parent, 0)
        who = player[par]
        edge = np.where(who == CHANCE, players, who).astype(np.int64)
        edge[0] = ROOT_EDGE
        width = tree.max_actions
        slot = np.full(n, -1, dtype=np.int64)
        decision = (edge >= 0) & (edge < players)
        slot[decision] = infoset[par[decision]] * width + tree.action[decision]
        self.arrays = PlanArrays(
            parent=_frozen_int(parent), edge=_frozen_int(edge), slot=_frozen_int(slot),
            player=_frozen_int(player), infoset=_frozen_int(infoset),
            child_ptr=_frozen_int(child_ptr), child_ids=_frozen_int(child_ids),
            chance_prob=_frozen_float(tree.chance_prob), utility=_frozen_float(tree.utility),
            owner=_frozen_int(tree.infoset_player),
            mask=_frozen_bool(tree.legal_mask))
        stage = np.zeros((players, n), dtype=np.int64)
        for h in range(1, n):  # once per tree; parents come first
            stage[:, h] = stage[:, par[h]]
            if player[par[h]] >= 0:
                stage[player[par[h]], h] += 1
        self.stage = _frozen_int(stage)
        self.terminals = _frozen_int(np.flatnonzero(player == TERMINAL))


def _frozen_int(values: object) -> IntArray:
    array = np.array(values, dtype=np.int64, order="C")
    array.setflags(write=False)
    return array


def _frozen_float(values: object) -> FloatArray:
    array = np.array(values, dtype=np.float64, order="C")
    array.setflags(write=False)
    return array


def _frozen_bool(values: object) -> BoolArray:
    array = np.array(values, dtype=np.bool_, order="C")
    array.setflags(write=False)
    return array


def multi_plan(tree: GameTree) -> MultiPlan:
    """The cached :class:`MultiPlan` of a tree (any number of players)."""
    return tree.cached("multi_plan", MultiPlan)


class JointPlay(NamedTuple):
    """What the kernel accumulates about the profiles played, sigma^1 .. sigma^T.

    Attributes
    ----------
    reach_sum : float64 array (players, nodes)
        ``reach_sum[i, z]``: the sum over iterations of the product of the other players'
        and chance's reach of node z under sigma^t (filled at terminal nodes).
    value_sum : float64 array (players,)
        The sum over iterations of each player's expected payoff under sigma^t.
    """

    reach_sum: FloatArray
    value_sum: FloatArray


# ----------------------------------------------------------------------------- passes

@kernel
def multi_reach_pass(arrays: PlanArrays, strategy: FloatArray, players: int, reach: FloatArray,
                     prob: FloatArray) -> None:
    """Top-down: each node's reach split into rows (player 1 .. player N, chance)."""
    parent, edge, slot, chance_prob = arrays.parent, arrays.edge, arrays.slot, arrays.chance_prob
    flat = strategy.ravel()
    for r in range(players + 1):
        reach[r, 0] = 1.0
    prob[0] = 1.0
    for h in range(1, parent.shape[0]):
        par = parent[h]
        e = edge[h]
        p = chance_prob[h] if e == players else flat[slot[h]]
        prob[h] = p
        for r in range(players + 1):
            reach[r, h] = reach[r, par]
        reach[e, h] *= p


@kernel
def others_reach(reach: FloatArray, players: int, who: int, h: int) -> float:
    """The product of every reach row but ``who``'s at node ``h``: chance's first, then the
    other players' in order (for two players, chance x opponent, as the two-player kernel)."""
    product: float = reach[players, h]
    for r in range(players):
        if r != who:
            product *= reach[r, h]
    return product


@kernel
def multi_cfr_pass(arrays: PlanArrays, strategy: FloatArray, players: int, who: int,
                   reach: FloatArray, prob: FloatArray, value: FloatArray, regret: FloatArray,
                   weighted: FloatArray) -> None:
    """One player's counterfactual regrets and own-reach-weighted strategy (Zinkevich et al.
    2007), with the counterfactual reach the product of all the other rows."""
    parent, edge, slot = arrays.parent, arrays.edge, arrays.slot
    multi_reach_pass(arrays, strategy, players, reach, prob)
    value_pass(arrays, prob, who, value)  # any number of players: utility[h, who]
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
            regret[s] += others_reach(reach, players, who, par) * (value[h] - value[par])
            weighted[s] += reach[who, par] * prob[h]


@kernel
def accumulate_joint(arrays: PlanArrays, strategy: FloatArray, players: int, reach: FloatArray,
                     prob: FloatArray, joint: JointPlay) -> None:
    """Add the profile ``strategy`` (everyone's sigma^t) to the joint-play sums."""
    player, utility = arrays.player, arrays.utility
    multi_reach_pass(arrays, strategy, players, reach, prob)
    for z in range(player.shape[0]):
        if player[z] != TERMINAL:
            continue
        everyone = reach[players, z]
        for r in range(players):
            everyone *= reach[r, z]
        for i in range(players):
            joint.reach_sum[i, z] += others_reach(reach, players, i, z)
            joint.value_sum[i] += everyone * utility[z, i]


# ----------------------------------------------------------------------------- CFR

@kernel
def run_multi_full_tree(arrays: PlanArrays, players: int, tables: Tables, first: int,
                        last: int, rule: UpdateRule, joint: JointPlay) -> None:
    """Iterations ``first..last`` (1-based) of full-tree CFR for ``players`` players, in place.

    The loop of :func:`cfrviz.engine.run_full_tree` with N reach rows: each iteration plays
    the variant's strategy (``tables.current``), adds that profile to ``joint``, then
    updates the players in turn (``rule.alternating``: each against the strategies the
    players before it have just updated, as OpenSpiel's ``CFRSolver`` does) or all from the
    same profile.

    Parameters
    ----------
    arrays : PlanArrays
        ``multi_plan(tree).arrays``.
    players : int
    tables : Tables
    first, last : int
    rule : UpdateRule
        Vanilla CFR (Zinkevich et al. 2007), CFR+ (Tammelin 2014), ... as for two players.
    joint : JointPlay
        Sums over the profiles played, for the coarse-correlated gap.
    """
    n = arrays.parent.shape[0]
    mask = arrays.mask
    regret_sum = tables.regret_sum
    num, width = regret_sum.shape
    reach = np.empty((players + 1, n))
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
        accumulate_joint(arrays, strategy, players, reach, prob, joint)
        if rule.alternating:
            for who in range(players):
                multi_cfr_pass(arrays, strategy, players, who, reach, prob, value, regret,
                               weighted)
                apply_update(arrays, tables, rule, who, t, regret, weighted)
                play_strategy(tables, mask, rule, strategy, tol)
        else:
            for who in range(players):
                multi_cfr_pass(arrays, strategy, players, who, reach, prob, value, regret,
                               weighted)
            for who in range(players):
                apply_update(arrays, tables, rule, who, t, regret, weighted)


# ----------------------------------------------------------------------------- evaluation

@kernel
def best_deviation_total(arrays: PlanArrays, stage: IntArray, who: int, leaf: FloatArray,
                         value: FloatArray, choice: IntArray) -> float:
    """The largest total of ``leaf`` over the terminals one pure strategy of ``who`` allows.

    ``leaf[z]`` already carries every weight but ``who``'s own choices (the other players'
    and chance's reach times a payoff), so the total of a pure strategy is the sum of its
    reachable leaves.  With perfect recall all the nodes of an information set share a
    stage (how many of the player's own decisions lie above them); deciding the deepest
    stage first makes every child value final when its information set is decided.
    ``value`` (nodes) and ``choice`` (information sets) are scratch.
    """
    player = arrays.player
    top = 0
    for h in range(player.shape[0]):
        if player[h] == who and stage[who, h] > top:
            top = stage[who, h]
    for i in range(choice.shape[0]):
        choice[i] = -1
    totals = np.zeros(arrays.mask.shape[1])
    for s in range(top, -2, -1):  # stages top .. 0, then one last pass for the root
        _values_given_choices(arrays, who, leaf, choice, value)
        if s < 0:
            break
        _decide_stage(arrays, stage, who, s, value, totals, choice)
    root: float = value[0]
    return root


@step
def _values_given_choices(arrays: PlanArrays, who: int, leaf: FloatArray, choice: IntArray,
                          value: FloatArray) -> None:
    """Each node's total of ``leaf`` below it when ``who`` plays ``choice`` where decided
    (0 below an undecided set) and every other node passes on all its children's."""
    player, infoset, child_ptr, child_ids = (arrays.player, arrays.infoset, arrays.child_ptr,
                                             arrays.child_ids)
    for h in range(player.shape[0] - 1, -1, -1):
        if player[h] == TERMINAL:
            value[h] = leaf[h]
        elif player[h] == who:
            a = choice[infoset[h]]
            value[h] = value[child_ids[child_ptr[h] + a]] if a >= 0 else 0.0
        else:
            total = 0.0
            for k in range(child_ptr[h], child_ptr[h + 1]):
                total += value[child_ids[k]]
            value[h] = total


@step
def _decide_stage(arrays: PlanArrays, stage: IntArray, who: int, s: int, value: FloatArray,
                  totals: FloatArray, choice: IntArray) -> None:
    """Choose, at each of ``who``'s sets with nodes at stage ``s``, the legal action whose
    children's values summed over the set's nodes are largest (the first among equals)."""
    infoset, child_ptr, child_ids = arrays.infoset, arrays.child_ptr, arrays.child_ids
    n = infoset.shape[0]
    for info in range(choice.shape[0]):
        if arrays.owner[info] != who:
            continue
        for a in range(totals.shape[0]):
            totals[a] = 0.0
        found = False
        for h in range(n):
            if infoset[h] == info and stage[who, h] == s:
                found = True
                for a in range(child_ptr[h + 1] - child_ptr[h]):
                    totals[a] += value[child_ids[child_ptr[h] + a]]
        if found:
            choice[info] = _best_legal(totals, arrays.mask[info])


@step
def _best_legal(totals: FloatArray, legal: BoolArray) -> int:
    """The first legal index of the largest total (-1 with none legal)."""
    best = -1
    for a in range(totals.shape[0]):
        if legal[a] and (best < 0 or totals[a] > totals[best]):
            best = a
    return best


@kernel
def _leaf_values(arrays: PlanArrays, reach: FloatArray, players: int, who: int,
                 leaf: FloatArray) -> float:
    """``leaf[z]`` = the others' reach of terminal z times ``who``'s payoff; returns the
    profile's value for ``who`` (everyone's reach times the payoff, summed)."""
    player, utility = arrays.player, arrays.utility
    total = 0.0
    for z in range(player.shape[0]):
        if player[z] != TERMINAL:
            leaf[z] = 0.0
            continue
        others = others_reach(reach, players, who, z)
        leaf[z] = others * utility[z, who]
        total += others * reach[who, z] * utility[z, who]
    result: float = total
    return result


@kernel
def _profile_gains(arrays: PlanArrays, stage: IntArray, players: int, strategy: FloatArray,
                   values: FloatArray, best: FloatArray) -> None:
    n = arrays.parent.shape[0]
    reach = np.empty((players + 1, n))
    prob = np.empty(n)
    leaf = np.empty(n)
    value = np.empty(n)
    choice = np.empty(arrays.mask.shape[0], dtype=np.int64)
    multi_reach_pass(arrays, strategy, players, reach, prob)
    for who in range(players):
        values[who] = _leaf_values(arrays, reach, players, who, leaf)
        best[who] = best_deviation_total(arrays, stage, who, leaf, value, choice)


@kernel
def _joint_best(arrays: PlanArrays, stage: IntArray, players: int, reach_sum: FloatArray,
                best: FloatArray) -> None:
    n = arrays.parent.shape[0]
    leaf = np.empty(n)
    value = np.empty(n)
    choice = np.empty(arrays.mask.shape[0], dtype=np.int64)
    player, utility = arrays.player, arrays.utility
    for who in range(players):
        for z in range(n):
            leaf[z] = reach_sum[who, z] * utility[z, who] if player[z] == TERMINAL else 0.0
        best[who] = best_deviation_total(arrays, stage, who, leaf, value, choice)


def _profile(tree: GameTree, strategy: FloatArray) -> tuple[FloatArray, FloatArray]:
    p = multi_plan(tree)
    table = np.ascontiguousarray(strategy, dtype=np.float64)
    if table.shape != tree.legal_mask.shape:
        raise ValueError(f"a strategy table on {tree.name} has shape {tree.legal_mask.shape} "
                         f"(information sets, actions); got {table.shape}")
    values, best = np.zeros(p.players), np.zeros(p.players)
    _profile_gains(p.arrays, p.stage, p.players, table, values, best)
    return values, best


def profile_values(tree: GameTree, strategy: FloatArray) -> FloatArray:
    """Each player's expected payoff when everyone plays ``strategy`` (a table of shape
    (information sets, actions)); shape (players,)."""
    return _profile(tree, strategy)[0]


def deviation_gains(tree: GameTree, strategy: FloatArray) -> FloatArray:
    """Each player's gain from deviating alone: its best-response value against the others'
    strategies in ``strategy`` minus its value in the profile; shape (players,).

    All are zero exactly at a Nash equilibrium; their sum is NashConv (for two players,
    twice :func:`cfrviz.exploitability`).
    """
    values, best = _profile(tree, strategy)
    gains: FloatArray = best - values  # >= 0 up to rounding (never clipped: a bug would show)
    return gains


def coarse_correlated_gaps(tree: GameTree, joint: JointPlay, iterations: int) -> FloatArray:
    """Each player's external regret against the joint play so far, divided by T.

    ``max over player i's pure strategies of (1/T) sum_t u_i(s_i, sigma^t_{-i})`` minus
    ``(1/T) sum_t u_i(sigma^t)``, from the sums ``joint`` accumulated over ``iterations``
    profiles.  The empirical distribution of the profiles is an epsilon-coarse correlated
    equilibrium for epsilon = the largest entry (Hannan 1957; Hart and Mas-Colell 2000).
    """
    if iterations < 1:
        raise ValueError(f"the coarse-correlated gap needs at least one iteration; got "
                         f"{iterations}")
    p = multi_plan(tree)
    best = np.zeros(p.players)
    _joint_best(p.arrays, p.stage, p.players, np.ascontiguousarray(joint.reach_sum), best)
    gaps: FloatArray = (best - joint.value_sum) / iterations
    return gaps
