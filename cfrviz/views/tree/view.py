"""The drawing itself: :class:`TreeView` (built once: layout, figure, skeleton; its in-place
updates are :class:`~cfrviz.views.tree.redraw.Redraw`) and :func:`plot_tree`."""

from __future__ import annotations

from html import unescape
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go

from ...core.checks import check_flag
from ...core.markup import escape
from ...core.tree import CHANCE, TERMINAL, GameTree, as_tree
from ..style import (
    BEST_RESPONSE_COLOUR,
    CHANCE_COLOUR,
    EDGE_COLOUR,
    SELECTED_COLOUR,
    ZERO_EDGE_COLOUR,
    apply_style,
    fit_to_output,
    get_style,
)
from .frames import (
    WIDTH_STEPS,
    edge_width,
    strategy_array,
)
from .graph import edge_label, fraction_label, tree_graph
from .layout import infoset_lanes, tidy_layout
from .marks import figure_layout, group_traces, node_hover, node_trace, payoff_text
from .redraw import Redraw
from .selection import select, subtree_sizes

if TYPE_CHECKING:
    import networkx as nx

#: Tree figures take the width of their output area; labels are placed (staggered where
#: neighbours would touch) to stay readable down to a plot this many pixels wide (the output
#: area of a notebook in a 1000-pixel window with JupyterLab's file browser open).
NARROW_PX = 560
#: Width of one character of the small font, in units of the font size (Arial, mixed text).
CHAR_EM = 0.58
#: The width a tree is laid out for: JupyterLab's output area in a 1280-pixel window
#: (``benchmarks/screens.py``); ``tests/test_tree_layout.py`` checks every game's drawing
#: at this width for overlapping markers and labels.
DEFAULT_PX = 848
#: A tree whose levels would give a node less than this many pixels across at
#: ``DEFAULT_PX`` is drawn on its side (root on the left, levels as columns), each node in a
#: row of its own ``ROW_PX`` pixels high: the figure grows taller, never wider.
MIN_UNIT_PX = 20
ROW_PX = 20
#: Trees with more information-set groups than this label them as plain text, without the
#: white ground (one annotation each).
MAX_BOXED_KEYS = 60
ROLES = ("player 1", "player 2", "chance", "terminal")


def roles_of(tree: GameTree) -> tuple[str, ...]:
    """The node roles a tree's figure draws: :data:`ROLES`, with one more player role per
    player beyond two (three-player Kuhn poker: "player 3")."""
    more = tuple(f"player {p + 1}" for p in range(2, tree.num_players))
    return ROLES[:2] + more + ROLES[2:]


def _crowded_levels(anchor_x, level_y, left, text, unit_px: float,
                    font_px: float = 11.0) -> np.ndarray:
    """Per label: whether its level has a label right of an edge that would run into the
    next label, left of the next edge, when one layout unit is ``unit_px`` pixels wide."""
    crowded = np.zeros(len(anchor_x), dtype=bool)
    # A strategy adds up to four characters (" .33") to an action's label.
    width = np.array([len(str(t)) + 4 for t in text], dtype=float) * CHAR_EM * font_px
    for level in np.unique(level_y):
        on = np.flatnonzero(level_y == level)
        on = on[np.argsort(anchor_x[on], kind="stable")]
        a, b = on[:-1], on[1:]
        room = (anchor_x[b] - anchor_x[a]) * unit_px - 0.2 * unit_px
        if np.any(~left[a] & left[b] & (room < width[a] + width[b] + 4)):
            crowded[on] = True
    return crowded


def _empty_figure(widget: bool | go.FigureWidget) -> go.Figure:
    """The figure to draw into: ``widget`` if it is an empty ``FigureWidget``, else a new
    ``go.FigureWidget`` (``True``) or ``go.Figure`` (``False``)."""
    if isinstance(widget, go.FigureWidget):
        if widget.data:
            raise ValueError("widget must be True, False or an empty FigureWidget to draw "
                             f"into; this one has {len(widget.data)} traces already")
        return widget
    return go.FigureWidget() if check_flag(widget, "widget") else go.Figure()


