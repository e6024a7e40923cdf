"""The locked versions `make lab` and `make test` install: write them, and read them.

    python tools/lock.py compile              # make lock: rewrite requirements/*.txt
    python tools/lock.py compile bench.txt    # only that one, within test.txt as it stands
    python tools/lock.py compile hub.txt      # likewise
    python tools/lock.py compile --keep       # keep every pin that still fits, add what is new
    python tools/lock.py covers requirements/test.txt     # exit 0 if it is for this Python
    python tools/lock.py covers requirements/test.txt --python 3.12     # or for that one
    python tools/lock.py moved requirements/test.txt freeze.txt  # what moved from the lock

Four lock files, all written by ``uv pip compile --universal --generate-hashes``:

- ``requirements/test.txt``: cfrviz's dependencies, its ``test`` extra and its build backend
  (``[build-system] requires``), at the newest versions pyproject.toml's ranges allow today.
- ``requirements/lab.txt``: the same minus the test tools, resolved with test.txt as constraints,
  so every version it names is the one test.txt names: ``make lab`` then ``make test`` only adds
  packages, never changes one.  The lab downloads about 100 MB less: the test tools' Linux
  x86-64 wheels are playwright 53.5 MB, uv 17.6, mypy 15.4, ruff 10.6 and a few small ones.
- ``requirements/bench.txt``: the test set plus the ``bench`` extra (OpenSpiel, cvxpy, ECOS and
  LiteEFG, the outside implementation tests/test_liteefg.py compares with), resolved with
  test.txt as constraints in the same way, so ``make bench-install`` after ``make test`` only
  adds packages.  ``make benchmark`` and .ci/run install it.  LiteEFG is an sdist: pip builds
  its C++ with cmake, in an isolated build environment whose tools (setuptools, wheel, cmake,
  ninja) pip fetches unpinned, as ``--require-hashes`` leaves build requirements unchecked.
- ``requirements/hub.txt``: the test set plus the ``hub`` extra (JupyterHub and psutil), resolved
  within test.txt the same way: ``make hub-install`` (with configurable-http-proxy from npm,
  tools/hub/package-lock.json) for benchmarks/bench_hub.py and tests/test_hub.py; .ci/run runs it.

One universal file per role instead of one per Python: where a package's newest release needs a
newer Python (numpy 2.5, scipy 1.18 and networkx 3.7 need 3.12), the file holds one line per
branch with an environment marker (``numpy==2.4.6 ; python_full_version < '3.12'``), which pip
applies when it installs.  It also carries the packages only macOS or Windows need (appnope,
colorama, pywinpty), which a lock written for this Linux machine alone would miss, and
``--require-hashes`` would then refuse them.  The bench lock is for ``make benchmark`` and CI,
not the students' two commands: OpenSpiel ships wheels for few platforms.

The Pythons each lock has been tested on are written into its first lines (``# pythons:``);
``covers`` reads them, so the Makefile installs from the lock only into a venv whose Python is
one of those, and says so when it is not.  ``compile`` and ``covers`` use only the standard
library (``covers`` runs in a venv with nothing installed yet); ``moved`` uses
``packaging``.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
# The Pythons the README promises and CI tests the locks on; the oldest is the resolution's floor.
PYTHONS = ("3.11", "3.12", "3.13")
# lock file name -> the extras of pyproject.toml it installs; test.txt comes first: the others
# are resolved within it
ROLES = {"test.txt": ["test"], "lab.txt": [], "bench.txt": ["test", "bench"],
         "hub.txt": ["test", "hub"]}
_PYTHONS_LINE = re.compile(r"^# pythons:((?: [0-9]+\.[0-9]+)+)\s*$")


class LockError(ValueError):
    """A lock file that cannot be read, or a tool that is missing."""


def _uv() -> list[str]:
    if importlib.util.find_spec("uv") is not None:
        return [sys.executable, "-m", "uv"]
    if found := shutil.which("uv"):
        return [found]
    raise LockError("uv is not installed: `make lock` installs the test tools (uv among them) "
                    "first, or install it with `pip install uv`")


def _header(name: str) -> str:
    role = {"test.txt": "`make test` and .ci/run", "lab.txt": "`make lab`",
            "bench.txt": "`make bench-install` (make benchmark, .ci/run)",
            "hub.txt": "`make hub-install` (make bench-hub, .ci/run)"}[name]
    return (f"# The exact versions {role} install, with their hashes: written by `make lock`\n"
            "# (tools/lock.py) from pyproject.toml's ranges; do not edit by hand.\n"
            f"# pythons: {' '.join(PYTHONS)}\n")


def compile_locks(directory: Path = LOCKS, pyproject: Path = ROOT / "pyproject.toml",
                  only: str | None = None, keep: bool = False) -> None:
    """Resolve afresh (newest allowed versions) and rewrite ``directory``'s lock files.

    ``only`` (a name of :data:`ROLES` other than test.txt) rewrites that one alone, resolved
    within test.txt as it stands.  ``keep`` resolves without upgrading: every version the lock
    already names stays where pyproject.toml still allows it (uv reads the old lock as its
    preferences), so adding a dependency adds it and its own dependencies and moves nothing else.
    """
    if only is not None and only not in ROLES:
        raise LockError(f"no lock file {only!r}; the lock files are {', '.join(ROLES)}")
    if only == "test.txt":
        raise LockError("test.txt cannot be rewritten alone: the other locks are resolved within "
                        "it; run `make lock` to rewrite all of them")
    build = tomllib.loads(pyproject.read_text(encoding="utf-8"))["build-system"]["requires"]
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        backend = Path(scratch) / "build-system.in"
        backend.write_text("".join(f"{line}\n" for line in build), encoding="utf-8")
        for name, extras in ROLES.items():  # test.txt first: the others are resolved within it
            if only is not None and name != only:
                continue
            command = [*_uv(), "pip", "compile", str(pyproject), str(backend),
                       "--universal", "--python-version", PYTHONS[0], "--generate-hashes",
                       "--quiet", "--custom-compile-command", "make lock",
                       "-o", str(Path(scratch) / name)]
            if keep and (directory / name).exists():
                shutil.copyfile(directory / name, Path(scratch) / name)
            else:
                command.append("--upgrade")
            for extra in extras:
                command += ["--extra", extra]
            if name != "test.txt":
                command += ["--constraint", str(directory / "test.txt")]
            subprocess.run(command, check=True, cwd=pyproject.parent)
            text = (Path(scratch) / name).read_text(encoding="utf-8")
            # uv names its inputs by path: keep the scratch file's name out of the lock.
            text = text.replace(f"-r {backend}", "pyproject.toml [build-system]")
            (directory / name).write_text(_header(name) + text, encoding="utf-8")
            print(f"wrote {directory / name}")


def pythons(lock: Path) -> tuple[str, ...]:
    """The Pythons ``lock``'s ``# pythons:`` line names."""
    try:
        lines = lock.read_text(encoding="utf-8").splitlines()[:10]
    except OSError as error:
        raise LockError(f"cannot read {lock}: {error.strerror}") from error
    for line in lines:
        if match := _PYTHONS_LINE.match(line):
            return tuple(match.group(1).split())
    raise LockError(f"{lock} has no '# pythons: 3.X ...' line in its first 10 lines; "
                    "rewrite it with `make lock`")


