"""Every lesson runs top to bottom in a fresh kernel with the solutions in, and its checkers pass.

The lessons as shipped (unanswered) run in a real JupyterLab instead, in
tests/test_browser_lessons.py, which checks their outputs as this module did
(:func:`_lessons.unanswered_problems`: no error, no traceback, no warning under a widget, every
blank exercise "not done yet"): one run of each lesson serves both.

The solved run also shows each overlaid figure with its marks (issue 19): a figure of
:func:`cfrviz.widgets.overlay.overlaid` or a :class:`cfrviz.widgets.tree.LiveTree` is a plotly
skeleton whose tree edges, best-response bands and "now" marks are an overlay in the same box.
Lesson 05's "Predict, then reveal" cell once showed the best-response explorer's ``fig`` on its
own in a new box, and the student saw nodes without edges; :func:`misplaced_figures` reads the
run's widget state for any figure displayed outside its overlay box.
"""

import ast
import functools
import os
import re
import time
from pathlib import Path

import nbformat
import pytest
from _lessons import (
    LESSONS,
    NOTEBOOKS,
    _answers_module,
    answer_strings,
    exercise_cells,
    has_exercises,
    notebook_outputs,
    outputs_text,
    solution_for,
    unsearchable,
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


@functools.cache
def solved_run(path: Path) -> tuple[nbformat.NotebookNode, int]:
    """The lesson executed once per test session with every exercise's solution in, and how
    many exercises it holds.  Solved is the fuller run: each check cell reveals what waits for
    an attempt, so the overlay check reads this run too."""
    nb = nbformat.read(path, as_version=4)
    count = 0
    for cell, tag in exercise_cells(nb):
        cell.source = solution_for(path, tag).read_text()
        count += 1
    execute(nb, path.stem + (" (solved)" if count else ""))
    return nb, count


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _children(model: dict) -> list[str]:
    return [c.removeprefix("IPY_MODEL_") for c in model["state"].get("children", ())]


def misplaced_figures(nb) -> list[str]:
    """Where an executed notebook displays an overlaid figure outside its overlay box."""
    if WIDGET_STATE not in nb.metadata.get("widgets", {}):
        return []  # the lesson shows no widget
    state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    home = {}  # figure model id -> its overlay box
    for box_id, model in state.items():
        if "cfrviz-overlaid" in model["state"].get("_dom_classes", ()):
            for child in _children(model):  # the figure, not the marks (NowMarks)
                kind = state.get(child, {}).get("state", {}).get("_anywidget_id", "")
                if not kind.startswith("cfrviz."):
                    home[child] = box_id
    problems = []
    for index, cell in enumerate(nb.cells):
        for out in cell.get("outputs", ()):
            root = out.get("data", {}).get(WIDGET_VIEW, {}).get("model_id")
            stack = [(root, None)] if root else []
            while stack:
                model_id, parent = stack.pop()
                if model_id in home and parent != home[model_id]:
                    line = cell.source.strip().splitlines()[-1]
                    problems.append(f"cell {index + 1} ({line}): a figure shown without "
                                    "its overlay marks (show the box that holds both)")
                stack.extend((c, model_id) for c in _children(state.get(model_id, {"state": {}})))
    return problems


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


def _defines(cell) -> set[str]:
    """The functions an exercise cell asks for (its top-level ``def`` names)."""
    return {node.name for node in ast.parse(cell.source).body
            if isinstance(node, ast.FunctionDef)}


def _names(source: str) -> set[str]:
    """Every name a cell binds or reads: imports, assignments, definitions, attributes."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[-1])
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


WITH_EXERCISES = [p for p in NOTEBOOKS if has_exercises(p)]


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.stem)
def test_no_answer_function_is_at_hand_before_its_exercise(path):
    """A coding exercise asks for a function; no earlier cell may import, define or call it,
    nor the package's own version of it (``my_root_values`` → ``root_values``, or the names
    tests/answers/NN.py's ANSWER_FUNCTIONS gives for that exercise instead): the student would
    find the answer already in hand (and a checker once accepted a call to it as the student's
    code)."""
    nb = nbformat.read(path, as_version=4)
    listed = getattr(_answers_module(path.stem), "ANSWER_FUNCTIONS", {})
    seen: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type != "code" or cell.source.lstrip().startswith("%"):
            continue
        tags = [t for t in cell.metadata.get("tags", []) if t.startswith("exercise-")]
        asked = set(_defines(cell)).union(*(
            listed[tag] if tag in listed  # the answers module names the package's versions
            else {name.removeprefix("my_") for name in _defines(cell)} for tag in tags))
        assert not asked & seen, (f"{path.stem}: {sorted(asked & seen)} is at hand before "
                                  f"the exercise {tags} that asks the student to write it")
        seen |= _names(cell.source)


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.stem)
def test_every_answer_is_looked_for(path):
    """Each exercise that is not a function to write has its answer described in
    tests/answers/NN.py (looked for in the unanswered run's outputs by the browser test), or
    says there why it cannot be."""
    nb = nbformat.read(path, as_version=4)
    module = _answers_module(path.stem)
    described = set(getattr(module, "ANSWERS", {})) | set(unsearchable(path.stem))
    missing = [tag for cell, tag in exercise_cells(nb) if not _defines(cell)
               and tag not in described]
    assert not missing, f"tests/answers/{path.stem[:2]}.py does not describe {missing}"


@pytest.mark.slow
@pytest.mark.parametrize("path", WITH_EXERCISES, ids=lambda p: p.stem)
def test_answers_are_computed(path):
    strings = answer_strings(path.stem)
    assert all(strings.values()), f"{path.stem}: an exercise's answer gives no string to look for"


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if not p.stem.startswith("00")],
                         ids=lambda p: p.stem)
def test_runs_with_solutions_and_checkers_pass(path):
    """Every checker says correct, and every overlaid figure is shown with its marks."""
    nb, count = solved_run(path)
    said = verdicts(outputs_text(notebook_outputs(nb)))
    assert not said["not done yet"] and not said["wrong"], said
    assert said["correct"] == count, said
    assert misplaced_figures(nb) == []


@pytest.fixture(scope="module", autouse=True)
def report_times():
    yield
    if TIMES:
        lines = [f"  {name:<36} {seconds:6.1f} s" for name, seconds in TIMES.items()]
        print("\nLesson execution times:\n" + "\n".join(lines)
              + f"\n  {'total':<36} {sum(TIMES.values()):6.1f} s")
