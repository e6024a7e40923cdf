"""The re-solve explorer, driven as a student would: select a public state, re-solve it each way,
and read numbers equal to cfrviz.solvers.subgame.resolve's; bad input is explained in the
widget, never raised."""

from __future__ import annotations

import numpy as np
import pytest
from plotly.callbacks import Points

import cfrviz
from cfrviz.games.public import public_tree, ranges
from cfrviz.solvers import subgame as sg
from cfrviz.views.public import SELECTED_TRACE, public_layout
from cfrviz.widgets import ResolveExplorer


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


@pytest.fixture(scope="module")
def leduc():
    return cfrviz.load_game("leduc_poker")


@pytest.fixture(scope="module")
def leduc_widget(leduc):
    return ResolveExplorer(leduc, iterations=300)


def _bars(widget):
    return [np.asarray(t.y, dtype=float) for t in widget.ranges_fig.data if t.type == "bar"]


def test_selecting_a_state_draws_both_ranges(leduc_widget, leduc):
    w = leduc_widget
    w.select("deal/r/c/K")
    assert w.last_error is None and w.selected.history == "deal/r/c/K"
    public = public_tree(leduc)
    expected = ranges(public, public.find("deal/r/c/K"), w.blueprint)
    p1, p2 = _bars(w)
    np.testing.assert_allclose(p1, expected.belief(0), atol=1e-12)
    np.testing.assert_allclose(p2, expected.belief(1), atol=1e-12)
    assert p1.sum() == pytest.approx(1.0) and not np.allclose(p1, p2)  # player 2 raised
    assert w.state_menu.value == public.find("deal/r/c/K").id
    x, y = public_layout(public)
    ring = w.tree_fig.data[SELECTED_TRACE]
    assert (ring.x[0], ring.y[0]) == (x[w.selected.id], y[w.selected.id])
    assert "deal/r/c/K" in w.ranges_fig.layout.title.text


def test_the_menu_and_a_click_select_too(leduc_widget, leduc):
    w = leduc_widget
    public = public_tree(leduc)
    w.state_menu.value = public.find("deal/c/r").id
    assert w.selected.history == "deal/c/r"
    trace = next(t for t in w.tree_fig.data if t.name == "player 1 acts")
    k = [public.states[i].history for i in trace.customdata].index("deal/c/c/J")
    w._on_click(trace, Points(point_inds=[k], xs=[trace.x[k]], ys=[trace.y[k]],
                              trace_name=trace.name, trace_index=1), None)
    assert w.selected.history == "deal/c/c/J" and w.last_error is None
    over = next(t for t in w.tree_fig.data if t.name == "game over")
    w._on_click(over, Points(point_inds=[0], xs=[over.x[0]], ys=[over.y[0]],
                             trace_name=over.name, trace_index=4), None)
    assert "terminal" in w.last_error and w.selected.history == "deal/c/c/J"


@pytest.mark.parametrize("game_name, state", [("kuhn_poker", "deal/p"),
                                              ("leduc_poker", "deal/r/c"),
                                              ("leduc_poker", "deal/c/c/Q/r")])
def test_each_method_gives_resolves_numbers(game_name, state):
    game = cfrviz.load_game(game_name)
    w = ResolveExplorer(game, blueprint_iterations=10, iterations=200, state=state)
    before = w.status.value
    for method in sg.METHODS:
        w.method.value = method
        got = w.resolve()
        assert w.last_error is None and got is not None
        ref = sg.resolve(game, w.blueprint, state, method, 200)
        assert got.exploitability == ref.exploitability
        assert got.blueprint_exploitability == ref.blueprint_exploitability
        assert got.bound == ref.bound and got.weights == ref.weights
        assert got.solve_exploitability == ref.solve_exploitability
        np.testing.assert_array_equal(got.policy.probabilities, ref.policy.probabilities)
        assert f"{ref.exploitability:.4f}" in w.status.value
        if method != "unsafe":
            assert f"{ref.blueprint_exploitability + ref.bound:.4f}" in w.status.value
        bars = next(t for t in w.resolve_fig.data if t.type == "bar")
        assert bars.y[-1] == pytest.approx(ref.exploitability)
        assert bars.y[0] == pytest.approx(ref.blueprint_exploitability)
    assert w.status.value != before and set(w.results) == set(sg.METHODS)


def test_the_steps_show_progress_and_end_in_the_resolution(leduc, leduc_widget):
    bp = leduc_widget.blueprint
    steps = []
    for step in sg.resolve_steps(leduc, bp, "deal/c/r", "resolve", 500, chunks=6):
        steps.append((step.gadget, step.done, step.total, step.resolution,
                      [list(c[1]) for c in step.curves]))
    done = [d for _, d, _, _, _ in steps]
    assert done == sorted(done) and done[-1] == steps[-1][2] == 2 * len(steps[-1][4][0])
    assert all(r is None for *_, r, _ in steps[:-1]) and steps[-1][3] is not None
    assert [g for g, *_ in steps[:-1]] == sorted(g for g, *_ in steps[:-1])
    assert steps[-1][4][0][-1] == 500 and steps[-1][4][0][0] == 1
    ref = sg.resolve(leduc, bp, "deal/c/r", "resolve", 500)
    assert steps[-1][3].exploitability == ref.exploitability


