"""Lesson 06 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson06 as ex

JUNK = ["", "cfr", 3, 2.5, {"a": 1}, object(), [None, None], np.zeros((2, 2)), [np.nan] * 3,
        ["cfr"] * 4, [1, 2, 3, 4]]




def test_fewest_nodes_accepts_the_order_and_aliases():
    assert ex.check_fewest_nodes(None).status == NOT_DONE
    assert ex.check_fewest_nodes(list(ex.FEWEST_FIRST)).status == CORRECT
    assert ex.check_fewest_nodes(("Outcome", "external sampling", "chance-sampling", "CFR")).correct
    assert ex.check_fewest_nodes(run_solution("06_fewest_nodes.py")["my_order"]).correct


def test_the_checker_agrees_with_the_engine():
    measured = ex._measured()
    assert sorted(measured, key=measured.get) == list(ex.FEWEST_FIRST)


@pytest.mark.parametrize("answer, mistake", [
    (["cfr", "chance_sampling", "external_sampling", "outcome_sampling"], "reversed"),
    (["outcome_sampling", "chance_sampling", "external_sampling", "cfr"], "chance-vs-external"),
    (["external_sampling", "outcome_sampling", "chance_sampling", "cfr"], "outcome-vs-external"),
    (["cfr", "outcome_sampling", "external_sampling", "chance_sampling"], "cfr-not-last"),
    (["outcome_sampling", "external_sampling", "cfr"], "names"),
    (["outcome_sampling", "external_sampling", "chance_sampling", "cfr+"], "names"),
    ("outcome_sampling", "shape"),
])
def test_fewest_nodes_mistakes_are_explained(answer, mistake):
    feedback = ex.check_fewest_nodes(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


def test_importance_weights():
    assert ex.check_importance_weights(None).status == NOT_DONE
    assert ex.check_importance_weights([2 / 3, 4 / 3, 4 / 3]).correct
    assert ex.check_importance_weights(np.array([0.6667, 1.3333, 1.3333])).correct
    solution = run_solution("06_importance_weights.py")
    assert ex.check_importance_weights(solution["my_weights"]).correct


@pytest.mark.parametrize("answer, mistake", [
    ([1, 1, 1], "no-correction"),
    ([1.5, 0.75, 0.75], "inverted"),
    ([2, 4, 4], "one-over-q"),
    ([1 / 3, 1 / 3, 1 / 3], "only-p"),
    ([1, 2], "shape"),
    ("2/3, 4/3, 4/3", "shape"),
])
def test_importance_weight_mistakes_are_explained(answer, mistake):
    feedback = ex.check_importance_weights(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_never_raises(junk):
    for checker in (ex.check_fewest_nodes, ex.check_importance_weights):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message
