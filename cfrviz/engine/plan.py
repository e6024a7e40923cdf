"""A game tree's arrays laid out for the compiled loops, and the names of node and edge kinds.

Nodes come in depth-first preorder, so a parent always precedes its children
and every subtree is a contiguous id range.  The edge into each node is
labelled with who chose it, and each decision edge carries its slot
``infoset * width + action`` in the flat (information sets x actions) tables.
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ..core.tree import CHANCE, TERMINAL, GameTree
from ..core.types import BoolArray, FloatArray, IntArray

__all__ = ["CHANCE", "CHANCE_EDGE", "PLAYER_EDGES", "ROOT_EDGE", "TERMINAL", "Plan", "PlanArrays",
           "plan"]

#: The edge into the root, which nobody chose.
ROOT_EDGE = -1
#: An edge chosen by chance.  Edges chosen by a player are labelled 0 or 1,
#: so an edge label is also the row of the reach table ``(player 1, player 2,
#: chance)`` that the edge's probability multiplies.
CHANCE_EDGE = 2
PLAYER_EDGES = (0, 1)


class PlanArrays(NamedTuple):
    """The arrays every kernel reads, passed to compiled code as one typed tuple.

    Attributes
    ----------
    parent : int64 array (nodes,)
        Parent id, -1 at the root.
    edge : int64 array (nodes,)
        Who chose the edge into the node: 0, 1, ``CHANCE_EDGE``, or
        ``ROOT_EDGE`` at the root.
    slot : int64 array (nodes,)
        The flat ``infoset * width + action`` slot of a decision edge, -1 otherwise.
    player : int64 array (nodes,)
        0, 1, ``CHANCE`` or ``TERMINAL``, as in :class:`~cfrviz.core.tree.GameTree`.
    infoset : int64 array (nodes,)
        The node's information set, -1 at chance and terminal nodes.
    child_ptr, child_ids : int64 arrays
        Children of node ``h`` are ``child_ids[child_ptr[h]:child_ptr[h + 1]]``, in action order.
    chance_prob : float64 array (nodes,)
        Probability of the chance edge into the node (1 elsewhere).
    utility : float64 array (nodes, 2)
        Payoffs at terminal nodes.
    owner : int64 array (information sets,)
        The player acting at each information set.
    mask : bool array (information sets, width)
        Legal actions of each information set.
    """

    parent: IntArray
    edge: IntArray
    slot: IntArray
    player: IntArray
    infoset: IntArray
    child_ptr: IntArray
    child_ids: IntArray
    chance_prob: FloatArray
    utility: FloatArray
    owner: IntArray
    mask: BoolArray


S = TypeVar("S", bound=np.generic)


def _frozen(values: npt.ArrayLike, dtype: type[S]) -> npt.NDArray[S]:
    """A read-only, C-ordered copy of ``values`` as ``dtype``.

    Numba compiles a kernel once per argument type, and an array's type includes its dtype,
    layout and whether it is writeable: giving every plan the same types (whatever arrays its
    tree holds) lets one compiled version, cached on disk, serve every game.
    """
    array = np.array(values, dtype=dtype, order="C")
    array.setflags(write=False)
    return array


class Plan:
    """A game tree's arrays in the layout the compiled loops use (built once per tree).

    Attributes
    ----------
    arrays : PlanArrays
        What the kernels read.
    n, width, num_infosets : int
        Nodes, the widest information set's actions, information sets.
    br_order, br_stage, br_decisions : list of two int64 arrays
        Per player, the node order of the best response (see
        :func:`cfrviz.engine.evaluation.best_response_values`).
    recall_problem : str or None
        Why the tree lacks perfect recall, if it does.
    """

    def __init__(self, tree: GameTree) -> None:
        if tree.num_players != 2:
            raise ValueError(f"the two-player engine's plan labels an edge 0, 1 or chance (2); "
                             f"{tree.name} has {tree.num_players} players, whose kernels are "
                             f"in cfrviz.engine.multi (cfrviz.solve(game, 'cfr') uses them)")
        n = tree.num_nodes
        self.n = n
        self.width = tree.max_actions
        self.num_infosets = tree.num_infosets
        parent = np.ascontiguousarray(tree.parent, dtype=np.int64)
        player = np.ascontiguousarray(tree.player, dtype=np.int64)
        infoset = np.ascontiguousarray(tree.infoset, dtype=np.int64)
        counts = np.array([len(c) for c in tree.children], dtype=np.int64)
        child_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        child_ids = (np.concatenate(tree.children).astype(np.int64) if n > 1
                     else np.zeros(0, dtype=np.int64))
        if np.any(parent[1:] >= np.arange(1, n)) or parent[0] != -1:
            raise ValueError(f"{tree.name}: node ids must list parents before children")
        par = np.maximum(parent, 0)
        who = player[par]
        edge = np.where(who == CHANCE, CHANCE_EDGE, who).astype(np.int64)
        edge[0] = ROOT_EDGE
        slot = np.full(n, -1, dtype=np.int64)
        decision = np.isin(edge, PLAYER_EDGES)
        slot[decision] = infoset[par[decision]] * self.width + tree.action[decision]
        self.arrays = PlanArrays(
            parent=_frozen(parent, np.int64), edge=_frozen(edge, np.int64),
            slot=_frozen(slot, np.int64), player=_frozen(player, np.int64),
            infoset=_frozen(infoset, np.int64), child_ptr=_frozen(child_ptr, np.int64),
            child_ids=_frozen(child_ids, np.int64),
            chance_prob=_frozen(tree.chance_prob, np.float64),
            utility=_frozen(tree.utility, np.float64),
            owner=_frozen(tree.infoset_player, np.int64),
            mask=_frozen(tree.legal_mask, np.bool_))
        self.br_order: list[IntArray] = []
        self.br_stage: list[IntArray] = []
        self.br_decisions: list[IntArray] = []
        self.recall_problem: str | None = None
        for p in PLAYER_EDGES:
            order, stage, decisions, problem = _best_response_order(tree, p, par, player,
                                                                    infoset, slot)
            self.recall_problem = problem or self.recall_problem
            self.br_order.append(order)
            self.br_stage.append(stage)
            self.br_decisions.append(decisions)


def _best_response_order(tree: GameTree, p: int, par: IntArray, player: IntArray,
                         infoset: IntArray, slot: IntArray
                         ) -> tuple[IntArray, IntArray, IntArray, str | None]:
    """Player ``p``'s ``(order, stage, decisions, recall problem)`` for
    :func:`cfrviz.engine.evaluation.best_response_values`: each node's stage, the nodes by
    decreasing stage then reverse preorder, ``p``'s decision nodes in that order, and why the
    tree lacks perfect recall for ``p`` (None if it does not)."""
    n = len(par)
    # stage = how many of p's own decisions lie above a node (its sequence length)
    # and the slot of the last of them (perfect recall: equal across an information set)
    stage = np.zeros(n, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    for h in range(1, n):  # once per tree; parents come first
        own = player[par[h]] == p
        stage[h] = stage[par[h]] + (1 if own else 0)
        last[h] = slot[h] if own else last[par[h]]
    order = np.lexsort((-np.arange(n), -stage)).astype(np.int64)
    mine = np.flatnonzero(player == p)
    decisions = mine[np.lexsort((-mine, -stage[mine]))].astype(np.int64)
    first = np.full(tree.num_infosets, -1, dtype=np.int64)
    first[infoset[mine[::-1]]] = last[mine[::-1]]
    clash = mine[last[mine] != first[infoset[mine]]]
    if not len(clash):
        return order, stage, decisions, None
    h = int(clash[0])
    return order, stage, decisions, (
        f"{tree.name} does not have perfect recall: information set "
        f"{tree.infoset_keys[infoset[h]]!r} of player {p + 1} holds nodes "
        f"reached by different moves of that player's own (e.g. history "
        f"{tree.history[h]!r})")


def plan(tree: GameTree) -> Plan:
    """The cached :class:`Plan` of a tree."""
    return tree.cached("plan", Plan)
