"""Run a lesson's reference answer (lessons/solutions/NN_name.py) as its exercise cell would."""

from __future__ import annotations

import linecache
from pathlib import Path

import numpy as np

import cfrviz

SOLUTIONS = Path(__file__).resolve().parent.parent / "lessons" / "solutions"


def run_solution(name: str, **namespace) -> dict:
    """Execute ``name`` with ``np``, ``cfrviz`` and ``namespace`` defined; return its names."""
    namespace.setdefault("np", np)
    namespace.setdefault("cfrviz", cfrviz)
    exec((SOLUTIONS / name).read_text(), namespace)
    return namespace


def as_cell(source: str, **namespace) -> dict:
    """Run ``source`` as IPython runs a cell: a file name of its own, its lines in linecache.

    A checker then finds the student's line in a traceback as it would in a notebook.
    """
    filename = f"/tmp/student_cell_{abs(hash(source))}.py"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace.setdefault("np", np)
    exec(compile(source, filename, "exec"), namespace)
    return namespace
