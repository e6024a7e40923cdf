"""DCFR's discount arithmetic, checked against the formula and against the engine itself."""

import numpy as np
import pytest
from _tolerance import FOLD, assert_close, magnitude
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.analysis.variants import dcfr_discounts, iteration_weights


def test_known_values():
    assert dcfr_discounts(4) == pytest.approx((8 / 9, 1 / 2, 16 / 25))
    assert dcfr_discounts(1, 7.0, -3.0, 0.0) == pytest.approx((0.5, 0.5, 1.0))
    pos, neg, avg = dcfr_discounts(np.array([1, 2, 3]), 1.0, 1.0, 1.0)
    assert np.allclose(pos, [1 / 2, 2 / 3, 3 / 4]) and np.allclose(neg, pos)
    assert np.allclose(avg, [1 / 2, 2 / 3, 3 / 4])


def test_huge_exponents_do_not_overflow():
    pos, neg, avg = dcfr_discounts(np.array([1, 10_000, 10**9]), 100.0, -100.0, 50.0)
    assert np.all(np.isfinite(pos)) and np.all(np.isfinite(neg)) and np.all(np.isfinite(avg))
    assert pos[-1] == pytest.approx(1.0) and neg[-1] == pytest.approx(0.0)


@settings(max_examples=60, deadline=None)
@given(t=st.integers(1, 10**6), a=st.floats(-20, 20), b=st.floats(-20, 20), g=st.floats(0, 20))
def test_factors_are_between_zero_and_one(t, a, b, g):
    for factor in dcfr_discounts(t, a, b, g):
        assert 0.0 <= factor <= 1.0


def test_weights_follow_the_products():
    w = iteration_weights(6, 1.5, 0.0, 2.0)
    pos, neg, _ = dcfr_discounts(np.arange(1, 7), 1.5, 0.0, 2.0)
    assert np.allclose(w["positive regrets"], [np.prod(pos[k:]) for k in range(6)])
    assert np.allclose(w["negative regrets"], 0.5 ** np.arange(6, 0, -1))
    assert np.allclose(w["average strategy"], (np.arange(1, 7) / 6) ** 2)
    for values in w.values():
        assert np.all(np.diff(values) >= 0)  # later iterations never count less


def test_bad_input():
    for bad in (0, -1, np.nan, [1, 0]):
        with pytest.raises(ValueError):
            dcfr_discounts(bad)
    for bad in ("1", np.nan, None, True):
        with pytest.raises(ValueError):
            dcfr_discounts(3, alpha=bad)
    for bad in (0, 2.5, "3", True):
        with pytest.raises(ValueError):
            iteration_weights(bad)


def test_the_engine_applies_these_factors():
    """Leduc under DCFR (2.5, -0.5, 3).

    Each recorded cumulative regret is (previous + instant) x factor.
    """
    game = cfrviz.load_game("leduc_poker")
    alpha, beta, gamma = 2.5, -0.5, 3.0
    trace = cfrviz.solve(game, "dcfr", 4, alpha=alpha, beta=beta, gamma=gamma,
                         checkpoints=[1, 2, 3, 4])
    mask = game.legal_mask
    for i in range(1, 4):
        t = int(trace.iterations[i])
        pos, neg, _ = dcfr_discounts(t, alpha, beta, gamma)
        summed = trace.cumulative_regret[i - 1] + trace.instantaneous_regret[i]
        expected = np.where(summed > 0, summed * pos, summed * neg)
        # one fold: the add, the factor and its multiply (tests/_tolerance.py)
        assert_close(trace.cumulative_regret[i][mask], expected[mask], roundings=FOLD,
                     scale=magnitude(summed, trace.cumulative_regret[i - 1]), what=f"t = {t}")
