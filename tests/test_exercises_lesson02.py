"""Lesson 02's checkers accept the right answers, explain typical mistakes and never raise on junk;
its helpers agree with the package's own computations."""

from fractions import Fraction

import numpy as np
import pytest
from _solutions import run_solution

import cfrviz
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson02 as ex

JUNK = [None, ..., "", "   ", 3, 2.5, [], {}, ["Qb"], ("Qb",), b"Qb", object(), float("nan"),
        np.array([1.0, 2.0]), True]


# --- exercise 1: which set -------------------------------------------------------------------

_SOLUTION = run_solution("02_which_set.py")
WHICH_SET_RIGHT = [("Qb", "KQ:b"), ("qb", "kq:b"), (" 'Qb' ", "KQb"), ("Q:b", "KQ:b"),
                   (_SOLUTION["my_key"], _SOLUTION["my_other_node"])]


@pytest.mark.parametrize("key, other", WHICH_SET_RIGHT)
def test_which_set_accepts_the_answer_and_its_spellings(key, other):
    assert ex.check_which_set(key, other).status == CORRECT


def test_which_set_unanswered_parts_are_not_done():
    assert ex.check_which_set(None, None).status == NOT_DONE
    half = ex.check_which_set("Qb", None)
    assert half.status == NOT_DONE and "my_other_node" in half.message


@pytest.mark.parametrize("key, mistake", [
    ("Jb", "other-card"),       # player 1's card instead of player 2's
    ("JQb", "both-cards"),      # a single node, not a set
    ("JQ:b", "both-cards"),
    ("Q", "no-history"),
    ("b", "no-card"),
    ("Kb", "other-set"),
    ("Qpb", "other-set"),
    ("Zz", "not-a-key"),
    (42, "not-a-key"),
])
def test_which_set_key_mistakes_are_explained(key, mistake):
    feedback = ex.check_which_set(key, "KQ:b")
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


@pytest.mark.parametrize("other, mistake", [
    ("JQ:b", "same-node"),
    ("QJ:b", "other-set"),    # player 2 holds J there
    ("JK:b", "other-set"),
    ("KQ:", "other-set"),     # player 1's node
    ("KQ:bb", "other-set"),   # a leaf
    ("xyz", "not-a-node"),
    (7, "not-a-node"),
])
def test_which_set_other_node_mistakes_are_explained(other, mistake):
    feedback = ex.check_which_set("Qb", other)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert "'Qb' is right" in feedback.message


def test_other_set_names_the_set_the_node_is_in():
    assert "'Jb'" in ex.check_which_set("Qb", "QJ:b").message


@pytest.mark.parametrize("junk", JUNK)
def test_which_set_never_raises_on_junk(junk):
    for args in ((junk, None), (junk, junk), ("Qb", junk)):
        feedback = ex.check_which_set(*args)
        assert feedback.status in (WRONG, NOT_DONE)


# --- exercise 2: reach -----------------------------------------------------------------------

REACH_RIGHT = {
    "exact": 1 / 24,
    "rounded": 0.0417,
    "read off the figure": 1 / 6 * 0.75 * 0.33,
    "numpy": np.float64(1 / 24),
    "a fraction": Fraction(1, 24),
    "the solution": run_solution("02_reach.py")["my_reach"],
}


@pytest.mark.parametrize("form", REACH_RIGHT)
def test_reach_accepts_the_exact_value_and_a_rounded_one(form):
    assert ex.check_reach(REACH_RIGHT[form]).status == CORRECT


def test_reach_not_done():
    assert ex.check_reach(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    (3 / 4 * 1 / 3, "forgot-chance"),
    (1 / 3 * 3 / 4 * 1 / 3, "chance-one-card"),
    (1 / 6 * 1 / 3, "left-out-own"),          # pi_{-1}: the next lesson's weight
    (1 / 6 * 3 / 4, "left-out-opponent"),
    (1 / 24 * 1 / 2, "one-step-too-far"),     # the call at the node multiplied in
    (3 / 4, "own-only"),
    (1 / 6 + 3 / 4 + 1 / 3, "sum-not-product"),
    ((1 / 6 + 3 / 4 + 1 / 3) / 3, "sum-not-product"),
    (24, "sum-not-product"),
    ("1/24", "not-a-number"),
    (0.3, None),
])
def test_reach_mistakes_are_explained(answer, mistake):
    feedback = ex.check_reach(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_reach_mistake_values_are_distinct():
    # Each recognised mistake must be told apart from the right answer and from the others
    # (the checker accepts answers within 3%).
    b = ex.reach_breakdown(ex._kuhn(), ex.REACH_POLICY, ex.REACH_NODE)
    values = [b.total, b.player1 * b.player2, b.player1 * b.player2 / 3, b.others(0), b.others(1),
              b.total / 2, b.player1]
    for i, x in enumerate(values):
        for y in values[i + 1:]:
            assert not np.isclose(x, y, rtol=0.07), (x, y)


@pytest.mark.parametrize("junk", JUNK)
def test_reach_never_raises_on_junk(junk):
    assert ex.check_reach(junk).status in (WRONG, NOT_DONE)


# --- helpers ---------------------------------------------------------------------------------

def test_reach_breakdown_matches_the_package_at_every_node(kuhn):
    rng = np.random.default_rng(0)
    probs = rng.dirichlet(np.ones(2), size=kuhn.num_infosets)
    policy = cfrviz.Policy(kuhn, probs)
    reach = reach_probabilities(kuhn, probs)
    for node in range(1, kuhn.num_nodes):
        b = ex.reach_breakdown(kuhn, policy, kuhn.history[node])
        assert np.allclose([b.player1, b.player2, b.chance], reach[:, node], rtol=0, atol=1e-15)
        assert np.isclose(b.total, reach[:, node].prod())


def test_reach_breakdown_of_the_exercise_node():
    b = ex.reach_breakdown(ex._kuhn(), ex.REACH_POLICY, ex.REACH_NODE)
    assert (b.player1, b.player2, b.chance) == pytest.approx((3 / 4, 1 / 3, 1 / 6))
    assert b.total == pytest.approx(1 / 24)
    text = str(b)
    assert "1/24" in text and "'Jp'" in text and "<pre>" in b._repr_html_()


def test_leaf_reach_sums_to_one_and_gives_the_expected_value(kuhn):
    policy = cfrviz.Policy.from_dict(kuhn, ex.REACH_POLICY)
    reach = reach_probabilities(kuhn, policy.probabilities)
    leaves = np.flatnonzero(kuhn.player == TERMINAL)
    leaf = reach[:, leaves].prod(axis=0)
    assert leaf.sum() == pytest.approx(1.0)
    assert leaf @ kuhn.utility[leaves, 0] == pytest.approx(cfrviz.expected_values(kuhn, policy)[0])


def test_reach_breakdown_refuses_bad_input(kuhn):
    with pytest.raises(ValueError, match="no node with history"):
        ex.reach_breakdown(kuhn, ex.REACH_POLICY, "QQ:pb")
    with pytest.raises(ValueError, match="shape"):
        ex.reach_breakdown(kuhn, np.ones((3, 2)), "QJ:pb")
