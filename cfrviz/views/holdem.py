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
from ..games.holdem import RANKS, BetTree
from .style import (
    EDGE_COLOUR,
    OKABE_ITO,
    PLAYER_COLOURS,
    TERMINAL_COLOUR,
    apply_style,
    get_style,
)

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


#: The bet tree figure's traces: edges, then decision nodes (clickable), terminals, the chosen.
BET_TREE_TRACES = ("edges", "decisions", "terminals", "chosen")


def bet_tree_figure(bets: BetTree, chosen: str = "",
                    presenter: bool | None = None) -> go.Figure:
    """The river's bet tree, root at the left: each decision a node (OOP and IP in their
    colours, ``customdata`` its line, so a click picks it), each terminal a grey dot with its
    outcome on hover, each edge labelled by its action; the ``chosen`` decision ringed."""
    style = get_style(presenter)
    x, y = _bet_layout(bets)
    ex, ey, labels = [], [], []
    for i, node in enumerate(bets.nodes):
        for action, child in zip(node.actions, node.children):
            ex += [x[i], x[child], None]
            ey += [y[i], y[child], None]
            labels.append(((x[i] + x[child]) / 2, (y[i] + y[child]) / 2, action))
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", hoverinfo="skip", showlegend=False,
                             line=dict(color=EDGE_COLOUR, width=2), name="edges"))
    decisions = [i for i, node in enumerate(bets.nodes) if not node.terminal]
    fig.add_trace(go.Scatter(
        x=[x[i] for i in decisions], y=[y[i] for i in decisions], mode="markers",
        customdata=[bets.nodes[i].line for i in decisions], name="decisions",
        marker=dict(size=style.marker_size, color=[PLAYER_COLOURS[bets.nodes[i].player]
                                                   for i in decisions]),
        hovertext=[f"{line_name(bets.nodes[i].line, bets.nodes[i].player)} (click to show)"
                   for i in decisions], hoverinfo="text", showlegend=False))
    ends = bets.terminal_nodes()
    fig.add_trace(go.Scatter(
        x=[x[i] for i in ends], y=[y[i] for i in ends], mode="markers", name="terminals",
        marker=dict(size=style.marker_size * 0.6, color=TERMINAL_COLOUR),
        hovertext=[f"{bets.nodes[i].line}: pot {bets.nodes[i].pot:g}" for i in ends],
        hoverinfo="text", showlegend=False))
    fig.add_trace(go.Scatter(x=[], y=[], mode="markers", hoverinfo="skip", showlegend=False,
                             name="chosen", marker=dict(size=style.marker_size * 1.8,
                                                        color="rgba(0,0,0,0)",
                                                        line=dict(width=3, color="#1A1A1A"))))
    for lx, ly, text in labels:
        fig.add_annotation(x=lx, y=ly, text=text, showarrow=False, yshift=9,
                           font=dict(size=style.small_font))
    fig.update_layout(height=(max(y) + 1) * 28 * style.figure_scale + 60,
                      margin=dict(l=10, r=10, t=30, b=10), hovermode="closest",
                      title="the bet tree: click a decision",
                      xaxis=dict(visible=False, fixedrange=True),
                      yaxis=dict(visible=False, fixedrange=True, autorange="reversed"))
    apply_style(fig, style)
    choose_bet_node(fig, bets, chosen)
    return fig


def choose_bet_node(fig, bets: BetTree, line: str) -> None:
    """Ring the decision at ``line`` in :func:`bet_tree_figure`'s figure."""
    x, y = _bet_layout(bets)
    i = bets.index(line)
    with fig.batch_update():
        fig.data[BET_TREE_TRACES.index("chosen")].update(x=[x[i]], y=[y[i]])


def _bet_layout(bets: BetTree) -> tuple[list[float], list[float]]:
    """x: depth; y: leaves in order, each inner node at the mean of its children."""
    x, y = [0.0] * len(bets.nodes), [0.0] * len(bets.nodes)
    leaf = 0

    def place(i: int, depth: int) -> float:
        nonlocal leaf
        x[i] = float(depth)
        node = bets.nodes[i]
        if node.terminal:
            y[i] = float(leaf)
            leaf += 1
        else:
            y[i] = float(np.mean([place(c, depth + 1) for c in node.children]))
        return y[i]

    place(0, 0)
    return x, y
