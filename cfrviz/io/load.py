"""Loading a trace: every member checked against the schema and the game before use, and the
game itself rebuilt or checked."""

from __future__ import annotations

import contextlib
import errno
import json
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ..core.checks import open_regular_file
from ..core.trace import (
    RECORD_ARRAYS,
    TIMING_EXTRAS,
    SolverState,
    Trace,
    record_shape,
)
from ..core.tree import GameTree
from ..games.matrix import MatrixGame
from ..games.stored import stored_tree
from . import fileformat
from .fileformat import FORMAT_NAME, FORMAT_VERSION, META, game_fingerprint


def load_trace(path, game=None) -> Trace:
    """Load a trace saved by :func:`save_trace`, checking all of it before use.

    The file is read member by member with ``allow_pickle=False``; nothing in
    it is trusted.  Before a member is read into memory its size (from the zip
    directory) is checked against a bound derived from the game and the number
    of records, and its dtype and shape (from its ``.npy`` header) against the
    schema: :data:`~cfrviz.core.trace.RECORD_ARRAYS` for the records,
    :meth:`~cfrviz.core.trace.SolverState.array_fields` for the solver state.
    Only the members the metadata names are read, and a file with any other
    member, or without one it names, is refused.  After reading, values are
    checked too: finite (NaN only in an exploitability), records consistent
    with each other (as many in every array, iterations strictly increasing
    within 1..the state's iteration), and the state valid for the game
    (:meth:`~cfrviz.core.trace.SolverState.from_dict`).  So a loaded trace can
    be resumed without compiled code ever seeing an array of the wrong shape.
    Values are checked against each other too (:func:`fileformat.check_values`):
    strategies are distributions, exploitabilities at least 0 and, on a few
    records, equal to those computed again from the strategies; counts and
    times only add up; the last record is the state's; the algorithm is a
    registered one, its settings in their declared ranges, and the state's
    random generator one the recorded seed gives.

    Parameters
    ----------
    path : str or os.PathLike
        The file; when it does not exist but the same name with ``.npz``
        appended does, that file is read.
    game : optional
        The game the trace was recorded on.  Checked against the file's
        :func:`game_fingerprint`.  When omitted the game is rebuilt: a matrix
        game from the payoffs and labels in the file, a game of
        :func:`cfrviz.load_game` built into cfrviz from its name and load
        parameters (in their declared ranges), a custom game (one read from a
        file, built from a definition or by OpenSpiel) from the content the
        file keeps.  A trace naming any other game to build (OpenSpiel's, a
        game file, a plug-in's) is refused at once: pass the game.  No file
        other than ``path`` is ever opened.

    Returns
    -------
    Trace
        Arrays equal bit for bit to the saved ones, with their dtypes, and
        read-only (extras and state arrays too); params, extras and state as
        saved (tuples come back as lists).

    Raises
    ------
    TypeError
        When ``path`` is not a str or path.
    FileNotFoundError
        When the file does not exist.
    ValueError
        When ``path`` names no file (``""``), or is not a regular file (a
        folder, a pipe, a device) or holds more than
        :data:`fileformat.MAX_FILE_BYTES`; when the file is not a cfrviz
        trace, is corrupt or truncated, was written by a newer format
        version, holds a member it does not name or lacks one it does, holds
        a member or metadata larger than its bound, an array of another dtype
        or shape than the schema, NaN or infinities where none are allowed,
        values that contradict each other, the state or the algorithm
        recorded, or was recorded on another game than ``game``; or when
        ``game`` is omitted and the game is not one a trace rebuilds.  The
        message names the file and the field at fault.
    """
    path = fileformat.trace_path(path, "load_trace")
    if not path.exists() and path.suffix.lower() != ".npz" \
            and path.with_name(path.name + ".npz").exists():
        path = path.with_name(path.name + ".npz")
    with _open_archive(path) as archive:
        members = _member_names(path, archive)
        meta = _read_meta(path, archive, members)
        game_meta = meta["game"]
        if game is None:
            game = _rebuild_game(path, game_meta)
        else:
            _check_game(path, game_meta, game)
        extras_entries = _entries(path, meta["extras"], "extras")
        state_entries = None if meta["state"] is None else _entries(path, meta["state"], "state")
        _check_members(path, members, extras_entries, state_entries)
        records = _record_count(path, archive, game)
        state, solver_state = None, None
        if state_entries is not None:
            state, solver_state = _read_state(path, archive, state_entries, game)
        arrays = {spec.name: _read_array(path, archive, f"trace.{spec.name}",
                                         f"record array {spec.name!r}",
                                         expect=(spec.dtype, record_shape(spec, records, game)))
                  for spec in RECORD_ARRAYS}
        extras = _read_extras(path, archive, extras_entries, game, records)
    try:
        fileformat.check_values(arrays, game, extras, meta["algorithm"], meta["params"],
                                solver_state)
    except ValueError as exc:
        raise _bad(path, str(exc)) from None
    return Trace(game=game, algorithm=meta["algorithm"], params=meta["params"],
                 extras=extras, state=state, **arrays)


