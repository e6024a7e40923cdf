"""The best-response explorer, driven programmatically."""

import pytest

import cfrviz
from cfrviz.widgets.best_response import BestResponseExplorer


def set_equilibrium(explorer, alpha):
    for key, dist in {"J": {"p": 1 - alpha, "b": alpha}, "Q": {"p": 1.0},
                      "K": {"p": 1 - 3 * alpha, "b": 3 * alpha}, "Jpb": {"p": 1.0},
                      "Qpb": {"p": 2 / 3 - alpha, "b": alpha + 1 / 3}, "Kpb": {"b": 1.0}}.items():
        explorer.set_strategy(key, dist)


def test_uniform_start_and_equilibrium(kuhn):
    ex = BestResponseExplorer(kuhn)
    assert ex.last_error is None
    uniform = cfrviz.best_response(kuhn, cfrviz.Policy.uniform(kuhn), 1).value
    assert ex.best_response_value == pytest.approx(uniform, abs=1e-12)
    assert f"{uniform:+.4f}" in ex.summary.value
    set_equilibrium(ex, 0.2)
    assert ex.best_response_value == pytest.approx(1 / 18, abs=1e-12)
    assert "gives away <b>0.0000</b>" in ex.summary.value


def test_tree_lights_up_the_best_response(kuhn):
    ex = BestResponseExplorer(kuhn)
    before = ex.tree.marks.at
    ex.set_strategy("K", {"p": 1.0})  # never bet a king: player 2 can bet after a check freely
    best, _, texts, _, note = ex.tree.marks.at
    assert texts != before[2] and note != before[4]
    # The highlight is player 2's best response, and the note its value (computed once).
    response = cfrviz.best_response(kuhn, cfrviz.Policy(kuhn, ex.probabilities), 1)
    value, pure, view = response.value, response.policy.probabilities, ex.view
    chosen = [bool(view._edge_player[i] == 1 and pure[view._edge_infoset[i],
                                                       view._edge_action[i]] == 1)
              for i in range(len(view.decision_edges))]
    assert [w is not None for w in best] == chosen and any(chosen)
    assert note == [f"best response of player 2 (green bands): value {value:+.4f}"]
    assert f"{value:+.4f}" in ex.summary.value
    assert ex.fig.data[view.traces["best response"]].name == "best response of player 2"


def test_bad_input_reports_in_the_output_area(kuhn):
    ex = BestResponseExplorer(kuhn)
    ex.set_strategy("Qb", {"p": 1.0})
    assert "belongs to player 2" in ex.last_error
    ex.set_strategy("J", {"p": -1, "b": 1})
    assert "non-negative weights" in ex.last_error
    ex.set_strategy("J", {"p": 0, "b": 0})
    assert "positive sum" in ex.last_error
    with pytest.raises(ValueError, match="player must be 0"):
        BestResponseExplorer(kuhn, player=2)
    leduc = cfrviz.load_game("leduc_poker")
    with pytest.raises(ValueError, match="made for leduc_poker, not kuhn_poker"):
        BestResponseExplorer(kuhn, policy=cfrviz.Policy.uniform(leduc))


def test_player_two_and_a_large_game():
    leduc = cfrviz.load_game("leduc_poker")
    trace = cfrviz.solve(leduc, "cfr+", 300, checkpoints=[])
    ex = BestResponseExplorer(leduc, player=1, policy=trace.average_policy(), subtree="KQ")
    assert ex.picker.layout.display != "none" and ex.last_error is None
    expected = cfrviz.best_response(leduc, trace.average_policy(), 0).value
    assert ex.best_response_value == pytest.approx(expected, abs=1e-9)
    shown = [info for info, row in ex.rows.items() if row.layout.display != "none"]
    assert shown == [ex.picker.value]


def test_every_slider_move_changes_the_strategy_and_the_sliders_show_it(kuhn):
    """Issue 29: with normalised weights, moving a slider of a set whose other weight was 0
    changed nothing; now each slider is its action's probability and a set's row sums to 1."""
    ex = BestResponseExplorer(kuhn)
    J = kuhn.infoset_index("J")
    slider_p, slider_b = ex.sliders[J]
    slider_b.value = 1.0  # bet every jack: the other slider goes to 0
    assert slider_p.value == 0.0 and ex.probabilities[J, :2].tolist() == [0.0, 1.0]
    before = ex.best_response_value
    for value in (0.7, 0.3, 0.0):  # each move is seen: the strategy, the other slider, the value
        slider_b.value = value
        assert ex.probabilities[J, :2] == pytest.approx([1 - value, value])
        assert slider_p.value == pytest.approx(1 - value)
        assert ex.best_response_value != before
        before = ex.best_response_value
    slider_p.value = 0.25  # either slider of the set works the same way
    assert ex.probabilities[J, :2] == pytest.approx([0.25, 0.75])
    assert slider_b.value == pytest.approx(0.75) and ex.last_error is None
    # set_strategy still takes weights, and the sliders show them as probabilities
    ex.set_strategy("J", {"p": 1, "b": 3})
    assert [slider_p.value, slider_b.value] == pytest.approx([0.25, 0.75])
    shown = {info: [s.value for s in sliders] for info, sliders in ex.sliders.items()}
    for info, values in shown.items():
        assert sum(values) == pytest.approx(1.0)
        assert values == pytest.approx(ex.probabilities[info, :len(values)].tolist())


def test_three_action_sets_share_the_rest_in_proportion():
    leduc = cfrviz.load_game("leduc_poker")
    ex = BestResponseExplorer(leduc, player=0)
    info = next(i for i in ex.sets if len(leduc.infoset_actions[i]) == 3)
    key, first, second, third = leduc.infoset_keys[info], *ex.sliders[info]
    ex.set_strategy(key, [1, 1, 2])
    second.value = 0.5  # the others held 1/4 and 1/2 of the set: they share 0.5 as 1 to 2
    assert ex.probabilities[info, :3] == pytest.approx([1 / 6, 0.5, 1 / 3])
    assert [first.value, third.value] == pytest.approx([1 / 6, 1 / 3])
    first.value = 1.0
    second.value = 0.4  # the others held 1 and 0: the 0 stays 0
    assert ex.probabilities[info, :3] == pytest.approx([0.6, 0.4, 0.0])
    first.value = 1.0
    first.value = 0.2  # the others held nothing: they share equally
    assert ex.probabilities[info, :3] == pytest.approx([0.2, 0.4, 0.4])
    assert [second.value, third.value] == pytest.approx([0.4, 0.4]) and ex.last_error is None
