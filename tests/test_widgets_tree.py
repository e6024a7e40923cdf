"""The live tree: plotly keeps the skeleton, marks beneath it carry what a frame moves (their
drawing is checked in the browser, tests/test_browser.py)."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

import cfrviz
from cfrviz.views.tree import TreeView, edge_width
from cfrviz.widgets.overlay import NowMarks, labels, overlaid, rings, segments
from cfrviz.widgets.tree import LiveTree


@pytest.fixture(scope="module")
def strategy(kuhn):
    return cfrviz.solve(kuhn, "cfr", 30, checkpoints=[], progress=False).average_strategy[-1]


# --- the kinds' declarations ------------------------------------------------------------------

def test_segments_send_their_coordinates_once_and_check_them():
    mark = segments([(0, 1, 2, 3), (1.123456789, 0, 0, np.nan)],
                    styles=[dict(color="#111"), dict(color="#999", dash="dot")], opacity=0.5)
    assert mark["kind"] == "segments" and mark["opacity"] == 0.5
    assert mark["segments"] == [[0, 1, 2, 3], [1.12346, 0, 0, None]]  # JSON has no NaN
    assert mark["styles"][1] == {"color": "#999", "dash": "dot"}
    with pytest.raises(ValueError, match=r"\(x0, y0, x1, y1\) rows"):
        segments([(0, 1, 2)])


def test_labels_anchor_texts_on_either_side():
    mark = labels([(0, 0), (1, 2)], ends=[True, False], font=dict(size=11, color="#444"))
    assert mark["anchors"] == [[0, 0], [1, 2]] and mark["ends"] == [True, False]
    assert mark["paper"] is False and mark["offset"] == [0.0, 0.0]
    assert labels([(1, 1)])["ends"] == [False]
    with pytest.raises(ValueError, match="2 anchors, 1 ends"):
        labels([(0, 0), (1, 2)], ends=[True])
    with pytest.raises(ValueError, match=r"\(x, y\) pairs"):
        labels([(0, 0, 0)])


def test_states_are_sent_as_given_in_one_message_and_none_when_unchanged():
    marks = NowMarks({"edges": segments([(0, 0, 1, 1)], styles=[{}, {"dash": "dot"}]),
                      "labels": labels([(0, 0)]), "rings": rings(size=20)})
    assert marks.at == [None, None, None]
    sent = []
    marks.observe(lambda change: sent.append(change["new"]), names="at")
    marks.show([[0.5, 1]], ["b .33"], [[1.0, -2.0]])
    marks.show([[0.5, 1]], ["b .33"], [[1.0, -2.0]])
    assert sent == [[[[0.5, 1]], ["b .33"], [[1.0, -2.0]]]]
    with pytest.raises(ValueError, match="3 marks, 1 states"):
        marks.show(None)


def test_marks_can_lie_under_the_figure():
    import plotly.graph_objects as go

    under = overlaid(go.FigureWidget(), NowMarks(), under=True)
    assert "cfrviz-overlaid-under" in under._dom_classes
    assert "cfrviz-overlaid-under" not in overlaid(go.FigureWidget(), NowMarks())._dom_classes


# --- the live tree ----------------------------------------------------------------------------

def test_the_skeleton_draws_nothing_a_frame_moves(kuhn, strategy):
    view = TreeView(kuhn)
    tree = LiveTree(view)
    fig, t = tree.figure, view.traces
    assert fig.layout.paper_bgcolor == fig.layout.plot_bgcolor == "rgba(0,0,0,0)"
    assert "cfrviz-overlaid-under" in tree._dom_classes
    skeleton = fig.to_json()
    tree.update(strategy, best_response=1, selected_infoset="Kb")
    moving = ["edges", "best response", "selected"] + [f"width {b}" for b in range(11)]
    for name in moving:  # legend entries at most: one point that is not drawn
        assert all(x is None or x != x for x in fig.data[t[name]].x or ()), name
    assert fig.data[t["edge labels"]].mode == "markers"  # hover only; the texts are beneath
    assert fig.layout.annotations[1].text in ("", None)
    # Only the legend changed: a best response and a selection appeared.
    assert fig.to_json() != skeleton
    legend = {d.name for d in fig.data if d.showlegend is not False}
    assert {"best response of player 2", "selected: Kb", "edge width = probability"} <= legend
    # A selected set with no member drawn has no ring, and no legend entry either.
    deal = LiveTree(TreeView(cfrviz.load_game("leduc_poker"), subtree="KQ"))
    deal.update(selected_infoset=0)
    assert deal.marks.at[3] == [] and not deal.figure.data[deal.view.traces["selected"]].showlegend
    shown = fig.to_json()
    tree.update(strategy * 0.5 + 0.5 * cfrviz.Policy.uniform(kuhn).probabilities,
                best_response=1, selected_infoset="Kb")
    assert fig.to_json() == shown  # another strategy: the figure does not change at all


def test_a_frame_draws_widths_labels_ring_and_best_response(kuhn, strategy):
    view = TreeView(kuhn)
    tree = LiveTree(view)
    frame = tree.update(strategy, best_response=1, selected_infoset="Kb")
    best, edges, texts, centres, note = tree.marks.at
    p = strategy[view._edge_infoset, view._edge_action]
    assert frame.probability.tolist() == p.tolist()
    for w, q in zip(edges, p):
        if q < 0.05:  # under half a width step: dotted and thin (style 2), as never taken
            assert w == [pytest.approx(float(edge_width(0))), 2]
        else:
            assert w == pytest.approx(float(edge_width(q)), abs=0.005)
    assert texts == [f"{a} {q:.2f}".replace(" 0.", " .").replace(" 1.00", " 1")
                     .replace(" .00", " 0") for a, q in zip(view.edge_actions, p)]
    value = cfrviz.best_response(kuhn, cfrviz.Policy(kuhn, strategy), 1).value
    assert frame.value == pytest.approx(value, abs=1e-12)
    assert note == [f"best response of player 2 (green bands): value {value:+.4f}"]
    assert [w is not None for w in best] == frame.chosen.tolist() and any(frame.chosen)
    assert all(view._edge_player[frame.chosen] == 1)
    members = kuhn.infoset_members(kuhn.infoset_index("Kb"))
    assert centres == [[pytest.approx(view.x[m]), pytest.approx(view.y[m])] for m in members]


def test_one_message_per_frame_and_none_when_nothing_moves(kuhn, strategy):
    tree = LiveTree(TreeView(kuhn))
    sent = []
    tree.marks.observe(lambda change: sent.append(change["new"]), names="at")
    tree.update(strategy, selected_infoset=0)
    tree.update(strategy, selected_infoset=0)
    assert len(sent) == 1
    assert len(json.dumps(sent[0])) < 1500  # a few numbers and strings per edge


def test_without_a_strategy_plain_edges_and_action_labels(kuhn):
    view = TreeView(kuhn)
    tree = LiveTree(view)
    best, edges, texts, centres, note = tree.marks.at
    plain = view.traces["edges"]
    assert edges == [[tree.figure.data[plain].line.width, 1]] * len(view.decision_edges)
    assert texts == view.edge_actions and centres == [] and note == [None]
    assert best == [None] * len(view.decision_edges)
    with pytest.raises(ValueError, match="best_response needs a strategy"):
        tree.update(best_response=0)


def test_game_strings_are_sent_as_plain_text():
    """The marks show texts as they are (textContent), never as markup: no escaping needed,
    and nothing a game file says can become HTML."""
    from cfrviz.games.matrix import MatrixGame

    game = MatrixGame("m", [[1, -1], [-1, 1]], ("<b>x</b>", "y&z"), ("l", "r"))
    tree = LiveTree(TreeView(game))
    texts = tree.marks.at[2]
    assert "<b>x</b>" in texts and "y&z" in texts
    assert "&lt;b&gt;x&lt;/b&gt;" in tree.figure.data[tree.view.traces["edge labels"]].customdata[0]


def test_the_explorers_show_the_live_tree(kuhn):
    ex = cfrviz.explore(kuhn, iterations=20)
    assert ex.tree in ex.children and ex.tree_fig is ex.tree.figure
    br = cfrviz.BestResponseExplorer(kuhn)
    assert br.tree in br.children and br.fig is br.tree.figure
    assert br.tree.frame.value == pytest.approx(br.best_response_value, abs=1e-12)


def test_the_public_plot_tree_draws_a_widget_into_cfrvizs_figure_widget():
    """cfrviz.plot_tree(widget=True) gives cfrviz's FigureWidget (its front end starts at once
    and plotly's is sent once per kernel), drawn as the view draws it; without widget= a
    plain figure, as before."""
    from cfrviz.views.tree import plot_tree
    from cfrviz.widgets.figure_widget import FigureWidget

    game = cfrviz.load_game("kuhn_poker")
    fig = cfrviz.plot_tree(game, widget=True)
    assert isinstance(fig, FigureWidget)
    def drawn(figure):  # what is drawn: a widget's traces also carry a uid of their own
        plain = json.loads(figure.to_json())
        return [{k: v for k, v in t.items() if k != "uid"} for t in plain["data"]], plain["layout"]

    assert drawn(fig) == drawn(plot_tree(game, widget=True))
    assert type(cfrviz.plot_tree(game)) is go.Figure
