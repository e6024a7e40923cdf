"""benchmarks/RESULTS.md is written by the benchmark scripts (benchmarks/_results.py), not by hand:
each section is a script's own output with its stamp, or says that its script has not run yet."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _results():
    spec = importlib.util.spec_from_file_location("_results", BENCHMARKS / "_results.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RESULTS = _results()
SECTION = re.compile(r"^<!-- (\w+) -->\n(.*?)^<!-- \1 -->$", re.MULTILINE | re.DOTALL)


def test_a_section_is_replaced_between_its_markers_and_others_are_kept(tmp_path):
    path = tmp_path / "RESULTS.md"
    path.write_text("# Results\n\nkept\n")
    RESULTS.write_section("bench_a", "first", "cmd a", load=1.5, path=path)
    RESULTS.write_section("bench_b", "| x |\n|---|", "cmd b", path=path)
    RESULTS.write_section("bench_a", "second", "cmd a --again", load=2.0, path=path)
    text = path.read_text()
    sections = dict(SECTION.findall(text))
    assert list(sections) == ["bench_a", "bench_b"]
    assert "second" in sections["bench_a"] and "first" not in text
    assert "Command: `cmd a --again`" in sections["bench_a"]
    assert "load average 2.00 at the start" in sections["bench_a"]
    assert text.startswith("# Results\n\nkept\n")


def test_a_lone_marker_is_refused(tmp_path):
    path = tmp_path / "RESULTS.md"
    path.write_text("<!-- bench_a -->\nhalf a section\n")
    with pytest.raises(ValueError, match="1 '<!-- bench_a -->' markers"):
        RESULTS.write_section("bench_a", "x", "cmd", path=path)
    assert path.read_text() == "<!-- bench_a -->\nhalf a section\n"


def test_every_section_was_written_by_its_script_or_says_it_was_not():
    text = (BENCHMARKS / "RESULTS.md").read_text(encoding="utf-8")
    sections = dict(SECTION.findall(text))
    scripts = sorted(p.stem for p in BENCHMARKS.glob("bench_*.py"))
    assert sorted(sections) == scripts
    for name, body in sections.items():
        written = re.search(r"^Written by the script on \d{4}-\d\d-\d\d \d\d:\d\d UTC; .*"
                            r"\d+ cores, load average [\d.]+ at the start.*\n"
                            rf"Command: `\.venv/bin/python benchmarks/{name}\.py[^`]*`$",
                            body, re.MULTILINE)
        assert written or "Not yet run by its script" in body, name


@pytest.mark.parametrize("script", sorted(BENCHMARKS.glob("bench_*.py")), ids=lambda p: p.stem)
def test_every_benchmark_writes_its_section(script):
    assert f'with recorded("{script.stem}"' in script.read_text(encoding="utf-8")
