"""A river spot's strategy on the 13x13 hand grid: click through the bet tree, scrub the trace,
edit the ranges and solve again (issue 32 item 4)."""

from __future__ import annotations

import html

import ipywidgets as W
import numpy as np

from ..analysis.holdem import LockGain, decision_lines, line_name, lock_gain, node_strategy
from ..core.checks import whole_number
from ..core.trace import Trace
from ..core.tree import GameTree
from ..games import load_game, lock, unlocked
from ..games.holdem import MADE_HANDS, lock_line, made_hand, parse_cards, parse_range
from ..games.holdem.spot import river_spot, river_tree
from ..solvers import solve
from ..views.holdem import (
    BET_TREE_TRACES,
    action_colours,
    bet_tree_figure,
    choose_bet_node,
    hand_grid_figure,
    update_hand_grid,
)
from ..views.matrix import display_frames
from ..views.style import fit_to_output, get_style
from .figure_widget import FigureWidget
from .panel import Panel

#: The timeline's most stops: a trace of more records is shown at this many of them.
MAX_FRAMES = 60
#: What Solve runs: DCFR in vector form (the river kernel: milliseconds on the reference spot);
#: a locked spot, whose public tree the lock breaks, with tabular DCFR (the same iterates).
ALGORITHM, LOCKED_ALGORITHM, ITERATIONS = "vector_dcfr", "dcfr", 200


