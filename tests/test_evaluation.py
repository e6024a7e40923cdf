import numpy as np
import pytest
from _tolerance import magnitude, tolerance, walk_roundings

import cfrviz
from cfrviz.analysis.evaluation import check_policy, reach_probabilities
from cfrviz.reference import evaluation as oracle

VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


@pytest.fixture
def game():
    return cfrviz.load_game("rock_paper_scissors")


def profile(game, p1, p2):
    return cfrviz.Policy.from_dict(game, {"P1": dict(zip("RPS", p1)), "P2": dict(zip("RPS", p2))})


def test_uniform_is_unexploitable(game):
    assert cfrviz.exploitability(game, cfrviz.Policy.uniform(game)) == 0
    assert cfrviz.expected_values(game, cfrviz.Policy.uniform(game)) == (0.0, -0.0)


def test_always_rock_against_always_rock(game):
    rock = profile(game, [1, 0, 0], [1, 0, 0])
    # Each best response is paper, winning 1: NashConv 2, exploitability 1.
    assert cfrviz.nash_conv(game, rock) == 2
    assert cfrviz.exploitability(game, rock) == 1


def test_uniform_against_a_habit(game):
    policy = profile(game, [1 / 3] * 3, [0.4, 0.3, 0.3])
    br = cfrviz.best_response(game, policy, 0)
    assert br.action_values == pytest.approx({"R": 0.0, "P": 0.1, "S": -0.1})
    assert br.value == pytest.approx(0.1)
    assert br.policy["P1"] == {"R": 0.0, "P": 1.0, "S": 0.0}
    assert br.policy["P2"] == pytest.approx({"R": 0.4, "P": 0.3, "S": 0.3})
    assert cfrviz.exploitability(game, policy) == pytest.approx(0.05, abs=1e-15)


def test_expected_values_of_known_profile():
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    # P1 always scissors, P2 always paper: scissors cut paper for 2.
    policy = profile(game, [0, 0, 1], [0, 1, 0])
    assert cfrviz.expected_values(game, policy) == (2.0, -2.0)
    # Against the equilibrium mix every action of P1 earns exactly 0.
    eq = profile(game, [0.4, 0.4, 0.2], [0.4, 0.4, 0.2])
    assert cfrviz.best_response(game, eq, 0).action_values == pytest.approx(
        {"R": 0, "P": 0, "S": 0}, abs=1e-15)
    assert cfrviz.exploitability(game, eq) == pytest.approx(0, abs=1e-15)


def test_exploitability_matches_brute_force_over_pure_deviations(game):
    rng = np.random.default_rng(7)
    payoffs = rng.integers(-3, 4, size=(3, 3)).astype(float)
    game = game.with_payoffs(payoffs)
    for _ in range(20):
        x, y = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(3))
        policy = profile(game, x, y)
        gain1 = max(payoffs[i] @ y for i in range(3)) - x @ payoffs @ y
        gain2 = max(-(x @ payoffs[:, j]) for j in range(3)) + x @ payoffs @ y
        # each side: dot products of three terms (5 roundings) nested twice, per player,
        # then the gains summed and halved (tests/_tolerance.py)
        bound = tolerance(magnitude(payoffs), 2 * (2 * 5) + 2)
        assert cfrviz.exploitability(game, policy) == pytest.approx((gain1 + gain2) / 2,
                                                                     abs=bound)


def test_errors(game):
    with pytest.raises(ValueError, match="expected a cfrviz Policy"):
        cfrviz.exploitability(game, {"P1": {"R": 1}})
    other = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    # Same information sets and actions: a policy carries over between payoff variants.
    assert cfrviz.exploitability(other, cfrviz.Policy.uniform(game)) > 0
    with pytest.raises(ValueError, match="player must be 0"):
        cfrviz.best_response(game, cfrviz.Policy.uniform(game), 2)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_reach_probabilities_match_the_readable_level_by_level_oracle(name):
    tree = cfrviz.load_game(name)
    rng = np.random.default_rng(3)
    for sparsity in (0.0, 0.4):
        probs = rng.random(tree.legal_mask.shape) * tree.legal_mask
        probs[rng.random(probs.shape) < sparsity] = 0.0  # some actions never played
        empty = probs.sum(axis=1) == 0
        probs[empty] = tree.legal_mask[empty]
        policy = cfrviz.Policy(tree, probs / probs.sum(axis=1, keepdims=True))
        fast = reach_probabilities(tree, policy)
        # The same products in the same order: equal to the last bit.
        np.testing.assert_array_equal(fast, oracle.reach_probabilities(tree, policy.probabilities))
        np.testing.assert_array_equal(fast, reach_probabilities(tree, policy.probabilities))
        leaves = tree.player == -2
        # a sum over the tree of products along its paths: a walk's roundings, of numbers <= 1
        assert fast[:, leaves].prod(axis=0).sum() == pytest.approx(
            1.0, abs=tolerance(1.0, walk_roundings(tree)))


def test_reach_probabilities_of_a_matrix_game_use_its_tree(game):
    policy = profile(game, [0.5, 0.25, 0.25], [0.2, 0.3, 0.5])
    reach = reach_probabilities(game, policy)
    assert reach.shape == (3, game.tree.num_nodes)
    leaves = game.tree.player == -2
    np.testing.assert_allclose(reach[:, leaves].prod(axis=0).sum(), 1.0, rtol=0,
                               atol=tolerance(1.0, walk_roundings(game.tree)))


def test_reach_probabilities_refuse_bad_input(game):
    kuhn = cfrviz.load_game("kuhn_poker")
    with pytest.raises(ValueError, match="this policy was made for rock_paper_scissors, not kuhn"):
        reach_probabilities(kuhn, cfrviz.Policy.uniform(game))
    with pytest.raises(ValueError, match=r"needs an array of shape \(12, 2\)"):
        reach_probabilities(kuhn, np.ones((3, 2)) / 2)
    with pytest.raises(ValueError, match="sum to 2, not 1"):
        reach_probabilities(kuhn, np.ones((12, 2)))
    with pytest.raises(ValueError, match="reach_probabilities needs a game from cfrviz.load_game"):
        reach_probabilities("kuhn_poker", cfrviz.Policy.uniform(kuhn))


def test_check_policy_names_the_argument(game):
    check_policy(game, cfrviz.Policy.uniform(game))
    with pytest.raises(ValueError, match="^policy_b: expected a cfrviz Policy"):
        check_policy(game, "uniform", "policy_b")
    kuhn = cfrviz.load_game("kuhn_poker")
    with pytest.raises(ValueError, match="^the bot: this policy was made for kuhn_poker, not rock"):
        check_policy(game, cfrviz.Policy.uniform(kuhn), "the bot")
