"""OpenSpiel games and policies in cfrviz: ``cfrviz.load_game("openspiel", name="leduc_poker")``.

OpenSpiel (Lanctot et al., 2019, https://github.com/google-deepmind/open_spiel; ``pip install
open-spiel``) is optional: this module imports ``pyspiel`` only inside its functions, so cfrviz
imports without it, and each function raises an ``ImportError`` saying how to install it.

A zero-sum (or constant-sum), sequential OpenSpiel game with perfect recall is walked once,
like any game definition, into a :class:`~cfrviz.core.tree.GameTree`, for two players or more
(with more than two, cfrviz's full-tree CFR solvers and ``cfrviz.deviation_gains`` apply, while
exploitability, a two-player measure, is refused):

- a decision's information set is OpenSpiel's ``information_state_string()``, unchanged, so a
  cfrviz key is an OpenSpiel ``TabularPolicy`` key;
- its actions are OpenSpiel's legal actions in OpenSpiel's (ascending) order, labelled by
  ``action_to_string`` (an id is added to a label two actions share);
- chance outcomes and their probabilities are OpenSpiel's ``chance_outcomes()``;
- payoffs are ``returns()``; a constant-sum game's are shifted by the constant over the number
  of players each, so they sum to 0 (strategies, best responses and exploitability do not
  change).

Games that do not fit are refused, with the reason: a single player, general-sum,
simultaneous moves (unless ``turn_based=True`` asks for OpenSpiel's own conversion,
``pyspiel.convert_to_turn_based``, in which player 2 moves second without seeing player 1's
move: the same game), sampled chance, no information-state strings, imperfect recall (found by
:func:`~cfrviz.games.nodes.check_perfect_recall` on the walked tree), and trees larger than
``max_nodes`` (or with a state offering more moves than that).

A game string and its parameters are checked before OpenSpiel's C++ code sees them
(:func:`parse_game_string`, :func:`check_parameters`): OpenSpiel's own parser skips what it
cannot read, and its C++ code can wait for ever on a pipe named as ``filename``, crash on a
value it does not expect, or fail a CHECK halfway through the walk; each of these is a
``ValueError`` naming the game and the parameter here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from ..core.policy import Policy
from ..core.registry import Param
from ..core.tree import CHANCE, GameTree, build_tree, is_zero_sum
from .nodes import check_perfect_recall
from .openspiel_params import (
    INT_MAX,
    INT_MIN,
    UNIVERSAL_POKER,
    Spiel,
    changed_parameters,
    check_parameters,
    parse_game_string,
    unset_files,
)
from .reading import short_text

__all__ = ["CPP_ERRORS", "INSTALL", "INT_MAX", "INT_MIN", "MAX_NODES", "PARAMS", "UNIVERSAL_POKER",
           "check_parameters", "from_openspiel", "openspiel_game", "parse_game_string",
           "policy_from_openspiel", "policy_to_openspiel", "pyspiel_module", "unique_labels"]

#: How to install OpenSpiel, for messages: one instruction.
INSTALL = "OpenSpiel is not installed: pip install open-spiel"
#: The errors OpenSpiel's C++ code raises through pybind11 (``SpielError`` besides): a
#: ``std::out_of_range`` (``map::at``) arrives as an IndexError, ``std::bad_alloc`` as a
#: MemoryError, ``std::length_error`` as a ValueError, anything else as a RuntimeError.
CPP_ERRORS = (RuntimeError, IndexError, MemoryError, ValueError, TypeError, OverflowError)
#: The largest tree walked unless ``max_nodes`` says otherwise.  Python walks OpenSpiel's states
#: at 50,000 to 80,000 nodes a second and the walk peaks at about 700 bytes a node (the tree
#: keeps every node's history as text): liar's dice, 294,883 nodes, took 3.6 to 5.7 s and 200 MB.
MAX_NODES = 500_000
#: The registry's declaration of :func:`openspiel_game`'s parameters.
PARAMS = (Param("name", kind="any", help="an OpenSpiel game, e.g. 'leduc_poker' or "
                                        "'goofspiel(num_cards=3)'"),
          Param("params", None, "any", help="OpenSpiel parameters, e.g. {'num_cards': 3}"),
          Param("turn_based", False, "bool", help="play a simultaneous-move game as OpenSpiel's "
                                                  "turn-based conversion"),
          Param("max_nodes", MAX_NODES, "int", low=1, step=1,
                help="refuse a tree with more nodes than this"))

def pyspiel_module() -> Spiel:
    """The ``pyspiel`` module, or an ``ImportError`` that says how to install OpenSpiel."""
    try:
        import pyspiel
    except ImportError as error:
        raise ImportError(INSTALL) from error
    return pyspiel


def openspiel_game(name: str, params: Mapping[str, object] | None = None,
                   turn_based: bool = False, max_nodes: int = MAX_NODES) -> GameTree:
    """An OpenSpiel game by name, as a cfrviz game: what ``load_game("openspiel", ...)`` builds.

    Parameters
    ----------
    name : str
        An OpenSpiel game name (``pyspiel.registered_names()``), e.g. ``"leduc_poker"``, with or
        without parameters in OpenSpiel's own syntax: ``"liars_dice(numdice=1,dice_sides=3)"``.
    params : dict, optional
        OpenSpiel parameters (numbers, bools, strings), e.g. ``{"num_cards": 3}``; not together
        with parameters written inside ``name``.
    turn_based : bool
        Play a simultaneous-move game (goofspiel, oshi_zumo, matrix games) as its turn-based
        conversion (:func:`from_openspiel`).
    max_nodes : int
        The most nodes walked before the game is refused as too large.

    Returns
    -------
    GameTree
        Named ``"openspiel"``; its description starts with OpenSpiel's full game string.

    Raises
    ------
    ImportError
        When OpenSpiel is not installed.
    ValueError
        For an unknown game or bad parameters (OpenSpiel's reason), or a game that does not fit
        (:func:`from_openspiel`).
    """
    pyspiel = pyspiel_module()
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"openspiel: name must be an OpenSpiel game's name, e.g. 'leduc_poker'; "
                         f"got {name!r:.100}")
    if params is not None and not isinstance(params, Mapping):
        raise ValueError(f"openspiel: params must be a dict of OpenSpiel parameters, e.g. "
                         f"{{'num_cards': 3}}; got {params!r:.100}")
    if params and "(" in name:
        raise ValueError(f"openspiel: give the parameters of {name!r} either inside the name or "
                         f"as params={dict(params)!r}, not both")
    short, written = parse_game_string(name)
    header = f"OpenSpiel cannot load {short_text(name, 100)!r}" + (
        f" with parameters {short_text(repr(dict(params)), 200)}" if params else "")
    given = check_parameters(pyspiel, short, dict(params or written), header)
    try:
        game = pyspiel.load_game(short, given)
    except (pyspiel.SpielError, *CPP_ERRORS) as error:
        raise ValueError(f"{header}: OpenSpiel's C++ code stopped with {_reason(error)}"
                         f"{unset_files(pyspiel, short, given)}; "
                         f"{changed_parameters(pyspiel, short, given)}") from None
    return from_openspiel(game, turn_based=turn_based, max_nodes=max_nodes)


def _reason(error: BaseException) -> str:
    """An error from OpenSpiel's C++ code, in one line: its type and first line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def from_openspiel(game: Spiel, turn_based: bool = False,
                   max_nodes: int = MAX_NODES) -> GameTree:
    """An OpenSpiel game (a ``pyspiel.Game``) as a cfrviz :class:`~cfrviz.core.tree.GameTree`.

    The whole tree is walked once, depth first; information sets, chance outcomes with their
    probabilities and action names carry over (see the module's docstring).

    Parameters
    ----------
    game : pyspiel.Game
        A zero-sum or constant-sum game of two or more players with information-state
        strings, e.g. ``pyspiel.load_game("kuhn_poker")`` or ``"kuhn_poker(players=3)"``.
    turn_based : bool
        For a simultaneous-move game: walk ``pyspiel.convert_to_turn_based(game)`` instead, in
        which player 1 chooses first and player 2 then chooses without seeing that choice (an
        information set of player 2 holds every move player 1 could have made). The game is the
        same; only its tree is drawn sequentially. A policy converts back with that converted
        game (:func:`policy_to_openspiel` converts again when given the original).
    max_nodes : int
        The most nodes walked before the game is refused as too large.

    Returns
    -------
    GameTree
        Named ``"openspiel"``; its description starts with OpenSpiel's game string.

    Raises
    ------
    ImportError
        When OpenSpiel is not installed.
    ValueError
        For a game that does not fit, with the reason: one player, general-sum,
        simultaneous moves without ``turn_based``, sampled chance, no information-state
        strings, imperfect recall (naming the information set), or more than ``max_nodes``
        nodes (saying how to raise it).
    """
    pyspiel = pyspiel_module()
    if not isinstance(game, pyspiel.Game):
        raise ValueError(f"from_openspiel needs an OpenSpiel game (pyspiel.load_game(...)); "
                         f"got {type(game).__name__}")
    if not isinstance(turn_based, bool):
        raise ValueError(f"turn_based must be True or False; got {turn_based!r}")
    limit: int = Param("max_nodes", kind="int", low=1).check(max_nodes)
    game = _sequential(pyspiel, game, turn_based)
    what = f"OpenSpiel's {game}"
    shift = _payoff_shift(pyspiel, game, what)
    _check_listable(pyspiel, game, what, limit)
    definition = _Definition(game, shift, limit, what)
    tree = _walk(pyspiel, definition)
    _check_walked(tree, game, what, shift)
    converted = " (as pyspiel.convert_to_turn_based made it)" if definition.converted else ""
    note = f" Payoffs shifted by {-shift:g} each, to sum to 0." if shift else ""
    return replace(tree, description=f"{game}{converted}: {game.get_type().long_name} from "
                                     f"OpenSpiel, {tree.num_nodes:,} nodes, "
                                     f"{tree.num_infosets:,} information sets.{note}")


