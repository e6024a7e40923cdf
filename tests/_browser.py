"""Drive a real JupyterLab in headless Chromium (the recipe in shared/BROWSER.md).

Not a test module (the leading underscore keeps pytest from collecting it). Use::

    with jupyterlab() as server, chromium_page() as page:
        open_notebook(page, server, "01_regret_matching.ipynb")
        run_all_and_wait(page)

The server runs on a free port with a random token, with temporary Jupyter config, data,
runtime, IPython and settings folders, on a temporary copy of ``lessons/`` (and ``data/``
beside it), so a test never touches the user's Jupyter setup nor writes a lesson back.
"""

from __future__ import annotations

import atexit
import functools
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
import urllib.request
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
LESSONS = REPO / "lessons"
DATA = REPO / "data"
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
LOGS = ARTIFACTS / "logs"

TIMEOUT_MS = 60_000

# Without the background-networking flags chromium keeps trying the closed network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

# What `make lab` gives JupyterLab (the Makefile's lab recipe), given to the tests' server too:
# the server configuration (with the pre-save hook that replaces widget outputs in a saved
# notebook) and the settings overrides, which lie outside the temporary user settings below.
LAB_CONFIG = REPO / "jupyter" / "jupyter_lab_config.json"
LAB_APP_SETTINGS = REPO / "jupyter" / "lab-settings"

# JupyterLab user settings written before start: no news or update checks, every cell kept in
# the page (windowing would leave far cells out of the DOM), and no autosave.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


class LabServer(NamedTuple):
    """A running JupyterLab: its base URL (no trailing slash) and its token."""

    base_url: str
    token: str
    #: The server's log (its stdout and stderr), which :func:`check_server_log` reads.
    log: Path | None = None

    def url(self, path: str = "lab") -> str:
        """The address of ``path`` on this server, token included."""
        return f"{self.base_url}/{path.lstrip('/')}?token={self.token}"


def browser_unavailable() -> str | None:
    """Why the browser tests cannot run here, or None if they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed (run `make test`, which installs it)"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (install it with `apt-get install chromium`)"
    return None


#: The port this test process's JupyterLab servers use, one after another (:func:`_lab_port`).
_LAB_PORT: list[int] = []


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _lab_port() -> int:
    """The same port for each JupyterLab this process starts, while it is free (another server
    of this process may still hold it): the same address for JupyterLab's scripts, which the
    browser's profile (:func:`chromium`) then finds compiled from an earlier test."""
    if _LAB_PORT:
        with socket.socket() as sock, suppress(OSError):
            # as the server binds (tornado sets it): the last server's closed connections,
            # waiting out TCP's TIME_WAIT on that port, do not make it busy
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", _LAB_PORT[0]))
            return _LAB_PORT[0]
    _LAB_PORT[:] = [_free_port()]
    return _LAB_PORT[0]


def _copy_course(target: Path, extra_files: Iterable[Path]) -> Path:
    """Copy lessons/ (and data/ beside it) into ``target``; return the server's root."""
    root = target / "lessons"
    ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    shutil.copytree(LESSONS, root, ignore=ignore)
    if DATA.is_dir():
        shutil.copytree(DATA, target / "data", ignore=ignore)
    for extra in extra_files:
        extra = Path(extra)
        if extra.is_dir():
            shutil.copytree(extra, root / extra.name, ignore=ignore)
        else:
            shutil.copy2(extra, root / extra.name)
    return root


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _kill_leftovers(marker: str) -> list[int]:
    """Kill processes whose command line names ``marker`` (our temporary folder): kernels
    that outlived their server. Only processes this harness started can match."""
    killed = []
    proc = Path("/proc")
    if not proc.is_dir():
        return killed
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            try:
                os.kill(int(entry.name), signal.SIGKILL)
                killed.append(int(entry.name))
            except OSError:
                pass
    return killed


@contextmanager
def jupyterlab(extra_files: Iterable[Path] = (),
               startup_timeout: float = 60) -> Iterator[LabServer]:
    """Run JupyterLab on a temporary copy of the lessons; yield ``(base_url, token)``.

    Parameters
    ----------
    extra_files : iterable of Path
        Notebooks or folders copied into the server's root beside the lessons (for example a
        scratch notebook used to develop the harness).
    startup_timeout : float
        Seconds to wait for ``/api/status`` to answer.
    """
    port, token = _lab_port(), secrets.token_hex(24)
    with tempfile.TemporaryDirectory(prefix="cfrviz-lab-") as tmp:
        tmp = Path(tmp)
        root = _copy_course(tmp, extra_files)
        settings = tmp / "settings"
        for name, values in LAB_SETTINGS.items():
            (settings / name).parent.mkdir(parents=True, exist_ok=True)
            (settings / name).write_text(json.dumps(values))
        env = dict(os.environ)
        env.pop("JUPYTER_TOKEN", None)
        env.update(
            JUPYTER_CONFIG_DIR=str(tmp / "config"),
            JUPYTER_DATA_DIR=str(tmp / "data-dir"),
            JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
            IPYTHONDIR=str(tmp / "ipython"),
            # Prefer this environment's kernelspec (the venv's python3) over the user's.
            JUPYTER_PREFER_ENV_PATH="1",
        )
        command = [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
            "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
            f"--LabApp.user_settings_dir={settings}",
            f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
            "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
            f"--config={LAB_CONFIG}", f"--LabApp.app_settings_dir={LAB_APP_SETTINGS}",
        ]
        log_path = tmp / "jupyterlab.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )
        server = LabServer(f"http://127.0.0.1:{port}", token, log_path)
        try:
            _wait_until_up(server, process, log_path, startup_timeout)
            yield server
            check_server_log(server, final=True)  # reached only when the test passed
        finally:
            _stop(server, process)
            _kill_leftovers(str(tmp))
            LOGS.mkdir(parents=True, exist_ok=True)
            shutil.copy2(log_path, LOGS / "jupyterlab.log")