def _check_members(path: Path, members: set[str], extras_entries: list[dict],
                   state_entries: list[dict] | None) -> None:
    """Refuse an archive lacking a member its metadata names, or holding one it does not."""
    named = {f"trace.{spec.name}" for spec in RECORD_ARRAYS}
    for entries in (extras_entries, state_entries or []):
        named.update(str(entry["array"]) for entry in entries if "array" in entry)
    missing, unnamed = sorted(named - members), sorted(members - named - {META})
    if missing:
        raise _bad(path, f"the array {_what(missing[0], extras_entries, state_entries)!r} "
                         f"is missing (no member {missing[0]!r})")
    if unnamed:
        raise _bad(path, f"it holds a member {unnamed[0]!r} its metadata does not name; a "
                         "cfrviz trace holds only the arrays its metadata lists")


def _bad(path: Path, what: str) -> ValueError:
    return ValueError(f"{path} is not a valid cfrviz trace file: {what}")


def _corrupt(path: Path, exc: BaseException) -> ValueError:
    return ValueError(f"{path} is corrupt or truncated and cannot be read "
                      f"({type(exc).__name__}: {exc})")


@contextlib.contextmanager
def _open_archive(path: Path) -> Iterator[zipfile.ZipFile]:
    try:
        handle = open_regular_file(path, f"trace file {str(path)!r}", fileformat.MAX_FILE_BYTES)
    except FileNotFoundError:
        raise FileNotFoundError(errno.ENOENT, "no such trace file", str(path)) from None
    with handle:
        if handle.read(2) != b"PK":
            raise _bad(path, "it is not an .npz (zip) archive")
        handle.seek(0)
        try:
            archive = zipfile.ZipFile(handle)
        except Exception as exc:  # BadZipFile, but also struct, OS and value errors on damage
            raise _corrupt(path, exc) from None
        with archive:
            yield archive


def _member_names(path: Path, archive: zipfile.ZipFile) -> set[str]:
    """The arrays in the archive (``name`` for ``name.npy``); anything else is refused.

    Linear in the number of members (a doctored file may hold a hundred thousand).
    """
    names = [info.filename for info in archive.infolist()]
    if len(set(names)) != len(names):
        counts = Counter(names)
        twice = min(name for name, count in counts.items() if count > 1)
        raise _bad(path, f"it holds the member {twice!r} more than once")
    for name in names:
        if not name.endswith(".npy"):
            raise _bad(path, f"it holds a member {name!r} that is not a numpy array")
    return {name[:-len(".npy")] for name in names}


def _read_array(path: Path, archive: zipfile.ZipFile, member: str, what: str,
                expect: tuple[np.dtype, tuple[int, ...]] | None = None,
                limit: int | None = None) -> np.ndarray:
    """One member, read only after its size and its header's dtype and shape are checked.

    ``expect`` is the (dtype, shape) the schema gives; without it ``limit``
    bounds the data's bytes.
    """
    info = archive.getinfo(member + ".npy")
    if expect is not None:
        limit = expect[0].itemsize * int(np.prod(expect[1], dtype=np.int64))
    assert limit is not None
    if info.file_size > limit + fileformat.HEADER_BYTES:
        raise _bad(path, f"{what} takes {info.file_size:,} bytes, more than the "
                         f"{limit + fileformat.HEADER_BYTES:,} it may take; it was not read")
    shape, dtype = _read_header(path, archive, info, what)
    if expect is not None:
        if dtype != expect[0]:
            raise _bad(path, f"{what} must hold {expect[0]} numbers; it holds {dtype}")
        if tuple(shape) != expect[1]:
            raise _bad(path, f"{what} has shape {tuple(shape)}; {_for_game(what)} "
                             f"{expect[1]}")
    elif dtype.itemsize * int(np.prod(shape, dtype=np.int64)) > limit:
        raise _bad(path, f"{what} of shape {tuple(shape)} and dtype {dtype} would take more "
                         f"than the {limit:,} bytes it may take; it was not read")
    try:
        with archive.open(info) as handle:
            value = np.lib.format.read_array(handle, allow_pickle=False)
            trailing = handle.read(1)
    except Exception as exc:  # as above: a damaged member raises whatever its reader raises
        raise _corrupt(path, exc) from None
    if trailing:
        raise _bad(path, f"{what} is followed by bytes that are not part of it")
    value.setflags(write=False)
    return value


