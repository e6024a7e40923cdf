"""The compiled core: flat-array passes over a game tree, compiled once with numba.

Everything here works on a :class:`Plan`, the tree's arrays laid out for tight
loops: nodes in depth-first preorder (so a parent always precedes its
children and every subtree is a contiguous id range), the edge into each node
labelled with who chose it, and each decision edge's slot ``infoset * width +
action`` in the flat (information sets x actions) tables.

A full CFR pass is three straight loops over the nodes: reach probabilities
top-down, values bottom-up, regrets over the edges.  Sampling variants walk
only the sampled part of the tree with an explicit stack.  No Python runs per
node, and no numpy call per tree level: that overhead is what kept the first,
level-vectorized engine 10x slower than OpenSpiel's C++ on Kuhn poker.

Random choices use SplitMix64 (Steele, Lea and Flood, 2014) on a one-word
state seeded from the caller's ``numpy.random.Generator``.  Its state is a
plain integer, so a run can be saved and resumed bit for bit, and results do
not depend on how the run is split between checkpoints.

``cache=True`` stores the compiled code next to this file, so only the first
use on a machine pays the compilation (a few seconds).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.tree import CHANCE, GameTree

ROOT_EDGE = -1
CHANCE_EDGE = 2


class Plan:
    """A game tree's arrays in the layout the compiled loops use (built once per tree).

    Attributes
    ----------
    parent, edge, slot : int64 arrays, shape (nodes,)
        Parent id; who chose the edge into the node (0, 1, ``CHANCE_EDGE``,
        ``ROOT_EDGE`` at the root); the flat (infoset, action) slot of a
        decision edge, -1 otherwise.
    player, infoset : int64 arrays
        As in :class:`~cfrviz.core.tree.GameTree`.
    child_ptr, child_ids : int64 arrays
        Children of node ``h`` are ``child_ids[child_ptr[h]:child_ptr[h + 1]]``,
        in action order.
    chance_prob : float64 array; utility : float64 array (nodes, 2)
    mask : bool array (information sets, width); owner : int64 array
    br_order, br_stage, br_decisions : per player, for the best response
        (see :func:`best_response_values`).
    """

    def __init__(self, tree: GameTree):
        n = tree.num_nodes
        self.n = n
        self.width = tree.max_actions
        self.num_infosets = tree.num_infosets
        self.parent = np.ascontiguousarray(tree.parent, dtype=np.int64)
        self.player = np.ascontiguousarray(tree.player, dtype=np.int64)
        self.infoset = np.ascontiguousarray(tree.infoset, dtype=np.int64)
        self.chance_prob = np.ascontiguousarray(tree.chance_prob, dtype=np.float64)
        self.utility = np.ascontiguousarray(tree.utility, dtype=np.float64)
        self.mask = np.ascontiguousarray(tree.legal_mask, dtype=np.bool_)
        self.owner = np.ascontiguousarray(tree.infoset_player, dtype=np.int64)
        counts = np.array([len(c) for c in tree.children], dtype=np.int64)
        self.child_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.child_ids = (np.concatenate(tree.children).astype(np.int64) if n > 1
                          else np.zeros(0, dtype=np.int64))
        if np.any(self.parent[1:] >= np.arange(1, n)) or self.parent[0] != -1:
            raise ValueError(f"{tree.name}: node ids must list parents before children")
        par = np.maximum(self.parent, 0)
        who = self.player[par]
        self.edge = np.where(who == CHANCE, CHANCE_EDGE, who).astype(np.int64)
        self.edge[0] = ROOT_EDGE
        self.slot = np.full(n, -1, dtype=np.int64)
        decision = (self.edge == 0) | (self.edge == 1)
        self.slot[decision] = self.infoset[par[decision]] * self.width + tree.action[decision]
        self.depth = np.ascontiguousarray(tree.depth, dtype=np.int64)
        self.br_order, self.br_stage, self.br_decisions = [], [], []
        self.recall_problem = None
        for p in (0, 1):
            # stage = how many of p's own decisions lie above a node (its sequence length)
            # and the slot of the last of them (perfect recall: equal across an information set)
            stage = np.zeros(n, dtype=np.int64)
            last = np.full(n, -1, dtype=np.int64)
            for h in range(1, n):  # once per tree; parents come first
                own = self.player[par[h]] == p
                stage[h] = stage[par[h]] + (1 if own else 0)
                last[h] = self.slot[h] if own else last[par[h]]
            order = np.lexsort((-np.arange(n), -stage)).astype(np.int64)
            mine = np.flatnonzero(self.player == p)
            decisions = mine[np.lexsort((-mine, -stage[mine]))].astype(np.int64)
            members = np.flatnonzero(self.player == p)
            first = np.full(self.num_infosets, -1, dtype=np.int64)
            first[self.infoset[members[::-1]]] = last[members[::-1]]
            clash = members[last[members] != first[self.infoset[members]]]
            if len(clash):
                h = int(clash[0])
                self.recall_problem = (
                    f"{tree.name} does not have perfect recall: information set "
                    f"{tree.infoset_keys[self.infoset[h]]!r} of player {p + 1} holds nodes "
                    f"reached by different moves of that player's own (e.g. history "
                    f"{tree.history[h]!r})")
            self.br_order.append(order)
            self.br_stage.append(stage)
            self.br_decisions.append(decisions)


def plan(tree: GameTree) -> Plan:
    """The cached :class:`Plan` of a tree."""
    return tree.cached("plan", Plan)


# ----------------------------------------------------------------------------- randomness

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@njit(cache=True)
def _uniform(rng):
    """Next uniform float in [0, 1) from a SplitMix64 state (uint64 array of length 1)."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return (z >> _S11) * (1.0 / 9007199254740992.0)


