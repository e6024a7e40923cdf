import warnings

import numpy as np
import pytest
from _tolerance import FOLD, assert_close, magnitude
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.trace import RECORD_ARRAYS
from cfrviz.reference import self_play_regret_matching
from cfrviz.solvers import driver
from cfrviz.solvers import regret_matching as rm_module

VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


@pytest.fixture
def game():
    return cfrviz.load_game("rock_paper_scissors")


def test_contract(game):
    trace = cfrviz.solve(game, "regret_matching", iterations=10_000, seed=0)
    policy = trace.average_policy()
    assert set(policy.to_dict()) == {"P1", "P2"}
    assert trace.current_policy().to_dict().keys() == policy.to_dict().keys()
    assert len(trace) == 10_000 and trace.iterations[0] == 1 and trace.iterations[-1] == 10_000
    # From uniform, standard rock-paper-scissors is already at its equilibrium: nothing moves.
    assert cfrviz.exploitability(game, policy) == 0
    assert np.all(trace.cumulative_regret == 0)


def test_trace_holds_copies_and_consistent_shapes(game):
    trace = cfrviz.solve(game, "regret_matching", 50, initial_regrets={"P1": [1, 0, 0]})
    for name in ("cumulative_regret", "instantaneous_regret", "current_strategy",
                 "average_strategy"):
        assert getattr(trace, name).shape == (50, 2, 3)
        with pytest.raises(ValueError):
            getattr(trace, name)[0, 0, 0] = 1.0
    assert np.allclose(np.cumsum(trace.instantaneous_regret, axis=0)
                       + np.array([[1, 0, 0], [0, 0, 0]]), trace.cumulative_regret)
    assert np.allclose(np.cumsum(trace.current_strategy, axis=0)
                       / np.arange(1, 51)[:, None, None], trace.average_strategy)


@pytest.mark.parametrize("payoffs, initial", [
    (VARIANT, None),
    ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], ([1.0, 0.0, 0.0], [0.0, 0.5, 0.0])),
    ([[3, -1, 0], [-2, 4, 1], [0, 1, -3]], None),
])
def test_fast_loop_matches_the_readable_reference_every_iteration(payoffs, initial):
    """Each compiled iteration, run from the reference's regrets, against the reference's next
    one, to the bound of tests/_tolerance.py; the 500-iteration trace is those single compiled
    iterations chained, bit for bit."""
    game = cfrviz.load_game("rock_paper_scissors", payoffs=payoffs)
    kwargs = {} if initial is None else {"initial_regrets": {"P1": initial[0], "P2": initial[1]}}
    trace = cfrviz.solve(game, "regret_matching", iterations=500, **kwargs)
    # A player's regret: an action's value (a sum of n products), minus the mix's (n more), added.
    roundings = 2 * max(np.shape(payoffs)) + FOLD
    names = {"current_strategy": "strategies", "instantaneous_regret": "regrets",
             "cumulative_regret": "cumulative_regrets"}
    before = [np.zeros(n) for n in np.shape(payoffs)] if initial is None else initial
    for k, step in enumerate(self_play_regret_matching(payoffs, 500, initial)):
        one = cfrviz.solve(game, "regret_matching", iterations=1, progress=False,
                           initial_regrets={"P1": before[0], "P2": before[1]})
        for p in (0, 1):
            regrets = magnitude(payoffs, before[p], step["cumulative_regrets"][p])
            for ours, theirs in names.items():
                scale = 1.0 if ours == "current_strategy" else regrets
                assert_close(getattr(one, ours)[0, p], step[theirs][p], scale=scale,
                             roundings=roundings, what=f"{ours}, player {p + 1}, iteration {k + 1}")
        before = step["cumulative_regrets"]
        if k:
            state = trace.cumulative_regret[k - 1]
            chained = cfrviz.solve(game, "regret_matching", iterations=1, progress=False,
                                   initial_regrets={"P1": state[0], "P2": state[1]})
            for ours in names:
                assert np.array_equal(getattr(chained, ours)[0], getattr(trace, ours)[k]), ours
    assert k == 499


