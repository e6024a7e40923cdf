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
        # The legend names each run once, by where it lands (its end marker).
        assert fig.data[base + 2].name == f"{'ABC'[k]}: lands at α ≈ {alpha:.3f}"
        assert fig.data[base + 2].showlegend and fig.data[base].showlegend is False
        for panel, column in ((0, 1), (1, 2)):
            line, now, end = fig.data[base + 3 * panel: base + 3 * panel + 3]
            assert (line.x[0], line.y[0]) == (0.5, 0.5) and line.x[-1] == path[-1, 0]
            assert (now.x[0], now.y[0]) == (end.x[0], end.y[0]) == (path[-1, 0],
                                                                    path[-1, column])
        assert fig.data[base + 7].y[0] == pytest.approx(alpha)
    default = kuhn_equilibrium_figure(runs[1])
    assert default.data[SEGMENT_TRACES + 2].name.startswith("cfr+: lands at α ≈ ")


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


def drawn(view, mark: int) -> np.ndarray:
    """The points overlay mark ``mark`` of the view draws, first to last, as (x, y) rows."""
    spec, (first, last) = view.marks.marks[mark], view.marks.at[mark]
    return np.column_stack([spec["x"], spec["y"]])[int(first):int(last) + 1]


def test_timeline_widget(runs):
    view = KuhnEquilibriumView(runs)
    assert view.iteration == ITERATIONS and view.slider.max == view.play.max
    view.show_iteration(20)
    assert view.iteration == 20 and "iteration <b>20</b>" in view.label.value
    point = kuhn_strategy_path(runs[1])[record_at(runs[1], 20)]
    # Five marks per run: path and "now" in each square panel, "now" on the alpha panel.
    assert drawn(view, 5 + 1).tolist() == [pytest.approx([point[0], point[1]], abs=1e-6)]
    assert drawn(view, 5 + 3)[-1] == pytest.approx([point[0], point[2]], abs=1e-6)
    assert drawn(view, 5 + 4)[-1] == pytest.approx([20, nearest_alpha(point)[0]], abs=1e-6)
    assert view.last_error is None


def test_timeline_widget_draws_over_a_figure_that_stays(runs):
    """The plotly figure is drawn once; a frame moves only the overlay, which draws the same
    path so far and markers as a plain figure at that iteration."""
    view = KuhnEquilibriumView(runs, labels=["A", "B", "C"])
    figure = view.figure.to_json()
    for iteration in (1, 7, 100, ITERATIONS):
        view.show_iteration(iteration)
        assert view.figure.to_json() == figure
        plain = kuhn_equilibrium_figure(runs, iteration=view.iteration)  # the nearest stop
        for k in range(len(runs)):
            base, first = SEGMENT_TRACES + TRACES_PER_RUN * k, 5 * k
            for panel in (0, 1):
                line, now = plain.data[base + 3 * panel: base + 3 * panel + 2]
                path = drawn(view, first + 2 * panel)
                # The same path (the overlay's through more of the records between).
                assert path[0] == pytest.approx([line.x[0], line.y[0]], abs=1e-6)
                assert path[-1] == pytest.approx([line.x[-1], line.y[-1]], abs=1e-6)
                assert len(path) >= len(line.x)
                assert drawn(view, first + 2 * panel + 1).tolist() == [
                    pytest.approx([now.x[0], now.y[0]], abs=1e-6)]
            alpha_now = plain.data[base + 7]
            assert drawn(view, first + 4)[-1] == pytest.approx([alpha_now.x[0], alpha_now.y[0]],
                                                               abs=1e-6)
            title = view.marks.marks[first + 1]["titles"][int(view.marks.at[first + 1][1])]
            assert title == f"{'ABC'[k]}\n" + alpha_now.text[0].replace("<br>", "\n")
    # In the widget, plotly keeps the runs' styles and legend entries but draws no path.
    base = SEGMENT_TRACES
    assert np.isnan(np.asarray(view.figure.data[base].x, dtype=float)).all()
    assert view.figure.data[base + 2].showlegend  # where the run lands, in the legend
    assert view.marks.marks[0]["line"] == view.figure.data[base].line.to_plotly_json()
    assert view.marks.marks[0]["opacity"] == 0.4  # the way there, light
    assert view.marks.marks[5]["line"]["color"] == view.figure.data[
        SEGMENT_TRACES + TRACES_PER_RUN].line.color
    assert view.marks.marks[1]["marker"]["symbol"] == "circle"
    assert view.marks.marks[6]["marker"]["symbol"] == "square"


@pytest.mark.parametrize("panel_px", [150, 200, 300, 400])
def test_end_labels_stay_inside_their_panel(runs, panel_px):
    """Issue 29: the "α = 0" label hung below the bottom edge of the first panel and covered
    its tick labels ("0.25") in a 1000-px window. Each end label's box, estimated from its
    font (0.6 em a character, 1.3 em high), must lie within its square panel's axis ranges,
    whatever the panel's size in pixels: tick labels and axis titles are outside them."""
    fig = kuhn_equilibrium_figure(runs)
    labels = [a for a in fig.layout.annotations if a.text.startswith("α =")]
    assert len(labels) == 4
    for label in labels:
        axis = "xaxis" if label.xref == "x" else f"xaxis{label.xref[1:]}"
        low, high = fig.layout[axis].range
        per_px = (high - low) / panel_px  # square panels: the same scale on both axes
        size = label.font.size or fig.layout.font.size
        width, height = 0.6 * size * len(label.text), 1.3 * size
        left = label.x + label.xshift * per_px
        bottom = (label.y + label.yshift * per_px
                  - (height * per_px if label.yanchor == "top" else 0))
        box = (left, bottom, left + width * per_px, bottom + height * per_px)
        assert low <= box[0] and box[2] <= high, (label.text, label.xref, box)
        assert low <= box[1] and box[3] <= high, (label.text, label.yref, box)