def _payoff_shift(pyspiel: Spiel, game: Spiel, what: str) -> float:
    """What each player's payoff is shifted by so that they sum to 0: 0 in a zero-sum game,
    the constant over the number of players in a constant-sum one; other games are refused
    (and games of one player)."""
    players = game.num_players()
    if players < 2:
        raise ValueError(f"{what} has {players} player; cfrviz converts games of two players "
                         f"or more (a game against chance alone has no opponent to regret)")
    utility = game.get_type().utility
    if utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        shift: float = float(game.utility_sum()) / players
        return shift
    if utility != pyspiel.GameType.Utility.ZERO_SUM:
        raise ValueError(f"{what} is {_named(utility)}, not zero-sum: cfrviz converts zero-sum "
                         f"(or constant-sum) games, where what one player gains the others "
                         f"lose, which CFR's equilibrium and exploitability need")
    return 0.0


def _check_listable(pyspiel: Spiel, game: Spiel, what: str, limit: int) -> None:
    """Refuse a game whose chance outcomes, information sets or moves a tree cannot list."""
    kind = game.get_type()
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise ValueError(f"{what} samples its chance events, so their outcomes and "
                         f"probabilities cannot be listed in a tree")
    if not kind.provides_information_state_string:
        raise ValueError(f"{what} gives no information-state strings, so its information sets "
                         f"(what a player knows) cannot be read")
    # A state offers at most this many moves, each a node: OpenSpiel lists them all at once,
    # so liars_dice(dice_sides=10**8) would allocate gigabytes before max_nodes could stop it.
    width = max(int(game.num_distinct_actions()), int(game.max_chance_outcomes()))
    if width > limit:
        raise ValueError(f"{what} may offer up to {width:,} actions or chance outcomes at one "
                         f"state, more than the {limit:,} nodes max_nodes allows (each leads to "
                         f"a node): choose smaller parameters, or pass a larger max_nodes")


