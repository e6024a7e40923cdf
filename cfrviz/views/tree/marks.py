"""The fixed parts of a tree's figure: the nodes with their hover texts, the information-set
groups (shaded bands, dashed connectors) with their key labels, and the layout.  Pure
functions of the tree and the drawing's coordinates, which
:class:`~cfrviz.views.tree.view.TreeView` computes once."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go

from ...core.markup import escape
from ...core.tree import CHANCE, TERMINAL, GameTree
from ..style import (
    BEST_RESPONSE_COLOUR,
    CHANCE_COLOUR,
    PLAYER_COLOURS,
    ROLE_SYMBOLS,
    TERMINAL_COLOUR,
    Style,
)
from .graph import fraction_label, node_role
from .layout import LANE_BASE, LANE_STEP

#: How many other members of an information set a hover lists by history.
HOVER_MEMBERS = 8

#: ``screen(across, level) -> (x, y)``: the figure's coordinates of layout coordinates.
Screen = Callable[[list, list], tuple[list, list]]


def payoff_text(u) -> str:
    """A terminal's payoffs as its label: player 1's alone in a zero-sum two-player game."""
    def one(v):
        if v == 0:
            return "0"
        return f"{v:+g}" if float(v).is_integer() else f"{v:+.3g}"
    if len(u) == 2 and abs(u[0] + u[1]) < 1e-9:
        return one(u[0])
    return ",".join(one(v) for v in u)  # no spaces: neighbouring leaves' payoffs stay apart


def alpha(hex_colour: str, opacity: float) -> str:
    """``"#rrggbb"`` with an opacity, as plotly's ``rgba(...)``."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{opacity})"


def node_hover(tree: GameTree, n: int, drawn: np.ndarray,
               sizes: Callable[[], np.ndarray]) -> str:
    """Node ``n``'s hover text: its role, history, information set (and the set's other
    members) or outcomes or payoffs, and what below it is not drawn (``sizes()``: the
    subtree sizes, computed only when needed)."""
    who = tree.player[n]
    history = tree.history[n] or "(start)"
    lines = [f"<b>{node_role(tree, n)}</b> · node {n}", f"history: {escape(history)}"]
    if who >= 0:
        lines += _decision_lines(tree, n, drawn)
    elif who == CHANCE:
        outcomes = [f"{escape(lab)} {fraction_label(tree.chance_prob[c])}"
                    for lab, c in zip(tree.chance_labels[n], tree.children[n].tolist())]
        lines.append("outcomes: " + ", ".join(outcomes[:12])
                     + (", ..." if len(outcomes) > 12 else ""))
    else:
        u = tree.utility[n]
        lines.append("payoffs: " + ", ".join(f"player {p + 1} {v:+g}" for p, v in enumerate(u)))
    kids = tree.children[n]
    drawn_kids = int(drawn[kids].sum()) if len(kids) else 0
    if len(kids) and drawn_kids == 0:
        lines.append(f"{int(sizes()[n]) - 1:,} nodes below not drawn")
    elif drawn_kids < len(kids):
        lines.append(f"{len(kids) - drawn_kids} of {len(kids)} branches not drawn")
    return "<br>".join(lines)


def _decision_lines(tree: GameTree, n: int, drawn: np.ndarray) -> list[str]:
    info = int(tree.infoset[n])
    members = tree.infoset_members(info)
    others = [m for m in members.tolist() if m != n]
    lines = [f"information set: <b>{escape(tree.infoset_keys[info])}</b> "
             f"({len(members)} node{'s' if len(members) > 1 else ''})"]
    if others:
        shown = [escape(tree.history[m]) + ("" if drawn[m] else " (not drawn)")
                 for m in others[:HOVER_MEMBERS]]
        more = len(others) - HOVER_MEMBERS
        lines.append("other members: " + ", ".join(shown)
                     + (f", and {more} more" if more > 0 else ""))
    lines.append("actions: " + " ".join(map(escape, tree.infoset_actions[info])))
    return lines


