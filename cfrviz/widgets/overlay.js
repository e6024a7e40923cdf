// @ts-check
/**
 * The front end of cfrviz.widgets.overlay.NowMarks (an anywidget ES module).
 *
 * It finds the plotly figure in the same `.cfrviz-overlaid` box and draws each mark in an SVG
 * of its own at the pixels that figure's axes give for the data values, so a timeline frame
 * changes a few SVG attributes and plotly redraws nothing.  It redraws when plotly draws
 * (plotly_afterplot, plotly_relayout, plotly_restyle), when its own box changes size
 * (ResizeObserver) and when a figure appears or is plotted anew in the box (MutationObserver);
 * nothing polls.
 *
 * A kind of mark is one drawer in `KINDS` (tests/js/overlay.test.js) and one spec in
 * cfrviz/widgets/overlay.py's `SPECS` (tests/test_widgets_overlay.py); a test checks that the
 * two tables name the same kinds.
 */

const NS = "http://www.w3.org/2000/svg";

/**
 * One axis of the figure, as the drawers use it: where its plotting area starts and how long
 * it is, in pixels of the figure, and a data value's pixel along it, from its start.
 * @typedef {{offset: number, length: number, pixel: (value: any) => number}} Axis
 */
/**
 * A pair of axes (`clip`: an SVG path of the plotting area when it is not their rectangle).
 * @typedef {{xa: Axis, ya: Axis, clip?: string}} Axes
 */
/** A plotly line style. @typedef {{color?: string, width?: number, dash?: string}} LineStyle */
/**
 * A mark's spec as cfrviz/widgets/overlay.py's SPECS validates it (the fields of its kind).
 * @typedef {{kind: string, name: string, color?: string, width?: number, dash?: string,
 *            [field: string]: any}} Mark
 */
/**
 * Draws one kind of mark in its group `g`: (g, the mark, its state in `at`, its axes or null
 * when the figure is not drawn, the plotly element or null).
 * @typedef {(g: Element, mark: Mark, state: any, axes: Axes | null, gd: any) => void} Drawer
 */

/** @param {string} tag */
function make(tag) {
  return document.createElementNS(NS, tag);
}

/**
 * plotly.js's own dash lengths (Drawing.dashStyle), so the marks look like its lines.
 * @param {string} dash plotly's dash name
 * @param {number} width the line's width in pixels
 * @returns {string} an SVG stroke-dasharray ("" for a solid line)
 */
export function dashArray(dash, width) {
  const d = Math.max(width, 3);
  if (dash === "dot") return `${d}px,${d}px`;
  if (dash === "dash") return `${3 * d}px,${3 * d}px`;
  if (dash === "longdash") return `${5 * d}px,${5 * d}px`;
  if (dash === "dashdot") return `${3 * d}px,${d}px,${d}px,${d}px`;
  if (dash === "longdashdot") return `${5 * d}px,${2 * d}px,${d}px,${2 * d}px`;
  return "";
}

// ---- plotly's axes: the one place that reads plotly.js's private fields ----------------------

/**
 * Plotly.js has no public conversion from data values to pixels.  Its full layout
 * (`gd._fullLayout`, filled in by every plot) holds each axis with that conversion (`c2p`,
 * data value to pixel from the plotting area's start, which also takes log and category
 * axes) and the plotting area's place (`_offset`, `_length`): the ones plotly's own shapes
 * and annotations are drawn with.  The public `layout.xaxis.range` and `margin` would need
 * plotly's axis types and the area's size redone here.
 * @param {any} axis an axis of `gd._fullLayout`
 * @returns {Axis}
 */
function fromPlotly(axis) {
  return { offset: axis._offset, length: axis._length, pixel: (v) => axis.c2p(v) };
}

/**
 * Whether plotly has drawn the figure `gd` (its full layout exists from its first plot on).
 * @param {any} gd
 */
