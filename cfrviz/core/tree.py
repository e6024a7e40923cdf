"""One game tree for everything: a game walked once into flat numpy arrays.

A game *definition* describes the rules (see :class:`GameDefinition`); :func:`build_tree`
walks it once, depth first, into a :class:`GameTree`.  Node ids are positions in the
arrays, parents come before children, and the information-set table lists every
decision point a player can tell apart.  Solvers, evaluation, rendering and widgets
all speak these node ids and information-set ids.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, cast

import numpy as np

from .types import BoolArray, FloatArray, GameLike, IntArray

CHANCE = -1
TERMINAL = -2

T = TypeVar("T")


class GameState(Protocol):
    """What :func:`build_tree` needs from a state of a game definition."""

    def is_terminal(self) -> bool: ...
    def current_player(self) -> int: ...            # 0 .. players - 1, or CHANCE
    def legal_actions(self) -> tuple[str, ...]: ...  # action labels at a decision
    def chance_outcomes(self) -> tuple[tuple[str, float], ...]: ...
    def child(self, action: str) -> GameState: ...
    def returns(self) -> tuple[float, ...]: ...      # one payoff per player
    def infoset_key(self) -> str: ...
    def history(self) -> str: ...


class GameDefinition(Protocol):
    """A game's rules: a name and the initial state.  A definition for more than two players
    also says how many, as an attribute ``num_players`` (two when absent)."""

    name: str

    def initial_state(self) -> GameState: ...


@dataclass(frozen=True, eq=False)
class GameTree:
    """A finite game in extensive form (two players, or more), as flat read-only arrays.

    Attributes
    ----------
    name : str
    parent : int array, shape (nodes,)
        Parent node id, -1 at the root.  Parents precede their children.
    action : int array
        Index of the action (or chance outcome) that leads from the parent here.
    player : int array
        The acting player (0, 1, ... ``num_players - 1``) at a decision, ``CHANCE`` (-1)
        or ``TERMINAL`` (-2).
    chance_prob : float array
        Probability of the chance outcome leading here (1 below a decision node).
    utility : float array, shape (nodes, num_players)
        Payoffs at terminal nodes (0 elsewhere); two columns for a two-player game.
    infoset : int array
        Information-set id of a decision node, -1 elsewhere.
    depth : int array
    children : tuple of int arrays
        Child node ids of each node, in action order.
    history : tuple of str
        A readable history per node (for hover text and error messages).
    infoset_keys, infoset_player, infoset_actions, legal_mask
        The information-set table.
    chance_labels : tuple of tuple of str
        Outcome labels of each chance node (empty elsewhere).
    description : str
    params : dict or None
        The parameters :func:`cfrviz.load_game` built the game with (so a
        saved trace can rebuild it); ``None`` for a tree built otherwise.
    outline : str
        What ``str(tree)`` (``print``) shows below the counts, from the game's
        builder: a hold'em river spot's board, ranges and bet tree's lines.
        Empty for most games, whose ``str`` is their ``repr``.
    memo : dict
        Values derived from the tree and computed once (the compiled plan,
        readable names of actions, ...), through :meth:`cached` only.  The
        tree is immutable, so a derived value never goes stale.
    """

    name: str
    parent: IntArray
    action: IntArray
    player: IntArray
    chance_prob: FloatArray
    utility: FloatArray
    infoset: IntArray
    depth: IntArray
    children: tuple[IntArray, ...]
    history: tuple[str, ...]
    infoset_keys: tuple[str, ...]
    infoset_player: IntArray
    infoset_actions: tuple[tuple[str, ...], ...]
    legal_mask: BoolArray
    chance_labels: tuple[tuple[str, ...], ...]
    description: str = ""
    params: Mapping[str, object] | None = None
    outline: str = ""
    memo: dict[str, object] = field(default_factory=dict, init=False, repr=False,
                                    compare=False)

    def __post_init__(self) -> None:
        for name in ("parent", "action", "player", "chance_prob", "utility", "infoset", "depth",
                     "infoset_player", "legal_mask"):
            getattr(self, name).setflags(write=False)

    @property
    def num_nodes(self) -> int:
        return len(self.parent)

    @property
    def num_infosets(self) -> int:
        return len(self.infoset_keys)

    @property
    def num_players(self) -> int:
        """How many players: the columns of :attr:`utility` (2 for every two-player game)."""
        players: int = self.utility.shape[1]
        return players

    @property
    def max_actions(self) -> int:
        width: int = self.legal_mask.shape[1]
        return width

    def infoset_index(self, key: str) -> int:
        """Index of an information set, with an error that lists some valid keys."""
        try:
            return self._key_index[key]
        except KeyError:
            sample = ", ".join(repr(k) for k in self.infoset_keys[:8])
            raise ValueError(f"{self.name} has no information set {key!r}; it has "
                             f"{self.num_infosets}, such as {sample}") from None

    @property
    def _key_index(self) -> dict[str, int]:
        return self.cached("key_index", lambda tree: {k: i for i, k in
                                                      enumerate(tree.infoset_keys)})

    def cached(self, name: str, compute: Callable[[GameTree], T]) -> T:
        """``compute(tree)``, computed on first use and kept in :attr:`memo` under ``name``.

        The one place where values derived from a tree are stored: modules
        never attach attributes of their own to the (frozen) tree.
        """
        if name not in self.memo:
            self.memo[name] = compute(self)
        # The memo holds values of many types; each name is only ever stored by ``compute``.
        return cast(T, self.memo[name])

    def levels(self) -> list[IntArray]:
        """Node ids grouped by depth, root first (computed once)."""
        def compute(tree: GameTree) -> list[IntArray]:
            order = np.argsort(tree.depth, kind="stable")
            bounds = np.searchsorted(tree.depth[order], np.arange(int(np.max(tree.depth)) + 2))
            return [order[bounds[d]:bounds[d + 1]] for d in range(int(np.max(tree.depth)) + 1)]
        return self.cached("levels", compute)

    def infoset_members(self, infoset: int) -> IntArray:
        """Node ids of the members of one information set."""
        return np.flatnonzero(self.infoset == infoset)

    def __repr__(self) -> str:
        return (f"GameTree({self.name!r}: {self.num_nodes} nodes, {self.num_infosets} "
                f"information sets, {int(np.sum(self.player == TERMINAL))} terminals)")

    def __str__(self) -> str:
        return f"{self!r}\n{self.outline}" if self.outline else repr(self)


def as_tree(game: object, what: str = "this") -> GameTree:
    """The game tree behind a game: a :class:`GameTree` itself, or a matrix game's two-move tree.

    Parameters
    ----------
    game : GameTree or MatrixGame
    what : str
        Who asks, for the message (e.g. ``"the explorer"``).

    Raises
    ------
    ValueError
        For anything that is not a game from :func:`cfrviz.load_game`.
    """
    tree = getattr(game, "tree", game)  # a MatrixGame exposes its extensive form as .tree
    if not isinstance(tree, GameTree):
        raise ValueError(f"{what} needs a game from cfrviz.load_game (a GameTree or a MatrixGame, "
                         f"e.g. kuhn_poker); got {getattr(game, 'name', type(game).__name__)!r}")
    return tree


def build_tree(definition: GameDefinition) -> GameTree:
    """Walk a game definition once into a :class:`GameTree`.

    Iterative (a stack, no recursion, so any depth), with work per node linear in
    its number of children.

    Raises
    ------
    ValueError
        When chance probabilities do not sum to 1, or the nodes of one
        information set disagree on the player or the actions, or a player or
        a payoff vector does not fit the definition's ``num_players`` (two when
        it declares none), naming the history at fault.
    """
    players = getattr(definition, "num_players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or players < 2:
        raise ValueError(f"{definition.name}: num_players must be a whole number >= 2; got "
                         f"{players!r}")
    built = _Builder(definition, players)
    add, terminal, chance, decision = built.add, built.terminal, built.chance, built.decision
    stack = [(definition.initial_state(), -1, -1, 1.0, 0)]
    while stack:
        state, par, act, prob, d = stack.pop()
        node = add(state, par, act, prob, d)
        if state.is_terminal():
            terminal(state)
            continue
        who = state.current_player()
        labels, probabilities = chance(state) if who == CHANCE else decision(state, who)
        for i in reversed(range(len(labels))):
            stack.append((state.child(labels[i]), node, i, probabilities[i], d + 1))
    return built.tree()


class _Builder:
    """The growing columns of a :class:`GameTree`, one row per node in depth-first order, and
    the information-set table; each kind of node checked as it is added."""

    def __init__(self, definition: GameDefinition, players: int) -> None:
        self.definition, self.players = definition, players
        self.parent: list[int] = []
        self.action: list[int] = []
        self.player: list[int] = []
        self.chance_prob: list[float] = []
        self.utility: list[tuple[float, ...]] = []
        self.infoset: list[int] = []
        self.depth: list[int] = []
        self.children: list[list[int]] = []
        self.history: list[str] = []
        self.keys: dict[str, int] = {}
        self.key_player: list[int] = []
        self.key_actions: list[tuple[str, ...]] = []
        self.chance_labels: list[tuple[str, ...]] = []
        self.nothing = (0.0,) * players

    def add(self, state: GameState, par: int, act: int, prob: float, d: int) -> int:
        """A new node's row (its kind filled in by :meth:`terminal`, :meth:`chance` or
        :meth:`decision`); returns its id."""
        node = len(self.parent)
        self.parent.append(par)
        self.action.append(act)
        self.chance_prob.append(prob)
        self.depth.append(d)
        self.history.append(state.history())
        self.children.append([])
        if par >= 0:
            self.children[par].append(node)
        return node

    def terminal(self, state: GameState) -> None:
        self.player.append(TERMINAL)
        self.infoset.append(-1)
        self.chance_labels.append(())
        returns = tuple(float(r) for r in state.returns())
        if len(returns) != self.players or not all(map(math.isfinite, returns)):  # not numpy
            count = "two" if self.players == 2 else str(self.players)
            raise ValueError(f"{_where(self.definition, self.history)}: terminal payoffs must be "
                             f"{count} finite numbers; got {returns}")
        self.utility.append(returns)

    def chance(self, state: GameState) -> tuple[tuple[str, ...], tuple[float, ...]]:
        """Checks a chance node's outcomes; returns their labels and probabilities."""
        outcomes = tuple(state.chance_outcomes())
        total = sum(p for _, p in outcomes)
        if not outcomes or abs(total - 1.0) > 1e-9 or any(p < 0 for _, p in outcomes):
            raise ValueError(f"{_where(self.definition, self.history)}: chance probabilities "
                             f"must be >= 0 and sum to 1; they sum to {total}")
        self.utility.append(self.nothing)
        self.player.append(CHANCE)
        self.infoset.append(-1)
        labels = tuple(label for label, _ in outcomes)
        self.chance_labels.append(labels)
        return labels, tuple(float(p) for _, p in outcomes)

    def decision(self, state: GameState, who: int) -> tuple[tuple[str, ...], tuple[float, ...]]:
        """Checks a decision node against its information set; returns its actions, each with
        probability 1 (the chance probability of a node below a decision)."""
        if who not in range(self.players):
            named = "0, 1" if self.players == 2 else f"0 .. {self.players - 1}"
            raise ValueError(f"{_where(self.definition, self.history)}: current player must be "
                             f"{named} or chance; got {who!r}")
        actions = tuple(state.legal_actions())
        key = state.infoset_key()
        index = self.keys.setdefault(key, len(self.keys))
        if index == len(self.key_player):
            self.key_player.append(who)
            self.key_actions.append(actions)
        elif self.key_player[index] != who or self.key_actions[index] != actions:
            raise ValueError(f"{_where(self.definition, self.history)}: information set {key!r} "
                             f"mixes nodes that disagree (player {self.key_player[index] + 1} "
                             f"with actions {list(self.key_actions[index])} elsewhere, player "
                             f"{who + 1} with {list(actions)} here)")
        self.utility.append(self.nothing)
        self.player.append(who)
        self.infoset.append(index)
        self.chance_labels.append(())
        return actions, (1.0,) * len(actions)

    def tree(self) -> GameTree:
        width = max((len(a) for a in self.key_actions), default=1)
        mask = np.zeros((len(self.keys), width), dtype=bool)
        for i, actions in enumerate(self.key_actions):
            mask[i, : len(actions)] = True
        # Children were appended in pop order, which follows action order.
        return GameTree(
            name=self.definition.name,
            parent=np.array(self.parent, dtype=np.int64),
            action=np.array(self.action, dtype=np.int64),
            player=np.array(self.player, dtype=np.int64),
            chance_prob=np.array(self.chance_prob, dtype=float),
            utility=np.array(self.utility, dtype=float).reshape(-1, self.players),
            infoset=np.array(self.infoset, dtype=np.int64),
            depth=np.array(self.depth, dtype=np.int64),
            children=tuple(np.array(c, dtype=np.int64) for c in self.children),
            history=tuple(self.history),
            infoset_keys=tuple(self.keys),
            infoset_player=np.array(self.key_player, dtype=np.int64),
            infoset_actions=tuple(self.key_actions),
            legal_mask=mask,
            chance_labels=tuple(self.chance_labels),
            description=(self.definition.__doc__ or "").strip(),
        )


