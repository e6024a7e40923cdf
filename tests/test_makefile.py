"""The Makefile's options cannot run commands, bad ones stop make with a message, and the
server tokens stay off command lines (readable by every local user with ``ps``)."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
MAKE = shutil.which("make")

pytestmark = pytest.mark.skipif(MAKE is None, reason="GNU make is not installed")


def hostile(marker: Path) -> list[str]:
    """Values that would create ``marker`` if the shell or make ran them."""
    return [f'x"; touch {marker}; echo "', f"x'; touch {marker}; echo '", f"1; touch {marker}",
            f"$(touch {marker})", f"`touch {marker}`", f"$(shell touch {marker})",
            f"a[$(touch {marker})]", "8888\nx"]


@pytest.fixture
def project(tmp_path):
    """A copy of the Makefile beside one lesson, with no .venv: nothing real to install."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "04_cfr_on_kuhn.ipynb").write_text("{}")
    return tmp_path


def make(directory: Path, *args: str, dry: bool = False) -> subprocess.CompletedProcess:
    # -o: never install (a check that wrongly passed must not start pip or a server).
    never = ["-o", ".venv/.cfrviz-installed", "-o", ".venv/.cfrviz-installed-test"]
    env = {k: v for k, v in os.environ.items()
           if k not in ("PORT", "LESSON", "PYTHON", "PYTEST_ARGS", "MAKEFLAGS")}
    return subprocess.run([MAKE, "-s", *(["-n"] if dry else []), *never, *args],
                          cwd=directory, env=env, capture_output=True, text=True, timeout=120)


# --- bad values are refused, and run nothing ---------------------------------------------

@pytest.mark.parametrize("target", ["lab", "present"])
def test_bad_port_is_refused(project, tmp_path, target):
    marker = tmp_path / "pwned"
    for value in [*hostile(marker), "0", "65536", "99999999999999999999", "", "80.5", "-1"]:
        result = make(project, target, f"PORT={value}", "-o", ".venv/bin/python")
        assert result.returncode != 0, value
        assert "PORT must be a whole number from 1 to 65535" in result.stderr, result.stderr
        assert not marker.exists(), f"PORT={value!r} ran a command"
        assert not (project / ".venv").exists()


def test_bad_lesson_is_refused_with_the_choices(project, tmp_path):
    marker = tmp_path / "pwned"
    for value in [*hostile(marker), "../Makefile", "solutions/04_cfr_on_kuhn", "nonsense", ""]:
        result = make(project, "present", f"LESSON={value}", "-o", ".venv/bin/python")
        assert result.returncode != 0, value
        assert "error: no lesson" in result.stderr and "04_cfr_on_kuhn" in result.stderr
        assert not marker.exists(), f"LESSON={value!r} ran a command"


def test_bad_python_is_refused(project, tmp_path):
    marker = tmp_path / "pwned"
    for value in [v for v in hostile(marker) if v != "8888\nx"] + ["python3 -c 1"]:
        result = make(project, ".venv/bin/python", f"PYTHON={value}")  # what lab makes first
        assert result.returncode != 0, value
        assert "PYTHON must be a path or command name" in result.stderr, result.stderr
        assert not marker.exists(), f"PYTHON={value!r} ran a command"
        assert not (project / ".venv").exists()


def test_good_values_pass_the_checks(project):
    assert make(project, "check-port", "PORT=8890").returncode == 0
    assert make(project, "check-port", "PORT=65535").returncode == 0
    assert make(project, "check-lesson", "LESSON=04_cfr_on_kuhn").returncode == 0


def test_values_never_reach_a_command_as_text(project, tmp_path):
    """``make -n`` prints the commands make would hand to the shell (after make's own
    expansion, which would run a ``$(shell ...)``): no option's value is among them."""
    marker = tmp_path / "pwned"
    for value in hostile(marker):
        for option, target in (("PORT", "lab"), ("PORT", "present"), ("LESSON", "present"),
                               ("PYTHON", "lab"), ("PYTEST_ARGS", "test"),
                               ("PYTEST_ARGS", "test-fast")):
            result = make(project, target, f"{option}={value}", dry=True)
            assert str(marker) not in result.stdout, (option, value, result.stdout)
            assert not marker.exists(), f"make -n {target} {option}={value!r} ran a command"


