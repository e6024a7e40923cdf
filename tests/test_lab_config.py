"""The servers `make lab` and `make present` start: quiet, and they free a kernel nobody uses.

Issue 29: with Node on the PATH, the root package.json's ``"type": "module"`` reached the
CommonJS helpers JupyterLab runs from ``.venv`` (inside the repository), so every `make lab`
printed a page of minified JavaScript and every lesson opened a ``ReferenceError``; and every
lesson opened kept its kernel (250-370 MB) after its tab closed, every Voila page load one more.
The terminals themselves are checked in tests/test_makefile.py, the browser tests' server log in
tests/_browser.py.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from traitlets.config.loader import JSONFileConfigLoader, PyFileConfigLoader

from cfrviz.jupyter_hooks import set_xsrf_cookie

ROOT = Path(__file__).resolve().parent.parent
JUPYTER = ROOT / "jupyter"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: Our ES modules: each folder says so in a package.json of its own.
ES_MODULE_FOLDERS = (ROOT / "cfrviz" / "widgets", ROOT / "tests" / "js")


def _lab_config() -> dict:
    return json.loads((JUPYTER / "jupyter_lab_config.json").read_text(encoding="utf-8"))


def _voila_config():
    """jupyter/voila.json and voila.py, loaded as Voila loads them (both, .py first)."""
    config = PyFileConfigLoader("voila.py", path=str(JUPYTER)).load_config()
    config.merge(JSONFileConfigLoader("voila.json", path=str(JUPYTER)).load_config())
    return config


# ---- Node: CommonJS stays CommonJS ----------------------------------------------------------

def _package_type(folder: Path) -> str:
    """The module type Node gives a .js file in ``folder``: the nearest package.json's "type"."""
    for directory in (folder, *folder.parents):
        manifest = directory / "package.json"
        if manifest.exists():
            return json.loads(manifest.read_text(encoding="utf-8")).get("type", "commonjs")
    return "commonjs"


def test_only_our_own_folders_declare_es_modules():
    """A "type": "module" at the root reaches every .js below it, .venv's included."""
    assert _package_type(ROOT) == "commonjs"
    assert _package_type(ROOT / ".venv" / "lib") == "commonjs"
    for folder in ES_MODULE_FOLDERS:
        assert list(folder.glob("*.js")), folder
        assert _package_type(folder) == "module", folder


@needs_node
def test_node_reads_a_commonjs_file_in_the_repository_as_commonjs():
    """What JupyterLab's node-version-check.js and yarn.js do, from a folder of the repository
    without a package.json of its own (as .venv's site-packages)."""
    with tempfile.TemporaryDirectory(dir=ROOT, prefix=".node-probe-") as folder:
        probe = Path(folder) / "probe.js"
        probe.write_text("const util = require('util');\nconsole.log(util.format('%s', 'ok'));\n")
        done = subprocess.run([NODE, str(probe)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-1500:]


@needs_node
def test_jupyterlabs_own_node_check_runs():
    """The script JupyterLab runs on every build check (each lesson opened)."""
    import jupyterlab

    script = Path(jupyterlab.__file__).with_name("node-version-check.js")
    if not script.exists():
        pytest.skip(f"this JupyterLab has no {script.name}")
    done = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-1500:]
    assert "Error" not in done.stderr


# ---- the configuration ------------------------------------------------------------------------

def _check_culling(section: dict, longest: int) -> None:
    timeout, interval = section["cull_idle_timeout"], section["cull_interval"]
    assert 0 < interval < timeout <= longest
    # Never a kernel a page is connected to, nor one running a cell.
    assert section["cull_connected"] is False
    assert section["cull_busy"] is False


def test_make_lab_culls_only_kernels_no_page_uses():
    config = _lab_config()
    _check_culling(config["MappingKernelManager"], longest=3600)
    assert config["KernelManager"]["transport"] == "ipc"


