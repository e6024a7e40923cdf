"""Kuhn poker's segment of equilibria and training runs landing on it."""

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.views.equilibrium import (
    SEGMENT_TRACES,
    TRACES_PER_RUN,
    kuhn_equilibrium_figure,
    kuhn_equilibrium_point,
    kuhn_strategy_path,
    nearest_alpha,
    record_at,
    update_kuhn_equilibrium,
)
from cfrviz.widgets.equilibrium import KuhnEquilibriumView

KUHN = cfrviz.load_game("kuhn_poker")
ITERATIONS = 1000


@pytest.fixture(scope="module")
def runs():
    """Deterministic CFR variants: each lands on its own point of the segment."""
    return [cfrviz.solve(KUHN, algorithm, ITERATIONS) for algorithm in ("cfr", "cfr+",
                                                                        "linear_cfr")]


def test_segment_endpoints():
    np.testing.assert_allclose(kuhn_equilibrium_point(0.0), [0, 0, 1 / 3])
    np.testing.assert_allclose(kuhn_equilibrium_point(1 / 3), [1 / 3, 1, 2 / 3])
    np.testing.assert_allclose(kuhn_equilibrium_point([0, 1 / 6]), [[0, 0, 1 / 3],
                                                                     [1 / 6, 1 / 2, 1 / 2]])
    assert nearest_alpha([0, 0, 1 / 3]) == (0.0, 0.0)
    alpha, distance = nearest_alpha([1 / 3, 1, 2 / 3])
    assert alpha == pytest.approx(1 / 3) and distance == pytest.approx(0, abs=1e-15)
    # Beyond an end the nearest point is the end itself.
    assert nearest_alpha([1, 1, 1]) == pytest.approx((1 / 3, np.linalg.norm([2 / 3, 0, 1 / 3])))
    assert nearest_alpha([0, 0, 0]) == pytest.approx((0.0, 1 / 3))
    for bad in (-0.1, 0.5, np.nan):
        with pytest.raises(ValueError, match=r"alpha must lie in \[0, 1/3\]"):
            kuhn_equilibrium_point(bad)
    with pytest.raises(ValueError, match="shape"):
        nearest_alpha([0.1, 0.2])


@settings(max_examples=60, deadline=None)
@given(alpha=st.floats(0, 1 / 3), offset=st.tuples(st.floats(-1, 1), st.floats(-1, 1)))
def test_nearest_alpha_recovers_a_perpendicular_offset(alpha, offset):
    # Two directions perpendicular to the segment's direction (1, 3, 1).
    u = np.array([3.0, -1.0, 0.0]) / np.sqrt(10)
    v = np.cross([1.0, 3.0, 1.0], u)
    v /= np.linalg.norm(v)
    shift = 0.1 * (offset[0] * u + offset[1] * v)
    found, distance = nearest_alpha(kuhn_equilibrium_point(alpha) + shift)
    assert found == pytest.approx(alpha, abs=1e-12)
    assert distance == pytest.approx(np.linalg.norm(shift), abs=1e-12)


def test_path_of_a_real_cfr_run_lands_on_the_segment(runs):
    trace = runs[0]
    path = kuhn_strategy_path(trace)
    assert path.shape == (len(trace), 3)
    np.testing.assert_allclose(path[0], [0.5, 0.5, 0.5])  # the uniform start
    policy = trace.average_policy()
    np.testing.assert_allclose(path[-1], [policy["J"]["b"], policy["K"]["b"], policy["Qpb"]["b"]])
    alphas, distances = nearest_alpha(path)
    assert distances[-1] < 0.05 and distances[-1] < distances[9]
    assert 0 < alphas[-1] < 1 / 3
    # The distance to the segment shrinks the way exploitability does.
    assert distances[-1] < 0.01


def test_runs_land_at_different_points(runs):
    found = [nearest_alpha(kuhn_strategy_path(t)[-1]) for t in runs]
    assert all(distance < 0.05 for _, distance in found)
    alphas = sorted(alpha for alpha, _ in found)
    assert np.min(np.diff(alphas)) > 0.01
    # Vanilla CFR is deterministic: the seed changes nothing.
    again = cfrviz.solve(KUHN, "cfr", ITERATIONS, seed=7)
    assert nearest_alpha(kuhn_strategy_path(again)[-1])[0] == found[0][0]