#: Names the Makefile sets for itself: none may be replaced from outside.
INTERNAL = ["SHELL", "VENV", "PY", "START", "STAMP_LAB", "STAMP_TEST", "LOCK_LAB", "LOCK_TEST",
            "STAMP_BENCH", "LOCK_BENCH", "READY", "install", "CFRVIZ_PORT", "CFRVIZ_LESSON",
            "CFRVIZ_PYTHON", "CFRVIZ_PYTEST_ARGS"]


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(INTERNAL), which=st.integers(0, 7),
       target=st.sampled_from(["lab", "present", "test", "test-fast", "help"]),
       how=st.sampled_from(["command line", "environment", "environment with make -e"]))
def test_internal_variables_cannot_be_set_from_outside(project, tmp_path, name, which, target,
                                                       how):
    """``make -n`` with an internal variable set to a command, on the command line or in the
    environment (also with ``-e``, which lets the environment win over the Makefile): the
    command is never among the commands make would run, nor run while make expands them."""
    marker = tmp_path / "pwned"
    value = hostile(marker)[which]
    env = {k: v for k, v in os.environ.items()
           if k not in ("PORT", "LESSON", "PYTHON", "PYTEST_ARGS", "MAKEFLAGS", *INTERNAL)}
    args = [MAKE, "-s", "-n", "-o", ".venv/.cfrviz-installed", "-o",
            ".venv/.cfrviz-installed-test", target]
    if how == "command line":
        args.append(f"{name}={value}")
    else:
        env[name] = value
        if how.endswith("-e"):
            args.insert(1, "-e")
    result = subprocess.run(args, cwd=project, env=env, capture_output=True, text=True,
                            timeout=120)
    assert str(marker) not in result.stdout, (name, how, value, result.stdout)
    assert not marker.exists(), f"make -n {target} with {name}={value!r} ({how}) ran it"
    if target in ("lab", "test") and result.returncode == 0:
        assert ".venv/bin/" in result.stdout  # the Makefile's own names are used


# --- installing: from the lock, once, then compiled ahead of time ---------------------------

@pytest.fixture
def installer(project):
    """``project`` with the lock tool and both locks, and a ``.venv/bin/python`` that only logs
    what it is asked to run (running tools/lock.py for real): make's install, without pip."""
    shutil.copytree(ROOT / "tools", project / "tools", ignore=shutil.ignore_patterns("lessons"))
    shutil.copytree(ROOT / "requirements", project / "requirements")
    shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
    python = project / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> "{project / "calls.log"}"\n'
                      f'if [ "$1" = tools/lock.py ]; then exec "{sys.executable}" "$@"; fi\n')
    python.chmod(0o755)
    return project


