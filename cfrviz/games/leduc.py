"""Leduc hold'em (Southey et al., 2005), the standard two-round test game of poker AI."""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

from ..core.registry import Param
from ..core.tree import CHANCE, GameTree, build_tree

#: Leduc's ranks, low to high.
RANKS = "JQK"
#: Rank labels for ``leduc_poker(ranks=N)``: the N highest of two to king (Leduc's J Q K is
#: N = 3), and with N = 13 a whole suit, two to ace.
LADDER = "23456789TJQK"
FULL_SUIT = "23456789TJQKA"
MIN_RANKS, MAX_RANKS = 2, len(FULL_SUIT)
SUITS = "sh"
#: :func:`leduc_poker`'s parameters as the game registry declares them (``Game(...,
#: params=PARAMS)``): widgets read the bounds, ``load_game`` checks them.
PARAMS = (Param("suits", False, "bool", help="tell the two suits apart (a lossless "
                                             "abstraction deals ranks only)"),
          Param("ranks", 3, "int", low=MIN_RANKS, high=MAX_RANKS, step=1,
                help="ranks in the deck, each in two suits (Leduc has 3: J, Q, K)"))
#: Size of a bet or raise in round one and in round two.
BET_SIZES = (2, 4)
#: Bets plus raises allowed in one round (the opening bet counts as the first).
MAX_RAISES = 2


@dataclass(frozen=True)
class RoundState:
    """Where a limit betting round stands after the moves ``f``/``c``/``r`` so far.

    The first player to act in the round is player 0 (player 1 in the
    docstrings' 1-based wording); players alternate.
    """

    to_act: int
    #: Bets and raises each player has put in this round, in units of the bet size.
    units: tuple[int, int]
    raises: int
    #: The player who folded, or None.
    folder: int | None
    #: True once the round is over (a call, a check behind, or a fold).
    closed: bool

    def legal_actions(self, max_raises: int) -> tuple[str, ...]:
        """``f`` only when facing a bet, ``c`` always, ``r`` while raises remain."""
        facing = self.units[self.to_act] < self.units[1 - self.to_act]
        return (("f",) if facing else ()) + ("c",) + (("r",) if self.raises < max_raises else ())


def betting_round(moves: str) -> RoundState:
    """Replay one limit betting round.

    ``c`` checks or calls: it closes the round unless it is the round's first
    move.  ``r`` bets or raises one unit over the opponent.  ``f`` folds and
    ends the hand.
    """
    units, raises, to_act = [0, 0], 0, 0
    for i, move in enumerate(moves):
        if move == "r":
            units[to_act] = units[1 - to_act] + 1
            raises += 1
        elif move == "c":
            units[to_act] = units[1 - to_act]
            if i > 0:
                return RoundState(1 - to_act, (units[0], units[1]), raises, None, True)
        elif move == "f":
            return RoundState(1 - to_act, (units[0], units[1]), raises, to_act, True)
        else:
            raise ValueError(f"betting move {move!r} in {moves!r}; moves are 'f', 'c' and 'r'")
        to_act = 1 - to_act
    return RoundState(to_act, (units[0], units[1]), raises, None, False)


class LeducPoker:
    """Leduc hold'em: six cards, two betting rounds, one public card.

    Rules.  The deck has six cards, two suits of J < Q < K.  Both players ante
    1 chip and each gets one private card (a chance node deals every ordered
    pair of distinct cards with its exact probability).  A betting round
    follows; player 1 acts first in each round.  A player checks or calls
    (``c``), bets or raises (``r``), or, only when facing a bet, folds
    (``f``).  Bets and raises are 2 chips in round one and 4 in round two;
    at most two per round, counting the opening bet (bet, raise, then only
    call or fold), as in OpenSpiel's ``leduc_poker``.  A round ends when a
    bet is called or both players check.  Then one public card is dealt
    from the four cards left and round two is played the same way.  At the
    showdown a player whose card pairs the public card wins; otherwise the
    higher rank wins; equal ranks split the pot.  A fold loses what the
    folder has put in.  Payoffs are chips won, so the game is zero-sum.

    More ranks.  ``leduc_poker(ranks=N)`` plays the same rules with N ranks
    in two suits (2N cards): the N highest of 2 < 3 < ... < T < J < Q < K
    (``ranks=4`` deals T J Q K), and with N = 13 the whole suit, 2 to A.
    The default, N = 3, is Leduc.  Information sets grow as N (round one)
    plus N² (round two: private and public rank), nodes as N³.

    Suits never change a payoff, so by default (``suits=False``) the cards
    are dealt as ranks (chance probabilities counted over the six cards:
    a pair of jacks is dealt with probability 2/6 * 1/5 = 1/15) and players
    see ranks only; this abstraction is lossless.

    Information-set keys are the player's private card, then the public card
    once dealt, then ``:`` and the betting so far, rounds separated by ``/``:
    ``"Q:"`` (player 1's first decision holding a queen), ``"K:c"``,
    ``"K:cr"``, ``"KQ:rc/"`` (round two, public queen), ``"KQ:rc/r"``.
    Actions are ``"f"``, ``"c"``, ``"r"``, only the legal ones.  With ranks
    there are 288 information sets (3 private ranks x 6 histories in round
    one, plus 3 x 3 public ranks x 5 ways into round two x 6 histories);
    with ``suits=True`` cards are written rank then suit, ``s`` or ``h``
    (``"Ks:"``, ``"KsQh:rc/r"``), and there are 936 information states
    (6 x 6 + 6 x 5 x 5 x 6), the number OpenSpiel reports.  The game is
    worth -0.0856064 to player 1; the uniform random policy is exploitable
    by 2.373611 (NashConv / 2).
    """

    name = "leduc_poker"

    def __init__(self, suits: bool = False, ranks: str = RANKS) -> None:
        self.suits = suits
        self.ranks = ranks
        self.deck = tuple(r + s for r in ranks for s in SUITS) if suits else tuple(ranks * 2)

    def initial_state(self) -> _LeducState:
        return _LeducState(self, None, None, ("",))


