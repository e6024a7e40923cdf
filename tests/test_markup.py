"""Strings from a shared game file reach widget HTML and plotly figures escaped, never as markup.

A hostile game file puts ``<script>``, ``<img onerror=...>`` and ``&`` into every
string it controls (name, description, information-set keys, action labels,
chance labels, node names and so histories); every widget and figure that shows
them is driven, and none may carry the game's markup raw.
"""

from __future__ import annotations

import doctest
import json

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go
import pytest

import cfrviz
from cfrviz.analysis.explain import infoset_snapshot, snapshot_html
from cfrviz.analysis.scaling import ScalingRow, ScalingTable, game_size
from cfrviz.core import markup
from cfrviz.core.markup import escape
from cfrviz.games.matrix import RPS_PAYOFFS, MatrixGame
from cfrviz.views import history_figure, plot_tree, simplex_figure
from cfrviz.views.compare import (
    comparison_figure,
    exploitation_figure,
    iteration_weights_figure,
    regret_estimates_figure,
)
from cfrviz.views.counterfactual import counterfactual_values_figure
from cfrviz.views.equilibrium import kuhn_equilibrium_figure
from cfrviz.views.sizes import game_sizes_figure, scaling_figure
from cfrviz.views.training import cost_curve_figure, set_history_figure
from cfrviz.widgets.best_response import BestResponseExplorer
from cfrviz.widgets.compare import ComparisonView
from cfrviz.widgets.discount import DiscountExplorer
from cfrviz.widgets.explorer import TrainingExplorer
from cfrviz.widgets.infoset import InfosetPicker
from cfrviz.widgets.matrix import numbers_table
from cfrviz.widgets.play import PlayTable

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
#: Plotly properties that hold identifiers or data, never shown as text.
NOT_RENDERED = {"meta", "legendgroup", "uid", "customdata"}


def _terminal(payoff):
    return {"type": "terminal", "payoffs": [payoff, -payoff]}


def _bet_faced(win):
    return {"type": "decision", "player": 2, "infoset": f"{SCRIPT}&b",
            "actions": {f"f{IMG}": _terminal(1), f"c{SCRIPT}": _terminal(2 * win)}}


def _holding(card, win):
    return {"type": "decision", "player": 1, "infoset": f"{card}{IMG}&",
            "actions": {f"c{SCRIPT}": _terminal(win), f"b{IMG}&": _bet_faced(win)}}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """High-low bluff (data/games/FORMAT.md) with hostile markup in every string."""
    spec = {"name": f"{SCRIPT}{IMG} & co", "description": f"{SCRIPT} {IMG} &",
            "root": {"type": "chance", "name": IMG,
                     "outcomes": {f"H{SCRIPT}": {"probability": "1/2",
                                                 "node": _holding("H", 1)},
                                  f"L&{IMG}": {"probability": "1/2",
                                               "node": _holding("L", -1)}}}}
    path = tmp_path_factory.mktemp("games") / "hostile.json"
    path.write_text(json.dumps(spec))
    tree = cfrviz.load_game("file", path=str(path))
    assert SCRIPT in tree.name and any(IMG in key for key in tree.infoset_keys)
    return tree


@pytest.fixture(scope="module")
def trace(game):
    return cfrviz.solve(game, "cfr", 30, progress=False)


# --- collecting what reaches markup ---------------------------------------------------------

def _strings(value, key=None):
    """Every string in a plotly JSON tree, skipping properties that are never rendered."""
    if key in NOT_RENDERED:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v, key)
    elif isinstance(value, np.ndarray) and value.dtype.kind in "OU":
        yield from _strings(value.tolist(), key)


def figure_text(fig) -> list[str]:
    return list(_strings(fig.to_plotly_json()))


def rendered(widget) -> list[str]:
    """The HTML values and figure texts inside ``widget`` (a widget or a figure)."""
    found, stack = [], [widget]
    while stack:
        w = stack.pop()
        if isinstance(w, (go.Figure, go.FigureWidget)):
            found += figure_text(w)
        elif isinstance(w, (W.HTML, W.HTMLMath)):
            found.append(w.value)
        stack.extend(getattr(w, "children", ()) or ())
    return found


def assert_safe(strings, shown: bool = True) -> None:
    """No raw markup from the game; escaped exactly once; and (``shown``) the escaped form is
    there, so the check is not passing on a surface that shows no game string at all."""
    text = "\n".join(strings)
    assert "<script" not in text.lower(), _around(text, "<script")
    assert "<img" not in text.lower(), _around(text, "<img")
    assert "&amp;lt;" not in text and "&amp;amp;" not in text, "escaped twice"
    if shown:
        assert "&lt;script&gt;" in text or "&lt;img src=x" in text


def _around(text: str, needle: str) -> str:
    at = text.lower().index(needle)
    return f"raw game markup reached the page: ...{text[max(0, at - 80):at + 60]}..."


# --- the helper ---------------------------------------------------------------------------

