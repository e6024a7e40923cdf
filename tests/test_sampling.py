"""What Monte Carlo CFR costs per iteration and what its first regrets estimate."""

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.sampling import first_iteration_regrets, nodes_per_iteration


def test_nodes_per_iteration(kuhn):
    per = nodes_per_iteration(kuhn, iterations=50)
    assert per["cfr"] == 2 * kuhn.num_nodes
    assert per["chance_sampling"] == 20  # one deal's 9 nodes plus the root, for each player
    assert per["outcome_sampling"] < per["external_sampling"] < per["chance_sampling"] < per["cfr"]


@pytest.mark.parametrize("algorithm", ["chance_sampling", "external_sampling", "outcome_sampling"])
def test_first_iteration_regrets_are_unbiased(kuhn, algorithm):
    est = first_iteration_regrets(kuhn, algorithm, runs=1500)
    assert est.keys == ("J", "Jpb", "Q", "Qpb", "K", "Kpb")
    assert est.samples.shape == (1500, 6, 2)
    assert est.within(5)
    assert np.any(est.samples.std(axis=0) > 0)  # single runs differ


def test_bad_input(kuhn):
    with pytest.raises(ValueError):
        first_iteration_regrets(kuhn, "cfr")
    with pytest.raises(ValueError):
        first_iteration_regrets(kuhn, "external_sampling", runs=1)
    with pytest.raises(ValueError):
        first_iteration_regrets(kuhn, "external_sampling", player=1)
    with pytest.raises(ValueError):
        nodes_per_iteration(kuhn, iterations=0)


# --- what one walk visits, and what it adds on average ---------------------------------------

from cfrviz import engine  # noqa: E402
from cfrviz.analysis.sampling import (  # noqa: E402
    AVERAGING,
    WALKED,
    averaging_comparison,
    averaging_weights,
    counterfactual_regrets,
    executions,
    expected_update,
    external_sampling_variant,
    path_probability,
    sampled_terminals,
    sampled_walks,
    visited_nodes,
)
from cfrviz.core.regret import regret_matching  # noqa: E402
from cfrviz.core.tree import CHANCE, TERMINAL  # noqa: E402
from cfrviz.reference.mccfr import external_sampling, stream_draws  # noqa: E402

KERNELS = {"chance_sampling": (engine.run_chance_sampling, ()),
           "external_sampling": (engine.run_external_sampling, ()),
           "outcome_sampling": (engine.run_outcome_sampling, (0.6,))}


@pytest.mark.parametrize("algorithm", list(KERNELS))
@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_the_visited_nodes_are_the_nodes_the_kernel_touches(name, algorithm):
    game = cfrviz.load_game(name)
    iterations, seed = 25, 4
    walks = sampled_walks(game, algorithm, iterations, seed=seed)
    kernel, extra = KERNELS[algorithm]
    tables = engine.Tables(*(np.zeros(game.legal_mask.shape) for _ in range(4)))
    rng = engine.seed_state(np.random.default_rng(seed))
    arrays = engine.plan(game).arrays
    for t, (first, second) in enumerate(walks, start=1):
        touched = kernel(arrays, tables, t, t, rng, *extra)
        assert len(first.nodes) + len(second.nodes) == touched, f"iteration {t}"
        for walk in (first, second):
            assert len(set(walk.nodes.tolist())) == len(walk.nodes)
            assert 0 in walk.nodes
            # every node entered hangs below another node entered (or is the root)
            parents = game.parent[walk.nodes[walk.nodes != 0]]
            assert np.isin(parents, walk.nodes).all()
    # ... and over the whole run, what cfrviz.solve reports at the same seed.
    run = cfrviz.solve(game, algorithm, iterations, seed=seed, checkpoints=[], progress=False)
    assert sum(len(a.nodes) + len(b.nodes) for a, b in walks) == run.extras["nodes_touched"][-1]


