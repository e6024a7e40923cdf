"""The lessons as files, and what a run of one must (not) show: shared by the headless runs
(tests/test_lessons.py) and the browser run of every lesson (tests/test_browser_lessons.py).

Not a test module (the leading underscore keeps pytest from collecting it).
"""

from __future__ import annotations

import importlib.util
import re
from collections import Counter
from functools import cache
from pathlib import Path

import nbformat

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
# tests/answers/NN.py: ANSWERS maps an exercise tag to a function that computes, with cfrviz,
# the strings that would give its answer away; UNSEARCHABLE maps the tags of exercises whose
# answer cannot be looked for in the outputs (code, free text) to why.
ANSWERS = Path(__file__).resolve().parent / "answers"
NOTEBOOKS = sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))


def _text(value) -> str:
    """A notebook field as one string (nbformat keeps multi-line strings as lists of lines)."""
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return str(value)


def outputs_text(outputs) -> str:
    """Everything a list of output dicts (nbformat's, or JupyterLab's model as JSON) shows:
    streams, every representation of display data, and errors' names and messages."""
    parts = []
    for out in outputs:
        parts.append(_text(out.get("text", "")))
        parts.extend(_text(v) for v in out.get("data", {}).values())
        if out.get("output_type") == "error":
            parts.append(f"{out['ename']}: {out['evalue']}")
    return "\n".join(parts)


def notebook_outputs(nb) -> list[dict]:
    """The outputs of every cell of a notebook, in order."""
    return [out for cell in nb.cells for out in cell.get("outputs", [])]


def exercise_cells(nb):
    """(cell, tag) for each exercise cell (tagged ``exercise-<slug>``)."""
    for cell in nb.cells:
        for tag in cell.metadata.get("tags", []):
            if tag.startswith("exercise-"):
                yield cell, tag


def has_exercises(path: Path) -> bool:
    return any(True for _ in exercise_cells(nbformat.read(path, as_version=4)))


def solution_for(notebook: Path, tag: str) -> Path:
    slug = tag.removeprefix("exercise-").replace("-", "_")
    return LESSONS / "solutions" / f"{notebook.name[:2]}_{slug}.py"


# A checker's verdict as a notebook shows it: the coloured box (Feedback._repr_html_, "<b>✓
# Correct.</b>") or the dataclass's repr ("status='correct'").
_VERDICT = re.compile(r"<b>\S+ (Correct|Wrong|Not done yet)\.</b>"
                      r"|status='(correct|wrong|not done yet)'")


def verdicts(text: str) -> Counter:
    """How many times the outputs ``text`` show each checker verdict ("correct", "wrong",
    "not done yet")."""
    return Counter((shown or repr_).lower() for shown, repr_ in _VERDICT.findall(text))


def unanswered_problems(name: str, text: str, exercises: bool) -> list[str]:
    """What is wrong with the outputs ``text`` of lesson ``name`` run unanswered, as shipped:
    a printed traceback (e.g. from a widget), a warning a student would see under a widget (a
    NaN in widget state, a deprecated argument), a failed install check or a checker calling a
    blank "wrong", or exercises whose checkers do not say "not done yet"."""
    problems = []
    if "Traceback" in text:
        problems.append(f"{name} prints a traceback")
    for warning in ("serialization failed", "DeprecationWarning", "UserWarning"):
        if warning in text:
            problems.append(f"{name} shows a {warning!r} warning")
    if "✗" in text:
        problems.append(f"{name} shows a ✗ (a failed install check, or a blank answer "
                        "called wrong)")
    said = verdicts(text)
    if exercises:
        if not said["not done yet"]:
            problems.append(f"{name}: no checker says 'not done yet' to a blank exercise")
        if said["correct"]:
            problems.append(f"{name}: a checker calls a blank exercise correct")
    return problems


def build_module():
    """tools/build_lessons.py as a module (the lesson parser and the planned-time rule)."""
    path = LESSONS.parent / "tools" / "build_lessons.py"
    spec = importlib.util.spec_from_file_location("build_lessons", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _answers_module(lesson: str):
    path = ANSWERS / f"{lesson.split('_')[0]}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"answers_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def answer_strings(lesson: str) -> dict[str, tuple[str, ...]]:
    """For each exercise of ``lesson`` (a notebook stem), the strings that give its answer away,
    computed by tests/answers/NN.py."""
    module = _answers_module(lesson)
    if module is None:
        return {}
    return {tag: tuple(compute()) for tag, compute in module.ANSWERS.items()}


def unsearchable(lesson: str) -> dict[str, str]:
    """The exercises of ``lesson`` whose answers are not strings to look for, with why."""
    module = _answers_module(lesson)
    return dict(getattr(module, "UNSEARCHABLE", {})) if module is not None else {}


def shown_answers(lesson: str, text: str) -> list[str]:
    """Each exercise answer of ``lesson`` that the outputs ``text`` of an unanswered run show."""
    return [f"{lesson} shows {tag}'s answer {shown!r} before the student tries"
            for tag, strings in answer_strings(lesson).items() for shown in strings
            if shown in text]
