"""Subtrees of a game as games of their own: where a subgame lies, and trees built from it.

A subgame is named by its root histories, which :func:`subgame_roots` finds from a public
state, its public history or node ids, and checks to be closed under information sets.
:class:`TreeBuilder` assembles a new game tree (a re-solve gadget, a subgame dealt by chance)
node by node in depth-first preorder, copying whole subtrees of the source as array slices
(:func:`subtree_end` says where each ends); :func:`deal_roots` adds a chance node that deals
root histories in proportion to weights.  The tree built keeps the source's information-set
keys, so a profile passes between the two (:func:`shared_infosets`, :func:`profile_on`), and
:func:`node_values` evaluates one on it.  Public states and hands come from
:mod:`cfrviz.games.public`: a player's hand at each root is its root information set
(:func:`hands_at`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.checks import whole_number
from ..core.tree import CHANCE, TERMINAL, GameTree
from ..core.types import FloatArray, IntArray
from ..games.public import PublicState, PublicTree, public_tree

# --------------------------------------------------------------------------- where a subgame lies

def subtree_end(tree: GameTree) -> IntArray:
    """One past the last node of each node's subtree (nodes are in depth-first preorder)."""
    def compute(t: GameTree) -> IntArray:
        end = np.arange(1, t.num_nodes + 1, dtype=np.int64)
        for h in range(t.num_nodes - 1, 0, -1):
            p = t.parent[h]
            if end[h] > end[p]:
                end[p] = end[h]
        end.setflags(write=False)
        return end
    return tree.cached("subtree_end", compute)


def subgame_roots(tree: GameTree, state: object) -> IntArray:
    """The root histories of a subgame, checked to be one public state's, whose subtrees are
    closed under information sets.

    Parameters
    ----------
    tree : GameTree
        A game with a well-defined public state (:func:`~cfrviz.games.public.public_tree`).
    state : PublicState, str or sequence of int
        The subgame's public state (from :func:`cfrviz.games.public.public_tree`), its public
        history (``"deal/b"`` in Kuhn, :meth:`cfrviz.games.public.PublicTree.find`) or its
        root node ids.

    Raises
    ------
    ValueError
        For a state of another game's public tree, node ids that are not whole numbers of the
        tree, nodes of two public states, a root below another, or a set of nodes not closed
        under information sets.
    """
    public = public_tree(tree)  # refuses a game without a well-defined public state
    if isinstance(state, PublicState):
        if not (0 <= state.id < len(public) and public.states[state.id] is state):
            raise ValueError(f"state: public state {state.history!r} belongs to another game's "
                             f"public tree, not {tree.name}'s (take it from "
                             f"cfrviz.games.public.public_tree(game))")
        nodes = state.nodes
    elif isinstance(state, str):
        nodes = public.find(state).nodes
    else:
        nodes = _node_ids(tree, state)
    roots: IntArray = np.unique(np.asarray(nodes, dtype=np.int64))
    _one_public_state(public, roots)
    ends = subtree_end(tree)
    inside = np.zeros(tree.num_nodes, dtype=bool)
    for r in roots:
        if inside[r]:
            raise ValueError(f"subgame root {tree.history[r]!r} lies below another root")
        inside[r:ends[r]] = True
    sets = np.unique(tree.infoset[inside & (tree.infoset >= 0)])
    outside = np.isin(tree.infoset, sets) & ~inside
    if outside.any():
        h = int(np.flatnonzero(outside)[0])
        raise ValueError(f"the nodes given are not a subgame of {tree.name}: information set "
                         f"{tree.infoset_keys[tree.infoset[h]]!r} also holds history "
                         f"{tree.history[h]!r} outside it (give a whole public state)")
    return roots


def _node_ids(tree: GameTree, nodes: object) -> IntArray:
    """A subgame given by node ids: each a whole number in ``1 .. num_nodes - 1`` (a bool, a
    float such as ``7.5`` or ``7.0`` and a string such as ``'3'`` are refused, never
    converted), checked by :func:`~cfrviz.core.checks.whole_number`."""
    top = tree.num_nodes - 1
    what = (f"state (a subgame) is a PublicState, its public history (a str) or a sequence of "
            f"{tree.name}'s node ids below its root, whole numbers 1..{top}")
    if isinstance(nodes, np.ndarray) and nodes.ndim != 1:
        raise ValueError(f"{what}; got an array of shape {nodes.shape}")
    if not isinstance(nodes, (Sequence, np.ndarray)) or isinstance(nodes, (str, bytes)):
        raise ValueError(f"{what}; got {type(nodes).__name__}")
    if not 0 < len(nodes) <= tree.num_nodes:
        raise ValueError(f"{what}; got {len(nodes):,} node ids ({tree.name} has "
                         f"{tree.num_nodes:,} nodes)")

    def name(i: int) -> str:
        return f"state[{i}] (a node id of {tree.name} below its root)"

    try:
        if isinstance(nodes, np.ndarray) and nodes.dtype.kind in "iu":  # checked all at once
            for i in np.flatnonzero((nodes < 1) | (nodes > top))[:1]:
                whole_number(int(nodes[i]), name(int(i)), 1, top)  # raises: the first bad id
            return nodes.astype(np.int64)
        return np.array([whole_number(v, name(i), 1, top) for i, v in enumerate(nodes)],
                        dtype=np.int64)
    except ValueError as error:
        raise ValueError(f"{error}; a subgame is a public state (a PublicState), its public "
                         f"history (one str, not in a list) or a sequence of node ids") from None


