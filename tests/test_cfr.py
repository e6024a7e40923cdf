"""Vanilla CFR: the vectorized engine against the readable recursive reference, and convergence."""

import numpy as np
import pytest

import cfrviz
from cfrviz.reference import vanilla_cfr
from cfrviz.solvers.cfr import average_strategy, default_checkpoints


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


@pytest.mark.parametrize("alternating", [True, False])
def test_engine_matches_reference_after_every_iteration(kuhn, alternating):
    trace = cfrviz.solve(kuhn, "cfr", 300, alternating=alternating,
                         checkpoints=list(range(1, 301)))
    for k, step in enumerate(vanilla_cfr(kuhn, 300, alternating=alternating)):
        assert np.abs(trace.current_strategy[k] - step["strategy"]).max() <= 1e-12
        assert np.abs(trace.instantaneous_regret[k] - step["regret"]).max() <= 1e-12
        assert np.abs(trace.cumulative_regret[k] - step["cumulative_regret"]).max() <= 1e-12
        expected = average_strategy(step["strategy_sum"], kuhn.legal_mask)
        assert np.abs(trace.average_strategy[k] - expected).max() <= 1e-12


def test_converges_to_the_game_value(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 2000)
    assert trace.exploitability[-1] < 1e-3
    assert cfrviz.expected_values(kuhn, trace.average_policy())[0] == pytest.approx(-1 / 18,
                                                                                    abs=2e-3)
    # Player 1's average lands on the equilibrium family: bet K = 3 * bet J (loosely).
    p1 = trace.average_policy().to_dict()
    assert p1["K"]["b"] == pytest.approx(3 * p1["J"]["b"], abs=0.05)
    assert p1["Q"]["b"] < 0.05


def test_trace_schedule_and_cost_axis(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 1000)
    assert trace.iterations.tolist() == default_checkpoints(1000)
    assert trace.iterations[:100].tolist() == list(range(1, 101))
    assert np.all(np.diff(trace.extras["elapsed"]) >= 0)
    assert trace.extras["nodes_touched"][-1] == 2 * 1000 * kuhn.num_nodes


def test_final_state_only_evaluates_nothing(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 50, checkpoints=[])
    assert trace.iterations.tolist() == [50] and np.isnan(trace.exploitability[0])
    full = cfrviz.solve(kuhn, "cfr", 50, checkpoints=[50])
    assert np.array_equal(trace.average_strategy, full.average_strategy)


def test_bad_arguments(kuhn):
    with pytest.raises(ValueError, match="cfr solves game trees"):
        cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "cfr", 10)
    with pytest.raises(ValueError, match="regret_matching solves matrix games"):
        cfrviz.solve(kuhn, "regret_matching", 10)
    with pytest.raises(ValueError, match="alternating must be True or False"):
        cfrviz.solve(kuhn, "cfr", 10, alternating="yes")
    with pytest.raises(ValueError, match="takes no parameter 'alpha'"):
        cfrviz.solve(kuhn, "cfr", 10, alpha=1.5)
