"""The training loop every tree algorithm shares: chunks, checkpoints, progress, interrupts, resume.

An algorithm supplies a *step*: a function that advances the solver state
(a :class:`~cfrviz.core.trace.SolverState`) from iteration ``first`` to
``last`` in compiled code and returns the number of nodes it touched.  The
driver decides how many iterations go into each call (about a tenth of a
second's worth, so a progress bar moves and an interrupt is honoured
quickly), has a :class:`~cfrviz.core.trace.Recorder` take snapshots at the
checkpoints, and evaluates them once the run is over.

Regret matching runs its own plain-Python loop but shares the pieces: the
chunk size, the deferred Ctrl-C, the progress bar, the resume checks and the
recorder.
"""

from __future__ import annotations

import signal
import threading
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np

from ..core.trace import Recorder, SolverState, Trace
from ..core.tree import GameTree
from ..engine import seed_state, tree_exploitability

#: Checkpoint schedules record every iteration while the four recorded
#: (information sets x actions) tables stay below this many numbers in all.
EVERY_ITERATION_BUDGET = 2_000_000
#: Target wall time of one compiled call (one chunk of iterations), in seconds.
CHUNK_SECONDS = 0.1


def default_checkpoints(iterations: int, table_size: int = 1) -> list[int]:
    """The iterations a run records when the caller does not say.

    Every iteration when the trace stays small (``4 * iterations *
    table_size`` numbers within :data:`EVERY_ITERATION_BUDGET`: small games);
    otherwise every iteration up to 100, then about 100 log-spaced ones up to
    the last.
    """
    if 4 * iterations * table_size <= EVERY_ITERATION_BUDGET:
        return list(range(1, iterations + 1))
    points = set(range(1, min(iterations, 100) + 1))
    if iterations > 100:
        points.update(np.unique(np.geomspace(100, iterations, 100).astype(int)).tolist())
    points.add(iterations)
    return sorted(points)


