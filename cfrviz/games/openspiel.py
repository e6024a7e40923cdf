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

import difflib
import math
import re
from collections.abc import Mapping
from dataclasses import replace
from numbers import Integral, Real
from typing import Any, NoReturn

import numpy as np

from ..core.checks import open_regular_file
from ..core.policy import Policy
from ..core.registry import Param
from ..core.tree import CHANCE, GameTree, build_tree, is_zero_sum
from .files import MAX_FILE_BYTES
from .nodes import check_perfect_recall
from .reading import short_text

#: How to install OpenSpiel, for messages: one instruction.
INSTALL = "OpenSpiel is not installed: pip install open-spiel"
#: OpenSpiel holds a whole-number parameter as a C++ ``int``: 10**30 cannot reach it.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
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

# OpenSpiel exposes no types: its games, states and policies are Any here.
Spiel = Any


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
                         f"{_unset_files(pyspiel, short, given)}; {_changed(pyspiel, short, given)}"
                         ) from None
    return from_openspiel(game, turn_based=turn_based, max_nodes=max_nodes)


# --- game strings and parameters, checked before OpenSpiel's C++ code sees them ----------------

_IDENT = re.compile(r"[A-Za-z0-9_]+")
_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")


def parse_game_string(text: str) -> tuple[str, dict[str, object]]:
    """OpenSpiel's game string ``name(key=value,...)``, strictly: ``(name, parameters)``.

    Values read as OpenSpiel reads them (``True``/``true``, ``False``/``false``, whole
    numbers, decimals, ``game(...)`` for a game parameter, text otherwise); a game parameter
    becomes a dict with its ``"name"``, as ``pyspiel.game_parameters_from_string`` gives it.
    OpenSpiel's own parser skips what it cannot read (``leduc_poker(\\x00)`` and
    ``kuhn_poker(x)junk`` load Leduc and Kuhn), so this one refuses it instead.

    Raises
    ------
    ValueError
        For control characters, an unbalanced bracket, a parameter without ``=``, an empty
        value, a parameter given twice or text after the closing bracket, saying where.
    """
    bad = next((i for i, c in enumerate(text) if not c.isprintable()), None)
    if bad is not None:
        raise ValueError(f"openspiel: name {short_text(text, 100)!r} holds the control "
                         f"character {text[bad]!r} at position {bad}; an OpenSpiel game string "
                         f"is printable text, e.g. 'liars_dice(numdice=1,dice_sides=3)'")
    reader = _Reader(text.strip(), text)
    name, params = reader.game()
    if reader.at != len(reader.text):
        reader.fail("text after the game")
    return name, params


class _Reader:
    """A cursor over a game string, for :func:`parse_game_string`."""

    def __init__(self, text: str, shown: str) -> None:
        self.text, self.shown, self.at = text, shown, 0

    def fail(self, what: str) -> NoReturn:
        raise ValueError(f"openspiel: cannot read the game string {short_text(self.shown, 100)!r}:"
                         f" {what} at position {self.at} ({self.text[self.at:self.at + 20]!r}); "
                         f"OpenSpiel writes a game as name(key=value,...), e.g. "
                         f"'liars_dice(numdice=1,dice_sides=3)' (or pass params={{...}})")

    def word(self, what: str) -> str:
        match = _IDENT.match(self.text, self.at)
        if match is None:
            self.fail(f"expected {what}")
        self.at = match.end()
        return match.group()

    def game(self) -> tuple[str, dict[str, object]]:
        name = self.word("a game's name (letters, digits, _)")
        params: dict[str, object] = {}
        if self.text.startswith("(", self.at):
            self.at += 1
            while not self.text.startswith(")", self.at):
                if params and not self.text.startswith(",", self.at):
                    self.fail("expected ',' or ')'")
                self.at += bool(params)
                key = self.word("a parameter's name")
                if key in params:
                    self.fail(f"parameter {key!r} given twice")
                if not self.text.startswith("=", self.at):
                    self.fail(f"expected '=' after {key!r}")
                self.at += 1
                params[key] = self.value()
                if self.at >= len(self.text):
                    self.fail("missing ')'")
            self.at += 1
        return name, params

    def value(self) -> object:
        match = _IDENT.match(self.text, self.at)
        if match and self.text.startswith("(", match.end()):
            name, params = self.game()
            return {"name": name, **params}
        end = self.at
        while end < len(self.text) and self.text[end] not in "(),=":
            end += 1
        atom = self.text[self.at:end]
        if not atom:
            self.fail("expected a value")
        self.at = end
        if atom in ("True", "true", "False", "false"):
            return atom in ("True", "true")
        if _INT.fullmatch(atom):
            return int(atom)
        if _FLOAT.fullmatch(atom):
            return float(atom)
        if not atom.strip("+-.0123456789"):
            self.at -= len(atom)
            self.fail(f"{atom!r} is not a number")
        return atom


def _registered(pyspiel: Spiel) -> dict[str, Spiel]:
    """OpenSpiel's games by short name: their ``GameType`` (parameters, players)."""
    return {kind.short_name: kind for kind in pyspiel.registered_games()}


