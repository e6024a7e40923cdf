"""The explorer driven programmatically, as a student's clicks would drive it."""

import numpy as np
import pytest

from cfrviz.views.matrix import simplex_figure, update_simplex
from cfrviz.widgets import RegretMatchingExplorer


@pytest.fixture(scope="module")
def explorer():
    return RegretMatchingExplorer(iterations=3000, seed=0)


def simplex_at(explorer, mark: int) -> np.ndarray:
    """Where the simplex's overlay mark ``mark`` is drawn: its points from first to last, as
    the overlay's (x = c - b, y = a)."""
    spec, (first, last) = explorer.simplex_marks.marks[mark], explorer.simplex_marks.at[mark]
    return np.column_stack([spec["x"], spec["y"]])[int(first):int(last) + 1]


def test_slider_moves_every_figure(explorer):
    explorer.slider.value = explorer.slider.max
    before = (simplex_at(explorer, 3), simplex_at(explorer, 0),
              explorer.history_marks.at[1][0], explorer.curve_marks.at[0][0],
              explorer.numbers.value)
    explorer.slider.value = 5
    after = (simplex_at(explorer, 3), simplex_at(explorer, 0),
             explorer.history_marks.at[1][0], explorer.curve_marks.at[0][0],
             explorer.numbers.value)
    index = explorer.frames[5]
    assert not np.array_equal(before[0], after[0])
    assert len(after[1]) < len(before[1])
    assert after[2] == explorer.trace.iterations[index] != before[2]
    assert after[3] == explorer.trace.iterations[index]
    # Both rows of the history get the line; the circle sits on the exploitability curve.
    assert explorer.history_marks.at[0][0] == after[2]
    assert explorer.curve_marks.at[0][1] == pytest.approx(explorer.trace.exploitability[index])
    # The marks are drawn over the charts, not inside them (no plotly redraw per frame).
    assert all(s.x0 != s.x1 for s in explorer.history.layout.shapes)  # only y = 0 is drawn
    assert len(explorer.curve.data) == 3
    assert after[4] != before[4]
    label = explorer.iteration_label.value
    assert f"iteration <b>{explorer.trace.iterations[index]:,}</b>" in label


