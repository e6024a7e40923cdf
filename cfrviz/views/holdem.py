"""The 13x13 hand grid players read a river strategy on (issue 32 item 4).

Pairs on the diagonal, suited hands above it, offsuit below, aces at the top left.  Each cell is
a bar split by action frequency (the class's combos averaged, each weighted by how much of it is
in the range at the node), and its height is the share of the class's combos still in the range
there: a full cell holds every combo the board leaves, an empty one none.  Hovering a cell lists
every combo's strategy and EV.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..analysis.holdem import CLASSES, NodeStrategy, line_name
from ..core.types import FloatArray
from ..games.holdem import RANKS
from .style import OKABE_ITO, apply_style, get_style

#: Rows and columns of the grid: the ranks from ace down to two.
SIZE = 13
#: The part of a cell a full bar fills (the rest is the gap between cells).
FILL = 0.94
#: Colours by kind of action, as players' tools use them: folds blue, checks and calls green,
#: bets and raises warm, darker as they grow (all-in darkest).
FOLD, PASSIVE = OKABE_ITO["blue"], OKABE_ITO["bluish green"]
AGGRESSIVE = ("#F0A830", "#E0703A", "#C0392B", "#7B1E1E")
EMPTY_CELL = "#F2F2F2"


def cell(name: str) -> tuple[int, int]:
    """The (row, column) of hand class ``name`` on the grid: ``AA`` (0, 0), ``AKs`` (0, 1),
    ``AKo`` (1, 0), ``22`` (12, 12)."""
    high, low = (SIZE - 1 - RANKS.index(name[0]), SIZE - 1 - RANKS.index(name[1]))
    return (high, low) if name.endswith("s") or len(name) == 2 else (low, high)


_CELLS = np.array([cell(name) for name in CLASSES])


def action_colours(actions: tuple[str, ...]) -> list[str]:
    """A colour per action label: ``F`` blue, ``X`` and ``C`` green, bets and raises in
    :data:`AGGRESSIVE` from the smallest up, an all-in (``AI...``) the darkest."""
    sizes = [a for a in actions if a not in ("F", "X", "C")]
    colours = []
    for a in actions:
        if a == "F":
            colours.append(FOLD)
        elif a in ("X", "C"):
            colours.append(PASSIVE)
        elif a.startswith("AI"):
            colours.append(AGGRESSIVE[-1])
        else:
            colours.append(AGGRESSIVE[min(sizes.index(a), len(AGGRESSIVE) - 2)])
    return colours


def grid_cells(ns: NodeStrategy) -> tuple[FloatArray, FloatArray, list[str]]:
    """Per hand class (in :data:`CLASSES` order): each action's frequency (169, actions),
    the share of the class in the range here (169,: the weight of its combos over the combos
    the board leaves it), and the hover text."""
    classes = len(CLASSES)
    weight = np.asarray(np.bincount(ns.hand_class, weights=ns.weight, minlength=classes),
                        dtype=np.float64)
    frequency = np.zeros((classes, len(ns.actions)))
    for a in range(len(ns.actions)):
        frequency[:, a] = np.bincount(ns.hand_class, weights=ns.weight * ns.strategy[:, a],
                                      minlength=classes)
    present = weight > 0
    frequency[present] /= weight[present, None]
    possible = ns.class_combos
    share = np.divide(weight, possible, out=np.zeros(classes), where=possible > 0)
    return frequency, np.minimum(share, 1.0), _hover(ns, weight)


def _hover(ns: NodeStrategy, weight: FloatArray) -> list[str]:
    """Each class's hover: its name, combos in range, then one line per combo."""
    lines: list[list[str]] = [[] for _ in CLASSES]
    for k, name in enumerate(ns.combos):
        play = ", ".join(f"{a} {p:.0%}" for a, p in zip(ns.actions, ns.strategy[k]))
        ev = "EV n/a" if np.isnan(ns.ev[k]) else f"EV {ns.ev[k]:.1f}"
        lines[ns.hand_class[k]].append(f"{name} ({ns.weight[k]:.2f}): {play}; {ev}")
    return [f"<b>{CLASSES[c]}</b>: {weight[c]:.2f} combos here<br>" + "<br>".join(rows)
            if rows else f"<b>{CLASSES[c]}</b>: not in the range here"
            for c, rows in enumerate(lines)]


def hand_grid_figure(ns: NodeStrategy, title: str | None = None,
                     presenter: bool | None = None) -> go.Figure:
    """The hand grid of ``ns`` (:func:`cfrviz.analysis.holdem.node_strategy`): one bar trace
    per action (named after it, coloured by :func:`action_colours`), the class names on
    top.  :func:`update_hand_grid` moves it to another profile of the same node."""
    style = get_style(presenter)
    fig = go.Figure()
    rows, cols = _CELLS[:, 0], _CELLS[:, 1]
    fig.add_trace(go.Bar(  # the empty cells' background
        y=rows, x=np.full(len(CLASSES), FILL), base=cols + (1 - FILL) / 2, orientation="h",
        width=FILL, marker=dict(color=EMPTY_CELL, line=dict(width=0)), hoverinfo="skip",
        showlegend=False, name="cells"))
    for action, colour in zip(ns.actions, action_colours(ns.actions)):
        fig.add_trace(go.Bar(y=rows, orientation="h", name=action,
                             marker=dict(color=colour, line=dict(width=0)),
                             hovertemplate="%{hovertext}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=cols + 0.5, y=rows, mode="text", text=list(CLASSES), hoverinfo="skip",
        textfont=style.font(style.small_font, "#1A1A1A"), showlegend=False, name="names"))
    side = 40 * SIZE * style.figure_scale
    fig.update_layout(
        barmode="overlay", bargap=0, width=side + 40, height=side + 110, hovermode="closest",
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0, title_text="action: "),
        xaxis=dict(range=[0, SIZE], visible=False, fixedrange=True),
        yaxis=dict(range=[SIZE - 0.5, -0.5], visible=False, fixedrange=True,
                   scaleanchor="x", scaleratio=1),
        margin=dict(l=10, r=10, t=80, b=10))
    apply_style(fig, style)
    update_hand_grid(fig, ns, title)
    return fig


def _title(ns: NodeStrategy) -> str:
    shares = ", ".join(f"{a} {s:.0%}" for a, s in zip(ns.actions, ns.shares()))
    return f"{line_name(ns.line, ns.player)}: {shares}"


def update_hand_grid(fig, ns: NodeStrategy, title: str | None = None) -> None:
    """Move ``fig`` (from :func:`hand_grid_figure`, for the same node) to the strategy ``ns``:
    the bars' lengths and heights, the hover texts and the title."""
    frequency, share, hover = grid_cells(ns)
    cols = _CELLS[:, 1].astype(float)
    left = cols + (1 - FILL) / 2
    with fig.batch_update():
        for a in range(len(ns.actions)):
            bar = fig.data[1 + a]
            bar.x = frequency[:, a] * FILL
            bar.base = left
            bar.width = share * FILL
            bar.hovertext = hover
            left = left + frequency[:, a] * FILL
        fig.layout.title.text = title if title is not None else _title(ns)
