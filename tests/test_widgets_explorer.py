"""The training explorer, driven programmatically: timeline, selection, controls, errors."""

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.explain import infoset_snapshot, played_profile
from cfrviz.widgets.explorer import TrainingExplorer, explore


def test_timeline_moves_every_view_in_place(kuhn):
    ex = explore(kuhn, iterations=300)
    assert ex.last_error is None and ex.trace.iterations[-1] == 300
    figures = (ex.tree_fig, ex.history, ex.curve)
    ids = [id(f) for f in figures]
    tree = ex.tree_fig.to_json()
    last = [ex.tree.marks.at, ex.history_marks.at, ex.curve_marks.at]
    ex.slider.value = 2
    assert ex.trace.iterations[ex.index] == 3
    assert [id(f) for f in figures] == ids  # updated in place, never replaced
    now = [ex.tree.marks.at, ex.history_marks.at, ex.curve_marks.at]
    assert all(a != b for a, b in zip(last, now))
    # The tree's edges and labels moved beneath its plotly skeleton, which did not change.
    assert ex.tree_fig.to_json() == tree
    p = ex.trace.average_strategy[ex.index][ex.view._edge_infoset, ex.view._edge_action]
    _, widths, texts, _, _ = ex.tree.marks.at
    assert texts[0] == f"{ex.view.edge_actions[0]} {p[0]:.2f}".replace(" 0.", " .")
    assert [w for w in widths if not isinstance(w, list)] == \
        pytest.approx((2 + 5 * p[p >= 0.05]).tolist(), abs=0.01)
    assert "iteration <b>3</b>" in ex.iteration_label.value
    # The "now" marks sit at the shown iteration, over the charts (which do not change).
    assert [x for x, _ in ex.history_marks.at] == [3, 3]
    assert ex.curve_marks.at == [[3, pytest.approx(ex.trace.exploitability[2])]]
    assert all(d.name != "now" for fig in (ex.history, ex.curve) for d in fig.data)


def test_tree_follows_the_strategy_toggle(kuhn):
    ex = explore(kuhn, iterations=200)
    ex.slider.value = 5
    average = ex.tree.marks.at
    ex.which.value = "current"
    assert ex.tree.marks.at != average
    current = ex.trace.current_strategy[ex.index][ex.view._edge_infoset, ex.view._edge_action]
    assert ex.tree.frame.probability.tolist() == current.tolist()


def test_selecting_a_set_shows_its_numbers(kuhn):
    ex = explore(kuhn, iterations=100)
    ex.show_iteration(40)
    ex.select("Qb")
    snap = infoset_snapshot(ex.trace, ex.index, "Qb")
    assert "<b>Qb</b> — player 2, iteration 40" in ex.panel.value
    assert f"{snap.opponent_reach:.4f}" in ex.panel.value
    assert ex.history.layout.title.text == "Information set 'Qb'"
    # A click on a node selects its set (what the figure's on_click handler calls).
    node = int(kuhn.infoset_members(kuhn.infoset_index("Jpb"))[0])
    ex._on_node_click(node, int(kuhn.infoset[node]))
    assert ex.picker.value == kuhn.infoset_index("Jpb")
    # The ring moved to the set's members; the legend names it.
    members = kuhn.infoset_members(kuhn.infoset_index("Jpb"))
    assert ex.tree.marks.at[3] == [[pytest.approx(ex.view.x[m]), pytest.approx(ex.view.y[m])]
                                   for m in members]
    assert ex.tree_fig.data[ex.view.traces["selected"]].name == "selected: Jpb"
    ex.select("nonsense")
    assert "no information set 'nonsense'" in ex.last_error


def test_panel_regrets_are_the_recorded_ones(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 50)
    for key in ("K", "Qb", "Jpb", "Kp"):
        s = infoset_snapshot(trace, 30, key)
        assert np.allclose(s.action_values - s.value, s.regret, atol=1e-12)
        assert np.isclose(s.next_strategy.sum(), 1)
    # Player 2 faced player 1's updated strategy (alternating updates).
    assert not np.array_equal(played_profile(trace, 30, 1), trace.current_strategy[30])
    assert np.array_equal(played_profile(trace, 30, 0), trace.current_strategy[30])


def test_controls_only_act_on_solve(kuhn):
    ex = explore(kuhn, iterations=100)
    first = ex.trace
    ex.algorithm.value = "dcfr"
    ex.iterations.value = 150
    ex.slider.value = 3
    assert ex.trace is first  # scrubbing and editing never re-run the solver
    assert ex.param_rows["dcfr"].layout.display == ""
    assert ex.param_rows["outcome_sampling"].layout.display == "none"
    assert ex.control("alpha").value == 1.5
    ex.solve()
    assert ex.trace.algorithm == "dcfr" and ex.trace.params["alpha"] == 1.5
    ex.algorithm.value = "outcome_sampling"
    ex.control("epsilon").value = 0.3
    ex.solve()
    assert ex.trace.params["epsilon"] == pytest.approx(0.3)
    before = list(ex.curve.data[1].x)
    ex.axis.value = "nodes"
    assert list(ex.curve.data[1].x) != before
    assert ex.curve.layout.xaxis.title.text == "nodes touched"
    assert ex.curve_marks.at[0][0] == ex.trace.extras["nodes_touched"][ex.index]


def test_errors_land_in_the_output_area():
    from _games import Coordination

    from cfrviz.core.tree import build_tree

    ex = TrainingExplorer(build_tree(Coordination()), iterations=10)
    assert ex.trace is None and "needs a two-player zero-sum game" in ex.last_error
    assert "not solved" in ex.status.value
    with pytest.raises(ValueError, match="the explorer runs"):
        explore(cfrviz.load_game("kuhn_poker"), "regret_matching")


def test_leduc_subtree():
    leduc = cfrviz.load_game("leduc_poker")
    ex = explore(leduc, "cfr+", iterations=200, subtree="KQ")
    assert ex.last_error is None
    ex.slider.value = 10
    ex.select("KQ:rc/r")
    assert ex.last_error is None and "KQ:rc/r" in ex.panel.value


def test_typed_numbers_are_checked_on_solve_never_clamped(kuhn):
    """A browser clamps a bounded field's typed value silently; these fields pass it on and
    Solve explains what is wrong, leaving the last run on screen."""
    ex = explore(kuhn, iterations=30)
    first = ex.trace
    for control, value, message in (
            (ex.iterations, 0, "iterations must be a whole number >= 1 and <= 1000000; got 0"),
            (ex.seed, -5, "seed must be a whole number >= 0 and <= 2147483647; got -5")):
        before = control.value
        control.value = value
        ex.solve()
        assert ex.last_error == f"Could not solve: {message}" and ex.trace is first
        assert control.value == value  # kept as typed, for the student to correct
        control.value = before
    ex.algorithm.value = "outcome_sampling"
    ex.control("epsilon").value = 1.5
    ex.solve()
    assert ex.last_error == "Could not solve: epsilon must be a finite number > 0 and <= 1; got 1.5"
    ex.control("epsilon").value = 1.0
    ex.solve()
    assert ex.last_error is None and ex.trace.params["epsilon"] == 1.0