def test_simplex_marks_draw_what_the_plain_figure_draws(explorer):
    """At any frame the overlay's paths and points are the plain figure's traces, and the
    plotly figure itself does not change (plotly redraws nothing per frame)."""
    explorer.slider.value = explorer.slider.max
    drawn = explorer.simplex.to_json()
    for frame in (0, 7, len(explorer.frames) // 2):
        explorer.slider.value = frame
        assert explorer.simplex.to_json() == drawn
        index = explorer.frames[frame]
        plain = simplex_figure(explorer.trace, explorer.equilibrium, explorer.frames)
        update_simplex(plain, explorer.trace, index, explorer.frames)
        for p in (0, 1):
            for i in range(4):  # path, trail, current point, average point
                trace = plain.data[5 * p + i]
                a, b, c = (np.asarray(getattr(trace, k), dtype=float) for k in "abc")
                expected = np.column_stack([c - b, a])
                assert simplex_at(explorer, 4 * p + i) == pytest.approx(expected, abs=1e-5)
    # The marks look like the traces they replace, which keep their legend entries.
    marks = explorer.simplex_marks.marks
    assert marks[0]["line"]["color"] == explorer.simplex.data[0].line.color
    assert marks[2]["marker"]["symbol"] == "circle" and marks[3]["marker"]["symbol"] == "diamond"
    assert [m["trace"] for m in marks] == [0, 1, 2, 3, 5, 6, 7, 8, 4, 9]
    assert "average strategy (path)" in [t.name for t in explorer.simplex.data if t.showlegend]
    assert marks[2]["titles"][0].startswith("current\nrock: ")


def test_scrubbing_never_resolves(explorer, monkeypatch):
    import cfrviz.widgets.matrix as module

    monkeypatch.setattr(module, "solve", lambda *_, **__: pytest.fail("solver re-run"))
    for value in (0, 10, explorer.slider.max):
        explorer.slider.value = value


def test_play_is_linked_to_slider(explorer):
    assert explorer.play.max == explorer.slider.max == len(explorer.frames) - 1


def test_show_iteration(explorer):
    explorer.show_iteration(1000)
    index = explorer.frames[explorer.slider.value]
    assert abs(explorer.trace.iterations[index] - 1000) <= 30


def test_payoff_editor_resolves_to_new_equilibrium():
    widget = RegretMatchingExplorer(iterations=2000, start=None)
    widget.preset.value = "scissors wins and loses 2"
    assert widget.payoffs()[2] == [-2.0, 2.0, 0.0]
    old = widget.trace
    widget.solve_button.click()
    assert widget.trace is not old and widget.last_error is None
    assert list(widget.simplex.data[4].c) == pytest.approx([0.2])
    assert widget.simplex_marks.marks[-1]["x"] == pytest.approx([0.2 - 0.4], abs=1e-3)  # c - b
    assert widget.trace.average_strategy[-1, 0, 2] == pytest.approx(0.2, abs=0.02)


def test_bad_payoff_shows_message_and_keeps_previous_run():
    widget = RegretMatchingExplorer(iterations=100)
    old = widget.trace
    widget.payoff_cells[1][2].value = float("nan")
    widget.solve_button.click()
    assert widget.trace is old
    assert "payoff cell [1][2] (P1 P vs P2 S) is nan" in widget.last_error
    assert widget.output.outputs[0]["text"].startswith("Could not solve")
    widget.payoff_cells[1][2].value = -1.0
    widget.solve()
    assert widget.last_error is None and widget.output.outputs == ()


def test_fixed_opponent_controls():
    widget = RegretMatchingExplorer(iterations=1000)
    assert widget.opponent_box.layout.display == "none"
    widget.mode.value = "fixed"
    assert widget.opponent_box.layout.display == ""
    widget.set_opponent([0, 0, 0])
    widget.solve()
    assert "positive weight" in widget.last_error
    widget.set_opponent([1, 0.5, 0.5])  # weights, normalised to 0.5 / 0.25 / 0.25
    widget.solve()
    assert widget.trace.params["opponent"] == [0.5, 0.25, 0.25]
    assert widget.trace.average_strategy[-1, 0, 1] > 0.95  # paper answers a rock habit


def test_controls_feed_the_solver():
    widget = RegretMatchingExplorer(iterations=200, update="sampled", seed=3)
    assert widget.trace.params["update"] == "sampled" and widget.trace.params["seed"] == 3
    widget.iterations.value = 500
    widget.history_player.value = 1
    widget.solve()
    assert widget.trace.iterations[-1] == 500
    assert "Player 2" in widget.history.layout.annotations[0].text


@pytest.mark.parametrize("kwargs, message", [
    (dict(iterations=0), r"iterations must be a whole number >= 1 and <= 200000; got 0"),
    (dict(update="often"), "update must be"),
    (dict(start="X"), "start must be"),
    (dict(opponent=[1, -1, 1]), "player 2's weight on P must be a finite number >= 0; got -1"),
])
def test_bad_constructor_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        RegretMatchingExplorer(**kwargs)


def test_typed_numbers_are_checked_on_solve_never_clamped():
    widget = RegretMatchingExplorer(iterations=50)
    first = widget.trace
    widget.iterations.value = 0
    widget.solve()
    assert widget.last_error == ("Could not solve: iterations must be a whole number >= 1 and "
                                 "<= 200000; got 0")
    assert widget.trace is first and widget.iterations.value == 0
    widget.iterations.value = 50
    widget.seed.value = -1
    widget.solve()
    assert "seed must be a whole number >= 0" in widget.last_error and "got -1" in widget.last_error
    widget.seed.value = 0
    widget.mode.value = "fixed"
    widget.opponent_fields[1].value = -2.0
    widget.solve()
    assert widget.last_error == ("Could not solve: player 2's weight on P must be a finite number "
                                 ">= 0; got -2.0")


def test_opponent_weights_beyond_the_sliders_are_kept():
    """Weights are normalised, so [2, 1, 1] means 1/2, 1/4, 1/4: never clamped to [1, 1, 1]."""
    widget = RegretMatchingExplorer(iterations=20, opponent=[2, 1, 1])
    assert widget.trace.params["opponent"] == [0.5, 0.25, 0.25]
    assert [s.value for s in widget.opponent_mix] == [1.0, 1.0, 1.0]  # the sliders rest at 1
    widget.opponent_fields[2].value = 5.0
    widget.solve()
    assert widget.trace.params["opponent"] == [0.25, 0.125, 0.625]
