"""cfrviz.views.figure_widget: plotly's FigureWidget with a front end that starts at once.

The browser test under load is tests/test_browser_load.py; here, the Python side (what the
kernel sends) and the front end's replay under Node, with a stand-in for plotly's bundle.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import plotly.graph_objects as go
import pytest
from plotly.basewidget import BaseFigureWidget

from cfrviz.views.figure_widget import FRONT_END, MESSAGES, FigureWidget
from cfrviz.views.late_start import es_module


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
    assert all(f'"{m}"' in FRONT_END for m in MESSAGES)


#: Node: the front end with plotly's bundle stood in for (already in the page's cache, still
#: loading): messages the kernel sends meanwhile (set, then cleared, as plotly's Python does)
#: reach plotly's model once it loads, in order and with the values they had; later ones go
#: straight to it; render waits for plotly and hands it the element.
_REPLAY = r"""
const frontEnd = await import("data:text/javascript," + encodeURIComponent(process.argv[1]));
const listeners = new Map(), state = {_plotly_esm_key: "k", _py2js_addTraces: null};
const model = {
  get: (name) => state[name],
  set: (name, value) => { state[name] = value; },
  save_changes() {}, send() {},
  on: (event, f) => listeners.set(event, [...(listeners.get(event) || []), f]),
  off: (event, f) => listeners.set(event, (listeners.get(event) || []).filter((g) => g !== f)),
};
const kernelSets = (name, value) => {
  state[name] = value;
  for (const f of listeners.get(`change:${name}`) || []) f();
};
let loaded;
const seen = [], rendered = [];
const plotly = {default: () => ({
  initialize({ model }) {
    model.on("change:_py2js_addTraces", () => seen.push(model.get("_py2js_addTraces")));
  },
  render({ el }) { rendered.push(el); return () => {}; },
})};
const pending = new Promise((r) => { loaded = r; });
globalThis[Symbol.for("cfrviz.plotly-front-end")] = new Map([["k", pending]]);
const widget = frontEnd.default();
widget.initialize({ model });
kernelSets("_py2js_addTraces", {trace_data: [1]});
kernelSets("_py2js_addTraces", null);
kernelSets("_py2js_addTraces", {trace_data: [2]});
kernelSets("_py2js_addTraces", null);
const view = widget.render({ model, el: "the element" });
const early = [...seen];
loaded(plotly);
await view;
kernelSets("_py2js_addTraces", {trace_data: [3]});
console.log(JSON.stringify({early, seen, rendered}));
"""


def test_messages_sent_while_plotly_loads_reach_it_in_order():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the figure widget's JavaScript is not checked here "
                    "(install Node.js 20 or later)")
    done = subprocess.run([node, "--input-type=module", "-e", _REPLAY, FRONT_END],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["early"] == []  # nothing reaches plotly before it has loaded
    assert result["seen"] == [{"trace_data": [1]}, None, {"trace_data": [2]}, None,
                              {"trace_data": [3]}]
    assert result["rendered"] == ["the element"]
