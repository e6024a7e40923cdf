"""Depth-limited solving (cfrviz.solvers.depth_limited): the trunk, leaf values, the network."""

from __future__ import annotations

import os
import signal
from dataclasses import replace

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.engine import counterfactual_table
from cfrviz.solvers import depth_limited as dl
from cfrviz.solvers.subtrees import node_values


@pytest.fixture(scope="module")
def cut(leduc):
    return dl.trunk(leduc)


@pytest.fixture(scope="module")
def equilibrium(leduc):
    return cfrviz.solve(leduc, "cfr+", 2000, checkpoints=[2000]).average_policy()


def _fixed_trunk(cut, policy):
    """The trunk as a game of its own, each leaf history paying ``policy``'s value below it."""
    values = node_values(cut.game, policy.probabilities)
    utility = np.array(cut.tree.utility)
    for nodes in cut.leaf_nodes:
        utility[nodes] = values[cut.source[nodes]]
    return replace(cut.tree, utility=utility)


def test_leduc_trunk_is_round_one(cut, leduc):
    assert sorted(cut.leaf_states) == ["deal/c/c", "deal/c/r/c", "deal/c/r/r/c", "deal/r/c",
                                      "deal/r/r/c"]
    assert cut.tree.num_infosets == 18  # 3 cards x 6 round-one histories
    assert all(":" in k and "/" not in k for k in cut.tree.infoset_keys)
    for leaf, c in enumerate(cut.chance):
        assert cut.hands[leaf][0] == ("J", "Q", "K")
        assert c.sum() == pytest.approx(1.0)  # the deal, before any public card
        assert len(cut.leaf_nodes[leaf]) == 9  # one history per (rank, rank) deal
    assert np.all(leduc.history[int(cut.source[n])] == cut.tree.history[int(n)]
                  for n in range(cut.tree.num_nodes))


def test_kuhn_has_nothing_to_cut_at(kuhn):
    with pytest.raises(ValueError, match="no.*public chance|has none"):
        dl.trunk(kuhn)


def test_per_hand_values_give_the_same_counterfactual_values(cut, equilibrium):
    """The normalisation the trunk relies on: every leaf history of a hand paid the hand's
    normalised value gives each information set the counterfactual values the per-history
    payoffs give, for any strategy (here a random one)."""
    fixed = _fixed_trunk(cut, equilibrium)
    rng = np.random.default_rng(5)
    table = rng.dirichlet(np.ones(fixed.max_actions), size=fixed.num_infosets) * fixed.legal_mask
    table /= table.sum(axis=1, keepdims=True)
    reach = reach_probabilities(fixed, table)
    values = dl.continuation_values(cut, equilibrium)
    by_hand = np.array(fixed.utility)
    for leaf, nodes in enumerate(cut.leaf_nodes):
        v0, v1 = values(leaf, *cut.ranges(leaf, reach))
        a, b = cut.hand_of[leaf]
        by_hand[nodes, 0], by_hand[nodes, 1] = v0[a], v1[b]
    per_hand = replace(fixed, utility=by_hand)
    for who in (0, 1):
        want = counterfactual_table(fixed, table, who)["action_values"]
        got = counterfactual_table(per_hand, table, who)["action_values"]
        np.testing.assert_allclose(got, want, atol=1e-12)


def test_trunk_cfr_solves_the_fixed_trunk(cut, equilibrium):
    fixed = _fixed_trunk(cut, equilibrium)
    strategy = dl.solve_trunk(cut, dl.continuation_values(cut, equilibrium), 1000)
    # measured 1.5e-3 (simultaneous CFR+; the compiled alternating CFR+ reaches 8.6e-5)
    assert cfrviz.exploitability(fixed, cfrviz.Policy(fixed, strategy)) < 3e-3
    worse = dl.solve_trunk(cut, dl.continuation_values(cut, equilibrium), 20)
    assert cfrviz.exploitability(fixed, cfrviz.Policy(fixed, worse)) > 1e-2


def test_trunk_is_the_cfr_family_on_the_equivalent_game(cut):
    """Leaf values that ignore the ranges make the trunk a game of its own: solve_trunk's strategy
    is then cfrviz.solve's CFR+ with simultaneous updates on that game, bit for bit (the same
    compiled update and loop, reached through the registry on a tree whose leaves are plain
    terminals rather than through the leaf-value callback)."""
    worth = [0.75 * (leaf + 1) - 2.0 for leaf in range(len(cut.leaf_states))]

    def values(leaf, r0, r1):
        return np.full(len(r0), worth[leaf]), np.full(len(r1), -worth[leaf])

    utility = np.array(cut.tree.utility)
    for leaf, nodes in enumerate(cut.leaf_nodes):
        utility[nodes] = worth[leaf], -worth[leaf]
    game = replace(cut.tree, utility=utility)
    for n in (1, 2, 37):
        whole = cfrviz.solve(game, "cfr+", n, checkpoints=[n], alternating=False)
        np.testing.assert_array_equal(dl.solve_trunk(cut, values, n), whole.average_strategy[-1])


