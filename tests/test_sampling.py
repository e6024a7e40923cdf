"""What Monte Carlo CFR costs per iteration and what its first regrets estimate."""

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.sampling import first_iteration_regrets, nodes_per_iteration


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


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
