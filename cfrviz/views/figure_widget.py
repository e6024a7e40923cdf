"""plotly's ``FigureWidget`` with a front end that starts at once, however busy the machine.

Since plotly 6 a ``FigureWidget`` is an anywidget whose ES module is plotly's whole front end
(``widgetbundle.js``, about 5 MB: plotly.js and the widget), imported anew, from a new blob
URL, for every figure: each figure evaluates all of plotly.js again (2-4 s at a load average
of 14 on 2 cores, in Debian's chromium).  anywidget gives a model two seconds to start
(``initialize`` returned); a model that misses them drops every message the kernel sends it,
for good ("[anywidget] Failed to initialize model").  A widget that makes its figures empty
and fills them at once (most cfrviz widgets) then shows blank charts (issue 25 item 5;
tests/test_browser_load.py).

:class:`FigureWidget` sends plotly's bundle as data (the ``_plotly_esm`` trait) and a small
ES module (:data:`FRONT_END`) that starts in milliseconds.  It imports the bundle once per
page and shares it between figures.  Until the bundle is ready it records each message the
kernel sends: plotly's model reads a message when its change event fires, and the kernel
clears it right after.  Once the bundle is ready it gives plotly's own model and view the
recorded messages in order, and figures draw whatever the load.  It is a
``go.FigureWidget`` in every other respect.
"""

from __future__ import annotations

import functools
import hashlib
import json

import plotly.graph_objects as go
import traitlets
from plotly.basewidget import BaseFigureWidget

#: The kernel-to-page messages of plotly's widget (traits set, then cleared at once).
MESSAGES = sorted(n for n in BaseFigureWidget.class_trait_names() if n.startswith("_py2js_"))

#: The ES module anywidget imports for each figure.
FRONT_END = f"const MESSAGES = {json.dumps(MESSAGES)};\n" + """
const CACHE = Symbol.for("cfrviz.plotly-front-end");

/** plotly's front end, imported once per page per bundle (a failed import is forgotten). */
function plotlyFrontEnd(model) {
  const cache = (globalThis[CACHE] ??= new Map());
  const key = model.get("_plotly_esm_key");
  let shared = cache.get(key);
  if (!shared) {
    const url = URL.createObjectURL(
      new Blob([model.get("_plotly_esm")], { type: "text/javascript" }));
    shared = import(url).finally(() => URL.revokeObjectURL(url));
    cache.set(key, shared);
    shared.catch(() => { if (cache.get(key) === shared) cache.delete(key); });
  }
  return shared;
}

export default () => {
  /** @type {Promise<any>} plotly's widget for this model, initialised, once loaded */
  let loaded;
  return {
    initialize({ model }) {
      const queue = [];
      const recorders = MESSAGES.map((name) => [name, () => queue.push([name, model.get(name)])]);
      // A new full state (the kernel sets _widget_data/_widget_layout when a figure is shown)
      // already holds what the messages before it did, and plotly's model starts from it:
      // replaying those messages too would add their traces twice.
      for (const name of ["_widget_data", "_widget_layout"]) {
        recorders.push([name, () => { queue.length = 0; }]);
      }
      for (const [name, record] of recorders) model.on(`change:${name}`, record);
      loaded = plotlyFrontEnd(model).then((plotly) => {
        for (const [name, record] of recorders) model.off(`change:${name}`, record);
        const widget = typeof plotly.default === "function" ? plotly.default() : plotly.default;
        // plotly's model, given the messages recorded meanwhile as if they came now.
        let handlers = new Map();  // kept until the replay is over
        let replaying = null;
        widget.initialize({ model: {
          ...model,
          get: (name) => (replaying && replaying[0] === name ? replaying[1] : model.get(name)),
          on: (event, handler) => {
            model.on(event, handler);
            if (handlers) handlers.set(event, [...(handlers.get(event) || []), handler]);
          },
        } });
        for (const message of queue) {
          replaying = message;
          for (const handler of handlers.get(`change:${message[0]}`) || []) handler();
        }
        replaying = handlers = null;
        return widget;
      });
      loaded.catch((error) => console.error("cfrviz: plotly's front end did not load", error));
    },
    async render({ model, el, signal }) {
      const widget = await loaded;
      return widget.render({ model, el, signal });
    },
  };
};
"""


@functools.cache
def plotly_bundle() -> tuple[str, str]:
    """plotly's front end (the text of its ``widgetbundle.js``) and a key naming it."""
    source = str(BaseFigureWidget._esm)  # plotly's FileContents: the bundle's text
    return source, "plotly-" + hashlib.sha256(source.encode()).hexdigest()[:16]


class FigureWidget(go.FigureWidget):
    """``plotly.graph_objects.FigureWidget`` whose front end starts at once and draws whatever
    the load (see the module's docstring); same arguments and behaviour."""

    _esm = FRONT_END
    _plotly_esm = traitlets.Unicode().tag(sync=True)
    _plotly_esm_key = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_plotly_esm")
    def _default_plotly_esm(self) -> str:
        return plotly_bundle()[0]

    @traitlets.default("_plotly_esm_key")
    def _default_plotly_esm_key(self) -> str:
        return plotly_bundle()[1]
