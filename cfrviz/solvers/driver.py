"""The training loop every tree algorithm shares: chunks, checkpoints, progress, interrupts, resume.

An algorithm supplies a *step*: a function that advances the solver state
from iteration ``first`` to ``last`` in compiled code and returns the number
of nodes it touched.  The driver decides how many iterations go into each
call (about a tenth of a second's worth, so a progress bar moves and an
interrupt is honoured quickly), takes snapshots at the checkpoints, and
evaluates them once the run is over.
"""

from __future__ import annotations

import signal
import threading
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np

from ..engine import plan, seed_state, tree_exploitability
from ..core.trace import Trace
from ..core.tree import GameTree

#: Checkpoint schedules record every iteration while the four recorded
#: (information sets x actions) tables stay below this many numbers in all.
EVERY_ITERATION_BUDGET = 2_000_000
#: Target wall time of one compiled call, in seconds.
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


@contextmanager
def _deferred_interrupt():
    """Turn Ctrl-C / a kernel interrupt into a flag the loop checks between compiled calls.

    Compiled code cannot be stopped half-way; with the flag the run ends at
    the next chunk boundary, with a consistent state.  Off the main thread
    (where Python delivers no signals) this does nothing.
    """
    flag = {"hit": False}
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def handler(signum, frame):
        flag["hit"] = True

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)


def _progress_bar(total: int, initial: int, algorithm: str, game: str, progress):
    """A tqdm bar (notebook widget or terminal line), or None.

    ``progress=None`` shows a bar only for runs still going after two seconds.
    """
    if progress is False:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, desc=f"{algorithm} on {game}", unit="it",
                delay=0 if progress else 2.0, leave=bool(progress), mininterval=0.2)


def run(game: GameTree, algorithm: str, iterations: int, rng: np.random.Generator, record,
        params: dict, step: Callable, arrays: tuple[str, ...] = (), progress=None,
        resume: Trace | None = None, touched_per_iteration: int | None = None) -> Trace:
    """Run ``step`` from iteration 1 (or the resumed one) to ``iterations`` and build the trace.

    Parameters
    ----------
    step : callable
        ``step(state, first, last) -> nodes touched`` advancing ``state``
        (a dict with ``regret_sum``, ``strategy_sum``, ``current``,
        ``instant`` and ``rng``) in place through iterations ``first..last``.
    record : list of int or None
        From :func:`cfrviz.solve`: ``None`` for :func:`default_checkpoints`,
        ``[]`` for the final state only with no evaluation.
    resume : Trace, optional
        A trace of the same game, algorithm and parameters whose ``state``
        the run continues; its records are kept in front of the new ones.
    """
    mask = game.legal_mask
    table = mask.size
    if resume is not None:
        state, done = _resume_state(game, algorithm, iterations, params, resume)
    else:
        state = {"regret_sum": np.zeros(mask.shape), "strategy_sum": np.zeros(mask.shape),
                 "rng": seed_state(rng), "iteration": 0, "nodes_touched": 0, "elapsed": 0.0}
        done = 0
    state["current"] = np.zeros(mask.shape)
    state["instant"] = np.zeros(mask.shape)
    evaluate = record is None or bool(record)
    if record is None:
        record = default_checkpoints(iterations, table)
    wanted = [t for t in (record or [iterations]) if t > done]
    rows = {key: [] for key in ("it", "cum", "inst", "cur", "avg", "time", "touched")}
    interrupted = False
    elapsed = state["elapsed"]
    touched = state["nodes_touched"]
    step(state, done + 1, done)  # compiles on first use, outside the timed loop and the bar
    bar = _progress_bar(iterations, done, algorithm, game.name, progress)
    per_iteration = None
    try:
        with _deferred_interrupt() as flag:
            for target in wanted:
                while done < target and not flag["hit"]:
                    size = 1 if per_iteration is None else int(
                        max(1, min(target - done, CHUNK_SECONDS / max(per_iteration, 1e-9))))
                    size = min(size, target - done)
                    tick = time.perf_counter()
                    touched += step(state, done + 1, done + size)
                    spent = time.perf_counter() - tick
                    elapsed += spent
                    done += size
                    per_iteration = spent / size
                    if bar is not None:
                        bar.update(size)
                if done == target:
                    _snapshot(rows, state, done, elapsed, touched, mask)
                if flag["hit"]:
                    interrupted = True
                    break
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        if done > 0 and (not rows["it"] or rows["it"][-1] != done):
            _snapshot(rows, state, done, elapsed, touched, mask)  # nothing finished is lost
        warnings.warn(f"{algorithm} interrupted after iteration {done} of {iterations}; the "
                      f"trace holds what was done and can be resumed with "
                      f"cfrviz.solve(..., resume=trace)", RuntimeWarning, stacklevel=3)
    if not rows["it"] and resume is None:
        raise KeyboardInterrupt(f"{algorithm} was interrupted before its first iteration finished")
    new = {
        "it": np.array(rows["it"], dtype=np.int64),
        "cum": _stack(rows["cum"], mask.shape), "inst": _stack(rows["inst"], mask.shape),
        "cur": _stack(rows["cur"], mask.shape), "avg": _stack(rows["avg"], mask.shape),
        "time": np.array(rows["time"], dtype=float),
        "touched": np.array(rows["touched"], dtype=np.int64),
    }
    if evaluate:
        new["expl"] = np.array([tree_exploitability(game, a) for a in new["avg"]])
        new["cur_expl"] = np.array([tree_exploitability(game, c) for c in new["cur"]])
    else:
        new["expl"] = np.full(len(new["it"]), np.nan)
        new["cur_expl"] = np.full(len(new["it"]), np.nan)
    if resume is not None:
        new = _join(resume, new)
    final_state = {"iteration": done, "regret_sum": state["regret_sum"].copy(),
                   "strategy_sum": state["strategy_sum"].copy(), "rng": state["rng"].copy(),
                   "nodes_touched": int(touched), "elapsed": float(elapsed)}
    run_params = dict(params, interrupted=interrupted)
    if resume is not None:
        run_params["resumed_from"] = int(resume.state["iteration"])
    return Trace(
        game=game, algorithm=algorithm, params=run_params,
        iterations=new["it"], cumulative_regret=new["cum"], instantaneous_regret=new["inst"],
        current_strategy=new["cur"], average_strategy=new["avg"],
        exploitability=new["expl"], current_exploitability=new["cur_expl"],
        extras={"elapsed": new["time"], "nodes_touched": new["touched"],
                "total_time": float(elapsed)},
        state=final_state,
    )


