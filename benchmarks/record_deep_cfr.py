"""Record Deep CFR beside tabular CFR and external sampling on Leduc poker, for lesson 13.

Run: ``.venv/bin/python benchmarks/record_deep_cfr.py [--iterations 100] [--seed 0]
[--out data/benchmarks/deep_cfr_leduc.json]`` (about a minute on a laptop).

One seed of each, on Leduc poker, with checkpoints spread over the run: Deep CFR with its
default parameters (``cfrviz.solvers.algorithm("deep_cfr").params``), vanilla CFR, and external
sampling twice -- for the same number of iterations, and for as many iterations as it takes to
touch as many nodes as Deep CFR's sampled traversals did (the same sampling budget, without
networks).  For each run the file keeps, at every checkpoint, the exploitability of the average
strategy and the nodes touched so far, and the run's wall-clock seconds (evaluation left out);
its ``meta`` says on which machine, when and with which command.  Lesson 13 reads the file and
labels what it shows as recorded: a live Deep CFR run on Leduc takes too long for a lesson.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import sys
import time
from pathlib import Path

import numpy as np

import cfrviz
from cfrviz.views.compare import log_checkpoints

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "data" / "benchmarks" / "deep_cfr_leduc.json"
GAME = "leduc_poker"


def record(game, algorithm: str, iterations: int, seed: int, points: int = 30) -> dict:
    """One run's exploitability and nodes touched at log-spaced checkpoints, and its seconds."""
    checkpoints = log_checkpoints(iterations, points)
    start = time.perf_counter()
    trace = cfrviz.solve(game, algorithm, iterations, seed=seed, checkpoints=checkpoints,
                         progress=False)
    wall = time.perf_counter() - start
    return {"algorithm": algorithm, "iterations": [int(t) for t in trace.iterations],
            "exploitability": [float(x) for x in trace.exploitability],
            "nodes_touched": [int(n) for n in trace.extras["nodes_touched"]],
            "solver_seconds": float(trace.extras["total_time"]), "wall_seconds": wall,
            "params": {k: v for k, v in trace.params.items()
                       if isinstance(v, (int, float, str, bool))}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    game = cfrviz.load_game(GAME)
    cfrviz.solve(cfrviz.load_game("kuhn_poker"), "deep_cfr", 1, traversals=10, train_steps=1,
                 checkpoints=[], progress=False)  # compile the kernels before any clock runs
    runs = {}
    for name in ("deep_cfr", "cfr", "external_sampling"):
        runs[name] = record(game, name, args.iterations, args.seed)
        print(f"{name:18} {runs[name]['exploitability'][-1]:.4f} after {args.iterations} "
              f"iterations, {runs[name]['nodes_touched'][-1]:,} nodes, "
              f"{runs[name]['wall_seconds']:.1f} s", flush=True)
    per_iteration = runs["external_sampling"]["nodes_touched"][-1] / args.iterations
    matched = max(1, round(runs["deep_cfr"]["nodes_touched"][-1] / per_iteration))
    runs["external_sampling_same_nodes"] = record(game, "external_sampling", matched, args.seed)
    last = runs["external_sampling_same_nodes"]
    print(f"external sampling with Deep CFR's node budget: {matched:,} iterations, "
          f"{last['nodes_touched'][-1]:,} nodes, {last['exploitability'][-1]:.4f}")
    command = shlex.join([".venv/bin/python", "benchmarks/record_deep_cfr.py", *sys.argv[1:]])
    meta = {"command": command, "game": GAME, "seed": args.seed, "iterations": args.iterations,
            "machine": (f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; "
                        f"Python {platform.python_version()}, numpy {np.__version__}"),
            "date": datetime.date.today().isoformat(), "cfrviz": cfrviz.__version__,
            "load": os.getloadavg()[0],
            "note": "nodes_touched counts the sampled traversals only (Deep CFR's exact "
                    "average and the exploitability walk the whole tree besides)"}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps({"meta": meta, "runs": runs}, indent=1) + "\n")
    tmp.replace(args.out)  # atomic: a stopped run leaves the old file whole
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
