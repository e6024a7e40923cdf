"""A widget's current frame as plain plotly figures, and static export (PNG, SVG, PDF).

What a widget shows is its ``FigureWidget`` s plus, for some, the marks a
:class:`~cfrviz.widgets.overlay.NowMarks` draws over or under them in the browser.  Those
marks are not in the figure, so an export of the figure alone would miss them (the tree's
edges and labels, the "now" line).  :func:`with_marks` puts them in: on a copy of the figure,
each mark kind becomes the plotly shape, trace or annotation that draws it the same way (one
function per kind, :data:`CONVERTERS`), from the same spec and state the front end draws.
The copies are then drawn by plotly.js in Chromium, all of a frame in one browser, within a
time limit (:func:`cfrviz.views.export.write_figures`), with vectors intact in SVG and PDF.

Rendering the widget in a browser and capturing it would need a running Jupyter server and a
page, and would give only pixels; the conversion needs neither, and a test can read every
mark back from the exported SVG.  What it does not copy is what only the browser knows: a
figure that follows its output area's width is exported at its layout's width (or plotly's
700 px), and a zoom made with the mouse is kept only as far as plotly sent it to Python.
"""

from __future__ import annotations

import base64
import math
import os
import re
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as W
import plotly.graph_objects as go

from ..core.markup import escape
from ..views.export import FORMATS, check_export, export_format, write_figures
from .overlay import NowMarks
from .panel import TimelinePanel, figure_widgets

__all__ = ["CONVERTERS", "EXPORT_FOLDER", "DownloadControl", "Exportable", "export",
           "export_file", "frame_figures", "lesson_name", "with_marks"]


#: The background of a box whose marks lie under its figure (overlay.css's
#: ``.cfrviz-overlaid-under``).
UNDER_BACKGROUND = "white"


def _domain(axis: str) -> str:
    return f"{axis} domain"


def _given(v) -> bool:
    return v is not None


def _line(color: str, width: float, dash: str = "solid") -> dict:
    return dict(color=color, width=width, dash=dash)


def vline_parts(mark: dict, state, under: bool) -> dict:
    """A ``vline`` mark: a layout line shape at x across its y axis's whole height."""
    if state is None or not _given(state[0]):
        return {}
    return {"shapes": [dict(type="line", xref=mark["xaxis"], yref=_domain(mark["yaxis"]),
                            x0=state[0], x1=state[0], y0=0, y1=1,
                            line=_line(mark["color"], mark["width"], mark["dash"]),
                            layer="below" if under else "above")]}


def _open_circles(mark: dict, xs: list, ys: list, name: str) -> go.Scatter:
    return go.Scatter(x=xs, y=ys, mode="markers", name=name, showlegend=False,
                      hoverinfo="skip", xaxis=mark["xaxis"], yaxis=mark["yaxis"],
                      marker=dict(symbol="circle-open", size=mark["size"], color=mark["color"],
                                  line=dict(width=mark["width"], color=mark["color"])))


def point_parts(mark: dict, state, under: bool) -> dict:  # noqa: ARG001 (one signature)
    """A ``point`` mark: an open circle of ``size`` px (plotly's ``circle-open`` marker)."""
    if state is None or not (_given(state[0]) and _given(state[1])):
        return {}
    return {"traces": [_open_circles(mark, [state[0]], [state[1]], mark["name"])]}


def path_parts(mark: dict, state, under: bool, fig: go.Figure | None = None) -> dict:  # noqa: ARG001
    """A ``path`` mark: its line through points ``first..last`` (gaps bridged, as the front
    end draws it) and its marker at ``last``; nothing while its legend trace is hidden."""
    if state is None or not (_given(state[0]) and _given(state[1])) or not mark["x"]:
        return {}
    trace = mark["trace"]
    if trace is not None and fig is not None:
        shown = trace < len(fig.data) and fig.data[trace].visible not in (False, "legendonly")
        if not shown:
            return {}
    n = len(mark["x"])
    first, last = (min(max(round(v), 0), n - 1) for v in state)
    kept = [k for k in range(first, last + 1) if _given(mark["x"][k]) and _given(mark["y"][k])]
    xs, ys = [mark["x"][k] for k in kept], [mark["y"][k] for k in kept]
    parts = []
    common: dict[str, Any] = dict(showlegend=False, hoverinfo="skip", opacity=mark["opacity"])
    if mark["line"] is not None and xs:
        parts.append(_placed(mark, xs, ys, mode="lines", name=f"{mark['name']} (line)",
                             line=dict(mark["line"]), **common))
    at_end = _given(mark["x"][last]) and _given(mark["y"][last])
    if mark["marker"] is not None and at_end:
        marker = {k: v for k, v in mark["marker"].items() if k in ("symbol", "size", "color",
                                                                   "line")}
        title = mark["titles"][last] if mark["titles"] else None
        parts.append(_placed(mark, [mark["x"][last]], [mark["y"][last]], mode="markers",
                             name=f"{mark['name']} (marker)", marker=marker,
                             **{**common, "hovertext": escape(title) if title else None,
                                "hoverinfo": "text" if title else "skip"}))
    return {"traces": parts}


