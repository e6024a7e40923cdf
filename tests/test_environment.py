"""pyproject.toml and environment.yml must ask for the same packages at the same lower bounds.

environment.yml is parsed by a few lines of code rather than a YAML library: the file is a
flat list, and PyYAML is not a dependency of cfrviz.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# "numpy>=1.26" (pip) or "numpy>=1.26" (conda); names compare case- and -/_-insensitively.
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:>=\s*([0-9][0-9.]*))?\s*$")


# conda-forge's name -> PyPI's, where they differ (kaleido 1.x is python-kaleido on conda-forge)
CONDA_NAMES = {"python-kaleido": "kaleido"}


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirement(text: str, where: str) -> tuple[str, str | None]:
    """Split ``"name>=1.2"`` into ``("name", "1.2")``; ``"name"`` gives ``("name", None)``."""
    match = _REQUIREMENT.match(text)
    if match is None:
        raise ValueError(
            f"{where}: cannot read requirement {text!r}; write it as 'name' or 'name>=X.Y'"
        )
    return _normalize(match.group(1)), match.group(2)


def pyproject_requirements(path: Path) -> tuple[dict[str, str | None], str]:
    """Return ({package: lower bound}, requires-python lower bound) from pyproject.toml."""
    project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
    requirements = dict(parse_requirement(r, path.name) for r in project["dependencies"])
    python = parse_requirement("python" + project["requires-python"], path.name)[1]
    return requirements, python


def environment_requirements(text: str, where: str = "environment.yml") -> tuple[dict, str]:
    """Return ({package: lower bound}, python version) from an environment.yml's text.

    Reads the top-level ``dependencies:`` list; the ``pip`` package and the nested
    ``pip:`` list (which installs cfrviz itself) are not conda requirements.
    """
    requirements: dict[str, str | None] = {}
    python = None
    in_dependencies = False
    item_indent = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            in_dependencies = line == "dependencies:"
            continue
        if not in_dependencies or not line.lstrip().startswith("- "):
            continue
        if item_indent is None:
            item_indent = indent
        if indent != item_indent:
            continue  # an entry of the nested pip: list
        item = line.lstrip()[2:].strip()
        if item in ("pip", "pip:"):
            continue
        if item.startswith("python="):
            python = item.removeprefix("python=")
            continue
        if "=" in item.replace(">=", ""):
            raise ValueError(
                f"{where}, line {number}: {item!r} pins a version; "
                "use 'name>=X.Y' as in pyproject.toml"
            )
        name, bound = parse_requirement(item, f"{where}, line {number}")
        requirements[CONDA_NAMES.get(name, name)] = bound
    if not requirements:
        raise ValueError(f"{where}: no entries found under 'dependencies:'")
    return requirements, python


def compare_requirements(pip: dict, conda: dict) -> list[str]:
    """Describe every difference between two {package: lower bound} maps (empty if equal)."""
    problems = []
    for name in sorted(pip.keys() - conda.keys()):
        problems.append(f"{name} is in pyproject.toml but missing from environment.yml")
    for name in sorted(conda.keys() - pip.keys()):
        problems.append(f"{name} is in environment.yml but missing from pyproject.toml")
    for name in sorted(pip.keys() & conda.keys()):
        if pip[name] != conda[name]:
            problems.append(
                f"{name}: pyproject.toml asks for >={pip[name]}, "
                f"environment.yml for >={conda[name]}"
            )
    return problems


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_environment_yml_matches_pyproject():
    pip, requires_python = pyproject_requirements(ROOT / "pyproject.toml")
    conda, python = environment_requirements((ROOT / "environment.yml").read_text("utf-8"))
    problems = compare_requirements(pip, conda)
    assert not problems, "pyproject.toml and environment.yml disagree:\n" + "\n".join(problems)
    assert python is not None, "environment.yml should pin python=3.11"
    assert _version_tuple(python) >= _version_tuple(requires_python)


def test_environment_yml_installs_cfrviz_from_the_repo():
    text = (ROOT / "environment.yml").read_text("utf-8")
    assert re.search(r"^\s+- (-e )?\.\s*$", text, re.MULTILINE), "pip section should install cfrviz"
    assert re.search(r"^\s+- conda-forge\s*$", text, re.MULTILINE)


def test_mismatches_are_reported():
    pip = {"numpy": "1.26", "plotly": "6.0", "networkx": "3.2"}
    conda = {"numpy": "1.24", "plotly": "6.0", "scipy": "1.11"}
    assert compare_requirements(pip, conda) == [
        "networkx is in pyproject.toml but missing from environment.yml",
        "scipy is in environment.yml but missing from pyproject.toml",
        "numpy: pyproject.toml asks for >=1.26, environment.yml for >=1.24",
    ]


def test_parser_reads_the_list_format():
    text = """\
name: demo  # comment
channels:
  - conda-forge
dependencies:
  - python=3.12
  - NumPy>=1.26   # a comment
  - jupyter_client
  - pip
  - pip:
      - -e .
      - some-pip-only-package>=9
"""
    assert environment_requirements(text) == ({"numpy": "1.26", "jupyter-client": None}, "3.12")


def test_parser_rejects_pins():
    with pytest.raises(ValueError, match="line 3.*pins a version"):
        environment_requirements("dependencies:\n  - python=3.11\n  - numpy=1.26\n")


def test_binder_environment_matches_pyproject():
    # Binder builds binder/environment.yml, then runs binder/postBuild in the copied repository.
    pip, _ = pyproject_requirements(ROOT / "pyproject.toml")
    environment = (ROOT / "binder" / "environment.yml").read_text("utf-8")
    conda, python = environment_requirements(environment, "binder/environment.yml")
    assert not compare_requirements(pip, conda)
    assert python is not None
    assert "pip install --no-deps -e ." in (ROOT / "binder" / "postBuild").read_text("utf-8")
