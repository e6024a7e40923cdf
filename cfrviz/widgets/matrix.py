"""The regret-matching explorer: train on rock-paper-scissors, then scrub through the run."""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from ..analysis.equilibrium import MatrixEquilibrium, matrix_equilibrium
from ..core.markup import escape
from ..core.registry import Param
from ..games.matrix import RPS_PAYOFFS, rock_paper_scissors
from ..solvers import solve
from ..views.matrix import (
    CURRENT_TRAIL,
    NOW_LINE,
    NOW_POINT,
    display_frames,
    exploitability_figure,
    exploitability_point,
    history_figure,
    simplex_figure,
)
from ..views.style import fit_to_output
from .controls import SEED, number_field, typed_slider
from .export import Exportable
from .figure_widget import FigureWidget
from .overlay import NowMarks, overlaid, path, point, vline
from .panel import TimelinePanel
from .playback import Play

PRESETS = {
    "standard (win 1, lose 1)": RPS_PAYOFFS,
    "scissors wins and loses 2": ((0, -1, 2), (1, 0, -2), (-2, 2, 0)),
}
STARTS = {
    "P1 leans towards rock": "R",
    "P1 leans towards paper": "P",
    "P1 leans towards scissors": "S",
    "both uniform": None,
}
MAX_ITERATIONS = 200_000
ITERATIONS = Param("iterations", 1000, "int", 1, MAX_ITERATIONS, help="how many iterations to run")
#: A weight of the fixed opponent; the three are normalised, so any number >= 0 will do.
WEIGHT = Param("weight", 1.0, "float", 0.0, help="player 2's weight on the action (the three "
                                                 "weights are normalised)")


