"""Checkers for lesson 13's two Deep CFR computations: the network's target at a set, and
Single Deep CFR's average strategy at a set.

``my_target(ts, infos, regrets, info)`` is the iteration-weighted mean ``Σ t r / Σ t`` of the
set's samples, compared at every set of three memories (:func:`target_memories`) with
:meth:`Reservoir.grouped`, which Deep CFR trains on.  ``my_sd_average(strategies, reaches)`` is
``Σ_t t π_t σ_t / Σ_t t π_t`` (Steinberger 2019), compared with the average
:func:`cfrviz.solvers.deep_cfr.train_deep_cfr` computes for its trace (:func:`average_cases`).
Both to :data:`TOLERANCE`; a wrong answer is named only when a wrong formula
(:data:`TARGET_VARIANTS`, :data:`AVERAGE_VARIANTS`) reproduces it at every set checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import engine
from ..core.regret import average_strategy
from ..core.tree import as_tree
from ..games import load_game
from ..solvers.deep_cfr import Reservoir, external_sampling_samples, own_reach_table, train_deep_cfr
from . import Feedback, wrong
from .coding import checks, floats, run_student, short_repr
from .diagnosis import Case, close_to, diagnose, fallback

#: Answers within this of the package's count as equal.
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Memory:
    """A memory of samples, as the exercise hands it to the student."""

    name: str
    ts: np.ndarray        # the iteration of each sample (1, 2, ...)
    infos: np.ndarray     # its information set
    regrets: np.ndarray   # its sampled regrets, one column per action (0 where illegal)
    actions: np.ndarray   # number of legal actions of each set (indexed by set id)
    keys: tuple


def _from_reservoir(name: str, tree, memory) -> Memory:
    size = len(memory)
    return Memory(name, memory.weights[:size].copy(), memory.infos[:size].copy(),
                  memory.regrets[:size].copy(), tree.legal_mask.sum(axis=1), tree.infoset_keys)


def sampled_memory(tree, player: int, iterations: int, traversals: int, capacity: int,
                   seed: int):
    """A :class:`~cfrviz.solvers.deep_cfr.Reservoir` filled as Deep CFR fills one: at each
    iteration t, ``traversals`` external-sampling walks for ``player`` against a random
    strategy (drawn from ``seed``), their samples offered with weight t."""
    rng = np.random.default_rng(seed)
    state = engine.seed_state(rng)
    memory = Reservoir(capacity, tree.max_actions)
    mask = tree.legal_mask
    for t in range(1, iterations + 1):
        raw = np.where(mask, rng.random(mask.shape) + 0.05, 0.0)
        strategy = raw / raw.sum(axis=1, keepdims=True)
        infos, regrets, _ = external_sampling_samples(tree, strategy, player, traversals, state)
        memory.add(infos, regrets, float(t), rng)
    return memory


@lru_cache(maxsize=1)
def target_memories() -> tuple[Memory, ...]:
    """The memories the target is checked on (built once)."""
    kuhn, leduc = load_game("kuhn_poker"), load_game("leduc_poker")
    by_hand = Reservoir(10, 2)
    # Out of iteration order, as a reservoir keeps them; set 0 has samples of three iterations,
    # set 1 one sample only, set 3 two samples of the same iteration.
    rows = [(3, 0, (1.0, -1.0)), (1, 0, (-2.0, 2.0)), (3, 3, (0.5, 0.0)), (2, 0, (0.0, 4.0)),
            (5, 1, (1.5, -0.5)), (3, 3, (-0.5, 1.0)), (4, 0, (2.0, -3.0))]
    for t, info, regret in rows:
        by_hand.add(np.array([info]), np.array([regret]), float(t), np.random.default_rng(0))
    return (
        _from_reservoir("a small memory written out by hand", kuhn, by_hand),
        _from_reservoir("player 2's memory on Kuhn poker (10 iterations)", kuhn,
                        sampled_memory(kuhn, 1, 10, 40, 300, seed=11)),
        _from_reservoir("player 1's memory on Leduc poker (6 iterations)", leduc,
                        sampled_memory(leduc, 0, 6, 30, 2000, seed=12)),
    )


def package_targets(memory: Memory) -> dict[int, np.ndarray]:
    """Each set's target as Deep CFR computes it (:meth:`Reservoir.grouped`), legal actions."""
    store = Reservoir(len(memory.ts), memory.regrets.shape[1])
    store.infos, store.regrets, store.weights = memory.infos, memory.regrets, memory.ts
    store.seen = len(memory.ts)
    sets, means, _ = store.grouped()
    return {int(s): means[k, :memory.actions[s]] for k, s in enumerate(sets)}


