"""Lesson 13's Deep CFR computations: the network's weighted-mean target at a set, and Single
Deep CFR's average at a set. Right code in several styles passes; each wrong version, written
as a student might write it, gets its own mistake's name."""

import numpy as np
import pytest
from _solutions import as_cell, run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import deep_targets as ex

# --- the target ------------------------------------------------------------------------------

TARGET_STYLES = {
    "pure Python": """
def my_target(ts, infos, regrets, info):
    total, weight = None, 0.0
    for t, i, r in zip(ts, infos, regrets):
        if i != info:
            continue
        row = [t * x for x in r]
        total = row if total is None else [a + b for a, b in zip(total, row)]
        weight += t
    return [x / weight for x in total]
""",
    "np.average": """
def my_target(ts, infos, regrets, info):
    at = np.flatnonzero(infos == info)
    return np.average(regrets[at], axis=0, weights=ts[at])
""",
    "recursion": """
def my_target(ts, infos, regrets, info):
    def sums(k):                      # (Σ t·r, Σ t) over the samples k, k + 1, ...
        if k == len(ts):
            return np.zeros(regrets.shape[1]), 0.0
        rest, weight = sums(k + 1)
        if infos[k] != info:
            return rest, weight
        return rest + ts[k] * regrets[k], weight + ts[k]
    import sys
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    total, weight = sums(0)
    return total / weight
""",
}


def test_the_target_solution_and_other_styles_pass():
    solution = run_solution("13_weighted_target.py")["my_target"]
    assert ex.check_weighted_target(solution).status == CORRECT
    for style, source in TARGET_STYLES.items():
        feedback = ex.check_weighted_target(as_cell(source)["my_target"])
        assert feedback.status == CORRECT, (style, feedback)


def _mean(weights, divide="weights"):
    def my_target(ts, infos, regrets, info):
        at = infos == info
        w = weights(ts[at])
        return (w[:, None] * regrets[at]).sum(axis=0) / {
            "weights": w.sum(), "count": len(w), "one": 1, "all": weights(ts).sum()}[divide]
    return my_target


def _latest(ts, infos, regrets, info):
    newest = ts[infos == info].max()
    return regrets[(infos == info) & (ts == newest)].mean(axis=0)


def _every_sample(ts, _infos, regrets, _info):
    return np.average(regrets, axis=0, weights=ts)


def _zeroes_other_sets(ts, infos, regrets, info):
    # Right target, but the caller's regrets of the other sets are zeroed (issue 29 item 4).
    at = infos == info
    regrets[~at] = 0
    return (ts[:, None] * regrets).sum(axis=0) / ts[at].sum()


def _a_strategy(ts, infos, regrets, info):
    at = infos == info
    target = np.average(regrets[at], axis=0, weights=ts[at])
    plus = np.clip(target, 0, None)
    return plus / plus.sum() if plus.sum() else np.ones(len(target)) / len(target)


