"""Training traces: what a solver recorded, for views to index into.

The schema of a run is spelled here, once:

- :data:`RECORD_ARRAYS`: the per-record arrays every :class:`Trace` holds (name,
  dtype, whether NaN is allowed, whether one record is an (information sets,
  actions) table).  The trace, :mod:`cfrviz.io`'s checks, resuming and the
  :class:`Recorder` all read this list.
- :class:`SolverState`: what a solver carries from one iteration to the next,
  enough to resume a run bit for bit.  A trace keeps it as the plain dict of
  :meth:`SolverState.as_dict`, which :mod:`cfrviz.io` saves like any other.
- :func:`check_records`: the one check of a trace's records against the schema
  and a game (dtype, shape, finiteness, iterations), used by :mod:`cfrviz.io`
  on load and by resuming; :func:`record_nbytes` the size of one record, which
  bounds traces (:data:`DEFAULT_TRACE_BYTES`, :data:`MAX_TRACE_BYTES`).
- :class:`Recorder`: takes copies of a state at the checkpoints and builds the
  trace at the end (stacking, evaluating, joining a resumed run's records).
  It lives here, beside the schema, because it is the one place traces are
  made; it knows nothing of any solver (the average strategy and the
  exploitability are functions it is given).
"""

from __future__ import annotations

import copy
import dataclasses
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np

from .policy import Policy


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
    dtype: np.dtype
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
TIMING_EXTRAS: tuple[tuple[str, np.dtype], ...] = (("elapsed", np.dtype(np.float64)),
                                                   ("nodes_touched", np.dtype(np.int64)))

#: Bytes a trace recorded on the default schedule may take (its record and timing
#: arrays): the schedule is thinned to fit, whatever the game.
DEFAULT_TRACE_BYTES = 50_000_000
#: Bytes any trace may take: an explicit schedule beyond this is refused before the run,
#: and a file claiming more is refused before it is read.
MAX_TRACE_BYTES = 2_000_000_000


def record_shape(spec: RecordArray, records: int, game) -> tuple[int, ...]:
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