def _wait_until_up(server: LabServer, process, log_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"JupyterLab exited with status {process.returncode} before it was ready:\n"
                + _tail(log_path)
            )
        try:
            with urllib.request.urlopen(server.url("api/status"), timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"JupyterLab did not answer within {timeout:.0f} s:\n" + _tail(log_path))


def _stop(server: LabServer, process) -> None:
    if process.poll() is None:
        request = urllib.request.Request(server.url("api/shutdown"), method="POST", data=b"")
        with suppress(urllib.error.URLError, OSError):
            urllib.request.urlopen(request, timeout=5).close()
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            process.kill()
        process.wait(timeout=10)


#: What a JupyterLab server's log must never hold: what the student's terminal would show as a
#: failure.  Issue 29: with Node on the PATH, a "type": "module" at the repository root made
#: JupyterLab's CommonJS helpers in .venv fail ("ReferenceError: require is not defined in ES
#: module scope") each time a lesson opened.
SERVER_LOG_PROBLEM = re.compile(r"Traceback|\w*Error\b")

#: ipykernel's shutdown races: a kernel being shut down still writes while its IOPub thread
#: and sockets close, and Python prints what that write raised on the kernel's stderr, which
#: is the server's log.  Seen three times here in about 30 browser runs (2026-12-02 and 12-03),
#: after a kernel shutdown, as ``RuntimeError: Event loop is closed`` from the thread that
#: copies C-level output (ipython/ipykernel#1155) or ``zmq.error.ZMQError: Socket operation on
#: non-socket`` from the warning that ``Kernel.dispatch_control`` was never awaited; each failed
#: every later lesson while the checks read the whole log.  Only such a traceback is let
#: through: a kernel was shut down before it, it ends in one of :data:`_SHUTDOWN_RACE_ERRORS`,
#: and every frame is ipykernel's, zmq's, tornado's or the standard library's (any other frame,
#: a cfrviz one or a lesson's cell included, fails).
_SHUTDOWN_RACE_FRAMES = re.compile(
    r'File "(?:.*/)?(ipykernel|zmq|tornado|asyncio|threading|warnings)[/.]')
_SHUTDOWN_RACE_ERRORS = re.compile(
    r"RuntimeError: Event loop is closed$|zmq\.error\.ZMQError: Socket operation on non-socket$")

#: How far each server's log has been checked: a problem is reported once, by the check that
#: first reads it (the lesson or test it happened in), not by every later one.
_LOG_CHECKED: dict[Path, int] = {}


def _shutdown_race(lines: list[str], i: int, end: int) -> bool:
    """Whether the traceback at ``lines[i:end]``, its exception at ``lines[end]``, is one of
    ipykernel's shutdown races (:data:`_SHUTDOWN_RACE_FRAMES`)."""
    frames = [line for line in lines[i + 1:end] if line.lstrip().startswith("File ")]
    return (end < len(lines) and bool(_SHUTDOWN_RACE_ERRORS.search(lines[end].strip()))
            and bool(frames) and all(_SHUTDOWN_RACE_FRAMES.search(f) for f in frames)
            and any("Kernel shutdown:" in line for line in lines[:i]))


def _log_problems(lines: list[str], start: int = 0,
                  final: bool = True) -> tuple[list[str], int]:
    """(the lines reporting a problem in ``lines[start:]``, the log's lines, with the lines
    around the first one; up to which line it was read).  ipykernel's shutdown races
    (:func:`_shutdown_race`) are left out; unless ``final``, a traceback still being written
    at the end is left for the next check."""
    problems: list[int] = []
    i = start
    while i < len(lines):
        if not SERVER_LOG_PROBLEM.search(lines[i]):
            i += 1
            continue
        end = i + 1
        if lines[i].strip() == "Traceback (most recent call last):":
            while end < len(lines) and lines[end].startswith(" "):
                end += 1
            if end == len(lines) and not final:
                break
            if _shutdown_race(lines, i, end):
                i = end + 1
                continue
        problems.append(i)
        i = end
    if not problems:
        return [], i
    return lines[max(start, problems[0] - 5):problems[0] + 40], i


def check_server_log(server: LabServer, final: bool = False) -> None:
    """Fail if the server's log shows an error or a traceback written since the last check.
    Run when a lesson has opened (:func:`open_notebook`) and, ``final``, when the server of a
    passing test stops (:func:`jupyterlab`)."""
    if server.log is None:
        return
    lines = server.log.read_text(errors="replace").splitlines()
    found, _LOG_CHECKED[server.log] = _log_problems(
        lines if final else lines[:-1], _LOG_CHECKED.get(server.log, 0), final)
    # The first problem with the lines before and after it: a traceback's frames say where.
    assert not found, "the JupyterLab server logged errors:\n" + "\n".join(found)[:6000]


# --------------------------------------------------------------------------------- browser


class PageErrors(list):
    """Uncaught JavaScript errors and console errors seen on a page."""


#: What anywidget says when a model's front end has not started within its two seconds (it
#: then drops the kernel's messages; cfrviz's widgets ask for their state again, issue 30).
ANYWIDGET_LATE = "Failed to initialize model"


def anywidget_failures(page) -> list[str]:
    """The page's console messages (any level) and uncaught errors that say anywidget gave up
    on a model (:data:`ANYWIDGET_LATE`)."""
    return [m for m in [*page.console_messages, *page.errors] if ANYWIDGET_LATE in m]


@contextmanager
def chromium_page(width: int = 1400, height: int = 1000):
    """Launch Debian's chromium through Playwright and yield a fresh page.

    The page has a 60 s default timeout, ``expect()`` too, an ``errors`` attribute
    (a :class:`PageErrors` list) that collects the page's JavaScript errors, and a
    ``console_messages`` list of every console message (``"<type>: <text>"``).
    """
    with chromium() as browser, new_page(browser, width, height) as page:
        yield page


