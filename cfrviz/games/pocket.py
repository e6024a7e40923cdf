"""Pocket poker: the course slides' 20-card game with two private cards and one public card."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..core.tree import CHANCE, GameTree, build_tree
from .leduc import betting_round

RANKS = "TJQKA"
COPIES = 4
BET = 2
MAX_RAISES = 2


def hand_strength(cards: str) -> tuple[int, ...]:
    """Showdown strength of three ranks (two private cards and the public card).

    A larger tuple wins: ``(2, trips)``, ``(1, pair, kicker)`` or
    ``(0, highest, middle, lowest)``, ranks as indices into ``RANKS``.
    """
    ranks = sorted((RANKS.index(c) for c in cards), reverse=True)
    counts = Counter(ranks)
    if len(counts) == 1:
        return (2, ranks[0])
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return (1, pair, kicker)
    return (0, *ranks)


class PocketPoker:
    """Pocket poker: 20 cards, two private cards each, one public card, one betting round.

    Rules.  The deck has five ranks, T < J < Q < K < A, in four suits.
    Both players ante 1 chip.  Chance deals, in this order, player 1's two
    cards, player 2's two cards and one public card, which is turned face
    up before the betting, so both players see it.  One betting round
    follows, player 1 first: check or call (``c``), bet or raise 2 chips
    (``r``), or, only when facing a bet, fold (``f``).  At most two bets
    per round counting the opening bet (bet, raise, then only call or
    fold), the same limit as each round of :class:`~cfrviz.games.leduc.LeducPoker`.
    The round ends when a bet is called or both players check; a fold
    loses what the folder has put in.

    Showdown.  Each player's hand is their two cards with the public card.
    Three of a kind beats a pair, which beats a high card (no straights or
    flushes).  Between two hands of the same kind: three of a kind by its
    rank; a pair by the rank of the pair, then by the third card (the
    kicker); high cards by the highest rank, then the second, then the
    third.  Hands equal in all of these split the pot (payoff 0).  Payoffs
    are chips won, so the game is zero-sum.

    Suits never decide anything, so the game is built on ranks: a hand is a
    multiset of two ranks written high card first (``"AK"``, ``"QQ"``), and
    each chance outcome has its exact probability counted over the 20
    labelled cards (player 1 gets ``"AK"`` with probability
    2 * 4 * 4 / (20 * 19) = 8/95).  This abstraction is lossless: players
    who could see suits could not play better.

    Information-set keys are the player's hand, ``|``, the public card,
    ``:`` and the betting: ``"AK|Q:"`` (player 1's decision), ``"AK|Q:c"``,
    ``"AK|Q:cr"``; actions ``"f"``, ``"c"``, ``"r"`` as in Leduc.  The tree
    has 17,041 nodes and 450 information sets (15 hands x 5 public ranks x
    3 decision points per player).
    """

    name = "pocket_poker"

    def initial_state(self) -> _PocketState:
        return _PocketState((), "")


@dataclass(frozen=True)
class _PocketState:
    #: Dealt so far: player 1's hand, player 2's hand, the public rank.
    dealt: tuple[str, ...]
    moves: str

    def is_terminal(self) -> bool:
        state = betting_round(self.moves)
        return len(self.dealt) == 3 and state.closed

    def current_player(self) -> int:
        return CHANCE if len(self.dealt) < 3 else betting_round(self.moves).to_act

    def legal_actions(self) -> tuple[str, ...]:
        return betting_round(self.moves).legal_actions(MAX_RAISES)

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        used = Counter("".join(self.dealt))
        left = {r: COPIES - used[r] for r in RANKS}
        total = sum(left.values())
        if len(self.dealt) == 2:
            return tuple((r, n / total) for r, n in left.items() if n)
        pairs = total * (total - 1)
        out: list[tuple[str, float]] = []
        for i, high in enumerate(RANKS):
            for low in RANKS[: i + 1]:
                ways = left[high] * (left[high] - 1) if high == low else 2 * left[high] * left[low]
                if ways:
                    out.append((high + low, ways / pairs))
        return tuple(out)

    def child(self, action: str) -> _PocketState:
        if len(self.dealt) < 3:
            return _PocketState(self.dealt + (action,), "")
        return _PocketState(self.dealt, self.moves + action)

    def returns(self) -> tuple[float, float]:
        state = betting_round(self.moves)
        paid = [1 + BET * u for u in state.units]
        if state.folder is not None:
            winner = 1 - state.folder
        else:
            mine, theirs = (hand_strength(hand + self.dealt[2]) for hand in self.dealt[:2])
            if mine == theirs:
                return (0.0, 0.0)
            winner = 0 if mine > theirs else 1
        won = paid[1 - winner]
        return (won, -won) if winner == 0 else (-won, won)

    def infoset_key(self) -> str:
        hand = self.dealt[betting_round(self.moves).to_act]
        return f"{hand}|{self.dealt[2]}:{self.moves}"

    def history(self) -> str:
        hands = ",".join(self.dealt[:2])
        return hands if len(self.dealt) < 3 else f"{hands}|{self.dealt[2]}:{self.moves}"


def pocket_poker() -> GameTree:
    """Pocket poker as a :class:`~cfrviz.core.tree.GameTree` (rules: :class:`PocketPoker`)."""
    return build_tree(PocketPoker())
