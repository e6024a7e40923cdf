"""requirements/*.txt (tools/lock.py) agree with pyproject.toml, and the two commands use them.

Read with ``packaging`` (a second parser, not tools/lock.py's): every line of a lock is an exact
pin with hashes; on every Python and platform the locks are for, each direct requirement of
pyproject.toml is pinned once, inside its range; the lab lock is the test lock's versions.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("lock", ROOT / "tools" / "lock.py")
lock = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lock)

LOCKS = {"lab.txt": [], "test.txt": ["test"], "bench.txt": ["test", "bench"],
         "hub.txt": ["test", "hub"]}
PLATFORMS = [("linux", "Linux", "posix"), ("darwin", "Darwin", "posix"),
             ("win32", "Windows", "nt")]
_HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}")


def entries(path: Path) -> list[tuple[Requirement, list[str]]]:
    """(requirement, hashes) for each pin of a ``pip compile`` file (``\\`` continues a line)."""
    text = path.read_text(encoding="utf-8")
    logical = re.sub(r"\\\n\s*", " ", text)
    found = []
    for line in logical.splitlines():
        line = line.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        requirement, *hashes = line.split(" --hash=")
        found.append((Requirement(requirement), [f"--hash={h.strip()}" for h in hashes]))
    return found


def environments():
    """A marker environment for each Python (its first and a late patch release) and platform."""
    for version in lock.PYTHONS:
        for patch in ("0", "99"):
            for sys_platform, system, os_name in PLATFORMS:
                env = default_environment()
                env.update(python_version=version, python_full_version=f"{version}.{patch}",
                           sys_platform=sys_platform, platform_system=system, os_name=os_name,
                           implementation_name="cpython",
                           platform_python_implementation="CPython")
                yield f"{version}.{patch}-{sys_platform}", env


def pins(path: Path, env: dict) -> dict[str, str]:
    """{name: version} of the lines of ``path`` that apply in ``env``; a name twice fails."""
    found: dict[str, str] = {}
    for requirement, _ in entries(path):
        if requirement.marker is not None and not requirement.marker.evaluate(env):
            continue
        name = canonicalize_name(requirement.name)
        assert name not in found, f"{path.name}: {name} is pinned twice for {env['sys_platform']}"
        found[name] = str(next(iter(requirement.specifier)).version)
    return found


def direct_requirements(extras: list[str]) -> list[Requirement]:
    """pyproject.toml's dependencies, the extras named, and the build backend."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    texts = [*pyproject["project"]["dependencies"], *pyproject["build-system"]["requires"]]
    for extra in extras:
        texts += pyproject["project"]["optional-dependencies"][extra]
    return [Requirement(text) for text in texts]


@pytest.mark.parametrize("name", LOCKS)
def test_every_line_is_an_exact_pin_with_hashes(name):
    found = entries(ROOT / "requirements" / name)
    assert len(found) > 50, f"{name}: only {len(found)} pins"
    for requirement, hashes in found:
        (spec,) = requirement.specifier
        assert spec.operator == "==", f"{name}: {requirement} is not an exact pin"
        assert hashes and all(_HASH.fullmatch(h) for h in hashes), f"{name}: {requirement}"


@pytest.mark.parametrize("name, extras", LOCKS.items())
def test_each_direct_requirement_is_locked_within_its_range(name, extras):
    path = ROOT / "requirements" / name
    for where, env in environments():
        locked = pins(path, env)
        for requirement in direct_requirements(extras):
            if requirement.marker is not None and not requirement.marker.evaluate(env):
                continue
            key = canonicalize_name(requirement.name)
            assert key in locked, f"{name} has no {key} for {where}: run make lock"
            assert requirement.specifier.contains(locked[key], prereleases=True), (
                f"{name}: {key}=={locked[key]} for {where} is outside pyproject.toml's "
                f"{requirement.specifier}: run make lock")


