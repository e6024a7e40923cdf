"""Timeline "now" marks drawn over a plotly ``FigureWidget`` without redrawing the figure.

Any change of a trace's data or of a layout shape makes plotly.js recompute and redraw every
trace of the figure, and plotly's ``FigureWidget`` then compares its whole state with the
kernel's: moving one marker costs as much as redrawing the chart (issue 14).  A
:class:`NowMarks` widget lies on top of the figure instead, in the same cell of a grid
(:func:`overlaid`), and draws its vertical lines and points in an SVG of its own at the
pixels plotly's axes give for the data values: a frame moves two SVG attributes and
plotly does nothing.  The marks follow zoom, pan and resize (they are redrawn whenever
plotly redraws) and let the mouse through to the figure below.
"""

from __future__ import annotations

from collections.abc import Sequence

import anywidget
import ipywidgets as W
import plotly.graph_objects as go
import traitlets

#: The overlay's front end: finds the plotly figure in the same ``.cfrviz-overlaid`` box and
#: draws each mark with that figure's axis conversions (``c2p``: data value to pixel).
_ESM = r"""
const NS = "http://www.w3.org/2000/svg";

function dashArray(dash, width) {
  // plotly.js's own dash lengths (Drawing.dashStyle), so the marks look like its lines.
  const d = Math.max(width, 3);
  if (dash === "dot") return `${d}px,${d}px`;
  if (dash === "dash") return `${3 * d}px,${3 * d}px`;
  if (dash === "longdash") return `${5 * d}px,${5 * d}px`;
  if (dash === "dashdot") return `${3 * d}px,${d}px,${d}px,${d}px`;
  if (dash === "longdashdot") return `${5 * d}px,${2 * d}px,${d}px,${2 * d}px`;
  return "";
}

function axis(layout, name) {
  return layout[name.replace(/^([xy])/, "$1axis")];
}

// The i-th child of group g, made with tag and the classes every mark carries.
function child(g, i, tag, kind) {
  while (g.childNodes.length <= i) g.appendChild(document.createElementNS(NS, tag));
  const node = g.childNodes[i];
  node.setAttribute("class", `cfrviz-now-mark cfrviz-now-${kind}`);
  return node;
}

// Draw SVG path element `path` as the line d in plotly line style {color, width, dash}
// ("" hides it).
function drawLine(path, style, d) {
  const width = style.width || 1;
  path.setAttribute("d", d);
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", style.color || "#333");
  path.setAttribute("stroke-width", width);
  path.setAttribute("stroke-dasharray", dashArray(style.dash || "solid", width));
  path.style.display = d ? "" : "none";
  return path;
}

// Draw the i-th child of g as an SVG path with d, in the mark's line style ("" hides it).
function stroke(g, i, mark, d) {
  return drawLine(child(g, i, "path", mark.kind), mark, d);
}

// An x value in pixels of the overlay, or null outside the axis's visible range.
function xPixel(xa, value) {
  const x = xa._offset + xa.c2p(value);
  const inside = Number.isFinite(x) && x >= xa._offset - 0.5 && x <= xa._offset + xa._length + 0.5;
  return inside ? x : null;
}

function circle(x, y, r) {
  return `M${(x + r).toFixed(2)},${y.toFixed(2)}` +
         `A${r},${r} 0 1,1 ${(x - r).toFixed(2)},${y.toFixed(2)}` +
         `A${r},${r} 0 1,1 ${(x + r).toFixed(2)},${y.toFixed(2)}Z`;
}

// plotly.js's marker symbols (Drawing.symbolFuncs' geometry) centred on x, y, for a marker of
// diameter 2r, so a mark looks like the marker it replaces.
function polygon(x, y, points) {
  return "M" + points.map(([u, v]) => `${(x + u).toFixed(2)},${(y + v).toFixed(2)}`).join("L") +
         "Z";
}

function ring(count, radii) {  // vertices from the top, clockwise, alternating over radii
  return Array.from({ length: count }, (_, k) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * k) / count, r = radii[k % radii.length];
    return [r * Math.cos(angle), r * Math.sin(angle)];
  });
}

const SYMBOLS = {
  circle: (x, y, r) => circle(x, y, r),
  square: (x, y, r) => polygon(x, y, [[r, r], [-r, r], [-r, -r], [r, -r]]),
  diamond: (x, y, r) => polygon(x, y, [[1.3 * r, 0], [0, 1.3 * r], [-1.3 * r, 0], [0, -1.3 * r]]),
  "triangle-up": (x, y, r) => polygon(x, y, [[-2 * r / Math.sqrt(3), r / 2],
                                             [2 * r / Math.sqrt(3), r / 2], [0, -r]]),
  pentagon: (x, y, r) => polygon(x, y, ring(5, [r])),
  star: (x, y, r) => polygon(x, y, ring(10, [1.4 * r, 0.382 * 1.4 * r])),
};

// The axes of a ternary subplot: plotly draws its traces with internal cartesian axes (x = c - b,
// y = a) in a layer translated to (x0, y0), so these give pixels of the figure like a
// cartesian pair; clip is the triangle.
function ternaryAxes(gd, name) {
  const t = gd && gd._fullLayout && gd._fullLayout[name] && gd._fullLayout[name]._subplot;
  if (!t || !t.xaxis || !t.yaxis) return null;
  const shift = (ax, offset, length) => ({ _offset: offset, _length: length,
                                            c2p: (v) => ax.c2p(v) });
  return { xa: shift(t.xaxis, t.x0, t.w), ya: shift(t.yaxis, t.y0, t.h),
           clip: `M${t.x0},${t.y0 + t.h}h${t.w}l${-t.w / 2},${-t.h}Z` };
}

// The parts of a path mark in its group g, made once: a clip path (not a mark: no mark class),
// then the line and the marker the mark has.
function pathParts(g, mark) {
  if (!g.firstChild) {
    const clip = g.appendChild(document.createElementNS(NS, "clipPath"));
    clip.setAttribute("id", `cfrviz-clip-${Math.random().toString(36).slice(2)}`);
    clip.appendChild(document.createElementNS(NS, "path"));
    for (const part of [mark.line, mark.marker].filter(Boolean)) {
      const path = g.appendChild(document.createElementNS(NS, "path"));
      path.setAttribute("class", "cfrviz-now-mark cfrviz-now-path");
      if (part === mark.marker) path.appendChild(document.createElementNS(NS, "title"));
    }
  }
  const [clip, ...paths] = g.childNodes;
  return { clip, line: mark.line ? paths[0] : null, dot: mark.marker ? paths.at(-1) : null };
}

// Set an attribute only when its value changes: a frame of a mark with many parts changes a
// few of them, and the page then redraws only those.
function update(node, name, value) {
  const memo = node.__cfrviz || (node.__cfrviz = {});
  if (memo[name] !== value) {
    memo[name] = value;
    node.setAttribute(name, value);
  }
}

// The i-th part of a mark of many (segments, labels, rings) in parent: drawn ones carry the
// mark's classes, hidden ones "cfrviz-now-off" instead.
function part(parent, i, tag, kind, shown) {
  while (parent.childNodes.length <= i) parent.appendChild(document.createElementNS(NS, tag));
  const node = parent.childNodes[i];
  update(node, "class", `${shown ? "cfrviz-now-mark" : "cfrviz-now-off"} cfrviz-now-${kind}`);
  update(node, "display", shown ? "inline" : "none");
  return node;
}

// An <svg> in g showing only the plotting area (plotly clips its traces to it: zoomed in they
// leave it), in the overlay's own pixels; made once, as g's only child.
function plotArea(g, axes) {
  const area = g.firstChild || g.appendChild(document.createElementNS(NS, "svg"));
  if (axes) {
    const box = [axes.xa._offset, axes.ya._offset, axes.xa._length, axes.ya._length]
      .map((v) => v.toFixed(2));
    update(area, "x", box[0]);
    update(area, "y", box[1]);
    update(area, "width", box[2]);
    update(area, "height", box[3]);
    update(area, "viewBox", box.join(" "));
  }
  return area;
}

// One drawer per kind of mark: (its <g>, the mark, its state in `at`, the axes or null, the
// plotly element or null).
const KINDS = {
  // A vertical line across the y axis's height; state [x, ignored].
  vline(g, mark, pos, axes) {
    let d = "";
    if (axes && pos && pos[0] !== null && pos[0] !== undefined) {
      const x = xPixel(axes.xa, pos[0]);
      const ya = axes.ya;
      if (x !== null) d = `M${x.toFixed(2)},${ya._offset.toFixed(2)}v${ya._length.toFixed(2)}`;
    }
    stroke(g, 0, mark, d);
  },
  // An open circle of diameter mark.size pixels; state [x, y].
  point(g, mark, pos, axes) {
    let d = "";
    if (axes && pos && pos[0] !== null && pos[0] !== undefined && pos[1] !== null &&
        pos[1] !== undefined) {
      const x = xPixel(axes.xa, pos[0]);
      const y = axes.ya._offset + axes.ya.c2p(pos[1]);
      if (x !== null && Number.isFinite(y)) d = circle(x, y, (mark.size || 12) / 2);
    }
    stroke(g, 0, mark, d);
  },
  // Part of a fixed path: a line through mark.x/y[first..last] and a marker at [last], each
  // drawn if the mark has one; state [first, last].  Hidden with the trace mark.trace (legend).
  path(g, mark, pos, axes, gd) {
    if (mark.ternary) axes = ternaryAxes(gd, mark.ternary);
    const n = mark.x.length;
    const hidden = mark.trace !== null && mark.trace !== undefined &&
                   !(gd && gd._fullData && gd._fullData[mark.trace] &&
                     gd._fullData[mark.trace].visible === true);
    let line = "", dot = "", title = "";
    if (axes && pos && Number.isFinite(pos[0]) && Number.isFinite(pos[1]) && n && !hidden) {
      const index = (v) => Math.min(Math.max(Math.round(v), 0), n - 1);
      const first = index(pos[0]), last = index(pos[1]);
      // (c2p takes null for 0: a missing value is no pixel)
      const pixel = (ax, v) => (v === null ? NaN : ax._offset + ax.c2p(v));
      const px = (k) => pixel(axes.xa, mark.x[k]), py = (k) => pixel(axes.ya, mark.y[k]);
      const steps = [];
      for (let k = first; k <= last; k++) {
        const x = px(k), y = py(k);
        if (Number.isFinite(x) && Number.isFinite(y)) {
          steps.push(`${steps.length ? "L" : "M"}${x.toFixed(2)},${y.toFixed(2)}`);
        }
      }
      line = steps.join("");
      const x = px(last), y = py(last);
      const inside = x >= axes.xa._offset - 0.5 && x <= axes.xa._offset + axes.xa._length + 0.5 &&
                     y >= axes.ya._offset - 0.5 && y <= axes.ya._offset + axes.ya._length + 0.5;
      if (mark.marker && inside) {
        dot = (SYMBOLS[mark.marker.symbol] || SYMBOLS.circle)(x, y, (mark.marker.size || 12) / 2);
      }
      title = mark.titles ? mark.titles[last] || "" : "";
    }
    g.setAttribute("opacity", mark.opacity ?? 1);
    const parts = pathParts(g, mark);
    if (parts.line) {
      const path = drawLine(parts.line, mark.line, line);
      if (axes) {  // plotly clips its lines to the plotting area (zoomed in, they leave it)
        parts.clip.firstChild.setAttribute("d", axes.clip ||
          `M${axes.xa._offset},${axes.ya._offset}h${axes.xa._length}v${axes.ya._length}` +
          `h${-axes.xa._length}Z`);
        path.setAttribute("clip-path", `url(#${parts.clip.getAttribute("id")})`);
      }
    }
    if (parts.dot) {
      const m = mark.marker, outline = m.line || {}, path = parts.dot;
      path.setAttribute("d", dot);
      path.setAttribute("fill", m.color || "#333");
      path.setAttribute("stroke", outline.color || "none");
      path.setAttribute("stroke-width", outline.width ?? 0);
      path.style.display = dot ? "" : "none";
      // Plotly's hover text for this marker, as the browser's tooltip.
      path.style.pointerEvents = title ? "visiblePainted" : "none";
      path.firstChild.textContent = title;
    }
  },
  // Fixed segments mark.segments ([x0, y0, x1, y1] in data units), clipped to the plotting
  // area; state: per segment its width in pixels (in style mark.styles[0]), [width, style
  // index], or null to hide it.  Only what changed is written to the page.
  segments(g, mark, widths, axes) {
    const area = plotArea(g, axes), styles = mark.styles || [{}];
    update(g, "opacity", mark.opacity ?? 1);
    mark.segments.forEach((s, i) => {
      const w = axes && widths ? widths[i] : null;
      const path = part(area, i, "path", "segments", w !== null && w !== undefined);
      if (w === null || w === undefined) return;
      const [width, k] = Array.isArray(w) ? w : [w, 0];
      const style = styles[k] || styles[0];
      const x = (v) => (axes.xa._offset + axes.xa.c2p(v)).toFixed(2);
      const y = (v) => (axes.ya._offset + axes.ya.c2p(v)).toFixed(2);
      update(path, "d", `M${x(s[0])},${y(s[1])}L${x(s[2])},${y(s[3])}`);
      update(path, "fill", "none");
      update(path, "stroke", style.color || "#333");
      update(path, "stroke-width", width);
      update(path, "stroke-dasharray", dashArray(style.dash || "solid", width));
    });
  },
  // Texts at fixed anchors mark.anchors ([x, y] in data units, clipped to the plotting area,
  // or with mark.paper in fractions of it, unclipped), placed as plotly places a text
  // trace's: starting at the anchor, or ending there where mark.ends[i], moved by mark.offset
  // pixels; state: one string per anchor (null or "" hides it).
  labels(g, mark, texts, axes) {
    const area = mark.paper ? g : plotArea(g, axes), font = mark.font || {};
    const size = font.size || 12, [dx, dy] = mark.offset || [0, 0];
    mark.anchors.forEach(([ax, ay], i) => {
      const text = axes && texts ? texts[i] : null;
      const node = part(area, i, "text", "labels", Boolean(text));
      if (!text) return;
      const x = axes.xa._offset + (mark.paper ? ax * axes.xa._length : axes.xa.c2p(ax));
      const y = axes.ya._offset + (mark.paper ? (1 - ay) * axes.ya._length : axes.ya.c2p(ay));
      // plotly.js sets a single line's baseline a quarter of the font size below its point
      update(node, "x", (x + dx).toFixed(2));
      update(node, "y", (y + dy + (mark.paper ? 0 : 0.25 * size)).toFixed(2));
      update(node, "text-anchor", mark.ends && mark.ends[i] ? "end" : "start");
      update(node, "style", `font-family: ${font.family || "sans-serif"}; font-size: ` +
                            `${size}px; fill: ${font.color || "#333"}; white-space: pre;`);
      if (node.textContent !== text) node.textContent = text;
    });
  },
  // Open circles of diameter mark.size pixels, clipped to the plotting area; state: a list
  // of [x, y] (data units), one circle each.
  rings(g, mark, points, axes) {
    const area = plotArea(g, axes), shown = axes && points ? points : [];
    while (area.childNodes.length > shown.length) area.lastChild.remove();
    shown.forEach(([x, y], i) => {
      const px = axes.xa._offset + axes.xa.c2p(x), py = axes.ya._offset + axes.ya.c2p(y);
      const path = part(area, i, "path", "rings", Number.isFinite(px) && Number.isFinite(py));
      if (!Number.isFinite(px) || !Number.isFinite(py)) return;
      update(path, "d", circle(px, py, (mark.size || 12) / 2));
      update(path, "fill", "none");
      update(path, "stroke", mark.color || "#333");
      update(path, "stroke-width", mark.width || 1);
    });
  },
};

function render({ model, el }) {
  el.classList.add("cfrviz-now-root");
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "cfrviz-now-svg");
  el.appendChild(svg);
  let plot = null, events = null;
  const redraw = () => draw();

  function unhook() {
    if (plot && events && plot._ev === events) {
      plot.removeListener("plotly_afterplot", redraw);
      plot.removeListener("plotly_relayout", redraw);
    }
    events = null;
  }

  function findPlot() {
    const box = el.closest(".cfrviz-overlaid");
    const found = box ? box.querySelector(".js-plotly-plot") : null;
    if (found !== plot) {
      unhook();
      plot = found;
    }
    // Plotly.newPlot drops every listener with its event emitter (gd._ev): hook the new one.
    if (plot && plot.on && plot._ev !== events) {
      plot.on("plotly_afterplot", redraw);
      plot.on("plotly_relayout", redraw);
      events = plot._ev;
    }
    return plot;
  }

  function draw() {
    const marks = model.get("marks") || [];
    const at = model.get("at") || [];
    while (svg.childNodes.length > marks.length) svg.lastChild.remove();
    while (svg.childNodes.length < marks.length) {
      svg.appendChild(document.createElementNS(NS, "g"));
    }
    const gd = findPlot();
    const layout = gd && gd._fullLayout;
    if (layout) {
      const box = gd.getBoundingClientRect(), own = el.getBoundingClientRect();
      svg.style.left = `${box.left - own.left}px`;
      svg.style.top = `${box.top - own.top}px`;
      svg.setAttribute("width", box.width);
      svg.setAttribute("height", box.height);
    }
    marks.forEach((mark, i) => {
      const g = svg.childNodes[i];
      const xa = layout && axis(layout, mark.xaxis || "x");
      const ya = layout && axis(layout, mark.yaxis || "y");
      KINDS[mark.kind](g, mark, at[i], xa && ya ? { xa, ya } : null, gd);
    });
  }

  model.on("change:at", draw);
  model.on("change:marks", () => { svg.replaceChildren(); draw(); });
  // The figure may be drawn after the overlay, or drawn again in a new element.
  const timer = setInterval(() => { if (findPlot() !== null) draw(); }, 500);
  const resize = new ResizeObserver(draw);
  resize.observe(el);
  draw();
  return () => {
    clearInterval(timer);
    resize.disconnect();
    unhook();
  };
}

export default { render };
"""

