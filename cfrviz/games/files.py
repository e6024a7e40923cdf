"""Custom games from files: cfrviz's JSON tree format and Gambit's ``.efg`` format.

Both formats are read into the same small node structure (:class:`~cfrviz.games.nodes.Node`)
and walked by :func:`~cfrviz.games.nodes.tree_from_nodes`, so they share its checks (chance
probabilities sum to 1, the nodes of an information set agree on player and
actions).  Every error names the file and the node path at fault, e.g.
``root/deal:H/b``: the path lists the actions and chance outcomes from the
root, each written ``name:label`` when the node it leaves has a name.
The JSON format is documented in ``data/games/FORMAT.md``.

Reading takes time linear in the size of the file (and of the paths it makes)
and never recurses, so a node
with a hundred thousand outcomes or a chain thousands of moves long loads; a tree
deeper than :data:`MAX_DEPTH` moves, or whose node paths add up to more than
:data:`MAX_PATH_TEXT` characters, is refused (each node keeps its path as text,
so memory grows with depth times the number of nodes).
"""

from __future__ import annotations

import codecs
import json
import math
import re
import reprlib
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from pathlib import Path

from ..core.checks import read_regular_file
from ..core.tree import GameTree
from .nodes import Node, shown_path, tree_from_nodes
from .nodes import check_perfect_recall as check_perfect_recall  # its old home: kept importable

NODE_FIELDS = {
    "chance": ("type", "name", "outcomes", "comment"),
    "decision": ("type", "name", "player", "infoset", "actions", "comment"),
    "terminal": ("type", "name", "payoffs", "comment"),
}
TOP_FIELDS = ("name", "description", "root", "comment")
OUTCOME_FIELDS = ("probability", "node", "comment")
MAX_FILE_BYTES = 200_000_000
"""The largest game file read, in bytes (checked before reading; only regular files are read)."""
MAX_DEPTH = 5_000
"""The most moves from the root to a node that a game file may have."""
MAX_PATH_TEXT = 100_000_000
"""The most characters that the paths of all the nodes of a game file may add up to.

Each node keeps its path as text (its ``history``), so memory grows with depth
times the number of nodes: a chain 5,000 moves deep with two-letter labels
holds about 75 million characters, and without a limit a file of a few
megabytes, with long labels on a deep chain, would need gigabytes.
"""


def load_game_file(path) -> GameTree:
    """Read a custom game from a JSON file (cfrviz's format) or a Gambit ``.efg`` file.

    Also reachable as ``cfrviz.load_game("file", path=...)``.  Reading is
    iterative and linear in the size of the file.

    Parameters
    ----------
    path : str or pathlib.Path
        A ``.json`` file in the format of ``data/games/FORMAT.md`` or a
        two-player Gambit extensive-form file (``.efg``, "EFG 2 R"), in
        UTF-8 (a byte-order mark is allowed).

    Returns
    -------
    GameTree
        Named after the JSON ``"name"`` (for ``.efg``, the file name without
        its extension).  Games that are not zero-sum load;
        :func:`~cfrviz.core.tree.check_zero_sum` is the check for algorithms that
        need zero-sum.

    Raises
    ------
    ValueError
        When ``path`` is not a path, or the file is missing, a folder, not
        UTF-8 text or malformed, naming the file and the node path (or the
        line and column) at fault: bad JSON, an unknown node type or field, a
        value of the wrong type, chance probabilities that are negative or do
        not sum to 1, an information set whose nodes disagree on the player or
        the actions, missing payoffs or numbers that are not finite (``NaN``,
        ``Infinity``, ``1e400``), a tree deeper than :data:`MAX_DEPTH` moves or
        whose paths add up to more than :data:`MAX_PATH_TEXT` characters,
        or a player who forgets their own earlier moves (imperfect recall).
    """
    try:
        file = Path(path)
    except TypeError:
        raise ValueError(f"path must be a str or pathlib.Path naming a .json or .efg game "
                         f"file; got {reprlib.repr(path)}") from None
    suffix = file.suffix.lower()
    if suffix not in (".json", ".efg"):
        raise ValueError(f"game file {str(path)!r} must end in .json (cfrviz's format, see "
                         f"data/games/FORMAT.md) or .efg (Gambit's format)")
    text = _read_text(file, f"game file {str(path)!r}")
    parse = _parse_json if suffix == ".json" else _parse_efg
    # Messages name the file; a name that is not UTF-8 holds lone surrogates, written escaped.
    shown = str(path).encode("utf-8", "backslashreplace").decode("utf-8")
    name, description, root = parse(text, shown, file.stem)
    try:
        tree = tree_from_nodes(name, description, root)
    except ValueError as error:
        raise ValueError(f"{shown}: {error}") from None
    return tree


