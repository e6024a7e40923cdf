"""The hand grid of a river spot: the spot read back from its tree, each combo's strategy, reach
and EV at a node (cfrviz.analysis.holdem), and the 13x13 figure (cfrviz.views.holdem), each
checked against a computation of its own."""

from __future__ import annotations

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.holdem import CLASSES, decision_lines, line_name, node_strategy
from cfrviz.games.holdem import RANKS, deals
from cfrviz.games.holdem.river import BOARD, POT, STACK
from cfrviz.games.holdem.spot import river_spot
from cfrviz.views.holdem import (
    FILL,
    action_colours,
    cell,
    grid_cells,
    hand_grid_figure,
    update_hand_grid,
)

RANGES = ("AA,KK,AK,T9s,JJ:0.5", "QQ,JJ,AQ,98s,AhTh")


@pytest.fixture(scope="module")
def spot():
    game = cfrviz.load_game("holdem_river", ranges=RANGES)
    return game, cfrviz.solve(game, "dcfr", 200, progress=False)


def test_the_spot_is_read_back_with_the_defaults_filled_in(spot):
    game, _ = spot
    board, (oop, ip), bets = river_spot(game)
    assert board == tuple(int(c) for c in river_spot(game).board) and len(board) == 5
    assert (bets.pot, bets.stack) == (POT, STACK)
    assert "".join(cfrviz.games.holdem.card_name(c) for c in board) == BOARD
    # AA KK AK T9s JJ, of which the board's Td9d blocks one T9s; QQ JJ AQ 98s AhTh, 9d8d blocked
    assert len(oop) == 6 + 6 + 16 + 3 + 6 and oop.weights.min() == 0.5
    assert len(ip) == 6 + 6 + 16 + 3 + 1
    with pytest.raises(ValueError, match="hold'em river spot.*kuhn_poker"):
        river_spot(cfrviz.load_game("kuhn_poker"))


def test_cells_put_pairs_on_the_diagonal_suited_above_and_offsuit_below():
    places = {name: cell(name) for name in CLASSES}
    assert len(set(places.values())) == 169
    for name, (row, col) in places.items():
        high, low = 12 - RANKS.index(name[0]), 12 - RANKS.index(name[1])
        if len(name) == 2:
            assert row == col == high
        elif name.endswith("s"):
            assert (row, col) == (high, low) and col > row
        else:
            assert (row, col) == (low, high) and row > col


def _class_of(combo: str) -> str:
    """The hand class of a combo written ``"AsKs"``, from its text alone."""
    a, b = combo[0], combo[2]
    if a == b:
        return a + b
    return a + b + ("s" if combo[1] == combo[3] else "o")


def test_a_node_strategy_is_the_policy_weighted_by_own_reach(spot):
    game, trace = spot
    probabilities = trace.average_policy().probabilities
    root = node_strategy(game, probabilities, "")
    assert root.player == 0 and root.actions == ("X", "B50")
    np.testing.assert_array_equal(root.weight, river_spot(game).ranges[0].weights)
    assert [CLASSES[k] for k in root.hand_class] == [_class_of(c) for c in root.combos]
    np.testing.assert_allclose(root.strategy.sum(axis=1), 1, atol=1e-12)
    # OOP facing a raise after checking: its weight is the range weight times P(check).
    deeper = node_strategy(game, probabilities, "X-B50")
    assert deeper.player == 0 and deeper.combos == root.combos
    np.testing.assert_allclose(deeper.weight, root.weight * root.strategy[:, 0], atol=1e-15)
    assert np.isclose(deeper.shares().sum(), 1)


def test_ev_averages_to_the_players_value(spot):
    """Each combo's EV, weighted by chance's probability of holding it, is the player's value
    (expected_values, a separate walk of the tree) plus the half pot the payoffs take off."""
    game, trace = spot
    policy = trace.average_policy()
    board, ranges, bets = river_spot(game)
    dealt = deals(board, ranges)
    for player, line in ((0, ""), (1, "X")):
        ns = node_strategy(game, policy.probabilities, line)
        held = dealt.oop if player == 0 else dealt.ip
        chance = np.bincount(held, weights=dealt.probability, minlength=len(ns.combos))
        if player == 0:  # at the root every combo is reached
            value = cfrviz.expected_values(game, policy)[0]
            assert np.dot(chance, ns.ev) == pytest.approx(value + bets.pot / 2, abs=1e-9)
        # A combo's EV is its actions' EVs averaged by its strategy.
        np.testing.assert_allclose((ns.action_ev * ns.strategy).sum(axis=1), ns.ev, atol=1e-9)


def test_grid_cells_average_each_class_by_weight(spot):
    game, trace = spot
    ns = node_strategy(game, trace.average_policy().probabilities, "X-B50")
    frequency, share, hover = grid_cells(ns)
    by_class: dict[str, list[int]] = {}
    for k, combo in enumerate(ns.combos):
        by_class.setdefault(_class_of(combo), []).append(k)
    for name, members in by_class.items():
        c = CLASSES.index(name)
        w = ns.weight[members]
        if w.sum() > 0:
            np.testing.assert_allclose(frequency[c], w @ ns.strategy[members] / w.sum())
        assert share[c] == pytest.approx(w.sum() / ns.class_combos[c])
        assert all(ns.combos[k] in hover[c] for k in members)
    assert "not in the range" in hover[CLASSES.index("72o")]
    assert ns.class_combos[CLASSES.index("T9s")] == 3 and ns.class_combos[
        CLASSES.index("AA")] == 6


def test_the_figure_draws_one_bar_per_action_and_moves_in_place(spot):
    game, trace = spot
    first = node_strategy(game, trace.average_policy(1).probabilities, "")
    fig = hand_grid_figure(first)
    assert [t.name for t in fig.data] == ["cells", "X", "B50", "names"]
    frequency, share, _ = grid_cells(first)
    np.testing.assert_allclose(fig.data[1].x, frequency[:, 0] * FILL)
    np.testing.assert_allclose(fig.data[2].width, share * FILL)
    assert "OOP at the root" in fig.layout.title.text
    last = node_strategy(game, trace.average_policy().probabilities, "")
    update_hand_grid(fig, last)
    frequency, _, hover = grid_cells(last)
    np.testing.assert_allclose(fig.data[2].x, frequency[:, 1] * FILL)
    # The second action's bars start where the first's end.
    np.testing.assert_allclose(np.asarray(fig.data[2].base, dtype=float)
                               - np.asarray(fig.data[1].base, dtype=float),
                               np.asarray(fig.data[1].x, dtype=float))
    assert list(fig.data[1].hovertext) == hover


def test_lines_and_colours():
    game = cfrviz.load_game("holdem_river", ranges=("AA", "KK"))
    assert decision_lines(game, 0) == ["", "X-B50", "X-B50-R125-AI200", "B50-R125"]
    assert line_name("", 0) == "OOP at the root" and line_name("X", 1) == "IP after X"
    assert action_colours(("F", "C", "R125", "AI200")) == [
        action_colours(("F",))[0], action_colours(("X",))[0], "#F0A830", "#7B1E1E"]
    with pytest.raises(ValueError, match="ends the hand"):
        node_strategy(game, np.full((game.num_infosets, game.max_actions), 0.5), "X-X")
    with pytest.raises(ValueError, match="no line"):
        node_strategy(game, np.full((game.num_infosets, game.max_actions), 0.5), "Q")
