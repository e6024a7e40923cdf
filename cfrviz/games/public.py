"""The public tree of a game: histories grouped by what everybody has seen, and ranges over it.

In poker-like games all private information is dealt by chance at the start and every later
event (a bet, a public card) is seen by both players.  Then the histories group into *public
states*: one per sequence of public events, holding one node per private deal.  At a public
state each player has a *range*, a weight for every private hand it may hold.  This is the
structure Libratus, DeepStack and ReBeL search over, and the one vector-form CFR
(:mod:`cfrviz.engine.vector_cfr`) sweeps.

The public partition is derived from the :class:`~cfrviz.core.tree.GameTree` alone, as the
coarsest partition of the nodes in which

- the members of an information set share a public state (a player cannot tell them apart, so
  neither can the public);
- nodes of one public state have parents in one public state, and their children along one
  action or chance label share a public state (actions and chance labels are public events).

It is a *public tree* only if, in it, different actions always lead to different public states
(actions are public), chance outcomes that are merged (private deals) happen only before the
first move, and each player's information at a decision is its private hand plus the public
state.  :func:`public_tree` refuses any other game and says which of these fails, where.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.policy import Policy
from ..core.tree import CHANCE, TERMINAL, GameTree, as_tree
from ..core.types import FloatArray, IntArray

__all__ = ["CHANCE_STATE", "DECISION_STATE", "PRIVATE_DEAL", "TERMINAL_STATE", "PublicState",
           "PublicTree", "Ranges", "node_reach", "public_tree", "ranges"]

CHANCE_STATE, DECISION_STATE, TERMINAL_STATE = "chance", "decision", "terminal"
#: The label of the edge out of a chance state whose outcome is private (a deal).
PRIVATE_DEAL = "deal"


@dataclass(frozen=True, eq=False)
class PublicState:
    """One public state: the game-tree nodes that share a public history.

    Attributes
    ----------
    id : int
        Its position in :attr:`PublicTree.states` (parents come before children).
    history : str
        The public events from the root, joined by ``/`` (a private deal reads ``deal``);
        ``""`` at the root.
    kind : str
        ``"chance"``, ``"decision"`` or ``"terminal"``.
    player : int
        The acting player (0 or 1) at a decision, ``CHANCE`` (-1) or ``TERMINAL`` (-2).
    parent : int
        The parent state's id, -1 at the root.
    children : tuple of int
        Child state ids, in the order of :attr:`labels`.
    labels : tuple of str
        The public action or chance outcome leading to each child (``"deal"`` for a private
        deal).  At a decision, child ``a`` follows action ``a`` of every member's information
        set.
    nodes : int array
        The game-tree nodes grouped here, in tree order: one per private deal.
    dealt : bool
        Whether every private deal is over (then each node holds one hand per player).
    private : bool
        A chance state whose outcome is (at least partly) private: a deal.
    """

    id: int
    history: str
    kind: str
    player: int
    parent: int
    children: tuple[int, ...]
    labels: tuple[str, ...]
    nodes: IntArray
    dealt: bool
    private: bool


@dataclass(frozen=True, eq=False)
class PublicTree:
    """A two-player game's public tree (build it with :func:`public_tree`).

    Attributes
    ----------
    tree : GameTree
    states : tuple of PublicState
        Root first; a parent precedes its children.
    node_state : int array (nodes,)
        The public state of every game-tree node.
    node_hand : int array (nodes, 2)
        Each node's private hand of player 1 and of player 2 (indices into
        :meth:`hands`), -1 while the deal is not over.
    hand_labels : tuple of two tuples of str
        Each player's hands, in order of first appearance in the tree.
    chance_reach : float array (nodes,)
        The product of the chance probabilities on the path to each node (the deal's
        probability times that of the public cards so far).
    infoset_state : int array (information sets,)
        The public state of every information set.
    infoset_hand : int array (information sets,)
        The acting player's hand at every information set.
    """

    tree: GameTree
    states: tuple[PublicState, ...]
    node_state: IntArray
    node_hand: IntArray
    hand_labels: tuple[tuple[str, ...], tuple[str, ...]]
    chance_reach: FloatArray
    infoset_state: IntArray
    infoset_hand: IntArray
    _by_history: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("node_state", "node_hand", "chance_reach", "infoset_state", "infoset_hand"):
            getattr(self, name).setflags(write=False)
        for state in self.states:
            state.nodes.setflags(write=False)
            self._by_history[state.history] = state.id

    @property
    def root(self) -> PublicState:
        return self.states[0]

    def __len__(self) -> int:
        return len(self.states)

    def hands(self, player: int) -> tuple[str, ...]:
        """Player ``player``'s (0 or 1) private hands, in a fixed order."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1; got {player!r}")
        return self.hand_labels[player]

    def state_of(self, node: int) -> PublicState:
        """The public state holding game-tree node ``node``."""
        if not 0 <= int(node) < self.tree.num_nodes:
            raise ValueError(f"{self.tree.name} has nodes 0 .. {self.tree.num_nodes - 1}; "
                             f"got {node!r}")
        return self.states[int(self.node_state[int(node)])]

    def find(self, history: str) -> PublicState:
        """The public state with this public history (e.g. ``"deal/c/c/K"`` in Leduc)."""
        try:
            return self.states[self._by_history[history]]
        except KeyError:
            sample = ", ".join(repr(s.history) for s in self.states[:8])
            raise ValueError(f"{self.tree.name} has no public state {history!r}; it has "
                             f"{len(self.states)}, such as {sample}") from None

    def pairs(self, state: PublicState | int) -> IntArray:
        """The (hand of player 1, hand of player 2) of each node of a dealt state, shape
        (nodes, 2), in the order of ``state.nodes``."""
        s = self._state(state)
        if not s.dealt:
            raise ValueError(f"public state {s.history!r} comes before the end of the deal: its "
                             f"nodes hold no hands yet")
        pairs: IntArray = self.node_hand[s.nodes]
        return pairs

    def _state(self, state: PublicState | int) -> PublicState:
        if isinstance(state, PublicState):
            if state is not self.states[state.id]:
                raise ValueError("that public state belongs to another public tree")
            return state
        if not 0 <= int(state) < len(self.states):
            raise ValueError(f"public state ids are 0 .. {len(self.states) - 1}; got {state!r}")
        return self.states[int(state)]

    def __repr__(self) -> str:
        kinds = [s.kind for s in self.states]
        return (f"PublicTree({self.tree.name!r}: {len(self.states)} public states, "
                f"{kinds.count(DECISION_STATE)} decisions, {kinds.count(TERMINAL_STATE)} "
                f"terminals; {len(self.hand_labels[0])} and {len(self.hand_labels[1])} hands)")


