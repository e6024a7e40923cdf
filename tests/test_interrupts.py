"""Ctrl-C, pressed once or many times, at any moment of a run: a consistent trace comes back.

Signals are sent as a kernel interrupt sends them: asynchronously, from another thread
(``signal.pthread_kill`` on the main thread), while compiled code runs.  Hooks on the
kernels and the evaluation functions start the storms at a chosen stage (training, or the
final evaluation of the records), so each test reaches the stage it names; a hammer test
keeps firing through the whole run.  Every family is covered: full-tree CFR, Monte Carlo
sampling, regret matching.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import warnings

import numpy as np
import pytest

import cfrviz
from cfrviz import engine
from cfrviz.core.trace import RECORD_ARRAYS, check_records
from cfrviz.solvers import driver
from cfrviz.solvers import regret_matching as rm_module

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_kill"),
                                reason="sends signals to a thread (POSIX only)")
MAIN = threading.main_thread().ident
VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


@pytest.fixture(autouse=True)
def outside():
    """Outside the runs, a SIGINT is counted rather than raised.

    A storm's last signals may arrive after a run has returned; they must not
    end the test session.  Each run installs its own handler over this one and
    must give it back.
    """
    hits: list[int] = []

    def count(_signum, _frame):
        hits.append(1)

    previous = signal.signal(signal.SIGINT, count)
    yield count
    signal.signal(signal.SIGINT, previous)


class Storm:
    """SIGINTs sent to the main thread from another thread, ``every`` seconds, ``count`` times
    (or until stopped)."""

    def __init__(self, count: int | None = 3, every: float = 0.002):
        self.count, self.every = count, every
        self.sent = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._fire, daemon=True)

    def _fire(self):
        while not self.done.is_set() and (self.count is None or self.sent < self.count):
            signal.pthread_kill(MAIN, signal.SIGINT)
            self.sent += 1
            time.sleep(self.every)
        self.done.set()

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.done.set()
        self.thread.join()


def storm_on_call(monkeypatch, owner, name: str, call: int, storm: Storm) -> Storm:
    """Start ``storm`` when ``owner.name`` is called for the ``call``-th time."""
    original = getattr(owner, name)
    calls = {"n": 0}

    def wrapped(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == call:
            storm.start()
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapped)
    return storm


def run_caught(*args, **kwargs):
    """``cfrviz.solve`` with its warnings, which must all be RuntimeWarnings about interrupts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trace = cfrviz.solve(*args, progress=False, **kwargs)
    messages = [str(w.message) for w in caught]
    assert all(issubclass(w.category, RuntimeWarning) for w in caught), messages
    return trace, messages


def assert_consistent(trace):
    """Records that pass the schema check, end at the state, and evaluated up to a point."""
    last = trace.state["iteration"]
    records = check_records({spec.name: getattr(trace, spec.name) for spec in RECORD_ARRAYS},
                            trace.game, last_iteration=last, extras=trace.extras)
    assert records >= 1 and trace.iterations[-1] == last
    for name in ("exploitability", "current_exploitability"):
        evaluated = np.isfinite(getattr(trace, name))
        first_nan = int(np.argmin(evaluated)) if not evaluated.all() else len(evaluated)
        assert not evaluated[first_nan:].any(), f"{name}: NaN only after the last evaluated"


def assert_resumes_bit_for_bit(cut, game, algorithm, iterations, later, start=None, **kwargs):
    """Resuming ``cut`` to ``iterations`` equals one uninterrupted run with the same records.

    ``start`` holds the settings only a run from scratch takes (initial regrets).
    """
    resumed = cfrviz.solve(game, algorithm, iterations, checkpoints=later, resume=cut,
                           progress=False, **kwargs)
    whole = cfrviz.solve(game, algorithm, iterations,
                         checkpoints=sorted({*cut.iterations.tolist(), *later}), progress=False,
                         **kwargs, **(start or {}))
    assert resumed.iterations.tolist() == whole.iterations.tolist()
    for spec in RECORD_ARRAYS:
        got, expected = getattr(resumed, spec.name), getattr(whole, spec.name)
        if spec.evaluates is not None:  # records whose evaluation was cut short are NaN
            kept = np.isfinite(got)
            got, expected = got[kept], expected[kept]
        assert got.tobytes() == expected.tobytes(), spec.name
    for key in ("regret_sum", "strategy_sum", "rng"):
        assert resumed.state[key].tobytes() == whole.state[key].tobytes(), key
    assert resumed.state.get("generator") == whole.state.get("generator")


TREE_RUNS = [("cfr", "run_full_tree", {}),
             ("external_sampling", "run_external_sampling", {"seed": 4}),
             ("outcome_sampling", "run_outcome_sampling", {"seed": 5, "epsilon": 0.5})]


@pytest.fixture(scope="module")
def leduc():
    game = cfrviz.load_game("leduc_poker")
    for algorithm, _, kwargs in TREE_RUNS:  # compile outside the timed runs
        cfrviz.solve(game, algorithm, 2, **kwargs)
    return game


@pytest.mark.parametrize("algorithm, kernel, kwargs", TREE_RUNS, ids=[r[0] for r in TREE_RUNS])
def test_repeated_ctrl_c_during_training(leduc, monkeypatch, outside, algorithm, kernel, kwargs):
    storm = storm_on_call(monkeypatch, engine, kernel, 40, Storm(count=6))
    cut, messages = run_caught(leduc, algorithm, 400, checkpoints=range(1, 401), **kwargs)
    storm.stop()
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is outside
    assert cut.params["interrupted"] and 30 < cut.state["iteration"] < 400
    assert any("interrupted" in m and "can be resumed" in m for m in messages), messages
    assert_consistent(cut)
    assert_resumes_bit_for_bit(cut, leduc, algorithm, 500, [450, 500], **kwargs)


