"""Kuhn poker's equilibrium segment with runs landing on it, on a timeline."""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from ..core.checks import whole_number
from ..views.equilibrium import (
    MAX_PATH_POINTS,
    SEGMENT_TRACES,
    TRACES_PER_RUN,
    as_traces,
    kuhn_equilibrium_figure,
    kuhn_strategy_path,
    nearest_alpha,
    now_text,
    record_at,
    run_label,
)
from ..views.matrix import display_frames
from ..views.style import fit_to_output
from .figure_widget import FigureWidget
from .overlay import NowMarks, overlaid, path
from .panel import Panel
from .playback import Play

#: At most this many timeline stops (log-spaced: the first iterations move fastest).
MAX_FRAMES = 200


class KuhnEquilibriumView(Panel):
    """:func:`~cfrviz.views.equilibrium.kuhn_equilibrium_figure` with a ``Play`` and slider.

    The timeline runs over the iterations the runs recorded; moving it moves
    every run's "now" marker and shortens or lengthens its path.  Nothing is
    re-solved, and the plotly figure is drawn once: the paths and markers are
    drawn over it (:mod:`cfrviz.widgets.overlay`), so a frame sends two
    numbers per mark and plotly redraws nothing.

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
        self.figure = fit_to_output(FigureWidget(kuhn_equilibrium_figure(
            self.traces, labels, now_marks=False, **figure_options)))
        recorded = np.unique(np.concatenate([t.iterations for t in self.traces]))
        self.frames = _frames(recorded, MAX_FRAMES)
        names = [run_label(t) for t in self.traces] if labels is None else list(labels)
        marks: dict[str, dict] = {}
        for k, trace in enumerate(self.traces):
            marks |= _run_marks(self.figure, trace, k, names[k], self.frames,
                                SEGMENT_TRACES + TRACES_PER_RUN * k)
        #: Per run, per timeline stop: where its path's points end (see _stops).
        self._stops = [_stops(trace, self.frames) for trace in self.traces]
        self.marks = NowMarks(marks)
        last = len(self.frames) - 1
        self.play = Play(value=last, min=0, max=last, step=1, interval=60,
                         description="play", show_repeat=False)
        self.slider = W.IntSlider(value=last, min=0, max=last, readout=False,
                                  description="iteration", layout=W.Layout(width="420px"))
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.label = W.HTML()
        self.slider.observe(self._on_frame, names="value")
        self.children = [W.HBox([self.play, self.slider, self.label]), self.output,
                         overlaid(self.figure, self.marks)]
        self._on_frame()

    @property
    def iteration(self) -> int:
        """The iteration the timeline is on."""
        return int(self.frames[self.slider.value])

    def show_iteration(self, iteration: int) -> None:
        """Move the timeline to the stop closest to ``iteration``."""
        iteration = whole_number(iteration, "iteration")  # not a float, not a bool
        frame = int(np.argmin(np.abs(self.frames - iteration)))
        self.play.value = frame
        self.slider.value = frame

    def _on_frame(self, _change=None) -> None:
        with self.reporting(f"Could not show iteration {self.iteration}"):
            states: dict[str, tuple[int, int]] = {}
            for k, stops in enumerate(self._stops):  # a path from the start, a "now" alone
                at = int(stops[self.slider.value])
                states |= {_name(k, part): (0 if part.startswith("path") else at, at)
                           for part in RUN_MARKS}
            self.marks.move(**states)
            self.label.value = (f"iteration <b>{self.iteration:,}</b> of "
                                f"{int(self.frames[-1]):,}")


def _frames(iterations: np.ndarray, count: int) -> np.ndarray:
    """Up to ``count`` of the sorted ``iterations``, log-spaced, first and last kept."""
    if len(iterations) <= count:
        return iterations
    picks = np.unique(np.geomspace(1, len(iterations), count).astype(int) - 1)
    return iterations[np.unique(np.concatenate([picks, [0, len(iterations) - 1]]))]



def _path_records(trace, frames: np.ndarray) -> np.ndarray:
    """The records a run's overlay path goes through: those the figure draws (its display
    frames) and every record the timeline stops at, sorted."""
    stops = [record_at(trace, int(iteration)) for iteration in frames]
    return np.unique(np.concatenate([display_frames(trace, MAX_PATH_POINTS), stops]))


def _stops(trace, frames: np.ndarray) -> np.ndarray:
    """For each timeline stop, the position of the run's record there in its path records."""
    records = _path_records(trace, frames)
    return np.array([int(np.searchsorted(records, record_at(trace, int(it)))) for it in frames])


#: A run's marks: per square panel the path so far and the "now" marker, then the "now"
#: marker on the alpha panel.
RUN_MARKS = ("path", "now", "path, panel 2", "now, panel 2", "now, alpha panel")


def _name(run: int, part: str) -> str:
    return f"run {run}: {part}"


def _run_marks(fig, trace, run: int, label: str, frames: np.ndarray,
               base: int) -> dict[str, dict]:
    """Run ``run``'s moving parts (:data:`RUN_MARKS`), drawn over ``fig`` as its (empty)
    traces from ``base`` on would draw them; styles read from those traces."""
    records = _path_records(trace, frames)
    coords = kuhn_strategy_path(trace)[records]
    # Hover texts where a "now" marker can stand (the timeline's stops), none elsewhere.
    stops = {record_at(trace, int(iteration)) for iteration in frames}
    titles = [f"{label}\n" + now_text(trace, int(i)).replace("<br>", "\n") if i in stops
              else "" for i in records]
    marks = {}
    for panel, (xaxis, yaxis), where in ((0, ("x", "y"), ""), (1, ("x2", "y2"), ", panel 2")):
        points = coords[:, [0, panel + 1]]
        line, now = fig.data[base + 3 * panel], fig.data[base + 3 * panel + 1]
        marks[_name(run, "path" + where)] = path(
            points, xaxis, yaxis, line=_plain(line.line),
            opacity=1.0 if line.opacity is None else line.opacity, trace=base + 3 * panel)
        marks[_name(run, "now" + where)] = path(points, xaxis, yaxis, marker=_plain(now.marker),
                                                titles=titles, trace=base + 3 * panel + 1)
    alphas = np.column_stack([trace.iterations[records], nearest_alpha(coords)[0]])
    marks[_name(run, "now, alpha panel")] = path(
        alphas, "x3", "y3", marker=_plain(fig.data[base + 7].marker), titles=titles,
        trace=base + 7)
    return marks


def _plain(style) -> dict:
    """A plotly line or marker as the dict the overlay reads."""
    return style.to_plotly_json()
