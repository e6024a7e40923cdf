"""Monte Carlo CFR (Lanctot et al. 2009): chance, external and outcome sampling, compiled.

Each kernel runs iterations ``first..last`` in place on a :class:`Tables`,
alternating players within an iteration, and returns the number of nodes it
touched.  They walk only the sampled part of the tree: chance and external
sampling with an explicit stack (a node id to expand it, ``~id`` to finish it
once its children are done), outcome sampling along one path.  Because the
stack is last in, first out, a node's children are explored from the last
action to the first; the readable references in :mod:`cfrviz.reference.mccfr`
recurse in that order so that they draw the same random numbers for the same
nodes.

The stack walks share their steps (:func:`_open` expands a terminal or chance node,
:func:`_push_children` and :func:`_push_child` push what a decision explores,
:func:`_expected` is a node's value); each scheme adds only what it does at a decision on the
way down and on the way back up.  The walks and their steps are compiled as
:func:`~.jit.step` (inlined, without reference counting, so the split costs no speed).

To save time, ``current`` and ``instant`` are only filled for iteration
``last`` (the driver takes snapshots at the ends of calls): the strategy at
its start and the change it made to each player's regrets.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.tree import CHANCE, TERMINAL
from ..core.types import FloatArray, IntArray, UIntArray
from .cfr import (
    Tables,
    copy_table,
    match_row,
    payoff_scale,
    regret_matching_table,
    rounding_tolerance,
)
from .jit import kernel, step
from .plan import PlanArrays
from .rng import uniform

__all__ = ["outcome_scale", "run_chance_sampling", "run_external_sampling",
           "run_outcome_sampling"]


class Walk(NamedTuple):
    """A stack walk's scratch, one entry per node unless said.

    Attributes
    ----------
    stack : int64 array (2 * nodes + 2,)
        ``h`` to expand node ``h``, ``~h`` to finish it once its children are done.
    value : float64 array
        The traverser's sampled value of each finished node.
    chosen : int64 array
        At a sampled node (chance, or a sampled player), the child drawn.
    buf : float64 array (widest node,)
        Chance's probabilities at the node being sampled.
    """

    stack: IntArray
    value: FloatArray
    chosen: IntArray
    buf: FloatArray


# ----------------------------------------------------------------------------- shared helpers

@kernel
def _sample(weights: FloatArray, rng: UIntArray) -> int:
    """An index drawn with probabilities ``weights`` (which sum to 1), from one uniform."""
    u = uniform(rng)
    k: int = weights.shape[0]
    acc = 0.0
    for i in range(k):
        acc += weights[i]
        if u < acc:
            return i
    # rounding left u above the total: take the last index with positive weight
    for i in range(k - 1, -1, -1):
        if weights[i] > 0.0:
            return i
    return k - 1


@kernel
def _sample_chance(arrays: PlanArrays, h: int, buf: FloatArray, rng: UIntArray) -> int:
    """Index of the outcome drawn at chance node ``h`` (``buf``: scratch of the widest node)."""
    lo = arrays.child_ptr[h]
    k = arrays.child_ptr[h + 1] - lo
    for i in range(k):
        buf[i] = arrays.chance_prob[arrays.child_ids[lo + i]]
    return _sample(buf[:k], rng)


@kernel
def _scratch(arrays: PlanArrays) -> FloatArray:
    """A buffer as long as the widest node's list of children or actions.

    A loop rather than ``np.max(np.diff(...))``, whose compilation took seconds.
    """
    child_ptr = arrays.child_ptr
    widest = max(1, arrays.mask.shape[1])
    for h in range(child_ptr.shape[0] - 1):
        widest = max(widest, child_ptr[h + 1] - child_ptr[h])
    return np.empty(widest)


@kernel
def _walk_scratch(arrays: PlanArrays) -> Walk:
    """A fresh :class:`Walk` for the tree."""
    n = arrays.player.shape[0]
    return Walk(np.empty(2 * n + 2, dtype=np.int64), np.zeros(n), np.zeros(n, dtype=np.int64),
                _scratch(arrays))


@step
def _start_iteration(tables: Tables, arrays: PlanArrays, record: bool, tol: float) -> None:
    """At the recorded iteration, the strategy it starts from into ``tables.current``."""
    if record:
        regret_matching_table(tables.regret_sum, arrays.mask, tables.current, tol)


@step
def _start_traversal(tables: Tables, before: FloatArray, record: bool) -> None:
    """At the recorded iteration, the regrets before a player's traversal into ``before``."""
    if record:
        copy_table(tables.regret_sum, before)


