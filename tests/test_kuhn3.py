"""Three-player Kuhn poker: the tree against OpenSpiel's rules, by hand and (when installed)
against pyspiel itself."""

from itertools import permutations

import numpy as np
import pytest

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL, build_tree
from cfrviz.games import GAMES
from cfrviz.games.kuhn3 import KuhnPokerN


@pytest.fixture(scope="module")
def kuhn3():
    return cfrviz.load_game("kuhn_poker_3p")


def node(tree, history):
    return tree.history.index(history)


def test_structure(kuhn3):
    assert kuhn3.num_players == 3 and kuhn3.utility.shape == (601, 3)
    assert kuhn3.num_nodes == 601 and kuhn3.num_infosets == 48
    assert int(np.sum(kuhn3.player == TERMINAL)) == 312
    assert int(np.sum(kuhn3.player >= 0)) == 288  # decision nodes, as in OpenSpiel
    assert kuhn3.player[0] == CHANCE and len(kuhn3.children[0]) == 24
    assert np.allclose(kuhn3.chance_prob[kuhn3.children[0]], 1 / 24)
    assert sorted(set(kuhn3.infoset_player.tolist())) == [0, 1, 2]
    # 16 sets per player: 4 cards x {first turn, second turn after a bet} ...
    assert np.bincount(kuhn3.infoset_player).tolist() == [16, 16, 16]
    assert np.all(kuhn3.utility.sum(axis=1) == 0)  # zero-sum, but not two-player
    assert GAMES.resolve("kuhn3") == GAMES.resolve("three-player kuhn") == "kuhn_poker_3p"
    # The two-player game is untouched.
    kuhn = cfrviz.load_game("kuhn_poker")
    assert kuhn.num_players == 2 and kuhn.utility.shape == (55, 2) and kuhn.num_infosets == 12


@pytest.mark.parametrize("history, payoffs", [
    ("JQK:ppp", (-1, -1, 2)),        # nobody bets: the highest card of all takes the antes
    ("AJQ:ppp", (2, -1, -1)),
    ("JQK:bpp", (2, -1, -1)),        # a bet everyone folds to wins, whatever the cards
    ("JQK:bbp", (-2, 3, -1)),        # player 2 calls with Q against J; player 3 folds K
    ("JQK:bbb", (-2, -2, 4)),        # all call: K wins the pot of 6
    ("JQK:pbpp", (-1, 2, -1)),       # player 2 bets after a pass; players 3 and 1 fold
    ("AQK:pbpb", (3, -2, -1)),       # player 1 calls last, with A, and wins
    ("JQK:ppbbp", (-2, -1, 3)),      # player 3 bets last, player 1 calls, player 2 folds
    ("QJK:ppbpb", (-1, -2, 3)),      # called by player 2's J: K wins
])
def test_payoffs_follow_openspiels_rules(kuhn3, history, payoffs):
    z = node(kuhn3, history)
    assert kuhn3.player[z] == TERMINAL
    assert tuple(kuhn3.utility[z]) == payoffs


def test_who_acts_and_what_they_see(kuhn3):
    # After a bet, players act once more each until the turn is back at the bettor.
    assert kuhn3.player[node(kuhn3, "JQK:pb")] == 2
    assert kuhn3.player[node(kuhn3, "JQK:pbp")] == 0
    assert kuhn3.player[node(kuhn3, "JQK:ppb")] == 0
    assert kuhn3.player[node(kuhn3, "JQK:ppbp")] == 1
    assert kuhn3.player[node(kuhn3, "JQK:bp")] == 2
    info = kuhn3.infoset[node(kuhn3, "JQK:pbp")]
    assert kuhn3.infoset_keys[info] == "Jpbp"
    assert sorted(kuhn3.history[m] for m in kuhn3.infoset_members(info)) == \
        sorted(f"J{a}{b}:pbp" for a, b in permutations("QKA", 2))


def test_the_general_rules_with_two_players_are_classic_kuhn_poker():
    general = build_tree(KuhnPokerN(2))  # cards Q < K < A
    classic = cfrviz.load_game("kuhn_poker")  # cards J < Q < K
    rename = str.maketrans("QKA", "JQK")
    assert general.num_nodes == classic.num_nodes
    for n in range(general.num_nodes):
        m = classic.history.index(general.history[n].translate(rename))
        assert np.array_equal(general.utility[n], classic.utility[m])
        assert general.player[n] == classic.player[m]


def test_bad_player_counts():
    with pytest.raises(ValueError, match="2 to 4 players; got players=5"):
        KuhnPokerN(5)
    with pytest.raises(ValueError, match="got players=True"):
        KuhnPokerN(True)


