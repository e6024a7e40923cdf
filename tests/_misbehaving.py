"""What a student's code can do to a checker besides being wrong: shared by the checker tests
(tests/test_exercises_coding.py, tests/test_exercises_misbehaving.py)."""

from __future__ import annotations

import re


def spin():
    while True:
        pass


class Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


class Endless(Exception):
    def __str__(self):
        spin()


class Custom(BaseException):
    """Neither an Exception nor one of Python's own BaseExceptions."""


class NoArray:
    def __array__(self, *args, **kwargs):
        raise RuntimeError("no array")


class EndlessArray:
    def __array__(self, *args, **kwargs):
        spin()


class BadFloat:
    def __float__(self):
        raise ZeroDivisionError("nope")

    def __repr__(self):
        raise RuntimeError("no repr either")


def stable_id(value: object) -> str:
    """A test id for ``value`` that is the same in every process: its repr without the memory
    address (``<object object at 0x7f…>``), so that pytest-xdist's workers collect the same
    tests (they refuse to run when the ids differ)."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))
