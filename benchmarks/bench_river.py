"""Time DCFR on the hold'em river spot against postflop-solver's recorded figures (issue 32 item 3).

Run: ``.venv/bin/python benchmarks/bench_river.py``.  For the reference spot of
``shared/peers/postflop-river.md`` (board Td9d6h4c2s, pot 100, stack 200, 208 and 239 combos,
bets 50%, raises 2.5x) and its full-range variant (every combo the board leaves, 1,081 a side),
cfrviz's river kernel (:func:`cfrviz.engine.river.run_river_cfr`, straight from the spot, no
dealt tree) runs DCFR with postflop-solver's parameters (alpha 1.5, beta 0, gamma 2, alternating
updates) and prints:

- set-up: CPU time to read the spot into its public tree and the kernels' plan;
- compile: a new process's first solve and best response with an empty numba cache (all
  compiled) and with the cache that leaves (as after ``python -m cfrviz.warm``), then in this
  process the first call of the kernel against a later call of the same size;
- CPU per iteration: ``time.process_time`` over one call of many iterations, best of three;
- exploitability (NashConv / 2, exact, by the vector best response) after 10 to 1,000
  iterations, in chips and in % of the pot, with the CPU time of the iterations alone;
- the iterations, and their CPU time, until the exploitability is at most 0.05% of the pot;
- OOP's value of the average strategy after 1,000 iterations.

Beside them, postflop-solver's figures as recorded in ``shared/peers/postflop-river.md``
(b-inary/postflop-solver, Rust, DCFR in f32, single-threaded, measured 2026-12-01 on this
project's kind of machine: 2 shared cores, load average about 10).  One process, one core.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from _results import recorded

from cfrviz.core.regret import average_strategy
from cfrviz.engine.cfr import Tables, UpdateRule
from cfrviz.engine.river import (
    RiverPlan,
    river_exploitability,
    river_plan,
    river_values,
    run_river_cfr,
)
from cfrviz.games.holdem.public import river_public

#: postflop-solver's DCFR, as the brief and shared/peers/postflop-river.md give it.
DCFR = UpdateRule(discount=True, alpha=1.5, beta=0.0, gamma=2.0)
POT = 100.0
TARGET = 0.0005 * POT  # 0.05% of the pot, in chips
CHECKPOINTS = (10, 50, 100, 200, 500, 1000)
REPEATS = 3
EVERY_HAND = ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
              "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")
SPOTS = (("default", {}), ("full range", {"ranges": (EVERY_HAND, EVERY_HAND)}))
#: OOP's exact value on the default spot (the sequence-form LP's; postflop-river.md).
EXACT_VALUE = -2.783745710

# Recorded by postflop-solver (shared/peers/postflop-river.md, measured 2026-12-01).
#: Default spot: iterations -> (exploitability in chips = % of pot, CPU s of three runs).
REFERENCE_DEFAULT = {10: (3.598607, "0.0003 / 0.0003 / 0.0005"),
                     50: (0.154996, "0.0014 / 0.0014 / 0.0023"),
                     100: (0.057163, "0.0030 / 0.0027 / 0.0045"),
                     200: (0.015797, "0.0070 / 0.0053 / 0.0084"),
                     500: (0.005131, "0.0193 / 0.0128 / 0.0168"),
                     1000: (0.002288, "0.0356 / 0.0254 / 0.0325")}
#: Full-range spot (one run each): iterations -> (exploitability, CPU s).
REFERENCE_FULL = {100: (0.051930, "0.0171"), 1000: (0.003069, "0.1574")}
REFERENCE_PER_ITERATION = {"default": "25-36 us", "full range": "157 us"}
REFERENCE_VALUE = {"default": "-2.784 (LP: -2.783745710)", "full range": "-2.8986"}
REFERENCE_TARGET = {"default": "between 100 (0.057) and 200 (0.0158) iterations: 3-8 ms",
                    "full range": "under 1,000 iterations (0.0519 at 100)"}


def fresh(plan: RiverPlan) -> Tables:
    return Tables(*(np.zeros(plan.spot.legal_mask.shape) for _ in range(4)))


def cpu(function) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def exploitability(plan: RiverPlan, tables: Tables) -> float:
    return river_exploitability(plan, average_strategy(tables.strategy_sum,
                                                       plan.spot.legal_mask))


def oop_value(plan: RiverPlan, tables: Tables) -> float:
    values = np.zeros((len(plan.spot.bets.nodes), plan.hands))
    river_values(plan.arrays, average_strategy(tables.strategy_sum, plan.spot.legal_mask), 0,
                 1, values)
    return float(values[0].sum())


def to_target(plan: RiverPlan, limit: int = 5000) -> int | None:
    """The first iteration after which the average strategy's exploitability is at most
    ``TARGET`` (checked after every iteration), or None within ``limit``."""
    tables = fresh(plan)
    for t in range(1, limit + 1):
        run_river_cfr(plan.arrays, plan.tree_arrays, tables, t, t, DCFR)
        if exploitability(plan, tables) <= TARGET:
            return t
    return None


#: A fresh process's first river solve and best response, timed by the process itself.
COLD = """
import time
start = time.process_time()
import numpy as np
from cfrviz.engine.cfr import Tables, UpdateRule
from cfrviz.engine.river import river_exploitability, river_plan, run_river_cfr
from cfrviz.games.holdem.public import river_public
imported = time.process_time()
plan = river_plan(river_public())
tables = Tables(*(np.zeros(plan.spot.legal_mask.shape) for _ in range(4)))
run_river_cfr(plan.arrays, plan.tree_arrays, tables, 1, 1, UpdateRule(discount=True, alpha=1.5,
                                                                      beta=0.0, gamma=2.0))
