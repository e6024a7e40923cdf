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

from .recorder import Recorder
from .records import Trace
from .schema import (
    DEFAULT_TRACE_BYTES,
    DISTRIBUTION_TOLERANCE,
    EXPLOITABILITY_TOLERANCE,
    MAX_TRACE_BYTES,
    RECORD_ARRAYS,
    TIMING_EXTRAS,
    RecordArray,
    check_records,
    payoff_scale,
    record_nbytes,
    record_shape,
)
from .state import MAX_COUNT, SolverState

__all__ = ["DEFAULT_TRACE_BYTES", "DISTRIBUTION_TOLERANCE", "EXPLOITABILITY_TOLERANCE",
           "MAX_COUNT", "MAX_TRACE_BYTES", "RECORD_ARRAYS", "TIMING_EXTRAS", "RecordArray",
           "Recorder", "SolverState", "Trace", "check_records", "payoff_scale", "record_nbytes",
           "record_shape"]