def seed_state(generator: np.random.Generator) -> np.ndarray:
    """A fresh SplitMix64 state drawn from the caller's generator."""
    return np.array([generator.integers(0, 2**63, dtype=np.uint64)], dtype=np.uint64)


@njit(cache=True)
def uniforms(rng, count):
    """``count`` draws from the compiled generator (for tests of its distribution)."""
    out = np.empty(count)
    for i in range(count):
        out[i] = _uniform(rng)
    return out


# ----------------------------------------------------------------------------- building blocks

@njit(cache=True)
def _match_row(regret_sum, mask, info, out, plus_only):
    """Regret matching on one information set's row, written into ``out``."""
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
        elif total > 0.0:
            r = regret_sum[info, a]
            out[a] = r / total if r > 0.0 else 0.0
        else:
            out[a] = 1.0 / legal


@njit(cache=True)
def regret_matching_table(regret_sum, mask, out):
    """Regret matching on every row of a (information sets x actions) table."""
    for info in range(regret_sum.shape[0]):
        _match_row(regret_sum, mask, info, out[info], False)


@njit(cache=True)
def _reaches(parent, edge, slot, chance_prob, strategy, reach, prob):
    """Top-down: each node's reach split into rows (player 1, player 2, chance)."""
    flat = strategy.ravel()
    n = parent.shape[0]
    reach[0, 0] = 1.0
    reach[1, 0] = 1.0
    reach[2, 0] = 1.0
    prob[0] = 1.0
    for h in range(1, n):
        par = parent[h]
        e = edge[h]
        p = chance_prob[h] if e == 2 else flat[slot[h]]
        prob[h] = p
        reach[0, h] = reach[0, par]
        reach[1, h] = reach[1, par]
        reach[2, h] = reach[2, par]
        reach[e, h] *= p


@njit(cache=True)
def _values(parent, player, utility, prob, who, value):
    """Bottom-up: expected value of each node for player ``who`` (preorder makes one loop enough)."""
    n = parent.shape[0]
    for h in range(n):
        value[h] = utility[h, who] if player[h] == -2 else 0.0
    for h in range(n - 1, 0, -1):
        value[parent[h]] += prob[h] * value[h]


@njit(cache=True)
def _cfr_pass(parent, edge, slot, player, chance_prob, utility, strategy, who,
              reach, prob, value, regret, weighted):
    """One player's counterfactual regrets and own-reach-weighted strategy (Zinkevich et al. 2007).

    ``regret`` and ``weighted`` are flat (infoset * width + action) and are
    overwritten for the player's slots only.
    """
    _reaches(parent, edge, slot, chance_prob, strategy, reach, prob)
    _values(parent, player, utility, prob, who, value)
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
            regret[s] += reach[2, par] * reach[other, par] * (value[h] - value[par])
            weighted[s] += reach[who, par] * prob[h]


