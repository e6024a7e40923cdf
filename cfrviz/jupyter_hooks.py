"""What JupyterLab does with a lesson when it saves it (``make lab`` installs this hook).

A widget lives in the kernel: the notebook file holds only a pointer to it (a
``widget-view`` output naming a model id).  A lesson saved, closed and opened the next day
has a new kernel without those models, and JupyterLab shows "Error displaying widget: model
not found" in every widget's place (issue 19).  Saving the widgets' state with the notebook
(ipywidgets' ``saveState``) shows them again, but frozen, multiplies a lesson's file size, and
anywidget gives up on a restored model that takes longer than two seconds to start in a busy
page, with an error in the console.

So before a notebook is written, :func:`forget_widget_views` removes cfrviz's widget views and
puts a plain sentence telling the student to run the cell again where an output had nothing
else; the notebook open in the browser keeps its live widgets (only the file changes).
``jupyter/jupyter_lab_config.json`` names it as the contents manager's ``pre_save_hook``.  The
sentence is saved as Markdown too: JupyterLab shows plain-text outputs with ``word-break:
break-all``, which split its words at the line's end.

It removes only what is cfrviz's, which the kernel marked when it displayed the widget
(:mod:`cfrviz.views.saved`): every other widget's view and state, and every other format of an
output (an ipympl figure's PNG beside its view, an object's HTML), are saved as they are.

``make present`` runs :func:`set_xsrf_cookie` in Voila before each dashboard's kernel starts
(``jupyter/voila.py``).
"""

from __future__ import annotations

from typing import Any

from .core.notebook import MARK, WIDGET_STATE, WIDGET_VIEW

__all__ = ["MARK", "NOTICE", "WIDGET_STATE", "WIDGET_VIEW", "forget_widget_views",
           "set_xsrf_cookie"]

#: What a widget's place says in a saved notebook.
NOTICE = ("[A live widget was here: widgets are not saved with the notebook. Run this cell "
          "again (or Run > Run All Cells) to bring it back.]")


def forget_widget_views(model: dict[str, Any], **_: Any) -> None:
    """Remove cfrviz's widgets from a notebook ``model`` about to be saved, in place.

    An output marked as cfrviz's (:data:`MARK` in its metadata) loses its widget view, the
    ``text/plain`` that names the widget and the mark; what else it holds is kept, and where
    nothing is left it says :data:`NOTICE`.  The state of the models the marks list is taken
    out of ``metadata.widgets``, except of a model that a kept widget view shows or holds.
    Every other output and every other widget's state is saved unchanged.

    Called by jupyter_server as ``pre_save_hook(model=..., path=..., contents_manager=...)``
    on every save; anything that is not a notebook passes unchanged.
    """
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    notebook = model["content"]
    ours: set[str] = set()
    kept: list[str] = []
    for cell in notebook.get("cells", ()):
        for output in cell.get("outputs", ()) or ():
            data, metadata = output.get("data"), output.get("metadata")
            if not isinstance(data, dict) or not isinstance(data.get(WIDGET_VIEW), dict):
                continue
            mark = metadata.pop(MARK, None) if isinstance(metadata, dict) else None
            if not isinstance(mark, dict):
                kept.append(str(data[WIDGET_VIEW].get("model_id")))
                continue
            ours.update(m for m in mark.get("models", ()) if isinstance(m, str))
            for key in (WIDGET_VIEW, "text/plain"):
                data.pop(key, None)
                metadata.pop(key, None)
            if not data:
                data.update({"text/markdown": NOTICE, "text/plain": NOTICE})
    _forget_state(notebook, ours, kept)


def _forget_state(notebook: dict, ours: set[str], kept: list[str]) -> None:
    """Take the state of the models ``ours`` out of ``metadata.widgets``, except of those the
    models ``kept`` refer to (through ``IPY_MODEL_<id>`` references, as far as they go), and
    then of every other model that is not needed either and refers to one taken out: a saved
    container whose child is gone makes JupyterLab's widget manager fail on opening ("widget
    model not found" in the console), as lesson 14's did in the browser."""
    widgets = notebook.get("metadata", {}).get("widgets")
    saved = widgets.get(WIDGET_STATE) if isinstance(widgets, dict) else None
    states = saved.get("state") if isinstance(saved, dict) else None
    if not isinstance(states, dict) or not ours:
        return
    needed, stack = set(), list(kept)
    while stack:
        model_id = stack.pop()
        if model_id not in needed:
            needed.add(model_id)
            stack += _references(states.get(model_id))
    gone = {model_id for model_id in ours - needed if states.pop(model_id, None) is not None}
    while gone:
        gone = {model_id for model_id, state in list(states.items())
                if model_id not in needed and gone.intersection(_references(state))}
        for model_id in gone:
            del states[model_id]
    if not states:
        del widgets[WIDGET_STATE]
        if not widgets:
            del notebook["metadata"]["widgets"]


def _references(value: Any) -> list[str]:
    """The model ids ``value`` (a model's saved state) refers to: as ``IPY_MODEL_<id>``, or as
    a widget view's ``model_id`` in an Output widget's saved outputs."""
    if isinstance(value, str):
        return [value[len("IPY_MODEL_"):]] if value.startswith("IPY_MODEL_") else []
    if isinstance(value, dict):
        view = value.get(WIDGET_VIEW)
        shown = [str(view["model_id"])] if isinstance(view, dict) and "model_id" in view else []
        return shown + [found for item in value.values() for found in _references(item)]
    items = value if isinstance(value, list) else ()
    return [found for item in items for found in _references(item)]


def set_xsrf_cookie(handler: Any, **_: Any) -> None:
    """Voila's ``prelaunch_hook``: give the dashboard's page its ``_xsrf`` cookie.

    When a dashboard's page goes (closed, reloaded, left), Voila's front end asks the server to
    shut its kernel down, in a POST that carries the ``_xsrf`` cookie's value.  Voila 0.5 never
    sets that cookie (its page is not rendered through jupyter_server's templates, which do), so
    the POST is refused ("'_xsrf' argument missing from POST", voila-dashboards/voila#1458) and
    every page load leaves a kernel behind.  Reading tornado's ``xsrf_token`` sets the cookie,
    before the page's first byte is sent; the check itself stays on.  Called by Voila as
    ``prelaunch_hook(handler, notebook=..., cwd=...)``; returns None (the notebook unchanged).
    """
    _ = handler.xsrf_token
