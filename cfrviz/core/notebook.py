"""The keys of a saved notebook that say which widget outputs and widget state are cfrviz's.

A widget's output in a notebook is a pointer, ``{"model_id": ...}`` under :data:`WIDGET_VIEW`,
and the notebook's ``metadata.widgets`` may hold the models' state under :data:`WIDGET_STATE`
(when the student turned ipywidgets' "save widget state" on).  Neither says whose widget it is.
So when the kernel displays a widget that is or holds a cfrviz widget
(:func:`cfrviz.views.saved.marked_bundle`), it adds :data:`MARK` to the output's metadata,
listing the model ids of cfrviz's widgets in it; the pre-save hook
(:func:`cfrviz.jupyter_hooks.forget_widget_views`) removes those views and that state, and
nothing else.  This module imports nothing: the hook runs in the Jupyter server.
"""

from __future__ import annotations

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: The key of an output's metadata that marks a widget view as cfrviz's:
#: ``{"cfrviz": {"models": [model ids of cfrviz's widgets in the output]}}``.
MARK = "cfrviz"
