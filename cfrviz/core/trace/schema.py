"""The schema of a run's records, spelled once: :data:`RECORD_ARRAYS`, the timing extras,
the size bounds of a trace and :func:`check_records`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..regret import average_strategy
from ..types import FloatArray, GameLike, IntArray
from .state import SolverState


@dataclass(frozen=True)
class RecordArray:
    """One per-record array of a trace.

    Attributes
    ----------
    name : str
        The :class:`Trace` attribute (and the array's name in a saved file).
    dtype : numpy.dtype
        What the solvers record: ``int64`` iterations, ``float64`` otherwise.
    nan_ok : bool
        Whether NaN is a legal value (the exploitability of a run that
        evaluated nothing).
    table : bool
        Whether one record is an (information sets, actions) table, so the
        array has shape ``(records, I, A)``; otherwise ``(records,)``.
    evaluates : str or None
        For an exploitability, the table whose strategies it evaluates.
    strategy : bool
        Whether each record is a strategy: a distribution over the legal
        actions of every information set.
    """

    name: str
    dtype: np.dtype[np.int64 | np.float64]
    nan_ok: bool = False
    table: bool = False
    evaluates: str | None = None
    strategy: bool = False


#: The per-record arrays of every trace, in the order traces and files list them.
RECORD_ARRAYS: tuple[RecordArray, ...] = (
    RecordArray("iterations", np.dtype(np.int64)),
    RecordArray("cumulative_regret", np.dtype(np.float64), table=True),
    RecordArray("instantaneous_regret", np.dtype(np.float64), table=True),
    RecordArray("current_strategy", np.dtype(np.float64), table=True, strategy=True),
    RecordArray("average_strategy", np.dtype(np.float64), table=True, strategy=True),
    RecordArray("exploitability", np.dtype(np.float64), nan_ok=True,
                evaluates="average_strategy"),
    RecordArray("current_exploitability", np.dtype(np.float64), nan_ok=True,
                evaluates="current_strategy"),
)
#: Per-record extras of a timed run (the tree solvers): seconds spent solving, and nodes
#: touched, up to each record.  Such a trace also keeps ``extras["total_time"]``.
TIMING_EXTRAS: tuple[tuple[str, np.dtype[np.int64 | np.float64]], ...] = (
    ("elapsed", np.dtype(np.float64)), ("nodes_touched", np.dtype(np.int64)))

#: Bytes a trace recorded on the default schedule may take (its record and timing
#: arrays): the schedule is thinned to fit, whatever the game.
DEFAULT_TRACE_BYTES = 50_000_000
#: Bytes any trace may take: an explicit schedule beyond this is refused before the run,
#: and a file claiming more is refused before it is read.
MAX_TRACE_BYTES = 2_000_000_000


def record_shape(spec: RecordArray, records: int, game: GameLike) -> tuple[int, ...]:
    """The shape ``spec``'s array has in a trace of ``records`` records on ``game``."""
    return (records, *game.legal_mask.shape) if spec.table else (records,)


def record_nbytes(table_size: int, timed: bool = True) -> int:
    """Bytes one record takes: every :data:`RECORD_ARRAYS` entry (and the timing extras).

    Parameters
    ----------
    table_size : int
        Entries of one (information sets x actions) table, ``game.legal_mask.size``.
    timed : bool
        Whether the run keeps :data:`TIMING_EXTRAS` (the tree solvers do).
    """
    size = sum(spec.dtype.itemsize * (table_size if spec.table else 1) for spec in RECORD_ARRAYS)
    if timed:
        size += sum(dtype.itemsize for _, dtype in TIMING_EXTRAS)
    return size


def check_records(arrays: Mapping[str, object], game: GameLike, last_iteration: int | None = None,
                  extras: Mapping[str, object] | None = None,
                  state: SolverState | None = None) -> int:
    """Check a trace's per-record arrays against :data:`RECORD_ARRAYS` and ``game``.

    Parameters
    ----------
    arrays : mapping
        Every :data:`RECORD_ARRAYS` name to its array.
    game
        The game recorded on (its ``legal_mask`` gives the tables' shape).
    last_iteration : int, optional
        The solver state's iteration: no record may come after it.
    extras : mapping, optional
        The trace's extras; those of :data:`TIMING_EXTRAS` it holds are checked too:
        at least 0 and never decreasing (seconds and nodes only add up).
    state : SolverState, optional
        The trace's (validated) solver state, which ``last_iteration`` defaults to.  A
        run only adds up: its ``nodes_touched`` and ``elapsed`` are at least the last
        record's, and when the last record was taken at the state's iteration, as every
        run records its last one, that record is the state's: its cumulative regrets
        equal ``regret_sum`` and its average strategy is ``strategy_sum`` normalised.

    Returns
    -------
    int
        The number of records.

    Raises
    ------
    ValueError
        Naming the array at fault: missing, empty (no record), not an array, of
        another dtype or shape than the schema and the game give, holding NaN (where not
        allowed) or infinities, records in number unlike the others,
        iterations that are not strictly increasing within 1..``last_iteration``,
        a strategy that is not a distribution over the legal actions, a negative
        exploitability (beyond rounding), timing extras that decrease, or records
        that do not fit ``state``.  The message names the record.
    """
    if state is not None and last_iteration is None:
        last_iteration = state.iteration
    iterations = _iterations(arrays)
    records = len(iterations)
    checks = [(f"record array {spec.name!r}", arrays.get(spec.name), spec.dtype,
               record_shape(spec, records, game), spec.nan_ok) for spec in RECORD_ARRAYS]
    checks += [(f"extras array {name!r}", extras[name], dtype, (records,), False)
               for name, dtype in TIMING_EXTRAS if extras is not None and name in extras]
    for what, value, dtype, expected, nan_ok in checks:
        _check_array(what, value, dtype, expected, nan_ok, game, iterations)
    _check_values(arrays, game, extras, iterations)
    _check_order(iterations, last_iteration)
    if state is not None:
        _check_against_state(arrays, game, extras, state, iterations)
    return records


def _iterations(arrays: Mapping[str, object]) -> IntArray:
    """The record array 'iterations': a one-dimensional array of at least one record."""
    iterations = arrays.get("iterations")
    if not isinstance(iterations, np.ndarray) or iterations.ndim != 1:
        got = ("missing" if iterations is None else
               f"of shape {iterations.shape}" if isinstance(iterations, np.ndarray)
               else f"a {type(iterations).__name__}")
        raise ValueError(f"record array 'iterations' must be a one-dimensional array; it is "
                         f"{got}")
    if len(iterations) == 0:  # every run records at least its last iteration; views need one
        raise ValueError("record array 'iterations' is empty: a trace holds at least one record "
                         "(every run records its last iteration)")
    return iterations


def _check_array(what: str, value: object, dtype: np.dtype[np.int64 | np.float64],
                 expected: tuple[int, ...], nan_ok: bool, game: GameLike,
                 iterations: IntArray) -> None:
    """One array's type, dtype, shape and finiteness (NaN allowed where ``nan_ok``)."""
    if not isinstance(value, np.ndarray):
        got = "missing" if value is None else f"a {type(value).__name__}, not an array"
        raise ValueError(f"{what} is {got}")
    if value.dtype != dtype:
        raise ValueError(f"{what} must hold {dtype} numbers; it holds {value.dtype}")
    if value.shape != expected:
        raise ValueError(f"{what} has shape {value.shape}; {len(iterations)} records of "
                         f"{getattr(game, 'name', 'the game')} need {expected} (every "
                         "record array holds one entry per recorded iteration)")
    if dtype.kind == "f":
        bad = np.isinf(value) if nan_ok else ~np.isfinite(value)
        if np.any(bad):
            record = int(np.argwhere(bad)[0][0])
            kind = "infinite values" if nan_ok else "NaN or infinite values"
            raise ValueError(f"{what} holds {kind} (first at record {record}, iteration "
                             f"{iterations[record]})")


def _check_values(arrays: Mapping[str, object], game: GameLike,
                  extras: Mapping[str, object] | None, iterations: IntArray) -> None:
    """What the well-shaped arrays hold: distributions, exploitabilities >= 0 (up to
    rounding), timing extras >= 0 and never decreasing."""
    for spec in RECORD_ARRAYS:
        table = arrays[spec.name]
        assert isinstance(table, np.ndarray)  # checked by _check_array
        if spec.strategy:
            _check_distributions(table, game, f"record array {spec.name!r}", iterations)
        if spec.evaluates is not None:
            # NashConv / 2 is a sum of two best-response gains, each >= 0 up to rounding.
            floor = -EXPLOITABILITY_TOLERANCE * payoff_scale(game)
            _first_bad(table < floor, f"record array {spec.name!r}",
                       "a negative exploitability", iterations, table)
    for name, _ in TIMING_EXTRAS:
        value = extras.get(name) if extras is not None else None
        if isinstance(value, np.ndarray):
            _first_bad(value < 0, f"extras array {name!r}", "a negative value", iterations,
                       value)
            _first_bad(np.diff(value, prepend=value[:1]) < 0, f"extras array {name!r}",
                       "a value below the one before (it only adds up)", iterations, value)


def _check_order(iterations: IntArray, last_iteration: int | None) -> None:
    """Iterations strictly increasing, from 1 on, up to ``last_iteration`` at most."""
    steps = np.flatnonzero(np.diff(iterations) <= 0)
    if len(steps):
        k = int(steps[0])
        raise ValueError(f"record array 'iterations' must be strictly increasing; record "
                         f"{k + 1} (iteration {iterations[k + 1]}) follows iteration "
                         f"{iterations[k]}")
    if iterations[0] < 1:
        raise ValueError(f"record array 'iterations' must start at 1 or later; it starts at "
                         f"{iterations[0]}")
    if last_iteration is not None and iterations[-1] > last_iteration:
        raise ValueError(f"record array 'iterations' goes up to {iterations[-1]}, past the "
                         f"solver state's iteration {last_iteration}")


#: How far below 0 a recorded exploitability may be, relative to the largest payoff
#: (rounding in the best-response sums).
EXPLOITABILITY_TOLERANCE = 1e-9


def payoff_scale(game: GameLike) -> float:
    """The largest payoff's size (at least 1): what rounding in values is relative to."""
    payoffs = getattr(game, "utility", None)
    if payoffs is None:
        payoffs = getattr(game, "payoffs", None)
    values = np.abs(np.asarray(payoffs, dtype=np.float64)) if payoffs is not None else None
    return max(1.0, float(values.max())) if values is not None and values.size else 1.0


def _first_bad(bad: np.ndarray, what: str, why: str, iterations: IntArray,
               values: np.ndarray) -> None:
    if np.any(bad):
        record = int(np.argwhere(bad)[0][0])
        raise ValueError(f"{what} holds {why}: {values[record].item()!r} at record {record} "
                         f"(iteration {iterations[record]})")


def _check_against_state(arrays: Mapping[str, object], game: GameLike,
                         extras: Mapping[str, object] | None, state: SolverState,
                         iterations: IntArray) -> None:
    """The records are those of the run that ended in ``state`` (see check_records)."""
    last = len(iterations) - 1
    for name, _ in TIMING_EXTRAS:
        value = extras.get(name) if extras is not None else None
        if isinstance(value, np.ndarray) and value[last] > getattr(state, name):
            raise ValueError(f"extras array {name!r} holds {value[last]!r} at record {last} "
                             f"(iteration {iterations[last]}), more than the solver state's "
                             f"{name} {getattr(state, name)!r}: a run's counts only add up")
    if iterations[last] != state.iteration:
        return
    regrets, average = arrays["cumulative_regret"], arrays["average_strategy"]
    assert isinstance(regrets, np.ndarray) and isinstance(average, np.ndarray)
    if not np.array_equal(regrets[last], state.regret_sum):
        raise ValueError(f"record array 'cumulative_regret' at record {last} (iteration "
                         f"{state.iteration}) differs from the solver state's regret_sum, "
                         "which it is a copy of")
    expected = average_strategy(state.strategy_sum, np.asarray(game.legal_mask, dtype=bool))
    off = np.abs(average[last] - expected) > DISTRIBUTION_TOLERANCE
    if np.any(off):
        info = int(np.argwhere(off)[0][0])
        raise ValueError(f"record array 'average_strategy' at record {last} (iteration "
                         f"{state.iteration}, information set {game.infoset_keys[info]!r}) "
                         f"is not the solver state's strategy_sum normalised: it holds "
                         f"{average[last][info].tolist()}, the state gives "
                         f"{expected[info].tolist()}")


#: How far a recorded strategy's row may be from summing to 1 (rounding in long sums).
DISTRIBUTION_TOLERANCE = 1e-6


def _check_distributions(table: FloatArray, game: GameLike, what: str,
                         iterations: IntArray) -> None:
    """Each record of ``table`` must be a distribution over every set's legal actions."""
    mask = np.asarray(game.legal_mask, dtype=bool)
    illegal = (table < 0) | (~mask & (table != 0))
    off = np.abs(np.where(mask, table, 0.0).sum(axis=-1) - 1.0) > DISTRIBUTION_TOLERANCE
    for bad, why in ((illegal.any(axis=-1), "a negative probability or one on an illegal action"),
                     (off, "probabilities that do not sum to 1")):
        if np.any(bad):
            record, info = (int(k) for k in np.argwhere(bad)[0])
            raise ValueError(f"{what} holds {why} (record {record}, iteration "
                             f"{iterations[record]}, information set "
                             f"{game.infoset_keys[info]!r}): a strategy must be a "
                             "distribution over the legal actions")