#: What a launch removes from the profile: all it keeps is the disk cache.
_PROFILE_STATE = ("Cookies", "Cookies-journal", "Local Storage", "Session Storage", "IndexedDB",
                  "Service Worker", "Sessions", "Preferences")


@functools.cache
def _profile_folder() -> Path:
    """One chromium profile for this test process, kept from one launch to the next
    (:func:`chromium`) and removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="cfrviz-chromium-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _profile() -> Path:
    """This process's chromium profile, emptied of everything a page could leave for the next
    (cookies, storage), keeping only its disk cache."""
    default = _profile_folder() / "Default"
    for name in _PROFILE_STATE:
        path = default / name
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return _profile_folder()


@contextmanager
def chromium():
    """Launch Debian's chromium through Playwright and yield its browsing context (for
    several pages, each from :func:`new_page`, without launching it again).

    Each launch starts from the profile the last launch of this process left, without its
    cookies and storage: only the disk cache carries over, in which chromium keeps
    JupyterLab's scripts compiled (V8's code cache).  With the same port for every server
    (:func:`_lab_port`), a page then loads JupyterLab for about 2.5 CPU s less than from an
    empty cache (7 against 10, measured with a one-cell notebook).
    """
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)  # expect() ignores page.set_default_timeout
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(_profile()), executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield context
        finally:
            context.close()


@contextmanager
def new_page(browser, width: int = 1400, height: int = 1000):
    """A fresh page of ``browser`` (what :func:`chromium` yields), as :func:`chromium_page`
    gives; closed afterwards."""
    page = browser.new_page()
    try:
        page.set_viewport_size({"width": width, "height": height})
        page.set_default_timeout(TIMEOUT_MS)
        errors = PageErrors()
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))

        messages: list[str] = []

        def console_message(msg) -> None:
            messages.append(f"{msg.type}: {msg.text}")
            if msg.type == "error":
                errors.append(f"console error: {msg.text}")

        page.on("console", console_message)
        page.errors = errors
        page.console_messages = messages
        yield page
    finally:
        page.close()


_KERNEL_STATE = """(path) => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  const dialog = document.querySelector(".jp-Dialog");
  if (!panel || !panel.sessionContext || !panel.context || panel.context.path !== path)
    return {ready: false, dialog: dialog ? dialog.innerText : null, state: "notebook not open"};
  const sc = panel.sessionContext;
  const kernel = sc.session && sc.session.kernel;
  const link = kernel ? kernel.connectionStatus + "/" + kernel.status : "none";
  return {
    ready: !!(sc.isReady && kernel && kernel.connectionStatus === "connected"
              && kernel.status === "idle"),
    dialog: dialog ? dialog.innerText : null,
    state: `session ready: ${sc.isReady}, kernel: ${link}`,
  };
}"""


def open_notebook(page, server: LabServer, path: str, timeout: float = 60) -> None:
    """Open ``path`` (relative to the server root) and wait until its kernel is really idle.

    The execution indicator can read idle while the kernel is still starting, which later
    opens a "Select Kernel" dialog; the session context's own state is what counts. A dialog
    (a notebook without a kernelspec asks which kernel to use) fails at once.
    """
    page.goto(server.url(f"lab/tree/{path}"))
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for()
    deadline = time.monotonic() + timeout
    state: dict = {}
    while time.monotonic() < deadline:
        state = page.evaluate(_KERNEL_STATE, path)
        if state["ready"]:
            check_server_log(server)
            return
        if state["dialog"]:
            raise AssertionError(f"a dialog opened while opening {path}:\n{state['dialog']}")
        time.sleep(0.25)
    raise AssertionError(f"the kernel of {path} was not idle within {timeout:.0f} s "
                         f"({state['state']})")


_RUN_STATE = r"""() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const code = panel.content.widgets.filter(
    (cell) => cell.model.type === "code" && cell.model.sharedModel.getSource().trim() !== "");
  const dialog = document.querySelector(".jp-Dialog");
  // Outputs only: a lesson's prose may quote "Loading widget" (lesson 00 does).
  const shown = [...document.querySelectorAll(".jp-OutputArea-output")].map((el) => el.innerText);
  // An error output (a SyntaxError's has no "Traceback" line), else a traceback or a
  // widget that failed to display.
  const failed = code.map((cell) => cell.model.outputs.toJSON())
    .flat().find((output) => output.output_type === "error");
  const error = (failed && [failed.ename + ": " + failed.evalue, ...failed.traceback].join("\n")
      .replace(/\x1b\[[0-9;]*m/g, ""))
    || shown.find((t) => t.includes("Traceback") || t.includes("Error displaying widget"));
  // Every message to or from the kernel counts as progress (run_all_and_wait's stall).
  if (kernel && !kernel.cfrvizMessages) {
    kernel.cfrvizMessages = {count: 0};
    kernel.anyMessage.connect(() => { kernel.cfrvizMessages.count += 1; });
  }
  return {
    total: code.length,
    pending: code.filter((cell) => cell.model.executionCount === null).length,
    kernel: kernel ? kernel.status : "none",
    messages: kernel ? kernel.cfrvizMessages.count : 0,
    dialog: dialog ? dialog.innerText : null,
    loading: shown.some((t) => t.includes("Loading widget")),
    error: error || null,
  };
}"""


def run_all_and_wait(page, timeout: float = 90, stall: float | None = None) -> dict:
    """Clear outputs, run every cell, and wait until all is done; fail fast on errors.

    Done means: every non-empty code cell has an execution count, the kernel is idle, no
    dialog is open, and no output shows "Loading widget", "Error displaying widget" or
    "Traceback" (outputs only: a lesson's prose may mention them).

    Fails after ``timeout`` seconds, or, given ``stall``, once nothing has moved for ``stall``
    seconds (no cell finished, no message to or from the kernel, no change of its status): on
    a loaded machine a run that keeps moving is slow, not stuck (issue 30), and ``timeout``
    is then only a cap.
    """
    # Clearing resets execution counts, so counts saved in the file cannot pass for a run.
    page.evaluate("() => jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    # Not awaited on purpose: an awaited run-all blocks, forever if a dialog opens.
    page.evaluate("() => { jupyterapp.commands.execute('notebook:run-all-cells'); }")
    deadline = time.monotonic() + timeout
    state: dict = {}
    known = time.monotonic()  # when the kernel's status was last known
    moved, progress = time.monotonic(), None  # when the run last moved, and how far it was
    while time.monotonic() < deadline:
        asked = time.monotonic()  # a page too busy to answer at once has not stalled
        state = page.evaluate(_RUN_STATE)
        now = (state["pending"], state["messages"], state["kernel"])
        if now != progress:
            moved, progress = asked, now
        elif stall is not None and asked - moved > stall:
            raise AssertionError(f"the notebook made no progress for {stall:.0f} s: {state}")
        if state["error"]:
            raise AssertionError("a cell failed in the browser:\n" + state["error"][-3000:])
        if state["dialog"]:
            raise AssertionError("a dialog opened while running the notebook:\n" + state["dialog"])
        if state["kernel"] != "unknown":
            known = time.monotonic()
        # "unknown" for a moment is a busy kernel's missed heartbeat (lesson 00 compiling, on a
        # loaded machine); for 20 s it is a kernel that is gone.
        if state["kernel"] == "dead" or time.monotonic() - known > 20:
            raise AssertionError(f"the kernel is {state['kernel']}")
        if state["pending"] == 0 and state["kernel"] == "idle" and not state["loading"]:
            return state
        time.sleep(0.25)
    raise AssertionError(f"the notebook did not finish within {timeout:.0f} s: {state}")


def screenshot(target, name: str) -> Path:
    """Save a screenshot of a page or an element as artifacts/screenshots/<name>.png.

    JupyterLab scrolls inside a page of fixed height, so an element taller than the window
    would come out cut and overlaid; the window grows for the shot and then shrinks back.
    Plotly may redraw on the resize: read figure state again afterwards.
    """
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png"
    page = getattr(target, "page", None)
    if page is None:  # a Page
        target.screenshot(path=str(path))
        return path
    size = page.viewport_size
    box = target.bounding_box()
    grow = size and box and box["height"] + 250 > size["height"]
    if grow:
        page.set_viewport_size({"width": size["width"], "height": int(box["height"]) + 250})
    try:
        target.scroll_into_view_if_needed()
        target.screenshot(path=str(path))
    finally:
        if grow:
            page.set_viewport_size(size)
    return path


# ------------------------------------------------------------------------ widgets and plots


def widget_output_with_figures(page, button: str | None = None):
    """The first cell output holding a plotly figure and a slider widget, or, given
    ``button``, a button with that text (a toggle, a Next button)."""
    control = (page.locator(".widget-slider") if button is None
               else page.locator("button", has_text=button))
    return (
        page.locator(".jp-OutputArea-output")
        .filter(has=page.locator(".js-plotly-plot"))
        .filter(has=control)
        .first
    )


def timeline_handle(scope):
    """The handle of the timeline slider in ``scope``: the slider beside a Play button, if
    there is one, else the first slider."""
    beside_play = scope.locator(":is(.widget-hbox, .widget-box):has(> .widget-play) "
                                ".widget-slider .noUi-handle")
    if beside_play.count():
        return beside_play.first
    return scope.locator(".widget-slider .noUi-handle").first


_FIGURE_STATE = """(scope) => [...scope.querySelectorAll(".js-plotly-plot")].map((plot) => ({
  lines: [...plot.querySelectorAll("path.js-line")].map((p) => p.getAttribute("d")),
  points: [...plot.querySelectorAll("path.point")].map((p) => p.getAttribute("transform")),
  marks: [...(plot.closest(".cfrviz-overlaid")?.querySelectorAll(".cfrviz-now-mark") ?? [])]
    .map((p) => (p.tagName === "text" ? p.textContent : p.getAttribute("d"))),
  widths: [...(plot.closest(".cfrviz-overlaid")?.querySelectorAll(".cfrviz-now-mark") ?? [])]
    .map((p) => p.getAttribute("stroke-width")),
}))"""


def figure_state(scope) -> list[dict]:
    """The drawn content of every plotly figure in ``scope``: each line's ``d`` attribute and
    each marker's ``transform``, for cartesian and ternary plots alike, and the ``d`` (a
    text's content) and stroke width of each mark drawn over or beneath the figure
    (``cfrviz.widgets.overlay``; a hidden line's ``d`` is empty, the hidden parts of a tree's
    marks are left out)."""
    return scope.evaluate(_FIGURE_STATE)


def wait_for_figure_change(scope, before: list[dict], timeout: float = 15) -> list[dict]:
    """Wait until the figures in ``scope`` differ from ``before`` and stop changing."""
    deadline = time.monotonic() + timeout
    current = figure_state(scope)
    while current == before and time.monotonic() < deadline:
        time.sleep(0.1)
        current = figure_state(scope)
    if current == before:
        raise AssertionError(f"the figures did not change within {timeout:.0f} s")
    return wait_for_figures_to_settle(scope)


def settled(read, quiet: float, timeout: float):
    """What ``read()`` returns once it has stayed the same for ``quiet`` seconds (or, after
    ``timeout`` seconds, the last reading)."""
    deadline = time.monotonic() + timeout
    state, since = read(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = read()
        if now != state:
            state, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return state
    return state


def wait_for_figures_to_settle(scope, quiet: float = 0.6, timeout: float = 15) -> list[dict]:
    """Return the figures' state once it has stayed the same for ``quiet`` seconds."""
    return settled(lambda: figure_state(scope), quiet, timeout)


def slider_value(handle) -> int:
    return int(float(handle.get_attribute("aria-valuenow")))


def slider_range(handle) -> tuple[int, int]:
    low = int(float(handle.get_attribute("aria-valuemin")))
    high = int(float(handle.get_attribute("aria-valuemax")))
    return low, high


@contextmanager
def voila(notebook: str, extra_files: Iterable[Path] = (), startup_timeout: float = 60,
          env_extra: dict | None = None) -> Iterator[LabServer]:
    """Serve one lesson as a Voila dashboard (as ``make present`` does); yield its server.

    ``server.url("")`` is the dashboard.  Same isolation as :func:`jupyterlab`: a
    temporary copy of the lessons and temporary Jupyter folders.
    """
    port, token = _free_port(), secrets.token_hex(24)
    with tempfile.TemporaryDirectory(prefix="cfrviz-voila-") as tmp:
        tmp = Path(tmp)
        root = _copy_course(tmp, extra_files)
        env = dict(os.environ)
        env.pop("JUPYTER_TOKEN", None)
        env.update(JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_DATA_DIR=str(tmp / "data-dir"),
                   JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), IPYTHONDIR=str(tmp / "ipython"),
                   JUPYTER_PREFER_ENV_PATH="1", **(env_extra or {}))
        # make present's configuration (jupyter/voila.json and voila.py), as make present
        # passes it: local-socket kernels, the culler, the extensions Voila must not load
        command = [str(Path(sys.executable).with_name("voila")), notebook, "--no-browser",
                   f"--port={port}", "--Voila.ip=127.0.0.1", f"--token={token}",
                   "--ServerApp.port_retries=0",
                   f"--Voila.config_file_paths={LAB_CONFIG.parent}"]
        log_path = tmp / "voila.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(command, cwd=root, env=env, stdout=log,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       start_new_session=True)
        server = LabServer(f"http://127.0.0.1:{port}", token)
        try:
            _wait_for_port(port, process, log_path, startup_timeout)
            yield server
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
            _kill_leftovers(str(tmp))
            LOGS.mkdir(parents=True, exist_ok=True)
            shutil.copy2(log_path, LOGS / "voila.log")


