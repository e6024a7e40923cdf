"""Regret matching sees a sum within rounding of zero as zero, so two layouts of one
computation cannot part (issue 32, item 2).

Before: on Leduc with suits, tabular CFR's regrets at ``KsKh:crc/r`` were exactly [0, 0, 0]
after iteration 2 (uniform) and vector-form CFR's [5.8e-19, -3.2e-19, -3.2e-19] (pure on the
first action); after 50 iterations the exploitabilities were 0.18908 and 0.19846.
"""

from __future__ import annotations

import numpy as np
import pytest

import cfrviz
from cfrviz.core import regret
from cfrviz.core.regret import average_strategy
from cfrviz.engine import cfr as engine_cfr
from cfrviz.reference import cfr as reference_cfr
from cfrviz.reference import vanilla_cfr
from cfrviz.reference.evaluation import tree_exploitability
from cfrviz.solvers import regret_matching as matrix_solver

ITERATIONS = 50
EPS = np.finfo(float).eps


@pytest.fixture(scope="module")
def leduc_suits():
    return cfrviz.load_game("leduc_poker", suits=True)


@pytest.fixture(scope="module")
def tabular_run(leduc_suits):
    return cfrviz.solve(leduc_suits, "cfr", ITERATIONS)


def test_tabular_and_vector_cfr_agree_over_a_whole_leduc_run(leduc_suits, tabular_run):
    """Every checkpoint's average and current strategy and exploitability, to 1e-12
    (measured: 2.3e-14, 1.5e-13 and 1.1e-15; before the tolerance, 0.42 and 0.0094)."""
    vector = cfrviz.solve(leduc_suits, "vector_cfr", ITERATIONS)
    assert np.array_equal(tabular_run.iterations, vector.iterations)
    assert len(tabular_run.iterations) == ITERATIONS
    assert np.max(np.abs(tabular_run.average_strategy - vector.average_strategy)) < 1e-12
    assert np.max(np.abs(tabular_run.current_strategy - vector.current_strategy)) < 1e-12
    assert np.max(np.abs(tabular_run.exploitability - vector.exploitability)) < 1e-12
    assert tabular_run.exploitability[-1] == pytest.approx(0.1890834659549555, abs=1e-12)


def test_the_reference_agrees_with_the_engine_over_that_run(leduc_suits, tabular_run):
    """The readable reference (cfrviz.reference.vanilla_cfr) takes the same path: its average
    strategy at every iteration, and the exploitability of the last (by the reference's best
    response), to 1e-12."""
    mask = leduc_suits.legal_mask
    worst = 0.0
    average = None
    for t, step in enumerate(vanilla_cfr(leduc_suits, ITERATIONS)):
        average = average_strategy(step["strategy_sum"], mask)
        worst = max(worst, float(np.max(np.abs(average - tabular_run.average_strategy[t]))))
    assert worst < 1e-12
    assert tree_exploitability(leduc_suits, average) == pytest.approx(
        float(tabular_run.exploitability[-1]), abs=1e-12)


def test_the_set_where_the_runs_parted_plays_uniformly(leduc_suits):
    """At KsKh:crc/r, after iteration 2, both layouts play uniformly."""
    info = leduc_suits.infoset_keys.index("KsKh:crc/r")
    for algorithm in ("cfr", "vector_cfr"):
        run = cfrviz.solve(leduc_suits, algorithm, 3)
        legal = leduc_suits.legal_mask[info]
        assert np.allclose(run.current_strategy[2, info, legal], 1.0 / legal.sum()), algorithm


RESIDUE = np.array([[5.8e-19, -3.2e-19, -3.2e-19]])  # what vector_cfr had at KsKh:crc/r
GENUINE = np.array([[1e-9, -1.0, -1.0]])  # small, yet 7 times the tolerance at U=13, t=50
MASK = np.ones((1, 3), dtype=bool)


def engine_row(regrets, tol):
    out = np.empty(3)
    engine_cfr.match_row(regrets, MASK, 0, out, tol)
    return out


@pytest.mark.parametrize("match", [
    pytest.param(engine_row, id="engine"),
    pytest.param(lambda r, tol: reference_cfr.rounded_regret_matching(r, MASK, tol)[0],
                 id="reference"),
    pytest.param(lambda r, tol: np.array(matrix_solver._match(r[0].tolist(), tol)),
                 id="matrix solver"),
])
def test_the_tolerance_sees_residue_as_zero_and_a_genuine_regret_as_one(match):
    tol = engine_cfr.rounding_tolerance(13.0, 2)
    assert np.array_equal(match(RESIDUE, tol), np.full(3, 1 / 3))
    assert np.array_equal(match(RESIDUE, 0.0), [1.0, 0.0, 0.0])  # the textbook rule
    tol = engine_cfr.rounding_tolerance(13.0, 50)
    assert tol < GENUINE[0, 0] / 5
    assert np.array_equal(match(GENUINE, tol), [1.0, 0.0, 0.0])
    mixed = np.array([[2.0, 1e-19, -1.0]])  # a residue beside a genuine regret: as textbook
    assert np.array_equal(match(mixed, tol), match(mixed, 0.0))


def test_one_tolerance_everywhere():
    """One formula, core.regret's, C * eps * U * t: the engine compiles it, the reference and
    the matrix solver call it."""
    assert engine_cfr.ROUNDING == regret.ROUNDING == 1024
    assert reference_cfr.rounding_tolerance is regret.rounding_tolerance
    assert engine_cfr.rounding_tolerance.py_func is regret.rounding_tolerance
    for scale, t in ((13.0, 2), (2.0, 1), (250.0, 1000)):
        want = 1024 * EPS * scale * t
        assert engine_cfr.rounding_tolerance(scale, t) == want
        assert regret.rounding_tolerance(scale, t) == want
    utility = np.array([[1.0, -1.0], [-13.0, 13.0], [0.0, 0.0]])
    assert engine_cfr.payoff_scale(utility) == 13.0


def test_the_predictive_rule_uses_the_tolerance_too():
    prediction = np.zeros((1, 3))
    out = np.empty((1, 3))
    engine_cfr.predictive_matching_table(RESIDUE, prediction, MASK, out,
                                         engine_cfr.rounding_tolerance(13.0, 2))
    assert np.array_equal(out[0], np.full(3, 1 / 3))
    engine_cfr.predictive_matching_table(RESIDUE, prediction, MASK, out, 0.0)
    assert np.array_equal(out[0], [1.0, 0.0, 0.0])
