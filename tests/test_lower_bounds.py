"""tools/lower_bounds.py turns pyproject.toml's lower bounds into a pip constraints file."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("lower_bounds", ROOT / "tools" / "lower_bounds.py")
lower_bounds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lower_bounds)


@pytest.mark.parametrize("requirement, pin", [
    ("numpy>=1.26", "numpy==1.26"),
    ("ruff>=0.17.6,<0.18", "ruff==0.17.6"),
    ("mypy >= 2.4.1, < 2.5", "mypy==2.4.1"),
    ("Foo_Bar[extra]>=2.0 ; python_version < '3.13'", "Foo_Bar==2.0; python_version < '3.13'"),
])
def test_each_lower_bound_becomes_a_pin(requirement, pin):
    assert lower_bounds.lower_bound(requirement) == pin


@pytest.mark.parametrize("requirement", ["numpy", "numpy<2", "numpy==1.26", "numpy>=1,>=2", "!"])
def test_a_requirement_without_one_lower_bound_is_refused(requirement):
    with pytest.raises(lower_bounds.BoundError):
        lower_bounds.lower_bound(requirement)


def test_the_project_has_a_lower_bound_for_every_dependency(tmp_path):
    out = tmp_path / "constraints.txt"
    subprocess.run([sys.executable, str(ROOT / "tools" / "lower_bounds.py"), "--extra", "test",
                    "-o", str(out)], check=True)
    lines = out.read_text().splitlines()
    assert "numba==0.60" in lines and "pytest==8.0" in lines
    assert all("==" in line for line in lines)


def test_the_pins_are_the_bounds_pyproject_states():
    # A second reading of pyproject.toml, by packaging's own parser: every dependency and test
    # requirement, pinned at exactly the version its ">=" names, and nothing else.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    expected = {}
    for text in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
        requirement = Requirement(text)
        (bound,) = [spec.version for spec in requirement.specifier if spec.operator == ">="]
        expected[canonicalize_name(requirement.name)] = bound
    pinned = {}
    for line in lower_bounds.constraints(ROOT / "pyproject.toml", ["test"]):
        pin = Requirement(line)
        (spec,) = pin.specifier
        assert spec.operator == "==", line
        pinned[canonicalize_name(pin.name)] = spec.version
    assert pinned == expected


def test_a_missing_bound_fails_with_a_message(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["numpy>=1.26", "scipy"]\n')
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "lower_bounds.py"),
                           "--pyproject", str(pyproject)], capture_output=True, text=True)
    assert done.returncode == 1 and "'scipy' states no single lower bound" in done.stderr
