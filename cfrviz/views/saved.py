"""Widget outputs that say they are cfrviz's, so that a save removes only those.

A notebook saved with a widget's output holds only a pointer to the widget's model, which
lives in the kernel; JupyterLab's pre-save hook (:mod:`cfrviz.jupyter_hooks`) replaces cfrviz's
by a sentence telling the student to run the cell again.  It must leave every other widget
alone (a student's slider, an ipympl figure with its PNG, an Output widget's text), but the
pointer does not say whose widget it is.  The kernel knows: :func:`marked_bundle` is the
display of every ipywidgets widget once cfrviz is imported (:func:`mark_widget_outputs`, an
IPython display formatter), ipywidgets' own output plus, when the widget is or holds a cfrviz
widget, :data:`cfrviz.core.notebook.MARK` in the output's metadata listing the model ids of
cfrviz's widgets in it (:func:`our_models`).  Any other widget's output is exactly ipywidgets'.
"""

from __future__ import annotations

from typing import Any

from ..core.notebook import MARK, WIDGET_VIEW, shown_by_cfrviz


def is_ours(widget: Any) -> bool:
    """Whether ``widget``'s class is cfrviz's (a Panel, a FigureWidget, the overlay, a Play)."""
    return type(widget).__module__.split(".")[0] == "cfrviz"


def _held(widget: Any) -> list:
    """The widgets ``widget`` refers to through its synced traits (children, layout, ...)."""
    from ipywidgets import Widget

    found = []
    for name in getattr(widget, "keys", ()):
        value = getattr(widget, name, None)
        values = (value.values() if isinstance(value, dict) else
                  value if isinstance(value, list | tuple) else (value,))
        found += [v for v in values if isinstance(v, Widget)]
    return found


def our_models(widget: Any) -> list[str]:
    """The model ids of the cfrviz widgets in ``widget`` (itself included) and of everything
    they hold (children, layouts, styles), in the order met; a widget of another's that only
    holds cfrviz's is not listed itself."""
    ours: dict[str, None] = {}
    seen: dict[int, bool] = {}
    stack = [(widget, shown_by_cfrviz())]  # displayed by cfrviz itself: all of it is ours
    while stack:
        w, inside = stack.pop()
        mine = inside or is_ours(w)
        if seen.get(id(w)) in (True, mine):  # met already, as ours or as we meet it now
            continue
        seen[id(w)] = mine
        if mine and getattr(w, "model_id", None):
            ours[w.model_id] = None
        stack += [(held, mine) for held in reversed(_held(w))]
    return list(ours)


def marked_bundle(widget: Any) -> Any:
    """``widget``'s display (its ``_repr_mimebundle_``), with :data:`MARK` in the metadata
    when it shows a cfrviz widget; unchanged otherwise."""
    bundle = widget._repr_mimebundle_()
    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
    if not isinstance(data, dict) or WIDGET_VIEW not in data:
        return bundle
    models = our_models(widget)
    if not models:
        return bundle
    return data, {**(metadata or {}), MARK: {"models": models}}


def mark_widget_outputs() -> None:
    """Make :func:`marked_bundle` the display of every ipywidgets widget in the running
    IPython kernel (nothing outside one); calling it again changes nothing."""
    try:
        from IPython import get_ipython
        from ipywidgets import Widget
    except ImportError:  # pragma: no cover (both are cfrviz dependencies)
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.mimebundle_formatter.for_type(Widget, marked_bundle)
