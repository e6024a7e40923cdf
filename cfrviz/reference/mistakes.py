"""The usual mistakes in writing CFR, as named variants of the reference's own steps.

When a student's CFR differs from cfrviz's, a checker looks for the variant here that
reproduces it and names its steps.  A variant is one CFR iteration (:func:`iteration`)
with some of its steps swapped for wrong ones, every step taken from
:mod:`cfrviz.reference`: each player's pass is :func:`~cfrviz.reference.cfr.cfr_pass`, the
readable recursive walk, with a node's regret weighted by a rule of
:data:`~cfrviz.reference.updates.REGRET_UPDATES` and its strategy by a rule of
:data:`AVERAGE_REACH`; the pass's regrets are then folded into the running sum by a rule of
:data:`FOLDS` and its strategy weights scaled by a rule of :data:`ITERATION_WEIGHTS`.  The
defaults are vanilla CFR (Zinkevich et al. 2007) with alternating updates;
``fold="floor", weight="linear"`` is CFR+ (Tammelin 2014); the tests check both against
``cfrviz.solve``.

External sampling's mistakes (:func:`external_sampling`) are
:func:`~cfrviz.reference.mccfr.external_sampling_walk` with its regret weight
(:data:`SAMPLED_REGRETS`) or its averaging (:data:`SAMPLED_AVERAGES`) swapped; chance
sampling's (:data:`CHANCE_SAMPLING`) are :func:`~cfrviz.reference.mccfr.chance_sampling_walk`
with one of its :class:`~cfrviz.reference.mccfr.ChanceSteps` swapped; the classic sampled
trainer's (:data:`SAMPLED_REGRET_MATCHING`) are
:func:`~cfrviz.reference.cfr.sampled_regret_matching` with one of its
:class:`~cfrviz.reference.cfr.SampledSteps` swapped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ..core.regret import regret_matching
from .cfr import SampledSteps, cfr_pass, own_reach, sampled_regrets
from .evaluation import BestResponseWalk, reach_probabilities
from .mccfr import ChanceSteps, external_sampling_walk, opponent_strategy, sampled_regret
from .updates import REGRET_UPDATES

#: What a node's strategy is weighted by in the average, ``rule(reach, player)`` with
#: ``reach = [player 1, player 2, chance]``: the player's own reach (right) and wrong ones.
AVERAGE_REACH: dict[str, Callable] = {
    "own": own_reach,
    "unweighted-average": lambda _r, _i: 1.0,
    "full-reach-average": lambda r, _i: r[0] * r[1] * r[2],
    "others-reach-average": lambda r, i: r[2] * r[1 - i],
}

#: How one pass's regrets ``r`` are folded into the cumulative ``R`` at iteration ``t``:
#: vanilla CFR adds, CFR+ adds then floors at zero; the rest are slips.
FOLDS: dict[str, Callable[[np.ndarray, np.ndarray, int], np.ndarray]] = {
    "add": lambda R, r, _t: R + r,
    "floor": lambda R, r, _t: np.maximum(R + r, 0.0),
    "floor-before": lambda R, r, _t: np.maximum(R, 0.0) + r,
    "floor-increment": lambda R, r, _t: R + np.maximum(r, 0.0),
    "linear-regrets": lambda R, r, t: np.maximum(R + t * r, 0.0),
}

#: Iteration ``t``'s weight in the average: 1 (vanilla CFR), t (CFR+), t² (PCFR+) and slips.
ITERATION_WEIGHTS: dict[str, Callable[[int], float]] = {
    "uniform": lambda _t: 1.0,
    "linear": float,
    "squared": lambda t: float(t) ** 2,
    "delayed": lambda t: max(t - 1.0, 0.0),
    "shifted": lambda t: t + 1.0,
}


def matched(values, mask, fallback: str = "uniform") -> np.ndarray:
    """Regret matching on ``values`` over the legal actions ``mask``, or a usual slip in it
    where no legal action has a positive value: ``"all-columns"`` plays uniformly over every
    column, illegal ones too, ``"zeros"`` plays nothing; ``"raw"`` never divides by the total."""
    if fallback == "uniform":
        return regret_matching(values, mask)
    positive = np.where(mask, np.maximum(values, 0.0), 0.0)
    if fallback == "raw":
        return positive
    total = positive.sum(axis=1, keepdims=True)
    other = np.full(mask.shape, 1.0 / mask.shape[1]) if fallback == "all-columns" \
        else np.zeros(mask.shape)
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), other)


def iteration(tree, regret_sum, strategy_sum, t: int, *, update: str = "cfr",
              average: str = "own", fold: str = "add", weight: str = "uniform",
              alternating: bool = True, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """One iteration of CFR with the named steps; returns the new ``(regret_sum, strategy_sum)``.

    Each player in turn, ``first`` first, plays regret matching on the regrets so far (both
    from the strategy at the start of the iteration when not ``alternating``), runs its
    :func:`~cfrviz.reference.cfr.cfr_pass` with the node rules ``update`` (a key of
    ``REGRET_UPDATES``) and ``average`` (of :data:`AVERAGE_REACH`), and folds the pass into
    the sums by ``fold`` (of :data:`FOLDS`) and ``weight`` (of :data:`ITERATION_WEIGHTS`).
    """
    w = ITERATION_WEIGHTS[weight](t)
    strategy = regret_matching(regret_sum, tree.legal_mask)
    for player in (first, 1 - first):
        if alternating:
            strategy = regret_matching(regret_sum, tree.legal_mask)
        regret, weights = cfr_pass(tree, strategy, player, REGRET_UPDATES[update],
                                   AVERAGE_REACH[average])
        regret_sum = FOLDS[fold](regret_sum, regret, t)
        strategy_sum = strategy_sum + w * weights
    return regret_sum, strategy_sum


def predictive_step(regret_sum, regret, legal_mask, t: int) -> tuple[np.ndarray, np.ndarray, float]:
    """PCFR+'s step for one player's sets (Farina, Kroer and Sandholm 2021), from the steps
    above: CFR+'s fold, regret matching on the new regrets plus the last ones (the
    prediction), the squared weight.  Returns ``([R + r]^+, that strategy, t**2)``."""
    new = FOLDS["floor"](np.asarray(regret_sum, dtype=float), regret, t)
    return new, regret_matching(new + regret, legal_mask), ITERATION_WEIGHTS["squared"](t)


#: A wrong PCFR+ step's stored regrets, ``rule(R, r, t)``: CFR+'s fold slips (:data:`FOLDS`),
#: the prediction stored with them (in four forms) or no update; a mistake may have forms.
PREDICTIVE_FOLDS: dict[str, tuple[Callable[[np.ndarray, np.ndarray, int], np.ndarray], ...]] = {
    "no-floor": (FOLDS["add"],),
    "floor-before": (FOLDS["floor-before"],),
    "floor-increment": (FOLDS["floor-increment"],),
    "prediction-stored": (lambda R, r, _t: np.maximum(R + r, 0.0) + r,
                          lambda R, r, _t: np.maximum(R + 2 * r, 0.0),
                          lambda R, r, _t: np.maximum(np.maximum(R + r, 0.0) + r, 0.0),
                          lambda R, r, _t: R + 2 * r),
    "regrets-not-updated": (lambda R, _r, _t: R,),
}

#: What a PCFR+ step regret-matches, ``values(R, r)`` from the regrets ``R`` it was given and
#: the last ones ``r`` (right: ``[R + r]^+ + r``), and what :func:`matched` plays where
#: nothing is positive: the right values with a fallback slip, or wrong values.
PREDICTIVE_PLAYS: dict[str, tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], str]] = {
    "right": (lambda R, r: np.maximum(R + r, 0.0) + r, "uniform"),
    "no-prediction": (lambda R, r: np.maximum(R + r, 0.0), "uniform"),
    "prediction-from-cumulative": (lambda R, r: np.maximum(R + r, 0.0) + R, "uniform"),
    "prediction-floored": (lambda R, r: np.maximum(R + r, 0.0) + np.maximum(r, 0.0), "uniform"),
    "strategy-before-update": (lambda R, _r: R, "uniform"),
    "uniform-over-illegal": (lambda R, r: np.maximum(R + r, 0.0) + r, "all-columns"),
    "zero-fallback": (lambda R, r: np.maximum(R + r, 0.0) + r, "zeros"),
    "not-normalised": (lambda R, r: np.maximum(R + r, 0.0) + r, "raw"),
}


def stepwise(tree, iterations: int, step=predictive_step) -> Iterator[np.ndarray]:
    """CFR with alternating updates in which ``step(regret_sum, regret, legal_mask, t) ->
    (regret_sum, strategy, weight)`` folds each player's pass (:func:`cfr_pass`) into its
    sets' rows and chooses what they play next; yields the strategy sum after each iteration.
    With :func:`predictive_step` it is PCFR+ (lesson 09 runs the student's step in it)."""
    mask, owner = tree.legal_mask, tree.infoset_player
    regret_sum, strategy_sum = np.zeros(mask.shape), np.zeros(mask.shape)
    strategy = regret_matching(regret_sum, mask)
    for t in range(1, iterations + 1):
        for player in (0, 1):
            rows = owner == player
            regret, weights = cfr_pass(tree, strategy, player)
            regret_sum[rows], strategy[rows], weight = step(regret_sum[rows], regret[rows],
                                                            mask[rows], t)
            strategy_sum[rows] += weight * weights[rows]
        yield strategy_sum.copy()


def run(tree, iterations: int, **variant) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The variant's run from zero tables: after each iteration, ``(strategy played in it,
    regret_sum, strategy_sum)``; ``variant`` are :func:`iteration`'s keywords."""
    regret_sum = np.zeros(tree.legal_mask.shape)
    strategy_sum = np.zeros(tree.legal_mask.shape)
    for t in range(1, iterations + 1):
        played = regret_matching(regret_sum, tree.legal_mask)
        regret_sum, strategy_sum = iteration(tree, regret_sum, strategy_sum, t, **variant)
        yield played, regret_sum, strategy_sum


