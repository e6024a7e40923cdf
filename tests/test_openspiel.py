"""cfrviz.games.openspiel: OpenSpiel games and policies in cfrviz, checked against OpenSpiel.

OpenSpiel is optional (the ``bench`` extra, ``make bench-install``): every test that needs it asks
for the ``pyspiel`` fixture, which skips without it, and fails instead in CI (``CI`` set, as
.ci/run sets it after installing the bench extra); the test of what happens without OpenSpiel
runs everywhere.  The module is marked slow (about 15 s in all), so the quick suites, which run
without the bench extra, leave it to ``make test``.
Exploitability is checked against OpenSpiel's own (``exploitability.exploitability``, NashConv /
2) on policies made on either side: OpenSpiel's uniform ``TabularPolicy`` and its CFR average,
cfrviz's uniform policy and its CFR average.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL
from cfrviz.games import from_openspiel, policy_from_openspiel, policy_to_openspiel
from cfrviz.games.openspiel import INT_MAX, UNIVERSAL_POKER, parse_game_string, unique_labels

#: OpenSpiel games that fit, as (name, OpenSpiel parameters, turn_based), with their sizes
#: (nodes, information sets) as the walk finds them.
GAMES = {
    "kuhn_poker": (("kuhn_poker", None, False), (58, 12)),
    "leduc_poker": (("leduc_poker", None, False), (9457, 936)),
    "liars_dice_1x3": (("liars_dice", {"numdice": 1, "dice_sides": 3}, False), (1147, 192)),
    "goofspiel_3": (("goofspiel", {"num_cards": 3}, True), (418, 114)),
    "oshi_zumo_4": (("oshi_zumo", {"coins": 4, "size": 1, "horizon": 3}, True), (1763, 390)),
}
ALL = list(GAMES)
#: A game of three players: cfrviz has no exploitability for it, but deviation gains.
GAMES["kuhn_poker_3p"] = (("kuhn_poker", {"players": 3}, False), (617, 48))


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pyspiel():
    """OpenSpiel's ``pyspiel``, or a skip saying how to get it (a failure in CI)."""
    try:
        import pyspiel
    except ImportError as error:
        message = (f"OpenSpiel is not installed ({error}): `make bench-install` installs the "
                   "bench extra from requirements/bench.txt")
        if os.environ.get("CI"):
            pytest.fail(f"the OpenSpiel interop tests must run in CI: {message}", pytrace=False)
        pytest.skip(message)
    return pyspiel


@pytest.fixture(scope="module")
def os_exploitability(pyspiel):  # noqa: ARG001 (OpenSpiel's Python side needs pyspiel)
    from open_spiel.python.algorithms import exploitability

    return exploitability.exploitability


def openspiel_game(pyspiel, key):
    """The OpenSpiel game (turn-based when it moves simultaneously) and its cfrviz tree."""
    (name, params, turn_based), _ = GAMES[key]
    tree = cfrviz.load_game("openspiel", name=name, params=params, turn_based=turn_based)
    game = pyspiel.load_game(name, params) if params else pyspiel.load_game(name)
    if turn_based:
        game = pyspiel.convert_to_turn_based(game)
    return game, tree


@pytest.mark.parametrize("key", [*ALL, "kuhn_poker_3p"])
def test_the_tree_has_openspiels_states_information_sets_and_chance(pyspiel, key):
    game, tree = openspiel_game(pyspiel, key)
    assert (tree.num_nodes, tree.num_infosets) == GAMES[key][1]
    assert tree.name == "openspiel" and str(game) in tree.description
    # Walk OpenSpiel's states beside the tree: same players, keys, labels, odds and payoffs.
    stack = [(0, game.new_initial_state())]
    while stack:
        node, state = stack.pop()
        if state.is_terminal():
            assert tree.player[node] == TERMINAL
            np.testing.assert_array_equal(tree.utility[node], state.returns())
            continue
        children = tree.children[node].tolist()
        if state.is_chance_node():
            assert tree.player[node] == CHANCE
            outcomes = state.chance_outcomes()
            assert list(tree.chance_labels[node]) == [state.action_to_string(a)
                                                      for a, _ in outcomes]
            assert tree.chance_prob[children].tolist() == [p for _, p in outcomes]
            moves = [a for a, _ in outcomes]
        else:
            info = tree.infoset[node]
            assert tree.player[node] == state.current_player()
            assert tree.infoset_keys[info] == state.information_state_string()
            moves = state.legal_actions()
            assert tree.infoset_actions[info] == tuple(
                state.action_to_string(state.current_player(), a) for a in moves)
        assert len(children) == len(moves)
        stack.extend((child, state.child(a)) for child, a in zip(children, moves))


