"""Part of a function's source, shown with the line numbers of its file.

The lessons walk through the reference algorithms a few lines at a time:
``listing(walk, "info = tree.infoset[node]", "return value")`` shows exactly
the lines the text explains, read from the installed package, so the lesson
and the code cannot drift apart.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from ..core.markup import escape

_PRE = ("font-family: var(--jp-code-font-family, monospace); font-size: 0.95em; "
        "line-height: 1.35; margin: 0")


@dataclass(frozen=True, repr=False)
class Listing:
    """Lines of a function's source with the line numbers of its file."""

    name: str
    first: int
    lines: tuple

    def __str__(self) -> str:
        width = len(str(self.first + len(self.lines) - 1))
        return "\n".join(f"{self.first + n:>{width}}  {line}"
                         for n, line in enumerate(self.lines))

    __repr__ = __str__

    def _repr_html_(self) -> str:
        code = "\n".join(self.lines)
        try:
            from pygments import highlight
            from pygments.formatters import HtmlFormatter
            from pygments.lexers import PythonLexer
            body = highlight(code, PythonLexer(),
                             HtmlFormatter(noclasses=True, linenos="inline", prestyles=_PRE,
                                           linenostart=self.first, nobackground=True))
        except ImportError:  # pygments comes with IPython; plain text if it is missing
            body = f"<pre style='{_PRE}'>{escape(str(self))}</pre>"
        return (f"<div style='font-size:90%'><i>{escape(self.name)}</i>, lines "
                f"{self.first}-{self.first + len(self.lines) - 1}{body}</div>")


def listing(function, start: str | None = None, stop: str | None = None) -> Listing:
    """The lines of ``function``'s source from the first containing ``start`` up to and
    including the next containing ``stop`` (the whole function by default), continued
    to the end of the statement when brackets are still open there.

    Raises
    ------
    ValueError
        When ``start`` or ``stop`` does not occur in the source.
    """
    lines, first = inspect.getsourcelines(function)
    lines = [line.rstrip("\n") for line in lines]
    name = f"{function.__module__}.{function.__qualname__}"
    begin = 0
    if start is not None:
        found = [n for n, line in enumerate(lines) if start in line]
        if not found:
            raise ValueError(f"{start!r} does not occur in the source of {name}")
        begin = found[0]
    end = len(lines) - 1
    if stop is not None:
        found = [n for n, line in enumerate(lines) if n >= begin and stop in line]
        if not found:
            raise ValueError(f"{stop!r} does not occur after {start!r} in the source of {name}")
        end = found[0]
        while end + 1 < len(lines) and _open_brackets(lines[begin:end + 1]) > 0:
            end += 1
    chunk = lines[begin:end + 1]
    indent = min((len(line) - len(line.lstrip()) for line in chunk if line.strip()), default=0)
    return Listing(name, first + begin, tuple(line[indent:] for line in chunk))


def _open_brackets(lines) -> int:
    """How many brackets the lines leave open (strings and comments are rare enough here that
    counting characters is good enough for choosing where a listing ends)."""
    text = "\n".join(lines)
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
