"""Custom games from JSON and Gambit .efg files: examples, twins, and errors that say where."""

import copy
import json
import re
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL, build_tree, check_zero_sum, is_zero_sum
from cfrviz.games.files import MAX_DEPTH, MAX_PATH_TEXT, check_perfect_recall, load_game_file
from cfrviz.games.json_file import _read_deep_json, _read_json

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


def test_only_a_regular_game_file_is_read(tmp_path, monkeypatch):
    import os

    import cfrviz.games.files as files
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "zero.efg").symlink_to("/dev/zero")
    with pytest.raises(ValueError, match=r"pipe\.json' is a named pipe \(FIFO\), not a regular"):
        load_game_file(tmp_path / "pipe.json")
    with pytest.raises(ValueError, match=r"zero\.efg' is a character device, not a regular"):
        load_game_file(tmp_path / "zero.efg")
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 100)
    (tmp_path / "big.json").write_text(" " * 101)
    with pytest.raises(ValueError, match=r"big\.json' holds 101 bytes, more than the 100"):
        load_game_file(tmp_path / "big.json")


def test_a_lone_surrogate_in_a_key_is_refused(tmp_path):
    path = tmp_path / "half.json"
    path.write_text('{"root": {"type": "decision", "player": 1, "infoset": "K\\ud800b", '
                    '"actions": {"a": {"type": "terminal", "payoffs": [1, -1]}}}}')
    with pytest.raises(ValueError, match=r"half\.json: node root: \"infoset\" 'K\\ud800b' "
                                         r"holds a lone surrogate"):
        load_game_file(path)


def test_efg_set_named_like_a_generated_key_is_refused(tmp_path):
    # Player 2's set 2 is named "P2.1", the key of player 2's unnamed set 1: one set, not two.
    path = tmp_path / "collide.efg"
    path.write_text('EFG 2 R "" { "A" "B" }\n'
                    'c "" 1 "" { "x" 1/2 "y" 1/2 } 0\n'
                    'p "" 2 1 "" { "l" "r" } 0\n'
                    't "" 1 "" { 1 -1 }\n'
                    't "" 2 "" { -1 1 }\n'
                    'p "" 2 2 "P2.1" { "l" "r" } 0\n'
                    't "" 1\n'
                    't "" 2\n')
    with pytest.raises(ValueError, match=r"collide.efg: information set 2 of player 2 is named "
                                         r"'P2.1', the key cfrviz gives information set 1 of "
                                         r"player 2 .* merge into one set"):
        load_game_file(path)


def test_a_slash_in_a_label_never_gives_two_nodes_one_path(tmp_path):
    # "a/b" at the root against "a" then "b": written root/a\/b and root/a/b.
    leaf = {"type": "terminal", "payoffs": [1, -1]}
    path = tmp_path / "slash.json"
    path.write_text(json.dumps({"root": {
        "type": "decision", "player": 1, "infoset": "r", "actions": {
            "a/b": leaf, "a": {"type": "decision", "player": 1, "infoset": "s",
                               "actions": {"b": leaf, "c\\": leaf}}}}}))
    game = load_game_file(path)
    assert game.history == ("root", "root/a\\/b", "root/a", "root/a/b", "root/a/c\\\\")


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
    "bad json": ('{"root": {"type": "terminal",\n  "payoffs": [1, -1],}}', ["not valid JSON"]),
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


def _reported_offset(message: str, text: str) -> int:
    """The offset into ``text`` of the ``line L, column C`` (both from 1) a message names."""
    match = re.search(r"line (\d+), column (\d+)", message)
    assert match, message
    line, column = int(match[1]), int(match[2])
    lines = text.split("\n")
    assert 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1, message
    return sum(len(before) + 1 for before in lines[:line - 1]) + column - 1


