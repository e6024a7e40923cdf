"""Write docs/API.md, the API reference, from the public names' docstrings.

    .venv/bin/python tools/api_docs.py           # rewrite docs/API.md
    .venv/bin/python tools/api_docs.py --check   # exit 1 if docs/API.md is not what it would write

The page is generated, never edited by hand: a docstring is the one place a public name is
described, and ``tests/test_api_docs.py`` fails when the page and the docstrings part.  Public
names are those of ``cfrviz`` (its lazy root's ``__all__``) and of the public modules in
``MODULES``; each function and class is shown as its signature and its numpy-style docstring
rendered as Markdown, a class with its public methods and properties.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "API.md"

#: The public modules, in reading order, with one line on what each holds.  Names a module
#: exports that an earlier module already shows are shown once, where first met.
MODULES = (
    ("cfrviz", "the package root: everything a lesson calls"),
    ("cfrviz.games", "the game registry, the built-in games and OpenSpiel's games"),
    ("cfrviz.games.public", "public states, ranges and the public tree (vector-form CFR)"),
    ("cfrviz.solvers", "solve() and the algorithm registry"),
    ("cfrviz.reference", "the readable recursive algorithms the lessons show"),
    ("cfrviz.play", "matches between policies"),
    ("cfrviz.io", "saving and loading traces"),
    ("cfrviz.views", "plotly figures, pure functions of a tree and a trace"),
    ("cfrviz.widgets", "the ipywidgets the lessons show"),
    ("cfrviz.widgets.export", "static export (PNG, SVG, PDF) of figures and widgets"),
)

_SECTIONS = ("Parameters", "Other Parameters", "Returns", "Yields", "Raises", "Warns",
             "Attributes", "Examples", "Notes", "References", "See Also")
_ITEMS = {"Parameters", "Other Parameters", "Returns", "Yields", "Raises", "Warns", "Attributes"}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def public_names(module_name: str) -> list[str]:
    """The module's ``__all__`` (the root's lazy exports included)."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        raise ValueError(f"{module_name} has no __all__: its public names are not declared")
    return list(names)


def documented() -> Iterator[tuple[str, str, list[tuple[str, Any]]]]:
    """(module, what it holds, [(name, object)]) for each public module, each object once."""
    seen: set[int] = set()
    for module_name, summary in MODULES:
        module = importlib.import_module(module_name)
        shown = []
        for name in sorted(public_names(module_name), key=lambda n: (n.lower(), n)):
            value = getattr(module, name)
            if id(value) in seen and (inspect.isclass(value) or inspect.isroutine(value)):
                continue
            seen.add(id(value))
            shown.append((name, value))
        yield module_name, summary, shown


def _annotation(annotation: Any) -> str:
    if isinstance(annotation, str):
        return annotation
    return inspect.formatannotation(annotation)


def signature(name: str, value: Callable[..., Any]) -> str:
    """``name(a: int, b: str = 'x') -> T``, with reprs free of memory addresses."""
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):
        return f"{name}(...)"
    result = f"{name}({parameters(sig)})"
    if sig.return_annotation is not sig.empty and not inspect.isclass(value):
        result += f" -> {_annotation(sig.return_annotation)}"
    return result


def parameters(sig: inspect.Signature) -> str:
    """A signature's parameters as written in ``def``, reprs free of memory addresses."""
    parts, star_done = [], False
    for p in sig.parameters.values():
        if p.kind is p.KEYWORD_ONLY and not star_done:
            parts.append("*")
        if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD, p.VAR_POSITIONAL):
            star_done = True
        text = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        if p.annotation is not p.empty:
            text += f": {_annotation(p.annotation)}"
        if p.default is not p.empty:
            text += f" = {_ADDRESS.sub('', repr(p.default))}" if p.annotation is not p.empty \
                else f"={_ADDRESS.sub('', repr(p.default))}"
        parts.append(text)
        if p.kind is p.POSITIONAL_ONLY and (
                next_kind := _next_kind(sig, p)) is not None and next_kind is not p.POSITIONAL_ONLY:
            parts.append("/")
    return ", ".join(parts)


