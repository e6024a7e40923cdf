"""Custom games from JSON and Gambit .efg files: examples, twins, and errors that say where."""

import copy
import json
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL, check_zero_sum, is_zero_sum
from cfrviz.games.files import load_game_file

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"
BLUFF = json.loads((GAMES / "high_low_bluff.json").read_text())
BLUFF_EFG = (GAMES / "high_low_bluff.efg").read_text()


def bluff_equilibrium(game):
    return cfrviz.Policy.from_dict(game, {"H": {"b": 1.0}, "L": {"c": 2 / 3, "b": 1 / 3},
                                          "b": {"f": 1 / 3, "c": 2 / 3}})


@pytest.mark.parametrize("name", ["high_low_bluff.json", "high_low_bluff.efg",
                                  "matching_pennies.json", "kuhn_poker.efg"])
def test_examples_load_and_are_zero_sum(name):
    game = cfrviz.load_game("file", path=GAMES / name)
    assert game.name == Path(name).stem
    assert game.description  # each example documents itself
    assert is_zero_sum(game)
    check_zero_sum(game, "this test")
    cfrviz.exploitability(game, cfrviz.Policy.uniform(game))


def test_high_low_bluff_known_values():
    game = load_game_file(GAMES / "high_low_bluff.json")
    assert (game.num_nodes, game.infoset_keys) == (11, ("H", "b", "L"))
    assert game.player[0] == CHANCE and game.chance_labels[0] == ("H", "L")
    assert game.history[game.infoset_members(game.infoset_index("b"))[0]] == "root/deal:H/b"
    policy = bluff_equilibrium(game)
    assert cfrviz.expected_values(game, policy)[0] == pytest.approx(1 / 3, abs=1e-12)
    assert abs(cfrviz.exploitability(game, policy)) < 1e-12
    uniform = cfrviz.Policy.uniform(game)
    assert cfrviz.expected_values(game, uniform) == pytest.approx((0.25, -0.25), abs=1e-15)


def test_efg_twin_gives_the_same_game():
    as_json = load_game_file(GAMES / "high_low_bluff.json")
    as_efg = load_game_file(GAMES / "high_low_bluff.efg")
    for field in ("parent", "action", "player", "chance_prob", "utility", "infoset"):
        assert np.array_equal(getattr(as_json, field), getattr(as_efg, field)), field
    assert as_json.history == as_efg.history
    assert as_json.infoset_keys == as_efg.infoset_keys
    assert as_json.infoset_actions == as_efg.infoset_actions
    for make in (cfrviz.Policy.uniform, bluff_equilibrium):
        assert cfrviz.expected_values(as_efg, make(as_efg)) == pytest.approx(
            cfrviz.expected_values(as_json, make(as_json)), abs=1e-15)
        assert cfrviz.exploitability(as_efg, make(as_efg)) == pytest.approx(
            cfrviz.exploitability(as_json, make(as_json)), abs=1e-15)
    # Policies carry over: same keys and actions.
    assert cfrviz.exploitability(as_efg, bluff_equilibrium(as_json)) < 1e-12


def test_kuhn_efg_equals_the_built_in_kuhn():
    from_file = load_game_file(GAMES / "kuhn_poker.efg")
    kuhn = cfrviz.load_game("kuhn_poker")
    for field in ("parent", "player", "chance_prob", "utility", "infoset"):
        assert np.array_equal(getattr(from_file, field), getattr(kuhn, field)), field
    assert from_file.infoset_keys == kuhn.infoset_keys
    assert cfrviz.exploitability(from_file, cfrviz.Policy.uniform(from_file)) == pytest.approx(
        11 / 24, abs=1e-12)


