"""Kuhn poker's equilibrium segment with runs landing on it, on a timeline."""

from __future__ import annotations

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go

from ..views.equilibrium import as_traces, kuhn_equilibrium_figure, update_kuhn_equilibrium
from ..views.style import fit_to_output
from .panel import Panel

#: At most this many timeline stops (log-spaced: the first iterations move fastest).
MAX_FRAMES = 200


class KuhnEquilibriumView(Panel):
    """:func:`~cfrviz.views.equilibrium.kuhn_equilibrium_figure` with a ``Play`` and slider.

    The timeline runs over the iterations the runs recorded; moving it moves
    every run's "now" marker and shortens or lengthens its path, in place.
    Nothing is re-solved.

    Parameters
    ----------
    trace_or_traces : Trace or list of Trace
        Runs on Kuhn poker.
    labels : list of str, optional
    **figure_options
        Passed to :func:`~cfrviz.views.equilibrium.kuhn_equilibrium_figure`
        (``height``, ``width``, ``font_size``).
    """

    def __init__(self, trace_or_traces, labels=None, **figure_options):
        super().__init__()
        self.traces = as_traces(trace_or_traces)
        self.figure = fit_to_output(go.FigureWidget(kuhn_equilibrium_figure(
            self.traces, labels, **figure_options)))
        recorded = np.unique(np.concatenate([t.iterations for t in self.traces]))
        self.frames = _frames(recorded, MAX_FRAMES)
        last = len(self.frames) - 1
        self.play = W.Play(value=last, min=0, max=last, step=1, interval=60,
                           description="play", show_repeat=False)
        self.slider = W.IntSlider(value=last, min=0, max=last, readout=False,
                                  description="iteration", layout=W.Layout(width="420px"))
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.label = W.HTML()
        self.slider.observe(self._on_frame, names="value")
        self.children = [W.HBox([self.play, self.slider, self.label]), self.output, self.figure]
        self._on_frame()

    @property
    def iteration(self) -> int:
        """The iteration the timeline is on."""
        return int(self.frames[self.slider.value])

    def show_iteration(self, iteration: int) -> None:
        """Move the timeline to the stop closest to ``iteration``."""
        frame = int(np.argmin(np.abs(self.frames - iteration)))
        self.play.value = frame
        self.slider.value = frame

    def _on_frame(self, _change=None) -> None:
        with self.reporting(f"Could not show iteration {self.iteration}"):
            update_kuhn_equilibrium(self.figure, self.traces, self.iteration)
            self.label.value = (f"iteration <b>{self.iteration:,}</b> of "
                                f"{int(self.frames[-1]):,}")


def _frames(iterations: np.ndarray, count: int) -> np.ndarray:
    """Up to ``count`` of the sorted ``iterations``, log-spaced, first and last kept."""
    if len(iterations) <= count:
        return iterations
    picks = np.unique(np.geomspace(1, len(iterations), count).astype(int) - 1)
    return iterations[np.unique(np.concatenate([picks, [0, len(iterations) - 1]]))]

