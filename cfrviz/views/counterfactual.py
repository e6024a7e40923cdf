"""One information set's counterfactual values as bars, one per action.

Pure functions: :func:`counterfactual_values_figure` builds the chart once,
:func:`update_counterfactual_values` moves its bars in place (inside
``batch_update`` for a ``FigureWidget``).
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from ..core.markup import escape
from .style import apply_style, batch, get_style
from .training import ACTION_COLOURS


def counterfactual_values_figure(actions: Sequence[str], values: Sequence[float],
                                 title: str = "counterfactual values",
                                 value_range: tuple[float, float] = (-0.45, 0.45),
                                 presenter: bool | None = None) -> go.Figure:
    """A bar per action with its counterfactual value written above it.

    Parameters
    ----------
    actions : sequence of str
        The bars' labels, e.g. ``("fold (p)", "call (b)")``.
    values : sequence of float
        One counterfactual value per action (see
        :func:`cfrviz.analysis.explain.counterfactual_values`).
    title : str
        Plotly markup written by the caller (game strings in it must be escaped with
        :func:`cfrviz.core.markup.escape`).
    value_range : (float, float)
        The y axis, fixed so that bars move against a still scale.
    presenter : bool, optional
        Larger fonts and figures (default: the global switch).
    """
    style = get_style(presenter)
    # Category labels are plotly markup: action labels from a game file are escaped.
    fig = go.Figure(go.Bar(x=[escape(a) for a in actions], y=[0.0] * len(actions),
                           marker_color=[ACTION_COLOURS[a % len(ACTION_COLOURS)]
                                         for a in range(len(actions))],
                           text=[""] * len(actions), textposition="outside",
                           textfont=style.font(style.font_size)))
    fig.update_layout(title=dict(text=title, font=style.font(style.title_size)),
                      font=style.font(), height=int(330 * style.figure_scale),
                      width=int(520 * style.figure_scale), plot_bgcolor="white",
                      yaxis=dict(range=list(value_range), zeroline=True, zerolinecolor="#888",
                                 gridcolor="#e5e5e5", title="counterfactual value"),
                      margin=dict(l=70, r=20, t=60, b=40))
    update_counterfactual_values(fig, values)
    return apply_style(fig, style)


def update_counterfactual_values(fig, values: Sequence[float]) -> None:
    """Set the bars of :func:`counterfactual_values_figure` to ``values``."""
    values = [float(v) for v in values]
    with batch(fig):
        fig.data[0].y = values
        fig.data[0].text = [f"{v:+.3f}" for v in values]
