"""Several runs on one chart, with a switch for the cost on the x axis."""

from __future__ import annotations

import ipywidgets as W

from ..views.compare import COST_AXES, comparison_figure, cost
from ..views.style import fit_to_output
from .figure_widget import FigureWidget
from .panel import Panel


class ComparisonView(Panel):
    """Exploitability of several runs; toggle the x axis between iterations, nodes and seconds.

    The figure is built once; switching the axis rewrites the x values of
    its lines in place (``batch_update``).  Nothing is solved here.

    Parameters
    ----------
    traces : sequence of Trace
    labels : sequence of str, optional
        Runs with the same label share a colour (e.g. several seeds).
    axis : {"iterations", "nodes", "seconds"}, default "nodes"
    current : bool, default False
        Show the current strategy's exploitability instead of the average's.
    presenter : bool, optional
    """

    def __init__(self, traces, labels=None, axis: str = "nodes", current: bool = False,
                 presenter: bool | None = None):
        super().__init__()
        self.traces = list(traces)
        self.figure = fit_to_output(FigureWidget(comparison_figure(
            self.traces, labels, axis=axis, current=current, presenter=presenter)))
        self.axis = W.ToggleButtons(options=[(title, key) for key, title in COST_AXES.items()],
                                    value=axis, description="x axis",
                                    style={"description_width": "initial"})
        self.axis.observe(self._on_axis, names="value")
        self.children = [self.axis, self.output, self.figure]

    def _on_axis(self, change) -> None:
        with self.reporting("Could not switch the axis"):
            before, after = COST_AXES[change["old"]], COST_AXES[change["new"]]
            with self.figure.batch_update():
                for line, trace in zip(self.figure.data, self.traces):
                    line.x = cost(trace, change["new"])
                    line.hovertemplate = line.hovertemplate.replace(before, after)
                self.figure.layout.xaxis.title.text = after