#: What external sampling multiplies the traverser's regrets by,
#: ``rule(reach, player, action_values, value)``: nothing (right; the sampling already weighs
#: each history by its reach), one over q (the probability of sampling the node), vanilla
#: CFR's reach weight again, or the sign flipped.
SAMPLED_REGRETS: dict[str, Callable] = {
    "none": sampled_regret,
    "one-over-q": lambda r, i, q, v: 1.0 / (r[2] * r[1 - i]) * (q - v),
    "reach": lambda r, i, q, v: (r[2] * r[1 - i]) * (q - v),
    "flipped": lambda _r, _i, q, v: -1.0 * (q - v),
}

#: Where external sampling adds the current strategy to the average and with what weight,
#: ``rule(reach, player, kind)``: at the opponent's sampled nodes unweighted (right, the
#: stochastically-weighted average), or times the opponent's reach, or at the traverser's
#: own nodes, unweighted or times its own reach.
SAMPLED_AVERAGES: dict[str, Callable] = {
    "opponent": opponent_strategy,
    "opponent-reach": lambda r, i, kind: r[kind] if kind != i else 0.0,
    "own": lambda _r, i, kind: 1.0 if kind == i else 0.0,
    "own-reach": lambda r, i, kind: r[kind] if kind == i else 0.0,
}


