"""Lesson 10 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson10 as ex

JUNK = ["", "288x", {"a": 1}, object(), [288], np.zeros(2), np.nan, np.inf, True, 3.5, -1]


def test_the_count_is_the_tree_s(leduc):
    assert ex.leduc_infosets() == leduc.num_infosets == 288


INFOSETS_RIGHT = {"int": 288, "float": 288.0, "numpy int": np.int64(288),
                  "the solution": run_solution("10_leduc_infosets.py")["my_count"]}


@pytest.mark.parametrize("form", INFOSETS_RIGHT)
def test_leduc_infosets(form):
    assert ex.check_leduc_infosets(INFOSETS_RIGHT[form]).status == CORRECT


def test_leduc_infosets_not_done():
    assert ex.check_leduc_infosets(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    (936, "suits"), (1936, "nodes"), (270, "only-round-two"), (18, "only-round-one"),
    (108, "public-card"), (72, "round-one-history"), (144, "one-player"), ("288", "shape"),
    (300, None),
])
def test_leduc_infoset_mistakes_are_explained(answer, mistake):
    feedback = ex.check_leduc_infosets(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_tournament_values_match_head_to_head_and_the_answer():
    values = ex.tournament_values()
    assert set(values) == set(ex.BOT_NAMES)
    assert max(values, key=values.get) == "uniform_random"
    assert all(v > 0 for v in values.values())  # the trained strategy beats every archetype


EXPLOITED_RIGHT = {"the name": "uniform_random", "spaces and capitals": " Uniform Random ",
                   "hyphens": "uniform-random",
                   "the solution": run_solution("10_most_exploited.py")["my_pick"]}


@pytest.mark.parametrize("form", EXPLOITED_RIGHT)
def test_most_exploited(form):
    assert ex.check_most_exploited(EXPLOITED_RIGHT[form]).status == CORRECT


def test_most_exploited_not_done():
    assert ex.check_most_exploited(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ("always_raise", "maniac"), ("strong_hands", "tight"), ("always_call", "station"),
    ("cfr", "names"), (3, "names"),
])
def test_most_exploited_mistakes_are_explained(answer, mistake):
    feedback = ex.check_most_exploited(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_junk_never_raises(junk):
    for checker in (ex.check_leduc_infosets, ex.check_most_exploited):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message


# --- exercise 3: the LP's memory budget -------------------------------------------------------

FIT = {"exponent": 1.2, "factor": 0.004}
RIGHT = (16_000 / 0.004) ** (1 / 1.2)


BUDGET_RIGHT = {
    "exact": lambda: RIGHT,
    "a rounded hand calculation": lambda: RIGHT * 1.05,
    "numpy": lambda: np.float64(RIGHT),
    "the solution": lambda: run_solution("10_lp_budget.py", **FIT)["my_sequences"],
}


def test_sequences_within_solves_the_fit():
    assert ex.sequences_within(16_000, **FIT) == pytest.approx(RIGHT)


@pytest.mark.parametrize("form", BUDGET_RIGHT)
def test_lp_budget(form):
    assert ex.check_lp_budget(BUDGET_RIGHT[form](), **FIT).status == CORRECT


def test_lp_budget_not_done():
    assert ex.check_lp_budget(None, **FIT).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ((16 / 0.004) ** (1 / 1.2), "units"),           # the budget in GB against a fit in MB
    ((16e9 / 0.004) ** (1 / 1.2), "units"),         # ... or in bytes
    ((16_000 / 0.004) ** 1.2, "root"),
    (16_000 / 0.004, "linear"),
    (2 * RIGHT, "both-players"),
    (-5, "shape"), ("a lot", "shape"),
    (RIGHT / 3, None),
])
def test_lp_budget_mistakes_are_explained(answer, mistake):
    feedback = ex.check_lp_budget(answer, **FIT)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("fit", [{"exponent": None, "factor": 0.004},
                                 {"exponent": 1.2, "factor": -1}, {"exponent": "x", "factor": 1}])
def test_lp_budget_without_a_fit(fit):
    feedback = ex.check_lp_budget(RIGHT, **fit)
    assert feedback.status == WRONG and feedback.mistake == "no-fit"


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_lp_budget_junk_never_raises(junk):
    feedback = ex.check_lp_budget(junk, **FIT)
    assert feedback.status in (WRONG, NOT_DONE) and feedback.message
