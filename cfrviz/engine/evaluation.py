"""Compiled evaluation of a profile: reach, expected values, best response, counterfactuals.

The public functions take a :class:`~cfrviz.core.tree.GameTree` and a
(information sets x actions) profile; the readable numpy versions the tests
compare them with are in :mod:`cfrviz.reference.evaluation`.
"""

from __future__ import annotations

import numpy as np

from ..core.tree import TERMINAL, GameTree
from ..core.types import FloatArray, IntArray
from .cfr import reach_pass, value_pass
from .jit import kernel, step
from .plan import CHANCE_EDGE, PlanArrays, plan

__all__ = ["counterfactual_table", "tree_best_response", "tree_expected_values",
           "tree_exploitabilities", "tree_exploitability", "tree_reach_probabilities"]


def _profile(probabilities: FloatArray) -> FloatArray:
    """A profile as the kernels' one argument type: C-ordered, writeable float64.

    A read-only table (a Policy's, a trace's) is a different numba type from a writeable one,
    and each type compiles the kernel again (about a second for ``best_response_values``); copying
    the read-only ones, a few hundred numbers, keeps one compiled version of each.
    """
    return np.require(probabilities, np.float64, ["C_CONTIGUOUS", "WRITEABLE"])


@kernel
def expected_values(arrays: PlanArrays, strategy: FloatArray) -> FloatArray:
    """Expected payoff of each player under a strategy profile."""
    n = arrays.parent.shape[0]
    reach = np.empty((3, n))
    prob = np.empty(n)
    reach_pass(arrays, strategy, reach, prob)
    out = np.zeros(2)
    for h in range(n):
        if arrays.player[h] == TERMINAL:
            r = reach[0, h] * reach[1, h] * reach[2, h]
            out[0] += r * arrays.utility[h, 0]
            out[1] += r * arrays.utility[h, 1]
    return out


@kernel
def best_response_values(arrays: PlanArrays, strategy: FloatArray, who: int, order: IntArray,
                         stage: IntArray, decisions: IntArray
                         ) -> tuple[float, IntArray, FloatArray]:
    """A best response of ``who`` that sees only its own information sets.

    Nodes are processed by decreasing *stage* (how many of ``who``'s own decisions lie above
    them) and, within a stage, in reverse preorder.  With perfect recall all nodes of one of
    ``who``'s information sets share a stage, and their children all lie in the next one, so
    when a stage starts the counterfactual value of every action of its sets is already known:
    the best action is the argmax, summed over the set's nodes, of the opponent-and-chance
    reach times the value below.

    Parameters
    ----------
    arrays : PlanArrays
    strategy : float array (information sets, width)
    who : int
    order, stage, decisions : int arrays
        ``Plan.br_order[who]``, ``Plan.br_stage[who]``, ``Plan.br_decisions[who]``.

    Returns
    -------
    value : float
        The best response's expected payoff.
    best : int array (information sets,)
        The chosen action index at each of ``who``'s sets (-1 elsewhere).
    totals : float array (information sets, width)
        The counterfactual value of each action.
    """
    player, infoset, child_ptr, child_ids = (arrays.player, arrays.infoset, arrays.child_ptr,
                                             arrays.child_ids)
    n, num = player.shape[0], strategy.shape[0]
    reach, prob = np.empty((3, n)), np.empty(n)
    reach_pass(arrays, strategy, reach, prob)
    other = 1 - who
    value = np.zeros(n)
    totals = np.zeros((num, arrays.mask.shape[1]))
    best = np.empty(num, dtype=np.int64)
    for info in range(num):  # a loop compiles faster than np.full
        best[info] = -1
    pos, current_stage = 0, -1
    for idx in range(n):
        h = order[idx]
        if stage[h] != current_stage:
            current_stage = stage[h]
            pos = _stage_totals(arrays, stage, decisions, pos, current_stage, value, totals)
        kind = player[h]
        if kind == TERMINAL:
            value[h] = reach[CHANCE_EDGE, h] * reach[other, h] * arrays.utility[h, who]
        elif kind == who:
            info = infoset[h]
            if best[info] < 0:  # the set's first node: its totals are complete
                best[info] = _first_argmax(totals, info, child_ptr[h + 1] - child_ptr[h])
            value[h] = value[child_ids[child_ptr[h] + best[info]]]
        else:  # chance or the opponent: their reach is already in the terminal values
            v = 0.0
            for i in range(child_ptr[h], child_ptr[h + 1]):
                v += value[child_ids[i]]
            value[h] = v
    return value[0], best, totals


@kernel
def exploitabilities(arrays: PlanArrays, profiles: FloatArray, order0: IntArray,
                     stage0: IntArray, decisions0: IntArray, order1: IntArray,
                     stage1: IntArray, decisions1: IntArray) -> FloatArray:
    """NashConv / 2 of each profile ``profiles[k]`` (k, information sets, width): the two best
    responses of :func:`best_response_values` per profile, in one call from Python (the order,
    stage and decisions of player 1, then of player 2)."""
    out = np.empty(profiles.shape[0])
    for k in range(profiles.shape[0]):
        first = best_response_values(arrays, profiles[k], 0, order0, stage0, decisions0)[0]
        second = best_response_values(arrays, profiles[k], 1, order1, stage1, decisions1)[0]
        out[k] = (first + second) / 2
    return out