def _next_kind(sig: inspect.Signature, p: inspect.Parameter) -> Any:
    names = list(sig.parameters)
    index = names.index(p.name)
    return sig.parameters[names[index + 1]].kind if index + 1 < len(names) else None


def _sphinx_roles(text: str) -> str:
    """``:func:`x``` and friends as code; ``code`` as `code`."""
    text = re.sub(r":(?:func|class|meth|attr|mod|data|obj|exc):`~?([^`]+)`", r"`\1`", text)
    return re.sub(r"``([^`]+)``", r"`\1`", text)


def docstring_markdown(doc: str) -> str:
    """A numpy-style docstring as Markdown: section titles in bold, parameters as a list,
    literal blocks (after ``::``) and doctest lines fenced."""
    lines = inspect.cleandoc(doc).splitlines()
    out: list[str] = []
    section = None
    i = 0
    while i < len(lines):
        line = lines[i]
        title = line.strip()
        if (title in _SECTIONS and i + 1 < len(lines)
                and re.fullmatch(r"-{3,}", lines[i + 1].strip())):
            section = title
            out += ["", f"**{title}**", ""]
            i += 2
            continue
        if line.rstrip().endswith("::") or line.lstrip().startswith(">>>"):
            block, i = _literal(lines, i)
            out += block
            continue
        if section in _ITEMS and line and not line[0].isspace():
            item = _sphinx_roles(line.strip())
            name, _, kind = item.partition(" : ")
            name = name if name.startswith("`") else f"`{name}`"
            description = []
            i += 1
            while i < len(lines) and (not lines[i] or lines[i][0].isspace()):
                if not lines[i] and (i + 1 >= len(lines) or not lines[i + 1][:1].isspace()):
                    break
                description.append(_sphinx_roles(lines[i].strip()))
                i += 1
            head = f"- {name}" + (f" ({kind.strip()})" if kind.strip() else "")
            body = " ".join(d for d in description if d)
            out.append(f"{head}: {body}" if body else head)
            continue
        out.append(_sphinx_roles(line.strip()) if section in _ITEMS else _sphinx_roles(line))
        i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def _literal(lines: list[str], i: int) -> tuple[list[str], int]:
    """A ``::`` paragraph's indented block, or a run of doctest lines, as a fenced block."""
    out: list[str] = []
    if lines[i].lstrip().startswith(">>>"):
        indent = len(lines[i]) - len(lines[i].lstrip())
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i][indent:])
            i += 1
        return ["", "```python", *block, "```", ""], i
    head = lines[i].rstrip()
    text = head[:-2].rstrip() if head.strip() != "::" else ""
    if text:
        out.append(_sphinx_roles(text + (":" if not text.endswith(":") else "")))
    i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i][:1].isspace():
        return out, i
    indent = len(lines[i]) - len(lines[i].lstrip())
    block = []
    while i < len(lines) and (not lines[i].strip() or
                              len(lines[i]) - len(lines[i].lstrip()) >= indent):
        block.append(lines[i][indent:])
        i += 1
    while block and not block[-1].strip():
        block.pop()
    return [*out, "", "```", *block, "```", ""], i


def _members(cls: type) -> Iterator[tuple[str, Any]]:
    """A class's own public methods and properties, in source order."""
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property) or inspect.isfunction(value):
            yield name, value


