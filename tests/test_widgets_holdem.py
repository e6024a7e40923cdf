"""The river hand grid widget, driven as a student would: pick a decision, move the record
slider, edit a range (badly, then well) and solve again."""

from __future__ import annotations

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.holdem import node_strategy
from cfrviz.views.holdem import FILL, grid_cells
from cfrviz.widgets.holdem import RiverGrid, river_grid


@pytest.fixture(scope="module")
def trace():
    game = cfrviz.load_game("holdem_river", ranges=("AA,KK,AK,T9s", "QQ,JJ,AQ,98s"))
    return cfrviz.solve(game, "dcfr", 100, progress=False)


def _bars(widget: RiverGrid) -> list[np.ndarray]:
    return [np.asarray(t.x, dtype=float) for t in widget.figure.data[1:-1]]


def test_every_decision_can_be_shown_with_its_actions(trace):
    grid = river_grid(trace)
    lines = [value for _, value in grid.line.options]
    assert lines[0] == "" and len(lines) == 8 and set(lines) == {
        "", "X", "B50", "X-B50", "B50-R125", "X-B50-R125", "B50-R125-AI200", "X-B50-R125-AI200"}
    for label, line in grid.line.options:
        grid.show_line(line)
        assert grid.last_error is None
        ns = node_strategy(trace.game, trace.average_policy().probabilities, line)
        assert [t.name for t in grid.figure.data[1:-1]] == list(ns.actions)
        np.testing.assert_allclose(_bars(grid)[0], grid_cells(ns)[0][:, 0] * FILL)
        assert label in grid.shares.value and label in grid.figure.layout.title.text
    with pytest.raises(ValueError, match="no decision at the line 'X-X'"):
        grid.show_line("X-X")


def test_the_record_slider_moves_the_grid_to_that_average(trace):
    grid = river_grid(trace, line="X")
    last = _bars(grid)
    grid.show_iteration(2)
    assert grid.trace.iterations[grid.record] == 2 and "iteration <b>2</b>" in grid.label.value
    ns = node_strategy(trace.game, trace.average_policy(2).probabilities, "X")
    np.testing.assert_allclose(_bars(grid)[1], grid_cells(ns)[0][:, 1] * FILL)
    assert not np.allclose(_bars(grid)[1], last[1])  # the strategy formed in between
    assert "% of the pot" in grid.label.value


def test_a_bad_range_is_named_and_a_good_one_solves_again(trace):
    grid = river_grid(trace)
    grid.ranges[1].value = "QQ, JJ, AZ"
    grid.solve_button.click()
    assert grid.last_error is not None and "IP's range" in grid.last_error
    assert "'AZ'" in grid.last_error and grid.trace is trace  # nothing else changed
    grid.ranges[0].value = "AA,KK"
    grid.ranges[1].value = "QQ,JJ"
    grid.iterations.value = 20
    grid.solve_button.click()
    assert grid.last_error is None and grid.trace is not trace
    assert grid.trace.iterations[-1] == 20 and grid.slider.value == grid.slider.max
    assert len(node_strategy(grid.trace.game, grid.trace.average_policy().probabilities,
                             "").combos) == 12


def test_another_game_is_refused():
    kuhn = cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr", 5, progress=False)
    with pytest.raises(ValueError, match="hold'em river spot"):
        river_grid(kuhn)


def test_a_click_on_the_bet_tree_shows_that_decision(trace):
    from plotly.callbacks import Points

    from cfrviz.views.holdem import BET_TREE_TRACES

    grid = river_grid(trace)
    decisions = grid.bet_tree.data[BET_TREE_TRACES.index("decisions")]
    lines = list(decisions.customdata)
    assert sorted(lines) == sorted(value for _, value in grid.line.options)
    k = lines.index("X-B50")
    grid._on_click(decisions, Points(point_inds=[k], xs=[decisions.x[k]], ys=[decisions.y[k]],
                                     trace_name="decisions", trace_index=1), None)
    assert grid.last_error is None and grid.line.value == "X-B50"
    chosen = grid.bet_tree.data[BET_TREE_TRACES.index("chosen")]
    assert (chosen.x[0], chosen.y[0]) == (decisions.x[k], decisions.y[k])
    assert grid.figure.layout.title.text.startswith("OOP after X-B50")
