"""The base of every cfrviz widget: a ``VBox`` whose figures are complete when first shown.

A plotly ``FigureWidget`` sends later changes to the browser as messages, and
writes its full state into its synced traits only when it is itself displayed.
Inside a box it never is, so a view that connects *after* the changes — Voila
runs the whole notebook before the page connects — would see the figure as it
was first created (often empty).  Showing a :class:`Panel` first copies every
contained figure's current state into those traits.
"""

from __future__ import annotations

from copy import deepcopy

import ipywidgets as W
import plotly.graph_objects as go


def figure_widgets(widget) -> list[go.FigureWidget]:
    """Every ``FigureWidget`` inside ``widget`` (depth first)."""
    found, stack = [], [widget]
    while stack:
        w = stack.pop()
        if isinstance(w, go.FigureWidget):
            found.append(w)
        stack.extend(reversed(getattr(w, "children", ()) or ()))
    return found


def sync_figure(fig: go.FigureWidget) -> None:
    """Write the figure's current data and layout into the traits a new view reads."""
    # The same two assignments plotly's FigureWidget makes when it is displayed on its own.
    fig._widget_layout = deepcopy(fig._layout_obj._props)
    fig._widget_data = deepcopy(fig._data)


class Panel(W.VBox):
    """``VBox`` whose ``FigureWidget`` children are synced whenever it is displayed."""

    def _repr_mimebundle_(self, **kwargs):
        for fig in figure_widgets(self):
            sync_figure(fig)
        return super()._repr_mimebundle_(**kwargs)
