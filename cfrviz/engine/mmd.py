"""Magnetic mirror descent with dilated entropy over the whole tree, compiled.

One iteration (Sokota et al., ICLR 2023) is three straight loops: reach probabilities
top-down (:func:`~cfrviz.engine.cfr.reach_pass`); each terminal's payoff, weighted by
chance's and the opponent's reach, added to the last own move of each player above it (the
sequence-form gradient); then the players' information sets from the deepest up, each a
softmax whose log-normaliser is handed to the set's parent sequence.  Both players update
from the same strategies.  The readable version the tests compare this with is
:func:`cfrviz.reference.mmd.magnetic_mirror_descent`.

The state is the current strategy, kept as logarithms (``tables.regret_sum``: MMD has no
regrets), and the magnet, kept as logarithms too, by the caller, between calls.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..core.tree import TERMINAL, GameTree
from ..core.types import BoolArray, FloatArray, IntArray
from .cfr import Tables, copy_table, reach_pass
from .jit import kernel
from .plan import CHANCE_EDGE, PlanArrays, plan

__all__ = ["MMDRule", "SequenceArrays", "run_mmd", "sequence_arrays"]


class SequenceArrays(NamedTuple):
    """The players' sequences, laid out for :func:`run_mmd` (built once per tree).

    Attributes
    ----------
    last_slot : int64 array (2, nodes)
        The flat slot ``infoset * width + action`` of each player's last own move above
        each node, -1 where the player has not moved yet.
    parent_slot : int64 array (information sets,)
        The owner's last own move above the set (its parent sequence), -1 at a first decision.
    order : int64 array (information sets,)
        Every set, the deepest own decisions first: a set comes before its parent sequence's.
    """

    last_slot: IntArray
    parent_slot: IntArray
    order: IntArray


class MMDRule(NamedTuple):
    """MMD's settings.

    Attributes
    ----------
    alpha : float
        The magnet's weight (the temperature of the regularised equilibrium).
    eta : float
        The step size.
    magnet_every : int
        Reset the magnet to the current strategy after every ``magnet_every``-th
        iteration; 0 keeps OpenSpiel's fixed regulariser (the dilated entropy itself).
    """

    alpha: float = 0.02
    eta: float = 2.0
    magnet_every: int = 50


def _build(tree: GameTree) -> SequenceArrays:
    p = plan(tree)
    arrays = p.arrays
    n, width = p.n, p.width
    last_slot = np.full((2, n), -1, dtype=np.int64)
    parent_slot = np.full(p.num_infosets, -1, dtype=np.int64)
    depth = np.zeros(p.num_infosets, dtype=np.int64)
    for h in range(1, n):  # once per tree; parents come first
        par = int(arrays.parent[h])
        last_slot[:, h] = last_slot[:, par]
        e = int(arrays.edge[h])
        if e != CHANCE_EDGE:
            last_slot[e, h] = arrays.slot[h]
    for h in range(n):
        info = int(arrays.infoset[h])
        if info >= 0:
            parent_slot[info] = last_slot[int(arrays.player[h]), h]
    for info in range(p.num_infosets):
        up = int(parent_slot[info])
        while up >= 0:
            depth[info] += 1
            up = int(parent_slot[up // width])
    order = np.argsort(-depth, kind="stable").astype(np.int64)
    frozen = []
    for array in (last_slot, parent_slot, order):
        contiguous = np.ascontiguousarray(array)
        contiguous.setflags(write=False)
        frozen.append(contiguous)
    return SequenceArrays(*frozen)


def sequence_arrays(tree: GameTree) -> SequenceArrays:
    """The cached :class:`SequenceArrays` of a tree."""
    return tree.cached("mmd_sequences", _build)


@kernel
def _uniform_logs(mask: BoolArray, out: FloatArray) -> None:
    """``out[i, a] = -log(legal actions of i)`` on legal actions, 0 elsewhere."""
    for info in range(mask.shape[0]):
        legal = 0
        for a in range(mask.shape[1]):
            if mask[info, a]:
                legal += 1
        for a in range(mask.shape[1]):
            out[info, a] = -math.log(legal) if mask[info, a] else 0.0


@kernel
def run_mmd(arrays: PlanArrays, seq: SequenceArrays, tables: Tables, magnet: FloatArray,
            first: int, last: int, rule: MMDRule) -> None:
    """Iterations ``first..last`` (1-based) of MMD with dilated entropy, in place.

    Parameters
    ----------
    arrays : PlanArrays
        The tree, from ``plan(tree).arrays``.
    seq : SequenceArrays
        Its sequences, from :func:`sequence_arrays`.
    tables : Tables
        ``regret_sum``: the log of the current strategy (set to the uniform strategy's at
        iteration 1); ``strategy_sum``: the sum of the iterates' realization plans;
        on return ``current`` holds the strategy after iteration ``last`` and ``instant``
        the sequence-form gradients it was computed from.
    magnet : float64 array (information sets, actions)
        The log of the magnet, kept by the caller between calls (set to uniform at
        iteration 1, to the current strategy after every ``rule.magnet_every``-th); unused
        when ``rule.magnet_every`` is 0.
    first, last : int
    rule : MMDRule
    """
    mask = arrays.mask
    logs = tables.regret_sum
    n = arrays.parent.shape[0]
    num, width = logs.shape
    reach = np.empty((3, n))
    prob = np.empty(n)
    soft = np.zeros(num * width)
    plan_weight = np.zeros(num * width)
    for t in range(first, last + 1):
        if t == 1:
            _uniform_logs(mask, logs)
            _uniform_logs(mask, magnet)
        _exp_rows(logs, mask, tables.current)
        reach_pass(arrays, tables.current, reach, prob)
        _sequence_gradient(arrays, seq, reach, tables.instant, soft)
        _mirror_step(seq, mask, rule, tables.instant, magnet, logs, soft)
        _realization_plan(seq, mask, logs, tables.current, plan_weight, tables.strategy_sum)
        if rule.magnet_every > 0 and t % rule.magnet_every == 0:
            copy_table(logs, magnet)


@kernel
def _exp_rows(logs: FloatArray, mask: BoolArray, out: FloatArray) -> None:
    """``out = exp(logs)`` on legal actions, 0 elsewhere: the strategy the logs hold."""
    for i in range(logs.shape[0]):
        for a in range(logs.shape[1]):
            out[i, a] = math.exp(logs[i, a]) if mask[i, a] else 0.0


@kernel
def _sequence_gradient(arrays: PlanArrays, seq: SequenceArrays, reach: FloatArray,
                       values: FloatArray, soft: FloatArray) -> None:
    """Each player's sequence-form gradient against the other's strategy into ``values``:
    every terminal's payoff, weighted by chance's and the opponent's reach, added to the
    player's last own move above it; ``soft`` (the log-normalisers handed up) set to 0."""
    player, utility = arrays.player, arrays.utility
    num, width = values.shape
    for i in range(num):
        for a in range(width):
            values[i, a] = 0.0
            soft[i * width + a] = 0.0
    for h in range(player.shape[0]):
        if player[h] != TERMINAL:
            continue
        for who in range(2):
            s = seq.last_slot[who, h]
            if s >= 0:
                values[s // width, s % width] += (reach[CHANCE_EDGE, h] * reach[1 - who, h]
                                                  * utility[h, who])


