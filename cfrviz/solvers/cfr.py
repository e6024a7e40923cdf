"""Vanilla CFR on a game tree, vectorized over the tree's levels."""

from __future__ import annotations

import time
import warnings

import numpy as np

from ..regret import regret_matching
from ..trace import Trace
from ..tree import CHANCE, TERMINAL, GameTree
from ..treeeval import levels, tree_best_response


class _Plan:
    """Index arrays computed once per tree: edges, levels, flat (infoset, action) slots."""

    def __init__(self, tree: GameTree):
        self.n = tree.num_nodes
        self.width = tree.max_actions
        self.slots = tree.num_infosets * self.width
        parent = tree.parent.copy()
        parent[0] = 0
        who = np.where(np.arange(self.n) == 0, TERMINAL, tree.player[parent])
        self.parent = parent
        self.chance_edge = who == CHANCE
        self.player_edge = [np.flatnonzero(who == p) for p in (0, 1)]
        self.decision_edge = np.flatnonzero((who == 0) | (who == 1))
        self.slot = np.zeros(self.n, dtype=np.int64)
        self.slot[self.decision_edge] = (tree.infoset[parent[self.decision_edge]] * self.width
                                         + tree.action[self.decision_edge])
        self.levels = levels(tree)[1:]
        # Which reach row (player 1, player 2, chance) each level's incoming edges multiply.
        self.level_rows = [np.where(who[nodes] == CHANCE, 2, who[nodes]) for nodes in self.levels]
        self.utility = tree.utility
        self.chance_prob = tree.chance_prob


def _plan(tree: GameTree) -> _Plan:
    plan = tree.__dict__.get("_cfr_plan")
    if plan is None:
        plan = _Plan(tree)
        object.__setattr__(tree, "_cfr_plan", plan)
    return plan


def _player_pass(plan: _Plan, strategy: np.ndarray, player: int):
    """One player's counterfactual regrets and reach-weighted strategy for one strategy profile."""
    edge = np.ones(plan.n)
    edge[plan.chance_edge] = plan.chance_prob[plan.chance_edge]
    edge[plan.decision_edge] = strategy.ravel()[plan.slot[plan.decision_edge]]
    reach = np.ones((3, plan.n))
    for nodes, row in zip(plan.levels, plan.level_rows):
        reach[:, nodes] = reach[:, plan.parent[nodes]]
        reach[row, nodes] *= edge[nodes]
    value = plan.utility[:, player].copy()
    for nodes in reversed(plan.levels):
        value += np.bincount(plan.parent[nodes], weights=edge[nodes] * value[nodes],
                             minlength=plan.n)
    mine = plan.player_edge[player]
    parents = plan.parent[mine]
    counterfactual = reach[2, parents] * reach[1 - player, parents]
    regret = np.bincount(plan.slot[mine], weights=counterfactual * (value[mine] - value[parents]),
                         minlength=plan.slots)
    weighted = np.bincount(plan.slot[mine], weights=reach[player, parents] * edge[mine],
                           minlength=plan.slots)
    return regret.reshape(-1, plan.width), weighted.reshape(-1, plan.width)


