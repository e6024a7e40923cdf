"""Figures of subgame solving: the public tree, both players' ranges at a public state, and a
re-solve (its subgame CFR converging, and the whole game's exploitability before and after).

Pure functions from (:class:`~cfrviz.games.public.PublicTree`, a selection, numbers) to plotly
figures; :class:`cfrviz.widgets.ResolveExplorer` draws them and updates them in place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..core.markup import escape
from ..games.public import CHANCE_STATE, TERMINAL_STATE, PublicTree, Ranges
from .style import (
    CHANCE_COLOUR,
    EDGE_COLOUR,
    OKABE_ITO,
    PLAYER_COLOURS,
    SELECTED_COLOUR,
    TERMINAL_COLOUR,
    apply_style,
    get_style,
)

__all__ = ["convergence_traces", "public_layout", "public_tree_figure", "ranges_figure",
           "resolve_figure", "tree_title"]

#: The node kinds of the public tree figure, in trace order: (name, colour, symbol).
KINDS = (("player 1 acts", PLAYER_COLOURS[0], "circle"),
         ("player 2 acts", PLAYER_COLOURS[1], "square"),
         ("chance (a deal or a public card)", CHANCE_COLOUR, "diamond"),
         ("game over", TERMINAL_COLOUR, "circle-open"))
#: Trace index of the ring around the selected state (after the edges and the four kinds).
SELECTED_TRACE = 5
#: Colours of the bars of the exploitability panel, by what they measure.
BLUEPRINT_COLOUR = "#8C8C8C"
METHOD_COLOURS = {"unsafe": OKABE_ITO["vermillion"], "resolve": OKABE_ITO["bluish green"],
                  "maxmargin": OKABE_ITO["blue"]}
#: Short names of the re-solving methods on an axis.
METHOD_SHORT = {"unsafe": "unsafe", "resolve": "gadget", "maxmargin": "max-margin"}


def public_layout(public: PublicTree) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of every public state: leaves one slot apart in tree order, a parent centred over
    its children, ``y`` minus the depth (the root on top)."""
    n = len(public.states)
    x = np.zeros(n)
    y = np.zeros(n)
    for s in public.states:  # parents precede children: depth first
        y[s.id] = 0.0 if s.parent < 0 else y[s.parent] - 1.0
    for slot, leaf in enumerate(_leaf_order(public)):
        x[leaf] = slot
    for s in reversed(public.states):
        if s.children:
            x[s.id] = float(np.mean([x[c] for c in s.children]))
    return x, y


def _leaf_order(public: PublicTree) -> list[int]:
    """The leaves in depth-first order of the children as listed."""
    out: list[int] = []
    stack = [public.root.id]
    while stack:
        s = public.states[stack.pop()]
        if not s.children:
            out.append(s.id)
        stack.extend(reversed(s.children))
    return out


def _kind_index(public: PublicTree, sid: int) -> int:
    s = public.states[sid]
    if s.kind == TERMINAL_STATE:
        return 3
    if s.kind == CHANCE_STATE:
        return 2
    return s.player