class RegretMatchingExplorer(Exportable, TimelinePanel):
    """Regret matching on rock-paper-scissors, with every part of the run in view.

    The top row holds the controls (payoffs, iterations, seed, self-play or a
    fixed opponent, expected or sampled updates); **Solve** runs the solver
    once and records a trace.  The timeline (``Play`` and slider) then scrubs
    the trace: the strategy triangle, the regret and strategy charts, the
    exploitability chart and the numbers panel all move to the chosen
    iteration without re-running anything.

    Parameters
    ----------
    payoffs : array_like, shape (3, 3), optional
        Player 1's payoffs (rows P1's action R, P, S; columns P2's).
    iterations : int, default 1000
        A whole number from 1 to ``MAX_ITERATIONS``.
    seed : int, default 0
    update : {"expected", "sampled"}
    opponent : sequence of 3 floats, optional
        A fixed mix for player 2, as weights >= 0 with a positive sum
        (normalised); ``None`` for self-play.
    start : {"R", "P", "S", None}, default "R"
        The action player 1 leans towards before any regret is collected.
        With ``None`` both start uniform, which in standard
        rock-paper-scissors is already the equilibrium.
    show_controls : bool, default True
        ``False`` shows only the timeline and figures (for a projected demo).

    Raises
    ------
    ValueError
        For an argument of the wrong type or out of range.  Values typed into
        the controls later are checked on **Solve**, and a bad one is
        explained in the output area (nothing is clamped silently).
    """

    def __init__(self, payoffs=None, iterations: int = 1000, seed: int = 0,
                 update: str = "expected", opponent=None, start: str | None = "R",
                 show_controls: bool = True):
        super().__init__()
        if update not in ("expected", "sampled"):
            raise ValueError(f"update must be 'expected' or 'sampled'; got {update!r}")
        if start not in STARTS.values():
            raise ValueError(f"start must be one of {list(STARTS.values())}; got {start!r}")
        iterations, seed = ITERATIONS.check(iterations), SEED.check(seed)
        if opponent is not None:
            opponent = _weights(opponent)
        self.equilibrium: MatrixEquilibrium | None = None
        self.status = W.HTML()

        self._add_controls(iterations, seed)
        self._add_timeline()
        self._arrange(show_controls)

        self.set_payoffs(rock_paper_scissors().payoffs if payoffs is None else payoffs)
        self.update_rule.value = update
        self.start.value = start
        if opponent is not None:
            self.set_opponent(opponent)
            self.mode.value = "fixed"
        self._on_mode()
        self.solve()

    def _add_controls(self, iterations: int, seed: int) -> None:
        """The payoff editor, the run's settings and the Solve button."""
        style = {"description_width": "initial"}
        self.payoff_cells = [[W.FloatText(layout=W.Layout(width="64px")) for _ in range(3)]
                             for _ in range(3)]
        self.preset = W.Dropdown(options=list(PRESETS), description="preset", style=style,
                                 layout=W.Layout(width="280px"))
        self.preset.observe(self._on_preset, names="value")
        self.iterations = number_field(ITERATIONS, iterations, width="190px")
        self.seed = number_field(SEED, seed, width="150px")
        self.update_rule = W.ToggleButtons(options=[("expected payoffs", "expected"),
                                                    ("sample one action", "sampled")],
                                           description="regret update", style=style)
        self.mode = W.ToggleButtons(options=[("self-play", "self"),
                                             ("fixed opponent", "fixed")],
                                    description="player 2", style=style)
        self.opponent_mix = [W.FloatSlider(value=1.0, min=0.0, max=1.0, step=0.05,
                                           description=f"P2 weight {a}",
                                           continuous_update=False, style=style,
                                           layout=W.Layout(width="240px"))
                             for a in ("R", "P", "S")]
        #: The weights as typed (any number >= 0, beyond the sliders' 0..1 too).
        self.opponent_fields = [typed_slider(s, WEIGHT, width="70px") for s in self.opponent_mix]
        self.start = W.Dropdown(options=list(STARTS.items()), description="start",
                                style=style, layout=W.Layout(width="280px"))
        self.solve_button = W.Button(description="Solve", button_style="primary",
                                     icon="play", tooltip="run regret matching and record it")
        self.solve_button.on_click(lambda _: self.solve())
        self.mode.observe(self._on_mode, names="value")

    def _add_timeline(self) -> None:
        """The timeline (play and slider), the three charts with their "now" marks over them,
        the numbers and the chart player's toggle."""
        self.play = Play(value=0, min=0, max=0, step=1, interval=80,
                         description="play", show_repeat=False)
        self.slider = W.IntSlider(value=0, min=0, max=0, description="frame",
                                  continuous_update=True, readout=False,
                                  layout=W.Layout(width="420px"))
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.iteration_label = W.HTML()
        self.slider.observe(self._on_frame, names="value")

        # Each chart takes the width of its place in the output area (no fixed widths).
        self.simplex = fit_to_output(FigureWidget())
        self.history = fit_to_output(FigureWidget())
        self.curve = fit_to_output(FigureWidget())
        # The "now" marks lie over the charts (cfrviz.widgets.overlay): moving them inside
        # plotly would redraw every line of the chart on each frame.  On the triangle the
        # paths and points are all drawn over it (plotly keeps the triangle, star and legend).
        self.simplex_marks = NowMarks()
        self.history_marks = NowMarks({"now": vline("x", "y", **NOW_LINE),
                                       "now, lower chart": vline("x2", "y2", **NOW_LINE)})
        self.curve_marks = NowMarks({"now": point(**NOW_POINT)})
        self.numbers = W.HTML()
        self.history_player = W.ToggleButtons(options=[("player 1", 0), ("player 2", 1)],
                                              description="charts for",
                                              style={"description_width": "initial"})
        self.history_player.observe(lambda _: self._redraw(), names="value")

    def _arrange(self, show_controls: bool) -> None:
        """The controls (payoff table beside the run's settings), then the timeline and the
        charts."""
        grid = W.GridBox(
            [W.HTML("<b>P1 \\ P2</b>")] + [W.HTML(f"<b>{a}</b>") for a in "RPS"]
            + [w for i, a in enumerate("RPS") for w in [W.HTML(f"<b>{a}</b>"),
                                                        *self.payoff_cells[i]]],
            layout=W.Layout(grid_template_columns="80px 70px 70px 70px", grid_gap="2px"))
        payoff_box = W.VBox([W.HTML("<b>Player 1's payoffs</b> (player 2 gets the negative)"),
                             self.preset, grid])
        run_box = W.VBox([self.iterations, self.seed, self.start, self.update_rule, self.mode,
                          W.VBox([W.HBox(pair) for pair in zip(self.opponent_mix,
                                                               self.opponent_fields)]),
                          W.HBox([self.solve_button, self.status])])
        self.controls = W.HBox([payoff_box, run_box], layout=W.Layout(grid_gap="24px"))
        self.opponent_box = run_box.children[-2]
        timeline = W.HBox([self.play, self.slider, self.iteration_label])
        self.children = ([self.controls] if show_controls else []) + [
            self.output, timeline, overlaid(self.simplex, self.simplex_marks),
            # The chart fills the room beside the table, or the line below it when that
            # room is under 420 pixels.
            W.HBox([self.numbers, overlaid(self.curve, self.curve_marks, flex="1 1 420px")],
                   layout=W.Layout(align_items="flex-start", flex_flow="row wrap")),
            self.history_player, overlaid(self.history, self.history_marks)]
        self._add_download("regret-matching-explorer")  # the frame as PNG, SVG or PDF

    # -- public actions, also used by tests ------------------------------------------------
    def set_payoffs(self, payoffs) -> None:
        """Put a 3x3 matrix into the payoff editor (not solved until :meth:`solve`)."""
        matrix = rock_paper_scissors(payoffs).payoffs
        for i in range(3):
            for j in range(3):
                self.payoff_cells[i][j].value = float(matrix[i, j])

    def set_opponent(self, mix) -> None:
        """Set the fixed opponent's weights, as given (normalised when solving).

        Weights above the sliders' range stay as given in the fields beside
        them (the sliders rest at their end), so ``[2, 1, 1]`` means 1/2, 1/4, 1/4.
        """
        for field, value in zip(self.opponent_fields, mix):
            field.value = float(value)

    def payoffs(self) -> list[list[float]]:
        """The matrix currently in the editor."""
        return [[cell.value for cell in row] for row in self.payoff_cells]

    def solve(self) -> None:
        """Run regret matching with the current controls and show the new trace.

        Errors (a non-finite payoff, an opponent with no weight) are shown in
        the widget's output area; the previous run stays on screen.
        """
        self.clear_report()
        try:  # typed values are checked here, never clamped: a bad one is explained below
            game = rock_paper_scissors(self.payoffs())
            opponent = None
            if self.mode.value == "fixed":
                weights = _weights([f.value for f in self.opponent_fields])
                opponent = weights / weights.sum()
            lean = self.start.value
            initial = None if lean is None else {"P1": [float(a == lean) for a in "RPS"]}
            trace = solve(game, "regret_matching",
                          iterations=ITERATIONS.check(self.iterations.value),
                          seed=SEED.check(self.seed.value), update=self.update_rule.value,
                          opponent=opponent, initial_regrets=initial)
        except Exception as error:  # shown to the student, never a dead widget
            self.report("Could not solve", error)
            self.status.value = "<span style='color:#b00'>not solved — see the message</span>"
            return
        self.trace = trace
        self.equilibrium = matrix_equilibrium(game.payoffs)
        self.frames = display_frames(trace)
        self.status.value = f"solved {trace.iterations[-1]:,} iterations"
        self._redraw()

    # -- internals ---------------------------------------------------------------------------
    def _redraw(self) -> None:
        trace = self.trace
        if trace is None:
            return
        figures = (simplex_figure(trace, self.equilibrium, self.frames, now_marks=False),
                   history_figure(trace, self.history_player.value, now_marks=False),
                   exploitability_figure(trace, now_marks=False))
        for target, source in zip((self.simplex, self.history, self.curve), figures):
            with target.batch_update():
                target.data = []
                target.layout = source.layout
                target.add_traces(source.data)
        self._trail = _trail_records(trace, self.frames)
        marks = simplex_marks(self.simplex, trace, self.frames, self._trail)
        # the equilibrium stars (where the game has one) stay at their one point
        stars = {name: (0, 0) for p in (0, 1) if (name := _mark(p, "equilibrium")) in marks}
        self.simplex_marks.set_marks(marks, stars)
        self._reset_timeline()

    def _on_frame(self, _change=None) -> None:
        if self.trace is None:
            return
        with self.reporting("Could not show this frame"):
            frame = min(self.slider.value, len(self.frames) - 1)
            index = int(self.frames[frame])
            trail = (int(np.searchsorted(self._trail, max(0, index - CURRENT_TRAIL + 1))),
                     int(np.searchsorted(self._trail, index)))
            moved = {"average path": (0, frame), "current trail": trail,
                     "current": (frame, frame), "average": (frame, frame)}
            self.simplex_marks.move(**{_mark(p, part): state for p in (0, 1)
                                       for part, state in moved.items()})
            it = float(self.trace.iterations[index])
            self.history_marks.move(it, it)
            self.curve_marks.move(exploitability_point(self.trace, index))
            self.iteration_label.value = (f"iteration <b>{self.trace.iterations[index]:,}</b> "
                                          f"of {self.trace.iterations[-1]:,}")
            self.numbers.value = numbers_table(self.trace, index, self.equilibrium)

    def _on_preset(self, change) -> None:
        self.set_payoffs(PRESETS[change["new"]])

    def _on_mode(self, _change=None) -> None:
        self.opponent_box.layout.display = "" if self.mode.value == "fixed" else "none"


