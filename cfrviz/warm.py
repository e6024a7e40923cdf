"""Compile the engine's kernels ahead of time, so a lesson's first solve does not wait.

The engine (:mod:`cfrviz.engine`) is compiled by numba the first time each kernel runs, and
the machine code is cached on disk (see :mod:`cfrviz.engine.jit`): on a fresh install the
first ``cfrviz.solve(kuhn, "cfr", ...)`` would wait seconds for the compiler, while every
later Python process loads the cached code in about a second.  This module runs each kernel
once on Kuhn poker, through the same public calls the lessons make (so the compiled argument
types are exactly theirs), reporting one line per kernel.  ``make lab``, ``make test`` and
Binder's ``postBuild`` run it after installing; lesson 00 runs it with a progress bar.

From a terminal::

    python -m cfrviz.warm

From a notebook::

    from cfrviz.warm import warm
    warm()
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["KERNELS", "Kernel", "WarmReport", "Warmed", "cache_folders", "warm"]


@dataclass(frozen=True)
class Kernel:
    """One compiled kernel: its name, what uses it, and a call that runs it on Kuhn poker."""

    name: str
    used_by: str
    run: Callable[[dict], object]


def _kuhn(shared: dict) -> dict:
    """The game and a trained policy every step shares (built on first use)."""
    if not shared:
        import cfrviz

        shared["game"] = game = cfrviz.load_game("kuhn_poker")
        trace = cfrviz.solve(game, "cfr", 2, checkpoints=[], progress=False)
        shared["policy"] = trace.average_policy()
    return shared


def _full_tree(shared: dict) -> None:
    import cfrviz

    game = _kuhn(shared)["game"]
    for algorithm in ("cfr+", "linear_cfr", "dcfr"):  # one kernel: the rule is an argument
        cfrviz.solve(game, algorithm, 2, checkpoints=[], progress=False)
    cfrviz.solve(game, "cfr", 2, checkpoints=[], progress=False, alternating=False)


def _solve(algorithm: str) -> Callable[[dict], object]:
    def run(shared: dict) -> object:
        import cfrviz

        return cfrviz.solve(_kuhn(shared)["game"], algorithm, 2, checkpoints=[], progress=False)

    return run


def _deep_cfr_samples(shared: dict) -> object:
    import cfrviz

    # One iteration with one walk per player: compiles the sampling kernel, trains almost nothing.
    return cfrviz.solve(_kuhn(shared)["game"], "deep_cfr", 1, checkpoints=[], progress=False,
                        traversals=1, train_steps=1)


def _multiplayer(_shared: dict) -> object:
    import cfrviz

    # Two iterations on three-player Kuhn poker, recorded and evaluated: compiles the N-player
    # kernel, the joint-play sums and the best deviation (gains and coarse-correlated gap).
    return cfrviz.solve(cfrviz.load_game("kuhn_poker_3p"), "cfr", 2, checkpoints=[2],
                        progress=False)


def _river(_shared: dict) -> object:
    # Two DCFR iterations on a small hold'em river spot straight from its public tree, then its
    # exploitability and combo EVs: compiles the river kernels (engine/river.py).
    import numpy as np

    from .engine.cfr import Tables, UpdateRule
    from .engine.river import river_combo_ev, river_exploitability, river_plan, run_river_cfr
    from .games.holdem.public import river_public

    plan = river_plan(river_public(ranges=("AA,KK", "QQ,JJ")))
    tables = Tables(*(np.zeros(plan.spot.legal_mask.shape) for _ in range(4)))
    run_river_cfr(plan.arrays, plan.tree_arrays, tables, 1, 2,
                  UpdateRule(discount=True, alpha=1.5, beta=0.0, gamma=2.0))
    river_combo_ev(plan, tables.current, 0)
    return river_exploitability(plan, tables.current)


def _exploitability(shared: dict) -> object:
    import cfrviz

    return cfrviz.exploitability(_kuhn(shared)["game"], shared["policy"])


def _records(shared: dict) -> object:
    import cfrviz

    return cfrviz.solve(_kuhn(shared)["game"], "cfr", 2, checkpoints=[1, 2], progress=False)


def _expected_values(shared: dict) -> object:
    import cfrviz

    return cfrviz.expected_values(_kuhn(shared)["game"], shared["policy"])


def _counterfactual(shared: dict) -> object:
    from .engine import counterfactual_table

    return counterfactual_table(_kuhn(shared)["game"], shared["policy"].probabilities, 0)


def _reach(shared: dict) -> object:
    from .engine import tree_reach_probabilities

    return tree_reach_probabilities(_kuhn(shared)["game"], shared["policy"].probabilities)


#: Every kernel Python calls, most needed first: a first solve with CFR, then its
#: exploitability (best response, expected values), then the rest of the lessons' calls.
KERNELS: tuple[Kernel, ...] = (
    Kernel("run_full_tree", "CFR, CFR+, linear CFR, DCFR", _full_tree),
    Kernel("best_response_values", "exploitability, best responses", _exploitability),
    Kernel("exploitabilities", "the exploitability of a run's records", _records),
    Kernel("expected_values", "expected values, exploitability", _expected_values),
    Kernel("run_chance_sampling", "chance-sampled MCCFR", _solve("chance_sampling")),
    Kernel("run_external_sampling", "external-sampling MCCFR", _solve("external_sampling")),
    Kernel("run_outcome_sampling", "outcome-sampling MCCFR", _solve("outcome_sampling")),
    Kernel("run_mmd", "magnetic mirror descent", _solve("mmd")),
    Kernel("run_vector_cfr", "vector-form CFR over the public tree", _solve("vector_cfr")),
    Kernel("run_river_cfr", "the hold'em river from its public tree, its best response",
           _river),
    Kernel("run_multi_full_tree", "CFR for three players, its deviation gains and CCE gap",
           _multiplayer),
    Kernel("external_sampling_regrets", "Deep CFR's advantage samples", _deep_cfr_samples),
    Kernel("counterfactual_table", "counterfactual values (lessons 03 and 05)", _counterfactual),
    Kernel("reach_probabilities", "reach probabilities (lessons 02 and 04)", _reach),
)


@dataclass(frozen=True)
class Warmed:
    """What warming one kernel did: ``compiled`` numba compilations (0: loaded from the cache)."""

    kernel: str
    used_by: str
    seconds: float
    compiled: int

    def text(self) -> str:
        how = (f"compiled in {self.seconds:.1f} s" if self.compiled
               else f"ready in {self.seconds:.2f} s (no compilation)")
        return f"{self.kernel} ({self.used_by}): {how}"


class WarmReport(list):
    """The :class:`Warmed` entries, with where the code is cached and a one-line summary."""

    def __init__(self, entries=(), folders: tuple[str, ...] = (), problem: str | None = None):
        super().__init__(entries)
        self.folders = folders
        self.problem = problem

    @property
    def cold(self) -> bool:
        """True when anything had to be compiled (the cache was cold or out of date)."""
        return any(item.compiled for item in self)

    @property
    def seconds(self) -> float:
        return sum(item.seconds for item in self)

    def summary(self) -> str:
        if self.problem:
            return (f"Compiled {len(self)} kernels in {self.seconds:.1f} s, but they cannot be "
                    f"cached: {self.problem}.")
        where = " and ".join(self.folders) or "numba's cache"
        if self.cold:
            return (f"The compile cache was cold: {sum(1 for i in self if i.compiled)} of "
                    f"{len(self)} kernels compiled in {self.seconds:.1f} s and saved in {where}; "
                    f"a new Python process now loads them in about a second.")
        return (f"The compile cache is warm: {len(self)} kernels loaded in {self.seconds:.1f} s "
                f"from {where}.")

    def text(self) -> str:
        return "\n".join([item.text() for item in self] + [self.summary()])

    def __repr__(self) -> str:
        state = "cold, now compiled" if self.cold else "warm"
        return f"<cfrviz warm: {len(self)} kernels, cache {state}, {self.seconds:.1f} s>"


def cache_folders() -> tuple[str, ...]:
    """The folders numba keeps the compiled engine in (:func:`cfrviz.engine.cache_folders`)."""
    from .engine import cache_folders as folders

    return folders()


def _compile_count(run: Callable[[], object]) -> int:
    """Run ``run`` and count the numba compilations it started (cache loads are not counted)."""
    from numba.core import event

    with event.install_recorder("numba:compile") as recorder:
        run()
    return sum(1 for _, item in recorder.buffer if item.is_start)


def warm(show: bool = True,
         progress: Callable[[int, int, str], None] | None = None,
         kernels: tuple[Kernel, ...] = KERNELS) -> WarmReport:
    """Compile (or load from numba's cache) every kernel of the engine, reporting as it goes.

    Parameters
    ----------
    show : bool
        In a notebook, a progress bar with the kernel being compiled; elsewhere, one printed
        line per kernel.
    progress : callable, optional
        Called as ``progress(done, total, message)`` before each kernel (``done`` finished so
        far) and once at the end (``done == total``, with the summary).
    kernels : tuple of Kernel
        What to warm (all of :data:`KERNELS` by default).

    Returns
    -------
    WarmReport
        One :class:`Warmed` per kernel; ``cold`` is True when anything was compiled.
    """
    from .engine.jit import CACHE_PROBLEM

    callbacks = [progress] if progress else []
    if show:
        callbacks.append(_notebook_bar() or _printer())
    total = len(kernels)

    def report(done: int, message: str) -> None:
        for callback in callbacks:
            callback(done, total, message)

    shared: dict = {}
    entries = []
    for done, item in enumerate(kernels):
        report(done, f"{item.name} ({item.used_by}) …")
        start = time.perf_counter()
        compiled = _compile_count(functools.partial(item.run, shared))
        entries.append(Warmed(item.name, item.used_by, time.perf_counter() - start, compiled))
        report(done + 1, entries[-1].text())
    result = WarmReport(entries, cache_folders(), CACHE_PROBLEM)
    report(total, result.summary())
    return result


def _printer() -> Callable[[int, int, str], None]:
    """Print each finished kernel and the summary (the "starting …" calls print nothing)."""
    finished = [0]

    def progress(done: int, total: int, message: str) -> None:
        if message.endswith("…"):
            return
        if finished[0] == total:  # every kernel is done: this is the summary
            print(message, flush=True)
        else:
            finished[0] += 1
            print(f"  [{done}/{total}] {message}", flush=True)

    return progress


def _notebook_bar() -> Callable[[int, int, str], None] | None:
    """A progress bar and a label, shown in the running notebook (None outside one)."""
    from .check import kernel_shell

    if kernel_shell() is None:
        return None
    try:
        import ipywidgets as widgets
        from IPython.display import display
    except ImportError:
        return None
    bar = widgets.IntProgress(value=0, min=0, max=1, description="Compiling",
                              layout=widgets.Layout(width="50%"))
    label = widgets.HTML("Checking numba's compile cache …")
    from .core.notebook import displayed_as_ours

    with displayed_as_ours():  # ipywidgets' classes, cfrviz's output: a save replaces it
        display(widgets.VBox([bar, label]))

    def progress(done: int, total: int, message: str) -> None:
        import html

        bar.max = total
        bar.value = done
        label.value = html.escape(message)
        if done == total:
            bar.description = "Ready"
            bar.bar_style = "success"

    return progress


def main() -> int:
    """Command-line entry point: warm every kernel, one line each; 0 unless something broke."""
    print("Compiling the cfrviz engine once, so the lessons' first results come fast "
          "(each kernel: a few seconds the first time, a fraction of a second after):",
          flush=True)
    result = warm()
    if result.problem:
        print(f"warning: {result.problem}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