def _where(definition: GameDefinition, history: list[str]) -> str:
    """The node being built, for a message: built only then, as a deep node's history is long
    (and its middle is left out past 160 characters)."""
    text = history[-1] if len(history[-1]) <= 160 else f"{history[-1][:80]}...{history[-1][-80:]}"
    return f"{definition.name}, history {text!r}"


def _zero_sum_violation(game: GameLike) -> int | None:
    """First terminal node whose two payoffs do not cancel, or None."""
    if not isinstance(game, GameTree):
        return None  # a MatrixGame holds only player 1's payoffs: zero-sum by construction
    utility = game.utility
    scale = np.maximum(1.0, np.abs(utility).sum(axis=1))
    bad = np.flatnonzero((game.player == TERMINAL) & (np.abs(utility.sum(axis=1)) > 1e-9 * scale))
    return int(bad[0]) if len(bad) else None


#: What a player of a game of more than two players can measure instead of NashConv / 2.
MULTIPLAYER_MEASURES = ("cfrviz.deviation_gains(game, policy) (each player's gain from "
                        "deviating alone) or a run's trace.extras['cce_gap']")


def check_two_players(game: GameLike, what: str, why: str = "", instead: str = "") -> None:
    """Refuse a game of more than two players, for what is defined for two only.

    Parameters
    ----------
    game : GameTree or MatrixGame
    what : str
        What needs two players, for the message, e.g. ``"exploitability as NashConv / 2"``.
    why : str, optional
        Why, in a few words, e.g. ``"a best response of 'the opponent' needs one opponent"``.
    instead : str, optional
        What to use instead (by default the measures defined for any number of players).

    Raises
    ------
    ValueError
        Saying how many players the game has, why ``what`` needs two, and what to use
        instead.
    """
    players = game.num_players
    if players != 2:
        because = f" ({why})" if why else ""
        raise ValueError(f"{what} is defined for two-player games{because}; {game.name} has "
                         f"{players} players. For {players} players use "
                         f"{instead or MULTIPLAYER_MEASURES}")


def is_zero_sum(game: GameLike) -> bool:
    """Whether the players' payoffs cancel at every terminal (to rounding), for any number of
    players."""
    return _zero_sum_violation(game) is None


def check_zero_sum(game: GameLike, what: str) -> None:
    """Refuse a game that is not two-player zero-sum, for algorithms that need one.

    Parameters
    ----------
    game : GameTree or MatrixGame
    what : str
        Who needs the property, for the message, e.g. ``"exploitability"``.

    Raises
    ------
    ValueError
        For a game of more than two players (:func:`check_two_players`), or naming the
        first terminal history whose payoffs do not sum to 0.
    """
    check_two_players(game, what, "it needs a two-player zero-sum game")  # zero-sum is not enough
    node = _zero_sum_violation(game)
    if node is not None and isinstance(game, GameTree):
        u1, u2 = game.utility[node]
        raise ValueError(f"{what} needs a two-player zero-sum game; {game.name} is not zero-sum "
                         f"at history {game.history[node]!r} (payoffs {u1:g} and {u2:g} sum to "
                         f"{u1 + u2:g}, not 0)")
