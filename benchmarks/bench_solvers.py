"""Every cfrviz solver on Kuhn, Leduc and pocket poker, beside the reference and OpenSpiel.

Run: ``.venv/bin/python benchmarks/bench_solvers.py [--quick]`` (``make benchmark`` runs it).

For each game and algorithm it prints the time per iteration, the nodes
touched per iteration and the exploitability of the average policy at a few
checkpoints; in the same run and the same table, the readable recursive
reference (:func:`cfrviz.reference.vanilla_cfr`) and, when ``pyspiel``
imports (``pip install -e '.[bench]'``), OpenSpiel's C++ and Python solvers.
Then the speed ratios against OpenSpiel with the targets of issue 3, and
correctness cross-checks: exploitability after the same iterations of CFR and
CFR+ in cfrviz and in OpenSpiel, and the engine against the reference.

How times are taken: each solver first runs one untimed iteration (numba
compiles or loads its cache; OpenSpiel builds its tables), then an iteration
count is chosen so that one run takes about ``budget`` seconds; then every
solver of a game is timed once per round, rounds interleaved so that a burst
of load from elsewhere hits all of them alike, and the fastest round counts.
cfrviz is timed around the whole ``cfrviz.solve(..., checkpoints=[])`` call
(nothing evaluated), OpenSpiel around a loop of its iteration calls.
Exploitability comes from separate runs with checkpoints.

The OpenSpiel comparisons use ``leduc_poker(suits=True)``, whose 936
information sets are OpenSpiel's; cfrviz's default Leduc keys on ranks (288
sets, a lossless abstraction) and is shown for context.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from unittest import mock

import _openspiel
import numpy as np
from _results import recorded

import cfrviz
from cfrviz import engine
from cfrviz.reference import vanilla_cfr
from cfrviz.solvers import algorithms_in, tree_algorithms
from cfrviz.solvers.driver import average_strategy


def algorithms() -> tuple[str, ...]:
    """Every tabular tree algorithm in cfrviz's registry (a newly registered one is measured too).

    The network family (Deep CFR) trains networks for seconds per iteration; its cost and
    exploitability are measured against tabular CFR in benchmarks/bench_deep_cfr.py instead.
    """
    network = set(algorithms_in("network"))
    return tuple(name for name in tree_algorithms() if name not in network)


REFERENCE = "cfrviz reference vanilla CFR (readable recursion)"


@dataclass(frozen=True)
class Game:
    """One game variant of the benchmark."""

    label: str
    name: str
    params: dict = field(default_factory=dict)
    openspiel: str | None = None  # OpenSpiel's name for the same tree, if it has one
    reference_in_quick: bool = False


GAMES = [
    Game("Kuhn", "kuhn_poker", openspiel="kuhn_poker", reference_in_quick=True),
    Game("Leduc (ranks)", "leduc_poker", reference_in_quick=True),
    Game("Leduc (suits)", "leduc_poker", {"suits": True}, openspiel="leduc_poker"),
    Game("pocket poker", "pocket_poker"),
]

# (target as the issue states it, game, cfrviz solver, OpenSpiel solver, speed ratio needed)
TARGETS = [
    ("Leduc vanilla CFR >= 5x faster than OpenSpiel C++", "Leduc (suits)", "cfrviz cfr",
     "OpenSpiel C++ CFRSolver", 5.0),
    ("Leduc CFR+ >= 5x faster than OpenSpiel C++", "Leduc (suits)", "cfrviz cfr+",
     "OpenSpiel C++ CFRPlusSolver", 5.0),
    ("Kuhn vanilla CFR within 2x of OpenSpiel C++", "Kuhn", "cfrviz cfr",
     "OpenSpiel C++ CFRSolver", 0.5),
    ("Kuhn CFR+ within 2x of OpenSpiel C++", "Kuhn", "cfrviz cfr+",
     "OpenSpiel C++ CFRPlusSolver", 0.5),
    ("Leduc external sampling at least as fast as OpenSpiel Python", "Leduc (suits)",
     "cfrviz external_sampling", "OpenSpiel Python ExternalSamplingSolver", 1.0),
]

# More ratios for context: (cfrviz game, cfrviz solver, OpenSpiel game, OpenSpiel solver)
CONTEXT = [
    ("Leduc (suits)", "cfrviz cfr", "Leduc (suits)", "OpenSpiel Python CFRSolver"),
    ("Leduc (ranks)", "cfrviz cfr", "Leduc (suits)", "OpenSpiel C++ CFRSolver"),
    ("Leduc (suits)", "cfrviz external_sampling", "Leduc (suits)",
     "OpenSpiel C++ ExternalSamplingMCCFRSolver"),
    ("Kuhn", "cfrviz cfr", "Kuhn", "OpenSpiel Python CFRSolver"),
    ("Kuhn", "cfrviz external_sampling", "Kuhn", "OpenSpiel C++ ExternalSamplingMCCFRSolver"),
]


@dataclass(frozen=True)
class Settings:
    budget: float  # seconds one timed run should take
    rounds: int  # timed runs per solver; the fastest counts
    checkpoints: tuple[int, ...]  # exploitability of every cfrviz solver after these
    cross_check: dict  # OpenSpiel game -> iterations to compare exploitability after
    reference_iterations: int  # engine against reference after this many iterations


FULL = Settings(budget=0.25, rounds=3, checkpoints=(100, 1000, 10000),
                cross_check={"kuhn_poker": (100, 1000, 10000), "leduc_poker": (100, 1000)},
                reference_iterations=5)
QUICK = Settings(budget=0.02, rounds=2, checkpoints=(10, 100),
                 cross_check={"kuhn_poker": (10, 100), "leduc_poker": (10,)},
                 reference_iterations=2)


# --------------------------------------------------------------------------------- timing


class Timer:
    """Time per iteration of ``run(n)``, which runs n iterations and may return nodes touched."""

    def __init__(self, label: str, run):
        self.label = label
        self._run = run
        self.n = 1
        self.best = np.inf
        self.touched = None

    def calibrate(self, budget: float) -> None:
        """Warm up, then pick ``n`` so that ``run(n)`` takes about ``budget`` seconds."""
        self._run(1)  # compilation, caches, first-iteration tables
        n = 1
        while True:
            seconds = min(self._timed(n), self._timed(n))  # one stall must not decide n
            if seconds >= budget / 4 or n >= 10**7:
                break
            n *= 4
        self.n = max(1, round(n * budget / seconds))
        self.best = np.inf

    def measure(self) -> None:
        self._timed(self.n)

    def _timed(self, n: int) -> float:
        start = time.perf_counter()
        touched = self._run(n)
        seconds = time.perf_counter() - start
        self.best = min(self.best, seconds / n)
        if touched is not None:
            self.touched = touched / n
        return seconds


def cfrviz_run(tree, algorithm: str):
    def run(n: int) -> int:
        trace = cfrviz.solve(tree, algorithm, n, checkpoints=[], progress=False)
        return int(trace.extras["nodes_touched"][-1])
    return run


def reference_run(tree):
    def run(n: int) -> int:
        for _ in vanilla_cfr(tree, n):
            pass
        return 2 * len(tree.player) * n  # one walk of the whole tree per player
    return run


# ------------------------------------------------------------------------------- measuring


@dataclass
class Row:
    game: str
    solver: str
    seconds: float  # per iteration
    touched: float | None  # nodes per iteration
    exploitability: dict  # iteration -> exploitability of the average policy


def measure_game(game: Game, tree, settings: Settings, quick: bool, openspiel: bool,
                 openspiel_expl: dict) -> list[Row]:
    """Time every solver on one game, interleaved, and add exploitability at the checkpoints."""
    timers = [Timer(f"cfrviz {a}", cfrviz_run(tree, a)) for a in algorithms()]
    if not quick or game.reference_in_quick:
        timers.append(Timer(REFERENCE, reference_run(tree)))
    if openspiel and game.openspiel:
        for make in (_openspiel.cpp_cfr, _openspiel.cpp_cfr_plus, _openspiel.python_cfr,
                     _openspiel.python_external_sampling, _openspiel.cpp_external_sampling):
            solver = make(game.openspiel)
            timers.append(Timer(solver.label, solver.run))
    for timer in timers:
        timer.calibrate(settings.budget)
    for _ in range(settings.rounds):
        for timer in timers:
            timer.measure()

    exploitability = {}
    for algorithm in algorithms():
        trace = cfrviz.solve(tree, algorithm, max(settings.checkpoints),
                             checkpoints=list(settings.checkpoints), progress=False)
        exploitability[f"cfrviz {algorithm}"] = dict(zip(trace.iterations.tolist(),
                                                         trace.exploitability.tolist()))
    return [Row(game.label, t.label, t.best, t.touched,
                exploitability.get(t.label) or openspiel_expl.get((game.openspiel, t.label), {}))
            for t in timers]


def openspiel_exploitability(settings: Settings) -> dict:
    """{(OpenSpiel game, solver label): {iteration: exploitability}} for C++ CFR and CFR+."""
    values = {}
    for os_game, points in settings.cross_check.items():
        for make in (_openspiel.cpp_cfr, _openspiel.cpp_cfr_plus):
            solver, done, found = make(os_game), 0, {}
            for point in points:
                solver.run(point - done)
                done = point
                found[point] = solver.exploitability()
            values[(os_game, solver.label)] = found
    return values


def nudged_run(tree, algorithm: str, iterations: int) -> tuple[float, float]:
    """Exploitability after ``iterations``, as is and with regrets nudged after iteration 1.

    Each regret after the first iteration is multiplied by 1 + 1e-16 x (a
    seeded normal draw), a change in the last bit: the gap at the end is how
    far rounding alone carries a run.  The nudge is made in the compiled
    sweep's tables between its first and second calls (a resumed trace
    cannot carry it: ``resume`` replays a trace and refuses one changed
    after it was recorded).
    """
    plain = cfrviz.solve(tree, algorithm, iterations, checkpoints=[iterations], progress=False)
    sweep, noise, nudged = engine.run_full_tree, np.random.default_rng(1), []

    def nudging(arrays, tables, first, last, rule):
        if first == 2:  # the driver times iteration 1 on its own, then goes on from 2
            tables.regret_sum[...] *= 1 + 1e-16 * noise.standard_normal(tables.regret_sum.shape)
            nudged.append(first)
        return sweep(arrays, tables, first, last, rule)

    with mock.patch.object(engine, "run_full_tree", nudging):
        run = cfrviz.solve(tree, algorithm, iterations, checkpoints=[iterations],
                           progress=False)
    if not nudged:
        raise RuntimeError(f"{algorithm}: no sweep started at iteration 2; nothing was nudged")
    return float(plain.exploitability[-1]), float(run.exploitability[-1])


# ------------------------------------------------------------------------------ formatting


def fmt_time(seconds: float) -> str:
    if not np.isfinite(seconds):
        return "—"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_count(x) -> str:
    if x is None:
        return "—"
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


def fmt_expl(x) -> str:
    return "—" if x is None else f"{x:.3e}"


def faster(ours: float, theirs: float) -> str:
    ratio = theirs / ours
    return f"{ratio:.1f}x faster" if ratio >= 1 else f"{1 / ratio:.1f}x slower"


def table(header: list[str], rows: list[list[str]], align: str) -> str:
    """A markdown table, padded so it also reads as plain text."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells):
        return "| " + " | ".join(c.ljust(w) if a == "l" else c.rjust(w)
                                 for c, w, a in zip(cells, widths, align)) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if a == "r" else ("-" * (w + 2))
                          for w, a in zip(widths, align)) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


