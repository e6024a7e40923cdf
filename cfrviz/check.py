"""Check that this computer is ready for the cfrviz course.

Run it from a terminal::

    python -m cfrviz.check

or from a notebook::

    from cfrviz.check import check
    check()

Each check prints one line in plain words, with a way to fix it when it fails. The command
exits with status 1 if anything failed. This module imports only the standard library, so it
can report a missing package instead of crashing on it. (``python -m cfrviz.check`` runs
``cfrviz/__init__.py`` first, which needs numpy; ``python cfrviz/check.py`` does not.)
"""

from __future__ import annotations

import html
import importlib
import importlib.metadata
import json
import re
import sys
from pathlib import Path
from typing import NamedTuple

#: Lower bounds from ``[project] dependencies`` in pyproject.toml (tests/test_check.py checks
#: they agree). Keys are distribution names; each one is imported under the same name.
REQUIREMENTS: dict[str, str] = {
    "numpy": "1.26",
    "numba": "0.60",
    "tqdm": "4.66",
    "plotly": "6.1.1",
    "anywidget": "0.9",
    "ipywidgets": "8.1",
    "networkx": "3.2",
    "jupyterlab": "4.2",
    "ipykernel": "6.29",
    "voila": "0.5.7",
    "scipy": "1.11.1",
    "threadpoolctl": "3.1",
    "kaleido": "1.0",
}

MINIMUM_PYTHON = (3, 11)

#: JupyterLab front ends that draw the widgets: the ipywidgets manager and anywidget's
#: (plotly's FigureWidget is an anywidget).
FRONT_END_EXTENSIONS = {
    "@jupyter-widgets/jupyterlab-manager": "jupyterlab_widgets",
    "anywidget": "anywidget",
}

REINSTALL = "run `make lab` again from the cfrviz folder"


class Check(NamedTuple):
    """The outcome of one check: a short name, whether it passed, and a sentence for the user."""

    name: str
    ok: bool
    message: str


class CheckReport(list):
    """The list of :class:`Check` results, with a one-line summary as its repr."""

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return all(item.ok for item in self)

    @property
    def failures(self) -> list[Check]:
        return [item for item in self if not item.ok]

    def __repr__(self) -> str:
        if self.ok:
            return f"<cfrviz check: all {len(self)} checks passed>"
        names = ", ".join(item.name for item in self.failures)
        return f"<cfrviz check: {len(self.failures)} of {len(self)} checks failed: {names}>"

    def text(self, passed: str = "✓", failed: str = "✗") -> str:
        """The report as plain text, one line per check."""
        lines = [f"{passed if item.ok else failed} {item.message}" for item in self]
        lines.append(_summary(self))
        return "\n".join(lines)

    def html(self) -> str:
        """The report as HTML, one line per check.

        Deliberately not ``_repr_html_``: ``check()`` already displays the report, so the
        returned value shows only its one-line summary as a cell's output.
        """
        rows = "".join(
            f'<li style="list-style:none">'
            f'<span style="color:{"#1a7f37" if item.ok else "#cf222e"}">'
            f'{"✓" if item.ok else "✗"}</span> {_code_to_html(item.message)}</li>'
            for item in self
        )
        return (
            f'<div class="cfrviz-check"><ul style="padding-left:0">{rows}</ul>'
            f"<p><b>{html.escape(_summary(self))}</b></p></div>"
        )


def _summary(report: CheckReport) -> str:
    if report.ok:
        return "All set: your computer is ready for the course."
    count = len(report.failures)
    return f"{count} problem{'s' if count > 1 else ''} to fix (see the lines marked above)."