def entry(qualified: str, name: str, value: Any) -> str:
    """One name's section: heading, signature, docstring (and, for a class, its members)."""
    doc = inspect.getdoc(value) if inspect.isclass(value) or inspect.isroutine(value) else None
    if inspect.isclass(value) or inspect.isroutine(value):
        kind = "class" if inspect.isclass(value) else "function"
        shown = f"```python\n{kind} {signature(name, value)}\n```"
        parts = [f"### `{qualified}.{name}`", "", shown, "",
                 docstring_markdown(doc) if doc else "*No docstring.*"]
        if inspect.isclass(value):
            bare = []
            for member, attribute in _members(value):
                member_doc = attribute.__doc__ and inspect.cleandoc(attribute.__doc__)
                if not member_doc:  # listed, not described: its class's docstring may say more
                    bare.append(f"`{member}`")
                    continue
                if isinstance(attribute, property):
                    head = f"`{name}.{member}` (property)"
                else:
                    head = f"`{_method(signature(f'{name}.{member}', attribute))}`"
                parts += ["", f"#### {head}", "", docstring_markdown(member_doc)]
            if bare:
                parts += ["", f"Also public, without a docstring: {', '.join(bare)}."]
        return "\n".join(parts)
    return f"### `{qualified}.{name}`\n\nA constant: `{_ADDRESS.sub('', _short_repr(value))}`."


def _method(text: str) -> str:
    return text.replace("(self, ", "(").replace("(self)", "()")


def _short_repr(value: Any) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) <= 120 else f"{type(value).__name__} of {len(value)} items" \
        if hasattr(value, "__len__") else f"a {type(value).__name__}"


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def games_table() -> str:
    """The game registry as a table: what ``load_game`` accepts."""
    from cfrviz.games import GAMES

    rows = ["| name | what | parameters |", "|---|---|---|"]
    for name in GAMES:
        game = GAMES[name]
        params = _cell(parameters(inspect.signature(game.factory)))
        rows.append(f"| `{name}` | {_cell(game.summary)} | "
                    f"{f'`{params}`' if params else '—'} |")
    return ("The games `load_game(name, **params)` builds, as registered "
            "(`available_games()`):\n\n" + "\n".join(rows))


def algorithms_table() -> str:
    """The algorithm registry as a table: what ``solve`` accepts."""
    from cfrviz.solvers import ALGORITHMS

    rows = ["| algorithm | what | parameters (default) | paper |", "|---|---|---|---|"]
    for name in ALGORITHMS:
        entry = ALGORITHMS[name]
        params = ", ".join(f"`{p.name}={p.default!r}`" for p in entry.params)
        rows.append(f"| `{name}` | {_cell(entry.summary)} | {params or '—'} | "
                    f"{_cell(entry.paper) or '—'} |")
    return ("The algorithms `solve(game, algorithm, iterations, ...)` runs, as registered "
            "(`available_algorithms()`; `algorithm(name).params` gives each parameter's range "
            "and help):\n\n" + "\n".join(rows))


#: Tables read from the registries, shown at the top of their module's section.
REGISTRIES = {"cfrviz.games": games_table, "cfrviz.solvers": algorithms_table}


def render() -> str:
    """The whole page."""
    sections = []
    contents = []
    for module_name, summary, shown in documented():
        anchor = module_name.replace(".", "")
        contents.append(f"- [`{module_name}`](#{anchor}): {summary}")
        body = "\n\n".join(entry(module_name, name, value) for name, value in shown)
        table = f"{REGISTRIES[module_name]()}\n\n" if module_name in REGISTRIES else ""
        sections.append(f"## {module_name}\n\n{summary[0].upper()}{summary[1:]}.\n\n"
                        f"{table}{body}")
    head = ("# cfrviz API reference\n\n"
            "Generated from the docstrings by `tools/api_docs.py`; do not edit by hand (run\n"
            "`.venv/bin/python tools/api_docs.py` after changing a docstring; "
            "`tests/test_api_docs.py` checks that this page is what it writes).\n"
            "A name exported by several modules is shown once, where first met.\n\n"
            + "\n".join(contents))
    return head + "\n\n" + "\n\n".join(sections) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/API.md is not what the docstrings give")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run .venv/bin/python tools/api_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text):,} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
