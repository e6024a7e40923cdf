"""Lesson 06 in a real browser: run it in JupyterLab, step the sampled-paths view, see the tree
change."""

from __future__ import annotations

import time

import pytest
from _browser import (
    chromium_page,
    figure_state,
    jupyterlab,
    open_notebook,
    run_all_and_wait,
    screenshot,
    wait_for_figure_change,
    wait_for_figures_to_settle,
    widget_output_with_figures,
)

LESSON = "06_monte_carlo_cfr.ipynb"



def summary_text(widget) -> str:
    return widget.locator(".widget-html").filter(has_text="nodes touched").first.inner_text()


def wait_for_summary(widget, text: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    current = summary_text(widget)
    while text not in current and time.monotonic() < deadline:
        time.sleep(0.1)
        current = summary_text(widget)
    assert text in current, f"the summary never said {text!r}: {current!r}"
    return current


@pytest.mark.browser
@pytest.mark.slow
def test_lesson06_sampled_paths_in_jupyterlab():
    with jupyterlab() as server, chromium_page() as page:
        open_notebook(page, server, LESSON)
        run_all_and_wait(page, timeout=300)

        widget = widget_output_with_figures(page, button="Next")
        widget.wait_for()
        widget.scroll_into_view_if_needed()
        before = wait_for_figures_to_settle(widget)
        assert before and before[0]["lines"], "the tree draws no lines"
        first = wait_for_summary(widget, "iteration 1,")
        assert "external sampling" in first
        screenshot(widget, "lesson06-sampled-paths-before")

        # Next: iteration 2 is drawn (its walk differs from iteration 1's at seed 0).
        widget.locator("button", has_text="Next").first.click()
        wait_for_summary(widget, "iteration 2,")
        after_next = wait_for_figure_change(widget, before)
        screenshot(widget, "lesson06-sampled-paths-next")

        # Another method: outcome sampling walks a single path.
        widget.locator("button", has_text="outcome sampling").first.click()
        text = wait_for_summary(widget, "outcome sampling")
        assert "iteration 2," in text
        after_switch = wait_for_figure_change(widget, after_next)
        # Player 2's walk of the same iteration.
        widget.locator("button", has_text="player 2's walk").first.click()
        wait_for_summary(widget, "player 2's walk")
        wait_for_figure_change(widget, after_switch)
        screenshot(widget, "lesson06-sampled-paths-outcome")
        assert figure_state(widget) != before

        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)