def _wait_for_port(port: int, process, log_path: Path, timeout: float) -> None:
    """Wait until the server accepts connections (Voila has no cheap status page: its root
    runs the notebook)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode} before it "
                               "was ready:\n" + _tail(log_path))
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.25)
    raise RuntimeError(f"the server did not listen within {timeout:.0f} s:\n" + _tail(log_path))


# ---------------------------------------------------------------------- animation timing
#
# How fast a widget's timeline plays in the browser, beside a bare baseline in the same page.
# The page itself records: a requestAnimationFrame loop reads the watched label's text once per
# rendered frame (a value replaced before a paint was never seen), the rAF timestamps give the
# front end's frame times, and a PerformanceObserver collects long tasks (> 50 ms on the main
# thread).  Widgets in a timing notebook carry CSS classes set in the notebook: the widget's root
# ``<name>``, its label ``bench-label``, its timeline slider ``bench-slider``, its Play
# ``bench-play``.

#: A cell defining ``bench_baseline(interval, name)``: a bare ``Play`` + slider driving a
#: one-trace ``FigureWidget`` and a label, the least a timeline widget can do per frame.  The
#: figure is cfrviz's ``FigureWidget`` (plotly's, with a front end that starts at once), as in
#: every cfrviz widget: plotly's own imports its 5 MB front end anew and, in a busy page, misses
#: anywidget's two seconds to start, drops every message for good and stays empty at plotly's
#: fallback width of 700 px (lesson 04's probe cell, in a 568-px output area).  Per frame the
#: two are the same plotly model and view.
BASELINE_CELL = '''\
import ipywidgets as W
import numpy as np
import plotly.graph_objects as go
from cfrviz.widgets.figure_widget import FigureWidget


def bench_baseline(interval, name="bench-baseline", frames=100_000):
    play = W.Play(value=0, min=0, max=frames - 1, interval=interval, show_repeat=False)
    slider = W.IntSlider(value=0, min=0, max=frames - 1, readout=False)
    W.jslink((play, "value"), (slider, "value"))
    label = W.HTML("iteration <b>0</b>")
    x = np.linspace(0, 6.3, 200)
    fig = FigureWidget(go.Scatter(x=x, y=np.sin(x)), layout=dict(height=260))

    def on_frame(change):
        k = change["new"]
        with fig.batch_update():
            fig.data[0].y = np.sin(x + k / 10)
        label.value = f"iteration <b>{k}</b>"

    slider.observe(on_frame, names="value")
    play.add_class("bench-play")
    slider.add_class("bench-slider")
    label.add_class("bench-label")
    box = W.VBox([W.HBox([play, slider, label]), fig])
    box.add_class(name)
    return box
'''


def code_notebook(path: Path, cells: Iterable[str]) -> Path:
    """Write a notebook of code ``cells`` (with a python3 kernelspec) to ``path``."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, path)
    return path


