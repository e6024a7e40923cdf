"""A custom game tree as plain JSON values, and back: how a trace keeps a game that no
``load_game`` name rebuilds (:mod:`cfrviz.io`).

:func:`stored_tree` checks every field and walks the content again as linked
:class:`~cfrviz.games.nodes.Node` objects with :func:`~cfrviz.games.nodes.tree_from_nodes`,
so the tree is consistent by construction whatever the content held.
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np

from ..core.tree import CHANCE, TERMINAL, GameTree
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
    if not isinstance(content, dict) or set(content) != set(TREE_FIELDS):
        raise ValueError(f"its content must hold exactly {', '.join(TREE_FIELDS)}")
    nodes = content["parent"]
    if not isinstance(nodes, list) or not nodes:
        raise ValueError("'parent' must be a non-empty list")
    n = len(nodes)
    for key in NODE_FIELDS:
        if not isinstance(content[key], list) or len(content[key]) != n:
            raise ValueError(f"{key!r} must be a list of {n} entries, one per node")
    parent = _whole_numbers(content["parent"], "parent")
    player = _whole_numbers(content["player"], "player")
    infoset = _whole_numbers(content["infoset"], "infoset")
    keys = _strings(content["infoset_keys"], "infoset_keys")
    actions = [_strings(row, "infoset_actions") for row in _list(content["infoset_actions"],
                                                                 "infoset_actions")]
    labels = [_strings(row, "chance_labels") for row in content["chance_labels"]]
    history = _strings(content["history"], "history")
    if len(actions) != len(keys):
        raise ValueError(f"'infoset_actions' must have one entry per key ({len(keys)})")
    if not isinstance(content["description"], str):
        raise ValueError("'description' must be a string")
    try:
        chance_prob = np.array(content["chance_prob"], dtype=np.float64)
        utility = np.array(content["utility"], dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(f"'chance_prob' and 'utility' must be numbers ({exc})") from None
    if chance_prob.shape != (n,) or utility.shape != (n, 2):
        raise ValueError(f"'chance_prob' must be {n} numbers and 'utility' {n} pairs")
    if parent[0] != -1 or any(not 0 <= parent[c] < c for c in range(1, n)):
        raise ValueError("'parent' must be -1 at the root and an earlier node elsewhere")
    children: list[list[int]] = [[] for _ in range(n)]
    for c in range(1, n):
        children[parent[c]].append(c)
    for h in range(n):
        if player[h] in (0, 1):
            if not 0 <= infoset[h] < len(keys):
                raise ValueError(f"node {h}'s 'infoset' {infoset[h]} is not an information set")
            width = len(actions[infoset[h]])
        elif player[h] == CHANCE:
            width = len(labels[h])
        elif player[h] == TERMINAL:
            width = 0
        else:
            raise ValueError(f"node {h}'s 'player' {player[h]} is not 0, 1, chance or terminal")
        if len(children[h]) != width:
            raise ValueError(f"node {h} has {len(children[h])} children for {width} actions")
    linked = [Node(history[h], _KINDS.get(player[h], "decision"), player=player[h])
              for h in range(n)]
    for h, node in enumerate(linked):
        if player[h] == CHANCE:
            node.labels = tuple(labels[h])
            node.probs = tuple(float(chance_prob[c]) for c in children[h])
        elif player[h] == TERMINAL:
            node.payoffs = (float(utility[h, 0]), float(utility[h, 1]))
        else:
            node.labels, node.infoset = tuple(actions[infoset[h]]), keys[infoset[h]]
        node.children = {label: linked[c] for label, c in zip(node.labels, children[h])}
    return tree_from_nodes(name, content["description"], linked[0])


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
