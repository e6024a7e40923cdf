import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.games.matrix import RPS_PAYOFFS, MatrixGame

VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


def test_standard_rock_paper_scissors():
    game = cfrviz.load_game("rock_paper_scissors")
    assert game.payoffs.tolist() == [list(map(float, row)) for row in RPS_PAYOFFS]
    assert game.infoset_keys == ("P1", "P2")
    assert game.infoset_actions == (("R", "P", "S"), ("R", "P", "S"))
    assert game.legal_mask.all()


def test_payoffs_can_be_changed_and_are_read_only():
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    assert game.payoffs[2, 1] == 2.0
    with pytest.raises(ValueError):
        game.payoffs[0, 0] = 5.0


def test_payoffs_are_copied():
    source = np.array(VARIANT, dtype=float)
    game = cfrviz.load_game("rock_paper_scissors", payoffs=source)
    source[0, 0] = 99
    assert game.payoffs[0, 0] == 0


@pytest.mark.parametrize("payoffs, words", [
    ([[0, 1], [1, 0]], ["2 rows", "3x3"]),
    ([[0, -1, 1], [1, 0], [-1, 1, 0]], ["row 1 (P)", "2 entries"]),
    ([[0, -1, 1], [1, math.nan, -1], [-1, 1, 0]], ["cell [1][1]", "P1 P vs P2 P", "finite"]),
    ([[0, -1, 1], [1, 0, -1], [-1, math.inf, 0]], ["cell [2][1]", "finite"]),
    ([[0, -1, "1"], [1, 0, -1], [-1, 1, 0]], ["cell [0][2]", "real numbers"]),
    ([[0, -1, 1], [1, 0, None], [-1, 1, 0]], ["cell [1][2]", "None"]),
    ([[True, -1, 1], [1, 0, -1], [-1, 1, 0]], ["cell [0][0]"]),
    ("rock", ["3x3 payoff matrix"]),
    (np.zeros(9), ["shape (9,)"]),
])
def test_bad_payoffs_say_what_and_where(payoffs, words):
    with pytest.raises(ValueError) as error:
        cfrviz.load_game("rock_paper_scissors", payoffs=payoffs)
    for word in words:
        assert word in str(error.value)


BEYOND_A_FLOAT = st.one_of(
    st.integers(min_value=2**1024, max_value=10**600),
    st.integers(min_value=2**1024, max_value=10**600).map(lambda n: -n),
    st.integers(min_value=2**1024, max_value=10**600).map(lambda n: Fraction(3 * n, 2)),
    st.sampled_from([math.inf, -math.inf, math.nan, np.float64("inf")]),
)


@settings(max_examples=60, deadline=None)
@given(value=BEYOND_A_FLOAT, i=st.integers(0, 2), j=st.integers(0, 2))
def test_a_payoff_no_float_holds_is_refused_naming_its_cell(value, i, j):
    payoffs = [list(map(float, row)) for row in RPS_PAYOFFS]
    payoffs[i][j] = value
    with pytest.raises(ValueError) as error:
        cfrviz.load_game("rock_paper_scissors", payoffs=payoffs)
    names = "RPS"
    assert str(error.value).startswith(f"payoff cell [{i}][{j}] (P1 {names[i]} vs P2 "
                                       f"{names[j]}) is ")
    assert "finite" in str(error.value) or "too large" in str(error.value)


def test_unknown_game_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown game 'rps'.*rock_paper_scissors"):
        cfrviz.load_game("rps")


def test_unknown_game_parameter():
    with pytest.raises(ValueError, match="no parameter 'payoff'.*payoffs"):
        cfrviz.load_game("rock_paper_scissors", payoff=VARIANT)


def test_matrix_game_as_a_tree():
    game = cfrviz.load_game("rock_paper_scissors")
    tree = game.tree
    assert tree is game.tree  # built once
    assert tree.name == game.name
    assert tree.infoset_keys == game.infoset_keys
    assert tree.infoset_actions == game.infoset_actions
    assert np.array_equal(tree.legal_mask, game.legal_mask)
    assert (tree.num_nodes, tree.player[0]) == (13, 0)
    # Player 2 decides at one information set that hides player 1's move.
    assert sorted(tree.history[n] for n in tree.infoset_members(1)) == ["P", "R", "S"]
    assert tree.utility[tree.history.index("S,P")].tolist() == [1.0, -1.0]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_matrix_tree_values_equal_the_matrix_game(m, n, seed):
    rng = np.random.default_rng(seed)
    game = MatrixGame("random", rng.integers(-5, 6, size=(m, n)),
                      tuple(f"a{i}" for i in range(m)), tuple(f"b{j}" for j in range(n)))
    probs = rng.random(game.legal_mask.shape) * game.legal_mask
    probs /= probs.sum(axis=1, keepdims=True)
    as_matrix, as_tree = cfrviz.Policy(game, probs), cfrviz.Policy(game.tree, probs)
    assert cfrviz.expected_values(game.tree, as_tree) == pytest.approx(
        cfrviz.expected_values(game, as_matrix), abs=1e-12)
    assert cfrviz.exploitability(game.tree, as_tree) == pytest.approx(
        cfrviz.exploitability(game, as_matrix), abs=1e-12)
    # The policy arrays are interchangeable: a matrix policy evaluates on the tree.
    assert cfrviz.exploitability(game.tree, as_matrix) == pytest.approx(
        cfrviz.exploitability(game, as_matrix), abs=1e-12)
