"""Charts of game size: our games (counted from their trees) beside the published giants.

Pure functions returning plotly figures.  The size chart carries its own
buttons (plotly ``updatemenus``), so it stays interactive in a static page,
in Voila and in JupyterLab alike, without a kernel round trip.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..analysis.scaling import PUBLISHED_SIZES, GameSize, PublishedSize, ScalingTable
from ..core.markup import escape
from .style import OKABE_ITO, apply_style, decade_step, get_style

#: Reference durations for the "one iteration" view, in seconds.
DURATIONS = (("a second", 1.0), ("a year", 3.156e7),
             ("the age of the universe", 13.8e9 * 3.156e7))
#: Reference memory sizes for the memory view, in bytes.
MEMORIES = (("a laptop's 16 GB", 16e9), ("a petabyte", 1e15))


def _wrap(text: str, width: int = 60) -> str:
    return "<br>".join(textwrap.wrap(escape(text), width))


def game_sizes_figure(ours: Sequence[GameSize],
                      published: Sequence[PublishedSize] = PUBLISHED_SIZES,
                      seconds_per_infoset: float | None = None,
                      bytes_per_infoset: float | None = None,
                      presenter: bool | None = None) -> go.Figure:
    """Information sets of each game on a log axis, with each number's source on hover.

    Parameters
    ----------
    ours : sequence of GameSize
        Counted from our trees (:func:`cfrviz.analysis.scaling.game_size`).
    published : sequence of PublishedSize
        Sizes from the literature (default :data:`cfrviz.analysis.scaling.PUBLISHED_SIZES`).
    seconds_per_infoset, bytes_per_infoset : float, optional
        Our engine's measured cost per information set (one CFR iteration)
        and table memory per set.  When given, buttons switch the bars to
        those extrapolations (with reference lines: a day, a year, ...).
    presenter : bool, optional

    Returns
    -------
    plotly.graph_objects.Figure
        Two bar traces: ``data[0]`` our games, ``data[1]`` the published ones.
    """
    style = get_style(presenter)
    ours = list(ours)
    published = list(published)
    sets_ours = np.array([s.infosets for s in ours], dtype=float)
    sets_pub = np.array([p.infosets for p in published], dtype=float)
    bars = _size_bars(ours, published, sets_ours, sets_pub)
    fig = go.Figure(bars)
    order = [label for _, label in sorted(zip([*sets_ours, *sets_pub],
                                              [*bars[0].y, *bars[1].y]))]
    fig.update_layout(
        height=int((150 + 48 * len(order)) * style.figure_scale), font=style.font(),
        title=dict(text="Information sets (log scale)", font=style.font(style.title_size)),
        xaxis=dict(type="log", title="information sets", exponentformat="power"),
        yaxis=dict(categoryorder="array", categoryarray=order),
        barmode="overlay", margin=dict(l=10, r=20, t=110, b=int(100 * style.figure_scale)),
        # At the foot of the figure, below the axis title (a paper position ran into it).
        legend=dict(orientation="h", yref="container", y=0.01, yanchor="bottom", x=0))
    views = _views(sets_ours, sets_pub, seconds_per_infoset, bytes_per_infoset)
    if len(views) > 1:
        fig.update_layout(updatemenus=[dict(type="buttons", direction="right", x=0, y=1.0,
                                            xanchor="left", yanchor="bottom",
                                            pad=dict(b=34), buttons=_view_buttons(views, style),
                                            showactive=True)],
                          title=dict(y=0.98, yanchor="top"))
    return apply_style(fig, style)


def _size_bars(ours: list[GameSize], published: list[PublishedSize], sets_ours: np.ndarray,
               sets_pub: np.ndarray) -> list[go.Bar]:
    """Our games' bars and the published ones', each with its source on hover."""
    # Category labels are plotly markup: a game's name may come from a shared file.
    hover_ours = [f"<b>{escape(s.name)}</b><br>{s.infosets:,} information sets, "
                  f"{s.nodes:,} nodes<br>counted from cfrviz's game tree" for s in ours]
    hover_pub = [f"<b>{escape(p.game)}</b><br>{_wrap(p.note)}<br><i>source:</i> "
                 f"{_wrap(p.source)}" for p in published]
    return [go.Bar(y=[escape(s.name) for s in ours], x=sets_ours, orientation="h",
                   name="counted by cfrviz", marker_color=OKABE_ITO["blue"],
                   customdata=hover_ours, hovertemplate="%{customdata}<extra></extra>"),
            go.Bar(y=[escape(p.game) for p in published], x=sets_pub, orientation="h",
                   name="published (hover for the source)",
                   marker_color=OKABE_ITO["vermillion"], marker_pattern_shape="/",
                   customdata=hover_pub, hovertemplate="%{customdata}<extra></extra>")]


def _views(sets_ours: np.ndarray, sets_pub: np.ndarray, seconds_per_infoset: float | None,
           bytes_per_infoset: float | None
           ) -> list[tuple[str, str, np.ndarray, np.ndarray, tuple[tuple[str, float], ...]]]:
    """One button each: (label, axis title, our x, published x, reference marks (name,
    value)); the extrapolations only when their cost per set is given."""
    views: list[tuple[str, str, np.ndarray, np.ndarray, tuple[tuple[str, float], ...]]] = [
        ("information sets", "information sets", sets_ours, sets_pub, ())]
    if seconds_per_infoset is not None:
        views.append(("one CFR iteration at our speed", "seconds (extrapolated)",
                      sets_ours * seconds_per_infoset, sets_pub * seconds_per_infoset,
                      DURATIONS))
    if bytes_per_infoset is not None:
        views.append(("memory of CFR's two tables", "bytes (extrapolated)",
                      sets_ours * bytes_per_infoset, sets_pub * bytes_per_infoset, MEMORIES))
    return views


def _view_buttons(views: list, style) -> list[dict]:
    """A button per view: its bars, axis title and title, and its reference lines (a day, a
    year, ...) with their names."""
    buttons = []
    for label, axis_title, xo, xp, marks in views:
        shapes = [dict(type="line", xref="x", yref="paper", x0=v, x1=v, y0=0, y1=1,
                       line=dict(color="#555", dash="dot", width=2)) for _, v in marks]
        notes = [dict(x=np.log10(v), y=0.0, xref="x", yref="paper", text=name,
                      showarrow=False, xanchor="left", yanchor="bottom", textangle=-90,
                      font=style.font(style.small_font, "#555")) for name, v in marks]
        buttons.append(dict(label=label, method="update",
                            args=[{"x": [xo, xp]},
                                  {"xaxis.title.text": axis_title,
                                   "xaxis.dtick": decade_step([*xo, *xp]),
                                   "title.text": f"{label[0].upper()}{label[1:]} (log scale)",
                                   "shapes": shapes, "annotations": notes}]))
    return buttons


def scaling_figure(table: ScalingTable, presenter: bool | None = None) -> go.Figure:
    """Time per CFR iteration against nodes, log-log, one labelled point per game."""
    style = get_style(presenter)
    nodes = np.array([r.size.nodes for r in table.rows], dtype=float)
    micro = np.array([1e6 * r.seconds_per_iteration for r in table.rows])
    names = [escape(r.size.name) for r in table.rows]
    fig = go.Figure(go.Scatter(
        x=nodes, y=micro, mode="markers+text", text=names, textposition="top center",
        marker=dict(size=14 * style.line_scale, color=OKABE_ITO["blue"], symbol="diamond"),
        hovertemplate="%{text}<br>%{x:,} nodes<br>%{y:,.0f} µs per iteration<extra></extra>",
        showlegend=False))
    # A line through the largest game with slope 1: cost proportional to nodes.
    ref = np.array([nodes.min() / 2, nodes.max() * 2])
    fig.add_trace(go.Scatter(x=ref, y=micro[np.argmax(nodes)] * ref / nodes.max(),
                             mode="lines", name="proportional to nodes",
                             line=dict(color="#777", dash="dash")))
    fig.update_layout(
        height=int(360 * style.figure_scale), font=style.font(),
        title=dict(text=f"{escape(table.algorithm)}: time per iteration against tree size",
                   font=style.font(style.title_size)),
        xaxis=dict(type="log", title="nodes"),
        yaxis=dict(type="log", title="µs per iteration"),
        margin=dict(l=70, r=20, t=50, b=50), legend=dict(x=0.01, y=0.99))
    return apply_style(fig, style)
