"""Every lesson runs top to bottom in a fresh kernel with the solutions in, and its checkers pass.

The lessons as shipped (unanswered) run in a real JupyterLab instead, in
tests/test_browser_lessons.py, which checks their outputs as this module did
(:func:`_lessons.unanswered_problems`: no error, no traceback, no warning under a widget, every
blank exercise "not done yet"): one run of each lesson serves both.
"""

import os
import re
import time

import nbformat
import pytest
from _lessons import (
    LESSONS,
    NOTEBOOKS,
    exercise_cells,
    has_exercises,
    notebook_outputs,
    outputs_text,
    solution_for,
    verdicts,
)
from nbclient import NotebookClient

TIMES: dict[str, float] = {}


def execute(nb, name: str) -> None:
    os.environ.setdefault("JUPYTER_PREFER_ENV_PATH", "1")
    start = time.perf_counter()
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(LESSONS)}}).execute()
    TIMES[name] = time.perf_counter() - start


def test_there_are_lessons():
    assert [p.name for p in NOTEBOOKS][:2] == ["00_start_here.ipynb", "01_regret_matching.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_links_between_lessons_resolve(path):
    nb = nbformat.read(path, as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    links = re.findall(r"\]\(([^)#]+\.ipynb)\)", text)
    for link in links:
        assert (LESSONS / link).exists(), f"{path.name} links to missing {link}"


def test_verdicts_are_read_as_shown():
    """The checkers' verdicts are counted from the box a notebook shows and from the repr."""
    from cfrviz.exercises import correct, not_done, wrong

    text = outputs_text([
        {"output_type": "display_data", "data": {"text/html": f._repr_html_()}}
        for f in (correct("yes"), wrong("no"), not_done(), not_done())])
    assert verdicts(text) == {"correct": 1, "wrong": 1, "not done yet": 2}
    assert verdicts(repr(correct("yes"))) == {"correct": 1}


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if has_exercises(p)],
                         ids=lambda p: p.stem)
def test_runs_with_solutions_and_checkers_pass(path):
    nb = nbformat.read(path, as_version=4)
    count = 0
    for cell, tag in exercise_cells(nb):
        cell.source = solution_for(path, tag).read_text()
        count += 1
    execute(nb, path.stem + " (solved)")
    said = verdicts(outputs_text(notebook_outputs(nb)))
    assert not said["not done yet"] and not said["wrong"], said
    assert said["correct"] == count, said


@pytest.fixture(scope="module", autouse=True)
def report_times():
    yield
    if TIMES:
        lines = [f"  {name:<36} {seconds:6.1f} s" for name, seconds in TIMES.items()]
        print("\nLesson execution times:\n" + "\n".join(lines)
              + f"\n  {'total':<36} {sum(TIMES.values()):6.1f} s")
