// @ts-check
/**
 * The front end of cfrviz.widgets.playback.Play (an anywidget ES module).
 *
 * One timer per model (`initialize`), any number of views (`render`): a view only draws the
 * buttons and sets `playing`, so every view of one Play plays together.  A step does what
 * ipywidgets' `PlayModel.loop` does: `value + step` while it is at most `max`, then `min`
 * again if `repeat`, else stop.  Starting at `max` starts over from `min`.
 * Tests: tests/js/playback.test.js.
 */

/**
 * Start the model's timer whenever `playing` turns true; returns the cleanup.
 * @param {{model: any}} context
 */
export function initialize({ model }) {
  /** @type {any} */
  let timer = null;
  const stop = () => { if (timer !== null) clearTimeout(timer); timer = null; };
  const schedule = () => { timer = setTimeout(step, model.get("interval")); };
  function step() {
    timer = null;
    if (!model.get("playing")) return;
    const next = model.get("value") + model.get("step");
    if (next <= model.get("max")) {
      model.set("value", next);
      schedule();
    } else if (model.get("repeat")) {
      model.set("value", model.get("min"));
      schedule();
    } else {
      model.set("playing", false);
    }
    model.save_changes();
  }
  function onPlaying() {
    if (!model.get("playing")) { stop(); return; }
    if (timer !== null) return;
    if (model.get("value") >= model.get("max")) {
      model.set("value", model.get("min"));
      model.save_changes();
      schedule();
    } else {
      step();
    }
  }
  model.on("change:playing", onPlaying);
  if (model.get("playing")) onPlaying();
  return () => { stop(); model.off("change:playing", onPlaying); };
}

/** @param {any} el @param {string} icon @param {string} title */
function button(el, icon, title) {
  const b = document.createElement("button");
  b.className = "jupyter-button";
  b.title = title;
  const i = document.createElement("i");
  i.className = `fa fa-${icon}`;
  b.appendChild(i);
  el.appendChild(b);
  return b;
}

/**
 * Draw the buttons (play / pause, stop, repeat) of one view; returns the cleanup.
 * @param {{model: any, el: any}} context
 */
export function render({ model, el }) {
  el.classList.add("jupyter-widgets", "widget-inline-hbox", "widget-play");
  const play = button(el, "play", "play / pause");
  const stop = button(el, "stop", "stop");
  const repeat = button(el, "retweet", "repeat");
  play.onclick = () => { model.set("playing", !model.get("playing")); model.save_changes(); };
  stop.onclick = () => {
    model.set({ playing: false, value: model.get("min") });
    model.save_changes();
  };
  repeat.onclick = () => { model.set("repeat", !model.get("repeat")); model.save_changes(); };
  const update = () => {
    /** @type {any} */ (play.firstChild).className =
      model.get("playing") ? "fa fa-pause" : "fa fa-play";
    const disabled = model.get("disabled");
    for (const b of [play, stop, repeat]) b.disabled = disabled;
    repeat.style.display = model.get("show_repeat") ? "" : "none";
    repeat.classList.toggle("mod-active", model.get("repeat"));
  };
  for (const name of ["playing", "disabled", "show_repeat", "repeat"])
    model.on(`change:${name}`, update);
  update();
  return () => {
    for (const name of ["playing", "disabled", "show_repeat", "repeat"])
      model.off(`change:${name}`, update);
  };
}

export default { initialize, render };
