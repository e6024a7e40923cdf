"""Guarding a checker from a student's code: a time limit, any exception, numbers that are not.

The machinery under :mod:`cfrviz.exercises.coding` (which runs a student's function and turns
what happened into a Feedback), kept apart so that :func:`cfrviz.exercises.as_vector` can use
:func:`floats` too.  :func:`time_limit` stops code that computes too long (``SIGALRM``);
:func:`attempt` runs the checker's own use of something the student made (its ``str``,
``repr``, numbers) under one; :func:`floats` is the one conversion of a student's answer to
numbers; :func:`where` finds the line of the student's cell an error came from.
"""

from __future__ import annotations

import contextlib
import linecache
import signal
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

_PACKAGE = Path(__file__).resolve().parent.parent
_SKIPPED = ("site-packages", "dist-packages", "/lib/python3")

#: Seconds of processor time one call of a student's function may use
#: (:func:`.coding.run_student`).  A whole check with a reference solution took at most 4.6 s
#: (`my_cfr`, two calls): 30 s a call leaves a slow laptop and a plain-Python answer room, and a
#: student whose code loops waits half a minute, not forever.  Processor time, not the clock's:
#: on a loaded machine (a class hub, a CI runner) the clock runs on while the code waits for a
#: core, and CI once stopped a reference solution that needs 1.3 s of processor at 30 s on the
#: clock.
TIME_LIMIT = 30.0
#: Code that waits instead of computing (``time.sleep``, a lock, a pipe) uses no processor time:
#: it is stopped after this many times its limit on the clock.
WAIT_FACTOR = 10.0


class OutOfTime(BaseException):
    """Raised into code that ran past a :func:`time_limit`.

    A ``BaseException``, so that a student's ``except Exception:`` does not swallow it.
    """

    def __init__(self, limit: _TimeLimit) -> None:
        super().__init__(f"not finished within {limit.seconds:g} s")
        self.limit = limit


class _TimeLimit:
    """The context of :func:`time_limit`; its deadline is watched by :func:`_on_alarm`."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = 0.0  # when, on the clock, the alarm is next due for this limit
        self.active = False
        self.overdue = False  # OutOfTime was raised: raise it again each _AGAIN seconds
        self.cpu = 0.0  # the thread's processor time at __enter__
        self.end = 0.0  # when, on the clock, code that waits is stopped (WAIT_FACTOR)

    def used(self) -> float:
        """Processor seconds the thread has used since this limit began."""
        return time.thread_time() - self.cpu

    def __enter__(self) -> _TimeLimit:
        if (not hasattr(signal, "setitimer")
                or threading.current_thread() is not threading.main_thread()):
            return self  # no SIGALRM here (Windows, a thread): the code runs without a limit
        _BUSY[0] = True  # SIGALRM is not acted on while the limits change (_on_alarm)
        try:
            now = time.monotonic()
            if not _LIMITS:  # the outermost limit: keep what was there before, for __exit__
                handler = signal.getsignal(signal.SIGALRM)
                delay, interval = signal.setitimer(signal.ITIMER_REAL, 0)
                _OUTSIDE.update(handler=signal.SIG_DFL if handler is None else handler,
                                deadline=now + delay if delay > 0 else None, interval=interval)
                signal.signal(signal.SIGALRM, _on_alarm)
            self.deadline = now + self.seconds  # the processor time can be no more by then
            self.end = now + WAIT_FACTOR * self.seconds
            self.cpu = time.thread_time()
            self.active = True
            _LIMITS.append(self)
            _arm()
        finally:
            _BUSY[0] = False
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.active:
            return
        _BUSY[0] = True
        try:
            self.active = False
            _LIMITS.remove(self)
            if _LIMITS:
                _arm()
                return
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, _OUTSIDE["handler"])
            if _OUTSIDE["deadline"] is not None:  # another timer was running: it runs on
                left = max(_OUTSIDE["deadline"] - time.monotonic(), 1e-6)  # (overdue: at once)
                signal.setitimer(signal.ITIMER_REAL, left, _OUTSIDE["interval"])
            _OUTSIDE.clear()
        finally:
            _BUSY[0] = False


#: The active limits, outermost first, and what SIGALRM did before the outermost one.
_LIMITS: list[_TimeLimit] = []
_OUTSIDE: dict[str, Any] = {}
_BUSY = [False]
#: After a limit's OutOfTime, the next one if the code goes on (a bare ``except:`` caught it).
_AGAIN = 1.0


def _arm() -> None:
    """Set the timer to the earliest deadline: a limit's, or the timer that ran before."""
    deadlines = [limit.deadline for limit in _LIMITS]
    if _OUTSIDE.get("deadline") is not None:
        deadlines.append(_OUTSIDE["deadline"])
    signal.setitimer(signal.ITIMER_REAL, max(min(deadlines) - time.monotonic(), 1e-6))


