"""Every anywidget of cfrviz works however late its front end starts (issue 30).

anywidget gives a model two seconds to start and then drops, for good, every message the kernel
sends it ("[anywidget] Failed to initialize model.").  :mod:`cfrviz.widgets.late_start` wraps the
ES module of each (a ``StartsLate``): a front end that started late takes the model's messages
itself and asks the kernel for the whole state again.

Here each widget's own ES module runs under Node against a stand-in of anywidget's model (its
gate: messages wait for ``ready``, and are dropped once ``ready`` is rejected), ipywidgets'
handler, the comm and a kernel that answers as :class:`~cfrviz.widgets.late_start.StartsLate`
does.  Many generated classes (:func:`cases`): messages before the front end starts, in flight
while it asks, and after it has drawn; started in time or late.  What the widget ends with must
be what the kernel holds.  The browser test is tests/test_browser_load.py.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
import shutil
import subprocess

import anywidget
import plotly.graph_objects as go
import pytest

import cfrviz
from cfrviz.widgets.figure_widget import FigureWidget, PlotlyBundle, plotly_bundle, shared_bundle
from cfrviz.widgets.late_start import KEEP_ALIVE, KEY, StartsLate, es_module
from cfrviz.widgets.overlay import NowMarks
from cfrviz.widgets.playback import Play


def cfrviz_anywidgets() -> list[type]:
    """Every anywidget class defined in cfrviz (every module imported)."""
    for module in pkgutil.walk_packages(cfrviz.__path__, "cfrviz."):
        importlib.import_module(module.name)
    found, stack = set(), [anywidget.AnyWidget]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            # traitlets makes a subclass per instance (add_traits): same module, same name
            if sub.__module__.startswith("cfrviz.") and "_esm" in sub.__dict__ \
                    and isinstance(sub.__dict__["_esm"], str):
                found.add(sub)
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__name__}")


def test_every_anywidget_of_cfrviz_starts_late_safely():
    """One root: each anywidget class of cfrviz is a StartsLate, its module wrapped."""
    classes = cfrviz_anywidgets()
    assert {FigureWidget, NowMarks, Play} <= set(classes), classes
    for cls in classes:
        assert issubclass(cls, StartsLate), cls
        assert KEEP_ALIVE in cls._esm and cls._esm.count("export default") == 1, cls
        assert cls.__mro__.index(StartsLate) < cls.__mro__.index(anywidget.AnyWidget), cls


def test_a_module_it_cannot_wrap_is_refused():
    for source in ("export const a = 1;", "export default 1;\nexport default 2;",
                   "const w = {};\nexport { w as default };"):
        with pytest.raises(ValueError, match="export default"):
            es_module(source)
    wrapped = es_module("export function render() {}\nexport default { render };")
    assert es_module(wrapped) == wrapped
    # anywidget takes a module's exported render in place of its widget: none is left.
    assert "export function" not in wrapped


def test_plotlys_bundle_is_sent_once_per_kernel():
    """14 figures sent 14 copies of plotly's 5 MB front end (70 MB through the kernel, the
    server and the page); now each refers to one model."""
    figures = [FigureWidget(go.Scatter(y=[1, 2])) for _ in range(3)]
    states = [f.get_state() for f in figures]
    bundle = shared_bundle()
    assert {s["_plotly_bundle"] for s in states} == {f"IPY_MODEL_{bundle.model_id}"}
    assert bundle.source == plotly_bundle()[0] and len(bundle.source) > 1_000_000
    assert all(len(json.dumps(s, default=str)) < 100_000 for s in states)
    assert all(s["_plotly_esm_key"] == bundle.key for s in states)
    bundle.close()  # closed (Widget.close_all()): the next figure makes a new one
    again = FigureWidget()
    assert isinstance(again._plotly_bundle, PlotlyBundle) and again._plotly_bundle is not bundle
    assert again._plotly_bundle.comm is not None


def test_the_kernel_answers_a_late_front_end_with_the_whole_figure():
    fig = FigureWidget()
    fig.add_scatter(y=[1, 2, 3])
    sent: list[tuple] = []
    fig.send_state = lambda key=None: sent.append(("state", key))
    fig.send = lambda content, *_: sent.append(("custom", content))
    fig._on_front_end_message(fig, {KEY: "resync"}, [])
    assert list(fig._widget_data[0]["y"]) == [1, 2, 3]
    assert sent[-2:] == [("state", None), ("custom", {KEY: "resynced"})]
    sent.clear()
    fig._on_front_end_message(fig, {"other": 1}, [])
    fig._on_front_end_message(fig, "resync", [])
    assert sent == []


# ------------------------------------------------------------------------- under Node

#: Node: runs each case of argv[1] (JSON: the widgets' modules and the cases) and prints what
#: each widget ended with beside what the kernel held.
_HARNESS = r"""
const { modules, cases } = JSON.parse(process.argv[1]);
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const clone = (x) => (x === undefined ? x : JSON.parse(JSON.stringify(x)));
const equal = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// A message anywidget dropped rejects unhandled (the page's console shows it).
let dropped = 0;
process.on("unhandledRejection", () => { dropped += 1; });

