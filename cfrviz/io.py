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
JSON), and must be a valid one for the trace's game: a trace can always be resumed.

The game
--------
A matrix game is kept as its payoffs and labels; a game of :func:`cfrviz.load_game` as
its name and load parameters; a custom game (one read from a file, or built from a
definition) as its content, the tree's fields as JSON, which :func:`load_trace` walks
again with :func:`~cfrviz.core.tree.build_tree`.  A trace never keeps the path of a game
file, and loading one never opens any file but itself: a path in a trace would let a
file someone sends you choose what your machine reads.

Loading checks everything
-------------------------
Nothing in a file is trusted: :func:`load_trace` opens only a regular file (never a pipe
or a device, also behind a link) of at most :data:`MAX_FILE_BYTES`, reads only the members
the metadata names, each after checking its size (against a bound derived from the game and
the number of records; the metadata's against :data:`MAX_META_BYTES`) and its header's dtype and
shape against the schema (:data:`~cfrviz.core.trace.RECORD_ARRAYS`,
:meth:`~cfrviz.core.trace.SolverState.array_fields`), then checks the values
(:func:`~cfrviz.core.trace.check_records`, :meth:`SolverState.from_dict
<cfrviz.core.trace.SolverState.from_dict>`).  A doctored file gives a ``ValueError``
naming the file and the array at fault, and never reaches compiled code.  :func:`save_trace`
applies the same bounds before it writes (and the file size after), so every trace it
saves loads.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import secrets
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .core.checks import open_regular_file
from .core.trace import (
    MAX_TRACE_BYTES,
    RECORD_ARRAYS,
    TIMING_EXTRAS,
    SolverState,
    Trace,
    check_records,
    record_nbytes,
    record_shape,
)
from .core.tree import GameTree
from .games.matrix import MatrixGame
from .games.stored import stored_tree, tree_content

#: Version of the file layout this module writes; it reads this one and older.
FORMAT_VERSION = 2
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
        saved exactly (see the module docstring), naming the key; or when the
        trace is one :func:`load_trace` would refuse: invalid records, more
        records, a larger extras array or metadata, or a larger file than it
        reads (nothing is written then).
    FileNotFoundError
        When the directory does not exist.
    """
    path = Path(os.fspath(path))
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    arrays, meta = _pack(trace)
    arrays[META] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    if arrays[META].nbytes > MAX_META_BYTES:
        raise ValueError(f"save_trace: the trace's metadata (params, scalar extras and state, "
                         f"the game) takes {arrays[META].nbytes:,} bytes as JSON, more than the "
                         f"{MAX_META_BYTES:,} load_trace reads; keep large values as arrays in "
                         f"extras")

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
            size = handle.tell()
        if size > MAX_FILE_BYTES:  # the limit load_trace applies before reading
            raise ValueError(f"save_trace: the trace takes {size:,} bytes compressed, more than "
                             f"the {MAX_FILE_BYTES:,} load_trace reads; record fewer "
                             f"iterations (checkpoints=) and save again")
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
    # The bounds load_trace applies, applied here: every saved trace loads.
    try:
        records = check_records({spec.name: getattr(trace, spec.name) for spec in RECORD_ARRAYS},
                                trace.game, extras=_require_dict(trace.extras, "extras"))
    except ValueError as exc:
        raise ValueError(f"save_trace: the trace cannot be saved, as it could not be loaded: "
                         f"{exc}") from None
    most = _most_records(trace.game)
    if records > most:
        raise ValueError(f"save_trace: the trace has {records:,} records, more than the "
                         f"{most:,} load_trace reads for {trace.game.name} ({MAX_TRACE_BYTES:,} "
                         f"bytes of records); record fewer iterations (checkpoints=)")
    timing = dict(TIMING_EXTRAS)
    for key, value in _require_dict(trace.extras, "extras").items():
        if isinstance(value, np.ndarray) and key not in timing \
                and value.nbytes > _extra_limit(trace.game, records):
            raise ValueError(f"save_trace: extras array {key!r} takes {value.nbytes:,} bytes, "
                             f"more than the {_extra_limit(trace.game, records):,} load_trace "
                             f"reads for an extras array of this trace")
    if trace.state is None:
        state = None
    else:
        state, state_arrays = _pack_mapping(trace.state, "state")
        arrays.update(state_arrays)
        # What load_trace would refuse is refused here, before any file is touched.
        SolverState.from_dict(trace.state, trace.game)
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
    elif _rebuildable(game.name) and getattr(game, "params", None) is not None:
        # Built by load_game from its name: the name and parameters rebuild it.  The
        # fingerprint guards the rebuild, so parameters that cannot be written are not kept.
        meta["kind"] = "tree"
        try:
            meta["params"] = _jsonable(dict(game.params), "game params")
        except (TypeError, ValueError):
            meta["params"] = None
    else:
        # A custom game (read from a file, or built from a definition): its content is kept,
        # never the path it came from, which a loaded trace must not be able to name.
        content = tree_content(game)
        meta.update(kind="stored", tree=content if len(json.dumps(content)) <= MAX_GAME_BYTES
                    else None)
    return meta


def _rebuildable(name: str) -> bool:
    """Whether ``load_game(name, **params)`` builds a game without reading a file."""
    from .games import GAMES, load_game_file

    return name in GAMES.names() and GAMES.lookup(name).factory is not load_game_file


# --- loading -------------------------------------------------------------------------

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

    Parameters
    ----------
    path : str or os.PathLike
        The file; when it does not exist but the same name with ``.npz``
        appended does, that file is read.
    game : optional
        The game the trace was recorded on.  Checked against the file's
        :func:`game_fingerprint`.  When omitted the game is rebuilt: a matrix
        game from the payoffs and labels in the file, a game of
        :func:`cfrviz.load_game` from its name and load parameters, a custom
        game (one read from a file, or built from a definition) from the
        content the file keeps.  No file other than ``path`` is ever opened:
        a trace never names a game file to read.

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
        When the path is not a regular file (a folder, a pipe, a device) or
        holds more than :data:`MAX_FILE_BYTES`; when the file is not a cfrviz
        trace, is corrupt or truncated, was
        written by a newer format version, holds a member it does not name or
        lacks one it does, holds a member or metadata larger than its bound,
        an array of another dtype or shape than the schema, NaN or infinities
        where none are allowed, records inconsistent with each other or with
        the state, or was recorded on another game than ``game``; or when
        ``game`` is omitted and the game cannot be rebuilt.  The message names
        the file and the array at fault.
    """
    path = Path(os.fspath(path))
    if not path.exists() and path.suffix != ".npz" and path.with_name(path.name + ".npz").exists():
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

        records = _record_count(path, archive, game)
        state = None
        if state_entries is not None:
            state = _read_state(path, archive, state_entries, game)
        arrays = {}
        for spec in RECORD_ARRAYS:
            arrays[spec.name] = _read_array(
                path, archive, f"trace.{spec.name}", f"record array {spec.name!r}",
                expect=(spec.dtype, record_shape(spec, records, game)))
        extras = _read_extras(path, archive, extras_entries, game, records)
    try:
        check_records(arrays, game, last_iteration=None if state is None
                      else int(state["iteration"]), extras=extras)
    except ValueError as exc:
        raise _bad(path, str(exc)) from None
    return Trace(game=game, algorithm=meta["algorithm"], params=meta["params"],
                 extras=extras, state=state, **arrays)


#: Largest JSON metadata read, in bytes (params, extras and state scalars, a matrix game's
#: payoffs, a custom game's content).
MAX_META_BYTES = 64 * 2**20
#: Largest custom game kept in a trace, as JSON bytes; a larger one is not stored and the
#: trace then loads only with ``game=``.
MAX_GAME_BYTES = MAX_META_BYTES // 2
#: Largest trace file opened, in bytes (checked before reading, and by save_trace after
#: writing): the records' limit, room for the metadata and the solver state.
MAX_FILE_BYTES = MAX_TRACE_BYTES + 2 * MAX_META_BYTES
#: Room for an ``.npy`` header beyond an array's data (numpy refuses larger headers).
_HEADER_BYTES = 10_000 + 16
#: Largest extras array that is not one of the schema's (user data kept with a run).
_MIN_EXTRA_BYTES = 2**20


def _bad(path: Path, what: str) -> ValueError:
    return ValueError(f"{path} is not a valid cfrviz trace file: {what}")


def _corrupt(path: Path, exc: BaseException) -> ValueError:
    return ValueError(f"{path} is corrupt or truncated and cannot be read "
                      f"({type(exc).__name__}: {exc})")


@contextlib.contextmanager
def _open_archive(path: Path) -> Iterator[zipfile.ZipFile]:
    try:
        handle = open_regular_file(path, f"trace file {str(path)!r}", MAX_FILE_BYTES)
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
    if info.file_size > limit + _HEADER_BYTES:
        raise _bad(path, f"{what} takes {info.file_size:,} bytes, more than the "
                         f"{limit + _HEADER_BYTES:,} it may take; it was not read")
    headers = {(1, 0): np.lib.format.read_array_header_1_0,
               (2, 0): np.lib.format.read_array_header_2_0}
    try:
        with archive.open(info) as handle:
            version = np.lib.format.read_magic(handle)
            header = headers.get(version)
            if header is not None:
                shape, _, dtype = header(handle)
    except Exception as exc:  # zipfile, zlib and numpy's header parser raise their own kinds
        raise _corrupt(path, exc) from None
    if header is None:
        raise _bad(path, f"{what} is stored in .npy format version {version}, which cfrviz "
                         "does not write")
    if dtype.hasobject:
        raise _bad(path, f"{what} is an array of Python objects, which cfrviz never writes")
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


def _for_game(what: str) -> str:
    return "the solver state of this game needs" if what.startswith("solver state") \
        else "the records of this game need"


def _read_meta(path: Path, archive: zipfile.ZipFile, members: set[str]) -> dict:
    if META not in members:
        raise _bad(path, f"it has no {META!r} metadata (an .npz file, but not one that "
                         "cfrviz.save_trace wrote)")
    info = archive.getinfo(META + ".npy")
    if info.file_size > MAX_META_BYTES + _HEADER_BYTES:
        raise _bad(path, f"its {META!r} metadata takes {info.file_size:,} bytes, more than the "
                         f"{MAX_META_BYTES:,} metadata may take; it was not read")
    raw = _read_array(path, archive, META, f"its {META!r} metadata", limit=MAX_META_BYTES)
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise _bad(path, f"its {META!r} member is not UTF-8 JSON bytes")
    try:
        meta = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise _bad(path, f"its metadata is not valid JSON ({type(exc).__name__}: "
                         f"{str(exc):.200})") from None
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


def _most_records(game) -> int:
    """The most records a trace of ``game`` may hold (save and load): MAX_TRACE_BYTES."""
    return MAX_TRACE_BYTES // record_nbytes(game.legal_mask.size)


def _extra_limit(game, records: int) -> int:
    """The most bytes an extras array outside the schema may take (save and load)."""
    return max(_MIN_EXTRA_BYTES, records * game.legal_mask.size * 8)


def _record_count(path: Path, archive: zipfile.ZipFile, game) -> int:
    """Records in the file (from the iterations' header), refused beyond MAX_TRACE_BYTES."""
    most = _most_records(game)
    iterations = _read_array(path, archive, "trace.iterations", "record array 'iterations'",
                             limit=most * np.dtype(np.int64).itemsize)
    if iterations.ndim != 1:
        raise _bad(path, f"record array 'iterations' must be one-dimensional; it has shape "
                         f"{iterations.shape}")
    return len(iterations)


def _read_state(path: Path, archive: zipfile.ZipFile, entries: list[dict], game) -> dict:
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
        SolverState.from_dict(state, game)
    except ValueError as exc:
        raise _bad(path, str(exc)) from None
    return state


def _read_extras(path: Path, archive: zipfile.ZipFile, entries: list[dict], game,
                 records: int) -> dict:
    timing = dict(TIMING_EXTRAS)
    limit = _extra_limit(game, records)
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
    name, kind = game_meta["name"], game_meta["kind"]
    game: GameTree | MatrixGame
    if kind == "matrix":
        try:
            game = MatrixGame(name, game_meta["payoffs"], tuple(game_meta["row_actions"]),
                              tuple(game_meta["col_actions"]),
                              tuple(game_meta.get("action_names", ())))
        except (KeyError, TypeError, ValueError) as exc:
            raise _bad(path, f"its matrix game {name!r} cannot be rebuilt ({exc})") from None
    elif kind == "stored":
        content = game_meta.get("tree")
        if content is None:
            raise ValueError(f"{path} was recorded on {name!r}, a custom game too large to be "
                             f"kept in the file; pass the game: load_trace(path, game=...)")
        try:
            game = stored_tree(name, content)
        except ValueError as exc:
            raise _bad(path, f"its stored game {name!r} cannot be rebuilt ({exc})") from None
    elif kind == "tree":
        from .games import available_games, load_game

        if name not in available_games():
            raise ValueError(f"{path} was recorded on {name!r}, which is not a game "
                             f"cfrviz.load_game knows; pass the game: "
                             f"load_trace(path, game=...)")
        if not _rebuildable(name):
            # The parameters would name a file to read: a trace never chooses what is opened.
            raise ValueError(f"{path} asks for the game to be read with load_game({name!r}, ...)"
                             f"; a trace keeps a custom game's content and never names a file to "
                             f"read, so this one was not written by cfrviz.save_trace; pass the "
                             f"game: load_trace(path, game=...)")
        params = game_meta.get("params") or {}
        if not isinstance(params, dict):
            raise _bad(path, "its game parameters are not a dict")
        try:
            game = load_game(name, **params)
        except ValueError as exc:
            raise ValueError(f"{path}: cannot rebuild {name} with parameters {params} ({exc}); "
                             f"pass the game: load_trace(path, game=...)") from None
    else:
        raise _bad(path, f"its game is of an unknown kind {kind!r} (matrix, tree or stored)")
    if game_fingerprint(game) != game_meta["fingerprint"]:
        if kind == "tree" and game_meta.get("params") is None:
            raise ValueError(f"{path} does not record the parameters {name} was built with, "
                             f"and load_game({name!r}) builds a different game; pass the game "
                             f"it was recorded on: load_trace(path, game=...)")
        raise ValueError(f"{path}: this trace was recorded on a different version of {name}: "
                         f"its rules or payoffs differ from the game rebuilt now; pass the game "
                         f"it was recorded on: load_trace(path, game=...)")
    return game


__all__ = ["FORMAT_VERSION", "MAX_META_BYTES", "game_fingerprint", "load_trace", "save_trace"]
