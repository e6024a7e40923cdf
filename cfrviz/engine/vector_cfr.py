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

Showdowns and folds.  A public leaf pays one pot by a ranking of the hands (or, at a fold,
the same payoff to every deal).  If chance's probability of a deal were a product of one
number per hand, each hand's value would be a sorted prefix sum over the opponent's hands
ranked below it minus those above it, O(hands) instead of O(hands x hands).  It nearly is:
dealt card by card (Kuhn, Leduc with ``suits=True``) every deal is equally likely, and dealt by
rank (Leduc, pocket poker) the product is off only where hands share a rank.  So a leaf is a
prefix sum over per-hand factors plus, hand by hand, the deals the product gets wrong or that
cannot happen (card removal: hands sharing a card), each corrected on its own
(:class:`VectorPlan` finds the factors, ranks and corrections).  Each leaf takes whichever of
that and the plain sum over its deals reads fewer numbers: the prefix sum in pocket poker and
larger Leduc games, the sum over deals in Kuhn and Leduc (three hands a side).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.tree import GameTree
from ..core.types import BoolArray, FloatArray, IntArray
from ..games.public import CHANCE_STATE, DECISION_STATE, TERMINAL_STATE, public_tree
from .cfr import (
    Tables,
    UpdateRule,
    apply_update,
    copy_table,
    match_row,
    payoff_scale,
    play_strategy,
    rounding_tolerance,
)
from .jit import kernel, step
from .plan import PlanArrays, plan
from .showdown_ranks import showdown_ranks

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
        At a ``SORTED`` leaf: the pot player ``p`` wins with a better-ranked hand (at a fold:
        player 1's payoff, and minus player 2's, as player 1's hands rank above).
    factor : float64 array (states, 2, hands)
        At a ``SORTED`` leaf, each hand's factor of chance's probability of a deal.
    order : int64 array (states, 2, hands)
        At a ``SORTED`` leaf, each player's hands (present at the leaf) sorted by showdown
        rank, -1 padded; ``rank`` (states, 2, hands) their ranks (at a fold, 1 for player 1's
        hands and 0 for player 2's).
    present : bool array (states, 2, hands)
        Whether a hand has a deal at the leaf.
    exc_ptr, exc_other, exc_weight : arrays
        At a ``SORTED`` leaf, player ``p``'s hand ``h``'s corrections are ``exc_ptr[s, p,
        h]:exc_ptr[s, p, h + 1]``: an opponent's hand and the weight (chance times ``p``'s
        payoff) the product gets wrong by.
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
    factor: FloatArray
    order: IntArray
    rank: IntArray
    present: BoolArray
    exc_ptr: IntArray
    exc_other: IntArray
    exc_weight: FloatArray
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

    def __init__(self, tree: GameTree, leaves: str = "auto") -> None:
        if leaves not in ("auto", "sorted", "sparse"):
            raise ValueError(f"leaves must be 'auto', 'sorted' or 'sparse'; got {leaves!r}")
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
        table = _LeafTables(count, hands, leaves)
        for i, s in enumerate(dealt):
            child_ids.extend(index[c] for c in s.children)
            child_ptr[i + 1] = len(child_ids)
            pairs = public.pairs(s)
            if s.kind == DECISION_STATE:
                info[i, pairs[:, s.player]] = tree.infoset[s.nodes]
            if s.kind == TERMINAL_STATE:
                table.add(i, pairs, tree.utility[s.nodes], public.chance_reach[s.nodes])
            else:
                table.add(i, pairs)
        counts = np.bincount(tree.infoset[tree.infoset >= 0], minlength=tree.num_infosets)
        self.tree_arrays: PlanArrays = plan(tree).arrays
        self.states = np.array([s.id for s in dealt], dtype=np.int64)
        self.hands = hands
        self.leaves = int(np.sum(kind == _TERMINAL))
        self.sorted_leaves = int(np.sum((kind == _TERMINAL) & (table.mode == SORTED)))
        sparse = (kind == _TERMINAL) & (table.mode == SPARSE)
        leaf_work = (int(np.sum(np.diff(table.deal_ptr)[sparse])) + 2 * hands * self.sorted_leaves
                     + len(table.exc_other) // 2)
        self.work = 2 * (2 * count * hands + leaf_work)
        roots = np.flatnonzero(parent < 0).astype(np.int64)
        frozen = [kind, player, parent, child_ptr, np.array(child_ids, dtype=np.int64), info,
                  counts.astype(float), *table.arrays(), roots]
        for array in frozen:
            array.setflags(write=False)
        self.arrays = VectorPlanArrays(*(np.ascontiguousarray(a) for a in frozen))


class _LeafTables:
    """The leaf tables of :class:`VectorPlanArrays` (``deal_ptr`` to ``exc_weight``), filled
    state by state, parents first."""

    def __init__(self, count: int, hands: int, leaves: str) -> None:
        self.hands, self.leaves = hands, leaves
        self.deal_ptr = np.zeros(count + 1, dtype=np.int64)
        self.deal_hand: list[IntArray] = []
        self.deal_weight: list[FloatArray] = []
        self.mode = np.zeros(count, dtype=np.int64)
        self.scale = np.zeros((count, 2))
        self.order = np.full((count, 2, hands), -1, dtype=np.int64)
        self.rank = np.zeros((count, 2, hands), dtype=np.int64)
        self.present = np.zeros((count, 2, hands), dtype=bool)
        self.factor = np.zeros((count, 2, hands))
        self.exc_ptr = np.zeros((count, 2, hands + 1), dtype=np.int64)
        self.exc_other: list[int] = []
        self.exc_weight: list[float] = []

    def add(self, i: int, pairs: IntArray, utility: FloatArray | None = None,
            chance: FloatArray | None = None) -> None:
        """State ``i``, dealt ``pairs``: the hands present and, at a public leaf (its nodes'
        ``utility`` and ``chance`` reach given), its deals and, if cheaper, its sorted form."""
        for p in (0, 1):
            self.present[i, p, pairs[:, p]] = True
        weights = np.empty((0, 2))
        if utility is not None and chance is not None:
            weights = utility * chance[:, None]
            self._sort(i, pairs, chance, utility, weights)
        self.deal_hand.append(pairs if utility is not None else np.empty((0, 2), np.int64))
        self.deal_weight.append(weights)
        self.deal_ptr[i + 1] = self.deal_ptr[i] + len(weights)

    def _sort(self, i: int, pairs: IntArray, chance: FloatArray, utility: FloatArray,
              weights: FloatArray) -> None:
        """Make leaf ``i`` ``SORTED`` when its payoffs are a ranking and the prefix sum with
        its corrections reads fewer numbers than its deals (or ``leaves="sorted"``)."""
        hands, present = self.hands, self.present[i]
        found = None if self.leaves == "sparse" else _sorted_leaf(pairs, chance, utility, hands)
        if found is None:
            return
        scale, ranks, factors = found
        corrections = [_corrections(pairs, weights[:, p], p, scale[p], ranks, factors, present)
                       for p in (0, 1)]
        sorted_cost = sum(2 * hands + len(c[0]) for c in corrections)
        if self.leaves != "sorted" and sorted_cost >= 2 * len(pairs):
            return  # the sum over the deals reads fewer numbers
        self.mode[i] = SORTED
        self.scale[i] = scale
        for p in (0, 1):
            here = np.flatnonzero(present[p])
            by_rank = here[np.argsort(ranks[p][here], kind="stable")]
            self.order[i, p, :len(by_rank)] = by_rank
            self.rank[i, p] = ranks[p]
            self.factor[i, p] = factors[p]
            others, amounts, ends = corrections[p]
            self.exc_ptr[i, p] = len(self.exc_other) + np.concatenate(([0], ends))
            self.exc_other.extend(others)
            self.exc_weight.extend(amounts)

    def arrays(self) -> list[np.ndarray]:
        """The tables from ``deal_ptr`` to ``exc_weight``, in :class:`VectorPlanArrays` order."""
        return [self.deal_ptr,
                np.concatenate(self.deal_hand).astype(np.int64).reshape(-1, 2).T.copy(),
                np.concatenate(self.deal_weight).astype(float).reshape(-1, 2).T.copy(),
                self.mode, self.scale, self.factor, self.order, self.rank, self.present,
                self.exc_ptr, np.array(self.exc_other, dtype=np.int64),
                np.array(self.exc_weight, dtype=float)]


Leaf = tuple[FloatArray, tuple[IntArray, IntArray], tuple[FloatArray, FloatArray]]


def _sorted_leaf(pairs: IntArray, chance: FloatArray, utility: FloatArray,
                 hands: int) -> Leaf | None:
    """A leaf's payoffs as a ranking: ``(scale, ranks, factors)`` such that on (almost) every
    deal player ``p``'s payoff times chance's probability is ``scale[p] * factors[p][mine] *
    factors[1 - p][theirs] * sign(rank[p][mine] - rank[1 - p][theirs])``; None when the
    payoffs are not one pot won by a ranking (or one payoff everywhere, a fold: player 1's hands
    all rank above player 2's, and the scale carries the payoffs' signs).

    The factors split chance's probability of a deal into one number per hand: exact when
    every deal is equally likely (Kuhn, Leduc with suits), and off only for hands that share a
    rank when deals are by rank (Leduc, pocket poker); the deals where it is off are corrected
    one by one (:func:`_corrections`).
    """
    if len(pairs) == 0:
        return None
    u = utility[:, 0]
    factors = _factors(pairs, chance, hands)
    if np.all(u == u[0]) and np.all(utility[:, 1] == utility[0, 1]):
        return (np.array([u[0], -utility[0, 1]]),
                (np.ones(hands, dtype=np.int64), np.zeros(hands, dtype=np.int64)), factors)
    size = np.abs(u).max()
    if np.any((u != size) & (u != -size) & (u != 0)) or np.any(utility[:, 1] != -u):
        return None
    ranks = showdown_ranks(pairs, u, hands)
    if ranks is None:
        return None
    if np.any(np.sign(ranks[0][pairs[:, 0]] - ranks[1][pairs[:, 1]]) * size != u):
        return None
    return np.array([size, size]), ranks, factors


def _factors(pairs: IntArray, chance: FloatArray, hands: int) -> tuple[FloatArray, FloatArray]:
    """``a`` and ``b`` with ``chance[d] == a[hand 1] * b[hand 2]`` on as many deals as a few
    rounds of "the most common ratio per hand" find."""
    a = np.ones(hands)
    b = np.ones(hands)
    for _ in range(3):
        a = _common_ratio(pairs[:, 0], chance / b[pairs[:, 1]], hands)
        b = _common_ratio(pairs[:, 1], chance / a[pairs[:, 0]], hands)
    return a, b


def _common_ratio(keys: IntArray, values: FloatArray, hands: int) -> FloatArray:
    """Per key, the most common of its values (equal to 9 digits; the smallest if tied)."""
    out = np.ones(hands)
    largest = np.zeros(hands)
    np.maximum.at(largest, keys, values)
    rounded = np.round(values / largest[keys], 9)
    groups, first, counts = np.unique(np.column_stack((keys, rounded)), axis=0,
                                      return_index=True, return_counts=True)
    best = np.zeros(hands, dtype=np.int64)
    for g in np.argsort(-counts, kind="stable")[::-1]:  # the most common is written last
        best[int(groups[g, 0])] = int(first[g])
    present = np.unique(keys)
    out[present] = values[best[present]]
    return out


def _corrections(pairs: IntArray, weight: FloatArray, p: int, scale: float,
                 ranks: tuple[IntArray, IntArray], factors: tuple[FloatArray, FloatArray],
                 present: BoolArray) -> tuple[list[int], list[float], IntArray]:
    """Player ``p``'s deals the ranking's product misses: for each hand ``h`` (in order), the
    opponent's hands whose true weight (``weight``: chance times ``p``'s payoff, 0 with no
    deal) differs from ``scale * f_p(h) * f_q(o) * sign``, with the difference; and where
    each hand's list ends."""
    q = 1 - p
    hands = present.shape[1]
    true = np.zeros((hands, hands))
    np.add.at(true, (pairs[:, p], pairs[:, q]), weight)
    mine, theirs = np.flatnonzero(present[p]), np.flatnonzero(present[q])
    model = (scale * np.outer(factors[p], factors[q])
             * np.sign(ranks[p][:, None] - ranks[q][None, :]))
    # a product equal to chance's probability but for rounding is exact enough: 1e-15
    off = np.abs(true - model) > 1e-15 * np.abs(true).max()
    others: list[int] = []
    amounts: list[float] = []
    ends = np.zeros(hands, dtype=np.int64)
    for h in range(hands):
        if h in mine:
            for o in theirs:
                if off[h, o]:
                    others.append(int(o))
                    amounts.append(float(true[h, o] - model[h, o]))
        ends[h] = len(others)
    return others, amounts, ends


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
def _ranges_down(v: VectorPlanArrays, strategy: FloatArray, reach: FloatArray,
                 players: int) -> None:
    """Top-down: ``reach[p, s, h]``, player ``p``'s own probability of playing to state ``s``
    holding hand ``h``, for players ``0 .. players - 1`` (the others' rows are left as they
    are)."""
    hands = reach.shape[2]
    for r in v.roots:
        for p in range(players):
            for h in range(hands):
                reach[p, r, h] = 1.0
    for s in range(v.kind.shape[0]):
        acting = v.player[s] if v.kind[s] == _DECISION else -1
        info = v.info[s]
        for k in range(v.child_ptr[s], v.child_ptr[s + 1]):
            c = v.child_ids[k]
            a = k - v.child_ptr[s]
            for p in range(players):
                here, child = reach[p, s], reach[p, c]
                if p == acting:
                    for h in range(hands):
                        i = info[h]
                        child[h] = here[h] * strategy[i, a] if i >= 0 else 0.0
                else:
                    for h in range(hands):
                        child[h] = here[h]


@kernel
def _values_up(v: VectorPlanArrays, strategy: FloatArray, who: int, reach: FloatArray,
               value: FloatArray, regret: FloatArray, weighted: FloatArray) -> None:
    """Bottom-up: ``value[s, h]``, player ``who``'s counterfactual value of state ``s`` with
    hand ``h``; at its decisions, the regrets and own-reach-weighted strategy of each
    information set (flat slots, as :func:`.cfr.apply_update` reads them)."""
    for s in range(v.kind.shape[0] - 1, -1, -1):
        if v.kind[s] == _TERMINAL and v.leaf_mode[s] == SPARSE:
            _sparse_leaf(v, who, s, reach, value)
        elif v.kind[s] == _TERMINAL:
            _ranked_leaf(v, who, s, reach, value)
        elif v.kind[s] == _DECISION and v.player[s] == who:
            _own_decision(v, strategy, who, s, reach, value, regret, weighted)
        else:
            _pass_up(v, s, value)


@step
def _sparse_leaf(v: VectorPlanArrays, who: int, s: int, reach: FloatArray,
                 value: FloatArray) -> None:
    """A public leaf's values for ``who``, summed over its deals (the opponent's hands it
    meets, weighted by chance, the payoff and the opponent's range)."""
    other = 1 - who
    for h in range(value.shape[1]):
        value[s, h] = 0.0
    for d in range(v.deal_ptr[s], v.deal_ptr[s + 1]):
        j = v.deal_hand[other, d]
        value[s, v.deal_hand[who, d]] += v.deal_weight[who, d] * reach[other, s, j]


@step
def _ranked_leaf(v: VectorPlanArrays, who: int, s: int, reach: FloatArray,
                 value: FloatArray) -> None:
    """A public leaf's values for ``who`` by the sorted prefix sum: walk ``who``'s hands by
    rank, keeping the opponent's (factored) mass ranked below and tied; hand h gets (below -
    above) times its own factor and the scale, plus the deals the product misses."""
    hands = value.shape[1]
    other = 1 - who
    scale = v.leaf_scale[s, who]
    theirs = v.factor[s, other]
    mine_f = v.factor[s, who]
    for h in range(hands):
        value[s, h] = 0.0
    total = 0.0
    for j in range(hands):
        if v.present[s, other, j]:
            total += theirs[j] * reach[other, s, j]
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
            q, below = _take_ranked(v, s, other, reach, q, mine, False, below)
            q, tied = _take_ranked(v, s, other, reach, q, mine, True, 0.0)
            last_rank = mine
        x = scale * mine_f[h] * (below - (total - below - tied))
        for e in range(v.exc_ptr[s, who, h], v.exc_ptr[s, who, h + 1]):
            x += v.exc_weight[e] * reach[other, s, v.exc_other[e]]
        value[s, h] = x


@step
def _take_ranked(v: VectorPlanArrays, s: int, other: int, reach: FloatArray, q: int,
                 mine: int, tie: bool, mass: float) -> tuple[int, float]:
    """Add to ``mass`` the opponent's factored range of its hands from rank position ``q`` on
    that rank below ``mine`` (``tie``: equal to it); returns the next position and the sum."""
    hands = reach.shape[2]
    while q < hands and v.order[s, other, q] >= 0:
        j = v.order[s, other, q]
        rank = v.rank[s, other, j]
        if (rank != mine) if tie else (rank >= mine):
            break
        mass += v.factor[s, other, j] * reach[other, s, j]
        q += 1
    return q, mass


@step
def _own_decision(v: VectorPlanArrays, strategy: FloatArray, who: int, s: int,
                  reach: FloatArray, value: FloatArray, regret: FloatArray,
                  weighted: FloatArray) -> None:
    """At ``who``'s public decision: each hand's value under the strategy, and its set's
    regrets and own-reach-weighted strategy."""
    width = strategy.shape[1]
    first, end = v.child_ptr[s], v.child_ptr[s + 1]
    for h in range(value.shape[1]):
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


@step
def _pass_up(v: VectorPlanArrays, s: int, value: FloatArray) -> None:
    """At chance or the opponent's decision: each hand's value is the sum of its children's
    (their probabilities are already in the ranges)."""
    out = value[s]
    out[:] = 0.0
    for k in range(v.child_ptr[s], v.child_ptr[s + 1]):
        child = value[v.child_ids[k]]
        for h in range(out.shape[0]):
            out[h] += child[h]


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
    scale = payoff_scale(arrays.utility)  # the tabular engine's, so both see the same residue
    for t in range(first, last + 1):
        tol = rounding_tolerance(scale, t)
        play_strategy(tables, mask, rule, strategy, tol)
        copy_table(strategy, tables.current)
        if rule.alternating:
            # Player 2's pass needs player 1's new range only: player 2's strategy, and so
            # its range, has not changed since player 1's pass.
            _ranges_down(v, strategy, reach, 2)
            _values_up(v, strategy, 0, reach, value, regret, weighted)
            apply_update(arrays, tables, rule, 0, t, regret, weighted)
            _play_rows(tables, arrays, rule, 0, strategy, tol)
            _ranges_down(v, strategy, reach, 1)
            _values_up(v, strategy, 1, reach, value, regret, weighted)
            apply_update(arrays, tables, rule, 1, t, regret, weighted)
        else:
            _ranges_down(v, strategy, reach, 2)
            for who in range(2):
                _values_up(v, strategy, who, reach, value, regret, weighted)
                apply_update(arrays, tables, rule, who, t, regret, weighted)


@kernel
def _play_rows(tables: Tables, arrays: PlanArrays, rule: UpdateRule, who: int,
               out: FloatArray, tol: float) -> None:
    """The variant's strategy after player ``who``'s update: regret matching on that player's
    rows only (the others' regrets did not change), or every row when predictive (``tol``:
    :func:`.cfr.rounding_tolerance`)."""
    if rule.predictive:
        play_strategy(tables, arrays.mask, rule, out, tol)
        return
    for info in range(arrays.owner.shape[0]):
        if arrays.owner[info] == who:
            match_row(tables.regret_sum, arrays.mask, info, out[info], tol)