@step
def _first_argmax(totals: FloatArray, info: int, count: int) -> int:
    """The best of the first ``count`` actions of set ``info`` by ``totals`` (the first of
    equal ones)."""
    choice = 0
    for a in range(1, count):
        if totals[info, a] > totals[info, choice]:
            choice = a
    return choice


@step
def _stage_totals(arrays: PlanArrays, stage: IntArray, decisions: IntArray, pos: int, k: int,
                  value: FloatArray, totals: FloatArray) -> int:
    """Add the values below the decisions of stage ``k`` from ``decisions[pos]`` on (their
    children are all final) to their sets' action totals; returns the next position."""
    child_ptr, child_ids = arrays.child_ptr, arrays.child_ids
    while pos < decisions.shape[0] and stage[decisions[pos]] == k:
        d = decisions[pos]
        info = arrays.infoset[d]
        lo = child_ptr[d]
        for a in range(child_ptr[d + 1] - lo):
            totals[info, a] += value[child_ids[lo + a]]
        pos += 1
    return pos


@kernel
def _counterfactual(arrays: PlanArrays, strategy: FloatArray, who: int
                    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The arrays of :func:`counterfactual_table`."""
    parent, edge, slot, player, infoset = (arrays.parent, arrays.edge, arrays.slot, arrays.player,
                                           arrays.infoset)
    n = parent.shape[0]
    num, width = arrays.mask.shape
    reach = np.empty((3, n))
    prob = np.empty(n)
    value = np.empty(n)
    reach_pass(arrays, strategy, reach, prob)
    value_pass(arrays, prob, who, value)
    other = 1 - who
    opponent_reach = np.zeros(num)
    own_reach = np.zeros(num)
    node_value = np.zeros(num)
    action_value = np.zeros((num, width))
    for h in range(n):
        if player[h] == who:
            w = reach[CHANCE_EDGE, h] * reach[other, h]
            info = infoset[h]
            opponent_reach[info] += w
            own_reach[info] = reach[who, h]  # the same at every node of a set (perfect recall)
            node_value[info] += w * value[h]
    for h in range(1, n):
        if edge[h] == who:
            par = parent[h]
            s = slot[h]
            w = reach[CHANCE_EDGE, par] * reach[other, par]
            action_value[s // width, s % width] += w * value[h]
    return opponent_reach, own_reach, node_value, action_value


def tree_reach_probabilities(tree: GameTree, probabilities: FloatArray) -> FloatArray:
    """Each node's reach split by contributor, shape (3, nodes): player 1, player 2, chance.

    The probability that play reaches a node is the product of the three rows.
    """
    p = plan(tree)
    reach = np.empty((3, p.n))
    prob = np.empty(p.n)
    reach_pass(p.arrays, _profile(probabilities), reach, prob)
    return reach


def tree_expected_values(tree: GameTree, probabilities: FloatArray) -> tuple[float, float]:
    """Expected payoff of each player under a strategy profile (compiled)."""
    out = expected_values(plan(tree).arrays, _profile(probabilities))
    return float(out[0]), float(out[1])


def tree_best_response(tree: GameTree, probabilities: FloatArray, who: int
                       ) -> tuple[float, IntArray, FloatArray]:
    """``(value, best action per set, action values)`` of ``who``'s best response (compiled).

    See :func:`best_response_values`; raises ``ValueError`` for a tree
    without perfect recall, where a best response needs more than this pass.
    """
    p = plan(tree)
    if p.recall_problem:
        raise ValueError(p.recall_problem + "; exact best responses need perfect recall")
    value, best, totals = best_response_values(p.arrays, _profile(probabilities), who,
                                               p.br_order[who], p.br_stage[who],
                                               p.br_decisions[who])
    return float(value), best, totals


def tree_exploitability(tree: GameTree, probabilities: FloatArray) -> float:
    """NashConv / 2 of a profile in a two-player zero-sum tree (compiled)."""
    return float(tree_exploitabilities(tree, np.asarray(probabilities)[None])[0])


def tree_exploitabilities(tree: GameTree, profiles: FloatArray) -> FloatArray:
    """NashConv / 2 of each profile of a stack (k, information sets, width), in one compiled
    call: a run's records, evaluated one call per record, spent most of their time in the calls
    (50 us each on Kuhn poker, 2 us of work)."""
    p = plan(tree)
    if p.recall_problem:
        raise ValueError(p.recall_problem + "; exact best responses need perfect recall")
    return exploitabilities(p.arrays, _profile(profiles), p.br_order[0], p.br_stage[0],
                            p.br_decisions[0], p.br_order[1], p.br_stage[1], p.br_decisions[1])


def counterfactual_table(tree: GameTree, probabilities: FloatArray, who: int
                         ) -> dict[str, FloatArray]:
    """Counterfactual quantities of every information set of ``who`` under a profile.

    Returns
    -------
    dict of arrays
        ``opponent_reach`` (I,): the chance-and-opponent reach summed over the
        set's nodes; ``own_reach`` (I,): ``who``'s own probability of playing
        into the set (equal at its nodes, by perfect recall: the weight of its
        strategy in the average); ``value`` (I,): the set's
        counterfactual value; ``action_values`` (I, width): each action's.
        Their difference ``action_values - value[:, None]`` is the
        counterfactual regret CFR adds this iteration (Zinkevich et al. 2007).  Rows of the
        other player's sets are 0.
    """
    opp, own, val, act = _counterfactual(plan(tree).arrays, _profile(probabilities), who)
    return {"opponent_reach": opp, "own_reach": own, "value": val, "action_values": act}
