import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import cfrviz
from cfrviz.analysis.evaluation import matrix_exploitability

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


def test_rock_paper_scissors_is_uniform_with_value_zero():
    eq = cfrviz.matrix_equilibrium(RPS)
    assert np.allclose(eq.row, [1 / 3] * 3, atol=1e-12)
    assert np.allclose(eq.col, [1 / 3] * 3, atol=1e-12)
    assert abs(eq.value) < 1e-12


def test_variant_where_scissors_wins_and_loses_two():
    eq = cfrviz.matrix_equilibrium(VARIANT)
    assert np.allclose(eq.row, [0.4, 0.4, 0.2], atol=1e-12)
    assert np.allclose(eq.col, [0.4, 0.4, 0.2], atol=1e-12)
    assert abs(eq.value) < 1e-12


def test_saddle_point_and_asymmetric_values():
    # Row 1 dominates; column 0 is the column player's best reply: value 2.
    eq = cfrviz.matrix_equilibrium([[1, 3, 4], [2, 5, 3], [0, 6, 1]])
    assert np.allclose(eq.row, [0, 1, 0]) and np.allclose(eq.col, [1, 0, 0])
    assert np.isclose(eq.value, 2.0)
    # Biased matching pennies, by hand: 2x - (1 - x) = -x + (1 - x) gives x = 2/5 and
    # value 1/5; the column player's indifference gives y = 2/5 as well.
    eq = cfrviz.matrix_equilibrium([[2, -1], [-1, 1]])
    assert np.allclose(eq.row, [0.4, 0.6]) and np.allclose(eq.col, [0.4, 0.6])
    assert np.isclose(eq.value, 0.2)


def test_degenerate_games_return_an_equilibrium():
    # Every strategy is optimal in a matrix of zeros, either column in [[1, 1], [2, 2]], and
    # a whole segment of column mixes in the third game: the solver's vertex is one of many.
    for payoffs in (np.zeros((3, 3)), [[1, 1], [2, 2]], [[1, 2, 1], [0, 3, 1]]):
        eq = cfrviz.matrix_equilibrium(payoffs)
        assert np.isclose(eq.row.sum(), 1) and np.isclose(eq.col.sum(), 1)
        assert matrix_exploitability(np.asarray(payoffs, float), eq.row, eq.col) < 1e-12
    assert cfrviz.matrix_equilibrium(np.zeros((3, 3))).value == 0


@settings(max_examples=150, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 4), st.integers(1, 4)),
              elements=st.integers(-5, 5).map(float)))
def test_any_small_game_result_is_an_equilibrium(payoffs):
    eq = cfrviz.matrix_equilibrium(payoffs)
    assert np.isclose(eq.row.sum(), 1) and np.isclose(eq.col.sum(), 1)
    assert np.all(eq.row >= 0) and np.all(eq.col >= 0)
    # Independent check: no pure deviation gains anything, and the value is x A y.
    assert matrix_exploitability(payoffs, eq.row, eq.col) < 1e-9
    assert np.isclose(eq.row @ payoffs @ eq.col, eq.value, atol=1e-9)


def test_large_matrices_are_solved():
    # No size limit: a 60 x 40 game, checked by its exploitability and the value x A y.
    payoffs = np.random.default_rng(1).integers(-20, 21, size=(60, 40)).astype(float)
    eq = cfrviz.matrix_equilibrium(payoffs)
    assert matrix_exploitability(payoffs, eq.row, eq.col) < 1e-9
    assert np.isclose(eq.row @ payoffs @ eq.col, eq.value, atol=1e-9)


def test_empty_matrix_is_refused():
    with pytest.raises(ValueError, match=r"at least 1x1 \(one row and one column\); got shape "
                                         r"\(0, 3\)"):
        cfrviz.matrix_equilibrium(np.zeros((0, 3)))
