"""How long one timeline step takes in the widgets (Python time, every figure updated in place).

Targets (issue 4): the Kuhn training explorer <= 30 ms per step, a Leduc subtree <= 150 ms.
Run: .venv/bin/python benchmarks/bench_explorer.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _results import recorded

import cfrviz
from cfrviz.widgets.explorer import explore

TARGETS_MS = {"kuhn_poker": 30.0, "leduc_poker": 150.0}


def step_times(explorer, steps: int = 60) -> list[float]:
    """Seconds per slider move, over ``steps`` moves spread across the whole timeline."""
    last = explorer.slider.max
    times = []
    for i in range(steps):
        value = (i * 37) % (last + 1)
        if value == explorer.slider.value:
            value = (value + 1) % (last + 1)
        start = time.perf_counter()
        explorer.slider.value = value
        times.append(time.perf_counter() - start)
    if explorer.last_error:
        raise RuntimeError(explorer.last_error)
    return times


def main() -> None:
    cases = [("kuhn_poker", {}, "whole tree"), ("leduc_poker", {"subtree": "KQ"}, "deal KQ")]
    print(f"{'explorer':32} {'median ms':>10} {'max ms':>8} {'target':>8}")
    for name, options, what in cases:
        explorer = explore(cfrviz.load_game(name), "cfr", iterations=1000, **options)
        step_times(explorer, 5)  # warm up
        times = step_times(explorer)
        median, worst = statistics.median(times) * 1e3, max(times) * 1e3
        verdict = "PASS" if median <= TARGETS_MS[name] else "FAIL"
        print(f"{name + ' (' + what + ')':32} {median:10.1f} {worst:8.1f} "
              f"{TARGETS_MS[name]:6.0f} ms {verdict}")


if __name__ == "__main__":
    with recorded("bench_explorer"):
        main()
