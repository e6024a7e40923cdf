"""The :class:`Recorder`: the one place traces are made (snapshots at the checkpoints,
then stacking, evaluating and joining a resumed run's records)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np

from ..types import FloatArray, GameLike
from .records import Trace
from .schema import RECORD_ARRAYS, TIMING_EXTRAS
from .state import SolverState

#: The tables in the order :meth:`Recorder.add` takes them.
_ADD_ORDER = ("cumulative_regret", "instantaneous_regret", "current_strategy", "average_strategy")

#: One recorded table: an (information sets, actions) array, or regret matching's
#: per-player lists of numbers (which its own ``stack`` pads).
Table: TypeAlias = FloatArray | Sequence[Sequence[float]]


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

    def __init__(self, game: GameLike, average: Callable[[FloatArray], FloatArray] | None = None,
                 stack: Callable[[list[Table]], FloatArray] | None = None,
                 timed: bool = True) -> None:
        self.game = game
        self.shape = game.legal_mask.shape
        self._average = average
        self._stack = stack if stack is not None else self._stack_arrays
        self.timed = timed
        self.iterations: list[int] = []
        self.tables: dict[str, list[Table]] = {spec.name: [] for spec in RECORD_ARRAYS
                                               if spec.table}
        self.timing: dict[str, list[float]] = {name: [] for name, _ in TIMING_EXTRAS}
        # Bound appends in the order add() takes its arguments: regret matching records
        # every iteration from a plain-Python loop, where lookups per call show.
        self._append_iteration = self.iterations.append
        self._appends = tuple(self.tables[name].append for name in _ADD_ORDER)
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

    def add(self, iteration: int, cumulative_regret: Table, instantaneous_regret: Table,
            current_strategy: Table, average_strategy: Table, elapsed: float = 0.0,
            nodes_touched: int = 0) -> None:
        """Record one row whose values the caller will never change (copies, or fresh lists)."""
        cum, inst, cur, avg = self._appends
        self._append_iteration(iteration)
        cum(cumulative_regret)
        inst(instantaneous_regret)
        cur(current_strategy)
        avg(average_strategy)
        if self.timed:
            spent, touched = self._timing_appends
            spent(elapsed)
            touched(nodes_touched)

    def trace(self, algorithm: str, params: Mapping[str, Any], state: SolverState, *,
              exploitability: Callable[[FloatArray], FloatArray] | None = None,
              interrupted: bool = False,
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
        arrays = self._stacked()
        if exploitability is not None:
            self._evaluate(arrays, exploitability, algorithm, stop, block)
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

    def _stacked(self) -> dict[str, Any]:
        """This run's record arrays, the exploitabilities NaN until evaluated."""
        arrays: dict[str, Any] = {}
        for spec in RECORD_ARRAYS:
            if spec.table:
                arrays[spec.name] = self._stack(self.tables[spec.name])
            elif spec.evaluates is None:
                arrays[spec.name] = np.array(self.iterations, dtype=spec.dtype)
            else:
                arrays[spec.name] = np.full(len(self.iterations), np.nan)
        return arrays

    def _evaluate(self, arrays: dict[str, Any],
                  exploitability: Callable[[FloatArray], FloatArray], algorithm: str,
                  stop: Callable[[], bool] | None, block: int) -> None:
        """Fill the exploitabilities in place, ``block`` records at a time, until ``stop``."""
        evaluated = [spec for spec in RECORD_ARRAYS if spec.evaluates is not None]
        records = len(self.iterations)
        done = 0
        while done < records:
            if stop is not None and stop():
                warnings.warn(f"{algorithm}: evaluation interrupted; the exploitability of the "
                              f"{records - done} records from iteration {self.iterations[done]} "
                              f"on is NaN (cfrviz.exploitability(trace.game, "
                              f"trace.average_policy(iteration)) evaluates one)",
                              RuntimeWarning, stacklevel=4)
                return
            end = min(records, done + max(1, block))
            for spec in evaluated:
                arrays[spec.name][done:end] = exploitability(arrays[str(spec.evaluates)][done:end])
            done = end

    def _stack_arrays(self, rows: list[Table]) -> FloatArray:
        return np.array(rows) if rows else np.zeros((0, *self.shape))
