"""Save and load training traces: one ``.npz`` file, numpy arrays plus JSON, never pickle.

A trace file is a compressed numpy archive (:func:`numpy.savez_compressed`).  It holds
every array of the :class:`~cfrviz.core.trace.Trace` bit for bit (with its dtype and shape)
and one member, ``cfrviz_meta``, with UTF-8 JSON metadata: the format version, the
cfrviz version, the game's name and :func:`game_fingerprint`, what is needed to rebuild
the game, the algorithm, its parameters, and the scalar extras and solver state.  It
is read with ``allow_pickle=False``, so opening a file never runs code from it.

What can be saved
-----------------
``params``, and the values of ``extras`` and ``state``, may hold JSON values: ``None``,
``bool``, ``int``, ``float`` (NaN and infinities included, written as Python's JSON
writes them), ``str``, lists and tuples of these (tuples come back as lists) and dicts
with string keys; numpy scalars become the matching Python numbers.  A numpy array is
kept exactly, as an array, when it is a value at the top level of ``extras`` or
``state``.  Anything else (an array inside ``params`` or inside a nested dict, an
object array, any other object) is refused with a ``ValueError`` naming the key, so
nothing is lost without a word.

A solver's ``state`` is the plain dict of :meth:`cfrviz.core.trace.SolverState.as_dict`
(its tables and SplitMix64 word as arrays; its counts, time and numpy generator state as
JSON), so it is saved like any other and checked on resume, not here.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import secrets
from pathlib import Path

import numpy as np

from .core.trace import RECORD_ARRAYS, SolverState, Trace
from .core.tree import GameTree
from .games.matrix import MatrixGame

#: Version of the file layout this module writes; it reads this one and older.
FORMAT_VERSION = 1
FORMAT_NAME = "cfrviz-trace"
META = "cfrviz_meta"



# --- fingerprint ---------------------------------------------------------------------

def game_fingerprint(game) -> str:
    """A SHA-256 hex digest that identifies a game exactly.

    Two builds of the same game give the same digest; a change to its rules,
    its information sets, its action labels or any payoff gives another.

    Parameters
    ----------
    game : GameTree or MatrixGame
        For a :class:`~cfrviz.core.tree.GameTree` the digest covers its name,
        information-set keys, action labels and the ``parent``, ``action``,
        ``player``, ``chance_prob``, ``utility`` and ``infoset`` arrays; for a
        :class:`~cfrviz.games.matrix.MatrixGame`, its name, action labels and
        payoffs.  Arrays enter in a fixed dtype and byte order (little-endian
        int64 / float64, ``-0.0`` counted as ``0.0``), so the digest does not
        depend on the machine.

    Returns
    -------
    str
        64 hexadecimal digits.

    Raises
    ------
    ValueError
        For an object that is neither kind of game.
    """
    digest = hashlib.sha256()

    def put(tag: str, data: bytes) -> None:
        # Tag and length prefixes keep the encoding unambiguous.
        digest.update(tag.encode())
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)

    def text(tag: str, value) -> None:
        put(tag, json.dumps(value).encode())

    def array(tag: str, values, dtype: str) -> None:
        values = np.ascontiguousarray(values, dtype=dtype)
        if values.dtype.kind == "f":
            values = values + 0.0  # -0.0 -> 0.0: the same game either way
        put(tag, json.dumps(list(values.shape)).encode() + values.tobytes())

    if isinstance(game, GameTree):
        text("kind", "tree")
        text("name", game.name)
        text("infoset_keys", list(game.infoset_keys))
        text("infoset_actions", [list(a) for a in game.infoset_actions])
        for name in ("parent", "action", "player", "infoset"):
            array(name, getattr(game, name), "<i8")
        for name in ("chance_prob", "utility"):
            array(name, getattr(game, name), "<f8")
    elif isinstance(game, MatrixGame):
        text("kind", "matrix")
        text("name", game.name)
        text("row_actions", list(game.row_actions))
        text("col_actions", list(game.col_actions))
        array("payoffs", game.payoffs, "<f8")
    else:
        raise ValueError(f"cannot fingerprint a {type(game).__name__}; expected a game from "
                         "cfrviz.load_game (a GameTree or a MatrixGame)")
    return digest.hexdigest()


# --- saving --------------------------------------------------------------------------

def save_trace(trace: Trace, path) -> Path:
    """Save a trace to one compressed ``.npz`` file, atomically.

    The file is first written under a temporary name in the same directory and
    then renamed over ``path`` (:func:`os.replace`), so an interrupted save
    never leaves a half-written file and an existing file is replaced only by a
    complete one.

    Parameters
    ----------
    trace : Trace
        What :func:`cfrviz.solve` returned (or a :func:`dataclasses.replace` of it).
    path : str or os.PathLike
        Where to write.  ``.npz`` is appended when the name does not end in it,
        as :func:`numpy.savez` does.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        When ``params``, ``extras`` or ``state`` hold a value that cannot be
        saved exactly (see the module docstring); the message names the key.
    FileNotFoundError
        When the directory does not exist.
    """
    path = Path(os.fspath(path))
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    arrays, meta = _pack(trace)
    arrays[META] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)

    folder = path.parent
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such directory to save the trace in",
                                str(folder))
    temp = folder / f".{path.name}.{secrets.token_hex(6)}.tmp"
    # os.open with mode 0o666 lets the umask decide permissions, as for any new file.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez_compressed(handle, **arrays)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    _fsync_directory(folder)
    return path


def _fsync_directory(folder: Path) -> None:
    """Make the rename durable where the platform allows it (not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _pack(trace: Trace) -> tuple[dict, dict]:
    """The arrays and the JSON metadata of a trace; raises before any file is touched."""
    if not isinstance(trace, Trace):
        raise ValueError(f"save_trace needs a Trace (what cfrviz.solve returns); "
                         f"got {type(trace).__name__}")
    arrays = {}
    for spec in RECORD_ARRAYS:
        arrays[f"trace.{spec.name}"] = _plain_array(getattr(trace, spec.name), spec.name)
    extras, extra_arrays = _pack_mapping(trace.extras, "extras")
    arrays.update(extra_arrays)
    if trace.state is None:
        state = None
    else:
        state, state_arrays = _pack_mapping(trace.state, "state")
        arrays.update(state_arrays)
    from . import __version__

    meta = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "cfrviz_version": __version__,
        "game": _game_meta(trace.game),
        "algorithm": _jsonable(trace.algorithm, "algorithm"),
        "params": _jsonable(_require_dict(trace.params, "params"), "params"),
        "extras": extras,
        "state": state,
    }
    return arrays, meta


