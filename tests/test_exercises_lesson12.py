"""Lesson 12 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson12 as ex

RIGHT = {"Cepheus": "C", "DeepStack": "E", "Libratus": "B", "Pluribus": "A", "Deep CFR": "D"}
IN_ORDER = {"Cepheus": "A", "DeepStack": "B", "Libratus": "C", "Pluribus": "D", "Deep CFR": "E"}
JUNK = ["", "A", 3, [1, 2], object(), np.zeros(3), np.nan, np.inf, -5, True,
        {"Cepheus": 1}, {"Nobody": "A"}, {"Cepheus": "Z"}]


MILESTONES_RIGHT = {
    "the dict": RIGHT,
    "any spelling": {"cepheus": "c", "deepstack": "e", "LIBRATUS": "b", "pluribus": "a",
                     "deep-cfr": "d"},
    "in another order, with spaces": {" Deep CFR ": " D", "Pluribus": "A", "Libratus": "B",
                                      "DeepStack": "E", "Cepheus": "C"},
    "the solution": run_solution("12_milestones.py")["my_matches"],
}


@pytest.mark.parametrize("form", MILESTONES_RIGHT)
def test_milestones(form):
    assert ex.check_milestones(MILESTONES_RIGHT[form]).status == CORRECT


def test_milestones_not_done():
    assert ex.check_milestones(None).status == NOT_DONE
    assert ex.check_milestones(dict.fromkeys(RIGHT)).status == NOT_DONE  # the starter cell
    assert ex.check_milestones({"Cepheus": "A"}).status == NOT_DONE


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


MEMORY_RIGHT = {"exact": 15_312, "within 5%": 15_000, "numpy": np.float64(1.5312e4),
                "the solution": run_solution("12_hulhe_memory.py")["my_terabytes"]}


def test_hulhe_terabytes():
    assert ex.hulhe_terabytes() == pytest.approx(15_312)


@pytest.mark.parametrize("form", MEMORY_RIGHT)
def test_hulhe_memory(form):
    assert ex.check_hulhe_memory(MEMORY_RIGHT[form]).status == CORRECT


def test_hulhe_memory_not_done():
    assert ex.check_hulhe_memory(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    (7_656, "one-table"), (5_104, "per-set"), (1.53e16, "units"), (15.3, "units"),
    (122_496, "bits-bytes"), (-3, "shape"), ("15312", "shape"), (1_000, None),
])
def test_hulhe_memory_mistakes_are_explained(answer, mistake):
    feedback = ex.check_hulhe_memory(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("junk", JUNK, ids=stable_id)
def test_junk_never_raises(junk):
    for checker in (ex.check_milestones, ex.check_hulhe_memory):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message
