"""Feedback and the answer readers every checker shares (cfrviz/exercises/__init__.py); each
lesson's checkers are tested in tests/test_exercises_lessonNN.py."""

import numpy as np
import pytest

from cfrviz.exercises import as_number, as_vector, unanswered
from cfrviz.exercises import lesson01 as ex


@pytest.mark.parametrize("answer, number", [
    (3, 3.0), (np.float32(0.5), 0.5), (np.array([2.0]), 2.0), (True, None), ("1", None),
    (float("nan"), None), (np.inf, None), ([1.0], None), (None, None)])
def test_as_number_takes_finite_numbers_only(answer, number):
    assert as_number(answer) == number


def test_as_vector_takes_a_finite_vector_of_the_length_asked():
    np.testing.assert_array_equal(as_vector((1, 2, 3), 3), [1.0, 2.0, 3.0])
    for junk in ([1, 2], [1, 2, np.nan], "abc", [[1, 2, 3]], {"a": 1}, None):
        assert as_vector(junk, 3) is None


def test_unanswered_is_the_starter_cell_placeholders():
    assert unanswered(None) and unanswered(...)
    assert not unanswered(0) and not unanswered("") and not unanswered([])


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