def external_sampling(tree, player: int, regret_sum, strategy_sum, draw, *,
                      regret: str = "none", average: str = "opponent") -> float:
    """One external-sampling walk from the root for ``player``, with the regret weight
    ``regret`` (a key of :data:`SAMPLED_REGRETS`) and the averaging ``average`` (of
    :data:`SAMPLED_AVERAGES`); the defaults are the reference walk, draw for draw."""
    return external_sampling_walk(tree, 0, player, regret_sum, strategy_sum, draw,
                                  (1.0, 1.0, 1.0), SAMPLED_REGRETS[regret],
                                  SAMPLED_AVERAGES[average])


#: Chance sampling's usual mistakes, as steps of
#: :func:`~cfrviz.reference.mccfr.chance_sampling_walk` swapped (``None``: the walk itself):
#: chance's probability multiplied into the opponent's reach (or both reaches) although the
#: draw already counts it, the regret unweighted, weighted by the own reach or flipped, the
#: average unweighted or weighted by the opponent's reach, the mover's reach swapped, player
#: 1's payoff for either traverser.
CHANCE_SAMPLING: dict[str | None, ChanceSteps] = {
    None: ChanceSteps(),
    "chance-opponent": ChanceSteps(chance=lambda own, opponent, p: (own, opponent * p)),
    "chance-both": ChanceSteps(chance=lambda own, opponent, p: (own * p, opponent * p)),
    "unweighted-regret": ChanceSteps(regret=lambda _o, _p, q, v: 1.0 * (q - v)),
    "own-reach-regret": ChanceSteps(regret=lambda own, _p, q, v: own * (q - v)),
    "flipped-regret": ChanceSteps(regret=lambda _o, opponent, q, v: -opponent * (q - v)),
    "unweighted-average": ChanceSteps(average=lambda _o, _p: 1.0),
    "opponent-reach-average": ChanceSteps(average=lambda _o, opponent: opponent),
    "reaches-swapped": ChanceSteps(moves=lambda kind, player: kind != player),
    "first-player-payoff": ChanceSteps(payoff=lambda _player: 0),
}


