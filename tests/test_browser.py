"""The course in a real browser: lessons 01 and 04 and the training explorer in JupyterLab (run
all, move the timeline, see the figures change), and lesson 01 as a Voila dashboard."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from _browser import (
    chromium_page,
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


def check_timeline_moves_figures(notebook: str, name: str, extra_files=()) -> None:
    """Open ``notebook``, run all, move its timeline slider and check the figures follow."""
    with jupyterlab(extra_files=extra_files) as server, chromium_page() as page:
        open_notebook(page, server, notebook)
        run_all_and_wait(page)

        widget = widget_output_with_figures(page)
        handle = timeline_handle(widget)
        handle.wait_for()
        widget.scroll_into_view_if_needed()
        before = wait_for_figures_to_settle(widget)
        assert any(fig["lines"] or fig["points"] for fig in before), "the figures draw nothing"
        undrawn = [fig["marks"] for fig in before if not all(fig["marks"])]
        assert not undrawn, f"a 'now' mark over a figure is not drawn: {undrawn}"
        screenshot(page, f"{name}-before")
        screenshot(widget, f"{name}-widget-before")
        before = wait_for_figures_to_settle(widget)

        # Move away from where the slider starts: to the start if it is not there, else on.
        start = slider_value(handle)
        low, high = slider_range(handle)
        assert high > low, f"the timeline slider has nothing to scrub ({low}..{high})"
        handle.focus()
        if start > low:
            handle.press("Home")
        else:
            for _ in range(5):
                handle.press("ArrowRight")
        after = wait_for_figure_change(widget, before)
        moved = slider_value(handle)
        assert moved != start, "the slider did not move"
        screenshot(page, f"{name}-after")
        screenshot(widget, f"{name}-widget-after")
        after = wait_for_figures_to_settle(widget)  # a screenshot can resize and redraw

        # A few steps the other way change the figures again.
        for _ in range(3):
            handle.press("ArrowRight" if moved < high else "ArrowLeft")
        wait_for_figure_change(widget, after)
        assert slider_value(handle) != moved

        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)


@pytest.mark.browser
@pytest.mark.slow
def test_lesson01_in_jupyterlab():
    check_timeline_moves_figures("01_regret_matching.ipynb", "lesson01")


@pytest.mark.browser
@pytest.mark.slow
def test_lesson04_in_jupyterlab():
    check_timeline_moves_figures("04_cfr_on_kuhn.ipynb", "lesson04")


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


_TREE_STATE = """(scope) => {
  const plot = scope.querySelector(".js-plotly-plot");
  return {
    widths: [...plot.querySelectorAll("path.js-line")].map((p) => p.style.strokeWidth),
    texts: [...plot.querySelectorAll("text")].map((t) => t.textContent),
  };
}"""


@pytest.mark.browser
@pytest.mark.slow
def test_training_explorer_in_jupyterlab(tmp_path):
    """A notebook with the Kuhn explorer: play the timeline, the tree's edges and labels change."""
    import nbformat

    notebook = tmp_path / "explorer_demo.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import cfrviz\n"
        "from cfrviz.widgets.explorer import explore\n"
        "explorer = explore(cfrviz.load_game('kuhn_poker'), iterations=300)\n"
        "explorer")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, notebook)
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