def average_strategy(strategy_sum: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Normalise a strategy sum per information set; never-reached sets play uniformly."""
    totals = strategy_sum.sum(axis=-1, keepdims=True)
    uniform = mask / mask.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, strategy_sum / np.where(totals > 0, totals, 1), uniform)


def chunk_size(per_iteration: float | None, remaining: int) -> int:
    """Iterations in the next chunk: one to time the first, then about :data:`CHUNK_SECONDS`."""
    if per_iteration is None:
        return 1
    return int(max(1, min(remaining, CHUNK_SECONDS / max(per_iteration, 1e-9))))


@contextmanager
def deferred_interrupt():
    """Turn Ctrl-C / a kernel interrupt into a flag the loop checks between chunks.

    Compiled code cannot be stopped half-way; with the flag the run ends at
    the next chunk boundary, with a consistent state.  Off the main thread
    (where Python delivers no signals) this does nothing.
    """
    flag = {"hit": False}
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(_signum, _frame):
        flag["hit"] = True

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def progress_bar(total: int, initial: int, algorithm: str, game: str, progress):
    """A tqdm bar (notebook widget or terminal line), or None.

    ``progress=None`` shows a bar only for runs still going after two seconds.
    """
    if progress is False:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, desc=f"{algorithm} on {game}", unit="it",
                delay=0 if progress else 2.0, leave=bool(progress), mininterval=0.2)


def warn_interrupted(algorithm: str, done: int, iterations: int, during: int | None = None,
                     stacklevel: int = 2) -> None:
    """The RuntimeWarning of an interrupted run (``during``: the iteration cut short, if any)."""
    cut = "" if during is None else f"at iteration {during}, "
    warnings.warn(f"{algorithm} interrupted {cut}after iteration {done} of {iterations}; the "
                  f"trace holds what was done and can be resumed with "
                  f"cfrviz.solve(..., resume=trace)", RuntimeWarning, stacklevel=stacklevel + 1)


def run(game: GameTree, algorithm: str, iterations: int, rng: np.random.Generator, record,
        params: dict, step: Callable, progress=None, resume: Trace | None = None) -> Trace:
    """Run ``step`` from iteration 1 (or the resumed one) to ``iterations`` and build the trace.

    Parameters
    ----------
    step : callable
        ``step(state, first, last) -> nodes touched`` advancing ``state`` (a
        :class:`~cfrviz.core.trace.SolverState`: it reads and updates
        ``state.regret_sum``, ``strategy_sum``, ``current``, ``instant`` and
        ``rng`` in place) through iterations ``first..last``.
    record : list of int or None
        From :func:`cfrviz.solve`: ``None`` for :func:`default_checkpoints`,
        ``[]`` for the final state only with no evaluation.
    resume : Trace, optional
        A trace of the same game, algorithm and parameters whose ``state``
        the run continues; its records are kept in front of the new ones.
    """
    mask = game.legal_mask
    if resume is not None:
        state = resume_state(game, algorithm, iterations, params, resume)
    else:
        state = SolverState.fresh(game, rng=seed_state(rng))
    start = state.iteration
    evaluate = record is None or bool(record)
    if record is None:
        record = default_checkpoints(iterations, mask.size)
    wanted = [t for t in (record or [iterations]) if t > start]
    recorder = Recorder(game, average=lambda strategy_sum: average_strategy(strategy_sum, mask))
    interrupted = False
    step(state, start + 1, start)  # compiles on first use, outside the timed loop and the bar
    bar = progress_bar(iterations, start, algorithm, game.name, progress)
    per_iteration = None
    try:
        with deferred_interrupt() as flag:
            for target in wanted:
                while state.iteration < target and not flag["hit"]:
                    first = state.iteration + 1
                    size = chunk_size(per_iteration, target - state.iteration)
                    tick = time.perf_counter()
                    state.nodes_touched += step(state, first, first + size - 1)
                    spent = time.perf_counter() - tick
                    state.elapsed += spent
                    state.iteration += size
                    per_iteration = spent / size
                    if bar is not None:
                        bar.update(size)
                if state.iteration == target:
                    recorder.snapshot(state)
                if flag["hit"]:
                    interrupted = True
                    break
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        if state.iteration > start and recorder.last != state.iteration:
            recorder.snapshot(state)  # nothing finished is lost
        warn_interrupted(algorithm, state.iteration, iterations, stacklevel=3)

    def exploitability(tables):
        return np.array([tree_exploitability(game, table) for table in tables])

    return recorder.trace(algorithm, params, state,
                          exploitability=exploitability if evaluate else None,
                          interrupted=interrupted, resume=resume)


def resume_state(game, algorithm: str, iterations: int, params: dict, trace) -> SolverState:
    """The state to continue ``trace`` from, after checking it is a run of the same kind.

    Raises
    ------
    ValueError
        When ``trace`` is not a trace with a solver state, was recorded by
        another algorithm, on another game or with other parameters, already
        has ``iterations`` iterations, or holds a state that does not fit the
        game (the message names the field).
    """
    if not isinstance(trace, Trace) or trace.state is None:
        raise ValueError("resume= takes a Trace returned by cfrviz.solve (or loaded with "
                         "cfrviz.load_trace); this one has no solver state")
    if trace.algorithm != algorithm:
        raise ValueError(f"cannot resume a {trace.algorithm} run as {algorithm}")
    if not _same_game(trace.game, game):
        if trace.game.name == game.name:
            raise ValueError(f"this trace was recorded on another version of {game.name}: its "
                             "information sets or payoffs differ")
        raise ValueError(f"this trace was recorded on {trace.game.name}, not {game.name}")
    old = {k: v for k, v in trace.params.items()
           if k not in ("interrupted", "seed", "iterations", "resumed_from")}
    if old != params:
        raise ValueError(f"resume with the run's own parameters {old}; got {params}")
    state = SolverState.from_dict(trace.state, game)
    if iterations <= state.iteration:
        raise ValueError(f"the trace already has {state.iteration} iterations; ask for more "
                         f"than that to resume (got iterations={iterations})")
    return state


def _same_game(a, b) -> bool:
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
