"""Lesson 07 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson07 as ex

JUNK = ["", "fast", 3, {"a": 1}, object(), [None] * 3, np.zeros((2, 2)), [np.nan] * 3,
        ["cfr"] * 4, [1, 2, 3, 4], [np.inf, 0, 0]]




def test_dcfr_discounts():
    assert ex.check_dcfr_discounts(None).status == NOT_DONE
    assert ex.check_dcfr_discounts([8 / 9, 1 / 2, 16 / 25]).status == CORRECT
    assert ex.check_dcfr_discounts((0.889, 0.5, 0.64)).correct
    assert ex.check_dcfr_discounts(run_solution("07_dcfr_discounts.py")["my_factors"]).correct


@pytest.mark.parametrize("answer, mistake", [
    ([1 / 2, 8 / 9, 16 / 25], "swapped"),
    ([5**1.5 / (5**1.5 + 1), 1 / 2, (5 / 6) ** 2], "next-iteration"),
    ([8 / 9, 1 / 2, 4 / 5], "gamma-power"),
    ([8 / 9, 1 / 2, 16 / 17], "average-formula"),
    ([8 / 9, 0, 16 / 25], "cfr-plus"),
    ([8, 1, 16], "not-a-factor"),
    ([8 / 9, 1 / 2], "shape"),
])
def test_dcfr_discount_mistakes_are_explained(answer, mistake):
    feedback = ex.check_dcfr_discounts(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_race_is_what_the_lesson_says():
    results = ex.race()
    assert sorted(results, key=results.get) == ["dcfr", "cfr+", "linear_cfr", "cfr"]


def test_variant_ranking_accepts_the_truth_in_any_spelling():
    assert ex.check_variant_ranking(None).status == NOT_DONE
    assert ex.check_variant_ranking(["dcfr", "cfr+", "linear_cfr", "cfr"]).correct
    assert ex.check_variant_ranking(("DCFR", "CFR+", "linear", "vanilla")).correct
    assert ex.check_variant_ranking("discounted").correct  # a single name: the lowest
    assert ex.check_variant_ranking(run_solution("07_variant_ranking.py")["my_ranking"]).correct


@pytest.mark.parametrize("answer, mistake", [
    (["cfr", "linear_cfr", "cfr+", "dcfr"], "vanilla-best"),
    (["linear_cfr", "dcfr", "cfr+", "cfr"], "linear-best"),
    (["cfr+", "dcfr", "linear_cfr", "cfr"], "plus-vs-dcfr"),
    ("cfr+", "plus-vs-dcfr"),
    ("cfr", "vanilla-best"),
    (["dcfr", "linear_cfr", "cfr+", "cfr"], "linear-vs-plus"),
    (["dcfr", "cfr+", "cfr", "linear_cfr"], "partly"),
    (["dcfr", "cfr+", "cfr"], "names"),
    ("fast", "names"),
])
def test_variant_ranking_mistakes_are_explained(answer, mistake):
    feedback = ex.check_variant_ranking(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert "Measured" in feedback.message or mistake == "names"


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_never_raises(junk):
    for checker in (ex.check_dcfr_discounts, ex.check_variant_ranking):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message
