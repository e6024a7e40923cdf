"""How many students one machine's JupyterHub holds (issue 25, item 4): docs/CLASSROOM.md's table.

    .venv/bin/python benchmarks/bench_hub.py                       # 5, 10, 20, 40 students
    .venv/bin/python benchmarks/bench_hub.py --students 5 10 --cache cold shared

For each class size a fresh hub (tests/_hub.py: JupyterHub, configurable-http-proxy, the dummy
authenticator, the local process spawner, 127.0.0.1) takes every student at once: each starts a
server, opens lesson 04 and runs cells 1, 2, 4, 6 and 8 (imports, the game, ``cfrviz.explore``
training 300 CFR iterations, then ``cfrviz.solve`` 10,000 iterations and its strategy table,
the "first result") over the kernel's websocket.  Reported: seconds from the class's start to
each student's first result (median and max), failures, memory per student (RSS and USS of the
student's server and kernel, measured with every student still connected), the CPU seconds
those processes used (median; "kernel": the kernel's share, the lesson's own work, the rest
being the student's Jupyter server starting and serving), and the machine's load average
(1 min) before and the highest sampled while the class ran (``--settle S`` waits S seconds
before each class, so that "before" is less the tail of the class before).

``--cache shared``: every student's NUMBA_CACHE_DIR is one folder warmed before class
(``python -m cfrviz.warm``; numba writes into it only when a kernel is missing).
``--cache copied``: that warmed folder copied into each student's own NUMBA_CACHE_DIR before
their server starts (a pre_spawn_hook): numba reads a cache only from a folder it can write to,
so a read-only shared folder would be skipped and every kernel compiled again per student.
``--cache cold``: each student's own empty folder, so each compiles the kernels the lesson uses:
what students pay where no compiled kernel fits (an image built on another CPU).
Needs ``make hub-install``; ``make bench-hub`` runs the default sizes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import _hub
from _results import recorded


class LoadSampler(threading.Thread):
    """The 1-minute load average every 2 s, while a class runs."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[float] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(2.0):
            self.samples.append(os.getloadavg()[0])


def warm(folder: Path) -> float:
    """Warm a shared numba cache in ``folder``; seconds it took."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "cfrviz.warm"], check=True, capture_output=True,
                   env={**os.environ, "NUMBA_CACHE_DIR": str(folder)})
    return time.monotonic() - start


def one_class(students: int, cache: str, scratch: Path) -> dict[str, object]:
    folder = scratch / f"{cache}-{students}"
    environment = {}
    if cache in ("shared", "copied"):
        shared = scratch / "numba-shared"
        if not shared.exists():
            print(f"  warming the shared cache {shared}: {warm(shared):.0f} s", flush=True)
        if cache == "shared":
            environment["NUMBA_CACHE_DIR"] = str(shared)
    before = os.getloadavg()[0]
    sampler = LoadSampler()
    with _hub.Hub(folder, environment, cache_per_student=cache == "cold",
                  cache_copied_from=scratch / "numba-shared" if cache == "copied" else None) as hub:
        sampler.start()
        start = time.monotonic()
        roster = _hub.run_class(hub, students)
        seconds = time.monotonic() - start
        sampler.done.set()
        hub.stop()
        leftovers = hub.leftovers()
    row: dict[str, object] = dict(_hub.summary(roster), cache=cache, load_before=before,
                                  load_max=max(sampler.samples, default=before),
                                  wall=seconds, leftovers=len(leftovers))
    for student in roster:
        if student.error:
            print(f"  {student.name}: {student.error}", flush=True)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[5, 10, 20, 40])
    parser.add_argument("--cache", nargs="+", choices=["shared", "copied", "cold"],
                        default=["shared"])
    parser.add_argument("--settle", type=float, default=0.0,
                        help="seconds to wait before each class (the load average decays)")
    args = parser.parse_args()
    if (why := _hub.missing()) is not None:
        print(f"error: {why}", file=sys.stderr)
        return 1
    import psutil

    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 2**30:.0f} GiB")
    print(f"{'cache':<7}{'students':>9}{'failed':>7}{'first result s, median':>24}{'max':>7}"
          f"{'RSS MiB':>9}{'USS MiB':>9}{'CPU s':>7}{'kernel':>8}{'load before':>13}"
          f"{'load max':>10}")
    with tempfile.TemporaryDirectory(prefix="cfrviz-hub-") as scratch:
        for cache in args.cache:
            for students in args.students:
                time.sleep(args.settle)
                r = one_class(students, cache, Path(scratch))
                print(f"{cache:<7}{r['students']:>9}{r['failed']:>7}{r['first_median']:>24.1f}"
                      f"{r['first_max']:>7.1f}{r['rss_median']:>9.0f}{r['uss_median']:>9.0f}"
                      f"{r['cpu_median']:>7.1f}{r['kernel_cpu_median']:>8.1f}"
                      f"{r['load_before']:>13.1f}{r['load_max']:>10.1f}"
                      + (f"  {r['leftovers']} processes left over" if r["leftovers"] else ""),
                      flush=True)
    return 0


if __name__ == "__main__":
    with recorded("bench_hub"):
        code = main()
    sys.exit(code)