def _weighted(weights: Callable[[np.ndarray], np.ndarray], divide: str = "weights"):
    """A target formula: weights of the set's samples, and what the sum is divided by."""
    def formula(ts, infos, regrets, info):
        at = infos == info
        w = weights(ts[at])
        total = {"weights": w.sum(), "count": at.sum(), "none": 1.0,
                 "all weights": weights(ts).sum()}[divide]
        return (w[:, None] * regrets[at]).sum(axis=0) / total
    return formula


def _everywhere(ts, _infos, regrets, _info):
    return (ts[:, None] * regrets).sum(axis=0) / ts.sum()


def _latest(ts, infos, regrets, info):
    at = infos == info
    last = at & (ts == ts[at].max())
    return regrets[last].mean(axis=0)


def _as_strategy(ts, infos, regrets, info):
    target = _weighted(lambda t: t)(ts, infos, regrets, info)
    positive = np.maximum(target, 0.0)
    return positive / positive.sum() if positive.sum() > 0 else np.full(len(target),
                                                                         1 / len(target))


#: Wrong targets the checker recognises: (mistake, formula, message).
TARGET_VARIANTS: tuple[tuple[str, Callable, str], ...] = (
    ("unweighted", _weighted(np.ones_like),
     "Your target is the plain mean of the set's samples: every sample counts the same. The "
     "loss weights sample i by its iteration t_i, so the minimum is the weighted mean, "
     "Σ t·r / Σ t over the set's samples: later iterations count more."),
    ("weighted-sum", _weighted(lambda t: t, "none"),
     "Your target is Σ t·r, the weighted sum, not divided by anything. The network's best "
     "output is a mean: divide by the sum of the same weights, Σ t, over the set's samples."),
    ("divided-by-count", _weighted(lambda t: t, "count"),
     "You divide Σ t·r by the number of samples. Each sample enters the loss with weight t, "
     "so the weights must sum to 1 after dividing: divide by Σ t over the set's samples."),
    ("all-sets-denominator", _weighted(lambda t: t, "all weights"),
     "Your numerator is right (the set's samples only) but you divide by Σ t over the whole "
     "memory. The loss at this set involves only this set's samples: divide by their Σ t."),
    ("all-sets", _everywhere,
     "Your target is the weighted mean of every sample in the memory, whatever its set. The "
     "network sees the set's features and nothing else, so its best output at a set is the "
     "mean of that set's samples only: select them with infos == info first."),
    ("squared-weights", _weighted(lambda t: t * t),
     "You weight samples by t². Deep CFR's loss weights iteration t by t (linear CFR's "
     "weighting), so the target is Σ t·r / Σ t."),
    ("latest-iteration", _latest,
     "Your target uses only the samples of the latest iteration at the set. A reservoir keeps "
     "samples of every iteration, in no particular order, and the network is fitted to all "
     "of them: average all the set's samples, each weighted by its t."),
    ("strategy", _as_strategy,
     "You returned regret matching applied to the target: a strategy. The exercise asks for "
     "the target itself, Σ t·r / Σ t, in regret units (it can be negative); regret matching "
     "comes afterwards, when the network's outputs are played."),
)


_TARGET_HINTS = {
    IndexError: "ts, infos and regrets have one entry (one row) per sample; select a set's "
                "samples with a boolean mask, at = infos == info.",
    TypeError: "The checker calls my_target(ts, infos, regrets, info) with numpy arrays and a "
               "set id, and expects the set's target, one number per action.",
}


@lru_cache(maxsize=1)
def target_points() -> tuple[Point, ...]:
    """Every set of every memory of :func:`target_memories`, with its target
    (:func:`package_targets`)."""
    points = []
    for m in target_memories():
        targets = package_targets(m)
        for info in sorted(set(m.infos.tolist())):
            k, at = int(m.actions[info]), f"In {m.name}, at set {m.keys[info]!r} (id {info}"
            points.append(Point(
                f"{at}, {k} actions)", (("ts", m.ts), ("infos", m.infos), ("regrets", m.regrets)),
                (info,), k, m.regrets.shape[1], targets[info],
                f"{at}), your target is GOT; Σ t·r / Σ t over its "
                f"{int(np.sum(m.infos == info))} samples is {_round(targets[info])}."))
    return tuple(points)


@checks("`my_target`", "check_weighted_target(my_target)")
def check_weighted_target(function) -> Feedback:
    """Exercise: ``function(ts, infos, regrets, info)`` is :func:`package_targets`' target at
    every set of :func:`target_memories`, and leaves the three arrays as they were."""
    points = target_points()
    return _check(function, points, "`my_target`", _TARGET_HINTS, (
        "numbers", "Every set asked about has samples here, so Σ t over them is positive."),
        f"Right at all {len(points)} sets of the three memories: your targets equal the "
        "weighted means Deep CFR trains towards (Reservoir.grouped). At each set the network "
        "can do no better than Σ t·r / Σ t, because the loss is a weighted sum of squares and "
        "the set's inputs never change.", TARGET_VARIANTS,
        "Not quite: the target at a set is Σ t·r / Σ t over that set's samples.")