@pytest.mark.parametrize("key", ALL)
def test_uniform_exploitability_agrees_with_openspiel(pyspiel, os_exploitability, key):
    from open_spiel.python.policy import TabularPolicy

    game, tree = openspiel_game(pyspiel, key)
    theirs = os_exploitability(game, TabularPolicy(game))  # OpenSpiel's own uniform policy
    ours = cfrviz.exploitability(tree, cfrviz.Policy.uniform(tree))
    assert ours > 0.1
    assert ours == pytest.approx(theirs, abs=1e-12)
    assert policy_from_openspiel(TabularPolicy(game), tree).probabilities.tolist() \
        == cfrviz.Policy.uniform(tree).probabilities.tolist()


@pytest.mark.parametrize("key", ALL)
def test_openspiels_cfr_policy_keeps_its_exploitability_in_cfrviz(pyspiel, os_exploitability,
                                                                  key):
    from open_spiel.python.algorithms import cfr

    game, tree = openspiel_game(pyspiel, key)
    solver = cfr.CFRSolver(game)
    for _ in range(5 if key == "leduc_poker" else 30):
        solver.evaluate_and_update_policy()
    theirs = solver.average_policy()
    policy = policy_from_openspiel(theirs, tree)
    ours = cfrviz.exploitability(tree, policy)
    assert ours == pytest.approx(os_exploitability(game, theirs), abs=1e-12)
    assert 0 < ours < cfrviz.exploitability(tree, cfrviz.Policy.uniform(tree))
    # Back to OpenSpiel, every probability is where it was.
    back = policy_to_openspiel(policy, game)
    np.testing.assert_array_equal(back.action_probability_array, theirs.action_probability_array)


@pytest.mark.parametrize("key", ALL)
def test_cfrvizs_cfr_policy_keeps_its_exploitability_in_openspiel(pyspiel, os_exploitability,
                                                                  key):
    game, tree = openspiel_game(pyspiel, key)
    policy = cfrviz.solve(tree, "cfr+", iterations=50, seed=0).average_policy()
    ours = cfrviz.exploitability(tree, policy)
    table = policy_to_openspiel(policy, game)
    assert os_exploitability(game, table) == pytest.approx(ours, abs=1e-12)
    assert ours < 0.5 * cfrviz.exploitability(tree, cfrviz.Policy.uniform(tree))
    assert policy_from_openspiel(table, tree).probabilities.tolist() \
        == policy.probabilities.tolist()


def test_a_simultaneous_game_converts_back_from_the_original_game(pyspiel, os_exploitability):
    original = pyspiel.load_game("goofspiel", {"num_cards": 3})
    tree = from_openspiel(original, turn_based=True)
    policy = cfrviz.solve(tree, "cfr", iterations=20, seed=0).average_policy()
    table = policy_to_openspiel(policy, original)  # converted again, as from_openspiel did
    assert os_exploitability(table.game, table) == pytest.approx(
        cfrviz.exploitability(tree, policy), abs=1e-12)


# --- cfrviz's own poker games are OpenSpiel's -----------------------------------------------

def _cards(label: str, suits: bool) -> list[int]:
    """OpenSpiel's card ids for a cfrviz deal label: Kuhn J Q K = 0 1 2; Leduc rank * 2 + suit."""
    if not suits:
        return ["JQK".index(c) for c in label]
    return ["JQK".index(label[i]) * 2 + "sh".index(label[i + 1]) for i in range(0, len(label), 2)]


