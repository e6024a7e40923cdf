"""A hold'em river spot's public tree laid out for the kernels of :mod:`cfrviz.engine.river`.

:func:`river_plan` reads a :class:`~cfrviz.games.holdem.public.RiverPublic` once into flat
arrays: the bet tree's states, each player's hands sorted by strength (ties in the spot's hand
order), the per-hand and per-card entries the leaves read (fixed here so that no branch in the
kernels depends on the ranges), and each decision's block of the kernels' per-state tables.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..core.types import BoolArray, FloatArray, IntArray
from ..games.holdem.public import RiverPublic
from .plan import PlanArrays

__all__ = ["NUM_CARDS", "RiverPlan", "RiverPlanArrays", "river_plan"]

NUM_CARDS = 52

#: The leaves' entries (at most 2 x 1,326 + 52): 16 bits, so that a player's nine reads per
#: hand fit in the first-level cache beside the sums they read, and unsigned, so that numba
#: reads at them without its test for an index below 0 (taken from the end).
EntryArray = npt.NDArray[np.uint16]


class RiverPlanArrays(NamedTuple):
    """A river spot's public tree laid out for the kernels (bet-tree node ids, parents first;
    each player's hands from the weakest, ties in the spot's hand order).

    Attributes
    ----------
    player : int64 array (states,)
        The acting player, -1 at a terminal.
    parent, edge_row : int64 arrays (states,)
        Each state's parent (-1 at the root) and the kernels' strategy entry of the action
        that leads to it for the parent's first hand (see ``block``; -1 at the root).
    child_ptr, child_ids : int64 arrays
        Children of ``s`` are ``child_ids[child_ptr[s]:child_ptr[s + 1]]``, in action order.
    info : int64 array (states, hands)
        At a decision, the acting player's information set for each hand (-1 elsewhere).
    block : int64 array (states + 1,)
        The kernels keep regrets, strategies and their sums per state, action and hand:
        decision ``s``'s entry for action ``a`` and hand ``h`` is ``block[s] + a * num_hands[p]
        + h`` (contiguous over the hands), its table entry ``(info[s, h], a)``.
    members : float64 array (2, hands)
        The dealt tree's nodes in each of a hand's information sets (the opponent's hands it
        meets): the tabular strategy sum adds a member's reach once per member; so does this.
    num_hands : int64 array (2,)
        Each player's number of hands.
    weight : float64 array (2, hands)
        Each hand's range weight (0 past ``num_hands``).
    card1, card2 : int64 arrays (2, hands)
        Each hand's two cards.
    same : int64 array (2, hands)
        The opponent's hand holding the same two cards, or ``hands`` (a slot that holds 0).
    weaker, not_stronger : int64 arrays (2, hands)
        How many of the opponent's hands are weaker than the hand, and at most as strong: the
        opponent's hands in order, so its first ``weaker[p, h]`` are the ones ``h`` beats.
    slot1, slot2 : uint16 arrays (2, hands)
        Where a hand's mass enters its player's per-card running sums: each player has a row
        of ``2 * hands + 52`` sums, one segment per card (a 0, then the running sum over the
        player's hands holding that card, from the weakest); ``slot1[p, j]`` is hand ``j``'s
        entry in its first card's segment, ``slot2`` in its second's.
    card_weaker, card_upto, card_all : int64 arrays (2, hands, 2)
        For each of a hand's two cards, the entry of the opponent's per-card row holding the
        opponent's mass on that card weaker than the hand, at most as strong, and in all.
    payoff : float64 array (states, 2, 3)
        At a terminal, player ``p``'s payoff when it wins, loses, ties the showdown, divided by
        the total weight of the deals (a fold's payoff three times).
    fold : bool array (states,)
        Whether a terminal is a fold.
    gather : uint16 array (2, hands, 9)
        A showdown's nine reads per hand side by side: ``card_all`` (2), ``same``,
        ``weaker``, ``card_weaker`` (2), ``not_stronger``, ``card_upto`` (2).
    folder, call : int64 arrays (states,)
        At a fold, who folded and the showdown its call would have reached (the fold's
        sibling, processed before it), whose opponent's range is the fold's for the folder:
        the folder's values there reuse the mass each hand meets at the call; -1 elsewhere.
    fold_at : int64 array (states,)
        At a showdown, the fold whose ``call`` it is, which it writes for the folder; -1
        elsewhere.
    """

    player: IntArray
    parent: IntArray
    edge_row: IntArray
    child_ptr: IntArray
    child_ids: IntArray
    info: IntArray
    block: IntArray
    members: FloatArray
    num_hands: IntArray
    weight: FloatArray
    card1: IntArray
    card2: IntArray
    same: IntArray
    weaker: IntArray
    not_stronger: IntArray
    slot1: EntryArray
    slot2: EntryArray
    card_weaker: IntArray
    card_upto: IntArray
    card_all: IntArray
    payoff: FloatArray
    fold: BoolArray
    gather: EntryArray
    folder: IntArray
    call: IntArray
    fold_at: IntArray


class RiverPlan:
    """A river spot's arrays for the kernels (:func:`river_plan` builds it).

    Attributes
    ----------
    spot : RiverPublic
    arrays : RiverPlanArrays
    tree_arrays : PlanArrays
        Owners and masks of the information sets, which :func:`.cfr.apply_update` reads, and
        the terminal payoffs (the rounding tolerance's scale); the tabular fields no river
        kernel reads are empty.
    order : (int64 array, int64 array)
        Each player's hands in the kernels' order: kernel hand ``k`` is the spot's hand
        ``order[p][k]``.
    hands : int
        The wider range's number of hands.
    work : int
        Entries one iteration reads (two passes over every state's range vectors): a trace's
        "nodes touched".
    """

    def __init__(self, spot: RiverPublic) -> None:
        tree = spot.bets
        states = len(tree.nodes)
        hands = spot.infoset.shape[1]
        player = np.array([-1 if n.terminal else n.player for n in tree.nodes], dtype=np.int64)
        counts = [len(n.children) for n in tree.nodes]
        child_ptr = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        child_ids = np.array([c for n in tree.nodes for c in n.children], dtype=np.int64)
        self.order = tuple(np.argsort(spot.strength[p], kind="stable") for p in (0, 1))
        info = np.full((states, hands), -1, dtype=np.int64)
        sizes = np.zeros(states, dtype=np.int64)
        for s in range(states):
            p = int(player[s])
            if p >= 0:
                info[s, :len(self.order[p])] = spot.infoset[s, self.order[p]]
                sizes[s] = len(tree.nodes[s].children) * len(self.order[p])
        block = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        parent = np.full(states, -1, dtype=np.int64)
        edge_row = np.full(states, -1, dtype=np.int64)
        for s in range(states):
            for a, child in enumerate(tree.nodes[s].children):
                parent[child] = s
                edge_row[child] = block[s] + a * len(self.order[int(player[s])])
        members, *per_hand = _hand_rows(spot, self.order, hands)
        cards = [_card_rows(spot, self.order, p, hands) for p in (0, 1)]
        payoff = np.zeros((states, 2, 3))
        payoff[:, 0] = spot.payoffs / spot.total_weight
        payoff[:, 1] = -spot.payoffs[:, [1, 0, 2]] / spot.total_weight  # IP wins when OOP loses
        fold = np.array([n.terminal and not n.showdown for n in tree.nodes], dtype=bool)
        folder = np.full(states, -1, dtype=np.int64)
        call = np.full(states, -1, dtype=np.int64)
        fold_at = np.full(states, -1, dtype=np.int64)
        for s, node in enumerate(tree.nodes):
            if node.folder is not None:
                siblings = tree.nodes[node.parent].children
                calls = [c for c in siblings if tree.nodes[c].showdown and c > s]
                folder[s], call[s] = node.folder, calls[0] if calls else -1
                if calls:
                    fold_at[calls[0]] = s
        reads = [np.stack([cards[0][i], cards[1][i]]) for i in (2, 3, 4)]
        gather = np.concatenate([reads[2], per_hand[3][..., None], per_hand[4][..., None],
                                 reads[0], per_hand[5][..., None], reads[1]], axis=2)
        empty_i = np.zeros(0, dtype=np.int64)
        frozen = [player, parent, edge_row, child_ptr, child_ids, info, block, members,
                  np.array([len(h) for h in spot.hands], dtype=np.int64), *per_hand,
                  *(np.stack([cards[1][i], cards[0][i]]).astype(np.uint16)  # the owner's
                    for i in (0, 1)),
                  *(np.stack([cards[0][i], cards[1][i]]) for i in (2, 3, 4)), payoff, fold,
                  gather.astype(np.uint16), folder, call, fold_at]
        self.spot = spot
        self.arrays = RiverPlanArrays(*(_frozen(a) for a in frozen))
        utility = np.column_stack((spot.payoffs.ravel(), -spot.payoffs.ravel()))
        self.tree_arrays = PlanArrays(
            parent=_frozen(empty_i), edge=_frozen(empty_i), slot=_frozen(empty_i),
            player=_frozen(empty_i), infoset=_frozen(empty_i), child_ptr=_frozen(empty_i),
            child_ids=_frozen(empty_i), chance_prob=_frozen(np.zeros(0)),
            utility=_frozen(utility), owner=_frozen(spot.infoset_player.astype(np.int64)),
            mask=_frozen(spot.legal_mask))
        self.hands = hands
        self.work = 2 * 2 * states * hands

    def to_spot(self, values: FloatArray, player: int) -> FloatArray:
        """Per-hand ``values`` (..., hands) of ``player`` in the kernels' order, in the
        spot's hand order (shape (..., that player's hands))."""
        out = np.empty((*values.shape[:-1], len(self.order[player])))
        out[..., self.order[player]] = values[..., :len(self.order[player])]
        return out


def _hand_rows(spot: RiverPublic, order: tuple[IntArray, ...], hands: int) -> list[np.ndarray]:
    """``members, weight, card1, card2, same, weaker, not_stronger`` of
    :class:`RiverPlanArrays`, each (2, hands) in the kernels' hand order."""
    rows = [np.zeros((2, hands)), np.zeros((2, hands)),
            *(np.zeros((2, hands), dtype=np.int64) for _ in range(5))]
    members, weight, card1, card2, same, weaker, not_stronger = rows
    for p in (0, 1):
        k, o = order[p], order[1 - p]
        n = len(k)
        weight[p, :n] = spot.weights[p][k]
        members[p, :n] = spot.members[p][k]
        card1[p, :n], card2[p, :n] = spot.cards[p][k, 0], spot.cards[p][k, 1]
        same[p] = hands
        twins = (spot.cards[p][k][:, None, :] == spot.cards[1 - p][o][None, :, :]).all(2)
        mine, theirs = np.nonzero(twins)
        same[p, mine] = theirs
        strength, other = spot.strength[p][k], spot.strength[1 - p][o]
        weaker[p, :n] = np.searchsorted(other, strength, side="left")
        not_stronger[p, :n] = np.searchsorted(other, strength, side="right")
    return rows


def _card_rows(spot: RiverPublic, order: tuple[IntArray, ...], p: int,
               hands: int) -> tuple[IntArray, ...]:
    """``slot1[p], slot2[p]`` and ``card_weaker[p], card_upto[p], card_all[p]`` of
    :class:`RiverPlanArrays`: where player ``p``'s hands enter its per-card row, and where
    each of ``p``'s hands reads the opponent's."""
    q = 1 - p
    theirs = spot.cards[q][order[q]]  # the opponent's hands from the weakest
    strength = spot.strength[q][order[q]]
    length = np.bincount(theirs.ravel(), minlength=NUM_CARDS)
    start = np.concatenate(([0], np.cumsum(length + 1)[:-1]))  # each segment's 0
    mine = spot.cards[p][order[p]]
    slots = np.zeros((2, hands), dtype=np.int64)
    seen = np.zeros(NUM_CARDS, dtype=np.int64)
    for j, pair in enumerate(theirs.tolist()):
        for side, card in enumerate(pair):
            seen[card] += 1
            slots[side, j] = start[card] + seen[card]
    reads = np.zeros((3, hands, 2), dtype=np.int64)
    mine_strength = spot.strength[p][order[p]]
    for card in range(NUM_CARDS):
        holding = strength[(theirs == card).any(axis=1)]  # ascending: theirs is sorted
        for side in (0, 1):
            at = np.flatnonzero(mine[:, side] == card)
            reads[0, at, side] = start[card] + np.searchsorted(holding, mine_strength[at], "left")
            reads[1, at, side] = start[card] + np.searchsorted(holding, mine_strength[at],
                                                               "right")
            reads[2, at, side] = start[card] + length[card]
    return (slots[0], slots[1], reads[0], reads[1], reads[2])


def _frozen(array: np.ndarray) -> np.ndarray:
    """A read-only C-ordered copy (the types every compiled kernel is cached for)."""
    out = np.ascontiguousarray(array).copy()
    out.setflags(write=False)
    return out


def river_plan(spot: RiverPublic) -> RiverPlan:
    """The :class:`RiverPlan` of a river spot's public tree."""
    return RiverPlan(spot)
