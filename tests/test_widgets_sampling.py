"""The sampled-paths view: which edges one iteration's walk went down, driven programmatically."""

import numpy as np
import pytest

from cfrviz.analysis.sampling import sampled_walks
from cfrviz.core.tree import TERMINAL
from cfrviz.widgets.panel import Panel
from cfrviz.widgets.sampling import SampledPaths, sampled_paths


def segments(view, name):
    """The (parent, child) node pairs of the edges drawn by one overlay trace."""
    trace = view.fig.data[view.traces[name]]
    x = np.asarray(trace.x, dtype=float).reshape(-1, 3)[:, :2]
    y = np.asarray(trace.y, dtype=float).reshape(-1, 3)[:, :2]
    tree, tv = view.game, view.view
    found = set()
    for (x0, x1), (y0, y1) in zip(x, y):
        child = tv.node_at((x1, y1))
        parent = tv.node_at((x0, y0))
        assert child is not None and parent == tree.parent[child]
        found.add((parent, child))
    return found


def expected_segments(tree, walk):
    children = [int(n) for n in walk.nodes if n != 0]
    walked = {(int(tree.parent[c]), c) for c in children if int(tree.parent[c]) not in walk.drawn}
    drawn = {(int(tree.parent[c]), c) for c in children if int(tree.parent[c]) in walk.drawn}
    return walked, drawn


@pytest.mark.parametrize("algorithm", ["cfr", "chance_sampling", "external_sampling",
                                       "outcome_sampling"])
def test_the_figure_draws_the_walk(kuhn, algorithm):
    view = SampledPaths(kuhn, algorithm, iterations=5, seed=3)
    assert isinstance(view, Panel) and view.last_error is None
    walks = sampled_walks(kuhn, algorithm, 5, seed=3)
    for t in range(1, 6):
        for player in (0, 1):
            view.slider.value = t
            view.player.value = player
            walk = walks[t - 1][player]
            assert view.walk.nodes.tolist() == walk.nodes.tolist()
            walked, drawn = expected_segments(kuhn, walk)
            assert segments(view, "walked") == walked
            assert segments(view, "drawn") == drawn
            ring = view.fig.data[view.traces["entered"]]
            assert len(ring.x) == len(walk.nodes)
            # Rings around inner nodes; an entered payoff is filled, never covered by a ring.
            leaf = kuhn.player[walk.nodes] == TERMINAL
            assert [sym == "triangle-down" for sym in ring.marker.symbol] == leaf.tolist()
            assert all(sym == "circle-open" for sym, lf in zip(ring.marker.symbol, leaf)
                       if not lf)
            pair = walks[t - 1]
            total = len(pair[0].nodes) + len(pair[1].nodes)
            assert f"{total} nodes touched" in view.summary.value
            assert f"entered <b>{len(walk.nodes)}</b> of {kuhn.num_nodes}" in view.summary.value
    if algorithm == "cfr":
        assert not drawn and len(walked) == kuhn.num_nodes - 1
    else:
        assert drawn


def test_next_steps_and_wraps_around(kuhn):
    view = sampled_paths(kuhn, iterations=3)
    seen = []
    for _ in range(4):
        seen.append((view.slider.value, view.fig.data[view.traces["drawn"]].x))
        view.next_button.click()
    assert [t for t, _ in seen] == [1, 2, 3, 1]
    assert view.last_error is None


def test_controls_change_the_figure(kuhn):
    view = SampledPaths(kuhn, "external_sampling", iterations=10)

    def state():
        return tuple(tuple(np.nan_to_num(np.asarray(view.fig.data[view.traces[n]].x,
                                                    dtype=float)))
                     for n in ("walked", "drawn", "entered"))

    before = state()
    view.algorithm.value = "outcome_sampling"
    after_algorithm = state()
    assert after_algorithm != before
    assert "outcome sampling" in view.summary.value
    view.player.value = 1
    assert "player 2's walk" in view.summary.value
    # Another seed draws other walks somewhere in the ten iterations.
    drawn_before = [w.drawn for pair in view.walks for w in pair]
    view.seed.value = 12
    assert [w.drawn for pair in view.walks for w in pair] != drawn_before
    assert view.last_error is None
    # Hover text names what was drawn.
    hover = view.fig.data[view.traces["entered"]].hovertext
    assert any("drew" in text and "probability" in text for text in hover)


def test_the_walks_are_computed_once_per_algorithm_and_seed(kuhn, monkeypatch):
    from cfrviz.widgets import sampling

    calls = []
    real = sampling.sampled_walks
    monkeypatch.setattr(sampling, "sampled_walks",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    view = SampledPaths(kuhn, "chance_sampling", iterations=4)
    for t in (2, 3, 4, 1):
        view.slider.value = t
    view.player.value = 1
    assert len(calls) == 1
    view.algorithm.value = "external_sampling"
    view.algorithm.value = "chance_sampling"
    assert len(calls) == 2


def test_a_failing_redraw_is_reported(kuhn, monkeypatch):
    view = SampledPaths(kuhn, iterations=3)
    monkeypatch.setattr(SampledPaths, "_summary", lambda *_: 1 / 0)
    view.slider.value = 2
    assert view.last_error is not None and "ZeroDivisionError" in view.last_error


@pytest.mark.parametrize("kwargs, match", [
    (dict(algorithm="cfr+"), "algorithm must be one of"),
    (dict(iterations=0), "iterations"),
    (dict(iterations=2.5), "iterations"),
    (dict(seed=-1), "seed"),
    (dict(seed=True), "seed"),
])
def test_bad_arguments(kuhn, kwargs, match):
    with pytest.raises(ValueError, match=match):
        SampledPaths(kuhn, **kwargs)