// ipywidgets' WidgetModel (what matters here): Backbone attributes and events, the handler
// of kernel messages, send().
class BaseModel {
  constructor(state, kernel) {
    this.attributes = clone(state); this.changed = {}; this._buffered_state_diff = {};
    this.events = []; this.kernel = kernel; this.widget_manager = { get_model: async () => null };
    this.comm = { handler: null, on_msg(handler) { this.handler = handler; } };
  }
  get(name) { return this.attributes[name]; }
  set(name, value) {
    const changes = typeof name === "object" ? name : { [name]: value };
    this.changed = {};
    for (const [key, v] of Object.entries(changes)) {
      if (equal(this.attributes[key], v)) continue;
      this.attributes[key] = v; this.changed[key] = v; this._buffered_state_diff[key] = v;
    }
    for (const key of Object.keys(this.changed)) {
      this.trigger(`change:${key}`, this, this.changed[key]);
    }
  }
  on(event, f, context) { this.events.push([event, f, context]); }
  off(event, f, context) {
    const gone = ([e, g, c]) => (event == null || e === event) && (f == null || g === f)
      && (context == null || c === context);
    this.events = this.events.filter((listener) => !gone(listener));
  }
  trigger(event, ...args) {
    for (const [e, f, c] of [...this.events]) if (e === event) f.call(c, ...args);
  }
  send(content) { this.kernel.received(content); }
  save_changes() {}
  _handle_comm_msg(msg) {
    const data = msg.content.data;
    if (data.method === "update") this.set(clone(data.state));
    else if (data.method === "custom") this.trigger("msg:custom", data.content, msg.buffers);
    return Promise.resolve();
  }
}

// anywidget's AnyModel: each kernel message waits for `ready`; rejected, it is dropped.
class AnyModel extends BaseModel {
  constructor(state, kernel) {
    super(state, kernel);
    this.ready = new Promise((resolve, reject) => { this.start = resolve; this.fail = reject; });
    this.ready.catch(() => {});
    this.comm.on_msg((msg) => this._handle_comm_msg(msg));
  }
  async _handle_comm_msg(msg) {
    await this.ready;
    return super._handle_comm_msg(msg);
  }
}

// anywidget's proxy of the model: bound methods, listeners with the binding as context.
function proxy(model, context) {
  return {
    get: model.get.bind(model), set: model.set.bind(model),
    save_changes: model.save_changes.bind(model), send: model.send.bind(model),
    on: (name, f) => model.on(name, f, context), off: (name, f) => model.off(name, f, context),
    widget_manager: model.widget_manager,
  };
}

// plotly's front end, stood in: its model applies added traces to _widget_data in place, a
// view draws a copy of it and then applies added traces itself.
const plotly = { default: () => {
  let figure;
  return {
    initialize({ model }) {
      figure = model;
      model.on("change:_py2js_addTraces", () => {
        const message = model.get("_py2js_addTraces");
        if (message !== null) model.get("_widget_data").push(...message.trace_data);
      });
    },
    render({ el }) {
      el.data = clone(figure.get("_widget_data"));
      figure.on("change:_py2js_addTraces", () => {
        const message = figure.get("_py2js_addTraces");
        if (message !== null) el.data.push(...message.trace_data);
      });
      return () => {};
    },
  };
} };
globalThis[Symbol.for("cfrviz.plotly-front-end")] = new Map([["k", Promise.resolve(plotly)]]);