def _read_text(file: Path, what: str) -> str:
    """The UTF-8 text of ``file`` without a byte-order mark, or a ValueError saying why not."""
    try:
        data = read_regular_file(file, what, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ValueError(f"{what} not found (looked for {file.resolve()})") from None
    except OSError as error:  # a read failing after the open (an I/O error)
        raise ValueError(f"{what} cannot be read: {error.strerror or error}") from None
    if data.startswith(codecs.BOM_UTF8):  # Notepad writes one; it is not part of the text
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        raise ValueError(f"{what} is not UTF-8 text: byte 0x{data[error.start]:02x} at line "
                         f"{line}, column {column} cannot be decoded; save the file as UTF-8"
                         ) from None


def _short(text: str, limit: int = 60) -> str:
    """``text`` cut to about ``limit`` characters for a message."""
    return text if len(text) <= limit else text[:limit] + "..."


class _Paths:
    """Makes the paths of a file's nodes, refusing one past :data:`MAX_DEPTH` moves or the
    one that takes the text of all paths past :data:`MAX_PATH_TEXT` characters."""

    def __init__(self, file: str):
        self.file = file
        self.size = len("root")

    def step(self, parent: Node, label: str, depth: int) -> str:
        """The path of the child of ``parent`` reached by ``label``, ``depth`` moves deep."""
        path = parent.step(label)
        if depth > MAX_DEPTH:
            raise ValueError(f"{self.file}: node {shown_path(path)} is {depth:,} moves from the "
                             f"root; cfrviz reads trees at most {MAX_DEPTH:,} levels deep")
        self.size += len(path)
        if self.size > MAX_PATH_TEXT:
            raise ValueError(f"{self.file}: at node {shown_path(path)} the paths of the nodes "
                             f"add up to more than {MAX_PATH_TEXT:,} characters; cfrviz keeps each "
                             f"node's path as text, and this tree is too deep for labels this "
                             f"long: shorten the labels or the tree")
        return path


# --- numbers ---------------------------------------------------------------------------------

_NUMBER = re.compile(r"\s*(?:([-+]?\d+)/(\d+)|[-+]?(\d*)(\.\d*)?(?:[eE]([-+]?\d+))?)\s*")
_TOO_LARGE = "too large; numbers must lie between about -1.8e308 and 1.8e308"


def _fraction(text: str) -> Fraction | int:
    """The exact value of an integer, a decimal or a fraction ``a/b`` written in ``text``.

    Raises
    ------
    ValueError
        For other text.
    OverflowError
        For a number far beyond the range of a float (``float()`` of the result
        raises it for the others).
    """
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise ValueError(text)
    numerator, denominator, whole, decimals, exponent = match.groups()
    if numerator is not None:
        if int(denominator) == 0:
            raise ValueError(text)
        return Fraction(int(numerator), int(denominator))
    if not (whole or decimals and len(decimals) > 1):
        raise ValueError(text)  # no digits: "", ".", "e5"
    if len(text) > 400 or exponent and abs(int(exponent)) > 400:
        # Fraction("1e999999999") would compute a power of ten with a billion digits;
        # beyond these sizes a float holds all there is (or overflows).
        number = float(text)
        if math.isinf(number):
            raise OverflowError(text)
        return Fraction(number)
    return int(text) if decimals is None and exponent is None else Fraction(text)


# --- cfrviz's JSON format ------------------------------------------------------------------

class _Object(dict):
    """A JSON object that remembers keys written twice (json keeps only the last)."""

    duplicates: tuple[str, ...] = ()


def _object(pairs):
    obj = _Object(pairs)
    if len(obj) < len(pairs):
        seen, dupes = set(), []
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


def _json_float(text: str):
    number = float(text)
    return number if math.isfinite(number) else _NotFinite(text)


def _json_int(text: str):
    # float() of digits is quick at any length; int() refuses more than 4300 digits.
    return int(text) if math.isfinite(float(text)) else _NotFinite(text)


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_float=_json_float,
                            parse_int=_json_int, parse_constant=_NotFinite)


