"""The compiled engine against independent computations: best response, values, randomness."""

import numpy as np
import pytest
from _tolerance import FOLD, magnitude, tolerance, walk_roundings
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz import engine
from cfrviz.core.tree import CHANCE, build_tree
from cfrviz.reference import evaluation as treeeval


@pytest.fixture(scope="module", params=["kuhn_poker", "leduc_poker"])
def game(request):
    return cfrviz.load_game(request.param)


def random_profile(game, rng, sparsity=0.0):
    probs = rng.random(game.legal_mask.shape) * game.legal_mask
    probs[rng.random(probs.shape) < sparsity] = 0.0  # some actions never played
    probs[probs.sum(axis=1) == 0] = game.legal_mask[probs.sum(axis=1) == 0]
    return probs / probs.sum(axis=1, keepdims=True)


def test_plan_lists_subtrees_contiguously(game):
    plan = engine.plan(game)
    arrays = plan.arrays
    assert np.all(arrays.parent[1:] < np.arange(1, game.num_nodes))
    # Preorder: a node's subtree is the id range up to the next node at its depth or above.
    for h in range(game.num_nodes):
        kids = arrays.child_ids[arrays.child_ptr[h]:arrays.child_ptr[h + 1]]
        assert kids.tolist() == game.children[h].tolist()
    decision = arrays.slot >= 0
    assert np.all(arrays.slot[decision] // plan.width == game.infoset[arrays.parent[decision]])


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), sparsity=st.sampled_from([0.0, 0.3]))
def test_best_response_matches_the_memoised_recursion(game, seed, sparsity):
    probs = random_profile(game, np.random.default_rng(seed), sparsity)
    # One walk each, over numbers no larger than the largest payoff (tests/_tolerance.py).
    bound = tolerance(magnitude(game.utility), walk_roundings(game))
    for player in (0, 1):
        fast_value, best, totals = engine.tree_best_response(game, probs, player)
        slow_value, choice, action_values = treeeval.tree_best_response(game, probs, player)
        assert fast_value == pytest.approx(slow_value, abs=bound)
        for info, values in action_values.items():
            k = len(values)
            assert np.allclose(totals[info, :k], values, atol=bound, rtol=0)
            # Ties may break either way in floating point; the chosen action must be a best one.
            assert values[best[info]] >= values.max() - 2 * bound


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_expected_values_match_the_level_by_level_computation(game, seed):
    probs = random_profile(game, np.random.default_rng(seed))
    fast = engine.tree_expected_values(game, probs)
    slow = treeeval.tree_expected_values(game, probs)
    bound = tolerance(magnitude(game.utility), walk_roundings(game))
    assert fast == pytest.approx(slow, abs=bound)
    assert fast[0] + fast[1] == pytest.approx(0.0, abs=2 * bound)  # each value within a bound


def test_exact_known_values():
    kuhn = cfrviz.load_game("kuhn_poker")
    uniform = cfrviz.Policy.uniform(kuhn).probabilities
    exact = tolerance(magnitude(kuhn.utility), walk_roundings(kuhn))
    assert engine.tree_exploitability(kuhn, uniform) == pytest.approx(11 / 24, abs=exact)
    leduc = cfrviz.load_game("leduc_poker")
    uniform = cfrviz.Policy.uniform(leduc).probabilities
    assert engine.tree_exploitability(leduc, uniform) == pytest.approx(2.373611, abs=5e-7)


def test_splitmix_draws_are_uniform_and_resumable():
    state = np.array([12345], dtype=np.uint64)
    draws = engine.uniforms(state.copy(), 100_000)
    assert draws.min() >= 0 and draws.max() < 1
    assert abs(draws.mean() - 0.5) < 0.005 and abs(draws.var() - 1 / 12) < 0.002
    counts = np.histogram(draws, bins=10, range=(0, 1))[0]
    assert counts.min() > 9_500 and counts.max() < 10_500
    # Drawing in two halves continues the same stream.
    split = state.copy()
    halves = np.concatenate([engine.uniforms(split, 40_000), engine.uniforms(split, 60_000)])
    assert np.array_equal(halves, draws)


class _ForgetfulGame:
    """Player 1 moves twice but forgets the first move: imperfect recall."""

    name = "forgetful"

    def initial_state(self):
        return _Forgetful("")


class _Forgetful:
    def __init__(self, moves):
        self.moves = moves

    def is_terminal(self):
        return len(self.moves) == 2

    def current_player(self):
        return 0

    def legal_actions(self):
        return ("l", "r")

    def chance_outcomes(self):
        return ()

    def child(self, action):
        return _Forgetful(self.moves + action)

    def returns(self):
        return (1.0, -1.0) if self.moves in ("ll", "rr") else (-1.0, 1.0)

    def infoset_key(self):
        return "first" if not self.moves else "second"

    def history(self):
        return self.moves


def test_imperfect_recall_is_refused_by_best_response():
    tree = build_tree(_ForgetfulGame())
    uniform = cfrviz.Policy.uniform(tree).probabilities
    with pytest.raises(ValueError, match="perfect recall.*'second'"):
        engine.tree_best_response(tree, uniform, 0)
    assert tree.player[0] != CHANCE


def test_counterfactual_table_gives_the_regrets_cfr_adds():
    """Player 1's counterfactual regrets of one iteration (played profile) are the trace's."""
    from cfrviz.core.regret import regret_matching

    leduc = cfrviz.load_game("leduc_poker")
    trace = cfrviz.solve(leduc, "cfr", 12)
    k = 10
    mine = leduc.infoset_player == 0
    table = engine.counterfactual_table(leduc, trace.current_strategy[k], 0)
    regret = (table["action_values"] - table["value"][:, None]) * leduc.legal_mask
    # two compiled walks, summed in another order (tests/_tolerance.py)
    bound = tolerance(magnitude(leduc.utility), walk_roundings(leduc) + FOLD)
    assert np.allclose(regret[mine], trace.instantaneous_regret[k][mine], atol=bound, rtol=0)
    # Player 2 (alternating updates) faces player 1's freshly updated strategy.
    profile = trace.current_strategy[k].copy()
    profile[mine] = regret_matching(trace.cumulative_regret[k], leduc.legal_mask)[mine]
    table = engine.counterfactual_table(leduc, profile, 1)
    regret = (table["action_values"] - table["value"][:, None]) * leduc.legal_mask
    assert np.allclose(regret[~mine], trace.instantaneous_regret[k][~mine], atol=bound, rtol=0)
    assert table["opponent_reach"][~mine].max() > 0 and np.all(table["opponent_reach"][mine] == 0)


def test_own_reach_is_the_players_probability_of_playing_into_the_set():
    kuhn = cfrviz.load_game("kuhn_poker")
    policy = cfrviz.Policy.from_dict(kuhn, {"J": {"p": 0.25, "b": 0.75}, "K": {"p": 1.0}})
    table = engine.counterfactual_table(kuhn, policy.probabilities, 0)
    assert table["own_reach"][kuhn.infoset_index("Jpb")] == pytest.approx(0.25)
    assert table["own_reach"][kuhn.infoset_index("Kpb")] == pytest.approx(1.0)
    assert table["own_reach"][kuhn.infoset_index("J")] == 1.0
