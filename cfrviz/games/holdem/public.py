"""A river spot's public tree, read straight from the spot: the bet tree and each player's hands
(issue 32 item 3).

:func:`~cfrviz.games.holdem.river.holdem_river` deals every pair of combos into its own copy of
the bet tree (915,685 nodes on the reference spot; 22.5 million with full ranges).  The public
tree of that game is the bet tree alone: nobody sees the other's cards, so each public state is
a bet-tree node and each player's private state is its combo.  :class:`RiverPublic` holds what a
vector-form solver needs and nothing per deal: the bet tree, each player's combos (cards,
weights, hand strengths), each terminal's payoffs, and the information sets in exactly the order
and with exactly the keys of the dealt tree, so the solvers' tables and traces are the same
arrays whichever tree produced them.

Chance's probability of a deal is ``w_oop * w_ip / total`` over the pairs sharing no card: a
product of one number per combo but for card removal, which the kernels correct card by card
(:mod:`cfrviz.engine.river`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .bets import IP, OOP, BetSize, BetTree, bet_tree
from .cards import hand_strength, parse_board
from .ranges import Range, parse_range
from .river import BETS, BOARD, POT, RAISES, RANGES, STACK, combo_name, payoff

__all__ = ["RiverPublic", "river_public", "river_public_of"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class RiverPublic:
    """A river spot as its public tree: the bet tree, each player's hands, the information sets.

    Attributes
    ----------
    board : tuple of int
        The five board cards.
    bets : BetTree
        The public tree: node ``n`` of ``bets.nodes`` is public state ``n`` (parents first).
    ranges : (Range, Range)
        OOP's and IP's ranges as parsed.
    hands : (int64 array, int64 array)
        Each player's hands: indices into its range's combos, those that meet at least one
        opponent combo sharing no card (a combo that meets none is never dealt).
    cards : (int64 array, int64 array)
        Shape (hands, 2): each hand's two cards.
    weights : (float64 array, float64 array)
        Each hand's range weight.
    strength : (int64 array, int64 array)
        Each hand's seven-card strength (higher wins, equal ties).
    members : (int64 array, int64 array)
        How many opponent combos each hand meets (sharing no card): the number of dealt-tree
        nodes in each of its information sets.
    total_weight : float
        The sum of ``w_oop * w_ip`` over the deals: chance's probability of a deal is its
        product of weights divided by this.
    payoffs : float64 array (bet-tree nodes, 3)
        OOP's payoff at each terminal when OOP wins, loses, ties the showdown (a fold's payoff
        three times); IP's is minus it.  0 at decisions.
    infoset : int64 array (bet-tree nodes, widest range)
        At a decision, the information set of the acting player's hand ``h`` is
        ``infoset[node, h]``; -1 elsewhere.
    infoset_keys, infoset_player, infoset_actions, legal_mask
        The information-set table, as :class:`~cfrviz.core.tree.GameTree`'s of
        ``holdem_river`` on the same spot: same keys, same order.
    """

    board: tuple[int, ...]
    bets: BetTree
    ranges: tuple[Range, Range]
    hands: tuple[IntArray, IntArray]
    cards: tuple[IntArray, IntArray]
    weights: tuple[FloatArray, FloatArray]
    strength: tuple[IntArray, IntArray]
    members: tuple[IntArray, IntArray]
    total_weight: float
    payoffs: FloatArray
    infoset: IntArray
    infoset_keys: tuple[str, ...]
    infoset_player: IntArray
    infoset_actions: tuple[tuple[str, ...], ...]
    legal_mask: npt.NDArray[np.bool_]

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_keys)

    def combo_names(self, player: int) -> list[str]:
        """``player``'s hands as players write them (``"AsAh"``), in hand order."""
        return [combo_name(c) for c in self.cards[player].tolist()]


def river_public(board: str | Sequence[int] = BOARD, pot: float = POT, stack: float = STACK,
                 ranges: Sequence[str] = RANGES, bets: str | Sequence[str | BetSize] = BETS,
                 raises: str | Sequence[str | BetSize] = RAISES) -> RiverPublic:
    """The public tree of the spot :func:`~cfrviz.games.holdem.river.holdem_river` deals out
    (same parameters, same defaults: the reference spot), without dealing it.

    Raises
    ------
    ValueError
        As ``holdem_river``: from the parsers of the board, ranges and sizes, unchanged; for
        ``ranges`` not a pair of texts; for ranges no deal can satisfy.
    """
    cards = parse_board(board)
    tree = bet_tree(pot, stack, bets, raises)
    if isinstance(ranges, str) or not isinstance(ranges, Sequence) or len(ranges) != 2:
        raise ValueError(f"ranges must be two ranges, OOP's then IP's, e.g. ('AA-TT,AKs', "
                         f"'QQ-22,AQ'); got {ranges!r}")
    return river_public_of(cards, (parse_range(ranges[OOP], cards),
                                   parse_range(ranges[IP], cards)), tree)


