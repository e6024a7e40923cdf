"""The one training loop: chunks, checkpoints, progress, interrupts, evaluation, resume.

A runner checks what only it knows, builds the starting state (fresh, or resumed with
:func:`resume_state`) and a :class:`Stepper` (how to advance: ``step(state, first, last)``, which
returns the :class:`Chunk` it did with its records; how to record the state; the recorder, the
schedule, the evaluation).  :func:`iterate` is the loop, a generator: it asks the step for about a
tenth of a second's worth of iterations at a time and yields a :class:`Progress` (records included)
after each, so whoever consumes it decides what happens between chunks.  :func:`drive` consumes it
into a trace for :func:`cfrviz.solve` (a progress bar, Ctrl-C deferred, the records evaluated at
the end); :func:`cfrviz.solvers.subgame.resolve_steps` consumes it directly.  Every algorithm goes
through it: the tree kernels (:func:`tree_stepper` runs a compiled kernel up to each checkpoint and
records there), regret matching (a plain-Python step that records inside its chunks) and Deep CFR
(one iteration per step, :func:`one_at_a_time`).  Around that loop it keeps the guards every run
needs: a bounded schedule (:func:`schedule`), a payoff scale that cannot overflow
(:func:`check_payoff_scale`, called by the runners before the state is built), a finite state after
every chunk (:func:`check_finite`), and Ctrl-C deferred until the trace is built
(:func:`deferred_interrupt`).
"""

from __future__ import annotations

import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

import numpy as np

from ..core.regret import average_strategy as average_strategy  # re-exported
from ..core.trace import (
    DEFAULT_TRACE_BYTES,
    MAX_TRACE_BYTES,
    RECORD_ARRAYS,
    TIMING_EXTRAS,
    Recorder,
    SolverState,
    Trace,
    check_records,
    record_nbytes,
)
from ..core.trace.recorder import Table
from ..core.tree import GameTree
from ..core.types import FloatArray, GameLike
from ..engine import seed_state, tree_exploitabilities
from ..games.matrix import MatrixGame
from .progress import progress_bar
from .recorded import RUN_RECORDS, check_recorded_run
from .registry import Request, check_request

#: The games a run solves: trees, and matrix games (regret matching).
Solved = GameTree | MatrixGame

#: Checkpoint schedules record every iteration while the four recorded
#: (information sets x actions) tables stay below this many numbers in all.
EVERY_ITERATION_BUDGET = 2_000_000
#: A tree run evaluates its records this many tree nodes' worth at a time (one compiled call;
#: a few milliseconds on this machine), so a second Ctrl-C still ends the evaluation at once.
EVALUATION_NODES = 500_000
#: Target wall time of one compiled call (one chunk of iterations), in seconds.
CHUNK_SECONDS = 0.1
#: Where the default schedule's note goes in ``trace.extras`` when it was thinned.
SCHEDULE_NOTE = "schedule_note"


