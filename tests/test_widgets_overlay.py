"""The "now" marks drawn over a figure: their declarations and positions (the drawing itself is
checked in the browser, tests/test_browser.py)."""

import math

import plotly.graph_objects as go
import pytest

from cfrviz.widgets.overlay import NowMarks, overlaid, point, vline


def test_marks_move_with_one_message_and_none_when_still():
    marks = NowMarks([vline("x", "y"), point("x2", "y2", color="#0072B2")])
    assert marks.at == [None, None]
    sent = []
    marks.observe(lambda change: sent.append(change["new"]), names="at")
    marks.move(3, (3, 0.5))
    assert marks.at == [[3.0, None], [3.0, 0.5]]
    marks.move(3, (3, 0.5))
    assert len(sent) == 1
    marks.move(None, (4, math.nan))  # hidden; NaN is "nothing to draw", not a number to send
    assert marks.at == [None, [4.0, None]]


def test_marks_explain_what_is_wrong():
    with pytest.raises(ValueError, match="kind must be one of"):
        NowMarks([{"kind": "arrow"}])
    with pytest.raises(ValueError, match="2 marks, 1 positions"):
        NowMarks([vline(), vline()]).move(1)


def test_overlaid_stacks_the_marks_over_the_figure():
    fig, marks = go.FigureWidget(), NowMarks([vline()])
    box = overlaid(fig, marks, width="300px")
    assert box.children == (fig, marks)
    assert "cfrviz-overlaid" in box._dom_classes and "cfrviz-now" in marks._dom_classes
    assert box.layout.width == "300px"


def test_a_figure_that_fits_its_output_may_shrink_with_its_box():
    from cfrviz.views.style import fit_to_output

    fixed = overlaid(go.FigureWidget(), NowMarks())
    fitting = overlaid(fit_to_output(go.FigureWidget()), NowMarks())
    assert "cfrviz-overlaid-fit" not in fixed._dom_classes
    assert "cfrviz-overlaid-fit" in fitting._dom_classes


def test_a_path_is_sent_once_and_a_frame_moves_two_indices():
    from cfrviz.widgets.overlay import path

    mark = path([(0, 1), (1, math.nan), (2, 3)], "x2", "y2", line=dict(color="#123", dash="dot"),
                marker=dict(symbol="star", size=14), titles=["a", "b", "c"], trace=4)
    assert (mark["kind"], mark["xaxis"], mark["yaxis"], mark["trace"]) == ("path", "x2", "y2", 4)
    assert mark["x"] == [0, 1, 2] and mark["y"] == [1, None, 3]  # NaN: a gap
    assert mark["line"]["dash"] == "dot" and mark["marker"]["symbol"] == "star"
    marks = NowMarks([mark, vline()])
    marks.move((0, 2), 5)
    assert marks.at == [[0.0, 2.0], [5.0, None]]


def test_a_ternary_path_is_in_plotlys_inner_cartesian_coordinates():
    """plotly draws (a, b, c) at x = c - b, y = a of its ternary's inner axes (sum 1)."""
    from cfrviz.widgets.overlay import path

    mark = path([(1, 0, 0), (0, 1, 0), (0, 0, 2), (1 / 3, 1 / 3, 1 / 3)], ternary="ternary2")
    assert mark["ternary"] == "ternary2"
    assert mark["x"] == pytest.approx([0, -1, 1, 0])
    assert mark["y"] == pytest.approx([1, 0, 0, 1 / 3])


def test_a_path_explains_what_is_wrong():
    from cfrviz.widgets.overlay import path

    with pytest.raises(ValueError, match="2 points, 1 titles"):
        path([(0, 0), (1, 1)], titles=["one"])
    with pytest.raises(ValueError, match=r"\(x, y\) pairs"):
        path([(0, 0, 1)])