def node_trace(tree: GameTree, role: str, nodes: np.ndarray, x: np.ndarray, y: np.ndarray,
               orientation: str, style: Style, hover: Callable[[int], str]) -> go.Scatter:
    """The markers of the drawn ``nodes`` of one role ("player 1", "chance", "terminal",
    ...), with ``[node id, information-set id]`` as customdata and ``hover(node)`` as
    hover text."""
    s = style
    code = {"chance": CHANCE, "terminal": TERMINAL}.get(role, int(role[len("player "):]) - 1
                                                        if role.startswith("player ") else 0)
    nodes = nodes[tree.player[nodes] == code]
    hovertext = [hover(int(n)) for n in nodes]
    custom = np.column_stack([nodes, tree.infoset[nodes]]) if len(nodes) else None
    if role == "terminal":
        return go.Scatter(
            x=x[nodes], y=y[nodes], mode="markers+text",
            text=[payoff_text(tree.utility[n]) for n in nodes],
            textposition="bottom center" if orientation == "down" else "middle right",
            textfont=s.font(s.font_size, "#222222"),
            marker=dict(symbol=ROLE_SYMBOLS[role], size=s.marker_size * 0.6,
                        color=TERMINAL_COLOUR, line=dict(width=0)),
            name=("terminal (payoff to player 1)" if tree.num_players == 2 else
                  f"terminal (payoffs to players 1–{tree.num_players})"),
            customdata=custom, hovertext=hovertext,
            hoverinfo="text")
    colour = CHANCE_COLOUR if role == "chance" else PLAYER_COLOURS[code]
    text = "c" if role == "chance" else str(code + 1)
    return go.Scatter(
        x=x[nodes], y=y[nodes], mode="markers+text", text=[text] * len(nodes),
        textposition="middle center", textfont=s.font(s.small_font, "white"),
        marker=dict(symbol=ROLE_SYMBOLS[role], size=s.marker_size, color=colour,
                    line=dict(color="white", width=1)),
        name=f"{role} ({ROLE_SYMBOLS[role]})", customdata=custom, hovertext=hovertext,
        hoverinfo="text")


def group_traces(tree: GameTree, groups: dict[int, np.ndarray], lanes: dict[int, int],
                 across: np.ndarray, level: np.ndarray, side: bool, screen: Screen,
                 style: Style) -> tuple[list[tuple[str, go.Scatter]], tuple[list, ...]]:
    """Information sets with several drawn members, as one trace per player and kind (shaded
    bands, dashed connectors) and a legend entry: ``([(name, trace), ...], (key label x,
    y, text, hover))``.  Built in the layout's own coordinates (``across``, ``level``), then
    turned by ``screen``; ``side``: the tree is drawn on its side."""
    label_x, label_y, label_text, label_hover = [], [], [], []
    kinds: dict[tuple[str, int], dict] = {}
    for info in sorted(groups, key=lambda i: (-level[groups[i][0]], across[groups[i]].min())):
        members = groups[info]
        path_x, path_y, lx, ly = _group_path(np.sort(across[members]), float(level[members[0]]),
                                             lanes[info], side)
        label_x.append(lx)
        label_y.append(ly)
        path_x, path_y = screen(path_x, path_y)
        player = int(tree.infoset_player[info])
        key = tree.infoset_keys[info]
        group = kinds.setdefault(("band" if lanes[info] < 0 else "connector", player),
                                 dict(x=[], y=[], infosets=[], keys=[], members=[]))
        group["x"] += path_x
        group["y"] += path_y
        group["infosets"].append(int(info))
        group["keys"].append(escape(key))  # meta is read by plotly templates
        group["members"].append([int(m) for m in members])
        label_text.append(escape(key))
        label_hover.append(f"information set <b>{escape(key)}</b> (player {player + 1}): "
                           + ", ".join(escape(tree.history[m]) for m in members))
    traces = [_group_trace(kind, player, group, style)
              for (kind, player), group in sorted(kinds.items())]
    traces.append(("infoset legend", go.Scatter(
        x=[None], y=[None], mode="lines", name="information set (dashed / shaded)",
        legendgroup="infosets", line=dict(color="#555555", dash="dash",
                                          width=2.0 * style.line_scale))))
    label_x, label_y = screen(label_x, label_y)
    return traces, (label_x, label_y, label_text, label_hover)