def _pack_mapping(mapping, where: str) -> tuple[list, dict]:
    """Entries ``{"key", "array"}`` or ``{"key", "value"}`` in order, and the arrays."""
    mapping = _require_dict(mapping, where)
    entries, arrays = [], {}
    for i, (key, value) in enumerate(mapping.items()):
        if not isinstance(key, str):
            raise ValueError(f"{where} key {key!r} must be a string to be saved")
        if isinstance(value, np.ndarray):
            member = f"{where}.{i}"
            arrays[member] = _plain_array(value, f"{where}[{key!r}]")
            entries.append({"key": key, "array": member})
        else:
            entries.append({"key": key, "value": _jsonable(value, f"{where}[{key!r}]")})
    return entries, arrays


def _require_dict(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"trace {where} must be a dict to be saved; got {type(value).__name__}")
    return value


def _plain_array(value, where: str) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise ValueError(f"{where} must be a numpy array; got {type(value).__name__}")
    if value.dtype.hasobject:
        raise ValueError(f"{where} is an array of Python objects ({value.dtype}); only numeric, "
                         "boolean and string arrays can be saved without pickle")
    return value


def _jsonable(value, where: str):
    """``value`` as plain JSON types, or a ValueError naming ``where``."""
    if isinstance(value, np.generic) and not isinstance(value, np.void):
        value = value.item()
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, v in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{where} has the key {key!r}; keys must be strings to be "
                                 "saved as JSON")
            out[str(key)] = _jsonable(v, f"{where}[{key!r}]")
        return out
    if isinstance(value, np.ndarray):
        raise ValueError(f"{where} is a numpy array; arrays are saved exactly only as values "
                         "at the top level of extras or state (use .tolist() for a setting)")
    raise ValueError(f"{where} is a {type(value).__name__}, which cannot be saved; use None, "
                     "bool, int, float, str, lists or dicts of them, or a numpy array at the "
                     "top level of extras or state")


def _game_meta(game) -> dict:
    meta = {"name": game.name, "fingerprint": game_fingerprint(game)}
    if isinstance(game, MatrixGame):
        meta.update(kind="matrix", payoffs=game.payoffs.tolist(),
                    row_actions=list(game.row_actions), col_actions=list(game.col_actions),
                    action_names=list(game.action_names))
    else:
        meta["kind"] = "tree"
        # Load parameters, when the game records them; the fingerprint guards a rebuild
        # either way, so parameters that cannot be written are simply not kept.
        params = getattr(game, "params", None)
        try:
            meta["params"] = None if params is None else _jsonable(dict(params), "game params")
        except (TypeError, ValueError):
            meta["params"] = None
    return meta


# --- loading -------------------------------------------------------------------------

