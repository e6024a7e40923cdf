"""The training explorer: run a CFR-family solver once, then scrub through it on the game tree."""

from __future__ import annotations

import ipywidgets as W

from ..analysis.explain import infoset_snapshot, snapshot_html
from ..core.registry import Param
from ..core.tree import as_tree, check_two_players
from ..solvers import solve
from ..solvers.registry import ALGORITHMS, tree_algorithms
from ..solvers.registry import algorithm as registered
from ..views.matrix import display_frames
from ..views.style import fit_to_output, get_style
from ..views.training import (
    NOW_LINE,
    NOW_POINT,
    cost_curve_figure,
    cost_curve_point,
    set_history_figure,
    update_cost_curve,
)
from ..views.tree import TreeView
from .controls import SEED, ParamControls, number_field
from .export import Exportable
from .figure_widget import FigureWidget
from .overlay import NowMarks, overlaid, point, vline
from .panel import TimelinePanel
from .playback import Play
from .tree import LiveTree

MAX_ITERATIONS = 1_000_000
ITERATIONS = Param("iterations", 1000, "int", 1, MAX_ITERATIONS, help="how many iterations to run")
#: The least widths (CSS px) of the selected set's panel and of its chart beside it, by
#: presenter mode: below their sum the chart goes on a row of its own.
CHART_PX = {False: (460, 360), True: (640, 460)}