def test_the_lab_lock_has_the_test_locks_versions():
    """``make test`` after ``make lab`` adds the test tools and changes no version."""
    for where, env in environments():
        lab = pins(ROOT / "requirements" / "lab.txt", env)
        test = pins(ROOT / "requirements" / "test.txt", env)
        changed = {k: (v, test.get(k)) for k, v in lab.items() if test.get(k) != v}
        assert not changed, f"{where}: lab.txt and test.txt differ: {changed}"
        assert {"pytest", "mypy", "ruff", "uv"} <= test.keys() - lab.keys()


def test_the_bench_lock_only_adds_to_the_test_lock():
    """``make bench-install`` after ``make test`` adds the bench extra and changes no version."""
    for where, env in environments():
        test = pins(ROOT / "requirements" / "test.txt", env)
        bench = pins(ROOT / "requirements" / "bench.txt", env)
        changed = {k: (v, bench.get(k)) for k, v in test.items() if bench.get(k) != v}
        assert not changed, f"{where}: test.txt and bench.txt differ: {changed}"
        assert {"liteefg", "open-spiel"} <= bench.keys() - test.keys()


def test_the_hub_lock_only_adds_to_the_test_lock():
    """``make hub-install`` after ``make test`` adds JupyterHub and changes no version."""
    for where, env in environments():
        test = pins(ROOT / "requirements" / "test.txt", env)
        hub = pins(ROOT / "requirements" / "hub.txt", env)
        changed = {k: (v, hub.get(k)) for k, v in test.items() if hub.get(k) != v}
        assert not changed, f"{where}: test.txt and hub.txt differ: {changed}"
        assert "jupyterhub" in hub.keys() - test.keys()


def test_compile_rewrites_one_lock_only_within_the_test_lock(tmp_path):
    with pytest.raises(lock.LockError, match="no lock file 'dev.txt'; the lock files are"):
        lock.compile_locks(tmp_path, ROOT / "pyproject.toml", only="dev.txt")
    with pytest.raises(lock.LockError, match="test.txt cannot be rewritten alone"):
        lock.compile_locks(tmp_path, ROOT / "pyproject.toml", only="test.txt")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", LOCKS)
def test_each_lock_names_the_pythons_it_was_tested_on(name):
    assert lock.pythons(ROOT / "requirements" / name) == lock.PYTHONS
    assert lock.covers(ROOT / "requirements" / name, "3.12")
    assert not lock.covers(ROOT / "requirements" / name, "3.14")


def test_the_pythons_are_the_readmes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first, *middle, last = lock.PYTHONS
    assert f"tested on {', '.join([first, *middle])} and {last}" in readme


def test_a_lock_without_its_pythons_line_is_refused(tmp_path):
    path = tmp_path / "test.txt"
    path.write_text("# pythons 3.11\nnumpy==2.0\n")
    with pytest.raises(lock.LockError, match=r"test.txt has no '# pythons: 3.X \.\.\.' line"):
        lock.pythons(path)
    with pytest.raises(lock.LockError, match="cannot read"):
        lock.pythons(tmp_path / "missing.txt")


def test_moved_names_each_package_that_differs(tmp_path):
    path = tmp_path / "test.txt"
    path.write_text(
        "# pythons: 3.11\n"
        "numpy==1.0 ; python_version < '3.0' \\\n    --hash=sha256:" + "0" * 64 + "\n"
        "numpy==2.4.6 \\\n    --hash=sha256:" + "1" * 64 + "\n    # via cfrviz\n"
        "scipy==1.17.1\nsetuptools==80\ntqdm==4.66.0\nsame-name==1.0\n")
    freeze = ("-e file:///x/cfrviz\nNumPy==2.5.0\nscipy==1.17.1\nplotly==6.1\n"
              "Same_Name==1.0\nsetuptools==81\n")
    assert lock.moved(path, freeze) == ["numpy 2.4.6 -> 2.5.0", "plotly: 6.1, not in the lock",
                                        "tqdm: locked 4.66.0, not installed"]