def test_what_each_walk_draws(kuhn):
    players = kuhn.player
    for algorithm in WALKED:
        for first, second in sampled_walks(kuhn, algorithm, 10, seed=1):
            for walk in (first, second):
                kinds = {int(players[n]) for n in walk.drawn}
                expected = {"cfr": set(), "chance_sampling": {CHANCE},
                            "external_sampling": {CHANCE, 1 - walk.player},
                            "outcome_sampling": {CHANCE, 0, 1}}[algorithm]
                assert kinds == expected, (algorithm, walk)
                if algorithm == "outcome_sampling":  # one path: one leaf
                    assert np.sum(players[walk.nodes] == TERMINAL) == 1
                for node, (index, probability) in walk.drawn.items():
                    assert 0 <= index < len(kuhn.children[node]) and 0 < probability <= 1
    cfr = sampled_walks(kuhn, "cfr", 3)
    assert all(len(w.nodes) == kuhn.num_nodes for pair in cfr for w in pair)
    # Other seeds draw other walks.
    a, b = (sampled_walks(kuhn, "external_sampling", 5, seed=s) for s in (0, 1))
    assert any(x.drawn != y.drawn for pa, pb in zip(a, b) for x, y in zip(pa, pb))


def test_visited_nodes_follows_draws_and_walks_the_rest(kuhn):
    assert visited_nodes(kuhn, {}).tolist() == list(range(kuhn.num_nodes))
    deal = 3
    nodes = visited_nodes(kuhn, {0: deal})
    child = int(kuhn.children[0][deal])
    assert nodes.tolist() == [0, *range(child, child + 9)]  # the root and one deal's 9 nodes


def test_executions_enumerate_every_draw_sequence_once():
    def run(draw):
        first = draw(0, [0.5, 0.5])
        return (first, draw(1, [0.2, 0.0, 0.8]) if first == 1 else None)

    found = dict((result, p) for p, result in executions(run))
    assert found == pytest.approx({(0, None): 0.5, (1, 0): 0.1, (1, 2): 0.4})


@pytest.mark.parametrize("algorithm", ["chance_sampling", "external_sampling",
                                       "outcome_sampling"])
def test_the_samplers_are_unbiased_exactly(kuhn, algorithm):
    # Strategies with zeros in them (after 50 iterations), both players.
    regrets = list(external_sampling(kuhn, 50, 3))[-1]["cumulative_regret"]
    strategy = regret_matching(regrets, kuhn.legal_mask)
    assert np.any(strategy[kuhn.legal_mask] == 0)
    for player in (0, 1):
        exact = counterfactual_regrets(kuhn, player, regrets)
        expected, _ = expected_update(kuhn, algorithm, player, regrets)
        np.testing.assert_allclose(expected, exact, atol=1e-12)
        assert np.abs(exact).max() > 0.05


def test_outcome_sampling_without_exploration_is_biased(kuhn):
    regrets = list(external_sampling(kuhn, 50, 3))[-1]["cumulative_regret"]
    exact = counterfactual_regrets(kuhn, 0, regrets)
    greedy, _ = expected_update(kuhn, "outcome_sampling", 0, regrets, epsilon=0.0)
    assert np.abs(greedy - exact).max() > 0.1


def test_external_sampling_needs_no_weight(kuhn):
    """q(z), the probability of the walk reaching z, is chance's times the opponent's reach;
    dividing by it (or multiplying by the reach) makes the expected regrets wrong."""
    regrets = list(external_sampling(kuhn, 5, 0))[-1]["cumulative_regret"]
    for seed in range(6):
        walk = sampled_terminals(kuhn, player=seed % 2, regret_sum=regrets, seed=seed)
        assert len(walk.histories) >= 2
        np.testing.assert_allclose(walk.sampled, walk.chance * walk.opponent, rtol=1e-12)
    exact = counterfactual_regrets(kuhn, 0, regrets)
    for weight in ("one-over-q", "reach"):
        def variant(tree, player, r, s, draw, weight=weight):
            external_sampling_variant(tree, 0, player, r, [s], draw, regret_weight=weight)
        wrong, _ = expected_update(kuhn, "external_sampling", 0, regrets, walk=variant)
        assert np.abs(wrong - exact).max() > 0.05, weight