def _same_sets(ours, game, suits: bool) -> dict[tuple[str, str], tuple[str, str]]:
    """(cfrviz key, action) -> (OpenSpiel key, action label), by walking both trees together.

    At a cfrviz deal OpenSpiel deals the same cards one at a time; at a decision cfrviz's action
    labels are the first letters of OpenSpiel's (Pass/Bet, Fold/Call/Raise)."""
    pairs: dict[tuple[str, str], tuple[str, str]] = {}
    stack = [(0, game.new_initial_state())]
    while stack:
        node, state = stack.pop()
        if ours.player[node] == TERMINAL:
            assert state.is_terminal()
            np.testing.assert_allclose(ours.utility[node], state.returns(), atol=1e-12)
            continue
        for index, child in enumerate(ours.children[node].tolist()):
            nxt = state.clone()
            if ours.player[node] == CHANCE:
                for card in _cards(ours.chance_labels[node][index], suits):
                    nxt.apply_action(card)
            else:
                key = ours.infoset_keys[ours.infoset[node]]
                label = ours.infoset_actions[ours.infoset[node]][index]
                action = next(a for a in state.legal_actions()
                              if state.action_to_string(a)[0].lower() == label)
                found = (state.information_state_string(), state.action_to_string(action))
                assert pairs.setdefault((key, label), found) == found
                nxt.apply_action(action)
            stack.append((child, nxt))
    return pairs


@pytest.mark.parametrize("name, suits", [("kuhn_poker", False), ("leduc_poker", True)])
def test_cfrvizs_poker_is_openspiels(pyspiel, name, suits):
    ours = cfrviz.load_game(name, suits=True) if suits else cfrviz.load_game(name)
    theirs = cfrviz.load_game("openspiel", name=name)
    pairs = _same_sets(ours, pyspiel.load_game(name), suits)
    # One to one: every set and action of each game is one of the other's.
    assert len(set(pairs.values())) == len(pairs) == int(ours.legal_mask.sum()) \
        == int(theirs.legal_mask.sum())
    assert ours.num_infosets == theirs.num_infosets == {"kuhn_poker": 12, "leduc_poker": 936}[name]
    # The same policy is worth the same in both: cfrviz's CFR+ average, moved across.
    policy = cfrviz.solve(ours, "cfr+", iterations=30, seed=0).average_policy()
    moved: dict[str, dict[str, float]] = {}
    for (key, label), (os_key, os_label) in pairs.items():
        moved.setdefault(os_key, {})[os_label] = policy[key][label]
    same = cfrviz.Policy.from_dict(theirs, moved)
    assert cfrviz.exploitability(theirs, same) == pytest.approx(
        cfrviz.exploitability(ours, policy), abs=1e-12)
    np.testing.assert_allclose(cfrviz.expected_values(theirs, same),
                               cfrviz.expected_values(ours, policy), atol=1e-12)
    # And the same game value, solved exactly on each side (Kuhn's is -1/18).
    value = cfrviz.exact_equilibrium(ours).value
    assert cfrviz.exact_equilibrium(theirs).value == pytest.approx(value, abs=1e-9)
    if name == "kuhn_poker":
        assert value == pytest.approx(-1 / 18, abs=1e-9)


def test_three_players_deviation_gains_agree_with_openspiels_nash_conv(pyspiel):
    from open_spiel.python.algorithms import cfr, exploitability
    from open_spiel.python.policy import TabularPolicy

    game, tree = openspiel_game(pyspiel, "kuhn_poker_3p")
    assert tree.num_players == 3

    def improvements(table):
        return exploitability.nash_conv(game, table,
                                        return_only_nash_conv=False).player_improvements

    solver = cfr.CFRSolver(game)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    ours = cfrviz.solve(tree, "cfr", iterations=20, seed=0).average_policy()
    for policy, table in [(cfrviz.Policy.uniform(tree), TabularPolicy(game)),
                          (policy_from_openspiel(solver.average_policy(), tree),
                           solver.average_policy()),
                          (ours, policy_to_openspiel(ours, game))]:
        gains = cfrviz.deviation_gains(tree, policy)
        assert np.all(gains > 1e-3)
        np.testing.assert_allclose(gains, improvements(table), rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="defined for two-player games"):
        cfrviz.exploitability(tree, ours)
    # cfrviz's own three-player Kuhn poker is OpenSpiel's: cards J Q K A are 0 1 2 3 there.
    own = cfrviz.load_game("kuhn_poker_3p")
    moved = {"JQKA"[int(key[0])] + key[1:]: {"p": dist["Pass"], "b": dist["Bet"]}
             for key, dist in ours.to_dict().items()}
    assert set(moved) == set(own.infoset_keys) and own.num_infosets == 48
    same = cfrviz.Policy.from_dict(own, moved)
    np.testing.assert_allclose(cfrviz.deviation_gains(own, same),
                               cfrviz.deviation_gains(tree, ours), rtol=0, atol=1e-12)


