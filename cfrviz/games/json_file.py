"""cfrviz's JSON game format (``data/games/FORMAT.md``), read into linked nodes: every
error names the file and the node path at fault."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import islice

from .nodes import Node, shown_path
from .reading import TOO_LARGE, Paths, check_text, exact_number, short_text

NODE_FIELDS = {
    "chance": ("type", "name", "outcomes", "comment"),
    "decision": ("type", "name", "player", "infoset", "actions", "comment"),
    "terminal": ("type", "name", "payoffs", "comment"),
}
TOP_FIELDS = ("name", "description", "root", "comment")
OUTCOME_FIELDS = ("probability", "node", "comment")


# --- cfrviz's JSON format ------------------------------------------------------------------

class _Object(dict[str, object]):
    """A JSON object that remembers keys written twice (json keeps only the last)."""

    duplicates: tuple[str, ...] = ()


def _object(pairs: Sequence[tuple[str, object]]) -> _Object:
    obj = _Object(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        dupes: list[str] = []
        for key, _ in pairs:
            if key in seen:
                dupes.append(key)
            seen.add(key)
        obj.duplicates = tuple(dupes)
    return obj


@dataclass(frozen=True)
class _NotFinite:
    """A JSON number no float holds (``1e400``) or a ``NaN``/``Infinity`` literal, as written."""

    text: str

    def __repr__(self) -> str:
        return self.text


def _json_float(text: str) -> float | _NotFinite:
    number = float(text)
    return number if math.isfinite(number) else _NotFinite(text)


def _json_int(text: str) -> int | _NotFinite:
    # float() of digits is quick at any length; int() refuses more than 4300 digits.
    return int(text) if math.isfinite(float(text)) else _NotFinite(text)


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_float=_json_float,
                            parse_int=_json_int, parse_constant=_NotFinite)


def _read_json(text: str) -> object:
    """``json.loads`` with cfrviz's hooks, or :func:`_read_deep_json` past json's nesting limit.

    Raises
    ------
    json.JSONDecodeError
    """
    try:
        return _DECODER.decode(text)
    except RecursionError:  # json's scanner recurses once per level of nesting
        return _read_deep_json(text)


_SPACE = re.compile(r"[ \t\n\r]*")  # what json skips


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


@dataclass
class _Open:
    """An array or object :func:`_read_deep_json` is reading: an array's values so far, or an
    object's (key, value) pairs and the key of the value being read."""

    key: str | None = None  # None for an array
    items: list[object] = field(default_factory=list)
    pairs: list[tuple[str, object]] = field(default_factory=list)


def _read_deep_json(text: str) -> object:
    """JSON text to Python values, as :func:`_read_json` gives them, without recursion.

    A stack of the open arrays and objects replaces the call stack of
    ``json.loads``, so nesting is limited by memory only.  Scalars and keys are
    read by json itself, so values, hooks and error messages (with their
    positions) are json's; the tests compare the two readers.

    Raises
    ------
    json.JSONDecodeError
    """
    stack: list[_Open] = []  # the open containers, innermost last
    pos = _skip(text, 0)
    while True:
        value, pos = _deep_value(text, pos, stack)
        if value is _OPENED:
            continue
        value, pos = _deep_place(text, pos, stack, value)
        if value is not _OPENED:
            return value


#: What :func:`_deep_value` and :func:`_deep_place` return when reading goes on inside an open
#: container (a value is not complete yet).
_OPENED = object()


def _deep_key(text: str, at: int) -> tuple[str, int]:
    """The object key starting at ``at`` and the position after its colon and spaces."""
    if text[at:at + 1] != '"':
        raise json.JSONDecodeError("Expecting property name enclosed in double quotes",
                                   text, at)
    name, at = _DECODER.raw_decode(text, at)
    at = _skip(text, at)
    if text[at:at + 1] != ":":
        raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
    return name, _skip(text, at + 1)


def _deep_value(text: str, pos: int, stack: list[_Open]) -> tuple[object, int]:
    """Read one value at ``pos``: a scalar or an empty container, or open a container (push it
    and return ``_OPENED`` with the position of its first item)."""
    char = text[pos:pos + 1]
    if char not in ("{", "["):
        value, end = _DECODER.raw_decode(text, pos)
        return value, end
    pos = _skip(text, pos + 1)
    if text[pos:pos + 1] == ("}" if char == "{" else "]"):
        return (_object([]) if char == "{" else []), pos + 1
    if char == "{":
        name, pos = _deep_key(text, pos)
        stack.append(_Open(name))
    else:
        stack.append(_Open())
    return _OPENED, pos


