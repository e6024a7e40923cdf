"""plotly's widget base, imported without the 38 grammars no lesson's kernel uses.

``plotly.basewidget`` imports nbformat (only to check its version before a notebook renderer
shows a figure); nbformat imports jsonschema; and jsonschema's format checker, when
``rfc3987_syntax`` is installed (Jupyter's server needs it), builds that package's IRI
validators at import: 38 Lark grammars, most of a student's CPU seconds to lesson 04's first
result on a class hub (issue 31 item 8).  Nothing in a lesson's kernel checks an IRI's
format, so :func:`import_widget_base` imports plotly's widget base with ``rfc3987_syntax``
hidden for that one import: the kernel's jsonschema then has no "iri" format check (it passes
such values, as it does wherever the package is not installed), and a later
``import rfc3987_syntax`` works as usual.  Importing this module does it; ``cfrviz.widgets``
imports it first, before any :class:`~cfrviz.widgets.figure_widget.FigureWidget` is defined.
"""

from __future__ import annotations

import importlib
import sys

HIDDEN = "rfc3987_syntax"


def import_widget_base() -> None:
    """Import ``plotly.basewidget``, hiding :data:`HIDDEN` if jsonschema is not loaded yet."""
    if "jsonschema" in sys.modules or HIDDEN in sys.modules:
        importlib.import_module("plotly.basewidget")
        return
    sys.modules[HIDDEN] = None  # type: ignore[assignment]  # "not installed", for this import
    try:
        importlib.import_module("plotly.basewidget")
    finally:
        if sys.modules.get(HIDDEN, ...) is None:
            del sys.modules[HIDDEN]


import_widget_base()
