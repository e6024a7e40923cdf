"""Node locking (cfrviz.games.locking, lock_line, made_hand, lock_gain, LockExplorer): a locked
information set becomes a chance node over its fixed strategy, checked against the best
response, which computes the same thing another way."""

from __future__ import annotations

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.holdem import lock_gain, node_strategy
from cfrviz.core.policy import Policy
from cfrviz.core.tree import CHANCE
from cfrviz.games import lock, unlocked
from cfrviz.games.holdem import MADE_HANDS, lock_line, made_hand, parse_cards, river_spot
from cfrviz.widgets.holdem import LockExplorer


@pytest.fixture(scope="module")
def kuhn():
    game = cfrviz.load_game("kuhn_poker")
    return game, cfrviz.solve(game, "cfr", 300, progress=False).average_policy()


def _player_keys(game, player):
    return [k for i, k in enumerate(game.infoset_keys) if game.infoset_player[i] == player]


def test_locking_every_set_of_a_player_leaves_the_other_a_best_response(kuhn):
    """With all of player 2's sets locked to a strategy, player 1's best value in the locked
    game is its best response to that strategy in the original: two computations, one value."""
    game, policy = kuhn
    fixed = {key: policy.probabilities[game.infoset_index(key), :2]
             for key in _player_keys(game, 1)}
    locked = lock(game, fixed)
    assert locked.infoset_keys == tuple(_player_keys(game, 0))
    nodes = np.isin(game.infoset, [game.infoset_index(k) for k in fixed])
    assert (locked.player[nodes] == CHANCE).all() and (locked.infoset[nodes] == -1).all()
    rows = [game.infoset_index(k) for k in locked.infoset_keys]
    on_locked = Policy(locked, policy.probabilities[rows])
    assert cfrviz.best_response(locked, on_locked, 0).value == pytest.approx(
        cfrviz.best_response(game, policy, 0).value, abs=1e-12)
    assert cfrviz.expected_values(locked, on_locked)[0] == pytest.approx(
        cfrviz.expected_values(game, policy)[0], abs=1e-12)
    table = unlocked(game, locked, fixed, on_locked.probabilities)
    np.testing.assert_allclose(table, policy.probabilities, atol=1e-15)


def test_a_locked_mistake_is_exploited(kuhn):
    """Player 2 always folding its Q to a bet: player 1 re-solves around it and wins more."""
    game, _ = kuhn
    locked = lock(game, {"Qb": {"p": 1.0}})
    assert "Qb" not in locked.infoset_keys and "Locked: 'Qb'" in locked.description
    value = cfrviz.expected_values(
        locked, cfrviz.solve(locked, "cfr+", 2000, progress=False).average_policy())[0]
    assert value > -1 / 18 + 0.05  # the game's value is -1/18 for player 1


@pytest.mark.parametrize("fixed, message", [
    ({}, "at least one"), ({"Zb": [1, 0]}, "no information set 'Zb'"),
    ({"Qb": {"x": 1}}, "no action 'x'"), ({"Qb": [1.0]}, "1 probabilities for its 2"),
    ({"Qb": [0.7, 0.7]}, "sum to 1"), ({"Qb": [float("nan"), 1]}, "sum to 1"),
    ({"Qb": ["a", 1]}, "must be numbers")])
def test_a_bad_lock_is_refused_naming_it(kuhn, fixed, message):
    with pytest.raises(ValueError, match=message):
        lock(kuhn[0], fixed)


@pytest.mark.parametrize("combo, made", [
    ("AhAc", "overpair"), ("ThAc", "top pair"), ("9h8c", "second pair"), ("6c5c", "weak pair"),
    ("AsKs", "high card"), ("Th9h", "two pair"), ("6c6s", "three of a kind"),
    ("8c7c", "straight"), ("5c3c", "straight"), ("Ad3d", "high card"), ("Kd8d", "high card")])
def test_made_hands_on_the_reference_board(combo, made):
    assert made_hand("Td9d6h4c2s", parse_cards(combo)) == made
    assert made in MADE_HANDS


def test_a_pair_only_the_board_holds_is_no_hand():
    assert made_hand("TdTc6h4c2s", parse_cards("AsKs")) == "high card"
    assert made_hand("AdKc8d4c2s", parse_cards("QdJd")) == "high card"  # two to a flush


@pytest.fixture(scope="module")
def river():
    game = cfrviz.load_game("holdem_river", ranges=("AA,KK,AK,T9s,QJs,87s",
                                                    "QQ,JJ,AQ,98s,KTs,T8s"))
    return game, cfrviz.solve(game, "dcfr", 200, progress=False)


def test_lock_line_locks_the_combos_the_rule_names(river):
    game, _ = river
    board = river_spot(game).board
    weak = MADE_HANDS.index("top pair")
    fixed = lock_line(game, "B50", lambda combo: {"F": 1.0} if MADE_HANDS.index(
        made_hand(board, parse_cards(combo))) < weak else None)
    assert fixed and all(key.endswith(":B50") and value == {"F": 1.0}
                         for key, value in fixed.items())
    assert "9c8c:B50" in fixed  # second pair folds; an overpair and top pair stay free
    assert "QhQc:B50" not in fixed and "KsTs:B50" not in fixed
    with pytest.raises(ValueError, match="leaves every combo free"):
        lock_line(game, "B50", lambda _combo: None)
    with pytest.raises(ValueError, match="ends the hand"):
        lock_line(game, "X-X", lambda _combo: {"F": 1.0})


def test_the_explorer_locks_re_solves_and_shows_both(river):
    game, trace = river
    explorer = LockExplorer(trace, iterations=100)
    assert (explorer.where.value, explorer.action.value, explorer.weaker.value) == (
        "B50", "F", "top pair")
    explorer.button.click()
    assert explorer.last_error is None and explorer.gain is not None
    gain = explorer.gain
    # OOP exploits IP's over-folding: it gains what IP loses.
    assert gain.gain(0) > 0.5 and gain.gain(0) == pytest.approx(-gain.gain(1))
    assert f"{gain.gain(0) / gain.pot:+.2%}" in explorer.summary.value
    explorer.show.value = "B50"
    titles = [f.layout.title.text for f in explorer.figures]
    assert titles[0].startswith("equilibrium: IP after B50")
    assert titles[1].startswith("locked: IP after B50") and "C 0%" not in titles[0]
    # The locked grid shows the lock: every weak combo folds.
    table = unlocked(game, explorer.locked_tree, explorer.fixed(),
                     explorer.locked_trace.average_policy().probabilities)
    ns = node_strategy(game, table, "B50")
    folded = [k for k, c in enumerate(ns.combos) if f"{c}:B50" in explorer.fixed()]
    np.testing.assert_array_equal(ns.strategy[folded, 0], 1.0)
    assert lock_gain(game, trace.average_policy(), explorer.locked_tree,
                     explorer.locked_trace.average_policy()) == gain


def test_a_locked_river_spot_is_never_solved_as_the_unlocked_one(river):
    """The vector forms sweep a river spot read back from its parameters; a locked copy keeps
    those parameters, so it must not take that path (it would drop the lock): its public tree
    is refused instead, and the tabular solvers run it."""
    game, _ = river
    locked = lock(game, {"QhQc:B50": {"F": 1.0}})
    with pytest.raises(ValueError, match="vector_dcfr sweeps the public tree"):
        cfrviz.solve(locked, "vector_dcfr", 5, progress=False)
    assert cfrviz.solve(locked, "dcfr", 5, progress=False).exploitability[-1] > 0
