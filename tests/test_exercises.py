"""Every checker accepts the right answer, reports unanswered ones, explains typical mistakes."""

import numpy as np
import pytest
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson01 as ex


def test_regret_vector():
    assert ex.check_regret_vector(None).status == NOT_DONE
    assert ex.check_regret_vector([0, 1, 2]).status == CORRECT
    assert ex.check_regret_vector(np.array([0.0, 1.0, 2.0])).correct
    assert ex.check_regret_vector(run_solution("01_regret_vector.py")["my_regrets"]).correct


@pytest.mark.parametrize("answer, mistake", [
    ([0, -1, -2], "sign"),
    ([-1, 0, 1], "payoff-not-regret"),
    ([1, 0, -1], "other-player"),
    ([0, 2, 1], "partly"),
    ([0, 1], "shape"),
    ("0, 1, 2", "shape"),
])
def test_regret_vector_mistakes_are_explained(answer, mistake):
    feedback = ex.check_regret_vector(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake
    assert len(feedback.message) > 30


def good(regrets):
    positive = np.maximum(regrets, 0)
    return positive / positive.sum() if positive.sum() > 0 else np.ones(len(regrets)) / len(regrets)


def test_regret_matching_accepts_correct_implementations():
    assert ex.check_regret_matching(good).correct
    assert ex.check_regret_matching(lambda r: list(good(r))).correct
    solution = run_solution("01_regret_matching.py")["my_regret_matching"]
    assert ex.check_regret_matching(solution).correct


def test_regret_matching_starter_is_not_done():
    def starter(cumulative_regrets):
        raise NotImplementedError
    assert ex.check_regret_matching(starter).status == NOT_DONE
    assert ex.check_regret_matching(None).status == NOT_DONE


@pytest.mark.parametrize("function, mistake", [
    (lambda r: r / r.sum(), "negative-regrets"),                          # no clipping
    (lambda r: np.abs(r) / np.abs(r).sum(), "absolute"),
    (lambda r: np.maximum(r, 0) / np.maximum(r, 0).sum(), "nan-uniform"),  # 0/0 when none positive
    (lambda r: r["rock"], "crash"),
    (lambda r: np.zeros(len(r)) if np.all(r <= 0) else good(r), "zeros-not-uniform"),
    (lambda r: np.maximum(r, 0), "not-normalised"),
    (lambda _: None, "no-return"),
])
def test_regret_matching_mistakes_are_explained(function, mistake):
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


def test_variant_prediction():
    assert ex.check_variant_prediction(None).status == NOT_DONE
    assert ex.check_variant_prediction([0.4, 0.4, 0.2]).correct
    assert ex.check_variant_prediction([0.38, 0.42, 0.2]).correct
    prediction = run_solution("01_variant_prediction.py")["my_prediction"]
    assert ex.check_variant_prediction(prediction).correct
    assert ex.check_variant_prediction([0.25, 0.25, 0.5]).mistake == "more-scissors"
    assert ex.check_variant_prediction([1 / 3, 1 / 3, 1 / 3]).mistake == "off"
    assert ex.check_variant_prediction([0.5, 0.5, 0.5]).mistake == "not-a-distribution"
    assert ex.check_variant_prediction([40, 40, 20]).mistake == "percentage"
    assert ex.check_variant_prediction([33, 33, 34]).mistake == "percentage"


def test_feedback_renders_as_html_and_text():
    feedback = ex.check_regret_vector([0, 1, 2])
    assert "✓" in feedback._repr_html_() and str(feedback).startswith("✓ CORRECT")
    assert "&lt;script&gt;" in ex.check_regret_vector("<script>")._repr_html_()


@pytest.mark.parametrize("variable, value", [("CFRVIZ_PRESENTER", "1"),
                                             ("VOILA_SERVER_URL", "http://127.0.0.1:8866/")])
def test_feedback_shows_nothing_on_a_dashboard(monkeypatch, variable, value):
    """Issue 19: a dashboard (make present, or any Voila kernel) shows no exercise boxes."""
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda *a, **_: shown.append(a))
    feedback = ex.check_regret_vector(None)
    for name in ("CFRVIZ_PRESENTER", "VOILA_SERVER_URL", "VOILA_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    feedback._ipython_display_()
    assert len(shown) == 1 and "Not done yet" in shown[0][0].data  # in a notebook: the box
    monkeypatch.setenv(variable, value)
    feedback._ipython_display_()
    assert len(shown) == 1  # on a dashboard: nothing
