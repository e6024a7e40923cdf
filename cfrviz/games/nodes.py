"""Games held as linked nodes, and the one adapter from them to the game protocol.

A custom game read from a file (:mod:`cfrviz.games.files`) and a custom game
kept inside a saved trace (:mod:`cfrviz.io`) both end up as a tree of
:class:`Node` objects; :func:`tree_from_nodes` walks it with
:func:`~cfrviz.core.tree.build_tree` (which checks chance probabilities and
information sets) and then :func:`check_perfect_recall`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.tree import CHANCE, GameTree, build_tree


@dataclass(eq=False, slots=True)
class Node:
    """One node of a game: ``kind`` is ``"chance"``, ``"decision"`` or ``"terminal"``.

    ``path`` is the node's history (its name in messages), ``labels`` its
    actions or chance outcomes in order, ``probs`` the chance probabilities,
    ``children`` the nodes below by label (in label order) and ``payoffs`` a
    terminal's two payoffs.
    """

    path: str
    kind: str
    name: str = ""
    player: int = CHANCE
    infoset: str = ""
    labels: tuple[str, ...] = ()
    probs: tuple[float, ...] = ()
    children: dict[str, Node] = field(default_factory=dict)  # by label, in label order
    payoffs: tuple[float, float] = (0.0, 0.0)

    def step(self, label: str) -> str:
        """Path of the child reached by ``label``.

        A ``/`` in the name or the label is written ``\\/`` (and ``\\`` as ``\\\\``): ``/``
        separates the steps, and two nodes must never share a path (``a/b`` then ``c`` and
        ``a`` then ``b/c`` would both be ``root/a/b/c``).
        """
        label = step_text(label)
        return f"{self.path}/{step_text(self.name)}:{label}" if self.name \
            else f"{self.path}/{label}"


def step_text(text: str) -> str:
    """A name or label as written in a node path: ``\\`` and ``/`` escaped with ``\\``."""
    if "/" in text or "\\" in text:
        return text.replace("\\", "\\\\").replace("/", "\\/")
    return text


class NodeGame:
    """A tree of :class:`Node` objects as a game definition for :func:`build_tree`."""

    def __init__(self, name: str, description: str, root: Node) -> None:
        self.name = name
        self.__doc__ = description
        self.root = root

    def initial_state(self) -> NodeState:
        return NodeState(self.root)


@dataclass(frozen=True, eq=False, slots=True)
class NodeState:
    """One node as a state of the game protocol."""

    node: Node

    def is_terminal(self) -> bool:
        return self.node.kind == "terminal"

    def current_player(self) -> int:
        return self.node.player

    def legal_actions(self) -> tuple[str, ...]:
        return self.node.labels

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return tuple(zip(self.node.labels, self.node.probs))

    def child(self, action: str) -> NodeState:
        return NodeState(self.node.children[action])  # by key: a wide node stays linear

    def returns(self) -> tuple[float, float]:
        return self.node.payoffs

    def infoset_key(self) -> str:
        return self.node.infoset

    def history(self) -> str:
        return self.node.path


def tree_from_nodes(name: str, description: str, root: Node) -> GameTree:
    """The :class:`GameTree` of the game rooted at ``root``, checked for perfect recall.

    Raises
    ------
    ValueError
        From :func:`~cfrviz.core.tree.build_tree` or :func:`check_perfect_recall`.
    """
    tree = build_tree(NodeGame(name, description, root))
    check_perfect_recall(tree)
    return tree


def check_perfect_recall(tree: GameTree) -> None:
    """Refuse a tree in which a player forgets their own earlier moves or information.

    With perfect recall, every node of an information set has the same
    sequence of the owner's earlier (information set, action) pairs.
    Counterfactual regret minimization and the best response of
    :mod:`cfrviz.reference.evaluation` assume it.  Every player of the tree is
    checked (two or more).  Time and memory are linear in the number of nodes
    (times the players), however deep the tree.

    Raises
    ------
    ValueError
        Naming the information set and two of its nodes whose sequences differ.
    """
    # A sequence is interned as an id: 0 for "no move yet", and one id per distinct
    # (previous id, information set, action).  Equal sequences get equal ids, so a node
    # costs O(1) rather than a copy of its parent's sequence.
    ids: dict[tuple[int, int, int], int] = {}
    steps: list[tuple[int, int, int]] = [(0, -1, -1)]  # id -> (previous id, set, action)
    count = tree.num_players
    sequences: list[tuple[int, ...]] = [(0,) * count]
    parents, players = tree.parent.tolist(), tree.player.tolist()
    infosets, actions = tree.infoset.tolist(), tree.action.tolist()
    for node in range(1, tree.num_nodes):
        parent = parents[node]
        own = sequences[parent]
        who = players[parent]
        if who >= 0:
            step = (own[who], infosets[parent], actions[node])
            if step not in ids:
                ids[step] = len(steps)
                steps.append(step)
            own = (*own[:who], ids[step], *own[who + 1:])
        sequences.append(own)
    first: dict[int, int] = {}
    for node in range(tree.num_nodes):
        who, info = players[node], infosets[node]
        if who < 0:  # chance or terminal
            continue
        if info not in first:
            first[info] = node
            continue
        other = first[info]
        if sequences[node][who] != sequences[other][who]:
            raise ValueError(
                f"information set {tree.infoset_keys[info]!r} of player {who + 1} breaks "
                f"perfect recall: at {shown_path(tree.history[other])!r} the player has "
                f"{_moves(tree, steps, sequences[other][who])}, but at "
                f"{shown_path(tree.history[node])!r} has "
                f"{_moves(tree, steps, sequences[node][who])}; "
                f"a player must remember their own moves and what they saw, which CFR and best "
                f"responses rely on")


def _moves(tree: GameTree, steps: list[tuple[int, int, int]], sequence: int) -> str:
    moves = []
    while sequence:
        sequence, i, a = steps[sequence]
        moves.append(f"{tree.infoset_actions[i][a]!r} at {tree.infoset_keys[i]!r}")
    moves.reverse()
    if len(moves) > 6:  # a deep node: its first and last moves say enough
        moves[3:-3] = [f"{len(moves) - 6} more moves"]
    return "played " + ", then ".join(moves) if moves else "not moved yet"


def shown_path(path: str, limit: int = 160) -> str:
    """A node path for a message; the middle of a very deep node's path is left out."""
    return path if len(path) <= limit else f"{path[:limit // 2]}...{path[-limit // 2:]}"