# ---------------------------------------------------------------------------------- report


def print_header(quick, settings, openspiel, games, trees, missing, load) -> None:
    print(f"# cfrviz solver benchmark{' (--quick: indicative only)' if quick else ''}")
    print()
    print("Command: .venv/bin/python benchmarks/bench_solvers.py" + (" --quick" if quick else ""))
    import numba

    print(f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()}, numpy {np.__version__}, numba "
          f"{numba.__version__}, OpenSpiel {openspiel or 'not installed'}; load average "
          f"{load:.2f} at start")
    print(f"Times: fastest of {settings.rounds} interleaved runs of about {settings.budget:g} s "
          f"each, after an untimed warm-up iteration (numba compilation excluded); cfrviz timed "
          f"around cfrviz.solve(..., checkpoints=[]). Exploitability (NashConv / 2) of the "
          f"average policy, seed 0, from separate runs.")
    print("Games: " + "; ".join(f"{g.label} {len(trees[g.label].infoset_keys):,} information "
                                f"sets, {len(trees[g.label].player):,} nodes" for g in games))
    if missing:
        print(f"Not registered in cfrviz yet, so not benchmarked: {', '.join(missing)}")
    if not openspiel:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): its rows, the ratios and "
              "the targets are left out.")
    print()


def print_results(rows: list[Row], checkpoints) -> None:
    header = ["game", "solver", "time / iteration", "nodes touched / iteration",
              *(f"expl. after {p:,}" for p in checkpoints)]
    body = [[r.game, r.solver, fmt_time(r.seconds), fmt_count(r.touched),
             *(fmt_expl(r.exploitability.get(p)) for p in checkpoints)] for r in rows]
    print(table(header, body, "ll" + "r" * (len(header) - 2)))
    print()


