// @ts-check
// The overlay's front end (cfrviz/widgets/overlay.js) under Node's test runner, with the DOM
// and plotly stand-ins of shim.js: each kind's drawer, and the view's redraws (plotly's
// events, the observers, no timer).  Run: node --test tests/js/ (make test-js).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, test } from "node:test";

import {
  KINDS, PLOTLY_EVENTS, SYMBOLS, cartesianAxes, dashArray, render, ternaryAxes, traceShown,
} from "../../cfrviz/widgets/overlay.js";
import {
  Node_, fakeModel, flushMutations, installDom, plotlyAxis, plotlyFigure, resizeObservers,
} from "./shim.js";

// No test may start an interval (polling); one would also keep Node from exiting.
const realSetInterval = globalThis.setInterval;
/** @type {any[]} */
let intervals = [];
beforeEach(() => {
  installDom();
  intervals = [];
  /** @type {any} */ (globalThis).setInterval = (/** @type {any[]} */ ...args) => {
    intervals.push(args);
    return 0;
  };
});
afterEach(() => {
  globalThis.setInterval = realSetInterval;
  assert.deepEqual(intervals, [], "the overlay started an interval timer (polling)");
});

/** Axes x: 0..10 over pixels 50..450, y: 0..1 over pixels 320..20 (the shim's figure). */
function axes() {
  return cartesianAxes(plotlyFigure(), "x", "y");
}

/** @param {Node_} g the drawn parts of a mark, shown or not, with their attributes */
function marked(g) {
  return g.querySelectorAll(".cfrviz-now-mark");
}

/** @param {string} kind @param {Record<string, any>} fields */
const mark = (kind, fields) => ({ kind, name: kind, xaxis: "x", yaxis: "y", ...fields });

describe("plotly's axes", () => {
  test("cartesian axes convert data values to pixels of the figure", () => {
    const a = axes();
    assert.ok(a);
    assert.equal(a.xa.offset + a.xa.pixel(5), 250);
    assert.equal(a.ya.offset + a.ya.pixel(0.5), 170);
  });

  test("an axis the figure lacks, or a figure not drawn yet, gives no axes", () => {
    assert.equal(cartesianAxes(plotlyFigure(), "x2", "y2"), null);
    assert.equal(cartesianAxes(new Node_("div"), "x", "y"), null);
    assert.equal(cartesianAxes(null, "x", "y"), null);
  });

  test("a ternary subplot's inner axes are moved to its corner; its clip is the triangle", () => {
    const gd = plotlyFigure();
    gd._fullLayout.ternary = { _subplot: { x0: 100, y0: 40, w: 200, h: 160,
                                           xaxis: plotlyAxis(0, 200, -1, 1),
                                           yaxis: plotlyAxis(0, 160, 0, 1, true) } };
    const t = ternaryAxes(gd, "ternary");
    assert.ok(t);
    assert.equal(t.xa.offset + t.xa.pixel(0), 200);  // the top corner: x = c - b = 0, y = a = 1
    assert.equal(t.ya.offset + t.ya.pixel(1), 40);
    assert.equal(t.clip, "M100,200h200l-100,-160Z");
    assert.equal(ternaryAxes(gd, "ternary2"), null);
  });

  test("a trace hidden from the legend (public gd.data) is not shown", () => {
    const gd = plotlyFigure();
    gd.data = [{}, { visible: "legendonly" }, { visible: false }, { visible: true }];
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => traceShown(gd, i)),
                     [true, false, false, true, false]);
  });
});

test("only the axes adapter reads plotly.js's private fields, each line saying why", () => {
  const source = readFileSync(new URL("../../cfrviz/widgets/overlay.js", import.meta.url), "utf8");
  const adapter = new Set(["fromPlotly", "drawn", "cartesianAxes", "ternaryAxes"]);
  let inside = "", reads = 0;
  source.split("\n").forEach((line, i) => {
    inside = line.match(/^(?:export )?function (\w+)/)?.[1] ?? inside;
    const code = line.replace(/\/\/.*$/, "");
    if (/^\s*\*/.test(line) || !/\._[a-zA-Z]/.test(code)) return;
    reads += 1;
    assert.ok(adapter.has(inside), `line ${i + 1} (in ${inside}) reads a private field: ${line}`);
    assert.ok(/private|c2p/.test(line) || inside === "fromPlotly" || inside === "ternaryAxes",
              `line ${i + 1} reads a private field without saying why`);
  });
  assert.ok(reads > 0 && reads <= 4, `${reads} lines read private fields`);
});

