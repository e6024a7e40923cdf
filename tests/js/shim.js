// @ts-check
/**
 * A tiny DOM and plotly stand-in for the front ends' tests under Node (no npm packages): just
 * what cfrviz/widgets/*.js touch.  Elements keep attributes, children, a style object
 * and text; observers and plotly's event emitter are recorded so a test can fire them.
 */

export class Node_ {
  /** @param {string} tag */
  constructor(tag) {
    this.tagName = tag;
    /** @type {Record<string, string>} */
    this.attributes = {};
    /** @type {Node_[]} */
    this.childNodes = [];
    /** @type {Node_ | null} */
    this.parentNode = null;
    /** @type {Record<string, string>} */
    this.style = {};
    this._text = "";
    this.rect = { left: 0, top: 0, width: 0, height: 0 };
    const classes = () => new Set((this.attributes.class || "").split(" ").filter(Boolean));
    const write = (/** @type {Set<string>} */ set) => {
      this.attributes.class = [...set].join(" ");
    };
    this.classList = {
      add: (/** @type {string[]} */ ...names) => {
        const set = classes();
        for (const name of names) set.add(name);
        write(set);
      },
      remove: (/** @type {string} */ name) => {
        const set = classes();
        set.delete(name);
        write(set);
      },
      /** @param {string} name @param {boolean} [force] */
      toggle: (name, force) => {
        const set = classes();
        const on = force === undefined ? !set.has(name) : Boolean(force);
        if (on) set.add(name); else set.delete(name);
        write(set);
        return on;
      },
      contains: (/** @type {string} */ name) => classes().has(name),
    };
    /** how many times each attribute was written (the overlay writes only changes) */
    /** @type {Record<string, number>} */
    this.writes = {};
  }

  /** @param {string} name @param {any} value */
  setAttribute(name, value) {
    this.attributes[name] = String(value);
    this.writes[name] = (this.writes[name] || 0) + 1;
    mutated(this);
  }

  /** @param {string} name */
  getAttribute(name) {
    return name in this.attributes ? this.attributes[name] : null;
  }

  /** @param {Node_} child */
  appendChild(child) {
    if (child.parentNode) child.remove();
    child.parentNode = this;
    this.childNodes.push(child);
    mutated(this, true);
    return child;
  }

  remove() {
    const parent = this.parentNode;
    if (!parent) return;
    parent.childNodes.splice(parent.childNodes.indexOf(this), 1);
    this.parentNode = null;
    mutated(parent, true);
  }

  /** @param {Node_[]} children */
  replaceChildren(...children) {
    for (const child of [...this.childNodes]) child.remove();
    for (const child of children) this.appendChild(child);
  }

  get firstChild() { return this.childNodes[0] || null; }

  get lastChild() { return this.childNodes.at(-1) || null; }

  get textContent() { return this._text; }

  set textContent(text) { this._text = String(text); }

  /** @param {string} name */
  is(name) {
    return name.startsWith(".") ? this.classList.contains(name.slice(1)) : this.tagName === name;
  }

  /** @param {string} selector a class (".x") or a tag */
  closest(selector) {
    /** @type {Node_ | null} */
    let node = this;
    while (node && !node.is(selector)) node = node.parentNode;
    return node;
  }

  /** @param {string} selector a class (".x") or a tag @returns {Node_[]} */
  querySelectorAll(selector) {
    return this.childNodes.flatMap((c) => [...(c.is(selector) ? [c] : []),
                                           ...c.querySelectorAll(selector)]);
  }

  /** @param {string} selector */
  querySelector(selector) {
    return this.querySelectorAll(selector)[0] || null;
  }

  getBoundingClientRect() {
    return this.rect;
  }
}

/** @type {FakeMutationObserver[]} */
const mutationObservers = [];

/**
 * Report a change of `node` to the mutation observers watching it (childList ones only hear of
 * children added or removed), as a batch that `flush` delivers (the browser's microtask).
 * @param {Node_} node @param {boolean} [children]
 */
function mutated(node, children = false) {
  if (!children) return;
  for (const observer of mutationObservers) {
    for (const [target, options] of observer.targets) {
      let n = /** @type {Node_ | null} */ (node);
      while (n && n !== target && options.subtree) n = n.parentNode;
      if (n === target) observer.pending = true;
    }
  }
}

export class FakeMutationObserver {
  /** @param {() => void} callback */
  constructor(callback) {
    this.callback = callback;
    /** @type {[Node_, {childList?: boolean, subtree?: boolean}][]} */
    this.targets = [];
    this.pending = false;
    mutationObservers.push(this);
  }