def _placed(mark: dict, xs: list, ys: list, **trace) -> go.Scatter | go.Scatterternary:
    if mark["ternary"] is None:
        return go.Scatter(x=xs, y=ys, xaxis=mark["xaxis"], yaxis=mark["yaxis"], **trace)
    # the inverse of overlay.path's (x, y) = (c - b, a), on the subplot's a + b + c = 1
    a = ys
    b = [(1 - y - x) / 2 for x, y in zip(xs, ys)]
    c = [(1 - y + x) / 2 for x, y in zip(xs, ys)]
    return go.Scatterternary(a=a, b=b, c=c, subplot=mark["ternary"], **trace)


def segments_parts(mark: dict, state, under: bool) -> dict:
    """A ``segments`` mark: one line shape per shown segment, at its width and style
    (clipped to the plotting area, as plotly clips shapes on data axes)."""
    if state is None:
        return {}
    shapes = []
    for (x0, y0, x1, y1), w in zip(mark["segments"], state):
        if w is None:
            continue
        width, k = (w[0], w[1]) if isinstance(w, (list, tuple)) else (w, 0)
        style = mark["styles"][k] if k < len(mark["styles"]) else mark["styles"][0]
        shapes.append(dict(type="line", xref=mark["xaxis"], yref=mark["yaxis"],
                           x0=x0, y0=y0, x1=x1, y1=y1, opacity=mark["opacity"],
                           line=_line(style.get("color", "#333"), width,
                                      style.get("dash", "solid")),
                           layer="below" if under else "above"))
    return {"shapes": shapes}


def labels_parts(mark: dict, state, under: bool,  # noqa: ARG001 (one signature)
                 fig: go.Figure | None = None) -> dict:
    """A ``labels`` mark: one annotation per shown text, starting (or ending) at its anchor,
    as a text trace's ``middle right`` (``middle left``), moved by the mark's offset."""
    if state is None:
        return {}
    font = {k: v for k, v in mark["font"].items() if k in ("family", "size", "color")}
    dx, dy = mark["offset"]
    xref, yref = ((_domain(mark["xaxis"]), _domain(mark["yaxis"])) if mark["paper"]
                  else (mark["xaxis"], mark["yaxis"]))
    # an annotation on a log axis is placed at log10 of the value (plotly's rule); shapes
    # and traces take the values themselves
    logs = [not mark["paper"] and fig is not None and _is_log(fig, axis)
            for axis in (mark["xaxis"], mark["yaxis"])]
    notes = []
    for (x, y), end, text in zip(mark["anchors"], mark["ends"], state):
        if not text:
            continue
        x, y = (math.log10(v) if log and v > 0 else v for v, log in zip((x, y), logs))
        notes.append(dict(x=x, y=y, xref=xref, yref=yref, text=escape(text), showarrow=False,
                          xanchor="right" if end else "left",
                          yanchor="bottom" if mark["paper"] else "middle",
                          xshift=dx, yshift=-dy, font=font, borderpad=0))
    return {"annotations": notes}


def _is_log(fig: go.Figure, axis: str) -> bool:
    name = axis[0] + "axis" + axis[1:]
    return getattr(fig.layout[name], "type", None) == "log"


def rings_parts(mark: dict, state, under: bool) -> dict:  # noqa: ARG001 (one signature)
    """A ``rings`` mark: open circles of ``size`` px at the state's centres."""
    if not state:
        return {}
    return {"traces": [_open_circles(mark, [p[0] for p in state], [p[1] for p in state],
                                     mark["name"])]}


