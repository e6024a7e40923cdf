"""Which part of the tree one iteration walks: vanilla CFR against chance, external and outcome
sampling, drawn on the game tree one iteration at a time.

The walks come from :func:`cfrviz.analysis.sampling.sampled_walks`, computed once
per algorithm and seed; stepping through iterations only redraws two line traces
and a marker trace laid over a :class:`~cfrviz.views.tree.TreeView` figure.
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
from ..views.style import OKABE_ITO, PLAYER_COLOURS, batch, get_style
from ..views.tree import TreeView
from .panel import Panel

#: Edges a walk went down because it tries every child there, and edges it drew.
WALKED_COLOUR = OKABE_ITO["sky blue"]
DRAWN_COLOUR = OKABE_ITO["orange"]
#: Seeds are whole numbers in 0..MAX_SEED.
MAX_SEED = 2**31 - 1


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
        self.fig = self.view.figure(None, widget=True)
        width = 9 * self.style.line_scale
        self.fig.add_traces([
            go.Scatter(x=[], y=[], mode="lines", hoverinfo="skip", opacity=0.6,
                       name="walked: every child tried", line=dict(color=WALKED_COLOUR,
                                                                   width=width)),
            go.Scatter(x=[], y=[], mode="lines", hoverinfo="skip", opacity=0.75,
                       name="drawn: one child sampled", line=dict(color=DRAWN_COLOUR,
                                                                  width=width, dash="dash")),
            go.Scatter(x=[], y=[], mode="markers", hoverinfo="text",
                       name="entered by the walk (ringed; a payoff filled)",
                       marker=dict(symbol="circle-open", size=self.style.marker_size * 1.7,
                                   color=DRAWN_COLOUR, line=dict(width=2.5))),
        ])
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
        for name, chosen in (("walked", children[~drawn_at]), ("drawn", children[drawn_at])):
            x = np.column_stack([view.x[tree.parent[chosen]], view.x[chosen],
                                 np.full(len(chosen), np.nan)]).ravel()
            y = np.column_stack([view.y[tree.parent[chosen]], view.y[chosen],
                                 np.full(len(chosen), np.nan)]).ravel()
            segments[name] = (x, y)
        hover = [self._hover(int(n), walk) for n in entered.tolist()]
        with batch(self.fig):
            for name, (x, y) in segments.items():
                trace = self.fig.data[self.traces[name]]
                trace.x, trace.y = x, y
            ring = self.fig.data[self.traces["entered"]]
            ring.x, ring.y = view.x[entered], view.y[entered]
            # A ring around a decision or chance node; an entered terminal is filled in the
            # walker's colour instead, so that nothing covers its payoff written below it.
            leaf = (tree.player[entered] == TERMINAL).tolist()
            ring.marker.symbol = ["triangle-down" if lf else "circle-open" for lf in leaf]
            ring.marker.size = [self._marker_px * (0.75 if lf else 1.7) for lf in leaf]
            ring.hovertext = hover
            ring.marker.color = PLAYER_COLOURS[walk.player]
        self.summary.value = self._summary(walk)

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
