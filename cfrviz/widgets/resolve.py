"""Solving while playing, as a widget: pick a public state, see both ranges there, and re-solve
its subgame unsafely, with the re-solve gadget or by max-margin, live.

The numbers are :func:`cfrviz.solvers.subgame.resolve`'s: the widget runs
:func:`~cfrviz.solvers.subgame.resolve_steps` (the same gadgets and CFR+, one run per gadget
iterated chunk by chunk, which is bit-exact) so that it can draw the subgame's convergence and
move a progress bar while it runs.
"""

from __future__ import annotations

import time

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go

from ..core.markup import escape
from ..core.policy import Policy, check_policy
from ..core.registry import Param
from ..core.tree import as_tree
from ..engine import tree_exploitability
from ..games.public import PublicState, PublicTree, public_tree, ranges
from ..solvers import solve
from ..solvers.subgame import METHOD_LABELS, METHODS, Resolution, resolve_steps
from ..views.public import (
    SELECTED_TRACE,
    convergence_traces,
    public_layout,
    public_tree_figure,
    ranges_figure,
    resolve_figure,
    tree_title,
)
from ..views.style import fit_to_output
from .controls import number_field
from .figure_widget import FigureWidget
from .panel import Panel

__all__ = ["ResolveExplorer"]

ITERATIONS = Param("subgame iterations", 1000, "int", 1, 20_000,
                   help="CFR+ iterations on each gadget")
BLUEPRINT_ITERATIONS = Param("blueprint iterations", 30, "int", 1, 20_000,
                             help="iterations of the CFR run that makes the blueprint")
#: The blueprints the menu offers (a policy passed in adds "the given policy").
BLUEPRINTS = (("a short CFR run", "cfr"), ("uniform random (weak)", "uniform"))
#: Chunks each gadget's CFR+ run is split into (one progress step and one point each).
CHUNKS = 10
#: What the subgame panel says before the first re-solve at a state (it would be empty).
PLACEHOLDER = ("Press <b>Re-solve</b>: the subgame's CFR+<br>is drawn here as it runs, and the "
               "re-solved<br>strategy's exploitability joins the bars on the right")


def _usable(blueprint, blueprint_iterations, method, iterations
            ) -> tuple[Policy | None, int, str, int, list[str]]:
    """The arguments as the explorer uses them, each bad one replaced by its default, and a
    message per bad one (shown in the widget, never raised)."""
    bad: list[str] = []
    checked = []
    for param, value in ((BLUEPRINT_ITERATIONS, blueprint_iterations),
                         (ITERATIONS, iterations)):
        try:
            checked.append(param.check(value))
        except ValueError as error:
            bad.append(str(error))
            checked.append(param.default)
    if method not in METHODS:
        bad.append(f"unknown re-solving method {method!r}; choose one of "
                   f"{', '.join(repr(m) for m in METHODS)} (using 'resolve')")
        method = "resolve"
    if blueprint is not None and not isinstance(blueprint, Policy):
        bad.append(f"the blueprint is a cfrviz.Policy; got {type(blueprint).__name__} "
                   f"(using a short CFR run)")
        blueprint = None
    return blueprint, checked[0], method, checked[1], bad


