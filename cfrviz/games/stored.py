"""A custom game tree as plain JSON values, and back: how a trace keeps a game that no
``load_game`` name rebuilds (:mod:`cfrviz.io`).

:func:`stored_tree` checks every field and walks the content again as linked
:class:`~cfrviz.games.nodes.Node` objects with :func:`~cfrviz.games.nodes.tree_from_nodes`,
so the tree is consistent by construction whatever the content held.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np

from ..core.tree import CHANCE, TERMINAL, GameTree
from ..core.types import FloatArray
from .nodes import Node, tree_from_nodes

#: The GameTree fields a stored game keeps, per node and per information set.
NODE_FIELDS = ("parent", "player", "chance_prob", "utility", "infoset", "chance_labels",
               "history")
TREE_FIELDS = (*NODE_FIELDS, "infoset_keys", "infoset_actions", "description")
_KINDS = {CHANCE: "chance", TERMINAL: "terminal"}  # a node's kind by its player; else "decision"


class StoredContent(TypedDict):
    """A custom game tree as plain JSON values (:data:`TREE_FIELDS`), per node and per set."""

    parent: list[int]
    player: list[int]
    chance_prob: list[float]
    utility: list[list[float]]
    infoset: list[int]
    chance_labels: list[list[str]]
    history: list[str]
    infoset_keys: list[str]
    infoset_actions: list[list[str]]
    description: str


def tree_content(tree: GameTree) -> StoredContent:
    """A custom game tree as plain JSON values, enough for :func:`stored_tree` to rebuild it."""
    return {
        "parent": tree.parent.tolist(), "player": tree.player.tolist(),
        "chance_prob": tree.chance_prob.tolist(), "utility": tree.utility.tolist(),
        "infoset": tree.infoset.tolist(),
        "chance_labels": [list(labels) for labels in tree.chance_labels],
        "history": list(tree.history), "infoset_keys": list(tree.infoset_keys),
        "infoset_actions": [list(actions) for actions in tree.infoset_actions],
        "description": tree.description,
    }


def stored_tree(name: str, content: object) -> GameTree:
    """Walk a stored game's content again (as linked nodes, with
    :func:`~cfrviz.games.nodes.tree_from_nodes`), checking every field.

    The walk rebuilds every array, so the tree is consistent by construction
    (parents before children, chance probabilities summing to 1, information
    sets that agree), whatever the content held.
    """
    fields = _Fields.read(content)
    children = _children(fields)
    linked = [Node(fields.history[h], _KINDS.get(fields.player[h], "decision"),
                   player=fields.player[h]) for h in range(fields.n)]
    for h, node in enumerate(linked):
        if fields.player[h] == CHANCE:
            node.labels = tuple(fields.labels[h])
            node.probs = tuple(float(fields.chance_prob[c]) for c in children[h])
        elif fields.player[h] == TERMINAL:
            node.payoffs = (float(fields.utility[h, 0]), float(fields.utility[h, 1]))
        else:
            node.labels = tuple(fields.actions[fields.infoset[h]])
            node.infoset = fields.keys[fields.infoset[h]]
        node.children = {label: linked[c] for label, c in zip(node.labels, children[h])}
    return tree_from_nodes(name, fields.description, linked[0])


@dataclass(frozen=True)
class _Fields:
    """A stored game's fields, each checked for its type and length."""

    parent: list[int]
    player: list[int]
    infoset: list[int]
    keys: list[str]
    actions: list[list[str]]
    labels: list[list[str]]
    history: list[str]
    description: str
    chance_prob: FloatArray
    utility: FloatArray

    @property
    def n(self) -> int:
        return len(self.parent)

    @classmethod
    def read(cls, content: object) -> _Fields:
        """Check the content's fields (in this order: the first fault is the one named)."""
        table = _node_lists(content)
        n = len(table["parent"])
        parent = _whole_numbers(table["parent"], "parent")
        player = _whole_numbers(table["player"], "player")
        infoset = _whole_numbers(table["infoset"], "infoset")
        keys = _strings(table["infoset_keys"], "infoset_keys")
        actions = [_strings(row, "infoset_actions") for row in _list(table["infoset_actions"],
                                                                     "infoset_actions")]
        labels = [_strings(row, "chance_labels") for row in table["chance_labels"]]
        history = _strings(table["history"], "history")
        if len(actions) != len(keys):
            raise ValueError(f"'infoset_actions' must have one entry per key ({len(keys)})")
        description = table["description"]
        if not isinstance(description, str):
            raise ValueError("'description' must be a string")
        try:
            chance_prob = np.array(table["chance_prob"], dtype=np.float64)
            utility = np.array(table["utility"], dtype=np.float64)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"'chance_prob' and 'utility' must be numbers ({exc})") from None
        if chance_prob.shape != (n,) or utility.shape != (n, 2):
            raise ValueError(f"'chance_prob' must be {n} numbers and 'utility' {n} pairs")
        return cls(parent, player, infoset, keys, actions, labels, history, description,
                   chance_prob, utility)


def _node_lists(content: object) -> dict[str, Any]:
    """The content as a dict of exactly :data:`TREE_FIELDS`, the per-node ones lists of one
    entry per node."""
    if not isinstance(content, dict) or set(content) != set(TREE_FIELDS):
        raise ValueError(f"its content must hold exactly {', '.join(TREE_FIELDS)}")
    nodes = content["parent"]
    if not isinstance(nodes, list) or not nodes:
        raise ValueError("'parent' must be a non-empty list")
    n = len(nodes)
    for key in NODE_FIELDS:
        if not isinstance(content[key], list) or len(content[key]) != n:
            raise ValueError(f"{key!r} must be a list of {n} entries, one per node")
    return content


def _children(fields: _Fields) -> list[list[int]]:
    """Each node's children, checking that parents come first and that every node has as
    many children as its player, chance or terminal kind says."""
    n, parent = fields.n, fields.parent
    if parent[0] != -1 or any(not 0 <= parent[c] < c for c in range(1, n)):
        raise ValueError("'parent' must be -1 at the root and an earlier node elsewhere")
    children: list[list[int]] = [[] for _ in range(n)]
    for c in range(1, n):
        children[parent[c]].append(c)
    for h in range(n):
        width = _width(fields, h)
        if len(children[h]) != width:
            raise ValueError(f"node {h} has {len(children[h])} children for {width} actions")
    return children


def _width(fields: _Fields, h: int) -> int:
    """How many children node ``h`` must have."""
    player = fields.player[h]
    if player in (0, 1):
        if not 0 <= fields.infoset[h] < len(fields.keys):
            raise ValueError(f"node {h}'s 'infoset' {fields.infoset[h]} is not an information set")
        return len(fields.actions[fields.infoset[h]])
    if player == CHANCE:
        return len(fields.labels[h])
    if player == TERMINAL:
        return 0
    raise ValueError(f"node {h}'s 'player' {player} is not 0, 1, chance or terminal")


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"{what!r} must be a list")
    return value


def _whole_numbers(values: list[object], what: str) -> list[int]:
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if len(numbers) != len(values):
        raise ValueError(f"{what!r} must hold whole numbers")
    return numbers


def _strings(values: object, what: str) -> list[str]:
    strings = [v for v in values if isinstance(v, str)] if isinstance(values, list) else []
    if not isinstance(values, list) or len(strings) != len(values):
        raise ValueError(f"{what!r} must hold lists of strings")
    if len(set(strings)) != len(strings) and what != "history":
        raise ValueError(f"{what!r} repeats a label")
    return strings


__all__ = ["NODE_FIELDS", "TREE_FIELDS", "StoredContent", "stored_tree", "tree_content"]
