"""Figures of a regret-matching run on a matrix game (rock-paper-scissors).

Each view is a pair of pure functions: ``*_figure`` builds the figure once for
a trace, and ``update_*`` moves it to another record of the same trace in place
(inside ``batch_update`` when the figure is a ``FigureWidget``).  Nothing here
runs a solver.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike
from plotly.subplots import make_subplots

from ..core.markup import escape
from .style import apply_style, batch, get_style

# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
ACTION_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
CURRENT_COLOUR = "#E69F00"
AVERAGE_COLOUR = "#0072B2"
EQUILIBRIUM_COLOUR = "#000000"
#: How many of the most recent records the current-strategy trail shows.
CURRENT_TRAIL = 40
#: At most this many points per line in the history charts.
MAX_LINE_POINTS = 1500
#: How the "now" marks look: the history's vertical lines, the exploitability chart's open
#: circle.  Widgets that draw them over the figure (:mod:`cfrviz.widgets.overlay`) read these.
NOW_LINE: dict[str, Any] = dict(color="#444", width=1.5, dash="dash")
NOW_POINT: dict[str, Any] = dict(color=AVERAGE_COLOUR, size=11, width=3)



def display_frames(trace, max_frames: int = 300) -> np.ndarray:
    """Record indices a timeline steps through: every record of a short trace, else a mix.

    Half the frames are log-spaced (the first iterations move fastest) and
    half evenly spaced; the first and last records are always included.
    """
    count = len(trace)
    if count <= max_frames:
        return np.arange(count)
    half = max_frames // 2
    logs = np.geomspace(1, count, half).astype(int) - 1
    lins = np.linspace(0, count - 1, max_frames - half).astype(int)
    return np.unique(np.concatenate([logs, lins, [0, count - 1]]))


def _ternary(points: ArrayLike) -> dict:
    """Ternary coordinates (a, b, c) of 3-action strategies."""
    rows = np.atleast_2d(points)
    return {"a": rows[:, 0], "b": rows[:, 1], "c": rows[:, 2]}


# --- the strategy simplex -----------------------------------------------------------------

def simplex_figure(trace, equilibrium=None, frames=None, height: int = 430,
                   now_marks: bool = True) -> go.Figure:
    """Both players' strategies on the probability triangle.

    Each corner is a pure action; a point inside is a mixed strategy.  The
    figure shows, per player, the average strategy's path from the start, the
    last few current strategies, where each is now, and the equilibrium.

    Parameters
    ----------
    trace : Trace
        A regret-matching trace of a game with three actions per player.
    equilibrium : MatrixEquilibrium, optional
        Drawn as a star.
    frames : array of int, optional
        The record indices a timeline visits (default :func:`display_frames`).
    now_marks : bool, default True
        ``False`` leaves the moving parts (both paths and points, the first four traces of
        each player) without a point to draw, keeping their styles and legend entries, for a
        widget that draws them over the figure (:class:`cfrviz.widgets.RegretMatchingExplorer`).
    """
    style = get_style()
    game = trace.game
    if any(len(a) != 3 for a in game.infoset_actions):
        raise ValueError("the strategy simplex needs exactly three actions per player")
    # Axis titles and hover templates are plotly markup: escape the game's action names.
    names = [escape(name) for name in game.action_names or game.row_actions]
    fig = make_subplots(rows=1, cols=2, specs=[[{"type": "ternary"}] * 2],
                        subplot_titles=("Player 1", "Player 2"), horizontal_spacing=0.22)
    for p in (0, 1):
        eq = [np.full(3, np.nan)] if equilibrium is None else \
            [equilibrium.row if p == 0 else equilibrium.col]
        for trace_ in _simplex_traces(names, eq, legend=p == 0):
            fig.add_trace(trace_, row=1, col=p + 1)
    axis = dict(min=0, linewidth=1, ticks="outside", tickformat=".1f")
    for key in ("ternary", "ternary2"):
        fig.layout[key].update(
            sum=1, bgcolor="#fafafa",
            aaxis=dict(title=dict(text=names[0]), **axis),
            baxis=dict(title=dict(text=names[1]), **axis),
            caxis=dict(title=dict(text=names[2]), **axis))
    for title in fig.layout.annotations:  # lift "Player 1/2" clear of the top corner's label
        title.update(y=1.13, font=dict(size=style.title_size))
    fig.update_layout(height=int(height * style.figure_scale),
                      margin=dict(l=70, r=70, t=90, b=int(80 * style.figure_scale)),
                      font=style.font(),
                      # At the figure's foot, below the corner labels (paper, scissors).
                      legend=dict(orientation="h", yref="container", y=0.01, yanchor="bottom",
                                  x=0.5, xanchor="center"),
                      uirevision="keep")
    if now_marks:
        update_simplex(fig, trace, len(trace) - 1, frames)
    else:
        for p in (0, 1):  # one missing point: nothing drawn, legend kept (no data: no trace)
            for i in range(4):
                fig.data[5 * p + i].update(a=[None], b=[None], c=[None])
    return apply_style(fig, style)


def _simplex_traces(names: list[str], eq: list, legend: bool) -> list[go.Scatterternary]:
    """One player's five traces on its triangle: the average strategy's path, the recent
    current strategies, the current and average points (all at the centre until moved), and
    the equilibrium ``eq``."""
    centre = [[1 / 3] * 3]
    traces = [go.Scatterternary(mode="lines", name="average strategy (path)",
                                line=dict(color=AVERAGE_COLOUR, width=2),
                                legendgroup="avg", showlegend=legend,
                                hoverinfo="skip", **_ternary(centre)),
              go.Scatterternary(mode="lines", name="current strategy (recent)",
                                line=dict(color=CURRENT_COLOUR, width=1.5, dash="dot"),
                                legendgroup="cur", showlegend=legend,
                                hoverinfo="skip", **_ternary(centre))]
    for kind, colour, symbol, group in (("current", CURRENT_COLOUR, "circle", "cur"),
                                        ("average", AVERAGE_COLOUR, "diamond", "avg")):
        traces.append(go.Scatterternary(
            mode="markers", name=f"{kind} strategy", legendgroup=group, showlegend=False,
            marker=dict(color=colour, size=12, symbol=symbol,
                        line=dict(color="white", width=1)),
            hovertemplate=f"{kind}<br>" + _hover(names) + "<extra></extra>",
            **_ternary(centre)))
    traces.append(go.Scatterternary(mode="markers", name="Nash equilibrium",
                                    marker=dict(color=EQUILIBRIUM_COLOUR, size=14,
                                                symbol="star"),
                                    legendgroup="eq", showlegend=legend,
                                    hovertemplate="equilibrium<br>" + _hover(names) +
                                    "<extra></extra>", **_ternary(eq)))
    return traces


def _hover(names) -> str:
    return "<br>".join(f"{name}: %{{{axis}:.3f}}" for name, axis in zip(names, "abc"))


def update_simplex(fig, trace, index: int, frames=None) -> None:
    """Move the simplex to record ``index`` of ``trace``, in place."""
    frames = display_frames(trace) if frames is None else np.asarray(frames)
    shown = frames[frames <= index]
    if len(shown) == 0 or shown[-1] != index:
        shown = np.append(shown, index)
    recent = slice(max(0, index - CURRENT_TRAIL + 1), index + 1)
    with batch(fig):
        for p in (0, 1):
            base = 5 * p
            avg_path = trace.average_strategy[shown, p, :3]
            fig.data[base].update(**_ternary(avg_path))
            fig.data[base + 1].update(**_ternary(trace.current_strategy[recent, p, :3]))
            fig.data[base + 2].update(**_ternary(trace.current_strategy[index, p, :3]))
            fig.data[base + 3].update(**_ternary(trace.average_strategy[index, p, :3]))


# --- regrets and strategies over iterations ------------------------------------------------

def _thin(count: int) -> np.ndarray:
    if count <= MAX_LINE_POINTS:
        return np.arange(count)
    return np.unique(np.concatenate([np.geomspace(1, count, MAX_LINE_POINTS // 2).astype(int) - 1,
                                     np.linspace(0, count - 1, MAX_LINE_POINTS // 2).astype(int)]))


def history_figure(trace, player: int = 0, height: int = 420,
                   now_marks: bool = True) -> go.Figure:
    """One player's cumulative regrets and strategies against iterations.

    The top panel shows the cumulative regret of each action, the bottom one
    the current strategy (dotted) and the average strategy (solid).  A
    vertical line marks the record the timeline is on (left out with
    ``now_marks=False``, for a widget that draws it over the figure).
    """
    style = get_style()
    game = trace.game
    actions = game.infoset_actions[player]
    names = [escape(name) for name in game.action_names or actions]  # legend names: markup
    keep = _thin(len(trace))
    its = trace.iterations[keep]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=(f"Player {player + 1}: cumulative regret",
                                        f"Player {player + 1}: strategy (dotted current, "
                                        "solid average)"))
    for a, name in enumerate(names[: len(actions)]):
        colour = ACTION_COLOURS[a % len(ACTION_COLOURS)]
        fig.add_trace(go.Scatter(x=its, y=trace.cumulative_regret[keep, player, a],
                                 mode="lines", name=name, legendgroup=name,
                                 line=dict(color=colour, width=2)), row=1, col=1)
        fig.add_trace(go.Scatter(x=its, y=trace.current_strategy[keep, player, a],
                                 mode="lines", name=f"{name} current", legendgroup=name,
                                 showlegend=False, line=dict(color=colour, width=1, dash="dot")),
                      row=2, col=1)
        fig.add_trace(go.Scatter(x=its, y=trace.average_strategy[keep, player, a],
                                 mode="lines", name=f"{name} average", legendgroup=name,
                                 showlegend=False, line=dict(color=colour, width=2.5)),
                      row=2, col=1)
    fig.add_hline(y=0, line=dict(color="#888", width=1), row=1, col=1)
    for row in (1, 2) if now_marks else ():
        fig.add_vline(x=int(trace.iterations[-1]), line=NOW_LINE, row=row, col=1)
    log_x = len(trace) > 50
    fig.update_xaxes(type="log" if log_x else "linear", title_text="iteration", row=2, col=1)
    fig.update_xaxes(type="log" if log_x else "linear", row=1, col=1)
    fig.update_yaxes(range=[0, 1], title_text="probability", row=2, col=1)
    fig.update_yaxes(title_text="regret", row=1, col=1)
    fig.update_layout(height=int(height * style.figure_scale),
                      margin=dict(l=60, r=20, t=50, b=40), font=style.font(),
                      legend=dict(orientation="h", y=1.12, x=1, xanchor="right"),
                      uirevision="keep")
    return apply_style(fig, style)


def update_history(fig, trace, index: int) -> None:
    """Move the iteration marker of :func:`history_figure` to record ``index``."""
    x = int(trace.iterations[index])
    with batch(fig):
        for shape in fig.layout.shapes:
            if shape.type == "line" and shape.x0 == shape.x1:
                shape.x0 = shape.x1 = x


# --- exploitability ------------------------------------------------------------------------

def exploitability_figure(trace, height: int = 380, width: int | None = None,
                          now_marks: bool = True) -> go.Figure:
    """Exploitability of the average and current strategies, on log-log axes.

    A dashed reference line falls like ``1/sqrt(T)``, the rate regret
    matching guarantees for the average strategy.  Exact zeros cannot be
    drawn on a log axis and are left out (the title says so).  An open
    circle marks the timeline's record (left out with ``now_marks=False``).  The legend
    sits below the plot, where it hides no line.
    """
    style = get_style()
    keep = _thin(len(trace))
    its = trace.iterations[keep].astype(float)
    avg = np.where(trace.exploitability[keep] > 0, trace.exploitability[keep], np.nan)
    cur = np.where(trace.current_exploitability[keep] > 0, trace.current_exploitability[keep],
                   np.nan)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=its, y=cur, mode="lines", name="current strategy",
                             line=dict(color=CURRENT_COLOUR, width=1)))
    fig.add_trace(go.Scatter(x=its, y=avg, mode="lines", name="average strategy",
                             line=dict(color=AVERAGE_COLOUR, width=2.5)))
    scale = np.nanmedian(avg * np.sqrt(its)) if np.any(np.isfinite(avg)) else np.nan
    fig.add_trace(go.Scatter(x=its, y=scale / np.sqrt(its), mode="lines", name="∝ 1/√T",
                             line=dict(color="#777", width=1.5, dash="dash"), hoverinfo="skip"))
    if now_marks:
        fig.add_trace(go.Scatter(x=[its[-1]], y=[avg[-1]], mode="markers", name="now",
                                 marker=dict(color=NOW_POINT["color"], size=NOW_POINT["size"],
                                             symbol="circle-open",
                                             line=dict(width=NOW_POINT["width"])),
                                 showlegend=False))
    zeros = int(np.sum(trace.exploitability == 0))
    title = "Exploitability (log–log)"
    if zeros:
        title += f" — {zeros} record(s) at exactly 0 not drawn"
    fig.update_layout(title=dict(text=title, font=dict(size=style.title_size)),
                      height=int(height * style.figure_scale),
                      width=None if width is None else int(width * style.figure_scale),
                      font=style.font(),
                      xaxis=dict(type="log", title="iteration T"),
                      yaxis=dict(type="log", title="exploitability", exponentformat="power"),
                      margin=dict(l=70, r=20, t=50, b=int(95 * style.figure_scale)),
                      uirevision="keep",
                      # At the figure's foot, below the axis title: inside the plot it covered
                      # the current strategy's line, which stays near the top.
                      legend=dict(orientation="h", yref="container", y=0.01, yanchor="bottom",
                                  x=0.5, xanchor="center"))
    apply_style(fig, style)
    if width is not None:  # only when asked for: by default the output area's width
        fig.layout.width = int(width * style.figure_scale)
    return fig


def exploitability_point(trace, index: int) -> tuple[float, float | None]:
    """Where the exploitability marker sits for record ``index``: ``(iteration,
    exploitability)``, the exploitability ``None`` when it is 0 (not drawn on a log axis)."""
    value = float(trace.exploitability[index])
    return float(trace.iterations[index]), (value if value > 0 else None)


def update_exploitability(fig, trace, index: int) -> None:
    """Move the marker of :func:`exploitability_figure` to record ``index``."""
    x, y = exploitability_point(trace, index)
    with batch(fig):
        fig.data[3].update(x=[int(x)], y=[y])
