// @ts-check
/**
 * The front end of cfrviz's FigureWidget (an anywidget ES module; see figure_widget.py).
 *
 * It starts in milliseconds, whatever the load: plotly's own front end (its 5 MB bundle) is a
 * model of its own that every figure refers to, imported once per page.  Until it is ready,
 * each figure records the messages the kernel sends it (plotly's model reads a message when
 * its change event fires, and the kernel clears it right after); once it is ready, plotly's
 * own model and view get the recorded messages in order, as if they came now.
 * Tests: tests/js/figure_widget.test.js.
 */

/** Where the page keeps plotly's front end, once per bundle (shared by every figure). */
export const CACHE = Symbol.for("cfrviz.plotly-front-end");

/**
 * The text of plotly's front end: the bundle model the figure refers to ("IPY_MODEL_<id>";
 * after a page reload it may be restored after the figure, so it is asked for again).
 * @param {any} model @param {number} [patience] milliseconds before giving up
 */
export async function bundleSource(model, patience = 600_000) {
  const id = String(model.get("_plotly_bundle") || "").replace(/^IPY_MODEL_/, "");
  const start = performance.now();
  for (let pause = 50; ; pause = Math.min(2 * pause, 1000)) {
    try {
      return (await model.widget_manager.get_model(id)).get("source");
    } catch (error) {
      if (performance.now() - start > patience) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * plotly's front end, imported once per page per bundle (a failed import is forgotten).
 * @param {any} model @returns {Promise<any>}
 */
export function plotlyFrontEnd(model) {
  const cache = (/** @type {any} */ (globalThis)[CACHE] ??= new Map());
  const key = model.get("_plotly_esm_key");
  let shared = cache.get(key);
  if (!shared) {
    shared = bundleSource(model).then((source) => {
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      return import(url).finally(() => URL.revokeObjectURL(url));
    });
    cache.set(key, shared);
    shared.catch(() => { if (cache.get(key) === shared) cache.delete(key); });
  }
  return shared;
}

export default () => {
  /** @type {Promise<any>} plotly's widget for this model, initialised, once loaded */
  let loaded;
  return {
    /** @param {{model: any, synced: any}} context */
    initialize({ model, synced }) {
      /** @type {[string, any][]} */
      const queue = [];
      // The kernel-to-page messages of plotly's widget (figure_widget.py's MESSAGES).
      /** @type {string[]} */
      const messages = model.get("_plotly_messages") || [];
      /** @type {[string, () => void][]} */
      const recorders = messages.map((name) => [name, () => {
        queue.push([name, model.get(name)]);
      }]);
      // A new full state (the kernel sets _widget_data/_widget_layout when a figure is shown)
      // already holds what the messages before it did, and plotly's model starts from it:
      // replaying those messages too would add their traces twice.
      for (const name of ["_widget_data", "_widget_layout"]) {
        recorders.push([name, () => { queue.length = 0; }]);
      }
      for (const [name, record] of recorders) model.on(`change:${name}`, record);
      // A front end that started late gets the whole figure again: it holds every message
      // recorded before it (synced resolves true as it arrives, before any later message).
      Promise.resolve(synced).then((resent) => { if (resent) queue.length = 0; });
      loaded = Promise.all([plotlyFrontEnd(model), synced]).then(([plotly]) => {
        for (const [name, record] of recorders) model.off(`change:${name}`, record);
        const widget = typeof plotly.default === "function" ? plotly.default() : plotly.default;
        // plotly's model, given the messages recorded meanwhile as if they came now.
        /** @type {Map<string, Function[]> | null} kept until the replay is over */
        let handlers = new Map();
        /** @type {[string, any] | null} */
        let replaying = null;
        widget.initialize({ model: {
          ...model,
          get: (/** @type {string} */ name) => (
            replaying && replaying[0] === name ? replaying[1] : model.get(name)),
          on: (/** @type {string} */ event, /** @type {Function} */ handler) => {
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
    /** @param {{model: any, el: any, signal: any}} context */
    async render({ model, el, signal }) {
      const widget = await loaded;
      return widget.render({ model, el, signal });
    },
  };
};