def _deep_place(text: str, pos: int, stack: list[_Open], value: object) -> tuple[object, int]:
    """Put ``value`` in its container, closing every container that ends here.  Returns the
    whole document once the outermost value is complete, else ``_OPENED`` and the position
    of the next item."""
    while True:
        pos = _skip(text, pos)
        if not stack:
            if pos != len(text):
                raise json.JSONDecodeError("Extra data", text, pos)
            return value, pos
        top = stack[-1]
        if top.key is None:
            top.items.append(value)
        else:
            top.pairs.append((top.key, value))
        char = text[pos:pos + 1]
        if char == ",":
            pos = _skip(text, pos + 1)
            if top.key is not None:
                top.key, pos = _deep_key(text, pos)
            return _OPENED, pos
        if char != ("]" if top.key is None else "}"):
            raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
        stack.pop()
        value = top.items if top.key is None else _object(top.pairs)
        pos += 1


def parse_json(text: str, file: str, stem: str) -> tuple[str, str, Node]:
    try:
        data = _read_json(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{file}: not valid JSON at line {error.lineno}, column {error.colno}: "
                         f"{error.msg}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{file}: the file must hold one JSON object with a \"root\" node; "
                         f"got {_preview(data)}")
    if problem := _fields(data, TOP_FIELDS):
        raise ValueError(f"{file}: the top level {problem}")
    if "root" not in data:
        raise ValueError(f"{file}: the top level has no \"root\" node; it needs "
                         f"{{\"root\": {{\"type\": ...}}}}")
    name = data.get("name", stem)
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise ValueError(f"{file}: \"{key}\" must be a string; got {_preview(value)}")
        check_text(value, f"{file}: \"{key}\"")
    if not name:
        raise ValueError(f"{file}: \"name\" must not be empty")
    paths = Paths(file)
    root = Node("root", "")
    stack = [(data["root"], root, 0)]
    while stack:
        raw, node, depth = stack.pop()
        for label, below in _read_node(raw, node, file):
            child = node.children[label] = Node(paths.step(node, label, depth + 1), "")
            stack.append((below, child, depth + 1))
    return name, description, root


def _preview(value: object, limit: int = 60) -> str:
    """``value`` written as JSON for a message, cut after about ``limit`` characters.

    Iterative and bounded: a value nested thousands deep or holding a hundred
    thousand items costs no more than a small one.
    """
    parts: list[str] = []
    size = 0
    stack: list[object] = [value]
    while stack and size <= limit:
        item = stack.pop()
        if isinstance(item, _Punctuation):
            text = str(item)
        elif isinstance(item, (dict, list)):
            text, close = ("{", "}") if isinstance(item, dict) else ("[", "]")
            entries = list(islice(item.items() if isinstance(item, dict) else item, limit))
            stack.append(_Punctuation(close if len(entries) == len(item) else ", ..." + close))
            for i in reversed(range(len(entries))):
                if isinstance(item, dict):
                    stack.extend((entries[i][1], _Punctuation(json.dumps(entries[i][0]) + ": ")))
                else:
                    stack.append(entries[i])
                if i:
                    stack.append(_Punctuation(", "))
        elif item is None or isinstance(item, (bool, int, float, str)):
            text = json.dumps(item)
        else:
            text = repr(item)
        parts.append(text)
        size += len(text)
    return short_text("".join(parts) + ("..." if stack else ""), limit)


class _Punctuation(str):
    """Text that :func:`_preview` writes as it is (a bracket, a comma, a key)."""


def _fields(obj: dict[str, object], allowed: Sequence[str]) -> str:
    """What is wrong with the keys of a JSON object ("" when nothing is)."""
    if isinstance(obj, _Object) and obj.duplicates:
        return f"has the key {_shown(obj.duplicates[0])} twice"
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        return f"has an unknown field {_shown(unknown[0])}; valid fields: {', '.join(allowed)}"
    return ""


def _read_node(raw: object, node: Node, file: str) -> list[tuple[str, object]]:
    """Fill ``node`` from its JSON object; return its (label, child object) pairs."""
    def where() -> str:  # built only for a message: a deep node's path is long
        return f"{file}: node {shown_path(node.path)}"

    obj, kind = _node_type(raw, where)
    node.kind = kind
    name = obj.get("name", "")
    if not isinstance(name, str):
        raise ValueError(f"{where()}: \"name\" must be a string; got {_preview(name)}")
    check_text(name, f"{where()}: \"name\"")
    node.name = name
    if kind == "terminal":
        node.payoffs = _payoffs(obj, where)
        return []
    branches = _branches(obj, kind, where)
    node.labels = tuple(branches)
    if kind == "decision":
        node.player, node.infoset = _decider(obj, where)
        return list(branches.items())
    outcomes = [_chance_outcome(outcome, where, label) for label, outcome in branches.items()]
    node.probs = tuple(p for p, _ in outcomes)
    return [(label, below) for label, (_, below) in zip(branches, outcomes, strict=True)]


_Where = Callable[[], str]  # a node's place in the file, for a message


