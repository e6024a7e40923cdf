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
from ..core.tree import GameTree, as_tree
from ..core.types import FloatArray, IntArray
from .public_partition import (
    CHANCE_STATE,
    DECISION_STATE,
    PRIVATE_DEAL,
    TERMINAL_STATE,
    public_parts,
)

__all__ = ["CHANCE_STATE", "DECISION_STATE", "PRIVATE_DEAL", "TERMINAL_STATE", "PublicState",
           "PublicTree", "Ranges", "node_reach", "public_tree", "ranges"]



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
        """The public state at the start of the game (the first of :attr:`states`)."""
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


def _build(tree: GameTree) -> PublicTree:
    parts = public_parts(tree)
    edges, members_of = parts.edges, parts.grouping.members_of
    states = tuple(PublicState(id=s, history=parts.histories[s], kind=parts.kinds[s],
                               player=parts.players[s], parent=int(edges.parent[s]),
                               children=tuple(edges.children[s]), labels=tuple(edges.labels[s]),
                               nodes=members_of[s], dealt=parts.dealt[s],
                               private=edges.private[s])
                   for s in range(len(members_of)))
    return PublicTree(tree=tree, states=states, node_state=parts.grouping.node_state,
                      node_hand=parts.node_hand, hand_labels=parts.hand_labels,
                      chance_reach=parts.chance_reach, infoset_state=parts.infoset_state,
                      infoset_hand=parts.infoset_hand)


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
