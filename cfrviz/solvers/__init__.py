"""``cfrviz.solve``: every learning algorithm behind one entry point."""

from __future__ import annotations

import inspect
from numbers import Integral

import numpy as np

from .cfr import (solve_cfr, solve_cfr_plus, solve_chance_sampling, solve_dcfr,
                  solve_external_sampling, solve_linear_cfr, solve_outcome_sampling)
from .regret_matching import solve_regret_matching

_ALGORITHMS = {
    "cfr": solve_cfr,
    "cfr+": solve_cfr_plus,
    "linear_cfr": solve_linear_cfr,
    "dcfr": solve_dcfr,
    "chance_sampling": solve_chance_sampling,
    "external_sampling": solve_external_sampling,
    "outcome_sampling": solve_outcome_sampling,
    "regret_matching": solve_regret_matching,
}


def available_algorithms() -> list[str]:
    """Names accepted by :func:`solve`."""
    return sorted(_ALGORITHMS)


def solve(game, algorithm: str, iterations: int, seed: int = 0, checkpoints=None, **params):
    """Run a learning algorithm on a game and return its training trace.

    Parameters
    ----------
    game
        A game from :func:`cfrviz.load_game`.
    algorithm : str
        One of :func:`available_algorithms`, e.g. ``"regret_matching"``.
    iterations : int
        Number of iterations, at least 1.
    seed : int, default 0
        Seed of the ``numpy.random.Generator`` behind every random choice;
        the same seed gives the same trace.
    checkpoints : sequence of int, optional
        Iterations (1-based) after which to record a snapshot.  ``None``
        picks the default schedule (every iteration for small games, about 200
        log-spaced ones for large); ``[]`` records only the final state and
        evaluates nothing (what benchmarks time).
    **params
        Algorithm parameters; see the algorithm's own function.  The tree
        algorithms all take ``progress`` (show a progress bar: ``True``,
        ``False``, or ``None`` for runs longer than two seconds) and
        ``resume`` (a trace of the same run to continue to ``iterations``).

    Returns
    -------
    Trace

    Raises
    ------
    ValueError
        For an unknown algorithm or parameter, or a value out of range.
    """
    if not isinstance(algorithm, str) or algorithm not in _ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; available algorithms: "
                         f"{', '.join(available_algorithms())}")
    if isinstance(iterations, bool) or not isinstance(iterations, Integral) or iterations < 1:
        raise ValueError(f"iterations must be a whole number >= 1; got {iterations!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0):
        raise ValueError(f"seed must be a whole number >= 0; got {seed!r}")
    record = _checkpoints(checkpoints, int(iterations))
    runner = _ALGORITHMS[algorithm]
    accepted = [p for p in inspect.signature(runner).parameters
                if p not in ("game", "iterations", "rng", "record")]
    unknown = sorted(set(params) - set(accepted))
    if unknown:
        raise ValueError(f"algorithm {algorithm!r} takes no parameter "
                         f"{', '.join(map(repr, unknown))}; it accepts: {', '.join(accepted)}")
    trace = runner(game, int(iterations), rng=np.random.default_rng(seed), record=record,
                   **params)
    trace.params.update(seed=seed, iterations=int(iterations))
    return trace


def _checkpoints(checkpoints, iterations: int):
    """The sorted iterations to record, ``None`` for the solver's default, ``[]`` for final only."""
    if checkpoints is None:
        return None
    try:
        points = sorted({int(c) for c in checkpoints})
    except (TypeError, ValueError):
        raise ValueError(f"checkpoints must be a list of iteration numbers; got {checkpoints!r}") \
            from None
    bad = [c for c in points if not 1 <= c <= iterations]
    if bad:
        raise ValueError(f"checkpoint {bad[0]} is outside the run; checkpoints must lie in "
                         f"1..{iterations}")
    if not points:
        return []  # only the final state, and solvers may skip evaluating it
    if points[-1] != iterations:
        points.append(iterations)
    return points


__all__ = ["available_algorithms", "solve"]
