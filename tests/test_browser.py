"""The course in a real browser: the training explorer in JupyterLab (play the timeline, hover,
click and zoom the tree), the overlay's marks where plotly draws, and lesson 01 as a Voila
dashboard.  Every lesson as shipped runs in JupyterLab in tests/test_browser_lessons.py (which
took over this module's lesson 01 and 04 tests: their timelines move their figures)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from _browser import (
    chromium_page,
    code_notebook,
    jupyterlab,
    open_notebook,
    run_all_and_wait,
    screenshot,
    slider_range,
    slider_value,
    timeline_handle,
    voila,
    wait_for_figure_change,
    wait_for_figures_to_settle,
    widget_output_with_figures,
)

# The rule in conftest.py: without chromium a browser test skips, except in CI where it fails.


class _FakeItem:
    def get_closest_marker(self, name):
        return object() if name == "browser" else None


@pytest.fixture
def no_chromium(monkeypatch, tmp_path):
    import _browser

    monkeypatch.setattr(_browser, "CHROMIUM", tmp_path / "no-chromium")


@pytest.mark.usefixtures("no_chromium")
def test_browser_test_skips_without_chromium(monkeypatch):
    import conftest

    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception,
                       match="no-chromium is missing.*apt-get install chromium"):
        conftest.pytest_runtest_setup(_FakeItem())


@pytest.mark.usefixtures("no_chromium")
def test_browser_test_fails_without_chromium_in_ci(monkeypatch):
    import conftest

    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception,
                       match="browser tests must run in CI: install chromium"):
        conftest.pytest_runtest_setup(_FakeItem())


_SHUTDOWN = "[I 2026-12-03 08:17:40.674 ServerApp] Kernel shutdown: a41ac591"
_RACE = """Traceback (most recent call last):
  File "/v/lib/python3.11/site-packages/ipykernel/iostream.py", line 480, in _watch_pipe_fd
    self.write(bts.decode(errors="replace"))
  File "/v/lib/python3.11/site-packages/tornado/ioloop.py", line 597, in call_later
    return self.call_at(self.time() + delay, callback, *args, **kwargs)
  File "/usr/lib/python3.11/asyncio/base_events.py", line 520, in _check_closed
    raise RuntimeError('Event loop is closed')
RuntimeError: Event loop is closed""".splitlines()
# As CI logged it on 2026-12-03 (the kernel's unraisable-exception report, then the traceback).
_ZMQ_RACE = """Exception ignored in: <coroutine object Kernel.dispatch_control at 0x7f142f6f3f10>
Traceback (most recent call last):
  File "/usr/lib/python3.11/warnings.py", line 30, in _showwarnmsg_impl
    file.write(text)
  File "/v/lib/python3.11/site-packages/ipykernel/iostream.py", line 343, in schedule
    self._event_pipe.send(b"")
  File "/v/lib/python3.11/site-packages/zmq/sugar/socket.py", line 713, in send
    return super().send(data, flags=flags, copy=copy, track=track)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "zmq/backend/cython/_zmq.py", line 190, in zmq.backend.cython._zmq._check_rc
