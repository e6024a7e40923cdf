"""The CFR family: the compiled engine against the readable references, exact values and
convergence."""

import re

import numpy as np
import pytest
from _games import Coordination

import cfrviz
from cfrviz.reference import cfr_variant, vanilla_cfr
from cfrviz.solvers.cfr import average_strategy, default_checkpoints

LEDUC_VALUE = -0.0856064
VARIANTS = {  # algorithm -> the reference's settings for it
    "cfr": {},
    "cfr+": {"regret_floor": True, "linear_average": True},
    "linear_cfr": {"discount": (1.0, 1.0, 1.0)},
    "dcfr": {"discount": (1.5, 0.0, 2.0)},
}


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


@pytest.fixture(scope="module")
def leduc():
    return cfrviz.load_game("leduc_poker")


def assert_matches(trace, steps, mask, tolerance):
    count = 0
    for k, step in enumerate(steps):
        average = average_strategy(step["strategy_sum"], mask)
        for got, want in [(trace.current_strategy[k], step["strategy"]),
                          (trace.instantaneous_regret[k], step["regret"]),
                          (trace.cumulative_regret[k], step["cumulative_regret"]),
                          (trace.average_strategy[k], average)]:
            # absolute 1e-12 for numbers up to 1, relative beyond (regret sums grow with t)
            assert np.all(np.abs(got - want) <= tolerance * np.maximum(1.0, np.abs(want)))
        count += 1
    assert count == len(trace)


@pytest.mark.parametrize("alternating", [True, False])
def test_cfr_matches_the_recursive_reference_after_every_iteration_on_kuhn(kuhn, alternating):
    trace = cfrviz.solve(kuhn, "cfr", 300, alternating=alternating,
                         checkpoints=list(range(1, 301)))
    assert_matches(trace, vanilla_cfr(kuhn, 300, alternating=alternating), kuhn.legal_mask, 1e-12)


@pytest.mark.parametrize("alternating", [True, False])
def test_cfr_matches_the_recursive_reference_after_every_iteration_on_leduc(leduc, alternating):
    trace = cfrviz.solve(leduc, "cfr", 25, alternating=alternating,
                         checkpoints=list(range(1, 26)))
    assert_matches(trace, vanilla_cfr(leduc, 25, alternating=alternating), leduc.legal_mask,
                   1e-12)


@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("algorithm", ["cfr+", "linear_cfr", "dcfr"])
@pytest.mark.parametrize("alternating", [True, False])
def test_variants_match_the_reference(game_name, algorithm, alternating):
    game = cfrviz.load_game(game_name)
    n = 60 if game_name == "kuhn_poker" else 15
    trace = cfrviz.solve(game, algorithm, n, alternating=alternating,
                         checkpoints=list(range(1, n + 1)))
    assert_matches(trace, cfr_variant(game, n, alternating=alternating, **VARIANTS[algorithm]),
                   game.legal_mask, 1e-12)


def test_the_variants_really_differ(kuhn):
    finals = {a: cfrviz.solve(kuhn, a, 30, checkpoints=[]).cumulative_regret[-1] for a in VARIANTS}
    names = list(finals)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not np.allclose(finals[a], finals[b]), (a, b)
    assert finals["cfr+"].min() >= 0  # regret matching+ never stores a negative regret


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear_cfr", "dcfr"])
def test_kuhn_converges_to_the_game_value(kuhn, algorithm):
    trace = cfrviz.solve(kuhn, algorithm, 2000)
    assert trace.exploitability[-1] < 1e-3
    value = cfrviz.expected_values(kuhn, trace.average_policy())[0]
    assert abs(value + 1 / 18) <= 2 * trace.exploitability[-1]
    p1 = trace.average_policy().to_dict()
    assert p1["K"]["b"] == pytest.approx(3 * p1["J"]["b"], abs=0.05)  # the equilibrium family
    assert p1["Q"]["b"] < 0.05


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
def test_leduc_converges_below_one_hundredth(leduc, algorithm):
    trace = cfrviz.solve(leduc, algorithm, 2000, checkpoints=[10, 100, 2000])
    assert trace.exploitability[-1] < 1e-2
    assert trace.exploitability[0] > trace.exploitability[-1]