# --- games that do not fit ------------------------------------------------------------------

@pytest.mark.parametrize("name, params, words", [
    ("goofspiel", {"num_cards": 3}, "simultaneous moves, which a cfrviz tree does not draw; pass "
                                    "turn_based=True"),
    ("first_sealed_auction", None, "is general-sum, not zero-sum"),
    ("catch", None, "has 1 player; cfrviz converts games of two players or more"),
    ("liars_dice_ir", {"numdice": 1, "dice_sides": 3}, "has imperfect recall: information set"),
    # OpenSpiel's goofspiel strings show hands, not the order of bids: from 4 cards they forget.
    ("turn_based_simultaneous_game(game=goofspiel(num_cards=4))", None,
     "has imperfect recall: information set 'Current player: 0"),
    ("kuhn_pokr", None, "OpenSpiel has no game 'kuhn_pokr' (did you mean 'kuhn_poker'"),
    ("kuhn_poker", {"playerz": 2}, "OpenSpiel cannot load 'kuhn_poker'"),
    ("kuhn_poker(players=2)", {"players": 2}, "either inside the name or as params"),
])
@pytest.mark.usefixtures("pyspiel")
def test_games_that_do_not_fit_are_refused_with_the_reason(name, params, words):
    with pytest.raises(ValueError) as caught:
        cfrviz.load_game("openspiel", name=name, params=params)
    assert words in str(caught.value)
    assert "Available games are" not in str(caught.value)  # OpenSpiel's list of all 126


@pytest.mark.parametrize("change, words", [
    ({"chance_mode": "SAMPLED_STOCHASTIC"}, "samples its chance events, so their outcomes and "
                                            "probabilities cannot be listed in a tree"),
    ({"provides_information_state_string": False}, "gives no information-state strings"),
    ({"dynamics": "MEAN_FIELD"}, "has mean-field dynamics; cfrviz converts sequential games"),
])
def test_what_a_game_declares_it_cannot_give_is_refused_before_the_walk(pyspiel, change, words):
    kind = pyspiel.GameType
    declared = dict(
        short_name="toy", long_name="Toy", dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kind.Information.IMPERFECT_INFORMATION, utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL, max_num_players=2, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        provides_factored_observation_string=False)
    enums = {"chance_mode": kind.ChanceMode, "dynamics": kind.Dynamics}
    declared.update({k: getattr(enums[k], v) if k in enums else v for k, v in change.items()})
    info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=0, num_players=2,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                            max_game_length=1)

    class Toy(pyspiel.Game):  # never walked: it has no states at all
        def __init__(self):
            super().__init__(kind(**declared), info, {})

    with pytest.raises(ValueError, match=f"OpenSpiel's toy\\(\\) {words}"):
        from_openspiel(Toy())


@pytest.mark.usefixtures("pyspiel")
def test_a_tree_over_the_node_budget_is_refused_saying_how_to_raise_it():
    with pytest.raises(ValueError, match=r"more than 1,000 nodes, which max_nodes allows .* "
                                         r"pass a larger max_nodes, e.g. max_nodes=10_000"):
        cfrviz.load_game("openspiel", name="liars_dice", max_nodes=1000)
    with pytest.raises(ValueError, match="max_nodes must be a whole number >= 1"):
        cfrviz.load_game("openspiel", name="kuhn_poker", max_nodes=0)
    assert cfrviz.load_game("openspiel", name="kuhn_poker", max_nodes=58).num_nodes == 58