def test_makefile_and_readme_name_the_locks():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "LOCK_LAB := requirements/lab.txt" in makefile
    assert "LOCK_TEST := requirements/test.txt" in makefile
    assert re.search(r"^\$\(STAMP_LAB\): pyproject.toml \$\(LOCK_LAB\)", makefile, re.M)
    assert re.search(r"^\$\(STAMP_TEST\): pyproject.toml \$\(LOCK_TEST\)", makefile, re.M)
    assert "LOCK_BENCH := requirements/bench.txt" in makefile
    assert re.search(r"^\$\(STAMP_BENCH\): pyproject.toml \$\(LOCK_BENCH\) \$\(STAMP_TEST\)",
                     makefile, re.M)
    assert re.search(r"^benchmark: \$\(STAMP_BENCH\)", makefile, re.M)
    assert re.search(r"^lock:.*\n\t\$\(PY\) tools/lock.py compile$", makefile, re.M)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for text in ("requirements/lab.txt", "requirements/test.txt", "make lock",
                 "--require-hashes"):
        assert text in readme, text


def test_covers_answers_for_another_python():
    path = ROOT / "requirements" / "test.txt"
    ask = [sys.executable, str(ROOT / "tools" / "lock.py"), "covers", str(path), "--python"]
    assert subprocess.run([*ask, "3.13"], capture_output=True).returncode == 0
    refused = subprocess.run([*ask, "3.14"], capture_output=True, text=True)
    assert refused.returncode == 1
    assert "tested on Python 3.11, 3.12, 3.13, not 3.14" in refused.stderr
    assert "make lab PYTHON=python3.13" in refused.stderr


def test_moved_prints_nothing_when_a_venv_has_exactly_the_lock(tmp_path):
    """.ci/run reads an empty output as 'the lock's versions': not even a blank line."""
    (tmp_path / "test.txt").write_text("# pythons: 3.11\nscipy==1.17.1\n")
    (tmp_path / "freeze.txt").write_text("scipy==1.17.1\n")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "lock.py"), "moved",
                           str(tmp_path / "test.txt"), str(tmp_path / "freeze.txt")],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == ""
    (tmp_path / "freeze.txt").write_text("scipy==1.18.1\n")
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "lock.py"), "moved",
                           str(tmp_path / "test.txt"), str(tmp_path / "freeze.txt")],
                          capture_output=True, text=True)
    assert done.stdout == "scipy 1.17.1 -> 1.18.1\n"


def test_compile_without_uv_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setattr(lock.importlib.util, "find_spec", lambda _name: None)
    monkeypatch.setattr(lock.shutil, "which", lambda _name: None)
    with pytest.raises(lock.LockError, match="uv is not installed: .*pip install uv"):
        lock.compile_locks(tmp_path, ROOT / "pyproject.toml")
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_keep_resolves_from_the_old_lock_without_upgrading(monkeypatch, tmp_path):
    # compile --keep: uv is given the old lock as its output file (its preferences) and no
    # --upgrade, so only what pyproject.toml newly asks for is resolved afresh.
    (tmp_path / "test.txt").write_text("numpy==1.26.0\n", encoding="utf-8")
    seen = []

    def run(command, **_kwargs):
        output = Path(command[command.index("-o") + 1])
        seen.append(("--upgrade" in command, output.read_text(encoding="utf-8")
                     if output.exists() else None))
        output.write_text("numpy==1.26.0\n", encoding="utf-8")

    monkeypatch.setattr(lock, "_uv", lambda: ["uv"])
    monkeypatch.setattr(lock.subprocess, "run", run)
    lock.compile_locks(tmp_path, ROOT / "pyproject.toml", keep=True)
    assert seen[0] == (False, "numpy==1.26.0\n")  # test.txt: kept, from the old lock
    # no old lab/bench/hub lock here
    assert [upgrade for upgrade, _ in seen[1:]] == [True] * (len(lock.ROLES) - 1)
    lock.compile_locks(tmp_path, ROOT / "pyproject.toml")
    assert all(upgrade for upgrade, _ in seen[len(lock.ROLES):])  # make lock: all afresh