def public_tree_figure(public: PublicTree, selected: int | None = None,
                       presenter: bool | None = None) -> go.Figure:
    """The public tree: one marker per public state (coloured by who acts), edges between them,
    the selected state ringed.  Each marker's ``customdata`` is its state id (for clicks).

    Parameters
    ----------
    public : PublicTree
    selected : int, optional
        The id of the state to ring.
    presenter : bool, optional
    """
    style = get_style(presenter)
    x, y = public_layout(public)
    ex: list[float | None] = []
    ey: list[float | None] = []
    for s in public.states[1:]:
        ex += [x[s.parent], x[s.id], None]
        ey += [y[s.parent], y[s.id], None]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", hoverinfo="skip", showlegend=False,
                             name="edges", line=dict(color=EDGE_COLOUR,
                                                     width=2.0 * style.line_scale)))
    kinds = np.array([_kind_index(public, s.id) for s in public.states])
    for k, (name, colour, symbol) in enumerate(KINDS):
        ids = np.flatnonzero(kinds == k)
        size = style.marker_size * (0.55 if k == 3 else 0.8)
        fig.add_trace(go.Scatter(
            x=x[ids], y=y[ids], mode="markers", name=name, customdata=ids,
            text=[escape(public.states[i].history or "(root, before the deal)") for i in ids],
            marker=dict(color=colour, symbol=symbol, size=size,
                        line=dict(width=2.0 * style.line_scale, color=colour)),
            hovertemplate="%{text}<extra>" + escape(name) + "</extra>"))
    sx, sy, text = ([], [], [])
    if selected is not None:
        sx, sy = [x[selected]], [y[selected]]
        text = [escape(public.states[selected].history)]
    fig.add_trace(go.Scatter(
        x=sx, y=sy, mode="markers", name="selected", text=text, hoverinfo="skip",
        marker=dict(symbol="circle-open", size=style.marker_size * 1.6, color=SELECTED_COLOUR,
                    line=dict(width=3.0 * style.line_scale, color=SELECTED_COLOUR))))
    depth = int(-y.min()) + 1
    fig.update_layout(
        height=int(max(320, 42 * depth) * style.figure_scale), font=style.font(),
        title=dict(text=tree_title(public, selected), font=style.font(style.title_size)),
        xaxis=dict(visible=False), yaxis=dict(visible=False),
        margin=dict(l=20, r=20, t=60, b=20), clickmode="event",
        legend=dict(orientation="h", y=-0.02, yanchor="top"))
    return apply_style(fig, style)


def tree_title(public: PublicTree, selected: int | None = None) -> str:
    """The public tree figure's title, naming the selected state."""
    chosen = public.states[selected].history if selected is not None else "none"
    return (f"the public tree of {escape(public.tree.name)}: {len(public)} public states "
            f"(click one) — selected: {escape(chosen)}")


def ranges_figure(public: PublicTree, history: str, rng: Ranges | None,
                  presenter: bool | None = None) -> go.Figure:
    """Both players' ranges at a public state, as bars: the probability of each private hand
    given that play (the blueprint) reached the state.

    Parameters
    ----------
    public : PublicTree
    history : str
        The state's public history (for the title).
    rng : Ranges or None
        :func:`cfrviz.games.public.ranges` at the state (``None``: nothing selected yet).
    presenter : bool, optional
    """
    style = get_style(presenter)
    fig = make_subplots(rows=1, cols=2, subplot_titles=("player 1's range", "player 2's range"),
                        horizontal_spacing=0.12)
    reached = rng is not None and rng.joint().sum() > 0
    for p in (0, 1):
        hands = list(public.hands(p))
        belief = rng.belief(p) if reached and rng is not None else np.zeros(len(hands))
        fig.add_trace(go.Bar(
            x=hands, y=belief, name=f"player {p + 1}", marker=dict(color=PLAYER_COLOURS[p]),
            text=[f"{b:.2f}" for b in belief], textposition="outside",
            textfont=style.font(style.small_font), showlegend=False,
            hovertemplate=f"player {p + 1} holds %{{x}}: %{{y:.3f}}<extra></extra>"),
            row=1, col=p + 1)
        fig.update_yaxes(range=[0, 1.15], title="probability" if p == 0 else None,
                         row=1, col=p + 1)
        fig.update_xaxes(title="private hand", row=1, col=p + 1)
    where = escape(history) if history else "—"
    note = "" if reached or rng is None else " (the blueprint never reaches it)"
    fig.update_layout(
        height=int(330 * style.figure_scale), font=style.font(),
        title=dict(text=f"ranges at {where} under the blueprint{note}",
                   font=style.font(style.title_size)),
        margin=dict(l=70, r=20, t=80, b=60), showlegend=False)
    for annotation in fig.layout.annotations:
        annotation.font = style.font(style.font_size)
    return apply_style(fig, style)