zmq.error.ZMQError: Socket operation on non-socket""".splitlines()


def test_the_server_log_check_lets_only_ipykernels_shutdown_races_through():
    """The upstream tracebacks tolerated are ipykernel's shutdown races, after a kernel shutdown;
    the same error before any shutdown, or from a cfrviz frame, any other error, or a traceback
    cut off at the end of a final read fails; each problem is read once."""
    from _browser import _log_problems

    for race in (_RACE, _ZMQ_RACE):
        lines = ["[I server] ok", _SHUTDOWN, *race, "[I server] Kernel started"]
        assert _log_problems(lines) == ([], len(lines))
        assert _log_problems(race)[0], "a race before any kernel shutdown"
    ours = [_SHUTDOWN, *_RACE[:3], '  File "/repo/cfrviz/widgets/play.py", line 9, in tick',
            *_RACE[3:]]
    assert _log_problems(ours)[0][1] == "Traceback (most recent call last):"
    assert _log_problems(["ReferenceError: require is not defined"])[0]
    assert _log_problems([_SHUTDOWN, *_RACE[:-1], "ValueError: no"])[0]
    assert _log_problems([_SHUTDOWN, *_RACE[:3]], final=False) == ([], 1)  # being written
    assert _log_problems([_SHUTDOWN, *_RACE[:3]], final=True)[0]
    assert _log_problems(["ValueError: seen", "[I server] ok"], start=1) == ([], 2)


# The tree's plotly figure and the marks drawn beneath it (cfrviz.widgets.tree.LiveTree): edge
# widths and every text shown, and the selected ring.
_TREE_STATE = """(scope) => {
  const plot = scope.querySelector(".js-plotly-plot");
  const marks = [...plot.closest(".cfrviz-overlaid").querySelectorAll(".cfrviz-now-mark")];
  return {
    widths: [...plot.querySelectorAll("path.js-line")].map((p) => p.style.strokeWidth)
      .concat(marks.filter((m) => m.matches(".cfrviz-now-segments"))
              .map((p) => p.getAttribute("stroke-width"))),
    texts: [...plot.querySelectorAll("text")].map((t) => t.textContent)
      .concat(marks.filter((m) => m.tagName === "text").map((t) => t.textContent)),
    rings: marks.filter((m) => m.matches(".cfrviz-now-rings")).map((p) => p.getAttribute("d")),
    edges: marks.filter((m) => m.matches(".cfrviz-now-segments")).map((p) => p.getAttribute("d")),
  };
}"""

# The page position of the k-th node of a role ("player 2 (square)") on the tree figure, or
# null while plotly is (re)drawing it.
_NODE = """(scope, [role, k]) => {
  const plot = scope.querySelector(".js-plotly-plot");
  const trace = (plot._fullData || []).find((t) => (t.name || "").startsWith(role));
  const L = plot._fullLayout, box = plot.getBoundingClientRect();
  if (!trace || !L || !L.xaxis || !L.yaxis) return null;
  return [box.left + L.xaxis._offset + L.xaxis.c2p(trace.x[k]),
          box.top + L.yaxis._offset + L.yaxis.c2p(trace.y[k])];
}"""


def node_position(scope, role: str, k: int, timeout: float = 15) -> tuple[float, float]:
    deadline = time.monotonic() + timeout
    while (found := scope.evaluate(_NODE, [role, k])) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert found is not None, f"the tree figure has no {role} node {k}"
    return found


@pytest.mark.browser
@pytest.mark.slow
def test_training_explorer_in_jupyterlab(tmp_path):
    """A notebook with the Kuhn explorer: play the timeline, the tree's edges and labels change."""
    notebook = tmp_path / "explorer_demo.ipynb"
    code_notebook(notebook, [
        "import cfrviz\n"
        "from cfrviz.widgets.explorer import explore\n"
        "explorer = explore(cfrviz.load_game('kuhn_poker'), iterations=300)\n"
        "explorer"])
    with jupyterlab(extra_files=[notebook]) as server, chromium_page() as page:
        open_notebook(page, server, notebook.name)
        run_all_and_wait(page)
        widget = widget_output_with_figures(page)
        handle = timeline_handle(widget)
        handle.wait_for()
        widget.scroll_into_view_if_needed()
        wait_for_figures_to_settle(widget)
        tree_before = widget.evaluate(_TREE_STATE)
        assert len(tree_before["texts"]) > 20, "the tree figure draws no labels"
        screenshot(widget, "explorer-before")
        play = widget.locator(".widget-play button").first
        handle.focus()
        handle.press("Home")  # back to iteration 1, then let Play run the timeline
        wait_for_figures_to_settle(widget)
        at_start = widget.evaluate(_TREE_STATE)
        assert at_start != tree_before, "moving the slider did not redraw the tree"
        play.click()
        deadline = time.monotonic() + 20
        while slider_value(handle) < 5 and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        assert slider_value(handle) >= 5, "Play did not advance the timeline"
        wait_for_figures_to_settle(widget)
        playing = widget.evaluate(_TREE_STATE)
        assert playing != at_start, "the tree did not change while the timeline played"
        # The figure lies over the moving marks: a node still hovers and clicks (it selects
        # its information set, which the ring then marks) ...
        x, y = node_position(widget, "player 2", 3)
        page.mouse.move(x, y)
        hover = page.locator(".hoverlayer .hovertext").first
        hover.wait_for()
        assert "information set: Kb" in hover.text_content()
        page.mouse.click(x, y)
        deadline = time.monotonic() + 15
        while widget.evaluate(_TREE_STATE)["rings"] == playing["rings"] \
                and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert widget.evaluate(_TREE_STATE)["rings"] != playing["rings"], \
            "clicking a node did not move the selected ring"
        # ... and zooming (a box dragged on the figure) moves the marks with it.
        before = wait_for_figures_to_settle(widget)
        edges = widget.evaluate(_TREE_STATE)["edges"]
        plot = widget.locator(".js-plotly-plot").first.bounding_box()
        page.mouse.move(plot["x"] + plot["width"] * 0.1, plot["y"] + plot["height"] * 0.3)
        page.mouse.down()
        page.mouse.move(plot["x"] + plot["width"] * 0.4, plot["y"] + plot["height"] * 0.7,
                        steps=8)
        page.mouse.up()
        wait_for_figure_change(widget, before)
        assert widget.evaluate(_TREE_STATE)["edges"] != edges, "the edges did not follow a zoom"
        screenshot(widget, "explorer-zoomed")
        page.mouse.dblclick(plot["x"] + plot["width"] * 0.5, plot["y"] + plot["height"] * 0.5)
        path = screenshot(widget, "explorer-after")
        if os.environ.get("CFRVIZ_README_SCREENSHOT"):  # `make screenshot` refreshes README's image
            target = Path(__file__).resolve().parent.parent / "docs" / "training_explorer.png"
            target.parent.mkdir(exist_ok=True)
            shutil.copy2(path, target)
        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)