@step
def _record_instant(tables: Tables, before: FloatArray, owner: IntArray, who: int,
                    record: bool) -> None:
    """At the recorded iteration, ``who``'s regrets of it: the change since ``before``."""
    if not record:
        return
    regret_sum = tables.regret_sum
    for info in range(regret_sum.shape[0]):
        if owner[info] == who:
            for a in range(regret_sum.shape[1]):
                tables.instant[info, a] = regret_sum[info, a] - before[info, a]


@step
def _push_child(arrays: PlanArrays, h: int, i: int, walk: Walk, top: int) -> int:
    """Push ``h``'s child ``i``, the one sampled there (kept in ``walk.chosen``); the new top."""
    walk.chosen[h] = arrays.child_ids[arrays.child_ptr[h] + i]
    walk.stack[top] = walk.chosen[h]
    return top + 1


@step
def _push_children(arrays: PlanArrays, h: int, stack: IntArray, top: int) -> int:
    """Push every child of ``h`` (the last is expanded first); the new top."""
    for k in range(arrays.child_ptr[h], arrays.child_ptr[h + 1]):
        stack[top] = arrays.child_ids[k]
        top += 1
    return top


@step
def _open(arrays: PlanArrays, h: int, who: int, walk: Walk, top: int, rng: UIntArray) -> int:
    """Expand node ``h`` as every stack walk does; the new top.

    A terminal's value is ``who``'s payoff.  Any other node is pushed to be finished after
    its children, and at a chance node one outcome is sampled and pushed; a decision
    node's children are left to the caller's scheme.
    """
    kind = arrays.player[h]
    if kind == TERMINAL:
        walk.value[h] = arrays.utility[h, who]
        return top
    walk.stack[top] = ~h
    top += 1
    if kind == CHANCE:
        top = _push_child(arrays, h, _sample_chance(arrays, h, walk.buf, rng), walk, top)
    return top


@step
def _expected(arrays: PlanArrays, h: int, row: FloatArray, value: FloatArray) -> float:
    """``sum_a row[a] * value[child a of h]``: the node's value under the strategy ``row``."""
    lo = arrays.child_ptr[h]
    v = 0.0
    for a in range(arrays.child_ptr[h + 1] - lo):
        v += row[a] * value[arrays.child_ids[lo + a]]
    return v


# ----------------------------------------------------------------------------- chance sampling

@kernel
def run_chance_sampling(arrays: PlanArrays, tables: Tables, first: int, last: int,
                        rng: UIntArray) -> int:
    """Chance-sampled CFR (Zinkevich et al. 2007; Lanctot et al. 2009), alternating players.

    Each player's traversal samples one outcome at every chance node it meets
    and walks every action of both players below; chance probabilities
    cancel against the sampling, so regrets are weighted by the opponent's
    reach only and the strategy sum by the player's own reach.

    Parameters
    ----------
    arrays : PlanArrays
    tables : Tables
    first, last : int
        Iterations to run (1-based, inclusive).
    rng : uint64 array of length 1
        SplitMix64 state, advanced in place.

    Returns
    -------
    int
        Nodes touched.
    """
    n = arrays.player.shape[0]
    num, width = tables.regret_sum.shape
    walk = _walk_scratch(arrays)
    strategy = np.empty((num, width))
    reach = np.zeros((2, n))  # the traverser's own reach, the opponent's
    # A set's strategy is computed when a traversal first reaches it and then held for the
    # rest of that traversal (as if the whole table had been computed at its start).
    stamp = np.empty(num, dtype=np.int64)
    for info in range(num):  # a loop compiles faster than np.full
        stamp[info] = -1
    before = np.empty_like(tables.regret_sum)
    touched = 0
    scale = payoff_scale(arrays.utility)  # sampled values: payoffs (chance cancels)
    for t in range(first, last + 1):
        tol = rounding_tolerance(scale, t)
        _start_iteration(tables, arrays, t == last, tol)
        for who in range(2):
            _start_traversal(tables, before, t == last)
            touched += _chance_sampled_walk(arrays, tables, who, 2 * t + who, walk, reach,
                                            strategy, stamp, rng, tol)
            _record_instant(tables, before, arrays.owner, who, t == last)
    return touched


