"""SplitMix64 (Steele, Lea and Flood, 2014): the compiled kernels' source of randomness.

The generator's whole state is one 64-bit word, kept in a uint64 array of
length 1 that the kernels advance in place.  Seeded once from the caller's
``numpy.random.Generator``, it can be saved and restored with a run, so a
resumed run draws exactly the numbers an uninterrupted one would.
"""

from __future__ import annotations

import numpy as np

from ..core.types import FloatArray, UIntArray
from .jit import kernel

__all__ = ["seed_state", "uniform", "uniforms"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)


@kernel
def uniform(rng: UIntArray) -> float:
    """Next uniform float in [0, 1) from a SplitMix64 state (uint64 array of length 1)."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    draw: float = (z >> _S11) * (1.0 / 9007199254740992.0)  # the top 53 bits, over 2^53
    return draw


def seed_state(generator: np.random.Generator) -> UIntArray:
    """A fresh SplitMix64 state drawn from the caller's generator."""
    return np.array([generator.integers(0, 2**63, dtype=np.uint64)], dtype=np.uint64)


@kernel
def uniforms(rng: UIntArray, count: int) -> FloatArray:
    """``count`` draws from the compiled generator, advancing ``rng`` in place."""
    out = np.empty(count)
    for i in range(count):
        out[i] = uniform(rng)
    return out
