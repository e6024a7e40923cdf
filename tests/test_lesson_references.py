"""Every reference to a lesson by number names that lesson (issue 29 item 3).

Lessons get split and renumbered; a sentence that says "CFR+ (07)" or a link labelled with an old
title then sends a student to the wrong place.  In the lessons' markdown, README and docs/:

- a link to a lesson is labelled with its title (or the title's first words, with or without
  its number) or one of its declared topics (tools/lessons/topics.json);
- "lesson NN" and "lessons NN–MM" name lessons that exist;
- "lesson NN (a, b and c)" lists only topics of lesson NN (or of the range);
- "something (NN)" names a topic of lesson NN just before the number.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _lessons import build_module

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "tools" / "lessons").glob("[0-9][0-9]_*.py"))
TOPICS: dict[str, list[str]] = json.loads(
    (ROOT / "tools" / "lessons" / "topics.json").read_text(encoding="utf-8"))



BUILD = build_module()
TITLE = re.compile(r"^# (\d\d) · (.+)$", re.MULTILINE)


def _markdown(source: Path) -> str:
    return "\n".join(c.source for c in BUILD.parse(source.read_text(encoding="utf-8"))
                     if c.cell_type == "markdown")


def _prose(path: Path) -> str:
    """A markdown file without its fenced code blocks."""
    return re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"),
                  flags=re.MULTILINE | re.DOTALL)


LESSONS = {source.stem[:2]: source.stem for source in SOURCES}
TITLES = {}
for _source in SOURCES:
    _match = TITLE.search(_markdown(_source))
    TITLES[_source.stem] = _match[2] if _match else ""
TEXTS = {**{f"tools/lessons/{s.name}": _markdown(s) for s in SOURCES},
         "README.md": _prose(ROOT / "README.md"),
         **{f"docs/{p.name}": _prose(p) for p in sorted((ROOT / "docs").glob("*.md"))}}


def _norm(text: str) -> str:
    text = re.sub(r"[*_]|\$", "", text.lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link counts as its label
    return re.sub(r"^the ", "", " ".join(text.split()))


def _is_topic(phrase: str, slugs: list[str]) -> bool:
    phrase = _norm(phrase)
    for slug in slugs:
        names = [_norm(t) for t in TOPICS.get(slug, [])] + [_norm(TITLES[slug])]
        if any(phrase == n or n.startswith(phrase + " ") or n.startswith(phrase + ":")
               for n in names if n):
            return True
    return False


def _mentions_topic(before: str, slugs: list[str]) -> bool:
    before = _norm(before)
    return any(_norm(t) in before for slug in slugs
               for t in TOPICS.get(slug, []) + [TITLES[slug].split(":")[0]])


def _lessons_in(first: str, last: str | None) -> list[str] | None:
    numbers = [f"{n:02d}" for n in range(int(first), int(last or first) + 1)]
    if not all(n in LESSONS for n in numbers):
        return None
    return [LESSONS[n] for n in numbers]


def test_titles_and_topics_cover_every_lesson():
    assert set(TOPICS) == set(LESSONS.values())
    assert all(TITLES[stem] for stem in LESSONS.values() if stem != "00_start_here")


LINK = re.compile(r"\[([^\]]+)\]\((?:\.\./)?(?:lessons/)?(\d\d_[A-Za-z0-9_]+)\.ipynb(?:#[^)]*)?\)")
NAMED = re.compile(r"\b[Ll]essons? (\d\d)(?:\s*(?:[–-]|to|and)\s*(\d\d))?"
                   r"(?: \(([^()]*)\))?")
BARE = re.compile(r"([^()\n]{0,80}) \((\d\d)(?:[–-](\d\d))?\)")


def _problems(where: str, text: str) -> list[str]:
    problems = []
    for label, stem in LINK.findall(text):
        if stem not in TITLES:
            problems.append(f"{where}: link to missing lesson {stem}")
            continue
        number, plain = stem[:2], re.sub(rf"^{stem[:2]} · ", "", label)
        if label.startswith(tuple(f"{n} · " for n in LESSONS)) and not label.startswith(number):
            problems.append(f"{where}: link {label!r} goes to {stem}")
        elif not (_is_topic(plain, [stem]) or plain.strip("`") in (stem, f"{stem}.ipynb")
                  or plain in (number, f"lesson {number}", f"Lesson {number}")):
            problems.append(f"{where}: link {label!r} to {stem}: not its title "
                            f"({TITLES[stem]!r}) nor a topic in topics.json")
    for first, last, listed in NAMED.findall(text):
        slugs = _lessons_in(first, last)
        if slugs is None:
            problems.append(f"{where}: 'lesson {first}{'–' + last if last else ''}' "
                            "names a lesson that does not exist")
            continue
        items = re.split(r",\s*|\s+and\s+", listed) if listed else []
        if any("$" in item or ";" in item or len(item.split()) > 6 for item in items):
            continue  # a sentence or formulas in brackets, not a list of what the lesson teaches
        if listed.startswith("see "):
            continue  # a cross-reference ("lesson 03 (see `BluffExplorer`)" in docs/API.md)
        for item in items:
            if item and not _is_topic(item, slugs):
                problems.append(f"{where}: 'lesson {first}' lists {item!r}, not a topic of "
                                f"{', '.join(slugs)}")
    for before, first, last in BARE.findall(text):
        slugs = _lessons_in(first, last)
        if slugs is None or re.search(r"([Ll]essons?|\d|\|)\s*$", before):
            continue  # not a lesson number: "34 (43)" in a table, "lesson (NN)"
        if not _mentions_topic(before, slugs):
            problems.append(f"{where}: '…{before[-40:]} ({first}{'–' + last if last else ''})'"
                            " does not name a topic of that lesson")
    return problems


@pytest.mark.parametrize("where", sorted(TEXTS))
def test_every_reference_names_its_lesson(where):
    assert _problems(where, TEXTS[where]) == []


def test_the_check_catches_a_stale_reference():
    assert _problems("t", "CFR+ (07) and suit isomorphism (10)") != []
    assert _problems("t", "[06 · Sampling: Monte Carlo CFR](06_monte_carlo_cfr.ipynb)") != []
    assert _problems("t", "see lesson 99") != []
    assert _problems("t", "lesson 08 (CFR+, Deep CFR)") != []
    assert _problems("t", "CFR+ (08), [Faster CFR](08_faster_cfr.ipynb), lesson 08 (DCFR)") == []