#: One converter per kind of mark (overlay.SPECS's kinds): (mark, state, under) -> the
#: plotly ``traces``, layout ``shapes`` and ``annotations`` that draw it.
CONVERTERS: dict[str, Callable[..., dict]] = {
    "vline": vline_parts, "point": point_parts, "path": path_parts,
    "segments": segments_parts, "labels": labels_parts, "rings": rings_parts,
}


def with_marks(fig: go.Figure, marks: NowMarks | None, *, under: bool = False) -> go.Figure:
    """A copy of ``fig`` with ``marks``' current frame drawn in it as plotly draws.

    Marks over the figure (``under=False``) come after its traces, shapes and annotations;
    marks under it (:func:`~cfrviz.widgets.overlay.overlaid` with ``under=True``) come
    before its traces, their shapes on the layer below them, and the copy gets the white
    background the box gives the transparent figure on screen.  Later marks are drawn on top
    of earlier ones, as in the overlay.  Annotations (a ``labels`` mark) are always on top:
    plotly has no layer for them beneath the traces.
    """
    copy = go.Figure(fig.to_dict())
    if marks is None:
        return copy
    traces: list = []
    shapes: list = []
    notes: list = []
    for mark, state in zip(marks.marks, marks.at):
        convert = CONVERTERS.get(mark["kind"])
        if convert is None:  # a kind added to overlay.SPECS without its converter here
            raise ValueError(f"mark {mark['name']!r}: static export cannot draw a "
                             f"{mark['kind']!r} mark yet (no converter in CONVERTERS; the "
                             f"kinds it draws are {sorted(CONVERTERS)})")
        parts = (convert(mark, state, under, fig) if mark["kind"] in ("path", "labels")
                 else convert(mark, state, under))
        traces += parts.get("traces", [])
        shapes += parts.get("shapes", [])
        notes += parts.get("annotations", [])
    if under:
        # the figure is transparent so that marks beneath it show; on screen its box is white
        # (overlay.css), and a file must be too, or a slide's colour would show through
        copy.layout.paper_bgcolor = UNDER_BACKGROUND
    own = list(copy.data)
    copy.data = []
    copy.add_traces(traces + own if under else own + traces)
    if shapes:
        copy.layout.shapes = (*shapes, *copy.layout.shapes) if under else (
            *copy.layout.shapes, *shapes)
    if notes:
        copy.layout.annotations = (*copy.layout.annotations, *notes)
    return copy


def _marks_of(widget) -> dict[int, tuple[NowMarks, bool]]:
    """id(FigureWidget): (its NowMarks, whether under), for every overlaid box in widget."""
    found, stack = {}, [widget]
    while stack:
        w = stack.pop()
        children = list(getattr(w, "children", ()) or ())
        classes = getattr(w, "_dom_classes", ())
        if "cfrviz-overlaid" in classes:
            figs = [c for c in children if isinstance(c, go.FigureWidget)]
            overlays = [c for c in children if isinstance(c, NowMarks)]
            if len(figs) == 1 and len(overlays) == 1:
                found[id(figs[0])] = (overlays[0], "cfrviz-overlaid-under" in classes)
        stack.extend(children)
    return found


def frame_figures(widget) -> list[go.Figure]:
    """What ``widget`` shows now: each of its figures (in display order, the ones on screen
    only), with what its overlay draws put in (:func:`with_marks`)."""
    if isinstance(widget, go.Figure | go.FigureWidget):
        return [go.Figure(widget.to_dict())]
    if not isinstance(widget, W.Widget):
        raise ValueError("export takes a plotly figure or a cfrviz widget; got "
                         f"{type(widget).__name__}")
    overlays = _marks_of(widget)
    figures = []
    for fig in figure_widgets(widget):
        marks, under = overlays.get(id(fig), (None, False))
        figures.append(with_marks(fig, marks, under=under))
    if not figures:
        raise ValueError(f"{type(widget).__name__} holds no figure to export")
    return figures