class RiverGrid(Panel):
    """A river spot's strategy at one decision of its bet tree, as the hand grid players read.

    - **decision** (or a click on a decision of the bet tree drawn above the grid): the
      decision shown (``"OOP at the root"``, ``"IP after X"``, ...); the grid is
      the acting player's range there, each cell split by how often its combos take each
      action and as tall as the share of its combos still in the range;
    - **record**: the trace's records, to watch the average strategy form;
    - the range's share of each action above the grid, every combo's strategy and EV on
      hover;
    - **OOP range** / **IP range** and **Solve**: the spot again with other ranges, in
      players' notation (a token that cannot be read is named in the message).

    Parameters
    ----------
    trace : Trace
        A run on ``load_game("holdem_river", ...)``.
    line : str, default ""
        The decision shown first (a line of the bet tree, ``""`` the root).
    presenter : bool, optional
        Larger sizes for a projector.
    """

    def __init__(self, trace: Trace, line: str = "", presenter: bool | None = None):
        super().__init__()
        self.style = get_style(presenter)
        self.trace = trace
        self.game = river_tree(trace.game)  # refuses another game, saying so
        spot = river_spot(self.game)
        st = {"description_width": "initial"}
        self.line = W.Dropdown(description="decision", style=st,
                               layout=W.Layout(width="360px"))
        self.slider = W.IntSlider(min=0, max=0, description="record", readout=False,
                                  continuous_update=False, layout=W.Layout(width="360px"))
        self.label = W.HTML()
        self.shares = W.HTML()
        self.ranges = [W.Text(value=str(hands), description=f"{who} range", style=st,
                              layout=W.Layout(width="95%"))
                       for who, hands in zip(("OOP", "IP"), spot.ranges)]
        self.iterations = W.BoundedIntText(value=ITERATIONS, min=1, max=100_000,
                                           description="iterations", style=st,
                                           layout=W.Layout(width="180px"))
        self.solve_button = W.Button(description="Solve", button_style="primary")
        self._set_trace(trace, line)
        self.figure = fit_to_output(FigureWidget(hand_grid_figure(
            self._node(), presenter=self.style.presenter)))
        self.bet_tree = fit_to_output(FigureWidget(bet_tree_figure(
            spot.bets, self.line.value, presenter=self.style.presenter)))
        self.bet_tree.data[BET_TREE_TRACES.index("decisions")].on_click(self._on_click)
        self._show_shares()
        self.line.observe(self._on_line, names="value")
        self.slider.observe(self._on_record, names="value")
        self.solve_button.on_click(self._on_solve)
        self.children = [W.HBox([self.line, self.slider, self.label]), self.bet_tree,
                         self.shares, self.output, self.figure, *self.ranges,
                         W.HBox([self.iterations, self.solve_button])]

    # ------------------------------------------------------------------ what is on screen

    @property
    def record(self) -> int:
        """The trace record the grid shows."""
        return int(self.frames[self.slider.value])

    def show_line(self, line: str) -> None:
        """Show the decision at ``line`` (a line of the bet tree)."""
        lines = [value for _, value in self.line.options]
        if line not in lines:
            raise ValueError(f"no decision at the line {line!r}; the decisions are at "
                             f"{', '.join(map(repr, lines))}")
        self.line.value = line

    def show_iteration(self, iteration: int) -> None:
        """Move the record slider to the stop closest to ``iteration``."""
        iteration = whole_number(iteration, "iteration")
        its = self.trace.iterations[self.frames]
        self.slider.value = int(np.argmin(np.abs(its - iteration)))

    def _node(self):
        policy = self.trace.average_policy(int(self.trace.iterations[self.record]))
        return node_strategy(self.game, policy.probabilities, self.line.value)

    def _set_trace(self, trace: Trace, line: str) -> None:
        game = self.game = river_tree(trace.game)
        self.trace = trace
        self.frames = display_frames(trace, MAX_FRAMES)
        options = [(line_name(value, player), value) for player in (0, 1)
                   for value in decision_lines(game, player)]
        self.line.options = sorted(options, key=lambda o: (len(o[1]), o[1]))
        self.line.value = line if line in [v for _, v in options] else ""
        self.slider.max = len(self.frames) - 1
        self.slider.value = self.slider.max
        self._show_label()

    def _show_label(self) -> None:
        it = int(self.trace.iterations[self.record])
        exploitability = float(self.trace.exploitability[self.record])
        pot = river_spot(self.game).bets.pot
        self.label.value = (f"iteration <b>{it:,}</b> of {int(self.trace.iterations[-1]):,}; "
                            f"exploitability {exploitability:.3g} chips "
                            f"({exploitability / pot:.3%} of the pot)")

    def _show_shares(self, ns=None) -> None:
        ns = ns or self._node()
        colours = action_colours(ns.actions)
        items = "".join(
            f"<span style='display:inline-block;margin-right:1em'><span style='display:"
            f"inline-block;width:0.9em;height:0.9em;background:{c};vertical-align:middle'>"
            f"</span> {html.escape(a)} {s:.1%}</span>"
            for a, s, c in zip(ns.actions, ns.shares(), colours))
        self.shares.value = (f"<div style='font-size:{self.style.font_size}px'>"
                             f"{html.escape(line_name(ns.line, ns.player))}, the range's "
                             f"share of each action: {items}</div>")

    def _redraw(self, rebuild: bool) -> None:
        ns = self._node()
        if rebuild:  # another node: other actions, so other traces
            fresh = hand_grid_figure(ns, presenter=self.style.presenter)
            with self.figure.batch_update():
                self.figure.data = ()
                self.figure.add_traces(fresh.data)
                self.figure.layout.title.text = fresh.layout.title.text
        else:
            update_hand_grid(self.figure, ns)
        self._show_shares(ns)
        self._show_label()

    # ------------------------------------------------------------------ callbacks

    def _on_line(self, _change=None) -> None:
        with self.reporting(f"Could not show the decision at {self.line.value!r}"):
            choose_bet_node(self.bet_tree, river_spot(self.game).bets, self.line.value)
            self._redraw(rebuild=True)

    def _on_click(self, trace, points, _selector) -> None:
        """A decision clicked in the bet tree: show it."""
        with self.reporting("Could not show that decision"):
            if points.point_inds:
                self.show_line(str(trace.customdata[points.point_inds[0]]))

    def _on_record(self, _change=None) -> None:
        with self.reporting(f"Could not show record {self.slider.value}"):
            self._redraw(rebuild=False)

    def _on_solve(self, _button=None) -> None:
        self.clear_report()
        with self.reporting("Could not solve the spot"):
            params = dict(self.game.params or {})
            board = river_spot(self.game).board
            for who, text in zip(("OOP", "IP"), self.ranges):
                try:
                    parse_range(text.value, board)
                except ValueError as error:
                    raise ValueError(f"{who}'s range: {error}") from None
            params["ranges"] = tuple(text.value for text in self.ranges)
            game = load_game("holdem_river", **params)
            trace = solve(game, ALGORITHM, self.iterations.value, progress=False)
            line = self.line.value
            self._set_trace(trace, line)
            self._redraw(rebuild=True)


def river_grid(trace: Trace, line: str = "", presenter: bool | None = None) -> RiverGrid:
    """The hand grid of a river spot's trace (see :class:`RiverGrid`)."""
    return RiverGrid(trace, line, presenter=presenter)