def test_leduc_game_value(leduc):
    """A near-equilibrium brackets the value: -BR2 <= v* <= BR1, an interval of width 2 * expl."""
    trace = cfrviz.solve(leduc, "dcfr", 10_000, checkpoints=[10_000])
    policy = trace.average_policy()
    high = cfrviz.best_response(leduc, policy, 0).value
    low = -cfrviz.best_response(leduc, policy, 1).value
    assert low - 5e-8 <= LEDUC_VALUE <= high + 5e-8
    assert high - low < 2e-5
    assert cfrviz.expected_values(leduc, policy)[0] == pytest.approx(LEDUC_VALUE, abs=2e-5)


def test_trace_schedule_and_cost_axis(kuhn, leduc):
    trace = cfrviz.solve(kuhn, "cfr", 1000)
    assert trace.iterations.tolist() == list(range(1, 1001))  # small game: every iteration
    assert np.all(np.diff(trace.extras["elapsed"]) >= 0)
    assert trace.extras["nodes_touched"][-1] == 2 * 1000 * kuhn.num_nodes
    big = cfrviz.solve(leduc, "cfr", 2000)
    assert big.iterations.tolist() == default_checkpoints(2000, leduc.legal_mask.size)
    assert big.iterations[:100].tolist() == list(range(1, 101)) and len(big) < 210


def test_default_leduc_trace_stays_small(leduc):
    # Records are capped at ~200 whatever the length, so a long default run stays small.
    for iterations in (10**4, 10**6, 10**8):
        assert len(default_checkpoints(iterations, leduc.legal_mask.size)) <= 201
    trace = cfrviz.solve(leduc, "cfr+", 5000)
    size = sum(a.nbytes for a in (trace.cumulative_regret, trace.instantaneous_regret,
                                  trace.current_strategy, trace.average_strategy))
    assert size < 100e6 and len(trace) <= 201


def test_final_state_only_evaluates_nothing(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 50, checkpoints=[])
    assert trace.iterations.tolist() == [50] and np.isnan(trace.exploitability[0])
    full = cfrviz.solve(kuhn, "cfr", 50, checkpoints=[50])
    assert np.array_equal(trace.average_strategy, full.average_strategy)


def test_matrix_games_run_as_trees():
    rps = cfrviz.load_game("rock_paper_scissors", payoffs=[[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    trace = cfrviz.solve(rps, "cfr+", 3000)
    policy = trace.average_policy()
    assert cfrviz.exploitability(rps, policy) < 1e-3
    eq = cfrviz.matrix_equilibrium(rps.payoffs)
    assert np.allclose(policy.probabilities[0], eq.row, atol=1e-2)


def test_bad_arguments(kuhn):
    from cfrviz.core.tree import build_tree

    with pytest.raises(ValueError, match="regret_matching solves matrix games"):
        cfrviz.solve(kuhn, "regret_matching", 10)
    with pytest.raises(ValueError, match="alternating must be True or False"):
        cfrviz.solve(kuhn, "cfr", 10, alternating="yes")
    with pytest.raises(ValueError, match="takes no parameter 'alpha'"):
        cfrviz.solve(kuhn, "cfr", 10, alpha=1.5)
    with pytest.raises(ValueError, match="alpha must be a finite number"):
        cfrviz.solve(kuhn, "dcfr", 10, alpha=float("nan"))
    with pytest.raises(ValueError, match="epsilon must be a finite number > 0"):
        cfrviz.solve(kuhn, "outcome_sampling", 10, epsilon=0)
    with pytest.raises(ValueError, match=re.escape("unknown algorithm 'cfr++'; available "
                                                   "algorithms: cfr, cfr+,")):
        cfrviz.solve(kuhn, "cfr++", 10)
    with pytest.raises(ValueError, match="needs a two-player zero-sum game; coordination is not "
                                         "zero-sum at history 'a'"):
        cfrviz.solve(build_tree(Coordination()), "cfr", 10)
    with pytest.raises(ValueError, match="cfr needs a game from cfrviz.load_game"):
        cfrviz.solve(object(), "cfr", 10)


def test_dcfr_with_a_huge_exponent_stays_finite(kuhn):
    trace = cfrviz.solve(kuhn, "dcfr", 2000, alpha=100.0, beta=-100.0, checkpoints=[2000])
    assert np.all(np.isfinite(trace.cumulative_regret)) and trace.exploitability[-1] < 0.05
