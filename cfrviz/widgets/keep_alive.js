// ---- cfrviz: work however late the front end starts (cfrviz/widgets/late_start.py) --------
// late_start.es_module puts this file, its exports made plain declarations, at the end of every
// anywidget module of cfrviz and exports cfrvizKeepAlive(the module's widget) as its default.
// Tests: tests/js/late_start.test.js.
export const CFRVIZ_KEY = "cfrviz";

/** The Backbone model behind anywidget's model proxy: a change event hands it over. */
export function cfrvizBackboneModel(model) {
  const probe = "_cfrviz_probe";
  let found = null;
  const grab = (backbone) => { found = backbone; };
  model.on(`change:${probe}`, grab);
  try {
    model.set(probe, {});
  } finally {
    model.off(`change:${probe}`, grab);
  }
  if (found) {  // the probe is not state: nothing may send it to the kernel
    for (const table of [found.attributes, found.changed, found._buffered_state_diff]) {
      if (table) delete table[probe];
    }
  }
  return found;
}

/** ipywidgets' own handler of kernel messages: the one past the model class's override
 * (anywidget's, which waits for its model to have started in time). */
export function cfrvizBaseHandler(backbone) {
  let owner = Object.getPrototypeOf(backbone);
  while (owner && !Object.prototype.hasOwnProperty.call(owner, "_handle_comm_msg")) {
    owner = Object.getPrototypeOf(owner);
  }
  const parent = owner && Object.getPrototypeOf(owner);
  return parent && typeof parent._handle_comm_msg === "function" ? parent._handle_comm_msg : null;
}

/** Resolved once the model holds the kernel's state: at once (with undefined) if anywidget
 * passes messages on, else (with true) as the kernel's answer arrives, after the whole state
 * it has sent again and before any later message. */
export function cfrvizSynced(model) {
  const backbone = cfrvizBackboneModel(model);
  if (!backbone || typeof backbone._handle_comm_msg !== "function") return Promise.resolve();
  let passes;
  try {  // a message that does nothing, through the model's own handler
    passes = Promise.resolve(backbone._handle_comm_msg(
      { content: { data: { method: "cfrviz-probe" } }, buffers: [] }));
  } catch (error) {
    passes = Promise.reject(error);
  }
  return passes.then(() => undefined, () => cfrvizReopen(model, backbone));
}

/** Give the model's messages to ipywidgets' handler from now on; ask for the state again. */
export function cfrvizReopen(model, backbone) {
  const handler = cfrvizBaseHandler(backbone);
  const comm = backbone.comm;
  if (!handler || !comm || typeof comm.on_msg !== "function") return undefined;
  const resynced = new Promise((resolve) => {
    const answered = (content) => {
      if (content && content[CFRVIZ_KEY] === "resynced") {
        model.off("msg:custom", answered);
        resolve(true);
      }
    };
    model.on("msg:custom", answered);
  });
  comm.on_msg((message) => handler.call(backbone, message));
  model.send({ [CFRVIZ_KEY]: "resync" });
  console.info("cfrviz: a widget's front end started after anywidget's two seconds; "
               + "its state is asked from the kernel again");
  return resynced;
}

/** A view drawn before its late model's state came back: give its element the classes the
 * kernel set meanwhile (ipywidgets applies `_dom_classes` as it makes a view, and anywidget
 * takes the view's own listener off before it renders). */
export function cfrvizFollowClasses(model, el, synced) {
  const before = [...(model.get("_dom_classes") || [])];
  synced.then((resent) => {
    if (!resent || !el || !el.classList) return;
    const after = model.get("_dom_classes") || [];
    for (const name of before) if (!after.includes(name)) el.classList.remove(name);
    for (const name of after) el.classList.add(name);
  });
}

/** `widget` (an anywidget widget, or a function making one) whose initialize gets `synced`. */
export function cfrvizKeepAlive(widget) {
  return () => {
    const made = typeof widget === "function" ? widget() : widget;
    let synced = Promise.resolve();
    const wrapped = {
      initialize(context) {
        synced = cfrvizSynced(context.model);
        return made.initialize ? made.initialize({ ...context, synced }) : undefined;
      },
    };
    if (made.render) {
      wrapped.render = (context) => {
        cfrvizFollowClasses(context.model, context.el, synced);
        return made.render(context);
      };
    }
    return wrapped;
  };
}
