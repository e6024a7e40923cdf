"""Comparison figures: several runs, their cost axes, gaps, weights, estimates, exploitation."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

import cfrviz
from cfrviz.analysis.variants import iteration_weights
from cfrviz.views.compare import (
    UPDATE_LABELS,
    comparison_figure,
    cost,
    exploitability_at,
    exploitation_figure,
    iterates_figure,
    iteration_weights_figure,
    log_checkpoints,
    positive_or_gap,
    regret_estimates_figure,
    update_comparison_figure,
)


@pytest.fixture(scope="module")
def runs():
    kuhn = cfrviz.load_game("kuhn_poker")
    return [cfrviz.solve(kuhn, "cfr", 50), cfrviz.solve(kuhn, "external_sampling", 200, seed=1),
            cfrviz.solve(kuhn, "external_sampling", 200, seed=2)]


def test_costs(runs):
    cfr = runs[0]
    assert np.array_equal(cost(cfr, "iterations"), np.arange(1, 51))
    assert np.array_equal(cost(cfr, "nodes"), 110 * np.arange(1, 51))
    assert np.all(np.diff(cost(cfr, "seconds")) >= 0)
    with pytest.raises(ValueError):
        cost(cfr, "hours")


def test_exploitability_at(runs):
    cfr = runs[0]
    assert exploitability_at(cfr, 10, "iterations") == cfr.exploitability[9]
    assert exploitability_at(cfr, 1099, "nodes") == cfr.exploitability[8]  # 9 iterations fit
    assert np.isnan(exploitability_at(cfr, 50, "nodes"))  # not even one iteration
    assert exploitability_at(cfr, 10, "iterations", current=True) == cfr.current_exploitability[9]


def test_log_checkpoints():
    points = log_checkpoints(1000, 10)
    assert points[0] == 1 and points[-1] == 1000 and points == sorted(set(points))
    assert log_checkpoints(1, 5) == [1]
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError):
            log_checkpoints(bad)


def test_gaps_are_none_not_nan():
    assert positive_or_gap([1.0, 0.0, np.nan, -1.0, 2.0]) == [1.0, None, None, None, 2.0]


def test_comparison_figure(runs):
    fig = comparison_figure(runs, ["cfr", "external", "external"], axis="nodes")
    assert len(fig.data) == 3
    assert [d.showlegend for d in fig.data] == [True, True, False]  # seeds share a legend entry
    assert fig.data[1].line.color == fig.data[2].line.color != fig.data[0].line.color
    assert fig.layout.xaxis.type == "log" and fig.layout.xaxis.title.text == "nodes touched"
    assert list(fig.data[0].x) == list(110.0 * np.arange(1, 51))
    json.dumps(go.FigureWidget(fig).to_plotly_json(), default=list, allow_nan=False)
    assert comparison_figure(runs, current=True).data[0].y[-1] == pytest.approx(
        runs[0].current_exploitability[-1])


def test_comparison_figure_refuses_bad_input(runs):
    leduc = cfrviz.solve(cfrviz.load_game("leduc_poker"), "cfr", 3)
    with pytest.raises(ValueError):
        comparison_figure([])
    with pytest.raises(ValueError):
        comparison_figure([runs[0], leduc])
    with pytest.raises(ValueError):
        comparison_figure(runs, ["only one label"])


def test_small_figures():
    w = iteration_weights(30)
    fig = iteration_weights_figure(w)
    assert [d.name for d in fig.data] == list(w)
    fig = regret_estimates_figure(["J", "Q"], [0.1, 0.2], [0.0, 0.5], [0.11, 0.19], 100)
    assert len(fig.data) == 3 and list(fig.data[2].y) == [0.11, 0.19]
    fig = exploitation_figure(["a", "b"], [0.1, 0.2], [1.0, 2.0])
    assert list(fig.data[1].y) == [1.0, 2.0]
    with pytest.raises(ValueError):
        exploitation_figure(["a"], [0.1, 0.2], [1.0])


def test_update_comparison_figure_draws_one_log_log_line_per_update():
    comparison = {"iterations": np.array([1, 10, 100]), "cfr": np.array([0.5, 0.05, 0.0]),
                  "own-reach": np.array([0.5, 0.2, 0.15])}
    fig = update_comparison_figure(comparison)
    assert [t.name for t in fig.data] == [UPDATE_LABELS["cfr"], UPDATE_LABELS["own-reach"]]
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert min(fig.data[0].y) > 0                        # a zero cannot sit on a log axis


def test_iterates_figure_pairs_each_runs_average_and_current(kuhn, leduc):
    """Two lines a run in one colour, solid for the average and dotted for the current
    strategy, each reading its own record; an exploitability of zero or below is a gap."""
    runs = [cfrviz.solve(kuhn, name, 300, checkpoints=log_checkpoints(300, 30), progress=False)
            for name in ("cfr+", "pcfr+")]
    fig = iterates_figure(runs, labels=["CFR+", "PCFR+"])
    assert [d.name for d in fig.data] == ["CFR+: average", "CFR+: current", "PCFR+: average",
                                          "PCFR+: current"]
    for k, run in enumerate(runs):
        average, current = fig.data[2 * k], fig.data[2 * k + 1]
        assert average.line.color == current.line.color
        assert (average.line.dash, current.line.dash) == ("solid", "dot")
        assert list(average.y) == positive_or_gap(run.exploitability)
        assert list(current.y) == positive_or_gap(run.current_exploitability)
        assert list(average.x) == list(run.iterations)
    assert fig.data[0].line.color != fig.data[2].line.color
    with pytest.raises(ValueError, match="one game"):
        iterates_figure([runs[0], cfrviz.solve(leduc, "cfr+", 3, progress=False)])
    with pytest.raises(ValueError, match="at least one"):
        iterates_figure([])
    with pytest.raises(ValueError, match="axis must be one of"):
        iterates_figure(runs, axis="hours")
