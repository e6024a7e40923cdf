"""Size limits of the package, as tests (issue 31, "Limits as tests").

- complexity: ruff's mccabe rule (C901) at max-complexity 10, run on cfrviz/ as a subprocess,
  so this test and ``ruff check --select C901`` can never disagree;
- no module over 600 lines;
- no function over 60 lines, counted from its ``def`` line to its last line, docstring and
  nested functions included.

Each limit allows only the exceptions named below, each with its reason.  An exception that is
no longer over the limit fails too, so the lists only shrink; anything new over a limit fails.
(The debts named while issue 31 split the package, last 4 complex functions, 3 long modules
and 11 long functions, were all paid, and the lists that named them went with them.)
"""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

MAX_COMPLEXITY = 10
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60

# ---- the allowed exceptions: "path relative to cfrviz/::qualified name": "why" -------------
#: At most five, each with its reason.
COMPLEXITY_EXCEPTIONS: dict[str, str] = {}
#: Modules allowed over MAX_MODULE_LINES: "path relative to cfrviz/": "why".
LONG_MODULES: dict[str, str] = {}
#: Functions allowed over MAX_FUNCTION_LINES.
LONG_FUNCTIONS: dict[str, str] = {
    "reference/cfr.py::cfr_variant":
        "a reference read beside its papers: 24 of its lines are the docstring stating each "
        "variant's rule, the code that folds them in is one screen",
    "io/load.py::load_trace":
        "the public loader: 66 of its 96 lines are the docstring docs/API.md renders (what a "
        "trace file must hold and every refusal); the code is 30 lines",
}

PACKAGE = Path(__file__).resolve().parent.parent / "cfrviz"
ROOT = "(root)"  # the modules directly in cfrviz/: check.py, warm.py, jupyter_hooks.py, ...
FOLDERS = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()) + [ROOT]


def folder_of(relative: str) -> str:
    return relative.split("/")[0] if "/" in relative else ROOT


def per_folder(test):
    """Parametrise ``test`` by top-level folder (a failure names the folder at once)."""
    return pytest.mark.parametrize("folder", FOLDERS)(test)


def modules() -> dict[str, Path]:
    return {p.relative_to(PACKAGE).as_posix(): p for p in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def functions() -> dict[tuple[str, int], tuple[str, int]]:
    """``{(module, line of def): (qualified name, lines)}`` for every function of the package."""
    found = {}

    def visit(node, prefix, module):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                found[module, child.lineno] = (name, child.end_lineno - child.lineno + 1)
                visit(child, f"{name}.<locals>.", module)
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.", module)
            else:
                visit(child, prefix, module)

    for relative, path in modules().items():
        visit(ast.parse(path.read_text(encoding="utf-8")), "", relative)
    return found


def ruff_c901(path: Path) -> list[dict]:
    """ruff's C901 findings under ``path`` at MAX_COMPLEXITY (the project's other settings kept)."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "C901", "--no-cache", "--exit-zero",
         "--config", f"lint.mccabe.max-complexity = {MAX_COMPLEXITY}",
         "--output-format", "json", str(path)],
        capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


@functools.cache
def too_complex() -> dict[str, str]:
    """``{"module::qualified name": ruff's message}`` for every function over the limit."""
    found = {}
    for finding in ruff_c901(PACKAGE):
        relative = Path(finding["filename"]).resolve().relative_to(PACKAGE).as_posix()
        name, _ = functions()[relative, finding["location"]["row"]]
        found[f"{relative}::{name}"] = finding["message"]
    return found


def too_long_functions() -> dict[str, int]:
    return {f"{module}::{name}": lines for (module, _), (name, lines) in functions().items()
            if lines > MAX_FUNCTION_LINES}


def too_long_modules() -> dict[str, int]:
    return {relative: len(path.read_text(encoding="utf-8").splitlines())
            for relative, path in modules().items()
            if len(path.read_text(encoding="utf-8").splitlines()) > MAX_MODULE_LINES}


def in_folder(found: dict, folder: str, allowed: dict) -> list[str]:
    """What is over the limit in ``folder`` and not an allowed exception (``found``'s values:
    the measure, or ruff's message holding it)."""
    return [f"{key}: {value}" for key, value in sorted(found.items())
            if folder_of(key.split("::")[0]) == folder and key not in allowed]


@per_folder
def test_no_function_is_too_complex(folder):
    wrong = in_folder(too_complex(), folder, COMPLEXITY_EXCEPTIONS)
    assert not wrong, f"over ruff's C901 max-complexity {MAX_COMPLEXITY}:\n" + "\n".join(wrong)


@per_folder
def test_no_module_is_too_long(folder):
    wrong = in_folder(too_long_modules(), folder, LONG_MODULES)
    assert not wrong, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(wrong)


@per_folder
def test_no_function_is_too_long(folder):
    wrong = in_folder(too_long_functions(), folder, LONG_FUNCTIONS)
    assert not wrong, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(wrong)


def test_the_exceptions_are_few_named_and_still_needed():
    assert len(COMPLEXITY_EXCEPTIONS) <= 5
    for allowed, found in ((COMPLEXITY_EXCEPTIONS, too_complex()),
                           (LONG_MODULES, too_long_modules()),
                           (LONG_FUNCTIONS, too_long_functions())):
        for key, reason in allowed.items():
            assert reason.strip(), f"{key}: an exception needs its reason"
            assert key in found, f"{key} is within the limit now: remove its exception"


def test_the_complexity_check_sees_what_ruff_sees(tmp_path):
    """The measure itself: a function one branch over the limit is found, one at it is not."""
    def source(name, branches):
        body = "".join(f"    if x == {k}:\n        return {k}\n" for k in range(branches))
        return f"def {name}(x):\n{body}    return -1\n"

    (tmp_path / "sample.py").write_text(source("at_limit", MAX_COMPLEXITY - 1)
                                        + source("over_limit", MAX_COMPLEXITY))
    found = ruff_c901(tmp_path)
    assert [f["message"] for f in found] == [
        f"`over_limit` is too complex ({MAX_COMPLEXITY + 1} > {MAX_COMPLEXITY})"]