def export(figure_or_widget, path: str | os.PathLike, format: str | None = None, *,
           scale: float = 1.0, time_limit: float | None = None) -> list[Path]:
    """Write a figure, or a widget's current frame with its overlay's marks, as PNG, SVG or
    PDF (plotly's static export: kaleido 1.x driving an installed Chromium).

    Parameters
    ----------
    figure_or_widget : plotly Figure, FigureWidget or a cfrviz widget
        A widget is exported as it is now (:func:`frame_figures`).
    path : str or path-like
        The file.  A widget with several figures writes one file per figure, numbered:
        ``curves.svg`` becomes ``curves-1.svg``, ``curves-2.svg``, ... in display order.
    format : {"png", "svg", "pdf"}, optional
        From the suffix when not given.
    scale : float
        Pixels per CSS pixel of a PNG, 0.1 to 10.
    time_limit : float, optional
        Seconds the whole export may take (:data:`cfrviz.views.export.TIME_LIMIT`).

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    ValueError
        An argument out of range or a path that cannot be written, before a browser starts
        (:func:`cfrviz.views.export.check_export`).
    cfrviz.views.export.StaticExportError
        No Chromium browser (or no kaleido), one that could not start, or an export past its
        time limit: the message says what to do.
    """
    path = Path(path)
    fmt = export_format(path, format)
    figures = frame_figures(figure_or_widget)
    if len(figures) == 1:
        paths = [path]
    else:
        paths = [path.with_name(f"{path.stem}-{i}{path.suffix}")
                 for i in range(1, len(figures) + 1)]
    return _write(figures, paths, fmt, scale, time_limit)


def _write(figures: list[go.Figure], paths: list[Path], fmt: str, scale: float,
           time_limit: float | None) -> list[Path]:
    """Check every figure's export, then draw them all in one browser."""
    checked = [check_export(f, p, fmt, scale=scale, time_limit=time_limit)
               for f, p in zip(figures, paths)]
    _, _, scale, _, _, limit = checked[0]
    return write_figures([(f, c[0]) for f, c in zip(figures, checked)], fmt, scale=scale,
                         sizes=[(c[3], c[4]) for c in checked], time_limit=limit)


#: Where the Export buttons write, inside the kernel's working folder (the notebook's).
EXPORT_FOLDER = "exports"


def lesson_name() -> str | None:
    """The stem of the notebook this kernel runs (``04_cfr_on_kuhn``), or ``None``.

    JupyterLab starts a notebook's kernel with ``JPY_SESSION_NAME`` set to the notebook's path
    (which ipykernel also puts in the namespace as ``__session__``).  Voila sets neither: a
    dashboard served by ``make present`` has the lesson in ``CFRVIZ_LESSON`` (the Makefile
    exports it), and Voila gives the page's path in ``SCRIPT_NAME`` (``.../04_x.ipynb`` when
    it serves a folder).  ``CFRVIZ_LESSON`` is read in Voila only: ``make lab`` exports it too,
    with the default lesson, to every notebook's kernel.
    """
    found = [os.environ.get("JPY_SESSION_NAME", "")]
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        found.append(str(shell.user_ns.get("__session__", "") or ""))
    if "VOILA_SERVER_URL" in os.environ or "VOILA_BASE_URL" in os.environ:
        lesson = os.environ.get("CFRVIZ_LESSON", "")
        found += [f"{lesson}.ipynb" if lesson else "", os.environ.get("SCRIPT_NAME", ""),
                  os.environ.get("VOILA_REQUEST_URL", "").split("?")[0]]
    for path in found:
        stem = Path(path.rstrip("/")).name
        if stem.endswith(".ipynb") and _safe(stem[:-len(".ipynb")]):
            return _safe(stem[:-len(".ipynb")])
    return None