def test_variant_converges_to_its_equilibrium():
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    trace = cfrviz.solve(game, "regret_matching", iterations=10_000)
    assert np.allclose(trace.average_strategy[-1, 0], [0.4, 0.4, 0.2], atol=0.01)
    assert trace.exploitability[-1] < 0.01
    # The current strategy keeps cycling far from the equilibrium.
    assert trace.current_exploitability[-1000:].mean() > 0.3


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-4, 4).map(float), min_size=9, max_size=9))
def test_regret_bound_holds_for_any_payoffs(cells):
    # Regret matching guarantees each player's cumulative regret is at most
    # range * sqrt(actions * T) (Hart & Mas-Colell; Cesa-Bianchi & Lugosi, Thm 2.1), and in a
    # zero-sum game NashConv of the averages is at most the sum of the two average regrets.
    payoffs = np.array(cells).reshape(3, 3)
    game = cfrviz.load_game("rock_paper_scissors", payoffs=payoffs)
    trace = cfrviz.solve(game, "regret_matching", iterations=300)
    spread = payoffs.max() - payoffs.min()
    t = trace.iterations
    assert np.all(trace.cumulative_regret.max(axis=2) <= spread * np.sqrt(3 * t)[:, None] + 1e-9)
    assert np.all(2 * trace.exploitability <= 2 * spread * np.sqrt(3 / t) + 1e-9)


def test_fixed_opponent_learns_the_best_response(game):
    trace = cfrviz.solve(game, "regret_matching", iterations=2000, opponent=[0.4, 0.3, 0.3])
    assert trace.average_policy()["P1"]["P"] > 0.99
    assert np.all(trace.current_strategy[:, 1] == [0.4, 0.3, 0.3])
    assert trace.params["opponent"] == [0.4, 0.3, 0.3]
    also = cfrviz.solve(game, "regret_matching", iterations=10, opponent={"R": 1})
    assert also.average_policy()["P2"] == {"R": 1.0, "P": 0.0, "S": 0.0}


def test_sampled_updates_are_seeded(game):
    variant = game.with_payoffs(VARIANT)
    a = cfrviz.solve(variant, "regret_matching", 2000, seed=1, update="sampled")
    b = cfrviz.solve(variant, "regret_matching", 2000, seed=1, update="sampled")
    c = cfrviz.solve(variant, "regret_matching", 2000, seed=2, update="sampled")
    assert np.array_equal(a.cumulative_regret, b.cumulative_regret)
    assert not np.array_equal(a.cumulative_regret, c.cumulative_regret)
    # Sampled regrets are whole-outcome differences: the played action's regret is exactly 0.
    assert np.all(np.isin(a.instantaneous_regret, [-4, -3, -2, -1, 0, 1, 2, 3, 4]))
    assert a.exploitability[-1] < 0.1


# Iterations, seeds, checkpoints, the update's choices and unknown parameters are checked for
# every algorithm by tests/test_contract.py; these are regret matching's own settings.
@pytest.mark.parametrize("kwargs, message", [
    (dict(iterations=10, opponent=[0.5, 0.5, 0.5]), "opponent strategy.*sum to 1.5"),
    (dict(iterations=10, opponent=[1.2, -0.2, 0]), "opponent strategy.*negative"),
    (dict(iterations=10, opponent=[0.5, 0.5]), "3 probabilities"),
    (dict(iterations=10, opponent={"rock": 1}), "unknown action 'rock'"),
    (dict(iterations=10, initial_regrets={"P1": [1, 2]}), r"initial_regrets\['P1'\]"),
])
def test_bad_arguments_are_explained(game, kwargs, message):
    with pytest.raises(ValueError, match=message):
        cfrviz.solve(game, "regret_matching", **kwargs)


def _keyboard_interrupt():
    raise KeyboardInterrupt


def interrupt_at_match_call(monkeypatch, call: int, interrupt):
    """Run ``interrupt()`` at regret matching's ``call``-th strategy update (two per iteration);
    returns the original update, to put back."""
    calls = {"n": 0}
    original = rm_module._match

    def counting(regrets, tol):
        calls["n"] += 1
        if calls["n"] == call:
            interrupt()
        return original(regrets, tol)

    monkeypatch.setattr(rm_module, "_match", counting)
    return original