#: The ``.npy`` header readers cfrviz's files may use, by format version.
_HEADERS = {(1, 0): np.lib.format.read_array_header_1_0,
            (2, 0): np.lib.format.read_array_header_2_0}


def _read_header(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo,
                 what: str) -> tuple[tuple[int, ...], np.dtype]:
    """A member's shape and dtype from its ``.npy`` header (nothing else is read); an array of
    Python objects is refused."""
    try:
        with archive.open(info) as handle:
            version = np.lib.format.read_magic(handle)
            header = _HEADERS.get(version)
            if header is not None:
                shape, _, dtype = header(handle)
    except Exception as exc:  # zipfile, zlib and numpy's header parser raise their own kinds
        raise _corrupt(path, exc) from None
    if header is None:
        raise _bad(path, f"{what} is stored in .npy format version {version}, which cfrviz "
                         "does not write")
    if dtype.hasobject:
        raise _bad(path, f"{what} is an array of Python objects, which cfrviz never writes")
    return shape, dtype


def _for_game(what: str) -> str:
    return "the solver state of this game needs" if what.startswith("solver state") \
        else "as many records as record array 'iterations' lists, on this game, need"


def _read_meta(path: Path, archive: zipfile.ZipFile, members: set[str]) -> dict:
    """The metadata, checked for the format, its version and the fields every trace has."""
    meta = _meta_json(path, archive, members)
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


def _meta_json(path: Path, archive: zipfile.ZipFile, members: set[str]) -> object:
    """The metadata member, within its size bound, decoded from UTF-8 JSON."""
    if META not in members:
        raise _bad(path, f"it has no {META!r} metadata (an .npz file, but not one that "
                         "cfrviz.save_trace wrote)")
    info = archive.getinfo(META + ".npy")
    if info.file_size > fileformat.MAX_META_BYTES + fileformat.HEADER_BYTES:
        raise _bad(path, f"its {META!r} metadata takes {info.file_size:,} bytes, more than the "
                         f"{fileformat.MAX_META_BYTES:,} metadata may take; it was not read")
    raw = _read_array(path, archive, META, f"its {META!r} metadata",
                      limit=fileformat.MAX_META_BYTES)
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise _bad(path, f"its {META!r} member is not UTF-8 JSON bytes")
    try:
        return json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise _bad(path, f"its metadata is not valid JSON ({type(exc).__name__}: "
                         f"{str(exc):.200})") from None


def _entries(path: Path, entries, where: str) -> list[dict]:
    """The ``{"key", "array"}`` / ``{"key", "value"}`` entries of ``extras`` or ``state``."""
    if not isinstance(entries, list):
        raise _bad(path, f"its {where} metadata is not a list of entries")
    keys = set()
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) \
                or ("array" in entry) == ("value" in entry) \
                or ("array" in entry and not isinstance(entry["array"], str)):
            raise _bad(path, f"its {where} metadata holds a malformed entry {entry!r:.200}")
        if entry["key"] in keys:
            raise _bad(path, f"its {where} metadata names {entry['key']!r} twice")
        keys.add(entry["key"])
    return entries


def _what(member: str, extras_entries: list[dict], state_entries: list[dict] | None) -> str:
    """How errors call a member: the trace field, extras key or state field it holds."""
    if member.startswith("trace."):
        return member[len("trace."):]
    for where, entries in (("extras", extras_entries), ("state", state_entries or [])):
        for entry in entries:
            if entry.get("array") == member:
                return f"{where}[{entry['key']!r}]"
    return member


def _record_count(path: Path, archive: zipfile.ZipFile, game) -> int:
    """Records in the file (from the iterations' header), refused beyond MAX_TRACE_BYTES."""
    most = fileformat.most_records(game)
    iterations = _read_array(path, archive, "trace.iterations", "record array 'iterations'",
                             limit=most * np.dtype(np.int64).itemsize)
    if iterations.ndim != 1:
        raise _bad(path, f"record array 'iterations' must be one-dimensional; it has shape "
                         f"{iterations.shape}")
    return len(iterations)


