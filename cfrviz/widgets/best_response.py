"""The best-response explorer: set one player's strategy, see the opponent's best reply light up."""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from ..analysis.evaluation import check_policy
from ..core.checks import check_player
from ..core.markup import escape
from ..core.policy import Policy
from ..core.tree import as_tree, check_two_players
from ..engine import tree_best_response
from ..views.style import get_style
from ..views.tree import TreeView
from .export import Exportable
from .panel import Panel
from .tree import LiveTree

#: Show one row of sliders per information set up to this many sets; beyond, a set picker.
MAX_ROWS = 12


def game_value(game, iterations: int = 3000) -> float:
    """Player 1's equilibrium value, from the bracket of a CFR+ solution."""
    from ..solvers import solve

    trace = solve(game, "cfr+", iterations, checkpoints=[], progress=False)
    probs = trace.average_strategy[-1]
    high = tree_best_response(game, probs, 0)[0]
    low = -tree_best_response(game, probs, 1)[0]
    return (low + high) / 2


class BestResponseExplorer(Exportable, Panel):
    """Choose a strategy for one player; the tree shows the opponent's best response to it.

    Each of the player's information sets gets one slider per action, its
    probability there.  Moving one slider moves the others of its set, in
    proportion to what they held (equally when they held nothing), so that
    every slider shows the strategy played and every move changes it.  After
    every change the opponent's exact
    best response (it sees only its own information sets) is highlighted on
    the tree, with what it wins and how far that is from the game's value.

    Parameters
    ----------
    game
        A game tree (or matrix game).
    player : int, default 0
        Whose strategy the sliders set (0 for player 1).
    policy : Policy, optional
        Where the sliders start (default uniform), e.g. ``trace.average_policy()``.
    subtree, depth, presenter
        As for :class:`~cfrviz.views.tree.TreeView`.
    """

    def __init__(self, game, player: int = 0, policy: Policy | None = None, *, subtree=None,
                 depth=None, presenter: bool | None = None):
        super().__init__()
        self.game = as_tree(game, "the best-response explorer")
        check_two_players(self.game, "the best-response explorer", "it answers the one "
                          "opponent's strategy")
        self._game_value: float | None = None
        self.player = player = check_player(player)
        start = Policy.uniform(self.game) if policy is None else policy
        check_policy(self.game, start, "policy")
        self.probabilities = np.array(start.probabilities)
        self.style = get_style(presenter)
        self.view = TreeView(self.game, subtree=subtree, depth=depth, presenter=presenter)
        self.summary = W.HTML()
        self.sets = [int(i) for i in np.flatnonzero(self.game.infoset_player == player)]
        #: Per set, one slider per action: its probability (the row adds up to 1).
        self.sliders: dict[int, list[W.FloatSlider]] = {}
        rows = []
        for info in self.sets:
            actions = self.game.infoset_actions[info]
            sliders = [W.FloatSlider(value=float(self.probabilities[info, a]), min=0.0, max=1.0,
                                     step=0.01, description=f"{actions[a]}",
                                     readout_format=".2f", continuous_update=False,
                                     layout=W.Layout(width="250px"))
                       for a in range(len(actions))]
            for a, slider in enumerate(sliders):
                slider.observe(lambda change, i=info, a=a: self._on_slider(i, a, change["new"]),
                               names="value")
            self.sliders[info] = sliders
            rows.append(W.HBox([W.HTML(f"<b>{escape(self.game.infoset_keys[info])}</b>",
                                       layout=W.Layout(width="90px")), *sliders]))
        self.rows = dict(zip(self.sets, rows))
        self.picker = W.Dropdown(options=[(self.game.infoset_keys[i], i) for i in self.sets],
                                 description="edit set", style={"description_width": "initial"})
        self.picker.observe(lambda _: self._show_rows(), names="value")
        self.reset_button = W.Button(description="uniform", icon="undo")
        self.reset_button.on_click(lambda _: self.set_policy(Policy.uniform(self.game)))
        self.tree = LiveTree(self.view)
        self.fig = self.tree.figure
        head = W.HTML(f"<b>Player {player + 1}'s strategy</b> (each action's probability; a "
                      f"set's probabilities add up to 1) — player {2 - player}'s best response "
                      "is highlighted")
        self.rows_box = W.VBox(rows)
        controls = [head] + ([self.picker] if len(rows) > MAX_ROWS else []) + [
            self.rows_box, self.reset_button]
        # The tree goes straight into the column: inside a scrolling box a FigureWidget stays
        # 700 px wide instead of taking the output area's width (TreeView fits it to that).
        self.children = [*controls, self.output, self.summary, self.tree]
        self._add_download("best-response-explorer")  # the frame as PNG, SVG or PDF
        self._show_rows()
        self._redraw()

    # -- public (also for tests) --------------------------------------------------------------
    def set_strategy(self, key: str, distribution) -> None:
        """Set one information set's action weights.

        E.g. ``set_strategy("J", {"b": 1/3, "p": 2/3})``; the weights are normalised, and
        the sliders show the probabilities.
        """
        info = self.game.infoset_index(key)
        if info not in self.sliders:
            self.report(f"{key!r} belongs to player {self.game.infoset_player[info] + 1}; "
                         f"this explorer sets player {self.player + 1}'s strategy")
            return
        actions = self.game.infoset_actions[info]
        unknown = [a for a in distribution if a not in actions] \
            if isinstance(distribution, dict) else []
        if unknown:  # a typo must not silently become weight 0
            self.report(f"{key!r} has no action {unknown[0]!r}; its actions are {list(actions)}")
            return
        values = [distribution.get(a, 0.0) for a in actions] if isinstance(distribution, dict) \
            else list(distribution)
        if len(values) != len(actions) or not all(np.isfinite(values)) or min(values) < 0 \
                or sum(values) <= 0:
            self.report(f"{key!r} needs {len(actions)} non-negative weights over "
                         f"{list(actions)} with a positive sum; got {distribution!r}")
            return
        k = len(values)
        self.probabilities[info, :k] = np.asarray(values, dtype=float) / float(sum(values))
        self._show_sliders(info)
        self._redraw()

    def set_policy(self, policy: Policy) -> None:
        """Move every slider to ``policy``'s strategy for the player."""
        check_policy(self.game, policy, "policy")
        for info in self.sets:
            k = len(self.game.infoset_actions[info])
            self.set_strategy(self.game.infoset_keys[info], policy.probabilities[info, :k])

    @property
    def best_response_value(self) -> float:
        """The value to the best responder of its best response to the shown strategy."""
        return tree_best_response(self.game, self.probabilities, 1 - self.player)[0]

    # -- internals ------------------------------------------------------------------------------
    _quiet = False

    def _show_rows(self) -> None:
        many = len(self.rows) > MAX_ROWS
        for info, row in self.rows.items():
            row.layout.display = "" if not many or info == self.picker.value else "none"

    def _on_slider(self, info: int, action: int, value: float) -> None:
        """Action ``action`` of set ``info`` now has probability ``value``: the set's other
        actions share the rest in proportion to what they held (equally if they held
        nothing), and the sliders show the new row."""
        if self._quiet:
            return
        k = len(self.game.infoset_actions[info])
        value = min(max(float(value), 0.0), 1.0)  # the slider clamps; a test might not
        row = self.probabilities[info, :k].copy()
        others = np.arange(k) != action
        held = row[others].sum()
        row[others] = (1.0 - value) * (row[others] / held if held > 0
                                       else np.full(k - 1, 1.0 / max(k - 1, 1)))
        row[action] = value if k > 1 else 1.0
        self.probabilities[info, :k] = row
        self._show_sliders(info)
        self._redraw()

    def _show_sliders(self, info: int) -> None:
        """Move the set's sliders to its probabilities, without reacting to the moves."""
        self._quiet = True
        try:
            for slider, p in zip(self.sliders[info], self.probabilities[info]):
                slider.value = float(p)
        finally:
            self._quiet = False

    def _redraw(self) -> None:
        with self.reporting("Could not evaluate this strategy"):
            opponent = 1 - self.player
            # The frame's best response is the one drawn: computed once per change.
            gain = self.tree.update(self.probabilities, best_response=opponent).value
            assert gain is not None, "a frame with a best response has its value"
            if self._game_value is None:  # solved once per explorer, on first use
                self._game_value = game_value(self.game)
            value = self._game_value
            guaranteed = -gain
            equilibrium = value if self.player == 0 else -value
            self.summary.value = (
                f"<div style='font-size:{self.style.font_size}px'>Player {opponent + 1}'s best "
                f"response wins <b>{gain:+.4f}</b> per game against this strategy, so it "
                f"guarantees player {self.player + 1} only <b>{guaranteed:+.4f}</b>; at "
                f"equilibrium player {self.player + 1} is guaranteed {equilibrium:+.4f}. "
                f"This strategy gives away "
                f"<b>{round(equilibrium - guaranteed, 4) + 0.0:.4f}</b> per game "
                f"(its exploitability as a strategy of player {self.player + 1}; 0 at an "
                f"equilibrium strategy).</div>")
