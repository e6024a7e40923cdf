"""docs/API.md is generated from the docstrings (tools/api_docs.py) and cannot drift from them;
every public name has a docstring of its own."""

from __future__ import annotations

import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "api_docs.py"


def _tool():
    spec = importlib.util.spec_from_file_location("api_docs", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


API = _tool()


def test_the_page_is_what_the_docstrings_give():
    # A fresh process: tests that register toy games or algorithms must not change the page.
    done = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def _own_doc(value) -> str:
    doc = vars(value).get("__doc__") if inspect.isclass(value) else value.__doc__
    doc = inspect.cleandoc(doc or "")
    if inspect.isclass(value) and doc.startswith(f"{value.__name__}("):
        return ""  # the signature a dataclass writes when it has no docstring
    return doc


@pytest.mark.parametrize("module", [m for m, _ in API.MODULES])
def test_every_public_function_and_class_has_a_docstring(module):
    shown = next(names for name, _, names in API.documented() if name == module)
    missing = [name for name, value in shown
               if (inspect.isclass(value) or inspect.isroutine(value)) and not _own_doc(value)]
    assert not missing, f"{module}: no docstring for {missing}"
    for name in API.public_names(module):
        assert hasattr(importlib.import_module(module), name), f"{module}.__all__ names {name}"


def test_lazy_packages_name_what_they_import():
    """cfrviz and cfrviz.widgets import a name's module on its first use: their __all__ is
    exactly the names they map to modules, and each name is its module's own."""
    for package in ("cfrviz", "cfrviz.widgets"):
        lazy = importlib.import_module(package)
        assert sorted(lazy.__all__) == sorted(lazy._EXPORTS), package
        for name, module in lazy._EXPORTS.items():
            assert name in vars(importlib.import_module(f"{package}.{module}")), (package, name)


def test_the_page_documents_every_name_of_the_root():
    import cfrviz

    page = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
    missing = [name for name in cfrviz.__all__ if f"### `cfrviz.{name}`" not in page]
    assert not missing, missing


def test_a_numpy_docstring_becomes_markdown():
    doc = '''Do a thing.

    Parameters
    ----------
    game : GameTree
        A game from :func:`cfrviz.load_game`, spanning
        two lines.
    seed : int, optional
        The ``numpy`` seed.

    Returns
    -------
    float

    Example::

        cfrviz.solve(game)
    '''
    assert API.docstring_markdown(doc) == (
        "Do a thing.\n\n**Parameters**\n\n"
        "- `game` (GameTree): A game from `cfrviz.load_game`, spanning two lines.\n"
        "- `seed` (int, optional): The `numpy` seed.\n\n"
        "**Returns**\n\n- `float`\n\nExample:\n\n```\ncfrviz.solve(game)\n```")


def test_a_signature_shows_no_memory_address():
    sentinel = object()

    def f(a: int, b=sentinel, *, c: str = "x", **rest) -> None:
        """Doc."""

    assert API.signature("f", f) == "f(a: int, b=<object object>, *, c: str = 'x', **rest) -> None"