# JSON syntax faults, each marked by « » (removed before writing the file): the line and column
# the error reports must fall inside the mark.  Which character of a fault the standard library
# names varies between Pythons (3.11 and 3.12 name the brace after a trailing comma, 3.13 the
# comma), so the test checks the position, not one interpreter's wording.
JSON_SYNTAX_FAULTS = {
    "trailing comma": '{"root": {"type": "terminal",\n  "payoffs": [1, -1]«,}»}',
    "missing comma": '{"root": {"type": "terminal"«\n  "»payoffs": [1, -1]}}',
    "missing colon": '{"root": {"type"« "»terminal",\n  "payoffs": [1, -1]}}',
    "single quotes": "{\"root\": {\"type\": «'»terminal',\n  \"payoffs\": [1, -1]}}",
    "unclosed object": '{"root": {"type": "terminal",\n  "payoffs": [1, -1]}«»',
    "deep trailing comma": '{"root": ' + "[" * 3000 + "]" * 2999 + "«,]»}",
}


@pytest.mark.parametrize("case", list(JSON_SYNTAX_FAULTS))
def test_json_syntax_error_names_the_line_and_column_of_the_fault(tmp_path, case):
    marked = JSON_SYNTAX_FAULTS[case].replace("««»»", "«»")
    start, end = marked.index("«"), marked.index("»") - 1
    text = marked.replace("«", "").replace("»", "")
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        cfrviz.load_game("file", path=path)
    message = str(error.value)
    assert message.startswith(f"{path}: not valid JSON at line "), message
    # An empty mark (the fault is the end of the file) allows only the position right there.
    assert start <= _reported_offset(message, text) <= max(start, end - 1), (
        message, text[max(start - 10, 0):end + 10])


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


# --- size and depth: linear time, no recursion ------------------------------------------

def _wide(n: int, suffix: str) -> str:
    """A chance node with ``n`` equally likely outcomes, each ending the game."""
    if suffix == "json":
        outcomes = {f"o{i}": {"probability": f"1/{n}", "node": {
            "type": "terminal", "payoffs": [i % 3 - 1, 1 - i % 3]}} for i in range(n)}
        return json.dumps({"root": {"type": "chance", "name": "deal", "outcomes": outcomes}})
    pairs = " ".join(f'"o{i}" 1/{n}' for i in range(n))
    leaves = "\n".join(f't "" {i + 1} "" {{ {i % 3 - 1} {1 - i % 3} }}' for i in range(n))
    return f'EFG 2 R "wide" {{ "A" "B" }}\nc "deal" 1 "" {{ {pairs} }} 0\n{leaves}\n'


def _chain(depth: int, suffix: str, go: str = "go") -> str:
    """Players take turns to stop (ending the game) or ``go`` on, ``depth`` times."""
    if suffix == "json":  # written as text: json.dumps recurses too
        step = ('{{"type": "decision", "player": {p}, "infoset": "i{i}", "actions": {{'
                '"stop": {{"type": "terminal", "payoffs": [{u}, {v}]}}, "' + go + '": ')
        head = "".join(step.format(p=1 + i % 2, i=i, u=1 - 2 * (i % 2), v=2 * (i % 2) - 1)
                       for i in range(depth))
        return ('{"root": ' + head + '{"type": "terminal", "payoffs": [0, 0]}' + "}}" * depth
                + "}")
    lines = ['EFG 2 R "chain" { "A" "B" }']
    for i in range(depth):
        lines.append(f'p "" {1 + i % 2} {i // 2 + 1} "i{i}" {{ "stop" "{go}" }} 0')
        lines.append(f't "" {i + 1} "" {{ {1 - 2 * (i % 2)} {2 * (i % 2) - 1} }}')
    return "\n".join([*lines, f't "" {depth + 1} "" {{ 0 0 }}']) + "\n"


def _check_wide(tmp_path, suffix, n, seconds):
    path = tmp_path / f"wide.{suffix}"
    path.write_text(_wide(n, suffix))
    start = time.process_time()  # CPU time: a busy machine must not fail it
    game = load_game_file(path)
    elapsed = time.process_time() - start
    assert game.num_nodes == n + 1 and game.chance_labels[0][-1] == f"o{n - 1}"
    assert game.children[0].tolist() == list(range(1, n + 1))
    assert game.history[n] == f"root/deal:o{n - 1}"
    assert np.all(game.chance_prob[1:] == 1 / n)
    assert elapsed < seconds, f"{elapsed:.1f} s to load {n} outcomes"