def _one_hot(index: int, size: int) -> np.ndarray:
    out = np.zeros(size)
    out[index] = 1.0
    return out


#: The classic sampled trainer's usual mistakes, as steps of
#: :func:`~cfrviz.reference.cfr.sampled_regret_matching` swapped (``None``: the trainer).
SAMPLED_REGRET_MATCHING: dict[str | None, SampledSteps] = {
    None: SampledSteps(),
    "flipped-sign": SampledSteps(regrets=lambda *d: tuple(-r for r in sampled_regrets(*d))),
    "mix-baseline": SampledSteps(regrets=lambda A, x, y, a, b: (A[:, b] - x @ A[:, b],
                                                                 A[a] @ y - A[a])),
    "expected": SampledSteps(regrets=lambda A, x, y, a, b: (A @ y - A[a] @ y,
                                                             x @ A[:, b] - x @ A)),
    "player-2-sign": SampledSteps(regrets=lambda *d: (sampled_regrets(*d)[0],
                                                      -sampled_regrets(*d)[1])),
    # a regret matching that clips the cumulative regrets it is given, in place
    "clipped-regrets": SampledSteps(fold=lambda cumulative, r: np.maximum(cumulative, 0) + r),
    "counts-actions": SampledSteps(average=lambda x, y, a, b, _p: (_one_hot(a, len(x)),
                                                                    _one_hot(b, len(y)))),
    "late-strategy": SampledSteps(average=lambda _x, _y, _a, _b, play: play()),
    "not-divided": SampledSteps(result=lambda sums, _n, _x, _y: (sums[0], sums[1])),
    "current": SampledSteps(result=lambda _s, _n, x, y: (x, y)),
}


#: The weight of each node in a best response, ``rule(reach, player)`` with ``reach`` the
#: rows (player 1, player 2, chance) of :func:`~cfrviz.reference.evaluation.
#: reach_probabilities`: chance's times the opponent's (right) and the usual slips.
BEST_RESPONSE_WEIGHTS: dict[str, Callable] = {
    "others": lambda r, i: r[2] * r[1 - i],
    "opponent": lambda r, i: r[1 - i],
    "own": lambda r, i: r[2] * r[i],
    "all": lambda r, _i: r.prod(axis=0),
    "chance": lambda r, _i: r[2],
    "none": lambda r, _i: np.ones(r.shape[1]),
}


def best_response_walk(tree, probabilities, player: int, *, weight: str = "others",
                       play: str = "best", minimise: bool = False, utility_of: str = "player"
                       ) -> BestResponseWalk:
    """:class:`~cfrviz.reference.evaluation.BestResponseWalk` with its steps swapped by name:
    each node's ``weight`` (a key of :data:`BEST_RESPONSE_WEIGHTS`); at ``player``'s nodes
    ``play`` is ``"best"`` (right: one action per set), ``"peek"`` (the best child of each
    node, as if the player saw the cards) or ``"policy"`` (``probabilities``' rows);
    ``minimise`` takes the smallest; ``utility_of="first"`` counts player 1's payoffs."""
    reach = reach_probabilities(tree, probabilities)
    return BestResponseWalk(
        tree, probabilities, player, weight=BEST_RESPONSE_WEIGHTS[weight](reach, player),
        utility=tree.utility[:, player if utility_of == "player" else 0],
        sets=np.arange(tree.num_nodes) if play == "peek" else None,
        choose=np.argmin if minimise else np.argmax, follow=play == "policy")


def best_response(tree, probabilities, player: int, *, weight: str = "others",
                  per_node: bool = False, minimise: bool = False, utility_of: str = "player",
                  negate: bool = False) -> float:
    """The value of :func:`~cfrviz.reference.evaluation.tree_best_response` with one step
    swapped (:func:`best_response_walk`'s; ``per_node`` is its ``play="peek"`` and
    ``minimise`` holds for player 2 only), or ``negate``: the opponent's payoff.  The defaults
    are the right value."""
    walk = best_response_walk(tree, probabilities, player, weight=weight,
                              play="peek" if per_node else "best",
                              minimise=minimise and player == 1, utility_of=utility_of)
    return -walk.value(0) if negate else walk.value(0)


