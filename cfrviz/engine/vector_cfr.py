"""Vector-form CFR: the CFR family swept over the public tree, one range vector per player.

Tabular CFR visits every history: in Leduc the nine deals of one public state are nine nodes,
each with its own reach and value.  Vector-form CFR visits each *public state* once and
carries, for each player, a vector over its private hands (Johanson et al. 2012, "Efficient
Nash equilibrium approximation through Monte Carlo counterfactual regret minimization", AAMAS,
section 3; the "public tree" of Burch, Johanson and Bowling 2014; DeepStack's ranges):

- down the tree, each player's *range*: its own probability of playing to the public state
  with each hand (an acting player's range is multiplied by its strategy, hand by hand);
- up the tree, the updated player's *counterfactual values*, one per hand: at a public leaf a
  sum over the opponent's hands compatible with each hand, weighted by chance's probability of
  the deal (card removal) and the opponent's range;
- at the updated player's public decisions, regrets ``value(child a) - value(state)`` per hand,
  which is per information set.

The iterates are those of :func:`cfrviz.engine.run_full_tree`: the same regret matching, the
same :class:`~cfrviz.engine.UpdateRule` folded in by the same :func:`.cfr.apply_update`, only
summed in another order (agreement to 1e-12 is tested at every iteration).

Showdowns.  When every deal at a public leaf has the same chance probability (games dealt card
by card, e.g. Kuhn poker or Leduc with ``suits=True``) and the leaf pays ``+pot``, ``-pot`` or
0 by a ranking of the hands, the leaf's values are one sorted prefix sum: hand ``h`` wins
against the opponent's range mass ranked below it and loses the mass above it, minus the
opponent's hands that share a card with ``h`` (the deals missing from the leaf), O(hands +
missing deals) instead of O(hands x hands).  A fold is the same with every hand "above".  A
leaf without that structure (games dealt by rank with card removal in the probabilities, such
as Leduc's default or pocket poker) is summed over its deals, O(deals).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.tree import GameTree
from ..core.types import BoolArray, FloatArray, IntArray
from ..games.public import CHANCE_STATE, DECISION_STATE, TERMINAL_STATE, public_tree
from .cfr import Tables, UpdateRule, apply_update, copy_table, play_strategy
from .jit import kernel
from .plan import PlanArrays, plan

__all__ = ["SORTED", "SPARSE", "VectorPlan", "VectorPlanArrays", "run_vector_cfr", "vector_plan"]

_CHANCE, _DECISION, _TERMINAL = 0, 1, 2
#: How a public leaf's values are computed: summed over its deals, or by the sorted prefix sum.
SPARSE, SORTED = 0, 1


class VectorPlanArrays(NamedTuple):
    """The public tree's dealt states laid out for :func:`run_vector_cfr` (parents first).

    Attributes
    ----------
    kind, player, parent : int64 arrays (states,)
        0 chance, 1 decision, 2 terminal; the acting player; the parent (-1 at a root: the
        first state after the deal).
    child_ptr, child_ids : int64 arrays
        Children of state ``s`` are ``child_ids[child_ptr[s]:child_ptr[s + 1]]`` (at a
        decision, in action order).
    info : int64 array (states, hands)
        At a decision, the acting player's information set for each hand (-1: not here).
    members : float64 array (information sets,)
        Nodes per information set (the tabular engine's strategy sum adds a member's reach
        once per member; so does this one).
    deal_ptr, deal_hand, deal_weight : arrays
        Public leaf ``s``'s deals are ``deal_ptr[s]:deal_ptr[s + 1]``: ``deal_hand[p, d]`` is
        player ``p``'s hand in deal ``d`` and ``deal_weight[p, d]`` its chance probability
        times player ``p``'s payoff, shape (2, deals).
    leaf_mode : int64 array (states,)
        ``SPARSE`` or ``SORTED``.
    leaf_scale : float64 array (states, 2)
        At a ``SORTED`` leaf: chance's probability of one deal times the pot player ``p``
        wins, ``+pot`` when a better-ranked hand wins, ``-folder's loss`` at a fold.
    order : int64 array (states, 2, hands)
        At a ``SORTED`` leaf, each player's hands (present at the leaf) sorted by showdown
        rank, -1 padded; ``rank`` (states, 2, hands) their ranks (all equal at a fold).
    present : bool array (states, 2, hands)
        Whether a hand has a deal at the leaf.
    miss_ptr, miss_other : int64 arrays
        At a ``SORTED`` leaf, for player ``p``'s hand ``h``, the opponent's present hands with
        no deal against it (they share a card): ``miss_other[miss_ptr[s, p, h]:miss_ptr[s, p,
        h + 1]]``.
    roots : int64 array
        The states whose ranges start at 1.
    """

    kind: IntArray
    player: IntArray
    parent: IntArray
    child_ptr: IntArray
    child_ids: IntArray
    info: IntArray
    members: FloatArray
    deal_ptr: IntArray
    deal_hand: IntArray
    deal_weight: FloatArray
    leaf_mode: IntArray
    leaf_scale: FloatArray
    order: IntArray
    rank: IntArray
    present: BoolArray
    miss_ptr: IntArray
    miss_other: IntArray
    roots: IntArray


class VectorPlan:
    """A game's public tree as arrays for the vector kernels (one per tree, in its memo).

    Attributes
    ----------
    arrays : VectorPlanArrays
    tree_arrays : PlanArrays
        The tabular plan's arrays (information-set owners and masks, which the shared
        :func:`.cfr.apply_update` reads).
    states : int array
        The public-tree state id of each dealt state, in the kernels' order.
    hands : int
        The larger player's number of hands (the width of the range vectors).
    sorted_leaves, leaves : int
        How many public leaves use the sorted prefix sum, out of how many.
    work : int
        Entries one iteration reads (two passes, each over every state's range vectors and
        every leaf's deals or hands): the "nodes touched" a trace's work axis counts.
    """

    def __init__(self, tree: GameTree) -> None:
        public = public_tree(tree)
        dealt = [s for s in public.states if s.dealt]
        index = {s.id: i for i, s in enumerate(dealt)}
        count = len(dealt)
        hands = max(len(public.hands(0)), len(public.hands(1)), 1)
        kind = np.array([{CHANCE_STATE: _CHANCE, DECISION_STATE: _DECISION,
                          TERMINAL_STATE: _TERMINAL}[s.kind] for s in dealt], dtype=np.int64)
        player = np.array([s.player for s in dealt], dtype=np.int64)
        parent = np.array([index.get(s.parent, -1) for s in dealt], dtype=np.int64)
        child_ptr = np.zeros(count + 1, dtype=np.int64)
        child_ids: list[int] = []
        info = np.full((count, hands), -1, dtype=np.int64)
        deal_ptr = np.zeros(count + 1, dtype=np.int64)
        deal_hand: list[IntArray] = []
        deal_weight: list[FloatArray] = []
        leaf_mode = np.zeros(count, dtype=np.int64)
        leaf_scale = np.zeros((count, 2))
        order = np.full((count, 2, hands), -1, dtype=np.int64)
        rank = np.zeros((count, 2, hands), dtype=np.int64)
        present = np.zeros((count, 2, hands), dtype=bool)
        miss_ptr = np.zeros((count, 2, hands + 1), dtype=np.int64)
        miss_other: list[int] = []
        for i, s in enumerate(dealt):
            child_ids.extend(index[c] for c in s.children)
            child_ptr[i + 1] = len(child_ids)
            pairs = public.pairs(s)
            for p in (0, 1):
                present[i, p, pairs[:, p]] = True
            if s.kind == DECISION_STATE:
                sets = tree.infoset[s.nodes]
                info[i, pairs[:, s.player]] = sets
            weights = np.empty((0, 2))
            if s.kind == TERMINAL_STATE:
                weights = tree.utility[s.nodes] * public.chance_reach[s.nodes][:, None]
                sorted_leaf = _sorted_leaf(pairs, public.chance_reach[s.nodes],
                                           tree.utility[s.nodes], hands)
                if sorted_leaf is not None:
                    leaf_mode[i] = SORTED
                    scale, ranks = sorted_leaf
                    leaf_scale[i] = scale
                    for p in (0, 1):
                        here = np.flatnonzero(present[i, p])
                        by_rank = here[np.argsort(ranks[p][here], kind="stable")]
                        order[i, p, :len(by_rank)] = by_rank
                        rank[i, p] = ranks[p]
                    dealt_pairs = {(int(x), int(y)) for x, y in pairs}
                    for p in (0, 1):
                        other = np.flatnonzero(present[i, 1 - p])
                        miss_ptr[i, p, 0] = len(miss_other)
                        for h in range(hands):
                            if present[i, p, h]:
                                miss_other.extend(
                                    int(o) for o in other
                                    if ((h, int(o)) if p == 0 else (int(o), h)) not in dealt_pairs)
                            miss_ptr[i, p, h + 1] = len(miss_other)
            deal_hand.append(pairs if s.kind == TERMINAL_STATE else np.empty((0, 2), np.int64))
            deal_weight.append(weights)
            deal_ptr[i + 1] = deal_ptr[i] + len(deal_weight[-1])
        counts = np.bincount(tree.infoset[tree.infoset >= 0], minlength=tree.num_infosets)
        roots = np.flatnonzero(parent < 0).astype(np.int64)
        self.tree_arrays: PlanArrays = plan(tree).arrays
        self.states = np.array([s.id for s in dealt], dtype=np.int64)
        self.hands = hands
        self.leaves = int(np.sum(kind == _TERMINAL))
        self.sorted_leaves = int(np.sum((kind == _TERMINAL) & (leaf_mode == SORTED)))
        sparse = (kind == _TERMINAL) & (leaf_mode == SPARSE)
        leaf_work = int(np.sum(np.diff(deal_ptr)[sparse])) + 2 * hands * self.sorted_leaves
        self.work = 2 * (2 * count * hands + leaf_work)
        frozen = [kind, player, parent, child_ptr, np.array(child_ids, dtype=np.int64), info,
                  counts.astype(float), deal_ptr,
                  np.concatenate(deal_hand).astype(np.int64).reshape(-1, 2).T.copy(),
                  np.concatenate(deal_weight).astype(float).reshape(-1, 2).T.copy(), leaf_mode,
                  leaf_scale, order, rank, present, miss_ptr,
                  np.array(miss_other, dtype=np.int64), roots]
        for array in frozen:
            array.setflags(write=False)
        self.arrays = VectorPlanArrays(*(np.ascontiguousarray(a) for a in frozen))


def _sorted_leaf(pairs: IntArray, chance: FloatArray, utility: FloatArray,
                 hands: int) -> tuple[FloatArray, tuple[IntArray, IntArray]] | None:
    """``(scale, (ranks of player 1's hands, of player 2's))`` when every deal of a leaf has
    one chance probability and player 1's payoff is ``pot * sign(rank1 - rank2)``, or one
    payoff everywhere (a fold: player 1's hands all rank above player 2's, so each hand's sum
    is the opponent's whole range, and the scale carries the payoffs' signs); None
    otherwise."""
    if len(pairs) == 0 or np.any(chance != chance[0]):
        return None
    u = utility[:, 0]
    if np.all(u == u[0]) and np.all(utility[:, 1] == utility[0, 1]):
        return (np.array([u[0], -utility[0, 1]]) * chance[0],
                (np.ones(hands, dtype=np.int64), np.zeros(hands, dtype=np.int64)))
    size = np.abs(u).max()
    if np.any((u != size) & (u != -size) & (u != 0)) or np.any(utility[:, 1] != -u):
        return None
    ranks = _showdown_ranks(pairs, u, hands)
    if ranks is None:
        return None
    if np.any(np.sign(ranks[0][pairs[:, 0]] - ranks[1][pairs[:, 1]]) * size != u):
        return None
    return np.array([size, size]) * chance[0], ranks


def _showdown_ranks(pairs: IntArray, u: FloatArray,
                    hands: int) -> tuple[IntArray, IntArray] | None:
    """Ranks of both players' hands on one scale, from the deals: hands that tie are merged,
    and each hand sits one level above the highest hand it beats (longest path in the
    "beats" graph).  None if the deals contradict each other (a cycle)."""
    up = list(range(2 * hands))  # hand a of player 1 is a, hand b of player 2 is hands + b

    def find(x: int) -> int:
        while up[x] != x:
            up[x] = up[up[x]]
            x = up[x]
        return x

    for (a, b), x in zip(pairs, u, strict=True):
        if x == 0:
            up[find(int(a))] = find(hands + int(b))
    beats: list[tuple[int, int]] = []
    for (a, b), x in zip(pairs, u, strict=True):
        if x > 0:
            beats.append((find(int(a)), find(hands + int(b))))
        elif x < 0:
            beats.append((find(hands + int(b)), find(int(a))))
    level = np.zeros(2 * hands, dtype=np.int64)
    for _ in range(2 * hands + 1):
        changed = False
        for winner, loser in beats:
            if level[winner] <= level[loser]:
                level[winner] = level[loser] + 1
                changed = True
        if not changed:
            roots = np.array([find(x) for x in range(2 * hands)])
            return level[roots[:hands]], level[roots[hands:]]
    return None  # a cycle: no ranking


def vector_plan(tree: GameTree) -> VectorPlan:
    """The :class:`VectorPlan` of a tree (computed once, kept in the tree's memo).

    Raises
    ------
    ValueError
        For a game without a public tree (:func:`cfrviz.games.public.public_tree` says why).
    """
    return tree.cached("vector_plan", VectorPlan)


# ----------------------------------------------------------------------------- the kernels

@kernel
def _ranges_down(v: VectorPlanArrays, strategy: FloatArray, reach: FloatArray) -> None:
    """Top-down: ``reach[p, s, h]``, player ``p``'s own probability of playing to state ``s``
    holding hand ``h``."""
    hands = reach.shape[2]
    for r in v.roots:
        for h in range(hands):
            reach[0, r, h] = 1.0
            reach[1, r, h] = 1.0
    for s in range(v.kind.shape[0]):
        acting = v.player[s] if v.kind[s] == _DECISION else -1
        for k in range(v.child_ptr[s], v.child_ptr[s + 1]):
            c = v.child_ids[k]
            a = k - v.child_ptr[s]
            for p in range(2):
                for h in range(hands):
                    x = reach[p, s, h]
                    if p == acting:
                        i = v.info[s, h]
                        x = x * strategy[i, a] if i >= 0 else 0.0
                    reach[p, c, h] = x


@kernel
def _leaf_values(v: VectorPlanArrays, s: int, who: int, reach: FloatArray,
                 value: FloatArray) -> None:
    """Player ``who``'s counterfactual values at public leaf ``s``, into ``value[s]``."""
    hands = value.shape[1]
    other = 1 - who
    for h in range(hands):
        value[s, h] = 0.0
    if v.leaf_mode[s] == SPARSE:
        for d in range(v.deal_ptr[s], v.deal_ptr[s + 1]):
            value[s, v.deal_hand[who, d]] += v.deal_weight[who, d] * reach[other, s,
                                                                            v.deal_hand[other, d]]
        return
    # Sorted prefix sum: walk who's hands by rank, keeping the opponent's mass ranked below
    # and tied; hand h gets (below - above) * scale, less the hands it cannot meet.
    scale = v.leaf_scale[s, who]
    total = 0.0
    for j in range(hands):
        if v.present[s, other, j]:
            total += reach[other, s, j]
    below = 0.0
    tied = 0.0
    q = 0  # next opponent hand in rank order
    last_rank = -(1 << 62)
    for k in range(hands):
        h = v.order[s, who, k]
        if h < 0:
            break
        mine = v.rank[s, who, h]
        if mine != last_rank:
            below += tied
            tied = 0.0
            while q < hands and v.order[s, other, q] >= 0 and \
                    v.rank[s, other, v.order[s, other, q]] < mine:
                below += reach[other, s, v.order[s, other, q]]
                q += 1
            while q < hands and v.order[s, other, q] >= 0 and \
                    v.rank[s, other, v.order[s, other, q]] == mine:
                tied += reach[other, s, v.order[s, other, q]]
                q += 1
            last_rank = mine
        x = below - (total - below - tied)
        for m in range(v.miss_ptr[s, who, h], v.miss_ptr[s, who, h + 1]):
            j = v.miss_other[m]
            theirs = v.rank[s, other, j]
            if theirs < mine:
                x -= reach[other, s, j]
            elif theirs > mine:
                x += reach[other, s, j]
        value[s, h] = scale * x


@kernel
def _values_up(v: VectorPlanArrays, strategy: FloatArray, who: int, reach: FloatArray,
               value: FloatArray, regret: FloatArray, weighted: FloatArray) -> None:
    """Bottom-up: ``value[s, h]``, player ``who``'s counterfactual value of state ``s`` with
    hand ``h``; at its decisions, the regrets and own-reach-weighted strategy of each
    information set (flat slots, as :func:`.cfr.apply_update` reads them)."""
    hands = value.shape[1]
    width = strategy.shape[1]
    for s in range(v.kind.shape[0] - 1, -1, -1):
        if v.kind[s] == _TERMINAL:
            _leaf_values(v, s, who, reach, value)
            continue
        first, end = v.child_ptr[s], v.child_ptr[s + 1]
        if v.kind[s] == _DECISION and v.player[s] == who:
            for h in range(hands):
                i = v.info[s, h]
                if i < 0:
                    value[s, h] = 0.0
                    continue
                x = 0.0
                for k in range(first, end):
                    x += strategy[i, k - first] * value[v.child_ids[k], h]
                value[s, h] = x
                own = reach[who, s, h] * v.members[i]
                for k in range(first, end):
                    a = k - first
                    regret[i * width + a] = value[v.child_ids[k], h] - x
                    weighted[i * width + a] = own * strategy[i, a]
        else:
            for h in range(hands):
                x = 0.0
                for k in range(first, end):
                    x += value[v.child_ids[k], h]
                value[s, h] = x


@kernel
def run_vector_cfr(v: VectorPlanArrays, arrays: PlanArrays, tables: Tables, first: int,
                   last: int, rule: UpdateRule) -> None:
    """Iterations ``first..last`` (1-based) of the full-tree CFR family, swept over the public
    tree with range vectors; the same iterates as :func:`.cfr.run_full_tree` (see the module's
    docstring).

    Parameters
    ----------
    v : VectorPlanArrays
        From ``vector_plan(tree).arrays``.
    arrays : PlanArrays
        ``vector_plan(tree).tree_arrays`` (owners and masks of the information sets).
    tables : Tables
    first, last : int
    rule : UpdateRule
    """
    mask = arrays.mask
    num, width = tables.regret_sum.shape
    states = v.kind.shape[0]
    hands = v.info.shape[1]
    reach = np.zeros((2, states, hands))
    value = np.zeros((states, hands))
    regret = np.zeros(num * width)
    weighted = np.zeros(num * width)
    strategy = np.empty((num, width))
    for t in range(first, last + 1):
        play_strategy(tables, mask, rule, strategy)
        copy_table(strategy, tables.current)
        if rule.alternating:
            for who in range(2):
                _ranges_down(v, strategy, reach)
                _values_up(v, strategy, who, reach, value, regret, weighted)
                apply_update(arrays, tables, rule, who, t, regret, weighted)
                if who == 0:  # after player 2's update the next iteration plays anyway
                    play_strategy(tables, mask, rule, strategy)
        else:
            _ranges_down(v, strategy, reach)
            for who in range(2):
                _values_up(v, strategy, who, reach, value, regret, weighted)
                apply_update(arrays, tables, rule, who, t, regret, weighted)