river_exploitability(plan, tables.current)
print(imported - start, time.process_time() - imported)
"""


def cold_compile() -> str:
    """CPU seconds of a new Python process's first river solve and best response with an empty
    numba cache (everything compiled), against the same with the cache it leaves."""
    with tempfile.TemporaryDirectory() as cache:
        times = []
        for _ in range(2):
            done = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True,
                                  check=True, env={**os.environ, "NUMBA_CACHE_DIR": cache},
                                  timeout=600)
            times.append([float(x) for x in done.stdout.split()])
    return (f"a new process's first solve and best response: {times[0][1]:.1f} s CPU with an "
            f"empty numba cache (compiling), {times[1][1]:.2f} s with the cache it left "
            f"(the imports, {times[1][0]:.1f} s, not counted)")


def _how_compiled() -> str:
    """Whether this process compiled the river kernels or loaded them from numba's cache."""
    stats = run_river_cfr.stats
    if sum(stats.cache_misses.values()):
        return "compiled in this process"
    if sum(stats.cache_hits.values()):
        return "loaded from numba's disk cache"
    return "already loaded"


def measure(label: str, params: dict) -> None:
    start = time.process_time()
    plan = river_plan(river_public(**params))
    setup = time.process_time() - start
    sizes = " and ".join(str(len(h)) for h in plan.spot.hands)
    print(f"\n{label} spot: {sizes} combos, {plan.spot.num_infosets:,} information sets; "
          f"set-up {setup * 1e3:.1f} ms CPU")
    first = cpu(lambda: run_river_cfr(plan.arrays, plan.tree_arrays, fresh(plan), 1, 1, DCFR))
    later = cpu(lambda: run_river_cfr(plan.arrays, plan.tree_arrays, fresh(plan), 1, 1, DCFR))
    first_br = cpu(lambda: exploitability(plan, fresh(plan)))
    later_br = cpu(lambda: exploitability(plan, fresh(plan)))
    print(f"  compile (first call in this process, later call): CFR {first:.2f} s, "
          f"{later * 1e3:.2f} ms; best response {first_br:.2f} s, {later_br * 1e3:.2f} ms "
          f"({_how_compiled()})")
    per = min(cpu(lambda: run_river_cfr(plan.arrays, plan.tree_arrays, fresh(plan), 1, 1000,
                                        DCFR)) for _ in range(REPEATS)) / 1000
    print(f"  CPU per iteration (1,000 iterations, best of {REPEATS}): {per * 1e6:.1f} us; "
          f"postflop-solver {REFERENCE_PER_ITERATION[label]}")
    print(f"  {'iterations':>10}  {'exploitability (chips)':>22}  {'% of pot':>9}  "
          f"{'CPU s':>8}   postflop-solver (chips; CPU s)")
    reference = REFERENCE_DEFAULT if label == "default" else REFERENCE_FULL
    tables = fresh(plan)
    done, spent = 0, 0.0
    for last in CHECKPOINTS:
        spent += cpu(lambda first=done + 1, last=last: run_river_cfr(
            plan.arrays, plan.tree_arrays, tables, first, last, DCFR))
        done = last
        chips = exploitability(plan, tables)
        theirs = (f"{reference[last][0]:.6f}; {reference[last][1]}" if last in reference
                  else "-")
        print(f"  {last:>10,}  {chips:>22.6f}  {chips / POT * 100:>8.4f}%  {spent:>8.4f}   "
              f"{theirs}")
    value = oop_value(plan, tables)
    exact = (f"; exact {EXACT_VALUE}, within 2 x exploitability: "
             f"{abs(value - EXACT_VALUE) <= 2 * chips}" if label == "default" else "")
    print(f"  OOP's value after 1,000: {value:.6f}{exact}; postflop-solver "
          f"{REFERENCE_VALUE[label]}")
    reached = to_target(plan)
    if reached is None:
        print("  exploitability <= 0.05% of the pot: not within 5,000 iterations")
        return
    time_to = min(cpu(lambda: run_river_cfr(plan.arrays, plan.tree_arrays, fresh(plan), 1,
                                            reached, DCFR)) for _ in range(REPEATS))
    print(f"  exploitability <= 0.05% of the pot ({TARGET} chips): after {reached} iterations, "
          f"{time_to * 1e3:.1f} ms CPU; postflop-solver {REFERENCE_TARGET[label]}")


def main() -> None:
    print("DCFR (alpha 1.5, beta 0, gamma 2, alternating) on the hold'em river, cfrviz's river "
          "kernel against postflop-solver's recorded figures (shared/peers/postflop-river.md)")
    print(f"compile: {cold_compile()}")
    for label, params in SPOTS:
        measure(label, params)


if __name__ == "__main__":
    with recorded("bench_river"):
        main()