def _install(directory: Path, stamp: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run make's rule for ``stamp``; return its result and the commands the venv's Python ran."""
    log = directory / "calls.log"
    log.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "MAKEFLAGS")}
    result = subprocess.run([MAKE, "-s", stamp], cwd=directory, env=env, capture_output=True,
                            text=True, timeout=120)
    return result, (log.read_text().splitlines() if log.exists() else [])


PIP = "-m pip install --disable-pip-version-check"


UV = "-m uv pip install --python .venv/bin/python"
#: How each stamp installs its lock: the lab's with pip, the test lock's uv (with pip, checked
#: against the lock's hashes), then the rest with that uv.
INSTALLS = {
    "requirements/lab.txt": [f"{PIP} --require-hashes -r requirements/lab.txt",
                             f"{PIP} --no-deps --no-build-isolation -e ."],
    "requirements/test.txt": [f"{PIP} --require-hashes --no-deps -r .venv/uv.txt",
                              f"{UV} --compile-bytecode --require-hashes -r requirements/test.txt",
                              f"{UV} --no-deps --no-build-isolation -e ."]}


@pytest.mark.parametrize("stamp, lock, extra", [
    (".venv/.cfrviz-installed", "requirements/lab.txt", ""),
    (".venv/.cfrviz-installed-test", "requirements/test.txt", "[test]")])
def test_installing_takes_the_lock_once_then_compiles_the_engine(installer, stamp, lock, extra):
    """The lock, then cfrviz without dependencies, pip check, ``cfrviz.warm`` (so a lesson's first
    solve finds compiled code), then the stamp: a second make installs nothing, and a changed lock
    (or pyproject.toml) installs again."""
    result, calls = _install(installer, stamp)
    assert result.returncode == 0, result.stderr
    assert calls == [f"tools/lock.py covers {lock}", *INSTALLS[lock],
                     "-m pip check --disable-pip-version-check",
                     "-m cfrviz.warm"], calls
    assert (installer / stamp).exists()
    if lock == "requirements/test.txt":  # the lock's own uv, with every hash the lock gives it
        uv = (installer / ".venv" / "uv.txt").read_text().splitlines()
        assert uv[0].startswith("uv==") and len(uv) > 2
        assert all(line.strip().startswith("--hash=sha256:") for line in uv[1:])
    assert _install(installer, stamp)[1] == []
    for changed in (lock, "pyproject.toml"):
        time.sleep(0.01)  # a later modification time than the stamp's
        (installer / changed).touch()
        assert INSTALLS[lock][0] in _install(installer, stamp)[1], changed
    # A Python the lock was not tested on: the ranges, after a note naming the locked Pythons.
    text = (installer / lock).read_text()
    (installer / lock).write_text(text.replace("# pythons: 3.11 3.12 3.13", "# pythons: 3.99"))
    result, calls = _install(installer, stamp)
    assert result.returncode == 0, result.stderr
    assert f"{PIP} -e .{extra}" in calls and not any("--require-hashes" in c for c in calls)
    assert f"{lock} holds the versions tested on Python 3.99" in result.stderr
    # A lock that cannot be read stops the install with the reason.
    (installer / lock).write_text("numpy==2.0\n")
    (installer / stamp).unlink()
    result, calls = _install(installer, stamp)
    assert result.returncode != 0 and not (installer / stamp).exists()
    assert "no '# pythons: 3.X ...' line" in result.stderr and "make lock" in result.stderr
    assert not any(c.startswith(PIP) for c in calls)


def test_bench_install_adds_the_bench_lock_once(installer):
    """make bench-install: the bench lock with hashes, pip check, the stamp (no reinstall of
    cfrviz and no recompiling: the test install did both); a second run installs nothing."""
    stamp = installer / ".venv" / ".cfrviz-installed-test"
    time.sleep(0.01)
    stamp.touch()  # the test install is done and newer than pyproject.toml and its lock
    result, calls = _install(installer, "bench-install")
    assert result.returncode == 0, result.stderr
    assert calls == ["tools/lock.py covers requirements/bench.txt",
                     f"{PIP} --require-hashes -r requirements/bench.txt",
                     "-m pip check --disable-pip-version-check"], calls
    assert (installer / ".venv" / ".cfrviz-installed-bench").exists()
    assert _install(installer, "bench-install")[1] == []


def test_a_failed_pip_check_names_make_lock(installer):
    python = installer / ".venv" / "bin" / "python"
    check = 'if [ "$2" = pip ] && [ "$3" = check ]; then echo "x 1 requires y"; exit 1; fi\n'
    python.write_text(python.read_text() + check)
    result, calls = _install(installer, ".venv/.cfrviz-installed-test")
    assert result.returncode != 0 and "-m cfrviz.warm" not in calls
    assert "since requirements/test.txt was written, run: make lock" in result.stderr


def test_help_names_make_lock(project):
    assert "make lock" in make(project, "help").stdout


# --- tokens stay off command lines --------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it, from ``/proc/<pid>/stat``'s parent ids."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [pid], [pid]
    while frontier:
        frontier = [p for p, parent in parents.items() if parent in frontier]
        found += frontier
    return found


def _command_lines(pids) -> dict[int, str]:
    lines = {}
    for pid in pids:
        with contextlib.suppress(OSError):  # the process ended meanwhile
            raw = (Path("/proc") / str(pid) / "cmdline").read_bytes()
            lines[pid] = raw.replace(b"\0", b" ").decode(errors="replace")
    return lines


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args, **_kwargs):
        return None  # a redirect to the login page is the answer, not a page to follow


def _status(url: str) -> int:
    """The HTTP status of ``url``, redirects not followed."""
    try:
        with urllib.request.build_opener(_NoRedirect).open(url, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class _Server:
    """``make <target>`` in its own process group, with every command line seen while it runs."""

    def __init__(self, *args: str):
        self.port = _free_port()
        env = {k: v for k, v in os.environ.items()
               if k not in ("JUPYTER_TOKEN", "JUPYTER_TOKEN_FILE", "PORT", "LESSON", "MAKEFLAGS")}
        # The stamps are treated as current: the test must not reinstall the package.
        self.process = subprocess.Popen(
            [MAKE, "-o", ".venv/.cfrviz-installed", *args, f"PORT={self.port}"], cwd=ROOT,
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True)
        self.lines: list[str] = []
        self.seen: dict[int, str] = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, seconds: float = 120) -> re.Match:
        """Wait for ``pattern`` in make's output, noting every command line meanwhile."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.seen.update(_command_lines(_descendants(self.process.pid)))
            found = re.search(pattern, self.output, re.DOTALL)
            if found:
                return found
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"no {pattern!r} from make; it printed:\n{self.output}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # the group this test started
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)


