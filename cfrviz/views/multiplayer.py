"""What CFR's average reaches with more than two players, drawn: each player's gain from
deviating against the average profile, and the coarse-correlated gap of the joint play.

With three players CFR carries no Nash guarantee: the average profile need not be an
equilibrium, and what no-regret learning does guarantee is about the joint play (its
empirical distribution approaches the coarse correlated equilibria).  A run on such a game
(:mod:`cfrviz.solvers.multi`) records both measures; this figure puts them side by side.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.markup import escape
from ..core.trace import Trace
from .compare import positive_or_gap
from .style import OKABE_ITO, PLAYER_COLOURS, RUN_DASHES_BY_PLAYER, apply_style, get_style

__all__ = ["deviation_figure"]


def deviation_figure(trace: Trace, presenter: bool | None = None) -> go.Figure:
    """Per-player deviation gains of the average profile and the coarse-correlated gap of the
    joint play, against iterations, on log-log axes.

    Parameters
    ----------
    trace : Trace
        A run of a full-tree algorithm on a game of more than two players
        (``cfrviz.solve(cfrviz.load_game("kuhn_poker_3p"), "cfr", n)``), which keeps
        ``extras["deviation_gains"]`` and ``extras["cce_gap"]``.
    presenter : bool, optional

    Notes
    -----
    A log axis cannot show a gap of zero or below: the coarse-correlated gap (the largest
    player's external regret per iteration) may be negative, and such points are left out
    of the line, as the hover text of the points drawn says.

    Raises
    ------
    ValueError
        For a trace without these records (a two-player run: use its exploitability).
    """
    if not isinstance(trace, Trace) or "cce_gap" not in trace.extras:
        what = trace.game.name if isinstance(trace, Trace) else type(trace).__name__
        raise ValueError(f"the deviation figure draws a run on a game of more than two players "
                         f"(e.g. cfrviz.solve(cfrviz.load_game('kuhn_poker_3p'), 'cfr', 1000)), "
                         f"which records deviation gains and the coarse-correlated gap; got "
                         f"{what!r} (a two-player run's measure is its exploitability)")
    style = get_style(presenter)
    x = np.asarray(trace.iterations, dtype=float)
    gains = np.asarray(trace.extras["deviation_gains"], dtype=float)
    gap = np.asarray(trace.extras["cce_gap"], dtype=float)
    fig = go.Figure()
    for player in range(gains.shape[1]):
        fig.add_trace(go.Scatter(
            x=x, y=positive_or_gap(gains[:, player]), mode="lines",
            name=f"player {player + 1} gains by deviating from the average",
            line=dict(color=PLAYER_COLOURS[player % len(PLAYER_COLOURS)],
                      dash=RUN_DASHES_BY_PLAYER[player % len(RUN_DASHES_BY_PLAYER)],
                      width=2.0 * style.line_scale),
            hovertemplate=f"player {player + 1}, iteration %{{x:,}}: gain %{{y:.3g}}"
                          "<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=positive_or_gap(gap), mode="lines", name="coarse-correlated gap of the joint play",
        line=dict(color=OKABE_ITO["black"], width=3.0 * style.line_scale),
        hovertemplate="iteration %{x:,}: the joint play so far is a %{y:.3g}-coarse correlated "
                      "equilibrium (points at 0 or below are not drawn)<extra></extra>"))
    fig.update_layout(
        height=int(380 * style.figure_scale), font=style.font(),
        title=dict(text=f"{escape(trace.algorithm)} on {escape(trace.game.name)}: no Nash "
                        "guarantee, measured (log–log)", font=style.font(style.title_size)),
        xaxis=dict(type="log", title="iteration"),
        yaxis=dict(type="log", title="chips per hand", exponentformat="power"),
        margin=dict(l=70, r=20, t=50, b=50),
        legend=dict(x=0.99, y=0.99, xanchor="right", bgcolor="rgba(255,255,255,0.8)"))
    return apply_style(fig, style)