def test_make_present_culls_kernels_whose_page_is_gone():
    config = _voila_config()
    _check_culling(config.MappingKernelManager, longest=600)
    assert config.KernelManager.transport == "ipc"  # no "Kernel is running over TCP" warning
    # A kernel's socket, in a folder Voila makes in connection_dir_root, within macOS's limit
    # of 104 characters (its per-user temporary folder, Voila's default root, is too long).
    socket_path = f"{config.Voila.connection_dir_root}/voila_abcdefgh/kernel-{uuid.uuid4()}-ipc-5"
    assert len(socket_path) < 104
    assert config.Voila.tornado_settings["ws_ping_interval"] == 0
    assert config.VoilaConfiguration.prelaunch_hook is set_xsrf_cookie


def test_make_present_reads_the_voila_configuration():
    done = subprocess.run(["make", "-s", "-n", "-o", ".venv/.cfrviz-installed", "present",
                           "LESSON=00_start_here"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert 'config="$PWD/jupyter"' in done.stdout
    assert '--Voila.config_file_paths="$config"' in done.stdout


def test_the_xsrf_hook_reads_the_token_and_leaves_the_notebook():
    class Handler:
        read = 0

        @property
        def xsrf_token(self) -> bytes:
            Handler.read += 1  # tornado sets the cookie on this first read
            return b"token"

    assert set_xsrf_cookie(Handler(), notebook={"cells": []}, cwd="lessons") is None
    assert Handler.read == 1


# ---- real servers with a short cull time --------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _request(url: str, method: str = "GET", data: bytes | None = None,
             headers: dict | None = None) -> tuple[int, bytes, object]:
    request = urllib.request.Request(url, method=method, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


@contextmanager
def _server(command: list[str], cwd: Path, port: int) -> Iterator[Path]:
    """Run a Jupyter server in its own process group with temporary Jupyter folders; yield its
    log once it listens on ``port``.  The folders have a short path: a kernel's local sockets
    live in the runtime folder, and a socket's path must stay under 104 characters."""
    with tempfile.TemporaryDirectory(prefix="cfrviz-") as folder:
        yield from _serve(command, cwd, Path(folder), port)


def _serve(command: list[str], cwd: Path, tmp: Path, port: int) -> Iterator[Path]:
    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_TOKEN"}
    env.update(JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_DATA_DIR=str(tmp / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), IPYTHONDIR=str(tmp / "ipython"),
               JUPYTER_PREFER_ENV_PATH="1")
    log = tmp / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.25)
        yield log
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # the group this test started
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def _connect(base: str, token: str, kernel_id: str):
    """A page's connection to a kernel: its websocket."""
    import websocket

    url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels?token={token}"
    return websocket.create_connection(url, timeout=60)


def _execute(connection, code: str) -> None:
    connection.send(json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": "execute_request", "username": "test",
                   "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": False,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))


def _exists(base: str, token: str, kernel_id: str) -> bool:
    status, _, _ = _request(f"{base}/api/kernels/{kernel_id}?token={token}")
    assert status in (200, 404), status
    return status == 200


def _wait_until_gone(base: str, token: str, kernel_id: str, seconds: float) -> float:
    start = time.monotonic()
    while _exists(base, token, kernel_id):
        assert time.monotonic() - start < seconds, f"kernel {kernel_id} was not culled"
        time.sleep(0.5)
    return time.monotonic() - start


CULL = ["--MappingKernelManager.cull_idle_timeout=4", "--MappingKernelManager.cull_interval=1"]


@pytest.mark.slow
def test_lab_culls_a_closed_lessons_kernel_and_keeps_the_ones_in_use(tmp_path):
    """make lab's configuration, with 4 s for its 30 min: a kernel without a page goes; one a
    page is connected to stays however idle, and one running a cell stays without a page."""
    port, token = _free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}",
               f"--config={JUPYTER / 'jupyter_lab_config.json'}", *CULL]
    with _server(command, tmp_path, port) as log:
        def start() -> str:
            status, body, _ = _request(f"{base}/api/kernels?token={token}", "POST",
                                       b'{"name": "python3"}')
            assert status == 201, body
            return json.loads(body)["id"]

        closed, open_, running = start(), start(), start()
        page = _connect(base, token, open_)
        busy = _connect(base, token, running)
        _execute(busy, "import time; time.sleep(25)")
        time.sleep(2)
        busy.close()  # its page goes while the cell runs
        try:
            waited = _wait_until_gone(base, token, closed, seconds=60)
            time.sleep(6)  # more than the 4 s, for the two others
            assert _exists(base, token, open_), "culled a kernel a page is connected to"
            assert _exists(base, token, running), "culled a kernel running a cell"
        finally:
            page.close()
        text = log.read_text(errors="replace")
    assert re.search(r"Culling '\w+' kernel", text), text[-3000:]
    print(f"the closed lesson's kernel was culled {waited:.1f} s after the check began")


