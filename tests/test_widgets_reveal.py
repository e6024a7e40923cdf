"""The "show me" button hides its content until clicked, and hides it again."""

from cfrviz.reference.mccfr import external_sampling_walk
from cfrviz.views.listing import listing
from cfrviz.widgets.reveal import ShowMe


def test_the_listing_is_hidden_until_the_button_is_clicked():
    widget = ShowMe(listing(external_sampling_walk), "Show me the walk")
    assert widget.shown.value == "" and widget.button.description == "Show me the walk"
    widget.button.click()
    assert "external_sampling_walk" in widget.shown.value
    assert "regret_sum" in widget.shown.value and widget.button.description == "Hide"
    widget.button.click()
    assert widget.shown.value == "" and widget.button.description == "Show me the walk"


def test_plain_text_is_escaped():
    widget = ShowMe("a < b")
    widget.toggle()
    assert "a &lt; b" in widget.shown.value