def test_a_definition_whose_payoffs_miss_a_player_is_refused():
    class Declared:
        """Three-player Kuhn poker under a wrong declaration of its number of players."""

        name = "kuhn_poker_3p"

        def __init__(self, players):
            self.num_players = players

        def initial_state(self):
            return KuhnPokerN(3).initial_state()

    with pytest.raises(ValueError, match="current player must be 0, 1 or chance; got 2"):
        build_tree(Declared(2))
    with pytest.raises(ValueError, match="history 'JQK:ppp': terminal payoffs must be 4 finite "
                                         r"numbers; got \(-1.0, -1.0, 2.0\)"):
        build_tree(Declared(4))
    with pytest.raises(ValueError, match="num_players must be a whole number >= 2; got 1"):
        build_tree(Declared(1))


# ----------------------------------------------------------------------------- OpenSpiel

def _openspiel():
    return pytest.importorskip("pyspiel", reason="OpenSpiel (pip open_spiel) is not installed")


def test_tree_matches_openspiel_node_by_node(kuhn3):
    pyspiel = _openspiel()
    game = pyspiel.load_game("kuhn_poker", {"players": 3})
    cards = "JQKA"
    seen = {"chance": 0, "decision": 0, "terminal": 0}
    infosets = set()

    def visit(state):
        if state.is_chance_node():
            seen["chance"] += 1
            for action in state.legal_actions():
                visit(state.child(action))
            return
        dealt = [cards[a] for a in state.history()[:3]]
        moves = "".join("pb"[a] for a in state.history()[3:])
        ours = node(kuhn3, "".join(dealt) + ":" + moves)
        if state.is_terminal():
            seen["terminal"] += 1
            assert kuhn3.player[ours] == TERMINAL
            assert np.array_equal(kuhn3.utility[ours], state.returns()), (dealt, moves)
            return
        seen["decision"] += 1
        assert kuhn3.player[ours] == state.current_player()
        key = state.information_state_string()  # "1pb": card 1 (Q), then the moves
        infosets.add(key)
        assert kuhn3.infoset_keys[kuhn3.infoset[ours]] == cards[int(key[0])] + key[1:]
        for action in state.legal_actions():
            visit(state.child(action))

    visit(game.new_initial_state())
    # OpenSpiel deals card by card (1 + 4 + 12 chance nodes); here one node deals all 24 hands.
    assert seen == {"chance": 17, "decision": 288, "terminal": 312}
    assert kuhn3.num_nodes == 1 + seen["decision"] + seen["terminal"]
    assert len(infosets) == kuhn3.num_infosets == 48


def _openspiel_policy(pyspiel_game, tree, table):
    from open_spiel.python import policy as policy_lib

    result = policy_lib.TabularPolicy(pyspiel_game)
    cards = "JQKA"
    for key, row in result.state_lookup.items():
        result.action_probability_array[row] = table[tree.infoset_index(cards[int(key[0])]
                                                                        + key[1:])]
    return result


def test_values_and_nash_conv_match_openspiel(kuhn3):
    pyspiel = _openspiel()
    from open_spiel.python.algorithms import expected_game_score, exploitability

    game = pyspiel.load_game("kuhn_poker", {"players": 3})
    trace = cfrviz.solve(kuhn3, "cfr", 200, seed=0)
    for table in (cfrviz.Policy.uniform(kuhn3).probabilities, trace.average_strategy[-1]):
        theirs = _openspiel_policy(game, kuhn3, table)
        policy = cfrviz.Policy(kuhn3, table)
        want = expected_game_score.policy_value(game.new_initial_state(), [theirs] * 3)
        assert cfrviz.expected_values(kuhn3, policy) == pytest.approx(want, abs=1e-12)
        assert cfrviz.nash_conv(kuhn3, policy) == pytest.approx(
            exploitability.nash_conv(game, theirs), abs=1e-12)


def test_cfr_matches_openspiels_cfr_solver(kuhn3):
    pyspiel = _openspiel()
    from open_spiel.python.algorithms import cfr

    game = pyspiel.load_game("kuhn_poker", {"players": 3})
    solver = cfr.CFRSolver(game)  # alternating updates, uniform average, as "cfr" here
    for _ in range(30):
        solver.evaluate_and_update_policy()
    theirs = solver.average_policy()
    ours = cfrviz.solve(kuhn3, "cfr", 30, seed=0).average_strategy[-1]
    cards = "JQKA"
    for key, row in theirs.state_lookup.items():
        mine = ours[kuhn3.infoset_index(cards[int(key[0])] + key[1:])]
        assert np.allclose(mine, theirs.action_probability_array[row], atol=1e-12), key
