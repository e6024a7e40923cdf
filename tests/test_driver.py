"""The shared training loop: interrupts keep everything finished, runs resume bit for bit, progress."""

import signal

import numpy as np
import pytest

import cfrviz
from cfrviz import engine
from cfrviz.solvers import driver


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


def interrupt_on_call(monkeypatch, name, call):
    """Make the ``call``-th call of an engine kernel deliver a real SIGINT as it returns."""
    original = getattr(engine, name)
    calls = {"n": 0}

    def wrapped(*args):
        result = original(*args)
        calls["n"] += 1
        if calls["n"] == call:
            signal.raise_signal(signal.SIGINT)
        return result

    monkeypatch.setattr(engine, name, wrapped)


@pytest.mark.parametrize("algorithm,kernel", [("cfr", "run_full_tree"),
                                              ("external_sampling", "run_external_sampling")])
def test_interrupt_keeps_finished_work_and_resumes_bit_for_bit(kuhn, monkeypatch, algorithm,
                                                              kernel):
    monkeypatch.setattr(driver, "CHUNK_SECONDS", 1e-9)  # one iteration per compiled call
    interrupt_on_call(monkeypatch, kernel, 1 + 37)  # the warm-up call, then 37 iterations
    with pytest.warns(RuntimeWarning, match="interrupted after iteration 37 of 1000"):
        cut = cfrviz.solve(kuhn, algorithm, 1000, seed=3, checkpoints=[10, 20, 30, 500])
    assert cut.iterations.tolist() == [10, 20, 30, 37] and cut.params["interrupted"]
    assert cut.state["iteration"] == 37
    monkeypatch.undo()
    whole = cfrviz.solve(kuhn, algorithm, 1000, seed=3, checkpoints=[10, 20, 30, 37, 500])
    assert np.array_equal(cut.average_strategy, whole.average_strategy[:4])
    resumed = cfrviz.solve(kuhn, algorithm, 1000, seed=3, checkpoints=[500], resume=cut)
    assert resumed.iterations.tolist() == [10, 20, 30, 37, 500, 1000]
    assert resumed.params["resumed_from"] == 37 and not resumed.params["interrupted"]
    for name in ("cumulative_regret", "average_strategy", "current_strategy"):
        assert np.array_equal(getattr(resumed, name), getattr(whole, name)), name
    assert np.array_equal(resumed.exploitability, whole.exploitability)
    assert np.all(np.diff(resumed.extras["nodes_touched"]) > 0)
    # The old Ctrl-C behaviour is back once the run is over.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_resume_after_saving_and_loading(kuhn, tmp_path):
    first = cfrviz.solve(kuhn, "outcome_sampling", 300, seed=5, epsilon=0.5)
    loaded = cfrviz.load_trace(first.save(tmp_path / "run"))
    resumed = cfrviz.solve(kuhn, "outcome_sampling", 800, seed=5, epsilon=0.5, resume=loaded)
    whole = cfrviz.solve(kuhn, "outcome_sampling", 800, seed=5, epsilon=0.5)
    assert np.array_equal(resumed.cumulative_regret, whole.cumulative_regret)
    assert np.array_equal(resumed.iterations, whole.iterations)


def test_resume_refuses_what_does_not_fit(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 20)
    with pytest.raises(ValueError, match="cannot resume a cfr run as cfr\\+"):
        cfrviz.solve(kuhn, "cfr+", 40, resume=trace)
    with pytest.raises(ValueError, match="already has 20 iterations"):
        cfrviz.solve(kuhn, "cfr", 20, resume=trace)
    with pytest.raises(ValueError, match="resume with the run's own parameters"):
        cfrviz.solve(kuhn, "cfr", 40, alternating=False, resume=trace)
    with pytest.raises(ValueError, match="recorded on kuhn_poker, not leduc_poker"):
        cfrviz.solve(cfrviz.load_game("leduc_poker"), "cfr", 40, resume=trace)
    rps = cfrviz.load_game("rock_paper_scissors")
    with pytest.raises(ValueError, match="takes no parameter 'resume'"):
        cfrviz.solve(rps, "regret_matching", 40, resume=trace)
    with pytest.raises(ValueError, match="has no solver state"):
        cfrviz.solve(kuhn, "cfr", 40, resume="trace.npz")


def test_progress_bar_on_request(kuhn, capsys):
    cfrviz.solve(kuhn, "cfr", 2000, checkpoints=[], progress=True)
    assert "cfr on kuhn_poker" in capsys.readouterr().err
    cfrviz.solve(kuhn, "cfr", 2000, checkpoints=[], progress=False)
    cfrviz.solve(kuhn, "cfr", 2000, checkpoints=[])  # short: the default stays quiet
    assert capsys.readouterr().err == ""


def test_compilation_is_not_counted_as_solving_time(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 10, checkpoints=[1, 10])
    assert trace.extras["elapsed"][0] < 0.05  # a compile would take seconds


def test_chunks_follow_the_time_budget(kuhn, monkeypatch):
    sizes = []
    original = engine.run_full_tree

    def spy(*args):
        sizes.append(args[-8] - args[-9] + 1)  # last - first + 1
        return original(*args)

    monkeypatch.setattr(engine, "run_full_tree", spy)
    cfrviz.solve(kuhn, "cfr", 50_000, checkpoints=[])
    assert sizes[0] == 0 and sizes[1] == 1  # warm-up, then one timed iteration
    assert max(sizes) > 1000 and sum(sizes) == 50_000