def path_regrets(path, payoff: float, player: int, *, out_of_reach=(), out_of_q=(),
                 own_before: bool = False, own_after: bool = True, with_action: bool = False,
                 q: str = "path", divide: bool = True, regret: str = "regret") -> list:
    """The regrets outcome sampling (:func:`~cfrviz.reference.mccfr.outcome_sampling_walk`)
    adds at each of ``player``'s steps of one sampled ``path``, by lesson 07's formula, or with
    one step of it swapped (:data:`OUTCOME_PATH`).

    A path is a list of steps ``(who, sigma, q, a)``: who moved (``"chance"``, 0 or 1), the
    probabilities it plays with, those the walk drew with, the index drawn.  At the
    traverser's step ``h`` the sampled value of the action taken is ``pi_{-i}(h) pi(z | h a)
    u(z) / q(z)`` (chance counted in both, where it cancels) and the regret of ``b`` is its
    sampled value minus ``sigma(a)`` times that.  The keywords: the movers (``"chance"``,
    ``"opponent"``) left ``out_of_reach`` or ``out_of_q``; the traverser's own probabilities
    before ``h`` (``own_before``), below ``h a`` (``own_after``) and at ``h`` (``with_action``)
    in the reach; ``q`` the whole path's (``"path"``), its prefix to ``h a`` (``"prefix"``) or
    with ``sigma`` at the traverser's steps (``"sigma"``); ``divide`` by ``q(z)``; ``regret``
    returned as ``"regret"``, the ``"values"``, ``"flipped"``, or with the ``"baseline-q"``.
    """
    kinds = ["chance" if w == "chance" else "own" if w == player else "opponent"
             for w, _, _, _ in path]
    prob = [float(sigma[a]) for _, sigma, _, a in path]
    drew = [float(sigma[a]) if q == "sigma" and kind == "own" else float(q_[a])
            for kind, (_, sigma, q_, a) in zip(kinds, path)]
    out = []
    for d, (_, sigma, q_, a) in enumerate(path):
        if kinds[d] != "own":
            continue
        weight = [k for k, kind in enumerate(kinds) if kind not in out_of_reach and (
            kind != "own" or (own_before if k < d else with_action if k == d else own_after))]
        tail = range(d + 1) if q == "prefix" else range(len(path))
        q_z = np.prod([drew[k] for k in tail if kinds[k] not in out_of_q])
        with np.errstate(all="ignore"):
            value = np.prod([prob[k] for k in weight]) * payoff / (q_z if divide else 1.0)
        values = np.zeros(len(sigma))
        values[a] = value
        baseline = (float(q_[a]) if regret == "baseline-q" else float(sigma[a])) * value
        out.append(values if regret == "values" else baseline - values if regret == "flipped"
                   else values - baseline)
    return out


#: Outcome sampling's usual mistakes on a recorded path, each in its forms (keywords of
#: :func:`path_regrets`); a one-sided mistake leaves a mover out of the reaches or out of
#: q(z), one or the other.
OUTCOME_PATH: dict[str | None, tuple[dict, ...]] = {
    None: ({},),
    "no-division": ({"divide": False},),
    "sigma-as-q": ({"q": "sigma"},),
    "prefix-q": ({"q": "prefix"},),
    "tail-includes-action": ({"with_action": True},),
    "tail-opponent-only": ({"own_after": False},),
    "own-reach": ({"own_before": True},),
    "chance-once": ({"out_of_reach": ("chance",)}, {"out_of_q": ("chance",)}),
    "opponent-once": ({"out_of_reach": ("opponent",)}, {"out_of_q": ("opponent",)}),
    "chance-and-opponent-once": (
        {"out_of_reach": ("chance", "opponent")}, {"out_of_q": ("chance", "opponent")},
        {"out_of_reach": ("chance",), "out_of_q": ("opponent",)},
        {"out_of_reach": ("opponent",), "out_of_q": ("chance",)}),
    "values-not-regrets": ({"regret": "values"},),
    "baseline-q": ({"regret": "baseline-q"},),
    "flipped": ({"regret": "flipped"},),
}
