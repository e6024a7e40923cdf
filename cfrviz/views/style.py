"""Shared look of the figures: the Okabe-Ito palette, fonts, the presenter setting and the
legibility standard every figure meets.

Every view takes ``presenter=None`` (follow the global switch), ``True`` or
``False``; :func:`set_presenter` flips the switch for a whole classroom session::

    from cfrviz.views import set_presenter
    set_presenter(True)     # larger fonts, thicker lines, bigger figures for a projector

The legibility standard (for a projector, at the back of a room) is written once here and
applied by :func:`apply_style`, which every figure function calls last; ``tests/test_legibility.py``
checks it on every figure a lesson draws:

- the smallest text is ``MIN_FONT_PX`` (12) pixels, in a 1280-pixel window (plotly sizes text in
  pixels, whatever the width of the figure): layout, titles, axes' ticks, legend, annotations
  and the text drawn on traces;
- a drawn line is at least ``MIN_LINE_PX`` (2) pixels wide;
- one plain background: white paper and plot area, a light grey grid (:data:`PLAIN`);
- every legend entry is distinct: no two entries share a name and a look;
- a log axis is labelled at its decades only (``dtick`` of 1, or 2, 5, 10, ... decades when
  the axis spans more than ``MAX_LOG_LABELS``; exponents as powers), never at the minor
  ticks 2 to 9, and a vertical one spans at least two labelled decades;
- no fixed width: a figure takes the width of the output area it is shown in.

The palette is Okabe and Ito's "Color Universal Design" set (2008), which stays
distinguishable with the common colour-vision deficiencies; the views never rely
on colour alone (player nodes also differ in shape and carry the player number).
"""

from __future__ import annotations

import os
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

import plotly.graph_objects as go

#: Okabe-Ito colours by name.
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}
#: Player 1, player 2 and (Kuhn poker for three or four players) players 3 and 4.
PLAYER_COLOURS = (OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["orange"],
                  OKABE_ITO["sky blue"])
#: Line styles by player, so that players' curves differ by more than colour.
RUN_DASHES_BY_PLAYER = ("solid", "dash", "dot", "dashdot")
CHANCE_COLOUR = OKABE_ITO["black"]
TERMINAL_COLOUR = "#8C8C8C"
EDGE_COLOUR = "#4D4D4D"
#: Edges a policy never takes.
ZERO_EDGE_COLOUR = "#BDBDBD"
BEST_RESPONSE_COLOUR = OKABE_ITO["bluish green"]
SELECTED_COLOUR = OKABE_ITO["reddish purple"]
#: Marker shape by role, so that roles differ by more than colour.
ROLE_SYMBOLS = {"player 1": "circle", "player 2": "square", "player 3": "hexagon",
                "player 4": "star", "chance": "diamond", "terminal": "triangle-down"}
FONT_FAMILY = "Arial, sans-serif"


@dataclass(frozen=True)
class Style:
    """Sizes for one setting (normal or presenter).

    Attributes
    ----------
    presenter : bool
    font_size, small_font, title_size : int
        Body text, labels on the figure (edge labels, payoffs), titles.
    line_scale : float
        Multiplies every line width.
    marker_size : int
        Decision and chance nodes; terminals are drawn smaller.
    leaf_px, level_px : int
        Pixels per leaf slot and per tree level in tree figures.
    figure_scale : float
        Multiplies the default heights of the other figures.
    """

    presenter: bool
    font_size: int
    small_font: int
    title_size: int
    line_scale: float
    marker_size: int
    leaf_px: int
    level_px: int
    figure_scale: float

    def font(self, size: int | None = None, color: str | None = None) -> dict:
        """A plotly ``font`` dict in this style."""
        font = dict(family=FONT_FAMILY, size=self.font_size if size is None else size)
        if color is not None:
            font["color"] = color
        return font


NORMAL = Style(presenter=False, font_size=14, small_font=12, title_size=16, line_scale=1.0,
               marker_size=17, leaf_px=50, level_px=100, figure_scale=1.0)
