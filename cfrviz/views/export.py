"""Static export of a plotly figure to PNG, SVG or PDF: plotly's own (kaleido 1.x) in Chromium.

kaleido (what plotly's ``write_image`` calls; here driven directly, so that an export can be
stopped) draws the figure with plotly.js in a headless Chromium and returns what that page
draws: the same renderer as the figure on screen,
so an export has the figure's traces, text and shapes, vectors kept in SVG and PDF.  kaleido
1.x brings no browser of its own: it drives one that is installed (found on ``PATH`` as
``chromium``, ``google-chrome``, ..., or named by the ``BROWSER_PATH`` environment variable).
Without one, :func:`write_figure` says so and how to get one (:class:`StaticExportError`),
before kaleido is even started.

Each export starts Chromium (2-3 s); :func:`export_session` keeps one running for many.
Every export has a time limit (:data:`TIME_LIMIT`, or ``time_limit=``): a browser that never
answers, or a figure too large to draw in time (500,000 points in an SVG take a minute), ends
in a :class:`StaticExportError` saying so, the browser killed and no file written; so does a
browser that cannot start (``BROWSER_PATH=/bin/false``).  The
arguments are checked before a browser starts (:func:`check_export`): the scale and the size
against what Chromium can draw, the path against the file system.
Widgets (their current frame, with what their overlay draws) are exported by
:func:`cfrviz.widgets.export.export`, which builds plain figures and calls this.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from ..core.registry import Param

#: The formats an export writes, named by a path's suffix.
FORMATS = ("png", "svg", "pdf")

_NO_BROWSER = ("static export needs a Chromium browser, and none was found: install one "
               "(Debian/Ubuntu: apt install chromium; macOS/Windows: Google Chrome), or set "
               "the environment variable BROWSER_PATH to a Chrome or Chromium executable")
_NO_KALEIDO = ("static export needs kaleido 1.x (plotly's image export), which is not "
               "installed: pip install 'kaleido>=1' (cfrviz's own dependencies include it)")


#: Seconds an export may take, browser start included, unless ``time_limit=`` says otherwise.
TIME_LIMIT = 60.0
#: A PNG's pixels per CSS pixel: below 0.1 the image is a few pixels, above 10 Chromium
#: silently writes an empty file for an ordinary figure (issue 30: ``scale=60``, 3 bytes).
SCALE = Param("scale", kind="float", low=0.1, high=10)
#: A figure's width and height in CSS pixels: plotly's least, and a PDF page of at most
#: 200 inches (the PDF format's limit, 19,200 px at 96 dpi), which Chromium refuses past.
SIDE = (10, 19_200)
#: The most pixels on a side of a PNG (width or height times the scale): Chromium's canvas
#: draws no more, and writes an empty file instead.
MAX_PIXELS = 16_384
_LIMIT = Param("time_limit", kind="float", low=0, low_open=True, high=3600)
_GRACE = 10.0  # seconds for a browser to close after the time limit


class StaticExportError(RuntimeError):
    """What static export needs and is missing (kaleido, or a Chromium browser to drive), or
    a browser that could not start or did not finish in time."""


def export_format(path: str | os.PathLike, format: str | None = None) -> str:
    """The format to write ``path`` in: ``format`` if given, else the path's suffix.

    Raises a ``ValueError`` naming the path when neither is one of :data:`FORMATS`, or when
    the two disagree.
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if format is None:
        if suffix not in FORMATS:
            raise ValueError(f"cannot tell the format of {str(path)!r} from its suffix "
                             f"{'.' + suffix if suffix else '(none)'}: name the file .png, "
                             ".svg or .pdf, or pass format='png', 'svg' or 'pdf'")
        return suffix
    if not isinstance(format, str) or format.lower() not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}; got {format!r}")
    format = format.lower()
    if suffix in FORMATS and suffix != format:
        raise ValueError(f"{str(path)!r} ends in .{suffix} but format={format!r} was asked "
                         "for: give the file the format's suffix")
    return format


def find_browser() -> str | None:
    """The Chromium kaleido would drive (``BROWSER_PATH``, then ``PATH``), or ``None``."""
    if importlib.util.find_spec("choreographer") is None:
        return None
    from choreographer.browsers.chromium import Chromium

    found = Chromium.find_browser(skip_local=False)
    return str(found) if found and Path(found).is_file() else None


def check_static_export() -> str:
    """The browser an export will use; a :class:`StaticExportError` saying what to install
    when kaleido 1.x or a Chromium browser is missing."""
    if importlib.util.find_spec("kaleido") is None:
        raise StaticExportError(_NO_KALEIDO)
    browser = find_browser()
    if browser is None:
        raise StaticExportError(_NO_BROWSER)
    return browser


