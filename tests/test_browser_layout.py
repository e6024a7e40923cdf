"""Figures fit the notebook: the training explorer on Kuhn poker is no wider than its output area
at common window widths, and its game tree's chance root sits near the middle of what is on
screen (issue 11: the Kuhn tree was drawn 1,800 pixels wide in an output area half that, with
its root at the right edge).  The same check of lessons 02 and 04 as shipped runs in
tests/test_browser_lessons.py, in the page that runs each lesson once (``check_fit``)."""

from __future__ import annotations

import pytest
from _browser import (
    WINDOWS,
    check_fit,
    chromium_page,
    code_notebook,
    jupyterlab,
    open_notebook,
    run_all_and_wait,
)


@pytest.mark.browser
@pytest.mark.slow
def test_training_explorer_figures_fit(tmp_path):
    notebook = tmp_path / "explorer_fit.ipynb"
    code_notebook(notebook, [
        "import cfrviz\n"
        "kuhn = cfrviz.load_game('kuhn_poker')\n"
        "cfrviz.explore(kuhn)"])
    with jupyterlab(extra_files=[notebook]) as server, \
            chromium_page(width=WINDOWS[0]) as page:
        open_notebook(page, server, notebook.name)
        run_all_and_wait(page)
        fits = check_fit(page, "explorer", expected_figures=3)
        assert sum(f["root"] is not None for f in fits[0]) == 1