def _read_json(text: str):
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


def _read_deep_json(text: str):
    """JSON text to Python values, as :func:`_read_json` gives them, without recursion.

    A stack of the open arrays and objects replaces the call stack of
    ``json.loads``, so nesting is limited by memory only.  Scalars and keys are
    read by json itself, so values, hooks and error messages (with their
    positions) are json's; the tests compare the two readers.

    Raises
    ------
    json.JSONDecodeError
    """
    def key(at: int) -> tuple[str, int]:
        """The object key starting at ``at`` and the position after its colon and spaces."""
        if text[at:at + 1] != '"':
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes",
                                       text, at)
        name, at = _DECODER.raw_decode(text, at)
        at = _skip(text, at)
        if text[at:at + 1] != ":":
            raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
        return name, _skip(text, at + 1)

    # Each open container is [items, key]: key is None for an array, else the key of the
    # value being read into an object's list of (key, value) pairs.
    stack: list[list] = []
    pos = _skip(text, 0)
    while True:
        # Read one value: a scalar, or open a container and go on to its first item.
        char = text[pos:pos + 1]
        if char in ("{", "["):
            pos = _skip(text, pos + 1)
            if text[pos:pos + 1] == ("}" if char == "{" else "]"):
                value = _object([]) if char == "{" else []
                pos += 1
            elif char == "{":
                name, pos = key(pos)
                stack.append([[], name])
                continue
            else:
                stack.append([[], None])
                continue
        else:
            value, pos = _DECODER.raw_decode(text, pos)
        # Put the value in its container, closing every container that ends here.
        while True:
            pos = _skip(text, pos)
            if not stack:
                if pos != len(text):
                    raise json.JSONDecodeError("Extra data", text, pos)
                return value
            items, name = stack[-1]
            items.append(value if name is None else (name, value))
            char = text[pos:pos + 1]
            if char == ",":
                pos = _skip(text, pos + 1)
                if name is not None:
                    stack[-1][1], pos = key(pos)
                break
            if char != ("]" if name is None else "}"):
                raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
            stack.pop()
            value = items if name is None else _object(items)
            pos += 1


def _parse_json(text: str, file: str, stem: str):
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
        _check_text(value, f"{file}: \"{key}\"")
    if not name:
        raise ValueError(f"{file}: \"name\" must not be empty")
    paths = _Paths(file)
    root = Node("root", "")
    stack = [(data["root"], root, 0)]
    while stack:
        raw, node, depth = stack.pop()
        for label, below in _read_node(raw, node, file):
            child = node.children[label] = Node(paths.step(node, label, depth + 1), "")
            stack.append((below, child, depth + 1))
    return name, description, root


def _preview(value, limit: int = 60) -> str:
    """``value`` written as JSON for a message, cut after about ``limit`` characters.

    Iterative and bounded: a value nested thousands deep or holding a hundred
    thousand items costs no more than a small one.
    """
    parts: list[str] = []
    size = 0
    stack: list = [value]
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
    return _short("".join(parts) + ("..." if stack else ""), limit)


class _Punctuation(str):
    """Text that :func:`_preview` writes as it is (a bracket, a comma, a key)."""


