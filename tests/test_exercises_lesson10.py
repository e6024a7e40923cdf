"""Lesson 10 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson10 as ex

RIGHT = {"Cepheus": "C", "DeepStack": "E", "Libratus": "B", "Pluribus": "A", "Deep CFR": "D"}
IN_ORDER = {"Cepheus": "A", "DeepStack": "B", "Libratus": "C", "Pluribus": "D", "Deep CFR": "E"}
JUNK = ["", "A", 3, [1, 2], object(), np.zeros(3), np.nan, np.inf, -5, True,
        {"Cepheus": 1}, {"Nobody": "A"}, {"Cepheus": "Z"}]


def test_milestones():
    assert ex.check_milestones(None).status == NOT_DONE
    assert ex.check_milestones(dict.fromkeys(RIGHT)).status == NOT_DONE  # the starter cell
    assert ex.check_milestones({"Cepheus": "A"}).status == NOT_DONE
    assert ex.check_milestones(RIGHT).status == CORRECT
    assert ex.check_milestones({"cepheus": "c", "deepstack": "e", "LIBRATUS": "b",
                                "pluribus": "a", "deep-cfr": "d"}).correct
    assert ex.check_milestones(run_solution("10_milestones.py")["my_matches"]).correct


def test_the_answer_is_not_the_order_of_the_list():
    # Reading the letters off in turn must match no program, and is named as a mistake.
    assert list(RIGHT) == list(ex.SYSTEMS) and RIGHT == ex.MATCH
    assert all(RIGHT[system] != letter for system, letter in IN_ORDER.items())
    assert IN_ORDER == ex.IN_ORDER
    feedback = ex.check_milestones(IN_ORDER)
    assert feedback.status == WRONG and feedback.mistake == "in-order", feedback
    assert "order" in feedback.message
    lower = {system.lower(): letter.lower() for system, letter in IN_ORDER.items()}
    assert ex.check_milestones(lower).mistake == "in-order"


def test_every_idea_is_used_once():
    assert sorted(ex.MATCH.values()) == sorted(ex.IDEAS)


@pytest.mark.parametrize("changes, mistake", [
    ({"DeepStack": "B", "Libratus": "E"}, "deepstack-libratus"),
    ({"DeepStack": "D", "Deep CFR": "E"}, "deepstack-deepcfr"),
    ({"Libratus": "A", "Pluribus": "B"}, "libratus-pluribus"),
    ({"Cepheus": "B", "Libratus": "C"}, "cepheus"),
    ({"Pluribus": "D", "Deep CFR": "A"}, None),
    ({"Cepheus": "A"}, "cepheus"),  # one letter of the in-order answer is not that mistake
])
def test_milestone_mistakes_are_explained(changes, mistake):
    feedback = ex.check_milestones({**RIGHT, **changes})
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


def test_hulhe_memory():
    assert ex.check_hulhe_memory(None).status == NOT_DONE
    assert ex.hulhe_terabytes() == pytest.approx(15_312)
    assert ex.check_hulhe_memory(15_312).correct
    assert ex.check_hulhe_memory(15_000).correct  # within 5%
    assert ex.check_hulhe_memory(run_solution("10_hulhe_memory.py")["my_terabytes"]).correct


@pytest.mark.parametrize("answer, mistake", [
    (7_656, "one-table"), (5_104, "per-set"), (1.53e16, "units"), (15.3, "units"),
    (122_496, "bits-bytes"), (-3, "shape"), ("15312", "shape"),
])
def test_hulhe_memory_mistakes_are_explained(answer, mistake):
    feedback = ex.check_hulhe_memory(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_never_raises(junk):
    for checker in (ex.check_milestones, ex.check_hulhe_memory):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message