def default_checkpoints(iterations: int, table_size: int = 1, timed: bool = True) -> list[int]:
    """The iterations a run records when the caller does not say.

    Every iteration when the trace stays small (``4 * iterations * table_size`` numbers within
    :data:`EVERY_ITERATION_BUDGET`: small games); otherwise every iteration up to 100, then about
    100 log-spaced ones up to the last.  That schedule is then thinned (evenly along it) when its
    trace would take more than :data:`~cfrviz.core.trace.DEFAULT_TRACE_BYTES`, whatever the game:
    down to the last iteration alone for a game one record of which is larger than that.

    Parameters
    ----------
    iterations : int
    table_size : int
        Entries of one (information sets x actions) table, ``game.legal_mask.size``.
    timed : bool
        Whether the run keeps the timing extras (the tree solvers do), which
        count towards the budget.
    """
    points = _unthinned_checkpoints(iterations, table_size)
    fits = max(1, DEFAULT_TRACE_BYTES // record_nbytes(table_size, timed))
    if len(points) <= fits:
        return points
    if fits == 1:
        return [iterations]
    # Every k-th point of the schedule, evenly: its shape (dense early, sparse later) stays.
    keep = np.round(np.linspace(0, len(points) - 1, fits)).astype(np.int64)
    return [points[k] for k in keep.tolist()]


def _unthinned_checkpoints(iterations: int, table_size: int) -> list[int]:
    if 4 * iterations * table_size <= EVERY_ITERATION_BUDGET:
        return list(range(1, iterations + 1))
    points = set(range(1, min(iterations, 100) + 1))
    if iterations > 100:
        points.update(np.unique(np.geomspace(100, iterations, 100).astype(int)).tolist())
    points.add(iterations)
    return sorted(points)


@dataclass(frozen=True)
class Schedule:
    """What a run records: the checkpoints, whether to evaluate them, and notes for the trace."""

    points: list[int]
    evaluate: bool
    notes: dict[str, str]


def schedule(record: list[int] | None, iterations: int, table_size: int,
             timed: bool = True) -> Schedule:
    """The checkpoints of a run, from :func:`cfrviz.solve`'s ``record``.

    ``None`` gives :func:`default_checkpoints`, with a note in the trace's
    ``extras["schedule_note"]`` when it had to be thinned to fit
    :data:`~cfrviz.core.trace.DEFAULT_TRACE_BYTES`; ``[]`` the final state only, not evaluated; a
    list is honoured as it is.

    Raises
    ------
    ValueError
        For an explicit schedule whose trace would take more than
        :data:`~cfrviz.core.trace.MAX_TRACE_BYTES`, saying how much it would take.
    """
    per_record = record_nbytes(table_size, timed)
    if record is None:
        points = default_checkpoints(iterations, table_size, timed)
        full = len(_unthinned_checkpoints(iterations, table_size))
        notes = {}
        if len(points) < full:
            notes[SCHEDULE_NOTE] = (
                f"the default schedule was thinned from {full} to {len(points)} records "
                f"({per_record:,} bytes each) to keep the trace under "
                f"{DEFAULT_TRACE_BYTES / 1e6:g} MB; pass checkpoints= to choose them")
        return Schedule(points, True, notes)
    points = list(record) or [iterations]
    size = len(points) * per_record
    if size > MAX_TRACE_BYTES:
        raise ValueError(f"checkpoints: {len(points):,} records of {per_record:,} bytes would "
                         f"make a trace of {size / 1e9:.1f} GB, more than the "
                         f"{MAX_TRACE_BYTES / 1e9:g} GB a trace may take; record fewer "
                         "iterations (checkpoints=None picks a schedule that fits)")
    return Schedule(points, bool(record), {})


def chunk_size(per_iteration: float | None, remaining: int) -> int:
    """Iterations in the next chunk: one to time the first, then about :data:`CHUNK_SECONDS`."""
    if per_iteration is None:
        return 1
    return int(max(1, min(remaining, CHUNK_SECONDS / max(per_iteration, 1e-9))))


class InterruptFlag:
    """Counts the Ctrl-Cs (kernel interrupts) a run has received since it last looked."""

    def __init__(self) -> None:
        self.count = 0

    @property
    def hit(self) -> bool:
        """Whether an interrupt arrived since the last :meth:`clear`."""
        return self.count > 0

    def clear(self) -> None:
        """Forget the interrupts so far (the next one asks for something else)."""
        self.count = 0


@contextmanager
def deferred_interrupt() -> Iterator[InterruptFlag]:
    """Turn Ctrl-C / a kernel interrupt into a flag the run checks between steps.

    Compiled code cannot be stopped half-way, and a ``KeyboardInterrupt`` raised while a numba
    function is being called or returns surfaces as a ``SystemError``; with the flag the run ends
    at the next chunk boundary, with a consistent state.  Runners keep it installed until their
    trace is built (snapshots and evaluation included), so no interrupt is ever raised inside a
    compiled call.  Off the main thread (where Python delivers no signals) this does nothing.
    """
    flag = InterruptFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(_signum: int, _frame: object) -> None:
        flag.count += 1

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def check_payoff_scale(game: Solved, iterations: int, algorithm: str) -> None:
    """Refuse a game whose payoffs could overflow float64 sums over ``iterations`` iterations.

    Counterfactual values are bounded by the largest payoff ``U`` (reach probabilities are at
    most 1), an iteration's regrets by ``2 U``, and their weighted sum over ``T`` iterations by
    ``U T (T + 1)`` (linear weights ``t`` included); regret matching adds up to (actions) of
    them.  Sampling algorithms also divide by sampling probabilities, which this bound does not
    cover: :func:`check_finite` catches those after each chunk.

    Raises
    ------
    ValueError
        Naming the largest payoff and the bound it would reach.
    """
    largest = _largest_payoff(game)
    with np.errstate(over="ignore"):
        bound = np.float64(largest) * iterations * (iterations + 1) * game.legal_mask.shape[1]
    if not np.isfinite(bound) or bound > np.finfo(np.float64).max:
        raise ValueError(f"{algorithm} on {game.name}: payoffs as large as {largest:.3g} are too "
                         f"large for {iterations} iterations: regret sums could reach "
                         f"{largest:.3g} x {iterations} x {iterations + 1} x "
                         f"{game.legal_mask.shape[1]} actions, beyond the largest float64 "
                         f"({np.finfo(np.float64).max:.3g}); scale the payoffs down (the "
                         "strategies do not change when every payoff is divided by the same "
                         "number)")


def _largest_payoff(game: GameLike) -> float:
    if not isinstance(game, (GameTree, MatrixGame)):
        raise TypeError(f"cfrviz solves game trees and matrix games; got {type(game).__name__}")
    payoffs = game.utility if isinstance(game, GameTree) else game.payoffs
    return float(np.max(np.abs(payoffs))) if payoffs.size else 0.0


#: Readable names of the solver state's tables, for errors.
_TABLE_NAMES = {"regret_sum": "cumulative regrets", "strategy_sum": "strategy sums",
                "current": "current strategy", "instant": "instantaneous regrets"}


def check_finite(state: SolverState, first: int, last: int, algorithm: str,
                 game: GameLike) -> None:
    """Stop a run whose state went infinite or NaN during iterations ``first..last``.

    Raises
    ------
    ValueError
        Naming the table, the iterations and the likely cause.
    """
    for name in SolverState.TABLES:
        if not np.isfinite(getattr(state, name)).all():
            largest = _largest_payoff(game)
            span = f"iteration {last}" if first == last else f"iterations {first}..{last}"
            raise ValueError(f"{algorithm} on {game.name}: the {_TABLE_NAMES[name]} ({name}) "
                             f"became infinite or NaN during {span}: the payoffs (up to "
                             f"{largest:.3g} in absolute value) or the sampling weights are "
                             "too large for float64 sums; scale the payoffs down")


def warn_interrupted(algorithm: str, done: int, iterations: int, during: int | None = None,
                     stacklevel: int = 2, resumable: bool = True) -> None:
    """The RuntimeWarning of an interrupted run (``during``: the iteration cut short, if any)."""
    cut = "" if during is None else f"at iteration {during}, "
    then = ("and can be resumed with cfrviz.solve(..., resume=trace)" if resumable else
            f"(a {algorithm} run cannot be resumed)")
    warnings.warn(f"{algorithm} interrupted {cut}after iteration {done} of {iterations}; the "
                  f"trace holds what was done {then}", RuntimeWarning, stacklevel=stacklevel + 1)


#: ``run(state, first, last) -> nodes touched``: a tree kernel's iterations ``first..last``.
RunIterations = Callable[[SolverState, int, int], int]

#: One record, in :meth:`~cfrviz.core.trace.Recorder.add`'s order: (iteration, cumulative
#: regrets, instantaneous regrets, current strategy, average strategy), values never changed
#: after (copies, or fresh lists).
Row: TypeAlias = tuple[int, Table, Table, Table, Table]


@dataclass(frozen=True)
class Chunk:
    """What one call of a :class:`Stepper`'s ``step`` did."""

    last: int  # the last iteration finished (a step may stop early: at a checkpoint, ...)
    touched: int  # nodes touched
    records: list[Row] = field(default_factory=list)  # those of the checkpoints it passed
    interrupted: bool = False  # a KeyboardInterrupt raised by code cut it short after last


#: ``step(state, first, last) -> Chunk``: an algorithm's iterations ``first..`` at most ``last``.
Step = Callable[[SolverState, int, int], Chunk]


@dataclass
class Stepper:
    """What an algorithm hands the loop: how to advance, record and evaluate one run.

    ``step(state, first, last)`` advances ``state`` (a :class:`~cfrviz.core.trace.SolverState`,
    fresh or resumed) in place from iteration ``first`` to at most ``last`` and returns the
    :class:`Chunk` it did, with the records of the checkpoints it passed; the loop then sets
    ``state.iteration``.  ``record(state)`` is the record of the state as it stands (the last
    finished iteration of an interrupted run).  A step that runs Python code may raise
    ``KeyboardInterrupt`` part-way, after leaving ``state`` at its last finished iteration.
    """

    state: SolverState
    step: Step
    record: Callable[[SolverState], Row]
    recorder: Recorder
    plan: Schedule
    exploitability: Callable[[FloatArray], FloatArray]
    block: int = 1  # records per exploitability call
    resumable: bool = True


@dataclass(frozen=True)
class Progress:
    """What :func:`iterate` yields: where the run stands after a chunk (the first, with
    ``done == 0``, once the step is compiled); the last of a run a Ctrl-C ended is
    ``interrupted``, its records ending with the last finished iteration's."""

    iteration: int  # the last iteration finished
    done: int  # iterations finished since the last Progress
    records: list[Row]  # records taken since the last Progress
    elapsed: float  # the state's totals, for the records' timing
    nodes_touched: int
    interrupted: bool = False
    during: int | None = None  # the iteration a KeyboardInterrupt raised by code cut short


def iterate(request: Request, stepper: Stepper,
            stop: Callable[[], bool] = lambda: False) -> Iterator[Progress]:
    """The one training loop, as a generator: run ``stepper`` to ``request.iterations``.

    Yields a :class:`Progress` once the step is compiled (before any iteration), then after
    every chunk.  Chunks last about :data:`CHUNK_SECONDS` (the step may stop earlier: at a
    checkpoint, or after one long iteration), so a consumer's bar moves and an interrupt is
    honoured quickly; after each the state is checked finite (:func:`check_finite`).  When
    ``stop()`` turns true (a deferred Ctrl-C: :func:`deferred_interrupt`), or the step is cut
    short by a ``KeyboardInterrupt``, the run ends and its last :class:`Progress` is marked
    ``interrupted``, with the record of the last finished iteration if no record holds it.
    Between two yields the consumer owns the time (a widget draws, a re-solve switches Ctrl-C
    back); :func:`drive` consumes this into a :class:`~cfrviz.core.trace.Trace`.
    """
    state, name, game = stepper.state, request.name, stepper.recorder.game
    start = recorded = state.iteration
    stepper.step(state, start + 1, start)  # compiles on first use, outside the timed loop
    yield Progress(start, 0, [], state.elapsed, state.nodes_touched)
    per_iteration: float | None = None
    while state.iteration < request.iterations and not stop():
        first = state.iteration + 1
        size = chunk_size(per_iteration, request.iterations - state.iteration)
        tick = time.perf_counter()
        try:
            chunk = stepper.step(state, first, first + size - 1)
        except KeyboardInterrupt:  # raised by code, not the signal (a flag)
            chunk = Chunk(state.iteration, 0, interrupted=True)
        spent = time.perf_counter() - tick
        state.nodes_touched += chunk.touched
        state.elapsed += spent
        state.iteration = chunk.last
        records = chunk.records
        if records:
            recorded = records[-1][0]
        if chunk.interrupted:
            yield _ended(stepper, start, recorded, records, first - 1, chunk.last + 1)
            return
        per_iteration = spent / max(1, chunk.last - first + 1)
        check_finite(state, first, state.iteration, name, game)
        yield Progress(state.iteration, chunk.last - first + 1, records, state.elapsed,
                       state.nodes_touched)
    if stop():
        yield _ended(stepper, start, recorded, [], state.iteration, None)


def _ended(stepper: Stepper, start: int, recorded: int, records: list[Row], before: int,
           during: int | None) -> Progress:
    """The last :class:`Progress` of an interrupted run: nothing finished is lost."""
    state = stepper.state
    if state.iteration > start and recorded != state.iteration:
        records = [*records, stepper.record(state)]
    return Progress(state.iteration, state.iteration - before, records, state.elapsed,
                    state.nodes_touched, interrupted=True, during=during)


def one_at_a_time(stepper: Stepper) -> Stepper:
    """``stepper`` asked for one iteration per step (each is long: Deep CFR)."""
    step = stepper.step
    return replace(stepper, step=lambda state, first, last: step(state, first, min(first, last)))


def drive(request: Request, stepper: Stepper) -> Trace:
    """The one training loop (:func:`iterate`) consumed into a trace, with a progress bar and
    Ctrl-C deferred.

    Ctrl-C is deferred from before the first step until the trace is built: a first one ends
    the run at the next chunk boundary (the last finished iteration is recorded), a further
    one ends the evaluation of the records (those not evaluated keep a NaN exploitability);
    either way the trace comes back, with a ``RuntimeWarning``.  The trace records the
    request's settings (:meth:`~cfrviz.solvers.registry.Request.settings`), then its seed and
    iterations.
    """
    state, recorder, plan = stepper.state, stepper.recorder, stepper.plan
    name, add = request.name, recorder.add
    interrupted, during = False, None
    with deferred_interrupt() as flag:
        run = iterate(request, stepper, stop=lambda: flag.hit)
        compiled = next(run)
        bar = progress_bar(request.iterations, compiled.iteration, name, recorder.game.name,
                           request.progress)
        try:
            for progress in run:
                for row in progress.records:
                    add(*row, elapsed=progress.elapsed, nodes_touched=progress.nodes_touched)
                if bar is not None and not progress.interrupted:
                    bar.update(progress.done)
                interrupted, during = progress.interrupted, progress.during
        finally:
            if bar is not None:
                bar.close()
        if interrupted:
            warn_interrupted(name, state.iteration, request.iterations, during=during,
                             stacklevel=4, resumable=stepper.resumable)
        flag.clear()  # from here on a Ctrl-C ends the evaluation
        trace = recorder.trace(name, request.settings(), state,
                               exploitability=stepper.exploitability if plan.evaluate else None,
                               interrupted=interrupted, resume=request.resume,
                               stop=lambda: flag.hit, block=stepper.block, notes=plan.notes)
    trace.params.update(seed=request.seed, iterations=request.iterations)
    return trace


def tree_record(tree: GameTree) -> Callable[[SolverState], Row]:
    """The record of a tree algorithm's state as it stands: copies of its tables, the average
    by the one normaliser."""
    mask = tree.legal_mask

    def record(state: SolverState) -> Row:
        return (state.iteration, state.regret_sum.copy(), state.instant.copy(),
                state.current.copy(), average_strategy(state.strategy_sum, mask))
    return record


def tree_stepper(request: Request, tree: GameTree, state: SolverState, run: RunIterations,
                 **how: Any) -> Stepper:
    """A tree algorithm's :class:`Stepper`: ``run(state, first, last) -> nodes touched`` up to
    each checkpoint of the request's schedule, where the state is recorded
    (:func:`tree_record`), and the compiled exploitability of each record (``how``: the
    stepper's other fields, e.g. ``resumable=False``, or its own ``record``)."""
    plan = schedule(request.record, request.iterations, tree.legal_mask.size)
    points = np.array(plan.points, dtype=np.int64)
    fields: dict[str, Any] = {"record": tree_record(tree), "exploitability": lambda tables:
                              tree_exploitabilities(tree, tables),
                              "block": max(1, EVALUATION_NODES // tree.num_nodes), **how}
    record = fields["record"]

    def step(state: SolverState, first: int, last: int) -> Chunk:
        at = int(np.searchsorted(points, first))  # the next checkpoint
        end = min(last, int(points[at])) if at < len(points) else last
        touched = run(state, first, end)
        if end < first or at == len(points) or end != points[at]:
            return Chunk(end, touched)
        state.iteration = end
        return Chunk(end, touched, [record(state)])

    return Stepper(state=state, step=step, recorder=Recorder(tree), plan=plan, **fields)


def start_tree(request: Request, tree: GameTree, run: RunIterations, **how: Any) -> Stepper:
    """A tree algorithm's run, ready to iterate: ``run`` (a compiled kernel's
    ``run(state, first, last) -> nodes touched``, which reads and updates the
    :class:`~cfrviz.core.trace.SolverState`'s ``regret_sum``, ``strategy_sum``, ``current``,
    ``instant`` and ``rng`` in place) on a fresh state (its compiled generator seeded from
    ``request.rng``) or the resumed trace's (:func:`resume_state`), by :func:`tree_stepper`
    (``how``: its other fields).

    Raises
    ------
    ValueError
        For payoffs that could overflow float64 sums, an explicit schedule too large to keep,
        or a ``resume`` that does not fit (all before anything runs).
    """
    check_payoff_scale(tree, request.iterations, request.name)
    if request.resume is not None:
        state = resume_state(request, tree)
    else:
        state = SolverState.fresh(tree, rng=seed_state(request.rng))
    return tree_stepper(request, tree, state, run, **how)


def resume_state(request: Request, game: GameLike, timed: bool = True) -> SolverState:
    """The state to continue ``request.resume`` from, after checking it is a run of the same kind.

    Everything is checked before any compiled code runs: the trace's algorithm, game, settings and
    seed against the request; its state (:meth:`~cfrviz.core.trace.SolverState.validate`), records
    (:func:`~cfrviz.core.trace.check_records`, with the timing extras a ``timed`` run joins its new
    records to) and recorded run against each other, the registry and the state's generator
    (:func:`~cfrviz.solvers.recorded.check_recorded_run`).  Then the run it claims is replayed over
    its records of the first :data:`REPLAY_ITERATIONS` iterations, which must come out bit for bit:
    an algorithm, a parameter or a seed changed in a file is refused, never continued under a name
    it was not run with.  Not replayed (a replay costs a few iterations): a trace with no record
    among them (``checkpoints=[]``) or an algorithm with start-only settings (regret matching's
    ``initial_regrets``, which a trace does not keep).

    Raises
    ------
    ValueError
        When the trace has no solver state; was recorded by another algorithm, on another game,
        with other parameters or another seed (the state carries the trace's own random
        stream: a resumed run cannot follow another seed); already has ``iterations``
        iterations; or holds a state or records that do not fit the game, each other or the
        run it claims (the message names the field or array).
    """
    trace = request.resume
    if trace is None or trace.state is None:
        raise ValueError("resume= takes a Trace returned by cfrviz.solve (or loaded with "
                         "cfrviz.load_trace); this one has no solver state")
    _check_same_run(trace, request, game)
    state = SolverState.from_dict(trace.state, game)
    missing = [name for name, _ in TIMING_EXTRAS if timed and name not in trace.extras]
    if missing:
        raise ValueError(f"extras array {missing[0]!r} is missing; a {request.name} trace keeps "
                         f"{', '.join(name for name, _ in TIMING_EXTRAS)} for every record")
    check_records({spec.name: getattr(trace, spec.name) for spec in RECORD_ARRAYS}, game,
                  extras=trace.extras, state=state)
    check_recorded_run(trace.algorithm, trace.params, state)
    if request.iterations <= state.iteration:
        raise ValueError(f"the trace already has {state.iteration} iterations; ask for more "
                         f"than that to resume (got iterations={request.iterations})")
    if not request.algorithm.start_only:
        _replay(request, trace)
    if int(trace.iterations[-1]) == state.iteration:
        # The last record is the state's (check_records): its current strategy and its
        # regrets, which a predictive algorithm's next step reads, continue bit for bit.
        state.current[...] = trace.current_strategy[-1]
        state.instant[...] = trace.instantaneous_regret[-1]
    return state


def _check_same_run(trace: Trace, request: Request, game: GameLike) -> None:
    """Refuse a trace that is not a run of the request's algorithm on ``game`` (or a copy of
    it) with the request's settings and seed."""
    algorithm = request.name
    if trace.algorithm != algorithm:
        raise ValueError(f"cannot resume a {trace.algorithm} run as {algorithm}")
    if not _same_game(trace.game, game):
        if trace.game.name == game.name:
            raise ValueError(f"this trace was recorded on another version of {game.name}: its "
                             "information sets or payoffs differ")
        raise ValueError(f"this trace was recorded on {trace.game.name}, not {game.name}")
    params = request.settings()
    old = {k: v for k, v in trace.params.items() if k not in RUN_RECORDS}
    if old != params:
        raise ValueError(f"resume with the run's own parameters {old}; got {params}")
    recorded, given = trace.params.get("seed"), request.seed
    if recorded is not None and recorded != given:
        raise ValueError(f"resume= continues the trace's own random stream, seeded with "
                         f"{recorded!r}; seed={given} was given. Pass seed={recorded!r} (a "
                         f"resumed run cannot switch seeds), or start a new run without "
                         f"resume= for seed {given}")


#: A resume replays the run its trace claims over its records of these first iterations
#: (DCFR's discounts and averaging weights differ with their parameters from iteration 2).
REPLAY_ITERATIONS = 8


def _replay(request: Request, trace: Trace) -> None:
    """Run the trace's algorithm, settings and seed afresh over its first records and
    refuse the trace unless they come out bit for bit (see :func:`resume_state`)."""
    recorded = trace.iterations
    early = recorded[recorded <= REPLAY_ITERATIONS]
    if not len(early):
        return
    replay = check_request(request.game, request.name, int(early[-1]), request.seed,
                           early.tolist(), {**request.settings(), "progress": False})
    run = replay.algorithm.run(replay)
    fresh = run if isinstance(run, Trace) else run.trace
    for spec in (spec for spec in RECORD_ARRAYS if spec.table):
        same = [np.array_equal(a, b) for a, b in zip(getattr(trace, spec.name)[:len(early)],
                                                     getattr(fresh, spec.name), strict=True)]
        if not all(same):
            k = same.index(False)
            raise ValueError(
                f"this trace is not a {request.name} run with seed={request.seed} and "
                f"{request.settings() or 'no parameters'}: replayed from the start, its record "
                f"array {spec.name!r} at iteration {early[k]} comes out otherwise, so its "
                f"algorithm, parameters or seed were changed after it was recorded. Resume "
                f"only a trace as cfrviz.solve recorded it, or start a new run")


def _same_game(a: GameLike, b: GameLike) -> bool:
    """Whether two games have the same information sets and payoffs (trees or matrices)."""
    if a is b:
        return True
    if a.infoset_keys != b.infoset_keys or a.infoset_actions != b.infoset_actions:
        return False
    if isinstance(a, GameTree) and isinstance(b, GameTree):
        return (np.array_equal(a.utility, b.utility)
                and np.array_equal(a.chance_prob, b.chance_prob))
    mine, theirs = getattr(a, "payoffs", None), getattr(b, "payoffs", None)
    return mine is not None and theirs is not None and np.array_equal(mine, theirs)