def covers(lock: Path, version: str) -> bool:
    return version in pythons(lock)


def _pins(lock: Path) -> dict[str, str]:
    """{normalised name: version} of the lines of ``lock`` that apply to this Python."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    found = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        if not line or line[0] in " #-":
            continue
        requirement = Requirement(line.rstrip(" \\"))
        if requirement.marker is None or requirement.marker.evaluate():
            (spec,) = requirement.specifier
            found[canonicalize_name(requirement.name)] = spec.version
    return found


def moved(lock: Path, freeze: str) -> list[str]:
    """What differs between ``lock`` (for this Python) and a ``pip freeze`` of a venv.

    One line per package: ``name locked -> installed``, ``name: not in the lock`` or ``name:
    locked, not installed``.  cfrviz itself and the build backend are left out.
    """
    from packaging.utils import canonicalize_name

    locked = _pins(lock)
    installed = {}
    for line in freeze.splitlines():
        if "==" in line and not line.startswith(("#", "-e")):
            name, version = line.split("==", 1)
            installed[canonicalize_name(name)] = version.strip()
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ignore = {"cfrviz", "pip"} | {
        canonicalize_name(re.split(r"[ <>=!~;\[]", r, maxsplit=1)[0])
        for r in build["build-system"]["requires"]}
    lines = []
    for name in sorted((locked.keys() | installed.keys()) - ignore):
        if name not in installed:
            lines.append(f"{name}: locked {locked[name]}, not installed")
        elif name not in locked:
            lines.append(f"{name}: {installed[name]}, not in the lock")
        elif locked[name] != installed[name]:
            lines.append(f"{name} {locked[name]} -> {installed[name]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rewrite = commands.add_parser("compile", help="rewrite requirements/*.txt (make lock)")
    rewrite.add_argument("only", nargs="?", choices=list(ROLES),
                         help="rewrite only this one (not test.txt: the others are within it)")
    rewrite.add_argument("--keep", action="store_true",
                         help="keep the versions already locked where they still fit")
    check = commands.add_parser("covers", help="exit 0 if LOCK is for the running Python")
    check.add_argument("lock", type=Path)
    check.add_argument("--python", metavar="X.Y", help="ask about this Python instead")
    diff = commands.add_parser("moved", help="print what a `pip freeze` differs in from LOCK")
    diff.add_argument("lock", type=Path)
    diff.add_argument("freeze", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "compile":
            compile_locks(only=args.only, keep=args.keep)
        elif args.command == "covers":
            version = args.python or "{}.{}".format(*sys.version_info[:2])
            if not covers(args.lock, version):
                print(f"note: {args.lock} holds the versions tested on Python "
                      f"{', '.join(pythons(args.lock))}, not {version}: installing the newest "
                      "versions pyproject.toml allows instead (not a tested set).\n"
                      "      For the tested set, make .venv with one of those Pythons: "
                      f"rm -rf .venv && make lab PYTHON=python{pythons(args.lock)[-1]}",
                      file=sys.stderr)
                return 1
        else:
            for line in moved(args.lock, args.freeze.read_text(encoding="utf-8")):
                print(line)
    except (LockError, subprocess.CalledProcessError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