def test_sampling_seeds_land_at_different_points():
    ends = [kuhn_strategy_path(cfrviz.solve(KUHN, "external_sampling", 300, seed=seed,
                                            checkpoints=[300]))[-1] for seed in (0, 1, 2)]
    alphas = [nearest_alpha(end)[0] for end in ends]
    assert len(set(np.round(alphas, 3))) == 3


def test_figure_content(runs):
    fig = kuhn_equilibrium_figure(runs, labels=["A", "B", "C"])
    assert len(fig.data) == SEGMENT_TRACES + TRACES_PER_RUN * 3
    left, right = fig.data[0], fig.data[1]
    assert (left.x[0], left.y[0], left.x[-1], left.y[-1]) == pytest.approx((0, 0, 1 / 3, 1))
    assert (right.y[0], right.y[-1]) == pytest.approx((1 / 3, 2 / 3))
    for k, trace in enumerate(runs):
        path = kuhn_strategy_path(trace)
        alpha, _ = nearest_alpha(path[-1])
        base = SEGMENT_TRACES + TRACES_PER_RUN * k
        assert fig.data[base].name == f"{'ABC'[k]}: α ≈ {alpha:.3f}"
        for panel, column in ((0, 1), (1, 2)):
            line, now, end = fig.data[base + 3 * panel: base + 3 * panel + 3]
            assert (line.x[0], line.y[0]) == (0.5, 0.5) and line.x[-1] == path[-1, 0]
            assert (now.x[0], now.y[0]) == (end.x[0], end.y[0]) == (path[-1, 0],
                                                                    path[-1, column])
        assert fig.data[base + 7].y[0] == pytest.approx(alpha)
    default = kuhn_equilibrium_figure(runs[1])
    assert default.data[SEGMENT_TRACES].name.startswith("cfr+: α ≈ ")


def test_update_moves_markers_in_place(runs):
    fig = go.FigureWidget(kuhn_equilibrium_figure(runs))
    before = len(fig.data[SEGMENT_TRACES].x)
    update_kuhn_equilibrium(fig, runs, 10)
    for k, trace in enumerate(runs):
        index = record_at(trace, 10)
        assert trace.iterations[index] == 10
        point = kuhn_strategy_path(trace)[index]
        base = SEGMENT_TRACES + TRACES_PER_RUN * k
        assert fig.data[base + 1].x[0] == point[0] and fig.data[base + 4].y[0] == point[2]
        assert fig.data[base + 7].x[0] == 10
        assert fig.data[base + 7].y[0] == pytest.approx(nearest_alpha(point)[0])
        assert fig.data[base + 2].x[0] == kuhn_strategy_path(trace)[-1, 0]  # the end stays
    assert len(fig.data[SEGMENT_TRACES].x) == 10 < before
    with pytest.raises(ValueError, match="drawn for 3 runs; got 1"):
        update_kuhn_equilibrium(fig, runs[0], 10)


def test_only_kuhn():
    leduc = cfrviz.load_game("leduc_poker")
    trace = cfrviz.solve(leduc, "cfr", 2, checkpoints=[])
    with pytest.raises(ValueError, match="needs a trace of Kuhn poker"):
        kuhn_equilibrium_figure(trace)
    with pytest.raises(ValueError, match="expected a Trace"):
        kuhn_equilibrium_figure(cfrviz.Policy.uniform(KUHN))
    with pytest.raises(ValueError, match="one label per run"):
        kuhn_equilibrium_figure(cfrviz.solve(KUHN, "cfr", 3), labels=["a", "b"])


def test_timeline_widget(runs):
    view = KuhnEquilibriumView(runs)
    assert view.iteration == ITERATIONS and view.slider.max == view.play.max
    view.show_iteration(20)
    assert view.iteration == 20 and "iteration <b>20</b>" in view.label.value
    point = kuhn_strategy_path(runs[1])[record_at(runs[1], 20)]
    assert view.figure.data[SEGMENT_TRACES + TRACES_PER_RUN + 1].x[0] == point[0]
    assert view.last_error is None
