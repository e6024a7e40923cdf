"""The re-solve explorer (issue 24 item 4) in a real JupyterLab: select a public state, press
Re-solve, and see the figures and the exploitability text change."""

from __future__ import annotations

import time

import pytest
from _browser import (
    chromium_page,
    code_notebook,
    figure_state,
    jupyterlab,
    open_notebook,
    run_all_and_wait,
    screenshot,
    wait_for_figure_change,
    wait_for_figures_to_settle,
    widget_output_with_figures,
)

from cfrviz.solvers.subgame import METHOD_LABELS

#: Every bar of every figure in a scope: its outline (a bar's height is in its path).
_BARS = """(scope) => [...scope.querySelectorAll(".js-plotly-plot .barlayer .point path")]
  .map((p) => p.getAttribute("d"))"""
_STATUS = ".cfrviz-resolve-status"
#: Page coordinates of the tree's marker of a public state (by its history), or null.
_NODE = """(scope, [kind, history]) => {
  const plot = scope.querySelector(".js-plotly-plot");
  const trace = (plot._fullData || []).find((t) => t.name === kind);
  const L = plot._fullLayout, box = plot.getBoundingClientRect();
  if (!trace || !L || !L.xaxis || !L.yaxis) return null;
  const k = [...trace.text].indexOf(history);
  if (k < 0) return null;
  return [box.left + L.xaxis._offset + L.xaxis.c2p(trace.x[k]),
          box.top + L.yaxis._offset + L.yaxis.c2p(trace.y[k])];
}"""


def _wait_for(read, differs_from, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    now = read()
    while now == differs_from and time.monotonic() < deadline:
        time.sleep(0.1)
        now = read()
    assert now != differs_from, f"{what} did not change within {timeout:.0f} s"
    return now


def _until(read, done, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    now = read()
    while not done(now) and time.monotonic() < deadline:
        time.sleep(0.1)
        now = read()
    assert done(now), f"no {what} within {timeout:.0f} s: {now}"
    return now


@pytest.mark.browser
@pytest.mark.slow
def test_resolve_explorer_in_jupyterlab(tmp_path):
    notebook = tmp_path / "resolve_demo.ipynb"
    code_notebook(notebook, [
        "import cfrviz\n"
        "from cfrviz.widgets import ResolveExplorer\n"
        "w = ResolveExplorer(cfrviz.load_game('leduc_poker'))\n"
        "w"])
    with jupyterlab(extra_files=[notebook]) as server, chromium_page() as page:
        open_notebook(page, server, notebook.name)
        run_all_and_wait(page)
        widget = widget_output_with_figures(page, button="Re-solve")
        widget.wait_for()
        widget.scroll_into_view_if_needed()
        assert widget.locator(".js-plotly-plot").count() == 3
        start = wait_for_figures_to_settle(widget)
        status = widget.locator(_STATUS)
        first_status = status.inner_text()
        assert "blueprint (CFR, 30 iterations)" in first_status
        assert "after" not in first_status  # nothing re-solved yet
        # Three hands per player, and the blueprint's bar (the ranges figure may draw later).
        bars = _until(lambda: widget.evaluate(_BARS), lambda b: len(b) == 7, "seven bars")

        # Select a public state from the menu: the ring in the tree and the range bars move.
        menu = widget.locator(".widget-dropdown", has_text="public state").locator("select")
        menu.select_option(label="deal/r/c/K")
        selected = wait_for_figure_change(widget, start)
        new_bars = _wait_for(lambda: widget.evaluate(_BARS), bars, "the range bars")
        assert len(new_bars) == 7
        assert "deal/r/c/K" in widget.locator(".js-plotly-plot .gtitle").first.text_content()

        # Re-solve with max-margin: the subgame's convergence is drawn, the text gains a line.
        method = widget.locator(".widget-dropdown", has_text="method").locator("select")
        method.select_option(label=METHOD_LABELS["maxmargin"])
        lines_before = [len(f["lines"]) for f in figure_state(widget)]
        widget.locator("button", has_text="Re-solve").click()
        deadline = time.monotonic() + 30
        while "after max-margin" not in status.inner_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        text = status.inner_text()
        assert "after max-margin" in text and "at deal/r/c/K" in text, text
        assert "safety bound: at most" in text and "s of solving" in text, text
        after = wait_for_figure_change(widget, selected)
        assert [len(f["lines"]) for f in after] != lines_before, \
            "no convergence line was drawn"
        _until(lambda: widget.evaluate(_BARS), lambda b: len(b) == 8,
               "a bar for the re-solved strategy")
        shot = screenshot(widget, "resolve-explorer")
        assert shot.exists()

        # A click on a state in the tree selects it (the menu follows, the re-solves are
        # forgotten); a click on a terminal state says why it cannot be re-solved.
        widget.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        for kind, history in (("player 2 acts", "deal/r"), ("game over", "deal/r/f")):
            x, y = _until(lambda k=kind, h=history: widget.evaluate(_NODE, [k, h]), bool,
                          f"marker of {history}")
            page.mouse.move(x, y)
            page.wait_for_timeout(300)
            page.mouse.click(x, y)
            if kind == "game over":
                message = _until(lambda: widget.locator(".jp-OutputArea-output").last
                                 .inner_text(), lambda t: "terminal" in t,
                                 "message about the terminal state")
                assert "deal/r/f" in message and "Traceback" not in message
            else:
                _until(lambda: menu.input_value(), lambda v: v == "deal/r",
                       "selection by a click")
                _until(status.inner_text, lambda t: "after" not in t, "reset status")
        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)
