"""Magnetic mirror descent: the compiled kernel against the readable reference at every
iteration, against OpenSpiel's mmd_dilated, and its current strategy's convergence."""

import numpy as np
import pytest
from _tolerance import EPS, FOLD, assert_close, magnitude, walk_roundings

import cfrviz
from cfrviz import engine
from cfrviz.core.regret import average_strategy
from cfrviz.engine.cfr import Tables
from cfrviz.engine.mmd import MMDRule, run_mmd, sequence_arrays
from cfrviz.reference.mmd import magnetic_mirror_descent, realization_weights


def logs(table, mask):
    """A strategy (or magnet) as the kernel keeps it: logarithms on legal actions, 0 elsewhere."""
    return np.where(mask, np.log(np.where(mask, table, 1.0)), 0.0)


def mmd_roundings(game):
    """The longest chain of roundings in one MMD iteration: the walk that gathers the
    sequence values (``walk_roundings``), then the softmax pass up the player's own sets,
    at most one level per tree level, each summing up to the widest branching's exponentials
    and taking a logarithm (again at most depth x width), and the fold into the sums."""
    return 2 * walk_roundings(game) + FOLD


def one_iteration(game, rule, t, before, magnet, strategy_sum):
    """Iteration ``t`` of the compiled kernel from the reference's state after ``t - 1``."""
    mask = game.legal_mask
    tables = Tables(np.zeros(mask.shape) if before is None else logs(before, mask),
                    strategy_sum.copy(), np.zeros(mask.shape), np.zeros(mask.shape))
    run_mmd(engine.plan(game).arrays, sequence_arrays(game), tables,
            np.zeros(mask.shape) if magnet is None else logs(magnet, mask), t, t, rule)
    return tables


def assert_matches(game, rule, iterations):
    """Each compiled iteration, from the reference's state, against the reference's next state
    to the derived bound; and ``cfrviz.solve``'s trace, bit for bit, against the kernel's own
    chained run.  Returns the largest gap seen, in units of eps x scale."""
    mask = game.legal_mask
    roundings = mmd_roundings(game)
    trace = cfrviz.solve(game, "mmd", iterations, alpha=rule.alpha, eta=rule.eta,
                         magnet_every=rule.magnet_every, checkpoints=list(range(1, iterations + 1)))
    chained = Tables(*(np.zeros(mask.shape) for _ in range(4)))
    chained_magnet = np.zeros(mask.shape)
    before, strategy_sum, worst = None, np.zeros(mask.shape), 0.0
    steps = magnetic_mirror_descent(game, iterations, rule.alpha, rule.eta, rule.magnet_every)
    for t, step in enumerate(steps, 1):
        one = one_iteration(game, rule, t, before, step["magnet"], strategy_sum)
        # what a softmax's argument is made of: the step times the values, the old logs, the
        # magnet's pull, and the new logs
        scale = magnitude(rule.eta * step["values"], one.regret_sum, 1.0,
                          logs(step["strategy"], mask),
                          *(() if before is None else (logs(before, mask),)),
                          *(() if step["magnet"] is None else
                            (rule.eta * rule.alpha * logs(step["magnet"], mask),)))
        sums = magnitude(scale, step["strategy_sum"])
        for got, want, size, what in [
                (one.current, step["strategy"], scale, "current strategy"),
                (one.regret_sum, logs(step["strategy"], mask), scale, "log strategy"),
                (one.instant, step["values"], magnitude(game.utility), "sequence values"),
                (one.strategy_sum, step["strategy_sum"], sums, "strategy sums")]:
            assert_close(got, want, scale=size, roundings=roundings, what=f"{what}, iteration {t}")
            worst = max(worst, float(np.max(np.abs(got - want))) / (EPS * size))
        before, strategy_sum = step["strategy"], step["strategy_sum"]
        run_mmd(engine.plan(game).arrays, sequence_arrays(game), chained, chained_magnet, t, t,
                rule)
        assert np.array_equal(trace.current_strategy[t - 1], chained.current)
        assert np.array_equal(trace.cumulative_regret[t - 1], chained.regret_sum)
        assert np.array_equal(trace.instantaneous_regret[t - 1], chained.instant)
        assert np.array_equal(trace.average_strategy[t - 1],
                              average_strategy(chained.strategy_sum, mask))
    assert len(trace) == iterations
    return worst


@pytest.mark.parametrize("magnet_every", [0, 5])
def test_kernel_matches_the_reference_at_every_iteration_on_kuhn(kuhn, magnet_every):
    worst = assert_matches(kuhn, MMDRule(alpha=0.05, eta=2.0, magnet_every=magnet_every), 60)
    assert worst < mmd_roundings(kuhn)


@pytest.mark.parametrize("magnet_every", [0, 4])
def test_kernel_matches_the_reference_at_every_iteration_on_leduc(leduc, magnet_every):
    worst = assert_matches(leduc, MMDRule(alpha=0.05, eta=2.0, magnet_every=magnet_every), 12)
    assert worst < mmd_roundings(leduc)


