"""The public tree's layout and figure (cfrviz.views.public)."""

from __future__ import annotations

import numpy as np
import pytest

import cfrviz
from cfrviz.games.public import public_tree
from cfrviz.views.public import KINDS, SELECTED_TRACE, public_layout, public_tree_figure


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_the_layout_is_a_tidy_tree(name):
    public = public_tree(cfrviz.load_game(name))
    x, y = public_layout(public)
    leaves = [s.id for s in public.states if not s.children]
    assert sorted(x[leaves].tolist()) == list(range(len(leaves)))  # one slot per leaf
    for s in public.states:
        if s.parent >= 0:
            assert y[s.id] == y[s.parent] - 1
        if s.children:
            assert x[s.id] == pytest.approx(np.mean(x[list(s.children)]))


def test_every_state_is_drawn_once_and_clickable():
    public = public_tree(cfrviz.load_game("leduc_poker"))
    fig = public_tree_figure(public, selected=public.find("deal/c/r").id)
    drawn = np.concatenate([fig.data[k].customdata for k in range(1, 1 + len(KINDS))])
    assert sorted(drawn.tolist()) == list(range(len(public)))
    terminals = fig.data[4].customdata
    assert {public.states[i].kind for i in terminals} == {"terminal"}
    assert list(fig.data[SELECTED_TRACE].text) == ["deal/c/r"]
    assert "selected: deal/c/r" in fig.layout.title.text