def _safe(name: str) -> str:
    """``name`` with anything but letters, digits, ``_``, ``.`` and ``-`` made ``_``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._")


def current_iteration(widget) -> int | None:
    """The iteration a timeline widget shows now; ``None`` for a widget without a timeline
    or before its first run."""
    if not isinstance(widget, TimelinePanel) or widget.trace is None:
        return None
    frames = widget.frames
    k = int(frames[min(max(widget.slider.value, 0), len(frames) - 1)])
    return int(widget.trace.iterations[k])


def export_name(name: str, iteration: int | None = None, lesson: str | None = None) -> str:
    """A file's stem: the lesson (when known), the widget's name and the iteration, as
    ``04_cfr_on_kuhn-training-explorer-iter0050``."""
    parts = [lesson] if lesson else []
    parts.append(_safe(name) or "figure")
    if iteration is not None:
        parts.append(f"iter{iteration:04d}")
    return "-".join(parts)


def _reserve(path: Path) -> Path:
    """``path``, or the first free ``stem-2.ext``, ``stem-3.ext``, ...: created empty at once
    (exclusively), so two exports never pick the same name and none is overwritten."""
    candidate, n = path, 1
    while True:
        try:
            with open(candidate, "x"):
                return candidate
        except FileExistsError:
            n += 1
            candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")


def export_file(figure_or_widget, folder: str | os.PathLike, name: str,
                format: str = "png", *, scale: float = 1.0,
                time_limit: float | None = None) -> Path:
    """Write what ``figure_or_widget`` shows now into one new file of ``folder``, never over
    an existing one.

    One figure gives ``<name>.<format>``; several (an explorer's tree and charts) give
    ``<name>-<format>.zip`` holding ``<name>-1.<format>``, ``<name>-2.<format>``, ... in
    display order.
    When that file exists already, the name gets ``-2``, ``-3``, ... (the path returned says
    which).  ``folder`` is created if missing (again, if it was deleted since).

    Parameters
    ----------
    figure_or_widget : plotly Figure, FigureWidget or a cfrviz widget
    folder : str or path-like
    name : str
        The file's stem (:func:`export_name`).
    format : {"png", "svg", "pdf"}
    scale : float
        Pixels per CSS pixel of a PNG, 0.1 to 10.
    time_limit : float, optional
        Seconds the whole export may take (:data:`cfrviz.views.export.TIME_LIMIT`).

    Returns
    -------
    Path
        The file written.
    """
    fmt = export_format(f"x.{format}" if isinstance(format, str) else "x", format)
    figures = frame_figures(figure_or_widget)
    folder = _make_folder(Path(folder))
    name = _safe(name) or "figure"
    # every argument checked before a file is made or a browser started
    for fig in figures:
        check_export(fig, folder / f"{name}.{fmt}", fmt, scale=scale, time_limit=time_limit)
    target = _reserve(folder / (f"{name}-{fmt}.zip" if len(figures) > 1 else f"{name}.{fmt}"))
    try:
        if len(figures) == 1:
            return _write(figures, [target], fmt, scale, time_limit)[0]
        with tempfile.TemporaryDirectory(prefix="cfrviz-export-") as tmp:
            files = _write(figures, [Path(tmp) / f"{name}-{i}.{fmt}"
                                     for i in range(1, len(figures) + 1)],
                           fmt, scale, time_limit)
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
                for file in files:
                    archive.write(file, file.name)
        return target
    except BaseException:
        target.unlink(missing_ok=True)  # no empty or half-written file left behind
        raise


def _make_folder(folder: Path) -> Path:
    """``folder``, created if missing; a ``ValueError`` naming it when it cannot be (a file
    of that name is in the way, or no right to create it)."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"cannot export into {str(folder)!r}: a file of that name is in the "
                         "way (it is not a folder): give another folder, or move the file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot export into {str(folder)!r}: it could not be created "
                         f"({error.strerror or error})") from None
    return folder


