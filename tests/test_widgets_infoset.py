"""The information-set picker rings the chosen set's members and says what its player sees."""

import numpy as np

import cfrviz
from cfrviz.widgets.infoset import InfosetPicker, infoset_picker


def test_infoset_picker_rings_the_chosen_set(kuhn):
    box = infoset_picker(kuhn, "Kp")
    assert isinstance(box, InfosetPicker)
    ring = box.figure.data[box.view.traces["selected"]]
    assert len(ring.x) == 2 and "Kp" in box.caption.value
    box.picker.value = kuhn.infoset_index("Qb")
    ring = box.figure.data[box.view.traces["selected"]]
    members = kuhn.infoset_members(kuhn.infoset_index("Qb"))
    assert sorted(np.asarray(ring.x)) == sorted(box.view.x[members])
    assert "JQ:b" in box.caption.value and "KQ:b" in box.caption.value
    assert box.last_error is None


def test_infoset_picker_on_rock_paper_scissors():
    rps = cfrviz.load_game("rock_paper_scissors")
    box = infoset_picker(rps, "P2")
    assert "3 nodes" in box.caption.value
    box.picker.value = 0
    assert "one node" in box.caption.value