def public_tree(game: object) -> PublicTree:
    """The public tree of a two-player game (computed once per tree).

    Parameters
    ----------
    game : GameTree
        From :func:`cfrviz.load_game` (Kuhn, Leduc, pocket poker, a game file, ...).

    Returns
    -------
    PublicTree

    Raises
    ------
    ValueError
        For a game of other than two players, or one whose public state is not well defined:
        an action some player does not see, private information dealt after the first move,
        or a player whose information is more than its hand and the public history (naming
        the public state and information set at fault).
    """
    tree = as_tree(game, "the public tree")
    return tree.cached("public_tree", _build)


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


def _build(tree: GameTree) -> PublicTree:
    if tree.num_players != 2:
        raise ValueError(f"the public tree is built for two-player games (a range per player "
                         f"and hand pairs); {tree.name} has {tree.num_players} players")
    n = tree.num_nodes
    part = _Partition(n)
    sets = _groups(tree.infoset, tree.num_infosets)  # each information set's nodes
    for members in sets:
        for m in members[1:]:
            part.union(int(members[0]), int(m))
    labels = [_labels(tree, h) for h in range(n)]
    changed = True
    while changed:  # close the partition under "same parent state" and "same public label"
        changed = False
        groups: dict[int, list[int]] = {}
        for h in range(n):
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

    # States in tree order of their first node: parents before children.
    rep = np.array([part.find(h) for h in range(n)], dtype=np.int64)
    firsts, inverse = np.unique(rep, return_inverse=True)  # a class is named by its first node
    node_state = inverse.astype(np.int64).reshape(-1)
    count = len(firsts)
    members_of = _groups(node_state, count)

    def where(s: int) -> str:
        return f"{tree.name}, public state of history {tree.history[int(members_of[s][0])]!r}"

    kinds: list[str] = []
    players: list[int] = []
    for s, members in enumerate(members_of):
        who = {int(tree.player[h]) for h in members}
        depths = {int(tree.depth[h]) for h in members}
        if len(who) > 1 or len(depths) > 1:
            raise ValueError(f"{where(s)}: its histories cannot be told apart by the players, "
                             f"yet they differ in who moves next or in length, so the game has "
                             f"no public tree")
        p = who.pop()
        kinds.append(CHANCE_STATE if p == CHANCE else TERMINAL_STATE if p == TERMINAL
                     else DECISION_STATE)
        players.append(p)
        if p >= 0 and len({labels[int(h)] for h in members}) > 1:
            raise ValueError(f"{where(s)}: its nodes offer different actions")

    parent = np.full(count, -1, dtype=np.int64)
    child_lists: list[list[int]] = [[] for _ in range(count)]
    child_labels: list[list[str]] = [[] for _ in range(count)]
    private = [False] * count
    for s, members in enumerate(members_of):
        h0 = int(members[0])
        if tree.parent[h0] >= 0:
            parent[s] = node_state[tree.parent[h0]]
        seen: dict[int, set[str]] = {}
        for h in map(int, members):
            for label, child in zip(labels[int(h)], tree.children[int(h)], strict=True):
                seen.setdefault(int(node_state[child]), set()).add(label)
        for c, outcomes in sorted(seen.items()):
            child_lists[s].append(c)
            child_labels[s].append(next(iter(outcomes)) if len(outcomes) == 1 else PRIVATE_DEAL)
            if len(outcomes) > 1:  # one child state reached by several outcomes: a private deal
                private[s] = True
        if kinds[s] == DECISION_STATE and len(seen) < len(labels[h0]):
            info = int(tree.infoset[h0])
            raise ValueError(f"{where(s)}: player {players[s] + 1}'s actions "
                             f"{list(labels[h0])} at information set "
                             f"{tree.infoset_keys[info]!r} are not all public (the opponent "
                             f"cannot tell some of them apart), so the game has no public tree")
        if kinds[s] == DECISION_STATE:
            # children in action order: the action's index is the child's position
            by_action = [int(node_state[c]) for c in tree.children[h0]]
            child_lists[s] = by_action
            child_labels[s] = list(labels[h0])

    # Private deals only before the first move.
    before_move = [True] * count
    for s in range(count):  # parents precede children
        if parent[s] >= 0:
            before_move[s] = before_move[parent[s]] and kinds[parent[s]] == CHANCE_STATE
    for s in range(count):
        if private[s] and not before_move[s]:
            raise ValueError(f"{where(s)}: chance deals private information after the first "
                             f"move; a public tree needs every private deal at the start")
    dealt = [not private[s] for s in range(count)]
    for s in reversed(range(count)):
        if parent[s] >= 0 and not dealt[s]:
            dealt[int(parent[s])] = False

    # A node's deal: the labels of the private chance edges on its path.
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

    # Each player's hands: the deals its information sets merge.
    node_hand = np.full((n, 2), -1, dtype=np.int64)
    hand_labels: list[tuple[str, ...]] = []
    infoset_hand = np.full(tree.num_infosets, -1, dtype=np.int64)
    for p in (0, 1):
        deals = _Partition(len(deal_path))
        for info in map(int, np.flatnonzero(tree.infoset_player == p)):
            ds = deal_of[sets[info]]
            for d in ds[1:]:
                deals.union(int(ds[0]), int(d))
        roots = [deals.find(d) for d in range(len(deal_path))]
        hand_id: dict[int, int] = {}
        for r in roots:  # deals are numbered in tree order, so hands are too
            hand_id.setdefault(r, len(hand_id))
        hand_of_deal = np.array([hand_id[r] for r in roots], dtype=np.int64)
        has = deal_of >= 0
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
        for s in range(count):
            if kinds[s] != DECISION_STATE or players[s] != p:
                continue
            members = members_of[s]
            for hand in np.unique(node_hand[members, p]):
                held = np.unique(tree.infoset[members[node_hand[members, p] == hand]])
                if len(held) > 1:
                    keys = [tree.infoset_keys[int(i)] for i in held[:2]]
                    raise ValueError(f"{where(s)}: player {p + 1} holds the same private hand "
                                     f"in information sets {keys[0]!r} and {keys[1]!r}, so its "
                                     f"information is more than its hand and the public "
                                     f"history (imperfect recall, or a private signal)")

    histories: list[str] = []
    for s in range(count):
        if parent[s] < 0:
            histories.append("")
            continue
        label = child_labels[int(parent[s])][child_lists[int(parent[s])].index(s)]
        before = histories[int(parent[s])]
        histories.append(f"{before}/{label}" if before else label)

    reach = np.ones(n)
    for h in range(1, n):
        reach[h] = reach[tree.parent[h]] * tree.chance_prob[h]

    states = tuple(PublicState(id=s, history=histories[s], kind=kinds[s], player=players[s],
                               parent=int(parent[s]), children=tuple(child_lists[s]),
                               labels=tuple(child_labels[s]), nodes=members_of[s],
                               dealt=dealt[s], private=private[s])
                   for s in range(count))
    infoset_state = np.array([node_state[int(members[0])] for members in sets],
                             dtype=np.int64)
    return PublicTree(tree=tree, states=states, node_state=node_state, node_hand=node_hand,
                      hand_labels=(hand_labels[0], hand_labels[1]), chance_reach=reach,
                      infoset_state=infoset_state, infoset_hand=infoset_hand)


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


