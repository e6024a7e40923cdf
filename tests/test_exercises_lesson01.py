"""Lesson 01's checkers, table by table: right answers in several forms are accepted, each
plausible wrong one gets its named mistake, and junk never raises.

Regret matching is checked by class of hole (issue 22 item 2): thresholds, rounding, a floored
sum and the max with 0 missing are rejected, and right code in four styles is accepted."""

import numpy as np
import pytest
from _solutions import as_cell, run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson01 as ex

# --- exercise 1: the regret vector ------------------------------------------------------------

REGRET_VECTOR_RIGHT = {
    "list": [0, 1, 2],
    "tuple of floats": (0.0, 1.0, 2.0),
    "numpy": np.array([0.0, 1.0, 2.0]),
    "the solution": run_solution("01_regret_vector.py")["my_regrets"],
}

REGRET_VECTOR_WRONG = [
    ([0, -1, -2], "sign"),
    ([-1, 0, 1], "payoff-not-regret"),
    ([1, 0, -1], "other-player"),
    ([0, 2, 1], "partly"),
    ([0, 1], "shape"),
    ("0, 1, 2", "shape"),
    ([5, 5, 5], None),
]


@pytest.mark.parametrize("form", REGRET_VECTOR_RIGHT)
def test_regret_vector_accepts(form):
    assert ex.check_regret_vector(REGRET_VECTOR_RIGHT[form]).status == CORRECT