def test_path_probability_multiplies_the_draws_on_the_path(kuhn):
    leaf = int(np.flatnonzero(kuhn.player == TERMINAL)[0])
    path, node = [], leaf
    while kuhn.parent[node] >= 0:
        path.append((int(kuhn.parent[node]), int(kuhn.action[node])))
        node = int(kuhn.parent[node])
    drawn = {parent: (index, 0.5) for parent, index in path[:2]}
    assert path_probability(kuhn, drawn, leaf) == 0.25
    assert path_probability(kuhn, {}, leaf) == 1.0


def test_the_right_variant_is_the_reference(kuhn, leduc):
    for game, iterations in ((kuhn, 60), (leduc, 5)):
        draw = stream_draws(9)
        regrets, sums = np.zeros(game.legal_mask.shape), [np.zeros(game.legal_mask.shape)]
        for t, want in enumerate(external_sampling(game, iterations, 9)):
            for player in (0, 1):
                external_sampling_variant(game, 0, player, regrets, sums, draw)
            assert np.array_equal(regrets, want["cumulative_regret"]), t
            assert np.array_equal(sums[0], want["strategy_sum"]), t


def test_only_stochastically_weighted_averaging_weights_by_own_reach(kuhn):
    regrets = cfrviz.solve(kuhn, "external_sampling", 1000, seed=0, checkpoints=[1000],
                           progress=False).cumulative_regret[-1]
    own_reach, weights = averaging_weights(kuhn, regrets)
    rules = list(AVERAGING)
    reached = own_reach > 0
    assert 0 < own_reach[reached].min() < 0.99  # some set with a mixed own reach
    ratio = weights[:, reached] / own_reach[reached]
    # The right rule: chance's probability of the card, 1/3, at every set.
    np.testing.assert_allclose(ratio[rules.index("opponent")], 1 / 3, rtol=1e-12)
    for rule in ("opponent-reach", "own", "own-reach"):
        assert np.abs(ratio[rules.index(rule)] - 1 / 3).max() > 0.05, rule


def test_averaging_comparison_shares_the_run(kuhn):
    result = averaging_comparison(kuhn, 300, seed=2)
    assert result.rules == (*AVERAGING, "none")
    assert result.averages.shape == (5, kuhn.num_infosets, 2)
    np.testing.assert_allclose(result.averages.sum(axis=2), 1.0)
    # The right rule is the solver's own average at the same seed.
    run = cfrviz.solve(kuhn, "external_sampling", 300, seed=2, checkpoints=[300],
                       progress=False)
    np.testing.assert_allclose(result.averages[0], run.average_strategy[-1], atol=1e-12)
    np.testing.assert_allclose(result.averages[-1], regret_matching(run.cumulative_regret[-1],
                                                                    kuhn.legal_mask))
    assert result.exploitability[-1] > 2 * result.exploitability[0]


def test_bad_walk_arguments(kuhn):
    with pytest.raises(ValueError, match="algorithm must be one of"):
        sampled_walks(kuhn, "cfr+", 3)
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="iterations"):
            sampled_walks(kuhn, "external_sampling", bad)
    with pytest.raises(ValueError, match="seed"):
        sampled_walks(kuhn, "external_sampling", 3, seed=-1)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        expected_update(kuhn, "cfr", 0)
    with pytest.raises(ValueError, match="averaging rules"):
        averaging_weights(kuhn, rules=("everywhere",))
    with pytest.raises(ValueError, match="averaging rules"):
        averaging_comparison(kuhn, 10, rules=("everywhere",))