def average_strategy(strategy_sum: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Normalise a strategy sum per information set; never-reached sets play uniformly."""
    totals = strategy_sum.sum(axis=1, keepdims=True)
    uniform = mask / mask.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(totals > 0, strategy_sum / np.where(totals > 0, totals, 1), uniform)


def tree_exploitability(tree: GameTree, probabilities: np.ndarray) -> float:
    """NashConv / 2 of a profile in a two-player zero-sum tree."""
    return (tree_best_response(tree, probabilities, 0)[0]
            + tree_best_response(tree, probabilities, 1)[0]) / 2


def default_checkpoints(iterations: int) -> list[int]:
    """Every iteration up to 100, then about 100 log-spaced ones up to the last."""
    points = set(range(1, min(iterations, 100) + 1))
    if iterations > 100:
        points.update(np.unique(np.geomspace(100, iterations, 100).astype(int)).tolist())
    points.add(iterations)
    return sorted(points)


def solve_cfr(game, iterations: int, rng: np.random.Generator, record,
              alternating: bool = True) -> Trace:
    """Vanilla counterfactual regret minimization (Zinkevich et al., 2007).

    Each iteration computes, for every information set, the counterfactual
    regret of each action (weighted by the opponent's and chance's reach),
    adds it to the cumulative regret, and plays regret matching on the
    result; the average strategy, weighted by the player's own reach,
    converges to a Nash equilibrium of a two-player zero-sum game.

    This engine processes the tree level by level with numpy (no loop over
    nodes); :func:`cfrviz.reference.vanilla_cfr` is the readable recursive
    version it is tested against.

    Parameters
    ----------
    alternating : bool, default True
        Update player 1, then player 2 against player 1's new strategy (as
        OpenSpiel does); ``False`` updates both from the same strategies.
    """
    if not isinstance(game, GameTree):
        raise ValueError(f"cfr solves game trees such as kuhn_poker; got "
                         f"{getattr(game, 'name', game)!r} (use 'regret_matching' for matrix "
                         "games)")
    if not isinstance(alternating, bool):
        raise ValueError(f"alternating must be True or False; got {alternating!r}")
    plan = _plan(game)
    mask = game.legal_mask
    record = default_checkpoints(iterations) if record is None else record
    evaluate = bool(record)  # checkpoints=[]: final state only, nothing evaluated (benchmarks)
    wanted = set(record) or {iterations}
    regret_sum = np.zeros(mask.shape)
    strategy_sum = np.zeros(mask.shape)
    owner = game.infoset_player
    rows = {key: [] for key in ("it", "cum", "inst", "cur", "avg", "time", "touched")}
    start = time.perf_counter()
    solve_time = 0.0
    interrupted = False
    t = 0
    try:
        for t in range(1, iterations + 1):
            tick = time.perf_counter()
            strategy = regret_matching(regret_sum, mask)
            current = strategy
            instant = np.zeros(mask.shape)
            if alternating:
                for p in (0, 1):
                    regret, weighted = _player_pass(plan, strategy, p)
                    mine = owner == p
                    instant[mine] = regret[mine]
                    regret_sum = regret_sum + np.where(mine[:, None], regret, 0.0)
                    strategy_sum = strategy_sum + np.where(mine[:, None], weighted, 0.0)
                    strategy = regret_matching(regret_sum, mask)
            else:
                for p in (0, 1):
                    regret, weighted = _player_pass(plan, strategy, p)
                    mine = (owner == p)[:, None]
                    instant = instant + np.where(mine, regret, 0.0)
                    strategy_sum = strategy_sum + np.where(mine, weighted, 0.0)
                regret_sum = regret_sum + instant
            solve_time += time.perf_counter() - tick
            if t in wanted:
                rows["it"].append(t)
                rows["cum"].append(regret_sum)
                rows["inst"].append(instant)
                rows["cur"].append(current)
                rows["avg"].append(average_strategy(strategy_sum, mask))
                rows["time"].append(solve_time)
                rows["touched"].append(2 * t * plan.n)
    except KeyboardInterrupt:
        interrupted = True
        warnings.warn(f"CFR interrupted at iteration {t}; returning the "
                      f"{len(rows['it'])} records taken so far", RuntimeWarning, stacklevel=3)
    if not rows["it"]:
        raise KeyboardInterrupt("interrupted before the first recorded iteration")
    avg = np.array(rows["avg"])
    cur = np.array(rows["cur"])
    if evaluate:
        expl = np.array([tree_exploitability(game, a) for a in avg])
        cur_expl = np.array([tree_exploitability(game, c) for c in cur])
    else:
        expl = cur_expl = np.full(len(avg), np.nan)
    return Trace(
        game=game, algorithm="cfr",
        params={"alternating": alternating, "interrupted": interrupted},
        iterations=np.array(rows["it"]),
        cumulative_regret=np.array(rows["cum"]),
        instantaneous_regret=np.array(rows["inst"]),
        current_strategy=cur,
        average_strategy=avg,
        exploitability=expl,
        current_exploitability=cur_expl,
        extras={"elapsed": np.array(rows["time"]), "nodes_touched": np.array(rows["touched"]),
                "total_time": time.perf_counter() - start},
    )