def print_targets(speed: dict) -> None:
    print("## Against OpenSpiel, measured in this run")
    print()
    body = []
    for name, game, ours, theirs, needed in TARGETS:
        a, b = speed[(game, ours)], speed[(game, theirs)]
        body.append([name, fmt_time(a), fmt_time(b), faster(a, b),
                     "PASS" if b / a >= needed else "FAIL"])
    print(table(["target (issue 3)", "cfrviz / iteration", "OpenSpiel / iteration", "cfrviz is",
                 "result"], body, "lrrrl"))
    print()
    print("Also in this run:")
    for game, ours, their_game, theirs in CONTEXT:
        if (game, ours) in speed and (their_game, theirs) in speed:
            a, b = speed[(game, ours)], speed[(their_game, theirs)]
            note = "" if game == their_game else f" on {their_game}"
            caveat = "" if game == their_game else "; not like for like"
            print(f"- {ours} on {game} is {faster(a, b)} than {theirs}{note} ({fmt_time(a)} vs "
                  f"{fmt_time(b)} per iteration{caveat})")
    print()


def print_cross_checks(rows, games, trees, settings, quick, openspiel_expl) -> None:
    print("## Cross-checks")
    print()
    if openspiel_expl:
        print("Exploitability of the average policy after the same iterations, alternating "
              "updates in both (OpenSpiel's computed by open_spiel.python.algorithms."
              "exploitability):")
        print()
        expl = {(r.game, r.solver): r.exploitability for r in rows}
        body = []
        for os_game, points in settings.cross_check.items():
            for algorithm, solver in (("cfr", "OpenSpiel C++ CFRSolver"),
                                      ("cfr+", "OpenSpiel C++ CFRPlusSolver")):
                theirs = openspiel_expl[(os_game, solver)]
                for game in (g for g in games if g.name == os_game):
                    ours = expl[(game.label, f"cfrviz {algorithm}")]
                    body += [[game.label, algorithm, f"{p:,}", f"{ours[p]:.12e}",
                              f"{theirs[p]:.12e}", f"{abs(ours[p] - theirs[p]):.1e}"]
                             for p in points if p in ours]
        print(table(["cfrviz game", "algorithm", "iterations", "cfrviz", "OpenSpiel",
                     "abs. difference"], body, "llrrrr"))
        print()
    last = max(settings.cross_check["leduc_poker"])
    if not quick:
        print(f"Rounding alone, for scale: cfrviz on Leduc (ranks) with its regrets after "
              f"iteration 1 moved in the last bit, against the same run untouched, after "
              f"{last:,} iterations:")
        print()
        body = []
        for algorithm in ("cfr", "cfr+"):
            a, b = nudged_run(trees["Leduc (ranks)"], algorithm, last)
            body.append([algorithm, f"{a:.12e}", f"{b:.12e}", f"{abs(a - b):.1e}"])
        print(table(["algorithm", "untouched", "nudged", "abs. difference"], body, "lrrr"))
        print()
    k = settings.reference_iterations
    print(f"Engine against the readable reference, vanilla CFR, after {k} iterations (largest "
          f"absolute difference between the average strategies):")
    print()
    body = []
    for game in games:
        if quick and not game.reference_in_quick:
            continue
        tree = trees[game.label]
        *_, last_step = vanilla_cfr(tree, k)
        reference = average_strategy(last_step["strategy_sum"], tree.legal_mask)
        engine = cfrviz.solve(tree, "cfr", k, checkpoints=[], progress=False).average_strategy[-1]
        body.append([game.label, f"{np.max(np.abs(reference - engine)):.1e}"])
    print(table(["game", "max abs. difference"], body, "lr"))
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run of a few seconds: short timings, early checkpoints")
    quick = parser.parse_args().quick
    settings = QUICK if quick else FULL
    openspiel = _openspiel.version()
    started = time.perf_counter()
    load = os.getloadavg()[0]

    available = set(cfrviz.available_games())
    games = [g for g in GAMES if g.name in available]
    missing = [g.label for g in GAMES if g.name not in available]
    trees = {g.label: cfrviz.load_game(g.name, **g.params) for g in games}

    openspiel_expl = openspiel_exploitability(settings) if openspiel else {}
    rows = []
    for game in games:
        print(f"measuring {game.label} ...", file=sys.stderr, flush=True)
        rows += measure_game(game, trees[game.label], settings, quick, bool(openspiel),
                             openspiel_expl)
    speed = {(r.game, r.solver): r.seconds for r in rows}

    print_header(quick, settings, openspiel, games, trees, missing, load)
    print_results(rows, settings.checkpoints)
    if openspiel:
        print_targets(speed)
    print_cross_checks(rows, games, trees, settings, quick, openspiel_expl)
    print(f"Finished in {time.perf_counter() - started:.0f} s; load average "
          f"{os.getloadavg()[0]:.2f} at the end.")


if __name__ == "__main__":
    with recorded("bench_solvers", fenced=False):
        main()
