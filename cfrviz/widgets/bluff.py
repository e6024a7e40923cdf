"""Player 1's bets in Kuhn poker against player 2's counterfactual values at ``Qb``."""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as W

from ..analysis.explain import counterfactual_values
from ..games import load_game
from ..views.counterfactual import counterfactual_values_figure, update_counterfactual_values
from ..views.style import fit_to_output, get_style
from .figure_widget import FigureWidget
from .panel import Panel

#: Player 2 holds Q and faces a bet: the set whose values the explorer shows.
INFOSET = "Qb"
#: The sliders' positions: multiples of 1/24, which hold 1/3 (where player 2 is indifferent
#: with K always bet), 1/2, 1/4 and 1/6 exactly.  Between two positions the two values
#: differ by a multiple of 1/144, which the bars' three decimals show.
STEPS = 24
#: ``(label, probability)`` per position, the label a reduced fraction ("1/3"), or "never"
#: and "always" at the ends.
POSITIONS = tuple(({0: "never", STEPS: "always"}.get(k, str(Fraction(k, STEPS))), k / STEPS)
                  for k in range(STEPS + 1))


def _fraction(p: float) -> str:
    """A slider position as a fraction for arithmetic ("1/3", "0", "1")."""
    return str(Fraction(p).limit_denominator(STEPS))


def _position(value: float, what: str) -> int:
    """The index in :data:`POSITIONS` of the step nearest to ``value``.  (A slider is made with
    its index: made with a value at index 0, ipywidgets leaves its label empty.)"""
    if not 0 <= value <= 1:
        raise ValueError(f"{what} is a probability between 0 and 1; got {value!r}")
    return round(float(value) * STEPS)


class BluffExplorer(Panel):
    """Sliders for player 1's betting with J and with K; player 2's counterfactual values at Qb.

    Player 2 holds Q and faces a bet.  The bar chart shows the counterfactual
    value of folding and of calling, and the text gives each node's weight
    (chance times player 1's bet probability) and this iteration's
    counterfactual regrets.  Player 1 never bets with Q; player 2's other
    sets play uniformly.

    Attributes
    ----------
    bluff, value_bet : ipywidgets.SelectionSlider
        How often player 1 bets with J and with K, in steps of 1/24 (see
        :data:`POSITIONS`); a value given is moved to the nearest step.
    figure : plotly.graph_objects.FigureWidget
    text : ipywidgets.HTML
    """

    def __init__(self, bluff: float = 0.0, value_bet: float = 1.0,
                 presenter: bool | None = None):
        super().__init__()
        self.style = get_style(presenter)
        self.game = load_game("kuhn_poker")
        st = {"description_width": "initial"}
        # A selection of exact fractions, not a FloatSlider: a step of 0.01 cannot reach 1/3,
        # and at 0.33 folding and calling differ by 0.0008, so no sentence could be both
        # true and what the lesson says of 1/3.
        self.bluff = W.SelectionSlider(options=POSITIONS, index=_position(bluff, "bluff"),
                                       description="player 1 bets with J", style=st,
                                       continuous_update=True, layout=W.Layout(width="420px"))
        self.value_bet = W.SelectionSlider(options=POSITIONS,
                                           index=_position(value_bet, "value_bet"),
                                           description="player 1 bets with K", style=st,
                                           continuous_update=True,
                                           layout=W.Layout(width="420px"))
        self.figure = fit_to_output(FigureWidget(counterfactual_values_figure(
            ("fold (p)", "call (b)"), (0.0, 0.0),
            title="player 2 holds Q, facing a bet: counterfactual values", presenter=presenter)))
        self.text = W.HTML()
        self.bluff.observe(self._show, names="value")
        self.value_bet.observe(self._show, names="value")
        self.children = [self.bluff, self.value_bet, self.output, self.figure, self.text]
        self._show()

    def _show(self, _change=None) -> None:
        with self.reporting("Could not compute the counterfactual values"):
            j, k = float(self.bluff.value), float(self.value_bet.value)
            policy = {"J": {"p": 1 - j, "b": j}, "Q": {"p": 1.0, "b": 0.0},
                      "K": {"p": 1 - k, "b": k}}
            cf = counterfactual_values(self.game, policy, INFOSET)
            update_counterfactual_values(self.figure, cf["action_values"])
            fold, call = cf["regret"]
            # On the grid, call - fold is 0 or at least 1/144 (see STEPS): the tolerance only
            # absorbs rounding.
            better = ("calling" if call - fold > 1e-9 else "folding" if fold - call > 1e-9
                      else None)
            verdict = (f"regret matching moves towards <b>{better}</b>" if better else
                       "<b>neither</b> action is better: the two are worth exactly the same, "
                       "so regret matching has nothing to move towards")
            self.text.value = (
                f"<div style='font-size:{self.style.font_size}px'>weights: player 1 holds J "
                f"1/6 &times; {_fraction(j)} = {j / 6:.4f}; holds K 1/6 &times; "
                f"{_fraction(k)} = {k / 6:.4f}<br>this iteration's counterfactual "
                f"regrets (value minus the uniform strategy's {cf['value']:+.4f}): fold "
                f"{fold:+.4f}, call {call:+.4f}; {verdict}</div>")


def bluff_explorer(bluff: float = 0.0, value_bet: float = 1.0,
                   presenter: bool | None = None) -> BluffExplorer:
    """The bluffing explorer of lesson 03 (see :class:`BluffExplorer`): it starts with a
    player 1 who bets K always and never bluffs with J, unless told otherwise."""
    return BluffExplorer(bluff, value_bet, presenter=presenter)
