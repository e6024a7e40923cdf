"""The install check: passes here, and names the problem and its fix when something is wrong."""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cfrviz import check as check_module
from cfrviz.check import (
    REQUIREMENTS,
    Check,
    CheckReport,
    check,
    check_package,
    check_python,
    check_widgets_front_end,
    is_at_least,
    main,
    run_checks,
    version_tuple,
)

ROOT = Path(__file__).resolve().parent.parent


def _pyproject_bounds() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    bounds = {}
    for requirement in project["dependencies"]:
        name, minimum = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement).groups()
        bounds[name] = minimum
    return bounds


def test_bounds_agree_with_pyproject():
    assert _pyproject_bounds() == REQUIREMENTS


def test_minimum_python_agrees_with_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["requires-python"] == ">=" + ".".join(map(str, check_module.MINIMUM_PYTHON))


def test_everything_passes_in_this_environment():
    report = run_checks()
    assert report.ok, report.text()
    names = [item.name for item in report]
    assert names[0] == "python"
    assert set(REQUIREMENTS) <= set(names)
    assert {"widgets front end", "JupyterLab extensions", "plotly FigureWidget"} <= set(names)


@pytest.mark.parametrize(
    ("version", "minimum", "expected"),
    [
        ("8.1.9", "8.1", True),
        ("8.1", "8.1", True),
        ("6", "6.0", True),
        ("8.0.7", "8.1", False),
        ("10.0", "9.9", True),  # numeric, not string, comparison
        ("6.29.0rc1", "6.29", True),
        ("1.26.0.post1", "1.26", True),
        ("0.8.9", "0.9", False),
    ],
)
def test_version_comparison(version, minimum, expected):
    assert is_at_least(version, minimum) is expected


def test_unreadable_version_is_an_error():
    with pytest.raises(ValueError, match="cannot read version"):
        version_tuple("unknown")


def _pretend_missing(monkeypatch, missing: str) -> None:
    """Make ``missing`` look uninstalled to both importlib.metadata and import."""
    real_version, real_import = importlib.metadata.version, importlib.import_module

    def version(name):
        if name == missing:
            raise importlib.metadata.PackageNotFoundError(name)
        return real_version(name)

    def import_module(name, *args):
        if name.split(".")[0] == missing:
            raise ModuleNotFoundError(f"No module named {missing!r}")
        return real_import(name, *args)

    monkeypatch.setattr(importlib.metadata, "version", version)
    monkeypatch.setattr(importlib, "import_module", import_module)


def _pretend_version(monkeypatch, package: str, fake: str) -> None:
    real_version = importlib.metadata.version
    monkeypatch.setattr(
        importlib.metadata, "version", lambda name: fake if name == package else real_version(name)
    )


def test_missing_package_is_reported_with_the_fix(monkeypatch):
    _pretend_missing(monkeypatch, "anywidget")
    result = check_package("anywidget", "0.9")
    assert result == Check(
        "anywidget",
        False,
        "anywidget is not installed; to fix it, run `make lab` again from the cfrviz folder, "
        "or run `pip install 'anywidget>=0.9'`",
    )


def test_too_old_package_is_reported(monkeypatch):
    _pretend_version(monkeypatch, "plotly", "5.24.1")
    report = run_checks()
    assert not report.ok
    (failure,) = report.failures
    assert failure.name == "plotly"
    assert "plotly 5.24.1 is too old (cfrviz needs 6.1.1 or newer)" in failure.message
    assert "pip install 'plotly>=6.1.1'" in failure.message


def test_package_that_does_not_import_is_reported(monkeypatch):
    def broken(_name, *_args):
        raise ImportError("libopenblas.so: cannot open shared object file")

    monkeypatch.setattr(importlib, "import_module", broken)
    result = check_package("numpy", "1.26")
    assert not result.ok
    assert "installed but does not import" in result.message
    assert "libopenblas" in result.message


def test_old_python_is_reported():
    result = check_python((3, 10, 12))
    assert not result.ok
    assert "Python 3.10.12 is too old" in result.message
    assert "make lab" in result.message
    assert check_python((3, 11, 0)).ok


def test_missing_widget_front_end_is_reported(monkeypatch):
    _pretend_missing(monkeypatch, "jupyterlab_widgets")
    result = check_widgets_front_end()
    assert not result.ok
    assert "jupyterlab_widgets" in result.message and "not installed" in result.message


def test_mismatched_widget_front_end_is_reported(monkeypatch):
    _pretend_version(monkeypatch, "jupyterlab_widgets", "1.1.7")
    result = check_widgets_front_end()
    assert not result.ok
    assert "does not match" in result.message
    assert "ipywidgets 8 needs jupyterlab_widgets 3" in result.message


def test_missing_lab_extension_is_reported(monkeypatch):
    monkeypatch.setitem(check_module.FRONT_END_EXTENSIONS, "@example/not-installed", "example")
    result = check_module.check_lab_extensions()
    assert not result.ok
    assert "@example/not-installed" in result.message
    assert "'example'" in result.message


def test_broken_figure_widget_is_reported(monkeypatch):
    from cfrviz.widgets import figure_widget

    def fail():
        raise ImportError("Please install anywidget to use the FigureWidget class")

    monkeypatch.setattr(figure_widget, "FigureWidget", fail)
    result = check_module.check_figure_widget()
    assert not result.ok
    assert "pip install 'plotly>=6.1.1' 'anywidget>=0.9'" in result.message


def test_report_text_and_html():
    report = CheckReport(
        [Check("a", True, "all good"), Check("b", False, "b is missing; run `make lab`")]
    )
    assert report.text() == (
        "✓ all good\n✗ b is missing; run `make lab`\n1 problem to fix (see the lines marked above)."
    )
    assert "<code>make lab</code>" in report.html()
    assert not hasattr(report, "_repr_html_")  # check() displays it once, not twice
    assert repr(report) == "<cfrviz check: 1 of 2 checks failed: b>"


def test_main_exits_1_and_prints_the_failure(monkeypatch, capsys):
    _pretend_missing(monkeypatch, "networkx")
    assert main() == 1
    out = capsys.readouterr().out
    assert "✗ networkx is not installed" in out
    assert "pip install 'networkx>=3.2'" in out


def test_check_returns_the_report(capsys):
    report = check()
    assert isinstance(report, CheckReport) and report.ok
    assert "All set" in capsys.readouterr().out


def test_command_line_succeeds_here():
    done = subprocess.run(
        [sys.executable, "-m", "cfrviz.check"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All set" in done.stdout


def test_check_reports_missing_numpy_instead_of_crashing():
    # `import cfrviz` must not need numpy, so the check can say what is missing.
    import subprocess
    import sys

    code = ("import sys; sys.modules['numpy'] = None\n"
            "import runpy; runpy.run_module('cfrviz.check', run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "✗ numpy" in result.stdout and "pip install 'numpy>=1.26'" in result.stdout