def node_reach(public: PublicTree, policy: Policy) -> FloatArray:
    """Each player's own probability of playing to every node, shape (nodes, 2).

    Row ``h`` holds the product of player 1's (column 0) and player 2's (column 1) action
    probabilities on the path to ``h``; chance's part is :attr:`PublicTree.chance_reach`.
    """
    tree = public.tree
    if policy.probabilities.shape != tree.legal_mask.shape:
        raise ValueError(f"the policy's table has shape {policy.probabilities.shape}; "
                         f"{tree.name}'s information sets need {tree.legal_mask.shape}")
    probs = policy.probabilities
    reach = np.ones((tree.num_nodes, 2))
    for h in range(1, tree.num_nodes):
        par = int(tree.parent[h])
        reach[h] = reach[par]
        who = int(tree.player[par])
        if who >= 0:
            reach[h, who] *= probs[int(tree.infoset[par]), int(tree.action[h])]
    return reach


@dataclass(frozen=True)
class Ranges:
    """Both players' ranges at one public state under one policy.

    Attributes
    ----------
    own : tuple of two float arrays
        ``own[p][i]``: player ``p``'s own probability of playing to this public state holding
        hand ``i`` (its policy's actions only; 0 for a hand that cannot be here).
    chance : float array (hands of player 1, hands of player 2)
        ``chance[i, j]``: the probability that chance deals hands ``i`` and ``j`` and the public
        cards of this state (0 for hands that share a card).
    """

    own: tuple[FloatArray, FloatArray]
    chance: FloatArray

    def joint(self) -> FloatArray:
        """The probability of each hand pair and this public state: ``chance * own1 x own2``."""
        joint: FloatArray = self.chance * np.outer(self.own[0], self.own[1])
        return joint

    def belief(self, player: int) -> FloatArray:
        """Player ``player``'s range as a belief: the probability of each of its hands given
        that play reached this public state (uniform-free: all zeros if it cannot be reached)."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1; got {player!r}")
        joint = self.joint()
        marginal: FloatArray = joint.sum(axis=1 - player)
        total = marginal.sum()
        return marginal / total if total > 0 else marginal


def ranges(public: PublicTree, state: PublicState | int, policy: Policy) -> Ranges:
    """Both players' ranges at a dealt public state under a policy.

    The reach probability of a node factors into chance's part and each player's part; at a
    public state a player's part depends only on its hand, so it is a vector over hands (its
    *range*, the reach vector vector-form CFR passes down), and chance's part is a matrix over
    hand pairs (the deal, with card removal, times the public cards).

    Parameters
    ----------
    public : PublicTree
    state : PublicState or int
        A public state after the deal.
    policy : Policy
        Both players' strategies.

    Returns
    -------
    Ranges
    """
    s = public._state(state)
    pairs = public.pairs(s)
    reach = node_reach(public, policy)[s.nodes]
    h1, h2 = len(public.hand_labels[0]), len(public.hand_labels[1])
    own = (np.zeros(h1), np.zeros(h2))
    for p in (0, 1):
        own[p][pairs[:, p]] = reach[:, p]
    chance = np.zeros((h1, h2))
    np.add.at(chance, (pairs[:, 0], pairs[:, 1]), public.chance_reach[s.nodes])
    return Ranges(own=own, chance=chance)