def test_efg_reads_gambit_conventions(tmp_path):
    # Decimal probabilities, unnamed information sets, repeated declarations, payoffs
    # without commas, and an outcome at a chance node that adds to every payoff below it.
    path = tmp_path / "pennies.efg"
    path.write_text('EFG 2 R "Pennies" { "A" "B" }\n'
                    'p "" 1 1 "" { "H" "T" } 0\n'
                    'c "coin" 1 "" { "x" 0.25 "y" .75 } 1 "fee" { -1/2 1/2 }\n'
                    'p "" 2 1 "" { "H" "T" } 0\n'
                    't "" 2 "" { 1 -1 }\n'
                    't "" 3 "" { -1 1 }\n'
                    'p "" 2 1 "" { "H" "T" } 0\n'
                    't "" 2\n'
                    't "" 3\n'
                    'p "" 2 1 0\n'
                    't "" 3 "" { -1 1 }\n'
                    't "" 2 "" { 1 -1 }\n')
    game = load_game_file(path)
    assert game.infoset_keys == ("P1.1", "P2.1")
    assert game.chance_prob[game.children[game.history.index("root/H")]].tolist() == [0.25, 0.75]
    assert game.utility[game.history.index("root/H/coin:x/H")].tolist() == [0.5, -0.5]
    assert game.utility[game.history.index("root/T/H")].tolist() == [-1, 1]
    assert game.description == "Pennies"


# --- malformed files: each error names the file and the node path ---------------------

def _bluff(mutate):
    data = copy.deepcopy(BLUFF)
    mutate(data)
    return json.dumps(data, indent=1)


def _high(data):
    return data["root"]["outcomes"]["H"]["node"]


JSON_CASES = {
    "probabilities": (_bluff(lambda d: d["root"]["outcomes"]["H"].update(probability=0.4)),
                      ["history 'root'", "sum to 1", "0.9"]),
    "negative": (_bluff(lambda d: d["root"]["outcomes"]["L"].update(probability="-1/2")),
                 ["node root, outcome 'L'", "negative"]),
    "player": (_bluff(lambda d: _high(d)["actions"]["b"].update(player=1)),
               ["root/deal:L/b", "information set 'b'", "disagree"]),
    "actions": (_bluff(lambda d: _high(d)["actions"]["b"]["actions"].update(
        {"x": {"type": "terminal", "payoffs": [0, 0]}})),
                ["root/deal:L/b", "information set 'b'", "'x'"]),
    "no payoffs": (_bluff(lambda d: _high(d)["actions"]["c"].pop("payoffs")),
                   ["node root/deal:H/c", "no \"payoffs\""]),
    "nan payoff": (_bluff(lambda d: _high(d)["actions"]["c"].update(payoffs=[float("nan"), 0])),
                   ["node root/deal:H/c", "finite"]),
    "one payoff": (_bluff(lambda d: _high(d)["actions"]["c"].update(payoffs=[1])),
                   ["node root/deal:H/c", "[player 1's payoff, player 2's payoff]"]),
    "text payoff": (_bluff(lambda d: _high(d)["actions"]["c"].update(payoffs=["one", -1])),
                    ["node root/deal:H/c", "payoff of player 1", "'one'"]),
    "unknown type": (_bluff(lambda d: _high(d)["actions"]["c"].update(type="leaf")),
                     ["node root/deal:H/c", "unknown type 'leaf'", "'terminal'"]),
    "no type": (_bluff(lambda d: _high(d)["actions"]["b"].pop("type")),
                ["node root/deal:H/b", "no \"type\""]),
    "typo": (_bluff(lambda d: _high(d)["actions"]["c"].update(payof=[1, -1])),
             ["node root/deal:H/c", "unknown field 'payof'", "payoffs"]),
    "bad player": (_bluff(lambda d: _high(d).update(player=3)),
                   ["node root/deal:H", "\"player\" must be 1 or 2"]),
    "imperfect recall": (_bluff(lambda d: _high(d)["actions"]["b"]["actions"].update(
        c={"type": "decision", "player": 1, "infoset": "H",
           "actions": {"c": {"type": "terminal", "payoffs": [0, 0]},
                       "b": {"type": "terminal", "payoffs": [0, 0]}}})),
                         ["perfect recall", "information set 'H'", "'root/deal:H'",
                          "'root/deal:H/b/c'", "played 'b' at 'H'"]),
    "bad json": ('{"root": {"type": "terminal",\n  "payoffs": [1, -1],}}',
                 ["not valid JSON", "line 2, column 22"]),
    "duplicate label": ('{"root": {"type": "decision", "player": 1, "infoset": "x", "actions": '
                        '{"a": {"type": "terminal", "payoffs": [0, 0]}, '
                        '"a": {"type": "terminal", "payoffs": [1, -1]}}}}',
                        ["node root", "action 'a' twice"]),
    "no root": ('{"name": "empty"}', ["no \"root\""]),
}


