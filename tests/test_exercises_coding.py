"""run_student, checks and guard: what every coding checker shares (cfrviz/exercises)."""

import contextlib
import functools
import signal
import time

import numpy as np
import pytest
from _misbehaving import BadFloat, Custom, Endless, EndlessArray, NoArray, Unprintable, spin
from _tolerance import STOPPED

from cfrviz.exercises import coding, guard
from cfrviz.exercises.coding import (
    Interrupted,
    NotNumbers,
    OutOfTime,
    checks,
    floats,
    per_action,
    run_student,
    short_repr,
    time_limit,
)


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


# --- what a student's code can do to a checker: loop, raise anything, return anything ---------

@pytest.fixture
def quick_limit(monkeypatch):
    """A student's endless loop stopped after 0.2 s instead of TIME_LIMIT's 30."""
    monkeypatch.setattr(guard, "TIME_LIMIT", 0.2)


@pytest.mark.usefixtures("quick_limit")
def test_an_endless_loop_ends_with_a_feedback_naming_the_limit_and_the_line():
    started = time.monotonic()
    result, feedback = run_student(spin, name="`my_cfr`")
    assert time.monotonic() - started < STOPPED
    assert result is None and feedback.status == "wrong" and feedback.mistake == "timeout"
    assert "did not finish within 0.2 s" in feedback.message
    assert "loops without end" in feedback.message and "in spin" in feedback.message


def test_waiting_for_a_core_is_not_computing():
    """The limit counts processor time: a call that spends 0.6 s of the clock using none (as
    one waiting for a core on a loaded machine does) is not stopped by a 0.2 s limit."""
    with time_limit(0.2):
        time.sleep(0.6)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_code_that_only_waits_is_stopped_after_the_wait_factor(monkeypatch):
    monkeypatch.setattr(guard, "WAIT_FACTOR", 3.0)
    started = time.monotonic()
    with pytest.raises(OutOfTime), time_limit(0.2):
        time.sleep(STOPPED)
    assert 0.6 <= time.monotonic() - started < STOPPED


@pytest.mark.usefixtures("quick_limit")
def test_the_limit_leaves_the_previous_handler_and_timer_as_they_were():
    def mine(*_args):
        raise AssertionError("the caller's own timer fired")

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        signal.setitimer(signal.ITIMER_REAL, 50.0)
        run_student(spin, name="`f`")
        assert signal.getsignal(signal.SIGALRM) is mine
        left, _ = signal.setitimer(signal.ITIMER_REAL, 0)
        assert 40 < left <= 50.0  # still running, less the time spent
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_an_enclosing_limit_that_ends_first_is_the_one_that_fires():
    with pytest.raises(OutOfTime) as stopped, time_limit(0.2) as outer:
        run_student(spin, name="`f`")  # its own limit is 30 s: the outer one must stop it
    assert stopped.value.limit is outer
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.usefixtures("quick_limit")
def test_a_bare_except_does_not_keep_the_loop_going():
    def stubborn():
        with contextlib.suppress(BaseException):  # a student's bare except: the limit fires
            spin()  # again
        spin()

    _, feedback = run_student(stubborn, name="`f`")
    assert feedback.mistake == "timeout"


def test_outside_the_main_thread_the_code_runs_without_a_limit():
    import threading

    out = {}
    thread = threading.Thread(target=lambda: out.update(r=run_student(lambda: 7, name="`f`")))
    thread.start()
    thread.join()
    assert out["r"] == (7, None)


def raiser(error):
    def student(*_args):
        raise error
    return student


@pytest.mark.parametrize("error, named", [
    (SystemExit(3), "SystemExit: 3"),
    (SystemExit(), "SystemExit"),
    (GeneratorExit(), "GeneratorExit"),
    (Custom("odd"), "Custom: odd"),
    (Unprintable(), "Unprintable (its message cannot be shown: str() of it raised RuntimeError)"),
    (Endless(), "Endless (its message cannot be shown: str() of it ran too long)"),
    (BaseExceptionGroup("two", [ValueError(1), Custom(2)]), "BaseExceptionGroup"),
])
@pytest.mark.usefixtures("quick_limit")
def test_any_base_exception_is_a_clear_crash(error, named):
    result, feedback = run_student(raiser(error), name="`my_cfr`")
    assert result is None and feedback.status == "wrong" and feedback.mistake == "crash"
    assert f"`my_cfr` raised {named}" in feedback.message
    assert "in student" in feedback.message  # the line of the student's code


def test_system_exit_says_to_return_instead():
    _, feedback = run_student(raiser(SystemExit(0)), name="`f`")
    assert "with `return`" in feedback.message


def test_ctrl_c_still_stops_the_cell_with_one_line_saying_so():
    with pytest.raises(KeyboardInterrupt) as stopped:
        run_student(raiser(KeyboardInterrupt()), name="`my_cfr`")
    assert isinstance(stopped.value, Interrupted)
    lines = stopped.value._render_traceback_()  # what IPython shows instead of a traceback
    assert lines == [f"… INTERRUPTED: {stopped.value}"] and "you stopped `my_cfr`" in lines[0]
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