def test_the_bound_fails_a_wrong_step(kuhn):
    """A kernel whose step size is off by one part in a billion is caught by the bound."""
    rule = MMDRule(alpha=0.05, eta=2.0, magnet_every=5)
    wrong = rule._replace(eta=2.0 * (1 + 1e-9))
    steps = list(magnetic_mirror_descent(kuhn, 8, rule.alpha, rule.eta, rule.magnet_every))
    before, step = steps[-2], steps[-1]
    one = one_iteration(kuhn, wrong, 8, before["strategy"], step["magnet"], before["strategy_sum"])
    with pytest.raises(AssertionError, match="off by"):
        assert_close(one.current, step["strategy"], scale=1.0, roundings=mmd_roundings(kuhn),
                     what="current strategy")


def test_the_reference_leaving_out_the_magnet_is_caught(kuhn):
    """The magnet's pull matters from the first reset on: a reference run without it parts
    from the kernel."""
    with_magnet = list(magnetic_mirror_descent(kuhn, 12, 0.05, 2.0, 5))
    without = list(magnetic_mirror_descent(kuhn, 12, 0.05, 2.0, 0))
    assert np.array_equal(with_magnet[0]["strategy"] > 0, without[0]["strategy"] > 0)
    assert np.max(np.abs(with_magnet[-1]["strategy"] - without[-1]["strategy"])) > 1e-3


# --- against OpenSpiel --------------------------------------------------------------------

def openspiel_table(game, policy, legal):
    """OpenSpiel's policy as a cfrviz table (Kuhn: the cards J Q K are OpenSpiel's 0 1 2)."""
    out = np.zeros(game.legal_mask.shape)
    for i, key in enumerate(game.infoset_keys):
        theirs = key.replace("J", "0").replace("Q", "1").replace("K", "2")
        row = policy.action_probability_array[policy.state_lookup[theirs]]
        out[i, : len(legal[theirs])] = row[legal[theirs]]
    return out


@pytest.mark.parametrize("alpha, eta", [(0.1, 1.0), (0.05, 2.0)])
def test_fixed_magnet_matches_openspiel_mmd_dilated_on_kuhn(kuhn, alpha, eta):
    """OpenSpiel's MMDDilatedEnt (its regulariser is the dilated entropy itself: our
    magnet_every=0), the current strategy after each of 100 iterations and the average,
    to 1e-10 (measured: 4.4e-16 and 2.2e-16)."""
    pyspiel = pytest.importorskip("pyspiel")
    mmd_dilated = pytest.importorskip("open_spiel.python.algorithms.mmd_dilated")
    game = pyspiel.load_game("kuhn_poker")
    legal = {}

    def walk(state):
        if state.is_terminal():
            return
        if not state.is_chance_node():
            legal[state.information_state_string()] = state.legal_actions()
        for action in (state.legal_actions() if not state.is_chance_node()
                       else [a for a, _ in state.chance_outcomes()]):
            walk(state.child(action))

    walk(game.new_initial_state())
    theirs = mmd_dilated.MMDDilatedEnt(game, alpha, stepsize=eta)
    n = 100
    trace = cfrviz.solve(kuhn, "mmd", n, alpha=alpha, eta=eta, magnet_every=0,
                         checkpoints=list(range(1, n + 1)))
    for t in range(n):
        theirs.update_sequences()
        ours = trace.current_strategy[t]
        gap = np.abs(ours - openspiel_table(kuhn, theirs.get_policies(), legal))
        assert gap.max() < 1e-10, (t + 1, gap.max())
    # OpenSpiel's average also counts the uniform strategy it starts from
    uniform = np.where(kuhn.legal_mask, 0.5, 0.0)
    plans = trace.state["strategy_sum"] + sum(realization_weights(kuhn, uniform, p) for p in (0, 1))
    gap = np.abs(average_strategy(plans, kuhn.legal_mask)
                 - openspiel_table(kuhn, theirs.get_avg_policies(), legal))
    assert gap.max() < 1e-10


def test_fixed_magnet_matches_openspiel_on_leduc_with_suits():
    """Leduc as OpenSpiel deals it (suits kept: 936 information sets; the dilated entropy is
    not invariant under merging suit-isomorphic sets, so the rank-only Leduc differs): the
    current strategy's exploitability after each of 3 iterations, to 1e-12 (measured: all
    15 printed digits equal at iterations 1 to 5; 2.4 s, mostly OpenSpiel's Python setup)."""
    pyspiel = pytest.importorskip("pyspiel")
    mmd_dilated = pytest.importorskip("open_spiel.python.algorithms.mmd_dilated")
    from open_spiel.python.algorithms import exploitability

    game = pyspiel.load_game("leduc_poker")
    theirs = mmd_dilated.MMDDilatedEnt(game, 0.05, stepsize=2.0)
    leduc = cfrviz.load_game("leduc_poker", suits=True)
    assert len(leduc.infoset_keys) == 936
    trace = cfrviz.solve(leduc, "mmd", 3, alpha=0.05, eta=2.0, magnet_every=0,
                         checkpoints=[1, 2, 3])
    for t in range(3):
        theirs.update_sequences()
        want = exploitability.exploitability(game, theirs.get_policies())
        assert abs(trace.current_exploitability[t] - want) < 1e-12, (t + 1, want)