  /** @param {Node_} target @param {{childList?: boolean, subtree?: boolean}} options */
  observe(target, options) { this.targets.push([target, options]); }

  disconnect() { this.targets = []; this.pending = false; }
}

/** Deliver the pending mutation records, as the browser does after a task. */
export function flushMutations() {
  for (let round = 0; round < 10; round++) {
    const ready = mutationObservers.filter((o) => o.pending);
    if (!ready.length) return;
    for (const observer of ready) {
      observer.pending = false;
      observer.callback();
    }
  }
  throw new Error("mutation observers keep mutating what they observe");
}

/** @type {FakeResizeObserver[]} */
export const resizeObservers = [];

export class FakeResizeObserver {
  /** @param {() => void} callback */
  constructor(callback) {
    this.callback = callback;
    /** @type {Node_[]} */
    this.targets = [];
    resizeObservers.push(this);
  }

  /** @param {Node_} target */
  observe(target) { this.targets.push(target); }

  disconnect() { this.targets = []; }
}

/** Install the shim as the globals the overlay uses; returns the document. */
export function installDom() {
  const document = {
    /** @param {string} _ns @param {string} tag */
    createElementNS: (_ns, tag) => new Node_(tag),
    /** @param {string} tag */
    createElement: (tag) => new Node_(tag),
  };
  Object.assign(globalThis, {
    document, MutationObserver: FakeMutationObserver, ResizeObserver: FakeResizeObserver,
  });
  mutationObservers.length = 0;
  resizeObservers.length = 0;
  return document;
}

/**
 * A linear plotly axis from pixel `offset` of the figure, `length` pixels long, showing data
 * values from `low` to `high` (the private fields overlay.js reads, as plotly.js fills them).
 * @param {number} offset @param {number} length @param {number} low @param {number} high
 * @param {boolean} [flip] pixels grow as values fall (a y axis)
 */
export function plotlyAxis(offset, length, low, high, flip = false) {
  return {
    _offset: offset, _length: length,
    c2p: (/** @type {number} */ v) => {
      const share = (v - low) / (high - low);
      return (flip ? 1 - share : share) * length;
    },
  };
}

/**
 * A drawn plotly figure element: class js-plotly-plot, a full layout with axes x (0..10 over
 * pixels 50..450) and y (0..1 over pixels 20..320, upwards), `data`, and plotly's emitter
 * (`on`, `removeListener`, `emit`); `replot()` does what Plotly.newPlot does to the emitter.
 */
export function plotlyFigure() {
  const gd = /** @type {any} */ (new Node_("div"));
  gd.classList.add("js-plotly-plot");
  gd._fullLayout = { xaxis: plotlyAxis(50, 400, 0, 10), yaxis: plotlyAxis(20, 300, 0, 1, true) };
  gd.data = [{}, {}];
  gd.rect = { left: 10, top: 5, width: 500, height: 350 };
  gd.replot = () => {
    /** @type {Record<string, Function[]>} */
    const listeners = {};
    gd.listeners = listeners;
    gd.on = (/** @type {string} */ event, /** @type {Function} */ f) => {
      (listeners[event] ||= []).push(f);
    };
    gd.removeListener = (/** @type {string} */ event, /** @type {Function} */ f) => {
      listeners[event] = (listeners[event] || []).filter((g) => g !== f);
    };
    gd.emit = (/** @type {string} */ event) => (listeners[event] || []).forEach((f) => f());
    gd.appendChild(new Node_("div"));  // plotly's .plot-container, made anew
  };
  gd.replot();
  return gd;
}

/**
 * An anywidget model: `get`, `on`, `off`, `set` (a name and a value, or an object of them)
 * that fires change:<name> for each value changed, and `save_changes` (counted in `saves`).
 */
export function fakeModel(/** @type {Record<string, any>} */ values) {
  /** @type {Record<string, Function[]>} */
  const handlers = {};
  return {
    handlers,
    saves: 0,
    get: (/** @type {string} */ name) => values[name],
    on: (/** @type {string} */ event, /** @type {Function} */ f) => {
      (handlers[event] ||= []).push(f);
    },
    off: (/** @type {string} */ event, /** @type {Function} */ f) => {
      handlers[event] = (handlers[event] || []).filter((g) => g !== f);
    },
    /** @param {string | Record<string, any>} name @param {any} [value] */
    set(name, value) {
      const changes = typeof name === "string" ? { [name]: value } : name;
      Object.assign(values, changes);
      for (const key of Object.keys(changes)) {
        [...(handlers[`change:${key}`] || [])].forEach((f) => f());
      }
    },
    save_changes() { this.saves += 1; },
  };
}
