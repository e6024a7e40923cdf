"""One hand at a time against a bot: dealing, turns, the bot's choices and the score.

The play-against-the-bot table (:class:`cfrviz.widgets.PlayTable`) is a view
over this module.  A :class:`Hand` walks the flat game tree from the root:
chance nodes sample a child by ``chance_prob``, the bot's decision nodes
sample an action from the bot's policy at the node's information set, and a
decision node of the human waits for :meth:`Hand.act`.  Nothing here knows
poker rules, so Kuhn poker, Leduc hold'em and custom games all play; only
:func:`table_cards`, which says which dealt card is whose for display, knows
the built-in card games by name.  A :class:`Table` plays hand after hand with
one seeded ``numpy.random.Generator`` and keeps the score.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np

from ..core.checks import check_flag
from ..core.policy import Policy, check_policy
from ..core.tree import CHANCE, TERMINAL, GameTree, check_two_players
from ..games.matrix import MatrixGame
from .bots import action_kinds, hand_strength
from .match import Z95

#: Readable names of the action kinds of :func:`cfrviz.play.bots.action_kinds`, without and with
#: a bet to face (told apart by whether folding is legal).
_NAMES = {False: {0: "fold", 1: "check", 2: "bet"}, True: {0: "fold", 1: "call", 2: "raise"}}


def action_names(game: GameTree) -> tuple[tuple[str, ...], ...]:
    """Readable names of every information set's actions.

    Poker actions are named by what they do, read from the tree by
    :func:`cfrviz.play.bots.action_kinds`: ``fold``; ``check`` or ``call``;
    ``bet`` or ``raise`` (``call`` and ``raise`` where folding is legal,
    that is when facing a bet).  In Kuhn poker ``p``/``b`` become
    check/bet or fold/call, in Leduc ``f``/``c``/``r`` become fold,
    check or call, bet or raise.  Two actions of one set that would get the
    same name keep their labels in brackets (``bet (b1)``); games without
    chance, whose folds cannot be told from the payoffs, keep their labels.
    """
    return game.cached("action_names", _action_names)


def _action_names(game: GameTree) -> tuple[tuple[str, ...], ...]:
    try:
        kinds = action_kinds(game)
    except ValueError:
        return tuple(tuple(actions) for actions in game.infoset_actions)
    names = []
    for row, actions in enumerate(game.infoset_actions):
        facing = bool(np.any(kinds[row, : len(actions)] == 0))
        words = [_NAMES[facing][int(kind)] for kind in kinds[row, : len(actions)]]
        names.append(tuple(f"{w} ({a})" if words.count(w) > 1 else w
                           for w, a in zip(words, actions)))
    return tuple(names)


@dataclass(frozen=True)
class TableCards:
    """Who holds which dealt card, for display.

    Attributes
    ----------
    private : (tuple of str, tuple of str)
        The cards each player holds (player 1's, player 2's).
    public : tuple of str
        Cards face up on the table.
    """

    private: tuple
    public: tuple


def has_public_cards(game: GameTree) -> bool:
    """Whether :func:`table_cards` may show public cards in this game."""
    return game.name in ("leduc_poker", "pocket_poker")


def table_cards(game: GameTree, dealt) -> TableCards | None:
    """Read the chance outcomes of a hand as private and public cards.

    The built-in card games deal as follows: Kuhn poker and Leduc hold'em
    deal both private cards in one chance event (``"JQ"``, or ``"JsQh"``
    with suits: the first half is player 1's card) and Leduc's public card
    later; pocket poker deals player 1's hand, player 2's hand, then the
    public card.  For any other game there is no general way to tell whose
    outcome is whose, and this returns ``None`` (a view then shows what the
    player knows: its information-set key).

    Parameters
    ----------
    game : GameTree
    dealt : sequence of str
        The chance labels of the hand so far, in order.
    """
    dealt = tuple(dealt)
    if game.name in ("kuhn_poker", "leduc_poker"):
        if not dealt:
            return TableCards(((), ()), ())
        first = dealt[0]
        half = len(first) // 2
        return TableCards(((first[:half],), (first[half:],)), dealt[1:])
    if game.name == "pocket_poker":
        return TableCards((dealt[:1], dealt[1:2]), dealt[2:])
    return None


@dataclass(frozen=True)
class Move:
    """One decision taken in a hand.

    Attributes
    ----------
    player : int
        0 or 1.
    node : int
        The decision node.
    key : str
        The mover's information set.
    action : str
        The action label taken.
    name : str
        Its readable name (:func:`action_names`).
    by_bot : bool
    """

    player: int
    node: int
    key: str
    action: str
    name: str
    by_bot: bool


@dataclass(frozen=True)
class BotDecision:
    """What the bot's strategy said at one of its decisions.

    Attributes
    ----------
    node, infoset : int
    key : str
        The bot's information set.
    action : str
        The label it sampled.
    probability : float
        The probability its strategy gave that action.
    strategy : dict of str to float
        Its whole strategy there, ``{action label: probability}``.
    """

    node: int
    infoset: int
    key: str
    action: str
    probability: float
    strategy: dict


def _tree(game) -> GameTree:
    if isinstance(game, MatrixGame):
        return game.tree  # same keys and actions, so the policies carry over
    if not isinstance(game, GameTree):
        raise ValueError(f"playing a hand needs a game such as cfrviz.load_game('kuhn_poker'); "
                         f"got {type(game).__name__}")
    check_two_players(game, "playing a hand", "a human takes one seat against one bot",
                      instead="cfrviz.deviation_gains(game, policy) to see who gains by "
                              "deviating")
    return game


def _check_seat(human) -> int:
    if isinstance(human, bool) or not isinstance(human, Integral) or human not in (0, 1):
        raise ValueError(f"human must be 0 (player 1) or 1 (player 2); got {human!r}")
    return int(human)


def _sample(rng: np.random.Generator, weights: np.ndarray) -> int:
    """Index drawn with probability proportional to ``weights`` (inverse CDF, one uniform)."""
    cum = np.cumsum(weights)
    index = int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))
    positive = np.flatnonzero(weights > 0)
    return int(np.clip(index, positive[0], positive[-1]))  # guards rounding at the ends


class Hand:
    """One hand between a human and a bot, stepped through the game tree.

    Creating a hand deals it: play runs through chance and the bot's
    decisions until the human must act (or the hand is over).

    Parameters
    ----------
    game : GameTree or MatrixGame
    bot : Policy
        The bot plays its seat's information sets with these probabilities.
    human : int
        The human's seat: 0 (player 1) or 1 (player 2).
    rng : numpy.random.Generator
        Every random draw of the hand, chance and bot alike.
    names : tuple, optional
        Readable action names per information set (default :func:`action_names`).

    Attributes
    ----------
    node : int
        Where the hand stands.
    moves : list of Move
        Every decision so far, the human's and the bot's.
    dealt : list of str
        Chance outcome labels so far.
    decisions : list of BotDecision
        The bot's decisions, with its strategy at each.
    """

    def __init__(self, game, bot: Policy, human: int = 0, rng: np.random.Generator | None = None,
                 names=None):
        self.game = _tree(game)
        check_policy(self.game, bot, "the bot")
        self.bot = bot
        self.human = _check_seat(human)
        if rng is None:
            raise ValueError("a hand needs a numpy.random.Generator: np.random.default_rng(seed)")
        self.rng = rng
        self.names = action_names(self.game) if names is None else names
        self.node = 0
        self.moves: list[Move] = []
        self.dealt: list[str] = []
        self.decisions: list[BotDecision] = []
        self._advance()

    # -- state -----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.game.player[self.node] == TERMINAL)

    @property
    def to_act(self) -> int | None:
        """The player to act (0 or 1), or ``None`` once the hand is over."""
        return None if self.over else int(self.game.player[self.node])

    @property
    def infoset(self) -> int:
        """The human's information set while it is their turn (-1 otherwise)."""
        return int(self.game.infoset[self.node]) if self.to_act == self.human else -1

    def legal_actions(self) -> tuple[str, ...]:
        """The human's action labels, or ``()`` when it is not their turn."""
        row = self.infoset
        return () if row < 0 else tuple(self.game.infoset_actions[row])

    def legal_names(self) -> tuple[str, ...]:
        """Readable names of :meth:`legal_actions`."""
        row = self.infoset
        return () if row < 0 else tuple(self.names[row])

    def known_to(self, player: int) -> str:
        """What ``player`` knows now: the key of their latest information set, if any."""
        if self.to_act == player:
            return self.game.infoset_keys[self.game.infoset[self.node]]
        keys = [m.key for m in self.moves if m.player == player]
        return keys[-1] if keys else ""

    def cards(self) -> TableCards | None:
        """Private and public cards so far (see :func:`table_cards`)."""
        return table_cards(self.game, self.dealt)

    @property
    def payoffs(self) -> tuple[float, float]:
        """Both players' payoffs; only once the hand is over."""
        if not self.over:
            raise ValueError("the hand is not over yet: no payoffs")
        u = self.game.utility[self.node]
        return float(u[0]), float(u[1])

    @property
    def payoff(self) -> float:
        """The human's payoff; only once the hand is over."""
        return self.payoffs[self.human]

    @property
    def folded(self) -> int | None:
        """The player whose last action was a fold, ending the hand, or ``None``."""
        if not self.over or not self.moves:
            return None
        last = self.moves[-1]
        return last.player if last.name == "fold" else None

    # -- stepping -----------------------------------------------------------------------------
    def act(self, action: str) -> None:
        """Play the human's action (its label, e.g. ``"b"``, or its name, e.g. ``"bet"``).

        Raises
        ------
        ValueError
            When the hand is over or the action is not legal here, naming the
            legal ones.
        """
        if self.over:
            raise ValueError("this hand is over: deal a new one")
        if self.to_act != self.human:  # cannot happen: the hand always runs to the human's turn
            raise ValueError("it is not your turn")
        actions, names = self.legal_actions(), self.legal_names()
        if action in actions:
            index = actions.index(action)
        elif action in names:
            index = names.index(action)
        else:
            options = ", ".join(f"{n!r}" if n == a else f"{n!r} ({a!r})"
                                for a, n in zip(actions, names))
            raise ValueError(f"{action!r} is not a legal action at "
                             f"{self.known_to(self.human)!r}; legal: {options}")
        self._move(index, by_bot=False)
        self._advance()

    def _move(self, index: int, by_bot: bool) -> None:
        node = self.node
        row = int(self.game.infoset[node])
        self.moves.append(Move(int(self.game.player[node]), node, self.game.infoset_keys[row],
                               self.game.infoset_actions[row][index], self.names[row][index],
                               by_bot))
        self.node = int(self.game.children[node][index])

    def _advance(self) -> None:
        """Play chance and the bot until the human must act or the hand ends."""
        game = self.game
        while True:
            node = self.node
            who = int(game.player[node])
            if who == TERMINAL or who == self.human:
                return
            children = game.children[node]
            if who == CHANCE:
                pick = _sample(self.rng, game.chance_prob[children])
                self.dealt.append(game.chance_labels[node][pick])
                self.node = int(children[pick])
                continue
            row = int(game.infoset[node])
            actions = game.infoset_actions[row]
            probs = self.bot.probabilities[row, : len(actions)]
            pick = _sample(self.rng, probs)
            self.decisions.append(BotDecision(
                node, row, game.infoset_keys[row], actions[pick], float(probs[pick]),
                {a: float(p) for a, p in zip(actions, probs)}))
            self._move(pick, by_bot=True)

    def __repr__(self) -> str:
        player = self.to_act
        state = "over" if player is None else f"player {player + 1} to act"
        return f"Hand({self.game.name}: {self.game.history[self.node]!r}, {state})"


def explain(hand: Hand, strength=None) -> list[str]:
    """One plain sentence per bot decision of a hand: its information set, choice and strategy.

    Example: ``"At 'Jp' the bot chose bet (probability 0.33; its strategy
    there: check 0.67, bet 0.33). A bluff: with this hand it loses more than
    it wins if nobody bets."``  The last sentence is added to a bet or raise
    with a hand of negative strength (see :func:`cfrviz.play.bots.hand_strength`)
    when ``strength`` is given.

    Parameters
    ----------
    hand : Hand
    strength : array of float, optional
        :func:`cfrviz.play.bots.hand_strength` of the game, per information set.
    """
    lines = []
    for d in hand.decisions:
        names = hand.names[d.infoset]
        actions = hand.game.infoset_actions[d.infoset]
        name = names[actions.index(d.action)]
        mix = ", ".join(f"{n} {d.strategy[a]:.2f}" for a, n in zip(actions, names))
        line = (f"At {d.key!r} the bot chose {name} (probability {d.probability:.2f}; "
                f"its strategy there: {mix}).")
        if (strength is not None and name.split(" ")[0] in ("bet", "raise")
                and strength[d.infoset] < -1e-9):
            line += " A bluff: with this hand it loses more than it wins if nobody bets."
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Score:
    """The human's results so far, per hand.

    Attributes
    ----------
    hands : int
    total : float
    mean : float
        Mean payoff per hand (NaN before the first hand).
    half_width : float
        Half the width of the 95% confidence interval ``mean ± 1.96 s / sqrt(n)``,
        ``s`` the sample standard deviation (NaN before two hands).
    """

    hands: int
    total: float
    mean: float
    half_width: float

    @property
    def ci(self) -> tuple[float, float]:
        return self.mean - self.half_width, self.mean + self.half_width


def score(payoffs) -> Score:
    """Mean payoff per hand with a 95% confidence interval (normal approximation).

    With few hands the interval is wide and only roughly 95%: the normal
    approximation behind ``1.96 s / sqrt(n)`` needs many hands.
    """
    x = np.asarray(payoffs, dtype=float)
    n = len(x)
    mean = float(x.mean()) if n else float("nan")
    half = float(Z95 * x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return Score(n, float(x.sum()), mean, half)


class Table:
    """Hand after hand against one bot, with seats that can switch and a running score.

    Parameters
    ----------
    game : GameTree or MatrixGame
    bot : Policy
    human : int
        The human's seat in the first hand.
    seed : int or numpy.random.Generator
        Seeds every card and every bot choice of the session.
    switch_seats : bool
        Change seats after every hand (both seats are dealt equally often,
        which matters: most poker games favour one seat).

    Attributes
    ----------
    hand : Hand or None
        The hand being played, or the last one.
    results : list of (int, float)
        ``(seat, payoff)`` of every finished hand against the current bot.
    """

    def __init__(self, game, bot: Policy, human: int = 0, seed=0, switch_seats: bool = True):
        self.game = _tree(game)
        check_policy(self.game, bot, "the bot")
        self.bot = bot
        self.seat = _check_seat(human)
        if isinstance(seed, np.random.Generator):
            self.rng = seed
        elif isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer or a numpy Generator; "
                             f"got {seed!r}")
        else:
            self.rng = np.random.default_rng(int(seed))
        self.switch_seats = check_flag(switch_seats, "switch_seats")
        self.names = action_names(self.game)
        self.strength = self.game.cached("hand_strength", _strength)
        self.hand: Hand | None = None
        self.results: list[tuple[int, float]] = []

    @property
    def playing(self) -> bool:
        """Whether a hand is waiting for the human."""
        return self.hand is not None and not self.hand.over

    def deal(self) -> Hand:
        """Start a new hand (the seat switches first if asked and a hand was played).

        A hand still running is abandoned and not scored.
        """
        if self.hand is not None and self.switch_seats:
            self.seat = 1 - self.seat
        hand = Hand(self.game, self.bot, self.seat, self.rng, self.names)
        self.hand = hand
        self._record(hand)
        return hand

    def act(self, action: str) -> Hand:
        """Play the human's action in the current hand (see :meth:`Hand.act`)."""
        if self.hand is None:
            raise ValueError("no hand is running: deal first")
        self.hand.act(action)
        self._record(self.hand)
        return self.hand

    def set_bot(self, bot: Policy) -> None:
        """Play a new bot from the next hand on; the score starts again.

        A hand already running finishes against the old bot and is not scored.
        """
        check_policy(self.game, bot, "the bot")
        self.bot = bot
        self.results = []

    def score(self) -> Score:
        return score([payoff for _, payoff in self.results])

    def explain(self) -> list[str]:
        """:func:`explain` for the current hand."""
        return [] if self.hand is None else explain(self.hand, self.strength)

    def _record(self, hand: Hand) -> None:
        if hand.over and hand.bot is self.bot:
            self.results.append((hand.human, hand.payoff))


def _strength(game: GameTree):
    try:
        return hand_strength(game)
    except ValueError:  # no chance node: no hand strength, no bluffs
        return np.zeros(game.num_infosets)