def open_notebook_in_workspace(page, server: LabServer, path: str, workspace: str,
                               timeout: float = 60) -> None:
    """Open ``path`` in its own fresh workspace (so an earlier notebook's tab is not restored
    and made current) and wait until its kernel is idle, as :func:`open_notebook` does."""
    page.goto(f"{server.base_url}/lab/workspaces/{workspace}/tree/{path}"
              f"?token={server.token}&reset")
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for()
    deadline = time.monotonic() + timeout
    state: dict = {}
    while time.monotonic() < deadline:
        state = page.evaluate(_KERNEL_STATE, path)
        if state["ready"]:
            check_server_log(server)
            return
        if state["dialog"]:
            raise AssertionError(f"a dialog opened while opening {path}:\n{state['dialog']}")
        time.sleep(0.25)
    raise AssertionError(f"the kernel of {path} was not idle within {timeout:.0f} s "
                         f"({state['state']})")


_RECORD = """([labelSelector, handleSelector]) => {
  const label = document.querySelector(labelSelector);
  const handle = handleSelector && document.querySelector(handleSelector);
  const rec = {frames: [], labels: [], values: [], tasks: [], keys: [], changes: [],
               marks: {}, stopped: false};
  let text = label.textContent, value = handle && handle.getAttribute("aria-valuenow");
  const tasks = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) rec.tasks.push([e.startTime, e.duration]);
  });
  tasks.observe({type: "longtask"});
  // When the label's DOM changes (before any paint), for the latency of a key press.
  const changes = new MutationObserver(() => rec.changes.push(performance.now()));
  changes.observe(label, {childList: true, subtree: true, characterData: true});
  const keydown = (e) => rec.keys.push(performance.now());
  document.addEventListener("keydown", keydown, true);
  const tick = (t) => {
    if (rec.stopped) return;
    rec.frames.push(t);
    const now = label.textContent;
    if (now !== text) { rec.labels.push([t, now]); text = now; }
    const v = handle && handle.getAttribute("aria-valuenow");
    if (v !== value) { rec.values.push([t, v]); value = v; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  rec.stop = () => {
    rec.stopped = true; tasks.disconnect(); changes.disconnect();
    document.removeEventListener("keydown", keydown, true);
  };
  window.__cfrvizTiming = rec;
  return performance.now();
}"""

