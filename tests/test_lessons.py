"""Every lesson runs top to bottom in a fresh kernel: unanswered, and with the solutions in."""

import os
import re
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
NOTEBOOKS = sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))
TIMES: dict[str, float] = {}


def execute(nb, name: str) -> None:
    os.environ.setdefault("JUPYTER_PREFER_ENV_PATH", "1")
    start = time.perf_counter()
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(LESSONS)}}).execute()
    TIMES[name] = time.perf_counter() - start


def outputs_text(nb) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(out.get("text", ""))
            parts.extend(str(v) for v in out.get("data", {}).values())
            if out.get("output_type") == "error":
                parts.append(f"{out['ename']}: {out['evalue']}")
    return "\n".join(parts)


def solution_for(notebook: Path, tag: str) -> Path:
    slug = tag.removeprefix("exercise-").replace("-", "_")
    return LESSONS / "solutions" / f"{notebook.name[:2]}_{slug}.py"


def exercise_cells(nb):
    for cell in nb.cells:
        for tag in cell.metadata.get("tags", []):
            if tag.startswith("exercise-"):
                yield cell, tag


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


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_runs_unanswered(path):
    nb = nbformat.read(path, as_version=4)
    execute(nb, path.stem)
    text = outputs_text(nb)
    # nbclient raises on an error output; a printed traceback (e.g. from a widget) fails here.
    assert "Traceback" not in text
    # Warnings a student would see under a widget (a NaN in widget state, a deprecated argument).
    for warning in ("serialization failed", "DeprecationWarning", "UserWarning"):
        assert warning not in text, f"{path.name} shows a {warning!r} warning"
    assert "✗" not in text  # no failed install check, no checker calling a blank "wrong"
    if any(True for _ in exercise_cells(nb)):
        assert "not done yet" in text
        assert "status='correct'" not in text


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in NOTEBOOKS
                                  if any(True for _ in exercise_cells(nbformat.read(p, 4)))],
                         ids=lambda p: p.stem)
def test_runs_with_solutions_and_checkers_pass(path):
    nb = nbformat.read(path, as_version=4)
    count = 0
    for cell, tag in exercise_cells(nb):
        cell.source = solution_for(path, tag).read_text()
        count += 1
    execute(nb, path.stem + " (solved)")
    text = outputs_text(nb)
    assert "not done yet" not in text and "status='wrong'" not in text
    assert text.count("status='correct'") == count


@pytest.fixture(scope="module", autouse=True)
def report_times():
    yield
    if TIMES:
        lines = [f"  {name:<36} {seconds:6.1f} s" for name, seconds in TIMES.items()]
        print("\nLesson execution times:\n" + "\n".join(lines)
              + f"\n  {'total':<36} {sum(TIMES.values()):6.1f} s")