class ResolveExplorer(Panel):
    """The public tree, both ranges at a selected public state, and a **Re-solve** button.

    Pick a public state (click it in the tree or choose it in the menu): the bars show each
    player's range there under the blueprint.  **Re-solve** runs CFR+ on the state's subgame
    unsafely, with the re-solve gadget (Burch, Johanson & Bowling 2014) or by max-margin
    (Moravčík et al. 2016), drawing the subgame's convergence as it goes, then puts the result
    back into the blueprint and shows the whole game's exploitability beside the blueprint's
    and, for the safe methods, the bound it may not pass
    (:func:`cfrviz.solvers.subgame.resolve`).  Errors appear in the widget's output area.

    Parameters
    ----------
    game
        A two-player game with a public tree (Kuhn, Leduc, pocket poker); another game gives a
        widget that says why it cannot be used.
    blueprint : Policy, optional
        The strategy to re-solve in (default: CFR for ``blueprint_iterations``).
    blueprint_iterations : int, default 30
    state : str, optional
        The public history to select first (default: the first decision after the deal).
    method : {"unsafe", "resolve", "maxmargin"}
    iterations : int, default 1000
        CFR+ iterations on each gadget.
    presenter : bool, optional

    Attributes
    ----------
    resolution : Resolution or None
        The last re-solve.
    results : dict
        ``{method: Resolution}`` of the re-solves at the selected state with this blueprint.
    """

    def __init__(self, game, blueprint: Policy | None = None, blueprint_iterations: int = 30,
                 state: str | None = None, method: str = "resolve", iterations: int = 1000,
                 presenter: bool | None = None):
        super().__init__()
        self.presenter = presenter
        self.resolution: Resolution | None = None
        self.results: dict[str, Resolution] = {}
        self.blueprint: Policy | None = None
        self.blueprint_exploitability: float | None = None
        self.selected: PublicState | None = None
        #: The gadgets' runs of the last re-solve: (name, iterations, exploitability) each.
        self._curves: list[tuple[str, list[int], list[float]]] = []
        self.public: PublicTree | None = None
        self.status = W.HTML()
        self.status.add_class("cfrviz-resolve-status")
        try:
            self.game = as_tree(game, "the re-solve explorer")
            self.public = public_tree(self.game)
        except Exception as error:  # a game without a public tree: say so, in the widget
            self.children = [self.status, self.output]
            self.report("This game cannot be re-solved by public states", error)
            return
        blueprint, blueprint_iterations, method, iterations, bad = _usable(
            blueprint, blueprint_iterations, method, iterations)
        st = {"description_width": "initial"}
        options = list(BLUEPRINTS) + ([("the given policy", "given")] if blueprint else [])
        self.blueprint_kind = W.Dropdown(options=options, value="given" if blueprint else "cfr",
                                         description="blueprint", style=st,
                                         layout=W.Layout(width="300px"))
        self.blueprint_iterations = number_field(BLUEPRINT_ITERATIONS, blueprint_iterations,
                                                 width="230px")
        self._given = blueprint
        live = [s for s in self.public.states if s.dealt and s.kind != "terminal"]
        self.state_menu = W.Dropdown(options=[(s.history, s.id) for s in live],
                                     description="public state", style=st,
                                     layout=W.Layout(width="340px"))
        self.method = W.Dropdown(options=[(METHOD_LABELS[m], m) for m in METHODS],
                                 value=method,
                                 description="method", style=st, layout=W.Layout(width="380px"))
        self.iterations = number_field(ITERATIONS, iterations, width="230px")
        self.resolve_button = W.Button(description="Re-solve", button_style="primary",
                                       icon="play")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="subgame CFR+",
                                      style=st, layout=W.Layout(width="360px"))
        self._arrange(self.public, presenter)
        for trace in self.tree_fig.data[1:SELECTED_TRACE]:
            trace.on_click(self._on_click)
        self.resolve_button.on_click(lambda _: self.resolve())
        self.blueprint_kind.observe(lambda _: self.set_blueprint(), names="value")
        self.blueprint_iterations.observe(lambda _: self.set_blueprint(), names="value")
        self.state_menu.observe(self._on_menu, names="value")
        self.set_blueprint()
        first = state if state is not None else (live[1].history if len(live) > 1 and
                                                 self.game.name == "leduc_poker"
                                                 else live[0].history)
        self.select(first)
        for message in bad:  # after the first drawing, which clears the output area
            self.report("Not used", ValueError(message))

    def _arrange(self, public: PublicTree, presenter: bool | None) -> None:
        """The three figures (public tree, ranges, re-solves) and the controls between them."""
        self.tree_fig = fit_to_output(FigureWidget(public_tree_figure(
            public, presenter=presenter)))
        self.ranges_fig = fit_to_output(FigureWidget(ranges_figure(
            public, "", None, presenter=presenter)))
        self.resolve_fig = fit_to_output(FigureWidget(resolve_figure(
            [], None, {}, presenter=presenter)))
        self.children = [
            W.HBox([self.blueprint_kind, self.blueprint_iterations]),
            self.tree_fig,
            W.HBox([self.state_menu, self.method]),
            W.HBox([self.iterations, self.resolve_button, self.progress]),
            self.status, self.output, self.ranges_fig, self.resolve_fig]

    # -- public actions (also used by tests) ----------------------------------------------------
    def set_blueprint(self, kind: str | None = None, iterations: int | None = None) -> None:
        """Make the blueprint (``"cfr"`` for the iterations in the field, ``"uniform"`` or
        ``"given"``) and forget the re-solves made with the old one."""
        if self.public is None:
            return
        self.clear_report()
        try:
            if kind is not None:
                if kind not in dict((v, v) for _, v in self.blueprint_kind.options):
                    raise ValueError(f"the blueprint is one of "
                                     f"{[v for _, v in self.blueprint_kind.options]}; "
                                     f"got {kind!r}")
                self.blueprint_kind.value = kind  # observed: comes back here
                if iterations is None:
                    return
            if iterations is not None:
                self.blueprint_iterations.value = iterations
            kind = self.blueprint_kind.value
            if kind == "cfr":
                n = BLUEPRINT_ITERATIONS.check(self.blueprint_iterations.value)
                policy = solve(self.game, "cfr", n, checkpoints=[n],
                               progress=False).average_policy()
            elif kind == "uniform":
                policy = Policy.uniform(self.game)
            else:
                assert self._given is not None
                policy = self._given
            check_policy(self.game, policy)
        except Exception as error:
            self.report("Could not make the blueprint", error)
            return
        self.blueprint_iterations.disabled = kind != "cfr"
        self.blueprint = policy
        self.blueprint_exploitability = float(tree_exploitability(self.game,
                                                                  policy.probabilities))
        if self.selected is not None:
            self._show_state()

    def select(self, state: str | int | PublicState) -> None:
        """Select a public state (its public history, its id or the state itself)."""
        if self.public is None:
            return
        self.clear_report()
        try:
            s = self._state(state)
        except Exception as error:
            self.report("Cannot select that public state", error)
            return
        self.selected = s
        if self.state_menu.value != s.id:
            self.state_menu.value = s.id  # observed: the menu's handler sees it is shown
        self._show_state()

    def resolve(self) -> Resolution | None:
        """Re-solve the selected state's subgame by the chosen method, drawing it as it goes;
        returns the :class:`Resolution` (``None`` if it could not, the reason shown)."""
        if self.public is None or self.selected is None or self.blueprint is None:
            return None
        self.clear_report()
        try:
            iterations = ITERATIONS.check(self.iterations.value)
            method = self.method.value
            s = self.selected
            self.resolve_button.disabled = True
            self.progress.value = 0
            resolution = None
            start = time.perf_counter()
            for step in resolve_steps(self.game, self.blueprint, s, method, iterations,
                                      chunks=CHUNKS):
                self.progress.max = max(step.total, 1)
                self.progress.value = step.done
                if step.resolution is not None:
                    resolution = step.resolution
                else:
                    self._draw_curves(step.curves)
            if resolution is None:
                raise RuntimeError("the re-solve ended without a result")
            self.resolution = resolution
            self.results[method] = resolution
            self._curves = step.curves
            self._draw_results(s)
            wall = time.perf_counter() - start
            self._status(f" (this re-solve: {resolution.seconds:.2f} s of solving, "
                         f"{wall:.2f} s with drawing)")
            if resolution.interrupted:
                self.report(_interrupted(resolution, iterations))
        except Exception as error:  # shown to the student, never a dead widget
            self.report("Could not re-solve", error)
            return None
        finally:
            self.resolve_button.disabled = False
        return resolution

    # -- internals ----------------------------------------------------------------------------
    def _state(self, state: str | int | PublicState) -> PublicState:
        assert self.public is not None
        if isinstance(state, PublicState):
            s = self.public._state(state)
        elif isinstance(state, str):
            s = self.public.find(state)
        elif isinstance(state, (int, np.integer)) and not isinstance(state, bool):
            s = self.public._state(int(state))
        else:
            raise ValueError(f"a public state is given as its public history (such as "
                             f"{self.public.states[1].history!r}) or its id; got "
                             f"{type(state).__name__}")
        if s.kind == "terminal":
            raise ValueError(f"public state {s.history!r} is terminal: the hand is over there "
                             f"and there is nothing to re-solve; pick a state where a player "
                             f"acts or a card is dealt")
        if not s.dealt:
            raise ValueError(f"public state {s.history or '(the root)'!r} comes before the "
                             f"private cards are dealt: its subgame is the whole game, and the "
                             f"players have no ranges yet; pick a state below it")
        return s

    def _on_menu(self, change) -> None:
        if self.selected is None or change["new"] != self.selected.id:
            self.select(int(change["new"]))

    def _on_click(self, trace, points, _selector) -> None:
        with self.reporting("Could not select that public state"):
            if points.point_inds:
                self.select(int(trace.customdata[points.point_inds[0]]))

    def _show_state(self) -> None:
        assert self.public is not None and self.selected is not None
        assert self.blueprint is not None
        s = self.selected
        self.results = {}
        self.resolution = None
        self._curves = []
        x, y = public_layout(self.public)
        ranged = ranges_figure(self.public, s.history, ranges(self.public, s, self.blueprint),
                               presenter=self.presenter)
        with self.tree_fig.batch_update():
            ring = self.tree_fig.data[SELECTED_TRACE]
            ring.x, ring.y, ring.text = [x[s.id]], [y[s.id]], [escape(s.history)]
            self.tree_fig.layout.title.text = tree_title(self.public, s.id)
        _replace(self.ranges_fig, ranged)
        self._draw_results(s)
        self._status("")

    def _draw_curves(self, curves) -> None:
        new = convergence_traces(curves, self.presenter)
        fig = self.resolve_fig
        lines = [t for t in fig.data if t.type == "scatter" and t.xaxis == "x"]
        with fig.batch_update():
            if len(lines) != len(new):
                assert self.selected is not None
                _replace(fig, resolve_figure(curves, self.blueprint_exploitability,
                                             self._summary(), self.selected.history,
                                             self.presenter))
                return
            for old, line in zip(lines, new):
                old.update(x=line.x, y=line.y)

    def _summary(self) -> dict[str, tuple[float, float]]:
        return {m: (r.exploitability, r.bound) for m, r in self.results.items()}

    def _draw_results(self, s: PublicState) -> None:
        fig = resolve_figure(self._curves, self.blueprint_exploitability, self._summary(),
                             s.history, self.presenter)
        if not self._curves:  # say what the empty panel is for, until Re-solve fills it
            left, right = fig.layout.xaxis.domain  # the subgame panel, in paper units
            fig.add_annotation(text=PLACEHOLDER, xref="paper", yref="paper",
                               x=(left + right) / 2, y=0.5, xanchor="center", align="center",
                               showarrow=False, font=dict(color="#555555"))
        _replace(self.resolve_fig, fig)

    def _status(self, tail: str) -> None:
        assert self.selected is not None
        kind = self.blueprint_kind.value
        what = (f"CFR, {self.blueprint_iterations.value:,} iterations" if kind == "cfr"
                else "uniform random" if kind == "uniform" else "the given policy")
        parts = [f"whole-game exploitability — blueprint ({escape(what)}): "
                 f"<b>{self.blueprint_exploitability:.4f}</b>"]
        for m, r in self.results.items():
            bound = (f" (safety bound: at most {r.blueprint_exploitability + r.bound:.4f})"
                     if np.isfinite(r.bound) else " (no guarantee)")
            partial = " <b>(interrupted: partial)</b>" if r.interrupted else ""
            parts.append(f"after {escape(METHOD_LABELS[m])} at {escape(self.selected.history)}:"
                         f" <b>{r.exploitability:.4f}</b>{bound}{partial}")
        self.status.value = "<br>".join(parts) + escape(tail)


def _interrupted(resolution: Resolution, iterations: int) -> str:
    """What the output area says of a re-solve a Ctrl-C (a kernel interrupt) ended early."""
    done = ", ".join(f"{n:,}" for n in resolution.iterations) or "none"
    return (f"Interrupted: this re-solve is partial (iterations done per gadget: {done} of "
            f"{iterations:,}); its numbers are those of the strategy as it stood. Press "
            f"Re-solve to run it in full.")


def _replace(target: go.FigureWidget, source: go.Figure) -> None:
    """Redraw ``target`` as ``source`` in one message (traces updated in place when their
    number and kinds agree)."""
    with target.batch_update():
        if [t.type for t in target.data] != [t.type for t in source.data]:
            target.data = []
            target.add_traces(source.data)
        else:
            for old, new in zip(target.data, source.data):
                props = new.to_plotly_json()
                props.pop("type", None)
                old.update(props, overwrite=True)
        target.layout = source.layout