def _needs(tool: str, module: str):
    if not Path("/proc/self/cmdline").exists():
        pytest.skip("reading command lines needs /proc (Linux)")
    if importlib.util.find_spec(module) is None or not (ROOT / ".venv" / "bin" / tool).exists():
        pytest.skip(f"{tool} is not installed in .venv (make lab installs it)")


@pytest.mark.slow
def test_present_passes_its_token_by_environment_only():
    _needs("voila", "voila")
    server = _Server("present", "LESSON=00_start_here")
    try:
        token = server.wait_for(r"\?token=([0-9a-f]{48})").group(1)
        server.wait_for(r"Voil[aà] is running at")
        voila = [line for line in server.seen.values() if "voila" in line]
        assert voila, f"never saw the voila process: {server.seen}"
        leaked = [line for line in server.seen.values() if token in line]
        assert not leaked, f"the token is on a command line: {leaked}"
        base = f"http://127.0.0.1:{server.port}/"
        assert _status(base) != 200          # authentication stays on
        assert _status(f"{base}?token={token}") == 200
    finally:
        server.stop()


@pytest.mark.slow
def test_lab_passes_its_token_by_environment_only():
    _needs("jupyter-lab", "jupyterlab")
    server = _Server("lab")
    try:
        # Printed only once the readiness check, which sends the token, got an answer.
        token = server.wait_for(r"cfrviz is ready.*?\?token=([0-9a-f]{48})").group(1)
        assert any("jupyter" in line and "lab" in line for line in server.seen.values())
        leaked = [line for line in server.seen.values() if token in line]
        assert not leaked, f"the token is on a command line: {leaked}"
        status = f"http://127.0.0.1:{server.port}/api/status"
        assert _status(status) == 403 and _status(f"{status}?token={token}") == 200
    finally:
        server.stop()


# --- a quiet terminal: the link and nothing alarming (issue 29) ---------------------------

#: What a student's terminal must not show: tracebacks, errors and warnings.  Node on the PATH
#: matters: with the root package.json's old "type": "module", JupyterLab's own CommonJS
#: helpers in .venv printed "Fail to get yarn configuration", minified JavaScript and a
#: ReferenceError per lesson opened.
_ALARMING = re.compile(r"Traceback|\w*Error\b|^\[[WE] |WARNING|without nodejs|yarn", re.M)


def _get(url: str, data: bytes | None = None) -> int:
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    with urllib.request.urlopen(request, timeout=300) as response:
        response.read()
        return response.status


@pytest.mark.slow
def test_lab_prints_the_link_and_nothing_alarming_as_lessons_open():
    _needs("jupyter-lab", "jupyterlab")
    server = _Server("lab")
    try:
        token = server.wait_for(r"cfrviz is ready.*?\?token=([0-9a-f]{48})").group(1)
        base = f"http://127.0.0.1:{server.port}"
        for lesson in ("00_start_here.ipynb", "01_regret_matching.ipynb"):
            # What the page does when a lesson opens: the page, its build check (which runs
            # node when node is on the PATH), a session with a kernel.
            assert _get(f"{base}/lab/tree/{lesson}?token={token}") == 200
            assert _get(f"{base}/lab/api/build?token={token}") == 200
            session = json.dumps({"path": lesson, "type": "notebook", "name": lesson,
                                  "kernel": {"name": "python3"}}).encode()
            assert _get(f"{base}/api/sessions?token={token}", session) == 201
        time.sleep(5)  # time for a kernel or a node process to say something
    finally:
        server.stop()
    alarming = _ALARMING.findall(server.output)
    assert not alarming, f"make lab printed {alarming[:5]}:\n{server.output[-4000:]}"
    assert server.output.count("cfrviz is ready") == 1


@pytest.mark.slow
def test_present_prints_the_link_and_nothing_alarming_per_page():
    _needs("voila", "voila")
    server = _Server("present", "LESSON=00_start_here")
    try:
        token = server.wait_for(r"\?token=([0-9a-f]{48})").group(1)
        server.wait_for(r"Voil[aà] is running at")
        for _ in range(2):  # each page load runs the lesson in a kernel of its own
            assert _get(f"http://127.0.0.1:{server.port}/?token={token}") == 200
        time.sleep(3)
    finally:
        server.stop()
    # Before: "Kernel is running over TCP without encryption" per kernel, "Notebook ... is not
    # trusted" per page, and tornado's complaint about the websocket ping timeout.
    alarming = _ALARMING.findall(server.output)
    assert not alarming, f"make present printed {alarming[:5]}:\n{server.output[-4000:]}"