@step
def _chance_sampled_walk(arrays: PlanArrays, tables: Tables, who: int, traversal: int,
                         walk: Walk, reach: FloatArray, strategy: FloatArray, stamp: IntArray,
                         rng: UIntArray, tol: float) -> int:
    """One traversal of chance-sampled CFR for ``who``; the nodes it touched."""
    stack = walk.stack
    stack[0] = 0
    top = 1
    reach[0, 0] = 1.0
    reach[1, 0] = 1.0
    touched = 0
    while top > 0:
        top -= 1
        code = stack[top]
        if code < 0:  # finish: the children's values are known
            _chance_sampled_finish(arrays, tables, ~code, who, walk, reach, strategy)
            continue
        touched += 1
        top = _open(arrays, code, who, walk, top, rng)
        kind = arrays.player[code]
        if kind == CHANCE:  # chance's probability cancels against the sampling
            reach[0, walk.chosen[code]] = reach[0, code]
            reach[1, walk.chosen[code]] = reach[1, code]
        elif kind >= 0:
            top = _chance_sampled_expand(arrays, tables.regret_sum, code, who, traversal, stack,
                                         top, reach, strategy, stamp, tol)
    return touched


@step
def _chance_sampled_expand(arrays: PlanArrays, regret_sum: FloatArray, h: int, who: int,
                           traversal: int, stack: IntArray, top: int, reach: FloatArray,
                           strategy: FloatArray, stamp: IntArray, tol: float) -> int:
    """Push every child of decision node ``h`` with its reaches; the new top."""
    info = arrays.infoset[h]
    if stamp[info] != traversal:
        match_row(regret_sum, arrays.mask, info, strategy[info], tol)
        stamp[info] = traversal
    mover = 0 if arrays.player[h] == who else 1  # the reach row this node's moves multiply
    lo = arrays.child_ptr[h]
    for a in range(arrays.child_ptr[h + 1] - lo):
        c = arrays.child_ids[lo + a]
        reach[mover, c] = reach[mover, h] * strategy[info, a]
        reach[1 - mover, c] = reach[1 - mover, h]
        stack[top] = c
        top += 1
    return top


@step
def _chance_sampled_finish(arrays: PlanArrays, tables: Tables, h: int, who: int, walk: Walk,
                           reach: FloatArray, strategy: FloatArray) -> None:
    """Node ``h``'s value; at ``who``'s nodes, its regrets and strategy sum."""
    value = walk.value
    kind = arrays.player[h]
    if kind == CHANCE:
        value[h] = value[walk.chosen[h]]
        return
    info = arrays.infoset[h]
    v = _expected(arrays, h, strategy[info], value)
    value[h] = v
    if kind == who:
        lo = arrays.child_ptr[h]
        for a in range(arrays.child_ptr[h + 1] - lo):
            tables.regret_sum[info, a] += reach[1, h] * (value[arrays.child_ids[lo + a]] - v)
            tables.strategy_sum[info, a] += reach[0, h] * strategy[info, a]


# ----------------------------------------------------------------------------- external sampling