def figure_size(fig: go.Figure, width: int | None = None,
                height: int | None = None) -> tuple[int, int]:
    """The size in CSS pixels an export of ``fig`` has: ``width``/``height`` if given, else
    its layout's, else plotly's export defaults (``plotly.io.defaults``, 700 x 500): a
    figure that follows its output area's width has none of its own in Python."""
    w = width if width is not None else fig.layout.width
    h = height if height is not None else fig.layout.height
    return (int(w if w is not None else pio.defaults.default_width),
            int(h if h is not None else pio.defaults.default_height))


def check_export(fig: go.Figure, path: str | os.PathLike, format: str | None = None, *,
                 scale: float = 1.0, width: int | None = None, height: int | None = None,
                 time_limit: float | None = None) -> tuple[Path, str, float, int, int, float]:
    """Every argument of an export checked, before any browser starts: ``(path, format, scale,
    width, height, time_limit)``, or a ``ValueError`` naming the argument, the value and what
    is accepted (the scale within :data:`SCALE`'s range, each side within :data:`SIDE` and a
    PNG's within :data:`MAX_PIXELS`, a path whose folder is a folder and that is no folder
    itself)."""
    fmt = export_format(path, format)
    scale = SCALE.check(scale)
    limit = TIME_LIMIT if time_limit is None else _LIMIT.check(time_limit)
    sides = []
    for name, given, value in zip(("width", "height"), (width, height),
                                  _layout_size(fig, width, height)):
        side = round(Param(name if given is not None else f"the figure's layout.{name}",
                           kind="float", low=SIDE[0], high=SIDE[1]).check(value))
        if fmt == "png" and side * scale > MAX_PIXELS:
            raise ValueError(f"a PNG {side} px {'wide' if name == 'width' else 'high'} at "
                             f"scale={scale:g} would be {side * scale:,.0f} pixels, and "
                             f"Chromium draws at most {MAX_PIXELS:,} on a side: give a "
                             f"scale <= {MAX_PIXELS / side:.3g}, or export SVG or PDF")
        sides.append(side)
    return check_target(path), fmt, scale, sides[0], sides[1], limit


def _layout_size(fig: go.Figure, width, height) -> tuple[Any, Any]:
    """The width and height to check: given, else the layout's, else plotly's defaults."""
    layout = fig.layout
    return (width if width is not None else layout.width if layout.width is not None
            else pio.defaults.default_width,
            height if height is not None else layout.height if layout.height is not None
            else pio.defaults.default_height)


def check_target(path: str | os.PathLike) -> Path:
    """``path`` as a ``Path`` when a file can be written there: a ``ValueError`` naming it when
    its folder is missing or a file, or when it is a folder itself."""
    path = Path(path)
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: {str(folder)!r} is a file, not a folder: "
                         "give the path of a file in a folder")
    if not folder.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: its folder {str(folder)!r} does not "
                         "exist")
    if path.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: it is a folder: give a file's name in "
                         f"it, such as {str(path / ('figure' + path.suffix))!r}")
    try:  # before a browser starts: a folder one cannot write in (/proc, read-only)
        if path.exists():
            path.open("r+b").close()
        else:
            path.open("xb").close()
            path.unlink()
    except OSError as error:
        raise ValueError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    return path


def write_figure(fig: go.Figure, path: str | os.PathLike, format: str | None = None, *,
                 scale: float = 1.0, width: int | None = None, height: int | None = None,
                 time_limit: float | None = None) -> Path:
    """Write ``fig`` to ``path`` as PNG, SVG or PDF (from its suffix, or ``format``).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or FigureWidget
        As it is now (a widget's current state).
    path : str or Path
        The file; its folder must exist.
    format : {"png", "svg", "pdf"}, optional
        When the suffix does not say it.
    scale : float
        Pixels per CSS pixel of a PNG (2: twice the width and height), 0.1 to 10; SVG and
        PDF keep the figure's size in CSS pixels (a PDF page of ``width`` x ``height`` px at
        96 dpi).
    width, height : int, optional
        Instead of the figure's (:func:`figure_size`); 10 to 19,200 px each.
    time_limit : float, optional
        Seconds the export may take, browser start included (:data:`TIME_LIMIT`).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    ValueError
        An argument out of range, or a path that cannot be written (:func:`check_export`).
    StaticExportError
        kaleido 1.x or a Chromium browser is missing (the message says how to install them),
        the browser could not start, or the export did not finish within the time limit.
    """
    path, fmt, scale, w, h, limit = check_export(fig, path, format, scale=scale, width=width,
                                                 height=height, time_limit=time_limit)
    (written,) = write_figures([(fig, path)], fmt, scale=scale, sizes=[(w, h)],
                               time_limit=limit)
    return written