def numbers_table(trace, index: int, equilibrium=None) -> str:
    """HTML table of one record: strategies, regrets and what a best response would win."""
    game = trace.game
    rows = []
    for p in range(len(game.infoset_keys)):
        actions = game.infoset_actions[p]
        k = len(actions)
        cells = {
            "current strategy": trace.current_strategy[index, p, :k],
            "average strategy": trace.average_strategy[index, p, :k],
            "regret this iteration": trace.instantaneous_regret[index, p, :k],
            "cumulative regret": trace.cumulative_regret[index, p, :k],
        }
        if equilibrium is not None:
            cells["equilibrium"] = equilibrium.row if p == 0 else equilibrium.col
        head = "".join(f"<th style='padding:2px 8px'>{escape(a)}</th>" for a in actions)
        body = "".join(
            f"<tr><td style='padding:2px 8px'>{name}</td>"
            + "".join(f"<td style='padding:2px 8px;text-align:right'>{round(v, 3) + 0.0:.3f}</td>"
                      for v in values) + "</tr>"
            for name, values in cells.items())
        rows.append(f"<tr><th style='text-align:left'>Player {p + 1}</th>{head}</tr>{body}")
    A = game.payoffs
    avg_x, avg_y = trace.average_strategy[index, 0, :3], trace.average_strategy[index, 1, :3]
    value = float(avg_x @ A @ avg_y)
    summary = (f"<p>With the average strategies player 1 expects <b>{value + 0.0:+.4f}</b> "
               f"per game. A best response to player 2's average would win "
               f"<b>{(A @ avg_y).max() + 0.0:+.4f}</b> for player 1; one to player 1's average "
               f"<b>{(-(avg_x @ A)).max() + 0.0:+.4f}</b> for player 2. Exploitability "
               f"<b>{trace.exploitability[index]:.4f}</b>.</p>")
    return (f"<div style='font-size:13px;padding-left:12px'><table>{''.join(rows)}</table>"
            f"{summary}</div>")


