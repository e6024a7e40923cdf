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
import numpy as np
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


class TimelinePanel(Panel):
    """A :class:`Panel` with a ``Play`` + slider timeline over ``self.frames`` of ``self.trace``.

    Subclasses create ``self.play`` and ``self.slider`` (linked in the browser)
    and redraw in ``_on_frame``.
    """

    trace = None
    frames = None

    def show_iteration(self, iteration: int) -> None:
        """Move the timeline to the recorded frame closest to ``iteration``."""
        if self.trace is None:
            return
        its = self.trace.iterations[self.frames]
        self._go_to(int(np.argmin(np.abs(its - iteration))))

    def _reset_timeline(self) -> None:
        """After a new trace: let the timeline span its frames and show the last one."""
        last = len(self.frames) - 1
        self.play.max = last
        self.slider.max = last
        if self.slider.value == last:
            self.play.value = last
            self._on_frame()
        else:
            self._go_to(last)

    def _go_to(self, frame: int) -> None:
        # Play as well as the slider: the browser's jslink copies Play onto the slider when
        # the widget is drawn, so the two must agree in the kernel too.
        self.play.value = frame
        self.slider.value = frame