@pytest.mark.browser
@pytest.mark.slow
def test_lesson01_as_a_voila_dashboard():
    """Classroom mode (as `make present` serves it): code hidden, widgets live, presenter sizes."""
    with voila("01_regret_matching.ipynb", env_extra={"CFRVIZ_PRESENTER": "1"}) as server, \
            chromium_page() as page:
        page.goto(server.url(""))
        widget = widget_output_with_figures(page)
        widget.wait_for(timeout=180_000)
        handle = timeline_handle(widget)
        handle.wait_for()
        assert page.locator(".jp-InputArea-editor").count() == 0, "code cells are visible"
        assert "import cfrviz" not in page.inner_text("body")
        widget.scroll_into_view_if_needed()
        before = wait_for_figures_to_settle(widget)
        drawn = [len(f["lines"]) + len(f["points"]) for f in before]
        assert all(drawn), f"a figure is empty in Voila: {drawn}"
        screenshot(page, "voila-lesson01")
        low, high = slider_range(handle)
        start = slider_value(handle)
        assert start == high, "the timeline should start at the last iteration"
        handle.focus()
        handle.press("Home")
        wait_for_figure_change(widget, before)
        assert slider_value(handle) == low
        # Only the fonts Voila's template fetches from a CDN fail offline; nothing else may.
        errors = [e for e in page.errors if "ERR_NAME_NOT_RESOLVED" not in e]
        assert not errors, "JavaScript errors in the dashboard:\n" + "\n".join(errors)


# Centres (in the figure's pixels) of plotly's markers and of the overlay's path marks.
_CENTRES = """(box) => {
  const plot = box.querySelector(".js-plotly-plot");
  const origin = plot.querySelector("svg.main-svg").getBoundingClientRect();
  const centre = (node) => {
    const r = node.getBoundingClientRect();
    return [r.x + r.width / 2 - origin.x, r.y + r.height / 2 - origin.y];
  };
  return {
    plotly: [...plot.querySelectorAll("path.point")].map(centre),
    marks: [...box.querySelectorAll(".cfrviz-now-path")].map((node) =>
      node.getAttribute("d") && node.getAttribute("fill") !== "none" ? centre(node) : null),
    lines: [...plot.querySelectorAll("path.js-line")].map((p) => p.getAttribute("d")),
  };
}"""


