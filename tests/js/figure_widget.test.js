// @ts-check
// FigureWidget's front end (cfrviz/widgets/figure_widget.js) under Node's test runner, with
// plotly's bundle stood in for: messages the kernel sends while plotly loads reach plotly's
// model once it has loaded, in order and with the values they had.  Run: make test-js.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";

import frontEnd, { CACHE, bundleSource, plotlyFrontEnd } from "../../cfrviz/widgets/figure_widget.js";
import { fakeModel } from "./shim.js";

const MESSAGES = ["_py2js_addTraces", "_py2js_restyle"];

/** A figure's model as the kernel makes it (with the messages its front end records). */
function figureModel(/** @type {Record<string, any>} */ values = {}) {
  return fakeModel({ _plotly_esm_key: "k", _plotly_messages: MESSAGES,
                     _py2js_addTraces: null, _py2js_restyle: null, ...values });
}

/** The kernel sends a message: set, then cleared at once (plotly's Python does). */
function send(/** @type {any} */ model, /** @type {string} */ name, /** @type {any} */ value) {
  model.set(name, value);
  model.set(name, null);
}

/**
 * plotly's bundle, in the page's cache already, still loading: `load()` finishes it.  Its
 * widget records every addTraces/restyle message its model reads and every element drawn.
 */
function pendingPlotly() {
  /** @type {(value: any) => void} */
  let load = () => {};
  const pending = new Promise((resolve) => { load = resolve; });
  /** @type {any[]} */
  const seen = [];
  /** @type {any[]} */
  const rendered = [];
  const plotly = { default: () => ({
    initialize(/** @type {any} */ { model }) {
      for (const name of MESSAGES) {
        model.on(`change:${name}`, () => seen.push([name, model.get(name)]));
      }
    },
    render(/** @type {any} */ { el }) { rendered.push(el); return () => {}; },
  }) };
  /** @type {any} */ (globalThis)[CACHE] = new Map([["k", pending]]);
  return { load: () => load(plotly), seen, rendered };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => { delete (/** @type {any} */ (globalThis))[CACHE]; });

describe("messages sent while plotly loads", () => {
  test("reach plotly's model once it has loaded, in order, then later ones go straight", async () => {
    const plotly = pendingPlotly();
    const model = figureModel();
    const widget = frontEnd();
    widget.initialize({ model, synced: undefined });
    send(model, "_py2js_addTraces", { trace_data: [1] });
    send(model, "_py2js_restyle", { style: 1 });
    const view = widget.render({ model, el: "the element", signal: null });
    await tick();
    assert.deepEqual(plotly.seen, []);  // nothing reaches plotly before it has loaded
    plotly.load();
    await view;
    send(model, "_py2js_addTraces", { trace_data: [3] });
    assert.deepEqual(plotly.seen, [
      ["_py2js_addTraces", { trace_data: [1] }], ["_py2js_addTraces", null],
      ["_py2js_restyle", { style: 1 }], ["_py2js_restyle", null],
      ["_py2js_addTraces", { trace_data: [3] }], ["_py2js_addTraces", null]]);
    assert.deepEqual(plotly.rendered, ["the element"]);
    // The recorders are gone: only plotly's own handlers listen now.
    assert.equal(model.handlers["change:_py2js_addTraces"].length, 1);
  });

  test("a full state (the figure shown) replaces the messages recorded before it", async () => {
    const plotly = pendingPlotly();
    const model = figureModel();
    const widget = frontEnd();
    widget.initialize({ model, synced: undefined });
    send(model, "_py2js_addTraces", { trace_data: [1] });
    model.set("_widget_data", [{ y: [1] }]);
    send(model, "_py2js_addTraces", { trace_data: [2] });
    plotly.load();
    await widget.render({ model, el: {}, signal: null });
    assert.deepEqual(plotly.seen, [
      ["_py2js_addTraces", { trace_data: [2] }], ["_py2js_addTraces", null]]);
  });

  test("a late front end, sent the whole figure again, replays nothing recorded before", async () => {
    const plotly = pendingPlotly();
    const model = figureModel();
    /** @type {(value: any) => void} */
    let resent = () => {};
    const synced = new Promise((resolve) => { resent = resolve; });
    const widget = frontEnd();
    widget.initialize({ model, synced });
    send(model, "_py2js_addTraces", { trace_data: [1] });
    plotly.load();
    await tick();
    resent(true);
    await widget.render({ model, el: {}, signal: null });
    assert.deepEqual(plotly.seen, []);
  });

  test("a figure without messages to record still draws", async () => {
    const plotly = pendingPlotly();
    const model = figureModel({ _plotly_messages: [] });
    const widget = frontEnd();
    widget.initialize({ model, synced: undefined });
    plotly.load();
    await widget.render({ model, el: "el", signal: null });
    assert.deepEqual(plotly.rendered, ["el"]);
  });
});

describe("plotly's bundle", () => {
  /** A model whose bundle model ("IPY_MODEL_b") the widget manager finds after `misses`. */
  function withBundle(/** @type {number} */ misses, /** @type {string} */ source) {
    const model = /** @type {any} */ (figureModel({ _plotly_bundle: "IPY_MODEL_b" }));
    model.asked = [];
    model.widget_manager = {
      get_model: async (/** @type {string} */ id) => {
        model.asked.push(id);
        if (model.asked.length <= misses) throw new Error("not restored yet");
        return { get: (/** @type {string} */ name) => (name === "source" ? source : null) };
      },
    };
    return model;
  }

  test("its text is asked for again until the bundle's model exists", async () => {
    const model = withBundle(2, "the bundle");
    assert.equal(await bundleSource(model), "the bundle");
    assert.deepEqual(model.asked, ["b", "b", "b"]);
  });

  test("past its patience the error is the widget manager's", async () => {
    await assert.rejects(bundleSource(withBundle(99, ""), 0), /not restored yet/);
  });

  test("is imported once per page and key; a failed import is forgotten", async () => {
    const model = withBundle(0, "this is not javascript (");
    const first = plotlyFrontEnd(model);
    assert.equal(plotlyFrontEnd(model), first);  // shared by every figure of the page
    await assert.rejects(first);
    await tick();
    const cache = /** @type {any} */ (globalThis)[CACHE];
    assert.equal(cache.has("k"), false);
    const again = plotlyFrontEnd(model);
    assert.notEqual(again, first);
    await assert.rejects(again);
  });
});
