"""Deep CFR beside tabular CFR and external sampling: exploitability against iterations and nodes.

Run: ``.venv/bin/python benchmarks/bench_deep_cfr.py`` (``--games kuhn_poker`` for one game,
``--seeds 0 1 2``, ``--iterations 100``).  Deep CFR runs with its default parameters
(``cfrviz.solvers.algorithm("deep_cfr").params``); each row is the median over the seeds
of the exploitability at that iteration, the nodes touched up to it (Deep CFR: its sampled
traversals only) and the wall time of the whole run.  External sampling is shown at the
same iterations and again at the iteration where it has touched as many nodes as Deep CFR
did in all (the same sampling budget, without networks).

OpenSpiel's Deep CFR is not run: its implementations need PyTorch, TensorFlow or JAX,
which cfrviz does not install; this script says whether they import.
"""

from __future__ import annotations

import argparse
import importlib.util
import time

import numpy as np
from _results import recorded

import cfrviz

CHECKPOINTS = (1, 3, 10, 30, 100)


def run(game, algorithm: str, iterations: int, seed: int, checkpoints) -> tuple:
    start = time.perf_counter()
    trace = cfrviz.solve(game, algorithm, iterations, seed=seed, checkpoints=checkpoints,
                         progress=False)
    return trace, time.perf_counter() - start


def rows_for(game, algorithm: str, iterations: int, seeds, checkpoints) -> dict:
    """Median exploitability and nodes touched at each checkpoint, and the median run time."""
    runs = [run(game, algorithm, iterations, seed, checkpoints) for seed in seeds]
    out = {}
    for i, t in enumerate(runs[0][0].iterations.tolist()):
        out[t] = (float(np.median([r.exploitability[i] for r, _ in runs])),
                  float(np.median([r.extras["nodes_touched"][i] for r, _ in runs])))
    return {"rows": out, "seconds": float(np.median([s for _, s in runs])),
            "each": [(float(r.exploitability[-1]), s) for r, s in runs]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["kuhn_poker", "leduc_poker"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--iterations", type=int, default=100)
    args = parser.parse_args()
    points = [c for c in CHECKPOINTS if c < args.iterations] + [args.iterations]
    frameworks = [name for name in ("torch", "tensorflow", "jax")
                  if importlib.util.find_spec(name) is not None]
    print(f"OpenSpiel's Deep CFR: {'not run' if not frameworks else 'not wired'} "
          f"(deep-learning frameworks importable here: {', '.join(frameworks) or 'none'})")
    for name in args.games:
        game = cfrviz.load_game(name)
        deep = rows_for(game, "deep_cfr", args.iterations, args.seeds, points)
        cfr = rows_for(game, "cfr", args.iterations, [0], points)
        es = rows_for(game, "external_sampling", args.iterations, args.seeds, points)
        budget = deep["rows"][args.iterations][1]
        per_iteration = es["rows"][args.iterations][1] / args.iterations
        matched = max(1, int(round(budget / per_iteration)))
        es_matched = rows_for(game, "external_sampling", matched, args.seeds, [matched])
        print(f"\n{name}: median over seeds {args.seeds}; Deep CFR per seed (final "
              f"exploitability, seconds): "
              f"{', '.join(f'{e:.4f} in {s:.1f} s' for e, s in deep['each'])}")
        print(f"{'iteration':>10} | {'Deep CFR':>9} {'nodes':>11} | {'CFR':>9} {'nodes':>11} | "
              f"{'ext. sampl.':>11} {'nodes':>11}")
        for t in points:
            (d, dn), (c, cn), (e, en) = deep["rows"][t], cfr["rows"][t], es["rows"][t]
            print(f"{t:>10} | {d:9.4f} {dn:11,.0f} | {c:9.4f} {cn:11,.0f} | {e:11.4f} {en:11,.0f}")
        e, en = es_matched["rows"][matched]
        print(f"external sampling with Deep CFR's node budget: {matched:,} iterations, "
              f"{en:,.0f} nodes, exploitability {e:.4f}")
        print(f"median run time: Deep CFR {deep['seconds']:.1f} s, CFR {cfr['seconds']:.2f} s, "
              f"external sampling {es['seconds']:.2f} s ({args.iterations} iterations), "
              f"{es_matched['seconds']:.2f} s ({matched:,} iterations)")


if __name__ == "__main__":
    with recorded("bench_deep_cfr"):
        main()
