"""``cfrviz.solve``: every learning algorithm behind one entry point."""

from __future__ import annotations

from numbers import Integral

import numpy as np

from ..core.checks import check_game
from ..core.registry import Param
from ..core.trace import Trace

# Importing an algorithm module registers its algorithms.
from . import cfr, deep_cfr, regret_matching  # noqa: F401
from .registry import (
    ALGORITHMS,
    FAMILIES,
    RUN_OPTIONS,
    Algorithm,
    algorithm,
    algorithms_in,
    register_algorithm,
    tree_algorithms,
)

ITERATIONS = Param("iterations", 1, "int", 1, help="how many iterations to run")
SEED = Param("seed", 0, "int", 0, help="seed of the numpy.random.Generator behind every draw")


def available_algorithms() -> list[str]:
    """Names accepted by :func:`solve`."""
    return ALGORITHMS.names()


def solve(game, algorithm: str, iterations: int, seed: int | None = None, checkpoints=None,
          **params):
    """Run a learning algorithm on a game and return its training trace.

    Parameters
    ----------
    game
        A game from :func:`cfrviz.load_game`.
    algorithm : str
        One of :func:`available_algorithms`, e.g. ``"regret_matching"``.
    iterations : int
        Number of iterations, at least 1.
    seed : int, optional
        Seed of the ``numpy.random.Generator`` behind every random choice,
        a whole number >= 0; the same seed gives the same trace.  Left out,
        it is 0, or the trace's own seed when resuming (a run is always
        reproducible: there is no unseeded run).
    checkpoints : sequence of int, optional
        Iterations (1-based, whole numbers: a float, a string or a bool is
        refused, never rounded) after which to record a snapshot.  ``None``
        picks the default schedule (every iteration for small games, about 200
        log-spaced ones for large); ``[]`` records only the final state and
        evaluates nothing (what benchmarks time).
    **params
        Algorithm parameters, as declared in the registry
        (``cfrviz.solvers.algorithm(name).params``, each with its default,
        range and help).  Every algorithm also takes ``progress`` (show a
        progress bar: ``True``, ``False``, or ``None`` for runs longer than
        two seconds) and ``resume`` (a trace of the same run to continue to
        ``iterations``; ``seed``, if given, must then be the trace's own,
        since the run goes on with the random stream its state holds).

    Returns
    -------
    Trace

    Raises
    ------
    ValueError
        For something that is not a game, an unknown algorithm or parameter,
        or a value of the wrong type or out of range.
    """
    entry = ALGORITHMS.lookup(algorithm)
    check_game(game, entry.name)
    iterations = ITERATIONS.check(iterations)
    if seed is None:
        resumed = params.get("resume")
        recorded = resumed.params.get("seed") if isinstance(resumed, Trace) else None
        seed = 0 if recorded is None else recorded
    seed = SEED.check(seed)
    record = _checkpoints(checkpoints, iterations)
    values = ALGORITHMS.check_params(entry, params, extra=RUN_OPTIONS)
    if values["progress"] is not None and not isinstance(values["progress"], bool):
        raise ValueError(f"progress must be True, False or None (a bar for runs longer than two "
                         f"seconds); got {values['progress']!r}")
    trace = entry.run(game, iterations, rng=np.random.default_rng(seed), record=record,
                      **values)
    trace.params.update(seed=seed, iterations=iterations)
    return trace


def _checkpoints(checkpoints, iterations: int):
    """The sorted iterations to record, ``None`` for the solver's default, ``[]`` for final only."""
    if checkpoints is None:
        return None
    if isinstance(checkpoints, (str, bytes)) or not np.iterable(checkpoints):
        raise ValueError(f"checkpoints must be a list of iteration numbers; got {checkpoints!r}")
    checkpoints = list(checkpoints)  # once: a generator would be used up by the checks
    for c in checkpoints:
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, Integral):
            raise ValueError(f"checkpoints must be iteration numbers, whole numbers in "
                             f"1..{iterations}; got {c!r}")
    points = sorted({int(c) for c in checkpoints})
    bad = [c for c in points if not 1 <= c <= iterations]
    if bad:
        raise ValueError(f"checkpoint {bad[0]} is outside the run; checkpoints must lie in "
                         f"1..{iterations}")
    if not points:
        return []  # only the final state, and solvers may skip evaluating it
    if points[-1] != iterations:
        points.append(iterations)
    return points


__all__ = ["ALGORITHMS", "FAMILIES", "Algorithm", "Param", "algorithm", "algorithms_in",
           "available_algorithms", "register_algorithm", "solve", "tree_algorithms"]