def _snapshot(rows, state, done, elapsed, touched, mask) -> None:
    rows["it"].append(done)
    rows["cum"].append(state["regret_sum"].copy())
    rows["inst"].append(state["instant"].copy())
    rows["cur"].append(state["current"].copy())
    rows["avg"].append(average_strategy(state["strategy_sum"], mask))
    rows["time"].append(elapsed)
    rows["touched"].append(touched)


def _stack(items, shape) -> np.ndarray:
    return np.array(items) if items else np.zeros((0, *shape))


def _join(old: Trace, new: dict) -> dict:
    return {
        "it": np.concatenate([old.iterations, new["it"]]),
        "cum": np.concatenate([old.cumulative_regret, new["cum"]]),
        "inst": np.concatenate([old.instantaneous_regret, new["inst"]]),
        "cur": np.concatenate([old.current_strategy, new["cur"]]),
        "avg": np.concatenate([old.average_strategy, new["avg"]]),
        "time": np.concatenate([old.extras["elapsed"], new["time"]]),
        "touched": np.concatenate([old.extras["nodes_touched"], new["touched"]]),
        "expl": np.concatenate([old.exploitability, new["expl"]]),
        "cur_expl": np.concatenate([old.current_exploitability, new["cur_expl"]]),
    }


def _resume_state(game, algorithm, iterations, params, trace) -> tuple[dict, int]:
    if not isinstance(trace, Trace) or trace.state is None:
        raise ValueError("resume= takes a Trace returned by cfrviz.solve for a tree algorithm "
                         "(or loaded with cfrviz.load_trace); this one has no solver state")
    if trace.algorithm != algorithm:
        raise ValueError(f"cannot resume a {trace.algorithm} run as {algorithm}")
    same_game = trace.game is game or (
        trace.game.infoset_keys == game.infoset_keys
        and trace.game.infoset_actions == game.infoset_actions
        and np.array_equal(trace.game.utility, game.utility)
        and np.array_equal(trace.game.chance_prob, game.chance_prob))
    if not same_game:
        raise ValueError(f"this trace was recorded on {trace.game.name}, not {game.name}")
    old = {k: v for k, v in trace.params.items()
           if k not in ("interrupted", "seed", "iterations", "resumed_from")}
    if old != params:
        raise ValueError(f"resume with the run's own parameters {old}; got {params}")
    done = int(trace.state["iteration"])
    if iterations <= done:
        raise ValueError(f"the trace already has {done} iterations; ask for more than that "
                         f"to resume (got iterations={iterations})")
    state = {"regret_sum": np.array(trace.state["regret_sum"], dtype=float),
             "strategy_sum": np.array(trace.state["strategy_sum"], dtype=float),
             "rng": np.array(trace.state["rng"], dtype=np.uint64).reshape(1),
             "iteration": done, "nodes_touched": int(trace.state.get("nodes_touched", 0)),
             "elapsed": float(trace.state.get("elapsed", 0.0))}
    if state["regret_sum"].shape != game.legal_mask.shape:
        raise ValueError("the trace's solver state does not fit this game's information sets")
    return state, done


def tree_plan(game):
    """The compiled plan of a tree (re-exported for the algorithm modules)."""
    return plan(game)
