"""Lesson 07 checker: accepts the order by nodes touched, explains the typical wrong ones, never
raises."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson07 as ex

JUNK = ["", "cfr", 3, 2.5, {"a": 1}, object(), [None, None], np.zeros((2, 2)), [np.nan] * 3,
        ["cfr"] * 4, [1, 2, 3, 4]]


FEWEST_RIGHT = {
    "list": list(ex.FEWEST_FIRST),
    "aliases in a tuple": ("Outcome", "external sampling", "chance-sampling", "CFR"),
    "a numpy array of names": np.array(ex.FEWEST_FIRST),
    "the solution": run_solution("07_fewest_nodes.py")["my_order"],
}


@pytest.mark.parametrize("form", FEWEST_RIGHT)
def test_fewest_nodes_accepts_the_order_and_aliases(form):
    assert ex.check_fewest_nodes(FEWEST_RIGHT[form]).status == CORRECT


def test_fewest_nodes_not_done():
    assert ex.check_fewest_nodes(None).status == NOT_DONE


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


@pytest.mark.parametrize("junk", JUNK, ids=stable_id)
def test_junk_never_raises(junk):
    feedback = ex.check_fewest_nodes(junk)
    assert feedback.status in (WRONG, NOT_DONE)
    assert feedback.message


@pytest.mark.parametrize("answer", [
    ["cfr", "chance_sampling", "external_sampling", "outcome_sampling"],
    ["outcome_sampling", "chance_sampling", "external_sampling", "cfr"],
    ["external_sampling", "outcome_sampling", "chance_sampling", "cfr"],
    ["cfr", "outcome_sampling", "external_sampling", "chance_sampling"],
    ["chance_sampling", "outcome_sampling", "external_sampling", "cfr"],
])
def test_a_wrong_order_is_not_told_the_measurement(answer):
    """A checker never prints the answer to a wrong attempt: no measured nodes per iteration."""
    feedback = ex.check_fewest_nodes(answer)
    measured = ex._measured()
    assert feedback.status == WRONG
    assert "Measured" not in feedback.message
    assert not any(f"{n:,.0f}" in feedback.message for n in measured.values()), feedback
