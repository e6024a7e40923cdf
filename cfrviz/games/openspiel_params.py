"""OpenSpiel game strings and parameters, checked before OpenSpiel's C++ code sees them.

OpenSpiel's own parser skips what it cannot read, and its C++ code can wait for ever on a pipe
named as ``filename``, crash on a value it does not expect, or fail a CHECK halfway through a
walk: :func:`parse_game_string` reads a game string strictly and :func:`check_parameters`
checks each value against the type of the game's default, each raising a ``ValueError``
naming the game and the parameter (:mod:`cfrviz.games.openspiel` uses both).
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, NoReturn

import numpy as np

from ..core.checks import open_regular_file
from .files import MAX_FILE_BYTES
from .reading import short_text

__all__ = ["INT_MAX", "INT_MIN", "UNIVERSAL_POKER", "changed_parameters", "check_parameters",
           "parse_game_string", "unset_files"]

#: OpenSpiel holds a whole-number parameter as a C++ ``int``: 10**30 cannot reach it.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

# OpenSpiel exposes no types: its games, states and policies are Any here.
Spiel = Any

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
    given = _Given(pyspiel, kind, key, value, where, header)
    for types, check in _CHECKS:
        if isinstance(default, types):
            return check(given, default)
    return value


@dataclass(frozen=True)
class _Given:
    """A parameter as given, with what its check needs to say where it is wrong."""

    pyspiel: Spiel
    kind: Spiel  # the game's GameType
    key: str
    value: object
    where: str  # "<header>: <game>'s parameter <key>"
    header: str

    @property
    def got(self) -> str:
        return f"got {short_text(repr(self.value), 80)}"


def _flag(given: _Given, default: bool) -> bool:
    del default  # only its type matters
    if not isinstance(given.value, (bool, np.bool_)):
        raise ValueError(f"{given.where} must be True or False; {given.got}")
    return bool(given.value)


def _whole(given: _Given, default: int) -> int:
    """A C++ int; at least 0 where the default is (a count or a size) but for seeds, and
    ``players`` within what the game allows."""
    key, kind, value = given.key, given.kind, given.value
    low, high, why = INT_MIN, INT_MAX, "OpenSpiel holds it as a C++ int"
    if key == "players":
        low, high = kind.min_num_players, kind.max_num_players
        why = f"the players {kind.short_name} allows"
    elif default >= 0 and "seed" not in key.lower():
        low, why = 0, "a count or a size, never negative, within a C++ int"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral) \
            or not low <= int(value) <= high:
        raise ValueError(f"{given.where} must be a whole number from {low:,} to {high:,} "
                         f"({why}); {given.got}")
    return int(value)


def _decimal(given: _Given, default: float) -> float:
    del default  # only its type matters
    value = given.value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real) \
            or not _finite(value):
        raise ValueError(f"{given.where} must be a finite number; {given.got}")
    return float(value)


def _text(given: _Given, default: str) -> str:
    value = given.value
    if not isinstance(value, str) or not value.isprintable():
        raise ValueError(f"{given.where} must be printable text; {given.got}")
    if _is_file(given.key, default):
        _check_file(value, given.where)
    return value


def _game(given: _Given, default: dict[str, object]) -> dict[str, object]:
    """A game parameter: written as a string, or as pyspiel's dict; checked the same way."""
    del default  # only its type matters
    value = given.value
    if isinstance(value, str):
        short, params = parse_game_string(value)
    elif isinstance(value, Mapping) and isinstance(value.get("name"), str):
        short, params = value["name"], {k: v for k, v in value.items() if k != "name"}
    else:
        raise ValueError(f"{given.where} must be a game, e.g. 'goofspiel(num_cards=3)'; "
                         f"{given.got}")
    return {"name": short, **check_parameters(given.pyspiel, short, params, given.header)}


#: A parameter's check by the type of its default (bool before int: a bool is an int).
_CHECKS: tuple[tuple[type, Callable[[_Given, Any], object]], ...] = (
    (bool, _flag), (int, _whole), (float, _decimal), (str, _text), (dict, _game))


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


def unset_files(pyspiel: Spiel, short: str, given: Mapping[str, object]) -> str:
    """A hint when a file parameter was left out (efg_game and nfg_game need theirs)."""
    spec = _known(pyspiel, short).parameter_specification
    unset = [k for k, v in spec.items() if _is_file(k, v) and k not in given and not v]
    return (f" ({short} reads the file its parameter {unset[0]!r} names, and none was given)"
            if unset else "")


def changed_parameters(pyspiel: Spiel, short: str, params: Mapping[str, object]) -> str:
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
