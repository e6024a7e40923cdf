"""README is read by a student in five minutes, and what it says is true (issue 31): its size,
its ten-line example (run, its printed output compared), its lesson table and exercise counts
against lessons/, its links; docs/ARCHITECTURE.md's size."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from _lessons import NOTEBOOKS, exercise_cells

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


@pytest.mark.parametrize(("path", "limit"), [("README.md", 10_000),
                                             ("docs/ARCHITECTURE.md", 8_000)])
def test_the_docs_a_reader_finishes_stay_short(path, limit):
    size = len((ROOT / path).read_bytes())
    assert size <= limit, f"{path} is {size:,} bytes; at most {limit:,} (issue 31)"


def _example() -> tuple[str, str]:
    """The code block under 'Ten lines of Python' and the output block after it."""
    section = README.split("## Ten lines of Python", 1)[1].split("\n## ", 1)[0]
    code, output = re.findall(r"^```[a-z]*\n(.*?)^```", section, re.MULTILINE | re.DOTALL)[:2]
    return code, output


def test_the_example_is_ten_lines_and_prints_what_readme_shows(tmp_path):
    code, shown = _example()
    assert len(code.splitlines()) <= 10
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    printed = done.stdout
    # The words exactly; the numbers to 1e-9 (the last digits may move with numpy's version).
    assert NUMBER.sub("#", printed) == NUMBER.sub("#", shown), printed
    for got, want in zip(NUMBER.findall(printed), NUMBER.findall(shown), strict=True):
        assert float(got) == pytest.approx(float(want), rel=1e-9, abs=1e-12), (got, want)


def test_the_lesson_table_lists_every_lesson():
    rows = re.findall(r"^\| `(\d\d_[a-z_]+)` \|", README, re.MULTILINE)
    assert rows == [path.stem for path in NOTEBOOKS]


def test_the_exercise_counts_are_the_lessons():
    cells = [cell for path in NOTEBOOKS
             for cell, _ in exercise_cells(nbformat.read(path, as_version=4))]
    coding = [cell for cell in cells if re.search(r"^\s*def ", cell.source, re.MULTILINE)]
    flat = " ".join(README.split())
    assert f"The {len(cells)} exercises" in flat
    assert f"in {len(coding)} of them you write a function" in flat


def test_every_link_goes_somewhere():
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [t for t in targets if "://" not in t]
    assert {"docs/API.md", "docs/ARCHITECTURE.md", "docs/CLASSROOM.md",
            "benchmarks/RESULTS.md"} <= set(local)
    missing = [t for t in local if not (ROOT / t).exists()]
    assert not missing, missing


def test_the_commands_it_names_exist():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in sorted(set(re.findall(r"`make ([a-z-]+)", README))):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE), f"make {target}"


def test_architectures_table_is_the_layer_rule_the_test_enforces():
    from test_architecture import LAYERS, REFERENCE_IMPORTS, REFERENCE_READERS

    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = {int(number): tuple(sorted(
        "cfrviz" if name == "cfrviz/__init__.py" else name.removesuffix("/").removesuffix(".py")
        for name in re.findall(r"`([a-z_/]+(?:\.py)?)`", folders)))
        for number, folders in re.findall(r"^\| (\d+) \| ([^|]+) \|", text, re.MULTILINE)}
    assert [rows[n] for n in sorted(rows)] == [tuple(sorted(group)) for group in LAYERS]
    reference = text.split("`reference/` stands beside the rows", 1)[1].split("\n\n", 1)[0]
    for name in (*REFERENCE_IMPORTS, *REFERENCE_READERS):
        assert f"`{name.replace('.', '/')}" in reference, name


def test_architecture_names_the_strict_typed_packages_pyproject_lists():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    strict = [o for o in config["overrides"] if o.get("disallow_untyped_defs")]
    packages = [m.removeprefix("cfrviz.").removesuffix(".*") for o in strict for m in o["module"]]
    text = " ".join((ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8").split())
    named = re.search(r"\(today ([a-z, ]+)\) hold to every check of `mypy --strict`", text)
    assert named, "ARCHITECTURE no longer names the strict-typed packages"
    assert re.split(r", | and ", named[1]) == packages
