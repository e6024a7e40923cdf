"""binder/ builds an environment in which lesson 00's installation check passes.

Binder and a JupyterHub image (docs/CLASSROOM.md) are built by repo2docker from
``binder/environment.yml`` (conda) and ``binder/postBuild``.  No container engine runs here, so
this test builds the nearest thing: a fresh venv with the Python the file names, the same
package list installed from PyPI, then postBuild itself run with that venv first on PATH, in a
copy of the repository (as repo2docker copies it into the image), then ``python -m
cfrviz.check`` — what lesson 00's first cell runs.  postBuild compiles the engine into the
copy's cold cache; a lesson's first solves in a new process must then compile nothing (the cold
half of tests/test_warm.py's check, which compiles the engine only here).  What it does not
cover: conda's builds of the packages, and the image's own Python (see docs/CLASSROOM.md).

The package list is installed with uv (a test requirement), which resolves and installs the
same PyPI releases as pip in seconds rather than minutes; the venv itself comes from ``python
-m venv``, so it has pip, as a conda environment listing ``pip`` has, for postBuild's own
``pip install``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_warm import FIRST_USE, compiled_on_first_use

from cfrviz.warm import KERNELS

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"

pytestmark = pytest.mark.slow

# A conda or pip requirement: a name, then an optional version clause (conda's "=3.11" or a
# pip-style ">=1.26").
_ITEM = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?P<clause>(?:[<>=!~]=?|=)\s*\S+)?$")
NOT_FROM_PIP = {"python", "pip"}  # conda provides these; a venv has both already
#: conda-forge names that differ from the PyPI name of the same release.
PYPI_NAMES = {"python-kaleido": "kaleido"}


def binder_packages(text: str) -> tuple[str | None, list[str]]:
    """(the Python version it names, pip requirements) from an environment.yml's text.

    Conda's ``name=1.2`` (a version prefix) becomes pip's ``name==1.2.*``; ``>=`` clauses stay
    as they are.  Items of a nested ``pip:`` list are kept, except ``-e .`` / ``.`` (cfrviz
    itself, which postBuild installs).
    """
    python, requirements = None, []
    in_dependencies = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not line.startswith(" "):
            in_dependencies = line == "dependencies:"
            continue
        item = line.strip()
        if not in_dependencies or not item.startswith("- ") or item.endswith(":"):
            continue
        item = item[2:].strip().strip("'\"")
        if item in ("-e .", "."):
            continue
        match = _ITEM.match(item)
        assert match, f"cannot read the binder requirement {item!r}"
        name, clause = match["name"], (match["clause"] or "").replace(" ", "")
        if clause.startswith("=") and not clause.startswith("=="):
            clause = f"=={clause[1:]}.*"
        if name == "python":
            python = clause.removeprefix("==").removesuffix(".*") or None
        elif name not in NOT_FROM_PIP:
            requirements.append(PYPI_NAMES.get(name, name) + clause)
    return python, requirements


def test_binder_packages_are_read():
    python, requirements = binder_packages(
        "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - numpy>=1.26\n"
        "  - tqdm\n  - pip\n  - pip:\n      - -e .\n      - rich==13.0  # a comment\n")
    assert python == "3.11"
    assert requirements == ["numpy>=1.26", "tqdm", "rich==13.0"]


def _python(version: str | None) -> str:
    """A runnable interpreter of ``version`` (this one if it matches)."""
    if version is None or f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return sys.executable
    path = shutil.which(f"python{version}")
    if path and subprocess.run([path, "-c", "pass"], capture_output=True).returncode == 0:
        return path
    message = f"binder/environment.yml asks for Python {version}, which is not on this machine"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200, **kwargs)
    tail = "\n".join((done.stdout + done.stderr).splitlines()[-40:])
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{tail}"
    return done


def test_binder_environment_passes_the_installation_check(tmp_path):
    python, requirements = binder_packages(
        (BINDER / "environment.yml").read_text(encoding="utf-8"))
    assert requirements, "binder/environment.yml lists no packages"
    venv = tmp_path / "venv"
    _run([_python(python), "-m", "venv", str(venv)])
    bin_dir = venv / "bin"
    _run([sys.executable, "-m", "uv", "pip", "install", "--python", str(bin_dir / "python"),
          *requirements])

    # The repository as repo2docker copies it (without this checkout's environments, caches and
    # compiled kernels), so postBuild's editable install and warm touch nothing here.
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "artifacts", "__pycache__", "*.egg-info", ".*_cache", ".hypothesis",
        ".ipynb_checkpoints", "build"))
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "NUMBA_CACHE_DIR", "CFRVIZ_PRESENTER")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(venv))
    warmed = _run(["bash", str(repo / "binder" / "postBuild")], cwd=repo, env=env)
    # The copy's cache starts cold: every kernel is compiled, into the copy's own cache.
    assert "The compile cache was cold" in warmed.stdout and str(repo) in warmed.stdout, \
        warmed.stdout
    for number, kernel in enumerate(KERNELS, start=1):
        assert f"  [{number}/{len(KERNELS)}] {kernel.name} " in warmed.stdout, kernel.name
    # Then a lesson's first solves, in a new process of the image's Python, compile nothing
    # (tests/test_warm.py checks the same in .venv, whose cache make's install warmed).
    first = _run([str(bin_dir / "python"), "-c", FIRST_USE], cwd=repo, env=env)
    assert compiled_on_first_use(first.stdout) == []
    # The course's Jupyter settings, where the image's server and JupyterLab read them.
    server = json.loads((venv / "etc/jupyter/jupyter_server_config.d/cfrviz.json").read_text())
    assert server["ContentsManager"]["pre_save_hook"] == "cfrviz.jupyter_hooks.forget_widget_views"
    lab = json.loads((venv / "share/jupyter/lab/settings/overrides.json").read_text())
    assert lab["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"

    # Lesson 00's first cell runs this check (from the lessons folder, in the image's Python).
    checked = _run([str(bin_dir / "python"), "-m", "cfrviz.check"], cwd=repo / "lessons", env=env)
    assert "All set" in checked.stdout, checked.stdout
    assert str(repo / "cfrviz") in _run(
        [str(bin_dir / "python"), "-c", "import cfrviz; print(cfrviz.__file__)"],
        cwd=tmp_path, env=env).stdout
