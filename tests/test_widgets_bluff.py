"""The bluffing explorer follows its sliders with player 2's counterfactual values at Qb."""

import numpy as np

import cfrviz
from cfrviz.analysis.explain import counterfactual_values
from cfrviz.widgets.bluff import BluffExplorer, bluff_explorer


def test_bluff_explorer_follows_its_sliders():
    kuhn = cfrviz.load_game("kuhn_poker")
    box = bluff_explorer()
    assert isinstance(box, BluffExplorer)
    assert np.allclose(box.figure.data[0].y, [-2 / 9, -2 / 9])
    assert list(box.figure.data[0].text) == ["-0.222", "-0.222"]
    assert "neither" in box.text.value
    box.bluff.value = 0.6
    expected = counterfactual_values(
        kuhn, {"J": {"p": 0.4, "b": 0.6}, "Q": {"p": 1, "b": 0}, "K": {"p": 0, "b": 1}}, "Qb")
    assert np.allclose(box.figure.data[0].y, expected["action_values"])
    assert "calling" in box.text.value
    box.bluff.value, box.value_bet.value = 0.0, 1.0
    assert "folding" in box.text.value
    assert box.last_error is None
