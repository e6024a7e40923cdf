"""Planned times come from one stated rule (tools/build_lessons.py estimate, issue 29 item 9):
the lessons' own "About N minutes", lesson 00's course map and README's table all agree with it,
lesson 00 and README state the rule, and no lesson is planned over an hour."""

import re
from pathlib import Path

import nbformat
import pytest
from _lessons import build_module

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "tools" / "lessons").glob("[0-9][0-9]_*.py"))



def _markdown(stem: str) -> str:
    nb = nbformat.read(ROOT / "lessons" / f"{stem}.ipynb", as_version=4)
    return "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")


PLANNED = build_module().planned_minutes()


def test_every_lesson_has_a_planned_time_of_an_hour_at_most():
    assert set(PLANNED) == {path.stem for path in SOURCES}
    too_long = {stem: m for stem, m in PLANNED.items() if m > 60}
    assert not too_long, f"split or trim these lessons (planned minutes): {too_long}"


def test_the_estimate_follows_the_stated_rule():
    build = build_module()
    words = " ".join(["word"] * 2 * build.WORDS_PER_MINUTE)  # two minutes of reading
    cells = build.parse(f"# %% [markdown]\n# {words}\n# %%\nx = 1\n"
                        '# %% tags=["exercise-a"]\ndef f():\n    pass\n'
                        '# %% tags=["exercise-b"]\nanswer = None\n')
    assert build.estimate(cells) == pytest.approx(
        2 + 3 * build.CELL_MINUTES + build.CODING_MINUTES + build.EXERCISE_MINUTES)


@pytest.mark.parametrize("stem", ["00_start_here"])
def test_the_rule_is_stated_where_students_and_instructors_read_times(stem):
    build = build_module()
    rule = (f"{build.WORDS_PER_MINUTE} words a minute", f"{build.CODING_MINUTES} minutes",
            f"{build.EXERCISE_MINUTES} minutes")
    for text, where in ((_markdown(stem), stem), ((ROOT / "README.md").read_text(), "README")):
        flat = " ".join(text.split())
        missing = [part for part in rule if part not in flat]
        assert not missing, f"{where} does not state the planned-time rule: {missing}"


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
    build = build_module()
    assert build.fill_minutes("About {{minutes}} minutes", "01_regret_matching") == \
        f"About {PLANNED['01_regret_matching']} minutes"
    with pytest.raises(ValueError, match="99_nowhere"):
        build.fill_minutes("{{minutes:99_nowhere}}", "00_start_here")