def _on_alarm(signum: int, frame: Any) -> None:
    """SIGALRM while limits are active: :class:`OutOfTime` for the outermost limit that is due
    (a check past its limit ends, whatever ran inside it), or the earlier timer's handler."""
    if _BUSY[0] or not _LIMITS:  # the limits are changing: try again in a moment (once they
        if _LIMITS:  # are all gone, the timer and handler from before are back instead)
            signal.setitimer(signal.ITIMER_REAL, 1e-3)
        return
    now = time.monotonic() + 1e-3
    outside = _OUTSIDE.get("deadline")
    if outside is not None and now >= outside:
        _OUTSIDE["deadline"] = now + _OUTSIDE["interval"] if _OUTSIDE["interval"] else None
        _arm()
        if callable(_OUTSIDE["handler"]):
            _OUTSIDE["handler"](signum, frame)
        return
    for limit in _LIMITS:
        if now < limit.deadline:
            continue
        left = limit.seconds - limit.used()
        if limit.overdue or left <= 0 or now >= limit.end:
            limit.overdue = True
            limit.deadline = now + _AGAIN
            _arm()
            raise OutOfTime(limit)
        limit.deadline = min(now + left, limit.end)  # it waited for a core: its time is not up
    _arm()


def time_limit(seconds: float) -> _TimeLimit:
    """A context in which code using more than ``seconds`` of processor time gets
    :class:`OutOfTime`, or code that waits, more than :data:`WAIT_FACTOR` times ``seconds``
    on the clock.

    ``signal.setitimer`` and ``SIGALRM``: the timer runs on the clock, and when it rings the
    handler reads the thread's processor time (``time.thread_time``); if the code waited for a
    core meanwhile, the timer is set again for the time it has left.  Once due, the handler
    raises in the main thread, between two Python bytecodes (a single long numpy call ends
    first), and again each second while the block goes on (in case the code caught it).
    Limits nest (one timer, set to the earliest deadline); the handler and timer found before
    the outermost limit are put back after it, and an earlier timer's handler is still called
    when it is due.  Where there is no ``SIGALRM`` (Windows) or outside the main thread, the
    code runs without a limit: there is no safe way to stop it there.
    """
    return _TimeLimit(seconds)


_T = TypeVar("_T")


def attempt(call: Callable[[], _T], seconds: float | None = None
            ) -> tuple[_T | None, BaseException | None]:
    """``(call(), None)``, or ``(None, error)`` for whatever ``call`` raised or ``OutOfTime``
    after ``seconds`` (default :data:`TIME_LIMIT`).

    For the checker's own use of something the student made (its ``str``, ``repr``, numbers).
    A ``KeyboardInterrupt`` and an enclosing limit's ``OutOfTime`` pass through.
    """
    try:
        with time_limit(TIME_LIMIT if seconds is None else seconds) as limit:
            return call(), None
    except KeyboardInterrupt:
        raise
    except OutOfTime as error:
        if error.limit is not limit:
            raise
        return None, error
    except BaseException as error:  # the student's object raised it; report it
        return None, error


def describe(error: BaseException) -> str:
    """``"Name: message"`` of an exception, even if its ``__str__`` raises or loops."""
    name = getattr(type(error), "__name__", None) or "an exception"
    if isinstance(error, OutOfTime):
        return str(error)
    text, failed = attempt(lambda: str(error), seconds=min(TIME_LIMIT, 2.0))
    if failed is not None:
        why = "ran too long" if isinstance(failed, OutOfTime) else \
            f"raised {type(failed).__name__}"
        return f"{name} (its message cannot be shown: str() of it {why})"
    return f"{name}: {text or '(no message)'}" if isinstance(text, str) else name


class NotNumbers(ValueError):
    """What a student's code returned cannot be read as numbers; the message says what it is."""


