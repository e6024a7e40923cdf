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


@pytest.fixture
def no_compiled_code(monkeypatch):
    """Every compiled kernel a run calls raises: reaching one fails the test (used to show that
    a bad trace or game is refused before any compiled code runs)."""
    from cfrviz import engine
    from cfrviz.solvers import driver

    def explode(*_args):
        raise AssertionError("compiled code was reached")

    for name in ("run_full_tree", "run_chance_sampling", "run_external_sampling",
                 "run_outcome_sampling"):
        monkeypatch.setattr(engine, name, explode)
    monkeypatch.setattr(driver, "tree_exploitability", explode)


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