# --- the Single Deep CFR average ------------------------------------------------------------

@dataclass(frozen=True)
class AverageCase:
    """One set of one run: the strategies played there, the owner's reach, the package's
    average."""

    name: str
    strategies: np.ndarray   # (T, k): sigma_t at the set, t = 1..T
    reaches: np.ndarray      # (T,): the owner's own reach to the set under sigma_t
    expected: np.ndarray     # (k,)


@lru_cache(maxsize=1)
def average_cases() -> tuple[AverageCase, ...]:
    """Every set of a short Deep CFR run on Kuhn poker, with the average its trace holds,
    and a hand-made set of three actions that some iterations do not reach."""
    kuhn = as_tree(load_game("kuhn_poker"), "check_sd_average")
    run = train_deep_cfr(kuhn, 6, seed=0, traversals=50, train_steps=30,
                         checkpoints=[6], progress=False)
    played = np.array([run.strategy(t) for t in range(1, run.iterations + 1)])
    reach = np.array([own_reach_table(kuhn, sigma) for sigma in played])
    average = run.trace.average_strategy[-1]
    cases = [AverageCase(f"set {key!r} of a 6-iteration Deep CFR run on Kuhn poker",
                         played[:, info, :2], reach[:, info], average[info, :2])
             for info, key in enumerate(kuhn.infoset_keys)]
    strategies = np.array([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0], [0.1, 0.1, 0.8], [0.6, 0.4, 0.0],
                           [0.0, 0.5, 0.5]])
    reaches = np.array([0.5, 0.0, 0.25, 1.0, 0.0])
    weights = np.arange(1, 6)[:, None] * reaches[:, None]
    summed = (weights * strategies).sum(axis=0, keepdims=True)
    cases.append(AverageCase("a set of three actions, not reached at iterations 2 and 5",
                             strategies, reaches,
                             average_strategy(summed, np.ones((1, 3), dtype=bool))[0]))
    return tuple(cases)


def _mix(weight: Callable[[np.ndarray, np.ndarray], np.ndarray], normalise: bool = True):
    def formula(strategies, reaches):
        t = np.arange(1, len(strategies) + 1, dtype=float)
        w = weight(t, reaches)
        total = (w[:, None] * strategies).sum(axis=0)
        return total / total.sum() if normalise else total
    return formula


#: Wrong averages the checker recognises: (mistake, formula, message).
AVERAGE_VARIANTS: tuple[tuple[str, Callable, str], ...] = (
    ("unweighted", _mix(lambda t, _r: np.ones_like(t)),
     "Your average gives every iteration the same weight. SD-CFR weights iteration t by t "
     "(later networks are better) and by the player's own reach π_t(I): an iteration whose "
     "strategy seldom leads to the set plays there seldom, so it counts little."),
    ("no-reach", _mix(lambda t, _r: t),
     "You weight iteration t by t only. The average *behaviour* at a set also weights by "
     "the player's own reach π_t(I) (lesson 04's average strategy): an iteration that does "
     "not lead to the set contributes nothing there. Weight by t · π_t(I)."),
    ("no-t", _mix(lambda _t, r: r),
     "You weight by the reach only. SD-CFR picks iteration t's network with probability "
     "proportional to t, so the weights are t · π_t(I)."),
    ("zero-based", _mix(lambda t, r: (t - 1) * r),
     "You weight iteration t by t − 1: the first iteration counts for nothing. Did you "
     "number the iterations with enumerate, from 0? The strategies are those of iterations "
     "1, 2, …, T: weight row k (from 0) by (k + 1) · reach."),
    ("not-normalised", _mix(lambda t, r: t * r, normalise=False),
     "You returned Σ t · π_t · σ_t without dividing: a strategy sums to 1. Divide by "
     "Σ t · π_t (it is the sum of your vector)."),
    ("last-iterate", lambda strategies, _reaches: strategies[-1],
     "You returned the last iteration's strategy. CFR's guarantee is about the average of "
     "the iterations' strategies, weighted by t and the player's reach, not the last one."),
)


_AVERAGE_HINTS = {
    IndexError: "strategies has one row per iteration (T rows, one column per action) and "
                "reaches one number per iteration.",
    ZeroDivisionError: "Divide by Σ t · π_t, which is positive here: every set is reached at "
                       "some iteration.",
    TypeError: "The checker calls my_sd_average(strategies, reaches) with numpy arrays and "
               "expects one probability per action.",
}


