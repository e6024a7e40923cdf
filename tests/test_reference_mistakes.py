"""cfrviz/reference/mistakes.py: every named mistake is a swapped step of a reference
algorithm, so with no step swapped each is the reference (or cfrviz.solve) itself, and the
swaps do what their names say."""

import numpy as np
import pytest

import cfrviz
from cfrviz.core.regret import average_strategy, regret_matching
from cfrviz.reference import mistakes
from cfrviz.reference.cfr import SampledSteps, sampled_regret_matching, self_play_regret_matching
from cfrviz.reference.evaluation import tree_best_response, tree_expected_values


def _profile(tree, seed=1):
    rng = np.random.default_rng(seed)
    raw = np.where(tree.legal_mask, rng.normal(size=tree.legal_mask.shape), 0.0)
    return regret_matching(raw, tree.legal_mask)


@pytest.mark.parametrize("game", ["kuhn_poker", "leduc_poker"])
def test_best_response_without_a_swap_is_the_reference(game):
    tree = cfrviz.load_game(game)
    probs = _profile(tree)
    for player in (0, 1):
        right = tree_best_response(tree, probs, player)[0]
        assert mistakes.best_response(tree, probs, player) == pytest.approx(right, abs=1e-12)
        # a player who sees the cards does at least as well; following the policy earns its
        # expected value
        assert mistakes.best_response(tree, probs, player, per_node=True) >= right - 1e-12
        walk = mistakes.best_response_walk(tree, probs, player, play="policy")
        assert walk.value(0) == pytest.approx(tree_expected_values(tree, probs)[player],
                                              abs=1e-12)


def test_stepwise_with_the_predictive_step_is_cfrviz_pcfr_plus(kuhn):
    trace = cfrviz.solve(kuhn, "pcfr+", 20, checkpoints=list(range(1, 21)), progress=False)
    for t, sums in enumerate(mistakes.stepwise(kuhn, 20)):
        np.testing.assert_allclose(average_strategy(sums, kuhn.legal_mask),
                                   trace.average_strategy[t], atol=1e-12)


def test_the_sampled_trainer_with_expected_regrets_is_self_play():
    """Its steps are the trainer's: with the round's regrets taken against the whole mixes
    (the draws then change nothing), it is self-play regret matching."""
    payoffs = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    steps = SampledSteps(regrets=lambda A, x, y, _a, _b: (A @ y - x @ A @ y, x @ A @ y - x @ A))
    got = sampled_regret_matching(payoffs, 30, lambda _p, _s: 0, steps=steps)
    *_, last = self_play_regret_matching(payoffs, 30)
    for mine, want in zip(got, last["average_strategies"]):
        np.testing.assert_allclose(mine, want, atol=1e-12)


def test_each_sampled_trainer_mistake_changes_the_run():
    payoffs = np.array([[1.0, -1.0, 0.0], [-2.0, 1.0, 3.0]])
    rng = np.random.default_rng(0)
    uniforms = rng.random((40, 2))
    calls = [0, 0]

    def draw(player, strategy):
        k = calls[player] % 40
        calls[player] += 1
        return int(np.searchsorted(np.cumsum(strategy), uniforms[k, player], side="right"))

    right = sampled_regret_matching(payoffs, 40, draw)
    for name, steps in mistakes.SAMPLED_REGRET_MATCHING.items():
        calls[:] = [0, 0]
        got = sampled_regret_matching(payoffs, 40, draw, steps=steps)
        same = all(np.allclose(g, r) for g, r in zip(got, right))
        assert same == (name is None), name


@pytest.mark.parametrize("name", [n for n in mistakes.CHANCE_SAMPLING if n is not None])
def test_each_chance_sampling_mistake_changes_the_tables(name, kuhn):
    from cfrviz.reference.mccfr import chance_sampling_walk

    def tables(steps):
        regret_sum = np.zeros(kuhn.legal_mask.shape)
        strategy_sum = np.zeros(kuhn.legal_mask.shape)
        for player in (0, 1):
            strategy = regret_matching(regret_sum, kuhn.legal_mask)
            chance_sampling_walk(kuhn, 0, player, 1.0, 1.0, strategy, regret_sum, strategy_sum,
                                 lambda _node, _p: 2, steps)
        return regret_sum, strategy_sum

    right, wrong = tables(mistakes.CHANCE_SAMPLING[None]), tables(mistakes.CHANCE_SAMPLING[name])
    assert not all(np.allclose(a, b) for a, b in zip(right, wrong))
