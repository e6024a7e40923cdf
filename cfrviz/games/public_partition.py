"""How a game tree's nodes group into public states, and what each state holds.

The derivation behind :func:`cfrviz.games.public.public_tree`, one step per condition of a
public tree (see that module's docstring): group the nodes (a union-find closed under "same
information set", "same parent state" and "same public label"), read each state's kind and
edges, where the private deal ends, and each player's hands.  Each step raises a
``ValueError`` naming the public state at fault when its condition fails.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.tree import CHANCE, TERMINAL, GameTree
from ..core.types import FloatArray, IntArray

__all__ = ["CHANCE_STATE", "DECISION_STATE", "PRIVATE_DEAL", "TERMINAL_STATE", "PublicParts",
           "public_parts"]

CHANCE_STATE, DECISION_STATE, TERMINAL_STATE = "chance", "decision", "terminal"
#: The label of the edge out of a chance state whose outcome is private (a deal).
PRIVATE_DEAL = "deal"


@dataclass(frozen=True)
class PublicParts:
    """Everything :class:`~cfrviz.games.public.PublicTree` is made of, state by state
    (``grouping.members_of[s]`` holds state ``s``'s nodes)."""

    grouping: _Grouping
    kinds: list[str]
    players: list[int]
    edges: _Edges
    dealt: list[bool]
    histories: list[str]
    node_hand: IntArray
    hand_labels: tuple[tuple[str, ...], tuple[str, ...]]
    infoset_hand: IntArray
    infoset_state: IntArray
    chance_reach: FloatArray


def public_parts(tree: GameTree) -> PublicParts:
    """Group ``tree``'s nodes into public states, then read each state's edges, deals and
    hands (each step checks one condition of a public tree and says where it fails)."""
    if tree.num_players != 2:
        raise ValueError(f"the public tree is built for two-player games (a range per player "
                         f"and hand pairs); {tree.name} has {tree.num_players} players")
    grouping = _Grouping.of(tree)
    kinds, players = _state_kinds(grouping)
    edges = _state_edges(grouping, kinds, players)
    dealt = _dealt(grouping, kinds, edges)
    deal_of, deal_path = _deals(grouping, edges.private, dealt)
    node_hand, hand_labels, infoset_hand = _hands(grouping, kinds, players, deal_of, deal_path)
    infoset_state = np.array([grouping.node_state[int(members[0])] for members in grouping.sets],
                             dtype=np.int64)
    return PublicParts(grouping, kinds, players, edges, dealt, _histories(edges), node_hand,
                       hand_labels, infoset_hand, infoset_state, _chance_reach(tree))


class _Partition:
    """Union-find over node ids."""

    def __init__(self, n: int) -> None:
        self.up = list(range(n))

    def find(self, x: int) -> int:
        up = self.up
        while up[x] != x:
            up[x] = up[up[x]]
            x = up[x]
        return x

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if ra > rb:
            ra, rb = rb, ra
        self.up[rb] = ra  # the smaller id represents, so a class is named by its first node
        return True


def _groups(labels: IntArray, count: int) -> list[IntArray]:
    """The ids holding each label ``0 .. count - 1``, in increasing order (-1s left out)."""
    order = np.argsort(labels, kind="stable")
    bounds = np.searchsorted(labels[order], np.arange(count + 1))
    return [order[bounds[k]:bounds[k + 1]] for k in range(count)]


def _labels(tree: GameTree, node: int) -> tuple[str, ...]:
    if tree.player[node] == CHANCE:
        return tree.chance_labels[node]
    if tree.player[node] == TERMINAL:
        return ()
    return tree.infoset_actions[int(tree.infoset[node])]


@dataclass(frozen=True)
class _Grouping:
    """The nodes grouped into public states: the builder's starting point.

    ``labels[h]`` are node ``h``'s public edge labels, ``sets[i]`` information set ``i``'s
    nodes, ``node_state[h]`` node ``h``'s state and ``members_of[s]`` state ``s``'s nodes
    (states numbered in tree order of their first node, so parents come before children)."""

    tree: GameTree
    labels: list[tuple[str, ...]]
    sets: list[IntArray]
    node_state: IntArray
    members_of: list[IntArray]

    @classmethod
    def of(cls, tree: GameTree) -> _Grouping:
        n = tree.num_nodes
        sets = _groups(tree.infoset, tree.num_infosets)  # each information set's nodes
        labels = [_labels(tree, h) for h in range(n)]
        part = _public_partition(tree, sets, labels)
        rep = np.array([part.find(h) for h in range(n)], dtype=np.int64)
        firsts, inverse = np.unique(rep, return_inverse=True)  # a class is named by its first node
        node_state = inverse.astype(np.int64).reshape(-1)
        return cls(tree, labels, sets, node_state, _groups(node_state, len(firsts)))

    @property
    def count(self) -> int:
        return len(self.members_of)

    def where(self, s: int) -> str:
        """State ``s`` as an error message names it."""
        tree = self.tree
        return f"{tree.name}, public state of history {tree.history[int(self.members_of[s][0])]!r}"


def _public_partition(tree: GameTree, sets: list[IntArray],
                      labels: list[tuple[str, ...]]) -> _Partition:
    """The coarsest partition that keeps information sets together and is closed under "same
    parent state" and "same public label" (the module docstring's two rules)."""
    part = _Partition(tree.num_nodes)
    for members in sets:
        for m in members[1:]:
            part.union(int(members[0]), int(m))
    while _close_once(tree, part, labels):
        pass
    return part


def _close_once(tree: GameTree, part: _Partition, labels: list[tuple[str, ...]]) -> bool:
    """One pass merging the parents, and the same-label children, of each class's nodes;
    whether anything merged."""
    changed = False
    groups: dict[int, list[int]] = {}
    for h in range(tree.num_nodes):
        groups.setdefault(part.find(h), []).append(h)
    for group in groups.values():
        if len(group) < 2:
            continue
        first = group[0]
        for h in group[1:]:
            if tree.parent[h] >= 0 and tree.parent[first] >= 0:
                changed |= part.union(int(tree.parent[first]), int(tree.parent[h]))
        by_label: dict[str, int] = {}
        for h in group:
            for label, child in zip(labels[h], tree.children[h], strict=True):
                other = by_label.setdefault(label, int(child))
                changed |= part.union(other, int(child))
    return changed


def _state_kinds(grouping: _Grouping) -> tuple[list[str], list[int]]:
    """Each state's kind and player, checking that its nodes agree on them and on the
    actions offered."""
    tree, labels = grouping.tree, grouping.labels
    kinds: list[str] = []
    players: list[int] = []
    for s, members in enumerate(grouping.members_of):
        who = {int(tree.player[h]) for h in members}
        depths = {int(tree.depth[h]) for h in members}
        if len(who) > 1 or len(depths) > 1:
            raise ValueError(f"{grouping.where(s)}: its histories cannot be told apart by the "
                             f"players, yet they differ in who moves next or in length, so the "
                             f"game has no public tree")
        p = who.pop()
        kinds.append(_KIND_OF_PLAYER.get(p, DECISION_STATE))
        players.append(p)
        if p >= 0 and len({labels[int(h)] for h in members}) > 1:
            raise ValueError(f"{grouping.where(s)}: its nodes offer different actions")
    return kinds, players


_KIND_OF_PLAYER = {CHANCE: CHANCE_STATE, TERMINAL: TERMINAL_STATE}


@dataclass(frozen=True)
class _Edges:
    """The public tree's edges: each state's parent, children and their labels, and whether
    it is a private deal."""

    parent: IntArray
    children: list[list[int]]
    labels: list[list[str]]
    private: list[bool]


def _state_edges(grouping: _Grouping, kinds: list[str], players: list[int]) -> _Edges:
    """Each state's parent and children; a chance state whose child state several outcomes
    reach is a private deal, and a decision must lead to one state per action."""
    tree, node_state = grouping.tree, grouping.node_state
    edges = _Edges(parent=np.full(grouping.count, -1, dtype=np.int64),
                   children=[[] for _ in range(grouping.count)],
                   labels=[[] for _ in range(grouping.count)], private=[False] * grouping.count)
    for s, members in enumerate(grouping.members_of):
        h0 = int(members[0])
        if tree.parent[h0] >= 0:
            edges.parent[s] = node_state[tree.parent[h0]]
        if kinds[s] == DECISION_STATE:
            _decision_edges(grouping, s, players[s], edges)
            continue
        seen = _child_outcomes(grouping, members)
        for c, outcomes in sorted(seen.items()):
            edges.children[s].append(c)
            edges.labels[s].append(next(iter(outcomes)) if len(outcomes) == 1 else PRIVATE_DEAL)
            if len(outcomes) > 1:  # one child state reached by several outcomes: a private deal
                edges.private[s] = True
    return edges


def _child_outcomes(grouping: _Grouping, members: IntArray) -> dict[int, set[str]]:
    """The labels leading from these nodes to each child state."""
    seen: dict[int, set[str]] = {}
    for h in map(int, members):
        for label, child in zip(grouping.labels[h], grouping.tree.children[h], strict=True):
            seen.setdefault(int(grouping.node_state[child]), set()).add(label)
    return seen


def _decision_edges(grouping: _Grouping, s: int, player: int, edges: _Edges) -> None:
    """A decision state's children in action order (the action's index is the child's
    position), refusing one where two actions lead to one state."""
    tree, h0 = grouping.tree, int(grouping.members_of[s][0])
    actions = grouping.labels[h0]
    if len(_child_outcomes(grouping, grouping.members_of[s])) < len(actions):
        info = int(tree.infoset[h0])
        raise ValueError(f"{grouping.where(s)}: player {player + 1}'s actions "
                         f"{list(actions)} at information set "
                         f"{tree.infoset_keys[info]!r} are not all public (the opponent "
                         f"cannot tell some of them apart), so the game has no public tree")
    edges.children[s] = [int(grouping.node_state[c]) for c in tree.children[h0]]
    edges.labels[s] = list(actions)


def _dealt(grouping: _Grouping, kinds: list[str], edges: _Edges) -> list[bool]:
    """Whether every private deal is over at each state, checking that private deals come
    only before the first move."""
    parent, private = edges.parent, edges.private
    before_move = [True] * grouping.count
    for s in range(grouping.count):  # parents precede children
        if parent[s] >= 0:
            before_move[s] = before_move[parent[s]] and kinds[parent[s]] == CHANCE_STATE
    for s in range(grouping.count):
        if private[s] and not before_move[s]:
            raise ValueError(f"{grouping.where(s)}: chance deals private information after the "
                             f"first move; a public tree needs every private deal at the start")
    dealt = [not private[s] for s in range(grouping.count)]
    for s in reversed(range(grouping.count)):
        if parent[s] >= 0 and not dealt[s]:
            dealt[int(parent[s])] = False
    return dealt


def _deals(grouping: _Grouping, private: list[bool],
           dealt: list[bool]) -> tuple[IntArray, list[tuple[str, ...]]]:
    """A node's deal: the labels of the private chance edges on its path (numbered in tree
    order, -1 before the deal is over), and each deal's labels."""
    tree, node_state, labels = grouping.tree, grouping.node_state, grouping.labels
    n = tree.num_nodes
    deal_of = np.full(n, -1, dtype=np.int64)
    deal_path: list[tuple[str, ...]] = []
    deal_index: dict[tuple[str, ...], int] = {}
    path: list[tuple[str, ...]] = [()] * n
    for h in range(n):
        par = int(tree.parent[h])
        step: tuple[str, ...] = ()
        if par >= 0:
            step = path[par]
            if private[int(node_state[par])]:
                step = (*step, labels[par][int(tree.action[h])])
        path[h] = step
        if dealt[int(node_state[h])]:
            if step not in deal_index:
                deal_index[step] = len(deal_path)
                deal_path.append(step)
            deal_of[h] = deal_index[step]
    return deal_of, deal_path


def _hands(grouping: _Grouping, kinds: list[str], players: list[int], deal_of: IntArray,
           deal_path: list[tuple[str, ...]]
           ) -> tuple[IntArray, tuple[tuple[str, ...], tuple[str, ...]], IntArray]:
    """Each player's hands: the deals its information sets merge.  Returns every node's hand
    pair, each player's hand names and every information set's hand."""
    tree, sets = grouping.tree, grouping.sets
    node_hand = np.full((tree.num_nodes, 2), -1, dtype=np.int64)
    hand_labels: list[tuple[str, ...]] = []
    infoset_hand = np.full(tree.num_infosets, -1, dtype=np.int64)
    has = deal_of >= 0
    for p in (0, 1):
        hand_of_deal = _hand_of_deal(grouping, p, deal_of, len(deal_path))
        node_hand[has, p] = hand_of_deal[deal_of[has]]
        names = _hand_names(tree, p, hand_of_deal, deal_path, node_hand[:, p], sets)
        if p == 1 and sorted(names) == sorted(hand_labels[0]) and len(set(names)) == len(names):
            # the same hands as player 1's: list them in player 1's order
            move = np.array([hand_labels[0].index(name) for name in names], dtype=np.int64)
            hand_of_deal = move[hand_of_deal]
            node_hand[has, p] = hand_of_deal[deal_of[has]]
            names = hand_labels[0]
        hand_labels.append(names)
        for info in map(int, np.flatnonzero(tree.infoset_player == p)):
            infoset_hand[info] = node_hand[int(sets[info][0]), p]
        _check_hand_is_information(grouping, kinds, players, p, node_hand[:, p])
    return node_hand, (hand_labels[0], hand_labels[1]), infoset_hand


def _hand_of_deal(grouping: _Grouping, player: int, deal_of: IntArray,
                  deals: int) -> IntArray:
    """Player ``player``'s hand in each deal: deals one of its information sets holds are one
    hand (numbered in tree order, as deals are)."""
    tree = grouping.tree
    merged = _Partition(deals)
    for info in map(int, np.flatnonzero(tree.infoset_player == player)):
        ds = deal_of[grouping.sets[info]]
        for d in ds[1:]:
            merged.union(int(ds[0]), int(d))
    roots = [merged.find(d) for d in range(deals)]
    hand_id: dict[int, int] = {}
    for r in roots:
        hand_id.setdefault(r, len(hand_id))
    return np.array([hand_id[r] for r in roots], dtype=np.int64)


def _check_hand_is_information(grouping: _Grouping, kinds: list[str], players: list[int],
                               player: int, hand: IntArray) -> None:
    """Refuse a player holding one hand in two information sets of one public state."""
    tree = grouping.tree
    for s in range(grouping.count):
        if kinds[s] != DECISION_STATE or players[s] != player:
            continue
        members = grouping.members_of[s]
        for h in np.unique(hand[members]):
            held = np.unique(tree.infoset[members[hand[members] == h]])
            if len(held) > 1:
                keys = [tree.infoset_keys[int(i)] for i in held[:2]]
                raise ValueError(f"{grouping.where(s)}: player {player + 1} holds the same "
                                 f"private hand in information sets {keys[0]!r} and "
                                 f"{keys[1]!r}, so its information is more than its hand and "
                                 f"the public history (imperfect recall, or a private signal)")


def _histories(edges: _Edges) -> list[str]:
    """Each state's public history: its edge labels from the root, joined by ``/``."""
    histories: list[str] = []
    for s, par in enumerate(map(int, edges.parent)):
        if par < 0:
            histories.append("")
            continue
        label = edges.labels[par][edges.children[par].index(s)]
        before = histories[par]
        histories.append(f"{before}/{label}" if before else label)
    return histories


def _chance_reach(tree: GameTree) -> FloatArray:
    """The product of the chance probabilities on the path to each node."""
    reach = np.ones(tree.num_nodes)
    for h in range(1, tree.num_nodes):
        reach[h] = reach[tree.parent[h]] * tree.chance_prob[h]
    return reach


def _hand_names(tree: GameTree, player: int, hand_of_deal: IntArray,
                deal_path: list[tuple[str, ...]], node_hand: IntArray,
                sets: list[IntArray]) -> tuple[str, ...]:
    """Readable names of one player's hands: the private chance labels every deal of the hand
    shares, else the common start of its information-set keys, else ``hand k``."""
    count = int(np.max(hand_of_deal)) + 1 if len(hand_of_deal) else 0
    names: list[str] = []
    keys_of: list[list[str]] = [[] for _ in range(count)]
    for info in np.flatnonzero(tree.infoset_player == player):
        hand = int(node_hand[int(sets[info][0])])
        keys_of[hand].append(tree.infoset_keys[int(info)])
    for hand in range(count):
        deals = [deal_path[int(d)] for d in np.flatnonzero(hand_of_deal == hand)]
        shared = [deals[0][i] for i in range(min(map(len, deals)))
                  if all(d[i] == deals[0][i] for d in deals)]
        name = " ".join(shared)
        if not name and keys_of[hand]:
            prefix = keys_of[hand][0]
            for key in keys_of[hand][1:]:
                while not key.startswith(prefix):
                    prefix = prefix[:-1]
            name = prefix.rstrip(" :|/.,;-_")
        names.append(name or f"hand {hand + 1}")
    if len(set(names)) < len(names):
        names = [f"{name} ({i + 1})" for i, name in enumerate(names)]
    return tuple(names)