@dataclass(frozen=True)
class _LeducState:
    game: LeducPoker
    private: tuple[str, str] | None
    public: str | None
    rounds: tuple[str, ...]

    @property
    def _round(self) -> RoundState:
        return betting_round(self.rounds[-1])

    def _dealt(self) -> tuple[str, str]:
        """The private cards; every decision and payoff comes after the deal at the root."""
        assert self.private is not None, "Leduc deals the private cards at the root"
        return self.private

    def _dealing_public(self) -> bool:
        return len(self.rounds) == 1 and self._round.closed and self._round.folder is None

    def is_terminal(self) -> bool:
        state = self._round
        return state.folder is not None or (len(self.rounds) == 2 and state.closed)

    def current_player(self) -> int:
        if self.private is None or self._dealing_public():
            return CHANCE
        return self._round.to_act

    def legal_actions(self) -> tuple[str, ...]:
        return self._round.legal_actions(MAX_RAISES)

    def _remaining(self) -> list[str]:
        rest = list(self.game.deck)
        for card in self.private or ():
            rest.remove(card)
        return rest

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        # Outcomes are distinct card labels (ranks when suits are ignored), each with
        # the number of physical cards that carry it divided by the cards left.
        rest = self._remaining()
        if self.private is None:
            out: list[tuple[str, float]] = []
            for first in dict.fromkeys(rest):
                others = list(rest)
                others.remove(first)
                for second in dict.fromkeys(others):
                    p = rest.count(first) / len(rest) * others.count(second) / len(others)
                    out.append((first + second, p))
            return tuple(out)
        return tuple((card, rest.count(card) / len(rest)) for card in dict.fromkeys(rest))

    def child(self, action: str) -> _LeducState:
        if self.private is None:
            width = len(action) // 2
            return _LeducState(self.game, (action[:width], action[width:]), None, self.rounds)
        if self._dealing_public():
            return _LeducState(self.game, self.private, action, self.rounds + ("",))
        return _LeducState(self.game, self.private, self.public,
                           self.rounds[:-1] + (self.rounds[-1] + action,))

    def _contributions(self) -> list[int]:
        paid = [1, 1]
        for size, moves in zip(BET_SIZES, self.rounds):
            units = betting_round(moves).units
            paid = [paid[0] + size * units[0], paid[1] + size * units[1]]
        return paid

    def returns(self) -> tuple[float, float]:
        paid = self._contributions()
        folder = self._round.folder
        if folder is not None:
            winner = 1 - folder
        else:
            strength = [self._strength(card) for card in self._dealt()]
            if strength[0] == strength[1]:
                return (0.0, 0.0)
            winner = 0 if strength[0] > strength[1] else 1
        won = paid[1 - winner]
        return (won, -won) if winner == 0 else (-won, won)

    def _strength(self, card: str) -> int:
        assert self.public is not None, "a showdown comes after the public card is dealt"
        pair = card[0] == self.public[0]
        ranks = self.game.ranks
        return (len(ranks) if pair else 0) + ranks.index(card[0])

    def infoset_key(self) -> str:
        own = self._dealt()[self._round.to_act]
        return f"{own}{self.public or ''}:{'/'.join(self.rounds)}"

    def history(self) -> str:
        if self.private is None:
            return ""
        board = f" {self.public}" if self.public else ""
        return f"{''.join(self.private)}{board}:{'/'.join(self.rounds)}"


def rank_labels(ranks: int) -> str:
    """The labels of ``ranks`` ranks, low to high: ``"JQK"`` for 3, ``"TJQK"`` for 4.

    Raises
    ------
    ValueError
        Unless ``ranks`` is a whole number from 2 to 13.
    """
    if (isinstance(ranks, bool) or not isinstance(ranks, Integral)
            or not MIN_RANKS <= ranks <= MAX_RANKS):
        raise ValueError(f"ranks must be a whole number from {MIN_RANKS} to {MAX_RANKS} (Leduc "
                         f"has 3: J, Q, K; 13 is a whole suit, 2 to A); got {ranks!r}")
    return FULL_SUIT if ranks == MAX_RANKS else LADDER[len(LADDER) - int(ranks):]


def leduc_poker(suits: bool = False, ranks: int = 3) -> GameTree:
    """Leduc hold'em as a :class:`~cfrviz.core.tree.GameTree` (rules: :class:`LeducPoker`).

    Parameters
    ----------
    suits : bool, default False
        Tell the two suits apart (936 information sets, 9,451 nodes) instead
        of dealing ranks (288 information sets, 1,936 nodes).  Both give the
        same values; ranks are faster.
    ranks : int, default 3
        Ranks in the deck, from 2 to 13 (:func:`rank_labels`), each in two
        suits: a family of games of growing size with Leduc's rules.  With N
        ranks there are 6N + 30N² information sets when cards are ranks
        (12N + 60N(2N − 1) with suits).

    Raises
    ------
    ValueError
        For ``suits`` not a bool or ``ranks`` outside 2–13.
    """
    if not isinstance(suits, bool):
        raise ValueError(f"suits must be True or False; got {suits!r}")
    return build_tree(LeducPoker(suits, rank_labels(ranks)))
