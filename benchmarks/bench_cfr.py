"""Time vanilla CFR on Kuhn poker: the level-vectorized engine against the readable reference.

Run: ``.venv/bin/python benchmarks/bench_cfr.py`` (``make benchmark`` runs it too).
Both run the same iterations in this process, best of three; nothing is evaluated
during the timed runs (``checkpoints=[]``).
"""

from __future__ import annotations


import cfrviz
from _timing import best_of
from cfrviz.reference import vanilla_cfr

ITERATIONS = 1000
REPEATS = 3


def main() -> None:
    kuhn = cfrviz.load_game("kuhn_poker")
    engine = best_of(lambda: cfrviz.solve(kuhn, "cfr", ITERATIONS, checkpoints=[]), REPEATS)
    reference = best_of(lambda: list(vanilla_cfr(kuhn, ITERATIONS)), REPEATS)
    trace = cfrviz.solve(kuhn, "cfr", ITERATIONS, checkpoints=[ITERATIONS])
    print(f"vanilla CFR on Kuhn poker, {ITERATIONS:,} iterations (best of {REPEATS})")
    print(f"  engine (vectorized by level)   {engine / ITERATIONS * 1e6:8.1f} µs per iteration   "
          f"{reference / engine:5.1f}x reference")
    print(f"  readable recursive reference   {reference / ITERATIONS * 1e6:8.1f} µs per iteration")
    print(f"  exploitability after {ITERATIONS:,} iterations: {trace.exploitability[-1]:.2e}")


if __name__ == "__main__":
    main()
