"""The base of every cfrviz widget: a ``VBox`` whose figures are complete when first shown,
with one output area where its errors appear.

A plotly ``FigureWidget`` sends later changes to the browser as messages, and
writes its full state into its synced traits only when it is itself displayed.
Inside a box it never is, so a view that connects *after* the changes — Voila
runs the whole notebook before the page connects — would see the figure as it
was first created (often empty).  Showing a :class:`Panel` first copies every
contained figure's current state into those traits.

An exception raised in a widget callback is logged by ipywidgets where a
student never looks, and the widget seems dead.  So every callback of a
:class:`Panel` reports its errors in the panel's own ``output`` area instead
(:meth:`Panel.reporting`), and the last message stays in ``last_error``
for tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from copy import deepcopy

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go

from ..core.checks import whole_number
from ..core.trace import Trace


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


def describe(error: Exception) -> str:
    """An error in words for a student: a ``ValueError``'s message as it is (cfrviz writes
    those for people), anything else with its type, which says more than its text alone."""
    return str(error) if isinstance(error, ValueError) else repr(error)


class Panel(W.VBox):
    """``VBox`` whose ``FigureWidget`` children are synced whenever it is displayed, and
    whose callbacks report errors in its ``output`` area instead of dying.

    Subclasses put ``self.output`` among their children where messages should
    appear.

    Attributes
    ----------
    output : ipywidgets.Output
        Where :meth:`report` writes.
    last_error : str or None
        The last message reported since :meth:`clear_report`.
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.output = W.Output(layout=W.Layout(min_height="0"))
        self.last_error: str | None = None

    def report(self, message: str, error: Exception | None = None) -> None:
        """Show ``message`` (followed by ``error`` in words, if given) in the output area."""
        if error is not None:
            message = f"{message}: {describe(error)}"
        self.last_error = message
        self.output.append_stdout(message + "\n")

    def clear_report(self) -> None:
        """Empty the output area (before a new action, so old messages do not linger)."""
        self.output.outputs = ()
        self.last_error = None

    @contextmanager
    def reporting(self, what: str) -> Iterator[None]:
        """Run a callback's body; any exception becomes ``"{what}: {error}"`` in the output area.

        Example::

            def _on_frame(self, change=None):
                with self.reporting("Could not show this frame"):
                    ...
        """
        try:
            yield
        except Exception as error:  # a callback must never leave a dead widget behind
            self.report(what, error)

    def _repr_mimebundle_(self, **kwargs):
        for fig in figure_widgets(self):
            sync_figure(fig)
        return super()._repr_mimebundle_(**kwargs)


class TimelinePanel(Panel):
    """A :class:`Panel` with a ``Play`` + slider timeline over ``self.frames`` of ``self.trace``.

    The contract with a subclass: its ``__init__`` creates ``self.play`` (a
    :class:`cfrviz.widgets.playback.Play`) and ``self.slider`` (an ``IntSlider``),
    linked in the browser, before the first :meth:`_reset_timeline`; and it
    overrides :meth:`_on_frame`, which redraws the frame ``self.slider.value``.

    Attributes
    ----------
    trace : Trace or None
        The run on screen; ``None`` until the first successful solve.
    frames : numpy.ndarray of int
        The records of ``trace`` the timeline steps through, one per slider position.
    """

    play: W.Play
    slider: W.IntSlider

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.trace: Trace | None = None
        self.frames: np.ndarray = np.arange(1)

    def _on_frame(self, change=None) -> None:
        """Redraw the frame ``self.slider.value`` (every subclass overrides this)."""
        raise NotImplementedError(f"{type(self).__name__} must define _on_frame, the redraw of "
                                  "one frame of its timeline")

    def show_iteration(self, iteration: int) -> None:
        """Move the timeline to the recorded frame closest to ``iteration``."""
        iteration = whole_number(iteration, "iteration")  # not a float, not a bool
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