test("dashes are plotly's lengths, at least 3 px a dash", () => {
  assert.equal(dashArray("solid", 2), "");
  assert.equal(dashArray("dot", 2), "3px,3px");
  assert.equal(dashArray("dash", 4), "12px,12px");
  assert.equal(dashArray("longdashdot", 3), "15px,6px,3px,6px");
});

test("every symbol is a closed path around its centre", () => {
  for (const [name, draw] of Object.entries(SYMBOLS)) {
    const d = draw(100, 50, 6);
    assert.match(d, /^M.*Z$/, name);
    const xs = [...d.matchAll(/(-?\d+\.\d+),(-?\d+\.\d+)/g)].map((m) => Number(m[1]));
    assert.ok(Math.min(...xs) < 100 && Math.max(...xs) > 100, name);
  }
});

describe("the kinds", () => {
  test("vline: a line across the y axis at x; hidden outside the x range or without x", () => {
    const g = new Node_("g"), line = mark("vline", { color: "red", width: 2, dash: "dot" });
    KINDS.vline(g, line, [5, null], axes(), null);
    const [path] = marked(g);
    assert.equal(path.getAttribute("d"), "M250.00,20.00v300.00");
    assert.equal(path.getAttribute("stroke"), "red");
    assert.equal(path.getAttribute("stroke-dasharray"), "3px,3px");
    assert.equal(path.getAttribute("class"), "cfrviz-now-mark cfrviz-now-vline");
    KINDS.vline(g, line, [11, null], axes(), null);
    assert.equal(path.style.display, "none");
    KINDS.vline(g, line, null, axes(), null);
    assert.equal(path.getAttribute("d"), "");
    KINDS.vline(g, line, [5, null], null, null);  // the figure not drawn yet
    assert.equal(path.style.display, "none");
  });

  test("point: an open circle of diameter size at (x, y)", () => {
    const g = new Node_("g");
    KINDS.point(g, mark("point", { color: "blue", size: 10, width: 3 }), [5, 0.5], axes(), null);
    const [path] = marked(g);
    assert.equal(path.getAttribute("d"),
                 "M255.00,170.00A5,5 0 1,1 245.00,170.00A5,5 0 1,1 255.00,170.00Z");
    assert.equal(path.getAttribute("fill"), "none");
    KINDS.point(g, mark("point", {}), [5, null], axes(), null);
    assert.equal(path.style.display, "none");
  });

  test("path: a line through points first..last, a marker and its title at last", () => {
    const g = new Node_("g"), gd = plotlyFigure();
    const spec = mark("path", { x: [0, 5, null, 10], y: [0, 0.5, 1, 1], trace: 1, opacity: 0.4,
                                line: { color: "green", width: 2 }, titles: ["a", "b", "c", "d"],
                                marker: { symbol: "square", size: 4, color: "black" } });
    KINDS.path(g, spec, [0, 3], cartesianAxes(gd, "x", "y"), gd);
    const [line, dot] = marked(g);
    assert.equal(line.getAttribute("d"), "M50.00,320.00L250.00,170.00L450.00,20.00");  // a gap
    assert.match(line.getAttribute("clip-path") || "", /^url\(#cfrviz-clip-/);
    assert.equal(dot.getAttribute("d"), "M452.00,22.00L448.00,22.00L448.00,18.00L452.00,18.00Z");
    assert.equal(dot.firstChild?.textContent, "d");
    assert.equal(g.getAttribute("opacity"), "0.4");
    KINDS.path(g, spec, [1, 1], cartesianAxes(gd, "x", "y"), gd);
    assert.equal(line.getAttribute("d"), "M250.00,170.00");
    assert.equal(dot.firstChild?.textContent, "b");
    gd.data[1] = { visible: "legendonly" };  // its legend entry clicked: hidden with the trace
    KINDS.path(g, spec, [0, 3], cartesianAxes(gd, "x", "y"), gd);
    assert.equal(line.style.display, "none");
    assert.equal(dot.style.display, "none");
  });

  test("segments: each at the width its state gives, in its style, or hidden; only changes " +
       "are written", () => {
    const g = new Node_("g");
    const spec = mark("segments", { segments: [[0, 0, 10, 1], [5, 0, 5, 1]], opacity: 0.5,
                                    styles: [{ color: "red" }, { color: "grey", dash: "dot" }] });
    KINDS.segments(g, spec, [2, [1, 1]], axes(), null);
    const [first, second] = marked(g);
    assert.equal(first.getAttribute("d"), "M50.00,320.00L450.00,20.00");
    assert.deepEqual([first.getAttribute("stroke"), first.getAttribute("stroke-width")],
                     ["red", "2"]);
    assert.deepEqual([second.getAttribute("stroke"), second.getAttribute("stroke-dasharray")],
                     ["grey", "3px,3px"]);
    assert.equal(g.firstChild?.getAttribute("viewBox"), "50.00 20.00 400.00 300.00");
    KINDS.segments(g, spec, [2, null], axes(), null);
    assert.equal(marked(g).length, 1);
    assert.equal(second.getAttribute("class"), "cfrviz-now-off cfrviz-now-segments");
    assert.equal(first.writes.d, 1);  // unchanged: not written again
  });

  test("labels: texts at anchors, starting or ending there; on paper, in area fractions", () => {
    const g = new Node_("g");
    const spec = mark("labels", { anchors: [[5, 0.5], [0, 0]], ends: [true, false],
                                  font: { size: 12, color: "black" }, paper: false,
                                  offset: [1, 2] });
    KINDS.labels(g, spec, ["b .33", null], axes(), null);
    const [text] = marked(g);
    assert.equal(text.textContent, "b .33");
    assert.deepEqual([text.getAttribute("x"), text.getAttribute("y")], ["251.00", "175.00"]);
    assert.equal(text.getAttribute("text-anchor"), "end");
    assert.equal(marked(g).length, 1);
    const note = new Node_("g");
    KINDS.labels(note, { ...spec, anchors: [[1, 1]], paper: true }, ["value"], axes(), null);
    assert.deepEqual([marked(note)[0].getAttribute("x"), marked(note)[0].getAttribute("y")],
                     ["451.00", "22.00"]);
  });

  test("rings: one circle per centre, as many as the state gives", () => {
    const g = new Node_("g"), spec = mark("rings", { color: "red", size: 20, width: 2 });
    KINDS.rings(g, spec, [[5, 0.5], [0, 0]], axes(), null);
    assert.equal(marked(g).length, 2);
    assert.match(marked(g)[0].getAttribute("d") || "", /^M260\.00,170\.00A10,10/);
    KINDS.rings(g, spec, [[10, 1]], axes(), null);
    assert.equal(marked(g).length, 1);
    KINDS.rings(g, spec, null, axes(), null);
    assert.equal(marked(g).length, 0);
  });
});

describe("the view", () => {
  /** A box holding a drawn figure and the overlay's element, rendered with `marks`. */
  function setUp(marks = [mark("vline", { color: "red", width: 1, dash: "dot" })]) {
    const box = new Node_("div"), gd = plotlyFigure(), el = new Node_("div");
    box.classList.add("cfrviz-overlaid");
    box.appendChild(gd);
    box.appendChild(el);
    el.rect = { left: 0, top: 0, width: 520, height: 360 };
    const model = fakeModel({ marks, at: marks.map(() => [5, null]) });
    const undo = render({ model, el: /** @type {any} */ (el) });
    flushMutations();
    return { box, gd, el, model, undo, svg: el.firstChild };
  }

  test("draws the marks over the figure, at its place in the box", () => {
    const { el, svg } = setUp();
    assert.ok(el.classList.contains("cfrviz-now-root"));
    assert.deepEqual([svg?.style.left, svg?.style.top, svg?.getAttribute("width")],
                     ["10px", "5px", "500"]);
    assert.equal(marked(el)[0].getAttribute("d"), "M250.00,20.00v300.00");
  });

  test("a frame (change:at) redraws; new marks (change:marks) start afresh", () => {
    const { el, model } = setUp();
    model.set("at", [[0, null]]);
    assert.equal(marked(el)[0].getAttribute("d"), "M50.00,20.00v300.00");
    model.set("marks", [mark("point", { size: 10 }), mark("rings", { size: 4 })]);
    model.set("at", [[5, 0.5], [[0, 0]]]);
    assert.deepEqual(marked(el).map((n) => n.getAttribute("class")),
                     ["cfrviz-now-mark cfrviz-now-point", "cfrviz-now-mark cfrviz-now-rings"]);
  });

  test("follows plotly's events: zoom (relayout), replot (afterplot), legend (restyle)", () => {
    const { gd, el } = setUp();
    assert.deepEqual(PLOTLY_EVENTS, ["plotly_afterplot", "plotly_relayout", "plotly_restyle"]);
    assert.deepEqual(Object.keys(gd.listeners).sort(), PLOTLY_EVENTS);
    for (const event of PLOTLY_EVENTS) {
      gd._fullLayout.xaxis = plotlyAxis(50, 400, 0, 5 + PLOTLY_EVENTS.indexOf(event));
      gd.emit(event);
      const x = 50 + 400 * 5 / (5 + PLOTLY_EVENTS.indexOf(event));
      assert.equal(marked(el)[0].getAttribute("d"), `M${x.toFixed(2)},20.00v300.00`, event);
    }
  });

  test("a resize redraws", () => {
    const { gd, el } = setUp();
    gd._fullLayout.xaxis = plotlyAxis(50, 200, 0, 10);  // plotly narrowed the figure
    for (const observer of resizeObservers) observer.callback();
    assert.equal(marked(el)[0].getAttribute("d"), "M150.00,20.00v300.00");
  });

  test("a figure drawn after the overlay is found without polling", () => {
    const box = new Node_("div"), el = new Node_("div");
    box.classList.add("cfrviz-overlaid");
    box.appendChild(el);
    const model = fakeModel({ marks: [mark("vline", {})], at: [[5, null]] });
    render({ model, el: /** @type {any} */ (el) });
    assert.equal(marked(el)[0].getAttribute("d"), "");
    box.appendChild(plotlyFigure());
    flushMutations();
    assert.equal(marked(el)[0].getAttribute("d"), "M250.00,20.00v300.00");
  });

  test("an overlay rendered before it is put in its box finds the box when laid out", () => {
    const box = new Node_("div"), el = new Node_("div");
    box.classList.add("cfrviz-overlaid");
    box.appendChild(plotlyFigure());
    const model = fakeModel({ marks: [mark("vline", {})], at: [[5, null]] });
    render({ model, el: /** @type {any} */ (el) });
    box.appendChild(el);  // ipywidgets puts a child view in its box after rendering it
    for (const observer of resizeObservers) observer.callback();  // laid out
    assert.equal(marked(el)[0].getAttribute("d"), "M250.00,20.00v300.00");
  });

  test("Plotly.newPlot on the same element drops our listeners: they are hooked again", () => {
    const { gd, el } = setUp();
    gd.replot();  // a new emitter: the old listeners are gone
    assert.deepEqual(gd.listeners, {});
    flushMutations();
    assert.deepEqual(Object.keys(gd.listeners).sort(), [...PLOTLY_EVENTS].sort());
    gd._fullLayout.xaxis = plotlyAxis(50, 400, 0, 20);
    gd.emit("plotly_afterplot");
    assert.equal(marked(el)[0].getAttribute("d"), "M150.00,20.00v300.00");
  });

  test("nothing polls: no timer is started (no interval in any test: see afterEach)", () => {
    const timers = { setTimeout: globalThis.setTimeout };
    /** @type {any} */ (globalThis).setTimeout = () => assert.fail("setTimeout called");
    try {
      const { gd, model } = setUp();
      model.set("at", [[1, null]]);
      gd.emit("plotly_relayout");
    } finally {
      Object.assign(globalThis, timers);
    }
  });

  test("going away unhooks plotly's events, the model and the observers", () => {
    const { gd, model, undo, el } = setUp();
    undo();
    assert.deepEqual(Object.values(gd.listeners).flat(), []);
    assert.deepEqual(Object.values(model.handlers).flat(), []);
    assert.ok(resizeObservers.every((o) => o.targets.length === 0));
    const before = marked(el)[0].getAttribute("d");
    gd._fullLayout.xaxis = plotlyAxis(50, 400, 0, 20);
    gd.emit("plotly_afterplot");
    assert.equal(marked(el)[0].getAttribute("d"), before);
  });
});