def test_a_constant_sum_game_is_shifted_to_zero_sum(pyspiel, os_exploitability):
    from open_spiel.python.policy import TabularPolicy

    game = pyspiel.load_efg_game(
        'EFG 2 R "constant sum" { "P1" "P2" }\n'
        'c "deal" 1 "" { "H" 0.5 "T" 0.5 } 0\n'
        'p "" 1 1 "" { "l" "r" } 0\n'
        't "" 1 "" { 3, 1 }\n'
        't "" 2 "" { 0, 4 }\n'
        'p "" 1 2 "" { "l" "r" } 0\n'
        'p "" 2 1 "" { "x" "y" } 0\n'
        't "" 3 "" { 4, 0 }\n'
        't "" 4 "" { 1, 3 }\n'
        't "" 5 "" { 2, 2 }\n')
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    tree = from_openspiel(game)
    assert tree.utility[tree.player == TERMINAL].sum(axis=1).tolist() == [0.0] * 5
    assert "shifted by -2 each" in tree.description
    assert cfrviz.exploitability(tree, cfrviz.Policy.uniform(tree)) == pytest.approx(
        os_exploitability(game, TabularPolicy(game)), abs=1e-12)


def test_policies_of_another_game_are_refused(pyspiel):
    from open_spiel.python.policy import TabularPolicy

    kuhn = cfrviz.load_game("openspiel", name="kuhn_poker")
    leduc = pyspiel.load_game("leduc_poker")
    with pytest.raises(ValueError, match="this TabularPolicy has no information state '0' of "
                                         "openspiel: it was made for another game"):
        policy_from_openspiel(TabularPolicy(leduc), kuhn)
    with pytest.raises(ValueError, match="needs an OpenSpiel TabularPolicy"):
        policy_from_openspiel({"0": [0.5, 0.5]}, kuhn)
    with pytest.raises(ValueError, match="OpenSpiel's leduc_poker.* has no information state "
                                         "'0'"):
        policy_to_openspiel(cfrviz.Policy.uniform(kuhn), leduc)
    with pytest.raises(ValueError, match="needs the OpenSpiel game the policy's tree came from"):
        policy_to_openspiel(cfrviz.Policy.uniform(kuhn), "kuhn_poker")
    with pytest.raises(ValueError, match="from_openspiel needs an OpenSpiel game"):
        from_openspiel("kuhn_poker")


@pytest.mark.usefixtures("pyspiel")
def test_a_trace_on_an_openspiel_game_saves_and_rebuilds(tmp_path):
    tree = cfrviz.load_game("openspiel", name="liars_dice", params={"numdice": 1,
                                                                      "dice_sides": 3})
    assert tree.params == {"name": "liars_dice", "params": {"numdice": 1, "dice_sides": 3}}
    trace = cfrviz.solve(tree, "cfr", iterations=10, seed=0)
    cfrviz.save_trace(trace, tmp_path / "run.npz")
    loaded = cfrviz.load_trace(tmp_path / "run.npz")  # rebuilt by load_game("openspiel", ...)
    assert loaded.game.infoset_keys == tree.infoset_keys
    np.testing.assert_array_equal(loaded.average_policy().probabilities,
                                  trace.average_policy().probabilities)


def test_labels_two_actions_share_get_their_ids():
    assert unique_labels(["Pass", "Bet"], (0, 1)) == ("Pass", "Bet")
    assert unique_labels(["Bid", "Bid", "Fold"], (4, 7, 9)) == ("Bid [4]", "Bid [7]", "Fold")


# --- parameters checked before OpenSpiel's C++ code sees them (issue 30) ----------------------

def load(name, params=None, **options):
    return cfrviz.load_game("openspiel", name=name, params=params, **options)


VALID = ["leduc_poker", "kuhn_poker(players=2)", "liars_dice(numdice=1,dice_sides=3)",
         "turn_based_simultaneous_game(game=goofspiel(num_cards=3))"]
CONTROL = st.characters(categories=["Cc", "Cf", "Zl", "Zp"])


@settings(max_examples=60, deadline=None)
@given(text=st.sampled_from(VALID), char=CONTROL, data=st.data())
@pytest.mark.usefixtures("pyspiel")
def test_a_game_name_with_a_control_character_is_refused(text, char, data):
    at = data.draw(st.integers(0, len(text)))
    name = text[:at] + char + text[at:]
    with pytest.raises(ValueError) as caught:
        load(name)
    assert str(caught.value).startswith("openspiel: name ")
    assert f"holds the control character {char!r} at position {at}" in str(caught.value)