@pytest.mark.parametrize("suffix", ["json", "efg"])
def test_a_wide_chance_node_loads_in_linear_time(tmp_path, suffix):
    # Finding: each child was found by a linear search of its parent's labels, so a wide
    # node took time quadratic in its width: 30,000 outcomes took about 17 s (JSON), 100,000
    # took 185 s; now about 1 s and 5 s.
    _check_wide(tmp_path, suffix, 30_000, seconds=8)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["json", "efg"])
def test_a_chance_node_with_100000_outcomes_loads_in_seconds(tmp_path, suffix):
    _check_wide(tmp_path, suffix, 100_000, seconds=20)


@pytest.mark.parametrize("suffix", ["json", "efg"])
def test_a_chain_5000_levels_deep_loads(tmp_path, suffix):
    # Finding: reading and walking recursed, ending in a bare RecursionError.
    depth = 5_000
    path = tmp_path / f"chain.{suffix}"
    path.write_text(_chain(depth, suffix))
    game = load_game_file(path)
    assert game.num_nodes == 2 * depth + 1 and int(game.depth.max()) == depth
    assert game.history[-1] == "root" + "/go" * depth  # preorder: the last go ends last
    assert game.utility[game.history.index("root/go/stop")].tolist() == [-1, 1]
    assert game.num_infosets == depth


@pytest.mark.parametrize("suffix", ["json", "efg"])
def test_a_tree_deeper_than_the_limit_is_refused_clearly(tmp_path, suffix):
    path = tmp_path / f"chain.{suffix}"
    path.write_text(_chain(MAX_DEPTH + 1, suffix))
    with pytest.raises(ValueError) as error:
        load_game_file(path)
    message = str(error.value)
    assert message.startswith(str(path)), message
    assert f"at most {MAX_DEPTH:,} levels deep" in message and "root/go/go/" in message
    assert len(message) < 500  # the path of so deep a node is shortened


@pytest.mark.parametrize("suffix", ["json", "efg"])
def test_a_deep_tree_with_long_labels_is_refused_before_it_fills_memory(tmp_path, suffix):
    # Every node keeps its path as text: 600 levels of 500-letter labels would need 180 MB.
    path = tmp_path / f"chain.{suffix}"
    path.write_text(_chain(600, suffix, go="g" * 500))
    with pytest.raises(ValueError) as error:
        load_game_file(path)
    message = str(error.value)
    assert message.startswith(str(path)), message
    assert f"more than {MAX_PATH_TEXT:,} characters" in message, message
    assert "shorten the labels" in message and len(message) < 600


def test_imperfect_recall_deep_down_is_told_briefly(tmp_path):
    # Player 1 (who moves at every other level) meets their first information set again
    # 3,000 moves down, having forgotten 1,500 moves: the message gives the first and last.
    body = _chain(3_000, "efg").rsplit("\n", 2)[0] + '\np "" 1 1 0\nt "" 1\nt "" 1\n'
    path = tmp_path / "forget.efg"
    path.write_text(body)
    with pytest.raises(ValueError) as error:
        load_game_file(path)
    message = str(error.value)
    assert message.startswith(str(path)) and "breaks perfect recall" in message
    assert ("played 'go' at 'i0', then 'go' at 'i2', then 'go' at 'i4', then 1494 more moves, "
            "then 'go' at 'i2994'") in message, message
    assert len(message) < 700


class _Chain:
    """A game definition: players take turns to stop or go on, ``depth`` times."""

    name = "chain"

    def __init__(self, depth: int):
        self.depth = depth

    def initial_state(self):
        return _ChainState(self.depth, 0, False)


@dataclass(frozen=True)
class _ChainState:
    depth: int
    level: int
    stopped: bool

    def is_terminal(self):
        return self.stopped or self.level == self.depth

    def current_player(self):
        return self.level % 2

    def legal_actions(self):
        return ("stop", "go")

    def chance_outcomes(self):
        return ()

    def child(self, action):
        return _ChainState(self.depth, self.level + 1, action == "stop")

    def returns(self):
        return (0.0, 0.0)

    def infoset_key(self):
        return f"i{self.level}"

    def history(self):  # short, unlike a file's paths, to measure the check alone
        return f"{self.level}{'s' if self.stopped else ''}"


