"""Build lessons/NN_slug.ipynb from the plain-text sources in tools/lessons/.

Each source is a Python file in Jupytext's "percent" format, read by Jupytext: a line ``# %%``
starts a code cell, ``# %% [markdown]`` a markdown cell (its lines lose their leading ``# ``),
and ``tags=["a", "b"]`` after either sets cell tags.  A source's first cell, comments only,
says what the file is; it is for whoever edits the file and is not built.  Notebooks are
written with outputs cleared and no metadata but tags.  Run: ``python tools/build_lessons.py``
(or name sources: ``python tools/build_lessons.py 04_cfr_on_kuhn.py``).

The sources are in the form Jupytext writes, so an author may edit one as a notebook.  With
the test tools installed (``make test`` puts Jupytext and its JupyterLab extension in .venv;
``make lab``, for students, installs neither):
``.venv/bin/jupyter lab --ServerApp.root_dir=tools/lessons``, right-click a source, Open With,
Jupytext Notebook; saving writes the ``.py`` back, only cells and tags (no outputs, no other
metadata).  Or ``.venv/bin/jupytext --to notebook tools/lessons/04_cfr_on_kuhn.py``, edit, then
``.venv/bin/jupytext --to py:percent tools/lessons/04_cfr_on_kuhn.ipynb`` and delete that
``.ipynb`` (only ``lessons/`` holds notebooks).  Then rebuild.

Planned times are estimated from the sources by one stated rule (:func:`estimate`):
a lesson writes ``{{minutes}}`` for its own and ``{{minutes:NN_slug}}`` for
another's (lesson 00's course map), and the build fills them in.  README's
table is checked against the same rule by ``tests/test_planned_times.py``.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "tools" / "lessons"
# The planned-time rule, stated in lesson 00 and README: careful reading of technical text
# with formulas at WORDS_PER_MINUTE, CELL_MINUTES to run a code cell and look at what it
# shows, CODING_MINUTES for an exercise that asks for a function (its cell has a ``def``)
# and EXERCISE_MINUTES for any other exercise; the sum rounded to the nearest 5 minutes.
WORDS_PER_MINUTE = 110
CELL_MINUTES = 0.5
CODING_MINUTES = 10
EXERCISE_MINUTES = 4
WORD = re.compile(r"[A-Za-z0-9]+")
MINUTES = re.compile(r"\{\{minutes(?::(?P<slug>[0-9A-Za-z_]+))?\}\}")


def parse(text: str) -> list:
    """The lesson cells of a percent-format source ``text``, read by Jupytext, with no metadata
    but their tags."""
    cells = jupytext.reads(text, fmt="py:percent").cells
    if cells and cells[0].cell_type == "code" and all(
            line.startswith("#") for line in cells[0].source.splitlines()):
        cells = cells[1:]  # the source's header comment
    for cell in cells:
        tags = cell.metadata.get("tags", [])
        cell.metadata = {"tags": tags} if tags else {}
    return cells


def estimate(cells: list) -> float:
    """Minutes a student needs for a lesson's ``cells`` by the stated rule (unrounded)."""
    words = sum(len(WORD.findall(c.source)) for c in cells if c.cell_type == "markdown")
    code = [c for c in cells if c.cell_type == "code"]
    exercises = [c for c in code
                 if any(t.startswith("exercise-") for t in c.metadata.get("tags", []))]
    coding = sum(1 for c in exercises if re.search(r"^\s*def ", c.source, re.MULTILINE))
    return (words / WORDS_PER_MINUTE + CELL_MINUTES * len(code) + CODING_MINUTES * coding
            + EXERCISE_MINUTES * (len(exercises) - coding))


def planned_minutes() -> dict[str, int]:
    """Each lesson's planned time in minutes, by its file's stem: :func:`estimate` rounded to
    the nearest 5 (at least 5)."""
    planned = {}
    for source in sorted(SOURCES.glob("[0-9][0-9]*_*.py")):
        minutes = estimate(parse(source.read_text(encoding="utf-8")))
        planned[source.stem] = max(5, 5 * math.floor(minutes / 5 + 0.5))
    return planned


def fill_minutes(text: str, stem: str, planned: dict[str, int] | None = None) -> str:
    """Replace ``{{minutes}}`` by lesson ``stem``'s planned minutes and ``{{minutes:slug}}`` by
    lesson ``slug``'s; a lesson that does not exist is a ValueError."""
    planned = planned_minutes() if planned is None else planned

    def minutes(match: re.Match) -> str:
        slug = match["slug"] or stem
        if slug not in planned:
            raise ValueError(f"{stem}: {match[0]} names lesson {slug!r}, which is not in "
                             f"{SOURCES.relative_to(ROOT)}")
        return str(planned[slug])

    return MINUTES.sub(minutes, text)


def build(source: Path) -> Path:
    """Write ``lessons/<source's name>.ipynb`` from ``source``; return its path."""
    target = ROOT / "lessons" / f"{source.stem}.ipynb"
    nbformat.write(notebook(source), target)
    return target


def notebook(source: Path) -> nbformat.NotebookNode:
    """The lesson notebook ``source`` builds: its cells, outputs cleared, and stable cell ids."""
    nb = nbformat.v4.new_notebook()
    nb.cells = parse(fill_minutes(source.read_text(), source.stem))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):
        cell.id = f"{source.stem[:2]}-{i:02d}"
    nbformat.validate(nb)
    return nb


if __name__ == "__main__":
    SOURCES = ROOT / "tools" / "lessons"
    names = sys.argv[1:] or sorted(p.name for p in SOURCES.glob("*.py"))
    unknown = [name for name in names if not (SOURCES / name).is_file()]
    if unknown:  # --help included: the usage, and what there is to build
        sys.exit(f"usage: python tools/build_lessons.py [SOURCE.py ...]\n"
                 f"no source {', '.join(map(repr, unknown))} in tools/lessons/; the sources: "
                 + ", ".join(sorted(p.name for p in SOURCES.glob("*.py"))))
    for name in names:
        print("wrote", build(SOURCES / name).relative_to(ROOT))
