"""The river bet tree (cfrviz.games.holdem.bets): the reference spot's lines exactly, the wide
tree's node counts from its information-set count, every refusal, and the tree's invariants on
random sizes."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfrviz.core.tree import TERMINAL
from cfrviz.games.holdem.bets import IP, MAX_NODES, OOP, BetSize, bet_tree, parse_sizes

#: shared/peers/postflop-river.md: pot 100, stack 200, bets 50%, raises 2.5x.
REFERENCE_TEXT = (
    "X-X, X-B50-F, X-B50-C, X-B50-R125-F, X-B50-R125-C, X-B50-R125-AI200-F, X-B50-R125-AI200-C, "
    "B50-F, B50-C, B50-R125-F, B50-R125-C, B50-R125-AI200-F, B50-R125-AI200-C")
REFERENCE_LINES = REFERENCE_TEXT.split(", ")
OOP_COMBOS, IP_COMBOS = 208, 239


@pytest.fixture(scope="module")
def reference():
    return bet_tree(100, 200, "50%", "2.5x")


def test_the_reference_spot_has_the_references_13_lines_in_order(reference):
    assert list(reference.lines) == REFERENCE_LINES
    assert ", ".join(reference.lines) == REFERENCE_TEXT  # as the reference writes them
    assert len(reference.decision_nodes()) == 8 and len(reference.terminal_nodes()) == 13
    oop, ip = len(reference.decision_nodes(OOP)), len(reference.decision_nodes(IP))
    assert oop * OOP_COMBOS + ip * IP_COMBOS == 1788  # the reference's information sets


def test_the_reference_spots_amounts_pots_and_outcomes(reference):
    node = reference.nodes[reference.index("B50-R125")]
    assert node.player == OOP and node.actions == ("F", "C", "AI200")
    assert node.contributions == (50, 125) and node.pot == 275
    outcomes = {n.line: (n.folder, n.contributions, n.pot) for n in reference.nodes if n.terminal}
    assert outcomes["X-X"] == (None, (0, 0), 100)
    assert outcomes["X-B50-F"] == (OOP, (0, 50), 150)
    assert outcomes["X-B50-R125-F"] == (IP, (125, 50), 275)
    assert outcomes["B50-R125-AI200-F"] == (IP, (200, 125), 425)
    assert outcomes["B50-R125-AI200-C"] == (None, (200, 200), 500)
    root = reference.nodes[0]
    assert root.line == "" and root.player == OOP and root.actions == ("X", "B50")
    assert [reference.nodes[c].line for c in root.children] == ["X", "B50"]


def test_the_tree_prints_one_line_per_terminal_in_order(reference):
    text = str(reference)
    rows = text.splitlines()
    assert rows[0] == ("river bet tree: pot 100, stack 200, bets 50%, raises 2.5x "
                       "(8 decision nodes, 13 terminal)")
    assert [row.split()[0] for row in rows[1:]] == REFERENCE_LINES
    assert "X-B50-F             OOP folds  in: OOP 0, IP 50; pot 150" in text


def test_the_wide_tree_has_the_decision_nodes_its_information_set_count_implies():
    # postflop-river.md: "wide" (bets 50%, 100%, all-in; raise 2.5x) has 3,129 information sets
    # for 208 + 239 combos; 3,129 = a * 208 + b * 239 has one solution in whole numbers.
    solutions = [(a, b) for b in range(3129 // IP_COMBOS + 1)
                 for a, rest in [divmod(3129 - b * IP_COMBOS, OOP_COMBOS)] if rest == 0]
    assert solutions == [(7, 7)]
    wide = bet_tree(100, 200, "50%, 100%, a", "2.5x")
    assert (len(wide.decision_nodes(OOP)), len(wide.decision_nodes(IP))) == solutions[0]
    assert wide.nodes[0].actions == ("X", "B50", "B100", "AI200")
    assert wide.nodes[wide.index("B100")].actions == ("F", "C", "AI200")  # 2.5 x 100 > 200
    assert wide.nodes[wide.index("AI200")].actions == ("F", "C")


def test_sizes_reaching_the_stack_become_one_all_in():
    tree = bet_tree(100, 200, "50%, 50%, 100%, 200%, 300%, a")
    assert tree.nodes[0].actions == ("X", "B50", "B100", "AI200")
    assert tree.nodes[tree.index("B50")].actions == ("F", "C")  # no raise sizes: no raising


def test_a_percentage_raise_is_a_share_of_the_pot_after_calling():
    tree = bet_tree(100, 1000, "50%", "100%")  # facing 50 into 100: call 50, raise 200 more
    assert tree.nodes[tree.index("B50")].actions == ("F", "C", "R250")
    assert tree.nodes[tree.index("B50-R250")].actions == ("F", "C", "R850")  # 250 + 600


def test_amounts_are_rounded_to_the_cent():
    tree = bet_tree(100, 1000, "33.333%", "1.3x")
    assert tree.nodes[0].actions == ("X", "B33.33")
    assert tree.nodes[tree.index("B33.33")].actions == ("F", "C", "R43.33")  # 43.329


def test_parse_sizes_reads_sizes_as_players_write_them():
    assert parse_sizes("50%, 33%, a", "bet") == (BetSize("pot", 0.5), BetSize("pot", 0.33),
                                                  BetSize("allin"))
    assert parse_sizes(["2.5X", " All-In ", "allin", "100 %"], "raise") == (
        BetSize("multiple", 2.5), BetSize("allin"), BetSize("allin"), BetSize("pot", 1.0))
    assert parse_sizes([BetSize("pot", 0.75)], "bet") == (BetSize("pot", 0.75),)
    assert parse_sizes("", "raise") == () and parse_sizes([], "raise") == ()
    assert [str(s) for s in parse_sizes("50%, 2.5x, a", "raise")] == ["50%", "2.5x", "a"]


@pytest.mark.parametrize(("sizes", "kind", "message"), [
    ("50%, abc", "bet", "bet size 2 ('abc') of '50%, abc' is not a size: write a percentage "
                        "of the pot ('50%'), a multiple of the bet faced ('2.5x', raises only) "
                        "or all-in ('a')"),
    ("50%,,a", "bet", "bet size 2 ('') of '50%,,a' is not a size"),
    ("50", "bet", "bet size 1 ('50') of '50' is not a size"),
    ("nan%", "raise", "raise size 1 ('nan%') of 'nan%' is not a size"),
    ("0%", "bet", "bet size 1 ('0%') of '0%': a percentage of the pot must be > 0%"),
    ("50%, -5%", "raise", "raise size 2 ('-5%') of '50%, -5%': a percentage of the pot must be"),
    ("1x", "raise", "raise size 1 ('1x') of '1x': a raise must be a multiple > 1 of the bet "
                    "faced (e.g. '2.5x')"),
    ("a, 0.5x", "raise", "raise size 2 ('0.5x') of 'a, 0.5x': a raise must be a multiple > 1"),
    ("2.5x", "bet", "bet size 1 ('2.5x') of '2.5x': a multiple of the bet faced is a raise "
                    "size, and the first bet faces none"),
    (["50%", 0.5], "bet", "bet size 2 (0.5) of ['50%', 0.5] is not text"),
    (0.5, "bet", "the bet sizes must be text such as '50%, a' or a list of sizes, got 0.5"),
    ("", "bet", "the bet sizes are empty: give at least one, e.g. '50%' or '33%, a'"),
    ([], "bet", "the bet sizes are empty"),
    ("50%", "check", "kind must be 'bet' or 'raise', got 'check'"),
])
def test_bad_sizes_are_refused_by_name(sizes, kind, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_sizes(sizes, kind)


@pytest.mark.parametrize("name", ["pot", "stack"])
@pytest.mark.parametrize("value", [0, -100, float("nan"), float("inf"), "100", True, None])
def test_a_pot_or_stack_that_is_not_a_positive_number_is_refused(name, value):
    chips = {"pot": 100, "stack": 200, name: value}
    with pytest.raises(ValueError, match=re.escape(
            f"{name} must be a finite number of chips > 0, got {value!r}")):
        bet_tree(chips["pot"], chips["stack"], "50%", "2.5x")


def test_bad_sizes_are_refused_by_the_tree_too():
    with pytest.raises(ValueError, match=re.escape("raise size 1 ('2.5') of '2.5' is not a")):
        bet_tree(100, 200, "50%", "2.5")
    with pytest.raises(ValueError, match="the bet sizes are empty"):
        bet_tree(100, 200, "")


def test_an_exploding_tree_is_refused():
    with pytest.raises(ValueError, match=re.escape(
            f"the bet tree of bets '50%' and raises '1.01x, 1.02x' passes {MAX_NODES:,} nodes")):
        bet_tree(100, 200, "50%", "1.01x, 1.02x")


def test_an_unknown_line_is_refused_with_the_lines(reference):
    with pytest.raises(ValueError, match=re.escape("no line 'B60' in this bet tree; its lines "
                                                   "are X-X, X-B50-F")):
        reference.index("B60")


# ---- invariants on random spots ----------------------------------------------------------------
# Raises at least double what they face, and stacks are at most 10 pots, so trees stay small.
percent = st.floats(10, 400).map(lambda p: f"{p:.2f}%")
bet_lists = st.lists(st.one_of(percent, st.just("a")), min_size=1, max_size=3)
raise_lists = st.lists(st.one_of(st.floats(2, 5).map(lambda m: f"{m:.2f}x"),
                                 st.floats(50, 200).map(lambda p: f"{p:.2f}%"), st.just("a")),
                       max_size=2)


@settings(max_examples=80, deadline=None)
@given(pot=st.floats(1, 1000), stacks=st.floats(0.05, 10), bets=bet_lists, raises=raise_lists)
def test_the_tree_invariants(pot, stacks, bets, raises):
    stack = pot * stacks
    tree = bet_tree(pot, stack, bets, raises)
    assert tree.nodes[0].player == OOP and tree.nodes[0].parent == -1
    for i, node in enumerate(tree.nodes):
        assert all(0 <= c <= stack for c in node.contributions)  # never past the stack
        assert node.pot == pytest.approx(pot + sum(node.contributions))
        assert node.terminal == (node.line == "X-X" or node.line.endswith(("F", "C")))
        assert node.terminal == (node.player == TERMINAL) == (not node.actions)
        if node.terminal:
            assert (node.folder is not None) == node.line.endswith("F")
            continue
        assert len(node.actions) >= 2 and len(set(node.actions)) == len(node.actions)
        facing = node.contributions[1 - node.player]
        if facing == stack:  # facing the all-in: fold or call only
            assert node.actions == ("F", "C")
        for action, c in zip(node.actions, node.children):
            child = tree.nodes[c]
            assert child.parent == i < c and child.line == (f"{node.line}-{action}".lstrip("-"))
            mine = child.contributions[node.player]
            if action == "C":  # a call equalises the contributions
                assert child.contributions == (facing, facing)
            elif action in ("X", "F"):
                assert child.contributions == node.contributions
                assert child.folder == (node.player if action == "F" else None)
            else:  # a bet or raise puts in more than it faces, the all-in exactly the stack
                assert mine > facing and action.startswith("AI") == (mine == stack)
                assert child.player == 1 - node.player
