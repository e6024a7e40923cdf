"""tools/build_lessons.py: every committed lesson is exactly what its source builds, and every
source is in the form Jupytext writes (an author who opens one as a notebook and saves it
changes nothing but what they edited).  No kernel runs here."""

from __future__ import annotations

import jupytext
import nbformat
import pytest
from _lessons import LESSONS, build_module

BUILD = build_module()
SOURCES = sorted((LESSONS.parent / "tools" / "lessons").glob("*.py"))


def test_every_lesson_has_a_source_and_every_source_a_lesson():
    assert [s.stem for s in SOURCES] == sorted(p.stem for p in LESSONS.glob("*.ipynb"))


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_the_committed_lesson_is_what_its_source_builds(source):
    committed = (LESSONS / f"{source.stem}.ipynb").read_text()
    assert nbformat.writes(BUILD.notebook(source)) + "\n" == committed, (
        f"lessons/{source.stem}.ipynb differs from what tools/lessons/{source.name} builds: "
        f"run python tools/build_lessons.py {source.name}")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_a_source_comes_back_unchanged_through_jupytext(source):
    text = source.read_text()
    assert jupytext.writes(jupytext.reads(text, fmt="py:percent"), fmt="py:percent") == text


def test_an_unknown_source_gets_the_usage_not_a_traceback():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "tools/build_lessons.py", "--help"],
                          cwd=LESSONS.parent, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "usage: python tools/build_lessons.py" in done.stderr
    assert "no source '--help' in tools/lessons/" in done.stderr
    assert "04_cfr_on_kuhn.py" in done.stderr  # the sources there are
