"""Source listings show exactly the lines a lesson walks through, with the file's line numbers."""

import pytest

from cfrviz.reference import counterfactual_regret, vanilla_cfr, walk
from cfrviz.views.listing import listing


def test_listing_shows_the_parts_the_lesson_walks_through():
    whole = listing(walk, "def walk", "return value")
    assert whole.lines[0].startswith("def walk") and whole.lines[-1].strip() == "return value"
    decision = listing(walk, "info = tree.infoset[node]", "return value")
    assert "+= update(reach, player, action_values, value)" in "\n".join(decision.lines)
    update = "\n".join(listing(counterfactual_regret).lines)
    assert "others = reach[2] * reach[1 - player]" in update
    assert "return others * (action_values - value)" in update
    loop = listing(vanilla_cfr, "for t in range(1, iterations + 1)", "yield")
    assert loop.lines[-1].rstrip().endswith("}")          # the yield's dict is not cut in half
    assert str(loop).splitlines()[0].split()[0] == str(loop.first)
    assert "<span" in loop._repr_html_() or "<pre" in loop._repr_html_()


def test_listing_refuses_lines_that_are_not_there():
    with pytest.raises(ValueError, match="does not occur"):
        listing(vanilla_cfr, "no such line")
    with pytest.raises(ValueError, match="does not occur after"):
        listing(vanilla_cfr, "for t in range(1, iterations + 1)", "no such line")