def test_escape_replaces_markup_characters_once():
    assert escape(SCRIPT) == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert escape("K&Q \"quoted\" 'single'") == "K&amp;Q &#34;quoted&#34; &#39;single&#39;"
    assert escape(3) == "3" and escape("Kb") == "Kb"
    assert doctest.testmod(markup).failed == 0


# --- widgets ------------------------------------------------------------------------------

def test_training_explorer(game):
    ex = TrainingExplorer(game, iterations=30)
    assert ex.last_error is None
    seen = rendered(ex)
    for info in range(game.num_infosets):
        ex.select(info)
        ex.slider.value = ex.slider.max // 2
        seen += rendered(ex)
    ex.which.value = "current"
    ex.axis.value = "nodes"
    seen += rendered(ex)
    assert ex.last_error is None
    assert_safe(seen)
    assert escape(game.infoset_keys[2]) in ex.panel.value  # the panel names the set
    assert escape(game.infoset_actions[2][1]) in ex.panel.value


def test_best_response_explorer(game):
    for player in (0, 1):
        ex = BestResponseExplorer(game, player=player)
        seen = rendered(ex)
        key = game.infoset_keys[int(np.flatnonzero(game.infoset_player == player)[0])]
        ex.set_strategy(key, [1.0, 0.0])
        seen += rendered(ex)
        assert ex.last_error is None
        assert_safe(seen)


def test_infoset_picker(game):
    box = InfosetPicker(game)
    seen = []
    for info in range(game.num_infosets):
        box.picker.value = info
        seen += rendered(box)
        assert escape(game.infoset_keys[info]) in box.caption.value
    assert box.last_error is None
    assert_safe(seen)


def test_play_table(game, trace):
    table = PlayTable(game, trace, seed=3)
    seen = rendered(table)
    for _ in range(8):
        table.deal()
        seen += rendered(table)
        while table.table.playing:
            table.action_buttons[-1].click()
            seen += rendered(table)
    assert table.last_error is None
    assert table.table.score().hands == 8
    assert_safe(seen)


def test_discount_and_comparison_widgets(game, trace):
    dcfr = DiscountExplorer(game, iterations=10)
    assert dcfr.last_error is None
    assert_safe(rendered(dcfr))  # the title names the game
    view = ComparisonView([trace], labels=[f"run {SCRIPT}"])
    view.axis.value = "iterations"
    assert view.last_error is None
    assert_safe(rendered(view))


# --- figures ------------------------------------------------------------------------------

def test_plot_tree(game, trace):
    policy = trace.average_policy()
    figures = [plot_tree(game), plot_tree(game, policy, best_response=1,
                                          selected_infoset=game.infoset_keys[1]),
               plot_tree(game, subtree=game.chance_labels[0][0]),       # "deal ..." title
               plot_tree(game, subtree=game.history[3]),               # "history ..." title
               plot_tree(game, depth=1)]                               # a cut note
    for fig in figures:
        assert_safe(figure_text(fig))
    fig = figures[2]
    assert escape(game.chance_labels[0][0]) in fig.layout.title.text
    assert escape(game.chance_labels[0][0]) in fig.layout.annotations[0].text


def test_training_figures(game, trace):
    for info in range(game.num_infosets):
        assert_safe(figure_text(set_history_figure(trace, info)))
    assert_safe(figure_text(cost_curve_figure(trace)), shown=False)
    for info in range(game.num_infosets):
        assert_safe(snapshot_html(infoset_snapshot(trace, 5, info)).split("\n"))


def test_comparison_and_bar_figures(game, trace):
    figures = [
        comparison_figure([trace]),                              # the title names the game
        comparison_figure([trace], labels=[f"cfr {IMG}"]),
        counterfactual_values_figure(game.infoset_actions[0], [0.1, -0.1]),
        regret_estimates_figure(game.infoset_keys, np.zeros(3), np.ones(3), np.ones(3), 10),
        exploitation_figure([SCRIPT, IMG], [0.1, 0.2], [0.3, 0.4], labels=(SCRIPT, IMG)),
        iteration_weights_figure({f"regrets {SCRIPT}": [1.0, 0.5]}),
    ]
    for fig in figures:
        assert_safe(figure_text(fig))


def test_size_figures(game):
    size = game_size(game)
    assert_safe(figure_text(game_sizes_figure([size])))
    table = ScalingTable(rows=(ScalingRow(size, 1e-5, 1024, 2048),), algorithm="cfr")
    assert_safe(figure_text(scaling_figure(table)))


def test_matrix_game_figures():
    labels = (f"R{SCRIPT}", f"P{IMG}", "S&")
    game = MatrixGame(f"rps {SCRIPT}", RPS_PAYOFFS, labels, labels)
    trace = cfrviz.solve(game, "regret_matching", 40)
    assert_safe(figure_text(simplex_figure(trace)))
    assert_safe(figure_text(history_figure(trace)))
    assert_safe([numbers_table(trace, 10)])


def test_kuhn_equilibrium_run_labels():
    trace = cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr", 20, progress=False)
    assert_safe(figure_text(kuhn_equilibrium_figure(trace, labels=[f"run {SCRIPT}"])))
