"""Build lessons/NN_slug.ipynb from the plain-text sources in tools/lessons/.

Each source is a Python file in the "percent" format: a line ``# %%`` starts a
code cell, ``# %% [markdown]`` a markdown cell (its lines lose their leading
``# ``), and ``tags=["a", "b"]`` after either sets cell tags.  Notebooks are
written with outputs cleared.  Run: ``python tools/build_lessons.py``.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^# %%(?P<md> \[markdown\])?(?: tags=(?P<tags>\[.*\]))?\s*$")


def parse(text: str) -> list:
    cells, kind, tags, lines = [], None, [], []

    def flush():
        if kind is None:
            return
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            body = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                             for line in body.splitlines())
            cell = nbformat.v4.new_markdown_cell(body)
        else:
            cell = nbformat.v4.new_code_cell(body)
        if tags:
            cell.metadata["tags"] = tags
        cells.append(cell)

    for line in text.splitlines():
        match = MARKER.match(line)
        if match:
            flush()
            kind = "markdown" if match["md"] else "code"
            tags = ast.literal_eval(match["tags"]) if match["tags"] else []
            lines = []
        elif kind is not None:
            lines.append(line)
    flush()
    return cells


def build(source: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = parse(source.read_text())
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):
        cell.id = f"{source.stem[:2]}-{i:02d}"
    target = ROOT / "lessons" / f"{source.stem}.ipynb"
    nbformat.validate(nb)
    nbformat.write(nb, target)
    return target


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in (ROOT / "tools" / "lessons").glob("*.py"))
    for name in names:
        print("wrote", build(ROOT / "tools" / "lessons" / name).relative_to(ROOT))
