"""Timing shared by the benchmark scripts."""

from __future__ import annotations

import time


def best_of(function, repeats: int) -> float:
    """Fastest of ``repeats`` wall-clock runs of ``function()``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)
