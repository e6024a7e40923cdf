"""Time vector-form CFR over the public tree against the tabular engine, iteration for iteration.

Run: ``.venv/bin/python benchmarks/bench_vector_cfr.py`` (or ``make benchmark``).  Both
kernels run the same vanilla CFR iterations (alternating updates) from zero tables in this one
process, interleaved, best of seven (the machine's other load inflates both alike); the ratio,
tabular time over vector time, is what benchmarks/RESULTS.md shows.  Building the vector plan
(the public tree, its leaves) is timed apart, once: a solve pays it on its first call for a
game, and the tree's memo keeps it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np
from _results import recorded

import cfrviz
from cfrviz import engine
from cfrviz.core.tree import GameTree
from cfrviz.engine.cfr import Tables, UpdateRule
from cfrviz.engine.vector_cfr import VectorPlan, run_vector_cfr, vector_plan

REPEATS = 7
GAMES = (("Kuhn poker", "kuhn_poker", {}, 20_000),
         ("Leduc hold'em", "leduc_poker", {}, 2_000),
         ("Leduc, suits told apart", "leduc_poker", {"suits": True}, 400),
         ("Leduc, 13 ranks", "leduc_poker", {"ranks": 13}, 40),
         ("pocket poker", "pocket_poker", {}, 300))


def per_iteration(run: Callable[[Tables], None], tree: GameTree, iterations: int) -> float:
    """Seconds per iteration of one timed run from zero tables (made before the clock starts)."""
    tables = Tables(*(np.zeros(tree.legal_mask.shape) for _ in range(4)))
    start = time.perf_counter()
    run(tables)
    return (time.perf_counter() - start) / iterations


def measure(tree: GameTree, iterations: int) -> tuple[float, float, float, VectorPlan]:
    """(tabular, vector seconds per iteration, seconds to build the vector plan, the plan)."""
    rule = UpdateRule()
    start = time.perf_counter()
    vp = vector_plan(tree)
    planned = time.perf_counter() - start
    arrays = engine.plan(tree).arrays

    def tabular(tables: Tables, last: int = iterations) -> None:
        engine.run_full_tree(arrays, tables, 1, last, rule)

    def vector(tables: Tables, last: int = iterations) -> None:
        run_vector_cfr(vp.arrays, vp.tree_arrays, tables, 1, last, rule)

    per_iteration(partial(tabular, last=1), tree, 1)  # compile (or load) both kernels
    per_iteration(partial(vector, last=1), tree, 1)
    times = [(per_iteration(tabular, tree, iterations), per_iteration(vector, tree, iterations))
             for _ in range(REPEATS)]  # interleaved, so both see the same machine load
    return min(t for t, _ in times), min(v for _, v in times), planned, vp


def main() -> None:
    print(f"vanilla CFR (alternating), tabular engine against vector form, best of {REPEATS}")
    print(f"  {'game':<26}{'nodes':>8}{'public':>8}{'sorted':>8}{'iters':>7}"
          f"{'tabular':>12}{'vector':>12}{'ratio':>8}{'plan':>9}")
    for label, name, params, iterations in GAMES:
        tree = cfrviz.load_game(name, **params)
        tabular, vector, planned, vp = measure(tree, iterations)
        print(f"  {label:<26}{tree.num_nodes:>8,}{len(vp.states):>8}"
              f"{f'{vp.sorted_leaves}/{vp.leaves}':>8}{iterations:>7,}"
              f"{tabular * 1e6:>9.1f} us{vector * 1e6:>9.1f} us"
              f"{tabular / vector:>7.2f}x{planned:>7.2f} s")


if __name__ == "__main__":
    with recorded("bench_vector_cfr"):
        main()
