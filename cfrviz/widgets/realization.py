"""A realization plan by hand: a slider per sequence, the constraints ``E x = e`` checked live.

Each information set of the player gets two lines: its constraint (the actions' weights
against the weight of the sequence leading to the set) with whether it holds, or by how much
it fails, and below it a slider for each of its action sequences, together as wide as the
notebook.  When every row holds, the plan is a strategy, and the widget shows it as behaviour
probabilities, with what it earns against the other player's equilibrium strategy and
against their best response (the number the sequence-form linear program maximises).
"""

from __future__ import annotations

import html

import ipywidgets as W
import numpy as np

from ..analysis.realization import (
    check_plan,
    plan_from_behaviour,
    plan_rows,
    sequence_labels,
    worst_case_value,
)
from ..core.markup import escape
from ..core.tree import as_tree
from ..solvers.lp import exact_equilibrium, sequence_form
from ..views.style import get_style
from .panel import Panel

#: Slider step: fine enough for the equilibrium's thirds to be within 0.005.
STEP = 0.01
PASS_COLOUR, FAIL_COLOUR = "#137333", "#a50e0e"


class RealizationPlanExplorer(Panel):
    """Sliders on one player's sequences, with the constraints ``E x = e`` checked live.

    Parameters
    ----------
    game : GameTree, default Kuhn poker
        A two-player zero-sum game of perfect recall (small: one slider per sequence).
    player : int, default 0
        Whose plan: 0 (player 1, ``E x = e``) or 1 (player 2, ``F y = f``).
    presenter : bool, optional
        Larger text (default: the global switch).

    Attributes
    ----------
    sliders : dict of str to FloatSlider
        One per sequence other than ∅, by label (``"J·p"``); each from 0 to 1, so a
        weight can be neither negative nor above 1.
    """

    def __init__(self, game=None, player: int = 0, presenter: bool | None = None):
        super().__init__()
        if game is None:
            from ..games import load_game

            game = load_game("kuhn_poker")
        self.game = as_tree(game, "the realization-plan explorer")
        if isinstance(player, bool) or player not in (0, 1):
            raise ValueError(f"player must be 0 (player 1) or 1 (player 2); got {player!r}")
        self.player = int(player)
        self.style = get_style(presenter)
        self.form = sequence_form(self.game)
        self.labels = sequence_labels(self.game, self.player, self.form)
        self.equilibrium = exact_equilibrium(self.game)
        self._updating = False
        px = self.style.font_size
        self.sliders: dict[str, W.FloatSlider] = {}
        lines = [W.HTML(self._text("<b>x(∅) = 1</b>: the empty sequence, always played"))]
        self._row_html: list[W.HTML] = [lines[0]]
        uniform = plan_from_behaviour(self.game, self._uniform(), self.player, self.form)
        for row in plan_rows(self.game, self.player, uniform, self.form)[1:]:
            boxes = []
            for column in row.columns:
                label = self.labels[column]
                # The set's sliders share the whole width, each label in full beside its
                # track; below 24 em each (an output narrower than about 640 px, as in a
                # 1000-px window with the file browser open) they wrap, one per full line.
                slider = W.FloatSlider(value=float(uniform[column]), min=0.0, max=1.0,
                                       step=STEP, description=f"x({label})",
                                       readout_format=".2f", continuous_update=True,
                                       style={"description_width": f"{6 * px}px"},
                                       layout=W.Layout(flex=f"1 1 {24 * px}px", width="auto",
                                                       min_width=f"{24 * px}px"))
                slider.observe(self._on_slider, names="value")
                self.sliders[label] = slider
                boxes.append(slider)
            # The set's row of E x = e on a line of its own, above its sliders, so that
            # neither squeezes the other.
            status = W.HTML(layout=W.Layout(margin="6px 0 0 0"))
            self._row_html.append(status)
            lines.append(W.VBox([status, W.HBox(boxes, layout=W.Layout(width="100%",
                                                                   flex_flow="row wrap"))],
                                layout=W.Layout(width="100%")))
        self.uniform_button = W.Button(description="uniform strategy")
        self.equilibrium_button = W.Button(description="equilibrium (LP)")
        self.zero_button = W.Button(description="all zero but ∅")
        self.uniform_button.on_click(lambda _: self._press(self.set_behaviour, self._uniform()))
        self.equilibrium_button.on_click(
            lambda _: self._press(self.set_plan, self.equilibrium.plans[self.player]))
        self.zero_button.on_click(lambda _: self._press(
            self.set_plan, np.eye(len(self.labels))[0]))
        self.summary = W.HTML()
        who = "player 1's plan x, E x = e" if self.player == 0 else "player 2's plan y, F y = f"
        self.children = [W.HTML(self._text(f"<b>{escape(self.game.name)}: {who}</b>", 1.15)),
                         W.HBox([self.uniform_button, self.equilibrium_button,
                                 self.zero_button]),
                         *lines, self.summary, self.output]
        self._refresh()

    # -- public (also used by tests) -------------------------------------------------------
    @property
    def plan(self) -> np.ndarray:
        """The plan the sliders show, indexed by sequence (x(∅) = 1 first)."""
        x = np.ones(len(self.labels))
        for column, label in enumerate(self.labels[1:], start=1):
            x[column] = self.sliders[label].value
        return x

    def set_plan(self, plan) -> None:
        """Move the sliders to ``plan`` (one weight per sequence, ∅ first, which must be 1).

        Raises
        ------
        ValueError
            For the wrong number of weights, or a weight that is not a number from 0
            to 1, or ``plan[0]`` other than 1 (naming the sequence at fault).
        """
        x = check_plan(plan, len(self.labels))
        if not np.isclose(x[0], 1.0):
            raise ValueError(f"plan[0] is x(∅), always 1; got {float(x[0])!r}")
        high = np.flatnonzero(x > 1.0 + 1e-12)
        if len(high):
            raise ValueError(f"x({self.labels[high[0]]}) would be {float(x[high[0]])!r}: a "
                             "sequence's weight is a probability, at most 1")
        self._updating = True
        try:
            for column, label in enumerate(self.labels[1:], start=1):
                self.sliders[label].value = float(np.clip(x[column], 0.0, 1.0))
        finally:
            self._updating = False
        self._refresh()

    def set_behaviour(self, probs) -> None:
        """Move the sliders to the plan of a behaviour strategy (sets × actions)."""
        probs = np.asarray(probs, dtype=float)
        if probs.shape != self.game.legal_mask.shape:
            raise ValueError(f"a behaviour strategy of {self.game.name} has shape "
                             f"{self.game.legal_mask.shape} (sets × actions); got {probs.shape}")
        self.set_plan(plan_from_behaviour(self.game, probs, self.player, self.form))

    @property
    def rows(self):
        """The constraint rows (:class:`~cfrviz.analysis.realization.PlanRow`) for the plan."""
        return plan_rows(self.game, self.player, self.plan, self.form)

    @property
    def feasible(self) -> bool:
        """True when every row of the constraints holds."""
        return all(row.holds for row in self.rows)

    @property
    def worst_case(self) -> float | None:
        """Player 1's payoff against the other player's best response (None when infeasible)."""
        return worst_case_value(self.game, self.plan, self.player, self.form) \
            if self.feasible else None

    @property
    def against_equilibrium(self) -> float | None:
        """Player 1's payoff against the other player's LP strategy (None when infeasible)."""
        if not self.feasible:
            return None
        other = self.equilibrium.plans[1 - self.player]
        x, y = (self.plan, other) if self.player == 0 else (other, self.plan)
        return float(x @ (self.form.payoff @ y))

    # -- drawing ----------------------------------------------------------------------------
    def _uniform(self) -> np.ndarray:
        mask = self.game.legal_mask
        return mask / mask.sum(axis=1, keepdims=True)

    def _press(self, action, argument) -> None:
        self.clear_report()
        with self.reporting("Could not set the plan"):
            action(argument)

    def _on_slider(self, _change=None) -> None:
        if not self._updating:
            with self.reporting("Could not check the plan"):
                self._refresh()

    def _text(self, body: str, scale: float = 1.0) -> str:
        return f"<div style='font-size:{round(self.style.font_size * scale)}px'>{body}</div>"

    def _refresh(self) -> None:
        rows = self.rows
        for row, status in zip(rows[1:], self._row_html[1:]):
            left = " + ".join(f"{self.sliders[self.labels[c]].value:.2f}" for c in row.columns)
            names = " + ".join(f"x({escape(self.labels[c])})" for c in row.columns)
            verdict = (f"<span style='color:{PASS_COLOUR}'>holds</span>" if row.holds else
                       f"<span style='color:{FAIL_COLOUR}'>fails by {row.gap:+.2f}</span>")
            status.value = self._text(
                f"set <b>{escape(row.infoset)}</b>: {names} = x({escape(self.labels[row.parent])})"
                f" &nbsp; {left} = {row.right:.2f} &nbsp; {verdict}")
        failing = [row for row in rows if not row.holds]
        if failing:
            first = failing[0]
            self.summary.value = self._text(
                f"<span style='color:{FAIL_COLOUR}'><b>Not a realization plan:</b> "
                f"{len(failing)} of {len(rows)} rows fail</span> (first: set "
                f"{escape(first.infoset)}, off by {first.gap:+.2f}). Such a vector is no "
                "strategy, so it has no expected value.")
            return
        value = self.equilibrium.value
        worst = self.worst_case
        assert worst is not None
        loss = (value - worst) if self.player == 0 else (worst - value)
        behaviour = "; ".join(
            f"{escape(row.infoset)}: " + ", ".join(
                f"{escape(self.labels[c].rpartition('·')[2])} "
                f"{_share(self.plan[c], row.right, len(row.columns)):.2f}"
                for c in row.columns)
            + ("" if row.right > 0 else " (never reached)")
            for row in rows[1:])
        self.summary.value = self._text(
            f"<span style='color:{PASS_COLOUR}'><b>A realization plan</b></span>: every row "
            f"holds. As behaviour: {behaviour}.<br>Player 1's expected payoff with player "
            f"{2 - self.player} playing the LP's strategy: <b>{self.against_equilibrium:+.4f}"
            f"</b>; with player {2 - self.player} best-responding: <b>{worst:+.4f}</b>. The "
            "game's value is "
            f"{html.escape(str(self.equilibrium.fraction or round(value, 4)))} = {value:+.4f},"
            f" so a best response takes <b>{loss:.4f}</b> from this plan.")


def _share(weight: float, parent: float, actions: int) -> float:
    """An action's behaviour probability from its plan weight (uniform where never reached)."""
    return max(weight, 0.0) / parent if parent > 0 else 1 / actions
