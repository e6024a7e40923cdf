"""What a dashboard (Voila, ``make present``) must not show: text that tells a student to run
cells.  Lessons wrap it in ``cfrviz-notebook-only``, which presenter mode's page style hides."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cfrviz.views.style import PRESENTER_CSS

# Lesson 00 is the page that teaches how to run a notebook (it checks the installation), not a
# lesson anyone projects; every other lesson must read the same on a dashboard.
LESSONS = sorted(path for path in (Path(__file__).parents[1] / "lessons").glob("[0-9][0-9]_*.ipynb")
                 if not path.name.startswith("00_"))
NOTEBOOK_ONLY = re.compile(r'<span class="cfrviz-notebook-only">(.*?)</span>', re.S)
CELL_TALK = re.compile(r"Shift\+Enter|[Rr]un (the|this|each) cells?")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_running_cells_is_mentioned_only_in_notebook_only_text(lesson):
    cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    for number, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        shown = NOTEBOOK_ONLY.sub("", "".join(cell["source"]))
        found = CELL_TALK.search(shown)
        assert found is None, (f"{lesson.name}, cell {number}: {found.group(0)!r} would show on "
                               "a dashboard; wrap it in <span class=\"cfrviz-notebook-only\">")


def test_presenter_style_hides_notebook_only_text():
    assert re.search(r"\.cfrviz-notebook-only\s*\{\s*display:\s*none", PRESENTER_CSS)


def test_the_check_finds_unwrapped_text():
    text = 'Run the cells (Shift+Enter). <span class="cfrviz-notebook-only">Run the cells</span>'
    assert [m.group(0) for m in CELL_TALK.finditer(NOTEBOOK_ONLY.sub("", text))] == [
        "Run the cells", "Shift+Enter"]