def test_interrupted_run_returns_what_it_recorded(game, monkeypatch):
    # two calls per iteration: stops during iteration 21
    original = interrupt_at_match_call(monkeypatch, 41, _keyboard_interrupt)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trace = cfrviz.solve(game, "regret_matching", 1000, initial_regrets={"P1": [1, 0, 0]})
    assert trace.iterations[-1] == 20 and trace.params["interrupted"]
    assert any("interrupted at iteration 21" in str(w.message) for w in caught)
    monkeypatch.setattr(rm_module, "_match", original)
    full = cfrviz.solve(game, "regret_matching", 20, initial_regrets={"P1": [1, 0, 0]})
    assert np.array_equal(trace.cumulative_regret, full.cumulative_regret)


def test_interrupted_run_keeps_its_last_finished_iteration_between_checkpoints(game, monkeypatch):
    original = interrupt_at_match_call(monkeypatch, 75, _keyboard_interrupt)
    with pytest.warns(RuntimeWarning, match="interrupted"):
        trace = cfrviz.solve(game, "regret_matching", 1000, checkpoints=[10, 20, 30, 500],
                             initial_regrets={"P1": [1, 0, 0]})
    assert trace.iterations.tolist() == [10, 20, 30, 37]
    monkeypatch.setattr(rm_module, "_match", original)
    full = cfrviz.solve(game, "regret_matching", 37, initial_regrets={"P1": [1, 0, 0]})
    assert np.array_equal(trace.average_strategy[-1], full.average_strategy[-1])


# --- resume, deferred Ctrl-C, progress ------------------------------------------------

def assert_same_run(got, expected):
    """Every recorded array and the final solver state equal bit for bit."""
    for spec in RECORD_ARRAYS:
        a, b = getattr(got, spec.name), getattr(expected, spec.name)
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), spec.name
    assert got.state.keys() == expected.state.keys()
    for key in ("regret_sum", "strategy_sum", "rng"):
        assert got.state[key].tobytes() == expected.state[key].tobytes(), key
    assert got.state["iteration"] == expected.state["iteration"]
    assert got.state.get("generator") == expected.state.get("generator")


@pytest.mark.parametrize("kwargs", [
    {},
    {"update": "sampled", "seed": 4},
    {"update": "sampled", "seed": 9, "opponent": [0.5, 0.3, 0.2]},
    {"initial_regrets": {"P1": [1, 0, 0], "P2": [0, 0, 2]}},
])
@pytest.mark.parametrize("checkpoints", [None, [3, 150, 200, 400]])
def test_regret_matching_resumes_bit_for_bit(game, monkeypatch, kwargs, checkpoints):
    variant = game.with_payoffs(VARIANT)
    whole = cfrviz.solve(variant, "regret_matching", 400, checkpoints=checkpoints, **kwargs)
    first = cfrviz.solve(variant, "regret_matching", 200,
                         checkpoints=checkpoints and [3, 150], **kwargs)
    assert first.state["iteration"] == 200
    assert ("generator" in first.state) == (kwargs.get("update") == "sampled")
    # The resumed half runs one iteration per chunk: draws must not depend on the chunking.
    monkeypatch.setattr(driver, "CHUNK_SECONDS", 1e-9)
    again = {k: v for k, v in kwargs.items() if k != "initial_regrets"}  # the state has them
    resumed = cfrviz.solve(variant, "regret_matching", 400, checkpoints=checkpoints and [400],
                           resume=first, **again)
    assert_same_run(resumed, whole)
    assert resumed.params == dict(whole.params, resumed_from=200)


def test_regret_matching_resume_refuses_what_does_not_fit(game):
    first = cfrviz.solve(game, "regret_matching", 20, initial_regrets={"P1": [1, 0, 0]})
    with pytest.raises(ValueError, match="leave initial_regrets out"):
        cfrviz.solve(game, "regret_matching", 40, initial_regrets={"P1": [1, 0, 0]},
                     resume=first)
    with pytest.raises(ValueError, match="resume with the run's own parameters"):
        cfrviz.solve(game, "regret_matching", 40, update="sampled", resume=first)
    with pytest.raises(ValueError, match="already has 20 iterations"):
        cfrviz.solve(game, "regret_matching", 20, resume=first)
    with pytest.raises(ValueError, match="another version of rock_paper_scissors"):
        cfrviz.solve(game.with_payoffs(VARIANT), "regret_matching", 40, resume=first)
    with pytest.raises(ValueError, match="cannot resume a regret_matching run as cfr"):
        cfrviz.solve(game, "cfr", 40, resume=first)