_COLLECT = """() => {
  const rec = window.__cfrvizTiming;
  rec.stop();
  return {frames: rec.frames, labels: rec.labels, values: rec.values, tasks: rec.tasks,
          keys: rec.keys, changes: rec.changes, marks: rec.marks, now: performance.now()};
}"""

_CLICK_PLAY = """([button, mark]) => {
  window.__cfrvizTiming.marks[mark] = performance.now();
  document.querySelector(button).click();
}"""

_LABEL = """(label) => document.querySelector(label).textContent"""


class TimedParts(NamedTuple):
    """CSS selectors of the parts of a timeline widget that timing reads and presses (each
    names one element: the first match counts)."""

    button: str   #: the Play button
    handle: str   #: the timeline slider's handle
    label: str    #: the label that shows the iteration

    @classmethod
    def bench(cls, root: str) -> TimedParts:
        """The parts of a timing notebook's widget ``root`` (see :data:`BASELINE_CELL`)."""
        return cls(f"{root} .bench-play button", f"{root} .bench-slider .noUi-handle",
                   f"{root} .bench-label")


def wait_for_label_to_settle(page, root: str, quiet: float = 0.8,
                             timeout: float = 30) -> float:
    """Wait until the label of widget ``root`` has not changed for ``quiet`` seconds; return
    how long that took (the time a backlog of frames needed to drain)."""
    return _settle_label(page, TimedParts.bench(root).label, quiet, timeout)


def _settle_label(page, label: str, quiet: float = 0.8, timeout: float = 30) -> float:
    start = time.monotonic()
    text, since = page.evaluate(_LABEL, label), time.monotonic()
    while time.monotonic() - start < timeout:
        page.wait_for_timeout(100)
        now = page.evaluate(_LABEL, label)
        if now != text:
            text, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return since - start


class PlayTiming(NamedTuple):
    """What one Play run showed: see :func:`measure_play`."""

    shown_per_s: float        #: distinct label values painted per second
    ticks_per_s: float        #: distinct slider positions painted per second (the Play timer)
    frame_ms: float           #: median time between rendered frames
    frame_p90_ms: float       #: 90th percentile of it
    busy: float               #: share of the window spent in long tasks
    drain_s: float            #: after pause, how long the label kept changing (the backlog)