def broken(text: str, how: int) -> str:
    """``text`` (a valid game string with parameters) broken in one of several ways."""
    inside = text[text.index("(") + 1:-1]
    first = inside.split(",")[0]
    return [text[:-1], text + "junk", text + ")", text.replace("=", "", 1),
            text.replace(first, first.split("=")[0] + "="), f"{text[:-1]},{first})",
            text.replace("(", "((", 1), text.replace("(", "(,", 1), text[:-1] + ",)",
            text.replace(first, first.split("=")[0] + "=1-2")][how]


@settings(max_examples=80, deadline=None)
@given(text=st.sampled_from(VALID[1:]), how=st.integers(0, 9))
@pytest.mark.usefixtures("pyspiel")
def test_game_strings_openspiel_would_misread_are_refused_saying_where(text, how):
    name = broken(text, how)
    with pytest.raises(ValueError) as caught:
        load(name)
    assert str(caught.value).startswith(f"openspiel: cannot read the game string {name!r}: ")
    assert " at position " in str(caught.value)


def test_game_strings_read_as_openspiel_reads_them():
    assert parse_game_string("leduc_poker") == ("leduc_poker", {})
    assert parse_game_string(" kuhn_poker() ") == ("kuhn_poker", {})
    assert parse_game_string("g(a=True,b=false,c=-3,d=+2.5,e=.5,f=1e3,g=x y)") == (
        "g", {"a": True, "b": False, "c": -3, "d": 2.5, "e": 0.5, "f": "1e3", "g": "x y"})
    assert parse_game_string("t(game=goofspiel(num_cards=3),x=1)") == (
        "t", {"game": {"name": "goofspiel", "num_cards": 3}, "x": 1})


#: (game, parameter, values it refuses): whole numbers beyond a C++ int or below 0 (players
#: beyond the game's own range), flags that are not bools, decimals that are not finite, text
#: with control characters, games that are not game strings.
BAD_VALUES = {
    ("kuhn_poker", "players"): st.one_of(st.integers(max_value=1), st.integers(min_value=11),
                                         st.floats(), st.text(max_size=3), st.booleans()),
    ("liars_dice", "numdice"): st.one_of(st.integers(max_value=-1),
                                         st.integers(min_value=INT_MAX + 1), st.just(10**30),
                                         st.floats(), st.booleans(), st.none()),
    ("leduc_poker", "action_mapping"): st.one_of(st.integers(), st.text(max_size=3),
                                                 st.none()),
    ("bargaining", "discount"): st.one_of(st.just(float("nan")), st.just(float("inf")),
                                          st.just(10**400), st.text(max_size=3),
                                          st.booleans()),
    ("goofspiel", "points_order"): st.one_of(st.integers(), st.just("desc\x00"),
                                             st.just("a\nb")),
    ("turn_based_simultaneous_game", "game"): st.one_of(st.integers(), st.just({"num": 3}),
                                                        st.just("goofspiel(")),
}


@settings(max_examples=120, deadline=None)
@given(case=st.sampled_from(sorted(BAD_VALUES)), data=st.data())
@pytest.mark.usefixtures("pyspiel")
def test_a_bad_parameter_value_is_refused_naming_the_game_and_parameter(case, data):
    game, key = case
    value = data.draw(BAD_VALUES[case])
    with pytest.raises(ValueError) as caught:
        load(game, {key: value})
    message = str(caught.value)
    assert message.startswith(f"OpenSpiel cannot load {game!r} with parameters ") \
        or message.startswith("openspiel: cannot read the game string"), message
    assert f"{game}'s parameter {key} must be" in message \
        or "cannot read the game string" in message, message


@settings(max_examples=40, deadline=None)
@given(numdice=st.one_of(st.integers(max_value=-1), st.integers(min_value=INT_MAX + 1)))
@pytest.mark.usefixtures("pyspiel")
def test_whole_numbers_in_a_name_are_checked_like_params(numdice):
    with pytest.raises(ValueError, match=rf"^OpenSpiel cannot load 'liars_dice\(numdice="
                                         rf"{numdice}\)': liars_dice's parameter numdice must be "
                                         rf"a whole number from 0 to 2,147,483,647"):
        load(f"liars_dice(numdice={numdice})")