export function drawn(gd) {
  return Boolean(gd && gd._fullLayout);  // private: see fromPlotly
}

/**
 * The figure's cartesian axes `xname`, `yname` ("x", "y2", ...), or null before it is drawn.
 * @param {any} gd the plotly element
 * @param {string} xname
 * @param {string} yname
 * @returns {Axes | null}
 */
export function cartesianAxes(gd, xname, yname) {
  const layout = gd && gd._fullLayout;  // private: see fromPlotly
  const name = (/** @type {string} */ n) => n.replace(/^([xy])/, "$1axis");
  const xa = layout && layout[name(xname)], ya = layout && layout[name(yname)];
  return xa && ya ? { xa: fromPlotly(xa), ya: fromPlotly(ya) } : null;
}

/**
 * The axes of a ternary subplot ("ternary", "ternary2"): plotly draws its traces with inner
 * cartesian axes (x = c - b, y = a) in a layer moved to (x0, y0), which give pixels of the
 * figure like a cartesian pair; `clip` is the triangle.  Private fields again (the subplot
 * object `_subplot`): plotly has no public place for the triangle's pixels either.
 * @param {any} gd
 * @param {string} name
 * @returns {Axes | null}
 */
export function ternaryAxes(gd, name) {
  const t = gd && gd._fullLayout && gd._fullLayout[name] && gd._fullLayout[name]._subplot;
  if (!t || !t.xaxis || !t.yaxis) return null;
  /** @type {(ax: any, offset: number, length: number) => Axis} */
  const shift = (ax, offset, length) => ({ offset, length, pixel: (v) => ax.c2p(v) });
  return { xa: shift(t.xaxis, t.x0, t.w), ya: shift(t.yaxis, t.y0, t.h),
           clip: `M${t.x0},${t.y0 + t.h}h${t.w}l${-t.w / 2},${-t.h}Z` };
}

/**
 * Whether the figure shows its trace `index`: a click on a legend entry hides a trace
 * (`visible: "legendonly"`, in the public `gd.data`), and its mark with it.
 * @param {any} gd
 * @param {number} index
 */
export function traceShown(gd, index) {
  const trace = gd && gd.data && gd.data[index];
  return Boolean(trace) && trace.visible !== false && trace.visible !== "legendonly";
}

// ---- drawing helpers ---------------------------------------------------------------------------

/**
 * The i-th child of group g, made with tag and the classes every mark carries.
 * @param {Element} g @param {number} i @param {string} tag @param {string} kind
 * @returns {SVGElement}
 */
function child(g, i, tag, kind) {
  while (g.childNodes.length <= i) g.appendChild(make(tag));
  const node = /** @type {SVGElement} */ (g.childNodes[i]);
  node.setAttribute("class", `cfrviz-now-mark cfrviz-now-${kind}`);
  return node;
}

/**
 * Draw SVG path element `path` as the line d in plotly line style ("" hides it).
 * @param {SVGElement} path @param {LineStyle} style @param {string} d
 */
function drawLine(path, style, d) {
  const width = style.width || 1;
  path.setAttribute("d", d);
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", style.color || "#333");
  path.setAttribute("stroke-width", String(width));
  path.setAttribute("stroke-dasharray", dashArray(style.dash || "solid", width));
  path.style.display = d ? "" : "none";
  return path;
}

/**
 * An x value in pixels of the overlay, or null outside the axis's visible range.
 * @param {Axis} xa @param {number} value
 */
function xPixel(xa, value) {
  const x = xa.offset + xa.pixel(value);
  const inside = Number.isFinite(x) && x >= xa.offset - 0.5 && x <= xa.offset + xa.length + 0.5;
  return inside ? x : null;
}

/** @param {number} x @param {number} y @param {number} r */
function circle(x, y, r) {
  return `M${(x + r).toFixed(2)},${y.toFixed(2)}` +
         `A${r},${r} 0 1,1 ${(x - r).toFixed(2)},${y.toFixed(2)}` +
         `A${r},${r} 0 1,1 ${(x + r).toFixed(2)},${y.toFixed(2)}Z`;
}

