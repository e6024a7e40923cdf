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

To save time, ``current`` and ``instant`` are only filled for iteration
``last`` (the driver takes snapshots at the ends of calls): the strategy at
its start and the change it made to each player's regrets.
"""

from __future__ import annotations

import numpy as np

from ..core.tree import CHANCE, TERMINAL
from ..core.types import FloatArray, IntArray, UIntArray
from .cfr import Tables, copy_table, match_row, regret_matching_table
from .jit import kernel
from .plan import PlanArrays
from .rng import uniform

__all__ = ["run_chance_sampling", "run_external_sampling", "run_outcome_sampling"]


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
def _record_instant(tables: Tables, before: FloatArray, owner: IntArray, who: int) -> None:
    """This iteration's regrets of ``who``'s sets: the change since ``before``."""
    regret_sum = tables.regret_sum
    for info in range(regret_sum.shape[0]):
        if owner[info] == who:
            for a in range(regret_sum.shape[1]):
                tables.instant[info, a] = regret_sum[info, a] - before[info, a]


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
    player, infoset, child_ptr, child_ids = (arrays.player, arrays.infoset, arrays.child_ptr,
                                             arrays.child_ids)
    regret_sum, strategy_sum = tables.regret_sum, tables.strategy_sum
    n = player.shape[0]
    num, width = regret_sum.shape
    strategy = np.empty((num, width))
    value = np.zeros(n)
    reach_me = np.zeros(n)
    reach_op = np.zeros(n)
    chosen = np.zeros(n, dtype=np.int64)
    stack = np.empty(2 * n + 2, dtype=np.int64)
    buf = _scratch(arrays)
    # A set's strategy is computed when a traversal first reaches it and then held for the
    # rest of that traversal (as if the whole table had been computed at its start).
    stamp = np.empty(num, dtype=np.int64)
    for info in range(num):  # a loop compiles faster than np.full
        stamp[info] = -1
    before = np.empty_like(regret_sum)
    touched = 0
    for t in range(first, last + 1):
        record = t == last
        if record:
            regret_matching_table(regret_sum, arrays.mask, tables.current)
        for who in range(2):
            traversal = 2 * t + who
            if record:
                copy_table(regret_sum, before)
            top = 0
            stack[top] = 0
            top += 1
            reach_me[0] = 1.0
            reach_op[0] = 1.0
            while top > 0:
                top -= 1
                code = stack[top]
                if code >= 0:  # expand: sample chance, push the children
                    h = code
                    touched += 1
                    kind = player[h]
                    if kind == TERMINAL:
                        value[h] = arrays.utility[h, who]
                        continue
                    stack[top] = ~h
                    top += 1
                    lo = child_ptr[h]
                    hi = child_ptr[h + 1]
                    if kind == CHANCE:
                        i = _sample_chance(arrays, h, buf, rng)
                        c = child_ids[lo + i]
                        chosen[h] = c
                        reach_me[c] = reach_me[h]
                        reach_op[c] = reach_op[h]
                        stack[top] = c
                        top += 1
                    else:
                        info = infoset[h]
                        if stamp[info] != traversal:
                            match_row(regret_sum, arrays.mask, info, strategy[info])
                            stamp[info] = traversal
                        for a in range(hi - lo):
                            c = child_ids[lo + a]
                            p = strategy[info, a]
                            if kind == who:
                                reach_me[c] = reach_me[h] * p
                                reach_op[c] = reach_op[h]
                            else:
                                reach_me[c] = reach_me[h]
                                reach_op[c] = reach_op[h] * p
                            stack[top] = c
                            top += 1
                else:  # finish: the children's values are known
                    h = ~code
                    kind = player[h]
                    if kind == CHANCE:
                        value[h] = value[chosen[h]]
                        continue
                    info = infoset[h]
                    lo = child_ptr[h]
                    hi = child_ptr[h + 1]
                    v = 0.0
                    for a in range(hi - lo):
                        v += strategy[info, a] * value[child_ids[lo + a]]
                    value[h] = v
                    if kind == who:
                        for a in range(hi - lo):
                            regret_sum[info, a] += reach_op[h] * (value[child_ids[lo + a]] - v)
                            strategy_sum[info, a] += reach_me[h] * strategy[info, a]
            if record:
                _record_instant(tables, before, arrays.owner, who)
    return touched


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
    player, infoset, child_ptr, child_ids = (arrays.player, arrays.infoset, arrays.child_ptr,
                                             arrays.child_ids)
    regret_sum, strategy_sum = tables.regret_sum, tables.strategy_sum
    n = player.shape[0]
    width = regret_sum.shape[1]
    value = np.zeros(n)
    chosen = np.zeros(n, dtype=np.int64)
    sigma = np.zeros((n, width))
    stack = np.empty(2 * n + 2, dtype=np.int64)
    buf = _scratch(arrays)
    touched = 0
    before = np.empty_like(regret_sum)
    for t in range(first, last + 1):
        record = t == last
        if record:
            regret_matching_table(regret_sum, arrays.mask, tables.current)
        for who in range(2):
            if record:
                copy_table(regret_sum, before)
            top = 0
            stack[top] = 0
            top += 1
            while top > 0:
                top -= 1
                code = stack[top]
                if code >= 0:  # expand: sample chance and the opponent, push the children
                    h = code
                    touched += 1
                    kind = player[h]
                    if kind == TERMINAL:
                        value[h] = arrays.utility[h, who]
                        continue
                    stack[top] = ~h
                    top += 1
                    lo = child_ptr[h]
                    hi = child_ptr[h + 1]
                    if kind == CHANCE:
                        i = _sample_chance(arrays, h, buf, rng)
                        chosen[h] = child_ids[lo + i]
                        stack[top] = chosen[h]
                        top += 1
                        continue
                    info = infoset[h]
                    match_row(regret_sum, arrays.mask, info, sigma[h])
                    if kind == who:
                        for a in range(hi - lo):
                            stack[top] = child_ids[lo + a]
                            top += 1
                    else:
                        i = _sample(sigma[h, : hi - lo], rng)
                        chosen[h] = child_ids[lo + i]
                        for a in range(hi - lo):
                            strategy_sum[info, a] += sigma[h, a]
                        stack[top] = chosen[h]
                        top += 1
                else:  # finish: the children's values are known
                    h = ~code
                    kind = player[h]
                    if kind != who:
                        value[h] = value[chosen[h]]
                        continue
                    info = infoset[h]
                    lo = child_ptr[h]
                    hi = child_ptr[h + 1]
                    v = 0.0
                    for a in range(hi - lo):
                        v += sigma[h, a] * value[child_ids[lo + a]]
                    value[h] = v
                    for a in range(hi - lo):
                        regret_sum[info, a] += value[child_ids[lo + a]] - v
            if record:
                _record_instant(tables, before, arrays.owner, who)
    return touched


# ----------------------------------------------------------------------------- outcome sampling

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
    player, infoset, child_ptr, child_ids = (arrays.player, arrays.infoset, arrays.child_ptr,
                                             arrays.child_ids)
    regret_sum, strategy_sum = tables.regret_sum, tables.strategy_sum
    n = player.shape[0]
    width = regret_sum.shape[1]
    depth_cap = n + 1
    path = np.empty(depth_cap, dtype=np.int64)
    pick = np.empty(depth_cap, dtype=np.int64)
    op_reach = np.empty(depth_cap)
    sample_reach = np.empty(depth_cap)
    sig = np.zeros((depth_cap, width))
    q = np.zeros((depth_cap, width))
    buf = _scratch(arrays)
    touched = 0
    before = np.empty_like(regret_sum)
    for t in range(first, last + 1):
        record = t == last
        if record:
            regret_matching_table(regret_sum, arrays.mask, tables.current)
        for who in range(2):
            if record:
                copy_table(regret_sum, before)
            # Down: sample one path, remembering the opponent's reach and the sample's.
            h = 0
            depth = 0
            op, sr = 1.0, 1.0
            while player[h] != TERMINAL:
                touched += 1
                lo = child_ptr[h]
                k = child_ptr[h + 1] - lo
                path[depth] = h
                op_reach[depth] = op
                sample_reach[depth] = sr
                if player[h] == CHANCE:
                    i = _sample_chance(arrays, h, buf, rng)
                else:
                    info = infoset[h]
                    match_row(regret_sum, arrays.mask, info, sig[depth])
                    if player[h] == who:
                        for a in range(k):
                            q[depth, a] = epsilon / k + (1.0 - epsilon) * sig[depth, a]
                    else:
                        for a in range(k):
                            q[depth, a] = sig[depth, a]
                    i = _sample(q[depth, :k], rng)
                    if player[h] != who:
                        op *= sig[depth, i]
                    sr *= q[depth, i]
                pick[depth] = i
                h = child_ids[lo + i]
                depth += 1
            touched += 1
            # Up: importance-weighted regrets at the traverser's nodes, averaging at the opponent's.
            u = arrays.utility[h, who]
            for d in range(depth - 1, -1, -1):
                h = path[d]
                if player[h] == CHANCE:
                    continue
                info = infoset[h]
                k = child_ptr[h + 1] - child_ptr[h]
                i = pick[d]
                sampled = u / q[d, i]  # the sampled action's value estimate; others estimate 0
                value = sig[d, i] * sampled
                w = op_reach[d] / sample_reach[d]
                if player[h] == who:
                    for a in range(k):
                        action_value = sampled if a == i else 0.0
                        regret_sum[info, a] += w * (action_value - value)
                else:
                    for a in range(k):
                        strategy_sum[info, a] += w * sig[d, a]
                u = value
            if record:
                _record_instant(tables, before, arrays.owner, who)
    return touched


@kernel
def external_sampling_regrets(arrays: PlanArrays, strategy: FloatArray, who: int,
                              traversals: int, rng: UIntArray, infos: IntArray,
                              regrets: FloatArray) -> tuple[int, int]:
    """``traversals`` external-sampling walks for player ``who``; returns (samples, touched).

    Chance and the opponent are sampled from ``strategy``; every action of
    ``who`` is explored.  Each of ``who``'s nodes on the way writes one sample:
    its set into ``infos`` and the sampled regrets ``v(a) - v`` into
    ``regrets``.  The walk is the compiled external-sampling traversal of
    :func:`run_external_sampling` (an explicit stack: ``h`` to expand a node,
    ``~h`` to finish it), with the regrets written out instead of added to a
    table: Deep CFR's advantage samples (cfrviz.solvers.deep_cfr).
    """
    player, infoset, child_ptr, child_ids = (arrays.player, arrays.infoset, arrays.child_ptr,
                                             arrays.child_ids)
    n = player.shape[0]
    value = np.zeros(n)
    chosen = np.zeros(n, dtype=np.int64)
    stack = np.empty(2 * n + 2, dtype=np.int64)
    buf = _scratch(arrays)
    count = 0
    touched = 0
    for _ in range(traversals):
        top = 1
        stack[0] = 0
        while top > 0:
            top -= 1
            code = stack[top]
            if code >= 0:  # expand
                h = code
                touched += 1
                kind = player[h]
                if kind == TERMINAL:
                    value[h] = arrays.utility[h, who]
                    continue
                stack[top] = ~h
                top += 1
                lo = child_ptr[h]
                hi = child_ptr[h + 1]
                if kind == CHANCE:
                    chosen[h] = child_ids[lo + _sample_chance(arrays, h, buf, rng)]
                    stack[top] = chosen[h]
                    top += 1
                elif kind == who:
                    for a in range(hi - lo):
                        stack[top] = child_ids[lo + a]
                        top += 1
                else:
                    chosen[h] = child_ids[lo + _sample(strategy[infoset[h], : hi - lo], rng)]
                    stack[top] = chosen[h]
                    top += 1
            else:  # finish: the children's values are known
                h = ~code
                if player[h] != who:
                    value[h] = value[chosen[h]]
                    continue
                info = infoset[h]
                lo = child_ptr[h]
                hi = child_ptr[h + 1]
                v = 0.0
                for a in range(hi - lo):
                    v += strategy[info, a] * value[child_ids[lo + a]]
                value[h] = v
                infos[count] = info
                for a in range(hi - lo):
                    regrets[count, a] = value[child_ids[lo + a]] - v
                count += 1
    return count, touched
