"""The one decorator every kernel wears: numba's ``njit`` with its compiled code cached on disk.

``cache=True`` makes numba write each kernel's machine code to a ``__pycache__`` folder next
to its source (here, the checkout for an editable install), or, where that folder is
read-only, to ``NUMBA_CACHE_DIR`` if set, else to a ``numba`` folder in the user's cache
directory.  A new Python process then loads a kernel in a fraction of a second instead of
compiling it for seconds (:mod:`cfrviz.warm` compiles them all ahead of time).

Where numba finds nowhere to write, ``njit(cache=True)`` raises at import time; :func:`kernel`
then compiles without a disk cache, so the course still runs (each new process pays the
compilation), and :data:`CACHE_PROBLEM` says why and how to fix it.
"""

from __future__ import annotations

import warnings

from numba import njit

__all__ = ["CACHE_PROBLEM", "cache_folder", "kernel"]

#: Why compiled code cannot be cached on disk, or None when it can.
CACHE_PROBLEM: str | None = None

_FIX = ("set the environment variable NUMBA_CACHE_DIR to a folder you can write to "
        "(e.g. export NUMBA_CACHE_DIR=$HOME/.numba-cache) and restart Python")


def kernel(function):
    """``numba.njit(cache=True)``, or plain ``njit`` when numba can write a cache nowhere."""
    global CACHE_PROBLEM
    try:
        return njit(cache=True)(function)
    except RuntimeError as error:
        if "no locator available" not in str(error):
            raise
        if CACHE_PROBLEM is None:
            CACHE_PROBLEM = (f"numba cannot store compiled code anywhere (the cfrviz folder is "
                             f"read-only and so is the user cache folder), so every new Python "
                             f"process compiles the engine again; to fix it, {_FIX}")
            warnings.warn(CACHE_PROBLEM, RuntimeWarning, stacklevel=2)
        return njit(function)


def cache_folder(dispatcher) -> str | None:
    """The folder where numba stores a kernel's compiled code, or None without a disk cache."""
    cache = getattr(dispatcher, "_cache", None)  # numba's FunctionCache; no public accessor
    path = getattr(cache, "cache_path", None)
    return str(path) if path else None