@pytest.mark.parametrize("case", list(JSON_CASES))
def test_malformed_json_says_file_and_node(tmp_path, case):
    text, words = JSON_CASES[case]
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        cfrviz.load_game("file", path=path)
    message = str(error.value)
    assert message.startswith(str(path))
    for word in words:
        assert word in message, (word, message)


EFG_CASES = {
    "probabilities": (BLUFF_EFG.replace('"L" 1/2', '"L" 1/3'), ["history 'root'", "sum to 1"]),
    "unknown node": (BLUFF_EFG.replace('p "" 1 2 "L"', 'x "" 1 2 "L"'),
                     ["line 10, column 1", "node root/deal:L", "unknown node type 'x'"]),
    "three players": (BLUFF_EFG.replace('{ "Player 1" "Player 2" }', '{ "A" "B" "C" }'),
                      ["line 1", "two-player", "3 players"]),
    "missing payoff": (BLUFF_EFG.replace("{ 2, -2 }", "{ 2 }"),
                       ["line 9", "node root/deal:H/b/c", "1 payoffs"]),
    "bad payoff": (BLUFF_EFG.replace("{ 2, -2 }", "{ 2, inf }"),
                   ["line 9", "node root/deal:H/b/c", "'inf'"]),
    "undeclared outcome": (BLUFF_EFG.replace('t "" 1 "player 1 wins the antes" { 1, -1 }',
                                             't "" 1'),
                           ["line 6", "node root/deal:H/c", "outcome 1 is used before"]),
    "different actions": (BLUFF_EFG.replace('p "" 2 1 0', 'p "" 2 1 "b" { "f" "x" } 0'),
                          ["line 12", "node root/deal:L/b", "declared again"]),
    "truncated": (BLUFF_EFG.rsplit("\n", 2)[0], ["end of file", "node root/deal:L/b/c"]),
    "unterminated string": (BLUFF_EFG.replace('"player 2 wins the bet"', '"player 2 wins'),
                            ["line 14", "unterminated"]),
    "imperfect recall": (BLUFF_EFG.replace('p "" 2 1 0', 'p "" 1 1 0'),
                         ["perfect recall", "information set 'H'", "'root/deal:L/b'"]),
}


@pytest.mark.parametrize("case", list(EFG_CASES))
def test_malformed_efg_says_file_and_where(tmp_path, case):
    text, words = EFG_CASES[case]
    path = tmp_path / "broken.efg"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        load_game_file(path)
    message = str(error.value)
    assert message.startswith(str(path))
    for word in words:
        assert word in message, (word, message)


def test_file_name_problems(tmp_path):
    with pytest.raises(ValueError, match="must end in .json .* or .efg"):
        load_game_file(tmp_path / "game.txt")
    with pytest.raises(ValueError, match="missing.json' not found"):
        load_game_file(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="game 'file' needs the parameter 'path'"):
        cfrviz.load_game("file")
    with pytest.raises(ValueError, match="takes no parameter 'file'"):
        cfrviz.load_game("file", file="x.json")


def test_non_zero_sum_loads_but_is_flagged(tmp_path):
    path = tmp_path / "coordination.json"
    path.write_text(_bluff(lambda d: _high(d)["actions"]["c"].update(payoffs=[1, 1])))
    game = load_game_file(path)
    assert not is_zero_sum(game)
    with pytest.raises(ValueError, match=r"CFR needs a two-player zero-sum game; high_low_bluff "
                                         r"is not zero-sum at history 'root/deal:H/c'"):
        check_zero_sum(game, "CFR")
    assert is_zero_sum(cfrviz.load_game("rock_paper_scissors"))
    assert int(np.sum(game.player == TERMINAL)) == 6