def _node_type(raw: object, where: _Where) -> tuple[dict[str, object], str]:
    """The node's JSON object and its type, checking its fields."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where()} must be an object with a \"type\" of "
                         f"{', '.join(map(repr, NODE_FIELDS))}; got {_preview(raw)}")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in NODE_FIELDS:  # a list is not even hashable
        what = "has no \"type\"" if "type" not in raw else f"has unknown type {_shown(kind)}"
        raise ValueError(f"{where()} {what}; valid types: {', '.join(map(repr, NODE_FIELDS))}")
    if problem := _fields(raw, NODE_FIELDS[kind]):
        raise ValueError(f"{where()} {problem}")
    return raw, kind


def _payoffs(raw: dict[str, object], where: _Where) -> tuple[float, float]:
    """A terminal node's two payoffs."""
    if "payoffs" not in raw:
        raise ValueError(f"{where()} is terminal but has no \"payoffs\"; give "
                         f"[player 1's payoff, player 2's payoff]")
    payoffs = raw["payoffs"]
    if not isinstance(payoffs, list) or len(payoffs) != 2:
        raise ValueError(f"{where()}: \"payoffs\" must be [player 1's payoff, player 2's "
                         f"payoff]; got {_preview(payoffs)}")
    values = []
    for i, value in enumerate(payoffs):
        try:
            values.append(_number(value))
        except ValueError as error:
            raise ValueError(f"{where()}: payoff of player {i + 1} {error}") from None
    return values[0], values[1]  # two: checked above


def _branches(raw: dict[str, object], kind: str, where: _Where) -> dict[str, object]:
    """A decision's actions or a chance node's outcomes: a non-empty object of labels."""
    key = "actions" if kind == "decision" else "outcomes"
    branches = raw.get(key)
    if not isinstance(branches, dict) or not branches:
        raise ValueError(f"{where()} is a {kind} node and needs \"{key}\": a non-empty object "
                         f"{{label: ...}}; got {_preview(branches)}")
    if isinstance(branches, _Object) and branches.duplicates:
        raise ValueError(f"{where()} has the {key[:-1]} {_shown(branches.duplicates[0])} twice")
    if "" in branches:
        raise ValueError(f"{where()} has an empty {key[:-1]} label")
    for label in branches:
        check_text(label, f"{where()}: {key[:-1]} label")
    return branches


def _decider(raw: dict[str, object], where: _Where) -> tuple[int, str]:
    """A decision's player (0 or 1) and information set."""
    player = raw.get("player")
    if isinstance(player, bool) or player not in (1, 2):
        raise ValueError(f"{where()}: \"player\" must be 1 or 2; got {_preview(player)}")
    infoset = raw.get("infoset")
    if not isinstance(infoset, str) or not infoset:
        raise ValueError(f"{where()}: \"infoset\" must be a non-empty string naming the "
                         f"information set; got {_preview(infoset)}")
    check_text(infoset, f"{where()}: \"infoset\"")
    return int(player) - 1, infoset


def _chance_outcome(outcome: object, where: _Where, label: str) -> tuple[float, object]:
    """A chance outcome's probability and node object, checking the outcome's fields."""
    if not isinstance(outcome, dict):
        raise ValueError(f"{_outcome(where(), label)} must be {{\"probability\": ..., "
                         f"\"node\": {{...}}}}; got {_preview(outcome)}")
    if problem := _fields(outcome, OUTCOME_FIELDS):
        raise ValueError(f"{_outcome(where(), label)} {problem}")
    if "probability" not in outcome or "node" not in outcome:
        raise ValueError(f"{_outcome(where(), label)} needs both \"probability\" and "
                         f"\"node\"")
    try:
        p = _number(outcome["probability"])
    except ValueError as error:
        raise ValueError(f"{_outcome(where(), label)}: probability {error}") from None
    if p < 0:
        raise ValueError(f"{_outcome(where(), label)}: probability {p:g} is negative; "
                         f"probabilities must be >= 0")
    return p, outcome["node"]


def _outcome(where: str, label: str) -> str:
    return f"{where}, outcome {_shown(label)}"


def _shown(value: object) -> str:
    """A JSON value for a message: a string as Python writes it ('leaf'), else as JSON."""
    return repr(short_text(value)) if isinstance(value, str) else _preview(value)


def _number(value: object) -> float:
    """A finite number from a JSON number or a string such as ``"1/3"`` or ``"0.25"``.

    Raises
    ------
    ValueError
        Whose message continues "<the value at fault> ...", e.g. ``is NaN; it must
        be a finite number``.
    """
    if type(value) is float or type(value) is int:  # JSON numbers (not bool), first
        return float(value)  # finite: the JSON hooks turn other numbers into _NotFinite
    if isinstance(value, _NotFinite):
        if value.text in ("NaN", "Infinity", "-Infinity"):
            raise ValueError(f"is {value.text}; it must be a finite number")
        raise ValueError(f"is {short_text(value.text)}, {TOO_LARGE}")
    if isinstance(value, str):
        try:
            return float(exact_number(value))
        except ValueError:
            raise ValueError(f"is {short_text(value)!r}; write a number or a fraction such as "
                             f"\"1/3\"") from None
        except OverflowError:
            raise ValueError(f"is {short_text(value)!r}, {TOO_LARGE}") from None
    raise ValueError(f"is {_preview(value)}; it must be a number")

