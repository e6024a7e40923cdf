"""The CFR family: the compiled engine against the readable references, exact values and
convergence."""

import re

import numpy as np
import pytest
from _games import Coordination
from _tolerance import EPS, FOLD, assert_close, assert_iteration_close, magnitude, walk_roundings

import cfrviz
from cfrviz import engine
from cfrviz.reference import cfr_variant, vanilla_cfr
from cfrviz.solvers.cfr import average_strategy, default_checkpoints

LEDUC_VALUE = -0.0856064
VARIANTS = {  # algorithm -> the reference's settings for it
    "cfr": {},
    "cfr+": {"regret_floor": True, "linear_average": True},
    "linear_cfr": {"discount": (1.0, 1.0, 1.0)},
    "dcfr": {"discount": (1.5, 0.0, 2.0)},
    "pcfr+": {"regret_floor": True, "linear_average": True, "predictive": True,
              "average_power": 2.0},
    "pdcfr+": {"regret_floor": True, "discount": (2.3, 2.3, 5.0), "predictive": True},
}
RULES = {  # algorithm -> the engine's settings for it (what cfrviz.solve passes by default)
    "cfr": {},
    "cfr+": {"plus": True, "linear_average": True},
    "linear_cfr": {"discount": True},
    "dcfr": {"discount": True, "alpha": 1.5, "beta": 0.0, "gamma": 2.0},
    "pcfr+": {"plus": True, "linear_average": True, "predictive": True, "average_power": 2.0},
    "pdcfr+": {"plus": True, "discount": True, "alpha": 2.3, "beta": 2.3, "gamma": 5.0,
               "predictive": True},
}


def update_rule(algorithm, alternating):
    settings = {"plus": False, "discount": False, "alpha": 1.0, "beta": 1.0, "gamma": 1.0,
                "linear_average": False, "predictive": False, "average_power": 1.0,
                **RULES[algorithm]}
    return engine.UpdateRule(alternating=alternating, **settings)


def compiled_iteration(game, rule, t, regret_sum, strategy_sum, last=None):
    """Iteration ``t`` of the compiled kernel, started from copies of the given sums (and of
    the last iteration's regrets ``last``, the prediction of the predictive variants)."""
    shape = game.legal_mask.shape
    tables = engine.Tables(regret_sum.copy(), strategy_sum.copy(), np.zeros(shape),
                           np.zeros(shape) if last is None else last.copy())
    engine.run_full_tree(engine.plan(game).arrays, tables, t, t, rule)
    return tables


def assert_matches(game, trace, steps, rule):
    """Each compiled iteration, run from the reference's state, against the reference's next
    state, to the derived bound (tests/_tolerance.py says why one iteration at a time); and the
    solver's trace, bit for bit, against the compiled kernel's own run."""
    mask = game.legal_mask
    roundings = walk_roundings(game) + FOLD
    chained = engine.Tables(*(np.zeros(mask.shape) for _ in range(4)))
    regret_sum, strategy_sum, last = (np.zeros(mask.shape) for _ in range(3))
    count = 0
    for k, step in enumerate(steps):
        t = k + 1
        one = compiled_iteration(game, rule, t, regret_sum, strategy_sum, last)
        regrets = magnitude(game.utility, regret_sum, step["cumulative_regret"])
        weight = float(t) ** rule.average_power if rule.linear_average else 1.0
        sums = magnitude(weight, strategy_sum, step["strategy_sum"])
        assert_iteration_close(one, step, regrets=regrets, sums=sums, roundings=roundings,
                               iteration=t)
        regret_sum, strategy_sum, last = (step["cumulative_regret"], step["strategy_sum"],
                                          step["regret"])
        engine.run_full_tree(engine.plan(game).arrays, chained, t, t, rule)
        assert np.array_equal(trace.current_strategy[k], chained.current)
        assert np.array_equal(trace.instantaneous_regret[k], chained.instant)
        assert np.array_equal(trace.cumulative_regret[k], chained.regret_sum)
        assert np.array_equal(trace.average_strategy[k],
                              average_strategy(chained.strategy_sum, mask))
        count += 1
    assert count == len(trace)


