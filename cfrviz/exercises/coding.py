"""Running a student's code for a coding exercise, and saying kindly what went wrong.

Every coding checker calls the student's functions through :func:`run_student`.
It returns what the code returned, or a :class:`~cfrviz.exercises.Feedback` that
says "not done yet" for the starter's ``raise NotImplementedError`` and, for any
other exception, names the error, the line of the student's cell that raised it
(found in the traceback, never in the checker's own frames) and a hint the
checker chose for that kind of error.  A checker never re-raises.
"""

from __future__ import annotations

import contextlib
import copy
import linecache
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import Feedback, not_done, wrong

_PACKAGE = Path(__file__).resolve().parent.parent
_SKIPPED = ("site-packages", "dist-packages", "/lib/python3")


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


def run_student(call: Callable[..., Any], *, name: str,
                hints: Mapping[Any, str] | None = None,
                forbidden: Mapping[Callable[..., Any], str] | None = None,
                unchanged: Sequence[tuple[str, Any]] = ()
                ) -> tuple[Any, Feedback | None]:
    """Run ``call()`` (which calls the student's code): ``(result, None)`` or ``(None, feedback)``.

    Parameters
    ----------
    call : callable
        Called with no arguments; calls the student's function(s) with the checker's
        inputs.  (Typed ``Callable[..., Any]`` so that a lambda binding loop variables
        as defaults, ``lambda r=regrets: f(r)``, type-checks.)
    name : str
        What to call the student's code in messages, e.g. ``"`my_cfr`"``.
    hints : mapping of exception type to str, optional
        (Typed ``Mapping[Any, str]`` because a mapping's key type is invariant:
        ``{IndexError: ...}`` is a ``dict[type[IndexError], str]``.)
        A sentence added when the error is an instance of that type (the first
        match in the mapping's order), e.g. what the arguments look like for an
        ``IndexError``.
    forbidden : mapping of function to str, optional
        The package's own answers to the exercise, each with what it is called in the
        lesson (e.g. ``{best_response: "cfrviz.best_response"}``).  If the student's code
        calls one of them, under whatever name it was imported, the feedback is "wrong"
        with mistake ``"calls the answer"``: the exercise is to write it.
    unchanged : sequence of (str, object)
        The arguments the student's code must leave as they were, each with its name in
        messages, e.g. ``[("regrets", regrets)]``.  They are copied before the call and
        compared after it; a change is "wrong" with mistake ``"changes its input"``.

    Returns
    -------
    (object, None) or (None, Feedback)
        The feedback is "not done yet" for ``NotImplementedError`` (the starter
        cell's placeholder) and "wrong" with mistake ``"crash"`` for any other
        exception, naming the line of the student's cell that raised it.
        ``KeyboardInterrupt`` is not caught: the student stopped the cell.
    """
    before = [(label, copy.deepcopy(value)) for label, value in unchanged]
    try:
        with _watching(forbidden or {}) as called:
            result = call()
    except NotImplementedError:
        return None, not_done(f"{name} still raises NotImplementedError: replace that line with "
                              "your code, then run this cell again.")
    except RecursionError as error:
        return None, wrong(f"{name} recursed without end{where(error)}. A walk of the tree must "
                           "stop at terminal nodes and call itself only on a node's children.",
                           "crash")
    except Exception as error:  # the student's code crashed: explain, never re-raise
        hint = ""
        for kind, sentence in (hints or {}).items():
            if isinstance(error, kind):
                hint = " " + sentence
                break
        detail = str(error) or "(no message)"
        return None, wrong(f"{name} raised {type(error).__name__}: {detail}{where(error)}.{hint}",
                           "crash")
    if called:
        return None, wrong(f"{name} calls {called[0]}, which is the answer this exercise asks you "
                           "to write. Write the computation yourself, then run this cell again.",
                           "calls the answer")
    for (label, old), (_, new) in zip(before, unchanged):
        if not _same(old, new):
            return None, wrong(f"{name} changed its argument `{label}` in place. Leave the "
                               "caller's data as it was: work on a copy (e.g. "
                               "`np.maximum(x, 0)` makes a new array, `x[x < 0] = 0` changes "
                               "`x`), then run this cell again.", "changes its input")
    return result, None


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


class DrawError(ValueError):
    """A call of a checker's ``draw`` that cannot be answered (bad node or probabilities)."""


def short_repr(value) -> str:
    """A value as a student sees it in a message: its repr, cut at 80 characters."""
    text = repr(value.tolist() if isinstance(value, np.ndarray) else value)
    return text if len(text) <= 80 else text[:77] + "..."


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
