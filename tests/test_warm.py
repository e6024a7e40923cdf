"""Warming the compile cache: after ``python -m cfrviz.warm``, a new process compiles nothing.

The evidence is numba's own: its ``numba:compile`` event fires only when a kernel is really
compiled (a load from the on-disk cache does not fire it), so these tests never time anything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest
from numba import njit

from cfrviz import warm as warm_module
from cfrviz.warm import KERNELS, Kernel, Warmed, WarmReport, warm

ROOT = Path(__file__).resolve().parent.parent

# Everything a lesson calls that reaches compiled code, on games of different sizes and kinds:
# one compiled version of each kernel must serve them all.
FIRST_USE = textwrap.dedent("""
    import json
    from numba.core import event

    with event.install_recorder("numba:compile") as recorder:
        import cfrviz
        from cfrviz import engine

        kuhn = cfrviz.load_game("kuhn_poker")
        trace = cfrviz.solve(kuhn, "cfr", 100)          # a lesson's first result
        policy = trace.average_policy()
        cfrviz.exploitability(kuhn, policy)
        for game in (kuhn, cfrviz.load_game("leduc_poker"),
                     cfrviz.load_game("rock_paper_scissors")):
            for algorithm in ("cfr", "cfr+", "linear_cfr", "dcfr", "chance_sampling",
                              "external_sampling", "outcome_sampling"):
                cfrviz.solve(game, algorithm, 3, progress=False)
        cfrviz.solve(kuhn, "dcfr", 3, alpha=2, beta=-1, gamma=1, alternating=False)
        cfrviz.solve(kuhn, "deep_cfr", 2, traversals=5, train_steps=2, progress=False)
        cfrviz.expected_values(kuhn, policy)
        cfrviz.best_response(kuhn, policy, 1)
        engine.counterfactual_table(kuhn, policy.probabilities, 1)
        engine.tree_reach_probabilities(kuhn, policy.probabilities)
    compiled = sorted({item.data["dispatcher"].py_func.__name__
                       for _, item in recorder.buffer if item.is_start})
    print(json.dumps({"compiled": compiled,
                      "loaded": sum(engine.run_full_tree.stats.cache_hits.values())}))
""")


def _python(code_or_module: list[str], cache: Path | None = None,
            **extra) -> subprocess.CompletedProcess:
    """Run this Python on ``code_or_module`` from the repository, with numba's cache in
    ``cache`` (default: where it is for the lessons)."""
    env = {**os.environ, **extra}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, *code_or_module], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=900)


@pytest.mark.slow
def test_after_warming_a_new_process_compiles_nothing():
    # The cache lessons use (make lab's and make test's install warmed it; a source changed since
    # compiles here first).  The cold path, from a cache nobody filled, is tests/test_binder.py's:
    # binder/postBuild warms a fresh copy of the repository and FIRST_USE then compiles nothing.
    done = _python(["-m", "cfrviz.warm"])
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    for number, kernel in enumerate(KERNELS, start=1):
        assert any(line.startswith(f"  [{number}/{len(KERNELS)}] {kernel.name} ")
                   for line in lines), (kernel.name, done.stdout)

    first = _python(["-c", FIRST_USE])
    assert first.returncode == 0, first.stderr
    assert compiled_on_first_use(first.stdout) == []

    again = _python(["-m", "cfrviz.warm"])
    assert again.returncode == 0 and "The compile cache is warm" in again.stdout, again.stdout


def compiled_on_first_use(stdout: str) -> list[str]:
    """The kernels FIRST_USE's process compiled, from its last line (it must also have loaded
    ``run_full_tree`` from the disk cache)."""
    result = json.loads(stdout.splitlines()[-1])
    assert result["loaded"] >= 1, result  # run_full_tree came from the disk cache
    return result["compiled"]


def _compiled_here():
    @njit  # no cache: compiles in this process, firing one numba:compile event
    def double(x):
        return 2 * x

    return double(3)


def test_warm_reports_each_kernel_as_it_goes():
    kernels = (Kernel("first", "a compiled step", lambda _shared: _compiled_here()),
               Kernel("second", "a plain step", lambda shared: shared.setdefault("x", 1)))
    calls = []
    report = warm(show=False, progress=lambda *args: calls.append(args), kernels=kernels)
    assert [(item.kernel, item.compiled > 0) for item in report] == [("first", True),
                                                                     ("second", False)]
    assert report.cold and "cold" in report.summary()
    # before and after each kernel, then the summary; done counts finished kernels
    assert [(done, total) for done, total, _ in calls] == [(0, 2), (1, 2), (1, 2), (2, 2),
                                                           (2, 2)]
    assert calls[0][2].startswith("first (a compiled step)") and calls[0][2].endswith("…")
    assert "compiled in" in calls[1][2] and "no compilation" in calls[3][2]
    assert calls[-1][2] == report.summary()
    assert "kernels, cache cold" in repr(report)


def test_terminal_output_is_one_line_per_kernel_and_a_summary(capsys):
    kernels = (Kernel("only", "a plain step", lambda _shared: None),)
    report = warm(kernels=kernels)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("  [1/1] only (a plain step): ready in")
    assert out[1] == report.summary() and "warm" in out[1]
    assert len(out) == 2


def test_summary_names_the_cache_and_its_problem():
    entries = [Warmed("k", "x", 1.5, 3)]
    cold = WarmReport(entries, ("/some/where",))
    assert "/some/where" in cold.summary() and "cold" in cold.summary()
    assert "warm" in WarmReport([Warmed("k", "x", 0.1, 0)], ("/a",)).summary()
    stuck = WarmReport(entries, (), "numba cannot store compiled code anywhere")
    assert "cannot be cached" in stuck.summary()


def test_every_public_kernel_is_warmed():
    # A kernel added to the engine and called from Python needs a line in KERNELS.
    from cfrviz import engine
    from cfrviz.warm import _kuhn

    called = {"run_full_tree", "run_chance_sampling", "run_external_sampling",
              "run_outcome_sampling"}
    assert called <= {kernel.name for kernel in KERNELS}
    assert {name for name in engine.__all__ if name.startswith("run_")} == called
    assert set(_kuhn({})) == {"game", "policy"}


@pytest.mark.skipif(not hasattr(numba.config, "CACHE_LOCATOR_CLASSES"),
                    reason="needs NUMBA_CACHE_LOCATOR_CLASSES (numba 0.62 or newer)")
def test_without_anywhere_to_cache_the_engine_still_runs(tmp_path):
    # Only the locator for IPython cells: numba finds nowhere to cache cfrviz's kernels, as with
    # a read-only install and a read-only home folder.
    code = textwrap.dedent("""
        import warnings
        warnings.simplefilter("always")
        import numpy as np
        from cfrviz import engine
        from cfrviz.check import check_compile_cache
        print(repr(check_compile_cache()))
        print(engine.uniforms(np.array([1], dtype=np.uint64), 2).shape)
    """)
    done = _python(["-c", code], tmp_path, NUMBA_CACHE_LOCATOR_CLASSES="IPythonCacheLocator")
    assert done.returncode == 0, done.stderr
    assert "RuntimeWarning: numba cannot store compiled code anywhere" in done.stderr
    assert done.stderr.count("RuntimeWarning") == 1  # once, not per kernel
    assert "ok=False" in done.stdout and "NUMBA_CACHE_DIR" in done.stdout
    assert done.stdout.strip().endswith("(2,)")


def test_cache_folders_are_where_numba_writes():
    folders = warm_module.cache_folders()
    assert folders and all(Path(folder).is_dir() for folder in folders)