// The kernel: its state, the messages it sends (through the comm's current handler, one task
// each) and StartsLate's answer to a resync.
class Kernel {
  constructor(kind, state) {
    this.kind = kind; this.state = clone(state); this.traces = [];
    this.asked = 0; this.requests = 0; this.outbox = [];
  }
  received(content) {
    if (content && content.cfrviz === "resync") { this.asked += 1; this.requests += 1; }
  }
  message(data) { this.outbox.push({ content: { data }, buffers: [] }); }
  update(state) { this.message({ method: "update", state: clone(state) }); }
  apply(op) {
    if (op[0] === "set") { this.state[op[1]] = op[2]; this.update({ [op[1]]: op[2] }); }
    else if (op[0] === "add") {  // plotly's addTraces: set, then cleared
      this.traces.push(op[1]);
      this.update({ _py2js_addTraces: { trace_data: [op[1]] } });
      this.update({ _py2js_addTraces: null });
      this.state._py2js_addTraces = null;
    } else if (op[0] === "display") {  // plotly's _repr_mimebundle_
      this.state._widget_data = clone(this.traces);
      this.update({ _widget_data: this.state._widget_data });
    }
  }
  answer() {  // StartsLate._on_front_end_message
    for (; this.asked > 0; this.asked -= 1) {
      if (this.kind === "figure") this.apply(["display"]);
      this.update(this.state);
      this.message({ method: "custom", content: { cfrviz: "resynced" } });
    }
  }
  async deliver(model) {
    while (this.outbox.length) { model.comm.handler(this.outbox.shift()); await tick(); }
  }
}

