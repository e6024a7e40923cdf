"""The strict-typing ratchet of pyproject.toml (issue 21 item 6): the packages held to every
check of ``mypy --strict`` stay listed, with every one of its flags, so the ratchet can grow but
never silently shrink.  The gate itself is ``python -m mypy`` (``make lint``), which reads them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from mypy.main import process_options
from mypy.options import PER_MODULE_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
#: Packages made strict so far: add one here when pyproject lists it; never remove one.
STRICT_FLOOR = {"cfrviz.core.*", "cfrviz.engine.*", "cfrviz.games.*", "cfrviz.solvers.*"}


def _mypy_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def _strict_overrides() -> list[dict]:
    """The [[tool.mypy.overrides]] sections that list a package of STRICT_FLOOR."""
    found = []
    for section in _mypy_config().get("overrides", []):
        modules = section["module"]
        modules = [modules] if isinstance(modules, str) else modules
        if STRICT_FLOOR & set(modules):
            found.append({**section, "module": modules})
    return found


def _strict_flags() -> dict[str, object]:
    """What ``--strict`` changes, as this mypy defines it (a newer mypy may add a flag)."""
    _, strict = process_options(["--strict", "x.py"])
    _, plain = process_options(["x.py"])
    flags = {}
    for name in dir(strict):
        if name.startswith("_"):
            continue
        value = getattr(strict, name)
        if not callable(value) and value != getattr(plain, name):
            flags[name] = value
    return flags


def test_every_strict_package_stays_listed_in_one_section():
    sections = _strict_overrides()
    assert len(sections) == 1, "keep the strict packages in one [[tool.mypy.overrides]] section"
    listed = set(sections[0]["module"])
    missing = STRICT_FLOOR - listed
    assert not missing, f"the strict ratchet lost {sorted(missing)}; it may only grow"


def test_each_listed_pattern_names_a_package():
    for pattern in _strict_overrides()[0]["module"]:
        parts = pattern.removesuffix(".*").split(".")
        path = ROOT.joinpath(*parts)
        assert (path / "__init__.py").is_file() or path.with_suffix(".py").is_file(), \
            f"{pattern!r} matches no module of the package (a typo makes the ratchet a no-op)"


def test_the_section_sets_every_flag_of_strict():
    section, config = _strict_overrides()[0], _mypy_config()
    flags = _strict_flags()
    assert "disallow_untyped_defs" in flags and flags["implicit_reexport"] is False  # sanity
    wrong = [f"{name} = {section.get(name)!r} (strict: {value!r})"
             for name, value in flags.items()
             if name in PER_MODULE_OPTIONS and section.get(name) != value]
    wrong += [f"[tool.mypy] {name} = {config.get(name)!r} (strict: {value!r}; global only)"
              for name, value in flags.items()
              if name not in PER_MODULE_OPTIONS and config.get(name) != value]
    assert not wrong, "the strict section differs from --strict:\n" + "\n".join(wrong)
    loosened = [key for key in ("ignore_errors", "disable_error_code", "allow_untyped_globals")
                if key in section]
    assert not loosened, f"the strict section loosens the checks with {loosened}"


@pytest.mark.parametrize("pattern", sorted(STRICT_FLOOR))
def test_no_bare_type_ignore_in_strict_packages(pattern):
    """An ignore in a strict package names its error code (and says why beside it)."""
    folder = ROOT.joinpath(*pattern.removesuffix(".*").split("."))
    bare = [f"{path.relative_to(ROOT)}:{number}"
            for path in sorted(folder.rglob("*.py"))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if re.search(r"#\s*type:\s*ignore(?!\[)", line)]
    assert not bare, f"bare '# type: ignore' (give the error code): {bare}"