def _segments(x0, y0, x1, y1) -> tuple[np.ndarray, np.ndarray]:
    """Line segments as one polyline with NaN breaks (plotly draws NaN as a gap)."""
    nan = np.full(len(x0), np.nan)
    return (np.column_stack([x0, x1, nan]).ravel(), np.column_stack([y0, y1, nan]).ravel())


class TreeView(Redraw):
    """A game tree's drawing: the layout and which trace draws what, computed once.

    Parameters
    ----------
    game : GameTree or MatrixGame
    subtree : int, str or sequence of str, optional
        What to draw: a node id; a history (``"KQ:p"``); or a deal, as chance
        outcomes from the root (``"KQ"`` in Kuhn poker, ``"QK"`` in Leduc,
        ``"AK,QQ|J"`` or ``("AK", "QQ", "J")`` in pocket poker).  A prefix of
        several outcomes draws them all (``"Q"``: every Leduc deal in which
        player 1 holds a queen).  The path from the root is drawn too.  By
        default the whole tree, or its first deal when it has more than
        ``MAX_NODES`` nodes.
    depth : int, optional
        Draw at most this many levels below the selected node (the root by
        default); ``⋯`` marks where the drawing is cut.
    presenter : bool, optional
        Presenter sizes (see :func:`~cfrviz.views.style.set_presenter`).

    Attributes
    ----------
    tree : GameTree
    nodes : int array
        Drawn node ids.
    x, y : float arrays of shape (tree nodes,)
        Coordinates (NaN where not drawn).
    orientation : str
        ``"down"`` (root on top, a level per row) or ``"right"`` (on its side, a level
        per column and a row per node, for trees too wide for ``DEFAULT_PX`` or whose edge
        labels would overlap, such as a Leduc deal).
    groups : dict
        ``{information-set id: drawn member node ids}`` for every set with two or
        more drawn members (each drawn as one group trace).
    notes : tuple of str
        What the drawing hides, in words (also shown on the figure).
    traces : dict
        Trace indices by name, for widgets that update the figure themselves.

    Notes
    -----
    Clicking: the node traces (``traces["player 1"]`` etc.) carry ``customdata``
    rows ``[node id, information-set id]``.  A widget attaches a handler with::

        view.on_node_click(fig, lambda node, infoset: ...)

    which is ``trace.on_click`` on each node trace of a ``FigureWidget``, mapped
    through :meth:`clicked`.
    """

    def __init__(self, game, *, subtree=None, depth=None, presenter: bool | None = None):
        tree = as_tree(game, "plot_tree")
        self.tree = tree
        self.style = get_style(presenter)
        sel = select(tree, subtree, depth)
        self.selection = sel
        self.notes = sel.notes
        self.x, self.y = tidy_layout(tree, sel.drawn)
        self.nodes = np.flatnonzero(sel.drawn)
        self._graph = None
        #: "down" (root on top, levels as rows) or "right" (on its side, for wide trees such
        #: as one Leduc deal: levels as columns, every node a row of its own).
        self.orientation = "down"
        if self._unit_px(DEFAULT_PX) < MIN_UNIT_PX or self._labels_collide():
            self.orientation = "right"
            self.x, self.y = tidy_layout(tree, sel.drawn, leaf_reach=self._payoff_reaches())
        # Information sets with two or more drawn members, each a band or a connector in a
        # lane above its level (levels with lanes get taller).
        self.groups, self._lanes, self.y = infoset_lanes(tree, self.nodes, self.x, sel.drawn)
        # The layout's own coordinates (across, level), which the sideways drawing turns.
        self._across, self._level = self.x, self.y
        self.x, self.y = self._screen(self._across, self._level)
        self._edges()
        self._label_places: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.traces: dict[str, int] = {}
        #: Whether the last figure built draws only the skeleton (see :meth:`figure`).
        self.skeleton = False

    def _payoff_reaches(self) -> np.ndarray:
        """Per node, drawn on its side: whether its payoff, written right of the leaf, would
        run into the label of an edge to the next level on the same row (the leaf then keeps
        that row there too)."""
        tree = self.tree
        font, marker = self.style.font_size, self.style.marker_size
        per_level = (DEFAULT_PX - 16) / (float(np.max(tree.depth[self.nodes])) + 0.6)
        # The widest edge label into each level: an action and " .33", or a chance
        # outcome and its fraction on a white ground.
        label_px = np.zeros(int(np.max(tree.depth)) + 2)
        for c in self.nodes[self.nodes != 0].tolist():
            if tree.player[tree.parent[c]] == CHANCE:
                chars = len(edge_label(tree, c)) + 1 + len(fraction_label(
                    tree.chance_prob[c]))
                px = chars * CHAR_EM * font + 4
            else:
                px = (len(edge_label(tree, c)) + 4) * CHAR_EM * font
            label_px[tree.depth[c]] = max(label_px[tree.depth[c]], px)
        # A payoff starts 0.3 marker sizes / 0.8 + 1 px right of its leaf (plotly.js); the
        # next edge's label ends 3 px before its node's marker.
        room = per_level - label_px[np.minimum(tree.depth + 1, len(label_px) - 1)] \
            - (0.3 * marker / 0.8 + 1) - (0.65 * marker + 3)
        payoff_px = np.array([len(payoff_text(u)) for u in tree.utility]) * CHAR_EM * font
        return payoff_px > room

    def _edges(self) -> None:
        """The drawn edges (every drawn node but the root), split by who moves at the parent,
        and the decision edges' labels, hover texts and segments."""
        tree = self.tree
        children = self.nodes[self.nodes != 0]
        decision = tree.player[tree.parent[children]] >= 0
        self.decision_edges = children[decision]
        self.chance_edges = children[~decision]
        d = self.decision_edges
        self._edge_infoset = tree.infoset[tree.parent[d]]
        self._edge_action = tree.action[d]
        self._edge_player = tree.player[tree.parent[d]]
        #: The action of each decision edge, as plain text (escaped where it becomes markup).
        self.edge_actions = [edge_label(tree, int(c)) for c in d]
        # Labels and hover texts as plotly markup: game strings escaped once, here.
        self._edge_labels = [escape(a) for a in self.edge_actions]
        self._edge_where = [escape(f"{tree.infoset_keys[i]} (history "
                                   f"{tree.history[tree.parent[c]]!r})")
                            for c, i in zip(d.tolist(), self._edge_infoset.tolist())]
        #: Each decision edge as (parent x, parent y, child x, child y).
        self.edge_segments = np.column_stack([self.x[tree.parent[d]], self.y[tree.parent[d]],
                                              self.x[d], self.y[d]])
        # float32, as they are sent per step (see ``_EMPTY``).
        nan = np.full(len(d), np.nan)
        self._seg_x = np.column_stack([self.edge_segments[:, 0], self.edge_segments[:, 2],
                                       nan]).astype(np.float32)
        self._seg_y = np.column_stack([self.edge_segments[:, 1], self.edge_segments[:, 3],
                                       nan]).astype(np.float32)

    # --- public helpers ---------------------------------------------------------------------

    @property
    def graph(self) -> nx.DiGraph:
        """:func:`tree_graph` of the drawn nodes, with ``pos=(x, y)`` on each node."""
        if self._graph is None:
            graph = tree_graph(self.tree, self.nodes)
            for n in self.nodes.tolist():
                graph.nodes[n]["pos"] = (float(self.x[n]), float(self.y[n]))
            self._graph = graph
        return self._graph

    def node_at(self, point) -> int | None:
        """The drawn node nearest to ``point = (x, y)`` in data coordinates (within 0.5)."""
        px, py = point
        d2 = (self.x[self.nodes] - px) ** 2 + (self.y[self.nodes] - py) ** 2
        i = int(np.argmin(d2))
        return int(self.nodes[i]) if d2[i] <= 0.25 else None

    def clicked(self, trace, points) -> list[tuple[int, int]]:
        """``[(node id, information-set id), ...]`` of a plotly click on a node trace."""
        data = trace.customdata
        if data is None:
            return []
        return [(int(data[i][0]), int(data[i][1])) for i in points.point_inds]

    def on_node_click(self, fig: go.FigureWidget, callback) -> None:
        """Call ``callback(node, infoset)`` when a node of ``fig`` is clicked (infoset -1
        off decision nodes)."""
        def handler(trace, points, _state):
            for node, infoset in self.clicked(trace, points):
                callback(node, infoset)
        for role in roles_of(self.tree):
            fig.data[self.traces[role]].on_click(handler)

    # --- building ---------------------------------------------------------------------------

    def figure(self, policy=None, *, widget: bool | go.FigureWidget = False,
               best_response=None, selected_infoset=None, skeleton: bool = False) -> go.Figure:
        """Build the figure (a ``FigureWidget`` with ``widget``) and draw ``policy``.

        ``widget=True`` makes a new plotly ``go.FigureWidget``; an empty ``FigureWidget`` given
        as ``widget`` is drawn into and returned (cfrviz's widgets give
        :class:`cfrviz.widgets.figure_widget.FigureWidget`, whose front end starts at once
        in a busy page).

        The figure takes the width of the page or output area it is shown in
        (plotly's ``autosize``) and has a fixed height; zoom and pan with the
        mouse for detail (double-click to reset).  Only the traces a strategy
        moves (:meth:`changes`) are ever sent again: the skeleton of nodes,
        chance edges and information sets is drawn once.

        With ``skeleton=True`` the figure draws only that skeleton, on a transparent
        background, and its legend: the decision edges, their labels, the best response
        and its note and the selected ring are left to marks drawn beneath it in the
        browser (:class:`cfrviz.widgets.tree.LiveTree`), and :meth:`update` sets the
        legend only.
        """
        skeleton = check_flag(skeleton, "skeleton")
        probs = strategy_array(self.tree, policy)
        fig = _empty_figure(widget)
        # Information-set groups, behind everything: one trace per player and kind.
        groups, group_labels = group_traces(
            self.tree, self.groups, self._lanes, self._across, self._level,
            self.orientation == "right", self._screen, self.style)
        chance_labels, chance_boxes = self._chance_labels()
        boxed = len(group_labels[0]) <= MAX_BOXED_KEYS
        named = [*groups, *self._line_traces(), ("chance labels", chance_labels),
                 ("edge labels", self._edge_label_trace(skeleton)),
                 ("infoset keys", self._key_trace(group_labels, boxed)),
                 *self._node_traces()]
        fig.add_traces([trace for _, trace in named])
        self.traces = {name: k for k, (name, _) in enumerate(named)}
        self.skeleton = skeleton
        figure_layout(fig, self.tree.name, self.selection.what, self.notes, self.style,
                      *self._extent())
        boxes = [(x, y, text, "right", "#222222") for x, y, text in zip(*group_labels[:3])
                 if boxed]
        # One assignment: add_annotation validates every annotation again at each call.
        fig.layout.annotations = (*fig.layout.annotations, *(
            go.layout.Annotation(x=float(x), y=float(y), text=text, xanchor=anchor,
                                 showarrow=False, bgcolor="rgba(255,255,255,0.92)", borderpad=1,
                                 font=self.style.font(self.style.font_size, colour))
            for x, y, text, anchor, colour in boxes + chance_boxes))
        apply_style(fig, self.style)
        if skeleton:  # what is drawn beneath shows through
            fig.update_layout(paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor="rgba(0,0,0,0)")
        fit_to_output(fig)
        self.update(fig, probs, best_response=best_response, selected_infoset=selected_infoset)
        return fig

    def _line_traces(self) -> list[tuple[str, go.Scatter]]:
        """The best response's highlight, the decision edges (drawn per step, empty here), the
        chance edges and a trace per edge width."""
        s, tree = self.style, self.tree
        cx0 = self.x[tree.parent[self.chance_edges]]
        cy0 = self.y[tree.parent[self.chance_edges]]
        sx, sy = _segments(cx0, cy0, self.x[self.chance_edges], self.y[self.chance_edges])
        named = [
            ("best response", go.Scatter(
                x=[], y=[], mode="lines", name="best response", hoverinfo="skip",
                line=dict(color=BEST_RESPONSE_COLOUR, width=9 * s.line_scale), opacity=0.55,
                showlegend=False)),
            ("edges", go.Scatter(x=[], y=[], mode="lines", name="action", hoverinfo="skip",
                                 showlegend=False,
                                 line=dict(color=EDGE_COLOUR, width=2.0 * s.line_scale))),
            ("chance edges", go.Scatter(x=sx, y=sy, mode="lines", name="chance outcome",
                                        hoverinfo="skip", showlegend=False,
                                        line=dict(color=CHANCE_COLOUR,
                                                  width=2.0 * s.line_scale, dash="dot")))]
        for b in range(WIDTH_STEPS + 1):
            p = b / WIDTH_STEPS
            named.append((f"width {b}", go.Scatter(
                x=[], y=[], mode="lines", hoverinfo="skip", showlegend=b == WIDTH_STEPS,
                name="edge width = probability", legendgroup="policy",
                line=dict(color=ZERO_EDGE_COLOUR if b == 0 else EDGE_COLOUR,
                          width=float(edge_width(p, s)), dash="dot" if b == 0 else "solid"))))
        return named

    def _chance_labels(self) -> tuple[go.Scatter, list[tuple]]:
        """The chance edges' labels (outcome and probability, fixed) and, when few enough to
        box, their annotations on a white ground, as the set keys are drawn."""
        tree = self.tree
        text = [f"{escape(edge_label(tree, c))} {fraction_label(tree.chance_prob[c])}"
                for c in self.chance_edges.tolist()]
        places = self._places(self.chance_edges, text)
        boxed = len(text) <= MAX_BOXED_KEYS
        trace = self._edge_text(
            places, text, CHANCE_COLOUR, boxed=boxed,
            hovertext=[f"chance deals {escape(edge_label(tree, c))} with probability "
                       f"{fraction_label(tree.chance_prob[c])}"
                       for c in self.chance_edges.tolist()])
        boxes = [(x, y, label, "right" if left else "left", CHANCE_COLOUR)
                 for x, y, label, left in zip(*places[:2], text, places[2])] if boxed else []
        return trace, boxes

    def _edge_label_trace(self, skeleton: bool) -> go.Scatter:
        """The decision edges' labels: the action and, with a policy, its probability (updated
        per step).  The hover names the edge (static, customdata) and its probability
        (hovertext, the only part resent per step)."""
        s = self.style
        where = [f"{a} at {w}" for a, w in zip(self._edge_labels, self._edge_where)]
        if skeleton:  # the labels are drawn beneath (in textfont); invisible points keep the hover
            mx, my, _ = self.edge_label_places()
            return go.Scatter(
                x=mx, y=my, mode="markers", marker=dict(size=s.font_size * 1.5, opacity=0),
                textfont=s.font(s.font_size, EDGE_COLOUR), showlegend=False, name="labels",
                customdata=where, hovertemplate="%{customdata}<extra></extra>")
        return self._edge_text(self.edge_label_places(), self._edge_labels, EDGE_COLOUR,
                               customdata=where,
                               hovertemplate="%{customdata}%{hovertext}<extra></extra>")

    def _key_trace(self, group_labels: tuple[list, ...], boxed: bool) -> go.Scatter:
        """The information-set keys: drawn as annotations on a white ground, so that no edge
        crosses them; this trace keeps their hover (and draws them itself in trees with very
        many sets)."""
        s = self.style
        return go.Scatter(
            x=group_labels[0], y=group_labels[1], text=group_labels[2],
            hovertext=group_labels[3], mode="markers" if boxed else "text",
            textposition="middle left", marker=dict(size=s.font_size * 1.4, opacity=0),
            hoverinfo="text", showlegend=False, textfont=s.font(s.font_size, "#333333"),
            name="information-set keys")

    def _node_traces(self) -> list[tuple[str, go.Scatter]]:
        """The selected set's ring (drawn per step), a marker trace per node role, and the
        marks where the drawing is cut."""
        s, tree, cut = self.style, self.tree, self.selection.cut
        named = [("selected", go.Scatter(
            x=[], y=[], mode="markers", name="selected information set", hoverinfo="skip",
            marker=dict(size=s.marker_size * 1.9, symbol="circle-open", color=SELECTED_COLOUR,
                        line=dict(width=3.5 * s.line_scale)), showlegend=False))]
        named += [(role, node_trace(tree, role, self.nodes, self.x, self.y, self.orientation,
                                    s, self._node_hover)) for role in roles_of(tree)]
        named.append(("cut", go.Scatter(
            x=self.x[cut] + (0.3 if self.orientation == "right" else 0.0),
            y=self.y[cut] - (0.0 if self.orientation == "right" else 0.42), mode="text",
            text=["⋯"] * len(cut),  # on its side, in rows of ROW_PX: the body text's size
            textfont=s.font(s.font_size + (0 if self.orientation == "right" else 6),
                            "#555555"), name="not drawn", showlegend=False,
            hovertext=[f"{int(self._sizes()[c]) - 1:,} nodes below not drawn" for c in cut],
            hoverinfo="text")))
        return named

    def _node_hover(self, n: int) -> str:
        return node_hover(self.tree, n, self.selection.drawn, self._sizes)

    def _sizes(self) -> np.ndarray:
        sizes = self.__dict__.get("_size_cache")
        if sizes is None:
            sizes = self._size_cache = subtree_sizes(self.tree)
        return sizes

    def edge_label_places(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where each decision edge's label goes: ``(x, y, left)``, the label's anchor in
        data coordinates and whether it lies left of its edge (its text ends at the anchor)
        or right (it starts there).  Computed once."""
        if self._label_places is None:
            self._label_places = self._places(self.decision_edges, self._edge_labels)
        return self._label_places

    def _edge_text(self, places, text, colour, boxed: bool = False, **hover) -> go.Scatter:
        """Labels beside edges; ``boxed`` keeps the text and the hover but leaves the
        drawing to annotations on a white ground (invisible markers hold the hover)."""
        mx, my, left = places
        side = np.where(left, "middle left", "middle right").tolist()
        if "hovertemplate" not in hover:
            hover["hoverinfo"] = "text"
        if boxed:
            hover["marker"] = dict(size=self.style.font_size * 1.4, opacity=0)
        return go.Scatter(x=mx, y=my, text=list(text), mode="markers" if boxed else "text",
                          textposition=side,
                          showlegend=False, textfont=self.style.font(self.style.font_size,
                                                                     colour),
                          name="labels", **hover)

    def _places(self, edges, text) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        tree = self.tree
        if self.orientation == "right":
            # On its side every node has a row of its own: a label ends just before the node
            # its edge leads to, on that node's row (clear of the node's marker).
            # An edge alone out of its node (the path from the root) has the row above it.
            per_level = self._level_px(DEFAULT_PX)
            half = np.where(tree.player[edges] == CHANCE, 0.65, 0.5)
            half = np.where(tree.player[edges] == TERMINAL, 0.35, half)
            clear = (half * self.style.marker_size + 3) / per_level
            alone = np.array([int(self.selection.drawn[tree.children[p]].sum()) == 1
                              for p in tree.parent[edges].tolist()], dtype=bool)
            font, marker = self.style.font_size, self.style.marker_size
            # Where such a label does not fit between the two nodes on their row (a probability
            # adds " .33" to an action, a white ground 4 px to a chance outcome)...
            decision = tree.player[tree.parent[edges]] >= 0
            width = np.array([len(unescape(str(t))) for t in text]) * CHAR_EM * font \
                + np.where(decision, 4 * CHAR_EM * font, 4.0)
            parent_half = np.where(decision, 0.5, 0.65) * marker
            alone &= width + clear * per_level + parent_half + 2 > per_level
            # ... it is lifted clear of a chance diamond: its half height, half a boxed
            # label, 2 px.
            lift = (0.65 * marker + 0.5 * (1.12 * font + 4) + 2) / ROW_PX
            return (self.x[edges] - clear, self.y[edges] + np.where(alone, lift, 0.0),
                    np.ones(len(edges), dtype=bool))
        px, py = self.x[tree.parent[edges]], self.y[tree.parent[edges]]
        cx, cy = self.x[edges], self.y[edges]
        # Half a level below the parent (above any connector lanes), beside the edge.
        drop = np.maximum(py - cy, 1e-9)
        t = np.minimum(0.62 / drop, 0.62)
        # Where three or more edges fan out, every other label sits lower (higher under a
        # chance node), so that neighbouring labels on the same side do not run into each
        # other (and stay clear of the next fan's left label, which a crowded level lifts).
        fan = np.array([len(tree.children[p]) for p in tree.parent[edges].tolist()], dtype=int)
        odd = (fan >= 3) & (tree.action[edges] % 2 == 1)
        chance = tree.player[tree.parent[edges]] == CHANCE  # wide fans of outcomes: higher
        t = np.where(odd, np.where(chance, 0.62, 1.3) * t, t)
        left = cx < px - 1e-9
        # Where the label right of one fan would meet the label left of the next one at
        # the narrowest width planned for, labels left of an edge sit higher on that level.
        crowded = _crowded_levels(px + t * (cx - px), py, left, text, self._unit_px(),
                                  self.style.font_size)
        t = np.where(crowded & left, np.minimum(0.38 / drop, t), t)  # below a band
        mx, my = px + t * (cx - px), py + t * (cy - py)
        mx = mx + np.where(left, -0.1, 0.1)  # clear of the line's own width
        return mx, my, left

    def _unit_px(self, width: float = NARROW_PX) -> float:
        """Pixels per layout unit (across a level) in a plot ``width`` pixels wide
        (``NARROW_PX``, the narrowest plot planned for, by default), drawn root on top."""
        xs = self.x[self.nodes]
        return width / (float(xs.max() - xs.min()) + 2.1)

    def _labels_collide(self) -> bool:
        """Whether two edge labels (with a probability, "b .33") of the tree drawn root on
        top would overlap at ``DEFAULT_PX`` (wide fans of long actions, as liar's dice's
        bids): then it is drawn on its side."""
        tree = self.tree
        edges = self.nodes[self.nodes != 0]
        edges = edges[tree.player[tree.parent[edges]] >= 0]
        if len(edges) < 2:
            return False
        text = [escape(edge_label(tree, int(c))) + " .33" for c in edges.tolist()]
        mx, my, left = self._places(edges, text)
        font = self.style.font_size
        unit = (DEFAULT_PX - 16) / (self._x_range()[1] - self._x_range()[0])
        width = np.array([len(unescape(t)) for t in text]) * CHAR_EM * font
        x0 = np.where(left, mx * unit - width, mx * unit)
        x1 = x0 + width
        y = my * self.style.level_px
        dx = np.minimum(x1[:, None], x1[None, :]) - np.maximum(x0[:, None], x0[None, :])
        dy = 1.12 * font - np.abs(y[:, None] - y[None, :])
        return bool(np.any(np.triu((dx > 0.5) & (dy > 0.5), k=1)))

    def _level_px(self, width: float) -> float:
        """Pixels per level of a tree drawn on its side in a plot ``width`` pixels wide."""
        lo, hi = self._x_range()
        return (width - 16) / (hi - lo)

    def _extent(self) -> tuple[float, list[float], list[float]]:
        """The figure's height in levels, and its x and y ranges."""
        ys = self.y[self.nodes]
        if self.orientation == "right":  # rows of ROW_PX pixels, not levels
            levels = (float(ys.max() - ys.min()) + 1.4) * ROW_PX / self.style.level_px
            return levels, list(self._x_range()), [float(ys.min()) - 0.7, float(ys.max()) + 0.7]
        return (float(ys.max() - ys.min()) + 1.0, list(self._x_range()),
                [float(ys.min()) - 0.75, float(ys.max()) + 0.7])

    def _x_range(self) -> tuple[float, float]:
        xs = self.x[self.nodes]
        if self.orientation == "right":  # room for the payoffs right of the last leaves
            return float(xs.min()) - 0.17, float(xs.max()) + 0.43
        return float(xs.min()) - 1.2, float(xs.max()) + 0.9

    def _screen(self, across, level):
        """The figure's ``(x, y)`` of layout coordinates (``None`` kept, for path breaks):
        as they are, or turned on the side (levels run left to right, across runs down)."""
        if self.orientation == "down":
            return across, level
        if isinstance(across, np.ndarray):
            return -np.asarray(level, dtype=float), -np.asarray(across, dtype=float)
        return ([None if v is None else -v for v in level],
                [None if v is None else -v for v in across])


def plot_tree(game, policy=None, *, subtree=None, depth=None, presenter: bool | None = None,
              widget: bool | go.FigureWidget = False, best_response=None,
              selected_infoset=None) -> go.Figure:
    """Draw a game tree: players, chance, payoffs, information sets and a strategy.

    Nodes are styled by role (player 1 blue circles marked 1, player 2
    vermillion squares marked 2, chance black diamonds, terminals grey
    triangles with player 1's payoff); chance edges are dotted and labelled
    with their outcome and exact probability ("1/6").  The nodes of one
    information set are joined by a shaded band when they sit side by side,
    else by a dashed connector in the player's colour, labelled with the set's
    key; hovering a node shows its history, its set and the set's other members.

    Parameters
    ----------
    game : GameTree or MatrixGame
    policy : Policy or array of shape (information sets, actions), optional
        Edge labels show each action's probability and edge widths follow it
        (``0.5 + 6 p`` pixels).
    subtree, depth, presenter
        What to draw and at which size; see :class:`TreeView`.  Trees with more
        than ``MAX_NODES`` nodes are drawn for their first deal by default.
    widget : bool or go.FigureWidget
        Return a ``go.FigureWidget`` (for in-place updates with :class:`TreeView`): a new
        plotly one, or the empty one given, drawn into (see :meth:`TreeView.figure`).
    best_response : 0, 1 or {"player": 0 or 1}, optional
        Highlight (thick green) that player's best-response actions against
        ``policy`` and show the best response's value.
    selected_infoset : str or int, optional
        Ring the members of one information set.

    Returns
    -------
    go.Figure or go.FigureWidget

    Raises
    ------
    ValueError
        For a deal or node the game does not have (listing valid deals), a
        depth below 1, a policy made for another game, or a best response
        asked for without a policy.
    """
    view = TreeView(game, subtree=subtree, depth=depth, presenter=presenter)
    return view.figure(policy, widget=widget, best_response=best_response,
                       selected_infoset=selected_infoset)