@pytest.mark.parametrize("algorithm, kwargs", [(a, k) for a, _, k in TREE_RUNS],
                         ids=[r[0] for r in TREE_RUNS])
def test_repeated_ctrl_c_during_the_final_evaluation(leduc, monkeypatch, outside, algorithm,
                                                     kwargs):
    # Training finishes; the storm starts during the evaluation of the 1000 records, one
    # record per compiled call (a block of one tree's nodes).
    monkeypatch.setattr(driver, "EVALUATION_NODES", leduc.num_nodes)
    storm = storm_on_call(monkeypatch, driver, "tree_exploitabilities", 10, Storm(count=4))
    cut, messages = run_caught(leduc, algorithm, 1000, checkpoints=range(1, 1001), **kwargs)
    storm.stop()
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is outside
    assert not cut.params["interrupted"] and cut.state["iteration"] == 1000 and len(cut) == 1000
    assert any("evaluation interrupted" in m for m in messages), messages
    assert_consistent(cut)
    evaluated = np.isfinite(cut.exploitability)
    assert 3 <= evaluated.sum() < 1000 and np.isnan(cut.exploitability[-1])
    assert_resumes_bit_for_bit(cut, leduc, algorithm, 1100, [1100], **kwargs)


@pytest.mark.parametrize("update", ["expected", "sampled"])
def test_repeated_ctrl_c_during_regret_matching(monkeypatch, outside, update):
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    monkeypatch.setattr(driver, "CHUNK_SECONDS", 1e-4)  # many chunk boundaries
    storm = storm_on_call(monkeypatch, rm_module, "_match", 2000, Storm(count=6))
    cut, messages = run_caught(game, "regret_matching", 200_000, seed=3, update=update,
                               initial_regrets={"P1": [1, 0, 0]})
    storm.stop()
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is outside
    assert cut.params["interrupted"] and 1000 <= cut.state["iteration"] < 200_000
    assert any("interrupted" in m and "can be resumed" in m for m in messages), messages
    assert_consistent(cut)
    assert_resumes_bit_for_bit(cut, game, "regret_matching", 200_000, [150_000, 200_000],
                               start={"initial_regrets": {"P1": [1, 0, 0]}}, seed=3,
                               update=update)


@pytest.mark.parametrize("update", ["expected", "sampled"])
def test_repeated_ctrl_c_during_regret_matching_evaluation(monkeypatch, update):
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    monkeypatch.setattr(rm_module, "EVALUATION_BLOCK", 20)
    storm = storm_on_call(monkeypatch, rm_module, "matrix_exploitability", 5, Storm(count=4))
    cut, messages = run_caught(game, "regret_matching", 20_000, seed=1, update=update,
                               checkpoints=range(1, 20_001), initial_regrets={"P1": [1, 0, 0]})
    storm.stop()
    monkeypatch.undo()
    assert not cut.params["interrupted"] and len(cut) == 20_000
    assert any("evaluation interrupted" in m for m in messages), messages
    assert_consistent(cut)
    assert 40 <= np.isfinite(cut.exploitability).sum() < 20_000  # two calls a block
    assert_resumes_bit_for_bit(cut, game, "regret_matching", 21_000, [21_000],
                               start={"initial_regrets": {"P1": [1, 0, 0]}}, seed=1,
                               update=update)


class Hammer:
    """SIGINT every millisecond from a separate process, as from a key held down.

    Unlike a thread of this process, it needs no lock of ours to send, so signals land
    anywhere, compiled code included.
    """

    def __init__(self):
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            ["sh", "-c", f"while kill -INT {os.getpid()} 2>/dev/null; do sleep 0.001; done"])
        return self

    def stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()


@pytest.mark.parametrize("algorithm, kernel, kwargs", TREE_RUNS[:2], ids=["cfr", "external"])
def test_a_hammered_run_never_raises_and_comes_back_consistent(monkeypatch, outside, algorithm,
                                                               kernel, kwargs):
    """SIGINT every millisecond from iteration 300 on, through evaluation, past the end.

    Before, a Ctrl-C landing while a numba function was called or returned came out as
    ``SystemError: CPUDispatcher(...) returned a result with an exception set``, and one
    during the evaluation lost the run.
    """
    pocket = cfrviz.load_game("pocket_poker")
    cfrviz.solve(pocket, algorithm, 2, **kwargs)
    hammer = storm_on_call(monkeypatch, engine, kernel, 300, Hammer())
    try:
        cut, messages = run_caught(pocket, algorithm, 3000, checkpoints=range(1, 3001),
                                   **kwargs)
        time.sleep(0.05)  # signals keep coming after the run: the outside handler counts them
    finally:
        hammer.stop()
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is outside
    assert cut.params["interrupted"] and any("can be resumed" in m for m in messages)
    # Whether a signal also lands during the evaluation depends on thread scheduling: on a
    # loaded machine at low priority the hammer can miss the whole of it (seen once in CI's
    # background suite).  test_repeated_ctrl_c_during_the_final_evaluation interrupts the
    # evaluation for certain; here the trace must say which records were evaluated either way.
    evaluated = np.isfinite(cut.exploitability)
    if any("evaluation interrupted" in m for m in messages):
        assert not evaluated.all() and np.isnan(cut.exploitability[-1])
    else:
        assert evaluated.all(), messages
    assert_consistent(cut)
    assert_resumes_bit_for_bit(cut, pocket, algorithm, 3100, [3100], **kwargs)
