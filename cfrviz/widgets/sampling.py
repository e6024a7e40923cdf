"""Which part of the tree one iteration walks: vanilla CFR against chance, external and outcome
sampling, drawn on the game tree one iteration at a time.

The walks come from :func:`cfrviz.analysis.sampling.sampled_walks`, computed once
per algorithm and seed; stepping through iterations only redraws two line traces
and a marker trace laid over a :class:`~cfrviz.views.tree.TreeView` figure.

The marks never cover a label of the tree (an outcome and its probability, an action, a set's
key, a payoff): :class:`Clearance` measures the labels' boxes once, in pixels, with the
figure drawn :data:`CLEAR_PX` wide (JupyterLab's output area in a 1280-pixel window; wider
figures only leave more room), leaves a gap in a thick edge where it passes a label and draws
a ring only as large as the labels around its node allow.
"""

from __future__ import annotations

from numbers import Integral

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go

from ..analysis.sampling import WALKED, Walk, sampled_walks
from ..core.markup import escape
from ..core.tree import CHANCE, TERMINAL, as_tree
from ..solvers.registry import ALGORITHMS
from ..views.style import OKABE_ITO, PLAYER_COLOURS, Style, batch, get_style
from ..views.tree import TreeView
from ..views.tree.overlaps import DEFAULT_WIDTH_PX, SYMBOL_EXTENT, Page, figure_boxes
from .figure_widget import FigureWidget
from .panel import Panel

#: Edges a walk went down because it tries every child there, and edges it drew.
WALKED_COLOUR = OKABE_ITO["sky blue"]
DRAWN_COLOUR = OKABE_ITO["orange"]
#: Seeds are whole numbers in 0..MAX_SEED.
MAX_SEED = 2**31 - 1
#: The narrowest width, in pixels, the figure is drawn at that no mark may cover a label at.
CLEAR_PX = DEFAULT_WIDTH_PX
#: Pixels kept free between a mark and a label.
CLEAR_MARGIN = 1.5
#: The width of the walked and drawn edges, in units of the style's line scale.
EDGE_WIDTH = 9
#: A ring's outline, and its size in node marker sizes where the labels leave room.
RING_LINE = 2.5
RING_SIZE = 1.7


class Clearance:
    """Where the marks of a :class:`SampledPaths` may go without covering a label.

    The labels' boxes (:func:`~cfrviz.views.tree.overlaps.figure_boxes`, every box but the
    node markers) are measured once, in pixels, for ``fig`` drawn ``width`` pixels wide.
    """

    def __init__(self, view: TreeView, fig, width: float = CLEAR_PX):
        self.page = Page(fig, width)
        boxes = [b for b in figure_boxes(view, fig, width, probabilities=False)
                 if b.kind != "marker"]
        self.boxes = np.array([(b.x0, b.y0, b.x1, b.y1) for b in boxes]).reshape(-1, 4)

    def pieces(self, x0: float, y0: float, x1: float, y1: float,
               half: float) -> list[tuple[float, float]]:
        """The parts ``(t0, t1)`` of the segment from ``(x0, y0)`` to ``(x1, y1)`` (data
        coordinates, t from 0 to 1) that a line ``half`` pixels either side of it can take
        without coming within :data:`CLEAR_MARGIN` of a label."""
        px, py = float(self.page.x(x0)), float(self.page.y(y0))
        dx, dy = float(self.page.x(x1)) - px, float(self.page.y(y1)) - py
        pad = half + CLEAR_MARGIN
        b = self.boxes
        # Liang-Barsky, for every label at once: the t where the segment is inside its box
        # grown by ``pad``.
        lo, hi = np.zeros(len(b)), np.ones(len(b))
        for d, low, high, start in ((dx, b[:, 0], b[:, 2], px), (dy, b[:, 1], b[:, 3], py)):
            if d == 0:
                outside = (start < low - pad) | (start > high + pad)
                hi = np.where(outside, -1.0, hi)
                continue
            t0, t1 = (low - pad - start) / d, (high + pad - start) / d
            lo, hi = np.maximum(lo, np.minimum(t0, t1)), np.minimum(hi, np.maximum(t0, t1))
        cuts = sorted(zip(lo[lo < hi].tolist(), hi[lo < hi].tolist()))
        free, start = [], 0.0
        for cut_lo, cut_hi in cuts:
            if cut_lo > start:
                free.append((start, cut_lo))
            start = max(start, cut_hi)
        if start < 1.0:
            free.append((start, 1.0))
        return free

    def room(self, x: float, y: float) -> float:
        """The distance in pixels from the point ``(x, y)`` (data coordinates) to the nearest
        label, less :data:`CLEAR_MARGIN`."""
        if not len(self.boxes):
            return np.inf
        px, py = float(self.page.x(x)), float(self.page.y(y))
        b = self.boxes
        gx = np.maximum(np.maximum(b[:, 0] - px, px - b[:, 2]), 0.0)
        gy = np.maximum(np.maximum(b[:, 1] - py, py - b[:, 3]), 0.0)
        return float(np.hypot(gx, gy).min()) - CLEAR_MARGIN


