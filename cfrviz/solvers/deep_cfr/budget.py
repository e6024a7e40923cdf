"""What a Deep CFR run will take, estimated from its parameters before it starts.

Each parameter has a declared range, but their product does not: ``hidden=4096,
traversals=10**6, capacity=10**8`` (each inside its range) asks for networks of 17
million weights, trained 300 steps per player per iteration, and memories of gigabytes,
and would run for hours with no word.  :func:`check_budget` refuses such a run before it
starts, saying the estimate and the limit; a run estimated past a minute starts with a
warning giving the estimate.

The time is a lower estimate: the costs below are those of a fast, idle core (measured on
the course's machine, then divided by about two), so a refused run would take longer still.
The memory is an upper estimate (every sample slot the walks reserve, filled).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.tree import GameTree
from ..network import MLP
from .features import ALGORITHM, infoset_features
from .memory import samples_per_traversal

#: The most memory a run may be estimated to need (networks kept, sample memories, training).
MAX_RUN_BYTES = 4 * 2**30
#: The default of ``max_seconds``: the longest a run may be estimated to take.
MAX_SECONDS = 600.0
#: A run estimated to take longer than this starts with a warning that gives the estimate.
WARN_SECONDS = 60.0

# Costs per unit of work (seconds): one Adam step per network parameter (the step and the
# passes over the weights), one sample row through a parameter (forward and backward, about
# six floating-point operations), one sample slot of a walk, one sample stored or grouped in
# a memory, one node of the exact per-iteration evaluation.
_PER_PARAMETER_STEP = 2e-8
_PER_ROW_PARAMETER = 2e-10
_PER_WALK_SAMPLE = 2.5e-8
_PER_MEMORY_SAMPLE = 5e-8
_PER_NODE = 5e-8


@dataclass(frozen=True)
class Estimate:
    """What a run is estimated to take: seconds (at least) and bytes (at most), by part."""

    seconds: float
    training_seconds: float
    nbytes: int
    network_bytes: int
    memory_bytes: int
    parameters: int

    def describe(self) -> str:
        """The estimate in words, for messages."""
        return (f"at least about {_duration(self.seconds)} ({_duration(self.training_seconds)} "
                f"of it training networks of {self.parameters:,} weights) and up to "
                f"{_size(self.nbytes)} of memory ({_size(self.network_bytes)} for the networks "
                f"every iteration keeps, {_size(self.memory_bytes)} for the sample memories)")


def estimate(tree: GameTree, iterations: int, params: dict[str, Any]) -> Estimate:
    """The time and memory of ``iterations`` Deep CFR iterations on ``tree`` with ``params``
    (checked values of every declared parameter)."""
    hidden, traversals = params["hidden"], params["traversals"]
    capacity, steps, batch = params["capacity"], params["train_steps"], params["batch_size"]
    width = tree.legal_mask.shape[1]
    features = infoset_features(tree)[1]
    weights = MLP.count((features.shape[1], hidden, hidden, width))
    seconds = training = 0.0
    memory_bytes = 0
    for p in range(2):
        offered = traversals * samples_per_traversal(tree, p)  # sample slots per iteration
        stored = min(capacity, iterations * offered)
        # Samples held over the run, summed over iterations: t * offered until the capacity.
        full = min(iterations, capacity // max(offered, 1))
        held = offered * full * (full + 1) // 2 + capacity * (iterations - full)
        sets = int(np.count_nonzero(tree.infoset_player == p))
        rows = min(batch, stored) if batch else min(sets, stored)
        training += iterations * steps * weights * (_PER_PARAMETER_STEP
                                                    + rows * _PER_ROW_PARAMETER)
        seconds += iterations * offered * (_PER_WALK_SAMPLE + _PER_MEMORY_SAMPLE)
        seconds += held * _PER_MEMORY_SAMPLE
        # Stored samples (set, weight, regrets), twice while the reservoir grows, and the
        # walks' buffer.
        memory_bytes = max(memory_bytes, offered * 8 * (1 + tree.max_actions))
        memory_bytes += 2 * stored * 8 * (2 + width)
    seconds += training + iterations * 3 * tree.num_nodes * _PER_NODE
    network_bytes = 2 * iterations * weights * 8
    work_bytes = 5 * weights * 8 + features.nbytes
    return Estimate(seconds, training, network_bytes + memory_bytes + work_bytes,
                    network_bytes, memory_bytes, weights)


def check_budget(tree: GameTree, iterations: int, params: dict[str, Any],
                 max_seconds: float) -> Estimate:
    """Refuse a run estimated past ``max_seconds`` or :data:`MAX_RUN_BYTES`; warn past
    :data:`WARN_SECONDS`.

    Raises
    ------
    ValueError
        Naming the parameters, the estimate and the limit it passes.
    """
    cost = estimate(tree, iterations, params)
    asked = (f"{ALGORITHM} on {tree.name} with {iterations:,} iterations, hidden="
             f"{params['hidden']:,}, traversals={params['traversals']:,}, capacity="
             f"{params['capacity']:,}, train_steps={params['train_steps']:,}, batch_size="
             f"{params['batch_size']:,}")
    smaller = "lower hidden, traversals, capacity, train_steps or iterations"
    if cost.nbytes > MAX_RUN_BYTES:
        raise ValueError(f"{asked} would need {cost.describe()}, more than the "
                         f"{_size(MAX_RUN_BYTES)} a run may take: {smaller}")
    if cost.seconds > max_seconds:
        raise ValueError(f"{asked} would take {cost.describe()}, more than max_seconds="
                         f"{max_seconds:g} ({_duration(max_seconds)}): {smaller}, or pass a "
                         f"larger max_seconds to run it anyway")
    if cost.seconds > WARN_SECONDS:
        warnings.warn(f"{asked} will take {cost.describe()}", stacklevel=4)
    return cost


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:,.1f} h"


def _size(nbytes: float) -> str:
    return f"{nbytes / 2**30:,.1f} GiB" if nbytes >= 2**30 else f"{nbytes / 2**20:,.0f} MiB"
