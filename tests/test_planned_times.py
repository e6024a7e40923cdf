"""Planned times have one source, tools/lessons/planned_minutes.json (issue 22 item 7): the
lessons' own "About N minutes", lesson 00's course map and README's table all agree with it."""

import importlib.util
import json
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
PLANNED = json.loads((ROOT / "tools" / "lessons" / "planned_minutes.json").read_text())
SOURCES = sorted((ROOT / "tools" / "lessons").glob("[0-9][0-9]_*.py"))


def _build_module():
    spec = importlib.util.spec_from_file_location("build_lessons",
                                                  ROOT / "tools" / "build_lessons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _markdown(stem: str) -> str:
    nb = nbformat.read(ROOT / "lessons" / f"{stem}.ipynb", as_version=4)
    return "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")


def test_every_lesson_has_a_planned_time_and_nothing_else_does():
    assert set(PLANNED) == {path.stem for path in SOURCES}
    assert all(isinstance(m, int) and m > 0 for m in PLANNED.values())


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_sources_take_their_time_from_the_file(source):
    text = source.read_text()
    assert "{{minutes}}" in text, f"{source.name} does not state its planned time"
    assert not re.search(r"About \d+ minutes|takes \w+ minutes", text), source.name


@pytest.mark.parametrize("stem", sorted(PLANNED))
def test_built_lessons_state_the_planned_time(stem):
    text = _markdown(stem)
    assert "{{minutes" not in text
    assert re.search(rf"\babout {PLANNED[stem]} minutes", text, re.IGNORECASE), stem


def test_the_course_map_agrees():
    rows = dict(re.findall(r"\]\((\d\d_[a-z_]+)\.ipynb\) \|.*\| (\d+) min \|",
                           _markdown("00_start_here")))
    assert {stem: int(m) for stem, m in rows.items()} == {
        stem: m for stem, m in PLANNED.items() if stem != "00_start_here"}


def test_the_readme_table_agrees():
    readme = (ROOT / "README.md").read_text()
    rows = dict(re.findall(r"^\| `(\d\d_[a-z_]+)` \|.*\| (\d+) min \|$", readme, re.MULTILINE))
    assert {stem: int(m) for stem, m in rows.items()} == PLANNED


def test_an_unknown_lesson_in_a_placeholder_is_a_clear_error():
    build = _build_module()
    assert build.fill_minutes("About {{minutes}} minutes", "01_regret_matching") == \
        f"About {PLANNED['01_regret_matching']} minutes"
    with pytest.raises(ValueError, match="99_nowhere"):
        build.fill_minutes("{{minutes:99_nowhere}}", "00_start_here")