# --- the current strategy converges --------------------------------------------------------

def test_the_current_strategy_goes_to_zero_on_kuhn(kuhn):
    """Measured with the defaults (alpha 0.02, eta 2, magnet_every 50): current NashConv/2
    0.102, 0.0378, 1.8e-06, 7.6e-11 at 10, 100, 1000, 2000 iterations; the fixed magnet
    stays at its regularised equilibrium (0.104 at 1000 with alpha 0.1, eta 1)."""
    trace = cfrviz.solve(kuhn, "mmd", 2000, checkpoints=[10, 100, 1000, 2000])
    current = trace.current_exploitability
    assert np.all(np.diff(current) < 0), current
    assert current[-1] < 1e-9
    assert np.allclose(current, [cfrviz.engine.tree_exploitability(kuhn, s)
                                 for s in trace.current_strategy])
    fixed = cfrviz.solve(kuhn, "mmd", 1000, alpha=0.1, eta=1.0, magnet_every=0, checkpoints=[])
    assert cfrviz.engine.tree_exploitability(kuhn, fixed.current_strategy[-1]) > 0.05


def test_the_current_strategy_keeps_falling_on_leduc(leduc):
    """Slower on Leduc (measured: 0.201 at 1000 iterations, 0.0261 at 10,000, 0.0043 at
    100,000): the dilated entropy weighs Leduc's deep sets by little."""
    trace = cfrviz.solve(leduc, "mmd", 10_000, checkpoints=[1000, 10_000])
    assert trace.current_exploitability[-1] < 0.05
    assert trace.current_exploitability[-1] < trace.current_exploitability[0] / 4


# --- parameters ----------------------------------------------------------------------------

@pytest.mark.parametrize("params, message", [
    ({"alpha": 0.0}, "alpha must be .*> 0"),
    ({"alpha": -1.0}, "alpha must be"),
    ({"eta": 0.0}, "eta must be .*> 0"),
    ({"magnet_every": -1}, "magnet_every must be"),
    ({"magnet_every": 2.5}, "magnet_every must be"),
    ({"temperature": 1.0}, "temperature"),
])
def test_bad_parameters_say_what_is_valid(kuhn, params, message):
    with pytest.raises(ValueError, match=message):
        cfrviz.solve(kuhn, "mmd", 5, **params)


def test_a_moving_magnet_refuses_resume_and_a_fixed_one_resumes_bit_for_bit(kuhn):
    moving = cfrviz.solve(kuhn, "mmd", 20)
    with pytest.raises(ValueError, match="magnet is not part of the trace's saved state"):
        cfrviz.solve(kuhn, "mmd", 40, resume=moving)
    whole = cfrviz.solve(kuhn, "mmd", 40, magnet_every=0)
    half = cfrviz.solve(kuhn, "mmd", 20, magnet_every=0)
    resumed = cfrviz.solve(kuhn, "mmd", 40, magnet_every=0, resume=half)
    assert np.array_equal(resumed.current_strategy[-1], whole.current_strategy[-1])
    assert np.array_equal(resumed.average_strategy[-1], whole.average_strategy[-1])


def test_a_trace_saves_and_loads(kuhn, tmp_path):
    trace = cfrviz.solve(kuhn, "mmd", 30)
    cfrviz.save_trace(trace, tmp_path / "mmd.npz")
    loaded = cfrviz.load_trace(tmp_path / "mmd.npz")
    assert loaded.params == trace.params
    assert np.array_equal(loaded.current_exploitability, trace.current_exploitability)


def test_the_explanation_shows_no_regret_matching_step(kuhn):
    """MMD keeps no regrets: the explorer's panel shows the current strategy's counterfactual
    regrets and says its next step is a mirror-descent step, not regret matching."""
    from cfrviz.analysis.explain import infoset_snapshot, snapshot_html
    from cfrviz.widgets.explorer import TrainingExplorer

    trace = cfrviz.solve(kuhn, "mmd", 30)
    snapshot = infoset_snapshot(trace, 29, "J")
    assert not snapshot.regrets
    assert np.allclose(snapshot.regret, snapshot.action_values - snapshot.value)
    html = snapshot_html(snapshot)
    assert "mirror-descent step" in html and "next strategy (regret matching)" not in html
    assert "cumulative regret" not in html
    cfr = snapshot_html(infoset_snapshot(cfrviz.solve(kuhn, "cfr", 30), 29, "J"))
    assert "next strategy (regret matching)" in cfr
    TrainingExplorer(kuhn, "mmd", 30)  # builds, trains and shows its first frame


def test_three_players_are_refused_with_the_reason():
    three = cfrviz.load_game("kuhn_poker_3p")
    with pytest.raises(ValueError, match="mmd is defined for two-player games"):
        cfrviz.solve(three, "mmd", 5)