def _one_public_state(public: PublicTree, roots: IntArray) -> None:
    """Refuse nodes of more than one public state: a subgame is below one of them."""
    states = np.unique(public.node_state[roots])
    if len(states) > 1:
        shown = ", ".join(repr(public.states[int(s)].history) for s in states[:4])
        more = f" and {len(states) - 4} more" if len(states) > 4 else ""
        raise ValueError(f"state: the nodes given lie in {len(states)} public states ({shown}"
                         f"{more}); a subgame is the nodes of one public state (give the "
                         f"state, its public history or its nodes)")


def hands_at(tree: GameTree, roots: IntArray, player: int) -> tuple[tuple[str, ...], IntArray]:
    """The player's hands (:meth:`~cfrviz.games.public.PublicTree.hands`, all of them) and
    which one each root history holds: the player's root information sets."""
    public = public_tree(tree)
    which: IntArray = np.array(public.node_hand[roots, player], dtype=np.int64)
    if (which < 0).any():
        raise ValueError(f"{tree.name}: a subgame's roots must come after the private deal; "
                         f"history {tree.history[int(roots[np.argmax(which < 0)])]!r} does not")
    return public.hands(player), which


# --------------------------------------------------------------------------- building trees

class TreeBuilder:
    """A game tree (a gadget, a subgame) assembled node by node in depth-first preorder,
    copying whole subtrees of a source tree as array slices."""

    def __init__(self, source: GameTree) -> None:
        self.source = source
        self.parent: list[IntArray] = []
        self.action: list[IntArray] = []
        self.player: list[IntArray] = []
        self.prob: list[FloatArray] = []
        self.utility: list[FloatArray] = []
        self.infoset: list[IntArray] = []
        self.depth: list[IntArray] = []
        self.history: list[str] = []
        self.labels: list[tuple[str, ...]] = []
        self.children: list[IntArray] = []
        self.size = 0
        self.keys: dict[str, int] = {}
        self.key_player: list[int] = []
        self.key_actions: list[tuple[str, ...]] = []
        self.adopted: dict[int, list[int]] = {}  # children of the nodes added one by one

    def _infoset(self, key: str, who: int, actions: tuple[str, ...]) -> int:
        if key not in self.keys:
            self.keys[key] = len(self.keys)
            self.key_player.append(who)
            self.key_actions.append(actions)
        return self.keys[key]

    def node(self, parent: int, action: int, who: int, depth: int, history: str, *,
             prob: float = 1.0, utility: tuple[float, float] = (0.0, 0.0), key: str = "",
             actions: tuple[str, ...] = (), labels: tuple[str, ...] = ()) -> int:
        """Add one node; its children are the nodes later added with it as their parent."""
        h = self.size
        info = self._infoset(key, who, actions) if who >= 0 else -1
        self.parent.append(np.array([parent]))
        self.action.append(np.array([action]))
        self.player.append(np.array([who]))
        self.prob.append(np.array([prob]))
        self.utility.append(np.array([utility], dtype=float))
        self.infoset.append(np.array([info]))
        self.depth.append(np.array([depth]))
        self.history.append(history)
        self.labels.append(labels)
        self.children.append(np.empty(0, dtype=np.int64))  # filled in by build()
        if parent >= 0:
            self._adopt(parent, h)
        self.size += 1
        return h

    def _adopt(self, parent: int, child: int) -> None:
        self.adopted.setdefault(parent, []).append(child)

    def copy(self, root: int, parent: int, action: int, depth: int, prob: float = 1.0,
             shift: float = 0.0, who_gains: int = 0) -> int:
        """Copy the source's subtree at ``root`` below ``parent``; payoffs of ``who_gains``
        are lowered by ``shift`` (and the other player's raised: zero-sum is kept)."""
        s = self.source
        end = int(subtree_end(s)[root])
        offset = self.size - root
        h = self.size
        par = s.parent[root:end] + offset
        par[0] = parent
        act = np.array(s.action[root:end])
        act[0] = action
        pr = np.array(s.chance_prob[root:end])
        pr[0] = prob
        util = np.array(s.utility[root:end])
        if shift:
            terminal = s.player[root:end] == TERMINAL
            util[terminal, who_gains] -= shift
            util[terminal, 1 - who_gains] += shift
        old = s.infoset[root:end]
        info = np.full(end - root, -1, dtype=np.int64)
        for i in np.flatnonzero(old >= 0):
            o = int(old[i])
            info[i] = self._infoset(s.infoset_keys[o], int(s.infoset_player[o]),
                                    s.infoset_actions[o])
        self.parent.append(par)
        self.action.append(act)
        self.player.append(np.array(s.player[root:end]))
        self.prob.append(pr)
        self.utility.append(util)
        self.infoset.append(info)
        self.depth.append(s.depth[root:end] - s.depth[root] + depth)
        self.history.extend(s.history[root:end])
        self.labels.extend(s.chance_labels[root:end])
        for kids in s.children[root:end]:
            self.children.append(kids + offset)
        if parent >= 0:
            self._adopt(parent, h)
        self.size = end + offset
        return h

    def build(self, name: str) -> GameTree:
        children = list(self.children)
        for parent, kids in self.adopted.items():
            children[parent] = np.array(kids, dtype=np.int64)
        width = max((len(a) for a in self.key_actions), default=1)
        mask = np.zeros((len(self.keys), width), dtype=bool)
        for i, actions in enumerate(self.key_actions):
            mask[i, :len(actions)] = True
        return GameTree(
            name=name, parent=np.concatenate(self.parent).astype(np.int64),
            action=np.concatenate(self.action).astype(np.int64),
            player=np.concatenate(self.player).astype(np.int64),
            chance_prob=np.concatenate(self.prob).astype(float),
            utility=np.concatenate(self.utility).reshape(-1, 2),
            infoset=np.concatenate(self.infoset).astype(np.int64),
            depth=np.concatenate(self.depth).astype(np.int64),
            children=tuple(children), history=tuple(self.history),
            infoset_keys=tuple(self.keys), infoset_player=np.array(self.key_player,
                                                                    dtype=np.int64),
            infoset_actions=tuple(self.key_actions), legal_mask=mask,
            chance_labels=tuple(self.labels))


