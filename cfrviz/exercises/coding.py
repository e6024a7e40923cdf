"""Running a student's code for a coding exercise, and saying kindly what went wrong.

Every coding checker calls the student's functions through :func:`run_student`, and is itself
wrapped by :func:`checks`.  :func:`run_student` returns what the code returned, or a
:class:`~cfrviz.exercises.Feedback` that says "not done yet" for the starter's ``raise
NotImplementedError``; for any other exception, ``SystemExit`` and other ``BaseException``
objects included, it names the error, the line of the student's cell that raised it (found in
the traceback, never in the checker's own frames) and a hint the checker chose for that kind of
error; a call that computes longer than :data:`.guard.TIME_LIMIT` (processor time) is stopped and
reported as a likely endless loop.  What the code returned becomes numbers only through
:func:`.guard.floats`, which turns whatever cannot be numbers (an array of ``None``, an object
whose ``__array__`` raises or loops) into a :class:`.guard.NotNumbers` error, a ``ValueError``
the checkers already handle.
:func:`checks` turns anything still escaping a checker into a Feedback: a checker never
re-raises, except :class:`Interrupted` when the student stops the kernel, so that a "Run all"
stops there too.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from . import Feedback, guard, not_done, unanswered, wrong
from .guard import (
    NotNumbers,
    OutOfTime,
    attempt,
    describe,
    floats,
    number,
    short_repr,
    time_limit,
    where,
)

__all__ = ["CHECK_LIMIT", "DrawError", "Interrupted", "NotNumbers", "OutOfTime", "attempt",
           "checked_draw", "checks", "describe", "floats", "number", "per_action", "run_student",
           "short_repr", "time_limit", "where"]

#: Processor seconds a whole check may use (:func:`checks`): its calls of the student's code,
#: its own reference computations (5 s at most, measured as for guard.TIME_LIMIT) and its
#: reading of what the code returned.  A backstop for a loop outside the student's calls (in a
#: returned object's ``__len__``, say); a call that loops is stopped by guard.TIME_LIMIT first.
CHECK_LIMIT = 300.0


class Interrupted(KeyboardInterrupt):
    """The student interrupted the kernel (the stop button, Ctrl-C) during a check.

    Still a ``KeyboardInterrupt``, so the cell ends with an error and a "Run all" stops; in a
    notebook it shows as one line saying so instead of a traceback from the checker.
    """

    def _render_traceback_(self) -> list[str]:  # IPython shows these lines instead of frames
        return [f"… INTERRUPTED: {self}"]


def run_student(call: Callable[..., Any], *, name: str,
                hints: Mapping[Any, str] | None = None,
                forbidden: Mapping[Callable[..., Any], str] | None = None,
                unchanged: Sequence[tuple[str, Any]] = ()
                ) -> tuple[Any, Feedback | None]:
    """Run ``call()`` (which calls the student's code): ``(result, None)`` or ``(None, feedback)``.

    Parameters
    ----------
    call : callable
        Calls the student's function(s) with the checker's inputs.
    name : str
        What to call the student's code in messages, e.g. ``"`my_cfr`"``.
    hints : mapping of exception type to str, optional
        A sentence added for an error of that type (the first match), e.g. the arguments.
    forbidden : mapping of function to str, optional
        The package's own answers to the exercise, each with its name in the lesson (e.g.
        ``{best_response: "cfrviz.best_response"}``): calling one, under any name, is "wrong"
        with mistake ``"calls the answer"``.
    unchanged : sequence of (str, object)
        The arguments the code must leave as they were, with their names (``[("regrets",
        regrets)]``): a change is "wrong" with mistake ``"changes its input"``.

    Returns
    -------
    (object, None) or (None, Feedback)
        "not done yet" for ``NotImplementedError`` (the starter's placeholder); "wrong" with
        mistake ``"crash"`` for any other exception (``BaseException`` included), naming the
        line of the student's cell that raised it, or ``"timeout"`` past
        :data:`.guard.TIME_LIMIT` seconds.

    Raises
    ------
    Interrupted
        For a ``KeyboardInterrupt``: the student stopped the kernel, and the cell stops.
    """
    before = [(label, copy.deepcopy(value)) for label, value in unchanged]
    started = time.monotonic()
    try:
        with _watching(forbidden or {}) as called, time_limit(guard.TIME_LIMIT) as limit:
            result = call()
    except OutOfTime as error:
        if error.limit is not limit:
            raise  # an enclosing limit's: the whole check ran out of time
        return None, wrong(f"{name} did not finish within {guard.TIME_LIMIT:g} s; it was stopped"
                           f"{where(error) or ' in code it called'}. The checker's own solution "
                           "takes a few seconds at most, so your code most likely loops without "
                           "end: check that each loop's condition becomes false and that a "
                           "recursive walk stops at terminal nodes, then run this cell again.",
                           "timeout")
    except KeyboardInterrupt:
        raise Interrupted(f"you stopped {name} after {time.monotonic() - started:.0f} s, "
                          "before the check finished; nothing was checked. Run this cell again "
                          "to check your code.") from None
    except BaseException as error:  # the student's code: explain, never re-raise
        return None, _failed(name, error, hints)
    changed = None if called else _changed(before, unchanged)
    if called or changed is not None:
        return None, _misused(name, called, changed)
    return result, None


def _failed(name: str, error: BaseException, hints: Mapping[Any, str] | None) -> Feedback:
    """The feedback on a student's call that raised ``error``."""
    if isinstance(error, NotImplementedError):
        return not_done(f"{name} still raises NotImplementedError: replace that line with "
                        "your code, then run this cell again.")
    if isinstance(error, RecursionError):
        return wrong(f"{name} recursed without end{where(error)}. A walk of the tree must stop "
                     "at terminal nodes and call itself only on a node's children.", "crash")
    return wrong(_raised(name, error, hints), "crash")


def _changed(before: Sequence[tuple[str, Any]], after: Sequence[tuple[str, Any]]) -> str | None:
    """The name of the first argument whose copy ``before`` differs from it ``after`` (or
    cannot be compared with it: what the student's code put in it), or None."""
    for (label, old), (_, new) in zip(before, after):
        same, _ = attempt(functools.partial(_same, old, new))
        if not same:
            return label
    return None


def _misused(name: str, called: list[str], changed: str | None) -> Feedback:
    """The feedback on a call that ran but called the answer or changed its input."""
    if called:
        return wrong(f"{name} calls {called[0]}, which is the answer this exercise asks you to "
                     "write. Write the computation yourself, then run this cell again.",
                     "calls the answer")
    return wrong(f"{name} changed its argument `{changed}` in place. Leave the caller's data as "
                 "it was: work on a copy (e.g. `np.maximum(x, 0)` makes a new array, "
                 "`x[x < 0] = 0` changes `x`), then run this cell again.", "changes its input")


def _raised(name: str, error: BaseException, hints: Mapping[Any, str] | None) -> str:
    """The message for a student's function that raised ``error`` (any ``BaseException``)."""
    hint = ""
    for kind, sentence in (hints or {}).items():
        if isinstance(error, kind):
            hint = " " + sentence
            break
    if isinstance(error, SystemExit):
        hint = (" exit(), quit() and sys.exit() end a program, not a function: hand back the "
                "answer with `return` instead, then run this cell again.")
    elif not isinstance(error, Exception):
        hint = (f" {type(error).__name__} is not an ordinary error (it derives from "
                "BaseException, not Exception): raise or let through only ordinary errors.")
    return f"{name} raised {describe(error)}{where(error)}.{hint}"


_Check = TypeVar("_Check", bound=Callable[..., Feedback])


def checks(name: str, call: str | None = None) -> Callable[[_Check], _Check]:
    """Decorator of a coding checker, whose first argument is the student's function ``name``:
    whatever still escapes the checker becomes a Feedback.

    With ``call``, how the lesson calls the checker (``"check_x(my_x)"``), the checker's first
    argument is screened before it runs: a placeholder (``None``, ``...``) is "not done yet",
    anything not callable is "wrong" with mistake ``"not-callable"``.

    :func:`run_student` reports what the student's calls did; this catches the rest, such as
    an exception from a returned object's ``__len__`` or ``__eq__`` while the checker reads it,
    and stops a check running past :data:`CHECK_LIMIT` seconds.  ``KeyboardInterrupt`` becomes
    :class:`Interrupted`, so the cell (and a "Run all") still stops, with one line saying why.
    """
    def decorate(check: _Check) -> _Check:
        @functools.wraps(check)
        def guarded(*args: Any, **kwargs: Any) -> Feedback:
            started = time.monotonic()
            try:
                with time_limit(CHECK_LIMIT) as limit:
                    function = args[0] if args else None
                    if call is not None and unanswered(function):
                        return not_done(f"Write {name}, then run this cell again.")
                    if call is not None and not callable(function):
                        return wrong(f"Pass the function itself, {call}; got "
                                     f"{short_repr(function)}.", "not-callable")
                    return check(*args, **kwargs)
            except Interrupted:
                raise
            except KeyboardInterrupt:
                raise Interrupted(f"you stopped the check of {name} after "
                                  f"{time.monotonic() - started:.0f} s, before it finished; "
                                  "nothing was checked. Run this cell again to check your "
                                  "code.") from None
            except OutOfTime as error:
                if error.limit is not limit:
                    raise
                return wrong(f"Checking {name} did not finish within {CHECK_LIMIT:g} s"
                             f"{where(error)}. The checker's own solution takes a few seconds, "
                             "so your code most likely loops without end, or what it returns "
                             "does (its `__len__`, `__iter__` or `__eq__`).", "timeout")
            except BaseException as error:  # the point: nothing escapes
                return wrong(f"What {name} returned could not be checked: reading it raised "
                             f"{describe(error)}{where(error)}. Return plain numbers (a float, "
                             "a list or a numpy array of floats, in the shape the exercise "
                             "asks for), then run this cell again.", "unreadable")
        return guarded  # type: ignore[return-value]
    return decorate


def _same(old: Any, new: Any) -> bool:
    """Whether ``new`` still holds what the copy ``old`` held (arrays compared elementwise,
    NaN equal to NaN, shapes and dtypes too)."""
    if isinstance(old, np.ndarray):
        return (isinstance(new, np.ndarray) and old.shape == new.shape
                and old.dtype == new.dtype and bool(np.array_equal(old, new, equal_nan=True)))
    if isinstance(old, (list, tuple)):
        return (type(new) is type(old) and len(new) == len(old)
                and all(_same(a, b) for a, b in zip(old, new)))
    if isinstance(old, dict):
        return (isinstance(new, dict) and old.keys() == new.keys()
                and all(_same(old[k], new[k]) for k in old))
    try:
        return bool(old == new)
    except Exception:  # an object whose == raises or is ambiguous: compare what it shows
        return repr(old) == repr(new)


@contextlib.contextmanager
def _watching(functions: Mapping[Callable[..., Any], str]) -> Iterator[list[str]]:
    """Record, in the yielded list, the name of each of ``functions`` called inside the block.

    A profile hook sees every Python call, whatever name the caller used (``from cfrviz
    import best_response as br`` included), without changing the functions themselves.
    Only Python functions can be watched (a compiled kernel has no code object).
    """
    codes = {getattr(_unwrapped(f), "__code__", None): label for f, label in functions.items()}
    codes.pop(None, None)
    called: list[str] = []
    if not codes:
        yield called
        return
    previous = sys.getprofile()

    def hook(frame: Any, event: Any, arg: Any) -> None:  # event: sys.setprofile's literals
        if event == "call" and frame.f_code in codes and not called:
            called.append(codes[frame.f_code])
        if previous is not None:  # a profiler the student runs keeps working
            previous(frame, event, arg)

    sys.setprofile(hook)
    try:
        yield called
    finally:
        sys.setprofile(previous)


def _unwrapped(function: Callable[..., Any]) -> Callable[..., Any]:
    """The plain function behind ``function`` (functools.wraps chains unwrapped)."""
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    return function


def per_action(answer: Any, actions: Sequence[str], width: int | None = None
               ) -> np.ndarray | None:
    """``answer`` as one finite float per action, or None: a list, tuple or array of
    ``len(actions)`` numbers (or of ``width``, a table row whose columns past the actions are
    ignored), or ``{action label: number}``."""
    if isinstance(answer, dict):
        if set(answer) != set(actions):
            return None
        answer = [answer[a] for a in actions]
    if isinstance(answer, (str, bytes)):
        return None
    values, _ = attempt(lambda: floats(answer))
    if values is None or values.ndim != 1 or len(values) not in (len(actions), width):
        return None
    values = values[:len(actions)]
    return values if np.all(np.isfinite(values)) else None


class DrawError(ValueError):
    """A call of a checker's ``draw`` that cannot be answered (bad node or probabilities)."""


def checked_draw(tree, node, probabilities) -> tuple[int, np.ndarray]:
    """The node and probabilities a student's walk passed to a checker's ``draw(node,
    probabilities)``, or a :class:`DrawError` saying what is wrong with them: ``node`` must be
    a node with children, ``probabilities`` one per child (a table row's zeros past them may
    stay), finite, non-negative and summing to 1."""
    if isinstance(node, (bool, np.bool_)) or not isinstance(node, (int, np.integer)) \
            or not 0 <= node < tree.num_nodes:
        raise DrawError(f"draw(node, probabilities) takes the id of the node where the walk "
                        f"draws, a whole number in 0..{tree.num_nodes - 1}; got {node!r}")
    node = int(node)
    k = len(tree.children[node])
    if k == 0:
        raise DrawError(f"node {node} (history {tree.history[node]!r}) is terminal: there "
                        "is nothing to draw")
    try:
        p = np.array(probabilities, dtype=float).ravel()
    except (TypeError, ValueError):
        p = np.array([np.nan])
    if len(p) > k and np.all(p[k:] == 0):
        p = p[:k]  # a whole row of a table, zeros past the node's actions
    if len(p) != k or not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1) > 1e-6:
        raise DrawError(f"at node {node} (history {tree.history[node]!r}) draw needs {k} "
                        f"probabilities, one per child, summing to 1; got "
                        f"{short_repr(probabilities)}")
    return node, p