# ----------------------------------------------------------------------------- full-tree CFR family

@njit(cache=True)
def _apply(regret_sum, strategy_sum, instant, regret, weighted, owner, mask, who, t,
           plus, discount, alpha, beta, gamma, linear_average):
    """Fold one player's iteration-t regrets and strategy weights into the running sums.

    - vanilla CFR: add; average weighted by own reach;
    - CFR+ (Tammelin 2014): add, then floor regrets at 0; average weighted by t;
    - DCFR (Brown and Sandholm 2019): add, then multiply positive regrets by
      t^a / (t^a + 1), negative ones by t^b / (t^b + 1), and the strategy
      sum by (t / (t + 1))^g — the order OpenSpiel uses.
    """
    width = regret_sum.shape[1]
    if discount:
        # t^a / (t^a + 1) written so that a large exponent cannot overflow to inf / inf
        pos = 1.0 / (1.0 + float(t) ** -alpha)
        neg = 1.0 / (1.0 + float(t) ** -beta)
        keep = (t / (t + 1.0)) ** gamma
    avg_weight = float(t) if linear_average else 1.0
    for info in range(regret_sum.shape[0]):
        if owner[info] != who:
            continue
        for a in range(width):
            if not mask[info, a]:
                continue
            s = info * width + a
            instant[info, a] = regret[s]
            r = regret_sum[info, a] + regret[s]
            if plus and r < 0.0:
                r = 0.0
            strategy_sum[info, a] += avg_weight * weighted[s]
            if discount:
                r *= pos if r > 0.0 else neg
                strategy_sum[info, a] *= keep
            regret_sum[info, a] = r


@njit(cache=True)
def run_full_tree(parent, edge, slot, player, chance_prob, utility, owner, mask,
                  regret_sum, strategy_sum, current, instant, first, last,
                  alternating, plus, discount, alpha, beta, gamma, linear_average):
    """Iterations ``first..last`` (1-based) of the full-tree CFR family, in place.

    On return ``current`` holds the strategy played at iteration ``last``
    and ``instant`` that iteration's regrets.
    """
    n = parent.shape[0]
    num, width = regret_sum.shape
    reach = np.empty((3, n))
    prob = np.empty(n)
    value = np.empty(n)
    regret = np.zeros(num * width)
    weighted = np.zeros(num * width)
    strategy = np.empty((num, width))
    for t in range(first, last + 1):
        regret_matching_table(regret_sum, mask, strategy)
        current[:, :] = strategy
        if alternating:
            for who in range(2):
                _cfr_pass(parent, edge, slot, player, chance_prob, utility, strategy, who,
                          reach, prob, value, regret, weighted)
                _apply(regret_sum, strategy_sum, instant, regret, weighted, owner, mask, who, t,
                       plus, discount, alpha, beta, gamma, linear_average)
                regret_matching_table(regret_sum, mask, strategy)
        else:
            for who in range(2):
                _cfr_pass(parent, edge, slot, player, chance_prob, utility, strategy, who,
                          reach, prob, value, regret, weighted)
            for who in range(2):
                _apply(regret_sum, strategy_sum, instant, regret, weighted, owner, mask, who, t,
                       plus, discount, alpha, beta, gamma, linear_average)


# ----------------------------------------------------------------------------- Monte Carlo CFR

@njit(cache=True)
def _sample_child(child_ptr, child_ids, weights_of_children, rng):
    """Index (0-based, among the node's children) drawn with the given weights."""
    u = _uniform(rng)
    k = weights_of_children.shape[0]
    acc = 0.0
    for i in range(k):
        acc += weights_of_children[i]
        if u < acc:
            return i
    # rounding left u above the total: take the last child with positive weight
    for i in range(k - 1, -1, -1):
        if weights_of_children[i] > 0.0:
            return i
    return k - 1