@kernel
def _mirror_step(seq: SequenceArrays, mask: BoolArray, rule: MMDRule, values: FloatArray,
                 magnet: FloatArray, logs: FloatArray, soft: FloatArray) -> None:
    """The mirror step's closed form: a softmax per set, deepest first, each handing its
    log-normaliser to its parent sequence's slot in ``soft``."""
    width = logs.shape[1]
    pull = rule.eta * rule.alpha if rule.magnet_every > 0 else 0.0
    shrink = 1.0 / (1.0 + rule.eta * rule.alpha)
    for k in range(logs.shape[0]):
        info = seq.order[k]
        top = -np.inf
        for a in range(width):
            if mask[info, a]:
                z = ((rule.eta * values[info, a] + pull * magnet[info, a] + logs[info, a])
                     * shrink + soft[info * width + a])
                logs[info, a] = z  # the set's own row is read only here: safe in place
                top = max(top, z)
        normaliser = top + math.log(_exp_sum(logs[info], mask[info], top))
        for a in range(width):
            if mask[info, a]:
                logs[info, a] -= normaliser
        up = seq.parent_slot[info]
        if up >= 0:
            soft[up] += normaliser


@kernel
def _exp_sum(row: FloatArray, legal: BoolArray, top: float) -> float:
    """``sum of exp(row[a] - top)`` over the legal actions."""
    total = 0.0
    for a in range(row.shape[0]):
        if legal[a]:
            total += math.exp(row[a] - top)
    return total


@kernel
def _realization_plan(seq: SequenceArrays, mask: BoolArray, logs: FloatArray,
                      current: FloatArray, plan_weight: FloatArray,
                      strategy_sum: FloatArray) -> None:
    """The new strategy into ``current``, and its realization plan (shallowest sets first)
    into ``plan_weight`` and the average's sum."""
    width = logs.shape[1]
    for k in range(logs.shape[0] - 1, -1, -1):
        info = seq.order[k]
        up = seq.parent_slot[info]
        above = 1.0 if up < 0 else plan_weight[up]
        for a in range(width):
            if mask[info, a]:
                p = math.exp(logs[info, a])
                current[info, a] = p
                plan_weight[info * width + a] = above * p
                strategy_sum[info, a] += above * p