def test_keyboard_interrupt_inside_a_chunk_gives_back_the_unused_draws(game, monkeypatch):
    variant = game.with_payoffs(VARIANT)
    interrupt_at_match_call(monkeypatch, 75, _keyboard_interrupt)
    with pytest.warns(RuntimeWarning, match="at iteration 38, after iteration 37 of 300"):
        cut = cfrviz.solve(variant, "regret_matching", 300, seed=6, update="sampled")
    monkeypatch.undo()
    assert cut.iterations[-1] == 37 and cut.state["iteration"] == 37
    whole = cfrviz.solve(variant, "regret_matching", 300, seed=6, update="sampled")
    assert_same_run(cfrviz.solve(variant, "regret_matching", 300, seed=6, update="sampled",
                                 resume=cut), whole)


def test_regret_matching_progress_bar_on_request(game, capsys):
    cfrviz.solve(game, "regret_matching", 50, progress=True)
    assert "regret_matching on rock_paper_scissors" in capsys.readouterr().err
    cfrviz.solve(game, "regret_matching", 50, progress=False)
    cfrviz.solve(game, "regret_matching", 50)  # short: the default stays quiet
    assert capsys.readouterr().err == ""


# --- guards: non-finite values, bounded traces -------------------------------------------

HUGE = [[0, -1e308, 1e308], [1e308, 0, -1e308], [-1e308, 1e308, 0]]


def test_payoffs_that_could_overflow_are_refused_before_running(game):
    # Before: regrets went infinite (u - v = 2e308) and the run came back as if solved.
    with pytest.raises(ValueError, match=r"regret_matching on rock_paper_scissors: payoffs as "
                                         r"large as 1e\+308 are too large for 50 iterations"):
        cfrviz.solve(game.with_payoffs(HUGE), "regret_matching", 50,
                     initial_regrets={"P1": [1, 0, 0]})


@pytest.mark.parametrize("update", ["expected", "sampled"])
def test_regrets_going_infinite_stop_the_run_naming_the_table(game, monkeypatch, update):
    monkeypatch.setattr(rm_module, "check_payoff_scale", lambda *_: None)  # past the bound
    # Payoffs whose uniform play already has regrets: with HUGE's, the initial regret 1 this
    # test had is rounding residue beside payoffs of 1e308 (at most 2.3e-13 * 1e308 * t), so
    # both play uniformly and the regrets stay 0.
    lopsided = [[1e308, -1e308, 0], [-1e308, 1e308, 1e308], [0, 0, 0]]
    with pytest.raises(ValueError, match=r"regret_matching on rock_paper_scissors: the "
                                         r"cumulative regrets \(regret_sum\) became infinite or "
                                         r"NaN during iteration"):
        cfrviz.solve(game.with_payoffs(lopsided), "regret_matching", 50, update=update)


def test_regret_matching_uses_the_bounded_default_schedule(game):
    # Before: every one of 400,000 iterations was recorded: 86 MB of arrays, 920 MB of
    # memory at the peak, 30 s.  The schedule stays bounded however long the run ...
    assert len(driver.default_checkpoints(400_000, 6, timed=False)) < 210
    # ... and a run follows it once it is too long to record every iteration (6 numbers a
    # table, 4 tables a record): the smallest such run, a round number.
    iterations = (driver.EVERY_ITERATION_BUDGET // (4 * 6) // 10_000 + 1) * 10_000
    variant = game.with_payoffs(VARIANT)
    trace = cfrviz.solve(variant, "regret_matching", iterations, progress=False)
    assert trace.iterations.tolist() == driver.default_checkpoints(iterations, 6, timed=False)
    assert trace.iterations[:100].tolist() == list(range(1, 101)) and len(trace) < 210
    size = sum(getattr(trace, spec.name).nbytes for spec in RECORD_ARRAYS)
    assert size < 100_000
    final = cfrviz.solve(variant, "regret_matching", iterations, checkpoints=[iterations],
                         progress=False)
    assert trace.average_strategy[-1].tobytes() == final.average_strategy[-1].tobytes()