def write_figures(jobs: Sequence[tuple[go.Figure, Path]], fmt: str, *, scale: float,
                  sizes: Sequence[tuple[int, int]], time_limit: float) -> list[Path]:
    """Draw each ``(figure, path)`` of ``jobs`` in one browser (the session's, if one is
    open), within ``time_limit`` seconds in all, and write the files only once every one is
    drawn.  Arguments already checked (:func:`check_export`)."""
    browser = check_static_export()
    opts = [dict(format=fmt, width=w, height=h, scale=scale) for w, h in sizes]
    figures = [fig.to_dict() for fig, _ in jobs]
    session = _SESSION.get("browser")
    if session is not None and session.closed:  # stopped after a failure: a browser anew
        session = _SESSION["browser"] = _Browser(browser)
    runner = session if session is not None else _Browser(browser)
    try:
        images = runner.render(figures, opts, time_limit, [p for _, p in jobs])
    finally:
        if session is None:
            runner.close()
    written = []
    for (_, path), image in zip(jobs, images):
        try:
            path.write_bytes(image)
        except OSError as error:
            raise ValueError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
        written.append(path)
    return written


class _Browser:
    """One Chromium driven by kaleido, in an event loop of its own thread (a Jupyter kernel's
    thread runs one already), so that a render past its time limit can be abandoned and the
    browser closed."""

    def __init__(self, path: str):
        self.path = path
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True,
                                       name="cfrviz-export")
        self.thread.start()
        self.kaleido: Any = None
        self.closed = self.abandoned = False

    def _submit(self, coroutine) -> Future:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def _open(self):
        import kaleido

        self.kaleido = kaleido.Kaleido(n=1, timeout=None, path=self.path)
        await self.kaleido.open()  # closed by close() also when it never finishes opening

    async def _draw(self, figures: list, opts: list) -> list[bytes]:
        try:
            if self.kaleido is None:
                await self._open()
            return [await self.kaleido.calc_fig(fig, opts=o) for fig, o in zip(figures, opts)]
        except BaseException:
            if self.abandoned:  # past the time limit: the caller has reported it already
                return []
            raise

    def render(self, figures: list, opts: list, limit: float, paths: list) -> list[bytes]:
        """The images of ``figures``, or a :class:`StaticExportError` past ``limit`` s."""
        from choreographer.errors import BrowserFailedError, ChromeNotFoundError

        job = self._submit(self._draw(figures, opts))
        try:
            return job.result(timeout=limit)
        except FutureTimeout:
            # the browser killed, what waited on it fails at once and the thread is free
            self.abandoned = True
            self._kill()
            with contextlib.suppress(BaseException):
                job.result(timeout=2)
            job.cancel()
            self.close()
            names = ", ".join(repr(str(p)) for p in paths)
            raise StaticExportError(
                f"static export of {names} did not finish within {limit:g} s (time_limit), "
                f"so it was stopped and nothing was written: the browser ({self.path}) did "
                "not answer, or the figure is too large to draw in time (a few hundred "
                "thousand points); give a larger time_limit, fewer points, or PNG instead of "
                "SVG or PDF") from None
        except (BrowserFailedError, ChromeNotFoundError) as error:
            self.close()
            raise StaticExportError(
                f"the browser at {self.path} could not start ({type(error).__name__}), so "
                "nothing was exported: install Debian's chromium (apt install chromium) "
                "or Google Chrome, or set the environment variable BROWSER_PATH to a "
                "working Chrome or Chromium executable") from None

    def _kill(self) -> None:
        """End the browser at once: its process group (choreographer starts it in a session
        of its own, with the wrapper that holds its pipes)."""
        process = getattr(self.kaleido, "subprocess", None)
        if process is not None and process.poll() is None and hasattr(os, "killpg"):
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)

    def close(self) -> None:
        """Close the browser (killed if it does not answer) and end the loop's thread."""
        if self.kaleido is not None:
            # closing: choreographer kills a browser it cannot close; nothing more to do
            with contextlib.suppress(Exception):
                self._submit(self.kaleido.close()).result(timeout=_GRACE)
            self.kaleido = None
        self.closed = True
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=_GRACE)


#: The browser of the open :func:`export_session`, if any.
_SESSION: dict[str, _Browser] = {}


@contextmanager
def export_session() -> Iterator[None]:
    """Keep one Chromium running for every export inside the ``with`` block: the first
    export pays the browser's start, the others about a tenth of it."""
    browser = check_static_export()
    if "browser" in _SESSION:  # nested: the outer session's browser serves
        yield
        return
    _SESSION["browser"] = _Browser(browser)
    try:
        yield
    finally:
        _SESSION.pop("browser").close()
