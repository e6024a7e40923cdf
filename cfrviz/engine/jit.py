"""The one decorator every kernel wears: numba's ``njit`` with its compiled code cached on disk.

``cache=True`` makes numba write each kernel's machine code to a ``__pycache__`` folder next
to its source (here, the checkout for an editable install), or, where that folder is
read-only, to ``NUMBA_CACHE_DIR`` if set, else to a ``numba`` folder in the user's cache
directory.  A new Python process then loads a kernel in a fraction of a second instead of
compiling it for seconds (:mod:`cfrviz.warm` compiles them all ahead of time).

Where numba finds nowhere to write, ``njit(cache=True)`` raises at import time; :func:`kernel`
then compiles without a disk cache, so the course still runs (each new process pays the
compilation), and :data:`CACHE_PROBLEM` says why and how to fix it.  A folder that is writable
but cannot take the compiled code (a full disk or quota, an I/O error) fails later, when numba
saves a kernel after compiling it: that save is made to fail softly the same way, so the
kernel runs, uncached.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from numba import njit
from numba.core.dispatcher import Dispatcher

__all__ = ["CACHE_PROBLEM", "cache_folder", "kernel", "step"]

#: Why compiled code cannot be cached on disk, or None when it can.
CACHE_PROBLEM: str | None = None

#: A kernel's Python function, whose signature its compiled dispatcher keeps.
F = TypeVar("F", bound=Callable[..., object])

_FIX = ("set the environment variable NUMBA_CACHE_DIR to a folder you can write to "
        "(e.g. export NUMBA_CACHE_DIR=$HOME/.numba-cache) and restart Python")


def kernel(function: F) -> Dispatcher[F]:
    """``numba.njit(cache=True)``, or plain ``njit`` when numba can write a cache nowhere.

    numba's own stubs type the dispatcher by the function it compiles, so a call of a kernel
    is checked against the Python function's annotations (which numba itself ignores: it
    compiles for the types of the arguments it is given).
    """
    return _compiled(function, {})


def step(function: F) -> Dispatcher[F]:
    """A :func:`kernel` for one step of a hot loop: inlined into its caller, no reference counts.

    A compiled function that receives arrays counts references to them on entry and exit
    (atomic operations of numba's runtime), and a loop's own pruning of those counts cannot
    see into a function it calls: splitting the MCCFR walks into per-node helpers made them
    4 to 14 times slower in CPU time.  ``_nrt=False`` (numba's switch for its runtime, so
    such a step allocates no array) drops the counts and ``forceinline`` asks LLVM to inline
    the step, which brings the split walks back to the speed of one long loop.
    """
    return _compiled(function, {"_nrt": False, "forceinline": True})


def _compiled(function: F, options: dict[str, Any]) -> Dispatcher[F]:
    dispatcher: Dispatcher[F]  # njit(**options) is untyped: numba's stubs see options as Any
    try:
        dispatcher = njit(cache=True, **options)(function)
    except RuntimeError as error:
        if "no locator available" not in str(error):
            raise
        _no_cache("numba cannot store compiled code anywhere (the cfrviz folder is read-only "
                  "and so is the user cache folder)", stacklevel=4)
        dispatcher = njit(**options)(function)
        return dispatcher
    _save_softly(dispatcher)
    return dispatcher


def _no_cache(why: str, stacklevel: int = 3) -> None:
    """Record (once) and warn why compiled code is not cached on disk."""
    global CACHE_PROBLEM
    if CACHE_PROBLEM is None:
        CACHE_PROBLEM = (f"{why}, so every new Python process compiles the engine again; to fix "
                         f"it, {_FIX}")
        warnings.warn(CACHE_PROBLEM, RuntimeWarning, stacklevel=stacklevel)


def _save_softly(dispatcher: Dispatcher[Any]) -> None:
    """Make a failed save of compiled code (``OSError``: disk full, quota, I/O) stop caching
    this kernel instead of failing the call that compiled it."""
    cache: Any = getattr(dispatcher, "_cache", None)  # numba's FunctionCache; see cache_folder
    save = getattr(cache, "save_overload", None)
    if cache is None or save is None:
        return

    @wraps(save)
    def save_overload(sig: object, data: object) -> None:
        try:
            save(sig, data)
        except OSError as error:
            cache.disable()
            _no_cache(f"numba could not save compiled code in {cache_folder(dispatcher)} "
                      f"({error.strerror or error})")

    cache.save_overload = save_overload


def cache_folder(dispatcher: Dispatcher[Any]) -> str | None:
    """The folder where numba stores a kernel's compiled code, or None without a disk cache."""
    cache = getattr(dispatcher, "_cache", None)  # numba's FunctionCache; no public accessor
    path = getattr(cache, "cache_path", None)
    return str(path) if path else None
