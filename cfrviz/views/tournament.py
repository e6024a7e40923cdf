"""A tournament's standings as a figure: each bot's winnings per hand with its 95% interval.

A pure function of a :class:`~cfrviz.play.tournament.Tournament`: bots top to
bottom in rank order, a dot at the score and a bar across its confidence
interval, a line at zero (break-even).  Archetypes and entries differ in shape
and colour; one bot can be singled out (the student's own).  Bot names are
text from files and cells, so they are escaped where they become plotly
markup.
"""

from __future__ import annotations

import plotly.graph_objects as go

from ..core.markup import escape
from .style import AXIS_COLOUR, OKABE_ITO, SELECTED_COLOUR, apply_style, get_style

#: Colour and marker of archetypes and of entries.
ARCHETYPE_LOOK = (OKABE_ITO["orange"], "square")
ENTRY_LOOK = (OKABE_ITO["blue"], "circle")
HIGHLIGHT_LOOK = (SELECTED_COLOUR, "diamond")
#: Pixels per bot row at the normal size, and around the plot.
ROW_PX, MARGIN_PX = 34, 150


def standings_figure(tournament, highlight: str | None = None,
                     presenter: bool | None = None) -> go.Figure:
    """Score (mean winnings per hand over all opponents) of every bot, with its 95% CI.

    Parameters
    ----------
    tournament : Tournament
        From :func:`cfrviz.play.tournament.run_tournament`.
    highlight : str, optional
        A bot to single out (colour, shape and a bold label).
    presenter : bool, optional
        Larger fonts and rows for a projector; ``None`` follows the global switch.

    Returns
    -------
    plotly.graph_objects.Figure

    Raises
    ------
    ValueError
        For a ``highlight`` that is not one of the ranked bots.
    """
    style = get_style(presenter)
    names = list(tournament.names)
    if highlight is not None and highlight not in names:
        raise ValueError(f"highlight must be one of the ranked bots {names}; got {highlight!r}")
    fig = go.Figure()
    groups = (("archetypes", ARCHETYPE_LOOK,
               lambda s: s.name in tournament.archetypes and s.name != highlight),
              ("entries", ENTRY_LOOK,
               lambda s: s.name not in tournament.archetypes and s.name != highlight),
              (highlight or "", HIGHLIGHT_LOOK, lambda s: s.name == highlight))
    labels = {s.name: (f"<b>{s.rank}. {escape(s.name)}</b>" if s.name == highlight
                       else f"{s.rank}. {escape(s.name)}") for s in tournament.standings}
    for label, (colour, symbol), member in groups:
        rows = [s for s in tournament.standings if member(s)]
        if not rows:
            continue
        fig.add_trace(go.Scatter(
            x=[s.score for s in rows], y=[labels[s.name] for s in rows], mode="markers",
            name=escape(label),
            marker=dict(color=colour, symbol=symbol, size=style.marker_size * 0.75,
                        line=dict(color=AXIS_COLOUR, width=1)),
            error_x=dict(type="data", array=[s.half_width for s in rows], color=colour,
                         thickness=3 * style.line_scale, width=6),
            customdata=[[s.half_width, s.exact] for s in rows],
            hovertemplate="%{y}: %{x:+.3f} ± %{customdata[0]:.3f} per hand "
                          "(exact %{customdata[1]:+.3f})<extra></extra>"))
    fig.add_vline(x=0, line=dict(color=AXIS_COLOUR, width=2, dash="dot"))
    height = int((ROW_PX * max(len(names), 2)) * style.figure_scale + MARGIN_PX)
    fig.update_layout(
        title=dict(text=f"{escape(tournament.game)}: winnings per hand against the field "
                        "(95% CI)", font=dict(size=style.title_size)),
        xaxis=dict(title="chips won per hand, averaged over opponents"),
        yaxis=dict(categoryorder="array", categoryarray=[labels[n] for n in reversed(names)],
                   title=None),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        height=height, margin=dict(l=10, r=20, t=80, b=60))
    return apply_style(fig, style)