def test_perfect_recall_check_is_linear_in_depth():
    # Each node's sequence of own moves used to be a tuple copied from its parent:
    # memory grew as depth times nodes (about 100 MB here).
    tree = build_tree(_Chain(5_000))
    assert int(tree.depth.max()) == 5_000
    tracemalloc.start()
    try:
        check_perfect_recall(tree)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10_000_000, f"{peak / 1e6:.0f} MB"


# --- numbers, types and files that used to escape as other errors ------------------------

_LEAF = '{"type": "terminal", "payoffs": [0, 0]}'


def _terminal(payoffs: str) -> str:
    return '{"root": {"type": "terminal", "payoffs": ' + payoffs + "}}"


BAD_JSON = {
    "payoff 1e400": (_terminal("[1e400, 0]"), ["node root", "payoff of player 1", "1e400"]),
    "payoff '1e400'": (_terminal('["1e400", 0]'), ["node root", "payoff of player 1",
                                                     "'1e400'", "too large"]),
    "payoff of 400 digits": (_terminal("[" + "9" * 400 + ", 0]"), ["node root", "payoff of "
                                                                   "player 1", "too large"]),
    "payoff of 5000 digits": (_terminal("[" + "9" * 5000 + ", 0]"), ["node root", "too large"]),
    "probability '1e400'": ('{"root": {"type": "chance", "outcomes": {"a": {"probability": '
                            '"1e400", "node": ' + _LEAF + '}}}}',
                            ["node root, outcome 'a': probability", "too large"]),
    "probability '1e999999999'": ('{"root": {"type": "chance", "outcomes": {"a": {'
                                  '"probability": "1e999999999", "node": '
                                  + _LEAF + '}}}}',
                                  ["node root, outcome 'a': probability", "too large"]),
    "NaN literal": (_terminal("[NaN, 0]"), ["node root", "payoff of player 1 is NaN", "finite"]),
    "Infinity literal": (_terminal("[0, -Infinity]"), ["node root", "player 2 is -Infinity"]),
    "Infinity probability": ('{"root": {"type": "chance", "outcomes": {"a": {"probability": '
                             'Infinity, "node": ' + _LEAF + '}}}}',
                             ["node root, outcome 'a': probability is Infinity"]),
    "deep list as payoff": (_terminal("[" + "[" * 3000 + "]" * 3000 + ", 0]"),
                            ["node root", "payoff of player 1", "[[[", "must be a number"]),
    "deep list as node": ('{"root": ' + "[" * 3000 + "]" * 3000 + "}",
                          ["node root must be an object", "[[[["]),
    "deep object as name": ('{"name": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + ', "root": '
                            + _LEAF + "}",
                            ["\"name\" must be a string", '{"a": {"a":']),
    "list as outcome": ('{"root": {"type": "chance", "outcomes": {"a": [1]}}}',
                        ["node root, outcome 'a'", "got [1]"]),
    "object as payoffs": (_terminal('{"p1": 1, "p2": -1}'),
                          ["node root", '"payoffs" must be [player', '{"p1": 1, "p2": -1}']),
    "list as type": ('{"root": {"type": ["terminal"], "payoffs": [0, 0]}}',
                     ["node root", 'has unknown type ["terminal"]', "valid types"]),
    "list as player": ('{"root": {"type": "decision", "player": [1], "infoset": "x", "actions": '
                       '{"a": ' + _LEAF + '}}}',
                       ["node root", "\"player\" must be 1 or 2; got [1]"]),
    "deep json error": ('{"root": ' + "[" * 3000 + "]" * 2999 + "}",
                        ["not valid JSON", "line 1, column 6009", "Expecting ',' delimiter"]),
}


@pytest.mark.parametrize("case", list(BAD_JSON))
def test_bad_json_values_say_file_and_node(tmp_path, case):
    text, words = BAD_JSON[case]
    path = tmp_path / "bad.json"
    path.write_text(text)
    start = time.process_time()  # CPU time: a busy machine must not fail it
    with pytest.raises(ValueError) as error:
        load_game_file(path)
    message = str(error.value)
    assert message.startswith(str(path)), message
    for word in words:
        assert word in message, (word, message)
    assert len(message) < 400, message
    assert time.process_time() - start < 2