@pytest.mark.slow
def test_present_shuts_a_pages_kernel_down_when_the_page_goes(tmp_path):
    """make present's configuration: the page gets its _xsrf cookie, so the shutdown Voila's
    page sends when it unloads is accepted; a kernel without a page is culled (4 s here),
    one with its page connected is not; and no kernel warns of unencrypted TCP."""
    port, token = _free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    lesson = tmp_path / "lesson.ipynb"
    lesson.write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
                   "outputs": [], "source": "print(6 * 7)"}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    command = [str(Path(sys.executable).with_name("voila")), lesson.name, "--no-browser",
               f"--port={port}", "--Voila.ip=127.0.0.1", f"--token={token}",
               "--ServerApp.port_retries=0", f"--Voila.config_file_paths={JUPYTER}", *CULL]

    def load() -> tuple[str, SimpleCookie]:
        status, body, headers = _request(f"{base}/?token={token}")
        assert status == 200, body[-2000:]
        kernel_id = re.search(rb'"kernelId": "([0-9a-f-]{36})"', body)
        assert kernel_id, body[-2000:]
        cookies = SimpleCookie()
        for header in headers.get_all("Set-Cookie") or ():
            cookies.load(header)
        return kernel_id.group(1).decode(), cookies

    with _server(command, tmp_path, port) as log:
        # What the page's beforeunload handler sends: its cookies and the _xsrf form field.
        left, cookies = load()
        assert "_xsrf" in cookies, "the page has no _xsrf cookie: its kernel cannot be shut down"
        form = urllib.parse.urlencode({"_xsrf": cookies["_xsrf"].value}).encode()
        jar = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())
        status, body, _ = _request(f"{base}/voila/api/shutdown/{left}", "POST", form,
                                   {"Cookie": jar})
        assert status == 204, body
        assert not _exists(base, token, left)
        # A page that never connected (or crashed): culled.  A page connected: kept.
        gone, _ = load()
        shown, _ = load()
        page = _connect(base, token, shown)
        try:
            _wait_until_gone(base, token, gone, seconds=60)
            time.sleep(6)
            assert _exists(base, token, shown), "culled the kernel of a page still open"
        finally:
            page.close()
        text = log.read_text(errors="replace")
    assert "without encryption" not in text
    assert "_xsrf" not in text, text[-3000:]  # "'_xsrf' argument missing from POST"
    assert "Traceback" not in text, text[-3000:]


def test_binder_installs_the_culling_too(tmp_path):
    """binder/postBuild's settings step, run in a bare venv: a Binder machine (1-2 GB) needs it
    most.  (tests/test_binder.py runs the whole postBuild, slowly.)"""
    script = (ROOT / "binder" / "postBuild").read_text(encoding="utf-8")
    settings = re.search(r"<<'PY'\n(.*?)\nPY\n", script, re.S)
    assert settings, "postBuild's Python settings step not found"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")],
                   check=True, timeout=120)
    done = subprocess.run([str(tmp_path / "venv" / "bin" / "python"), "-c", settings.group(1)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    server = json.loads((tmp_path / "venv" / "etc" / "jupyter" / "jupyter_server_config.d" /
                         "cfrviz.json").read_text(encoding="utf-8"))
    assert server["MappingKernelManager"] == _lab_config()["MappingKernelManager"]
    assert "KernelManager" not in server  # ipc: local only, not behind Binder's proxy


def test_lesson_00_states_the_cull_time_make_lab_uses():
    minutes = _lab_config()["MappingKernelManager"]["cull_idle_timeout"] // 60
    source = " ".join((ROOT / "tools" / "lessons" / "00_start_here.py").read_text(
        encoding="utf-8").replace("#", " ").split())
    assert f"it has run nothing for {minutes} minutes" in source
