"""cfrviz.widgets.figure_widget: plotly's FigureWidget with a front end that starts at once.

The browser test under load is tests/test_browser_load.py; here, the Python side (what the
kernel sends).  The front end's replay is tested under Node: tests/js/figure_widget.test.js.
"""

from __future__ import annotations

from pathlib import Path

import plotly.graph_objects as go
from plotly.basewidget import BaseFigureWidget

import cfrviz
from cfrviz.widgets.figure_widget import FRONT_END, MESSAGES, FigureWidget
from cfrviz.widgets.late_start import es_module


def test_it_is_a_plotly_figure_widget_that_refers_to_plotlys_bundle():
    fig = FigureWidget(go.Figure(go.Scatter(y=[1, 2])))
    assert isinstance(fig, go.FigureWidget) and len(fig.data) == 1
    state = fig.get_state()
    assert state["_esm"] == es_module(FRONT_END) and len(state["_esm"]) < 20_000
    # plotly's bundle travels once per kernel, in a model every figure refers to
    # (tests/test_widget_start.py).
    assert fig._plotly_bundle.source == str(BaseFigureWidget._esm)
    assert state["_plotly_bundle"] == f"IPY_MODEL_{fig._plotly_bundle.model_id}"
    assert state["_plotly_esm_key"] == FigureWidget().get_state()["_plotly_esm_key"]
    # What the front end records while plotly loads is every message plotly's model reads.
    assert "_py2js_addTraces" in MESSAGES and "_py2js_relayout" in MESSAGES
    assert state["_plotly_messages"] == MESSAGES


def test_the_front_end_is_a_javascript_file_shipped_beside_the_widgets():
    """figure_widget.js, tested under Node (tests/js/figure_widget.test.js: the messages sent
    while plotly loads reach it in order), is what anywidget gets, wrapped by late_start."""
    path = Path(cfrviz.__file__).parent / "widgets" / "figure_widget.js"
    assert path.read_text(encoding="utf-8") == FRONT_END
    assert FigureWidget._esm == es_module(FRONT_END)
    assert "_plotly_messages" in FRONT_END