def load_trace(path, game=None) -> Trace:
    """Load a trace saved by :func:`save_trace`.

    Parameters
    ----------
    path : str or os.PathLike
        The file; when it does not exist but the same name with ``.npz``
        appended does, that file is read.
    game : optional
        The game the trace was recorded on.  Checked against the file's
        :func:`game_fingerprint`.  When omitted the game is rebuilt: a matrix
        game from the payoffs and labels in the file, any other game with
        :func:`cfrviz.load_game` from its name and load parameters.

    Returns
    -------
    Trace
        Arrays equal bit for bit to the saved ones, with their dtypes, and
        read-only (extras and state arrays too); params, extras and state as
        saved (tuples come back as lists).

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    ValueError
        When the file is not a cfrviz trace, is corrupt or truncated, was
        written by a newer format version, holds NaN where none is allowed,
        or was recorded on another game than ``game``; or when ``game`` is
        omitted and the game cannot be rebuilt.  The message names the file.
    """
    path = Path(os.fspath(path))
    if not path.exists() and path.suffix != ".npz" and path.with_name(path.name + ".npz").exists():
        path = path.with_name(path.name + ".npz")
    members = _read_members(path)
    meta = _read_meta(path, members)
    game_meta = meta["game"]
    if game is None:
        game = _rebuild_game(path, game_meta)
    else:
        _check_game(path, game_meta, game)

    arrays = {}
    for spec in RECORD_ARRAYS:
        arrays[spec.name] = _member(path, members, f"trace.{spec.name}", spec.name)
    _check_arrays(path, arrays, game)
    extras = _unpack_mapping(path, meta["extras"], members, "extras")
    state = None if meta["state"] is None else _unpack_mapping(path, meta["state"], members,
                                                               "state")
    if state is not None:
        for name in SolverState.TABLES:  # the tables a state holds must be finite
            value = state.get(name)
            if isinstance(value, np.ndarray) and value.dtype.kind in "fc" \
                    and not np.all(np.isfinite(value)):
                raise _bad(path, f"state array {name!r} holds NaN or infinite values")
    return Trace(game=game, algorithm=meta["algorithm"], params=meta["params"],
                 extras=extras, state=state, **arrays)


def _bad(path: Path, what: str) -> ValueError:
    return ValueError(f"{path} is not a valid cfrviz trace file: {what}")


