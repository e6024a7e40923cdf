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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
    port, token = _free_port(), secrets.token_hex(24)
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
        ]
        log_path = tmp / "jupyterlab.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )
        server = LabServer(f"http://127.0.0.1:{port}", token)
        try:
            _wait_until_up(server, process, log_path, startup_timeout)
            yield server
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


# --------------------------------------------------------------------------------- browser


class PageErrors(list):
    """Uncaught JavaScript errors and console errors seen on a page."""


@contextmanager
def chromium_page(width: int = 1400, height: int = 1000):
    """Launch Debian's chromium through Playwright and yield a fresh page.

    The page has a 60 s default timeout, ``expect()`` too, and an ``errors`` attribute
    (a :class:`PageErrors` list) that collects the page's JavaScript errors.
    """
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)  # expect() ignores page.set_default_timeout
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.set_default_timeout(TIMEOUT_MS)
            errors = PageErrors()
            page.on("pageerror", lambda error: errors.append(f"page error: {error}"))

            def console_error(msg) -> None:
                if msg.type == "error":
                    errors.append(f"console error: {msg.text}")

            page.on("console", console_error)
            page.errors = errors
            yield page
        finally:
            browser.close()


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
  const text = document.body.innerText;
  // An error output (a SyntaxError's has no "Traceback" line), else a traceback or a
  // widget that failed to display.
  const failed = code.map((cell) => cell.model.outputs.toJSON())
    .flat().find((output) => output.output_type === "error");
  const error = (failed && [failed.ename + ": " + failed.evalue, ...failed.traceback].join("\n")
      .replace(/\x1b\[[0-9;]*m/g, ""))
    || [...document.querySelectorAll(".jp-OutputArea-output")]
    .map((el) => el.innerText)
    .find((t) => t.includes("Traceback") || t.includes("Error displaying widget"));
  return {
    total: code.length,
    pending: code.filter((cell) => cell.model.executionCount === null).length,
    kernel: kernel ? kernel.status : "none",
    dialog: dialog ? dialog.innerText : null,
    loading: text.includes("Loading widget"),
    error: error || null,
  };
}"""


def run_all_and_wait(page, timeout: float = 90) -> dict:
    """Clear outputs, run every cell, and wait until all is done; fail fast on errors.

    Done means: every non-empty code cell has an execution count, the kernel is idle, no
    dialog is open, the page shows no "Loading widget", and no output shows "Error displaying
    widget" or "Traceback" (outputs only: a lesson's prose may mention a traceback).
    """
    # Clearing resets execution counts, so counts saved in the file cannot pass for a run.
    page.evaluate("() => jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    # Not awaited on purpose: an awaited run-all blocks, forever if a dialog opens.
    page.evaluate("() => { jupyterapp.commands.execute('notebook:run-all-cells'); }")
    deadline = time.monotonic() + timeout
    state: dict = {}
    while time.monotonic() < deadline:
        state = page.evaluate(_RUN_STATE)
        if state["error"]:
            raise AssertionError("a cell failed in the browser:\n" + state["error"][-3000:])
        if state["dialog"]:
            raise AssertionError("a dialog opened while running the notebook:\n" + state["dialog"])
        if state["kernel"] in ("dead", "unknown"):
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


def widget_output_with_figures(page):
    """The first cell output holding both a slider widget and a plotly figure."""
    return (
        page.locator(".jp-OutputArea-output")
        .filter(has=page.locator(".js-plotly-plot"))
        .filter(has=page.locator(".widget-slider"))
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
}))"""


def figure_state(scope) -> list[dict]:
    """The drawn content of every plotly figure in ``scope``: each line's ``d`` attribute and
    each marker's ``transform``, for cartesian and ternary plots alike."""
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


def wait_for_figures_to_settle(scope, quiet: float = 0.6, timeout: float = 15) -> list[dict]:
    """Return the figures' state once it has stayed the same for ``quiet`` seconds."""
    deadline = time.monotonic() + timeout
    state, since = figure_state(scope), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = figure_state(scope)
        if now != state:
            state, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return state
    return state


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
        command = [str(Path(sys.executable).with_name("voila")), notebook, "--no-browser",
                   f"--port={port}", "--Voila.ip=127.0.0.1", f"--token={token}",
                   "--ServerApp.port_retries=0"]
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
