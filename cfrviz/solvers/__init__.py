"""``cfrviz.solve``: every learning algorithm behind one entry point."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, overload

from ..core.registry import Param
from ..core.trace import Trace

# Importing an algorithm module registers its algorithms.
from . import cfr, deep_cfr, mmd, regret_matching, vector_cfr  # noqa: F401
from .deep_cfr import DeepCFRRun
from .registry import (
    ALGORITHMS,
    FAMILIES,
    Algorithm,
    Request,
    Trained,
    algorithm,
    algorithms_in,
    check_request,
    register_algorithm,
    tree_algorithms,
)


def available_algorithms() -> list[str]:
    """Names accepted by :func:`solve`."""
    return ALGORITHMS.names()


@overload
def solve(game: object, algorithm: str, iterations: int, seed: int | None = None,
          checkpoints: Iterable[int] | None = None, *, networks: Literal[True],
          **params: Any) -> DeepCFRRun: ...


@overload
def solve(game: object, algorithm: str, iterations: int, seed: int | None = None,
          checkpoints: Iterable[int] | None = None, *, networks: Literal[False] = ...,
          **params: Any) -> Trace: ...


def solve(game: object, algorithm: str, iterations: int, seed: int | None = None,
          checkpoints: Iterable[int] | None = None, **params: Any) -> Trace | Trained:
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
        Deep CFR also takes ``networks=True``, to get a
        :class:`~cfrviz.solvers.deep_cfr.DeepCFRRun` (the trace and every
        iteration's networks) instead of the trace alone.

    Returns
    -------
    Trace
        (a ``DeepCFRRun`` for ``"deep_cfr"`` with ``networks=True``)

    Raises
    ------
    ValueError
        For something that is not a game, an unknown algorithm or parameter,
        or a value of the wrong type or out of range.
    """
    request = check_request(game, algorithm, iterations, seed, checkpoints, params)
    return request.algorithm.run(request)


__all__ = ["ALGORITHMS", "FAMILIES", "Algorithm", "Param", "Request", "algorithm",
           "algorithms_in", "available_algorithms", "register_algorithm", "solve",
           "tree_algorithms"]