class DownloadControl(W.VBox):
    """A format menu and an Export button that write a widget's current frame into one new
    file of ``exports/`` beside the notebook, and offer it as a download link.

    Each press writes one file (:func:`export_file`): a PNG, SVG or PDF, or a zip of them for
    a widget with several figures, named after the lesson, the widget and the iteration
    shown (``exports/04_cfr_on_kuhn-training-explorer-iter0050.png``; without a known lesson,
    :func:`lesson_name`, the name starts at the widget's).  An existing file is never
    overwritten: the name gets ``-2``, ``-3``, ... and the message says so.  While it works
    (a few seconds: plotly starts a Chromium), the button is disabled and reads
    "exporting…"; it is restored afterwards, also when the export fails.

    The link is a plain relative link in an output area, which JupyterLab resolves to the
    file beside the notebook: no round trip beyond the button's own.

    Parameters
    ----------
    widget : ipywidgets.Widget
        What to export (:func:`export`).
    name : str
        The widget's part of the file name (``training-explorer``).
    folder : str or Path, optional
        Where to write (``exports/`` in the kernel's working folder when not given).
    """

    #: The button's description while an export runs.
    BUSY = "exporting…"

    def __init__(self, widget, name: str, folder: str | os.PathLike | None = None):
        self.widget = widget
        self.name = name
        self.folder = Path(folder) if folder is not None else None
        self.format = W.Dropdown(options=list(FORMATS), value="png", description="export as",
                                 style={"description_width": "initial"},
                                 layout=W.Layout(width="auto", min_width="max-content"))
        self.button = W.Button(description="Export", icon="download",
                               tooltip="write this frame as one file in exports/ beside the "
                                       "notebook",
                               layout=W.Layout(width="auto", min_width="max-content"))
        self.links = W.Output()
        self.written: list[Path] = []
        self.button.on_click(lambda _: self.export())
        super().__init__([W.HBox([self.format, self.button],
                                 layout=W.Layout(flex_flow="row wrap")), self.links])

    def file_name(self) -> str:
        """The stem the next export starts from: lesson, widget and iteration."""
        return export_name(self.name, current_iteration(self.widget), lesson_name())

    def export(self) -> list[Path]:
        """Write the file in the chosen format and show its link (or what went wrong)."""
        from IPython.display import HTML

        self.links.outputs = ()
        self._busy(True)
        try:
            folder = self.folder or _working_folder() / EXPORT_FOLDER
            stem = self.file_name()
            path = export_file(self.widget, folder, stem, self.format.value)
            shown = _shown_path(path, folder)
        except Exception as error:  # shown to the student, never a dead button
            self.written = []
            self.links.append_stdout(f"Could not export: {error}\n")
            return []
        finally:
            self._busy(False)
        self.written = [path]
        note = ""
        if path.stem not in (stem, f"{stem}-{self.format.value}"):  # _reserve added -2, -3...
            taken = path.with_stem(path.stem.rsplit("-", 1)[0]).name
            note = f" ({escape(taken)} exists already and was not overwritten)"
        self.links.append_display_data(HTML(
            f'wrote <a href="{escape(_href(shown, path))}" download="{escape(path.name)}" '
            f'target="_blank">{escape(shown)}</a> ({path.stat().st_size / 1024:.0f} KiB)'
            f"{note}"))
        return self.written

    def _busy(self, busy: bool) -> None:
        self.button.disabled = self.format.disabled = busy
        self.button.description = self.BUSY if busy else "Export"
        self.button.icon = "hourglass-half" if busy else "download"


def _href(shown: str, path: Path) -> str:
    """The link to the file written at ``path`` (``shown`` relative to the kernel's folder):
    relative, which JupyterLab resolves beside the notebook; in Voila (``make present``),
    whose file route serves only PNG, SVG and a few more by default (no PDF, no zip), the
    file itself as a ``data:`` URL (nothing of a dashboard is saved)."""
    if "VOILA_SERVER_URL" not in os.environ:
        return shown
    kind = {".png": "image/png", ".svg": "image/svg+xml", ".pdf": "application/pdf",
            ".zip": "application/zip"}.get(path.suffix, "application/octet-stream")
    return f"data:{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def _working_folder() -> Path:
    """The kernel's working folder (the notebook's); a ``ValueError`` saying what to do when
    it was deleted or moved since the kernel started."""
    try:
        return Path.cwd()
    except FileNotFoundError:
        raise ValueError("the notebook's folder no longer exists (deleted or moved while its "
                         "kernel ran), so there is no exports/ folder to write to: restart "
                         "the kernel from the notebook where it is now (Kernel > Restart "
                         "Kernel) and export again") from None


def _shown_path(path: Path, folder: Path) -> str:
    """``path`` relative to the working folder when inside it (the link JupyterLab resolves
    beside the notebook), else its name within ``folder``."""
    try:
        return path.resolve().relative_to(_working_folder().resolve()).as_posix()
    except ValueError:
        return path.relative_to(folder).as_posix() if path.is_relative_to(folder) else path.name


class Exportable:
    """What an explorer gains from this module: :meth:`export` of its current frame and a
    :class:`DownloadControl` (``self.download``), added to its column by :meth:`_add_download`.
    """

    def export(self, path: str | os.PathLike, format: str | None = None, *,
               scale: float = 1.0, time_limit: float | None = None) -> list[Path]:
        """Write what this widget shows now, overlay marks included, as PNG, SVG or PDF:
        :func:`cfrviz.widgets.export.export` (one file per figure, numbered when several)."""
        return export(self, path, format, scale=scale, time_limit=time_limit)

    def _add_download(self, name: str) -> None:
        box: Any = self  # an ipywidgets Box (the explorers are Panels)
        self.download = DownloadControl(self, name)
        box.children = (*box.children, self.download)
