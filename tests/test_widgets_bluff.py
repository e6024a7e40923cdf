"""The bluffing explorer follows its sliders with player 2's counterfactual values at Qb."""

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.explain import counterfactual_values
from cfrviz.widgets.bluff import POSITIONS, BluffExplorer, bluff_explorer


def values_at(bluff, value_bet):
    kuhn = cfrviz.load_game("kuhn_poker")
    policy = {"J": {"p": 1 - bluff, "b": bluff}, "Q": {"p": 1, "b": 0},
              "K": {"p": 1 - value_bet, "b": value_bet}}
    return counterfactual_values(kuhn, policy, "Qb")["action_values"]


def test_bluff_explorer_follows_its_sliders():
    box = bluff_explorer()
    assert isinstance(box, BluffExplorer)
    # It starts with a player 1 who never bluffs (exercise 1's profile is the student's to set).
    assert box.bluff.value == 0 and box.value_bet.value == 1
    assert (box.bluff.label, box.value_bet.label) == ("never", "always")
    assert np.allclose(box.figure.data[0].y, [-1 / 6, -1 / 3])
    assert "folding" in box.text.value
    box.bluff.value = 7 / 12
    assert np.allclose(box.figure.data[0].y, values_at(7 / 12, 1))
    assert "calling" in box.text.value and "1/6 &times; 7/12" in box.text.value
    assert box.last_error is None


def test_the_sliders_reach_the_indifference_point_and_say_so():
    """Issue 29: with a step of 0.01 the J slider stopped at 0.33, where the bars read fold
    -0.222 and call -0.223 and the text said "moves towards folding", while the lesson says
    the two are worth exactly the same at 1/3.  Driven to 1/3 (the slider's label reads
    1/3), both bars read the same and so does the sentence."""
    box = bluff_explorer()
    box.bluff.index = [label for label, _ in POSITIONS].index("1/3")  # as the front end does
    assert box.bluff.value == 1 / 3 and box.bluff.label == "1/3"
    assert list(box.figure.data[0].text) == ["-0.222", "-0.222"]
    assert np.allclose(box.figure.data[0].y, [-2 / 9, -2 / 9])
    assert "neither" in box.text.value and "exactly the same" in box.text.value
    assert "towards" not in box.text.value.split("neither")[0]
    assert box.last_error is None


def test_the_sentence_is_true_at_every_position():
    """At each of the 25 x 25 positions the sentence names the action whose bar is higher
    as the bars show it (three decimals), or neither when they read the same."""
    box = BluffExplorer()
    for _, bluff in POSITIONS:
        box.bluff.value = bluff
        for _, value_bet in POSITIONS:
            box.value_bet.value = value_bet
            fold, call = (float(t) for t in box.figure.data[0].text)
            text = box.text.value
            if fold == call:
                assert "<b>neither</b>" in text and "towards <b>" not in text, (bluff, value_bet)
            else:
                assert f"towards <b>{'calling' if call > fold else 'folding'}</b>" in text, \
                    (bluff, value_bet, fold, call)
    assert box.last_error is None


def test_a_value_off_the_grid_moves_to_the_nearest_step():
    assert BluffExplorer(bluff=0.33).bluff.value == 1 / 3
    with pytest.raises(ValueError, match="between 0 and 1"):
        BluffExplorer(value_bet=1.5)
