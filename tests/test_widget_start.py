"""Every anywidget of cfrviz works however late its front end starts (issue 30).

anywidget gives a model two seconds to start and then drops, for good, every message the kernel
sends it ("[anywidget] Failed to initialize model.").  :mod:`cfrviz.widgets.late_start` wraps the
ES module of each (a ``StartsLate``): a front end that started late takes the model's messages
itself and asks the kernel for the whole state again.

Here, the kernel's side: which classes are wrapped, how, and what the kernel answers.  The
front ends themselves, wrapped, run under Node against a stand-in of anywidget's model, started
in time or late (tests/js/late_start.test.js); the browser test is tests/test_browser_load.py.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import shutil
import subprocess
from pathlib import Path

import anywidget
import plotly.graph_objects as go
import pytest

import cfrviz
from cfrviz.widgets.figure_widget import FigureWidget, PlotlyBundle, plotly_bundle, shared_bundle
from cfrviz.widgets.late_start import KEEP_ALIVE, KEY, StartsLate, es_module
from cfrviz.widgets.overlay import NowMarks
from cfrviz.widgets.playback import Play


def cfrviz_anywidgets() -> list[type]:
    """Every anywidget class defined in cfrviz (every module imported)."""
    for module in pkgutil.walk_packages(cfrviz.__path__, "cfrviz."):
        importlib.import_module(module.name)
    found, stack = set(), [anywidget.AnyWidget]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            # traitlets makes a subclass per instance (add_traits): same module, same name
            if sub.__module__.startswith("cfrviz.") and "_esm" in sub.__dict__ \
                    and isinstance(sub.__dict__["_esm"], str):
                found.add(sub)
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__name__}")


def test_every_anywidget_of_cfrviz_starts_late_safely():
    """One root: each anywidget class of cfrviz is a StartsLate, its module wrapped."""
    classes = cfrviz_anywidgets()
    assert {FigureWidget, NowMarks, Play} <= set(classes), classes
    for cls in classes:
        assert issubclass(cls, StartsLate), cls
        assert KEEP_ALIVE in cls._esm and cls._esm.count("export default") == 1, cls
        assert cls.__mro__.index(StartsLate) < cls.__mro__.index(anywidget.AnyWidget), cls


def test_a_module_it_cannot_wrap_is_refused():
    for source in ("export const a = 1;", "export default 1;\nexport default 2;",
                   "const w = {};\nexport { w as default };"):
        with pytest.raises(ValueError, match="export default"):
            es_module(source)
    wrapped = es_module("export function render() {}\nexport default { render };")
    assert es_module(wrapped) == wrapped
    # anywidget takes a module's exported render in place of its widget: none is left.
    assert "export function" not in wrapped


def test_plotlys_bundle_is_sent_once_per_kernel():
    """14 figures sent 14 copies of plotly's 5 MB front end (70 MB through the kernel, the
    server and the page); now each refers to one model."""
    figures = [FigureWidget(go.Scatter(y=[1, 2])) for _ in range(3)]
    states = [f.get_state() for f in figures]
    bundle = shared_bundle()
    assert {s["_plotly_bundle"] for s in states} == {f"IPY_MODEL_{bundle.model_id}"}
    assert bundle.source == plotly_bundle()[0] and len(bundle.source) > 1_000_000
    assert all(len(json.dumps(s, default=str)) < 100_000 for s in states)
    assert all(s["_plotly_esm_key"] == bundle.key for s in states)
    bundle.close()  # closed (Widget.close_all()): the next figure makes a new one
    again = FigureWidget()
    assert isinstance(again._plotly_bundle, PlotlyBundle) and again._plotly_bundle is not bundle
    assert again._plotly_bundle.comm is not None


def test_the_kernel_answers_a_late_front_end_with_the_whole_figure():
    fig = FigureWidget()
    fig.add_scatter(y=[1, 2, 3])
    sent: list[tuple] = []
    fig.send_state = lambda key=None: sent.append(("state", key))
    fig.send = lambda content, *_: sent.append(("custom", content))
    fig._on_front_end_message(fig, {KEY: "resync"}, [])
    assert list(fig._widget_data[0]["y"]) == [1, 2, 3]
    assert sent[-2:] == [("state", None), ("custom", {KEY: "resynced"})]
    sent.clear()
    fig._on_front_end_message(fig, {"other": 1}, [])
    fig._on_front_end_message(fig, "resync", [])
    assert sent == []


def test_the_wrapper_is_keep_alive_js_and_every_wrapped_module_parses(tmp_path):
    """The behaviour of each wrapped front end, started in time or late with messages before,
    during and after, is tested under Node (tests/js/late_start.test.js, which wraps as
    es_module does); here, that es_module's text is that and Node parses it."""
    source = (Path(cfrviz.__file__).parent / "widgets" / "keep_alive.js").read_text()
    assert re.sub(r"^export ", "", source, flags=re.MULTILINE) == KEEP_ALIVE
    assert "export " not in KEEP_ALIVE and "function cfrvizKeepAlive(widget)" in KEEP_ALIVE
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the wrapped modules are not parsed here "
                    "(install Node.js 20 or later)")
    for cls in cfrviz_anywidgets():
        module = tmp_path / f"{cls.__name__}.mjs"
        module.write_text(cls._esm, encoding="utf-8")
        done = subprocess.run([node, "--check", str(module)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, (cls, done.stderr[-2000:])
