"""Static export of a plotly figure to PNG, SVG or PDF: plotly's own (kaleido 1.x) in Chromium.

plotly's ``write_image`` hands the figure to kaleido, which draws it with plotly.js in a
headless Chromium and saves what that page draws: the same renderer as the figure on screen,
so an export has the figure's traces, text and shapes, vectors kept in SVG and PDF.  kaleido
1.x brings no browser of its own: it drives one that is installed (found on ``PATH`` as
``chromium``, ``google-chrome``, ..., or named by the ``BROWSER_PATH`` environment variable).
Without one, :func:`write_figure` says so and how to get one (:class:`StaticExportError`),
before kaleido is even started.

Each export starts Chromium (2-3 s); :func:`export_session` keeps one running for many.
Widgets (their current frame, with what their overlay draws) are exported by
:func:`cfrviz.widgets.export.export`, which builds plain figures and calls this.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import plotly.graph_objects as go
import plotly.io as pio

#: The formats an export writes, named by a path's suffix.
FORMATS = ("png", "svg", "pdf")

_NO_BROWSER = ("static export needs a Chromium browser, and none was found: install one "
               "(Debian/Ubuntu: apt install chromium; macOS/Windows: Google Chrome), or set "
               "the environment variable BROWSER_PATH to a Chrome or Chromium executable")
_NO_KALEIDO = ("static export needs kaleido 1.x (plotly's image export), which is not "
               "installed: pip install 'kaleido>=1' (cfrviz's own dependencies include it)")


class StaticExportError(RuntimeError):
    """What static export needs and is missing (kaleido, or a Chromium browser to drive)."""


def export_format(path: str | Path, format: str | None = None) -> str:
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


def write_figure(fig: go.Figure, path: str | Path, format: str | None = None, *,
                 scale: float = 1.0, width: int | None = None,
                 height: int | None = None) -> Path:
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
        Pixels per CSS pixel of a PNG (2: twice the width and height); SVG and PDF keep the
        figure's size in CSS pixels (a PDF page of ``width`` x ``height`` px at 96 dpi).
    width, height : int, optional
        Instead of the figure's (:func:`figure_size`).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    StaticExportError
        kaleido 1.x or a Chromium browser is missing (the message says how to install them).
    """
    fmt = export_format(path, format)
    if not (isinstance(scale, (int, float)) and not isinstance(scale, bool) and scale > 0):
        raise ValueError(f"scale must be a number > 0; got {scale!r}")
    path = Path(path)
    if not path.parent.is_dir():
        raise ValueError(f"cannot write {str(path)!r}: its folder {str(path.parent)!r} does "
                         "not exist")
    check_static_export()
    w, h = figure_size(fig, width, height)
    from kaleido.errors import ChromeNotFoundError

    try:
        with warnings.catch_warnings():
            # plotly passes its browser options even when a running server ignores them
            warnings.filterwarnings("ignore", "The kopts argument is ignored")
            pio.write_image(fig, path, format=fmt, width=w, height=h, scale=scale)
    except ChromeNotFoundError as error:  # found above, gone or unusable since
        raise StaticExportError(f"{_NO_BROWSER} ({error})") from None
    return path


@contextmanager
def export_session() -> Iterator[None]:
    """Keep one Chromium running for every export inside the ``with`` block (kaleido's sync
    server): the first export pays the browser's start, the others about a tenth of it."""
    check_static_export()
    import kaleido

    kaleido.start_sync_server(silence_warnings=True)
    try:
        yield
    finally:
        kaleido.stop_sync_server(silence_warnings=True)
