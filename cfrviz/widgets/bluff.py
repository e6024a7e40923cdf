"""Player 1's bets in Kuhn poker against player 2's counterfactual values at ``Qb``."""

from __future__ import annotations

import ipywidgets as W

from ..analysis.explain import counterfactual_values
from ..games import load_game
from ..views.counterfactual import counterfactual_values_figure, update_counterfactual_values
from ..views.figure_widget import FigureWidget
from ..views.style import fit_to_output, get_style
from .panel import Panel

#: Player 2 holds Q and faces a bet: the set whose values the explorer shows.
INFOSET = "Qb"


class BluffExplorer(Panel):
    """Sliders for player 1's betting with J and with K; player 2's counterfactual values at Qb.

    Player 2 holds Q and faces a bet.  The bar chart shows the counterfactual
    value of folding and of calling, and the text gives each node's weight
    (chance times player 1's bet probability) and this iteration's
    counterfactual regrets.  Player 1 never bets with Q; player 2's other
    sets play uniformly.

    Attributes
    ----------
    bluff, value_bet : ipywidgets.FloatSlider
        How often player 1 bets with J and with K.
    figure : plotly.graph_objects.FigureWidget
    text : ipywidgets.HTML
    """

    def __init__(self, bluff: float = 1 / 3, value_bet: float = 1.0,
                 presenter: bool | None = None):
        super().__init__()
        self.style = get_style(presenter)
        self.game = load_game("kuhn_poker")
        st = {"description_width": "initial"}
        self.bluff = W.FloatSlider(value=bluff, min=0, max=1, step=0.01, readout_format=".2f",
                                   description="player 1 bets with J", style=st,
                                   continuous_update=True, layout=W.Layout(width="420px"))
        self.value_bet = W.FloatSlider(value=value_bet, min=0, max=1, step=0.01,
                                       readout_format=".2f", description="player 1 bets with K",
                                       style=st, continuous_update=True,
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
            better = ("calling" if call > 1e-12 else "folding" if fold > 1e-12
                      else "neither: the two are worth the same")
            self.text.value = (
                f"<div style='font-size:{self.style.font_size}px'>weights: player 1 holds J "
                f"1/6 &times; {j:.2f} = {j / 6:.4f}; holds K 1/6 &times; {k:.2f} = "
                f"{k / 6:.4f}<br>this iteration's counterfactual regrets (value minus the "
                f"uniform strategy's {cf['value']:+.4f}): fold {fold:+.4f}, call "
                f"{call:+.4f}; regret matching moves towards <b>{better}</b></div>")


def bluff_explorer(presenter: bool | None = None) -> BluffExplorer:
    """The bluffing explorer of lesson 03 (see :class:`BluffExplorer`)."""
    return BluffExplorer(presenter=presenter)
