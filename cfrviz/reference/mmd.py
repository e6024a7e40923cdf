"""Magnetic mirror descent with dilated entropy, by plain recursion: the readable version.

MMD (Sokota et al., ICLR 2023) is not a regret minimiser: each iteration moves each player's
strategy a step up its payoff gradient, pulled back towards the last strategy (the mirror
step) and towards a *magnet* (a regulariser of weight ``alpha``, the temperature).  With the
dilated entropy as the distance the step has a closed form, one softmax per information set
computed from the bottom of the player's own decisions up.  Its *current* strategy converges
(to a regularised equilibrium, a quantal response equilibrium, for a fixed magnet); resetting
the magnet to the current strategy every few iterations makes that fixed point a Nash
equilibrium.  The compiled kernel (:mod:`cfrviz.engine.mmd`) is tested against this.
"""

from __future__ import annotations

import numpy as np

from ..core.tree import CHANCE, TERMINAL


def sequence_values(tree, strategy, player: int):
    """The gradient of ``player``'s expected payoff in sequence form, as an (information sets
    x actions) table.

    Entry (I, a) sums, over the terminal nodes whose last own move of ``player`` was a at I,
    the payoff times chance's and the opponent's reach (the player's own reach left out).
    Terminals reached before the player moves add a constant that the update ignores.
    """
    values = np.zeros(tree.legal_mask.shape)

    def walk(node, others, last):
        kind = tree.player[node]
        if kind == TERMINAL:
            if last is not None:
                values[last] += others * tree.utility[node, player]
            return
        for a, child in enumerate(tree.children[node]):
            if kind == CHANCE:
                walk(child, others * tree.chance_prob[child], last)
            elif kind == player:
                walk(child, others, (tree.infoset[node], a))
            else:
                walk(child, others * strategy[tree.infoset[node], a], last)

    walk(0, 1.0, None)
    return values


def parent_sequences(tree, player: int):
    """Each of ``player``'s information sets' parent sequence: the player's own last move
    ``(set, action)`` above it, or ``None`` at a first decision.  Returns a dict."""
    parents = {}

    def walk(node, last):
        kind = tree.player[node]
        if kind == TERMINAL:
            return
        if kind == player:
            parents[tree.infoset[node]] = last
        for a, child in enumerate(tree.children[node]):
            walk(child, (tree.infoset[node], a) if kind == player else last)

    walk(0, None)
    return parents


def mmd_step(tree, strategy, values, player: int, alpha: float, eta: float, magnet=None):
    """One MMD update of ``player``'s sets: the new behavioural strategy (other rows kept).

    At each of the player's sets I, from the deepest up,

        z(I, a) = (eta * values(I, a) + eta * alpha * log magnet(a | I) + log strategy(a | I))
                  / (1 + eta * alpha)  +  sum of V(J) over the sets J right after (I, a)
        new(a | I) = exp(z(I, a) - V(I)),   V(I) = log sum_a exp z(I, a)

    the closed form of argmax_x  eta <values, x> - eta alpha D(x, magnet) - D(x, x_t) over
    sequence-form strategies, D the dilated entropy's Bregman divergence.  ``magnet=None`` is
    OpenSpiel's regulariser, the dilated entropy itself (its minimiser as the magnet).
    """
    mask = tree.legal_mask
    parents = parent_sequences(tree, player)
    depth = {}
    for info in parents:
        d, up = 0, parents[info]
        while up is not None:
            d, up = d + 1, parents[up[0]]
        depth[info] = d
    soft = np.zeros(mask.shape)  # sum of V(J) over the sets right after each (I, a)
    new = strategy.copy()
    for info in sorted(parents, key=lambda i: -depth[i]):
        legal = mask[info]
        pull = np.log(magnet[info, legal]) if magnet is not None else 0.0
        z = ((eta * values[info, legal] + eta * alpha * pull + np.log(strategy[info, legal]))
             / (1 + eta * alpha) + soft[info, legal])
        top = z.max()
        v = top + np.log(np.exp(z - top).sum())
        new[info, legal] = np.exp(z - v)
        if parents[info] is not None:
            soft[parents[info]] += v
    return new


def realization_weights(tree, strategy, player: int):
    """``player``'s realization plan as a table: entry (I, a) is the probability that the
    player's own moves lead to I and then a (the own-reach-weighted strategy CFR averages)."""
    weights = np.zeros(tree.legal_mask.shape)
    parents = parent_sequences(tree, player)

    def reach(info):
        up = parents[info]
        return 1.0 if up is None else reach(up[0]) * strategy[up]

    for info in parents:
        weights[info] = reach(info) * strategy[info]
    return weights


def magnetic_mirror_descent(tree, iterations: int, alpha: float = 0.1, eta: float = 1.0,
                            magnet_every: int = 0):
    """MMD with dilated entropy (Sokota et al., 2023), both players updated from the same
    strategies (simultaneous), as OpenSpiel's ``mmd_dilated``.

    Starts from the uniform strategy.  ``magnet_every = k > 0`` resets the magnet to the
    current strategy after every k-th iteration (the magnet starts uniform); ``0`` keeps
    OpenSpiel's fixed regulariser, whose current strategy converges to a quantal response
    equilibrium rather than to a Nash equilibrium.

    Yields
    ------
    dict
        After each iteration t: ``strategy`` (the new current strategy), ``values`` (the
        sequence-form gradients it was computed from), ``magnet`` (the magnet used, or None)
        and ``strategy_sum`` (the sum of the realization plans of the strategies of
        iterations 1..t, whose normalisation is the average strategy).
    """
    mask = tree.legal_mask
    strategy = np.where(mask, 1.0 / np.maximum(mask.sum(axis=1, keepdims=True), 1), 0.0)
    magnet = strategy.copy() if magnet_every > 0 else None
    strategy_sum = np.zeros(mask.shape)
    for t in range(1, iterations + 1):
        values = sequence_values(tree, strategy, 0) + sequence_values(tree, strategy, 1)
        new = strategy
        for player in (0, 1):
            new = mmd_step(tree, new, values, player, alpha, eta, magnet)
        used = None if magnet is None else magnet.copy()
        strategy = new
        for player in (0, 1):
            strategy_sum += realization_weights(tree, strategy, player)
        if magnet_every > 0 and t % magnet_every == 0:
            magnet = strategy.copy()
        yield {"strategy": strategy.copy(), "values": values, "magnet": used,
               "strategy_sum": strategy_sum.copy()}
