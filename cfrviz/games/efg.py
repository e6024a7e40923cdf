"""Gambit's extensive-form ``.efg`` format ("EFG 2 R", two players), read into linked
nodes: every error names the file, the line and column, and the node path."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import TypeAlias, TypeVar

from .nodes import Node, shown_path
from .reading import TOO_LARGE, Paths, check_text, exact_number, short_text

#: A number as the file writes it, exactly (payoffs add up without rounding).
Exact: TypeAlias = Fraction | int
T = TypeVar("T")

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

    def __init__(self, text: str, file: str) -> None:
        self.file = file
        self.text = text
        self.tokens: list[tuple[str, str, str, str]] = _TOKEN.findall(text)
        self.tokens.append(_END)
        self.pos = 0
        self.paths = Paths(file)
        # (player, number) -> (name, action labels)
        self.infosets: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
        # number -> (name, outcome labels, probabilities)
        self.events: dict[int, tuple[str, tuple[str, ...], tuple[Exact, ...]]] = {}
        # number -> (name, the two payoffs)
        self.outcomes: dict[int, tuple[str, tuple[Exact, Exact]]] = {}
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
            got = repr(short_text("".join(token))) if token != _END else "the end of the file"
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
                             f"{short_text(text)!r}", self.pos - 1, path)
        return int(text)

    def number(self, what: str, path: str) -> Exact:
        text = self.take(_WORD, what, path)
        try:
            value = exact_number(text)
            float(value)
        except ValueError:
            raise self.error(f"expected {what} (a number such as 2, -1.5 or 1/3); got "
                             f"{short_text(text)!r}", self.pos - 1, path) from None
        except OverflowError:
            raise self.error(f"{what} {short_text(text)} is {TOO_LARGE}", self.pos - 1,
                             path) from None
        return value

    def next_is(self, kind: int, text: str | None = None) -> bool:
        found = self.tokens[self.pos][kind]
        return bool(found) and (text is None or found == text)

    def braced(self, item: Callable[[], T], what: str, path: str) -> list[T]:
        self.take(_BRACE, f"'{{' opening the {what}", path)
        items: list[T] = []
        while not self.next_is(_BRACE, "}") and self.tokens[self.pos] != _END:
            items.append(item())
        self.take(_BRACE, f"'}}' closing the {what}", path)
        return items

    # grammar
    def read(self, stem: str) -> tuple[str, str, Node]:
        magic = self.take(_WORD, "'EFG' at the start of a Gambit extensive-form file")
        if magic != "EFG":
            raise self.error(f"a Gambit extensive-form file starts with 'EFG'; got "
                             f"{short_text(magic)!r}", self.pos - 1)
        version = self.take(_WORD, "the version '2'")
        if version != "2":
            raise self.error(f"only version 2 files are read; got {short_text(version)!r}",
                             self.pos - 1)
        kind = self.take(_WORD, "'R'")
        if kind not in ("R", "D"):
            raise self.error(f"expected 'R' after the version; got {short_text(kind)!r}",
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
            raise self.error(f"unexpected {short_text(''.join(self.tokens[self.pos]))!r} after the "
                             f"last node of the tree")
        self.name_infosets()
        check_text(stem, f"{self.file}: the file name (the game's name)")
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

    def outcome(self, path: str) -> tuple[Exact, Exact]:
        start = self.pos
        number = self.integer("an outcome number (0 for none)", path, 0)
        declared: tuple[str, tuple[Exact, Exact]] | None = None
        if self.next_is(_STRING):
            name = self.take(_STRING, "an outcome name", path)
            payoffs = self.braced(lambda: self.number("a payoff", path), "payoffs", path)
            if number == 0:
                raise self.error("outcome 0 means 'no outcome' and cannot have payoffs", start,
                                 path)
            if len(payoffs) != 2:
                raise self.error(f"outcome {number} has {len(payoffs)} payoffs; a two-player "
                                 f"game needs 2", start, path)
            declared = (name, (payoffs[0], payoffs[1]))
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

    def node(self, path: str, paid: tuple[Exact, Exact]) -> tuple[Node, tuple[Exact, Exact]]:
        """Read one node (not its children); return it and the payoffs paid down to it."""
        start = self.pos
        kind = self.take(_WORD, "a node: 'c' (chance), 'p' (player) or 't' (terminal)", path)
        if kind not in ("c", "p", "t"):
            raise self.error(f"unknown node type {short_text(kind)!r}; valid types: 'c' "
                             f"(chance), 'p' (player), 't' (terminal)", start, path)
        name = self.take(_STRING, "the node's name in double quotes (may be \"\")", path)
        node = Node(path, "", name=name)
        if kind == "t":
            self.terminal(node, paid, start)
            return node, paid
        if kind == "c":
            self.chance(node, start)
        else:
            self.decision(node, start)
        if not node.labels:
            raise self.error("a node needs at least one action", start, path)
        if len(set(node.labels)) < len(node.labels):
            raise self.error(f"the labels {short_text(str(list(node.labels)))} repeat one; each "
                             f"must be distinct", start, path)
        own = self.outcome(path)
        if own[0] or own[1]:
            paid = (paid[0] + own[0], paid[1] + own[1])
        return node, paid

    def terminal(self, node: Node, paid: tuple[Exact, Exact], start: int) -> None:
        """The rest of a terminal node: its outcome, added to the payoffs paid down to it."""
        path = node.path
        node.kind = "terminal"
        own = self.outcome(path)
        payoffs: list[float] = []
        for i in (0, 1):
            try:
                payoffs.append(float(paid[i] + own[i]))
            except OverflowError:
                raise self.error(f"the payoff of player {i + 1} adds up to a number "
                                 f"{TOO_LARGE}", start, path) from None
        node.payoffs = (payoffs[0], payoffs[1])

    def chance(self, node: Node, start: int) -> None:
        """The rest of a chance node up to its outcome: its event, declared here or before."""
        path = node.path
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

    def decision(self, node: Node, start: int) -> None:
        """The rest of a player's node up to its outcome: its player and information set,
        declared here or before."""
        path = node.path
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

    def name_infosets(self) -> None:
        """Key each information set by its name when unique and not empty, else ``P1.3``.

        Raises
        ------
        ValueError
            When a set's name is the key ``P<player>.<number>`` that another set gets (one
            with no name, or a name that several sets share): the two would merge into one
            set, which changes the game.
        """
        owners: dict[str, set[tuple[int, int]]] = {}
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


def parse_efg(text: str, file: str, stem: str) -> tuple[str, str, Node]:
    return _EfgReader(text, file).read(stem)
