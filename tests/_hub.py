"""A real JupyterHub on 127.0.0.1 with simulated students, for tests/test_hub.py and
benchmarks/bench_hub.py.

The hub: ``jupyterhub`` (from requirements/hub.txt, ``make hub-install``) with the
configurable-http-proxy of tools/hub (``npm ci``), the dummy authenticator, the local process
spawner (``SimpleLocalProcessSpawner``: every student's server runs as the user running this,
with its own home folder under the hub's temporary folder), random free ports on the loopback
interface only, and the hub's database, cookie secret and homes in a temporary folder.

The bench drives the hub as a class would, through its REST API only: a service token (admin
scopes) creates each student and a token of the student's own; with that token the student
starts a server, opens lesson 04 through the Contents API, starts a kernel through the Sessions
API and runs cells over the kernel's websocket (Jupyter's messaging protocol, v5), all through
the hub's proxy, as a browser would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "lessons" / "04_cfr_on_kuhn.ipynb"
PROXY = ROOT / "tools" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
#: Lesson 04's cells up to and including its first training cells, by index in the notebook:
#: imports (1), presenter switch (2), the game (4), ``cfrviz.explore(kuhn, "cfr",
#: iterations=300)`` (6: trains 300 iterations and returns the explorer) and
#: ``cfrviz.solve(kuhn, "cfr", iterations=10_000)`` with its strategy table (8).
CELLS = (1, 2, 4, 6, 8)
#: The cell whose printed strategy table is the student's "first result".
FIRST_RESULT = 8
#: What every student's server is started with besides: kernels that talk to it over Unix
#: sockets (IPC).  Over TCP each server of the class picks its kernels' ports by itself; two
#: servers can pick the same free port, and the second kernel cannot bind it ("Address already
#: in use"), nor after a restart (the restarter keeps the ports): its server waits 60 s for
#: the kernel and closes the student's kernel websocket.  Issue 30: the student lost in each
#: 40-student run (WebSocketClosedError), 2 of 40 in a run here at load 65.
KERNEL_ARGS = ("--KernelManager.transport=ipc",)


def course_server_settings() -> dict[str, Any]:
    """The course's Jupyter server settings as binder/postBuild installs them in a hub image
    (jupyter/jupyter_lab_config.json's pre-save hook, culling and server extensions)."""
    lab = json.loads((ROOT / "jupyter" / "jupyter_lab_config.json").read_text(encoding="utf-8"))
    settings = {key: lab[key] for key in ("ContentsManager", "MappingKernelManager")}
    settings["ServerApp"] = {"jpserver_extensions": lab["ServerApp"]["jpserver_extensions"]}
    return settings


def missing() -> str | None:
    """Why a hub cannot run here, with what installs it; None when it can."""
    try:
        import jupyterhub  # noqa: F401
    except ImportError as error:
        return (f"jupyterhub is not installed ({error}): `make hub-install` installs it from "
                "requirements/hub.txt and configurable-http-proxy with npm ci")
    if not PROXY.exists():
        return (f"configurable-http-proxy is not installed ({PROXY} is missing): `make "
                "hub-install` runs npm ci in tools/hub (Node.js 18+)")
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Student:
    """What one simulated student saw: seconds since the class started, per step."""

    name: str
    spawned: float = float("nan")
    opened: float = float("nan")
    kernel_ready: float = float("nan")
    cells: dict[int, float] = field(default_factory=dict)  # cell index -> finished at
    error: str | None = None
    first_output: str = ""
    rss_mib: float = float("nan")
    uss_mib: float = float("nan")
    cpu_s: float = float("nan")  # CPU seconds used by the student's server and kernel
    kernel_cpu_s: float = float("nan")  # of which the kernel's (the lesson's own work)

    @property
    def first_result(self) -> float:
        return self.cells.get(FIRST_RESULT, float("nan"))


class Hub:
    """A JupyterHub in a subprocess; ``with Hub(folder) as hub:`` starts it and stops it."""

    def __init__(self, folder: Path, environment: dict[str, str] | None = None,
                 cache_per_student: bool = False, cache_copied_from: Path | None = None) -> None:
        self.folder = folder
        self.environment = environment or {}
        # Each student's own empty numba cache (NUMBA_CACHE_DIR in their home): what a student
        # pays where no compiled kernel fits (an image built on another CPU).
        self.cache_per_student = cache_per_student or cache_copied_from is not None
        # A pre-warmed cache copied into each student's own folder before their server starts
        # (numba reads a cache only from a folder it can write to: a read-only shared one is
        # skipped and every kernel compiled again).
        self.cache_copied_from = cache_copied_from
        self.token = secrets.token_hex(32)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.pids: set[int] = set()  # every process seen belonging to this hub
        # The students' runtime folders (their kernels' sockets): short, removed on exit.
        self.sockets = Path(tempfile.mkdtemp(prefix="cfh-"))

    def config(self) -> str:
        homes = self.folder / "home"
        homes.mkdir(parents=True, exist_ok=True)
        single_user = Path(sys.executable).parent / "jupyterhub-singleuser"
        env = {"JUPYTER_PREFER_ENV_PATH": "1", **self.environment}
        root = os.geteuid() == 0
        course = self.folder / "course_server_config.json"
        course.write_text(json.dumps(course_server_settings()), encoding="utf-8")
        args = [*KERNEL_ARGS, f"--config={course}", *(["--allow-root"] if root else [])]
        return "\n".join([
            "c = get_config()  # noqa",
            "c.JupyterHub.ip = '127.0.0.1'",
            f"c.JupyterHub.port = {self.port}",
            "c.JupyterHub.hub_ip = '127.0.0.1'",
            f"c.JupyterHub.hub_port = {free_port()}",
            f"c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{free_port()}'",
            f"c.ConfigurableHTTPProxy.command = [{str(PROXY)!r}]",
            f"c.JupyterHub.db_url = 'sqlite:///{self.folder / 'hub.sqlite'}'",
            f"c.JupyterHub.cookie_secret_file = {str(self.folder / 'cookie_secret')!r}",
            f"c.JupyterHub.pid_file = {str(self.folder / 'hub.pid')!r}",
            "c.JupyterHub.authenticator_class = 'dummy'",
            f"c.DummyAuthenticator.password = {secrets.token_hex(16)!r}",
            "c.Authenticator.allow_all = True",
            "c.JupyterHub.spawner_class = 'simple'",
            f"c.SimpleLocalProcessSpawner.home_dir_template = {str(homes / '{username}')!r}",
            f"c.Spawner.cmd = [{str(single_user)!r}]",
            # jupyter_server refuses to run as root without this (CI runs as root).
            # The course's server settings, as a hub image has them (binder/postBuild).
            f"c.Spawner.args = {args!r}",
            f"c.Spawner.environment = {env!r}",
            # Kernels talk to their server over Unix sockets (KERNEL_ARGS), which live in the
            # server's runtime folder: a short one per student (a socket's path has at most 107
            # bytes; the kernel's id alone takes 36).
            "c.Spawner.environment['JUPYTER_RUNTIME_DIR'] = "
            f"lambda spawner: {str(self.sockets)!r} + '/' + spawner.user.name",
            *(["c.Spawner.environment['NUMBA_CACHE_DIR'] = "
               f"lambda spawner: {str(homes)!r} + '/' + spawner.user.name + '/numba-cache'"]
              if self.cache_per_student else []),
            *(["import shutil, os",
               "def copy_cache(spawner):",
               f"    target = {str(homes)!r} + '/' + spawner.user.name + '/numba-cache'",
               "    if not os.path.exists(target):",
               f"        shutil.copytree({str(self.cache_copied_from)!r}, target)",
               "c.Spawner.pre_spawn_hook = copy_cache"]
              if self.cache_copied_from is not None else []),
            "c.Spawner.start_timeout = 1200",
            "c.Spawner.http_timeout = 600",
            "c.JupyterHub.concurrent_spawn_limit = 0",
            "c.JupyterHub.active_server_limit = 0",
            "c.JupyterHub.cleanup_servers = True",
            f"c.JupyterHub.services = [{{'name': 'bench', 'api_token': {self.token!r}}}]",
            "c.JupyterHub.load_roles = [{'name': 'bench', 'services': ['bench'], 'scopes': "
            "['admin:users', 'admin:servers', 'tokens', 'admin:server_state']}]",
        ])

    def __enter__(self) -> Hub:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "jupyterhub_config.py").write_text(self.config(), encoding="utf-8")
        self.log = open(self.folder / "hub.log", "wb")
        hub = Path(sys.executable).parent / "jupyterhub"
        self.process = subprocess.Popen(
            [str(hub), "-f", "jupyterhub_config.py"], cwd=self.folder, stdout=self.log,
            stderr=subprocess.STDOUT, start_new_session=True)
        self.pids.add(self.process.pid)
        try:
            self._wait_until_up()
        except BaseException:
            self.__exit__()  # nothing of a hub that did not start is left
            raise
        return self

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the hub stopped at start-up: see {self.folder / 'hub.log'}:\n"
                                   + self.log_tail())
            try:
                self.api("GET", "/")
                return
            except OSError:
                time.sleep(0.5)
        raise RuntimeError(f"the hub did not answer in 300 s: see {self.folder / 'hub.log'}")

    def log_tail(self, lines: int = 30) -> str:
        text = (self.folder / "hub.log").read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """The hub's REST API with the service token (blocking; for set-up and tear-down)."""
        import urllib.request

        request = urllib.request.Request(
            f"{self.url}/hub/api{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read()
        return json.loads(text) if text else None

    def processes(self) -> list[Any]:
        """The hub, its proxy, and every student's server and kernel, alive now."""
        import psutil

        try:
            root = psutil.Process(self.process.pid) if self.process else None
        except psutil.NoSuchProcess:
            return []
        found = [root, *root.children(recursive=True)] if root else []
        self.pids.update(p.pid for p in found)
        return found

    def server_memory(self, name: str) -> tuple[float, float, float, float]:
        """(RSS, USS) in MiB of student ``name``'s server and its kernels, the CPU seconds (user
        and system) they have used, and the kernels' share of those."""
        import psutil

        state = self.api("GET", f"/users/{name}")["servers"][""].get("state") or {}
        server = psutil.Process(int(state["pid"]))
        rss = uss = cpu = kernels = 0.0
        for process in [server, *server.children(recursive=True)]:
            self.pids.add(process.pid)
            info = process.memory_full_info()
            rss += info.rss
            uss += info.uss
            times = process.cpu_times()
            cpu += times.user + times.system
            if process.pid != server.pid:
                kernels += times.user + times.system
        return rss / 2**20, uss / 2**20, cpu, kernels

    def leftovers(self) -> list[str]:
        """Processes of this hub still alive (after stop)."""
        import psutil

        alive = []
        for pid in sorted(self.pids):
            try:
                process = psutil.Process(pid)
                if process.status() != psutil.STATUS_ZOMBIE:
                    alive.append(f"{pid} {' '.join(process.cmdline())[:120]}")
            except psutil.NoSuchProcess:
                pass
        return alive

    def stop(self) -> None:
        """Stop the servers (cleanup_servers), then the hub and its proxy, as Ctrl-C would."""
        if self.process is None or self.process.poll() is not None:
            return
        self.processes()  # record every pid before the hub stops them
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            self.log.close()
            # Whatever is still alive after a clean stop is killed, so nothing outlives a run
            # (the test reports it as a leftover first).
            import psutil

            for pid in self.pids:
                with contextlib.suppress(psutil.Error):
                    psutil.Process(pid).kill()
            shutil.rmtree(self.sockets, ignore_errors=True)


async def _request(method: str, url: str, token: str, body: Any = None,
                   timeout: float = 1200) -> Any:
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    request = HTTPRequest(url, method=method, headers={"Authorization": f"token {token}"},
                          body=None if body is None else json.dumps(body),
                          allow_nonstandard_methods=True, request_timeout=timeout,
                          connect_timeout=timeout)
    response = await AsyncHTTPClient(max_clients=200).fetch(request)
    return json.loads(response.body) if response.body else None


def _message(code: str, session: str) -> str:
    return json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": "execute_request", "session": session,
                   "username": "student", "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": True,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}})


