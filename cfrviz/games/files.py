"""Custom games from files: cfrviz's JSON tree format and Gambit's ``.efg`` format.

Both formats are read into the same small node structure and walked by
:func:`~cfrviz.core.tree.build_tree`, so they share its checks (chance
probabilities sum to 1, the nodes of an information set agree on player and
actions).  Every error names the file and the node path at fault, e.g.
``root/deal:H/b``: the path lists the actions and chance outcomes from the
root, each written ``name:label`` when the node it leaves has a name.
The JSON format is documented in ``data/games/FORMAT.md``.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real
from pathlib import Path

from ..core.tree import CHANCE, GameTree, build_tree

NODE_FIELDS = {
    "chance": ("type", "name", "outcomes", "comment"),
    "decision": ("type", "name", "player", "infoset", "actions", "comment"),
    "terminal": ("type", "name", "payoffs", "comment"),
}
TOP_FIELDS = ("name", "description", "root", "comment")


@dataclass(eq=False)
class _Node:
    path: str
    kind: str
    name: str = ""
    player: int = CHANCE
    infoset: str = ""
    labels: tuple = ()
    probs: tuple = ()
    children: list = field(default_factory=list)
    payoffs: tuple = (0.0, 0.0)

    def step(self, label: str) -> str:
        """Path of the child reached by ``label``."""
        return f"{self.path}/{self.name}:{label}" if self.name else f"{self.path}/{label}"


class _FileGame:
    """A parsed file as a game definition for :func:`build_tree`."""

    def __init__(self, name: str, description: str, root: _Node):
        self.name = name
        self.__doc__ = description
        self.root = root

    def initial_state(self):
        return _FileState(self.root)


@dataclass(frozen=True, eq=False)
class _FileState:
    node: _Node

    def is_terminal(self) -> bool:
        return self.node.kind == "terminal"

    def current_player(self) -> int:
        return self.node.player

    def legal_actions(self):
        return self.node.labels

    def chance_outcomes(self):
        return tuple(zip(self.node.labels, self.node.probs))

    def child(self, action: str) -> _FileState:
        return _FileState(self.node.children[self.node.labels.index(action)])

    def returns(self):
        return self.node.payoffs

    def infoset_key(self) -> str:
        return self.node.infoset

    def history(self) -> str:
        return self.node.path


def load_game_file(path) -> GameTree:
    """Read a custom game from a JSON file (cfrviz's format) or a Gambit ``.efg`` file.

    Also reachable as ``cfrviz.load_game("file", path=...)``.

    Parameters
    ----------
    path : str or pathlib.Path
        A ``.json`` file in the format of ``data/games/FORMAT.md`` or a
        two-player Gambit extensive-form file (``.efg``, "EFG 2 R").

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
        When the file cannot be read or is malformed, naming the file and the
        node path (or the line and column) at fault: bad JSON, an unknown
        node type or field, chance probabilities that are negative or do not
        sum to 1, an information set whose nodes disagree on the player or
        the actions, missing or non-finite payoffs, or a player who forgets
        their own earlier moves (imperfect recall).
    """
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in (".json", ".efg"):
        raise ValueError(f"game file {str(path)!r} must end in .json (cfrviz's format, see "
                         f"data/games/FORMAT.md) or .efg (Gambit's format)")
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"game file {str(path)!r} not found (looked for {file.resolve()})") \
            from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"game file {str(path)!r} cannot be read: {error}") from None
    parse = _parse_json if suffix == ".json" else _parse_efg
    name, description, root = parse(text, str(path), file.stem)
    try:
        tree = build_tree(_FileGame(name, description, root))
        check_perfect_recall(tree)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
    return tree


def check_perfect_recall(tree: GameTree) -> None:
    """Refuse a tree in which a player forgets their own earlier moves or information.

    With perfect recall, every node of an information set has the same
    sequence of the owner's earlier (information set, action) pairs.
    Counterfactual regret minimization and the best response of
    :mod:`cfrviz.reference.evaluation` assume it.

    Raises
    ------
    ValueError
        Naming the information set and two of its nodes whose sequences differ.
    """
    sequences: list[tuple] = [((), ())]
    first: dict[int, int] = {}
    for node in range(1, tree.num_nodes):
        parent = int(tree.parent[node])
        own = list(sequences[parent])
        who = int(tree.player[parent])
        if who in (0, 1):
            own[who] += ((int(tree.infoset[parent]), int(tree.action[node])),)
        sequences.append(tuple(own))
    for node in range(tree.num_nodes):
        who, info = int(tree.player[node]), int(tree.infoset[node])
        if who not in (0, 1):
            continue
        if info not in first:
            first[info] = node
            continue
        other = first[info]
        if sequences[node][who] != sequences[other][who]:
            raise ValueError(
                f"information set {tree.infoset_keys[info]!r} of player {who + 1} breaks "
                f"perfect recall: at {tree.history[other]!r} the player has "
                f"{_moves(tree, sequences[other][who])}, but at {tree.history[node]!r} has "
                f"{_moves(tree, sequences[node][who])}; a player must remember their own moves "
                f"and what they saw, which CFR and best responses rely on")


def _moves(tree: GameTree, sequence) -> str:
    moves = [f"{tree.infoset_actions[i][a]!r} at {tree.infoset_keys[i]!r}" for i, a in sequence]
    return "played " + ", then ".join(moves) if moves else "not moved yet"


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


def _parse_json(text: str, file: str, stem: str):
    try:
        data = json.loads(text, object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        raise ValueError(f"{file}: not valid JSON at line {error.lineno}, column {error.colno}: "
                         f"{error.msg}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{file}: the file must hold one JSON object with a \"root\" node; "
                         f"got {type(data).__name__}")
    _fields(data, TOP_FIELDS, f"{file}: the top level")
    if "root" not in data:
        raise ValueError(f"{file}: the top level has no \"root\" node; it needs "
                         f"{{\"root\": {{\"type\": ...}}}}")
    name = data.get("name", stem)
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise ValueError(f"{file}: \"{key}\" must be a string; got {value!r}")
    if not name:
        raise ValueError(f"{file}: \"name\" must not be empty")
    root = _Node("root", "")
    stack = [(data["root"], root)]
    while stack:
        raw, node = stack.pop()
        stack.extend(_read_node(raw, node, file))
    return name, description, root


def _fields(obj: dict, allowed, where: str) -> None:
    if isinstance(obj, _Object) and obj.duplicates:
        raise ValueError(f"{where} has the key {obj.duplicates[0]!r} twice")
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        raise ValueError(f"{where} has an unknown field {unknown[0]!r}; valid fields: "
                         f"{', '.join(allowed)}")


def _read_node(raw, node: _Node, file: str) -> list:
    """Fill ``node`` from its JSON object; return (child object, child node) pairs."""
    where = f"{file}: node {node.path}"
    if not isinstance(raw, dict):
        raise ValueError(f"{where} must be an object with a \"type\" of "
                         f"{', '.join(map(repr, NODE_FIELDS))}; got {json.dumps(raw)[:60]}")
    kind = raw.get("type")
    if kind not in NODE_FIELDS:
        what = "has no \"type\"" if "type" not in raw else f"has unknown type {kind!r}"
        raise ValueError(f"{where} {what}; valid types: {', '.join(map(repr, NODE_FIELDS))}")
    _fields(raw, NODE_FIELDS[kind], where)
    node.kind = kind
    name = raw.get("name", "")
    if not isinstance(name, str):
        raise ValueError(f"{where}: \"name\" must be a string; got {name!r}")
    node.name = name
    if kind == "terminal":
        if "payoffs" not in raw:
            raise ValueError(f"{where} is terminal but has no \"payoffs\"; give "
                             f"[player 1's payoff, player 2's payoff]")
        payoffs = raw["payoffs"]
        if not isinstance(payoffs, list) or len(payoffs) != 2:
            raise ValueError(f"{where}: \"payoffs\" must be [player 1's payoff, player 2's "
                             f"payoff]; got {json.dumps(payoffs)}")
        node.payoffs = tuple(_number(v, f"{where}: payoff of player {i + 1}")
                             for i, v in enumerate(payoffs))
        return []
    key = "actions" if kind == "decision" else "outcomes"
    branches = raw.get(key)
    if not isinstance(branches, dict) or not branches:
        raise ValueError(f"{where} is a {kind} node and needs \"{key}\": a non-empty object "
                         f"{{label: ...}}; got {json.dumps(branches)[:60]}")
    if isinstance(branches, _Object) and branches.duplicates:
        raise ValueError(f"{where} has the {key[:-1]} {branches.duplicates[0]!r} twice")
    if "" in branches:
        raise ValueError(f"{where} has an empty {key[:-1]} label")
    node.labels = tuple(branches)
    if kind == "decision":
        player = raw.get("player")
        if isinstance(player, bool) or player not in (1, 2):
            raise ValueError(f"{where}: \"player\" must be 1 or 2; got {json.dumps(player)}")
        node.player = player - 1
        infoset = raw.get("infoset")
        if not isinstance(infoset, str) or not infoset:
            raise ValueError(f"{where}: \"infoset\" must be a non-empty string naming the "
                             f"information set; got {json.dumps(infoset)}")
        node.infoset = infoset
        node.children = [_Node(node.step(label), "") for label in node.labels]
        return list(zip(branches.values(), node.children))
    probs, pending = [], []
    for label, outcome in branches.items():
        child = _Node(node.step(label), "")
        at = f"{where}, outcome {label!r}"
        if not isinstance(outcome, dict):
            raise ValueError(f"{at} must be {{\"probability\": ..., \"node\": {{...}}}}; "
                             f"got {json.dumps(outcome)[:60]}")
        _fields(outcome, ("probability", "node", "comment"), at)
        if "probability" not in outcome or "node" not in outcome:
            raise ValueError(f"{at} needs both \"probability\" and \"node\"")
        p = _number(outcome["probability"], f"{at}: probability")
        if p < 0:
            raise ValueError(f"{at}: probability {p:g} is negative; probabilities must be >= 0")
        probs.append(p)
        node.children.append(child)
        pending.append((outcome["node"], child))
    node.probs = tuple(probs)
    return pending


def _number(value, where: str) -> float:
    """A finite number from a JSON number or a string such as ``"1/3"`` or ``"0.25"``."""
    if isinstance(value, str):
        try:
            value = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{where} is {value!r}; write a number or a fraction such as "
                             f"\"1/3\"") from None
    if isinstance(value, bool) or not isinstance(value, (Real, Fraction)):
        raise ValueError(f"{where} is {json.dumps(value) if value is None else value!r}; "
                         f"it must be a number")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{where} is {value}; it must be a finite number")
    return number


# --- Gambit's .efg format ------------------------------------------------------------------

_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([{}])|(,)|([^\s{}",]+)|(\S)', re.S)


@dataclass(frozen=True)
class _Token:
    kind: str  # "string", "brace", "word"
    text: str
    line: int
    column: int


def _tokens(text: str, file: str) -> list[_Token]:
    out = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    line = 0
    for match in _TOKEN.finditer(text):
        while line + 1 < len(line_starts) and line_starts[line + 1] <= match.start():
            line += 1
        column = match.start() - line_starts[line] + 1
        string, brace, comma, word, stray = match.groups()
        if stray is not None:
            raise ValueError(f"{file}, line {line + 1}, column {column}: unterminated quoted "
                             f"string")
        if comma is not None:
            continue  # Gambit allows commas between payoffs
        if string is not None:
            out.append(_Token("string", re.sub(r"\\(.)", r"\1", string), line + 1, column))
        elif brace is not None:
            out.append(_Token("brace", brace, line + 1, column))
        else:
            out.append(_Token("word", word, line + 1, column))
    return out


class _EfgReader:
    """Recursive-descent reader of a two-player "EFG 2 R" file."""

    def __init__(self, text: str, file: str):
        self.file = file
        self.tokens = _tokens(text, file)
        self.pos = 0
        self.infosets: dict[tuple[int, int], tuple[str, tuple]] = {}
        self.events: dict[int, tuple[str, tuple, tuple]] = {}
        self.outcomes: dict[int, tuple[str, tuple]] = {}
        # Decision nodes with their (player, information set number), keyed by
        # name_infosets once every information set's name is known.
        self.decisions: list[tuple[_Node, tuple[int, int]]] = []

    # token helpers
    def error(self, message: str, token: _Token | None = None, path: str = "") -> ValueError:
        token = token or (self.tokens[self.pos] if self.pos < len(self.tokens) else None)
        where = f"line {token.line}, column {token.column}" if token else "end of file"
        node = f" (node {path})" if path else ""
        return ValueError(f"{self.file}, {where}{node}: {message}")

    def peek(self) -> _Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, kind: str, what: str, path: str = "") -> _Token:
        token = self.peek()
        if token is None or token.kind != kind:
            got = "the end of the file" if token is None else repr(token.text)
            raise self.error(f"expected {what}; got {got}", token, path)
        self.pos += 1
        return token

    def integer(self, what: str, path: str, minimum: int) -> int:
        token = self.take("word", what, path)
        if not re.fullmatch(r"\d+", token.text) or int(token.text) < minimum:
            raise self.error(f"expected {what} (a whole number >= {minimum}); got "
                             f"{token.text!r}", token, path)
        return int(token.text)

    def number(self, what: str, path: str) -> Fraction:
        token = self.take("word", what, path)
        try:
            return Fraction(token.text)
        except (ValueError, ZeroDivisionError):
            raise self.error(f"expected {what} (a number such as 2, -1.5 or 1/3); got "
                             f"{token.text!r}", token, path) from None

    def braced(self, item, what: str, path: str) -> list:
        self.take("brace", f"'{{' opening the {what}", path)
        items = []
        while (token := self.peek()) is not None and token.text != "}":
            items.append(item())
        self.take("brace", f"'}}' closing the {what}", path)
        return items

    # grammar
    def read(self, stem: str):
        magic = self.take("word", "'EFG' at the start of a Gambit extensive-form file")
        if magic.text != "EFG":
            raise self.error(f"a Gambit extensive-form file starts with 'EFG'; got "
                             f"{magic.text!r}", magic)
        version = self.take("word", "the version '2'")
        if version.text != "2":
            raise self.error(f"only version 2 files are read; got {version.text!r}", version)
        kind = self.take("word", "'R'")
        if kind.text not in ("R", "D"):
            raise self.error(f"expected 'R' after the version; got {kind.text!r}", kind)
        title = self.take("string", "the game's title in double quotes").text
        start = self.peek()
        players = self.braced(lambda: self.take("string", "a player name").text, "player list",
                              "")
        if len(players) != 2:
            raise self.error(f"cfrviz reads two-player games; this one has {len(players)} "
                             f"players", start)
        comment = ""
        if (token := self.peek()) is not None and token.kind == "string":
            comment = self.take("string", "a comment").text
        root = self.node("root", (Fraction(0), Fraction(0)))
        if (token := self.peek()) is not None:
            raise self.error(f"unexpected {token.text!r} after the last node of the tree", token)
        self.name_infosets()
        description = "\n\n".join(part for part in (title, comment) if part)
        return stem, description, root

    def outcome(self, path: str) -> tuple[Fraction, Fraction]:
        token = self.peek()
        number = self.integer("an outcome number (0 for none)", path, 0)
        declared = None
        if (nxt := self.peek()) is not None and nxt.kind == "string":
            name = self.take("string", "an outcome name", path).text
            payoffs = tuple(self.braced(lambda: self.number("a payoff", path), "payoffs", path))
            if number == 0:
                raise self.error("outcome 0 means 'no outcome' and cannot have payoffs", token,
                                 path)
            if len(payoffs) != 2:
                raise self.error(f"outcome {number} has {len(payoffs)} payoffs; a two-player "
                                 f"game needs 2", token, path)
            declared = (name, payoffs)
        if number == 0:
            return (Fraction(0), Fraction(0))
        if declared is None:
            if number not in self.outcomes:
                raise self.error(f"outcome {number} is used before its name and payoffs are "
                                 f"given", token, path)
            return self.outcomes[number][1]
        if self.outcomes.setdefault(number, declared) != declared:
            raise self.error(f"outcome {number} is declared again with a different name or "
                             f"payoffs than before", token, path)
        return declared[1]

    def node(self, path: str, paid: tuple) -> _Node:
        token = self.peek()
        kind = self.take("word", "a node: 'c' (chance), 'p' (player) or 't' (terminal)", path)
        if kind.text not in ("c", "p", "t"):
            raise self.error(f"unknown node type {kind.text!r}; valid types: 'c' (chance), "
                             f"'p' (player), 't' (terminal)", kind, path)
        name = self.take("string", "the node's name in double quotes (may be \"\")", path).text
        node = _Node(path, "", name=name)
        if kind.text == "t":
            node.kind = "terminal"
            own = self.outcome(path)
            node.payoffs = tuple(float(a + b) for a, b in zip(paid, own))
            return node
        if kind.text == "c":
            node.kind = "chance"
            number = self.integer("a chance event number", path, 1)
            if (nxt := self.peek()) is not None and nxt.kind == "string":
                label = self.take("string", "the event's name", path).text
                pairs = self.braced(lambda: (self.take("string", "an outcome label", path).text,
                                             self.number("a probability", path)),
                                    "chance outcomes", path)
                event = (label, tuple(a for a, _ in pairs), tuple(p for _, p in pairs))
                if self.events.setdefault(number, event) != event:
                    raise self.error(f"chance event {number} is declared again differently",
                                     token, path)
            elif number not in self.events:
                raise self.error(f"chance event {number} is used before its outcomes and "
                                 f"probabilities are given", token, path)
            _, node.labels, probs = self.events[number]
            if any(p < 0 for p in probs):
                raise self.error("a chance probability is negative; probabilities must be >= 0",
                                 token, path)
            node.probs = tuple(float(p) for p in probs)
        else:
            node.kind = "decision"
            player = self.integer("the player number (1 or 2)", path, 1)
            if player > 2:
                raise self.error(f"player {player} does not exist; players are 1 and 2", token,
                                 path)
            number = self.integer("an information-set number", path, 1)
            if (nxt := self.peek()) is not None and nxt.kind == "string":
                label = self.take("string", "the information set's name", path).text
                actions = tuple(self.braced(lambda: self.take("string", "an action label",
                                                              path).text, "actions", path))
                infoset = (label, actions)
                if self.infosets.setdefault((player, number), infoset) != infoset:
                    raise self.error(f"information set {number} of player {player} is "
                                     f"declared again with a different name or actions", token,
                                     path)
            elif (player, number) not in self.infosets:
                raise self.error(f"information set {number} of player {player} is used before "
                                 f"its actions are given", token, path)
            node.player = player - 1
            self.decisions.append((node, (player, number)))
            node.labels = self.infosets[(player, number)][1]
        if not node.labels:
            raise self.error("a node needs at least one action", token, path)
        if len(set(node.labels)) < len(node.labels):
            raise self.error(f"the labels {list(node.labels)} repeat one; each must be distinct",
                             token, path)
        own = self.outcome(path)
        paid = (paid[0] + own[0], paid[1] + own[1])
        node.children = [self.node(node.step(label), paid) for label in node.labels]
        return node

    def name_infosets(self) -> None:
        """Key each information set by its name when unique and not empty, else ``P1.3``."""
        owners: dict[str, set] = {}
        for (player, number), (label, _) in self.infosets.items():
            owners.setdefault(label, set()).add((player, number))
        for node, (player, number) in self.decisions:
            label = self.infosets[(player, number)][0]
            node.infoset = label if label and len(owners[label]) == 1 \
                else f"P{player}.{number}"


def _parse_efg(text: str, file: str, stem: str):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return _EfgReader(text, file).read(stem)
    finally:
        sys.setrecursionlimit(limit)
