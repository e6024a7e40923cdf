"""Saving a trace: every array as a plain ``.npy`` member of an ``.npz`` archive, the rest
as JSON metadata, written to a temporary file and renamed into place."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
from pathlib import Path

import numpy as np

from ..core.trace import (
    MAX_TRACE_BYTES,
    RECORD_ARRAYS,
    TIMING_EXTRAS,
    SolverState,
    Trace,
)
from ..games.matrix import MatrixGame
from ..games.stored import tree_content
from . import fileformat
from .fileformat import FORMAT_NAME, FORMAT_VERSION, META, game_fingerprint


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
        Where to write.  ``.npz`` is appended when the name does not end in it
        (in any case: ``trace.NPZ`` is kept as it is), as :func:`numpy.savez` does.

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
    TypeError
        When ``path`` is not a str or path.
    FileNotFoundError
        When the directory does not exist.
    OSError
        When the file cannot be written there (a read-only place such as
        ``/proc``), naming ``path``, never the temporary file.
    """
    path = _npz_path(path)
    arrays, meta = _pack(trace)
    arrays[META] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    if arrays[META].nbytes > fileformat.MAX_META_BYTES:
        raise ValueError(f"save_trace: the trace's metadata (params, scalar extras and state, "
                         f"the game) takes {arrays[META].nbytes:,} bytes as JSON, more than the "
                         f"{fileformat.MAX_META_BYTES:,} load_trace reads; keep large values as "
                         f"arrays in extras")
    folder = path.parent
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such directory to save the trace in",
                                str(folder))
    _write_atomically(path, arrays)
    _fsync_directory(folder)
    return path


def _write_atomically(path: Path, arrays: dict) -> None:
    """Write the archive under a temporary name beside ``path``, then rename it into place;
    on any failure the temporary file is removed and ``path`` left as it was."""
    temp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    # os.open with mode 0o666 lets the umask decide permissions, as for any new file.
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        # The temporary name is ours, not the user's: the error names the path they gave.
        raise type(exc)(exc.errno, f"cannot write the trace there ({exc.strerror})",
                        str(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez_compressed(handle, **arrays)
            handle.flush()
            os.fsync(handle.fileno())
            size = handle.tell()
        if size > fileformat.MAX_FILE_BYTES:  # the limit load_trace applies before reading
            raise ValueError(f"save_trace: the trace takes {size:,} bytes compressed, more than "
                             f"the {fileformat.MAX_FILE_BYTES:,} load_trace reads; record fewer "
                             f"iterations (checkpoints=) and save again")
        try:
            os.replace(temp, path)
        except OSError as exc:
            raise type(exc)(exc.errno, f"cannot write the trace there ({exc.strerror})",
                            str(path)) from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def _npz_path(path) -> Path:
    """The file to write: ``path`` with ``.npz`` appended unless its name ends in ``.npz`` in
    any case (``trace.NPZ`` is written as it is, never as ``trace.NPZ.npz``)."""
    given = fileformat.trace_path(path, "save_trace")
    if given.suffix.lower() != ".npz":
        given = given.with_name(given.name + ".npz")
    return given


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
    params = _jsonable(_require_dict(trace.params, "params"), "params")
    state_entries = None
    if trace.state is not None:
        state_entries, state_arrays = _pack_mapping(trace.state, "state")
        arrays.update(state_arrays)
    # The checks load_trace applies, applied here: every saved trace loads.
    try:
        state = None if trace.state is None else SolverState.from_dict(trace.state, trace.game)
        records = fileformat.check_values(
            {spec.name: getattr(trace, spec.name) for spec in RECORD_ARRAYS}, trace.game,
            _require_dict(trace.extras, "extras"), trace.algorithm, params, state)
    except ValueError as exc:
        raise ValueError(f"save_trace: the trace cannot be saved, as it could not be loaded: "
                         f"{exc}") from None
    most = fileformat.most_records(trace.game)
    if records > most:
        raise ValueError(f"save_trace: the trace has {records:,} records, more than the "
                         f"{most:,} load_trace reads for {trace.game.name} ({MAX_TRACE_BYTES:,} "
                         f"bytes of records); record fewer iterations (checkpoints=)")
    timing = dict(TIMING_EXTRAS)
    for key, value in _require_dict(trace.extras, "extras").items():
        if isinstance(value, np.ndarray) and key not in timing \
                and value.nbytes > fileformat.extra_limit(trace.game, records):
            raise ValueError(f"save_trace: extras array {key!r} takes {value.nbytes:,} bytes, "
                             f"more than the {fileformat.extra_limit(trace.game, records):,} "
                             f"load_trace reads for an extras array of this trace")
    from .. import __version__

    meta = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "cfrviz_version": __version__,
        "game": _game_meta(trace.game),
        "algorithm": _jsonable(trace.algorithm, "algorithm"),
        "params": params,
        "extras": extras,
        "state": state_entries,
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
    for plain in (str, int, float):  # a subclass (an IntEnum, a str subclass) as the plain type
        if isinstance(value, plain):
            return plain(value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        return _jsonable_dict(value, where)
    if isinstance(value, np.ndarray):
        raise ValueError(f"{where} is a numpy array; arrays are saved exactly only as values "
                         "at the top level of extras or state (use .tolist() for a setting)")
    raise ValueError(f"{where} is a {type(value).__name__}, which cannot be saved; use None, "
                     "bool, int, float, str, lists or dicts of them, or a numpy array at the "
                     "top level of extras or state")


def _jsonable_dict(value: dict, where: str) -> dict:
    out = {}
    for key, v in value.items():
        if not isinstance(key, str):
            raise ValueError(f"{where} has the key {key!r}; keys must be strings to be "
                             "saved as JSON")
        out[str(key)] = _jsonable(v, f"{where}[{key!r}]")
    return out


def _game_meta(game) -> dict:
    meta = {"name": game.name, "fingerprint": game_fingerprint(game)}
    if isinstance(game, MatrixGame):
        meta.update(kind="matrix", payoffs=game.payoffs.tolist(),
                    row_actions=list(game.row_actions), col_actions=list(game.col_actions),
                    action_names=list(game.action_names))
    elif fileformat.rebuildable(game.name) and getattr(game, "params", None) is not None:
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
        small = len(json.dumps(content)) <= fileformat.MAX_GAME_BYTES
        meta.update(kind="stored", tree=content if small else None)
    return meta
