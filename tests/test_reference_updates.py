"""Vanilla CFR with a pluggable regret update, and what the wrong updates do to training."""

import numpy as np
import pytest

import cfrviz
from cfrviz.reference import counterfactual_regret, vanilla_cfr
from cfrviz.reference.updates import REGRET_UPDATES, update_comparison


def right(reach, player, action_values, value):
    return reach[2] * reach[1 - player] * (action_values - value)


def test_the_default_update_is_counterfactual_regret(kuhn):
    assert REGRET_UPDATES["cfr"] is counterfactual_regret
    for alternating in (True, False):
        pairs = zip(vanilla_cfr(kuhn, 20, alternating=alternating, update=right),
                    vanilla_cfr(kuhn, 20, alternating=alternating))
        for mine, ref in pairs:
            for key in ("strategy", "cumulative_regret", "regret", "strategy_sum"):
                assert np.allclose(mine[key], ref[key], rtol=1e-12, atol=1e-15), key


def test_a_written_out_update_is_the_reference_on_leduc():
    leduc = cfrviz.load_game("leduc_poker")
    for mine, ref in zip(vanilla_cfr(leduc, 2, update=right), vanilla_cfr(leduc, 2)):
        assert np.allclose(mine["cumulative_regret"], ref["cumulative_regret"], atol=1e-12)


def test_leaving_out_chance_does_not_change_kuhn_strategies(kuhn):
    # Every Kuhn deal has probability 1/6, so the no-chance update only rescales regrets
    # (lesson 03's checker says so).
    for a, b in zip(vanilla_cfr(kuhn, 30, update=REGRET_UPDATES["no-chance"]),
                    vanilla_cfr(kuhn, 30)):
        assert np.allclose(a["strategy"], b["strategy"])
        assert np.allclose(a["cumulative_regret"], 6 * b["cumulative_regret"])


def test_own_reach_stalls_while_cfr_converges(kuhn):
    result = update_comparison(kuhn, 300, names=("cfr", "own-reach"), points=6)
    assert result["iterations"][-1] == 300 and len(result["cfr"]) == len(result["iterations"])
    assert result["cfr"][-1] < 0.01 < 0.1 < result["own-reach"][-1]


def test_update_comparison_matches_the_engine(kuhn):
    result = update_comparison(kuhn, 50, names=("cfr",), points=4)
    trace = cfrviz.solve(kuhn, "cfr", 50, checkpoints=result["iterations"].tolist(),
                         progress=False)
    assert np.allclose(result["cfr"], trace.exploitability, rtol=1e-9)


def test_update_comparison_refuses_bad_input(kuhn):
    with pytest.raises(ValueError, match="unknown update"):
        update_comparison(kuhn, 10, names=("own reach",))
    with pytest.raises(ValueError, match="at least 1"):
        update_comparison(kuhn, 0)
