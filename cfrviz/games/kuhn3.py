"""Kuhn poker for more than two players, as OpenSpiel defines it (``kuhn_poker(players=3)``).

Three-player Kuhn poker is the smallest poker game in which counterfactual regret
minimization has no Nash guarantee; Szafron, Gibson and Sturtevant (AAMAS 2013) describe
its family of equilibria.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from ..core.tree import CHANCE, GameTree, build_tree

#: Card labels, lowest first: ``players + 1`` of them from the top (J Q K A for three players).
LABELS = "TJQKA"


class KuhnPokerN:
    """Kuhn poker for ``players`` players (2 to 4), with OpenSpiel's rules.

    Rules (OpenSpiel's ``kuhn_poker`` with ``players=N``).  A deck of N + 1
    cards (for three players J < Q < K < A); everyone antes 1 and gets one
    card (one chance node deals every ordered hand with equal probability,
    24 for three players).  Players act in turn, first player first: pass
    (``p``) or bet 1 (``b``).  If all N pass, the highest card of all wins
    the pot of N.  Once someone has bet, every other player acts once more,
    in turn from the bettor's left round to the player before the bettor:
    pass (fold) or bet (call) 1.  The highest card among the bettor and
    the callers wins the pot; each player's payoff is the pot minus its own
    stake if it wins, minus its stake otherwise (stake 2 if it bet or
    called, else 1).

    Information sets are the player's card followed by the public moves,
    e.g. ``"A"``, ``"Jp"``, ``"Qpb"``; actions ``"p"`` and ``"b"``.
    With two players this is the same game as :class:`~cfrviz.games.kuhn.KuhnPoker`
    (cards Q < K < A instead of J < Q < K).
    """

    def __init__(self, players: int = 3) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"Kuhn poker here takes 2 to 4 players; got players={players!r}")
        self.num_players = players
        self.cards = LABELS[len(LABELS) - players - 1:]
        self.name = "kuhn_poker" if players == 2 else f"kuhn_poker_{players}p"

    def initial_state(self) -> KuhnNState:
        return KuhnNState(self, None, "")


@dataclass(frozen=True)
class KuhnNState:
    """A state of :class:`KuhnPokerN`: the dealt hand (None before the deal) and the moves."""

    game: KuhnPokerN
    hand: str | None
    moves: str

    @property
    def _n(self) -> int:
        return self.game.num_players

    def _first_bettor(self) -> int | None:
        at = self.moves.find("b")
        return None if at < 0 else at

    def is_terminal(self) -> bool:
        if self.hand is None:
            return False
        first = self._first_bettor()
        if first is None:
            return len(self.moves) == self._n
        return len(self.moves) == self._n + first

    def current_player(self) -> int:
        return CHANCE if self.hand is None else len(self.moves) % self._n

    def legal_actions(self) -> tuple[str, ...]:
        return ("p", "b")

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        hands = ["".join(hand) for hand in permutations(self.game.cards, self._n)]
        return tuple((hand, 1 / len(hands)) for hand in hands)

    def child(self, action: str) -> KuhnNState:
        if self.hand is None:
            return KuhnNState(self.game, action, "")
        return KuhnNState(self.game, self.hand, self.moves + action)

    def _dealt(self) -> str:
        assert self.hand is not None, "Kuhn poker deals the cards at the root, before any move"
        return self.hand

    def _bet(self, player: int, first: int) -> bool:
        """Whether ``player`` put a second chip in, once ``first`` opened the betting
        (OpenSpiel's ``DidBet``): the bettor did; a player after it answered in the first
        round, a player before it in the second."""
        if player == first:
            return True
        at = player if player > first else self._n + player
        return self.moves[at] == "b"

    def returns(self) -> tuple[float, ...]:
        hand, n = self._dealt(), self._n
        rank = self.game.cards.index
        first = self._first_bettor()
        stakes = [1.0] * n if first is None else \
            [2.0 if self._bet(p, first) else 1.0 for p in range(n)]
        contenders = [p for p in range(n) if first is None or stakes[p] == 2.0]
        winner = max(contenders, key=lambda p: rank(hand[p]))
        pot = sum(stakes)
        return tuple(pot - stakes[p] if p == winner else -stakes[p] for p in range(n))

    def infoset_key(self) -> str:
        return self._dealt()[self.current_player()] + self.moves

    def history(self) -> str:
        return "" if self.hand is None else f"{self.hand}:{self.moves}"


def kuhn_poker_3p() -> GameTree:
    """Three-player Kuhn poker as a :class:`~cfrviz.core.tree.GameTree` (rules:
    :class:`KuhnPokerN`; OpenSpiel's ``kuhn_poker`` with ``players=3``)."""
    return build_tree(KuhnPokerN(3))