BAD_EFG = {
    "payoff 1e400": ('t "" 1 "" { 1e400 0 }', ["line 2", "node root", "1e400", "too large"]),
    "payoff 1e999999999": ('t "" 1 "" { 1e999999999 0 }', ["node root", "too large"]),
    "a sum too large": ('p "" 1 1 "x" { "a" } 1 "o" { 1.5e308 0 }\nt "" 2 "" { 1.5e308 0 }',
                        ["node root/a", "payoff of player 1", "too large"]),
    "outcome number of 5000 digits": ('t "" ' + "9" * 5000 + ' "" { 1 0 }',
                                      ["line 2, column 6", "outcome number", "'99999"]),
    "payoff of 5000 digits": ('t "" 1 "" { ' + "9" * 5000 + " 0 }",
                              ["line 2, column 13", "node root", "payoff"]),
    "nan": ('t "" 1 "" { nan 0 }', ["line 2", "node root", "a payoff", "'nan'"]),
    "a brace for a name": ('t { 1 "" { 1 0 }', ["line 2, column 3", "node root", "name"]),
    "a stray quote": ('t "" 1 "" { 1 0 } "', ["line 2, column 19", "unterminated"]),
    "a deep tree truncated": ('p "" 1 1 "x" { "a" } 0\n' * 3000,
                              ["end of file", "node root" + "/a" * 3000]),
}


@pytest.mark.parametrize("case", list(BAD_EFG))
def test_bad_efg_tokens_say_file_line_and_node(tmp_path, case):
    body, words = BAD_EFG[case]
    path = tmp_path / "bad.efg"
    path.write_text(f'EFG 2 R "bad" {{ "A" "B" }}\n{body}\n')
    start = time.process_time()  # CPU time: a busy machine must not fail it
    with pytest.raises(ValueError) as error:
        load_game_file(path)
    message = str(error.value)
    assert message.startswith(str(path)), message
    for word in words:
        assert word.replace("/a" * 3000, "/a/a/") in message, (word, message)
    assert len(message) < 400, message
    assert time.process_time() - start < 2


def test_efg_labels_may_be_any_text(tmp_path):
    # A quoted "}" is a label, not the brace closing the list.
    path = tmp_path / "braces.efg"
    path.write_text('EFG 2 R "braces" { "A" "B" }\np "" 1 1 "x" { "}" "{" } 0\n'
                    't "" 1 "" { 1 -1 }\nt "" 2 "" { -1 1 }\n')
    assert load_game_file(path).infoset_actions == (("}", "{"),)


def test_bad_paths_and_files_say_which(tmp_path):
    with pytest.raises(ValueError, match=r"path must be a str or pathlib\.Path .*; got None"):
        load_game_file(None)
    with pytest.raises(ValueError, match=r"path must be a str or pathlib\.Path .*; got 3"):
        cfrviz.load_game("file", path=3)
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(ValueError, match=r"game file '.*folder\.json' is a folder, not a file"):
        load_game_file(tmp_path / "folder.json")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"name": "caf\xe9",\n "root": {}}')
    with pytest.raises(ValueError, match=r"game file '.*latin\.json' is not UTF-8 text: byte "
                                         r"0xe9 at line 1, column 14"):
        load_game_file(latin)
    with pytest.raises(ValueError, match=r"game file '.*missing\.efg' not found"):
        load_game_file(str(tmp_path / "missing.efg"))


def test_a_utf8_byte_order_mark_is_allowed(tmp_path):
    # Notepad writes one; it is not part of the JSON text.
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + json.dumps(BLUFF), encoding="utf-8")
    assert load_game_file(path).num_nodes == 11
    efg = tmp_path / "bom.efg"
    efg.write_text("\ufeff" + BLUFF_EFG, encoding="utf-8")
    assert load_game_file(efg).num_nodes == 11


