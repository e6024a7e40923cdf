"""What JupyterLab does with a lesson when it saves it (``make lab`` installs this hook).

A widget lives in the kernel: the notebook file holds only a pointer to it (a
``widget-view`` output naming a model id).  A lesson saved, closed and opened the next day
has a new kernel without those models, and JupyterLab shows "Error displaying widget: model
not found" in every widget's place (issue 19).  Saving the widgets' state with the notebook
(ipywidgets' ``saveState``) shows them again, but frozen, multiplies a lesson's file size, and
anywidget gives up on a restored model that takes longer than two seconds to start in a busy
page, with an error in the console.

So before a notebook is written, :func:`forget_widget_views` replaces each widget output with
a plain sentence telling the student to run the cell again; the notebook open in the browser
keeps its live widgets (only the file changes).  ``jupyter/jupyter_lab_config.json`` names it
as the contents manager's ``pre_save_hook``.  The sentence is saved as Markdown too: JupyterLab
shows plain-text outputs with ``word-break: break-all``, which split its words at the line's end.

``make present`` runs :func:`set_xsrf_cookie` in Voila before each dashboard's kernel starts
(``jupyter/voila.py``).
"""

from __future__ import annotations

from typing import Any

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: What a widget's place says in a saved notebook.
NOTICE = ("[A live widget was here: widgets are not saved with the notebook. Run this cell "
          "again (or Run > Run All Cells) to bring it back.]")


def forget_widget_views(model: dict[str, Any], **_: Any) -> None:
    """Replace every widget output of a notebook ``model`` by :data:`NOTICE`, in place.

    Called by jupyter_server as ``pre_save_hook(model=..., path=..., contents_manager=...)``
    on every save; anything that is not a notebook passes unchanged, and so does every
    output that is not a widget (text, images, plotly figures shown with ``fig.show()``).
    """
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    notebook = model["content"]
    for cell in notebook.get("cells", ()):
        for output in cell.get("outputs", ()) or ():
            data = output.get("data")
            if isinstance(data, dict) and WIDGET_VIEW in data:
                output["data"] = {"text/markdown": NOTICE, "text/plain": NOTICE}
    widgets = notebook.get("metadata", {}).get("widgets")
    if isinstance(widgets, dict):
        widgets.pop(WIDGET_STATE, None)
        if not widgets:
            del notebook["metadata"]["widgets"]


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