def _walk_traces(style: Style) -> list[go.Scatter]:
    """The walk's three traces over the tree: edges walked (every child tried), edges drawn
    (one child sampled) and the rings of the nodes entered (empty until drawn)."""
    width = EDGE_WIDTH * style.line_scale
    return [
        go.Scatter(x=[], y=[], mode="lines", hoverinfo="skip", opacity=0.6,
                   name="walked: every child tried", line=dict(color=WALKED_COLOUR,
                                                               width=width)),
        go.Scatter(x=[], y=[], mode="lines", hoverinfo="skip", opacity=0.75,
                   name="drawn: one child sampled", line=dict(color=DRAWN_COLOUR,
                                                              width=width, dash="dash")),
        go.Scatter(x=[], y=[], mode="markers", hoverinfo="text",
                   name="entered by the walk (ringed; a payoff filled)",
                   marker=dict(symbol="circle-open", size=style.marker_size * RING_SIZE,
                               color=DRAWN_COLOUR, line=dict(width=RING_LINE))),
    ]


class SampledPaths(Panel):
    """One iteration's walks on the game tree, for vanilla CFR and the three samplers.

    Each iteration walks the tree once for player 1 and once for player 2.
    The figure shows one of those walks: the edges it went down because it
    tries every child there (blue) and the edges it drew, one among several
    (orange, dashed), and rings the nodes it entered.  The walks are those of
    ``cfrviz.solve(game, algorithm, iterations, seed=seed)`` (the readable
    samplers draw the same numbers as the compiled ones), so the node counts
    shown add up to the solver's ``nodes_touched``.

    Parameters
    ----------
    game : GameTree
        Small enough to draw whole (Kuhn poker); a larger tree is drawn as
        :class:`~cfrviz.views.tree.TreeView` would (its first deal).
    algorithm : str, default "external_sampling"
        ``"cfr"``, ``"chance_sampling"``, ``"external_sampling"`` or ``"outcome_sampling"``.
    iterations : int, default 30
        How many iterations the slider reaches.
    seed : int, default 0
    presenter : bool, optional
    """

    # Declared for mypy, which cannot infer these from __init__ in this module.
    view: TreeView
    fig: go.FigureWidget
    traces: dict[str, int]
    algorithm: W.ToggleButtons
    player: W.ToggleButtons
    slider: W.IntSlider
    seed: W.BoundedIntText
    summary: W.HTML
    style: Style
    clearance: Clearance
    _ring_px: np.ndarray

    def __init__(self, game, algorithm: str = "external_sampling", iterations: int = 30,
                 seed: int = 0, *, presenter: bool | None = None):
        super().__init__()
        self.game = as_tree(game, "the sampled-paths view")
        if algorithm not in WALKED:
            raise ValueError(f"algorithm must be one of {', '.join(WALKED)}; got {algorithm!r}")
        if isinstance(iterations, bool) or not isinstance(iterations, Integral) \
                or not 1 <= iterations <= 1000:
            raise ValueError(f"iterations must be a whole number in 1..1000; got {iterations!r}")
        seed = _checked_seed(seed)
        self.style = get_style(presenter)
        self._marker_px: float = self.style.marker_size
        self._walks: dict[tuple[str, int], list[tuple[Walk, Walk]]] = {}

        self.view = TreeView(self.game, presenter=presenter)
        self.fig = self.view.figure(None, widget=FigureWidget())
        self.clearance = Clearance(self.view, self.fig)
        self._ring_px = self._ring_sizes()
        self.fig.add_traces(_walk_traces(self.style))
        first = len(self.fig.data) - 3
        self.traces = {"walked": first, "drawn": first + 1, "entered": first + 2}

        labels = [(ALGORITHMS[name].label, name) for name in WALKED]
        self.algorithm = W.ToggleButtons(options=labels, value=algorithm,
                                         style={"button_width": "auto"})
        self.player = W.ToggleButtons(options=[("player 1's walk", 0), ("player 2's walk", 1)],
                                      value=0, style={"button_width": "auto"})
        self.slider = W.IntSlider(value=1, min=1, max=int(iterations), description="iteration",
                                  continuous_update=True)
        self.next_button = W.Button(description="Next", icon="step-forward",
                                    tooltip="the next iteration")
        self.seed = W.BoundedIntText(value=seed, min=0, max=MAX_SEED, description="seed",
                                     layout=W.Layout(width="180px"))
        self.summary = W.HTML()
        self.algorithm.observe(self._on_change, names="value")
        self.seed.observe(self._on_change, names="value")
        self.player.observe(self._on_change, names="value")
        self.slider.observe(self._on_change, names="value")
        self.next_button.on_click(self._on_next)
        self.children = [
            self.algorithm,
            W.HBox([self.player, self.seed]),
            W.HBox([self.slider, self.next_button]),
            self.summary, self.output,
            # A column stretches the figure to the output area's width (a row left it at
            # plotly's 700 pixels).
            W.VBox([self.fig], layout=W.Layout(overflow="auto", width="100%")),
        ]
        self._draw()

    # -- public (also for tests) --------------------------------------------------------------

    @property
    def walks(self) -> list[tuple[Walk, Walk]]:
        """Every iteration's pair of walks for the chosen algorithm and seed (computed once)."""
        key = (self.algorithm.value, int(self.seed.value))
        if key not in self._walks:
            self._walks[key] = sampled_walks(self.game, key[0], self.slider.max, seed=key[1])
        return self._walks[key]

    @property
    def walk(self) -> Walk:
        """The walk on screen."""
        return self.walks[self.slider.value - 1][self.player.value]

    def next(self) -> None:
        """Show the next iteration (the first after the last)."""
        self.slider.value = self.slider.value % self.slider.max + 1

    # -- internals ------------------------------------------------------------------------------

    def _on_next(self, _button) -> None:
        with self.reporting("Could not step to the next iteration"):
            self.next()

    def _on_change(self, _change) -> None:
        with self.reporting("Could not show this walk"):
            self.clear_report()
            self._draw()

    def _draw(self) -> None:
        tree, view, walk = self.game, self.view, self.walk
        entered = walk.nodes[np.isfinite(view.x[walk.nodes])]  # the drawn ones (x is NaN off)
        children = entered[entered != 0]
        parents = tree.parent[children]
        drawn_at = np.array([int(p) in walk.drawn for p in parents.tolist()], dtype=bool)
        segments = {}
        half = EDGE_WIDTH * self.style.line_scale / 2
        for name, chosen in (("walked", children[~drawn_at]), ("drawn", children[drawn_at])):
            xs: list[float] = []
            ys: list[float] = []
            for child in chosen.tolist():
                x0, y0 = view.x[tree.parent[child]], view.y[tree.parent[child]]
                x1, y1 = view.x[child], view.y[child]
                # The edge in pieces, leaving a gap where it would pass over a label.
                for t0, t1 in self.clearance.pieces(x0, y0, x1, y1, half):
                    xs += [x0 + t0 * (x1 - x0), x0 + t1 * (x1 - x0), np.nan]
                    ys += [y0 + t0 * (y1 - y0), y0 + t1 * (y1 - y0), np.nan]
            segments[name] = (np.array(xs), np.array(ys))
        hover = [self._hover(int(n), walk) for n in entered.tolist()]
        with batch(self.fig):
            for name, (x, y) in segments.items():
                trace = self.fig.data[self.traces[name]]
                trace.x, trace.y = x, y
            ring = self.fig.data[self.traces["entered"]]
            ring.x, ring.y = view.x[entered], view.y[entered]
            # A ring around a decision or chance node, as large as the labels around it allow;
            # an entered terminal is filled in the walker's colour instead, its own marker's
            # size, so that nothing covers its payoff written below it.
            leaf = (tree.player[entered] == TERMINAL).tolist()
            ring.marker.symbol = ["triangle-down" if lf else "circle-open" for lf in leaf]
            ring.marker.size = self._ring_px[entered].tolist()
            ring.marker.line.width = [0.0 if lf else RING_LINE for lf in leaf]
            ring.hovertext = hover
            ring.marker.color = PLAYER_COLOURS[walk.player]
        self.summary.value = self._summary(walk)

    def _ring_sizes(self) -> np.ndarray:
        """Each node's mark in pixels: a terminal's its own marker's size; a ring at most
        :data:`RING_SIZE` markers across, and no larger than the room the labels leave, but
        never inside the node's marker (then it is as small as can be seen)."""
        tree, view = self.game, self.view
        leaf_px = float(self.fig.data[view.traces["terminal"]].marker.size) \
            if "terminal" in view.traces else self._marker_px * 0.6
        node_r = self._marker_px / 2 * SYMBOL_EXTENT["diamond"][0] + 1  # the widest node
        sizes = np.full(tree.num_nodes, self._marker_px * RING_SIZE)
        sizes[tree.player == TERMINAL] = leaf_px
        for n in np.flatnonzero((tree.player != TERMINAL) & np.isfinite(view.x)).tolist():
            outer = min(self._marker_px * RING_SIZE / 2 + RING_LINE / 2,
                        self.clearance.room(view.x[n], view.y[n]))
            radius = max(outer - RING_LINE / 2, self._marker_px / 2 + RING_LINE / 2 + 0.5)
            if tree.player[n] == CHANCE:  # a diamond reaches 1.3 radii
                radius = max(radius, node_r + RING_LINE / 2)
            sizes[n] = 2 * radius
        return sizes

    def _hover(self, node: int, walk: Walk) -> str:
        tree = self.game
        lines = [f"node {node}, history {escape(tree.history[node] or '(start)')}"]
        if node in walk.drawn:
            index, probability = walk.drawn[node]
            if tree.player[node] == CHANCE:
                label = tree.chance_labels[node][index]
            else:
                label = tree.infoset_actions[tree.infoset[node]][index]
            lines.append(f"drew {escape(label)} (probability {probability:.3f})")
        elif tree.player[node] != TERMINAL:
            lines.append("tried every child")
        return "<br>".join(lines)

    def _summary(self, walk: Walk) -> str:
        tree = self.game
        t = self.slider.value
        pair = self.walks[t - 1]
        kinds = [int(tree.player[n]) for n in walk.drawn]
        where = {CHANCE: "chance", 0: "player 1", 1: "player 2"}
        counts = ", ".join(f"{kinds.count(k)} at {where[k]}'s nodes" for k in (CHANCE, 0, 1)
                           if kinds.count(k))
        drew = f"drew {len(walk.drawn)} times ({counts})" if walk.drawn else "drew nothing"
        label = dict((v, k) for k, v in self.algorithm.options)[self.algorithm.value]
        return (f"<b>{escape(label)}</b>, iteration {t}, player {walk.player + 1}'s walk: "
                f"entered <b>{len(walk.nodes)}</b> of {tree.num_nodes} nodes and {drew}. "
                f"Both walks of this iteration: {len(pair[0].nodes) + len(pair[1].nodes)} "
                "nodes touched.")


def _checked_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, Integral) or not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be a whole number in 0..{MAX_SEED}; got {seed!r}")
    return int(seed)


def sampled_paths(game, algorithm: str = "external_sampling", iterations: int = 30,
                  seed: int = 0, *, presenter: bool | None = None) -> SampledPaths:
    """A :class:`SampledPaths` view (see there)."""
    return SampledPaths(game, algorithm, iterations, seed, presenter=presenter)