@kernel
def run_external_sampling(arrays: PlanArrays, tables: Tables, first: int, last: int,
                          rng: UIntArray) -> int:
    """External-sampling MCCFR with stochastically-weighted averaging (Lanctot et al. 2009).

    For each player in turn: sample chance and the opponent's actions, try
    every action of the traverser; regrets are the sampled counterfactual
    values ``u[a] - u_sigma``; at the opponent's sampled nodes the
    opponent's current strategy is added to its strategy sum.  The current
    strategy of a set is recomputed from its regrets each time it is reached,
    as in the pseudocode.  Parameters and return value as
    :func:`run_chance_sampling`.
    """
    n = arrays.player.shape[0]
    walk = _walk_scratch(arrays)
    sigma = np.zeros((n, tables.regret_sum.shape[1]))
    touched = 0
    before = np.empty_like(tables.regret_sum)
    scale = payoff_scale(arrays.utility)  # sampled values: payoffs (chance and opponent cancel)
    for t in range(first, last + 1):
        tol = rounding_tolerance(scale, t)
        _start_iteration(tables, arrays, t == last, tol)
        for who in range(2):
            _start_traversal(tables, before, t == last)
            touched += _external_walk(arrays, tables, who, walk, sigma, rng, tol)
            _record_instant(tables, before, arrays.owner, who, t == last)
    return touched


@step
def _external_walk(arrays: PlanArrays, tables: Tables, who: int, walk: Walk, sigma: FloatArray,
                   rng: UIntArray, tol: float) -> int:
    """One traversal of external sampling for ``who``; the nodes it touched."""
    stack = walk.stack
    stack[0] = 0
    top = 1
    touched = 0
    while top > 0:
        top -= 1
        code = stack[top]
        if code < 0:  # finish: the children's values are known
            _external_finish(arrays, tables.regret_sum, ~code, who, walk, sigma[~code])
            continue
        touched += 1
        top = _open(arrays, code, who, walk, top, rng)
        if arrays.player[code] >= 0:
            top = _external_expand(arrays, tables, code, who, walk, top, sigma[code], rng,
                                   tol)
    return touched


@step
def _external_expand(arrays: PlanArrays, tables: Tables, h: int, who: int, walk: Walk, top: int,
                     sigma: FloatArray, rng: UIntArray, tol: float) -> int:
    """At decision node ``h``: its current strategy into ``sigma``; push every action of
    ``who``'s, or one sampled action of the opponent's (whose strategy sum gets ``sigma``)."""
    info = arrays.infoset[h]
    match_row(tables.regret_sum, arrays.mask, info, sigma, tol)
    if arrays.player[h] == who:
        return _push_children(arrays, h, walk.stack, top)
    k = arrays.child_ptr[h + 1] - arrays.child_ptr[h]
    i = _sample(sigma[:k], rng)
    for a in range(k):
        tables.strategy_sum[info, a] += sigma[a]
    return _push_child(arrays, h, i, walk, top)


@step
def _external_finish(arrays: PlanArrays, regret_sum: FloatArray, h: int, who: int, walk: Walk,
                     sigma: FloatArray) -> None:
    """Node ``h``'s value; at ``who``'s nodes, the sampled regrets ``u[a] - u_sigma``."""
    value = walk.value
    if arrays.player[h] != who:  # a sampled node: its one child's value
        value[h] = value[walk.chosen[h]]
        return
    v = _expected(arrays, h, sigma, value)
    value[h] = v
    info = arrays.infoset[h]
    lo = arrays.child_ptr[h]
    for a in range(arrays.child_ptr[h + 1] - lo):
        regret_sum[info, a] += value[arrays.child_ids[lo + a]] - v


# ----------------------------------------------------------------------------- outcome sampling

class _Path(NamedTuple):
    """One sampled path's records, one row per depth: the node, the index sampled there, the
    opponent's and the sample's reach of the node, the strategy and the sampling policy."""

    node: IntArray
    pick: IntArray
    op_reach: FloatArray
    sample_reach: FloatArray
    sig: FloatArray
    q: FloatArray