def _read_state(path: Path, archive: zipfile.ZipFile, entries: list[dict],
                game) -> tuple[dict, SolverState]:
    """The state as the trace keeps it, and as a validated :class:`SolverState`."""
    fields = SolverState.array_fields(game)
    state: dict[str, Any] = {}
    for entry in entries:
        key = entry["key"]
        if key not in SolverState.KEYS:
            raise _bad(path, f"solver state field {key!r} is not part of a solver state, which "
                             f"holds {', '.join(SolverState.KEYS)}")
        if (key in fields) != ("array" in entry):
            raise _bad(path, f"solver state field {key!r} must be stored "
                             f"{'as an array' if key in fields else 'as a JSON value'}")
        if "array" in entry:
            state[key] = _read_array(path, archive, entry["array"],
                                     f"solver state field {key!r}", expect=fields[key])
        else:
            state[key] = entry["value"]
    try:
        return state, SolverState.from_dict(state, game)
    except ValueError as exc:
        raise _bad(path, str(exc)) from None


def _read_extras(path: Path, archive: zipfile.ZipFile, entries: list[dict], game,
                 records: int) -> dict:
    timing = dict(TIMING_EXTRAS)
    limit = fileformat.extra_limit(game, records)
    extras: dict[str, Any] = {}
    for entry in entries:
        key = entry["key"]
        if "array" not in entry:
            extras[key] = entry["value"]
        elif key in timing:
            extras[key] = _read_array(path, archive, entry["array"], f"extras array {key!r}",
                                      expect=(timing[key], (records,)))
        else:
            extras[key] = _read_array(path, archive, entry["array"], f"extras array {key!r}",
                                      limit=limit)
    return extras


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


def _rebuild_game(path: Path, game_meta: dict) -> GameTree | MatrixGame:
    """The game a trace names, rebuilt by its kind and checked against its fingerprint."""
    name, kind = game_meta["name"], game_meta["kind"]
    rebuild = _REBUILD.get(kind)
    if rebuild is None:
        raise _bad(path, f"its game is of an unknown kind {kind!r} (matrix, tree or stored)")
    game = rebuild(path, name, game_meta)
    if game_fingerprint(game) != game_meta["fingerprint"]:
        if kind == "tree" and game_meta.get("params") is None:
            raise ValueError(f"{path} does not record the parameters {name} was built with, "
                             f"and load_game({name!r}) builds a different game; pass the game "
                             f"it was recorded on: load_trace(path, game=...)")
        raise ValueError(f"{path}: this trace was recorded on a different version of {name}: "
                         f"its rules or payoffs differ from the game rebuilt now; pass the game "
                         f"it was recorded on: load_trace(path, game=...)")
    return game


def _rebuild_matrix(path: Path, name: str, game_meta: dict) -> MatrixGame:
    """A matrix game from the payoffs and labels the file keeps."""
    try:
        return MatrixGame(name, game_meta["payoffs"], tuple(game_meta["row_actions"]),
                          tuple(game_meta["col_actions"]),
                          tuple(game_meta.get("action_names", ())))
    except (KeyError, TypeError, ValueError) as exc:
        raise _bad(path, f"its matrix game {name!r} cannot be rebuilt ({exc})") from None


def _rebuild_stored(path: Path, name: str, game_meta: dict) -> GameTree:
    """A custom game from the content the file keeps (when it was small enough to keep)."""
    content = game_meta.get("tree")
    if content is None:
        raise ValueError(f"{path} was recorded on {name!r}, a custom game too large to be "
                         f"kept in the file; pass the game: load_trace(path, game=...)")
    try:
        return stored_tree(name, content)
    except ValueError as exc:
        raise _bad(path, f"its stored game {name!r} cannot be rebuilt ({exc})") from None


def _rebuild_tree(path: Path, name: str, game_meta: dict) -> GameTree | MatrixGame:
    """A game built into cfrviz, from its name and load parameters (no other game: a name
    and parameters from a file must not choose what is read or walked)."""
    from ..games import available_games, load_game

    if not fileformat.rebuildable(name):
        built_in = ", ".join(n for n in available_games() if fileformat.rebuildable(n))
        raise ValueError(f"{path} names the game {name!r} to be built anew; a trace rebuilds "
                         f"only the games built into cfrviz ({built_in}), never a game "
                         f"read from a file, built by OpenSpiel or by a plug-in. Build the "
                         f"game yourself and pass it: load_trace(path, game=...)")
    params = game_meta.get("params") or {}
    if not isinstance(params, dict):
        raise _bad(path, "its game parameters are not a dict")
    try:
        return load_game(name, **params)
    except ValueError as exc:
        raise ValueError(f"{path}: cannot rebuild {name} with parameters {params} ({exc}); "
                         f"pass the game: load_trace(path, game=...)") from None


#: How a trace's game is rebuilt, by the kind its metadata gives.
_REBUILD: dict[str, Callable[[Path, str, dict], GameTree | MatrixGame]] = {
    "matrix": _rebuild_matrix, "stored": _rebuild_stored, "tree": _rebuild_tree}
