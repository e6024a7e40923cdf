"""A :class:`Trace`: a training run's records, read-only, for views to index into."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

from ..policy import Policy
from ..types import FloatArray, GameLike, IntArray
from .schema import RECORD_ARRAYS

#: What :meth:`Trace.save` calls: :func:`cfrviz.io.save_trace`, set by :func:`set_writer` from
#: above (the package root when it hands out any public name, and :mod:`cfrviz.io` when
#: imported).  Saving checks a trace against its game (its exploitability, its solver's
#: records), which needs the layers above this one; so they lend their writer here, and core
#: imports nothing from above.
_WRITER: Callable[[Trace, Any], Path] | None = None


def set_writer(writer: Callable[[Trace, Any], Path]) -> None:
    """Make ``writer(trace, path)`` what :meth:`Trace.save` calls (:mod:`cfrviz.io` does)."""
    global _WRITER
    _WRITER = writer


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

    game: GameLike
    algorithm: str
    params: dict[str, Any]
    iterations: IntArray
    cumulative_regret: FloatArray
    instantaneous_regret: FloatArray
    current_strategy: FloatArray
    average_strategy: FloatArray
    exploitability: FloatArray
    current_exploitability: FloatArray
    # Values of many kinds, as a saved file holds them (JSON values and arrays).
    extras: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        for spec in RECORD_ARRAYS:
            getattr(self, spec.name).setflags(write=False)

    def __len__(self) -> int:
        return len(self.iterations)

    def save(self, path: Any) -> Path:
        """Save this trace to one ``.npz`` file, atomically; the same as
        ``cfrviz.save_trace(trace, path)`` (read that for the file's guarantees and errors).
        ``cfrviz.load_trace(path)`` reads it back.

        Returns
        -------
        pathlib.Path
            The path written (``.npz`` appended when ``path`` does not end in it).
        """
        if _WRITER is None:
            raise RuntimeError("Trace.save needs cfrviz's file layer, which is not loaded: "
                               "`import cfrviz.io` first, or call cfrviz.save_trace(trace, "
                               "path)")
        return _WRITER(self, path)

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