@pytest.mark.parametrize("value, said", [
    (None, "None, not numbers"),
    (np.array([None, None]), "[None, None], which holds None; expected numbers"),
    ([0.5, None], "[0.5, None], which holds None"),
    (np.array(None), "None, which holds None"),
    (NoArray(), "a NoArray whose conversion to numbers raised RuntimeError: no array"),
    (EndlessArray(), "a EndlessArray whose conversion to numbers did not finish within 0.2 s"),
    (BadFloat(), "a BadFloat whose conversion to numbers raised ZeroDivisionError: nope"),
    (10 ** 400, "not numbers (OverflowError"),
    ("0.5", "the text '0.5', not numbers"),
    (np.array([1j]), "[1j], complex numbers; expected real ones"),
    ({"a": 1.0}, "{'a': 1.0}, not numbers (TypeError"),
    ([1.0, [2.0, 3.0]], "not numbers (ValueError"),
])
@pytest.mark.usefixtures("quick_limit")
def test_what_cannot_be_numbers_is_named(value, said):
    with pytest.raises(NotNumbers) as refused:
        floats(value)
    assert said in str(refused.value)
    assert isinstance(refused.value, ValueError)  # the checkers' `except ValueError` holds


@pytest.mark.parametrize("value", [0.5, 3, [0.25, 0.75], (1, 2), np.arange(6).reshape(2, 3),
                                   np.float32(0.5), [np.float64(0.1), 0.9], [[1, 0], [0, 1]]])
def test_numbers_are_numbers_and_a_new_array(value):
    got = floats(value)
    assert got.dtype == float and np.array_equal(got, np.array(value, dtype=float))
    if isinstance(value, np.ndarray):
        got[...] = -1
        assert not np.array_equal(value, got)  # a copy: the checker may change it


def test_numeric_only_refuses_booleans_and_text_digits():
    for value in ([True, False], ["1", "2"]):
        assert floats(value).shape == (2,)
        with pytest.raises(NotNumbers, match="numpy reads it as"):
            floats(value, numeric_only=True)


@pytest.mark.usefixtures("quick_limit")
def test_a_repr_that_raises_or_loops_is_named():
    assert short_repr(BadFloat()) == "a BadFloat (its repr() raised RuntimeError)"

    class Slow:
        def __repr__(self):
            spin()

    assert short_repr(Slow()) == "a Slow (its repr() ran too long)"


@pytest.mark.usefixtures("quick_limit")
def test_changing_an_input_into_something_incomparable_is_a_change():
    given = [1.0, 2.0]

    class Sly:
        def __eq__(self, other):
            raise RuntimeError("no comparing")

        def __repr__(self):
            spin()

    def student(x):
        x[0] = Sly()
        return 0

    _, feedback = run_student(lambda: student(given), name="`f`", unchanged=[("x", given)])
    assert feedback.mistake == "changes its input"


@checks("`my_f`")
def a_checker(function):
    result, failed = run_student(function, name="`my_f`")
    if failed is not None:
        return failed
    return coding.Feedback("correct", f"{len(result)} entries")  # len() runs the student's code


@pytest.mark.usefixtures("quick_limit")
def test_whatever_escapes_a_checker_becomes_a_feedback():
    class BadLen:
        def __len__(self):
            raise RuntimeError("no length")

    feedback = a_checker(lambda: BadLen())
    assert feedback.status == "wrong" and feedback.mistake == "unreadable"
    assert "What `my_f` returned could not be checked: reading it raised RuntimeError: no " \
           "length at line" in feedback.message


def test_a_checker_that_loops_reading_an_answer_ends(monkeypatch):
    monkeypatch.setattr(coding, "CHECK_LIMIT", 0.3)

    class EndlessLen:
        def __len__(self):
            spin()

    feedback = a_checker(lambda: EndlessLen())
    assert feedback.mistake == "timeout" and "within 0.3 s" in feedback.message
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_ctrl_c_in_a_checker_is_interrupted():
    def student():
        raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="you stopped `my_f`"):
        a_checker(student)
    assert a_checker.__name__ == "a_checker"  # functools.wraps: the checker's own name and doc


@pytest.mark.parametrize("answer, read", [
    ([1, 2], [1.0, 2.0]), ((1, 2), [1.0, 2.0]), (np.array([1.0, 2.0]), [1.0, 2.0]),
    ({"b": 2, "p": 1}, [1.0, 2.0]), ([1, 2, 0], [1.0, 2.0]),  # a table row, its zeros past
    ([1], None), ([1, 2, 3, 4], None), ({"p": 1}, None), ("12", None), ([1, np.nan], None),
    ([[1, 2]], None), (None, None), (Unprintable(), None),
])
def test_per_action_reads_one_finite_number_per_action(answer, read):
    got = per_action(answer, ("p", "b"), width=3)
    assert (got is None) if read is None else got.tolist() == read


def test_checks_with_a_call_screens_placeholders_and_things_not_callable():
    @checks("`my_f`", "check_f(my_f)")
    def check_f(function):
        return coding.wrong(f"ran {function.__name__}", "ran")

    assert check_f(None).status == "not done yet" and "`my_f`" in check_f(...).message
    refused = check_f(42)
    assert refused.mistake == "not-callable" and "check_f(my_f); got 42" in refused.message
    assert check_f(len).mistake == "ran"
