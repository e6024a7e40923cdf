"""run_student: what every coding checker shares (cfrviz/exercises/coding.py)."""

import functools

import numpy as np
import pytest

from cfrviz.exercises.coding import run_student


def answer(x):
    """Stands for the package's own solution of an exercise."""
    return np.maximum(x, 0)


@functools.wraps(answer)
def wrapped_answer(x):
    return answer(x)


def test_a_student_function_that_calls_the_answer_is_refused_under_any_name():
    alias = answer

    def student(x):
        return alias(x)

    result, feedback = run_student(lambda: student(np.ones(2)), name="`f`",
                                   forbidden={answer: "cfrviz.answer"})
    assert result is None and feedback is not None
    assert feedback.status == "wrong" and feedback.mistake == "calls the answer"
    assert "cfrviz.answer" in feedback.message


def test_the_answer_behind_a_wrapper_is_watched():
    result, feedback = run_student(lambda: answer(np.ones(2)), name="`f`",
                                   forbidden={wrapped_answer: "cfrviz.answer"})
    assert feedback is not None and feedback.mistake == "calls the answer"


def test_own_code_passes_and_the_profiler_is_restored():
    import sys

    before = sys.getprofile()
    result, feedback = run_student(lambda: np.maximum(np.array([-1.0, 2.0]), 0), name="`f`",
                                   forbidden={answer: "cfrviz.answer"})
    assert feedback is None and result.tolist() == [0.0, 2.0]
    assert sys.getprofile() is before


@pytest.mark.parametrize("value", [np.array([-1.0, 2.0]), [np.array([-1.0]), np.array([2.0])],
                                   {"a": [-1.0]}])
def test_a_student_function_that_changes_its_input_is_refused(value):
    def clip_in_place(x):
        if isinstance(x, np.ndarray):
            x[x < 0] = 0
        elif isinstance(x, list):
            x[0][0] = 0.0
        else:
            x["a"][0] = 0.0
        return x

    result, feedback = run_student(lambda: clip_in_place(value), name="`f`",
                                   unchanged=[("regrets", value)])
    assert result is None and feedback is not None
    assert feedback.mistake == "changes its input" and "`regrets`" in feedback.message


def test_a_nan_input_left_alone_is_unchanged():
    x = np.array([np.nan, 1.0])
    result, feedback = run_student(lambda: np.nan_to_num(x), name="`f`", unchanged=[("x", x)])
    assert feedback is None


def test_a_crash_is_still_reported_as_a_crash_and_the_profiler_restored():
    import sys

    def student():
        raise ValueError("boom")

    _, feedback = run_student(student, name="`f`", forbidden={answer: "cfrviz.answer"})
    assert feedback is not None and feedback.mistake == "crash"
    assert sys.getprofile() is None


def test_a_small_change_deep_inside_a_container_is_seen():
    """A list of large arrays: repr would shorten them and hide a change of 1e-12."""
    value = [np.zeros(5000), {"q": np.ones(3)}]

    def nudge(x):
        x[0][2500] += 1e-12
        return 0

    _, feedback = run_student(lambda: nudge(value), name="`f`", unchanged=[("path", value)])
    assert feedback is not None and feedback.mistake == "changes its input"