_CSS = """
.widget-box.cfrviz-overlaid { display: grid; grid-template-columns: auto; overflow: visible; }
.widget-box.cfrviz-overlaid > * { grid-area: 1 / 1; }
.widget-box.cfrviz-overlaid.cfrviz-overlaid-fit { grid-template-columns: minmax(0, 1fr); }
.widget-box.cfrviz-overlaid-fit > * { min-width: 0; }
.cfrviz-now-root { position: relative; pointer-events: none; z-index: 1; overflow: visible;
                   min-height: 0; margin: 0; }
.cfrviz-now-svg { position: absolute; overflow: visible; pointer-events: none; }
.widget-box.cfrviz-overlaid-under { background: white; }
.widget-box.cfrviz-overlaid-under > .cfrviz-now-root { z-index: 0; }
.widget-box.cfrviz-overlaid-under > :not(.cfrviz-now-root) { position: relative; z-index: 1; }
"""

KINDS = ("vline", "point", "path", "segments", "labels", "rings")


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


class NowMarks(anywidget.AnyWidget):
    """Marks (vertical lines, open circles) at data positions of the figure beneath.

    Put it in the same box as the figure with :func:`overlaid`.  ``marks`` says how each
    mark looks (see :func:`vline`, :func:`point` and :func:`path`); ``at`` where each is, as
    ``[x, y]`` in data units (``y`` is ignored by a vertical line), ``[first, last]`` point
    indices for a path; ``None`` hides a mark.  A frame changes ``at`` only.
    """

    _esm = _ESM
    _css = _CSS
    marks = traitlets.List(traitlets.Dict()).tag(sync=True)
    at: traitlets.List = traitlets.List().tag(sync=True)

    def __init__(self, marks: Sequence[dict] = (), **kwargs):
        for mark in marks:
            if mark.get("kind") not in KINDS:
                raise ValueError(f"a mark's kind must be one of {KINDS}; got {mark!r}")
        super().__init__(marks=list(marks), at=[None] * len(marks), **kwargs)
        self.add_class("cfrviz-now")

    def move(self, *positions) -> None:
        """Put mark ``i`` at ``positions[i]`` (an ``(x, y)`` pair, an ``x`` for a line, or
        ``None`` to hide it); one message, and none if nothing moved."""
        if len(positions) != len(self.marks):
            raise ValueError(f"{len(self.marks)} marks, {len(positions)} positions given")
        at = [_position(p) for p in positions]
        if at != self.at:
            self.at = at

    def show(self, *states) -> None:
        """Give mark ``i`` the state ``states[i]`` as it is (the form its kind takes: widths
        for :func:`segments`, texts for :func:`labels`, centres for :func:`rings`); one
        message, and none if nothing changed."""
        if len(states) != len(self.marks):
            raise ValueError(f"{len(self.marks)} marks, {len(states)} states given")
        at = list(states)
        if at != self.at:
            self.at = at


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