def convergence_traces(curves: Sequence[tuple[str, Sequence[int], Sequence[float]]],
                       presenter: bool | None = None) -> list[go.Scatter]:
    """One line per gadget: (name, iterations, the gadget's exploitability after each)."""
    style = get_style(presenter)
    dashes = ("solid", "dash")
    return [go.Scatter(x=list(its), y=[max(float(v), 1e-12) for v in values],
                       mode="lines+markers", name=name,
                       line=dict(color=PLAYER_COLOURS[k % 2], dash=dashes[k % 2],
                                 width=2.5 * style.line_scale),
                       marker=dict(size=6 * style.line_scale, color=PLAYER_COLOURS[k % 2]),
                       hovertemplate="iteration %{x:,}: %{y:.3g}<extra>" + escape(name)
                                     + "</extra>")
            for k, (name, its, values) in enumerate(curves)]


def resolve_figure(curves: Sequence[tuple[str, Sequence[int], Sequence[float]]],
                   blueprint: float | None, results: Mapping[str, tuple[float, float]],
                   history: str = "", presenter: bool | None = None) -> go.Figure:
    """A re-solve: its subgame CFR converging (left) and the whole game's exploitability of the
    blueprint and of each re-solved strategy, with the safety bound (right).

    Parameters
    ----------
    curves : sequence of (name, iterations, exploitability)
        The gadgets solved (see :func:`convergence_traces`); empty before a re-solve.
    blueprint : float or None
        The blueprint's whole-game exploitability.
    results : mapping method -> (exploitability, bound)
        The re-solves done at this state (``bound`` ``inf`` for ``"unsafe"``).
    history : str
        The public state, for the title.
    presenter : bool, optional
    """
    style = get_style(presenter)
    fig = make_subplots(rows=1, cols=2, column_widths=[0.55, 0.45], horizontal_spacing=0.14,
                        subplot_titles=("CFR+ on the subgame (its gadget's exploitability)",
                                        "whole game's exploitability"))
    for trace in convergence_traces(curves, presenter):
        fig.add_trace(trace, row=1, col=1)
    names = ["blueprint"] + [METHOD_SHORT[m] for m in results]
    values = ([blueprint] if blueprint is not None else [0.0]) + [v for v, _ in results.values()]
    colours = [BLUEPRINT_COLOUR] + [METHOD_COLOURS[m] for m in results]
    fig.add_trace(go.Bar(x=names, y=values, marker=dict(color=colours), showlegend=False,
                         name="exploitability", text=[f"{v:.4f}" for v in values],
                         textposition="inside", insidetextanchor="end",
                         textfont=style.font(style.small_font, "white"),
                         hovertemplate="%{x}: %{y:.5f} chips per hand<extra></extra>"),
                  row=1, col=2)
    safe = [(METHOD_SHORT[m], blueprint + b) for m, (_, b) in results.items()
            if blueprint is not None and np.isfinite(b)]
    fig.add_trace(go.Scatter(
        x=[n for n, _ in safe], y=[v for _, v in safe], mode="markers",
        name="safety bound (blueprint + bound)",
        marker=dict(symbol="line-ew-open", size=34 * style.line_scale, color=OKABE_ITO["black"],
                    line=dict(width=3.0 * style.line_scale, color=OKABE_ITO["black"])),
        hovertemplate="%{x}: at most %{y:.5f} is guaranteed<extra></extra>"), row=1, col=2)
    fig.update_xaxes(type="log", title="subgame iteration", row=1, col=1)
    fig.update_yaxes(type="log", title="exploitability", exponentformat="power", row=1, col=1)
    top = max([v for v in values] + [v for _, v in safe] + [1e-9])
    fig.update_yaxes(range=[0, top * 1.25], title="chips per hand", row=1, col=2)
    where = escape(history) if history else "—"
    fig.update_layout(
        height=int(400 * style.figure_scale), font=style.font(),
        title=dict(text=f"re-solving at {where}", font=style.font(style.title_size)),
        margin=dict(l=70, r=20, t=90, b=110),
        legend=dict(orientation="h", y=-0.3, yanchor="top"))
    for annotation in fig.layout.annotations:
        annotation.font = style.font(style.font_size)
    return apply_style(fig, style)