class LockExplorer(Panel):
    """Lock one player's play at one decision, re-solve the rest, and compare with equilibrium.

    The lock reads as a sentence: *at* a decision, the acting player *plays* an action *with
    every hand weaker than* a made hand (``"top pair"``: IP never calls a bet with less than top
    pair); its other combos stay free.  **Lock and re-solve** solves the locked spot (DCFR),
    then shows each player's EV in chips and in % of the pot beside the equilibrium's, and the
    hand grids of both runs side by side at the decision chosen under **show**.

    Parameters
    ----------
    trace : Trace
        The equilibrium run on ``load_game("holdem_river", ...)``.
    line, action, weaker_than : str
        The lock first proposed: default IP facing the first bet folds everything weaker than
        top pair.
    iterations : int
        The re-solve's iterations.
    """

    def __init__(self, trace: Trace, line: str | None = None, action: str = "F",
                 weaker_than: str = "top pair", iterations: int = ITERATIONS,
                 presenter: bool | None = None):
        super().__init__()
        self.style = get_style(presenter)
        self.game = river_tree(trace.game)
        self.trace, self.spot = trace, river_spot(self.game)
        bets = self.spot.bets
        options = [(line_name(node.line, node.player), node.line)
                   for node in (bets.nodes[i] for i in bets.decision_nodes())]
        facing = min((n.player != 1, len(n.line), n.line) for n in bets.nodes  # IP first
                     if not n.terminal and "F" in n.actions)[2]
        st = {"description_width": "initial"}
        self.where = W.Dropdown(options=options, value=facing if line is None else line,
                                description="at", style=st)
        self.action = W.Dropdown(description="plays", style=st, layout=W.Layout(width="160px"))
        self.weaker = W.Dropdown(options=MADE_HANDS[1:], value=weaker_than,
                                 description="with every hand weaker than", style=st)
        self.iterations = W.BoundedIntText(value=iterations, min=1, max=100_000,
                                           description="iterations", style=st,
                                           layout=W.Layout(width="180px"))
        self.button = W.Button(description="Lock and re-solve", button_style="primary")
        self.show = W.Dropdown(options=options, value="", description="show", style=st)
        self.summary = W.HTML()
        self.locked_tree: GameTree | None = None
        self.locked_trace: Trace | None = None
        self.gain: LockGain | None = None
        self._fixed: dict[str, dict[str, float]] = {}
        ns = self._equilibrium_node()
        self.figures = [fit_to_output(FigureWidget(hand_grid_figure(
            ns, title=f"equilibrium: {line_name(ns.line, ns.player)}",
            presenter=self.style.presenter))) for _ in range(2)]
        self._actions(action)
        self.where.observe(self._actions, names="value")
        self.show.observe(self._on_show, names="value")
        self.button.on_click(self._on_lock)
        self.children = [W.HBox([self.where, self.action, self.weaker]),
                         W.HBox([self.iterations, self.button]), self.output, self.summary,
                         self.show, W.HBox([W.Box([f], layout=W.Layout(width="50%"))
                                            for f in self.figures])]

    def fixed(self) -> dict[str, dict[str, float]]:
        """The lock the controls describe, for :func:`cfrviz.games.lock`."""
        limit = MADE_HANDS.index(self.weaker.value)
        board = self.spot.board
        return lock_line(self.game, self.where.value, lambda combo: {self.action.value: 1.0}
                         if MADE_HANDS.index(made_hand(board, parse_cards(combo))) < limit
                         else None)

    def _equilibrium_node(self):
        return node_strategy(self.game, self.trace.average_policy().probabilities,
                             self.show.value)

    def _actions(self, wanted: object = "F") -> None:
        """The lock's action menu: the actions at the chosen decision, ``wanted`` (or a fold)
        first chosen when there is one."""
        node = self.spot.bets.nodes[self.spot.bets.index(self.where.value)]
        self.action.options = node.actions
        wanted = wanted if isinstance(wanted, str) else "F"
        if wanted not in node.actions:
            wanted = "F" if "F" in node.actions else node.actions[0]
        self.action.value = wanted

    def _on_lock(self, _button=None) -> None:
        self.clear_report()
        with self.reporting("Could not lock and re-solve"):
            fixed = self.fixed()
            locked = lock(self.game, fixed)
            trace = solve(locked, LOCKED_ALGORITHM, self.iterations.value, progress=False)
            self.locked_tree, self.locked_trace, self._fixed = locked, trace, fixed
            self.gain = lock_gain(self.game, self.trace.average_policy(), locked,
                                  trace.average_policy())
            rows = "<br>".join(html.escape(row) for row in str(self.gain).splitlines())
            node = self.spot.bets.nodes[self.spot.bets.index(self.where.value)]
            where = html.escape(line_name(node.line, node.player))
            self.summary.value = (f"<div style='font-size:{self.style.font_size}px'>"
                                  f"{len(fixed)} combos locked {where}.<br>{rows}</div>")
            self._on_show()

    def _on_show(self, _change=None) -> None:
        with self.reporting(f"Could not show {self.show.value!r}"):
            self._draw(0, self._equilibrium_node(), "equilibrium")
            if self.locked_tree is not None and self.locked_trace is not None:
                table = unlocked(self.game, self.locked_tree, self._fixed,
                                 self.locked_trace.average_policy().probabilities)
                self._draw(1, node_strategy(self.game, table, self.show.value), "locked")

    def _draw(self, k: int, ns, what: str) -> None:
        fresh = hand_grid_figure(ns, title=f"{what}: {line_name(ns.line, ns.player)}, "
                                 + ", ".join(f"{a} {s:.0%}" for a, s in
                                             zip(ns.actions, ns.shares())),
                                 presenter=self.style.presenter)
        with self.figures[k].batch_update():
            self.figures[k].data = ()
            self.figures[k].add_traces(fresh.data)
            self.figures[k].layout.title.text = fresh.layout.title.text