def _known(pyspiel: Spiel, short: str) -> Spiel:
    """The ``GameType`` OpenSpiel registered as ``short``, or a ValueError with close names."""
    games = _registered(pyspiel)
    if short not in games:
        close = difflib.get_close_matches(short, list(games), n=3)
        hint = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
        raise ValueError(f"OpenSpiel has no game {short!r}{hint}; pyspiel.registered_names() "
                         f"lists the {len(games)} it has")
    return games[short]


def _is_file(key: str, default: object) -> bool:
    """Whether a parameter names a file OpenSpiel opens (efg_game's ``filename``, ...)."""
    return isinstance(default, str) and key.lower().endswith(("file", "filename"))


def check_parameters(pyspiel: Spiel, short: str, given: Mapping[Any, object],
                     header: str) -> dict[str, object]:
    """``given``, the parameters of OpenSpiel's game ``short``, checked against what the game
    declares (``parameter_specification``) and converted for ``pyspiel.load_game``.

    Before any C++ code sees them: each name must be the game's; a whole number an int
    (``bool`` refused) within a C++ int (and ``>= 0`` where the default is, but for seeds),
    ``players`` within the game's ``min_num_players..max_num_players``; a decimal a finite
    number (a whole number becomes a float, which OpenSpiel would refuse); a flag
    ``True``/``False``; text printable, and a file (``filename``, ``..._file``) a regular file
    of at most :data:`~cfrviz.games.files.MAX_FILE_BYTES` bytes, never a pipe or a device
    OpenSpiel would wait on for ever; a game parameter a game string or dict, checked the same
    way.

    Raises
    ------
    ValueError
        Starting with ``header``, naming the game, the parameter, the value and what is valid.
    """
    kind = _known(pyspiel, short)
    spec = kind.parameter_specification
    out: dict[str, object] = {}
    for key, value in given.items():
        if not isinstance(key, str) or key not in spec:
            raise ValueError(f"{header}: {short} has no parameter {key!r}; its parameters: "
                             f"{', '.join(sorted(spec)) or 'none'}")
        where = f"{header}: {short}'s parameter {key}"
        out[key] = _parameter(pyspiel, kind, key, value, spec[key], where, header)
    if short == "universal_poker":
        _check_universal_poker(spec, out, header)
    return out


def _parameter(pyspiel: Spiel, kind: Spiel, key: str, value: object, default: object,
               where: str, header: str) -> object:
    """One parameter's value, checked against its default's type (see check_parameters)."""
    got = f"got {short_text(repr(value), 80)}"
    if isinstance(default, bool):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{where} must be True or False; {got}")
        return bool(value)
    if isinstance(default, int):
        low, high, why = INT_MIN, INT_MAX, "OpenSpiel holds it as a C++ int"
        if key == "players":
            low, high = kind.min_num_players, kind.max_num_players
            why = f"the players {kind.short_name} allows"
        elif default >= 0 and "seed" not in key.lower():
            low, why = 0, "a count or a size, never negative, within a C++ int"
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral) \
                or not low <= int(value) <= high:
            raise ValueError(f"{where} must be a whole number from {low:,} to {high:,} ({why}); "
                             f"{got}")
        return int(value)
    if isinstance(default, float):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real) \
                or not _finite(value):
            raise ValueError(f"{where} must be a finite number; {got}")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str) or not value.isprintable():
            raise ValueError(f"{where} must be printable text; {got}")
        if _is_file(key, default):
            _check_file(value, where)
        return value
    if isinstance(default, dict):  # a game: written as a string, or as pyspiel's dict
        if isinstance(value, str):
            short, params = parse_game_string(value)
        elif isinstance(value, Mapping) and isinstance(value.get("name"), str):
            short, params = value["name"], {k: v for k, v in value.items() if k != "name"}
        else:
            raise ValueError(f"{where} must be a game, e.g. 'goofspiel(num_cards=3)'; {got}")
        return {"name": short, **check_parameters(pyspiel, short, params, header)}
    return value


#: Limits OpenSpiel's C++ code assumes without checking, crashing the Python process (and a
#: notebook's kernel) past them: universal_poker's ACPC game definition reads up to 4 suits,
#: 13 ranks, 3 hole cards, 4 rounds, 10 players, and one entry per player or per round of the
#: space-separated lists, for which it dereferences a null pointer when one is short.
UNIVERSAL_POKER = {"numPlayers": (2, 10), "numRounds": (1, 4), "numSuits": (1, 4),
                   "numRanks": (1, 13), "numHoleCards": (1, 3)}
_PER_PLAYER = ("blind", "stack")
_PER_ROUND = ("firstPlayer", "numBoardCards", "raiseSize", "maxRaises")