@njit(cache=True)
def _sample_chance(child_ptr, child_ids, chance_prob, h, buf, rng):
    """Index of the outcome drawn at chance node ``h`` (``buf``: scratch of the widest node)."""
    lo = child_ptr[h]
    k = child_ptr[h + 1] - lo
    for i in range(k):
        buf[i] = chance_prob[child_ids[lo + i]]
    return _sample_child(child_ptr, child_ids, buf[:k], rng)


@njit(cache=True)
def _scratch(child_ptr, width):
    """A buffer as long as the widest node's list of children or actions."""
    return np.empty(max(1, width, int(np.max(child_ptr[1:] - child_ptr[:-1]))))


@njit(cache=True)
def _record_instant(regret_sum, before, instant, owner, who):
    """This iteration's regrets of ``who``'s sets: the change since ``before``."""
    for info in range(regret_sum.shape[0]):
        if owner[info] == who:
            for a in range(regret_sum.shape[1]):
                instant[info, a] = regret_sum[info, a] - before[info, a]


@njit(cache=True)
def run_chance_sampling(player, infoset, child_ptr, child_ids, chance_prob, utility, owner, mask,
                        regret_sum, strategy_sum, current, instant, first, last, rng):
    """Chance-sampled CFR (Zinkevich et al. 2007; Lanctot et al. 2009), alternating players.

    Each player's traversal samples one outcome at every chance node it meets
    and walks every action of both players below; chance probabilities
    cancel against the sampling, so regrets are weighted by the opponent's
    reach only.  Returns the number of nodes touched.
    """
    n = player.shape[0]
    num, width = regret_sum.shape
    strategy = np.empty((num, width))
    value = np.zeros(n)
    reach_me = np.zeros(n)
    reach_op = np.zeros(n)
    chosen = np.zeros(n, dtype=np.int64)
    stack = np.empty(2 * n + 2, dtype=np.int64)
    buf = _scratch(child_ptr, width)
    # A set's strategy is computed when a traversal first reaches it and then held for the
    # rest of that traversal (as if the whole table had been computed at its start).
    stamp = np.full(num, -1, dtype=np.int64)
    before = np.empty_like(regret_sum)
    touched = 0
    for t in range(first, last + 1):
        record = t == last  # current strategy and this iteration's regrets: only for a snapshot
        if record:
            regret_matching_table(regret_sum, mask, current)
        for who in range(2):
            traversal = 2 * t + who
            if record:
                before[:, :] = regret_sum
            top = 0
            stack[top] = 0  # node ids >= 0 expand; ~id finalizes
            top += 1
            reach_me[0] = 1.0
            reach_op[0] = 1.0
            while top > 0:
                top -= 1
                code = stack[top]
                if code >= 0:
                    h = code
                    touched += 1
                    kind = player[h]
                    if kind == -2:
                        value[h] = utility[h, who]
                        continue
                    stack[top] = ~h
                    top += 1
                    lo = child_ptr[h]
                    hi = child_ptr[h + 1]
                    if kind == -1:
                        i = _sample_chance(child_ptr, child_ids, chance_prob, h, buf, rng)
                        c = child_ids[lo + i]
                        chosen[h] = c
                        reach_me[c] = reach_me[h]
                        reach_op[c] = reach_op[h]
                        stack[top] = c
                        top += 1
                    else:
                        info = infoset[h]
                        if stamp[info] != traversal:
                            _match_row(regret_sum, mask, info, strategy[info], False)
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
                else:
                    h = ~code
                    kind = player[h]
                    if kind == -1:
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
                _record_instant(regret_sum, before, instant, owner, who)
    return touched


