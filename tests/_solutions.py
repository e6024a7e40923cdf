"""Run a lesson's reference answer (lessons/solutions/NN_name.py) as its exercise cell would."""

from __future__ import annotations

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