@checks("`my_sd_average`", "check_sd_average(my_sd_average)")
def check_sd_average(function) -> Feedback:
    """Exercise: ``function(strategies, reaches)`` is Single Deep CFR's average at every case of
    :func:`average_cases`, and leaves both arrays as they were."""
    points = tuple(Point(f"For {c.name}", (("strategies", c.strategies), ("reaches", c.reaches)),
                         (), c.strategies.shape[1], c.strategies.shape[1], c.expected,
                         f"For {c.name}, your average is GOT; Σ_t t·π_t·σ_t / Σ_t t·π_t is "
                         f"{_round(c.expected)}.") for c in average_cases())
    return _check(function, points, "`my_sd_average`", _AVERAGE_HINTS, (
        "probabilities", "Σ t · π_t is positive at every set asked about: some iteration "
        "reaches it."),
        f"Right at all {len(points)} sets: your averages equal the one cfrviz's Deep CFR "
        "computes for its trace (every iteration's networks kept, iteration t weighted by t and "
        "by the player's own reach). It is how Steinberger's player behaves: it picks one "
        "iteration's network with probability proportional to t before the game and plays it "
        "throughout.", AVERAGE_VARIANTS,
        "Not quite: the average is Σ_t t·π_t·σ_t / Σ_t t·π_t.")


# --- what both checkers share -----------------------------------------------------------------

@dataclass(frozen=True)
class Point:
    """One place an answer is checked: how a message names it, the arrays the student's
    function gets (by name) and the arguments after them, how many values are wanted (a row
    ``width`` wide is cut to them), the package's values, and what the fallback says there
    (``GOT`` stands for the student's values)."""

    where: str
    arrays: tuple[tuple[str, np.ndarray], ...]
    extra: tuple
    k: int
    width: int
    expected: np.ndarray
    differs: str


def _check(function, points, name: str, hints, asked: tuple[str, str], right: str, variants,
           otherwise: str) -> Feedback:
    """The student's values at every point, judged: right, a variant's (``(mistake, formula,
    message)``), or where they first differ.  ``asked`` is what a point wants (``"numbers"``)
    and why a total there is positive."""
    got = _values(function, points, name, hints, asked)
    if isinstance(got, Feedback):
        return got

    def first_difference(values: np.ndarray) -> str:
        at = 0
        for p in points:
            if not np.allclose(values[at:at + p.k], p.expected, rtol=0, atol=TOLERANCE):
                return p.differs.replace("GOT", str(_round(values[at:at + p.k])))
            at += p.k
        return otherwise

    def variant(formula) -> np.ndarray:
        with np.errstate(all="ignore"):
            return np.concatenate([np.asarray(formula(*(a for _, a in p.arrays), *p.extra),
                                              dtype=float)[:p.k] for p in points])

    return diagnose(got, (
        Case.correct(close_to(np.concatenate([p.expected for p in points]), rtol=0,
                              atol=TOLERANCE), right),
        *(Case(mistake, close_to(variant(formula), rtol=0, atol=TOLERANCE), message)
          for mistake, formula, message in variants),
        fallback(first_difference),
    ))


def _values(function, points, name: str, hints, asked: tuple[str, str]
            ) -> np.ndarray | Feedback:
    """The student's values at every point, flattened; or the feedback that stops the check."""
    out = []
    for p in points:
        given = [(n, a.copy()) for n, a in p.arrays]  # the student's to read
        got, failed = run_student(lambda g=given, p=p: function(*(a for _, a in g), *p.extra),
                                  name=name, hints=hints, unchanged=given)
        if failed is not None:
            return failed
        vector = _vector(got, p.k, p.width)
        if vector is None:
            return wrong(f"{p.where}, your function returned {short_repr(got)}: return {p.k} "
                         f"{asked[0]}, one per action.", "shape")
        if not np.all(np.isfinite(vector)):
            return wrong(f"{p.where}, your function returned {short_repr(got)}: not all numbers "
                         f"(NaN or infinity). A division by zero? {asked[1]}", "not-finite")
        out.append(vector)
    return np.concatenate(out)


def _vector(value, k: int, width: int) -> np.ndarray | None:
    """The answer as ``k`` floats (a whole row of ``width`` cut to ``k``), or None when it is
    not numbers or not that many; NaN and infinity pass, for the caller to name."""
    try:
        array = floats(value).ravel()
    except (TypeError, ValueError):
        return None
    if len(array) == width and width > k:
        array = array[:k]
    if array.shape != (k,):
        return None
    return array


def _round(values: np.ndarray) -> list:
    return np.round(values, 4).tolist()
