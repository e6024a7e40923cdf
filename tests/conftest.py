"""Shared pytest setup: browser tests skip where they cannot run, except in CI."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# Let tests import the helper modules beside them (tests/_browser.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _browser import browser_unavailable


def pytest_runtest_setup(item):
    if item.get_closest_marker("browser") is None:
        return
    reason = browser_unavailable()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"browser tests must run in CI: install chromium ({reason})", pytrace=False)
    pytest.skip(f"browser test skipped: {reason}")


def compiled_kernels() -> dict[str, list[tuple[object, str]]]:
    """Every compiled kernel of cfrviz, found rather than listed: each numba dispatcher bound
    to a name in a loaded ``cfrviz`` module (its engine, and whatever imported a kernel from
    it), by the kernel's name, with the (module, name) pairs that hold it."""
    import importlib
    import pkgutil

    from numba.core.dispatcher import Dispatcher

    import cfrviz.engine
    import cfrviz.solvers  # every algorithm, and the kernels it binds

    # Every engine module, also those imported on first use (cfrviz.engine.multi): a module
    # imported later binds the patched kernel (``from .engine.multi import ...`` reads it).
    for info in pkgutil.walk_packages(cfrviz.engine.__path__, "cfrviz.engine."):
        importlib.import_module(info.name)

    found: dict[str, list[tuple[object, str]]] = {}
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == "cfrviz" or module_name.startswith("cfrviz.")):
            continue
        for name, value in list(vars(module).items()):
            if isinstance(value, Dispatcher):
                found.setdefault(value.py_func.__name__, []).append((module, name))
    return found


@pytest.fixture
def no_compiled_code(monkeypatch):
    """Every compiled kernel raises: reaching one fails the test (used to show that a bad
    argument, trace or game is refused before any compiled code runs).  The kernels are
    found (:func:`compiled_kernels`), so a new one is covered the day it is written.

    One caller may still reach them: :mod:`cfrviz.io`, whose save and load check a trace by
    computing a few of its records' exploitability again (a test saves or loads the trace it
    then doctors)."""

    def stopped(kernel):
        def explode(*args, **kwargs):
            frame = sys._getframe(1)
            while frame is not None:
                if frame.f_globals.get("__name__", "").startswith("cfrviz.io."):
                    return kernel(*args, **kwargs)
                frame = frame.f_back
            raise AssertionError(f"compiled code was reached: {kernel.py_func.__name__}")
        return explode

    for holders in compiled_kernels().values():
        for module, name in holders:
            monkeypatch.setattr(module, name, stopped(getattr(module, name)))


# Games shared by many test modules. A GameTree is frozen with read-only arrays, so one copy per
# session is safe; a module that needs its own variant defines a fixture of the same name.
@pytest.fixture(scope="session")
def kuhn():
    import cfrviz

    return cfrviz.load_game("kuhn_poker")


@pytest.fixture(scope="session")
def leduc():
    import cfrviz

    return cfrviz.load_game("leduc_poker")