def _fields(obj: dict, allowed) -> str:
    """What is wrong with the keys of a JSON object ("" when nothing is)."""
    if isinstance(obj, _Object) and obj.duplicates:
        return f"has the key {_shown(obj.duplicates[0])} twice"
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        return f"has an unknown field {_shown(unknown[0])}; valid fields: {', '.join(allowed)}"
    return ""


def _read_node(raw, node: Node, file: str) -> list:
    """Fill ``node`` from its JSON object; return its (label, child object) pairs."""
    def where() -> str:  # built only for a message: a deep node's path is long
        return f"{file}: node {shown_path(node.path)}"

    if not isinstance(raw, dict):
        raise ValueError(f"{where()} must be an object with a \"type\" of "
                         f"{', '.join(map(repr, NODE_FIELDS))}; got {_preview(raw)}")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in NODE_FIELDS:  # a list is not even hashable
        what = "has no \"type\"" if "type" not in raw else f"has unknown type {_shown(kind)}"
        raise ValueError(f"{where()} {what}; valid types: {', '.join(map(repr, NODE_FIELDS))}")
    if problem := _fields(raw, NODE_FIELDS[kind]):
        raise ValueError(f"{where()} {problem}")
    node.kind = kind
    name = raw.get("name", "")
    if not isinstance(name, str):
        raise ValueError(f"{where()}: \"name\" must be a string; got {_preview(name)}")
    _check_text(name, f"{where()}: \"name\"")
    node.name = name
    if kind == "terminal":
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
        node.payoffs = tuple(values)
        return []
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
        _check_text(label, f"{where()}: {key[:-1]} label")
    node.labels = tuple(branches)
    if kind == "decision":
        player = raw.get("player")
        if isinstance(player, bool) or player not in (1, 2):
            raise ValueError(f"{where()}: \"player\" must be 1 or 2; got {_preview(player)}")
        node.player = player - 1
        infoset = raw.get("infoset")
        if not isinstance(infoset, str) or not infoset:
            raise ValueError(f"{where()}: \"infoset\" must be a non-empty string naming the "
                             f"information set; got {_preview(infoset)}")
        _check_text(infoset, f"{where()}: \"infoset\"")
        node.infoset = infoset
        return list(branches.items())
    probs, pending = [], []
    for label, outcome in branches.items():
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
        probs.append(p)
        pending.append((label, outcome["node"]))
    node.probs = tuple(probs)
    return pending


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(text: str, where: str) -> None:
    """Refuse a string holding a lone surrogate (JSON can write one, ``"\\ud800"``; UTF-8
    cannot): no browser or widget can send it, and a key holding one breaks the widgets."""
    found = _SURROGATE.search(text)
    if found:
        raise ValueError(f"{where} {_short(text)!r} holds a lone surrogate "
                         f"({found.group()!r} at character {found.start() + 1}), half of a "
                         f"character and not text (a JSON \\u escape of half a pair, or a file "
                         f"name that is not UTF-8): write the character itself, or rename")


def _outcome(where: str, label: str) -> str:
    return f"{where}, outcome {_shown(label)}"


def _shown(value) -> str:
    """A JSON value for a message: a string as Python writes it ('leaf'), else as JSON."""
    return repr(_short(value)) if isinstance(value, str) else _preview(value)


def _number(value) -> float:
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
        raise ValueError(f"is {_short(value.text)}, {_TOO_LARGE}")
    if isinstance(value, str):
        try:
            return float(_fraction(value))
        except ValueError:
            raise ValueError(f"is {_short(value)!r}; write a number or a fraction such as "
                             f"\"1/3\"") from None
        except OverflowError:
            raise ValueError(f"is {_short(value)!r}, {_TOO_LARGE}") from None
    raise ValueError(f"is {_preview(value)}; it must be a number")


# --- Gambit's .efg format ------------------------------------------------------------------

