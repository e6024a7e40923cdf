"""Time a class tournament: 20 student bots (each in a process of its own) and the 4 archetypes.

Run: ``.venv/bin/python benchmarks/bench_tournament.py``.  The 20 bot files are the ones
``tests/test_tournament.py::test_a_class_of_twenty_takes_seconds`` plays (thresholds spread
over the class), 276 pairs at 20,000 deals each on pocket poker; prints the wall-clock time of
one run and the load average it ran at (the sandbox's process starts are wall time, not CPU).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from _results import recorded

from cfrviz.play.tournament import run_tournament

STUDENTS = 20


def write_class(folder: Path) -> None:
    for k in range(STUDENTS):
        (folder / f"student{k:02}.py").write_text(
            f"def bot(s):\n    if s.strength > {k / 20 - 0.3:.2f} and 'r' in s.actions:\n"
            f"        return 'r'\n    if s.facing_bet:\n"
            f"        return 'c' if s.strength > {k / 40 - 0.2:.2f} else 'f'\n    return 'c'\n")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        write_class(Path(folder))
        start = time.perf_counter()
        result = run_tournament("pocket_poker", folder)
        seconds = time.perf_counter() - start
    print(f"class tournament, {STUDENTS} bots + 4 archetypes, {len(result.standings)} standing, "
          f"{len(result.problems)} refused: {seconds:.1f} s wall clock "
          f"(load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    with recorded("bench_tournament"):
        main()
