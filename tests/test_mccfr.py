"""Monte Carlo CFR: unbiased regret estimates, stated convergence on Kuhn poker, determinism."""

import numpy as np
import pytest
from _tolerance import FOLD, magnitude, tolerance, walk_roundings

import cfrviz
from cfrviz.reference import vanilla_cfr

SAMPLERS = ["chance_sampling", "external_sampling", "outcome_sampling"]
# Exploitability each sampler reaches on Kuhn poker in 20,000 iterations with seed 0
# (measured: chance 0.0021, external 0.0048, outcome 0.0165).
THRESHOLDS = {"chance_sampling": 0.005, "external_sampling": 0.01, "outcome_sampling": 0.03}


@pytest.mark.parametrize("algorithm", SAMPLERS)
def test_reaches_its_stated_threshold_on_kuhn(kuhn, algorithm):
    trace = cfrviz.solve(kuhn, algorithm, 20_000, seed=0, checkpoints=[100, 20_000])
    assert trace.exploitability[-1] < THRESHOLDS[algorithm]
    assert trace.exploitability[-1] < trace.exploitability[0]
    value = cfrviz.expected_values(kuhn, trace.average_policy())[0]
    assert abs(value + 1 / 18) <= 2 * trace.exploitability[-1]


@pytest.mark.parametrize("algorithm", SAMPLERS)
def test_first_iteration_regrets_are_unbiased(kuhn, algorithm):
    """Averaged over seeds, player 1's sampled regrets at iteration 1 equal CFR's exact ones."""
    exact = next(iter(vanilla_cfr(kuhn, 1)))["regret"]
    mine = kuhn.infoset_player == 0
    samples = np.array([cfrviz.solve(kuhn, algorithm, 1, seed=s, checkpoints=[])
                        .instantaneous_regret[0][mine] for s in range(3000)])
    mean = samples.mean(axis=0)
    error = samples.std(axis=0) / np.sqrt(len(samples))
    # Where every seed gives the same regret (no spread), only rounding separates the mean from
    # the exact value: a walk and its fold each side, and log2(3000) < 12 for the pairwise mean.
    rounding = tolerance(magnitude(kuhn.utility), walk_roundings(kuhn) + FOLD + 12)
    assert np.all(np.abs(mean - exact[mine]) <= 5 * error + rounding)
    assert np.any(samples.std(axis=0) > 0)  # it really sampled


@pytest.mark.parametrize("algorithm", SAMPLERS)
def test_seeded_and_deterministic(kuhn, algorithm):
    a = cfrviz.solve(kuhn, algorithm, 500, seed=7, checkpoints=[])
    b = cfrviz.solve(kuhn, algorithm, 500, seed=7, checkpoints=[])
    c = cfrviz.solve(kuhn, algorithm, 500, seed=8, checkpoints=[])
    assert np.array_equal(a.cumulative_regret, b.cumulative_regret)
    assert not np.array_equal(a.cumulative_regret, c.cumulative_regret)
    # How the run is cut into checkpoints does not change what it computes.
    d = cfrviz.solve(kuhn, algorithm, 500, seed=7, checkpoints=list(range(1, 501, 7)))
    assert np.array_equal(a.cumulative_regret[-1], d.cumulative_regret[-1])
    assert np.array_equal(a.average_strategy[-1], d.average_strategy[-1])


def test_sampling_touches_fewer_nodes(kuhn):
    full = cfrviz.solve(kuhn, "cfr", 100, checkpoints=[])
    per_iteration = {a: cfrviz.solve(kuhn, a, 100, checkpoints=[]).extras["nodes_touched"][-1]
                     / 100 for a in SAMPLERS}
    # chance sampling walks one deal's subtree (9 nodes) plus the root, per player
    assert per_iteration["chance_sampling"] == 20
    assert (per_iteration["outcome_sampling"] < per_iteration["external_sampling"]
            < per_iteration["chance_sampling"] < full.extras["nodes_touched"][-1] / 100)


def test_leduc_external_sampling_improves():
    leduc = cfrviz.load_game("leduc_poker")
    trace = cfrviz.solve(leduc, "external_sampling", 20_000, seed=0, checkpoints=[100, 20_000])
    assert trace.exploitability[-1] < 0.2 < trace.exploitability[0]