def test_the_figure_follows_the_run(leduc_widget):
    w = leduc_widget
    w.select("deal/c/r")
    w.method.value = "maxmargin"
    assert not [t for t in w.resolve_fig.data if t.type == "scatter" and t.x and t.xaxis == "x"]
    w.resolve()
    lines = [t for t in w.resolve_fig.data if t.type == "scatter" and t.xaxis == "x"]
    assert len(lines) == 2 and all(t.x[-1] == 300 for t in lines)
    assert w.progress.value == w.progress.max > 1
    assert all(t.y[-1] < t.y[0] for t in lines)  # the gadgets' CFR+ converges


def test_the_empty_subgame_panel_says_what_re_solve_will_show(leduc_widget):
    # Before the first re-solve at a state the left panel has no line: a placeholder says what
    # pressing Re-solve will draw there; the run replaces it, and a new state brings it back.
    from cfrviz.widgets.resolve import PLACEHOLDER

    def placeholder_shown():
        return any(a.text == PLACEHOLDER for a in w.resolve_fig.layout.annotations)

    w = leduc_widget
    w.select("deal/c/r")
    assert placeholder_shown() and "Re-solve" in PLACEHOLDER
    w.resolve()
    assert not placeholder_shown()
    w.select("deal/r/c")
    assert placeholder_shown()


def test_a_new_blueprint_clears_the_resolves(leduc_widget):
    w = leduc_widget
    w.select("deal/c")
    w.resolve()
    assert w.results
    w.blueprint_kind.value = "uniform"
    assert not w.results and w.blueprint_iterations.disabled
    uniform = w.blueprint_exploitability
    w.set_blueprint("cfr", 40)
    assert w.blueprint_exploitability < uniform and not w.blueprint_iterations.disabled
    assert "40 iterations" in w.status.value
    w.blueprint_iterations.value = 0
    assert "blueprint iterations" in w.last_error
    assert "40 iterations" in w.status.value  # the old blueprint is kept, and said to be


def test_bad_input_is_explained_in_the_widget(leduc, leduc_widget):
    w = leduc_widget
    w.select("deal/c/c/K/c/c")
    assert "terminal" in w.last_error and w.selected.history != "deal/c/c/K/c/c"
    w.select("")
    assert "before the private cards are dealt" in w.last_error
    w.select("deal/x")
    assert "no public state 'deal/x'" in w.last_error
    w.select(10_000)
    assert "public state ids are 0 .." in w.last_error
    w.iterations.value = -3
    assert w.resolve() is None and "subgame iterations" in w.last_error
    w.iterations.value = 300
    rps = ResolveExplorer(cfrviz.load_game("rock_paper_scissors"))
    assert "no public tree" in rps.last_error and rps.output in rps.children
    three = ResolveExplorer(cfrviz.load_game("kuhn_poker_3p"))
    assert "two-player" in three.last_error
    odd = ResolveExplorer(leduc, iterations=2.5, method="best", blueprint="cfr")
    text = "".join(o["text"] for o in odd.output.outputs)
    assert "unknown re-solving method 'best'" in text
    assert "subgame iterations" in text and "cfrviz.Policy" in text
    assert odd.resolve() is not None  # the defaults it fell back to work


def test_a_given_blueprint(kuhn):
    bp = cfrviz.solve(kuhn, "cfr", 7, checkpoints=[7]).average_policy()
    w = ResolveExplorer(kuhn, blueprint=bp, state="deal/b")
    assert w.blueprint is bp and w.blueprint_kind.value == "given"
    assert w.resolve().exploitability == sg.resolve(kuhn, bp, "deal/b", "resolve").exploitability


def test_the_widget_says_a_resolve_was_interrupted(kuhn, monkeypatch):
    """A Ctrl-C (kernel interrupt) during Re-solve: the partial result is shown as partial."""
    bp = cfrviz.solve(kuhn, "cfr", 7, checkpoints=[7]).average_policy()
    w = ResolveExplorer(kuhn, blueprint=bp, state="deal/b", iterations=100)
    real, calls = sg._advance, []

    def third_interrupted(*args, **kwargs):  # the 3rd chunk's run: as a Ctrl-C raised by code
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(sg, "_advance", third_interrupted)
    try:
        with pytest.warns(RuntimeWarning, match="partial"):
            r = w.resolve()
    except KeyboardInterrupt:  # would stop the whole pytest session
        pytest.fail("the Ctrl-C escaped the widget's re-solve")
    from cfrviz.widgets.resolve import CHUNKS

    assert r is w.resolution and r.interrupted
    assert r.iterations == (sg._chunk_marks(100, CHUNKS)[1],)  # two chunks of gadget 1
    assert "Interrupted" in w.last_error and "partial" in w.last_error
    assert "interrupted: partial" in w.status.value