# --- the reader for deeply nested JSON agrees with json.loads -------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(value=json_values, indent=st.sampled_from([None, 0, 2]), ascii=st.booleans())
def test_deep_json_reader_agrees_with_json_loads(value, indent, ascii):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii)
    assert _read_deep_json(text) == _read_json(text)


@pytest.mark.parametrize("text", [
    '{"a": 1', '{"a" 1}', '{"a": }', "{,}", "[1 2]", "", "  ", '"abc',
    '["a\\x"]', "nul", "[-]", "1 2", "[1.]", '{"a":1}}', "-", '"\x01"', "[", "{", '{"a"',
    '{"a":', "[1,", "tru", "[NaN, -Infinity, Infinity, 1e400, 1E5, -0, 0.5e-3, 12]",
    '{"a": 1, "a": 2, "b": {"c": [], "c": {}}}', '"\\ud800\\u00e9"'])
def test_deep_json_reader_matches_json_loads_on_edge_cases(text):
    def outcome(read):
        try:
            value = read(text)
        except json.JSONDecodeError as error:
            return ("error", error.msg, error.pos)
        return ("value", repr(value), _duplicates(value))
    assert outcome(_read_deep_json) == outcome(_read_json)


@pytest.mark.parametrize("text", ["[1,]", '{"a":1,}', '{"a": [1, 2 ,  ]}', "[[],\n]"])
def test_deep_json_reader_refuses_a_trailing_comma_where_json_loads_does(text):
    # Python 3.13's json names the comma ("Illegal trailing comma before end of array"), older
    # ones the bracket after it ("Expecting value"): both readers must refuse the text and point
    # between the comma and the bracket, whichever wording the running Python uses.
    comma = text.rindex(",")
    bracket = comma + 1 + len(text[comma + 1:]) - len(text[comma + 1:].lstrip())
    fault = range(comma, bracket + 1)
    for read in (_read_deep_json, _read_json):
        with pytest.raises(json.JSONDecodeError) as error:
            read(text)
        assert error.value.pos in fault, (read.__name__, error.value.msg, error.value.pos)


def _duplicates(value):
    if isinstance(value, dict):
        return [getattr(value, "duplicates", ()), *(_duplicates(v) for v in value.values())]
    return [_duplicates(v) for v in value] if isinstance(value, list) else []


def test_json_deeper_than_json_loads_allows_is_read():
    depth = 20_000  # json.loads stops near 1,000
    value = _read_json("[" * depth + "]" * depth)
    for _ in range(depth - 1):
        (value,) = value
    assert value == []
    value = _read_json('{"a": ' * depth + "1" + "}" * depth)
    for _ in range(depth):
        value = value["a"]
    assert value == 1


@dataclass(frozen=True)
class _ThreeState:
    """Three players move in turn (a or b); player 3 is told player 1's move, or not."""

    moves: str
    told: bool

    def is_terminal(self):
        return len(self.moves) == 4

    def current_player(self):
        return (0, 1, 2, 2)[len(self.moves)]

    def legal_actions(self):
        return ("a", "b")

    def chance_outcomes(self):
        return ()

    def child(self, action):
        return _ThreeState(self.moves + action, self.told)

    def returns(self):
        win = 1.0 if self.moves.count("a") % 2 else -1.0
        return (win, -win / 2, -win / 2)

    def infoset_key(self):
        if self.current_player() < 2:
            return f"P{len(self.moves) + 1}"
        # Player 3 sees player 1's move at its first turn; at its second only if told.
        seen = self.moves[0] if self.told or len(self.moves) == 2 else ""
        return f"P3:{seen}:{self.moves[2:]}"

    def history(self):
        return self.moves


@dataclass(frozen=True)
class _Three:
    told: bool
    name: str = "three"
    num_players: int = 3

    def initial_state(self):
        return _ThreeState("", self.told)


def test_perfect_recall_is_checked_for_a_third_player():
    check_perfect_recall(build_tree(_Three(told=True)))
    with pytest.raises(ValueError, match=r"information set 'P3::a' of player 3 breaks perfect "
                                         r"recall: at 'aaa' the player has played 'a' at "
                                         r"'P3:a:'"):
        check_perfect_recall(build_tree(_Three(told=False)))