def _check_universal_poker(spec: Mapping[str, object], given: Mapping[str, object],
                           header: str) -> None:
    """Refuse universal_poker parameters its C++ code would crash on (:data:`UNIVERSAL_POKER`)."""
    values = {**spec, **given}
    for key, (low, high) in UNIVERSAL_POKER.items():
        value = values[key]
        if not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{header}: universal_poker's parameter {key} must be a whole number "
                             f"from {low} to {high} (its ACPC game definition allows no more); "
                             f"got {value!r}")
    players, rounds = int(str(values["numPlayers"])), int(str(values["numRounds"]))
    for keys, count, per in ((_PER_PLAYER, players, "player"), (_PER_ROUND, rounds, "round")):
        for key in keys:
            text = values.get(key)
            if not isinstance(text, str) or not text.strip():
                continue  # left empty: OpenSpiel's default
            entries = text.split()
            if len(entries) < count or not all(e.isdigit() for e in entries):
                raise ValueError(f"{header}: universal_poker's parameter {key} must list one "
                                 f"whole number >= 0 per {per}, separated by spaces ({count}, "
                                 f"e.g. {' '.join(['1'] * count)!r}); got {text!r:.80}")


def _finite(value: Real) -> bool:
    """Whether a number is finite and a float can hold it (10**400 cannot)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _check_file(path: str, where: str) -> None:
    """Refuse a file parameter OpenSpiel should not open: missing, a folder, a pipe, a device,
    or too large (the checks of cfrviz's own game files, :func:`open_regular_file`)."""
    if not path:
        raise ValueError(f"{where} must name a file; got ''")
    try:
        open_regular_file(path, f"{where} {short_text(path, 100)!r}", MAX_FILE_BYTES).close()
    except FileNotFoundError:
        raise ValueError(f"{where} names {short_text(path, 100)!r}, which does not exist"
                         ) from None


def _reason(error: BaseException) -> str:
    """An error from OpenSpiel's C++ code, in one line: its type and first line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _unset_files(pyspiel: Spiel, short: str, given: Mapping[str, object]) -> str:
    """A hint when a file parameter was left out (efg_game and nfg_game need theirs)."""
    spec = _known(pyspiel, short).parameter_specification
    unset = [k for k, v in spec.items() if _is_file(k, v) and k not in given and not v]
    return (f" ({short} reads the file its parameter {unset[0]!r} names, and none was given)"
            if unset else "")


def _changed(pyspiel: Spiel, short: str, params: Mapping[str, object]) -> str:
    """The parameters that differ from ``short``'s defaults, for a message naming them."""
    changed = _differences(pyspiel, short, params)
    if not changed:
        return "every parameter has its default"
    return ("one of the parameters set is likely outside what the game supports: "
            + ", ".join(changed))


def _differences(pyspiel: Spiel, short: str, params: Mapping[str, object]) -> list[str]:
    """``key=value (default d)`` for each parameter of ``short`` not at its default."""
    spec = _registered(pyspiel).get(short)
    defaults = spec.parameter_specification if spec is not None else {}
    changed = []
    for key, value in params.items():
        if key == "name":
            continue
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            changed += [f"{key}.{item}" for item in _differences(pyspiel, value["name"], value)]
        elif key not in defaults or value != defaults[key]:
            changed.append(f"{key}={value!r} (default {defaults.get(key)!r})")
    return changed


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
    kind = game.get_type()
    what = f"OpenSpiel's {game}"
    players = game.num_players()
    if players < 2:
        raise ValueError(f"{what} has {players} player; cfrviz converts games of two players "
                         f"or more (a game against chance alone has no opponent to regret)")
    utility = kind.utility
    shift = 0.0
    if utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        shift = float(game.utility_sum()) / players
    elif utility != pyspiel.GameType.Utility.ZERO_SUM:
        raise ValueError(f"{what} is {_named(utility)}, not zero-sum: cfrviz converts zero-sum "
                         f"(or constant-sum) games, where what one player gains the others "
                         f"lose, which CFR's equilibrium and exploitability need")
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
    definition = _Definition(game, shift, limit, what)
    try:
        tree = build_tree(definition)
    except (pyspiel.SpielError, RuntimeError, IndexError) as error:
        # OpenSpiel checks some parameters only when a state needs them: liars_dice(numdice=0)
        # loads, and its first roll fails a C++ CHECK.
        short = game.get_type().short_name
        raise ValueError(f"{what} failed while cfrviz walked its tree: OpenSpiel's C++ code "
                         f"stopped with {_reason(error)}; "
                         f"{_changed(pyspiel, short, game.get_parameters())}") from None
    if not is_zero_sum(tree):
        raise ValueError(f"{what} declares itself {_named(utility)}, but its payoffs do not sum "
                         f"to {players * shift:g} at every terminal")
    try:
        check_perfect_recall(tree)
    except ValueError as error:
        raise ValueError(f"{what} has imperfect recall: {error}") from None
    converted = " (as pyspiel.convert_to_turn_based made it)" if definition.converted else ""
    note = f" Payoffs shifted by {-shift:g} each, to sum to 0." if shift else ""
    return replace(tree, description=f"{game}{converted}: {kind.long_name} from OpenSpiel, "
                                     f"{tree.num_nodes:,} nodes, {tree.num_infosets:,} "
                                     f"information sets.{note}")


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