@pytest.mark.usefixtures("pyspiel")
def test_an_unknown_parameter_lists_the_games_parameters():
    with pytest.raises(ValueError, match=r"kuhn_poker has no parameter 'playerz'; its parameters:"
                                         r" players"):
        load("kuhn_poker", {"playerz": 2})


@pytest.fixture
def not_files(tmp_path):
    """Paths OpenSpiel must not open: a pipe (it would wait for ever), a folder (bad_alloc),
    a device that never ends, and nothing at all."""
    fifo = tmp_path / "game.efg"
    os.mkfifo(fifo)
    return {"a named pipe (FIFO)": str(fifo), "a folder": str(tmp_path),
            "a character device": "/dev/zero", "does not exist": str(tmp_path / "none.efg")}


@pytest.mark.parametrize("game", ["efg_game", "nfg_game"])
@pytest.mark.parametrize("form", ["params", "name", "nested"])
@pytest.mark.usefixtures("pyspiel")
def test_a_file_parameter_must_be_a_regular_file(not_files, game, form):
    for kind, path in not_files.items():
        call = {"params": lambda p=path: load(game, {"filename": p}),
                "name": lambda p=path: load(f"{game}(filename={p})"),
                "nested": lambda p=path: load(f"turn_based_simultaneous_game(game={game}("
                                              f"filename={p}))")}[form]
        with pytest.raises(ValueError) as caught:
            call()
        message = str(caught.value)
        assert f"{game}'s parameter filename" in message and path in message, message
        assert kind in message, message


@pytest.mark.parametrize("game", ["efg_game", "nfg_game"])
@pytest.mark.usefixtures("pyspiel")
def test_a_file_parameter_left_out_is_named(game):
    with pytest.raises(ValueError, match=f"{game} reads the file its parameter 'filename' names, "
                                         "and none was given"):
        load(game)


def test_a_regular_efg_file_loads(pyspiel, tmp_path):
    path = tmp_path / "kuhn.efg"
    path.write_text(pyspiel.get_kuhn_poker_efg_data())
    assert load("efg_game", {"filename": str(path)}).num_nodes == 58


@pytest.mark.usefixtures("pyspiel")
def test_a_cpp_check_failing_during_the_walk_names_the_parameters_set():
    with pytest.raises(ValueError, match=r"^OpenSpiel's liars_dice\(numdice=0\) failed while "
                                         r"cfrviz walked its tree: OpenSpiel's C\+\+ code stopped "
                                         r"with SpielError: .*numdice=0 \(default 1\)"):
        load("liars_dice", {"numdice": 0})


@pytest.mark.parametrize("name", ["liars_dice(dice_sides=100000000)",
                                  "liars_dice(numdice=100000000)"])
@pytest.mark.usefixtures("pyspiel")
def test_a_state_wider_than_max_nodes_is_refused_before_the_walk(name):
    with pytest.raises(ValueError, match=r"may offer up to [\d,]+ actions or chance outcomes at "
                                         r"one state, more than the 500,000 nodes max_nodes "
                                         r"allows"):
        load(name)


@pytest.mark.parametrize("key", sorted(UNIVERSAL_POKER))
@pytest.mark.usefixtures("pyspiel")
def test_universal_poker_values_its_cpp_code_crashes_on_are_refused(key):
    low, high = UNIVERSAL_POKER[key]
    for value in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"universal_poker's parameter {key} must be a whole "
                                             f"number from {low} to {high}"):
            load("universal_poker", {key: value})
    # numPlayers=3 or numRounds=3 with the default two-entry lists: refused, not a segfault.
    if key in ("numPlayers", "numRounds") and high >= 3:
        with pytest.raises(ValueError, match="must list one whole number >= 0 per"):
            load("universal_poker", {key: 3})


# --- without OpenSpiel ----------------------------------------------------------------------

def test_without_openspiel_cfrviz_imports_and_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    assert "openspiel" in cfrviz.available_games()
    for call in (lambda: cfrviz.load_game("openspiel", name="kuhn_poker"),
                 lambda: from_openspiel(object()),
                 lambda: policy_to_openspiel(object(), object())):
        with pytest.raises(ImportError) as caught:
            call()
        # One instruction, not two (issue 30).
        assert str(caught.value) == "OpenSpiel is not installed: pip install open-spiel"