def floats(value: Any, *, numeric_only: bool = False) -> np.ndarray:
    """What a student's code returned as a new float array, or :class:`NotNumbers` saying why not.

    The one conversion every checker uses, ``np.array(value, dtype=float)`` with a guard:
    ``None`` (which numpy would turn into NaN, alone or in a list or array), text, complex
    numbers, an integer too large for a float, or an object whose ``__array__``,
    ``__float__`` or ``__len__`` raises or loops is refused with a message naming it, never a
    traceback from numpy.  With ``numeric_only``, so are booleans and lists of anything but
    ints and floats (a Fraction, a string of digits).
    """
    if _plain(value, "iuf" if numeric_only else "biuf"):  # no student code can run: no guard
        with contextlib.suppress(TypeError, ValueError, OverflowError):  # said below
            return np.array(value, dtype=float)
    if value is None or isinstance(value, (str, bytes)):  # numpy would make NaN or text of it
        raise NotNumbers("None, not numbers (a missing `return`?)" if value is None
                         else f"the text {short_repr(value)}, not numbers")
    raw, failed = attempt(lambda: np.array(value))
    if isinstance(raw, np.ndarray):
        if raw.dtype == object and any(v is None for v in raw.flat):
            raise NotNumbers(f"{short_repr(value)}, which holds None; expected numbers")
        if raw.dtype.kind == "c":
            raise NotNumbers(f"{short_repr(value)}, complex numbers; expected real ones")
        if numeric_only and raw.dtype.kind not in "iuf":
            raise NotNumbers(f"{short_repr(value)}, not numbers (numpy reads it as "
                             f"{raw.dtype.name})")
        values, failed = attempt(lambda: raw.astype(float))
        if isinstance(values, np.ndarray):
            return values
    if isinstance(failed, OutOfTime):
        raise NotNumbers(f"a {type(value).__name__} whose conversion to numbers did not "
                         f"finish within {TIME_LIMIT:g} s")
    if isinstance(failed, (TypeError, ValueError, OverflowError)):
        raise NotNumbers(f"{short_repr(value)}, not numbers ({describe(failed)})")
    raise NotNumbers(f"a {type(value).__name__} whose conversion to numbers raised "
                     f"{describe(failed)}{where(failed)}"
                     if failed is not None else f"{short_repr(value)}, not numbers")


def _plain(value: Any, kinds: str) -> bool:
    """Whether ``value`` is numbers of numpy kinds ``kinds`` in built-in containers only (a
    float, an int, a numpy array or scalar, lists and tuples of them), so that converting it
    runs none of the student's code (a method of their own class)."""
    kind = type(value)
    if kind in (np.ndarray, np.float64, np.float32, np.int64, np.int32, np.bool_):
        return bool(value.dtype.kind in kinds)
    if kind in (float, int, bool):
        return kind is not bool or "b" in kinds
    if kind in (list, tuple):
        return all(_plain(v, kinds) for v in value)
    return False


def number(value: Any) -> float:
    """One number a student's code returned (a float, an int, a 0-d array), as a float, or
    :class:`NotNumbers` saying why not (through :func:`floats`)."""
    values = floats(value)
    if values.ndim != 0:
        raise NotNumbers(f"{short_repr(value)}, not one number")
    return float(values)


def _is_student_frame(filename: str) -> bool:
    """True for a frame of the student's code: a notebook cell or a file outside cfrviz.

    The checker's frames (cfrviz), numpy's and the standard library's are skipped,
    so an error raised deep inside ``np.dot`` is reported at the student's line
    that called it.
    """
    if filename.startswith("<") and filename != "<string>":
        return False  # <frozen ...>, <__array_function__ internals>
    try:
        path = Path(filename).resolve()
    except (OSError, ValueError):
        return True
    if path.is_relative_to(_PACKAGE):
        return False
    return not any(part in filename for part in _SKIPPED)


def where(error: BaseException) -> str:
    """Where in the student's code ``error`` was raised, as words; empty if nowhere.

    For example ``" at line 7 of your cell, in my_cfr: `total += p * walk(child)`"``.
    Line numbers are the cell's own (IPython compiles each cell as its own file).
    """
    frames = [frame for frame, _ in traceback.walk_tb(error.__traceback__)]
    lines = [lineno for _, lineno in traceback.walk_tb(error.__traceback__)]
    for frame, lineno in reversed(list(zip(frames, lines))):
        filename = frame.f_code.co_filename
        if not _is_student_frame(filename):
            continue
        source = linecache.getline(filename, lineno).strip()
        shown = f": `{source}`" if source else ""
        return f" at line {lineno} of your cell, in {frame.f_code.co_name}{shown}"
    return ""


def short_repr(value: Any) -> str:
    """A value as a student sees it in a message: its repr, cut at 80 characters.

    A repr that raises or loops (the student's own class) is named instead of shown.
    """
    def text() -> str:
        return repr(value.tolist() if isinstance(value, np.ndarray) else value)

    shown, failed = attempt(text, seconds=min(TIME_LIMIT, 2.0))
    if failed is not None or not isinstance(shown, str):
        why = "ran too long" if isinstance(failed, OutOfTime) else \
            f"raised {type(failed).__name__}"
        return f"a {type(value).__name__} (its repr() {why})"
    return shown if len(shown) <= 80 else shown[:77] + "..."
