"""Lesson 10 in a real browser: run it in JupyterLab, check its figures draw, switch the
comparison's x axis and see the chart change."""

from __future__ import annotations

import pytest
from _browser import (
    chromium_page,
    figure_state,
    jupyterlab,
    open_notebook,
    reveal_outputs,
    run_all_and_wait,
    screenshot,
    wait_for_figure_change,
    wait_for_figures_to_settle,
    widget_output_with_figures,
)

LESSON = "10_deep_cfr.ipynb"



@pytest.mark.browser
@pytest.mark.slow
def test_lesson10_runs_and_its_comparison_switches_axis():
    with jupyterlab() as server, chromium_page() as page:
        open_notebook(page, server, LESSON)
        run_all_and_wait(page, timeout=300)

        reveal_outputs(page)  # JupyterLab draws a plain figure once it has been on screen
        # Every figure of the lesson drew something (advantages, comparison, recorded runs,
        # explorer).
        plots = page.locator(".js-plotly-plot")
        assert plots.count() >= 4, f"only {plots.count()} figures drawn"
        # A plain figure's output element is itself the plot: take the output's parent.
        advantage = (page.locator(".jp-OutputArea-child")
                     .filter(has=page.locator(".js-plotly-plot", has_text="weighted target"))
                     .first)
        advantage.scroll_into_view_if_needed()
        assert figure_state(advantage)[0]["lines"], "the advantage figure draws no lines"
        screenshot(advantage, "lesson10-advantages")

        widget = widget_output_with_figures(page, button="nodes touched")
        widget.wait_for()
        widget.scroll_into_view_if_needed()
        before = wait_for_figures_to_settle(widget)
        assert before and before[0]["lines"], "the comparison draws no lines"
        widget.locator("button", has_text="nodes touched").first.click()
        after = wait_for_figure_change(widget, before)
        assert after != before
        screenshot(widget, "lesson10-comparison-nodes")

        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)
