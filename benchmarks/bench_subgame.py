"""Subgame solving and depth-limited solving on Kuhn and Leduc: the figures issue 24 quotes.

    .venv/bin/python benchmarks/bench_subgame.py            # everything (a few minutes)
    .venv/bin/python benchmarks/bench_subgame.py --no-depth  # re-solving only

Prints (1) the whole-game exploitability of a blueprint and of its unsafe, re-solve-gadget and
max-margin re-solves at a few public states, with the safety bound and the seconds per re-solve;
(2) a sweep of every non-terminal public state against several blueprints: the largest rise
unsafe re-solving causes, the largest rise of a safe method over its bound, the re-solve times;
(3) depth-limited Leduc: the first round solved by CFR+ with leaf values from exact leaf
re-solves, a value network and the equilibrium's fixed continuation.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _results import recorded

import cfrviz
from cfrviz.games.public import public_tree
from cfrviz.solvers import depth_limited as dl
from cfrviz.solvers import subgame as sg

ITERATIONS = 1000


def blueprint(game, kind: str) -> cfrviz.Policy:
    if kind == "uniform":
        return cfrviz.Policy.uniform(game)
    n = int(kind[3:])
    return cfrviz.solve(game, "cfr", n, checkpoints=[n]).average_policy()


def live_states(game) -> list[str]:
    return [s.history for s in public_tree(game).states if s.dealt and s.kind != "terminal"]


def table(name: str, kind: str, states: list[str]) -> None:
    game = cfrviz.load_game(name)
    bp = blueprint(game, kind)
    sg.resolve(game, bp, states[0], "unsafe", 10)  # compile outside the timings
    print(f"\n{name}, blueprint {kind} (exploitability {cfrviz.exploitability(game, bp):.4f}),"
          f" {ITERATIONS} CFR+ iterations per gadget")
    print(f"{'public state':<22}{'unsafe':>10}{'gadget':>10}{'max-margin':>12}"
          f"{'bound':>10}{'seconds':>9}")
    for state in states:
        rs = sg.resolve_all(game, bp, state, ITERATIONS)
        bound = max(rs["resolve"].bound, rs["maxmargin"].bound)
        seconds = max(r.seconds for r in rs.values())
        print(f"{state!r:<22}{rs['unsafe'].exploitability:>10.4f}"
              f"{rs['resolve'].exploitability:>10.4f}{rs['maxmargin'].exploitability:>12.4f}"
              f"{bound:>10.1e}{seconds:>9.3f}")


def sweep(name: str, kinds: list[str]) -> None:
    game = cfrviz.load_game(name)
    states = live_states(game)
    worst_unsafe = (0.0, "")
    worst_safe = -np.inf
    times = []
    for kind in kinds:
        bp = blueprint(game, kind)
        for state in states:
            for method in sg.METHODS:
                r = sg.resolve(game, bp, state, method, ITERATIONS)
                times.append(r.seconds)
                rise = r.exploitability - r.blueprint_exploitability
                if method == "unsafe" and rise > worst_unsafe[0]:
                    worst_unsafe = (rise, f"{kind} at {state!r}: {r.blueprint_exploitability:.4f}"
                                          f" -> {r.exploitability:.4f}")
                if method != "unsafe":
                    worst_safe = max(worst_safe, rise - r.bound)
    print(f"\n{name}: {len(states)} non-terminal public states x blueprints {kinds} x 3 methods")
    print(f"  largest unsafe rise {worst_unsafe[0]:.4f} ({worst_unsafe[1]})")
    print(f"  largest safe rise minus its bound {worst_safe:.2e} (<= 0: the guarantee holds)")
    print(f"  seconds per re-solve: mean {np.mean(times):.3f}, max {np.max(times):.3f}")


def depth() -> None:
    game = cfrviz.load_game("leduc_poker")
    cut = dl.trunk(game)
    eq = cfrviz.solve(game, "cfr+", 2000, checkpoints=[2000]).average_policy()
    print(f"\ndepth-limited Leduc: trunk {cut.tree}, leaves {cut.leaf_states}")
    print(f"  equilibrium continuation: CFR+ 2000, exploitability "
          f"{cfrviz.exploitability(game, eq):.2e}")
    start = time.perf_counter()
    x, y, mask = dl.value_samples(cut, 3 * 600 + 200, np.random.default_rng(0), 200)
    print(f"  {len(x)} random ranges solved (200 CFR+ iterations each) in "
          f"{time.perf_counter() - start:.1f} s; 3 networks of 600, tested on the last 200")
    sources: dict[str, dl.LeafValues] = {"exact leaf re-solves": dl.exact_values(cut, 100)}
    for k in range(3):
        rows = np.r_[k * 600:(k + 1) * 600, 1800:2000]
        net = dl.train_value_network(cut, samples=600, seed=k, steps=2000, test_samples=200,
                                     data=(x[rows], y[rows], mask[rows]))
        sources[f"network {k + 1} (error {net.test_error:.2f} chips)"] = net
    sources["fixed equilibrium continuation"] = dl.continuation_values(cut, eq)
    print(f"  {'leaf values':<36}{'trunk s':>8}{'+ re-solved leaves':>20}"
          f"{'+ equilibrium below':>21}")
    for label, values in sources.items():
        start = time.perf_counter()
        strategy = dl.solve_trunk(cut, values, 200)
        seconds = time.perf_counter() - start
        resolved = cfrviz.exploitability(game, dl.resolved_continuation(cut, strategy, eq))
        fixed = cfrviz.exploitability(game, dl.combine(cut, strategy, eq))
        print(f"  {label:<36}{seconds:>8.2f}{resolved:>20.4f}{fixed:>21.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-depth", action="store_true", help="skip depth-limited solving")
    args = parser.parse_args()
    table("kuhn_poker", "cfr10", ["deal", "deal/p", "deal/b", "deal/p/b"])
    table("leduc_poker", "cfr30", ["deal", "deal/r/c", "deal/c/c/K", "deal/r/r/c/Q/r",
                                   "deal/c/r/c/J/r"])
    sweep("kuhn_poker", ["cfr10", "cfr30", "cfr100", "uniform"])
    sweep("leduc_poker", ["cfr10", "cfr30", "cfr100", "uniform"])
    if not args.no_depth:
        depth()


if __name__ == "__main__":
    with recorded("bench_subgame"):
        main()
