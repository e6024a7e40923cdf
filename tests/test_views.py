import numpy as np
import plotly.graph_objects as go
import pytest

import cfrviz
from cfrviz.views import (
    display_frames,
    exploitability_figure,
    history_figure,
    simplex_figure,
    update_exploitability,
    update_history,
    update_simplex,
)

VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


@pytest.fixture(scope="module")
def trace():
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    return cfrviz.solve(game, "regret_matching", 5000)


def test_display_frames_cover_start_and_end(trace):
    frames = display_frames(trace, max_frames=100)
    assert frames[0] == 0 and frames[-1] == len(trace) - 1
    assert len(frames) <= 102 and np.all(np.diff(frames) > 0)
    assert display_frames(trace, max_frames=10_000).tolist() == list(range(len(trace)))


def test_simplex_shows_equilibrium_and_current_record(trace):
    eq = cfrviz.matrix_equilibrium(VARIANT)
    fig = simplex_figure(trace, eq)
    assert len(fig.data) == 10 and all(isinstance(t, go.Scatterternary) for t in fig.data)
    star = fig.data[4]
    assert list(star.a) == pytest.approx([0.4]) and list(star.c) == pytest.approx([0.2])
    update_simplex(fig, trace, 99)
    avg_point = fig.data[3]
    assert avg_point.a[0] == pytest.approx(trace.average_strategy[99, 0, 0])
    assert avg_point.c[0] == pytest.approx(trace.average_strategy[99, 0, 2])
    # The average path ends at the current record; the current trail holds the latest ones.
    assert fig.data[0].a[-1] == pytest.approx(trace.average_strategy[99, 0, 0])
    assert fig.data[1].b[-1] == pytest.approx(trace.current_strategy[99, 0, 1])
    assert len(fig.data[1].a) == 40


def test_simplex_needs_three_actions():
    game = cfrviz.MatrixGame("pennies", [[1, -1], [-1, 1]], ("H", "T"), ("H", "T"))
    trace = cfrviz.solve(game, "regret_matching", 10)
    with pytest.raises(ValueError, match="three actions"):
        simplex_figure(trace)


def test_history_marker_moves(trace):
    fig = history_figure(trace, player=1)
    assert len(fig.data) == 9
    assert fig.data[0].y[-1] == pytest.approx(trace.cumulative_regret[-1, 1, 0])
    update_history(fig, trace, 10)
    markers = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert len(markers) == 2 and all(s.x0 == 11 for s in markers)


def test_exploitability_figure_reference_line_and_zero_values(trace):
    fig = exploitability_figure(trace)
    reference = np.array(fig.data[2].y)
    x = np.array(fig.data[2].x)
    assert np.allclose(reference * np.sqrt(x), reference[0] * np.sqrt(x[0]))
    update_exploitability(fig, trace, 0)
    assert fig.data[3].y[0] == pytest.approx(trace.exploitability[0])
    flat = cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "regret_matching", 20)
    fig = exploitability_figure(flat)
    assert "20 record(s) at exactly 0 not drawn" in fig.layout.title.text