async def run_student(hub: Hub, student: Student, start: float, cells: tuple[int, ...] = CELLS,
                      timeout: float = 1200) -> None:
    """Log in (a token of the student's own), start a server, open lesson 04, start its kernel
    and run ``cells``, recording when each step finished (seconds since ``start``)."""
    from tornado.websocket import websocket_connect

    name = student.name
    api = f"{hub.url}/hub/api"
    try:
        await _request("POST", f"{api}/users/{name}", hub.token, {})
        token = (await _request("POST", f"{api}/users/{name}/tokens", hub.token,
                                {"note": "simulated student", "expires_in": 7200}))["token"]
        await _request("POST", f"{api}/users/{name}/server", token, {})
        while True:  # the spawn goes on in the hub; wait until the server is ready
            model = await _request("GET", f"{api}/users/{name}", token)
            server = model["servers"].get("")
            if server and server["ready"]:
                break
            if not server or not server.get("pending"):
                raise RuntimeError(f"{name}'s server stopped while starting: {model['servers']}")
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"{name}'s server was not ready after {timeout} s")
            await asyncio.sleep(0.5)
        student.spawned = time.monotonic() - start
        user = f"{hub.url}/user/{name}"
        notebook = await _request("GET", f"{user}/api/contents/{LESSON.name}", token)
        source = {i: "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                  for i, c in enumerate(notebook["content"]["cells"])}
        student.opened = time.monotonic() - start
        session = await _request("POST", f"{user}/api/sessions", token, {
            "path": LESSON.name, "type": "notebook", "name": LESSON.name,
            "kernel": {"name": "python3"}})
        kernel = session["kernel"]["id"]
        ws_url = f"{user}/api/kernels/{kernel}/channels".replace("http://", "ws://")
        from tornado.httpclient import HTTPRequest

        socket_ = await websocket_connect(HTTPRequest(
            ws_url, headers={"Authorization": f"token {token}"}, connect_timeout=timeout,
            request_timeout=timeout))
        student.kernel_ready = time.monotonic() - start
        session_id = uuid.uuid4().hex
        for index in cells:
            text = _message(source[index], session_id)
            msg_id = json.loads(text)["header"]["msg_id"]
            await socket_.write_message(text)
            replied = idle = False
            while not (replied and idle):
                raw = await asyncio.wait_for(socket_.read_message(), timeout)
                if raw is None:
                    raise RuntimeError(f"{name}'s kernel websocket closed during cell {index}")
                if isinstance(raw, bytes):  # a message with buffers (a widget's): not a reply
                    continue
                message = json.loads(raw)
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = message["msg_type"]
                if kind == "execute_reply":
                    replied = True
                    if message["content"]["status"] != "ok":
                        content = message["content"]
                        raise RuntimeError(f"{name}'s cell {index} failed: "
                                           f"{content.get('ename')}: {content.get('evalue')}")
                elif kind == "status" and message["content"]["execution_state"] == "idle":
                    idle = True
                elif kind == "stream" and index == FIRST_RESULT:
                    student.first_output += message["content"]["text"]
                elif kind == "error":
                    raise RuntimeError(f"{name}'s cell {index}: {message['content']['evalue']}")
            student.cells[index] = time.monotonic() - start
        socket_.close()
    except Exception as error:  # one student's failure is a result, not the end of the class
        student.error = f"{type(error).__name__}: {error}"


def run_class(hub: Hub, students: int, cells: tuple[int, ...] = CELLS, prefix: str = "student",
              timeout: float = 1200) -> list[Student]:
    """``students`` students arriving at once, each running lesson 04's ``cells``; then the
    memory of each student's server and kernel, measured while all of them are still up."""
    for name in range(students):
        home = hub.folder / "home" / f"{prefix}{name}"
        home.mkdir(parents=True, exist_ok=True)
        shutil.copy(LESSON, home / LESSON.name)
    roster = [Student(f"{prefix}{i}") for i in range(students)]

    async def all_of_them() -> None:
        start = time.monotonic()
        await asyncio.gather(*(run_student(hub, s, start, cells, timeout) for s in roster))

    asyncio.run(all_of_them())
    for student in roster:
        if student.error is None:
            try:
                (student.rss_mib, student.uss_mib, student.cpu_s,
                 student.kernel_cpu_s) = hub.server_memory(student.name)
            except Exception as error:
                student.error = f"memory: {type(error).__name__}: {error}"
    return roster


def summary(roster: list[Student]) -> dict[str, float]:
    """Median and max seconds to the first result, failures, median RSS and USS (MiB)."""
    ok = [s for s in roster if s.error is None]

    def med(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    return {"students": len(roster), "failed": len(roster) - len(ok),
            "spawn_median": med([s.spawned for s in ok]),
            "first_median": med([s.first_result for s in ok]),
            "first_max": max((s.first_result for s in ok), default=float("nan")),
            "rss_median": med([s.rss_mib for s in ok]),
            "uss_median": med([s.uss_mib for s in ok]),
            "cpu_median": med([s.cpu_s for s in ok]),
            "kernel_cpu_median": med([s.kernel_cpu_s for s in ok])}
