"""The sampled-paths view: which edges one iteration's walk went down, driven programmatically."""

import numpy as np
import pytest

from cfrviz.analysis.sampling import sampled_walks
from cfrviz.core.tree import TERMINAL
from cfrviz.widgets.panel import Panel
from cfrviz.widgets.sampling import SampledPaths, sampled_paths


def segments(view, name):
    """The (parent, child) node pairs of the edges drawn by one overlay trace: each piece of a
    line lies on one edge (an edge is drawn in pieces where it passes a label)."""
    trace = view.fig.data[view.traces[name]]
    x = np.asarray(trace.x, dtype=float).reshape(-1, 3)[:, :2]
    y = np.asarray(trace.y, dtype=float).reshape(-1, 3)[:, :2]
    tree, tv = view.game, view.view
    children = tv.nodes[tv.nodes != 0]
    px, py = tv.x[tree.parent[children]], tv.y[tree.parent[children]]
    cx, cy = tv.x[children], tv.y[children]
    found = set()
    for (x0, x1), (y0, y1) in zip(x, y):
        # the edge both ends of the piece lie on, between its parent and its child
        on = np.ones(len(children), dtype=bool)
        for qx, qy in ((x0, y0), (x1, y1)):
            cross = (cx - px) * (qy - py) - (cy - py) * (qx - px)
            t = ((qx - px) * (cx - px) + (qy - py) * (cy - py)) / ((cx - px) ** 2
                                                                  + (cy - py) ** 2)
            on &= (np.abs(cross) < 1e-9) & (t > -1e-9) & (t < 1 + 1e-9)
        assert on.sum() == 1, ((x0, y0), (x1, y1))
        child = int(children[on][0])
        found.add((int(tree.parent[child]), child))
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


def label_clashes(view, width):
    """The marks of ``view`` (walked and drawn edges, rings, filled payoffs) that come over a
    label of the tree (a chance outcome, an action, a set's key, a payoff) when the figure is
    drawn ``width`` pixels wide: boxes from cfrviz.views.tree.overlaps, as the tree layout's
    own tests measure them (0.5 px of slack)."""
    from cfrviz.views.tree.overlaps import SYMBOL_EXTENT, Page, figure_boxes

    fig = view.fig
    page = Page(fig, width)
    labels = [b for b in figure_boxes(view.view, fig, width, probabilities=False)
              if b.kind != "marker"]
    box = np.array([(b.x0, b.y0, b.x1, b.y1) for b in labels])
    clashes = []
    t = np.linspace(0, 1, 200)[:, None]
    for name in ("walked", "drawn"):
        trace = fig.data[view.traces[name]]
        half = float(trace.line.width) / 2
        x = np.asarray(trace.x, dtype=float).reshape(-1, 3)[:, :2]
        y = np.asarray(trace.y, dtype=float).reshape(-1, 3)[:, :2]
        for (x0, x1), (y0, y1) in zip(x, y):
            qx = page.x(x0) + t * (page.x(x1) - page.x(x0))  # 200 points along the piece
            qy = page.y(y0) + t * (page.y(y1) - page.y(y0))
            gap = np.hypot(np.maximum(np.maximum(box[:, 0] - qx, qx - box[:, 2]), 0),
                           np.maximum(np.maximum(box[:, 1] - qy, qy - box[:, 3]), 0))
            clashes += [f"{name} edge over {labels[k]}"
                        for k in np.flatnonzero(gap.min(axis=0) < half - 0.5)]
    ring = fig.data[view.traces["entered"]]
    n = len(ring.x)
    sizes = np.broadcast_to(np.asarray(ring.marker.size, dtype=float), (n,))
    lines = np.broadcast_to(np.asarray(ring.marker.line.width, dtype=float), (n,))
    for mx, my, size, line, symbol in zip(page.x(ring.x), page.y(ring.y), sizes, lines,
                                          ring.marker.symbol):
        r = size / 2
        for b in labels:
            if symbol == "circle-open":  # the ring's outline, not the box around it
                gap = np.hypot(max(b.x0 - mx, mx - b.x1, 0), max(b.y0 - my, my - b.y1, 0))
                bad = gap < r + line / 2 - 0.5
            else:
                sx, up, down = SYMBOL_EXTENT[symbol]
                bad = (min(mx + sx * r, b.x1) - max(mx - sx * r, b.x0) > 0.5
                       and min(my + down * r, b.y1) - max(my - up * r, b.y0) > 0.5)
            if bad:
                clashes.append(f"{symbol} at ({mx:.0f}, {my:.0f}) over {b}")
    return clashes


@pytest.mark.parametrize("presenter, widths", [(False, (848, 1280, 1920)),
                                               (True, (1280, 1920))])
@pytest.mark.parametrize("algorithm", ["cfr", "chance_sampling", "external_sampling",
                                       "outcome_sampling"])
def test_no_mark_covers_a_label(kuhn, algorithm, presenter, widths):
    """Issue 29: the drawn marks printed over the "KJ 1/6" label. Edges are drawn in pieces
    around the labels, rings no larger than the labels allow; at 848 px (JupyterLab in a
    1280-pixel window) and wider, and at a projector's widths in presenter mode."""
    view = SampledPaths(kuhn, algorithm, iterations=4, seed=0, presenter=presenter)
    for t in range(1, 5):
        for player in (0, 1):
            view.slider.value, view.player.value = t, player
            for width in widths:
                assert label_clashes(view, width) == [], (t, player, width)
    ring = view.fig.data[view.traces["entered"]]
    leaf = np.array([s == "triangle-down" for s in ring.marker.symbol])
    # a ring stays a ring: wider than the node marker it surrounds
    assert np.all(np.asarray(ring.marker.size)[~leaf] > view.style.marker_size)
