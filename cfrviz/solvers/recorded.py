"""What a trace says about its run, checked against the registry and its solver state.

A trace names its algorithm and settings; a file can be edited, so :func:`check_recorded_run`
checks the claim before anything uses it (:func:`cfrviz.load_trace` on every file, and
resuming): the algorithm is a registered one, the settings are its declared parameters with
values in their declared ranges, and the state's random generator is one the recorded seed
gives.  The compiled generator (SplitMix64) is seeded with one draw from
``numpy.random.default_rng(seed)`` and moves by a fixed odd constant per draw, so the number
of draws between that word and the state's can be computed exactly: a run makes at most one
draw per node it touches.  A numpy generator keeps the increment its seed gave it for ever.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.trace import SolverState
from ..engine.rng import seed_state
from .registry import ALGORITHMS, ITERATIONS, SEED, Algorithm

#: What the driver adds to an algorithm's settings in a trace's params.
RUN_RECORDS = ("interrupted", "seed", "iterations", "resumed_from")

_WORD = 2**64
_GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's step (engine/rng.py)
_GOLDEN_INVERSE = pow(_GOLDEN, -1, _WORD)


def check_recorded_run(algorithm: object, params: Mapping[str, Any],
                       state: SolverState | None) -> Algorithm:
    """Check a trace's ``algorithm`` and ``params`` against the registry and its state.

    Parameters
    ----------
    algorithm : str
        The trace's algorithm: a registered name, as :func:`cfrviz.solve` records it.
    params : mapping
        The trace's params: the algorithm's settings (:meth:`Request.settings
        <cfrviz.solvers.registry.Request.settings>`) and :data:`RUN_RECORDS`, which are
        checked, and any other JSON values a user kept with the run, which are not.
    state : SolverState or None
        The trace's validated state, when it keeps one.

    Returns
    -------
    Algorithm
        The registry's entry.

    Raises
    ------
    ValueError
        Naming the field at fault: an algorithm that is not registered, a parameter it
        declares that is missing, a value outside its declared range, an iteration
        count the state does not fit, or a generator state the recorded seed does not give.
    """
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS.names():
        raise ValueError(f"algorithm {algorithm!r} is not one cfrviz knows; a trace is recorded "
                         f"by one of {', '.join(ALGORITHMS.names())}")
    entry = ALGORITHMS.lookup(algorithm)
    declared = {p.name: p for p in entry.params if p.name not in entry.start_only}
    missing = [name for name in (*declared, "seed", "iterations") if name not in params]
    if missing:
        raise ValueError(f"params[{missing[0]!r}] is missing: a {algorithm} trace records its "
                         f"settings ({', '.join(declared) or 'none'}), its seed and its "
                         f"iterations")
    for name, param in {**declared, "seed": SEED, "iterations": ITERATIONS}.items():
        try:
            param.check(params[name])
        except ValueError as exc:
            raise ValueError(f"params[{name!r}] of this {algorithm} trace: {exc}") from None
    interrupted = params.get("interrupted", False)
    if not isinstance(interrupted, bool):
        raise ValueError(f"params['interrupted'] must be True or False; got {interrupted!r}")
    if state is None:
        return entry
    iterations, done = int(params["iterations"]), state.iteration
    if done > iterations or (done < iterations and not interrupted):
        raise ValueError(f"params['iterations'] is {iterations}, but the solver state has done "
                         f"{done} iterations" + ("" if done > iterations else
                                                 " and the run was not interrupted"))
    resumed = params.get("resumed_from")
    if resumed is not None and (isinstance(resumed, bool) or not isinstance(resumed, int)
                                or not 1 <= resumed <= done):
        raise ValueError(f"params['resumed_from'] must be an iteration in 1..{done}; got "
                         f"{resumed!r}")
    _check_seed(int(params["seed"]), state)
    return entry


def _check_seed(seed: int, state: SolverState) -> None:
    """The state's generators are the recorded seed's, some draws on."""
    word = int(state.rng[0])
    if word != 0:  # 0: the run drew nothing from the compiled generator (numpy's instead)
        start = int(seed_state(np.random.default_rng(seed))[0])
        draws = (word - start) * _GOLDEN_INVERSE % _WORD
        if draws > state.nodes_touched:
            raise ValueError(f"solver state field 'rng' is not a state that seed={seed} gives "
                             f"(it is not a few draws from that seed's start): the trace's "
                             f"seed or its state was changed; a run continues its own random "
                             f"stream")
    generator = state.generator
    if generator is not None:
        fresh = np.random.default_rng(seed).bit_generator.state
        kind = generator.get("bit_generator")
        if kind != fresh["bit_generator"] or \
                generator.get("state", {}).get("inc") != fresh["state"].get("inc"):
            raise ValueError(f"solver state field 'generator' is not a state of "
                             f"numpy.random.default_rng(seed={seed}): the trace's seed or its "
                             f"state was changed; a run continues its own random stream")
