"""Outputs that answer an exercise wait for the student's attempt (issue 29).

Lessons 05, 07 and 08 show, after an exercise's check cell, a measurement that answers it. Run
All (which lesson 00 recommends for a reopened lesson) would put it on screen before the student
answers, so the cell shows it once the answer variable holds anything (``unanswered`` is False),
as lesson 01's reveal after its exercise 3 does, and on a dashboard (``make present``: code and
exercises hidden, ``in_dashboard()``) at once.
"""

from __future__ import annotations

import base64

import nbformat
import numpy as np
import pytest
from _lessons import LESSONS, answer_strings, notebook_outputs, outputs_text
from nbclient import NotebookClient

WAITING = "first (any"  # the start of every such cell's note: "... first (any guess will do)"


def _run(stem: str, dashboard: bool, monkeypatch) -> nbformat.NotebookNode:
    """Lesson ``stem`` run top to bottom, unanswered, in a notebook or as a dashboard."""
    monkeypatch.setenv("JUPYTER_PREFER_ENV_PATH", "1")
    if dashboard:
        monkeypatch.setenv("CFRVIZ_PRESENTER", "1")  # what make present sets for its kernels
    else:
        monkeypatch.delenv("CFRVIZ_PRESENTER", raising=False)
    nb = nbformat.read(next(LESSONS.glob(f"{stem}_*.ipynb")), as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(LESSONS)}}).execute()
    return nb


def _plotted(nb) -> list[np.ndarray]:
    """The y values of every trace of every plotly figure the outputs show (plotly writes an
    array as a list, or as ``{"dtype", "bdata"}`` with the bytes in base64)."""
    arrays = []
    for out in notebook_outputs(nb):
        figure = out.get("data", {}).get("application/vnd.plotly.v1+json")
        for trace in (figure or {}).get("data", []):
            y = trace.get("y")
            if isinstance(y, dict) and "bdata" in y:
                arrays.append(np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"]))
            elif y is not None:
                arrays.append(np.array(y, dtype=float))
    return arrays


@pytest.mark.slow
@pytest.mark.parametrize("dashboard", [False, True], ids=["notebook", "dashboard"])
def test_lesson05_draws_the_cost_curve_after_the_attempt(dashboard, monkeypatch):
    """The curve plots every iteration, 30 among them: exercise 3's answer, on hover."""
    import cfrviz
    from cfrviz.exercises import lesson05

    kuhn = cfrviz.load_game("kuhn_poker")
    trace = cfrviz.solve(kuhn, "cfr", iterations=10_000, seed=0, progress=False)
    answer = trace.exploitability[trace.index(lesson05.EXPLOIT_ITERATION)]
    nb = _run("05", dashboard, monkeypatch)
    drawn = any(np.any(np.isclose(y, answer, rtol=0, atol=1e-12)) for y in _plotted(nb))
    waits = WAITING in outputs_text(notebook_outputs(nb))
    assert (drawn, waits) == ((True, False) if dashboard else (False, True))


@pytest.mark.slow
@pytest.mark.parametrize("dashboard", [False, True], ids=["notebook", "dashboard"])
@pytest.mark.parametrize("stem, tag", [("07", "exercise-fewest-nodes"),
                                       ("08", "exercise-variant-ranking")])
def test_the_measurement_follows_the_attempt(stem, tag, dashboard, monkeypatch):
    """Lesson 07's nodes per iteration and lesson 08's race print the ranking asked for."""
    lesson = next(LESSONS.glob(f"{stem}_*.ipynb")).stem
    text = outputs_text(notebook_outputs(_run(stem, dashboard, monkeypatch)))
    shown = [s for s in answer_strings(lesson)[tag] if s in text]
    if dashboard:
        assert shown and WAITING not in text
    else:
        assert not shown and WAITING in text


def test_a_dashboard_is_what_make_present_sets(monkeypatch):
    """The dashboard runs above stand for make present: CFRVIZ_PRESENTER=1 is a dashboard."""
    from cfrviz.views.style import in_dashboard

    for name in ("CFRVIZ_PRESENTER", "VOILA_SERVER_URL", "VOILA_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert not in_dashboard()
    monkeypatch.setenv("CFRVIZ_PRESENTER", "1")
    assert in_dashboard()


@pytest.mark.parametrize("path", sorted(LESSONS.glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.stem)
def test_every_waiting_cell_shows_at_once_on_a_dashboard(path):
    """A dashboard hides the code and the exercises, so a cell that waits for an attempt there
    would wait for ever: each such cell's condition also asks ``in_dashboard()``."""
    nb = nbformat.read(path, as_version=4)
    waiting = [cell.source for cell in nb.cells
               if cell.cell_type == "code" and WAITING in cell.source]
    assert all("not in_dashboard()" in source for source in waiting), path.stem