def _walk(pyspiel: Spiel, definition: _Definition) -> GameTree:
    """The game's tree, or a ValueError naming the parameters when OpenSpiel fails mid-walk."""
    try:
        return build_tree(definition)
    except (pyspiel.SpielError, RuntimeError, IndexError) as error:
        # OpenSpiel checks some parameters only when a state needs them: liars_dice(numdice=0)
        # loads, and its first roll fails a C++ CHECK.
        game = definition.game
        short = game.get_type().short_name
        raise ValueError(f"{definition.what} failed while cfrviz walked its tree: OpenSpiel's "
                         f"C++ code stopped with {_reason(error)}; "
                         f"{changed_parameters(pyspiel, short, game.get_parameters())}"
                         ) from None


def _check_walked(tree: GameTree, game: Spiel, what: str, shift: float) -> None:
    """Refuse a walked tree whose payoffs break the declared sum, or with imperfect recall."""
    if not is_zero_sum(tree):
        raise ValueError(f"{what} declares itself {_named(game.get_type().utility)}, but its "
                         f"payoffs do not sum to {game.num_players() * shift:g} at every "
                         f"terminal")
    try:
        check_perfect_recall(tree)
    except ValueError as error:
        raise ValueError(f"{what} has imperfect recall: {error}") from None


