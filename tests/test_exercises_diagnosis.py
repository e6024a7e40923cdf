"""The diagnosis table every checker is written as: rows read in order, the first that holds
gives the verdict, and a table without a fallback is refused."""

import numpy as np
import pytest

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises.diagnosis import Case, by_name, close_to, diagnose, fallback, screen


def explode(_value):
    raise AssertionError("a row below the verdict was evaluated")


TABLE = (
    Case.not_done(lambda v: v is None, "fill it in"),
    Case.correct(lambda v: v == 2, "yes"),
    Case("too-big", lambda v: v > 2, lambda v: f"{v} is more than 2"),
    Case("negative", lambda v: v < 0, "below zero"),
    Case("also-negative", lambda v: v < 0, "never reached: the row above holds first"),
    fallback(lambda v: f"not {v}", "off"),
)


@pytest.mark.parametrize("value, status, mistake, message", [
    (None, NOT_DONE, None, "fill it in"),
    (2, CORRECT, None, "yes"),
    (5, WRONG, "too-big", "5 is more than 2"),
    (-1, WRONG, "negative", "below zero"),
    (1, WRONG, "off", "not 1"),
])
def test_the_first_row_that_holds_gives_the_verdict(value, status, mistake, message):
    feedback = diagnose(value, TABLE)
    assert (feedback.status, feedback.mistake, feedback.message) == (status, mistake, message)


def test_rows_below_the_verdict_are_never_evaluated():
    table = (Case("first", lambda v: v == 1, "one"), Case("second", explode, explode),
             fallback(explode))
    assert diagnose(1, table).mistake == "first"
    with pytest.raises(AssertionError, match="below the verdict"):
        diagnose(2, table)


def test_a_correct_or_not_done_verdict_names_no_mistake():
    assert diagnose(2, TABLE).mistake is None and diagnose(2, TABLE).correct
    assert diagnose(None, TABLE).mistake is None and not diagnose(None, TABLE)


@pytest.mark.parametrize("table", [(), (Case("only", lambda _: True, "no fallback"),),
                                   (fallback("too early"), Case("last", lambda _: True, "x"))])
def test_a_table_without_a_final_fallback_is_refused(table):
    with pytest.raises(ValueError, match="must end with a fallback"):
        diagnose(1, table)


def test_close_to_uses_allclose_and_its_tolerances():
    assert close_to([1.0, 2.0])(np.array([1.0, 2.0 + 1e-9]))
    assert not close_to([1.0, 2.0])([1.0, 2.1])
    assert close_to([1.0, 2.0], atol=0.2)([1.0, 2.1])
    assert isinstance(close_to(0)(np.zeros(3)), bool)


def test_screen_gives_the_first_row_that_holds_or_none():
    rows = (Case.not_done(lambda v: v is None, "fill it in"),
            Case("not-a-number", lambda v: not isinstance(v, int), "a number, please"))
    assert screen(None, rows).status == NOT_DONE
    assert screen("x", rows).mistake == "not-a-number"
    assert screen(3, rows) is None
    assert screen(3, ()) is None


def test_by_name_gives_a_row_per_mistake_for_a_value_that_is_its_name():
    rows = by_name({"sign": "flip it", "scale": lambda v: f"{v} is scaled"})
    assert [row.name for row in rows] == ["sign", "scale"]
    table = (*rows, fallback("no idea"))
    assert diagnose("sign", table).message == "flip it"
    assert diagnose("scale", table).mistake == "scale"
    assert diagnose("scale", table).message == "scale is scaled"
    assert diagnose("other", table).message == "no idea"