@pytest.mark.parametrize("answer, mistake", REGRET_VECTOR_WRONG)
def test_regret_vector_names_the_mistake(answer, mistake):
    feedback = ex.check_regret_vector(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 30


def test_regret_vector_not_done():
    assert ex.check_regret_vector(None).status == NOT_DONE
    assert ex.check_regret_vector(...).status == NOT_DONE


# --- exercise 2: regret matching, as code -----------------------------------------------------

def good(regrets):
    positive = np.maximum(regrets, 0)
    return positive / positive.sum() if positive.sum() > 0 else np.ones(len(regrets)) / len(regrets)


MATCHING_RIGHT = {
    "pure python": '''
def my_regret_matching(cumulative_regrets):
    positive = [max(r, 0.0) for r in cumulative_regrets]
    total = sum(positive)
    if total > 0:
        return [p / total for p in positive]
    return [1 / len(positive)] * len(positive)
''',
    "numpy": '''
def my_regret_matching(cumulative_regrets):
    positive = np.clip(cumulative_regrets, 0, None)
    total = positive.sum()
    return positive / total if total > 0 else np.full(len(positive), 1 / len(positive))
''',
    "recursion": '''
def positive_sum(regrets):
    if not len(regrets):
        return 0.0
    return max(regrets[0], 0.0) + positive_sum(regrets[1:])

def my_regret_matching(cumulative_regrets):
    total = positive_sum(list(cumulative_regrets))
    n = len(cumulative_regrets)
    return [max(r, 0.0) / total if total > 0 else 1 / n for r in cumulative_regrets]
''',
    "iteration with a loop": '''
def my_regret_matching(cumulative_regrets):
    strategy = np.zeros(len(cumulative_regrets))
    total = 0.0
    for a, r in enumerate(cumulative_regrets):
        if r > 0:
            strategy[a] = r
            total += r
    if total == 0:
        strategy[:] = 1.0 / len(strategy)
    else:
        strategy /= total
    return strategy
''',
}

#: Plausible wrong code as a student writes it, and the mistake the checker names.
MATCHING_WRONG = {
    # A tolerance instead of > 0: tiny positive regrets are treated as none.
    "threshold": ('''
def my_regret_matching(cumulative_regrets):
    positive = np.where(cumulative_regrets > 1e-9, cumulative_regrets, 0.0)
    total = positive.sum()
    return positive / total if total > 0 else np.ones(len(positive)) / len(positive)
''', "threshold"),
    # Rounding the regrets first, to "clean up" float noise.
    "rounded regrets": ('''
def my_regret_matching(cumulative_regrets):
    positive = np.maximum(np.round(cumulative_regrets, 6), 0)
    total = positive.sum()
    return positive / total if total > 0 else np.ones(len(positive)) / len(positive)
''', "threshold"),
    # Guarding the division with max(sum, 1) instead of a test for zero.
    "floored sum": ('''
def my_regret_matching(cumulative_regrets):
    positive = [max(r, 0.0) for r in cumulative_regrets]
    if sum(positive) == 0:
        return [1 / len(positive)] * len(positive)
    return [p / max(sum(positive), 1.0) for p in positive]
''', "sum-floor"),
    # Normalising by the sum of absolute values.
    "absolute sum": ('''
def my_regret_matching(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0)
    total = np.abs(cumulative_regrets).sum()
    return positive / total if positive.sum() > 0 else np.ones(len(positive)) / len(positive)
''', "not-normalised"),
    # The max with 0 missing: negative regrets divided in.
    "no max with 0": ('''
def my_regret_matching(cumulative_regrets):
    total = sum(r for r in cumulative_regrets if r > 0)
    if total > 0:
        return [r / total for r in cumulative_regrets]
    return [1 / len(cumulative_regrets)] * len(cumulative_regrets)
''', "not-normalised"),
    # Clipping the caller's array in place (issue 29): np.asarray of a float array is that
    # array, so the caller's negative regrets become 0 (and exercise 4's loop then fails).
    "clipped in place": ('''
def my_regret_matching(cumulative_regrets):
    regrets = np.asarray(cumulative_regrets, dtype=float)
    regrets[regrets < 0] = 0
    total = regrets.sum()
    return regrets / total if total > 0 else np.ones(len(regrets)) / len(regrets)
''', "changes its input"),
    "clipped in place with out=": ('''
def my_regret_matching(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0, out=cumulative_regrets)
    total = positive.sum()
    return positive / total if total > 0 else np.ones(len(positive)) / len(positive)
''', "changes its input"),
    # The package's own regret matching, under another name (issue 29).
    "the package's": ('''
from cfrviz import regret_matching as rm

def my_regret_matching(cumulative_regrets):
    return rm(cumulative_regrets)
''', "calls the answer"),
    # A total-sum test: uniform whenever the regrets sum to 0 or less, positive ones or not.
    "sum test": ('''
def my_regret_matching(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0)
    if np.sum(cumulative_regrets) <= 0:
        return np.ones(len(positive)) / len(positive)
    return positive / positive.sum()
''', "threshold"),
}

#: The same, as one-line functions.
MATCHING_WRONG_LAMBDAS = [
    (lambda r: r / r.sum(), "negative-regrets"),                          # no clipping
    (lambda r: np.abs(r) / np.abs(r).sum(), "absolute"),
    (lambda r: np.maximum(r, 0) / np.maximum(r, 0).sum(), "nan-uniform"),  # 0/0 when none positive
    (lambda r: r["rock"], "crash"),
    (lambda r: np.zeros(len(r)) if np.all(r <= 0) else good(r), "zeros-not-uniform"),
    (lambda r: np.maximum(r, 0), "not-normalised"),
    (lambda _: None, "no-return"),
    (lambda _: "uniform", "shape"),
    (lambda r: good(r)[::-1], None),
]


@pytest.mark.parametrize("style", MATCHING_RIGHT)
def test_regret_matching_accepts_right_code_in_any_style(style):
    feedback = ex.check_regret_matching(as_cell(MATCHING_RIGHT[style])["my_regret_matching"])
    assert feedback.correct, (style, feedback.message)


@pytest.mark.parametrize("function", [good, lambda r: list(good(r)),
                                      run_solution("01_regret_matching.py")["my_regret_matching"]])
def test_regret_matching_accepts_lists_arrays_and_the_solution(function):
    assert ex.check_regret_matching(function).status == CORRECT


@pytest.mark.parametrize("name", MATCHING_WRONG)
def test_regret_matching_names_plausible_wrong_code(name):
    source, mistake = MATCHING_WRONG[name]
    feedback = ex.check_regret_matching(as_cell(source)["my_regret_matching"])
    assert feedback.status == WRONG and feedback.mistake == mistake, (name, feedback.message)


def test_changing_the_regrets_in_place_is_explained():
    source, _ = MATCHING_WRONG["clipped in place"]
    feedback = ex.check_regret_matching(as_cell(source)["my_regret_matching"])
    assert "cumulative_regrets" in feedback.message and "exercise 4" in feedback.message
    assert "For regrets [2.0, -1.0, 1.0]" in feedback.message


@pytest.mark.parametrize("function, mistake", MATCHING_WRONG_LAMBDAS)
def test_regret_matching_names_each_mistake(function, mistake):
    feedback = ex.check_regret_matching(function)
    assert feedback.status == WRONG, feedback
    assert feedback.mistake == mistake, feedback


@pytest.mark.parametrize("function", [
    lambda r: good(r) if np.any(np.asarray(r) > 0) else np.full(3, 1 / 3),
    lambda r: good(r) if np.any(np.asarray(r) > 0) else [1 / 3, 1 / 3, 1 / 3],
    lambda r: good(r) if np.any(np.asarray(r) > 0) else np.ones(len(r)) / 3,
])
def test_regret_matching_names_a_uniform_hard_coded_for_three_actions(function):
    # Passes every three-action case; only the cases with 2, 4 and 5 actions catch it.
    feedback = ex.check_regret_matching(function)
    assert feedback.status == WRONG and feedback.mistake == "hard-coded-length", feedback
    assert "1/2" in feedback.message or "1/4" in feedback.message


def test_regret_matching_starter_is_not_done():
    def starter(cumulative_regrets):
        raise NotImplementedError
    assert ex.check_regret_matching(starter).status == NOT_DONE
    assert ex.check_regret_matching(None).status == NOT_DONE
    assert ex.check_regret_matching("my_regret_matching").status == WRONG


def test_regret_matching_cases_include_other_action_counts():
    counts = {len(regrets) for regrets, expected in ex.REGRET_MATCHING_CASES
              if max(regrets) <= 0}
    assert counts - {3}


def test_a_crash_reports_the_line():
    def crashing(cumulative_regrets):
        positive = np.maximum(cumulative_regrets, 0)
        return positive / positive.sum() + cumulative_regrets["x"]
    feedback = ex.check_regret_matching(crashing)
    assert feedback.mistake == "crash" and "line" in feedback.message
    assert 'cumulative_regrets["x"]' in feedback.message


def test_division_by_zero_gets_a_hint():
    feedback = ex.check_regret_matching(
        lambda r: [max(x, 0) / sum(max(y, 0) for y in r) for x in r])
    assert "ZeroDivisionError" in feedback.message and "uniform" in feedback.message


# --- exercise 3: predict the variant's equilibrium ----------------------------------------------

PREDICTION_RIGHT = {
    "exact": [0.4, 0.4, 0.2],
    "within 0.05": [0.38, 0.42, 0.2],
    "numpy": np.array([0.42, 0.4, 0.18]),
    "the solution": run_solution("01_variant_prediction.py")["my_prediction"],
}

PREDICTION_WRONG = [
    ([0.25, 0.25, 0.5], "more-scissors"),
    ([1 / 3, 1 / 3, 1 / 3], "off"),
    ([0.5, 0.5, 0.5], "not-a-distribution"),
    ([-0.2, 0.6, 0.6], "not-a-distribution"),
    ("0.4, 0.4, 0.2", "not-a-distribution"),
    ([40, 40, 20], "percentage"),
    ([33, 33, 34], "percentage"),
]


@pytest.mark.parametrize("form", PREDICTION_RIGHT)
def test_variant_prediction_accepts(form):
    assert ex.check_variant_prediction(PREDICTION_RIGHT[form]).status == CORRECT


@pytest.mark.parametrize("answer, mistake", PREDICTION_WRONG)
def test_variant_prediction_names_the_mistake(answer, mistake):
    feedback = ex.check_variant_prediction(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_variant_prediction_not_done():
    assert ex.check_variant_prediction(None).status == NOT_DONE


@pytest.mark.parametrize("junk", [object(), {"r": 0.4}, True, float("nan"), b"abc", [[0.4]]])
def test_lesson01_checkers_never_raise_on_junk(junk):
    for check in (ex.check_regret_vector, ex.check_variant_prediction, ex.check_regret_matching):
        assert check(junk).status in (WRONG, NOT_DONE)
