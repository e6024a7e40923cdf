// @ts-check
// The Play button's front end (cfrviz/widgets/playback.js) under Node's test runner: the timer
// belongs to the model (initialize), each view only draws buttons and sets `playing`, so any
// number of views play together.  Timers are a manual clock here.  Run: make test-js.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";

import { initialize, render } from "../../cfrviz/widgets/playback.js";
import { Node_, fakeModel, installDom } from "./shim.js";

/** A manual clock in place of setTimeout/clearTimeout: `tick()` fires the timers due. */
const realTimeout = globalThis.setTimeout, realClear = globalThis.clearTimeout;
/** @type {Map<number, [Function, number]>} */
let timers = new Map();
let nextId = 1;
/** every delay asked for, in order */
/** @type {number[]} */
let delays = [];
beforeEach(() => {
  installDom();
  timers = new Map();
  delays = [];
  /** @type {any} */ (globalThis).setTimeout = (/** @type {Function} */ f, /** @type {number} */ ms) => {
    timers.set(nextId, [f, ms]);
    delays.push(ms);
    return nextId++;
  };
  /** @type {any} */ (globalThis).clearTimeout = (/** @type {number} */ id) => {
    timers.delete(id);
  };
});
afterEach(() => {
  globalThis.setTimeout = realTimeout;
  globalThis.clearTimeout = realClear;
});

/** Fire the timers pending now (not the ones they schedule). */
function tick() {
  const due = [...timers];
  timers.clear();
  for (const [, [f]] of due) f();
}

/** @param {Record<string, any>} [values] */
function play(values = {}) {
  return fakeModel({ value: 0, min: 0, max: 3, step: 1, interval: 100, playing: false,
                     repeat: false, show_repeat: true, disabled: false, ...values });
}

/** @param {ReturnType<typeof play>} model */
function view(model) {
  const el = new Node_("div");
  const cleanup = render({ model, el });
  const [playButton, stopButton, repeatButton] = /** @type {any[]} */ (el.childNodes);
  return { el, cleanup, playButton, stopButton, repeatButton };
}

describe("the model's timer", () => {
  test("steps value by step every interval up to max, then stops", () => {
    const model = play({ step: 2, max: 5, interval: 40 });
    initialize({ model });
    model.set("playing", true);
    assert.equal(model.get("value"), 2);  // the first step at once, as ipywidgets' does
    tick();
    assert.equal(model.get("value"), 4);
    tick();  // 6 > 5: stop where it is
    assert.equal(model.get("value"), 4);
    assert.equal(model.get("playing"), false);
    assert.equal(timers.size, 0);
    assert.deepEqual(delays, [40, 40]);
    assert.ok(model.saves >= 3);
  });

  test("with repeat it goes round from min again", () => {
    const model = play({ min: 1, max: 2, repeat: true, value: 1 });
    initialize({ model });
    model.set("playing", true);
    const seen = [model.get("value")];
    for (let i = 0; i < 4; i++) { tick(); seen.push(model.get("value")); }
    assert.deepEqual(seen, [2, 1, 2, 1, 2]);
    assert.equal(model.get("playing"), true);
  });

  test("started at max it starts over from min, after one interval", () => {
    const model = play({ value: 3, max: 3 });
    initialize({ model });
    model.set("playing", true);
    assert.equal(model.get("value"), 0);
    assert.equal(timers.size, 1);
    tick();
    assert.equal(model.get("value"), 1);
  });

  test("pausing stops the timer; playing again starts one timer", () => {
    const model = play({ max: 9 });
    initialize({ model });
    model.set("playing", true);
    model.set("playing", false);
    assert.equal(timers.size, 0);
    tick();
    assert.equal(model.get("value"), 1);
    model.set("playing", true);
    model.set("playing", true);  // a second change while playing starts no second timer
    assert.equal(timers.size, 1);
  });

  test("a model made playing plays; the cleanup stops it and stops listening", () => {
    const model = play({ playing: true, max: 9 });
    const cleanup = initialize({ model });
    assert.equal(model.get("value"), 1);
    cleanup();
    assert.equal(timers.size, 0);
    assert.deepEqual(model.handlers["change:playing"], []);
  });
});

describe("the views", () => {
  test("two views of one model play together: one timer, not one per view", () => {
    const model = play({ max: 9 });
    initialize({ model });
    const first = view(model), second = view(model);
    first.playButton.onclick();
    assert.equal(model.get("playing"), true);
    assert.equal(timers.size, 1);
    for (let i = 0; i < 3; i++) tick();
    assert.equal(model.get("value"), 4);  // one step at once, then one per tick
    for (const v of [first, second]) {
      assert.equal(v.playButton.firstChild.className, "fa fa-pause");
    }
    second.playButton.onclick();  // pause from the other view
    assert.equal(model.get("playing"), false);
    assert.equal(timers.size, 0);
    assert.equal(first.playButton.firstChild.className, "fa fa-play");
  });

  test("a view alone starts no timer", () => {
    const model = play({ max: 9 });
    view(model).playButton.onclick();
    assert.equal(model.get("playing"), true);
    assert.equal(timers.size, 0);
    assert.equal(model.get("value"), 0);
  });

  test("stop pauses and goes back to min; repeat toggles", () => {
    const model = play({ min: 2, value: 5, max: 9, playing: true });
    const { stopButton, repeatButton } = view(model);
    stopButton.onclick();
    assert.equal(model.get("playing"), false);
    assert.equal(model.get("value"), 2);
    repeatButton.onclick();
    assert.equal(model.get("repeat"), true);
    assert.ok(repeatButton.classList.contains("mod-active"));
    repeatButton.onclick();
    assert.ok(!repeatButton.classList.contains("mod-active"));
  });

  test("the buttons follow disabled and show_repeat; the cleanup stops following", () => {
    const model = play();
    const { el, cleanup, playButton, stopButton, repeatButton } = view(model);
    assert.ok(el.classList.contains("widget-play") && el.classList.contains("jupyter-widgets"));
    assert.deepEqual(el.childNodes.map((b) => /** @type {any} */ (b).title),
                     ["play / pause", "stop", "repeat"]);
    assert.equal(playButton.firstChild.className, "fa fa-play");
    model.set("disabled", true);
    assert.ok([playButton, stopButton, repeatButton].every((b) => b.disabled === true));
    model.set("show_repeat", false);
    assert.equal(repeatButton.style.display, "none");
    cleanup();
    for (const name of ["playing", "disabled", "show_repeat", "repeat"]) {
      assert.deepEqual(model.handlers[`change:${name}`], []);
    }
  });
});
