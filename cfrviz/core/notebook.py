"""The keys of a saved notebook that say which widget outputs and widget state are cfrviz's.

A widget's output in a notebook is a pointer, ``{"model_id": ...}`` under :data:`WIDGET_VIEW`,
and the notebook's ``metadata.widgets`` may hold the models' state under :data:`WIDGET_STATE`
(when the student turned ipywidgets' "save widget state" on).  Neither says whose widget it is.
So when the kernel displays a widget that is or holds a cfrviz widget
(:func:`cfrviz.views.saved.marked_bundle`), it adds :data:`MARK` to the output's metadata,
listing the model ids of cfrviz's widgets in it; the pre-save hook
(:func:`cfrviz.jupyter_hooks.forget_widget_views`) removes those views and that state, and
nothing else.  A widget of another library's class that cfrviz itself shows (a solver's tqdm
bar) is displayed inside :func:`displayed_as_ours` and marked too.  This module imports only
the standard library: the hook runs in the Jupyter server.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: The key of an output's metadata that marks a widget view as cfrviz's:
#: ``{"cfrviz": {"models": [model ids of cfrviz's widgets in the output]}}``.
MARK = "cfrviz"

_SHOWN_BY_CFRVIZ: ContextVar[bool] = ContextVar("cfrviz_shown_by_cfrviz", default=False)


@contextmanager
def displayed_as_ours() -> Iterator[None]:
    """Every widget displayed inside this block is marked as cfrviz's, whatever its class: a
    tqdm bar a solver shows is tqdm's widget but cfrviz's output, and a save must replace it by
    the run-again notice like the rest (kept, it reopened as "model not found")."""
    token = _SHOWN_BY_CFRVIZ.set(True)
    try:
        yield
    finally:
        _SHOWN_BY_CFRVIZ.reset(token)


def shown_by_cfrviz() -> bool:
    """Whether a display now happens inside :func:`displayed_as_ours`."""
    return _SHOWN_BY_CFRVIZ.get()
