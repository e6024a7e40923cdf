"""What CFR's average reaches on three-player Kuhn poker, measured exactly.

Run: ``.venv/bin/python benchmarks/record_kuhn3.py [--iterations 10000] [--figure out.html]``
(a few seconds).

For vanilla CFR (alternating and simultaneous updates) and CFR+, at 10, 100, 1,000 and 10,000
iterations: each player's gain from deviating alone against the average profile, the
coarse-correlated gap of the joint play (the largest player's external regret against the
profiles played, per iteration), the average profile's value to each player, and the
solving time.  Everything comes from the run's trace (``cfrviz.solvers.multi`` records it).
"""

from __future__ import annotations

import argparse

import numpy as np

import cfrviz


def measure(iterations: int, figure: str | None) -> None:
    game = cfrviz.load_game("kuhn_poker_3p")
    marks = [t for t in (10, 100, 1_000, 10_000, 100_000) if t <= iterations]
    if iterations not in marks:
        marks.append(iterations)
    runs = [("cfr", {}), ("cfr", {"alternating": False}), ("cfr+", {})]
    for algorithm, settings in runs:
        trace = cfrviz.solve(game, algorithm, iterations, seed=0, checkpoints=marks,
                             progress=False, **settings)
        label = algorithm + ("" if settings.get("alternating", True) else " (simultaneous)")
        print(f"\n{label} on {game.name}, {trace.extras['total_time']:.2f} s solving")
        print(f"{'T':>6}  {'gain P1':>9} {'gain P2':>9} {'gain P3':>9}  {'CCE gap':>10}  "
              f"value of the average (P1, P2, P3)")
        for k, t in enumerate(trace.iterations):
            gains = trace.extras["deviation_gains"][k]
            values = cfrviz.expected_values(game, trace.average_policy(int(t)))
            print(f"{t:>6}  {gains[0]:9.2e} {gains[1]:9.2e} {gains[2]:9.2e}  "
                  f"{trace.extras['cce_gap'][k]:10.2e}  "
                  f"{', '.join(f'{v:+.5f}' for v in values)}")
        if figure and label == "cfr":
            from cfrviz.views.compare import log_checkpoints
            from cfrviz.views.multiplayer import deviation_figure

            dense = cfrviz.solve(game, "cfr", iterations, seed=0, progress=False,
                                 checkpoints=log_checkpoints(iterations, 40))
            deviation_figure(dense).write_html(figure)
            print(f"figure: {figure}")
    print(f"\n(-1/48 = {-1 / 48:+.5f}; numpy {np.__version__})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--figure", default=None, help="write the deviation figure (.html)")
    args = parser.parse_args()
    measure(args.iterations, args.figure)


if __name__ == "__main__":
    main()
