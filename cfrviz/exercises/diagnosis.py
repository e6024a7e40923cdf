"""Checkers as data: a table of cases, read in order, that turns an answer into a verdict.

A checker computes what it needs from the student's answer (a number, a vector, what
their function returned) and hands it to :func:`diagnose` with a table of
:class:`Case` rows.  Each row names a condition on that value and what to tell the
student when it holds: "not done yet" for a placeholder, a recognised mistake with
its name and explanation, or "correct".  The first row whose condition holds gives
the verdict, and the table ends with a :func:`fallback` that always holds, so every
answer gets one.  The order is the checker's priority: put the right answer before the
mistakes it could be confused with, and shape checks before anything that reads the
value.  :func:`screen` reads a table without a fallback, for the rows that decide
whether an answer can be judged at all (None: go on).

Example::

    diagnose(values, (
        Case.not_done(lambda v: v is None, "Set `my_regrets` first."),
        Case.correct(close_to(expected), "Yes: [0, 1, 2]."),
        Case("sign", close_to(-expected), "The signs are flipped."),
        fallback("Not quite: regret = payoff(a) - payoff(played)."),
    ))

Conditions and messages are plain callables of the value, so a message may quote the
answer (``lambda v: f"you gave {v:.3f}"``) and a condition may close over what the
checker computed; both run only when the rows above them did not hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import CORRECT, NOT_DONE, WRONG, Feedback

Message = str | Callable[[Any], str]


def always(_value: Any) -> bool:
    """The condition of a fallback row: it holds for every answer."""
    return True


@dataclass(frozen=True)
class Case:
    """One row of a diagnosis table.

    Attributes
    ----------
    name : str or None
        The mistake's short name (``Feedback.mistake``, used by tests); None for a
        wrong answer no row recognises, and for the correct and not-done rows.
    when : callable
        ``when(value) -> bool``: does this row describe the answer?
    message : str or callable
        What the student reads, or ``message(value) -> str`` when it quotes the answer.
    status : str
        ``"wrong"`` (the default), ``"correct"`` or ``"not done yet"``.
    """

    name: str | None
    when: Callable[[Any], bool]
    message: Message
    status: str = WRONG

    @classmethod
    def correct(cls, when: Callable[[Any], bool], message: Message) -> Case:
        """The row of the right answer."""
        return cls(None, when, message, CORRECT)

    @classmethod
    def not_done(cls, when: Callable[[Any], bool], message: Message) -> Case:
        """A row for an answer not given yet (a placeholder left in the starter cell)."""
        return cls(None, when, message, NOT_DONE)

    def feedback(self, value: Any) -> Feedback:
        """This row's verdict on ``value`` (its condition is not consulted)."""
        text = self.message(value) if callable(self.message) else self.message
        return Feedback(self.status, text, self.name if self.status == WRONG else None)


def fallback(message: Message, name: str | None = None) -> Case:
    """The last row of every table: a wrong answer that no row above recognised."""
    return Case(name, always, message)


def screen(value: Any, cases: Sequence[Case]) -> Feedback | None:
    """The verdict of the first row of ``cases`` that holds for ``value``, or None if none does.

    For the rows a checker reads before it can judge an answer at all (a placeholder,
    something that is not a number, a run that cannot be read): None means "go on".
    """
    for case in cases:
        if case.when(value):
            return case.feedback(value)
    return None


def diagnose(value: Any, cases: Sequence[Case]) -> Feedback:
    """The verdict of the first row of ``cases`` whose condition holds for ``value``.

    Parameters
    ----------
    value
        What the checker computed from the answer; each row's ``when`` and (callable)
        ``message`` receive it.
    cases : sequence of Case
        Read top to bottom; the last row must be a :func:`fallback`, so that every
        answer gets a verdict and a checker never falls off the end of its table.

    Raises
    ------
    ValueError
        If the table does not end with a fallback (a mistake in the checker, not in the
        answer: every test of the checker trips on it).
    """
    if not cases or cases[-1].when is not always:
        raise ValueError("a diagnosis table must end with a fallback(...) row; "
                         f"this one ends with {cases[-1] if cases else 'nothing'!r}")
    verdict = screen(value, cases)
    assert verdict is not None  # the fallback row always holds
    return verdict


def close_to(target: Any, rtol: float = 1e-5, atol: float = 1e-8) -> Callable[[Any], bool]:
    """A condition: the value equals ``target`` to :func:`numpy.allclose`'s tolerance."""
    return lambda value: bool(np.allclose(value, target, rtol=rtol, atol=atol))


def by_name(messages: Mapping[str, Message]) -> tuple[Case, ...]:
    """Rows for a value that is already a mistake's name (a checker that finds *which* thing
    is wrong first, then says it): ``{name: message}`` becomes ``Case(name, value == name,
    message)``, in the mapping's order."""
    def named(name: str) -> Callable[[Any], bool]:
        return lambda value: value == name

    return tuple(Case(name, named(name), message) for name, message in messages.items())