@njit(cache=True)
def run_external_sampling(player, infoset, child_ptr, child_ids, chance_prob, utility, owner,
                          mask, regret_sum, strategy_sum, current, instant, first, last, rng):
    """External-sampling MCCFR with stochastically-weighted averaging (Lanctot et al. 2009).

    For each player in turn: sample chance and the opponent's actions, try
    every action of the traverser; regrets are the sampled counterfactual
    values ``u[a] - u_sigma``; at the opponent's sampled nodes the
    opponent's current strategy is added to its strategy sum.  The current
    strategy of a set is recomputed from its regrets each time it is reached,
    as in the pseudocode.  Returns the number of nodes touched.
    """
    n = player.shape[0]
    width = regret_sum.shape[1]
    value = np.zeros(n)
    chosen = np.zeros(n, dtype=np.int64)
    sigma = np.zeros((n, width))
    stack = np.empty(2 * n + 2, dtype=np.int64)
    buf = _scratch(child_ptr, width)
    touched = 0
    before = np.empty_like(regret_sum)
    for t in range(first, last + 1):
        record = t == last  # current strategy and this iteration's regrets: only for a snapshot
        if record:
            regret_matching_table(regret_sum, mask, current)
        for who in range(2):
            if record:
                before[:, :] = regret_sum
            top = 0
            stack[top] = 0
            top += 1
            while top > 0:
                top -= 1
                code = stack[top]
                if code >= 0:
                    h = code
                    touched += 1
                    kind = player[h]
                    if kind == -2:
                        value[h] = utility[h, who]
                        continue
                    stack[top] = ~h
                    top += 1
                    lo = child_ptr[h]
                    hi = child_ptr[h + 1]
                    if kind == -1:
                        i = _sample_chance(child_ptr, child_ids, chance_prob, h, buf, rng)
                        chosen[h] = child_ids[lo + i]
                        stack[top] = chosen[h]
                        top += 1
                        continue
                    info = infoset[h]
                    _match_row(regret_sum, mask, info, sigma[h], False)
                    if kind == who:
                        for a in range(hi - lo):
                            stack[top] = child_ids[lo + a]
                            top += 1
                    else:
                        i = _sample_child(child_ptr, child_ids, sigma[h, : hi - lo], rng)
                        chosen[h] = child_ids[lo + i]
                        for a in range(hi - lo):
                            strategy_sum[info, a] += sigma[h, a]
                        stack[top] = chosen[h]
                        top += 1
                else:
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
                _record_instant(regret_sum, before, instant, owner, who)
    return touched


@njit(cache=True)
def run_outcome_sampling(player, infoset, child_ptr, child_ids, chance_prob, utility, owner,
                         mask, regret_sum, strategy_sum, current, instant, first, last, rng,
                         epsilon):
    """Outcome-sampling MCCFR (Lanctot et al. 2009) with epsilon-on-policy exploration.

    Each player's traversal samples one path: chance and the opponent on
    policy, the traverser from ``epsilon * uniform + (1 - epsilon) *
    sigma``.  On the way back the sampled value is importance-weighted:
    regret ``(u[a] - u_sigma) * opponent reach / sample reach``, and the
    opponent's strategy sum gets ``sigma * own reach / sample reach``
    (stochastically-weighted averaging).  Returns the number of nodes touched.
    """
    n = player.shape[0]
    width = regret_sum.shape[1]
    depth_cap = n + 1
    path = np.empty(depth_cap, dtype=np.int64)
    pick = np.empty(depth_cap, dtype=np.int64)
    my_reach = np.empty(depth_cap)
    op_reach = np.empty(depth_cap)
    sample_reach = np.empty(depth_cap)
    sig = np.zeros((depth_cap, width))
    q = np.zeros((depth_cap, width))
    buf = _scratch(child_ptr, width)
    touched = 0
    before = np.empty_like(regret_sum)
    for t in range(first, last + 1):
        record = t == last  # current strategy and this iteration's regrets: only for a snapshot
        if record:
            regret_matching_table(regret_sum, mask, current)
        for who in range(2):
            if record:
                before[:, :] = regret_sum
            h = 0
            depth = 0
            me, op, sr = 1.0, 1.0, 1.0
            while player[h] != -2:
                touched += 1
                lo = child_ptr[h]
                k = child_ptr[h + 1] - lo
                path[depth] = h
                my_reach[depth] = me
                op_reach[depth] = op
                sample_reach[depth] = sr
                if player[h] == -1:
                    i = _sample_chance(child_ptr, child_ids, chance_prob, h, buf, rng)
                else:
                    info = infoset[h]
                    _match_row(regret_sum, mask, info, sig[depth], False)
                    if player[h] == who:
                        for a in range(k):
                            q[depth, a] = epsilon / k + (1.0 - epsilon) * sig[depth, a]
                    else:
                        for a in range(k):
                            q[depth, a] = sig[depth, a]
                    i = _sample_child(child_ptr, child_ids, q[depth, :k], rng)
                    if player[h] == who:
                        me *= sig[depth, i]
                    else:
                        op *= sig[depth, i]
                    sr *= q[depth, i]
                pick[depth] = i
                h = child_ids[lo + i]
                depth += 1
            touched += 1
            u = utility[h, who]
            for d in range(depth - 1, -1, -1):
                h = path[d]
                if player[h] == -1:
                    continue
                info = infoset[h]
                lo = child_ptr[h]
                k = child_ptr[h + 1] - lo
                i = pick[d]
                sampled = u / q[d, i]  # the sampled action's value estimate; others estimate 0
                value = sig[d, i] * sampled
                if player[h] == who:
                    w = op_reach[d] / sample_reach[d]
                    for a in range(k):
                        action_value = sampled if a == i else 0.0
                        regret_sum[info, a] += w * (action_value - value)
                else:
                    w = op_reach[d] / sample_reach[d]
                    for a in range(k):
                        strategy_sum[info, a] += w * sig[d, a]
                u = value
            if record:
                _record_instant(regret_sum, before, instant, owner, who)
    return touched


