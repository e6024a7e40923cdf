"""benchmarks/RESULTS.md, written by the benchmark scripts themselves, never by hand.

Each script ends with ``with recorded("bench_x"): main()``: what it prints is shown as usual and,
when it finishes, replaces its own section of RESULTS.md (between two ``<!-- bench_x -->``
markers), stamped with the date, the machine (cores, load average when the run started), the
Python and the command that produced it.  A run that fails writes nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

RESULTS = Path(__file__).resolve().with_name("RESULTS.md")


def command() -> str:
    """The command line that runs this script, as a reader would type it from the repository."""
    script = Path(sys.argv[0]).resolve()
    try:
        shown = script.relative_to(RESULTS.parent.parent).as_posix()
    except ValueError:
        shown = str(script)
    return " ".join([".venv/bin/python", shlex.quote(shown), *map(shlex.quote, sys.argv[1:])])


def revision() -> str:
    """The commit measured, and whether the package had uncommitted changes ('' without git)."""
    root = RESULTS.parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, text=True,
                                capture_output=True, timeout=30, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "cfrviz"], cwd=root,
                               text=True, capture_output=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    return f"commit {commit}" + (" with uncommitted changes to cfrviz/" if dirty.strip() else "")


def machine(load: float | None = None) -> str:
    """Cores, load average (the 1-minute one, at ``load`` or now) and Python."""
    if load is None:
        load = os.getloadavg()[0]
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, load average "
            f"{load:.2f} at the start, Python {platform.python_version()}")


def write_section(name: str, markdown: str, command: str, *, load: float | None = None,
                  path: Path = RESULTS) -> None:
    """Replace the section between the ``<!-- name -->`` markers of ``path`` (append it if absent).

    The section is stamped with the date, the machine, ``load`` (the load average when the
    measurement started; now if not given), the commit measured and ``command``.
    """
    marker = f"<!-- {name} -->"
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    measured = revision()
    section = (f"{marker}\n## {name}\n\nWritten by the script on {stamp}; {machine(load)}"
               f"{'; ' + measured if measured else ''}.\n"
               f"Command: `{command}`\n\n{markdown.strip()}\n{marker}")
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    parts = text.split(marker)
    if len(parts) == 3:
        text = parts[0] + section + parts[2]
    elif len(parts) == 1:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    else:
        raise ValueError(f"{path} holds {len(parts) - 1} '{marker}' markers; expected 0 or 2")
    temporary = path.with_suffix(".md.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


class _Tee(io.TextIOBase):
    def __init__(self, shown) -> None:
        self.shown, self.kept = shown, io.StringIO()

    def write(self, text: str) -> int:
        self.shown.write(text)
        return self.kept.write(text)

    def flush(self) -> None:
        self.shown.flush()


@contextlib.contextmanager
def recorded(name: str, *, fenced: bool = True) -> Iterator[None]:
    """Print as usual; on success write what was printed as ``name``'s section of RESULTS.md.

    ``fenced``: the output is plain text (shown in a code block); False for scripts that print
    Markdown tables of their own.  A run that prints nothing writes nothing.
    """
    load = os.getloadavg()[0]
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    printed = tee.kept.getvalue().strip("\n")
    if not printed:  # the script skipped itself (a missing extra): keep the last results
        return
    if fenced:
        printed = f"```text\n{printed}\n```"
    else:  # the script's own headings go under the section's
        printed = re.sub(r"^(#+) ", r"##\1 ", printed, flags=re.MULTILINE)
    write_section(name, printed, command(), load=load)
    print(f"(written to {RESULTS.relative_to(RESULTS.parent.parent)}, section {name})",
          file=sys.stderr)
