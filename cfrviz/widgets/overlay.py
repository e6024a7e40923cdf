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
  return "";
}

function axis(layout, name) {
  return layout[name.replace(/^([xy])/, "$1axis")];
}

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
      svg.appendChild(document.createElementNS(NS, "path"));
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
      const path = svg.childNodes[i];
      const pos = at[i];
      const xa = layout && axis(layout, mark.xaxis || "x");
      const ya = layout && axis(layout, mark.yaxis || "y");
      let d = "";
      if (xa && ya && pos && pos[0] !== null && pos[0] !== undefined) {
        const x = xa._offset + xa.c2p(pos[0]);
        const inside = Number.isFinite(x) && x >= xa._offset - 0.5 &&
                       x <= xa._offset + xa._length + 0.5;
        if (inside && mark.kind === "vline") {
          d = `M${x.toFixed(2)},${ya._offset.toFixed(2)}v${ya._length.toFixed(2)}`;
        } else if (inside && pos[1] !== null && pos[1] !== undefined) {
          const y = ya._offset + ya.c2p(pos[1]);
          const r = (mark.size || 12) / 2;
          if (Number.isFinite(y)) {
            d = `M${(x + r).toFixed(2)},${y.toFixed(2)}` +
                `A${r},${r} 0 1,1 ${(x - r).toFixed(2)},${y.toFixed(2)}` +
                `A${r},${r} 0 1,1 ${(x + r).toFixed(2)},${y.toFixed(2)}Z`;
          }
        }
      }
      const width = mark.width || 1;
      path.setAttribute("class", `cfrviz-now-mark cfrviz-now-${mark.kind}`);
      path.setAttribute("d", d);
      path.setAttribute("fill", "none");
      path.setAttribute("stroke", mark.color || "#333");
      path.setAttribute("stroke-width", width);
      path.setAttribute("stroke-dasharray", dashArray(mark.dash || "solid", width));
      path.style.display = d ? "" : "none";
    });
  }

  model.on("change:at", draw);
  model.on("change:marks", draw);
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
"""

KINDS = ("vline", "point")


def vline(xaxis: str = "x", yaxis: str = "y", *, color: str = "#333", width: float = 1.5,
          dash: str = "dot") -> dict:
    """A vertical line across axis ``yaxis``'s whole height at an ``xaxis`` value."""
    return dict(kind="vline", xaxis=xaxis, yaxis=yaxis, color=color, width=width, dash=dash)


def point(xaxis: str = "x", yaxis: str = "y", *, color: str = "#333", size: float = 12,
          width: float = 3) -> dict:
    """An open circle of diameter ``size`` pixels (plotly's ``circle-open`` marker)."""
    return dict(kind="point", xaxis=xaxis, yaxis=yaxis, color=color, size=size, width=width)


class NowMarks(anywidget.AnyWidget):
    """Marks (vertical lines, open circles) at data positions of the figure beneath.

    Put it in the same box as the figure with :func:`overlaid`.  ``marks`` says how each
    mark looks (see :func:`vline` and :func:`point`); ``at`` where each is, as ``[x, y]``
    in data units (``y`` is ignored by a vertical line; ``None`` hides a mark).  A frame
    changes ``at`` only.
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


def overlaid(fig: go.FigureWidget, marks: NowMarks, **layout) -> W.Box:
    """A box that stacks ``marks`` over ``fig`` (one grid cell for both), with ``layout``.

    The box is as wide as the figure, as the figure alone would be; a figure that
    follows its container (:func:`cfrviz.views.style.fit_to_output`) may also shrink.
    """
    box = W.Box([fig, marks], layout=W.Layout(**layout))
    box.add_class("cfrviz-overlaid")
    if fig._config.get("responsive"):
        box.add_class("cfrviz-overlaid-fit")
    return box