# ----------------------------------------------------------------------------- evaluation

@njit(cache=True)
def expected_values(parent, edge, slot, player, chance_prob, utility, strategy):
    """Expected payoff of each player under a strategy profile."""
    n = parent.shape[0]
    reach = np.empty((3, n))
    prob = np.empty(n)
    _reaches(parent, edge, slot, chance_prob, strategy, reach, prob)
    out = np.zeros(2)
    for h in range(n):
        if player[h] == -2:
            r = reach[0, h] * reach[1, h] * reach[2, h]
            out[0] += r * utility[h, 0]
            out[1] += r * utility[h, 1]
    return out


@njit(cache=True)
def best_response_values(parent, edge, slot, player, infoset, child_ptr, child_ids, chance_prob,
                         utility, strategy, who, order, stage, decisions, width):
    """A best response of ``who`` that sees only its own information sets.

    Nodes are processed by decreasing *stage* (how many of ``who``'s own
    decisions lie above them) and, within a stage, in reverse preorder.  With
    perfect recall all nodes of one of ``who``'s information sets share a
    stage, and their children all lie in the next one, so when a stage starts
    the counterfactual value of every action of its sets is already known:
    the best action is the argmax, summed over the set's nodes, of the
    opponent-and-chance reach times the value below.

    Returns
    -------
    value : float
        The best response's expected payoff.
    best : int array (information sets,)
        The chosen action index at each of ``who``'s sets (-1 elsewhere).
    totals : float array (information sets, width)
        The counterfactual value of each action.
    """
    n = parent.shape[0]
    num = strategy.shape[0]
    reach = np.empty((3, n))
    prob = np.empty(n)
    _reaches(parent, edge, slot, chance_prob, strategy, reach, prob)
    other = 1 - who
    value = np.zeros(n)
    totals = np.zeros((num, width))
    best = np.full(num, -1, dtype=np.int64)
    pos = 0
    current_stage = -1
    for idx in range(n):
        h = order[idx]
        k = stage[h]
        if k != current_stage:
            current_stage = k
            while pos < decisions.shape[0] and stage[decisions[pos]] == k:
                d = decisions[pos]
                info = infoset[d]
                lo = child_ptr[d]
                for a in range(child_ptr[d + 1] - lo):
                    totals[info, a] += value[child_ids[lo + a]]
                pos += 1
        kind = player[h]
        if kind == -2:
            value[h] = reach[2, h] * reach[other, h] * utility[h, who]
        elif kind == who:
            info = infoset[h]
            if best[info] < 0:
                lo = child_ptr[h]
                choice = 0
                for a in range(1, child_ptr[h + 1] - lo):
                    if totals[info, a] > totals[info, choice]:
                        choice = a
                best[info] = choice
            value[h] = value[child_ids[child_ptr[h] + best[info]]]
        else:
            v = 0.0
            for i in range(child_ptr[h], child_ptr[h + 1]):
                v += value[child_ids[i]]
            value[h] = v
    return value[0], best, totals