def _quantile(values, q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _changes_per_second(times: list[float], start: float, end: float) -> float:
    """Changes per second in ``[start, end)`` (ms): from the first change in it to the last,
    so a count of n changes is not rounded to whole windows."""
    inside = [t for t in times if start <= t < end]
    if len(inside) < 2:
        return len(inside) * 1000 / (end - start)
    return (len(inside) - 1) * 1000 / (inside[-1] - inside[0])


def measure_play(page, root: str, seconds: float = 4.0, warmup: float = 1.0) -> PlayTiming:
    """Press Home on widget ``root``'s timeline, press Play, and time ``seconds`` of playing
    after ``warmup`` seconds; then pause and time how long the label keeps changing."""
    return measure_play_parts(page, TimedParts.bench(root), seconds, warmup)


def measure_play_parts(page, parts: TimedParts, seconds: float = 4.0,
                       warmup: float = 1.0) -> PlayTiming:
    """:func:`measure_play` for any widget: its Play button, timeline handle and label given
    as CSS selectors (``parts``)."""
    handle = page.locator(parts.handle).first
    handle.scroll_into_view_if_needed()
    handle.focus()
    handle.press("Home")
    _settle_label(page, parts.label)
    page.evaluate(_RECORD, [parts.label, parts.handle])
    page.evaluate(_CLICK_PLAY, [parts.button, "play"])
    page.wait_for_timeout(int((warmup + seconds) * 1000))
    page.evaluate(_CLICK_PLAY, [parts.button, "pause"])
    drain = _settle_label(page, parts.label)
    rec = page.evaluate(_COLLECT)
    start = rec["marks"]["play"] + warmup * 1000
    end = start + seconds * 1000
    frames = [t for t in rec["frames"] if start <= t < end]
    gaps = [b - a for a, b in zip(frames, frames[1:])]
    busy = sum(max(0.0, min(s + d, end) - max(s, start)) for s, d in rec["tasks"])
    return PlayTiming(
        shown_per_s=_changes_per_second([t for t, _ in rec["labels"]], start, end),
        ticks_per_s=_changes_per_second([t for t, _ in rec["values"]], start, end),
        frame_ms=_quantile(gaps, 0.5), frame_p90_ms=_quantile(gaps, 0.9),
        busy=busy / (end - start), drain_s=drain)


class KeyTiming(NamedTuple):
    """Key press to label change: see :func:`measure_key_steps`."""

    dom_ms: float     #: median time from keydown to the label's DOM change
    paint_ms: float   #: median time from keydown to the first frame showing it
    worst_ms: float   #: slowest of the presses (to paint)


def measure_key_steps(page, root: str, presses: int = 6, key: str = "ArrowRight",
                      pause: float = 0.4) -> KeyTiming:
    """Focus widget ``root``'s ``.bench-slider`` handle and press ``key`` ``presses`` times,
    each once the previous step has shown; time each press to the label's change."""
    return measure_key_steps_parts(page, TimedParts.bench(root), presses, key, pause)


def measure_key_steps_parts(page, parts: TimedParts, presses: int = 6,
                            key: str = "ArrowRight", pause: float = 0.4) -> KeyTiming:
    """:func:`measure_key_steps` for any widget, its parts given as CSS selectors."""
    handle = page.locator(parts.handle).first
    handle.scroll_into_view_if_needed()
    handle.focus()
    _settle_label(page, parts.label)
    page.evaluate(_RECORD, [parts.label, parts.handle])
    for _ in range(presses):
        before = page.evaluate(_LABEL, parts.label)
        handle.press(key)
        deadline = time.monotonic() + 10
        while page.evaluate(_LABEL, parts.label) == before and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        _settle_label(page, parts.label, quiet=pause)
    rec = page.evaluate(_COLLECT)
    doms, paints = [], []
    for k in rec["keys"]:
        change = next((c for c in rec["changes"] if c >= k), None)
        painted = next((t for t, _ in rec["labels"] if t >= k), None)
        if change is not None:
            doms.append(change - k)
        if painted is not None:
            paints.append(painted - k)
    return KeyTiming(dom_ms=_quantile(doms, 0.5), paint_ms=_quantile(paints, 0.5),
                     worst_ms=max(paints, default=float("nan")))


class TimedWidget(NamedTuple):
    """A widget to time: its notebook code (ending with the widget as ``w``) and how."""

    name: str
    code: str
    interval: int | None   #: its Play interval in ms; None for a widget without a timeline


def _marked(widget_code: str, slider: str = "w.slider", play: str | None = "w.play",
            label: str = "w.iteration_label") -> str:
    marks = [f"{slider}.add_class('bench-slider')", f"{label}.add_class('bench-label')",
             "w.add_class('bench-widget')"]
    if play:
        marks.append(f"{play}.add_class('bench-play')")
    return "\n".join(["import cfrviz", widget_code, *marks, "w"])


#: The animated widgets of the course, as the lessons show them.
TIMED_WIDGETS = {
    "explorer-kuhn": TimedWidget(
        "training explorer, Kuhn",
        _marked("w = cfrviz.explore(cfrviz.load_game('kuhn_poker'), 'cfr', iterations=300, "
                "seed=0, infoset='J')"), 120),
    "explorer-leduc": TimedWidget(
        "training explorer, Leduc deal KQ",
        _marked("w = cfrviz.explore(cfrviz.load_game('leduc_poker'), 'cfr', iterations=300, "
                "seed=0, subtree='KQ')"), 120),
    "regret-matching": TimedWidget(
        "regret matching (lesson 01)",
        _marked("from cfrviz.widgets import RegretMatchingExplorer\n"
                "w = RegretMatchingExplorer(iterations=2000, seed=0)"), 80),
    "kuhn-equilibrium": TimedWidget(
        "Kuhn equilibrium view",
        _marked("kuhn = cfrviz.load_game('kuhn_poker')\n"
                "runs = [cfrviz.solve(kuhn, 'cfr', iterations=2000, seed=0)] + "
                "[cfrviz.solve(kuhn, 'chance_sampling', iterations=10_000, seed=s) "
                "for s in (0, 1, 2)]\n"
                "w = cfrviz.KuhnEquilibriumView(runs)", label="w.label"), 60),
    "best-response": TimedWidget(
        "best-response explorer (keys)",
        _marked("w = cfrviz.BestResponseExplorer(cfrviz.load_game('kuhn_poker'), player=0)",
                slider="w.sliders[w.sets[0]][0]", play=None, label="w.summary"), None),
}


def open_timing_notebook(page, server: LabServer, key: str, workspace: str,
                         timeout: float = 180) -> None:
    """Open ``timing/<key>.ipynb`` (written by :func:`code_notebook` from
    :func:`timing_cells`) in its own workspace, run it, and wait until the baseline's and the
    widget's labels have settled; the page's JavaScript errors are counted from here."""
    page.errors.clear()
    open_notebook_in_workspace(page, server, f"timing/{key}.ipynb", workspace)
    run_all_and_wait(page, timeout=timeout)
    for root in (".bench-baseline", ".bench-widget"):
        page.locator(f"{root} .bench-label").first.wait_for()
        wait_for_label_to_settle(page, root)


def timing_cells(widget: TimedWidget) -> list[str]:
    """The cells of a timing notebook: the baseline (at the widget's interval) beside it."""
    interval = widget.interval or 120
    return [BASELINE_CELL, f"bench_baseline({interval})", widget.code]


# ------------------------------------------------------------------------------ layout fit


_FIGURE_FIT = """() => [...document.querySelectorAll(".jp-OutputArea-output")]
  .filter((output) => output.matches(".js-plotly-plot") || output.querySelector(".js-plotly-plot"))
  .flatMap((output) => {
    const cell = output.closest(".jp-Cell");
    const cells = [...document.querySelectorAll(".jp-Notebook .jp-Cell")];
    const area = output.getBoundingClientRect();
    // JupyterLab's plotly renderer draws a plain figure into the output element itself.
    const plots = output.matches(".js-plotly-plot") ? [output]
      : [...output.querySelectorAll(".js-plotly-plot")];
    return plots.map((plot) => {
      const svg = plot.querySelector(".main-svg");
      const box = (svg || plot).getBoundingClientRect();
      const layout = plot._fullLayout || {};
      const width = Math.max(box.width, layout.width || 0);
      const titleNode = plot.querySelector(".gtitle");
      let root = null;  // the chance root of a tree figure, in page pixels
      const data = plot._fullData || [];
      const chance = data.findIndex((d) => typeof d.name === "string"
                                         && d.name.startsWith("chance ("));
      if (chance >= 0 && layout.xaxis && data[chance].x && data[chance].x.length) {
        const xs = [...data[chance].x], ys = [...data[chance].y];
        const top = xs[ys.indexOf(Math.max(...ys))];
        root = box.left + layout._size.l + layout.xaxis.d2p(top);
      }
      return {
        cell: cells.indexOf(cell),
        title: titleNode ? titleNode.textContent : "",
        plot_left: box.left, plot_right: box.left + width, plot_width: width,
        area_left: area.left, area_right: area.right, area_width: area.width,
        scrolls: output.scrollWidth > output.clientWidth + 1,
        traces: data.length,
        root: root,
      };
    });
  })"""


def figure_fit(page) -> list[dict]:
    """Every plotly figure in the notebook's outputs: its cell, title, drawn left/right edges
    and width (the larger of the drawing's box and plotly's own layout width), the edges and
    width of its output area, whether the output area scrolls sideways, how many traces plotly
    has drawn, and (for a game tree) the page x of its chance root, or None."""
    return page.evaluate(_FIGURE_FIT)


def resize_window(page, width: int, height: int | None = None, settle: float = 1.5) -> None:
    """Give the page a new window size and let autosized figures redraw."""
    size = page.viewport_size or {"height": 1000}
    page.set_viewport_size({"width": width, "height": height or size["height"]})
    page.wait_for_timeout(int(settle * 1000))


def reveal_outputs(page, pause: float = 0.4, figures_only: bool = False) -> None:
    """Scroll every cell output (with ``figures_only``, every output holding a plotly figure,
    drawn or not) into view in turn: JupyterLab's plotly renderer draws a figure only once it
    has been on screen."""
    outputs = page.locator(".jp-OutputArea-output")
    if figures_only:
        indices = outputs.evaluate_all("""(all) => all.map((el, i) => [el, i])
          .filter(([el]) => el.matches(".jp-RenderedPlotly")
                            || el.querySelector(".jp-RenderedPlotly, .js-plotly-plot"))
          .map(([, i]) => i)""")
    else:
        indices = range(outputs.count())
    for i in indices:
        outputs.nth(i).evaluate("(el) => el.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(int(pause * 1000))


def settled_fit(page, timeout: float = 30, quiet: float = 1.0) -> list[dict]:
    """:func:`figure_fit` once every figure is drawn (it has traces) and no measurement has
    changed for ``quiet`` seconds (a widget's figure is resized a round trip after it is drawn);
    the last measurement if that takes longer than ``timeout``."""
    deadline = time.monotonic() + timeout
    fits, since = figure_fit(page), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = figure_fit(page)
        if now != fits or not all(f["traces"] for f in now):
            fits, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return fits


#: Window widths checked in turn: the notebook runs in the narrow window (figures drawn there
#: first), then the window widens and narrows again (figures follow it). JupyterLab's file
#: browser stays open beside the notebook.
WINDOWS = (1000, 1280, 1000)
#: Pixels a figure may stick out (sub-pixel rounding of borders).
SLACK = 2


def check_fit(page, name: str, expected_figures: int) -> dict[int, list[dict]]:
    """Measure every figure at each window width; fail on one wider than its output area."""
    measured = {}
    for step, width in enumerate(WINDOWS):
        resize_window(page, width)
        reveal_outputs(page, figures_only=True)
        fits = settled_fit(page)
        assert len(fits) >= expected_figures, (
            f"{name}: expected at least {expected_figures} figures, found {len(fits)}")
        screenshot(page, f"layout-{name}-{step}-{width}")
        for fit in fits:
            where = f"{name}, cell {fit['cell']} ({fit['title']!r}) at a {width}-pixel window"
            assert fit["plot_width"] <= fit["area_width"] + SLACK, (
                f"{where}: the figure is {fit['plot_width']:.0f} px wide in an output area of "
                f"{fit['area_width']:.0f} px")
            assert fit["plot_right"] <= fit["area_right"] + SLACK, f"{where}: sticks out right"
            assert fit["plot_left"] >= fit["area_left"] - SLACK, f"{where}: sticks out left"
            assert not fit["scrolls"], f"{where}: the output area scrolls sideways"
            if fit["root"] is not None:
                # The root is centred over its children, so over a fitted figure's middle.
                middle = (fit["area_left"] + fit["area_right"]) / 2
                assert abs(fit["root"] - middle) < fit["area_width"] * 0.2, (
                    f"{where}: the chance root is at x = {fit['root']:.0f}, the output "
                    f"area spans {fit['area_left']:.0f}..{fit['area_right']:.0f}")
        measured[step] = fits
    for step, fits in measured.items():  # for the log: what was measured
        print(f"{name} at {WINDOWS[step]} px (figure/output area):", ", ".join(
            f"{f['plot_width']:.0f}/{f['area_width']:.0f}" for f in fits))
    assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)
    return measured