PRESENTER = Style(presenter=True, font_size=20, small_font=16, title_size=24, line_scale=1.7,
                  marker_size=26, leaf_px=68, level_px=140, figure_scale=1.45)

#: The legibility standard (see the module's docstring).
MIN_FONT_PX = 12
MIN_LINE_PX = 2.0
GRID_COLOUR = "#E3E3E3"
AXIS_COLOUR = "#444444"
#: One plain template for every figure: white background, light grid, dark axis lines.
PLAIN = go.layout.Template(layout=dict(
    paper_bgcolor="white", plot_bgcolor="white", colorway=list(OKABE_ITO.values())[1:],
    title=dict(x=0.01, xanchor="left"),
    xaxis=dict(gridcolor=GRID_COLOUR, zerolinecolor=GRID_COLOUR, linecolor=AXIS_COLOUR,
               showline=True, ticks="outside", tickcolor=AXIS_COLOUR, automargin=True),
    yaxis=dict(gridcolor=GRID_COLOUR, zerolinecolor=GRID_COLOUR, linecolor=AXIS_COLOUR,
               showline=True, ticks="outside", tickcolor=AXIS_COLOUR, automargin=True),
    ternary=dict(bgcolor="white", **{axis: dict(gridcolor=GRID_COLOUR, linecolor=AXIS_COLOUR)
                                      for axis in ("aaxis", "baxis", "caxis")}),
    hoverlabel=dict(font=dict(family=FONT_FAMILY, size=MIN_FONT_PX + 1)),
))

#: Set by the classroom command (``make present``): "1" turns presenter mode on for the whole
#: kernel and wins over the lessons' own switch, "0" keeps it off.
ENVIRONMENT_SWITCH = "CFRVIZ_PRESENTER"


def _from_environment() -> bool | None:
    value = os.environ.get(ENVIRONMENT_SWITCH, "").strip()
    return {"1": True, "0": False}.get(value)


_presenter = [bool(_from_environment())]  # the one process-wide display switch


def set_presenter(on: bool = True) -> None:
    """Switch presenter mode on or off for every figure built from now on.

    Figures already drawn keep their sizes; build them again to change.  When
    the course is served with ``make present`` (environment variable
    ``CFRVIZ_PRESENTER=1``), presenter mode stays on whatever a lesson asks.
    Turned on in a notebook, it also shows :data:`PRESENTER_CSS`, which enlarges the
    lesson's text and its controls (sliders, buttons, menus) with the figures' fonts.
    """
    if not isinstance(on, bool):
        raise ValueError(f"set_presenter takes True or False; got {on!r}")
    forced = _from_environment()
    _presenter[0] = on if forced is None else forced
    if _presenter[0]:
        _show_presenter_css()


#: Presenter mode's page style: lesson text and ipywidgets' controls (through their CSS
#: variables) grow with the figures' fonts (``PRESENTER.font_size``), descriptions get room
#: (nothing clipped), and text written for a notebook only (``cfrviz-notebook-only``:
#: "run the cells ...") is hidden.
PRESENTER_CSS = """<style>
:root {
  --jp-widgets-font-size: 19px; --jp-widgets-inline-height: 38px;
  --jp-widgets-inline-label-width: 150px; --jp-widgets-slider-handle-size: 22px;
  --jp-widgets-inline-width: 420px; --jp-content-font-size1: 19px;
}
.jp-RenderedMarkdown, .jp-RenderedHTMLCommon { font-size: 19px; line-height: 1.5; }
.widget-label, .widget-readout, .widget-html-content, .widget-dropdown select,
.jupyter-button, .widget-text input { font-size: 19px; }
.widget-label, .widget-html-content { overflow: visible; white-space: normal; }
.jp-OutputArea-output pre { font-size: 17px; }
.jupyter-button { height: 38px; padding: 0 16px; }
.cfrviz-notebook-only { display: none !important; }
</style>"""