def _close(point, others, tolerance=1.0) -> bool:
    return any(abs(point[0] - o[0]) <= tolerance and abs(point[1] - o[1]) <= tolerance
               for o in others)


@pytest.mark.browser
@pytest.mark.slow
def test_overlay_paths_sit_where_plotly_draws(tmp_path):
    """The strategy triangle's and the Kuhn view's moving parts are drawn over plotly by the
    overlay (cfrviz.widgets.overlay, kind "path"): on the ternary subplot the overlay's
    equilibrium stars cover plotly's; in the Kuhn view each run's "now" marker sits on its
    plotly end marker at the last iteration.  Moving the slider moves the marks and leaves
    plotly's drawing as it was."""
    notebook = tmp_path / "overlay_paths.ipynb"
    code_notebook(notebook, [
        "import cfrviz\n"
        "from cfrviz.widgets import RegretMatchingExplorer\n"
        "w = RegretMatchingExplorer(iterations=500, seed=0, show_controls=False)\n"
        "w.simplex.layout.showlegend = False  # plotly's points: the two stars only\n"
        "w",
        "kuhn = cfrviz.load_game('kuhn_poker')\n"
        "runs = [cfrviz.solve(kuhn, a, iterations=300) for a in ('cfr', 'cfr+')]\n"
        "k = cfrviz.KuhnEquilibriumView(runs)\n"
        "k.figure.layout.showlegend = False\n"
        "k"])
    with jupyterlab(extra_files=[notebook]) as server, chromium_page() as page:
        open_notebook(page, server, notebook.name)
        # Run once: a figure made empty and filled at once draws under load too
        # (cfrviz.widgets.figure_widget; tests/test_browser_load.py).
        run_all_and_wait(page)
        outputs = page.locator(".jp-OutputArea-output").filter(has=page.locator(".widget-slider"))
        simplex = outputs.nth(0).locator(".cfrviz-overlaid").filter(
            has=page.locator(".ternary")).first
        kuhn = outputs.nth(1).locator(".cfrviz-overlaid").first
        for box in (simplex, kuhn):
            box.scroll_into_view_if_needed()
            wait_for_figures_to_settle(box)

        drawn = simplex.evaluate(_CENTRES)
        assert len(drawn["plotly"]) == 2, drawn  # the stars; paths and points are marks
        stars = [m for m in drawn["marks"][-2:] if m is not None]
        assert len(stars) == 2 and all(_close(s, drawn["plotly"]) for s in stars), drawn

        # Kuhn: per run, the "now" markers of the square panels (marks 1 and 3 of 5) on the
        # plotly end markers.
        drawn = kuhn.evaluate(_CENTRES)
        now = [drawn["marks"][5 * k + i] for k in range(2) for i in (1, 3)]
        assert all(m is not None and _close(m, drawn["plotly"]) for m in now), \
            (now, drawn["plotly"])
        screenshot(kuhn, "overlay-kuhn-last")

        for box, name in ((simplex, "simplex"), (kuhn, "kuhn")):
            before = box.evaluate(_CENTRES)
            handle = timeline_handle(box.locator("xpath=ancestor::*[contains(@class, "
                                                 "'jp-OutputArea-output')]").first)
            handle.focus()
            for _ in range(3):
                handle.press("ArrowLeft")
            deadline = time.monotonic() + 15
            after = box.evaluate(_CENTRES)
            while after["marks"] == before["marks"] and time.monotonic() < deadline:
                page.wait_for_timeout(100)
                after = box.evaluate(_CENTRES)
            assert after["marks"] != before["marks"], f"the {name} marks did not move"
            assert after["lines"] == before["lines"], f"plotly redrew the {name} figure's lines"
            assert all(_close(a, [b], 0.1) for a, b in zip(after["plotly"], before["plotly"])) \
                and len(after["plotly"]) == len(before["plotly"]), \
                f"plotly moved the {name} figure's markers"
            screenshot(box, f"overlay-{name}-moved")
        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)