def river_public_of(board: Sequence[int], ranges: tuple[Range, Range],
                    tree: BetTree) -> RiverPublic:
    """:class:`RiverPublic` of a parsed spot: five board cards, two ranges parsed on that board,
    a bet tree."""
    a, b = ranges[OOP].combos, ranges[IP].combos
    meets = ~(a[:, None, :, None] == b[None, :, None, :]).any(axis=(2, 3))  # (oop, ip)
    if not meets.any():
        raise ValueError(f"every OOP combo of {str(ranges[OOP])!r} shares a card with every IP "
                         f"combo of {str(ranges[IP])!r}: no deal is possible")
    hands = (np.flatnonzero(meets.any(axis=1)), np.flatnonzero(meets.any(axis=0)))
    weights = tuple(np.array(r.weights[h], dtype=np.float64) for r, h in zip(ranges, hands))
    total = float(ranges[OOP].weights @ meets @ ranges[IP].weights)
    combos = tuple(np.ascontiguousarray(r.combos[h], dtype=np.int64)
                   for r, h in zip(ranges, hands))
    keys, owner, table = _infosets(meets, hands, combos, tree)
    payoffs = np.zeros((len(tree.nodes), 3))
    for n, node in enumerate(tree.nodes):
        if node.terminal:
            payoffs[n] = [payoff(node, tree.pot, w) for w in (OOP, IP, -1)]
    actions = tuple(tree.nodes[int(n)].actions for n in table)
    width = max(len(x) for x in actions)
    mask = np.zeros((len(keys), width), dtype=bool)
    for i, labels in enumerate(actions):
        mask[i, :len(labels)] = True
    infoset = np.full((len(tree.nodes), max(len(h) for h in hands)), -1, dtype=np.int64)
    for i, (n, h) in enumerate(zip(table, owner[1])):
        infoset[n, h] = i
    return RiverPublic(
        tuple(board), tree, ranges, (hands[0], hands[1]), (combos[0], combos[1]),
        (weights[0], weights[1]),
        (hand_strength(board, combos[0]), hand_strength(board, combos[1])),
        (meets[hands[0]].sum(axis=1), meets[:, hands[1]].sum(axis=0)), total, payoffs,
        infoset, keys, owner[0], actions, mask)


def _infosets(meets: npt.NDArray[np.bool_], hands: tuple[IntArray, IntArray],
              combos: tuple[IntArray, ...], tree: BetTree
              ) -> tuple[tuple[str, ...], tuple[IntArray, IntArray], IntArray]:
    """The information sets in the dealt tree's order: ``(keys, (player, hand), node)``.

    The dealt tree is built depth first, deal by deal (OOP's combo major, then IP's), the bet
    tree in order under each, and numbers a set when it first meets it: the set of (player,
    hand, node) is first met in the first deal holding that hand, at that node's place in the
    bet tree.  So the order is by (that deal's index, the node's id).
    """
    deal = np.cumsum(meets.ravel()).reshape(meets.shape) - 1  # each pair's index among deals
    first = (deal[hands[0], meets[hands[0]].argmax(axis=1)],
             deal[meets[:, hands[1]].argmax(axis=0), hands[1]])
    player, hand, node = [], [], []
    for n in tree.decision_nodes():
        p = tree.nodes[n].player
        player.append(np.full(len(hands[p]), p))
        hand.append(np.arange(len(hands[p])))
        node.append(np.full(len(hands[p]), n))
    players, own, nodes = (np.concatenate(x).astype(np.int64) for x in (player, hand, node))
    deals = np.where(players == OOP, first[OOP][np.where(players == OOP, own, 0)],
                     first[IP][np.where(players == IP, own, 0)])
    order = np.lexsort((nodes, deals))
    players, own, nodes = players[order], own[order], nodes[order]
    names = [[combo_name(c) for c in cs.tolist()] for cs in combos]
    keys = tuple(f"{names[p][h]}:{tree.nodes[n].line}"
                 for p, h, n in zip(players.tolist(), own.tolist(), nodes.tolist()))
    return keys, (players, own), nodes