@kernel
def run_outcome_sampling(arrays: PlanArrays, tables: Tables, first: int, last: int,
                         rng: UIntArray, epsilon: float) -> int:
    """Outcome-sampling MCCFR (Lanctot et al. 2009) with epsilon-on-policy exploration.

    Each player's traversal samples one path: chance and the opponent on
    policy, the traverser from ``epsilon * uniform + (1 - epsilon) *
    sigma``.  On the way back the sampled value is importance-weighted:
    regret ``(u[a] - u_sigma) * opponent reach / sample reach``, and the
    opponent's strategy sum gets ``sigma * opponent reach / sample reach``
    (stochastically-weighted averaging).  Parameters and return value as
    :func:`run_chance_sampling`, plus ``epsilon`` in (0, 1].
    """
    depth_cap = arrays.player.shape[0] + 1
    width = tables.regret_sum.shape[1]
    path = _Path(np.empty(depth_cap, dtype=np.int64), np.empty(depth_cap, dtype=np.int64),
                 np.empty(depth_cap), np.empty(depth_cap), np.zeros((depth_cap, width)),
                 np.zeros((depth_cap, width)))
    buf = _scratch(arrays)
    touched = 0
    before = np.empty_like(tables.regret_sum)
    scale = outcome_scale(arrays, epsilon)
    for t in range(first, last + 1):
        tol = rounding_tolerance(scale, t)
        _start_iteration(tables, arrays, t == last, tol)
        for who in range(2):
            _start_traversal(tables, before, t == last)
            depth, leaf = _sample_path(arrays, tables.regret_sum, who, epsilon, path, buf, rng,
                                       tol)
            touched += depth + 1
            _update_path(arrays, tables, who, depth, arrays.utility[leaf, who], path)
            _record_instant(tables, before, arrays.owner, who, t == last)
    return touched


@kernel
def outcome_scale(arrays: PlanArrays, epsilon: float) -> float:
    """The ``U`` of :func:`.cfr.rounding_tolerance` for outcome sampling: a regret it adds,
    ``w * (u / q - sigma * u / q)``, divides the payoff by the traverser's sampling
    probabilities on the path (each at least ``epsilon / k``, k the widest node; the
    opponent's cancel), so it is at most the largest |payoff| times ``(k / epsilon) ** D``,
    D the most decisions one player makes on a path."""
    n = arrays.parent.shape[0]
    width = arrays.mask.shape[1]
    mine = np.zeros((2, n), dtype=np.int64)  # each player's decisions above each node
    deepest = 0
    for h in range(1, n):  # preorder: the parent comes first
        par = arrays.parent[h]
        for p in range(2):
            mine[p, h] = mine[p, par] + (1 if arrays.player[par] == p else 0)
            deepest = max(deepest, int(mine[p, h]))
    bound: float = payoff_scale(arrays.utility) * (width / epsilon) ** deepest
    return bound


@step
def _sample_path(arrays: PlanArrays, regret_sum: FloatArray, who: int, epsilon: float,
                 path: _Path, buf: FloatArray, rng: UIntArray, tol: float) -> tuple[int, int]:
    """Down: sample one path, remembering the opponent's reach and the sample's at each node;
    returns its length and the terminal reached."""
    player = arrays.player
    h = 0
    depth = 0
    op, sr = 1.0, 1.0
    while player[h] != TERMINAL:
        path.node[depth] = h
        path.op_reach[depth] = op
        path.sample_reach[depth] = sr
        if player[h] == CHANCE:
            i = _sample_chance(arrays, h, buf, rng)
        else:
            i = _sample_action(arrays, regret_sum, h, who, epsilon, path.sig[depth],
                               path.q[depth], rng, tol)
            if player[h] != who:
                op *= path.sig[depth, i]
            sr *= path.q[depth, i]
        path.pick[depth] = i
        h = arrays.child_ids[arrays.child_ptr[h] + i]
        depth += 1
    return depth, h


@step
def _sample_action(arrays: PlanArrays, regret_sum: FloatArray, h: int, who: int,
                   epsilon: float, sig: FloatArray, q: FloatArray, rng: UIntArray,
                   tol: float) -> int:
    """At decision node ``h``: the strategy into ``sig``, the sampling policy into ``q`` (on
    policy for the opponent, epsilon-exploring for ``who``) and the action drawn from it."""
    k = arrays.child_ptr[h + 1] - arrays.child_ptr[h]
    match_row(regret_sum, arrays.mask, arrays.infoset[h], sig, tol)
    if arrays.player[h] == who:
        for a in range(k):
            q[a] = epsilon / k + (1.0 - epsilon) * sig[a]
    else:
        for a in range(k):
            q[a] = sig[a]
    return _sample(q[:k], rng)