def deal_roots(b: TreeBuilder, roots: IntArray, weights: FloatArray, parent: int, action: int,
               depth: int, history: str, shift: float = 0.0, who_gains: int = 0) -> int:
    """A chance node dealing ``roots`` in proportion to ``weights`` (all > 0), each copied."""
    src = b.source
    node = b.node(parent, action, CHANCE, depth, history,
                  labels=tuple(src.history[r] for r in roots))
    total = weights.sum()
    for i, (r, w) in enumerate(zip(roots, weights)):
        b.copy(int(r), node, i, depth + 1, prob=float(w / total), shift=shift,
               who_gains=who_gains)
    return node


# --------------------------------------------------------------------------- profiles on them

def node_values(tree: GameTree, probabilities: FloatArray) -> FloatArray:
    """Each node's expected payoffs under a profile, shape (nodes, 2), by one bottom-up pass.

    Parameters
    ----------
    tree : GameTree
    probabilities : array, shape (information sets, max actions)
    """
    w = np.ones(tree.num_nodes)
    par = tree.parent[1:]
    chance = tree.player[par] == CHANCE
    kids = np.arange(1, tree.num_nodes)
    w[kids[chance]] = tree.chance_prob[kids[chance]]
    dec = kids[~chance]
    w[dec] = probabilities[tree.infoset[tree.parent[dec]], tree.action[dec]]
    v = np.array(tree.utility, dtype=float)
    for level in reversed(tree.levels()[1:]):
        np.add.at(v, tree.parent[level], w[level, None] * v[level])
    return v


def shared_infosets(sub: GameTree, source: GameTree) -> list[tuple[int, int]]:
    """``(row in sub, row in source)`` of each information set of ``sub`` that ``source``
    also has (by key): how a profile passes between a tree built by :class:`TreeBuilder` and
    its source."""
    index = source.cached("subgame_key_rows", lambda t: {k: i for i, k in
                                                         enumerate(t.infoset_keys)})
    return [(row, index[key]) for row, key in enumerate(sub.infoset_keys) if key in index]


def profile_on(sub: GameTree, source: GameTree, probabilities: FloatArray) -> FloatArray:
    """A profile of ``source`` on a tree built from it: the source's rows at the sets both
    share, uniform at the rest.

    Parameters
    ----------
    sub : GameTree
        A tree built by :class:`TreeBuilder` from ``source``.
    source : GameTree
    probabilities : array, shape (source's information sets, max actions)
    """
    table: FloatArray = sub.legal_mask / sub.legal_mask.sum(axis=1, keepdims=True)
    for row, s in shared_infosets(sub, source):
        k = len(source.infoset_actions[s])
        table[row, :k] = probabilities[s, :k]
    return table


__all__: Sequence[str] = ("TreeBuilder", "deal_roots", "hands_at", "node_values",
                          "profile_on", "shared_infosets", "subgame_roots", "subtree_end")