/** @param {number} x @param {number} y @param {number[][]} points */
function polygon(x, y, points) {
  return "M" + points.map(([u, v]) => `${(x + u).toFixed(2)},${(y + v).toFixed(2)}`).join("L") +
         "Z";
}

/**
 * Vertices from the top, clockwise, alternating over radii.
 * @param {number} count @param {number[]} radii
 */
function ring(count, radii) {
  return Array.from({ length: count }, (_, k) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * k) / count, r = radii[k % radii.length];
    return [r * Math.cos(angle), r * Math.sin(angle)];
  });
}

/**
 * plotly.js's marker symbols (Drawing.symbolFuncs' geometry) centred on x, y, for a marker of
 * diameter 2r, so a mark looks like the marker it replaces.  overlay.py's SYMBOLS names the
 * same (a test compares them).
 * @type {Record<string, (x: number, y: number, r: number) => string>}
 */
export const SYMBOLS = {
  circle: (x, y, r) => circle(x, y, r),
  square: (x, y, r) => polygon(x, y, [[r, r], [-r, r], [-r, -r], [r, -r]]),
  diamond: (x, y, r) => polygon(x, y, [[1.3 * r, 0], [0, 1.3 * r], [-1.3 * r, 0], [0, -1.3 * r]]),
  "triangle-up": (x, y, r) => polygon(x, y, [[-2 * r / Math.sqrt(3), r / 2],
                                             [2 * r / Math.sqrt(3), r / 2], [0, -r]]),
  pentagon: (x, y, r) => polygon(x, y, ring(5, [r])),
  star: (x, y, r) => polygon(x, y, ring(10, [1.4 * r, 0.382 * 1.4 * r])),
};

/**
 * The parts of a path mark in its group g, made once: a clip path (not a mark: no mark
 * class), then the line and the marker the mark has.
 * @param {Element} g @param {Mark} mark
 */
function pathParts(g, mark) {
  if (!g.firstChild) {
    const clip = g.appendChild(make("clipPath"));
    clip.setAttribute("id", `cfrviz-clip-${Math.random().toString(36).slice(2)}`);
    clip.appendChild(make("path"));
    for (const part of [mark.line, mark.marker].filter(Boolean)) {
      const path = g.appendChild(make("path"));
      path.setAttribute("class", "cfrviz-now-mark cfrviz-now-path");
      if (part === mark.marker) path.appendChild(make("title"));
    }
  }
  const [clip, ...paths] = /** @type {SVGElement[]} */ (Array.from(g.childNodes));
  return { clip, line: mark.line ? paths[0] : null, dot: mark.marker ? paths.at(-1) : null };
}

/**
 * Set an attribute only when its value changes: a frame of a mark with many parts changes a
 * few of them, and the page then redraws only those.
 * @param {Element} node @param {string} name @param {string | number} value
 */
function update(node, name, value) {
  const memo = /** @type {any} */ (node).__cfrviz || (/** @type {any} */ (node).__cfrviz = {});
  if (memo[name] !== value) {
    memo[name] = value;
    node.setAttribute(name, String(value));
  }
}

/**
 * The i-th part of a mark of many (segments, labels, rings) in parent: drawn ones carry the
 * mark's classes, hidden ones "cfrviz-now-off" instead.
 * @param {Element} parent @param {number} i @param {string} tag @param {string} kind
 * @param {boolean} shown
 */
function part(parent, i, tag, kind, shown) {
  while (parent.childNodes.length <= i) parent.appendChild(make(tag));
  const node = /** @type {Element} */ (parent.childNodes[i]);
  update(node, "class", `${shown ? "cfrviz-now-mark" : "cfrviz-now-off"} cfrviz-now-${kind}`);
  update(node, "display", shown ? "inline" : "none");
  return node;
}

