"""The sequence-form LP against CFR+ as games grow: time, memory, and where the LP runs away.

Run: ``.venv/bin/python benchmarks/bench_lp_scaling.py [--out data/benchmarks/lp_vs_cfr.json]
[--max-ranks 13] [--max-suited-ranks 8] [--timeout 900]``.

For Kuhn, pocket poker, Leduc with 2 to ``--max-ranks`` ranks (``leduc_poker(ranks=N)``, cards
dealt as ranks) and Leduc with suits told apart for 3 to ``--max-suited-ranks`` ranks, each in a
fresh Python process (so that peak memory is the solver's, not what earlier games left behind):

- the LP: CPU time of ``cfrviz.exact_equilibrium`` and the peak growth of the process's resident
  memory during it (``cfrviz.analysis.lp_scaling.peak_memory``: HiGHS' own allocations included);
- CFR+: the first iteration (checkpoints 4% apart, ``cfr_time_to``) at which its average strategy
  is exploitable by at most 1e-3, the CPU time of a run of that many iterations recording only
  its final state (no evaluation), and the peak memory of a short run on the fresh tree (building
  the solver's plan of the tree included; the memory does not grow with iterations).

Times are CPU seconds of the child process (``time.process_time``), which the load of a shared
machine hardly changes; wall-clock times are kept in the output file's ``meta["wall"]``.

The game tree, which both need, is built before either is measured and is not counted.

An LP that takes longer than ``--timeout`` seconds is stopped and recorded as not finished.  The
rows, each labelled with the machine, the date and this command, go to ``--out`` (JSON, read by
``cfrviz.analysis.lp_scaling.load_recorded``; lesson 10 draws them) and are printed as a table.
The load average when each game started is recorded with its row.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path

from _results import recorded

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "data" / "benchmarks" / "lp_vs_cfr.json"


def games(max_ranks: int, max_suited: int) -> list[tuple[str, str, dict]]:
    """(label, load_game name, parameters), roughly from small to large."""
    rows = [("Kuhn", "kuhn_poker", {}), ("pocket poker", "pocket_poker", {})]
    rows += [(f"Leduc, {n} ranks" + (" (Leduc)" if n == 3 else ""), "leduc_poker",
              {} if n == 3 else {"ranks": n}) for n in range(2, max_ranks + 1)]
    rows += [(f"Leduc with suits, {n} ranks", "leduc_poker", {"ranks": n, "suits": True})
             for n in range(3, max_suited + 1)]
    return rows


# --- the child: one game, one solver --------------------------------------------------------

def child(solver: str, name: str, params: dict) -> None:
    """Measure one solver on one game; print one JSON line."""
    import cfrviz
    from cfrviz.analysis.lp_scaling import cfr_time_to, peak_memory
    from cfrviz.analysis.scaling import solver_bytes

    kuhn = cfrviz.load_game("kuhn_poker")  # warm: imports, compiled kernels, HiGHS
    cfrviz.exact_equilibrium(kuhn)
    cfrviz.solve(kuhn, "cfr+", 3, checkpoints=[], progress=False)
    start = time.perf_counter()
    tree = cfrviz.load_game(name, **params)
    out: dict = {"tree_seconds": time.perf_counter() - start, "nodes": tree.num_nodes,
                 "infosets": tree.num_infosets}
    if solver == "lp":
        from cfrviz.solvers.lp import sequence_form

        form = sequence_form(tree)  # the sizes first, in case the solve is stopped
        print(json.dumps({"sequences": max(form.sizes), "nonzeros": -1}), flush=True)
        start, wall = time.process_time(), time.perf_counter()
        eq, peak = peak_memory(lambda: cfrviz.exact_equilibrium(tree))
        out.update(lp_seconds=time.process_time() - start,
                   lp_wall_seconds=time.perf_counter() - wall, lp_bytes=peak, lp_value=eq.value,
                   sequences=max(eq.sequences), nonzeros=eq.nonzeros,
                   highs_seconds=eq.seconds,
                   lp_exploitability=cfrviz.exploitability(tree, eq.policy))
    else:
        # Memory first, on the fresh tree, so that it includes building the solver's plan of
        # the tree (as the LP's includes building its matrices); with nothing recorded but the
        # final state it does not grow with the iterations.
        _, peak = peak_memory(lambda: cfrviz.solve(tree, "cfr+", 10, checkpoints=[],
                                                   progress=False))
        iterations, _, trace = cfr_time_to(tree)
        policy = trace.average_policy(iterations)
        start, wall = time.process_time(), time.perf_counter()
        cfrviz.solve(tree, "cfr+", iterations, checkpoints=[], progress=False)
        out.update(cfr_iterations=iterations, cfr_seconds=time.process_time() - start,
                   cfr_wall_seconds=time.perf_counter() - wall, cfr_bytes=peak,
                   cfr_table_bytes=solver_bytes(tree),
                   cfr_exploitability=cfrviz.exploitability(tree, policy),
                   cfr_value=cfrviz.expected_values(tree, policy)[0])
    print(json.dumps(out), flush=True)


def run_child(solver: str, name: str, params: dict, timeout: float) -> tuple[dict, bool]:
    """The child's last line of measurements, and whether it finished in time."""
    command = [sys.executable, __file__, "--child", solver, name, json.dumps(params)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              check=True)
    except subprocess.TimeoutExpired as stopped:
        partial = stopped.stdout or ""
        text = partial.decode() if isinstance(partial, bytes) else partial
        lines = text.strip().splitlines()
        return (json.loads(lines[-1]) if lines else {}), False
    except subprocess.CalledProcessError as error:
        raise SystemExit(f"{solver} on {name} {params} failed:\n{error.stderr}") from None
    return json.loads(done.stdout.strip().splitlines()[-1]), True