def in_dashboard() -> bool:
    """Whether the kernel serves a dashboard: ``make present`` (``CFRVIZ_PRESENTER=1``)
    or any Voila server (which gives its kernels ``VOILA_SERVER_URL``)."""
    return _from_environment() is True or "VOILA_SERVER_URL" in os.environ \
        or "VOILA_BASE_URL" in os.environ


def _show_presenter_css() -> None:
    try:
        from IPython import get_ipython
        from IPython.display import HTML, display
    except ImportError:  # plain Python: no page to style
        return
    if get_ipython() is not None:
        display(HTML(PRESENTER_CSS))


def presenter_mode() -> bool:
    """Whether presenter mode is on."""
    return _presenter[0]


@contextmanager
def presenting(on: bool = True):
    """Presenter mode inside a ``with`` block only (restores the previous setting)."""
    before = _presenter[0]
    set_presenter(on)
    try:
        yield
    finally:
        _presenter[0] = before


def batch(fig):
    """``fig.batch_update()`` for a ``FigureWidget`` (one message to the browser), a no-op
    context for a plain ``Figure``: the ``update_*`` functions of the views take either."""
    return fig.batch_update() if isinstance(fig, go.FigureWidget) else nullcontext()


def get_style(presenter: bool | None = None) -> Style:
    """The :class:`Style` for ``presenter`` (``None`` follows :func:`set_presenter`)."""
    if presenter is None:
        presenter = _presenter[0]
    if not isinstance(presenter, bool):
        raise ValueError(f"presenter must be True, False or None; got {presenter!r}")
    return PRESENTER if presenter else NORMAL


def fit_to_output(fig):
    """Make a ``FigureWidget`` without a fixed width take the width of its output area.

    A plain figure shown in JupyterLab already does (plotly's ``autosize``).  A
    ``FigureWidget`` inside a box is drawn before the box is on the page, so
    plotly.js falls back to 700 pixels, and it never follows the window.  This
    turns on plotly's ``responsive`` option (resize with the window) and, once
    the first view reports that it has drawn the figure, asks it to size itself
    to its container (one relayout with ``autosize``).  The figure's layout must
    leave ``autosize`` unset (plotly.js's default turns it on): set already, the
    relayout would change nothing and never be sent.  Returns ``fig``.
    """
    if not isinstance(fig, go.FigureWidget):
        return fig
    fig._config = {**fig._config, "responsive": True}  # plotly's only route to the config

    # A drawn view answers with the traces' defaults ("trace deltas"; plotly's layout deltas
    # never reach Python: its front end sends them under another name).
    def on_drawn(change):
        if change["new"] is not None:
            fig.unobserve(on_drawn, names="_js2py_traceDeltas")
            if fig.layout.width is None:
                fig.plotly_relayout({"autosize": True})

    fig.observe(on_drawn, names="_js2py_traceDeltas")
    return fig


def _at_least(font, size: float) -> None:
    """Raise a plotly font's size to ``size`` (a font without a size inherits the layout's)."""
    if font.size is not None and font.size < size:
        font.size = size


def _axes(layout):
    """Every cartesian and ternary axis of a layout."""
    for name in layout:
        if name.startswith(("xaxis", "yaxis")):
            yield layout[name]
        elif name.startswith("ternary"):
            yield from (layout[name][a] for a in ("aaxis", "baxis", "caxis"))


#: Trace types whose ``line`` is a drawn line (a bar's or marker's ``line`` is an outline).
LINE_TRACES = ("scatter", "scattergl", "scatterternary")


#: A log axis carries at most about this many decade labels (beyond, every 2nd, 5th, 10th...).
MAX_LOG_LABELS = 9


def decade_step(values) -> int:
    """The ``dtick`` of a log axis over ``values``: 1 (every decade), or 2, 5, 10, 20, ...
    decades when every decade would print more than ``MAX_LOG_LABELS`` labels."""
    import numpy as np
    v = np.asarray([x for x in np.ravel(np.asarray(values, dtype=object))
                    if isinstance(x, (int, float, np.number)) and x > 0 and np.isfinite(x)],
                   dtype=float)
    if len(v) == 0:
        return 1
    span = np.ceil(np.log10(v.max())) - np.floor(np.log10(v.min()))
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if span / step <= MAX_LOG_LABELS:
            return step
    return 1000