class TrainingExplorer(Exportable, TimelinePanel):
    """Train once, then watch regrets and strategies move on the tree.

    The timeline (``Play`` and slider) scrubs the recorded trace: the tree's
    edge widths follow the current or the average strategy, the selected
    information set's panel shows its reach, counterfactual values, regrets and
    the regret-matching step, its charts mark the iteration, and so does the
    exploitability curve (against iterations or nodes touched).  Changing the
    algorithm, its parameters, the iterations or the seed does nothing until
    **Solve** is pressed: scrubbing never re-runs a solver.

    Parameters
    ----------
    game
        A game tree (or a matrix game, explored as its tree).
    algorithm : str, default "cfr"
    iterations : int, default 1000
        A whole number from 1 to ``MAX_ITERATIONS``.
    seed : int, default 0
        A whole number from 0 to 2**31 - 1.
    subtree, depth
        What part of a large tree to draw (see :class:`cfrviz.views.tree.TreeView`).
    presenter : bool, optional
        Larger fonts and figures for a projector.
    infoset : str, optional
        The information set selected at first (default: the first one).
    show_controls : bool, default True
    **params
        Starting values of the algorithm's parameters (``alternating``,
        ``alpha``, ...: whatever the registry declares for it).  Each tree
        algorithm of the registry is in the menu, with a control per
        parameter built from its declaration.

    Raises
    ------
    ValueError
        For something that is not a game, an algorithm not in the menu, or a
        number or parameter of the wrong type or out of range.  Values typed
        into the controls later are checked on **Solve**, and a bad one is
        explained in the output area (nothing is clamped silently).
    """

    def __init__(self, game, algorithm: str = "cfr", iterations: int = 1000, seed: int = 0, *,
                 subtree=None, depth=None, presenter: bool | None = None, infoset=None,
                 show_controls: bool = True, **params):
        super().__init__()
        self.game = as_tree(game, "the training explorer")
        check_two_players(self.game, "the training explorer", "its timeline shows exploitability "
                          "and best responses", instead="cfrviz.solve(game, 'cfr', n) and "
                          "cfrviz.views.multiplayer.deviation_figure(trace), with "
                          "cfrviz.plot_tree(game) for the tree")
        self.view = TreeView(self.game, subtree=subtree, depth=depth, presenter=presenter)
        self.style = get_style(presenter)
        self.presenter = presenter
        self.infoset = 0 if infoset is None else self.game.infoset_index(infoset)
        menu = tree_algorithms()
        if algorithm not in menu:
            raise ValueError(f"the explorer runs {', '.join(menu)}; got {algorithm!r}")
        iterations, seed = ITERATIONS.check(iterations), SEED.check(seed)
        ALGORITHMS.check_params(registered(algorithm), params)
        self.status = W.HTML()
        self._add_controls(menu, algorithm, iterations, seed, params)
        self._add_timeline()
        self._arrange(show_controls)
        self._add_download("training-explorer")  # the frame as PNG, SVG or PDF
        self._show_params()
        self.solve()

    def _add_controls(self, menu: tuple[str, ...], algorithm: str, iterations: int, seed: int,
                      params: dict) -> None:
        """The algorithm, its settings and the Solve button (nothing runs until Solve)."""
        st = {"description_width": "initial"}
        self.algorithm = W.Dropdown(options=[(f"{registered(a).label} ({a})", a) for a in menu],
                                    value=algorithm, description="algorithm", style=st,
                                    # wide enough for "external sampling (external_sampling)"
                                    layout=W.Layout(width="620px" if self.style.presenter
                                                    else "460px"))
        self.iterations = number_field(ITERATIONS, iterations, width="200px")
        self.seed = number_field(SEED, seed, width="150px")
        # One row of controls per algorithm, from its declared parameters; the chosen
        # algorithm's row is shown.  Starting values apply to the starting algorithm.
        self.param_rows = {name: ParamControls(registered(name).params,
                                               params if name == algorithm else None)
                           for name in menu}
        self.solve_button = W.Button(description="Solve", button_style="primary", icon="play")
        self.solve_button.on_click(lambda _: self.solve())
        self.algorithm.observe(lambda _: self._show_params(), names="value")
        self.params_box = W.VBox(list(self.param_rows.values()))

    def _add_timeline(self) -> None:
        """The timeline, what the tree shows, the tree itself, the information-set panel and
        the two charts with their "now" marks over them."""
        st = {"description_width": "initial"}
        self.play = Play(value=0, min=0, max=0, step=1, interval=120, show_repeat=False)
        self.slider = W.IntSlider(value=0, min=0, max=0, readout=False, description="frame",
                                  layout=W.Layout(width="420px"))
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.slider.observe(self._on_frame, names="value")
        self.iteration_label = W.HTML()
        self.which = W.ToggleButtons(options=[("average strategy", "average"),
                                              ("current strategy", "current")],
                                     description="tree shows", style=st)
        self.which.observe(self._on_frame, names="value")
        self.axis = W.ToggleButtons(options=[("iterations", "iterations"),
                                             ("nodes touched", "nodes")], description="x axis",
                                    style=st)
        self.axis.observe(self._on_frame, names="value")
        self.picker = W.Dropdown(options=[(k, i) for i, k in enumerate(self.game.infoset_keys)],
                                 value=self.infoset, description="information set", style=st)
        self.picker.observe(self._on_pick, names="value")
        # What a frame moves on the tree is drawn beneath its plotly skeleton (LiveTree):
        # changing plotly data would redraw the whole tree on each frame.
        self.tree = LiveTree(self.view)
        self.tree_fig = self.tree.figure
        self.view.on_node_click(self.tree_fig, self._on_node_click)
        self.history = fit_to_output(FigureWidget())  # beside the panel, to its width
        self.curve = fit_to_output(FigureWidget())
        # The "now" marks lie over the charts (cfrviz.widgets.overlay): moving them inside
        # plotly would redraw every line of both charts on each frame.
        scale = self.style.line_scale
        line = dict(NOW_LINE, width=NOW_LINE["width"] * scale)
        self.history_marks = NowMarks({"now": vline("x", "y", **line),
                                       "now, lower chart": vline("x2", "y2", **line)})
        self.curve_marks = NowMarks({"now": point(**NOW_POINT)})
        self.panel = W.HTML()

    def _arrange(self, show_controls: bool) -> None:
        """Controls, timeline, the tree across the width, the panel beside its chart, the
        exploitability curve."""
        panel_px, chart_px = CHART_PX[self.style.presenter]
        controls = W.VBox([W.HBox([self.algorithm, self.iterations, self.seed]), self.params_box,
                           W.HBox([self.solve_button, self.status])])
        timeline = W.HBox([self.play, self.slider, self.iteration_label])
        self.children = ([controls] if show_controls else []) + [
            self.output, timeline, self.which,
            # Straight in the column, which stretches it to the output area's width: the
            # tree takes that width (fit_to_output); zoom and pan show detail.
            self.tree,
            # The chart beside the panel while both fit at their least widths, else on a
            # row of its own below it (wrap): a chart that follows its box's width has no
            # width of its own to wrap by, and would be squeezed to a sliver beside the panel.
            W.HBox([W.VBox([self.picker, self.panel],
                           layout=W.Layout(min_width=f"min({panel_px}px, 100%)")),
                    overlaid(self.history, self.history_marks, flex=f"1 1 {chart_px}px",
                             min_width=f"min({chart_px}px, 100%)")],
                   layout=W.Layout(align_items="flex-start", flex_flow="row wrap")),
            self.axis, overlaid(self.curve, self.curve_marks)]

    # -- public actions (also used by tests) ----------------------------------------------------
    def solve(self) -> None:
        """Run the chosen algorithm once and show the new trace (errors go to the output area)."""
        self.clear_report()
        name = self.algorithm.value
        params = self.param_rows[name].values()
        try:  # typed values are checked here, never clamped: a bad one is explained below
            trace = solve(self.game, name, ITERATIONS.check(self.iterations.value),
                          seed=SEED.check(self.seed.value), progress=False, **params)
        except ValueError as error:
            self.report("Could not solve", error)
            self.status.value = "<span style='color:#b00'>not solved — see the message</span>"
            return
        self.trace = trace
        self.frames = display_frames(trace)
        self.status.value = (f"{name}: {trace.iterations[-1]:,} iterations in "
                             f"{trace.extras['total_time']:.2f} s; final exploitability "
                             f"{_unbroken(f'{trace.exploitability[-1]:.2e}')}")
        self._rebuild_charts()
        self._reset_timeline()

    def select(self, infoset) -> None:
        """Select an information set by key or id (as clicking one of its nodes does)."""
        try:
            # An id is a whole number: 1.5 or True is a mistake, not set 1.
            info = (self.game.infoset_index(infoset) if isinstance(infoset, str) else
                    Param("infoset", kind="int", low=0,
                          high=self.game.num_infosets - 1).check(infoset))
        except ValueError as error:
            self.report(str(error))
            return
        self.picker.value = info

    @property
    def index(self) -> int:
        """The trace record on screen."""
        return int(self.frames[min(self.slider.value, len(self.frames) - 1)])

    # -- internals ----------------------------------------------------------------------------
    def control(self, param: str) -> W.Widget:
        """The control of one parameter of the algorithm chosen in the menu."""
        controls = self.param_rows[self.algorithm.value].controls
        if param not in controls:
            raise ValueError(f"{self.algorithm.value} has no parameter {param!r}; its "
                             f"parameters are {', '.join(controls) or 'none'}")
        return controls[param]

    def _show_params(self) -> None:
        for name, row in self.param_rows.items():
            row.layout.display = "" if name == self.algorithm.value else "none"

    def _rebuild_charts(self) -> None:
        for target, source in ((self.history,
                                 set_history_figure(self.trace, self.infoset, self.presenter,
                                                    now_marks=False)),
                               (self.curve, cost_curve_figure(self.trace, self.axis.value,
                                                              self.presenter, now_marks=False))):
            with target.batch_update():
                target.data = []
                target.layout = source.layout
                target.add_traces(source.data)

    def _on_pick(self, change) -> None:
        self.infoset = int(change["new"])
        try:
            if self.trace is not None:
                self._rebuild_charts()
            self._on_frame()
        except Exception as error:  # a callback must never leave a dead widget behind
            self.report("Could not show that information set", error)

    def _on_node_click(self, _node: int, infoset: int) -> None:
        if infoset >= 0:
            self.select(infoset)

    def _on_frame(self, _change=None) -> None:
        try:
            trace = self.trace
            if trace is None:
                return
            k = self.index
            table = (trace.average_strategy if self.which.value == "average"
                     else trace.current_strategy)
            self.tree.update(table[k], selected_infoset=self.infoset)
            it = float(trace.iterations[k])
            self.history_marks.move(it, it)
            update_cost_curve(self.curve, trace, k, self.axis.value)  # only if the axis changed
            self.curve_marks.move(cost_curve_point(trace, k, self.axis.value))
            snapshot = infoset_snapshot(trace, k, self.infoset)
            self.panel.value = snapshot_html(snapshot, self.style.font_size)
            self.iteration_label.value = (f"iteration <b>{trace.iterations[k]:,}</b> of "
                                          f"{trace.iterations[-1]:,} — exploitability "
                                          f"{_unbroken(f'{trace.exploitability[k]:.3e}')}")
        except Exception as error:  # a callback must never leave a dead widget behind
            self.report("Could not show this frame", error)


def _unbroken(number: str) -> str:
    """A number a narrow label never breaks at its exponent's minus ("3.034e-" / "03")."""
    return f"<span style='white-space:nowrap'>{number}</span>"


def explore(game, algorithm: str = "cfr", iterations: int = 1000, seed: int = 0,
            **options) -> TrainingExplorer:
    """The training explorer for ``game`` (see :class:`TrainingExplorer`)."""
    return TrainingExplorer(game, algorithm, iterations, seed, **options)