def _code_to_html(message: str) -> str:
    """Escape a message and show its `backquoted` parts as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(message))


def version_tuple(version: str) -> tuple[int, ...]:
    """Read the leading release numbers of a version string: ``"8.1.9rc1"`` gives (8, 1, 9)."""
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", version)
    if match is None:
        raise ValueError(f"cannot read version {version!r}")
    return tuple(int(part) for part in match.group(1).split("."))


def is_at_least(version: str, minimum: str) -> bool:
    """True when ``version`` is ``minimum`` or newer (``"6.0"`` and ``"6"`` are equal)."""
    have, need = version_tuple(version), version_tuple(minimum)
    width = max(len(have), len(need))
    return have + (0,) * (width - len(have)) >= need + (0,) * (width - len(need))


def _pip_fix(name: str, minimum: str) -> str:
    return f"to fix it, {REINSTALL}, or run `pip install '{name}>={minimum}'`"


def check_python(version_info=None) -> Check:
    """Python must be 3.11 or newer."""
    info = tuple(version_info or sys.version_info)[:3]
    shown = ".".join(str(part) for part in info)
    need = ".".join(str(part) for part in MINIMUM_PYTHON)
    if info[:2] >= MINIMUM_PYTHON:
        return Check("python", True, f"Python {shown} (cfrviz needs {need} or newer)")
    return Check(
        "python",
        False,
        f"Python {shown} is too old: cfrviz needs {need} or newer. To fix it, install Python "
        f"{need}, delete the `.venv` folder and run `make lab` again",
    )


def check_package(name: str, minimum: str) -> Check:
    """The package must be installed, importable, and at least version ``minimum``."""
    try:
        version = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return Check(name, False, f"{name} is not installed; {_pip_fix(name, minimum)}")
    if not is_at_least(version, minimum):
        return Check(
            name,
            False,
            f"{name} {version} is too old (cfrviz needs {minimum} or newer); "
            f"{_pip_fix(name, minimum)}",
        )
    try:
        importlib.import_module(name)
    except Exception as error:  # a broken install can fail in many ways; report, don't crash
        return Check(
            name,
            False,
            f"{name} {version} is installed but does not import ({type(error).__name__}: "
            f"{error}); {_pip_fix(name, minimum)}",
        )
    return Check(name, True, f"{name} {version} (cfrviz needs {minimum} or newer)")


def check_widgets_front_end() -> Check:
    """JupyterLab's widget front end (jupyterlab_widgets) must match ipywidgets 8."""
    name = "widgets front end"
    fix = f"to fix it, {REINSTALL}, or run `pip install 'ipywidgets>=8.1' 'jupyterlab_widgets>=3'`"
    try:
        widgets = importlib.metadata.version("ipywidgets")
    except importlib.metadata.PackageNotFoundError:
        return Check(name, False, f"the widget front end cannot work without ipywidgets; {fix}")
    try:
        front_end = importlib.metadata.version("jupyterlab_widgets")
    except importlib.metadata.PackageNotFoundError:
        return Check(
            name,
            False,
            f"jupyterlab_widgets (the part of ipywidgets that draws sliders in JupyterLab) "
            f"is not installed, so widgets would show as plain text; {fix}",
        )
    # ipywidgets 8 pairs with jupyterlab_widgets 3 (ipywidgets 7 went with 1).
    if version_tuple(widgets)[0] != 8 or version_tuple(front_end)[0] != 3:
        return Check(
            name,
            False,
            f"jupyterlab_widgets {front_end} does not match ipywidgets {widgets} (ipywidgets 8 "
            f"needs jupyterlab_widgets 3), so widgets would not display; {fix}",
        )
    return Check(name, True, f"jupyterlab_widgets {front_end} matches ipywidgets {widgets}")


def check_lab_extensions() -> Check:
    """JupyterLab must find the front-end extensions that draw widgets and plotly figures."""
    name = "JupyterLab extensions"
    try:
        from jupyter_core.paths import jupyter_path
    except ImportError:
        return Check(name, False,
                     f"jupyter_core is missing, so JupyterLab cannot run; to fix it, {REINSTALL}")
    folders = [Path(folder) for folder in jupyter_path("labextensions")]
    found, missing = [], []
    for extension, package in FRONT_END_EXTENSIONS.items():
        for folder in folders:
            manifest = folder / extension / "package.json"
            if manifest.is_file():
                try:
                    version = json.loads(manifest.read_text(encoding="utf-8")).get("version", "?")
                except (OSError, ValueError):
                    version = "?"
                found.append(f"{extension} {version}")
                break
        else:
            missing.append((extension, package))
    if missing:
        names = ", ".join(extension for extension, _ in missing)
        packages = " ".join(f"'{package}'" for _, package in missing)
        return Check(
            name,
            False,
            f"JupyterLab cannot find the extension{'s' if len(missing) > 1 else ''} {names}, so "
            f"widgets or figures would not display; to fix it, {REINSTALL}, or run "
            f"`pip install --force-reinstall {packages}`",
        )
    return Check(name, True, "JupyterLab has the extensions that draw widgets and figures ("
                 + ", ".join(found) + ")")


