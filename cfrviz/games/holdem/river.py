"""A no-limit hold'em river spot as a game tree: chance deals both hands, then the bet tree
(issue 32 item 1, the tabular "dealt tree").

The spot is a board, a starting pot, an effective stack, two ranges and the bet and raise sizes
(conventions: :mod:`cfrviz.games.holdem.bets`).  Chance deals at the root every pair of an OOP
combo and an IP combo that share no card, with probability proportional to the product of their
range weights; under each deal the whole bet tree follows.  A player sees its own combo and the
betting, so an information set is keyed by the acting player's combo and the line, ``"AsAh:"``
(OOP at the root) or ``"KdKc:X-B50"`` (IP facing a bet after a check); the reference spot has
4 x 208 + 4 x 239 = 1,788 of them.

Payoffs follow ``shared/peers/postflop-river.md``: each player gets its share of the final pot
(all of it, none, or half on a tie at showdown) minus what it put in on the river, minus half
the starting pot, so the game is zero-sum and OOP's value on the reference spot is
47.216254290 - 50 = -2.783745710.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from ...core.registry import Param
from ...core.tree import CHANCE, GameTree, build_tree
from .bets import IP, OOP, BetNode, BetSize, BetTree, bet_tree
from .cards import card_name, hand_strength, parse_board
from .ranges import Range, parse_range

#: The reference spot of ``shared/peers/postflop-river.md``: ``load_game("holdem_river")``'s
#: defaults.
BOARD = "Td9d6h4c2s"
POT, STACK = 100.0, 200.0
RANGES = ("AA-22,AKs-A2s,KQs-K9s,QJs-Q9s,JTs,T9s,98s,AKo-ATo,KQo-KJo",
          "AA-22,AKs-A2s,KQs-K9s,QJs-Q9s,J9s+,T8s+,97s+,87s,76s,65s,AKo-ATo,KQo-KJo,QJo")
BETS, RAISES = "50%", "2.5x"
#: :func:`holdem_river`'s parameters as the game registry declares them: ``load_game`` checks
#: the pot and the stack; the board, ranges and sizes are read (and refused) by their parsers.
PARAMS = (Param("board", BOARD, help="the five board cards, e.g. 'Td9d6h4c2s'"),
          Param("pot", POT, "float", low=0, low_open=True, step=10,
                help="chips in the pot when the river starts"),
          Param("stack", STACK, "float", low=0, low_open=True, step=10,
                help="the effective stack behind each player: the all-in amount"),
          Param("ranges", RANGES, help="(OOP's range, IP's range) in players' notation, e.g. "
                                       "('AA-TT,AKs', 'QQ-22,AQ')"),
          Param("bets", BETS, help="bet sizes: '50%', '33%, 75%, a'"),
          Param("raises", RAISES, help="raise sizes: '2.5x', '100%', 'a', or '' for none"))


def combo_name(combo: Sequence[int]) -> str:
    """A combo as players write it, higher card first: ``(51, 50)`` is ``"AsAh"``."""
    return "".join(card_name(int(card)) for card in combo)


@dataclass(frozen=True, eq=False)
class Deals:
    """The deals of a river spot: each (OOP combo, IP combo) pair sharing no card.

    Attributes
    ----------
    oop, ip
        int64 arrays, shape (deals,): each deal's combo index into the OOP and the IP range.
    probability
        float64, shape (deals,): proportional to the product of the two combos' weights,
        summing to 1.
    winner
        int64, shape (deals,): who wins the showdown, ``OOP`` (0), ``IP`` (1) or -1 for a tie.
    """

    oop: npt.NDArray[np.int64]
    ip: npt.NDArray[np.int64]
    probability: npt.NDArray[np.float64]
    winner: npt.NDArray[np.int64]


def deals(board: Sequence[int], ranges: tuple[Range, Range]) -> Deals:
    """Every pair of an OOP and an IP combo that share no card, OOP's combo order first.

    Raises
    ------
    ValueError
        When every OOP combo shares a card with every IP combo: nothing can be dealt.
    """
    oop, ip = ranges
    a, b = oop.combos, ip.combos
    shared = (a[:, None, :, None] == b[None, :, None, :]).any(axis=(2, 3))
    i, j = np.nonzero(~shared)
    if not len(i):
        raise ValueError(f"every OOP combo of {str(oop)!r} shares a card with every IP combo of "
                         f"{str(ip)!r}: no deal is possible")
    weight = oop.weights[i] * ip.weights[j]
    strength = (hand_strength(board, a)[i], hand_strength(board, b)[j])
    winner = np.where(strength[OOP] > strength[IP], OOP,
                      np.where(strength[OOP] < strength[IP], IP, -1))
    return Deals(i.astype(np.int64), j.astype(np.int64), weight / weight.sum(),
                 winner.astype(np.int64))


def payoff(node: BetNode, start: float, winner: int) -> float:
    """OOP's payoff at a terminal ``node`` of the bet tree: its share of the final pot, minus
    its own river chips, minus half the starting pot ``start`` (``winner`` at a showdown is
    ``OOP``, ``IP`` or -1 for a tie; a fold decides by itself)."""
    if node.folder is not None:
        winner = 1 - node.folder
    share = 0.5 if winner < 0 else float(winner == OOP)
    return share * node.pot - node.contributions[OOP] - start / 2


class HoldemRiver:
    """A two-player no-limit hold'em river spot: a fixed board, two ranges, one bet tree.

    Rules.  Chance deals OOP (player 1) a combo of its range and IP (player 2) a combo of its
    range, the two sharing no card and neither holding a board card, with probability
    proportional to the product of their weights.  Then the river's betting
    (:func:`~cfrviz.games.holdem.bets.bet_tree`): OOP acts first; ``X`` checks, ``B<n>`` bets,
    ``R<n>`` raises to, ``AI<n>`` goes all-in, ``F`` folds, ``C`` calls, amounts being the
    chips a player has put in on the river.  A fold gives the pot to the other player; at the
    showdown the best five of seven cards wins it, equal hands split it.

    Payoffs.  Each player's share of the final pot minus its own river chips minus half the
    starting pot: zero-sum, in chips.

    Information-set keys are the acting player's combo, higher card first, ``:`` and the line
    so far: ``"AsAh:"``, ``"KdKc:X"``, ``"AsAh:X-B50"``; actions are the bet tree's labels.
    Deals are labelled ``"AsAh|KdKc"`` (OOP's combo, then IP's).
    """

    name = "holdem_river"

    def __init__(self, board: str | Sequence[int], ranges: tuple[Range, Range],
                 tree: BetTree) -> None:
        self.board = parse_board(board)
        self.ranges = ranges
        self.bets = tree
        self.deals = deals(self.board, ranges)
        names = [[combo_name(c) for c in hands.combos.tolist()] for hands in ranges]
        self.labels = tuple(f"{names[OOP][i]}|{names[IP][j]}"
                            for i, j in zip(self.deals.oop.tolist(), self.deals.ip.tolist()))
        self.names = names
        self.index = {label: k for k, label in enumerate(self.labels)}

    def initial_state(self) -> _RiverState:
        return _RiverState(self, -1, 0)

    def __str__(self) -> str:
        """The spot as players read it: the board, each range's combos once the board's cards
        are removed, the deals, and the bet tree with its lines."""
        board = "".join(map(card_name, self.board))
        return (f"hold'em river on {board}: OOP {len(self.names[OOP])} combos, IP "
                f"{len(self.names[IP])} combos, {len(self.labels):,} deals\n{self.bets}")


@dataclass(frozen=True)
class _RiverState:
    game: HoldemRiver
    #: The deal's index into ``game.deals``, -1 before chance deals.
    deal: int
    #: The node of the bet tree.
    node: int

    @property
    def _bet(self) -> BetNode:
        return self.game.bets.nodes[self.node]

    def is_terminal(self) -> bool:
        return self.deal >= 0 and self._bet.terminal

    def current_player(self) -> int:
        return CHANCE if self.deal < 0 else self._bet.player

    def legal_actions(self) -> tuple[str, ...]:
        return self._bet.actions

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return tuple(zip(self.game.labels, self.game.deals.probability.tolist()))

    def child(self, action: str) -> _RiverState:
        if self.deal < 0:
            return _RiverState(self.game, self.game.index[action], 0)
        bet = self._bet
        return _RiverState(self.game, self.deal, bet.children[bet.actions.index(action)])

    def returns(self) -> tuple[float, float]:
        value = payoff(self._bet, self.game.bets.pot, int(self.game.deals.winner[self.deal]))
        return (value, -value)

    def _combo(self, player: int) -> str:
        dealt = self.game.deals.oop if player == OOP else self.game.deals.ip
        return self.game.names[player][int(dealt[self.deal])]

    def infoset_key(self) -> str:
        return f"{self._combo(self._bet.player)}:{self._bet.line}"

    def history(self) -> str:
        if self.deal < 0:
            return ""
        return f"{self.game.labels[self.deal]}:{self._bet.line}"


def holdem_river(board: str | Sequence[int] = BOARD, pot: float = POT, stack: float = STACK,
                 ranges: Sequence[str] = RANGES, bets: str | Sequence[str | BetSize] = BETS,
                 raises: str | Sequence[str | BetSize] = RAISES) -> GameTree:
    """A no-limit hold'em river spot as a :class:`~cfrviz.core.tree.GameTree` (rules:
    :class:`HoldemRiver`): a chance root over the deals, the bet tree under each.

    Parameters
    ----------
    board : str or sequence of int, default ``"Td9d6h4c2s"``
        The five board cards (:func:`~cfrviz.games.holdem.cards.parse_board`).
    pot, stack : float, default 100 and 200
        The starting pot and the effective stack, in chips (> 0).
    ranges : (str, str)
        OOP's and IP's ranges in players' notation
        (:func:`~cfrviz.games.holdem.ranges.parse_range`); combos holding a board card are
        removed.  The default is the reference spot's (208 and 239 combos on its board).
    bets, raises : str or sequence, default ``"50%"`` and ``"2.5x"``
        Sizes (:func:`~cfrviz.games.holdem.bets.parse_sizes`).

    Returns
    -------
    GameTree
        On the reference spot (the defaults) 1,788 information sets; OOP's value is
        -2.783745710 (the sequence-form LP's, ``shared/peers/postflop-river.md``).  Build it
        once: a tree with one bet tree per deal is large.  The reference spot deals 43,604
        pairs into 915,685 nodes (about 6 s and 470 MB); full ranges of 1,081 combos each
        would deal 1,070,190 pairs into 22.5 million nodes, too many for a tree of its own.

    Raises
    ------
    ValueError
        From the board's, the ranges' and the sizes' parsers, unchanged; for ``ranges`` not a
        pair of texts; for ranges that no deal can satisfy (every pair shares a card).
    """
    cards = parse_board(board)
    tree = bet_tree(pot, stack, bets, raises)
    if isinstance(ranges, str) or not isinstance(ranges, Sequence) or len(ranges) != 2:
        raise ValueError(f"ranges must be two ranges, OOP's then IP's, e.g. ('AA-TT,AKs', "
                         f"'QQ-22,AQ'); got {ranges!r}")
    hands = (parse_range(ranges[OOP], cards), parse_range(ranges[IP], cards))
    spot = HoldemRiver(cards, hands, tree)
    return replace(build_tree(spot), outline=str(spot))
