"""The game tree as a ``networkx.DiGraph`` with the engine's node ids, and the words a
drawing uses for nodes and edges (role, edge label, exact chance probability)."""

from __future__ import annotations

from fractions import Fraction
from numbers import Integral
from typing import TYPE_CHECKING

import numpy as np

from ...core.tree import CHANCE, TERMINAL, GameTree, as_tree

if TYPE_CHECKING:
    import networkx as nx


def tree_graph(game, nodes=None) -> nx.DiGraph:
    """The game tree as a ``networkx.DiGraph`` with the engine's node ids.

    Parameters
    ----------
    game : GameTree or MatrixGame
    nodes : iterable of int, optional
        Keep only these nodes (and the edges between them); default all.

    Returns
    -------
    networkx.DiGraph
        Node attributes ``player`` (0, 1, ``CHANCE`` = -1 or ``TERMINAL`` = -2),
        ``role`` ("player 1", "player 2", "chance", "terminal"), ``infoset`` (id,
        -1 off decisions), ``infoset_key`` (or ``None``), ``history``, ``depth``
        and ``utility`` (one payoff per player).  Edge attributes ``action`` (index), ``label``
        (action or chance outcome) and ``probability`` (the chance probability,
        ``None`` below a decision node).  Graph attribute ``name``.
    """
    # imported here: networkx (a third of a second) is for the graph, not for drawing a tree
    import networkx as nx

    tree = as_tree(game, "plot_tree")
    keep = np.arange(tree.num_nodes) if nodes is None else _node_ids(tree, nodes)
    graph = nx.DiGraph(name=tree.name)
    for n in keep.tolist():
        info = int(tree.infoset[n])
        graph.add_node(n, player=int(tree.player[n]), role=node_role(tree, n), infoset=info,
                       infoset_key=tree.infoset_keys[info] if info >= 0 else None,
                       history=tree.history[n], depth=int(tree.depth[n]),
                       utility=tuple(float(v) for v in tree.utility[n]))
    kept = set(keep.tolist())
    for n in keep.tolist():
        parent = int(tree.parent[n])
        if parent in kept:
            chance = tree.player[parent] == CHANCE
            graph.add_edge(parent, n, action=int(tree.action[n]), label=edge_label(tree, n),
                           probability=float(tree.chance_prob[n]) if chance else None)
    return graph


def _node_ids(tree: GameTree, nodes) -> np.ndarray:
    """``nodes`` as sorted unique node ids, or a ValueError naming the first that is not one."""
    valid = f"nodes must be a list of node ids, whole numbers in 0..{tree.num_nodes - 1}"
    if isinstance(nodes, (str, bytes)) or not np.iterable(nodes):
        raise ValueError(f"{valid}; got {nodes!r}")
    items = nodes if isinstance(nodes, np.ndarray) and nodes.dtype.kind in "iu" else list(nodes)
    if not isinstance(items, np.ndarray):
        for n in items:
            if isinstance(n, (bool, np.bool_)) or not isinstance(n, Integral):
                raise ValueError(f"{valid}; got {n!r}")
    ids = np.asarray(items, dtype=np.int64)
    outside = ids[(ids < 0) | (ids >= tree.num_nodes)]
    if len(outside):
        raise ValueError(f"{valid}; got {int(outside[0])}")
    return np.unique(ids)


def node_role(tree: GameTree, node: int) -> str:
    who = int(tree.player[node])
    return {CHANCE: "chance", TERMINAL: "terminal"}.get(who, f"player {who + 1}")


def edge_label(tree: GameTree, child: int) -> str:
    parent = tree.parent[child]
    if tree.player[parent] == CHANCE:
        return tree.chance_labels[parent][tree.action[child]]
    return tree.infoset_actions[tree.infoset[parent]][tree.action[child]]


def fraction_label(p: float) -> str:
    """``"1/6"`` when ``p`` is a simple fraction (denominator <= 1000), else 3 digits."""
    f = Fraction(float(p)).limit_denominator(1000)
    if abs(float(f) - p) > 1e-12:
        return f"{p:.3g}"
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"

