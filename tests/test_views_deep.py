"""Deep CFR's advantage-against-regret view and the recorded-runs chart."""

import json
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.views.deep import advantage_regret_figure, advantage_targets, recorded_runs_figure

ITERATIONS = 6
RECORDED = Path(__file__).resolve().parent.parent / "data" / "benchmarks" / "deep_cfr_leduc.json"


@pytest.fixture(scope="module")
def trace(kuhn):
    return cfrviz.solve(kuhn, "deep_cfr", ITERATIONS, seed=1, traversals=100, train_steps=60,
                        checkpoints=range(1, ITERATIONS + 1), progress=False)


def test_targets_are_the_weighted_average_of_exact_regrets(kuhn, trace):
    data = advantage_targets(trace, "Qb")
    info = kuhn.infoset_index("Qb")
    assert list(data["iterations"]) == list(range(1, ITERATIONS + 1))
    np.testing.assert_array_equal(data["predicted"], trace.cumulative_regret[:, info, :2])
    np.testing.assert_array_equal(data["regret"], trace.instantaneous_regret[:, info, :2])
    # Qb: player 2 holds Q after player 1 bet; chance deals Q to player 2 and J or K to player 1
    # (1/6 each), then player 1 bets with its strategy's probability.
    for t, sigma in enumerate(trace.current_strategy):
        bet = sum(sigma[kuhn.infoset_index(card), 1] for card in ("J", "K")) / 6
        assert np.isclose(data["reach"][t], bet)
    t = np.arange(1, ITERATIONS + 1)
    want = np.cumsum(t[:, None] * data["regret"], axis=0) / np.cumsum(t * data["reach"])[:, None]
    np.testing.assert_allclose(data["target"], want)


def test_uniform_first_iteration_target_is_regret_over_reach(trace):
    data = advantage_targets(trace, 0)
    assert np.isclose(data["reach"][0], 1 / 3)  # player 1's first set: chance deals the card
    np.testing.assert_allclose(data["target"][0], data["regret"][0] * 3)


def test_figure_has_three_lines_per_action_and_autosizes(trace):
    fig = advantage_regret_figure(trace, "Qb")
    assert len(fig.data) == 6
    assert fig.layout.width is None and fig.layout.autosize is None  # sizes to the cell
    data = advantage_targets(trace, "Qb")
    np.testing.assert_allclose(fig.data[2].y, data["predicted"][:, 0])
    np.testing.assert_allclose(fig.data[1].y, data["target"][:, 0])
    np.testing.assert_allclose(fig.data[3].y, data["regret"][:, 1])
    assert "Qb" in fig.layout.title.text


def test_figure_refuses_what_it_cannot_show(kuhn, trace):
    with pytest.raises(ValueError, match="every iteration"):
        advantage_targets(cfrviz.solve(kuhn, "deep_cfr", 3, traversals=10, train_steps=5,
                                       checkpoints=[3], progress=False), "Qb")
    with pytest.raises(ValueError, match="deep_cfr trace"):
        advantage_targets(cfrviz.solve(kuhn, "cfr", 3, checkpoints=[1, 2, 3]), "Qb")
    with pytest.raises(ValueError, match="information sets"):
        advantage_targets(trace, 99)


def test_recorded_file_and_figure():
    recorded = json.loads(RECORDED.read_text())
    meta, runs = recorded["meta"], recorded["runs"]
    assert meta["command"].startswith(".venv/bin/python benchmarks/record_deep_cfr.py")
    assert {"date", "machine", "seed", "iterations"} <= set(meta)
    assert set(runs) == {"deep_cfr", "cfr", "external_sampling", "external_sampling_same_nodes"}
    for run in runs.values():
        assert len(run["iterations"]) == len(run["exploitability"]) == len(run["nodes_touched"])
        assert np.all(np.diff(run["nodes_touched"]) > 0)
    for axis, key in (("iterations", "iterations"), ("nodes", "nodes_touched")):
        fig = recorded_runs_figure(recorded, axis=axis)
        assert len(fig.data) == 4 and fig.layout.xaxis.type == "log"
        np.testing.assert_allclose(fig.data[0].x, runs["deep_cfr"][key])
        assert meta["date"] in fig.layout.title.text and fig.layout.width is None
    with pytest.raises(ValueError):
        recorded_runs_figure(recorded, axis="seconds")
    with pytest.raises(ValueError):
        recorded_runs_figure({"rows": []})
