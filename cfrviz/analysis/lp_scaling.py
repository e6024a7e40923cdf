"""Linear programming against CFR+: what each costs to solve a game, as games grow.

The sequence-form LP (:func:`cfrviz.exact_equilibrium`) solves a game exactly
in one call; CFR+ (Tammelin 2014) approaches the equilibrium iteration by
iteration.  :func:`race` measures both on one game: the LP's time and the
memory it takes, against the time CFR+ needs to bring the exploitability of
its average strategy below a target (1e-3 chips by default).
``benchmarks/bench_lp_scaling.py`` measures the same in a fresh process per
game and stores the rows in ``data/benchmarks/lp_vs_cfr.json``, read back by
:func:`load_recorded`.

Memory is the growth of the process's resident set over the call: on Linux
the peak is reset just before (``/proc/self/clear_refs``) and read just after
(``VmHWM``), so it counts what the solver's C++ code allocates too (HiGHS'
factorisation), which ``tracemalloc`` cannot see.  Elsewhere it is not measured
(``nan``).

Times are CPU seconds of this process (``time.process_time``), not wall-clock
seconds: on a machine shared with other work they hardly change with its load.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from ..core.policy import Policy
from ..core.tree import as_tree
from ..solvers import solve
from ..solvers.lp import exact_equilibrium
from .evaluation import expected_values, exploitability
from .scaling import solver_bytes

#: The exploitability (chips per hand, NashConv / 2) CFR+ must reach.
TARGET = 1e-3
#: Checkpoints are spaced by this factor (rounded up to whole iterations), so the iteration
#: found is within about 4% of the first one below the target.
GROWTH = 1.04

_PROC = Path("/proc/self")


@dataclass(frozen=True)
class LpVsCfr:
    """One game solved both ways.

    Attributes
    ----------
    game : str
        A label (``"Leduc, 5 ranks"``).
    name : str
        The :func:`cfrviz.load_game` name; ``params`` its parameters.
    params : dict
    nodes, infosets : int
        Size of the game tree.
    sequences : int
        Sequences of one player in the LP (the larger of the two).
    nonzeros : int
        Nonzero coefficients of the LP's constraint matrix.
    lp_seconds : float
        CPU time of :func:`cfrviz.exact_equilibrium` (build the program, solve, convert).
    lp_bytes : float
        Peak growth of resident memory during that call (``nan`` if not measured).
    lp_value : float
        The value of the game to player 1.
    cfr_iterations : int
        The first checkpoint at which CFR+'s average strategy is exploitable by at most
        ``target`` (checkpoints a factor :data:`GROWTH` apart).
    cfr_seconds : float
        CPU time of a run of ``cfr_iterations`` iterations that records only its final
        state (so no exploitability is evaluated on the way).
    cfr_bytes : float
        Peak growth of resident memory during a short run with nothing recorded but the
        final state, building the solver's plan of the tree included (``nan`` if not
        measured); it does not grow with the iterations.
    cfr_table_bytes : int
        CFR's two tables (cumulative regret, strategy sum) alone.
    cfr_exploitability, cfr_value : float
        Exploitability and value to player 1 of CFR+'s average strategy at that iteration.
    target : float
    source : str
        ``"measured now"``, or where and when a recorded row was measured.
    """

    game: str
    name: str
    params: dict
    nodes: int
    infosets: int
    sequences: int
    nonzeros: int
    lp_seconds: float
    lp_bytes: float
    lp_value: float
    cfr_iterations: int
    cfr_seconds: float
    cfr_bytes: float
    cfr_table_bytes: int
    cfr_exploitability: float
    cfr_value: float
    target: float = TARGET
    source: str = "measured now"

    @property
    def winner(self) -> str:
        """``"LP"`` or ``"CFR+"``: which one was faster on this game."""
        return "LP" if self.lp_seconds <= self.cfr_seconds else "CFR+"


def _status_kb(field: str) -> int | None:
    try:
        text = (_PROC / "status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return None


def peak_memory(function: Callable[[], Any]) -> tuple[Any, float]:
    """``function()`` and the peak growth of resident memory during it, in bytes.

    Linux only (``/proc``): the kernel's peak-resident counter is reset before
    the call and read after it.  Elsewhere, or when the counter cannot be reset,
    the memory is ``nan``.  Memory freed earlier and reused by the call is not
    counted, so a fresh process gives the truest number.
    """
    try:
        (_PROC / "clear_refs").write_text("5")  # resets VmHWM to the current resident size
    except OSError:
        return function(), math.nan
    before = _status_kb("VmRSS")
    result = function()
    peak = _status_kb("VmHWM")
    if before is None or peak is None:
        return result, math.nan
    return result, float(max(peak - before, 0) * 1024)


def cpu_seconds(function: Callable[[], Any]) -> float:
    """CPU seconds this process spends in ``function()`` (all its threads)."""
    start = time.process_time()
    function()
    return time.process_time() - start


def checkpoints_to(limit: int, growth: float = GROWTH) -> list[int]:
    """Iterations 1, 2, ... up to ``limit``, each at least ``growth`` times the one before."""
    points, t = [], 1
    while t <= limit:
        points.append(t)
        t = max(t + 1, math.ceil(t * growth))
    return points


def cfr_time_to(game, target: float = TARGET, algorithm: str = "cfr+",
                max_iterations: int = 100_000, growth: float = GROWTH):
    """Iterations and solver seconds until the average strategy is exploitable by ``target``.

    Runs ``algorithm`` with checkpoints ``growth`` apart, in rounds of ten
    times more iterations until one is below ``target``, and reads the
    solver's own clock at the first such checkpoint (the exploitability
    evaluations at the checkpoints are not timed).

    Returns
    -------
    (int, float, Trace)
        The iteration, the seconds, and the run (which records that iteration,
        ``trace.average_policy(iteration)``, and may go on past it).

    Raises
    ------
    RuntimeError
        When ``max_iterations`` iterations do not reach ``target``.
    """
    tree = as_tree(game, "cfr_time_to")
    limit = 1000
    while True:
        limit = min(limit, max_iterations)
        trace = solve(tree, algorithm, limit, checkpoints=checkpoints_to(limit, growth),
                      progress=False)
        hit = np.flatnonzero(trace.exploitability <= target)
        if len(hit):
            k = int(hit[0])
            return int(trace.iterations[k]), float(trace.extras["elapsed"][k]), trace
        if limit >= max_iterations:
            raise RuntimeError(f"{algorithm} did not reach exploitability {target:g} on "
                               f"{tree.name} in {max_iterations} iterations")
        limit *= 10


def race(game, label: str | None = None, target: float = TARGET, algorithm: str = "cfr+",
         memory: bool = True) -> LpVsCfr:
    """Solve ``game`` by the sequence-form LP and by CFR+ to ``target``; measure both.

    Parameters
    ----------
    game : GameTree
        A two-player zero-sum game of perfect recall.
    label : str, optional
        The row's name (default: the game's).
    target : float, default 1e-3
        The exploitability CFR+ must reach.
    algorithm : str, default "cfr+"
    memory : bool, default True
        Also measure each solver's peak memory (one more short CFR+ run, with no
        checkpoints, on the game as given: pass a freshly loaded game, whose
        solver plan is not built yet), where the platform allows.

    Returns
    -------
    LpVsCfr
    """
    tree = as_tree(game, "race")
    cfr_bytes = math.nan
    if memory:  # first, so that building the solver's plan of the tree is counted
        _, cfr_bytes = peak_memory(lambda: solve(tree, algorithm, 10, checkpoints=[],
                                                 progress=False))
    start = time.process_time()
    if memory:
        eq, lp_bytes = peak_memory(lambda: exact_equilibrium(tree))
    else:
        eq, lp_bytes = exact_equilibrium(tree), math.nan
    lp_seconds = time.process_time() - start
    iterations, _, run = cfr_time_to(tree, target, algorithm)
    policy = run.average_policy(iterations)
    seconds = cpu_seconds(lambda: solve(tree, algorithm, iterations, checkpoints=[],
                                        progress=False))
    return LpVsCfr(
        game=label or tree.name, name=tree.name, params=dict(getattr(tree, "params", None) or {}),
        nodes=tree.num_nodes, infosets=tree.num_infosets, sequences=max(eq.sequences),
        nonzeros=eq.nonzeros, lp_seconds=lp_seconds, lp_bytes=lp_bytes, lp_value=eq.value,
        cfr_iterations=iterations, cfr_seconds=seconds, cfr_bytes=cfr_bytes,
        cfr_table_bytes=solver_bytes(tree), cfr_exploitability=exploitability(tree, policy),
        cfr_value=expected_values(tree, policy)[0], target=target)


def to_json(rows, meta: dict) -> str:
    """Rows and the run's description (machine, date, command) as the JSON the lesson reads."""
    def plain(value):  # strict JSON: a number not measured is null
        return None if isinstance(value, float) and not math.isfinite(value) else value

    table = [{k: plain(v) for k, v in asdict(r).items()} for r in rows]
    return json.dumps({"meta": meta, "rows": table}, indent=1, allow_nan=False) + "\n"


