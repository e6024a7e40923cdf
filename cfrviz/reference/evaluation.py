"""Exact evaluation on game trees, written to be read: reach probabilities, expected values,
best responses.

The package evaluates with the compiled passes of :mod:`cfrviz.engine` (through
:mod:`cfrviz.analysis.evaluation`); these numpy and recursive versions are the oracle
the tests compare them with.
"""

from __future__ import annotations

import sys

import numpy as np

from ..core.tree import CHANCE, TERMINAL, GameTree


def reach_probabilities(tree: GameTree, probabilities: np.ndarray) -> np.ndarray:
    """Each node's reach split by contributor: rows player 1, player 2, chance.

    The probability that play reaches a node under a strategy profile is the
    product of the three rows.
    """
    reach = np.ones((3, tree.num_nodes))
    for nodes in tree.levels()[1:]:
        par = tree.parent[nodes]
        reach[:, nodes] = reach[:, par]
        who = tree.player[par]
        chance = who == CHANCE
        reach[2, nodes[chance]] *= tree.chance_prob[nodes[chance]]
        for p in (0, 1):
            mine = who == p
            reach[p, nodes[mine]] *= probabilities[tree.infoset[par[mine]],
                                                   tree.action[nodes[mine]]]
    return reach


def tree_expected_values(tree: GameTree, probabilities: np.ndarray) -> tuple[float, float]:
    """Expected payoff of each player under a strategy profile."""
    reach = reach_probabilities(tree, probabilities).prod(axis=0)
    terminal = tree.player == TERMINAL
    values = reach[terminal] @ tree.utility[terminal]
    return float(values[0]), float(values[1])


def tree_best_response(tree: GameTree, probabilities: np.ndarray, player: int, **steps):
    """A best response of ``player`` that sees only its own information sets.

    The best action at an information set maximises the sum, over the set's
    nodes, of the opponent-and-chance reach times the value below the node
    under the best response further down (the counterfactual value).  It is
    computed by memoised recursion (:class:`BestResponseWalk`, whose keywords ``steps``
    swap a step for a wrong one), which is correct for any game with perfect recall.

    Returns
    -------
    value : float
        What the best response earns.
    choice : dict
        ``{information-set id: best action index}`` for ``player``'s sets that
        are reachable by the opponent and chance.
    action_values : dict
        ``{information-set id: counterfactual value of each action}``.
    """
    walk = BestResponseWalk(tree, probabilities, player, **steps)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * int(np.max(tree.depth)) + 100))
    try:
        total = walk.value(0)
        for info in walk.members:  # also decide sets the recursion never needed
            walk.best(info)
    finally:
        sys.setrecursionlimit(limit)
    return float(total), walk.choice, walk.action_values


class BestResponseWalk:
    """The memoised recursion of :func:`tree_best_response`: :meth:`value` of a node is the
    sum over the terminals below it of their weight times ``player``'s payoff, ``player``
    playing :meth:`best` at its sets.

    The keywords swap a step for a wrong one (:mod:`cfrviz.reference.mistakes`): each node's
    ``weight`` (default chance's reach times the opponent's), the ``utility`` counted at each
    leaf (default ``player``'s column), the set ``sets[node]`` a node is decided in (default
    ``tree.infoset``), the pick ``choose(totals)``, and ``follow``: ``player`` plays
    ``probabilities``' rows instead of choosing.
    """

    def __init__(self, tree: GameTree, probabilities: np.ndarray, player: int, *, weight=None,
                 utility=None, sets=None, choose=np.argmax, follow: bool = False):
        if weight is None:
            reach = reach_probabilities(tree, probabilities)
            weight = reach[2] * reach[1 - player]
        self.tree, self.probabilities, self.player = tree, probabilities, player
        self.payoff = weight * (tree.utility[:, player] if utility is None else utility)
        self.sets = tree.infoset if sets is None else sets
        self.choose, self.follow = choose, follow
        self.members: dict[int, list[int]] = {}
        for node in np.flatnonzero(tree.player == player):
            self.members.setdefault(int(self.sets[node]), []).append(int(node))
        self.memo: dict[int, float] = {}
        self.choice: dict[int, int] = {}
        self.action_values: dict[int, np.ndarray] = {}

    def value(self, node: int) -> float:
        if node not in self.memo:
            kind, children = self.tree.player[node], self.tree.children[node]
            if kind == TERMINAL:
                result = self.payoff[node]
            elif kind != self.player:
                result = sum(self.value(int(c)) for c in children)
            elif self.follow:
                row = self.probabilities[int(self.tree.infoset[node])]
                result = sum(float(row[a]) * self.value(int(c)) for a, c in enumerate(children))
            else:
                result = self.value(int(children[self.best(int(self.sets[node]))]))
            self.memo[node] = result
        return self.memo[node]

    def best(self, info: int) -> int:
        if info not in self.choice:
            nodes, children = self.members[info], self.tree.children
            totals = np.array([sum(self.value(int(children[h][a])) for h in nodes)
                               for a in range(len(children[nodes[0]]))])
            self.action_values[info] = totals
            self.choice[info] = int(self.choose(totals))
        return self.choice[info]


def tree_exploitability(tree: GameTree, probabilities: np.ndarray) -> float:
    """NashConv / 2: what the two best responses gain on average (two-player zero-sum)."""
    return (tree_best_response(tree, probabilities, 0)[0]
            + tree_best_response(tree, probabilities, 1)[0]) / 2
