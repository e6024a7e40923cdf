"""Write a pip constraints file pinning every dependency to the lower bound pyproject.toml states.

    python tools/lower_bounds.py                  # [project] dependencies, to stdout
    python tools/lower_bounds.py --extra test -o build/lower-bounds.txt

Each requirement ``name>=X.Y`` (with any other clauses, e.g. ``,<X.Z``, and any ``; marker``)
becomes ``name==X.Y`` (``==1.26`` matches 1.26.0).  ``pip install -c that-file -e '.[test]'``
then installs exactly the oldest versions cfrviz claims to work with, and the quick tests show
whether the claim holds (.ci/run does this).  Packages those depend on are not pinned: pip picks
what fits.  A requirement with no ``>=`` bound is an error: a bound nobody tests is a guess.
Uses only the standard library, so it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name, optional [extras], the version clauses, optional ; marker
_REQUIREMENT = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?P<clauses>[^;]*?)\s*"
    r"(?:;\s*(?P<marker>.+?))?\s*$"
)


class BoundError(ValueError):
    """A requirement that states no lower bound, or one this script cannot read."""


def lower_bound(requirement: str) -> str:
    """``"ruff>=0.17.6,<0.18"`` gives ``"ruff==0.17.6"``; a marker is kept after ``;``."""
    match = _REQUIREMENT.match(requirement)
    if match is None:
        raise BoundError(f"cannot read requirement {requirement!r}")
    bounds = [clause.strip()[2:].strip() for clause in match["clauses"].split(",")
              if clause.strip().startswith(">=")]
    if len(bounds) != 1 or not re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", bounds[0]):
        raise BoundError(f"{requirement!r} states no single lower bound (write it as "
                         f"'name>=X.Y'): a constraints file cannot test it")
    line = f"{match['name']}=={bounds[0]}"
    return f"{line}; {match['marker']}" if match["marker"] else line


def constraints(pyproject: Path, extras: list[str]) -> list[str]:
    """One ``name==bound`` line per dependency (and per requirement of each extra named)."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise BoundError(f"pyproject.toml has no extra {extra!r} "
                             f"(it has: {', '.join(sorted(optional)) or 'none'})")
        requirements.extend(optional[extra])
    return [lower_bound(requirement) for requirement in requirements]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyproject", type=Path, default=ROOT / "pyproject.toml")
    parser.add_argument("--extra", action="append", default=[],
                        help="also pin this extra's requirements (repeatable), e.g. test")
    parser.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    args = parser.parse_args(argv)
    try:
        lines = constraints(args.pyproject, args.extra)
    except BoundError as error:
        print(f"error: {args.pyproject}: {error}", file=sys.stderr)
        return 1
    text = "".join(f"{line}\n" for line in lines)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