def check_records(arrays: Mapping[str, Any], game, last_iteration: int | None = None,
                  extras: Mapping[str, Any] | None = None) -> int:
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
        The trace's extras; those of :data:`TIMING_EXTRAS` it holds are checked too.

    Returns
    -------
    int
        The number of records.

    Raises
    ------
    ValueError
        Naming the array at fault: missing, empty (no record), not an array, of
        another dtype or shape than the schema and the game give, holding NaN (where not
        allowed) or infinities, records in number unlike the others, or
        iterations that are not strictly increasing within 1..``last_iteration``.
    """
    iterations = arrays.get("iterations")
    if not isinstance(iterations, np.ndarray) or iterations.ndim != 1:
        got = ("missing" if iterations is None else
               f"of shape {iterations.shape}" if isinstance(iterations, np.ndarray)
               else f"a {type(iterations).__name__}")
        raise ValueError(f"record array 'iterations' must be a one-dimensional array; it is "
                         f"{got}")
    records = len(iterations)
    if records == 0:  # every run records at least its last iteration; views need one
        raise ValueError("record array 'iterations' is empty: a trace holds at least one record "
                         "(every run records its last iteration)")
    checks = [(f"record array {spec.name!r}", arrays.get(spec.name), spec.dtype,
               record_shape(spec, records, game), spec.nan_ok) for spec in RECORD_ARRAYS]
    checks += [(f"extras array {name!r}", extras[name], dtype, (records,), False)
               for name, dtype in TIMING_EXTRAS if extras is not None and name in extras]
    for what, value, dtype, expected, nan_ok in checks:
        if not isinstance(value, np.ndarray):
            got = "missing" if value is None else f"a {type(value).__name__}, not an array"
            raise ValueError(f"{what} is {got}")
        if value.dtype != dtype:
            raise ValueError(f"{what} must hold {dtype} numbers; it holds {value.dtype}")
        if value.shape != expected:
            raise ValueError(f"{what} has shape {value.shape}; {records} records of "
                             f"{getattr(game, 'name', 'the game')} need {expected} (every "
                             "record array holds one entry per recorded iteration)")
        if dtype.kind == "f":
            bad = np.isinf(value) if nan_ok else ~np.isfinite(value)
            if np.any(bad):
                record = int(np.argwhere(bad)[0][0])
                kind = "infinite values" if nan_ok else "NaN or infinite values"
                raise ValueError(f"{what} holds {kind} (first at record {record}, iteration "
                                 f"{iterations[record]})")
    for spec in RECORD_ARRAYS:
        if spec.strategy and records:
            _check_distributions(arrays[spec.name], game, f"record array {spec.name!r}",
                                 iterations)
    if records:
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
    return records


#: How far a recorded strategy's row may be from summing to 1 (rounding in long sums).
DISTRIBUTION_TOLERANCE = 1e-6


def _check_distributions(table: np.ndarray, game, what: str, iterations: np.ndarray) -> None:
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


@dataclass(frozen=True, eq=False)
class Trace:
    """Snapshots of a training run at the iterations it recorded.

    Every array's first axis follows ``iterations``; strategy and regret
    arrays then have shape ``(information sets, max actions)`` in the order of
    the game's information-set table (:data:`RECORD_ARRAYS` lists them all).
    Arrays are copies, never live views of the solver, and are read-only:
    scrubbing a slider reads them and never re-runs anything.

    Attributes
    ----------
    game
        The game that was solved.
    algorithm : str
        Name given to :func:`cfrviz.solve`.
    params : dict
        Every setting of the run (seed, iterations, algorithm parameters).
    iterations : numpy.ndarray of int, shape (records,)
        The iteration each record was taken after (1-based).
    cumulative_regret, instantaneous_regret : numpy.ndarray, shape (records, I, A)
        Regrets summed up to, and incurred at, that iteration.
    current_strategy : numpy.ndarray, shape (records, I, A)
        The strategy played at that iteration.
    average_strategy : numpy.ndarray, shape (records, I, A)
        The average of the strategies played so far.
    exploitability : numpy.ndarray, shape (records,)
        Exploitability of the average strategy (NaN when the run asked for no
        evaluation, `checkpoints=[]`, and for the last records of a run whose
        evaluation a Ctrl-C cut short).
    current_exploitability : numpy.ndarray, shape (records,)
        Exploitability of the current strategy.
    extras : dict
        Further per-run records of a solver (arrays or JSON-safe values).
    state : dict or None
        The solver's state after the last recorded iteration, as
        :meth:`SolverState.as_dict` writes it (iteration, cumulative regrets,
        strategy sums, random-generator state, nodes touched, time spent),
        enough to resume the run; ``None`` when not kept.
    """

    game: Any
    algorithm: str
    params: dict
    iterations: np.ndarray
    cumulative_regret: np.ndarray
    instantaneous_regret: np.ndarray
    current_strategy: np.ndarray
    average_strategy: np.ndarray
    exploitability: np.ndarray
    current_exploitability: np.ndarray
    extras: dict = field(default_factory=dict)
    state: dict | None = None

    def __post_init__(self):
        for spec in RECORD_ARRAYS:
            getattr(self, spec.name).setflags(write=False)

    def __len__(self) -> int:
        return len(self.iterations)

    def index(self, iteration: int | None = None) -> int:
        """Record index of ``iteration`` (the last record when ``None``).

        Raises
        ------
        ValueError
            If ``iteration`` is not a whole number (a bool, a float or a string
            is refused, never converted) or was not recorded; the message lists
            the range.
        """
        if iteration is None:
            return len(self.iterations) - 1
        if isinstance(iteration, (bool, np.bool_)) or not isinstance(iteration, Integral):
            raise ValueError(f"iteration must be a whole number, a recorded iteration between "
                             f"{self.iterations[0]} and {self.iterations[-1]}; got {iteration!r}")
        hits = np.flatnonzero(self.iterations == iteration)
        if len(hits) == 0:
            raise ValueError(f"iteration {iteration!r} is not in this trace; it recorded "
                             f"{len(self)} iterations between {self.iterations[0]} and "
                             f"{self.iterations[-1]}")
        return int(hits[0])

    def average_policy(self, iteration: int | None = None) -> Policy:
        """The average strategy after ``iteration`` (default: the last recorded)."""
        return Policy(self.game, self.average_strategy[self.index(iteration)])

    def current_policy(self, iteration: int | None = None) -> Policy:
        """The strategy played at ``iteration`` (default: the last recorded)."""
        return Policy(self.game, self.current_strategy[self.index(iteration)])

    def __repr__(self) -> str:
        return (f"Trace({self.algorithm} on {self.game.name}: {len(self)} records, "
                f"iterations {self.iterations[0]}..{self.iterations[-1]}, "
                f"final exploitability {self.exploitability[-1]:.3g})")


# --- solver state ----------------------------------------------------------------------

@dataclass(eq=False)
class SolverState:
    """What a solver carries between iterations: enough to resume a run bit for bit.

    The four tables have the shape of the game's ``legal_mask``, (information
    sets, max actions), and are updated in place by the solvers.

    Attributes
    ----------
    regret_sum : numpy.ndarray of float64
        Cumulative regrets.
    strategy_sum : numpy.ndarray of float64
        Cumulative (weighted) strategies, whose normalisation is the average strategy.
    current : numpy.ndarray of float64
        The strategy played at the last iteration.
    instant : numpy.ndarray of float64
        The regrets incurred at the last iteration.
    rng : numpy.ndarray of uint64, shape (1,)
        The SplitMix64 state of the compiled engine's generator (zero for
        regret matching, which draws from numpy: see ``generator``).
    iteration : int
        Iterations done.
    nodes_touched : int
        Game-tree nodes visited so far.
    elapsed : float
        Seconds spent solving so far (compilation and evaluation excluded).
    generator : dict or None
        The state of a ``numpy.random`` bit generator
        (``Generator.bit_generator.state``, JSON-safe) for a solver whose draws
        come from numpy (sampled regret matching); ``None`` otherwise.
    """

    regret_sum: np.ndarray
    strategy_sum: np.ndarray
    current: np.ndarray
    instant: np.ndarray
    rng: np.ndarray
    iteration: int = 0
    nodes_touched: int = 0
    elapsed: float = 0.0
    generator: dict | None = None

    #: The (information sets, actions) tables.
    TABLES: ClassVar[tuple[str, ...]] = ("regret_sum", "strategy_sum", "current", "instant")
    #: What a trace keeps (``current`` and ``instant`` are recomputed by the next
    #: iteration); ``generator`` is kept too when it is not None.
    SAVED: ClassVar[tuple[str, ...]] = ("iteration", "regret_sum", "strategy_sum", "rng",
                                        "nodes_touched", "elapsed")
    #: What a trace's ``state`` may hold: :attr:`SAVED` and the optional ``generator``.
    KEYS: ClassVar[tuple[str, ...]] = (*SAVED, "generator")

    @classmethod
    def array_fields(cls, game) -> dict[str, tuple[np.dtype, tuple[int, ...]]]:
        """The dtype and shape of every array field on ``game``: the four tables and ``rng``."""
        fields: dict[str, tuple[np.dtype, tuple[int, ...]]] = {
            name: (np.dtype(np.float64), tuple(game.legal_mask.shape)) for name in cls.TABLES}
        fields["rng"] = (np.dtype(np.uint64), (1,))
        return fields

    @classmethod
    def fresh(cls, game, rng=None, regret_sum=None, generator: dict | None = None) -> SolverState:
        """The state before the first iteration on ``game``.

        Parameters
        ----------
        game
            Anything with a ``legal_mask`` (a game tree or a matrix game).
        rng : array_like of uint64, optional
            The SplitMix64 state (:func:`cfrviz.engine.seed_state`); zero when
            omitted.
        regret_sum : array_like, optional
            Cumulative regrets to start from (zeros when omitted).
        generator : dict, optional
            A numpy bit generator's state, for solvers that draw from numpy.
        """
        shape = game.legal_mask.shape
        return cls(
            regret_sum=np.zeros(shape) if regret_sum is None else np.array(regret_sum,
                                                                           dtype=np.float64),
            strategy_sum=np.zeros(shape), current=np.zeros(shape), instant=np.zeros(shape),
            rng=(np.zeros(1, dtype=np.uint64) if rng is None
                 else np.array(rng, dtype=np.uint64).reshape(1)),
            generator=copy.deepcopy(generator))

    def copy(self) -> SolverState:
        """A deep copy: no array or dict shared with this state."""
        return dataclasses.replace(
            self, **{name: getattr(self, name).copy() for name in (*self.TABLES, "rng")},
            generator=copy.deepcopy(self.generator))

    def validate(self, game) -> SolverState:
        """Check the state fits ``game``; return it.

        Raises
        ------
        ValueError
            Naming the field at fault and what it should be: a table of the
            wrong type, dtype or shape or holding NaN or infinities, an ``rng``
            that is not one uint64 word, a count that is not a whole number in
            0..:data:`MAX_COUNT`, a negative or non-finite time, or a
            ``generator`` that is not a state numpy's bit generator of that
            name reads back unchanged.
        """
        fields = self.array_fields(game)
        rng = self.rng
        if not isinstance(rng, np.ndarray) or (rng.dtype, rng.shape) != fields.pop("rng"):
            got = (f"{rng.dtype} of shape {rng.shape}" if isinstance(rng, np.ndarray)
                   else type(rng).__name__)
            raise _state_error("rng", f"must be one SplitMix64 word, a uint64 array of shape "
                                      f"(1,); it is {got}")
        for name, (dtype, shape) in fields.items():
            value = getattr(self, name)
            if not isinstance(value, np.ndarray):
                raise _state_error(name, f"must be a numpy array; it is a {type(value).__name__}")
            if value.dtype != dtype:
                raise _state_error(name, f"must hold {dtype} numbers; it holds {value.dtype}")
            if value.shape != shape:
                raise _state_error(name, f"has shape {value.shape}; "
                                         f"{getattr(game, 'name', 'the game')} needs {shape} "
                                         "(information sets x actions)")
            if not np.all(np.isfinite(value)):
                raise _state_error(name, "holds NaN or infinite values")
        for name in ("iteration", "nodes_touched"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < 0:
                raise _state_error(name, f"must be a whole number >= 0; it is {value!r:.60}")
            if int(value) > MAX_COUNT:
                shown = f"{int(value):,}" if int(value) < 10**30 else "a number of 31+ digits"
                raise _state_error(name, f"must be at most {MAX_COUNT:,} (the compiled engine "
                                         f"counts in 64 bits); it is {shown}")
        elapsed = self.elapsed
        if isinstance(elapsed, bool) or not isinstance(elapsed, Real) \
                or not np.isfinite(elapsed) or elapsed < 0:
            raise _state_error("elapsed", f"must be a finite number of seconds >= 0; it is "
                                          f"{elapsed!r}")
        generator = self.generator
        if generator is not None:
            kind = generator.get("bit_generator") if isinstance(generator, dict) else None
            known = isinstance(kind, str) and isinstance(getattr(np.random, kind, None), type) \
                and issubclass(getattr(np.random, kind), np.random.BitGenerator)
            if not known:
                raise _state_error("generator", "must be None or a numpy bit generator's state "
                                                "(Generator.bit_generator.state); it is "
                                                f"{generator!r:.80}")
            # The state itself, as numpy reads it when a resumed run draws: checked here, not
            # deep inside the run.
            try:
                bits = getattr(np.random, kind)()
                bits.state = copy.deepcopy(generator)
                same = _same_state(bits.state, generator)
            except Exception as exc:  # numpy raises ValueError, TypeError or OverflowError
                raise _state_error("generator", f"is not a valid {kind} state "
                                                f"({type(exc).__name__}: {exc!s:.120})") from None
            if not same:
                raise _state_error("generator", f"is not a valid {kind} state: numpy reads it "
                                                f"as another state (a number out of range)")
        return self

    def as_dict(self) -> dict:
        """What a :class:`Trace` keeps as its ``state``: copies of the :attr:`SAVED` fields."""
        out = {}
        for name in self.SAVED:
            value = getattr(self, name)
            out[name] = value.copy() if isinstance(value, np.ndarray) else value
        out["iteration"] = int(self.iteration)
        out["nodes_touched"] = int(self.nodes_touched)
        out["elapsed"] = float(self.elapsed)
        if self.generator is not None:
            out["generator"] = copy.deepcopy(self.generator)
        return out

    @classmethod
    def from_dict(cls, saved: Mapping, game) -> SolverState:
        """A fresh, validated state from a trace's ``state`` (the inverse of :meth:`as_dict`).

        Arrays are copied (a loaded trace's are read-only); ``current`` and
        ``instant`` start at zero.  ``nodes_touched``, ``elapsed`` and
        ``generator`` may be missing (0, 0.0, None).

        Raises
        ------
        ValueError
            When a required field is missing, a field is not one of
            :attr:`KEYS`, or a value does not fit ``game``; the message names
            the field.
        """
        if not isinstance(saved, Mapping):
            raise ValueError(f"a solver state must be a dict as Trace.state holds; got "
                             f"{type(saved).__name__}")
        for name in ("iteration", "regret_sum", "strategy_sum", "rng"):
            if name not in saved:
                raise _state_error(name, "is missing; a resumable state holds "
                                         f"{', '.join(cls.SAVED)}")
        unknown = [str(name) for name in saved if name not in cls.KEYS]
        if unknown:
            raise _state_error(unknown[0], f"is not part of a solver state, which holds "
                                           f"{', '.join(cls.KEYS)}")
        shape = game.legal_mask.shape
        rng = _converted(saved["rng"], np.uint64, "rng")
        state = cls(regret_sum=_converted(saved["regret_sum"], np.float64, "regret_sum"),
                    strategy_sum=_converted(saved["strategy_sum"], np.float64, "strategy_sum"),
                    current=np.zeros(shape), instant=np.zeros(shape),
                    rng=rng.reshape(1) if rng.ndim == 0 else rng,
                    iteration=saved["iteration"],
                    nodes_touched=saved.get("nodes_touched", 0),
                    elapsed=saved.get("elapsed", 0.0),
                    generator=copy.deepcopy(saved.get("generator")))
        state.validate(game)
        state.iteration = int(state.iteration)
        state.nodes_touched = int(state.nodes_touched)
        state.elapsed = float(state.elapsed)
        return state


#: The largest iteration count and node count a solver state may hold: far beyond any run,
#: and with room to go on counting in 64 bits.
MAX_COUNT = 2**62


def _same_state(read, given) -> bool:
    """Whether numpy's reading of a bit generator state equals the state given (numpy may
    reduce an out-of-range number silently)."""
    if isinstance(read, dict) and isinstance(given, dict):
        return read.keys() == given.keys() and all(_same_state(read[k], given[k]) for k in read)
    if isinstance(read, np.ndarray) or isinstance(given, (list, np.ndarray)):
        try:
            return bool(np.array_equal(np.asarray(read), np.asarray(given)))
        except (TypeError, ValueError, OverflowError):
            return False
    return type(read) is type(given) and read == given or (
        isinstance(read, Integral) and isinstance(given, Integral)
        and not isinstance(given, bool) and int(read) == int(given))


def _state_error(name: str, what: str) -> ValueError:
    return ValueError(f"solver state field {name!r} {what}")


def _converted(value, dtype, name: str) -> np.ndarray:
    try:
        return np.array(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        raise _state_error(name, f"cannot be read as {np.dtype(dtype)} numbers ({exc})") \
            from None


# --- recorder --------------------------------------------------------------------------

#: The tables in the order :meth:`Recorder.add` takes them.
_ADD_ORDER = ("cumulative_regret", "instantaneous_regret", "current_strategy", "average_strategy")

class Recorder:
    """Collects a run's records and builds its :class:`Trace`: the one place traces are made.

    Parameters
    ----------
    game
        The game being solved (its ``legal_mask`` gives the tables' shape).
    average : callable, optional
        ``average(strategy_sum) -> table``, the average strategy of a state,
        for :meth:`snapshot`.
    stack : callable, optional
        ``stack(rows) -> array of shape (records, I, A)`` for one table's rows;
        by default numpy stacks them.  A solver that records rows of another
        form (regret matching's per-player lists) passes its own.
    timed : bool, default True
        Keep :data:`TIMING_EXTRAS` for every record, from the state's
        ``elapsed`` and ``nodes_touched``.
    """

    def __init__(self, game, average: Callable | None = None, stack: Callable | None = None,
                 timed: bool = True):
        self.game = game
        self.shape = game.legal_mask.shape
        self._average = average
        self._stack = stack if stack is not None else self._stack_arrays
        self.timed = timed
        self.iterations: list[int] = []
        self.tables: dict[str, list] = {spec.name: [] for spec in RECORD_ARRAYS if spec.table}
        self.timing: dict[str, list] = {name: [] for name, _ in TIMING_EXTRAS}
        # Bound appends in the order add() takes its arguments: regret matching records
        # every iteration from a plain-Python loop, where lookups per call show.
        self._appends = tuple(rows.append for rows in (
            self.iterations, *(self.tables[name] for name in _ADD_ORDER)))
        self._timing_appends = tuple(self.timing[name].append for name, _ in TIMING_EXTRAS)

    def __len__(self) -> int:
        return len(self.iterations)

    @property
    def last(self) -> int | None:
        """The last iteration recorded, or None."""
        return self.iterations[-1] if self.iterations else None

    def snapshot(self, state: SolverState) -> None:
        """Record ``state`` as it stands after its iteration: copies, never views."""
        if self._average is None:
            raise TypeError("Recorder.snapshot needs the average= function given to the "
                            "recorder")
        self.add(state.iteration, state.regret_sum.copy(), state.instant.copy(),
                 state.current.copy(), self._average(state.strategy_sum),
                 elapsed=state.elapsed, nodes_touched=state.nodes_touched)

    def add(self, iteration: int, cumulative_regret, instantaneous_regret, current_strategy,
            average_strategy, elapsed: float = 0.0, nodes_touched: int = 0) -> None:
        """Record one row whose values the caller will never change (copies, or fresh lists)."""
        it, cum, inst, cur, avg = self._appends
        it(iteration)
        cum(cumulative_regret)
        inst(instantaneous_regret)
        cur(current_strategy)
        avg(average_strategy)
        if self.timed:
            spent, touched = self._timing_appends
            spent(elapsed)
            touched(nodes_touched)

    def trace(self, algorithm: str, params: dict, state: SolverState, *,
              exploitability: Callable | None = None, interrupted: bool = False,
              resume: Trace | None = None, stop: Callable[[], bool] | None = None,
              block: int = 1, notes: Mapping[str, str] | None = None) -> Trace:
        """The trace of the run: records stacked, evaluated, and joined after ``resume``'s.

        Parameters
        ----------
        algorithm : str
        params : dict
            The run's settings; ``interrupted`` (and ``resumed_from``) are added.
        state : SolverState
            The final state, kept as the trace's ``state``.
        exploitability : callable, optional
            ``exploitability(tables of shape (k, I, A)) -> (k,)``, called on
            ``block`` records at a time; when omitted the exploitabilities are
            NaN (a run that asked for no evaluation).
        interrupted : bool
        resume : Trace, optional
            The trace this run continued: its records come first.
        stop : callable, optional
            Asked before each block: when it returns True (a second Ctrl-C),
            evaluation ends there, the records not evaluated keep NaN, and a
            ``RuntimeWarning`` says from which iteration on.
        block : int, default 1
            Records per call of ``exploitability``.
        notes : mapping, optional
            Strings kept in the trace's ``extras`` (e.g. how the schedule was chosen).

        Raises
        ------
        KeyboardInterrupt
            When nothing was recorded and nothing is resumed (interrupted
            before the first iteration finished).
        """
        if not self.iterations and resume is None:
            raise KeyboardInterrupt(f"{algorithm} was interrupted before its first iteration "
                                    "finished")
        arrays = {}
        for spec in RECORD_ARRAYS:
            if spec.table:
                arrays[spec.name] = self._stack(self.tables[spec.name])
            elif spec.evaluates is None:
                arrays[spec.name] = np.array(self.iterations, dtype=spec.dtype)
        records = len(self.iterations)
        evaluated = [spec for spec in RECORD_ARRAYS if spec.evaluates is not None]
        for spec in evaluated:
            arrays[spec.name] = np.full(records, np.nan)
        done = 0
        while exploitability is not None and done < records:
            if stop is not None and stop():
                warnings.warn(f"{algorithm}: evaluation interrupted; the exploitability of the "
                              f"{records - done} records from iteration {self.iterations[done]} "
                              f"on is NaN (cfrviz.exploitability(trace.game, "
                              f"trace.average_policy(iteration)) evaluates one)",
                              RuntimeWarning, stacklevel=3)
                break
            end = min(records, done + max(1, block))
            for spec in evaluated:
                arrays[spec.name][done:end] = exploitability(arrays[str(spec.evaluates)][done:end])
            done = end
        extras: dict[str, Any] = {}
        if self.timed:
            extras = {name: np.array(self.timing[name], dtype=dtype)
                      for name, dtype in TIMING_EXTRAS}
        if resume is not None:
            arrays = {spec.name: np.concatenate([getattr(resume, spec.name),
                                                 arrays[spec.name]])
                      for spec in RECORD_ARRAYS}
            for name in extras:
                extras[name] = np.concatenate([resume.extras[name], extras[name]])
        if self.timed:
            extras["total_time"] = float(state.elapsed)
        extras.update(notes or {})
        run_params = dict(params, interrupted=interrupted)
        if resume is not None and resume.state is not None:
            run_params["resumed_from"] = int(resume.state["iteration"])
        return Trace(game=self.game, algorithm=algorithm, params=run_params, extras=extras,
                     state=state.as_dict(), **arrays)

    def _stack_arrays(self, rows) -> np.ndarray:
        return np.array(rows) if rows else np.zeros((0, *self.shape))


__all__ = ["DEFAULT_TRACE_BYTES", "MAX_TRACE_BYTES", "RECORD_ARRAYS", "TIMING_EXTRAS",
           "RecordArray", "Recorder", "SolverState", "Trace", "check_records", "record_nbytes",
           "record_shape"]
