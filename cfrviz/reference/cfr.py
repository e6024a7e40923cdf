"""Plain, readable versions of the algorithms, kept as references.

These are the versions the lessons show.  They favour clarity over speed; the
tests check that the fast solvers agree with them at every iteration, to a bound of a few
roundings of the tables' size (tests/_tolerance.py derives it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..core.regret import rounded_regret_matching, rounding_tolerance
from ..core.tree import CHANCE, TERMINAL


def self_play_regret_matching(payoffs, iterations: int, initial_regrets=None):
    """Regret matching in self-play with expected-payoff updates, one iteration at a time.

    Parameters
    ----------
    payoffs : array_like, shape (m, n)
        Player 1's payoffs.
    iterations : int
    initial_regrets : (array_like, array_like), optional
        Starting cumulative regrets of player 1 and player 2.

    Yields
    ------
    dict
        After each iteration: ``strategies`` (played), ``regrets`` (this
        iteration's), ``cumulative_regrets`` and ``average_strategies``.
    """
    A = np.asarray(payoffs, dtype=float)
    m, n = A.shape
    cumulative = [np.zeros(m), np.zeros(n)]
    if initial_regrets is not None:
        cumulative = [np.array(r, dtype=float) for r in initial_regrets]
    strategy_sum = [np.zeros(m), np.zeros(n)]
    scale = np.abs(A).max()
    for t in range(1, iterations + 1):
        tol = rounding_tolerance(scale, t)
        x = rounded_regret_matching(cumulative[0], tol=tol)
        y = rounded_regret_matching(cumulative[1], tol=tol)
        # What each action would have earned against the opponent's mix...
        action_values = [A @ y, -(x @ A)]
        # ...minus what the mix actually earned: "how much better that choice would have been".
        regrets = [action_values[0] - x @ action_values[0],
                   action_values[1] - y @ action_values[1]]
        cumulative = [cumulative[0] + regrets[0], cumulative[1] + regrets[1]]
        strategy_sum = [strategy_sum[0] + x, strategy_sum[1] + y]
        yield {
            "strategies": (x, y),
            "regrets": tuple(regrets),
            "cumulative_regrets": tuple(cumulative),
            "average_strategies": (strategy_sum[0] / t, strategy_sum[1] / t),
        }


def sampled_regrets(payoffs, _x, _y, a, b):
    """The classic trainer's regrets after the draw ``(a, b)`` (Neller and Lanctot, 2013):
    player 1's of row ``i`` is ``A[i, b] - A[a, b]``, player 2's of column ``j`` (its
    payoffs are ``-A``) ``A[a, b] - A[a, j]``."""
    return payoffs[:, b] - payoffs[a, b], payoffs[a, b] - payoffs[a]


class SampledSteps(NamedTuple):
    """The steps of :func:`sampled_regret_matching` a usual mistake swaps
    (:mod:`.mistakes`): a round's regrets ``(A, x, y, a, b)``, how they join the cumulative
    ones, what joins the strategy sums ``(x, y, a, b, play)`` (``play()`` is the strategies
    regret matching gives after the round's update) and what is returned ``(sums, rounds, x,
    y)``.  The defaults are the trainer's own steps."""

    regrets: Callable = sampled_regrets
    fold: Callable = lambda cumulative, regret: cumulative + regret
    average: Callable = lambda x, y, _a, _b, _play: (x, y)
    result: Callable = lambda sums, rounds, _x, _y: (sums[0] / rounds, sums[1] / rounds)


_TRAINER = SampledSteps()


def sampled_regret_matching(payoffs, rounds: int, draw, opponent=None,
                            steps: SampledSteps = _TRAINER):
    """Regret matching with sampled actions (the classic trainer of Neller and Lanctot, 2013).

    Each round: each player's strategy is regret matching on its cumulative regrets (player 2
    plays ``opponent`` when given); both draw an action, ``a = draw(0, x)`` and ``b = draw(1,
    y)``; player 1's regret of row ``i`` grows by ``A[i, b] - A[a, b]`` and player 2's of column
    ``j`` by ``A[a, b] - A[a, j]`` (:func:`sampled_regrets`); each strategy joins its sum.
    With the draws of ``cfrviz.solve(game, "regret_matching", update="sampled")`` it computes
    what that solver does.  ``steps`` are swapped only to reproduce a mistake.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The two average strategies.
    """
    A = np.asarray(payoffs, dtype=float)
    m, n = A.shape
    regrets, sums = [np.zeros(m), np.zeros(n)], [np.zeros(m), np.zeros(n)]
    fixed = None if opponent is None else np.asarray(opponent, dtype=float)
    scale, tol = np.abs(A).max(), 0.0

    def play():  # at the round's tolerance
        return (rounded_regret_matching(regrets[0], tol=tol),
                fixed if fixed is not None else rounded_regret_matching(regrets[1], tol=tol))

    x = y = None
    for t in range(1, rounds + 1):
        tol = rounding_tolerance(scale, t)
        x, y = play()
        a, b = draw(0, x), draw(1, y)
        r = steps.regrets(A, x, y, a, b)
        regrets = [steps.fold(regrets[0], r[0]), steps.fold(regrets[1], r[1])]
        added = steps.average(x, y, a, b, play)
        sums = [sums[0] + added[0], sums[1] + added[1]]
    return steps.result(sums, rounds, x, y)


def counterfactual_regret(reach, player, action_values, value):
    """CFR's regret at one node of ``player`` (Zinkevich et al., 2007).

    The node's weight, chance's reach times the opponent's (``reach`` is
    ``[player 1, player 2, chance]``; the player's own reach is left out),
    times how much better each action did than the strategy.
    """
    others = reach[2] * reach[1 - player]
    return others * (action_values - value)


def own_reach(reach, player):
    """What CFR weighs a node's strategy by in the average: the player's own reach."""
    return reach[player]


def vanilla_cfr(tree, iterations: int, alternating: bool = True,
                update=counterfactual_regret):
    """Vanilla CFR (Zinkevich et al., 2007) by plain recursion over a :class:`GameTree`.

    The version the lessons walk through.  Each iteration, for the player
    being updated, a walk down the tree carries the reach probability of
    each player and of chance; on the way back up it returns the node's
    value for that player, and at the player's own decision nodes it adds

    - to the regret of each action: (opponent and chance reach) times
      (value of the action - value of the node), the *counterfactual* regret;
    - to the strategy sum: (own reach) times the action's probability.

    With ``alternating=True`` player 1 is updated first and player 2 then
    plays against player 1's new strategy; otherwise both are updated from
    the same strategies.

    ``update(reach, player, action_values, value)`` is what a node adds to
    its set's regrets: :func:`counterfactual_regret` unless another rule is
    being tried (lesson 03's exercise passes the student's).

    Yields
    ------
    dict
        After each iteration: ``strategy`` (played at its start),
        ``cumulative_regret``, ``regret`` (this iteration's) and
        ``strategy_sum``, each of shape (information sets, max actions).
    """
    mask = tree.legal_mask
    regret_sum = np.zeros(mask.shape)
    strategy_sum = np.zeros(mask.shape)
    scale = np.abs(tree.utility).max()

    for t in range(1, iterations + 1):
        tol = rounding_tolerance(scale, t)
        strategy = rounded_regret_matching(regret_sum, mask, tol)
        start = strategy.copy()
        regret = np.zeros(mask.shape)
        if alternating:
            for player in (0, 1):
                walk(tree, 0, player, np.ones(3), strategy, regret, strategy_sum, update)
                regret_sum[tree.infoset_player == player] += regret[tree.infoset_player == player]
                strategy = rounded_regret_matching(regret_sum, mask, tol)
        else:
            for player in (0, 1):
                walk(tree, 0, player, np.ones(3), strategy, regret, strategy_sum, update)
            regret_sum += regret
        yield {"strategy": start, "cumulative_regret": regret_sum.copy(), "regret": regret,
               "strategy_sum": strategy_sum.copy()}


def cfr_variant(tree, iterations: int, alternating: bool = True, regret_floor: bool = False,
                linear_average: bool = False, discount=None, predictive: bool = False,
                average_power: float = 1.0):
    """CFR+, linear CFR, DCFR, PCFR+ and PDCFR+ as small changes to the loop of
    :func:`vanilla_cfr`.

    Each iteration computes the same counterfactual regrets and own-reach
    strategy weights as vanilla CFR (by the same recursive walk), then folds
    them into the running sums under the variant's rule:

    - ``regret_floor`` (CFR+, Tammelin 2014): cumulative regrets below zero
      are reset to zero after each update;
    - ``linear_average``: iteration t's strategy weighs t ** ``average_power``
      in the average (1: linear, as CFR+; 2: quadratic, as PCFR+);
    - ``predictive`` (PCFR+, Farina, Kroer and Sandholm 2021): the strategy
      played is regret matching on the cumulative regrets plus a prediction
      of the next regrets, the last ones seen at each set;
    - ``discount=(alpha, beta, gamma)`` (DCFR, Brown and Sandholm 2019): after
      iteration t, positive cumulative regrets are multiplied by
      t^alpha / (t^alpha + 1), negative ones by t^beta / (t^beta + 1), and the
      strategy sum by (t / (t + 1))^gamma.  Linear CFR is (1, 1, 1).  PDCFR+
      (Xu et al. 2024) is the floor, the discount and the prediction together.

    Yields the same dicts as :func:`vanilla_cfr`.
    """
    mask = tree.legal_mask
    owner = tree.infoset_player
    regret_sum = np.zeros(mask.shape)
    strategy_sum = np.zeros(mask.shape)
    last = np.zeros(mask.shape)  # each set's regrets at its player's last update
    scale = np.abs(tree.utility).max()

    def play(t):
        return rounded_regret_matching(regret_sum + last if predictive else regret_sum, mask,
                                       rounding_tolerance(scale, t))

    def fold(player, t, regret, weights):
        mine = owner == player
        last[mine] = regret[mine]
        regret_sum[mine] += regret[mine]
        if regret_floor:
            regret_sum[mine] = np.maximum(regret_sum[mine], 0.0)
        strategy_sum[mine] += (float(t) ** average_power if linear_average else 1.0) * weights[mine]
        if discount is not None:
            alpha, beta, gamma = discount
            positive = regret_sum[mine] > 0
            # t^a / (t^a + 1), written 1 / (1 + t^-a) so a large exponent cannot overflow
            regret_sum[mine] *= np.where(positive, 1 / (1 + float(t) ** -alpha),
                                         1 / (1 + float(t) ** -beta))
            strategy_sum[mine] *= (t / (t + 1)) ** gamma

    for t in range(1, iterations + 1):
        strategy = play(t)
        start = strategy.copy()
        regret = np.zeros(mask.shape)
        if alternating:
            for player in (0, 1):
                weights = np.zeros(mask.shape)
                walk(tree, 0, player, np.ones(3), strategy, regret, weights)
                fold(player, t, regret, weights)
                strategy = play(t)
        else:
            weights = np.zeros(mask.shape)
            for player in (0, 1):
                walk(tree, 0, player, np.ones(3), strategy, regret, weights)
            for player in (0, 1):
                fold(player, t, regret, weights)
        yield {"strategy": start, "cumulative_regret": regret_sum.copy(), "regret": regret,
               "strategy_sum": strategy_sum.copy()}


def cfr_pass(tree, strategy, player: int, update=counterfactual_regret, average=own_reach):
    """One player's half of a CFR iteration, as two tables: what it adds to each running sum.

    Walks the whole tree once (:func:`walk`) with every player following
    ``strategy``.  Lesson 08's exercise builds CFR+ out of it: the student's
    code decides how the two tables are folded into the running sums.

    Parameters
    ----------
    tree : GameTree
    strategy : numpy.ndarray, shape (information sets, max actions)
        The strategy both players follow in this pass.
    player : int
        0 or 1: the player whose sets get regrets and strategy weights.

    Returns
    -------
    regret, weights : numpy.ndarray, shape (information sets, max actions)
        ``regret``: the counterfactual regret of each action at ``player``'s
        sets (chance's and the opponent's reach times action value minus the
        node's value, summed over the set's nodes); ``weights``: the
        strategy weighted by ``player``'s own reach, what vanilla CFR adds to
        the strategy sum.  Both are zero at the other player's sets.
    update, average
        The node's regret and strategy weight, as in :func:`walk` (another rule when a
        mistake is being reproduced: :mod:`cfrviz.reference.mistakes`).
    """
    regret = np.zeros(tree.legal_mask.shape)
    weights = np.zeros(tree.legal_mask.shape)
    walk(tree, 0, player, np.ones(3), strategy, regret, weights, update, average)
    return regret, weights


def walk(tree, node, player, reach, strategy, regret, sums, update=counterfactual_regret,
         average=own_reach):
    """One player's CFR pass below ``node``: returns the node's value for ``player``.

    ``reach`` is the node's reach split three ways, ``[player 1, player 2,
    chance]``.  At ``player``'s own nodes it adds ``update(reach, player,
    action_values, value)``, the counterfactual regret of each action by
    default, to ``regret`` and the strategy weighted by ``average(reach, player)``, the
    player's own reach by default, to ``sums``.
    """
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    if kind == CHANCE:
        value = 0.0
        for child in children:
            p = tree.chance_prob[child]
            value += p * walk(tree, child, player, reach * np.array([1, 1, p]), strategy,
                              regret, sums, update, average)
        return value
    info = tree.infoset[node]
    action_values = np.zeros(len(children))
    for a, child in enumerate(children):
        step = np.ones(3)
        step[kind] = strategy[info, a]
        action_values[a] = walk(tree, child, player, reach * step, strategy, regret, sums,
                                update, average)
    value = float(strategy[info, : len(children)] @ action_values)
    if kind == player:
        regret[info, : len(children)] += update(reach, player, action_values, value)
        sums[info, : len(children)] += average(reach, player) * strategy[info, : len(children)]
    return value