def _trail_records(trace, frames) -> np.ndarray:
    """The records the current strategy's trail passes through at any of the ``frames``: the
    last ``CURRENT_TRAIL`` up to each, sorted."""
    used = np.zeros(len(trace), dtype=bool)
    for index in frames:
        used[max(0, index - CURRENT_TRAIL + 1):index + 1] = True
    return np.flatnonzero(used)


def _mark(player: int, part: str) -> str:
    """The name of a mark of :func:`simplex_marks`: ``"player 1: average path"``."""
    return f"player {player + 1}: {part}"


def simplex_marks(fig, trace, frames, trail) -> dict[str, dict]:
    """The moving parts of :func:`~cfrviz.views.matrix.simplex_figure` (made with
    ``now_marks=False``) as overlay marks, styled like its traces (which keep their styles
    and legend entries there but draw nothing): per player the
    average strategy's path and the current strategy's trail (through the ``trail``
    records), the current and the average point at the ``frames``; then each player's
    equilibrium star, drawn again on top as plotly draws it last.  Named by
    :func:`_mark` (player, part)."""
    names = list(trace.game.action_names or trace.game.row_actions)

    def titles(kind, rows):
        return [f"{kind}\n" + "\n".join(f"{name}: {v:.3f}" for name, v in zip(names, row))
                for row in rows]

    marks: dict[str, dict] = {}
    stars: dict[str, dict] = {}
    for p, ternary in enumerate(("ternary", "ternary2")):
        base = 5 * p
        average = trace.average_strategy[frames, p, :3]
        current = trace.current_strategy[frames, p, :3]
        marks |= {
            _mark(p, "average path"): path(average, ternary=ternary, trace=base,
                                           line=fig.data[base].line.to_plotly_json()),
            _mark(p, "current trail"): path(trace.current_strategy[trail, p, :3],
                                            ternary=ternary, trace=base + 1,
                                            line=fig.data[base + 1].line.to_plotly_json()),
            _mark(p, "current"): path(current, ternary=ternary, trace=base + 2,
                                      marker=fig.data[base + 2].marker.to_plotly_json(),
                                      titles=titles("current", current)),
            _mark(p, "average"): path(average, ternary=ternary, trace=base + 3,
                                      marker=fig.data[base + 3].marker.to_plotly_json(),
                                      titles=titles("average", average))}
        star = fig.data[base + 4]
        eq = [star.a[0], star.b[0], star.c[0]]
        if np.all(np.isfinite(eq)):
            stars[_mark(p, "equilibrium")] = path([eq], ternary=ternary,
                                                  marker=star.marker.to_plotly_json(),
                                                  titles=titles("equilibrium", [eq]),
                                                  trace=base + 4)
    return marks | stars


def _weights(mix) -> np.ndarray:
    """The fixed opponent's three weights (R, P, S), checked: numbers >= 0 with a positive sum."""
    if not isinstance(mix, (list, tuple, np.ndarray)) or len(mix) != 3:
        raise ValueError(f"the fixed opponent needs three weights >= 0 for R, P, S; got {mix!r}")
    weights = np.array([Param(f"player 2's weight on {a}", kind="float", low=0.0).check(w)
                        for a, w in zip("RPS", mix)])
    if weights.sum() <= 0:
        raise ValueError("the fixed opponent needs a positive weight on at least one action; "
                         "move one of the P2 weights above 0")
    return weights