@pytest.mark.parametrize("function, mistake", [
    (_mean(np.ones_like), "unweighted"),
    (_mean(lambda t: t, "one"), "weighted-sum"),
    (_mean(lambda t: t, "count"), "divided-by-count"),
    (_mean(lambda t: t, "all"), "all-sets-denominator"),
    (_every_sample, "all-sets"),
    (_mean(lambda t: t ** 2), "squared-weights"),
    (_latest, "latest-iteration"),
    (_a_strategy, "strategy"),
    (_zeroes_other_sets, "changes its input"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_each_target_mistake_is_named(function, mistake):
    feedback = ex.check_weighted_target(function)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 60


def test_an_unknown_target_mistake_names_the_set():
    def off(ts, infos, regrets, info):
        return _mean(lambda t: t)(ts, infos, regrets, info) + (info == 3) * 0.1

    feedback = ex.check_weighted_target(off)
    assert feedback.mistake is None and feedback.status == WRONG
    assert "written out by hand, at set 'Qb' (id 3)" in feedback.message
    assert "2 samples" in feedback.message


def test_the_target_starter_and_junk():
    def starter(ts, infos, regrets, info):
        raise NotImplementedError

    assert ex.check_weighted_target(starter).status == NOT_DONE
    assert ex.check_weighted_target(None).status == NOT_DONE
    assert ex.check_weighted_target(3).mistake == "not-callable"
    assert ex.check_weighted_target(lambda *_: 1.0).mistake == "shape"
    crash = ex.check_weighted_target(lambda ts, *_: ts[10 ** 6])
    assert crash.mistake == "crash" and "IndexError" in crash.message


def test_the_package_target_is_the_weighted_mean_and_a_full_row_is_accepted():
    memory = ex.target_memories()[0]
    targets = ex.package_targets(memory)
    # Set 0 ('J'): samples (t=3, [1, -1]), (1, [-2, 2]), (2, [0, 4]), (4, [2, -3]).
    assert np.allclose(targets[0], [(3 - 2 + 0 + 8) / 10, (-3 + 2 + 8 - 12) / 10])

    def padded(ts, infos, regrets, info):          # a whole row of width 3 on Leduc is fine
        return _mean(lambda t: t)(ts, infos, regrets, info)

    assert ex.check_weighted_target(padded).status == CORRECT


# --- the Single Deep CFR average -------------------------------------------------------------

AVERAGE_STYLES = {
    "pure Python": """
def my_sd_average(strategies, reaches):
    k = len(strategies[0])
    total, weight = [0.0] * k, 0.0
    for t, (sigma, reach) in enumerate(zip(strategies, reaches), start=1):
        total = [a + t * reach * s for a, s in zip(total, sigma)]
        weight += t * reach
    return [a / weight for a in total]
""",
    "np.average": """
def my_sd_average(strategies, reaches):
    t = np.arange(1, len(reaches) + 1)
    return np.average(strategies, axis=0, weights=t * reaches)
""",
    "recursion": """
def my_sd_average(strategies, reaches):
    def running(T):                   # (average over iterations 1..T, its total weight)
        if T == 0:
            return np.zeros(strategies.shape[1]), 0.0
        average, weight = running(T - 1)
        w = T * reaches[T - 1]
        if weight + w == 0:
            return average, 0.0
        return (weight * average + w * strategies[T - 1]) / (weight + w), weight + w
    return running(len(strategies))[0]
""",
}


def test_the_average_solution_and_other_styles_pass():
    solution = run_solution("13_sd_average.py")["my_sd_average"]
    assert ex.check_sd_average(solution).status == CORRECT
    for style, source in AVERAGE_STYLES.items():
        feedback = ex.check_sd_average(as_cell(source)["my_sd_average"])
        assert feedback.status == CORRECT, (style, feedback)


def _weighted_by(weight, normalise=True):
    def my_sd_average(strategies, reaches):
        total = sum(weight(t, r) * s for t, (s, r) in enumerate(zip(strategies, reaches),
                                                                start=1))
        return total / total.sum() if normalise else total
    return my_sd_average


def _weights_in_place(strategies, reaches):
    # Right average, but the caller's reaches become the weights (issue 29 item 4).
    reaches *= np.arange(1, len(strategies) + 1)
    return reaches @ strategies / reaches.sum()


def _enumerate_from_zero(strategies, reaches):
    weights = np.array([t * r for t, r in enumerate(reaches)])
    return weights @ strategies / weights.sum()


@pytest.mark.parametrize("function, mistake", [
    (lambda strategies, _reaches: strategies.mean(axis=0), "unweighted"),
    (_weighted_by(lambda t, _r: t), "no-reach"),
    (_weighted_by(lambda _t, r: r), "no-t"),
    (_enumerate_from_zero, "zero-based"),
    (_weighted_by(lambda t, r: t * r, normalise=False), "not-normalised"),
    (lambda strategies, _reaches: strategies[-1], "last-iterate"),
    (_weights_in_place, "changes its input"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_each_average_mistake_is_named(function, mistake):
    feedback = ex.check_sd_average(function)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 60


def test_the_average_starter_junk_and_the_package_average():
    def starter(strategies, reaches):
        raise NotImplementedError

    assert ex.check_sd_average(starter).status == NOT_DONE
    assert ex.check_sd_average(None).status == NOT_DONE
    assert ex.check_sd_average("x").mistake == "not-callable"
    assert ex.check_sd_average(lambda *_: [1.0]).mistake == "shape"
    feedback = ex.check_sd_average(lambda s, _r: np.full(s.shape[1], 1 / s.shape[1]))
    assert feedback.status == WRONG and feedback.mistake is None
    assert "Σ_t t·π_t·σ_t" in feedback.message
    # The hand-made case: weights 1·0.5, 0, 3·0.25, 4·1, 0 over the strategies.
    case = ex.average_cases()[-1]
    w = np.array([0.5, 0, 0.75, 4.0, 0])
    assert np.allclose(case.expected, w @ case.strategies / w.sum())
    # Kuhn: the cases are the trace's own average, and every set is a distribution.
    kuhn_cases = ex.average_cases()[:-1]
    assert len(kuhn_cases) == 12
    assert all(np.isclose(c.expected.sum(), 1) for c in kuhn_cases)


def test_a_nan_is_called_a_nan_not_a_shape():
    # The right number of values, but 0/0 in them: the message says so (it said "shape" and
    # asked for the number of values the answer already had).
    def target(_ts, _infos, regrets, _info):
        return np.full(regrets.shape[1], np.nan)

    def average(strategies, _reaches):
        return np.full(strategies.shape[1], np.nan)

    for feedback in (ex.check_weighted_target(target), ex.check_sd_average(average)):
        assert feedback.status == WRONG and feedback.mistake == "not-finite", feedback
        assert "NaN" in feedback.message and "division by zero" in feedback.message
