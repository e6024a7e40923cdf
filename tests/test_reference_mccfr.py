"""The compiled Monte Carlo CFR kernels against the readable recursive references, draw for draw."""

import numpy as np
import pytest
from _tolerance import FOLD, assert_iteration_close, magnitude, walk_roundings
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz import engine
from cfrviz.reference import chance_sampling, external_sampling, outcome_sampling
from cfrviz.reference.mccfr import SplitMix64, sample

ITERATIONS = 300
SEEDS = [0, 1, 2]
# name: (compiled kernel, readable reference, extra arguments of both)
SAMPLERS = {
    "chance_sampling": (engine.run_chance_sampling, chance_sampling, ()),
    "external_sampling": (engine.run_external_sampling, external_sampling, ()),
    "outcome_sampling": (engine.run_outcome_sampling, outcome_sampling, (0.6,)),
}


@pytest.fixture(scope="module", params=["kuhn_poker", "leduc_poker"])
def game(request):
    return cfrviz.load_game(request.param)


def empty_tables(game):
    return engine.Tables(*(np.zeros(game.legal_mask.shape) for _ in range(4)))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", SAMPLERS)
def test_kernel_matches_the_reference_after_every_iteration(game, name, seed):
    """Each compiled iteration, run from the reference's state at the same point of the random
    stream, against the reference's next state, to the bound of tests/_tolerance.py (which says
    why one iteration at a time)."""
    kernel, reference, extra = SAMPLERS[name]
    state = engine.seed_state(np.random.default_rng(seed))
    arrays = engine.plan(game).arrays
    roundings = walk_roundings(game) + FOLD
    stepwise, rng = empty_tables(game), state.copy()
    # The reference's state: its sums and (as the one-step runs show) its point in the stream.
    regret_sum, strategy_sum = np.zeros(game.legal_mask.shape), np.zeros(game.legal_mask.shape)
    stream = state.copy()
    for t, slow in enumerate(reference(game, ITERATIONS, int(state[0]), *extra), start=1):
        one = empty_tables(game)
        one.regret_sum[:], one.strategy_sum[:] = regret_sum, strategy_sum
        kernel(arrays, one, t, t, stream, *extra)
        added = slow["strategy_sum"] - strategy_sum
        regrets = magnitude(game.utility, regret_sum, slow["cumulative_regret"], slow["regret"])
        sums = magnitude(1.0, strategy_sum, slow["strategy_sum"], added)
        assert_iteration_close(one, slow, regrets=regrets, sums=sums, roundings=roundings,
                               iteration=t)
        regret_sum, strategy_sum = slow["cumulative_regret"], slow["strategy_sum"]
        kernel(arrays, stepwise, t, t, rng, *extra)  # the compiled run on its own
    assert np.array_equal(rng, stream)  # it drew the reference's numbers, as many of them
    # The run really moved: both players' regrets grew.
    owner = game.infoset_player
    assert np.abs(stepwise.regret_sum[owner == 0]).max() > 1
    assert np.abs(stepwise.regret_sum[owner == 1]).max() > 1
    # One compiled call over all the iterations draws the same numbers and computes the same sums.
    whole, rng_whole = empty_tables(game), state.copy()
    kernel(arrays, whole, 1, ITERATIONS, rng_whole, *extra)
    assert np.array_equal(whole.regret_sum, stepwise.regret_sum)
    assert np.array_equal(whole.strategy_sum, stepwise.strategy_sum)
    assert np.array_equal(rng_whole, rng)


def test_different_seeds_give_different_runs(game):
    runs = [list(external_sampling(game, 20, seed))[-1]["cumulative_regret"] for seed in (1, 2)]
    assert not np.array_equal(*runs)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1))
def test_python_splitmix_draws_what_the_kernels_draw(seed):
    stream = SplitMix64(seed)
    compiled = engine.uniforms(np.array([seed], dtype=np.uint64), 200)
    assert [stream.uniform() for _ in range(200)] == compiled.tolist()


def test_a_generator_seeds_the_stream_as_the_solvers_do():
    state = engine.seed_state(np.random.default_rng(11))
    stream = SplitMix64.from_generator(np.random.default_rng(11))
    assert stream.state == int(state[0])


def test_sample_walks_the_running_total():
    assert sample([0.25, 0.5, 0.25], 0.0) == 0
    assert sample([0.25, 0.5, 0.25], 0.25) == 1
    assert sample([0.25, 0.5, 0.25], 0.999) == 2
    # A total rounded below u falls back on the last action that can be drawn, never a zero.
    assert sample([0.5, 0.5, 0.0], 1.0) == 1


@pytest.mark.parametrize("name", ["chance_sampling", "external_sampling", "outcome_sampling"])
def test_walks_draw_through_the_draw_function(game, name):
    """Every random choice goes through draw(node, probabilities): at chance nodes with chance's
    probabilities, and only at the nodes the sampler samples."""
    from cfrviz.reference.mccfr import sampled_walk, stream_draws

    regret_sum = list(SAMPLERS[name][1](game, 3, 5, *SAMPLERS[name][2]))[-1]["cumulative_regret"]
    stream = stream_draws(7)
    for player in (0, 1):
        calls = []

        def draw(node, probabilities, calls=calls):
            calls.append((node, np.array(probabilities)))
            return stream(node, probabilities)

        sampled_walk(game, name, player, regret_sum.copy(), np.zeros(regret_sum.shape), draw)
        assert calls
        kinds = {int(game.player[node]) for node, _ in calls}
        assert kinds == {"chance_sampling": {-1}, "external_sampling": {-1, 1 - player},
                         "outcome_sampling": {-1, 0, 1}}[name]
        for node, p in calls:
            assert len(p) == len(game.children[node]) and p.sum() == pytest.approx(1.0)
            if game.player[node] == -1:
                assert np.array_equal(p, game.chance_prob[game.children[node]])


def test_sampled_walk_names_the_samplers(game):
    from cfrviz.reference.mccfr import sampled_walk, stream_draws

    tables = np.zeros(game.legal_mask.shape)
    with pytest.raises(ValueError, match="chance_sampling, external_sampling, outcome_sampling"):
        sampled_walk(game, "cfr", 0, tables, tables.copy(), stream_draws(1))
