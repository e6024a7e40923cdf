"""Time regret matching on rock-paper-scissors: the solver against its readable reference.

Run: ``.venv/bin/python benchmarks/bench_regret_matching.py`` (or ``make benchmark``).
Both implementations run the same 10,000 self-play iterations in this one process,
interleaved, best of five; the ratio is what benchmarks/RESULTS.md shows.
"""

from __future__ import annotations

import time

from _results import recorded
from _timing import best_of

import cfrviz
from cfrviz.reference import self_play_regret_matching

ITERATIONS = 10_000
REPEATS = 5
VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


def main() -> None:
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    runs = {
        "cfrviz.solve, expected updates (records every iteration)":
            lambda: cfrviz.solve(game, "regret_matching", ITERATIONS),
        "cfrviz.solve, sampled updates (records every iteration)":
            lambda: cfrviz.solve(game, "regret_matching", ITERATIONS, update="sampled", seed=0),
        "cfrviz.solve, expected updates, final state only":
            lambda: cfrviz.solve(game, "regret_matching", ITERATIONS, checkpoints=[]),
        "readable numpy reference (cfrviz.reference)":
            lambda: list(self_play_regret_matching(VARIANT, ITERATIONS)),
    }
    results = {name: best_of(run, REPEATS) for name, run in runs.items()}
    reference = results["readable numpy reference (cfrviz.reference)"]
    print(f"regret matching, {ITERATIONS:,} iterations of rock-paper-scissors "
          f"(best of {REPEATS})")
    for name, seconds in results.items():
        print(f"  {name:<60} {seconds * 1000:8.1f} ms   {reference / seconds:5.1f}x reference")


def widget_frames() -> None:
    """Python time of one timeline step in the explorer (all figures updated in place)."""
    from cfrviz.widgets import RegretMatchingExplorer

    explorer = RegretMatchingExplorer(iterations=ITERATIONS)
    steps = range(0, explorer.slider.max + 1, 3)
    start = time.perf_counter()
    for value in steps:
        explorer.slider.value = value
    per_step = (time.perf_counter() - start) / len(steps)
    print(f"explorer timeline step ({len(steps)} steps over a {ITERATIONS:,}-iteration trace): "
          f"{per_step * 1000:.1f} ms of Python time per step")


if __name__ == "__main__":
    with recorded("bench_regret_matching"):
        main()
        widget_frames()
