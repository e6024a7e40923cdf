import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from cfrviz import regret_matching

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


def test_known_values():
    assert np.allclose(regret_matching([2.0, -1.0, 1.0]), [2 / 3, 0, 1 / 3])
    assert np.allclose(regret_matching([0.0, 0.0, 0.0]), [1 / 3] * 3)
    assert np.allclose(regret_matching([-5.0, -1.0]), [0.5, 0.5])
    assert np.allclose(regret_matching([[1.0, 3.0], [-1.0, -1.0]]), [[0.25, 0.75], [0.5, 0.5]])


def test_mask_excludes_illegal_actions_even_with_regret():
    strategy = regret_matching([5.0, 1.0, 0.0], mask=[False, True, True])
    assert strategy.tolist() == [0.0, 1.0, 0.0]
    assert regret_matching([5.0, -1.0, -2.0], mask=[False, True, True]).tolist() == [0, 0.5, 0.5]


@given(arrays(float, st.integers(1, 8), elements=finite))
def test_is_a_distribution_proportional_to_positive_regret(regrets):
    strategy = regret_matching(regrets)
    assert np.all(strategy >= 0)
    assert np.isclose(strategy.sum(), 1.0)
    positive = np.maximum(regrets, 0)
    if positive.sum() > 0:
        assert np.allclose(strategy * positive.sum(), positive, atol=1e-9 * positive.sum())
        assert np.all(strategy[regrets <= 0] == 0)
    else:
        assert np.allclose(strategy, 1 / len(regrets))


# Away from underflow: a regret of 5e-324 scaled by 0.5 becomes exactly 0.
not_tiny = finite.filter(lambda x: x == 0 or abs(x) >= 1e-6)


@given(arrays(float, st.integers(1, 6), elements=not_tiny),
       st.floats(min_value=1e-3, max_value=1e3))
def test_invariant_to_positive_scaling(regrets, scale):
    assert np.allclose(regret_matching(regrets), regret_matching(regrets * scale))


@given(st.data())
def test_mask_respected(data):
    n = data.draw(st.integers(1, 6))
    regrets = data.draw(arrays(float, n, elements=finite))
    mask = data.draw(arrays(bool, n).filter(lambda m: m.any()))
    strategy = regret_matching(regrets, mask)
    assert np.all(strategy[~mask] == 0)
    assert np.isclose(strategy.sum(), 1.0)