@step
def _update_path(arrays: PlanArrays, tables: Tables, who: int, depth: int, u: float,
                 path: _Path) -> None:
    """Up from a terminal worth ``u``: importance-weighted regrets at ``who``'s nodes,
    averaging at the opponent's."""
    for d in range(depth - 1, -1, -1):
        h = path.node[d]
        if arrays.player[h] == CHANCE:
            continue
        info = arrays.infoset[h]
        k = arrays.child_ptr[h + 1] - arrays.child_ptr[h]
        i = path.pick[d]
        sampled = u / path.q[d, i]  # the sampled action's value estimate; others estimate 0
        value = path.sig[d, i] * sampled
        w = path.op_reach[d] / path.sample_reach[d]
        if arrays.player[h] == who:
            for a in range(k):
                action_value = sampled if a == i else 0.0
                tables.regret_sum[info, a] += w * (action_value - value)
        else:
            for a in range(k):
                tables.strategy_sum[info, a] += w * path.sig[d, a]
        u = value


# ----------------------------------------------------------------------------- Deep CFR's samples

@kernel
def external_sampling_regrets(arrays: PlanArrays, strategy: FloatArray, who: int,
                              traversals: int, rng: UIntArray, infos: IntArray,
                              regrets: FloatArray) -> tuple[int, int]:
    """``traversals`` external-sampling walks for player ``who``; returns (samples, touched).

    Chance and the opponent are sampled from ``strategy``; every action of
    ``who`` is explored.  Each of ``who``'s nodes on the way writes one sample:
    its set into ``infos`` and the sampled regrets ``v(a) - v`` into
    ``regrets``.  The walk is the compiled external-sampling traversal of
    :func:`run_external_sampling` (the same stack walk and helpers), with a fixed
    strategy and the regrets written out instead of added to a table: Deep CFR's
    advantage samples (cfrviz.solvers.deep_cfr).
    """
    walk = _walk_scratch(arrays)
    count = 0
    touched = 0
    for _ in range(traversals):
        count, visited = _regrets_walk(arrays, strategy, who, walk, infos, regrets, count, rng)
        touched += visited
    return count, touched


@step
def _regrets_walk(arrays: PlanArrays, strategy: FloatArray, who: int, walk: Walk,
                  infos: IntArray, regrets: FloatArray, count: int,
                  rng: UIntArray) -> tuple[int, int]:
    """One external-sampling walk for ``who`` under the fixed ``strategy``, writing its samples
    from row ``count`` on; returns (samples written so far, nodes touched)."""
    walk.stack[0] = 0
    top = 1
    touched = 0
    while top > 0:
        top -= 1
        code = walk.stack[top]
        if code < 0:  # finish: the children's values are known
            count = _sample_regrets(arrays, strategy, ~code, who, walk, infos, regrets, count)
            continue
        touched += 1
        top = _open(arrays, code, who, walk, top, rng)
        if arrays.player[code] == who:
            top = _push_children(arrays, code, walk.stack, top)
        elif arrays.player[code] >= 0:
            k = arrays.child_ptr[code + 1] - arrays.child_ptr[code]
            i = _sample(strategy[arrays.infoset[code], :k], rng)
            top = _push_child(arrays, code, i, walk, top)
    return count, touched


@step
def _sample_regrets(arrays: PlanArrays, strategy: FloatArray, h: int, who: int, walk: Walk,
                    infos: IntArray, regrets: FloatArray, count: int) -> int:
    """Finish node ``h``: its value and, at ``who``'s nodes, one sample of its regrets at row
    ``count``; the samples written so far."""
    if arrays.player[h] != who:  # a sampled node: its one child's value
        walk.value[h] = walk.value[walk.chosen[h]]
        return count
    info = arrays.infoset[h]
    v = _expected(arrays, h, strategy[info], walk.value)
    walk.value[h] = v
    infos[count] = info
    lo = arrays.child_ptr[h]
    for a in range(arrays.child_ptr[h + 1] - lo):
        regrets[count, a] = walk.value[arrays.child_ids[lo + a]] - v
    return count + 1