def test_trunk_with_continuation_values_is_cfr_plus_on_the_fixed_trunk(cut, equilibrium):
    """Exact continuation values (normalised per hand, so they read the ranges) against CFR+ on
    the trunk whose leaf histories pay the continuation's per-history values: the same
    counterfactual values up to rounding (1e-12, the test above), so the same strategies up to
    rounding carried through 300 iterations (measured 2.0e-15)."""
    fixed = _fixed_trunk(cut, equilibrium)
    whole = cfrviz.solve(fixed, "cfr+", 300, checkpoints=[300], alternating=False)
    strategy = dl.solve_trunk(cut, dl.continuation_values(cut, equilibrium), 300)
    np.testing.assert_allclose(strategy, whole.average_strategy[-1], atol=1e-10)


def test_an_interrupt_stops_the_trunk_between_iterations(cut, equilibrium):
    """Ctrl-C (a signal, taken when the iteration ends) or a KeyboardInterrupt raised by the leaf
    values (the iteration it cuts is dropped) ends solve_trunk with a KeyboardInterrupt."""
    exact = dl.continuation_values(cut, equilibrium)
    leaves = len(cut.leaf_states)
    handler = signal.getsignal(signal.SIGINT)

    def interrupted(at, how):
        calls = []

        def values(leaf, r0, r1):
            calls.append(leaf)
            if len(calls) == at:
                how()
            return exact(leaf, r0, r1)
        return values

    def signal_int():
        os.kill(os.getpid(), signal.SIGINT)

    def raise_it():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt, match="after iteration 1 of 50"):
        dl.solve_trunk(cut, interrupted(3, signal_int), 50)
    with pytest.raises(KeyboardInterrupt, match="after iteration 1 of 50"):
        dl.solve_trunk(cut, interrupted(leaves + 2, raise_it), 50)
    assert signal.getsignal(signal.SIGINT) is handler  # put back


def test_combine_keeps_the_continuation_below_the_leaves(cut, equilibrium, leduc):
    uniform = np.array(cfrviz.Policy.uniform(cut.tree).probabilities)
    policy = dl.combine(cut, uniform, equilibrium)
    trunk_rows = [leduc.infoset_index(k) for k in cut.tree.infoset_keys]
    rest = np.setdiff1d(np.arange(leduc.num_infosets), trunk_rows)
    np.testing.assert_array_equal(policy.probabilities[rest], equilibrium.probabilities[rest])
    np.testing.assert_array_equal(policy.probabilities[trunk_rows], uniform)


def test_solved_leaf_values_are_zero_sum_and_converge(cut):
    r0, r1 = np.array([0.2, 0.3, 0.5]), np.array([0.5, 0.5, 0.0])
    for leaf in range(len(cut.leaf_states)):
        v0, v1 = dl.solve_leaf(cut, leaf, r0, r1, 1000)
        c = cut.chance[leaf]
        # player 1's value of the leaf plus player 2's: 0 up to the smoothing of the ranges
        first = np.sum(r0 * (c * r1[None, :]).sum(axis=1) * v0)
        second = np.sum(r1 * (c * r0[:, None]).sum(axis=0) * v1)
        assert abs(first + second) < 0.01 * max(1.0, abs(first))
        coarse = dl.solve_leaf(cut, leaf, r0, r1, 100)
        assert np.abs(coarse[0] - v0).max() < 0.1


def test_value_network_learns(cut):
    net = dl.train_value_network(cut, samples=40, steps=300, iterations=50, test_samples=10)
    assert net.losses[-1] < 0.5 * net.losses[0]
    v0, v1 = net(0, np.array([0.2, 0.3, 0.5]), np.array([1.0, 0.0, 0.0]))
    assert v0.shape == (3,) and v1.shape == (3,)
    again = dl.train_value_network(cut, samples=40, steps=300, iterations=50, test_samples=10)
    np.testing.assert_array_equal(net.net.params, again.net.params)  # seeded


def test_bad_iterations(cut, equilibrium):
    with pytest.raises(ValueError, match="iterations"):
        dl.solve_trunk(cut, dl.continuation_values(cut, equilibrium), 0)


@pytest.mark.slow
def test_what_the_value_network_costs(cut, equilibrium, leduc):
    """Depth-limited Leduc, the trunk solved for 200 iterations, each leaf then re-solved for the
    trunk's ranges: exact range-dependent leaf values (measured 0.037), a value network (0.06 to
    0.59 over six networks: it costs something, and how much varies with the seed), and the
    equilibrium's fixed continuation values (0.24, range-independent: worse than exact)."""
    net = dl.train_value_network(cut, samples=600, steps=2000, seed=1)
    assert net.test_error < 0.45  # chips, mean absolute; measured 0.31 to 0.35 (600 samples)
    exact = dl.solve_trunk(cut, dl.exact_values(cut, 100), 200)
    learnt = dl.solve_trunk(cut, net, 200)
    fixed = dl.solve_trunk(cut, dl.continuation_values(cut, equilibrium), 200)
    e_exact, e_net, e_fixed = (cfrviz.exploitability(leduc, dl.resolved_continuation(
        cut, s, equilibrium)) for s in (exact, learnt, fixed))
    assert e_exact < 0.06
    assert e_exact < e_net < 0.7
    assert e_exact < e_fixed