def tree_reach_probabilities(tree: GameTree, probabilities: np.ndarray) -> np.ndarray:
    """Each node's reach split by contributor, shape (3, nodes): player 1, player 2, chance.

    The probability that play reaches a node is the product of the three rows.
    """
    p = plan(tree)
    reach = np.empty((3, p.n))
    prob = np.empty(p.n)
    _reaches(p.parent, p.edge, p.slot, p.chance_prob,
             np.ascontiguousarray(probabilities, dtype=np.float64), reach, prob)
    return reach


def tree_expected_values(tree: GameTree, probabilities: np.ndarray) -> tuple[float, float]:
    """Expected payoff of each player under a strategy profile (compiled)."""
    p = plan(tree)
    out = expected_values(p.parent, p.edge, p.slot, p.player, p.chance_prob, p.utility,
                          np.ascontiguousarray(probabilities, dtype=np.float64))
    return float(out[0]), float(out[1])


def tree_best_response(tree: GameTree, probabilities: np.ndarray, who: int):
    """``(value, best action per set, action values)`` of ``who``'s best response (compiled)."""
    p = plan(tree)
    if p.recall_problem:
        raise ValueError(p.recall_problem + "; exact best responses need perfect recall")
    value, best, totals = best_response_values(
        p.parent, p.edge, p.slot, p.player, p.infoset, p.child_ptr, p.child_ids, p.chance_prob,
        p.utility, np.ascontiguousarray(probabilities, dtype=np.float64), who, p.br_order[who],
        p.br_stage[who], p.br_decisions[who], p.width)
    return float(value), best, totals


def tree_exploitability(tree: GameTree, probabilities: np.ndarray) -> float:
    """NashConv / 2 of a profile in a two-player zero-sum tree (compiled)."""
    return (tree_best_response(tree, probabilities, 0)[0]
            + tree_best_response(tree, probabilities, 1)[0]) / 2


@njit(cache=True)
def _counterfactual(parent, edge, slot, player, infoset, chance_prob, utility, strategy, who,
                    num, width):
    n = parent.shape[0]
    reach = np.empty((3, n))
    prob = np.empty(n)
    value = np.empty(n)
    _reaches(parent, edge, slot, chance_prob, strategy, reach, prob)
    _values(parent, player, utility, prob, who, value)
    other = 1 - who
    opponent_reach = np.zeros(num)
    own_reach = np.zeros(num)
    node_value = np.zeros(num)
    action_value = np.zeros((num, width))
    for h in range(n):
        if player[h] == who:
            w = reach[2, h] * reach[other, h]
            info = infoset[h]
            opponent_reach[info] += w
            own_reach[info] = reach[who, h]  # the same at every node of a set (perfect recall)
            node_value[info] += w * value[h]
    for h in range(1, n):
        if edge[h] == who:
            par = parent[h]
            s = slot[h]
            action_value[s // width, s % width] += reach[2, par] * reach[other, par] * value[h]
    return opponent_reach, own_reach, node_value, action_value


def counterfactual_table(tree: GameTree, probabilities: np.ndarray, who: int) -> dict:
    """Counterfactual quantities of every information set of ``who`` under a profile.

    Returns
    -------
    dict of arrays
        ``opponent_reach`` (I,): the chance-and-opponent reach summed over the
        set's nodes; ``own_reach`` (I,): ``who``'s own probability of playing
        into the set (equal at its nodes, by perfect recall: the weight of its
        strategy in the average); ``value`` (I,): the set's
        counterfactual value; ``action_values`` (I, width): each action's.
        Their difference ``action_values - value[:, None]`` is the immediate
        counterfactual regret CFR adds.  Rows of the other player's sets are 0.
    """
    p = plan(tree)
    opp, own, val, act = _counterfactual(p.parent, p.edge, p.slot, p.player, p.infoset,
                                         p.chance_prob, p.utility,
                                         np.ascontiguousarray(probabilities, dtype=np.float64),
                                         who, p.num_infosets, p.width)
    return {"opponent_reach": opp, "own_reach": own, "value": val, "action_values": act}
