"""The game tree as a live widget: plotly draws what never moves, marks beneath it what does.

Any change of plotly trace data makes plotly.js recompute and redraw the whole figure: about
0.1-0.2 s for a tree, more than a frame of the explorers' timelines (issue 14).  A
:class:`LiveTree` splits the drawing.  Plotly draws the skeleton once (nodes, chance edges
and their labels, information sets, keys, payoffs, the legend; hover and click on nodes) on a
transparent background, :meth:`TreeView.figure(skeleton=True)
<cfrviz.views.tree.TreeView.figure>`; beneath it, an overlay (:mod:`cfrviz.widgets.overlay`)
draws what a strategy moves: decision edges at their widths, their labels, the best response
and its value, the ring around the selected information set.  A frame sends those few
numbers and strings, in one message, and plotly does nothing.  The geometry (segments, label
places) and each frame's content (:meth:`TreeView.frame`) come from the view, the same as
for its plain plotly figure.
"""

from __future__ import annotations

import functools
from typing import Any

import ipywidgets as W
import numpy as np

from ..views import tree as views_tree
from ..views.tree import WIDTH_STEPS, TreeFrame, TreeView, edge_texts, edge_width, width_steps
from .figure_widget import FigureWidget
from .overlay import NowMarks, labels, rings, segments, stack
from .panel import sync_figure


@functools.wraps(views_tree.plot_tree)
def plot_tree(*args: Any, widget: Any = False, **options: Any) -> Any:
    # cfrviz.plot_tree: the view's, with cfrviz's FigureWidget (fast to start, plotly's front
    # end sent once per kernel) for widget=True; views may not import widgets.
    return views_tree.plot_tree(*args, widget=FigureWidget() if widget is True else widget,
                                **options)


class LiveTree(W.Box):
    """A tree figure whose strategy, best response and selected set change cheaply.

    Parameters
    ----------
    view : TreeView
        What to draw; the view builds the figure (``view.traces`` then index it).
    **layout
        Of the box (``ipywidgets.Layout``).

    Attributes
    ----------
    figure : plotly.graph_objects.FigureWidget
        The skeleton (for node clicks: ``view.on_node_click(tree.figure, ...)``).
    marks : NowMarks
        What moves, drawn beneath the figure.
    frame : TreeFrame or None
        What :meth:`update` last showed.

    Examples
    --------
    >>> tree = LiveTree(TreeView(game))                          # doctest: +SKIP
    >>> tree.update(policy, best_response=1).value               # doctest: +SKIP
    """

    def __init__(self, view: TreeView, **layout):
        self.view = view
        fig = self.figure = view.figure(widget=FigureWidget(), skeleton=True)
        # How each part looks is read from the figure's own (legend) traces: one place.
        t, data = view.traces, fig.data
        best, plain = data[t["best response"]], data[t["edges"]]
        zero, full = data[t["width 0"]].line, data[t[f"width {WIDTH_STEPS}"]].line
        ring = data[t["selected"]].marker
        note = fig.layout.annotations[1].font
        x, y, left = view.edge_label_places()
        self._plain_width = _round(plain.line.width)
        self._best_width = _round(best.line.width)
        self._zero_width = _round(zero.width)
        self.marks = NowMarks({
            "best response": segments(view.edge_segments,
                                      styles=[dict(color=best.line.color)],
                                      opacity=best.opacity),
            "edges": segments(view.edge_segments, styles=[
                dict(color=full.color), dict(color=plain.line.color),
                dict(color=zero.color, dash=zero.dash)]),
            "edge labels": labels(np.column_stack([x, y]), ends=left,
                                  font=data[t["edge labels"]].textfont.to_plotly_json()),
            "selected": rings(color=ring.color, size=ring.size, width=ring.line.width),
            # Where plotly puts the annotation it replaces: its box (a pixel of padding and
            # one of border) sits on the plotting area's top right corner.
            "note": labels([(1.0, 1.0)], ends=[True], paper=True, font=note.to_plotly_json(),
                           offset=(-2.4, -2.0 - 0.18 * note.size)),
        })
        super().__init__([fig, self.marks], layout=W.Layout(**layout))
        stack(self, fig, under=True)
        self.frame: TreeFrame | None = None
        self.update()

    def update(self, probabilities=None, *, best_response=None,
               selected_infoset=None) -> TreeFrame:
        """Show a strategy, a best response to it and a selected set (as
        :meth:`TreeView.update`); returns the frame shown, whose ``value`` is the best
        response's.  One message to the browser, none if nothing shown changed; the figure
        itself changes only when its legend does (a best response or selection appears).
        """
        frame = self.view.frame(probabilities, best_response=best_response,
                                selected_infoset=selected_infoset)
        self.view.draw(self.figure, frame)
        self.marks.show(**self.states(frame))
        self.frame = frame
        return frame

    def _repr_mimebundle_(self, **kwargs):
        # Shown on its own, as a Panel syncs the figures it holds (see widgets.panel).
        sync_figure(self.figure)
        return super()._repr_mimebundle_(**kwargs)

    def states(self, frame: TreeFrame) -> dict:
        """The marks' states for ``frame``, by name: best-response and edge widths, edge
        labels, ring centres, note."""
        view, p = self.view, frame.probability
        if p is None:
            edges: list = [[self._plain_width, 1]] * len(view.decision_edges)
        else:
            widths = np.round(edge_width(p, view.style), 2).tolist()
            zero = (width_steps(p) == 0).tolist()
            edges = [[self._zero_width, 2] if z else w for w, z in zip(widths, zero)]
        best = [self._best_width if c else None for c in frame.chosen.tolist()]
        centres = [[_round(view.x[n]), _round(view.y[n])] for n in frame.ringed.tolist()]
        return {"best response": best, "edges": edges,
                "edge labels": edge_texts(view.edge_actions, p), "selected": centres,
                "note": [frame.note or None]}


def _round(v) -> float:
    return round(float(v), 4)