def _read_members(path: Path) -> dict:
    """Every member of the archive, read eagerly so the file is closed on return."""
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, "no such trace file", str(path))
    with open(path, "rb") as handle:
        head = handle.read(4)
    if head[:2] != b"PK":
        raise _bad(path, "it is not an .npz (zip) archive")
    try:
        with np.load(path, allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except Exception as exc:  # zipfile, zlib and numpy each raise their own kinds
        raise ValueError(f"{path} is corrupt or truncated and cannot be read "
                         f"({type(exc).__name__}: {exc})") from None


def _read_meta(path: Path, members: dict) -> dict:
    raw = members.get(META)
    if raw is None:
        raise _bad(path, f"it has no {META!r} metadata (an .npz file, but not one that "
                         "cfrviz.save_trace wrote)")
    if not isinstance(raw, np.ndarray) or raw.dtype != np.uint8 or raw.ndim != 1:
        raise _bad(path, f"its {META!r} member is not UTF-8 JSON bytes")
    try:
        meta = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _bad(path, f"its metadata is not valid JSON ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME:
        raise _bad(path, f"its metadata does not say format {FORMAT_NAME!r}")
    version = meta.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _bad(path, f"format version {version!r} is not a whole number >= 1")
    if version > FORMAT_VERSION:
        raise ValueError(f"{path} was written by a newer cfrviz ({meta.get('cfrviz_version')}, "
                         f"trace format version {version}); this cfrviz reads format versions "
                         f"up to {FORMAT_VERSION}: upgrade cfrviz to load it")
    missing = [k for k in ("game", "algorithm", "params", "extras", "state") if k not in meta]
    if missing:
        raise _bad(path, f"its metadata lacks {', '.join(missing)}")
    game = meta["game"]
    if not isinstance(game, dict) or not all(isinstance(game.get(k), str)
                                             for k in ("name", "fingerprint", "kind")):
        raise _bad(path, "its metadata does not describe the game (name, fingerprint, kind)")
    if not isinstance(meta["algorithm"], str) or not isinstance(meta["params"], dict):
        raise _bad(path, "its metadata has no algorithm name or no params dict")
    return meta


def _member(path: Path, members: dict, member: str, what: str) -> np.ndarray:
    value = members.get(member)
    if not isinstance(value, np.ndarray):
        raise _bad(path, f"the array {what!r} is missing (no member {member!r})")
    value.setflags(write=False)
    return value


def _check_arrays(path: Path, arrays: dict, game) -> None:
    iterations = arrays["iterations"]
    if iterations.ndim != 1 or iterations.dtype.kind not in "iu":
        raise _bad(path, f"'iterations' must be a 1-D integer array; it is {iterations.dtype} "
                         f"of shape {iterations.shape}")
    records = len(iterations)
    if records and (iterations[0] < 1 or np.any(np.diff(iterations) <= 0)):
        raise _bad(path, "'iterations' must be increasing whole numbers from 1 on")
    shape = (records, game.num_infosets, game.max_actions)
    for spec in RECORD_ARRAYS:
        name, value = spec.name, arrays[spec.name]
        expected = shape if spec.table else (records,)
        if value.shape != expected:
            raise _bad(path, f"{name!r} has shape {value.shape}; {records} records of "
                             f"{game.name} need {expected}")
        if spec.dtype.kind == "f":
            if value.dtype.kind != "f":
                raise _bad(path, f"{name!r} must hold floats; it holds {value.dtype}")
            bad = np.isinf(value) if spec.nan_ok else ~np.isfinite(value)
            if np.any(bad):
                record = int(np.argwhere(bad)[0][0])
                kind = "infinite values" if spec.nan_ok else "NaN or infinite values"
                raise _bad(path, f"{name!r} holds {kind} (first at record {record}, iteration "
                                 f"{iterations[record]})")


def _unpack_mapping(path: Path, entries, members: dict, where: str) -> dict:
    if not isinstance(entries, list):
        raise _bad(path, f"its {where} metadata is not a list of entries")
    out = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) \
                or ("array" in entry) == ("value" in entry):
            raise _bad(path, f"its {where} metadata holds a malformed entry {entry!r}")
        if "array" in entry:
            out[entry["key"]] = _member(path, members, str(entry["array"]),
                                        f"{where}[{entry['key']!r}]")
        else:
            out[entry["key"]] = entry["value"]
    return out


def _short(fingerprint: str) -> str:
    return fingerprint[:12]


def _check_game(path: Path, game_meta: dict, game) -> None:
    try:
        given = game_fingerprint(game)
    except ValueError as exc:
        raise ValueError(f"load_trace: game= {exc}") from None
    if given == game_meta["fingerprint"]:
        return
    name, recorded = game_meta["name"], _short(game_meta["fingerprint"])
    if getattr(game, "name", None) == name:
        raise ValueError(f"{path}: this trace was recorded on a different version of {name}: "
                         f"its rules or payoffs differ (fingerprint {recorded} in the file, "
                         f"{_short(given)} for the game given)")
    raise ValueError(f"{path}: this trace was recorded on {name} (fingerprint {recorded}), "
                     f"not {getattr(game, 'name', game)!r}; pass the game it was recorded on")


def _rebuild_game(path: Path, game_meta: dict):
    name = game_meta["name"]
    if game_meta["kind"] == "matrix":
        try:
            game = MatrixGame(name, game_meta["payoffs"], tuple(game_meta["row_actions"]),
                              tuple(game_meta["col_actions"]),
                              tuple(game_meta.get("action_names", ())))
        except (KeyError, TypeError, ValueError) as exc:
            raise _bad(path, f"its matrix game {name!r} cannot be rebuilt ({exc})") from None
    else:
        from .games import available_games, load_game

        if name not in available_games():
            raise ValueError(f"{path} was recorded on {name!r}, which is not a game "
                             f"cfrviz.load_game knows; pass the game: "
                             f"load_trace(path, game=...)")
        params = game_meta.get("params") or {}
        if not isinstance(params, dict):
            raise _bad(path, "its game parameters are not a dict")
        try:
            game = load_game(name, **params)
        except ValueError as exc:
            raise ValueError(f"{path}: cannot rebuild {name} with parameters {params} ({exc}); "
                             f"pass the game: load_trace(path, game=...)") from None
    if game_fingerprint(game) != game_meta["fingerprint"]:
        if game_meta["kind"] != "matrix" and game_meta.get("params") is None:
            raise ValueError(f"{path} does not record the parameters {name} was built with, "
                             f"and load_game({name!r}) builds a different game; pass the game "
                             f"it was recorded on: load_trace(path, game=...)")
        raise ValueError(f"{path}: this trace was recorded on a different version of {name}: "
                         f"its rules or payoffs differ from the game rebuilt now; pass the game "
                         f"it was recorded on: load_trace(path, game=...)")
    return game


__all__ = ["FORMAT_VERSION", "game_fingerprint", "load_trace", "save_trace"]