def load_recorded(path) -> tuple[list[LpVsCfr], dict]:
    """The rows and description of a run of ``benchmarks/bench_lp_scaling.py``.

    Each row's ``source`` says where and when it was measured.  Rows whose LP
    did not finish (time or memory limit) have ``nan`` for the LP's numbers and
    say so in ``source``.

    Raises
    ------
    ValueError
        When the file is not such a run (naming the file and what is missing).
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text())
        meta, raw = dict(data["meta"]), list(data["rows"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path} is not a recorded LP-against-CFR+ benchmark: {error}") from None
    names = {f.name for f in fields(LpVsCfr)}
    rows = []
    for i, row in enumerate(raw):
        missing = names - {"source", "target"} - set(row)
        if missing:
            raise ValueError(f"{path}: row {i} lacks {', '.join(sorted(missing))}")
        values: dict[str, Any] = {k: (math.nan if row[k] is None else row[k])
                                  for k in names if k in row}
        rows.append(LpVsCfr(**values))
    return rows, meta


def power_law(sizes, values) -> tuple[float, float]:
    """``(exponent, factor)`` of the least-squares line through ``log values`` on ``log sizes``.

    ``value ≈ factor * size ** exponent``; pairs with a missing or non-positive
    value are left out.
    """
    x = np.asarray(sizes, dtype=float)
    y = np.asarray(values, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if keep.sum() < 2:
        raise ValueError("power_law needs at least two sizes with positive values")
    slope, intercept = np.polyfit(np.log(x[keep]), np.log(y[keep]), 1)
    return float(slope), float(np.exp(intercept))


def average_values(trace) -> np.ndarray:
    """Player 1's expected payoff when both play the average strategy, at each record.

    Set beside :func:`cfrviz.exact_equilibrium`'s value, it shows how far a
    run's answer to "what is this game worth?" is from the exact one.
    """
    tree = as_tree(trace.game, "average_values")
    return np.array([expected_values(tree, Policy(tree, table))[0]
                     for table in trace.average_strategy])


def _table(rows) -> tuple[list[str], list[list[str]]]:
    """The header and the cells of :func:`table_text` and :func:`table_html`: size, the LP's
    time and memory, CFR+'s, the winner.  "seqs" are sequences per player; times are CPU
    seconds; "CFR+ iter" the iterations to 1e-3."""

    def seconds(s: float) -> str:
        return "—" if not math.isfinite(s) else (f"{s * 1e3:.0f} ms" if s < 1 else f"{s:.1f} s")

    def megabytes(b: float) -> str:
        return "—" if not math.isfinite(b) else f"{b / 1e6:.1f} MB"

    header = ["game", "seqs", "LP time", "LP mem.", "CFR+ iter", "CFR+ time",
              "CFR+ mem.", "faster"]
    body = [[r.game, f"{r.sequences:,}", seconds(r.lp_seconds), megabytes(r.lp_bytes),
             f"{r.cfr_iterations:,}", seconds(r.cfr_seconds), megabytes(r.cfr_bytes),
             r.winner if math.isfinite(r.lp_seconds) else "CFR+ (LP stopped)"] for r in rows]
    return header, body


def table_text(rows) -> str:
    """The rows as a plain-text table (:func:`_table`'s columns).

    Short headers keep the recorded rows within 95 characters, about 750 pixels of a
    notebook's output; :func:`table_html` fits narrower windows.
    """
    header, body = _table(rows)
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(line, widths))) for line in [header, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def table_html(rows) -> str:
    """The rows as an HTML table (:func:`_table`'s columns) for a notebook: headers and game
    names may break over two lines and numbers never do, so the table fits an output about
    560 pixels wide (a 1000-pixel JupyterLab window with its file browser open), where the
    text table wraps.
    """
    import html

    header, body = _table(rows)
    NUMBER = "text-align:right;white-space:nowrap"
    head = "".join(f"<th style='text-align:{'left' if i == 0 else 'right'}'>"
                   f"{html.escape(h)}</th>" for i, h in enumerate(header))
    lines = "".join(
        "<tr>" + "".join(f"<td style='{'text-align:left' if i == 0 else NUMBER}'>"
                         f"{html.escape(c)}</td>"
                         for i, c in enumerate(line)) + "</tr>" for line in body)
    return (f"<table style='font-size:12px;border-collapse:collapse'><thead><tr>{head}</tr>"
            f"</thead><tbody>{lines}</tbody></table>")
