"""A ``Play`` button that keeps playing when it is shown more than once (issue 19).

ipywidgets 8's ``Play`` runs its timer from each *view*: every view listens for a change of
``playing`` and starts or pauses the model's timer, deciding which from Backbone's
``previous("playing")``.  ipywidgets' own ``set`` (its ``backbone-patch``) resets
``_changing`` in a ``finally`` even when the ``set`` was nested, so the first view's step (a
nested ``set`` of ``value`` and a save) makes the second view read ``previous("playing")`` as
``true`` and call ``pause()``: with two views of one ``Play`` (a second display in a lesson,
JupyterLab's "New View for Output") pressing Play moves one step and stops.

This :class:`Play` is the same widget in the kernel (a subclass of ``ipywidgets.Play``: the
same traits, ``jslink`` to a slider as before), drawn by a small anywidget front end whose
timer belongs to the *model*, started once in ``initialize`` and driven by ``playing`` alone;
each view only draws the buttons and sets ``playing``.  Any number of views play together.
Like every anywidget of cfrviz it works however late its front end starts
(:mod:`cfrviz.views.late_start`).
"""

from __future__ import annotations

import anywidget
import ipywidgets as W

from ..views.late_start import StartsLate

#: One timer per model (``initialize``), any number of views (``render``).  A step does what
#: ipywidgets' ``PlayModel.loop`` does: ``value + step`` while it is at most ``max``, then
#: ``min`` again if ``repeat``, else stop.  Starting at ``max`` starts over from ``min``.
_ESM = r"""
function initialize({ model }) {
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

function render({ model, el }) {
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
    play.firstChild.className = model.get("playing") ? "fa fa-pause" : "fa fa-play";
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
"""


class Play(StartsLate, anywidget.AnyWidget, W.Play):
    """``ipywidgets.Play`` with a front end that plays however many times it is displayed.

    The same traits and defaults as ``ipywidgets.Play`` (``value``, ``min``, ``max``,
    ``step``, ``interval``, ``playing``, ``repeat``, ``show_repeat``, ``disabled``); link its
    ``value`` to a slider with ``ipywidgets.jslink`` as usual.  See the module's docstring for
    what goes wrong with ipywidgets' own when a second view exists.
    """

    _esm = _ESM