def _sequential(pyspiel: Spiel, game: Spiel, turn_based: bool) -> Spiel:
    """``game``, or its turn-based conversion when it moves simultaneously and that was asked."""
    dynamics = game.get_type().dynamics
    if dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL:
        return game
    if dynamics != pyspiel.GameType.Dynamics.SIMULTANEOUS:
        raise ValueError(f"OpenSpiel's {game} has {_named(dynamics)} dynamics; cfrviz converts "
                         f"sequential games (and simultaneous ones, turned into sequential)")
    if not turn_based:
        raise ValueError(f"OpenSpiel's {game} has simultaneous moves, which a cfrviz tree does "
                         f"not draw; pass turn_based=True to walk OpenSpiel's turn-based "
                         f"conversion (pyspiel.convert_to_turn_based: player 1 chooses, then "
                         f"player 2 chooses without seeing it, the same game)")
    return pyspiel.convert_to_turn_based(game)


def _named(value: object) -> str:
    """An OpenSpiel enum value for a message: ``Utility.GENERAL_SUM`` as ``general-sum``."""
    return str(value).rsplit(".", 1)[-1].lower().replace("_", "-")


class _Definition:
    """An OpenSpiel game as a game definition for :func:`build_tree`, counting the nodes."""

    def __init__(self, game: Spiel, shift: float, limit: int, what: str) -> None:
        self.name = "openspiel"
        self.game = game
        self.num_players = int(game.num_players())
        self.shift = shift
        self.limit = limit
        self.what = what
        self.converted = game.get_type().short_name == "turn_based_simultaneous_game"
        self.nodes = 0
        #: Action labels of each information set, so every member shows the same ones.
        self.labels: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {}

    def initial_state(self) -> _State:
        return _State(self, self.game.new_initial_state(), "")

    def count(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise ValueError(f"{self.what} has more than {self.limit:,} nodes, which "
                             f"max_nodes allows (the walk stopped there; a million nodes take "
                             f"some 15 s and 700 MB): pass a larger max_nodes, e.g. "
                             f"max_nodes={10 * self.limit:_}, or choose smaller parameters")


class _State:
    """One OpenSpiel state as a state of cfrviz's game protocol."""

    __slots__ = ("definition", "state", "path", "_moves", "_key")

    def __init__(self, definition: _Definition, state: Spiel, path: str) -> None:
        definition.count()
        self.definition = definition
        self.state = state
        self.path = path
        self._moves: dict[str, int] = {}  # label -> OpenSpiel action, once listed
        self._key: str | None = None

    def is_terminal(self) -> bool:
        return bool(self.state.is_terminal())

    def current_player(self) -> int:
        return CHANCE if self.state.is_chance_node() else int(self.state.current_player())

    def legal_actions(self) -> tuple[str, ...]:
        ids = tuple(int(a) for a in self.state.legal_actions())
        known = self.definition.labels.get(self.infoset_key())
        if known is not None and known[0] == ids:
            labels = known[1]
        else:
            player = self.state.current_player()
            labels = unique_labels([str(self.state.action_to_string(player, a)) for a in ids], ids)
            self.definition.labels.setdefault(self.infoset_key(), (ids, labels))
        self._moves = dict(zip(labels, ids))
        return labels

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        outcomes = [(int(a), float(p)) for a, p in self.state.chance_outcomes()]
        ids = tuple(a for a, _ in outcomes)
        labels = unique_labels([str(self.state.action_to_string(a)) for a in ids], ids)
        self._moves = dict(zip(labels, ids))
        return tuple((label, p) for label, (_, p) in zip(labels, outcomes))

    def child(self, action: str) -> _State:
        move = self._moves[action]
        path = f"{self.path} {action}" if self.path else action
        return _State(self.definition, self.state.child(move), path)

    def returns(self) -> tuple[float, ...]:
        return tuple(float(r) - self.definition.shift for r in self.state.returns())

    def infoset_key(self) -> str:
        if self._key is None:
            self._key = str(self.state.information_state_string())
        return self._key

    def history(self) -> str:
        return self.path


def unique_labels(labels: list[str], ids: tuple[int, ...]) -> tuple[str, ...]:
    """Labels, with the action id added to any label two actions share."""
    if len(set(labels)) == len(labels):
        return tuple(labels)
    return tuple(f"{label} [{a}]" if labels.count(label) > 1 else label
                 for label, a in zip(labels, ids))


def policy_from_openspiel(tabular_policy: Spiel, tree: GameTree) -> Policy:
    """An OpenSpiel ``TabularPolicy`` as a cfrviz :class:`~cfrviz.Policy` of ``tree``.

    Parameters
    ----------
    tabular_policy : open_spiel.python.policy.TabularPolicy
        A policy of the OpenSpiel game ``tree`` was converted from (any other OpenSpiel policy
        becomes one with ``open_spiel.python.policy.tabular_policy_from_callable(game, p)``).
    tree : GameTree
        From :func:`from_openspiel` or ``load_game("openspiel", ...)``.

    Raises
    ------
    ValueError
        For something that is not a TabularPolicy, or one whose information sets or legal
        actions are not the tree's (naming the first set that differs).
    """
    table, lookup, mask = _tabular_parts(tabular_policy, "policy_from_openspiel")
    rows = _rows(tree, lookup, mask, "this TabularPolicy")
    probs = np.zeros(tree.legal_mask.shape)
    for info, (row, ids) in enumerate(rows):
        probs[info, : len(ids)] = table[row, ids]
    return Policy(tree, probs)


def policy_to_openspiel(policy: Policy, game: Spiel) -> Spiel:
    """A cfrviz :class:`~cfrviz.Policy` of a converted OpenSpiel game, as a ``TabularPolicy``.

    Parameters
    ----------
    policy : Policy
        A policy of a tree from :func:`from_openspiel` or ``load_game("openspiel", ...)``.
    game : pyspiel.Game
        The OpenSpiel game that tree came from; a simultaneous-move game is converted with
        ``pyspiel.convert_to_turn_based`` first, as ``from_openspiel(..., turn_based=True)``
        did.

    Returns
    -------
    open_spiel.python.policy.TabularPolicy
        For every player, with the policy's probabilities on every information state.

    Raises
    ------
    ImportError
        When OpenSpiel is not installed.
    ValueError
        For something that is not a Policy or an OpenSpiel game, or a game whose information
        states or legal actions are not the policy's (naming the first that differs).
    """
    pyspiel = pyspiel_module()
    from open_spiel.python.policy import TabularPolicy

    if not isinstance(policy, Policy):
        raise ValueError(f"policy_to_openspiel needs a cfrviz Policy; got {type(policy).__name__}")
    if not isinstance(game, pyspiel.Game):
        raise ValueError(f"policy_to_openspiel needs the OpenSpiel game the policy's tree came "
                         f"from (pyspiel.load_game(...)); got {type(game).__name__}")
    game = _sequential(pyspiel, game, turn_based=True)
    tabular = TabularPolicy(game)
    table, lookup, mask = _tabular_parts(tabular, "policy_to_openspiel")
    tree = policy.game
    if not isinstance(tree, GameTree):
        raise ValueError(f"policy_to_openspiel needs a policy of a game tree from "
                         f"from_openspiel; this one is for {tree.name}")
    rows = _rows(tree, lookup, mask, f"OpenSpiel's {game}")
    if len(rows) != len(lookup):
        extra = next(k for k in lookup if k not in set(tree.infoset_keys))
        raise ValueError(f"OpenSpiel's {game} has information state {extra!r}, which the "
                         f"policy's game {tree.name} does not have: the policy is for another "
                         f"game")
    table[:] = 0.0
    for info, (row, ids) in enumerate(rows):
        table[row, ids] = policy.probabilities[info, : len(ids)]
    return tabular


def _tabular_parts(tabular: Spiel, what: str) -> tuple[Any, dict[str, int], Any]:
    """A TabularPolicy's probability table, key-to-row lookup and legal-action mask."""
    table = getattr(tabular, "action_probability_array", None)
    lookup = getattr(tabular, "state_lookup", None)
    mask = getattr(tabular, "legal_actions_mask", None)
    if table is None or not isinstance(lookup, dict) or mask is None:
        raise ValueError(f"{what} needs an OpenSpiel TabularPolicy (open_spiel.python.policy; "
                         f"tabular_policy_from_callable(game, policy) makes one from any "
                         f"policy); got {type(tabular).__name__}")
    return table, lookup, mask


def _rows(tree: GameTree, lookup: Mapping[str, int], mask: Any,
          what: str) -> list[tuple[int, list[int]]]:
    """Per information set of ``tree``: its row in a TabularPolicy and its legal action ids."""
    rows = []
    for key, actions in zip(tree.infoset_keys, tree.infoset_actions):
        row = lookup.get(key)
        if row is None:
            raise ValueError(f"{what} has no information state {key!r} of {tree.name}: it was "
                             f"made for another game (or for one player only)")
        ids = [int(a) for a in np.flatnonzero(mask[row])]
        if len(ids) != len(actions):
            raise ValueError(f"{what}: information state {key!r} has {len(ids)} legal actions "
                             f"there and {len(actions)} in {tree.name} ({list(actions)})")
        rows.append((int(row), ids))
    return rows