# One token per match, after the spaces and commas before it (Gambit allows commas between
# payoffs); its kind is the group that matched: a quoted string, a brace, a word, or a stray
# quote that starts no string.
_TOKEN = re.compile(r'[\s,]*(?:("[^"\\]*(?:\\.[^"\\]*)*")|([{}])|([^\s{}",]+)|(\S))')
_STRING, _BRACE, _WORD, _STRAY = range(4)
_END = ("", "", "", "")  # after the last token


def _line_column(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"line {line}, column {offset - text.rfind(chr(10), 0, offset)}"


class _EfgReader:
    """Reader of a two-player "EFG 2 R" file: nodes in prefix order, read with a stack.

    The tokens come from one ``findall``; where a token stands in the file is
    worked out again for an error message only.
    """

    def __init__(self, text: str, file: str):
        self.file = file
        self.text = text
        self.tokens: list[tuple[str, str, str, str]] = _TOKEN.findall(text)
        self.tokens.append(_END)
        self.pos = 0
        self.paths = _Paths(file)
        self.infosets: dict[tuple[int, int], tuple[str, tuple]] = {}
        self.events: dict[int, tuple[str, tuple, tuple]] = {}
        self.outcomes: dict[int, tuple[str, tuple]] = {}
        # Decision nodes with their (player, information set number), keyed by
        # name_infosets once every information set's name is known.
        self.decisions: list[tuple[Node, tuple[int, int]]] = []
        stray = next((i for i, token in enumerate(self.tokens) if token[_STRAY]), None)
        if stray is not None:
            raise ValueError(f"{file}, {_line_column(text, self.offset(stray))}: unterminated "
                             f"quoted string")

    # token helpers
    def offset(self, at: int) -> int:
        """Where token ``at`` starts in the text (-1 for the end of the file)."""
        if at < len(self.tokens) - 1:
            for i, match in enumerate(_TOKEN.finditer(self.text)):
                if i == at:
                    return match.start(match.lastindex or 0)
        return -1

    def error(self, message: str, at: int | None = None, path: str = "") -> ValueError:
        """An error at token ``at`` (the next token by default) and node ``path``."""
        offset = self.offset(self.pos if at is None else at)
        where = _line_column(self.text, offset) if offset >= 0 else "end of file"
        node = f" (node {shown_path(path)})" if path else ""
        return ValueError(f"{self.file}, {where}{node}: {message}")

    def take(self, kind: int, what: str, path: str = "") -> str:
        token = self.tokens[self.pos]
        text = token[kind]
        if not text:
            got = repr(_short("".join(token))) if token != _END else "the end of the file"
            raise self.error(f"expected {what}; got {got}", path=path)
        self.pos += 1
        if kind == _STRING:
            text = text[1:-1]
            if "\\" in text:
                text = re.sub(r"\\(.)", r"\1", text)
        return text

    def integer(self, what: str, path: str, minimum: int) -> int:
        text = self.take(_WORD, what, path)
        # At most 18 digits: int() refuses more than 4300, and no count is that large.
        if not re.fullmatch(r"\d{1,18}", text) or int(text) < minimum:
            raise self.error(f"expected {what} (a whole number >= {minimum}); got "
                             f"{_short(text)!r}", self.pos - 1, path)
        return int(text)

    def number(self, what: str, path: str) -> Fraction | int:
        text = self.take(_WORD, what, path)
        try:
            value = _fraction(text)
            float(value)
        except ValueError:
            raise self.error(f"expected {what} (a number such as 2, -1.5 or 1/3); got "
                             f"{_short(text)!r}", self.pos - 1, path) from None
        except OverflowError:
            raise self.error(f"{what} {_short(text)} is {_TOO_LARGE}", self.pos - 1,
                             path) from None
        return value

    def next_is(self, kind: int, text: str | None = None) -> bool:
        found = self.tokens[self.pos][kind]
        return bool(found) and (text is None or found == text)

    def braced(self, item, what: str, path: str) -> list:
        self.take(_BRACE, f"'{{' opening the {what}", path)
        items = []
        while not self.next_is(_BRACE, "}") and self.tokens[self.pos] != _END:
            items.append(item())
        self.take(_BRACE, f"'}}' closing the {what}", path)
        return items

    # grammar
    def read(self, stem: str):
        magic = self.take(_WORD, "'EFG' at the start of a Gambit extensive-form file")
        if magic != "EFG":
            raise self.error(f"a Gambit extensive-form file starts with 'EFG'; got "
                             f"{_short(magic)!r}", self.pos - 1)
        version = self.take(_WORD, "the version '2'")
        if version != "2":
            raise self.error(f"only version 2 files are read; got {_short(version)!r}",
                             self.pos - 1)
        kind = self.take(_WORD, "'R'")
        if kind not in ("R", "D"):
            raise self.error(f"expected 'R' after the version; got {_short(kind)!r}",
                             self.pos - 1)
        title = self.take(_STRING, "the game's title in double quotes")
        start = self.pos
        players = self.braced(lambda: self.take(_STRING, "a player name"), "player list", "")
        if len(players) != 2:
            raise self.error(f"cfrviz reads two-player games; this one has {len(players)} "
                             f"players", start)
        comment = self.take(_STRING, "a comment") if self.next_is(_STRING) else ""
        root = self.tree()
        if self.tokens[self.pos] != _END:
            raise self.error(f"unexpected {_short(''.join(self.tokens[self.pos]))!r} after the "
                             f"last node of the tree")
        self.name_infosets()
        _check_text(stem, f"{self.file}: the file name (the game's name)")
        description = "\n\n".join(part for part in (title, comment) if part)
        return stem, description, root

    def tree(self) -> Node:
        """Read every node in prefix order, keeping the nodes still owed children on a stack."""
        root, paid = self.node("root", (0, 0))
        stack = [(root, paid, iter(root.labels))] if root.kind != "terminal" else []
        while stack:
            parent, paid, labels = stack[-1]
            label = next(labels, None)
            if label is None:
                stack.pop()
                continue
            path = self.paths.step(parent, label, len(stack))  # the child's depth
            child, below = self.node(path, paid)
            parent.children[label] = child
            if child.kind != "terminal":
                stack.append((child, below, iter(child.labels)))
        return root

    def outcome(self, path: str) -> tuple[Fraction | int, Fraction | int]:
        start = self.pos
        number = self.integer("an outcome number (0 for none)", path, 0)
        declared = None
        if self.next_is(_STRING):
            name = self.take(_STRING, "an outcome name", path)
            payoffs = tuple(self.braced(lambda: self.number("a payoff", path), "payoffs", path))
            if number == 0:
                raise self.error("outcome 0 means 'no outcome' and cannot have payoffs", start,
                                 path)
            if len(payoffs) != 2:
                raise self.error(f"outcome {number} has {len(payoffs)} payoffs; a two-player "
                                 f"game needs 2", start, path)
            declared = (name, payoffs)
        if number == 0:
            return (0, 0)
        if declared is None:
            if number not in self.outcomes:
                raise self.error(f"outcome {number} is used before its name and payoffs are "
                                 f"given", start, path)
            return self.outcomes[number][1]
        if self.outcomes.setdefault(number, declared) != declared:
            raise self.error(f"outcome {number} is declared again with a different name or "
                             f"payoffs than before", start, path)
        return declared[1]

    def node(self, path: str, paid: tuple) -> tuple[Node, tuple]:
        """Read one node (not its children); return it and the payoffs paid down to it."""
        start = self.pos
        kind = self.take(_WORD, "a node: 'c' (chance), 'p' (player) or 't' (terminal)", path)
        if kind not in ("c", "p", "t"):
            raise self.error(f"unknown node type {_short(kind)!r}; valid types: 'c' "
                             f"(chance), 'p' (player), 't' (terminal)", start, path)
        name = self.take(_STRING, "the node's name in double quotes (may be \"\")", path)
        node = Node(path, "", name=name)
        if kind == "t":
            node.kind = "terminal"
            own = self.outcome(path)
            payoffs = []
            for i in (0, 1):
                try:
                    payoffs.append(float(paid[i] + own[i]))
                except OverflowError:
                    raise self.error(f"the payoff of player {i + 1} adds up to a number "
                                     f"{_TOO_LARGE}", start, path) from None
            node.payoffs = tuple(payoffs)
            return node, paid
        if kind == "c":
            node.kind = "chance"
            number = self.integer("a chance event number", path, 1)
            if self.next_is(_STRING):
                label = self.take(_STRING, "the event's name", path)
                pairs = self.braced(lambda: (self.take(_STRING, "an outcome label", path),
                                             self.number("a probability", path)),
                                    "chance outcomes", path)
                event = (label, tuple(a for a, _ in pairs), tuple(p for _, p in pairs))
                if self.events.setdefault(number, event) != event:
                    raise self.error(f"chance event {number} is declared again differently",
                                     start, path)
            elif number not in self.events:
                raise self.error(f"chance event {number} is used before its outcomes and "
                                 f"probabilities are given", start, path)
            _, node.labels, probs = self.events[number]
            if any(p < 0 for p in probs):
                raise self.error("a chance probability is negative; probabilities must be >= 0",
                                 start, path)
            node.probs = tuple(map(float, probs))  # each fits: number() checked it
        else:
            node.kind = "decision"
            player = self.integer("the player number (1 or 2)", path, 1)
            if player > 2:
                raise self.error(f"player {player} does not exist; players are 1 and 2", start,
                                 path)
            number = self.integer("an information-set number", path, 1)
            if self.next_is(_STRING):
                label = self.take(_STRING, "the information set's name", path)
                actions = tuple(self.braced(lambda: self.take(_STRING, "an action label", path),
                                            "actions", path))
                infoset = (label, actions)
                if self.infosets.setdefault((player, number), infoset) != infoset:
                    raise self.error(f"information set {number} of player {player} is "
                                     f"declared again with a different name or actions", start,
                                     path)
            elif (player, number) not in self.infosets:
                raise self.error(f"information set {number} of player {player} is used before "
                                 f"its actions are given", start, path)
            node.player = player - 1
            self.decisions.append((node, (player, number)))
            node.labels = self.infosets[(player, number)][1]
        if not node.labels:
            raise self.error("a node needs at least one action", start, path)
        if len(set(node.labels)) < len(node.labels):
            raise self.error(f"the labels {_short(str(list(node.labels)))} repeat one; each "
                             f"must be distinct", start, path)
        own = self.outcome(path)
        if own[0] or own[1]:
            paid = (paid[0] + own[0], paid[1] + own[1])
        return node, paid

    def name_infosets(self) -> None:
        """Key each information set by its name when unique and not empty, else ``P1.3``.

        Raises
        ------
        ValueError
            When a set's name is the key ``P<player>.<number>`` that another set gets (one
            with no name, or a name that several sets share): the two would merge into one
            set, which changes the game.
        """
        owners: dict[str, set] = {}
        for (player, number), (label, _) in self.infosets.items():
            owners.setdefault(label, set()).add((player, number))
        keys: dict[tuple[int, int], str] = {}
        named: dict[str, tuple[int, int]] = {}
        for (player, number), (label, _) in self.infosets.items():
            if label and len(owners[label]) == 1:
                keys[player, number] = label
                named[label] = (player, number)
            else:
                keys[player, number] = f"P{player}.{number}"
        for (player, number), key in keys.items():
            other = named.get(key)
            if other is not None and other != (player, number):
                raise ValueError(
                    f"{self.file}: information set {other[1]} of player {other[0]} is named "
                    f"{key!r}, the key cfrviz gives information set {number} of player {player} "
                    f"(which has no name of its own, or one that several sets share); the two "
                    f"would merge into one set, which changes the game: rename one of them")
        for node, ident in self.decisions:
            node.infoset = keys[ident]


def _parse_efg(text: str, file: str, stem: str):
    return _EfgReader(text, file).read(stem)
