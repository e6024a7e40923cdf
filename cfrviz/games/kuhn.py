"""Kuhn poker (H. W. Kuhn, 1950), the smallest poker worth solving."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from ..core.tree import CHANCE, GameTree, build_tree

CARDS = "JQK"
RANK = {c: i for i, c in enumerate(CARDS)}
TERMINAL_HISTORIES = ("pp", "bp", "bb", "pbp", "pbb")


class KuhnPoker:
    """Kuhn poker: three cards J < Q < K, one each, ante 1, one bet of 1.

    Rules.  Both players ante 1 and get one card of J, Q, K (a chance node
    deals all six ordered pairs with probability 1/6).  Player 1 passes
    (``p``, a check) or bets 1 (``b``).  After a pass, player 2 may pass
    (showdown for the antes) or bet; facing a bet, a player folds (``p``)
    or calls (``b``); a call goes to showdown for 2 each.  The higher card
    wins the pot.

    Information sets are the player's card followed by the public history,
    e.g. ``"K"``, ``"Qp"``, ``"Jpb"``; actions ``"p"`` and ``"b"``.  The game
    is worth -1/18 to player 1.
    """

    name = "kuhn_poker"

    def initial_state(self) -> _KuhnState:
        return _KuhnState(None, "")


@dataclass(frozen=True)
class _KuhnState:
    cards: str | None
    moves: str

    def is_terminal(self) -> bool:
        return self.moves in TERMINAL_HISTORIES

    def current_player(self) -> int:
        return CHANCE if self.cards is None else len(self.moves) % 2

    def legal_actions(self) -> tuple[str, ...]:
        return ("p", "b")

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return tuple(("".join(pair), 1 / 6) for pair in permutations(CARDS, 2))

    def child(self, action: str) -> _KuhnState:
        if self.cards is None:
            return _KuhnState(action, "")
        return _KuhnState(self.cards, self.moves + action)

    def _dealt(self) -> str:
        """Both players' cards; payoffs and information sets come after the deal at the root."""
        assert self.cards is not None, "Kuhn poker deals the cards at the root, before any move"
        return self.cards

    def returns(self) -> tuple[float, float]:
        cards = self._dealt()
        winner = 0 if RANK[cards[0]] > RANK[cards[1]] else 1
        if self.moves == "bp":
            winner, stake = 0, 1
        elif self.moves == "pbp":
            winner, stake = 1, 1
        else:
            stake = 2 if self.moves in ("bb", "pbb") else 1
        return (stake, -stake) if winner == 0 else (-stake, stake)

    def infoset_key(self) -> str:
        return self._dealt()[self.current_player()] + self.moves

    def history(self) -> str:
        return "" if self.cards is None else f"{self.cards}:{self.moves}"


def kuhn_poker() -> GameTree:
    """Kuhn poker as a :class:`~cfrviz.core.tree.GameTree` (rules: :class:`KuhnPoker`)."""
    return build_tree(KuhnPoker())
