"""Kuhn poker on the shared game tree: structure and exact known values."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL


def equilibrium(game, alpha):
    """Player 1's one-parameter equilibrium family with player 2's unique equilibrium."""
    return cfrviz.Policy.from_dict(game, {
        "J": {"p": 1 - alpha, "b": alpha}, "Q": {"p": 1.0},
        "K": {"p": 1 - 3 * alpha, "b": 3 * alpha},
        "Jpb": {"p": 1.0}, "Qpb": {"p": 2 / 3 - alpha, "b": alpha + 1 / 3}, "Kpb": {"b": 1.0},
        "Jp": {"p": 2 / 3, "b": 1 / 3}, "Qp": {"p": 1.0}, "Kp": {"b": 1.0},
        "Jb": {"p": 1.0}, "Qb": {"p": 2 / 3, "b": 1 / 3}, "Kb": {"b": 1.0},
    })


def test_structure(kuhn):
    assert kuhn.num_nodes == 55 and kuhn.num_infosets == 12
    assert int(np.sum(kuhn.player == TERMINAL)) == 30 and kuhn.player[0] == CHANCE
    assert set(kuhn.infoset_keys) == {c + h for c in "JQK" for h in ("", "p", "b", "pb")}
    assert all(actions == ("p", "b") for actions in kuhn.infoset_actions)
    assert np.all(kuhn.parent[1:] < np.arange(1, kuhn.num_nodes))  # parents come first
    assert np.isclose(kuhn.chance_prob[kuhn.children[0]].sum(), 1)
    # Zero-sum at every terminal.
    assert np.all(kuhn.utility.sum(axis=1) == 0)
    # "Qp" is player 2 holding Q after a pass: two nodes, player 1 holds J or K.
    members = kuhn.infoset_members(kuhn.infoset_index("Qp"))
    assert sorted(kuhn.history[m] for m in members) == ["JQ:p", "KQ:p"]


def test_uniform_policy(kuhn):
    uniform = cfrviz.Policy.uniform(kuhn)
    assert cfrviz.expected_values(kuhn, uniform) == pytest.approx((0.125, -0.125), abs=1e-15)
    assert cfrviz.exploitability(kuhn, uniform) == pytest.approx(11 / 24, abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(st.floats(min_value=0, max_value=1 / 3))
def test_every_member_of_the_equilibrium_family(alpha):
    game = cfrviz.load_game("kuhn_poker")
    policy = equilibrium(game, alpha)
    assert cfrviz.expected_values(game, policy)[0] == pytest.approx(-1 / 18, abs=1e-12)
    assert abs(cfrviz.exploitability(game, policy)) < 1e-12


def test_best_response_to_always_bet(kuhn):
    # Against a player 1 who always bets, player 2 calls with K and folds J. With Q, folding
    # loses 1 either way (counterfactual value -1/3), calling wins 2 vs J and loses 2 vs K (0).
    always_bet = cfrviz.Policy.from_dict(kuhn, {k: {"b": 1.0} for k in kuhn.infoset_keys
                                                if kuhn.infoset_player[kuhn.infoset_index(k)] == 0})
    br = cfrviz.best_response(kuhn, always_bet, 1)
    assert br.policy["Kb"] == {"p": 0.0, "b": 1.0}
    assert br.policy["Jb"] == {"p": 1.0, "b": 0.0}
    assert br.policy["Qb"] == {"p": 0.0, "b": 1.0}
    assert br.action_values["Qb"] == pytest.approx({"p": -1 / 3, "b": 0.0})
    # Counterfactual values: with J, folding loses 1 against Q and K (each 1/6): -1/3.
    assert br.action_values["Jb"]["p"] == pytest.approx(-1 / 3)
    assert br.action_values["Jb"]["b"] == pytest.approx(-2 / 3)


def test_policy_for_another_game_is_refused(kuhn):
    rps = cfrviz.load_game("rock_paper_scissors")
    with pytest.raises(ValueError, match="made for rock_paper_scissors, not kuhn_poker"):
        cfrviz.exploitability(kuhn, cfrviz.Policy.uniform(rps))
