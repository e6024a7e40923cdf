"""Timeline "now" marks drawn over a plotly ``FigureWidget`` without redrawing the figure.

Any change of a trace's data or of a layout shape makes plotly.js recompute and redraw every
trace of the figure, and plotly's ``FigureWidget`` then compares its whole state with the
kernel's: moving one marker costs as much as redrawing the chart (issue 14).  A
:class:`NowMarks` widget lies on top of the figure instead, in the same cell of a grid
(:func:`overlaid`), and draws its marks in an SVG of its own at the pixels plotly's axes give
for the data values: a frame moves a few SVG attributes and plotly does nothing.  The marks
follow zoom, pan, legend clicks and resize (they are redrawn whenever plotly draws) and let the
mouse through to the figure below.

The front end is ``overlay.js`` beside this module (an ES module, tested under Node by
``tests/js/overlay.test.js``), with its style in ``overlay.css``; both ship as package data.
A kind of mark is one drawer in that file's ``KINDS`` and one :class:`Spec` in :data:`SPECS`
here, which checks a mark's fields and the state a frame gives it (``tests/test_widgets_overlay.py``
checks that the two tables name the same kinds).  Like every anywidget of cfrviz it works
however late its front end starts (:mod:`cfrviz.widgets.late_start` wraps the file's widget).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as W
import plotly.graph_objects as go
import traitlets

from .late_start import StartsLate

#: The front end and its style (package data: ``[tool.setuptools.package-data]``).
FRONT_END = Path(__file__).with_name("overlay.js")
STYLE = Path(__file__).with_name("overlay.css")

#: Marker symbols the front end draws as plotly does (overlay.js's ``SYMBOLS``).
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "pentagon", "star")
#: plotly's dash names the front end draws (overlay.js's ``dashArray``).
DASHES = ("solid", "dot", "dash", "longdash", "dashdot", "longdashdot")


# ---- what a mark may hold ------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One field of a mark: a test of its value and, for errors, what a valid value is."""

    test: Callable[[Any], bool]
    valid: str


def _is_number(v) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool)


def _is_finite(v) -> bool:
    return _is_number(v) and v - v == 0  # not NaN, not infinite


def _is_index(v) -> bool:
    return isinstance(v, Integral) and not isinstance(v, bool) and int(v) >= 0


def _list_of(test: Callable[[Any], bool], size: int | None = None) -> Callable[[Any], bool]:
    return lambda v: (isinstance(v, (list, tuple)) and (size is None or len(v) == size)
                      and all(test(item) for item in v))