def _whole_decades(values) -> list[float] | None:
    """A log axis's range (in decades) for ``values`` that would show fewer than two decade
    labels under plotly's own range (0.013 to 0.46 shows only 0.1): the whole decades around
    them, so that both ends are labelled.  ``None`` (plotly's range) otherwise."""
    import math
    v = [float(x) for x in values if isinstance(x, (int, float)) and x > 0 and math.isfinite(x)]
    if not v:
        return None
    low, high = math.log10(min(v)), math.log10(max(v))
    if math.floor(high) - math.ceil(low) + 1 >= 2:
        return None
    bottom, top = math.floor(low), math.ceil(high)
    return [float(bottom), float(max(top, bottom + 1))]


def _axis_values(fig, name: str) -> list:
    """Every data value drawn along the axis ``name`` ("xaxis2", "yaxis", ...)."""
    letter, ref = name[0], name[0] + name[5:]      # "xaxis2" -> ("x", "x2")
    found: list = []
    for trace in fig.data:
        if (getattr(trace, f"{letter}axis", None) or letter) == ref:
            data = getattr(trace, letter, None)
            if data is not None:
                found.extend(list(data))
    return found


def _label_decades(fig, name: str) -> None:
    """Label the log axis ``name`` at whole decades (a y axis whose data spans less than two
    labelled decades gets the decades around them as its range)."""
    axis = fig.layout[name]
    if name.startswith("yaxis") and axis.range is None:
        axis.range = _whole_decades(_axis_values(fig, name))
    if axis.dtick is None or str(axis.dtick).startswith("D"):
        if axis.range is not None:  # a log axis's range is in decades
            axis.dtick = decade_step([10.0 ** r for r in axis.range])
        else:
            axis.dtick = decade_step(_axis_values(fig, name))


def _style_axis(axis) -> None:
    """An axis's text at the minimum size; a log axis's labels as powers, no minor grid."""
    _at_least(axis.tickfont, MIN_FONT_PX)
    _at_least(axis.title.font, MIN_FONT_PX)
    if getattr(axis, "type", None) == "log":
        if axis.exponentformat is None:
            axis.exponentformat = "power"
        axis.minor.showgrid = False


def _style_trace(trace) -> None:
    """A trace's text and lines at the minimum size."""
    if "textfont" in trace:
        _at_least(trace.textfont, MIN_FONT_PX)
    width = trace.line.width if trace.type in LINE_TRACES else None
    if width is not None and 0 < width < MIN_LINE_PX:
        trace.line.width = MIN_LINE_PX


def apply_style(fig, style: Style | None = None):
    """Give ``fig`` the plain template and raise it to the legibility standard; returns ``fig``.

    Every figure function calls this last.  Text smaller than ``MIN_FONT_PX`` and lines
    thinner than ``MIN_LINE_PX`` are raised to them, log axes are labelled at their decades
    (``dtick`` a whole number of decades: :func:`decade_step` of the data drawn along
    the axis, ``exponentformat="power"``) and a fixed width is removed (a figure
    follows its output area).  Sizes a figure function chose above the minimum are kept.
    """
    style = style or get_style()
    layout = fig.layout
    layout.template = PLAIN
    if layout.font.size is None or layout.font.size < style.font_size:
        layout.font.size = style.font_size
    if layout.font.family is None:
        layout.font.family = FONT_FAMILY
    for font in (layout.title.font, layout.legend.font, layout.hoverlabel.font):
        _at_least(font, MIN_FONT_PX)
    for name in layout:
        if name.startswith(("xaxis", "yaxis")) and layout[name].type == "log":
            _label_decades(fig, name)
    for axis in _axes(layout):
        _style_axis(axis)
    for annotation in layout.annotations:
        _at_least(annotation.font, MIN_FONT_PX)
    for trace in fig.data:
        _style_trace(trace)
    layout.width = None
    return fig