@pytest.mark.parametrize("alternating", [True, False])
def test_cfr_matches_the_recursive_reference_after_every_iteration_on_kuhn(kuhn, alternating):
    trace = cfrviz.solve(kuhn, "cfr", 300, alternating=alternating,
                         checkpoints=list(range(1, 301)))
    assert_matches(kuhn, trace, vanilla_cfr(kuhn, 300, alternating=alternating),
                   update_rule("cfr", alternating))


@pytest.mark.parametrize("alternating", [True, False])
def test_cfr_matches_the_recursive_reference_after_every_iteration_on_leduc(leduc, alternating):
    trace = cfrviz.solve(leduc, "cfr", 25, alternating=alternating,
                         checkpoints=list(range(1, 26)))
    assert_matches(leduc, trace, vanilla_cfr(leduc, 25, alternating=alternating),
                   update_rule("cfr", alternating))


@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("algorithm", ["cfr+", "linear_cfr", "dcfr", "pcfr+", "pdcfr+"])
@pytest.mark.parametrize("alternating", [True, False])
def test_variants_match_the_reference(game_name, algorithm, alternating):
    game = cfrviz.load_game(game_name)
    n = 60 if game_name == "kuhn_poker" else 15
    trace = cfrviz.solve(game, algorithm, n, alternating=alternating,
                         checkpoints=list(range(1, n + 1)))
    steps = cfr_variant(game, n, alternating=alternating, **VARIANTS[algorithm])
    assert_matches(game, trace, steps, update_rule(algorithm, alternating))


@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker"])
def test_the_bound_passes_rounding_and_fails_errors(game_name):
    """The derived bound lets rounding through and catches real errors: a drift of half an ulp
    of the scale per rounding passes; a relative error of 1e-9, DCFR's discount of the next
    iteration, the discount left out, and the strategy sum's discount left out all fail."""
    game = cfrviz.load_game(game_name)
    n = 12
    *_, before, step = cfr_variant(game, n, discount=(1.5, 0.0, 2.0))
    rule = update_rule("dcfr", True)
    roundings = walk_roundings(game) + FOLD
    start = before["cumulative_regret"], before["strategy_sum"]
    regrets = step["cumulative_regret"]
    scale = magnitude(game.utility, start[0], regrets)
    sums = magnitude(1.0, start[1], step["strategy_sum"])

    def regrets_pass(got):
        assert_close(got, regrets, scale=scale, roundings=roundings, what="regrets")

    def sums_pass(got):
        assert_close(got, step["strategy_sum"], scale=sums, roundings=roundings, what="sums")

    right = compiled_iteration(game, rule, n, *start)
    regrets_pass(right.regret_sum)
    sums_pass(right.strategy_sum)
    drift = 0.5 * roundings * EPS * scale * np.where(np.arange(regrets.size) % 2, 1, -1)
    regrets_pass(regrets + drift.reshape(regrets.shape))
    with pytest.raises(AssertionError, match="regrets: off by"):
        regrets_pass(regrets * (1 + 1e-9))
    with pytest.raises(AssertionError, match="regrets: off by"):
        regrets_pass(compiled_iteration(game, rule, n + 1, *start).regret_sum)
    with pytest.raises(AssertionError, match="regrets: off by"):
        regrets_pass(compiled_iteration(game, rule._replace(discount=False), n, *start)
                     .regret_sum)
    with pytest.raises(AssertionError, match="sums: off by"):
        sums_pass(compiled_iteration(game, rule._replace(gamma=0.0), n, *start).strategy_sum)
    # The bound is far below what these errors move: at most a few 1e-13 here.
    assert roundings * EPS * scale < 1e-12


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


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "dcfr", "pcfr+", "pdcfr+"])
def test_the_explained_next_strategy_is_the_one_played_next(kuhn, algorithm):
    """What the explorer calls a set's "next strategy" is the strategy the solver plays at
    the next iteration: regret matching on the cumulative regrets, plus the last regrets for
    the predictive variants (checking the predictive ones with the plain rule fails)."""
    from cfrviz.analysis.explain import infoset_snapshot

    trace = cfrviz.solve(kuhn, algorithm, 12, checkpoints=list(range(1, 13)), progress=False)
    for index in range(len(trace) - 1):
        for info, key in enumerate(kuhn.infoset_keys):
            shown = infoset_snapshot(trace, index, key).next_strategy
            played = trace.current_strategy[index + 1, info, :len(shown)]
            assert np.allclose(shown, played, rtol=0, atol=1e-15), (algorithm, index, key)