const results = [];
for (const c of cases) {
  const kernel = new Kernel(c.kind, c.state);
  const model = new AnyModel(c.state, kernel);
  for (const op of c.before) kernel.apply(op);
  await kernel.deliver(model);              // they wait for ready
  if (c.late) { model.fail(new Error("[anywidget] Failed to initialize model.")); await tick(); }
  const url = "data:text/javascript;base64," + Buffer.from(modules[c.kind]).toString("base64");
  const mod = await import(url);  // as anywidget's loadWidget
  const made = typeof mod.default === "function" ? await mod.default() : mod.default;
  const binding = {};
  const started = performance.now();
  const context = { model: proxy(model, binding), experimental: {} };
  const cleanup = made.initialize ? made.initialize(context) : undefined;
  const initializeMs = performance.now() - started;
  if (!c.late) model.start();                // anywidget: ready once initialize has returned
  await tick();
  for (const op of c.inflight) kernel.apply(op);
  await kernel.deliver(model);
  kernel.answer();
  await kernel.deliver(model);
  let drawn = null;
  if (c.kind === "figure") {
    const el = {};
    await made.render({ model: proxy(model, {}), el, signal: null });
    for (const op of c.after) kernel.apply(op);
    await kernel.deliver(model);
    drawn = el.data;
  } else {
    for (const op of c.after) kernel.apply(op);
    await kernel.deliver(model);
  }
  if (typeof cleanup === "function") cleanup();
  const keys = Object.keys(kernel.state);
  results.push({
    name: c.name, initializeMs, requests: kernel.requests,
    held: Object.fromEntries(keys.map((k) => [k, model.attributes[k]])),
    kernel: kernel.state, drawn, traces: kernel.traces, dropped,
  });
  dropped = 0;
}
console.log(JSON.stringify(results));
"""

KINDS = {
    "figure": (FigureWidget, {"_plotly_esm_key": "k", "_widget_data": [], "_widget_layout": {},
                              "_plotly_messages": ["_py2js_addTraces"],
                              "_py2js_addTraces": None}),
    "play": (Play, {"value": 0, "min": 0, "max": 0, "step": 1, "interval": 100,
                    "playing": False, "repeat": False, "show_repeat": True, "disabled": False}),
    "marks": (NowMarks, {"marks": [], "at": []}),
}


def _ops(kind: str, rng: random.Random, n: int) -> list[list]:
    if kind == "figure":
        return [["add", rng.randrange(1000)] if rng.random() < 0.8 else ["display"]
                for _ in range(n)]
    if kind == "play":
        return [["set", rng.choice(["value", "max", "interval", "repeat"]),
                 rng.choice([True, False]) if rng.random() < 0.2 else rng.randrange(50)]
                for _ in range(n)]
    return [["set", "at", [rng.randrange(9) for _ in range(rng.randrange(3))]]
            if rng.random() < 0.6 else
            ["set", "marks", [{"kind": "point", "name": f"m{rng.randrange(5)}"}]]
            for _ in range(n)]


def cases(count: int = 90, seed: int = 30) -> list[dict]:
    """Named cases, then ``count`` generated: each kind, started in time or late, with random
    kernel messages before the front end starts, in flight while it asks, and after."""
    named = []
    for kind, (_, state) in KINDS.items():
        for late in (False, True):
            named.append({"name": f"{kind}: nothing sent, {'late' if late else 'in time'}",
                          "kind": kind, "late": late, "state": state,
                          "before": [], "inflight": [], "after": []})
    named.append({"name": "figure: made empty, filled at once, shown; started late",
                  "kind": "figure", "late": True, "state": KINDS["figure"][1],
                  "before": [["add", 1], ["add", 2], ["add", 3], ["display"]],
                  "inflight": [], "after": [["add", 4]]})
    named.append({"name": "play: max set after it was made, started late (lesson 13's 0 it/s)",
                  "kind": "play", "late": True, "state": KINDS["play"][1],
                  "before": [["set", "max", 299]], "inflight": [], "after": []})
    rng = random.Random(seed)
    generated = []
    for i in range(count):
        kind = rng.choice(sorted(KINDS))
        generated.append({
            "name": f"generated {i} ({kind})", "kind": kind, "late": rng.random() < 0.6,
            "state": KINDS[kind][1], "before": _ops(kind, rng, rng.randrange(6)),
            "inflight": _ops(kind, rng, rng.randrange(4)),
            "after": _ops(kind, rng, rng.randrange(4))})
    return named + generated


def _run_node(all_cases: list[dict], modules: dict[str, str] | None = None) -> list[dict]:
    """Run ``all_cases`` under Node with each kind's module (its class's ``_esm``)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the widgets' JavaScript is not checked here "
                    "(install Node.js 20 or later)")
    modules = modules or {kind: cls._esm for kind, (cls, _) in KINDS.items()}
    payload = json.dumps({"modules": modules, "cases": all_cases})
    done = subprocess.run([node, "--input-type=module", "-e", _HARNESS, payload],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_each_widget_ends_with_what_the_kernel_holds_however_late_it_starts():
    all_cases = cases()
    results = _run_node(all_cases)
    assert len(results) == len(all_cases)
    for case, result in zip(all_cases, results, strict=True):
        where = f"{case['name']}: {case}"
        # initialize returns at once: nothing of it waits for the kernel or plotly.
        assert result["initializeMs"] < 50, where
        if case["kind"] == "figure":
            assert result["drawn"] == result["traces"], (where, result)
        else:
            held = {k: v for k, v in result["held"].items() if k in result["kernel"]}
            assert held == result["kernel"], (where, result)


def test_a_front_end_in_time_asks_nothing_and_a_late_one_asks_once():
    named = cases(count=0)
    results = _run_node(named)
    for case, result in zip(named, results, strict=True):
        assert result["requests"] == (1 if case["late"] else 0), (case["name"], result)
    late_figure = next(r for c, r in zip(named, results, strict=True)
                       if c["name"].startswith("figure: made empty"))
    assert late_figure["drawn"] == [1, 2, 3, 4]


def test_without_the_wrapper_a_late_front_end_keeps_a_stale_state():
    """The harness sees the failure it guards against: Play's own module, started late, keeps
    the max it was made with (0), as lesson 13's Deep CFR explorer did."""
    from cfrviz.widgets import playback

    case = next(c for c in cases(count=0) if c["name"].startswith("play: max"))
    result = _run_node([case], modules={"play": playback.FRONT_END})[0]
    assert result["held"]["max"] == 0 and result["kernel"]["max"] == 299
    assert _run_node([case])[0]["held"]["max"] == 299