def check_figure_widget() -> Check:
    """A plotly FigureWidget (the interactive figure the lessons use) can be built."""
    name = "plotly FigureWidget"
    try:
        from cfrviz.widgets.figure_widget import FigureWidget

        FigureWidget().close()  # cfrviz's own: plotly's would send its 5 MB front end again
    except Exception as error:
        return Check(
            name,
            False,
            f"plotly's interactive FigureWidget cannot be built ({type(error).__name__}: {error}); "
            f"to fix it, {REINSTALL}, or run `pip install 'plotly>={REQUIREMENTS['plotly']}' "
            f"'anywidget>={REQUIREMENTS['anywidget']}'`",
        )
    return Check(name, True, "plotly can build the interactive FigureWidget the lessons use")


def check_compile_cache() -> Check:
    """Numba must be able to store the engine's compiled code, so it compiles only once.

    Only looks where the cache is (importing the engine compiles nothing); ``cfrviz.warm``
    fills it.
    """
    name = "compile cache"
    try:
        from .engine import cache_folders
        from .engine.jit import CACHE_PROBLEM

        folders = cache_folders()
    except Exception as error:  # numpy or numba missing or broken: reported above
        return Check(name, False, f"the compiled engine cannot be loaded ({type(error).__name__}: "
                                  f"{error}); to fix it, {REINSTALL}")
    if CACHE_PROBLEM:
        return Check(name, False, CACHE_PROBLEM)
    where = " and ".join(folders) or "numba's cache folder"
    return Check(name, True, f"numba keeps the engine's compiled code in {where}, so it "
                             "compiles once (`python -m cfrviz.warm` does it ahead of time)")


def kernel_shell():
    """The IPython shell if this code runs in a Jupyter kernel, else None."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return None
    shell = ipython.get_ipython()
    return shell if shell is not None and hasattr(shell, "kernel") else None


def check_kernel() -> Check:
    """Report where this runs: a Jupyter kernel (and which Python) or a plain terminal.

    Informational: it passes either way.
    """
    if kernel_shell() is not None:
        return Check("kernel", True,
                     f"running in a Jupyter kernel with the Python at {sys.executable}")
    return Check(
        "kernel",
        True,
        f"running in plain Python at {sys.executable} (not a notebook); "
        "to open the lessons, run `make lab`",
    )


def run_checks() -> CheckReport:
    """Run every check and return the results without showing them."""
    report = CheckReport([check_python()])
    report.extend(check_package(name, minimum) for name, minimum in REQUIREMENTS.items())
    report.append(check_widgets_front_end())
    report.append(check_lab_extensions())
    report.append(check_figure_widget())
    report.append(check_compile_cache())
    report.append(check_kernel())
    return report


def _printable_marks(stream) -> tuple[str, str]:
    """✓ and ✗, or OK and FAIL on a terminal that cannot show them."""
    try:
        "✓✗".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "OK  ", "FAIL"
    return "✓", "✗"


def show(report: CheckReport) -> None:
    """Show the report: as HTML in a notebook, as text elsewhere."""
    if kernel_shell() is not None:
        from IPython.display import HTML, display

        display(HTML(report.html()))
    else:
        print(report.text(*_printable_marks(sys.stdout)))


def check(show_report: bool = True) -> CheckReport:
    """Check that this computer is ready for the course.

    Parameters
    ----------
    show_report : bool
        Show one line per check (HTML in a notebook, text elsewhere).

    Returns
    -------
    CheckReport
        A list of :class:`Check` tuples ``(name, ok, message)``; its ``ok`` attribute is True
        when everything passed.
    """
    report = run_checks()
    if show_report:
        show(report)
    return report


def main() -> int:
    """Command-line entry point: show the report and return 1 if anything failed."""
    return 0 if check().ok else 1


if __name__ == "__main__":
    sys.exit(main())