/**
 * An <svg> in g showing only the plotting area (plotly clips its traces to it: zoomed in they
 * leave it), in the overlay's own pixels; made once, as g's only child.
 * @param {Element} g @param {Axes | null} axes
 */
function plotArea(g, axes) {
  const area = /** @type {Element} */ (g.firstChild || g.appendChild(make("svg")));
  if (axes) {
    const box = [axes.xa.offset, axes.ya.offset, axes.xa.length, axes.ya.length]
      .map((v) => v.toFixed(2));
    update(area, "x", box[0]);
    update(area, "y", box[1]);
    update(area, "width", box[2]);
    update(area, "height", box[3]);
    update(area, "viewBox", box.join(" "));
  }
  return area;
}

/** @param {any} v */
const given = (v) => v !== null && v !== undefined;

// ---- the kinds -----------------------------------------------------------------------------

/**
 * One drawer per kind of mark (the spec of each is overlay.py's SPECS[kind]).
 * @type {Record<string, Drawer>}
 */
export const KINDS = {
  // A vertical line across the y axis's height; state [x, ignored].
  vline(g, mark, pos, axes) {
    let d = "";
    if (axes && pos && given(pos[0])) {
      const x = xPixel(axes.xa, pos[0]);
      const ya = axes.ya;
      if (x !== null) d = `M${x.toFixed(2)},${ya.offset.toFixed(2)}v${ya.length.toFixed(2)}`;
    }
    drawLine(child(g, 0, "path", mark.kind), mark, d);
  },
  // An open circle of diameter mark.size pixels; state [x, y].
  point(g, mark, pos, axes) {
    let d = "";
    if (axes && pos && given(pos[0]) && given(pos[1])) {
      const x = xPixel(axes.xa, pos[0]);
      const y = axes.ya.offset + axes.ya.pixel(pos[1]);
      if (x !== null && Number.isFinite(y)) d = circle(x, y, (mark.size || 12) / 2);
    }
    drawLine(child(g, 0, "path", mark.kind), mark, d);
  },
  // Part of a fixed path: a line through mark.x/y[first..last] and a marker at [last], each
  // drawn if the mark has one; state [first, last].  Hidden with the trace mark.trace (legend).
  path(g, mark, pos, axes, gd) {
    if (mark.ternary) axes = ternaryAxes(gd, mark.ternary);
    const n = mark.x.length;
    const hidden = given(mark.trace) && !traceShown(gd, mark.trace);
    let line = "", dot = "", title = "";
    if (axes && pos && Number.isFinite(pos[0]) && Number.isFinite(pos[1]) && n && !hidden) {
      const { xa, ya } = axes;
      const index = (/** @type {number} */ v) => Math.min(Math.max(Math.round(v), 0), n - 1);
      const first = index(pos[0]), last = index(pos[1]);
      // (a missing value is no pixel: plotly's c2p would take null for 0)
      const pixel = (/** @type {Axis} */ ax, /** @type {number | null} */ v) =>
        (v === null ? NaN : ax.offset + ax.pixel(v));
      const px = (/** @type {number} */ k) => pixel(xa, mark.x[k]);
      const py = (/** @type {number} */ k) => pixel(ya, mark.y[k]);
      const steps = [];
      for (let k = first; k <= last; k++) {
        const x = px(k), y = py(k);
        if (Number.isFinite(x) && Number.isFinite(y)) {
          steps.push(`${steps.length ? "L" : "M"}${x.toFixed(2)},${y.toFixed(2)}`);
        }
      }
      line = steps.join("");
      const x = px(last), y = py(last);
      const inside = x >= xa.offset - 0.5 && x <= xa.offset + xa.length + 0.5 &&
                     y >= ya.offset - 0.5 && y <= ya.offset + ya.length + 0.5;
      if (mark.marker && inside) {
        dot = (SYMBOLS[mark.marker.symbol] || SYMBOLS.circle)(x, y, (mark.marker.size || 12) / 2);
      }
      title = mark.titles ? mark.titles[last] || "" : "";
    }
    g.setAttribute("opacity", String(mark.opacity ?? 1));
    const parts = pathParts(g, mark);
    if (parts.line) {
      const path = drawLine(parts.line, mark.line, line);
      if (axes) {  // plotly clips its lines to the plotting area (zoomed in, they leave it)
        /** @type {Element} */ (parts.clip.firstChild).setAttribute("d", axes.clip ||
          `M${axes.xa.offset},${axes.ya.offset}h${axes.xa.length}v${axes.ya.length}` +
          `h${-axes.xa.length}Z`);
        path.setAttribute("clip-path", `url(#${parts.clip.getAttribute("id")})`);
      }
    }
    if (parts.dot) {
      const m = mark.marker, outline = m.line || {}, path = parts.dot;
      path.setAttribute("d", dot);
      path.setAttribute("fill", m.color || "#333");
      path.setAttribute("stroke", outline.color || "none");
      path.setAttribute("stroke-width", String(outline.width ?? 0));
      path.style.display = dot ? "" : "none";
      // Plotly's hover text for this marker, as the browser's tooltip.
      path.style.pointerEvents = title ? "visiblePainted" : "none";
      /** @type {Element} */ (path.firstChild).textContent = title;
    }
  },
  // Fixed segments mark.segments ([x0, y0, x1, y1] in data units), clipped to the plotting
  // area; state: per segment its width in pixels (in style mark.styles[0]), [width, style
  // index], or null to hide it.  Only what changed is written to the page.
  segments(g, mark, widths, axes) {
    const area = plotArea(g, axes), styles = mark.styles || [{}];
    update(g, "opacity", mark.opacity ?? 1);
    mark.segments.forEach((/** @type {number[]} */ s, /** @type {number} */ i) => {
      const w = axes && widths ? widths[i] : null;
      const path = part(area, i, "path", "segments", given(w));
      if (!axes || !given(w)) return;
      const { xa, ya } = axes;
      const [width, k] = Array.isArray(w) ? w : [w, 0];
      const style = styles[k] || styles[0];
      const x = (/** @type {number} */ v) => (xa.offset + xa.pixel(v)).toFixed(2);
      const y = (/** @type {number} */ v) => (ya.offset + ya.pixel(v)).toFixed(2);
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
    mark.anchors.forEach((/** @type {number[]} */ [ax, ay], /** @type {number} */ i) => {
      const text = axes && texts ? texts[i] : null;
      const node = part(area, i, "text", "labels", Boolean(text));
      if (!axes || !text) return;
      const { xa, ya } = axes;
      const x = xa.offset + (mark.paper ? ax * xa.length : xa.pixel(ax));
      const y = ya.offset + (mark.paper ? (1 - ay) * ya.length : ya.pixel(ay));
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
    while (area.childNodes.length > shown.length) /** @type {Element} */ (area.lastChild).remove();
    shown.forEach((/** @type {number[]} */ [x, y], /** @type {number} */ i) => {
      if (!axes) return;
      const px = axes.xa.offset + axes.xa.pixel(x), py = axes.ya.offset + axes.ya.pixel(y);
      const ok = Number.isFinite(px) && Number.isFinite(py);
      const path = part(area, i, "path", "rings", ok);
      if (!ok) return;
      update(path, "d", circle(px, py, (mark.size || 12) / 2));
      update(path, "fill", "none");
      update(path, "stroke", mark.color || "#333");
      update(path, "stroke-width", mark.width || 1);
    });
  },
};

// ---- the view ------------------------------------------------------------------------------

/** The plotly events after which the figure's pixels may have moved. */
export const PLOTLY_EVENTS = ["plotly_afterplot", "plotly_relayout", "plotly_restyle"];

/**
 * anywidget's render: draw the model's marks over (or under) the figure in the same box.
 * @param {{model: {get: (name: string) => any, on: (event: string, f: () => void) => void,
 *                  off?: (event: string, f: () => void) => void},
 *          el: HTMLElement}} view
 * @returns {() => void} what undoes it (anywidget calls it when the view goes)
 */
export function render({ model, el }) {
  el.classList.add("cfrviz-now-root");
  const svg = make("svg");
  svg.setAttribute("class", "cfrviz-now-svg");
  el.appendChild(svg);
  /** @type {any} the plotly element (a div with class js-plotly-plot), once found */
  let plot = null;
  /** @type {any} the `on` of the plot our listeners are on */
  let hooked = null;
  /** @type {Element | null} the `.cfrviz-overlaid` box, once the overlay is in it */
  let box = null;
  /** whether the last draw had a drawn figure to place the marks on */
  let placed = false;
  const redraw = () => draw();

  function unhook() {
    // Plotly.purge and Plotly.newPlot replace a figure's event emitter, and with it `gd.on`:
    // listeners left on the old one are gone already.
    if (plot && hooked && plot.on === hooked) {
      for (const event of PLOTLY_EVENTS) plot.removeListener(event, redraw);
    }
    hooked = null;
  }

  function findPlot() {
    const found = box ? box.querySelector(".js-plotly-plot") : null;
    if (found !== plot) {
      unhook();
      plot = found;
    }
    if (plot && typeof plot.on === "function" && plot.on !== hooked) {
      for (const event of PLOTLY_EVENTS) plot.on(event, redraw);
      hooked = plot.on;
    }
  }

  // The figure may be drawn after the overlay, drawn again in a new element, or plotted anew
  // (Plotly.newPlot, which drops our listeners): each adds nodes to the box.
  // It also redraws when the figure becomes drawn: an afterplot event sent before our
  // listeners were on (a page busy loading plotly.js) would otherwise leave the marks unplaced.
  const watch = new MutationObserver(() => {
    const before = [plot, hooked];
    findPlot();
    if (plot !== before[0] || hooked !== before[1] || drawn(plot) !== placed) draw();
  });

  function findBox() {
    const found = el.closest(".cfrviz-overlaid");
    if (found !== box) {
      watch.disconnect();
      box = found;
      if (box) watch.observe(box, { childList: true, subtree: true });
    }
  }

  function draw() {
    const marks = /** @type {Mark[]} */ (model.get("marks") || []);
    const at = model.get("at") || [];
    while (svg.childNodes.length > marks.length) /** @type {Element} */ (svg.lastChild).remove();
    while (svg.childNodes.length < marks.length) svg.appendChild(make("g"));
    findBox();
    findPlot();
    const ready = drawn(plot);
    placed = ready;
    if (ready) {
      const figure = plot.getBoundingClientRect(), own = el.getBoundingClientRect();
      svg.style.left = `${figure.left - own.left}px`;
      svg.style.top = `${figure.top - own.top}px`;
      svg.setAttribute("width", String(figure.width));
      svg.setAttribute("height", String(figure.height));
    }
    marks.forEach((mark, i) => {
      const axes = ready ? cartesianAxes(plot, mark.xaxis || "x", mark.yaxis || "y") : null;
      KINDS[mark.kind](/** @type {Element} */ (svg.childNodes[i]), mark, at[i], axes, plot);
    });
  }

  const onMarks = () => { svg.replaceChildren(); draw(); };
  model.on("change:at", draw);
  model.on("change:marks", onMarks);
  // Laid out (put in its box, shown) or resized: the figure's pixels may have moved.
  const resize = new ResizeObserver(draw);
  resize.observe(el);
  draw();
  return () => {
    resize.disconnect();
    watch.disconnect();
    unhook();
    if (model.off) {
      model.off("change:at", draw);
      model.off("change:marks", onMarks);
    }
  };
}

export default { render };
