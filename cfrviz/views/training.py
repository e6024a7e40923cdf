"""Figures of a training run on a game tree: one set's regrets and strategies, the cost curve.

Pure functions of a trace: ``*_figure`` builds once, ``update_*`` moves the
iteration marker in place (inside ``batch_update`` for a ``FigureWidget``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..core.checks import infoset_id
from ..core.markup import escape
from .style import OKABE_ITO, apply_style, batch, get_style

ACTION_COLOURS = (OKABE_ITO["vermillion"], OKABE_ITO["blue"], OKABE_ITO["bluish green"],
                  OKABE_ITO["reddish purple"], OKABE_ITO["orange"], OKABE_ITO["sky blue"])
AXES = {"iterations": "iteration", "nodes": "nodes touched"}
#: How the "now" marks look: the set history's vertical lines, the cost curve's open circle
#: (widths before the style's ``line_scale``).  Widgets that draw them over the figure
#: (:mod:`cfrviz.widgets.overlay`) read these too.
NOW_LINE: dict[str, Any] = dict(color="#333", width=1.5, dash="dot")
NOW_POINT: dict[str, Any] = dict(color=OKABE_ITO["blue"], size=12, width=3)


def _x(trace, axis: str) -> np.ndarray:
    if axis not in AXES:
        raise ValueError(f"axis must be one of {list(AXES)}; got {axis!r}")
    if axis == "nodes":
        return np.asarray(trace.extras["nodes_touched"], dtype=float)
    return trace.iterations.astype(float)


def set_history_figure(trace, infoset, presenter: bool | None = None,
                       now_marks: bool = True) -> go.Figure:
    """Cumulative regret (top) and current and average strategy (bottom) of one set over time.

    Trace order: one cumulative-regret line per action, then per action the
    current and the average strategy, then (with ``now_marks``) the two
    iteration markers.  A widget that draws the markers over the figure
    passes ``now_marks=False``.
    """
    game = trace.game
    info = infoset_id(game, infoset)
    actions = [escape(a) for a in game.infoset_actions[info]]  # trace names are markup
    style = get_style(presenter)
    its = trace.iterations
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=("cumulative regret", "strategy: current (thin) and "
                                        "average (thick)"))
    for a, name in enumerate(actions):
        fig.add_trace(go.Scatter(x=its, y=trace.cumulative_regret[:, info, a], name=name,
                                 mode="lines", legendgroup=name,
                                 line=dict(color=ACTION_COLOURS[a % 6],
                                           width=2 * style.line_scale)), row=1, col=1)
    for a, name in enumerate(actions):
        fig.add_trace(go.Scatter(x=its, y=trace.current_strategy[:, info, a], showlegend=False,
                                 mode="lines", legendgroup=name, name=f"{name} current",
                                 line=dict(color=ACTION_COLOURS[a % 6], width=style.line_scale)),
                      row=2, col=1)
        fig.add_trace(go.Scatter(x=its, y=trace.average_strategy[:, info, a], showlegend=False,
                                 mode="lines", legendgroup=name, name=f"{name} average",
                                 line=dict(color=ACTION_COLOURS[a % 6],
                                           width=3 * style.line_scale)), row=2, col=1)
    for row in (1, 2) if now_marks else ():
        fig.add_trace(go.Scatter(x=[its[-1], its[-1]], y=[0, 0], mode="lines", showlegend=False,
                                 hoverinfo="skip", name="now",
                                 line=dict(NOW_LINE, width=NOW_LINE["width"] * style.line_scale)),
                      row=row, col=1)
    fig.update_layout(height=int(420 * style.figure_scale), width=int(480 * style.figure_scale),
                      font=style.font(),
                      title=dict(text=f"Information set '{escape(game.infoset_keys[info])}'",
                                 font=style.font(style.title_size)),
                      margin=dict(l=60, r=20, t=70, b=40), uirevision="keep",
                      legend=dict(orientation="h", y=1.12, x=1, xanchor="right"))
    fig.update_xaxes(type="log", title_text="iteration", row=2, col=1)
    fig.update_xaxes(type="log", row=1, col=1)
    fig.update_yaxes(range=[-0.02, 1.02], row=2, col=1)
    if now_marks:
        update_set_history(fig, trace, len(trace) - 1, info)
    return apply_style(fig, style)


def update_set_history(fig, trace, index: int, infoset: int) -> None:
    """Move the iteration markers of :func:`set_history_figure` to record ``index``."""
    it = float(trace.iterations[index])
    regrets = trace.cumulative_regret[:, infoset]
    low, high = float(regrets.min()), float(regrets.max())
    with batch(fig):
        fig.data[-2].update(x=[it, it], y=[min(low, 0.0), max(high, 0.0)])
        fig.data[-1].update(x=[it, it], y=[0, 1])


def cost_curve_figure(trace, axis: str = "iterations", presenter: bool | None = None,
                      now_marks: bool = True) -> go.Figure:
    """Exploitability of the average and current strategies on log-log axes, with a marker.

    ``axis="nodes"`` puts nodes touched on the x axis, the honest cost
    when sampling and full-tree methods are compared.  ``now_marks=False``
    leaves the marker out (for a widget that draws it over the figure).
    """
    style = get_style(presenter)
    x = _x(trace, axis)
    avg = np.where(trace.exploitability > 0, trace.exploitability, np.nan)
    cur = np.where(trace.current_exploitability > 0, trace.current_exploitability, np.nan)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x, y=cur, mode="lines", name="current strategy",
                             line=dict(color=OKABE_ITO["orange"], width=style.line_scale)))
    fig.add_trace(go.Scatter(x=x, y=avg, mode="lines", name="average strategy",
                             line=dict(color=OKABE_ITO["blue"], width=2.5 * style.line_scale)))
    if now_marks:
        fig.add_trace(go.Scatter(x=[x[-1]], y=[avg[-1]], mode="markers", name="now",
                                 showlegend=False,
                                 marker=dict(color=NOW_POINT["color"], size=NOW_POINT["size"],
                                             symbol="circle-open",
                                             line=dict(width=NOW_POINT["width"]))))
    fig.update_layout(height=int(340 * style.figure_scale), font=style.font(),
                      title=dict(text="Exploitability (log–log)",
                                 font=style.font(style.title_size)),
                      xaxis=dict(type="log", title=AXES[axis]),
                      yaxis=dict(type="log", title="exploitability", exponentformat="power"),
                      margin=dict(l=70, r=20, t=50, b=int(90 * style.figure_scale)),
                      uirevision="keep",
                      # Below the axis: inside the plot, the legend hid the current strategy's
                      # line wherever that stays high (Deep CFR's does, lesson 13).
                      legend=dict(orientation="h", yref="container", y=0.01, yanchor="bottom",
                                  x=0))
    return apply_style(fig, style)


def cost_curve_point(trace, index: int, axis: str = "iterations") -> tuple[float, float | None]:
    """Where the cost curve's marker sits for record ``index``: ``(x, exploitability)``, the
    exploitability ``None`` when it is 0 (a log axis cannot show it)."""
    value = float(trace.exploitability[index])
    return float(_x(trace, axis)[index]), (value if value > 0 else None)


def update_cost_curve(fig, trace, index: int, axis: str = "iterations") -> None:
    """Move the marker to record ``index`` (and switch the x axis when ``axis`` changed).

    A figure built with ``now_marks=False`` has no marker: only its axis follows."""
    x = _x(trace, axis)
    with batch(fig):
        if fig.layout.xaxis.title.text != AXES[axis]:
            fig.data[0].x = x
            fig.data[1].x = x
            fig.layout.xaxis.title.text = AXES[axis]
        if len(fig.data) > 2:
            at, value = cost_curve_point(trace, index, axis)
            fig.data[2].update(x=[at], y=[value])
