"""The trace file's format: its name and version, the size limits that save and load
share, and the game fingerprint.

The limits are read as attributes of this module when a trace is saved or loaded, so a test
can lower them with ``monkeypatch.setattr(cfrviz.io.fileformat, ...)``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from ..core.trace import (
    MAX_TRACE_BYTES,
    RECORD_ARRAYS,
    SolverState,
    check_records,
    payoff_scale,
    record_nbytes,
)
from ..core.tree import GameTree
from ..engine.evaluation import tree_exploitability
from ..games.matrix import MatrixGame, matrix_exploitability
from ..solvers.recorded import check_recorded_run

#: Version of the file layout this module writes; it reads this one and older.
FORMAT_VERSION = 2
FORMAT_NAME = "cfrviz-trace"
META = "cfrviz_meta"

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
HEADER_BYTES = 10_000 + 16
#: Largest extras array that is not one of the schema's (user data kept with a run).
MIN_EXTRA_BYTES = 2**20


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
    digest = _Digest()
    if isinstance(game, GameTree):
        digest.text("kind", "tree")
        digest.text("name", game.name)
        digest.text("infoset_keys", list(game.infoset_keys))
        digest.text("infoset_actions", [list(a) for a in game.infoset_actions])
        for name in ("parent", "action", "player", "infoset"):
            digest.array(name, getattr(game, name), "<i8")
        for name in ("chance_prob", "utility"):
            digest.array(name, getattr(game, name), "<f8")
    elif isinstance(game, MatrixGame):
        digest.text("kind", "matrix")
        digest.text("name", game.name)
        digest.text("row_actions", list(game.row_actions))
        digest.text("col_actions", list(game.col_actions))
        digest.array("payoffs", game.payoffs, "<f8")
    else:
        raise ValueError(f"cannot fingerprint a {type(game).__name__}; expected a game from "
                         "cfrviz.load_game (a GameTree or a MatrixGame)")
    return digest.sha.hexdigest()


class _Digest:
    """SHA-256 over tagged fields: JSON text, or arrays in a fixed dtype and byte order."""

    def __init__(self) -> None:
        self.sha = hashlib.sha256()

    def put(self, tag: str, data: bytes) -> None:
        # Tag and length prefixes keep the encoding unambiguous.
        self.sha.update(tag.encode())
        self.sha.update(len(data).to_bytes(8, "little"))
        self.sha.update(data)

    def text(self, tag: str, value) -> None:
        self.put(tag, json.dumps(value).encode())

    def array(self, tag: str, values, dtype: str) -> None:
        values = np.ascontiguousarray(values, dtype=dtype)
        if values.dtype.kind == "f":
            values = values + 0.0  # -0.0 -> 0.0: the same game either way
        self.put(tag, json.dumps(list(values.shape)).encode() + values.tobytes())


def trace_path(path: object, caller: str) -> Path:
    """``path`` as a :class:`~pathlib.Path` naming a file, or a clear error (save and load)."""
    name = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(name, str):
        raise TypeError(f"{caller}: path must be a file name (a str or os.PathLike); got "
                        f"{type(path).__name__}")
    given = Path(name)
    if not name or not given.name or name.endswith(("/", os.sep)) or given.name in (".", ".."):
        raise ValueError(f"{caller}: path must name a file, e.g. 'trace.npz'; got {name!r}")
    return given


def rebuildable(name: str) -> bool:
    """Whether a trace may rebuild its game as ``load_game(name, **params)``: a game built
    into cfrviz, from cfrviz's own rules alone.

    Not a game read from a file (``"file"``), built by another library (``"openspiel"``:
    a name and parameters there may read a file or walk a tree of any size) or registered
    by someone else's code (a plug-in): a file someone sends you must not choose what your
    machine reads or builds.  Such a trace keeps its game's content, or loads with ``game=``.
    """
    from ..games import GAMES, load_game_file
    from ..games.openspiel import openspiel_game

    if name not in GAMES.names():
        return False
    factory = GAMES.lookup(name).factory
    return factory not in (load_game_file, openspiel_game) \
        and getattr(factory, "__module__", "").startswith("cfrviz.games.")


def most_records(game) -> int:
    """The most records a trace of ``game`` may hold (save and load): MAX_TRACE_BYTES."""
    return MAX_TRACE_BYTES // record_nbytes(game.legal_mask.size)


def extra_limit(game, records: int) -> int:
    """The most bytes an extras array outside the schema may take (save and load)."""
    return max(MIN_EXTRA_BYTES, records * game.legal_mask.size * 8)




#: Records whose exploitability is computed again on load (and save): the first, the last
#: and evenly spaced ones between, so a load costs a few evaluations whatever the trace's length.
CHECKED_RECORDS = 4


def check_values(arrays: dict, game, extras: dict, algorithm: object, params: dict,
                 state: SolverState | None) -> int:
    """Check a trace's values against each other; return its number of records.

    The one check of a trace's contents that :func:`load_trace` and :func:`save_trace`
    share (so every saved trace loads): the records against the schema, each other and
    the state (:func:`~cfrviz.core.trace.check_records`), the algorithm and its settings
    against the registry and the state
    (:func:`~cfrviz.solvers.recorded.check_recorded_run`), and the exploitability of
    :data:`CHECKED_RECORDS` records computed again (:func:`check_exploitability`).

    Raises
    ------
    ValueError
        Naming the field, and the record, at fault.
    """
    records = check_records(arrays, game, extras=extras, state=state)
    check_recorded_run(algorithm, params, state)
    check_exploitability(arrays, game)
    return records


def check_exploitability(arrays: dict, game) -> None:
    """The recorded exploitabilities of a sample of records equal those computed again.

    A strategy's exploitability (NashConv / 2) is a function of the strategy and the
    game: a strategy table changed in a file (two probabilities of a row swapped) or an
    exploitability changed shows as a difference.  The two computations differ by
    rounding only, at most a few units of the last place per node of the tree times the
    largest payoff; the tolerance is four times that.  NaN (not evaluated) is not checked.

    Raises
    ------
    ValueError
        Naming the array, the record and both values.
    """
    iterations = arrays["iterations"]
    records = len(iterations)
    picks = sorted({round(k * (records - 1) / (CHECKED_RECORDS - 1))
                    for k in range(CHECKED_RECORDS)})
    size = game.num_nodes if isinstance(game, GameTree) else int(np.asarray(game.payoffs).size)
    tolerance = 4 * np.finfo(np.float64).eps * (size + 1) * payoff_scale(game)
    for spec in RECORD_ARRAYS:
        if spec.evaluates is None:
            continue
        recorded, tables = arrays[spec.name], arrays[spec.evaluates]
        for k in picks:
            if np.isnan(recorded[k]):
                continue
            true = _exploitability(game, tables[k], spec.name)
            if not abs(true - float(recorded[k])) <= tolerance:
                raise ValueError(f"record array {spec.name!r} holds {float(recorded[k])!r} at "
                                 f"record {k} (iteration {iterations[k]}), but the "
                                 f"{spec.evaluates} recorded there has exploitability "
                                 f"{true!r}: the strategy or its exploitability was changed")


def _exploitability(game, table: np.ndarray, what: str) -> float:
    if isinstance(game, MatrixGame):
        m, n = game.payoffs.shape
        return float(matrix_exploitability(game.payoffs, table[None, 0, :m],
                                           table[None, 1, :n])[0])
    if game.num_players != 2:
        raise ValueError(f"record array {what!r} holds a number, but exploitability is "
                         f"recorded for two-player games only; a trace of a "
                         f"{game.num_players}-player game holds NaN there")
    return tree_exploitability(game, table)