def _optional(test: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or test(v)


def _style(**tests: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """A plotly style dict (as ``to_plotly_json`` gives it): the keys the front end reads must
    pass their tests; others (``shape``, ``opacity``, ...) are plotly's and ignored."""
    return lambda v: isinstance(v, dict) and all(test(v[k]) for k, test in tests.items() if k in v)


def _is_str(v) -> bool:
    return isinstance(v, str)


def _axis(letter: str) -> Field:
    return Field(lambda v: isinstance(v, str) and re.fullmatch(f"{letter}([2-9]|[1-9][0-9]+)?", v)
                 is not None, f'a plotly {letter} axis name ("{letter}", "{letter}2", ...)')


_NONNEGATIVE = Field(lambda v: _is_finite(v) and v >= 0, "a number >= 0")
_COLOR = Field(_is_str, "a CSS colour string")
_DASH = Field(lambda v: v in DASHES, f"one of {DASHES}")
_OPACITY = Field(lambda v: _is_finite(v) and 0 <= v <= 1, "a number from 0 to 1")
_LINE = _style(color=_is_str, width=lambda v: _is_finite(v) and v >= 0, dash=lambda v: v in DASHES)
_COORDINATES = _list_of(_optional(_is_finite))
_AXES = {"xaxis": _axis("x"), "yaxis": _axis("y")}
_SHAPE = {**_AXES, "color": _COLOR, "size": _NONNEGATIVE, "width": _NONNEGATIVE}


@dataclass(frozen=True)
class Spec:
    """What a mark of one kind is: the fields of its dict (every one required, no others),
    what must hold between them (``whole``: a complaint or ``None``), and whether a state a
    frame gives it is valid (``state``, with ``states`` saying what valid states are)."""

    fields: Mapping[str, Field]
    state: Callable[[dict, Any], bool]
    states: str
    whole: Callable[[dict], str | None] = lambda _mark: None

    def check(self, mark: dict, where: str) -> None:
        """Raise a ValueError naming ``where`` and the field at fault, if ``mark`` is not one."""
        fields = set(mark) - {"kind", "name"}
        if fields != set(self.fields):
            missing, extra = sorted(set(self.fields) - fields), sorted(fields - set(self.fields))
            raise ValueError(f"{where}: missing fields {missing}, unknown fields {extra} "
                             f"(a {mark['kind']} mark has {sorted(self.fields)})")
        for key, field in self.fields.items():
            if not field.test(mark[key]):
                raise ValueError(f"{where}: {key} must be {field.valid}; got {mark[key]!r}")
        complaint = self.whole(mark)
        if complaint:
            raise ValueError(f"{where}: {complaint}")


def _pair(first: Callable[[Any], bool], second: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, (list, tuple)) and len(v) == 2 and first(v[0]) and second(v[1])


def _each(count: str, test: Callable[[Any], bool]) -> Callable[[dict, Any], bool]:
    """A state of one item per entry of the mark's field ``count``, each passing ``test``
    (or ``None``: the whole mark hidden)."""
    return lambda mark, v: v is None or (isinstance(v, (list, tuple))
                                         and len(v) == len(mark[count])
                                         and all(test(item) for item in v))


def _segment_width(mark: dict) -> Callable[[Any], bool]:
    styles = range(len(mark["styles"]))
    return lambda w: (w is None or (_is_finite(w) and w >= 0)
                      or (_pair(lambda u: _is_finite(u) and u >= 0, lambda k: k in styles)(w)))


def _path_lengths(mark: dict) -> str | None:
    n = len(mark["x"])
    if len(mark["y"]) != n:
        return f"{n} x values, {len(mark['y'])} y values"
    if mark["titles"] is not None and len(mark["titles"]) != n:
        return f"{n} points, {len(mark['titles'])} titles"
    return None


def _label_lengths(mark: dict) -> str | None:
    n, ends = len(mark["anchors"]), len(mark["ends"])
    return None if ends == n else f"{n} anchors, {ends} ends"


_OPTIONAL_NUMBER = _optional(_is_finite)

#: One spec per kind of mark; the front end (overlay.js's ``KINDS``) draws the same kinds.
SPECS: dict[str, Spec] = {
    "vline": Spec(
        {**_AXES, "color": _COLOR, "width": _NONNEGATIVE, "dash": _DASH},
        lambda _m, v: v is None or _pair(_OPTIONAL_NUMBER, _OPTIONAL_NUMBER)(v),
        "None or [x, ignored]"),
    "point": Spec(
        _SHAPE, lambda _m, v: v is None or _pair(_OPTIONAL_NUMBER, _OPTIONAL_NUMBER)(v),
        "None or [x, y]"),
    "path": Spec(
        {**_AXES,
         "ternary": Field(_optional(lambda v: isinstance(v, str)
                                    and re.fullmatch(r"ternary([2-9]|[1-9][0-9]+)?", v)
                                    is not None), 'None or a ternary subplot ("ternary2", ...)'),
         "x": Field(_COORDINATES, "a list of numbers (None: a gap)"),
         "y": Field(_COORDINATES, "a list of numbers (None: a gap)"),
         "line": Field(_optional(_LINE), "None or a plotly line (color, width, dash)"),
         "marker": Field(_optional(_style(symbol=lambda v: v in SYMBOLS, size=_is_finite,
                                          color=_is_str, line=_LINE)),
                         f"None or a plotly marker (symbol one of {SYMBOLS}, size, color, "
                         "line)"),
         "titles": Field(_optional(_list_of(_is_str)), "None or a list of strings"),
         "opacity": _OPACITY,
         "trace": Field(_optional(_is_index), "None or a trace index >= 0")},
        lambda _m, v: v is None or _pair(_OPTIONAL_NUMBER, _OPTIONAL_NUMBER)(v),
        "None or [first, last] point indices (None: hidden)", _path_lengths),
    "segments": Spec(
        {**_AXES, "segments": Field(_list_of(_list_of(_is_finite, 4)), "rows (x0, y0, x1, y1)"),
         "styles": Field(lambda v: _list_of(_style(color=_is_str,
                                                    dash=lambda d: d in DASHES))(v) and len(v) > 0,
                         "a non-empty list of plotly line styles (color, dash)"),
         "opacity": _OPACITY},
        lambda m, v: _each("segments", _segment_width(m))(m, v),
        "None or per segment a width >= 0, [width, style index] or None"),
    "labels": Spec(
        {**_AXES, "anchors": Field(_list_of(_list_of(_is_finite, 2)), "(x, y) pairs"),
         "ends": Field(_list_of(lambda v: isinstance(v, bool)), "a list of booleans"),
         "font": Field(_style(family=_is_str, size=_is_finite, color=_is_str),
                       "a plotly font (family, size, color)"),
         "paper": Field(lambda v: isinstance(v, bool), "True or False"),
         "offset": Field(_list_of(_is_finite, 2), "(right, down) pixels")},
        _each("anchors", _optional(_is_str)), "None or per anchor a string or None",
        _label_lengths),
    "rings": Spec(
        _SHAPE, lambda _m, v: v is None or _list_of(_list_of(_is_finite, 2))(v),
        "None or a list of [x, y] centres"),
}
#: The kinds of mark, in SPECS's order.
KINDS = tuple(SPECS)


def vline(xaxis: str = "x", yaxis: str = "y", *, color: str = "#333", width: float = 1.5,
          dash: str = "dot") -> dict:
    """A vertical line across axis ``yaxis``'s whole height at an ``xaxis`` value."""
    return dict(kind="vline", xaxis=xaxis, yaxis=yaxis, color=color, width=width, dash=dash)


def point(xaxis: str = "x", yaxis: str = "y", *, color: str = "#333", size: float = 12,
          width: float = 3) -> dict:
    """An open circle of diameter ``size`` pixels (plotly's ``circle-open`` marker)."""
    return dict(kind="point", xaxis=xaxis, yaxis=yaxis, color=color, size=size, width=width)


def path(points, xaxis: str = "x", yaxis: str = "y", *, ternary: str | None = None,
         line: dict | None = None, marker: dict | None = None,
         titles: Sequence[str] | None = None, opacity: float = 1.0,
         trace: int | None = None) -> dict:
    """Part of a fixed path: a line through ``points[first..last]`` and a marker at ``last``.

    The points are sent once; a frame sends the two indices (``NowMarks.move((first, last))``),
    so a path that grows with the timeline, a trail and a moving marker cost two numbers.

    Parameters
    ----------
    points : sequence of (x, y), or of (a, b, c) with ``ternary``
        In data units of the axes (``None`` or NaN: a gap, no marker).
    xaxis, yaxis : str
        The cartesian axes (``"x2"``, ``"y2"``, ...).
    ternary : str, optional
        A ternary subplot (``"ternary"``, ``"ternary2"``) instead: the points are
        ``(a, b, c)`` strategies, normalised to the subplot's sum of 1.
    line : dict, optional
        As plotly's ``line``: ``color``, ``width``, ``dash``; ``None`` draws no line.
    marker : dict, optional
        As plotly's ``marker``: ``symbol`` (circle, square, diamond, triangle-up, pentagon,
        star), ``size``, ``color`` and ``line`` (``color``, ``width``) for the outline;
        ``None`` draws no marker.
    titles : sequence of str, optional
        One text per point, shown as the marker's tooltip (plotly's hover text).
    opacity : float
        Of the whole mark, as a trace's ``opacity``.
    trace : int, optional
        The index of the figure's trace standing for this mark in the legend: the mark is
        hidden while that trace is (a click on its legend entry).
    """
    rows = [list(p) for p in points]
    if ternary is not None:
        # plotly's ternary axes are cartesian inside: x = c - b, y = a (scatterternary's calc)
        rows = [[(c - b) / (a + b + c), a / (a + b + c)] for a, b, c in rows]
    if any(len(r) != 2 for r in rows):
        raise ValueError("a path's points are (x, y) pairs, or (a, b, c) with ternary=")
    if titles is not None and len(titles) != len(rows):
        raise ValueError(f"{len(rows)} points, {len(titles)} titles given")
    mark: dict = dict(kind="path", xaxis=xaxis, yaxis=yaxis, ternary=ternary,
                      x=[_rounded(r[0]) for r in rows], y=[_rounded(r[1]) for r in rows],
                      line=line, marker=marker, opacity=opacity, trace=trace,
                      titles=None if titles is None else [str(t) for t in titles])
    return mark


def segments(coordinates, xaxis: str = "x", yaxis: str = "y", *,
             styles: Sequence[dict] = ({},), opacity: float = 1.0) -> dict:
    """Fixed line segments, each drawn at the width a frame gives it.

    The coordinates are sent once; a frame (:meth:`NowMarks.show`) gives, per segment, its
    width in pixels (drawn in ``styles[0]``), a ``[width, style index]`` pair, or ``None``
    to hide it.  Clipped to the plotting area, as plotly clips its lines.

    Parameters
    ----------
    coordinates : array-like of shape (segments, 4)
        ``(x0, y0, x1, y1)`` in data units of the axes.
    styles : sequence of dict
        As plotly's ``line`` without a width: ``color``, ``dash``.
    opacity : float
        Of the whole mark, as a trace's ``opacity`` (overlaps do not darken).
    """
    rows = [[_rounded(v) for v in row] for row in coordinates]
    if any(len(row) != 4 for row in rows):
        raise ValueError("segments are (x0, y0, x1, y1) rows")
    return dict(kind="segments", xaxis=xaxis, yaxis=yaxis, segments=rows,
                styles=[dict(s) for s in styles], opacity=opacity)


def labels(anchors, xaxis: str = "x", yaxis: str = "y", *, ends=None,
           font: dict | None = None, paper: bool = False,
           offset: tuple[float, float] = (0.0, 0.0)) -> dict:
    """Texts at fixed anchors, placed as plotly places a text trace's; a frame gives the texts.

    A frame (:meth:`NowMarks.show`) gives one string per anchor (plain text, shown as it
    is: never markup), or ``None`` to hide it.

    Parameters
    ----------
    anchors : sequence of (x, y)
        In data units of the axes (clipped to the plotting area, as ``cliponaxis``), or with
        ``paper=True`` in fractions of the plotting area (``(1, 1)``: its top right corner;
        the text then sits on the anchor, unclipped).
    ends : sequence of bool, optional
        Per anchor, whether the text ends there (plotly's ``"middle left"``) rather than
        starts (``"middle right"``).
    font : dict, optional
        As plotly's ``font``: ``family``, ``size``, ``color``.
    offset : (float, float)
        Pixels to move every text by (right, down).
    """
    rows = [[_rounded(v) for v in row] for row in anchors]
    if any(len(row) != 2 for row in rows):
        raise ValueError("label anchors are (x, y) pairs")
    ends = [False] * len(rows) if ends is None else [bool(e) for e in ends]
    if len(ends) != len(rows):
        raise ValueError(f"{len(rows)} anchors, {len(ends)} ends given")
    return dict(kind="labels", xaxis=xaxis, yaxis=yaxis, anchors=rows, ends=ends,
                font=dict(font or {}), paper=paper, offset=[float(v) for v in offset])


def rings(xaxis: str = "x", yaxis: str = "y", *, color: str = "#333", size: float = 12,
          width: float = 3) -> dict:
    """Open circles of diameter ``size`` pixels (plotly's ``circle-open`` markers); a frame
    (:meth:`NowMarks.show`) gives their centres, a list of ``[x, y]`` in data units."""
    return dict(kind="rings", xaxis=xaxis, yaxis=yaxis, color=color, size=size, width=width)


def _rounded(v) -> float | None:
    v = _number(v)  # 6 significant digits: under a hundredth of a pixel, a shorter message
    return None if v is None else float(f"{v:.6g}")


class NowMarks(StartsLate, anywidget.AnyWidget):
    """Named marks (lines, points, paths, segments, labels, rings) at data positions of the
    figure beneath.

    Put it in the same box as the figure with :func:`overlaid`.  ``marks`` says how each mark
    looks (made with :func:`vline`, :func:`point`, :func:`path`, :func:`segments`,
    :func:`labels`, :func:`rings`, named and set with :meth:`set_marks`); ``at`` holds each
    mark's state, in the same order (:meth:`move`, :meth:`show`): ``[x, y]`` in data units
    (``y`` is ignored by a vertical line), ``[first, last]`` point indices for a path, what
    its kind takes for the others; ``None`` hides a mark.  A frame changes ``at`` only.  Both
    are checked whenever they change (traitlets validation, :data:`SPECS`): a mark whose
    fields or state its kind does not take is a ``ValueError`` naming the mark.
    """

    _esm = FRONT_END
    _css = STYLE
    marks = traitlets.List(traitlets.Dict()).tag(sync=True)
    at: traitlets.List = traitlets.List().tag(sync=True)

    def __init__(self, marks: Mapping[str, dict] | None = None, **kwargs):
        super().__init__(**_named(marks or {}), **kwargs)
        self.add_class("cfrviz-now")

    @property
    def names(self) -> list[str]:
        """The marks' names, in drawing order (later ones on top)."""
        return [mark["name"] for mark in self.marks]

    def set_marks(self, marks: Mapping[str, dict],
                  states: Mapping[str, Any] | None = None) -> None:
        """Replace every mark by ``marks`` (name: a mark from :func:`vline`, :func:`path`,
        ...; drawn in this order), with the ``states`` given by name (as :meth:`show` takes
        them), the others hidden; one message."""
        traits = _named(marks)
        names = list(marks)
        for name, state in (states or {}).items():
            if name not in marks:
                raise ValueError(f"a state for {name!r}, which is none of the marks {names}")
            traits["at"][names.index(name)] = state
        with self.hold_sync(), self.hold_trait_notifications():
            for trait, value in traits.items():
                setattr(self, trait, value)

    def move(self, *positions, **named) -> None:
        """Put mark ``i`` at ``positions[i]``, every mark in order, or the mark called
        ``name`` at ``named[name]``, the others staying (``marks.move(**{"p1 path": (0, 4)})``);
        a position is an ``(x, y)`` pair, an ``x`` for a line, or ``None`` to hide it.  One
        message, and none if nothing moved."""
        self._set(self._states(positions, named, "positions"), _position)

    def show(self, *states, **named) -> None:
        """Give mark ``i`` the state ``states[i]`` (or the mark called ``name`` the state
        ``named[name]``) as it is, in the form its kind takes: widths for :func:`segments`,
        texts for :func:`labels`, centres for :func:`rings`; one message, and none if nothing
        changed."""
        self._set(self._states(states, named, "states"), lambda state: state)

    def _states(self, ordered: tuple, named: dict, what: str) -> dict[int, Any]:
        """Mark index: its new state, from the ordered or the named form."""
        if ordered and named:
            raise ValueError(f"give the marks' {what} in order or by name, not both")
        if named:
            unknown = sorted(set(named) - set(self.names))
            if unknown:
                raise ValueError(f"no mark called {', '.join(map(repr, unknown))}; the marks "
                                 f"are {self.names}")
            return {self.names.index(name): value for name, value in named.items()}
        if len(ordered) != len(self.marks):
            raise ValueError(f"{len(self.marks)} marks, {len(ordered)} {what} given")
        return dict(enumerate(ordered))

    def _set(self, states: dict[int, Any], convert: Callable[[Any], Any]) -> None:
        at = list(self.at)
        for i, state in states.items():
            at[i] = convert(state)
        if at != self.at:
            self.at = at

    @traitlets.validate("marks")
    def _valid_marks(self, proposal) -> list:
        marks, names = proposal["value"], set()
        for i, mark in enumerate(marks):
            name = mark.get("name")
            if not isinstance(name, str) or not name:
                raise ValueError(f"mark {i}: a mark needs a name (a non-empty string); got "
                                 f"{name!r}")
            if name in names:
                raise ValueError(f"two marks are called {name!r}")
            names.add(name)
            kind = mark.get("kind")
            if kind not in SPECS:
                raise ValueError(f"mark {name!r}: its kind must be one of {KINDS}; got {kind!r}")
            SPECS[kind].check(mark, f"mark {name!r} ({kind})")
        if len(self.at) != len(marks):
            raise ValueError(f"{len(marks)} marks but {len(self.at)} states: set the marks "
                             "with set_marks, which sets both")
        return marks

    @traitlets.validate("at")
    def _valid_at(self, proposal) -> list:
        at = proposal["value"]
        if len(at) != len(self.marks):
            raise ValueError(f"{len(self.marks)} marks, {len(at)} states given")
        for mark, state in zip(self.marks, at):
            spec = SPECS.get(str(mark.get("kind")))  # (an unknown kind: the marks' check)
            if spec is not None and not spec.state(mark, state):
                raise ValueError(f"mark {mark['name']!r} ({mark['kind']}): a state is "
                                 f"{spec.states}; got {state!r}")
        return at


def _named(marks: Mapping[str, dict]) -> dict[str, list]:
    """The traits ``marks`` and ``at`` for marks given as name: mark (all hidden)."""
    if not isinstance(marks, Mapping):
        raise ValueError("marks are named: give them as a dict {name: mark}, e.g. "
                         f"{{'now': vline()}}; got {type(marks).__name__}")
    for name, mark in marks.items():
        if not isinstance(mark, Mapping):
            raise ValueError(f"mark {name!r}: a mark is a dict made by vline(), path(), ...; "
                             f"got {type(mark).__name__}")
    return {"marks": [{"kind": mark.get("kind"), "name": name,
                       **{k: v for k, v in mark.items() if k not in ("kind", "name")}}
                      for name, mark in marks.items()],
            "at": [None] * len(marks)}


def _position(p) -> list | None:
    if p is None:
        return None
    if isinstance(p, (tuple, list)):
        return [_number(v) for v in p]
    return [_number(p), None]


def _number(v) -> float | None:
    if v is None:
        return None
    v = float(v)
    return v if v == v else None  # NaN: nothing to draw


def overlaid(fig: go.FigureWidget, marks: NowMarks, *, under: bool = False,
             **layout) -> W.Box:
    """A box that stacks ``marks`` over ``fig`` (one grid cell for both), with ``layout``.

    The box is as wide as the figure, as the figure alone would be; a figure that
    follows its container (:func:`cfrviz.views.style.fit_to_output`) may also shrink.
    With ``under=True`` the marks lie beneath the figure, on a white background that
    shows through the figure's transparent ``paper_bgcolor`` and ``plot_bgcolor``
    (which the figure must have): the figure's markers cover the marks.
    """
    return stack(W.Box([fig, marks], layout=W.Layout(**layout)), fig, under=under)


def stack(box: W.Box, fig: go.FigureWidget, *, under: bool = False) -> W.Box:
    """Give ``box``, holding ``fig`` and its marks, the classes :func:`overlaid` gives."""
    box.add_class("cfrviz-overlaid")
    if fig._config.get("responsive"):
        box.add_class("cfrviz-overlaid-fit")
    if under:
        box.add_class("cfrviz-overlaid-under")
    return box
