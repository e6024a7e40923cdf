"""CFR for any number of players, and what it reaches, by plain recursion.

The readable versions of :mod:`cfrviz.engine.multi`, which the tests hold the compiled
kernels to at every iteration.  Nothing here is compiled or vectorised beyond one table
row at a time.
"""

from __future__ import annotations

import numpy as np

from ..core.regret import rounded_regret_matching, rounding_tolerance
from ..core.tree import CHANCE, TERMINAL


def multiplayer_cfr(tree, iterations: int, alternating: bool = True,
                    regret_floor: bool = False, linear_average: bool = False):
    """CFR (Zinkevich et al., 2007) for any number of players, by recursion.

    The same loop as :func:`cfrviz.reference.vanilla_cfr`, with one reach
    probability per player and one for chance.  At a node of the player being
    updated, the counterfactual weight is the product of *every other* reach,
    the other players' and chance's.  ``regret_floor`` and ``linear_average``
    make it CFR+ (Tammelin, 2014).  With ``alternating`` the players are
    updated in turn, each against the strategies of the players before it as
    just updated (as OpenSpiel's ``CFRSolver`` does).

    Each iteration also adds the profile played at its start, sigma^t, to the
    joint-play sums of :func:`coarse_correlated_gaps`.

    Yields
    ------
    dict
        After each iteration: ``strategy`` (played at its start), ``regret``
        (this iteration's), ``cumulative_regret``, ``strategy_sum``, and ``joint``: a pair
        (``reach_sum`` of shape (players, nodes), ``value_sum`` of shape
        (players,)).
    """
    players, mask = tree.num_players, tree.legal_mask
    regret_sum = np.zeros(mask.shape)
    strategy_sum = np.zeros(mask.shape)
    reach_sum = np.zeros((players, tree.num_nodes))
    value_sum = np.zeros(players)
    scale = np.abs(tree.utility).max()

    for t in range(1, iterations + 1):
        tol = rounding_tolerance(scale, t)
        strategy = rounded_regret_matching(regret_sum, mask, tol)
        start = strategy.copy()
        add_joint_play(tree, strategy, reach_sum, value_sum)
        weight = float(t) if linear_average else 1.0
        regret = np.zeros(mask.shape)
        for player in range(players):
            walk(tree, 0, player, np.ones(players + 1), strategy, regret, strategy_sum, weight)
            if alternating:
                strategy = _update(tree, player, regret_sum, regret, regret_floor, tol)
        if not alternating:
            for player in range(players):
                _update(tree, player, regret_sum, regret, regret_floor, tol)
        yield {"strategy": start, "regret": regret, "cumulative_regret": regret_sum.copy(),
               "strategy_sum": strategy_sum.copy(), "joint": (reach_sum.copy(), value_sum.copy())}


def _update(tree, player, regret_sum, regret, regret_floor, tol):
    """Add ``player``'s regrets of this iteration (floored at 0 for CFR+); the new strategy
    (regrets at most ``tol`` are rounding residue:
    :func:`cfrviz.core.regret.rounding_tolerance`)."""
    mine = tree.infoset_player == player
    regret_sum[mine] += regret[mine]
    if regret_floor:
        regret_sum[mine] = np.maximum(regret_sum[mine], 0.0)
    return rounded_regret_matching(regret_sum, tree.legal_mask, tol)


def walk(tree, node, player, reach, strategy, regret, strategy_sum, weight=1.0):
    """Value of ``node`` for ``player``; adds ``player``'s counterfactual regrets on the way.

    ``reach`` holds one reach probability per player, then chance's.
    """
    who = tree.player[node]
    if who == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    if who == CHANCE:
        value = 0.0
        for child in children:
            below = reach.copy()
            below[-1] *= tree.chance_prob[child]
            value += tree.chance_prob[child] * walk(tree, child, player, below, strategy,
                                                    regret, strategy_sum, weight)
        return value
    info = tree.infoset[node]
    sigma = strategy[info]
    action_values = np.zeros(len(sigma))
    for a, child in enumerate(children):
        below = reach.copy()
        below[who] *= sigma[a]
        action_values[a] = walk(tree, child, player, below, strategy, regret, strategy_sum,
                                weight)
    value = float(sigma @ action_values)
    if who == player:
        others = np.prod(np.delete(reach, player))  # the other players' reach and chance's
        regret[info, : len(children)] += others * (action_values[: len(children)] - value)
        strategy_sum[info] += weight * reach[player] * sigma
    return value


def reach_rows(tree, strategy):
    """Each node's reach, one row per player and a last row for chance: shape (players + 1,
    nodes)."""
    players = tree.num_players
    rows = np.ones((players + 1, tree.num_nodes))
    for node in range(1, tree.num_nodes):  # parents come before children
        parent = tree.parent[node]
        rows[:, node] = rows[:, parent]
        who = tree.player[parent]
        if who == CHANCE:
            rows[players, node] *= tree.chance_prob[node]
        else:
            rows[who, node] *= strategy[tree.infoset[parent], tree.action[node]]
    return rows


def add_joint_play(tree, strategy, reach_sum, value_sum):
    """Add one profile to the joint-play sums: at each terminal, each player's counterfactual
    reach (everyone else's and chance's), and each player's expected payoff."""
    rows = reach_rows(tree, strategy)
    for z in np.flatnonzero(tree.player == TERMINAL):
        for i in range(tree.num_players):
            others = np.prod(np.delete(rows[:, z], i))
            reach_sum[i, z] += others
            value_sum[i] += others * rows[i, z] * tree.utility[z, i]


def best_total(tree, player, leaf):
    """The largest total of ``leaf`` over the terminals one pure strategy of ``player`` reaches.

    ``leaf[z]`` carries everything but ``player``'s own choices.  At the first node met of
    each of the player's information sets, every member's action totals are summed and the
    best action is kept for the whole set (perfect recall: nothing below a set meets it
    again).
    """
    choice: dict[int, int] = {}
    memo: dict[int, float] = {}

    def value(node):
        if node in memo:
            return memo[node]
        who = tree.player[node]
        children = tree.children[node]
        if who == TERMINAL:
            result = leaf[node]
        elif who != player:
            result = sum(value(child) for child in children)
        else:
            info = tree.infoset[node]
            if info not in choice:
                totals = [sum(value(tree.children[m][a]) for m in tree.infoset_members(info))
                          for a in range(len(children))]
                choice[info] = int(np.argmax(totals))
            result = value(children[choice[info]])
        memo[node] = result
        return result

    return value(0)


def deviation_gains(tree, strategy):
    """Each player's best-response value against the others' strategies minus its value in
    the profile, shape (players,)."""
    rows = reach_rows(tree, strategy)
    terminal = tree.player == TERMINAL
    gains = np.zeros(tree.num_players)
    for i in range(tree.num_players):
        others = np.prod(np.delete(rows, i, axis=0), axis=0)
        leaf = np.where(terminal, others * tree.utility[:, i], 0.0)
        gains[i] = best_total(tree, i, leaf) - np.sum(leaf * rows[i])
    return gains


def coarse_correlated_gaps(tree, reach_sum, value_sum, iterations):
    """Each player's external regret against the profiles played, divided by their number:
    a best response in the tree whose leaves carry (summed counterfactual reach) x payoff,
    minus the summed value."""
    terminal = tree.player == TERMINAL
    return np.array([
        best_total(tree, i, np.where(terminal, reach_sum[i] * tree.utility[:, i], 0.0))
        - value_sum[i] for i in range(tree.num_players)]) / iterations