# --- the parent -------------------------------------------------------------------------------

def fmt_seconds(s: float) -> str:
    if not math.isfinite(s):
        return "—"
    return f"{s * 1e3:.0f} ms" if s < 1 else f"{s:.1f} s"


def fmt_bytes(b: float) -> str:
    if not math.isfinite(b):
        return "—"
    return f"{b / 1e6:.1f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--max-ranks", type=int, default=13)
    parser.add_argument("--max-suited-ranks", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds before an LP (or a CFR+ run) is given up")
    parser.add_argument("--child", nargs=3, metavar=("SOLVER", "NAME", "PARAMS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        solver, name, params = args.child
        child(solver, name, json.loads(params))
        return

    import numpy
    import scipy

    import cfrviz
    from cfrviz.analysis.lp_scaling import TARGET, LpVsCfr, to_json

    argv = sys.argv[1:]
    command = " ".join([".venv/bin/python", "benchmarks/bench_lp_scaling.py",
                        *map(shlex.quote, argv)])
    machine = (f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
               f"{_memory_gb():.0f} GB; Python {platform.python_version()}, numpy "
               f"{numpy.__version__}, scipy {scipy.__version__} (HiGHS)")
    date = datetime.date.today().isoformat()
    meta = {"command": command, "machine": machine, "date": date, "target": TARGET,
            "clock": "CPU seconds of the measuring process (time.process_time)",
            "timeout_seconds": args.timeout, "cfrviz": cfrviz.__version__, "wall": {}}
    print(f"# LP (cfrviz.exact_equilibrium) against CFR+ to exploitability {TARGET:g}\n"
          f"# {machine}; {date}\n# {command}\n")
    header = ["game", "nodes", "sequences", "nonzeros", "LP CPU time", "LP memory",
              "CFR+ iters", "CFR+ CPU time", "CFR+ memory", "load"]
    print("  ".join(header), flush=True)
    rows = []
    for label, name, params in games(args.max_ranks, args.max_suited_ranks):
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
        cfr, finished = run_child("cfr", name, params, args.timeout)
        if not finished:
            raise SystemExit(f"CFR+ on {label} took over {args.timeout:g} s; raise --timeout")
        lp, finished = run_child("lp", name, params, args.timeout)
        source = f"recorded {date} on {machine}, load {load:.1f}: {command}"
        if not finished:
            source = f"LP stopped after {args.timeout:g} s; " + source
            lp = {"lp_seconds": math.nan, "lp_bytes": math.nan, "lp_value": math.nan,
                  "sequences": lp.get("sequences", -1), "nonzeros": -1}
        row = LpVsCfr(game=label, name=name, params=params, nodes=cfr["nodes"],
                      infosets=cfr["infosets"], sequences=lp["sequences"],
                      nonzeros=lp["nonzeros"], lp_seconds=lp["lp_seconds"],
                      lp_bytes=lp["lp_bytes"], lp_value=lp["lp_value"],
                      cfr_iterations=cfr["cfr_iterations"], cfr_seconds=cfr["cfr_seconds"],
                      cfr_bytes=cfr["cfr_bytes"], cfr_table_bytes=cfr["cfr_table_bytes"],
                      cfr_exploitability=cfr["cfr_exploitability"],
                      cfr_value=cfr["cfr_value"], target=TARGET, source=source)
        rows.append(row)
        meta["wall"][label] = {"lp_seconds": lp.get("lp_wall_seconds"),
                               "cfr_seconds": cfr.get("cfr_wall_seconds"), "load": load}
        print("  ".join([label, f"{row.nodes:,}", f"{row.sequences:,}", f"{row.nonzeros:,}",
                         fmt_seconds(row.lp_seconds), fmt_bytes(row.lp_bytes),
                         str(row.cfr_iterations), fmt_seconds(row.cfr_seconds),
                         fmt_bytes(row.cfr_bytes), f"{load:.1f}"]), flush=True)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(to_json(rows, meta))  # after every game: a long run keeps its rows
    print(f"\nwrote {args.out}")


def _memory_gb() -> float:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e9
    except (ValueError, OSError, AttributeError):
        return math.nan


if __name__ == "__main__":
    if "--child" in sys.argv:  # one measurement, read by the parent
        main()
    else:
        with recorded("bench_lp_scaling"):
            main()
