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
    slider_p, slider_b = ex.sliders[kuhn.infoset_index("J")]
    slider_p.value = 0.0
    slider_b.value = 0.0
    assert "at least one action needs a positive weight" in ex.last_error
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


def test_typed_weights_are_kept_beyond_the_sliders_and_checked(kuhn):
    """Weights are normalised, so 3 means three times as likely, not 1 (the slider's end)."""
    ex = BestResponseExplorer(kuhn)
    J = kuhn.infoset_index("J")
    field_p, field_b = ex.fields[J]
    field_p.value = 1.0
    field_b.value = 3.0
    slider_p, slider_b = ex.sliders[J]
    assert slider_b.value == 1.0 and ex.last_error is None  # the slider rests at its end
    assert ex.probabilities[J, :2].tolist() == [0.25, 0.75]
    field_p.value = -1.0
    assert ex.last_error == ("'J', action 'p': weight must be a finite number >= 0; got -1.0; "
                             "the strategy there is unchanged")
    assert ex.probabilities[J, :2].tolist() == [0.25, 0.75]
    slider_p.value = 0.5  # dragging a slider sets its field
    assert field_p.value == 0.5 and ex.probabilities[J, :2].tolist() == [0.5 / 3.5, 3 / 3.5]