def _group_path(xs: np.ndarray, level_y: float, lane: int, side: bool
                ) -> tuple[list, list, float, float]:
    """One set's path (a band round its members, or a connector in its lane with a drop to
    each member) and where its key goes, in layout coordinates.  None, not NaN, breaks the
    line: a plain list is sent as JSON, which has no NaN."""
    lo, hi = float(xs[0]), float(xs[-1])
    if lane < 0:
        # A shaded band behind side-by-side members.
        x0, x1, y0, y1 = lo - 0.38, hi + 0.38, level_y - 0.24, level_y + 0.24
        # Before the band; on its side, above it (a key ends left of the column).
        return ([x0, x1, x1, x0, x0, None], [y0, y0, y1, y1, y0, None],
                x0 - (0.55 if side else 0.05), level_y + (0.3 if side else 0.0))
    # A dashed connector in its lane, with a drop to each member.
    ly = level_y + LANE_BASE + LANE_STEP * lane
    path_x: list = [lo, hi, None]
    path_y: list = [ly, ly, None]
    for m in xs.tolist():
        path_x += [m, m, None]
        path_y += [ly, level_y + 0.12, None]
    return path_x, path_y, lo - (0.55 if side else 0.06), ly


def _group_trace(kind: str, player: int, group: dict, style: Style) -> tuple[str, go.Scatter]:
    colour = PLAYER_COLOURS[player]
    meta = {k: group[k] for k in ("infosets", "keys", "members")}
    name = f"information sets of player {player + 1}"
    if kind == "band":
        return f"bands of player {player + 1}", go.Scatter(
            x=group["x"], y=group["y"], mode="lines", fill="toself",
            fillcolor=alpha(colour, 0.16), name=name, meta=meta, showlegend=False,
            line=dict(color=alpha(colour, 0.6), width=2.0 * style.line_scale,
                      dash="dash"), hoverinfo="skip")
    return f"connectors of player {player + 1}", go.Scatter(
        x=group["x"], y=group["y"], mode="lines", name=name, meta=meta,
        line=dict(color=colour, width=2.0 * style.line_scale, dash="dash"),
        showlegend=False, hoverinfo="skip")


def figure_layout(fig, name: str, what: str | None, notes: tuple[str, ...], style: Style,
                  levels: float, x_range: list[float], y_range: list[float]) -> None:
    """The tree figure's layout: its title (the game, and ``what`` is drawn), the ``notes``
    above the plot, a height of ``levels`` levels, no axes, the legend below."""
    s = style
    # The title and the notes name the game, deals and histories: escaped as plotly markup.
    title = escape(name.replace("_", " "))
    if what:
        title += f" — {escape(what)}"
    shown = [escape(note) for note in notes]
    top = 60 + 22 * len(shown) * (1.5 if s.presenter else 1.0)
    # No width: plotly's autosize fits the figure to the output area it is shown in (a
    # fixed width scrolled sideways in a notebook); the height is fixed by the levels.
    fig.update_layout(
        title=dict(text=title, font=s.font(s.title_size), x=0.01, xanchor="left"),
        font=s.font(),
        height=int(levels * s.level_px + top + 110 * s.figure_scale),
        margin=dict(l=8, r=8, t=int(top), b=int(80 * s.figure_scale)),
        plot_bgcolor="white", paper_bgcolor="white",
        xaxis=dict(visible=False, range=x_range),
        yaxis=dict(visible=False, range=y_range),
        legend=dict(orientation="h", x=0, y=-0.01, yanchor="top", font=s.font(s.small_font)),
        hoverlabel=dict(font=s.font(s.small_font), align="left"),
        uirevision="tree",
        annotations=[
            dict(text="<br>".join(shown), xref="paper", yref="paper", x=0, y=1.0,
                 yanchor="bottom", xanchor="left", showarrow=False, align="left",
                 font=s.font(s.small_font, "#444444")),
            dict(text="", xref="paper", yref="paper", x=1, y=1.0, yanchor="bottom",
                 xanchor="right", showarrow=False, align="right",
                 font=s.font(s.small_font, BEST_RESPONSE_COLOUR)),
        ])
