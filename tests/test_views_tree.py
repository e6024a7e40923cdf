"""Tree figures, checked from the figure's data: nodes, information sets, strategies, selection."""

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.callbacks import Points

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL
from cfrviz.views import TreeView, plot_tree, presenting, set_presenter, tree_graph
from cfrviz.views.style import presenter_mode
from cfrviz.views.tree import WIDTH_STEPS, edge_width, fraction_label, tidy_layout
from cfrviz.widgets.figure_widget import FigureWidget

# Player 1's equilibrium family at alpha = 1/3 (bet J with 1/3, K always; call with Q 2/3).
KUHN_EQ = {"J": {"p": 2 / 3, "b": 1 / 3}, "Q": {"p": 1}, "K": {"b": 1},
           "Jpb": {"p": 1}, "Qpb": {"p": 1 / 3, "b": 2 / 3}, "Kpb": {"b": 1},
           "Jp": {"p": 2 / 3, "b": 1 / 3}, "Qp": {"p": 1}, "Kp": {"b": 1},
           "Jb": {"p": 1}, "Qb": {"p": 2 / 3, "b": 1 / 3}, "Kb": {"b": 1}}


@pytest.fixture(scope="module")
def kuhn_view(kuhn):
    return TreeView(kuhn, presenter=False)


def node_traces(fig):
    return [t for t in fig.data if t.customdata is not None
            and t.name.split(" (")[0] in ("player 1", "player 2", "chance", "terminal")]


def group_traces(fig):
    return [t for t in fig.data if isinstance(t.meta, dict) and "infosets" in t.meta]


def groups_by_infoset(fig):
    """{information-set id: (key, members, trace)} over the group traces."""
    return {info: (key, members, t) for t in group_traces(fig)
            for info, key, members in zip(t.meta["infosets"], t.meta["keys"],
                                          t.meta["members"])}


def f32(value):
    """A coordinate as the figure holds it after an update (float32, see tree._EMPTY)."""
    return float(np.float32(value))


def drawn_nodes(fig):
    return sorted(int(row[0]) for t in node_traces(fig) for row in t.customdata)


def segment_widths(view, fig):
    """{child node: drawn width} of every decision edge, read back from the width traces."""
    widths = {}
    by_segment = {}
    for b in range(WIDTH_STEPS + 1):
        trace = fig.data[view.traces[f"width {b}"]]
        xs, ys = np.asarray(trace.x, float), np.asarray(trace.y, float)
        for k in range(0, len(xs), 3):
            by_segment[(xs[k], ys[k], xs[k + 1], ys[k + 1])] = trace.line.width
    tree = view.tree
    for c in view.decision_edges.tolist():
        p = tree.parent[c]
        widths[c] = by_segment[(f32(view.x[p]), f32(view.y[p]), f32(view.x[c]), f32(view.y[c]))]
    return widths


# --- the whole Kuhn tree ---------------------------------------------------------------------

def test_kuhn_draws_every_node_once_by_role(kuhn):
    fig = plot_tree(kuhn, presenter=False)
    assert isinstance(fig, go.Figure) and not isinstance(fig, go.FigureWidget)
    assert drawn_nodes(fig) == list(range(kuhn.num_nodes))
    roles = {t.name.split(" (")[0]: t for t in node_traces(fig)}
    for role, code in (("player 1", 0), ("player 2", 1), ("chance", CHANCE),
                       ("terminal", TERMINAL)):
        assert len(roles[role].x) == int(np.sum(kuhn.player == code))
    # Shapes, not colour alone.
    symbols = {r: t.marker.symbol for r, t in roles.items()}
    assert len(set(symbols.values())) == 4
    # Terminal payoffs as text (player 1's); the first terminal JQ:pp pays -1.
    terminal = roles["terminal"]
    first = list(terminal.customdata[:, 0]).index(kuhn.history.index("JQ:pp"))
    assert terminal.text[first] == "-1"


def test_one_group_per_information_set_with_its_members(kuhn):
    fig = plot_tree(kuhn)
    groups = groups_by_infoset(fig)
    assert sorted(groups) == list(range(kuhn.num_infosets))
    for info, (key, members, trace) in groups.items():
        assert key == kuhn.infoset_keys[info]
        assert sorted(members) == kuhn.infoset_members(info).tolist()
        # In its player's colour, one trace per player and kind (bands, connectors).
        assert trace.name == f"information sets of player {kuhn.infoset_player[info] + 1}"
    assert len(group_traces(fig)) <= 4
    keys = next(t for t in fig.data if t.name == "information-set keys")
    assert sorted(keys.text) == sorted(kuhn.infoset_keys)
    # Hovering a key lists the set's members.
    qb = list(keys.text).index("Qb")
    assert "<b>Qb</b>" in keys.hovertext[qb] and "JQ:b" in keys.hovertext[qb]
    assert any(t.name.startswith("information set") and t.showlegend is not False
               for t in fig.data)


def test_hover_shows_history_set_and_other_members(kuhn_view, kuhn):
    node = kuhn.history.index("JQ:p")  # player 2 holds Q after a pass
    text = kuhn_view._node_hover(node)
    assert "JQ:p" in text and "<b>Qp</b>" in text and "KQ:p" in text


def test_chance_edges_show_exact_fractions(kuhn):
    fig = plot_tree(kuhn)
    labels = next(t for t in fig.data if t.hovertext and "chance deals" in t.hovertext[0]).text
    assert sorted(labels) == sorted(f"{d} 1/6" for d in kuhn.chance_labels[0])
    assert fraction_label(2 / 15) == "2/15" and fraction_label(1.0) == "1"
    assert fraction_label(0.123456789) == "0.123"


def test_edge_widths_and_labels_follow_the_policy(kuhn_view, kuhn):
    policy = cfrviz.Policy.from_dict(kuhn, KUHN_EQ)
    fig = kuhn_view.figure(policy)
    widths = segment_widths(kuhn_view, fig)
    probs = policy.probabilities
    for c, width in widths.items():
        p = probs[kuhn.infoset[kuhn.parent[c]], kuhn.action[c]]
        assert width == pytest.approx(float(edge_width(round(p * WIDTH_STEPS) / WIDTH_STEPS,
                                                       kuhn_view.style)))
        assert abs(width - (2 + 5 * p)) <= 5 / (2 * WIDTH_STEPS) + 1e-9
    bet_j = kuhn.history.index("JQ:b")
    assert widths[bet_j] < widths[kuhn.history.index("JQ:p")]
    labels = dict(zip(kuhn_view.decision_edges.tolist(),
                      fig.data[kuhn_view.traces["edge labels"]].text))
    assert labels[bet_j] == "b .33" and labels[kuhn.history.index("KQ:b")] == "b 1"


def test_layout_is_tidy(kuhn_view, kuhn):
    x, y = kuhn_view.x, kuhn_view.y
    for level in np.unique(y[kuhn_view.nodes]):
        xs = np.sort(x[kuhn_view.nodes][y[kuhn_view.nodes] == level])
        assert np.min(np.diff(xs)) >= 1 - 1e-9 if len(xs) > 1 else True
    for n in kuhn_view.nodes.tolist():
        kids = kuhn.children[n]
        if len(kids):
            assert np.all(np.diff(x[kids]) > 0)                     # action order
            assert x[n] == pytest.approx((x[kids[0]] + x[kids[-1]]) / 2)  # centred
            assert np.all(y[kids] < y[n])
    # The plain layout function agrees on x.
    assert np.allclose(tidy_layout(kuhn)[0], x)


def test_tree_graph_shares_node_ids(kuhn):
    graph = tree_graph(kuhn)
    assert graph.number_of_nodes() == kuhn.num_nodes
    assert graph.number_of_edges() == kuhn.num_nodes - 1
    deal = kuhn.history.index("KQ:")
    assert graph.edges[0, deal]["label"] == "KQ"
    assert graph.edges[0, deal]["probability"] == pytest.approx(1 / 6)
    assert graph.nodes[deal]["infoset_key"] == "K" and graph.nodes[deal]["player"] == 0
    assert graph.edges[deal, kuhn.children[deal][1]]["label"] == "b"


# --- best response, selection and in-place updates -------------------------------------------

def test_best_response_highlights_the_best_actions(kuhn_view, kuhn):
    policy = cfrviz.Policy.from_dict(kuhn, {"J": {"b": 1}})  # player 1 always bluffs with J
    fig = kuhn_view.figure(policy, best_response={"player": 1})
    br = cfrviz.best_response(kuhn, policy, 1)
    trace = fig.data[kuhn_view.traces["best response"]]
    xs, ys = np.asarray(trace.x, float), np.asarray(trace.y, float)
    lit = {(xs[k + 1], ys[k + 1]) for k in range(0, len(xs), 3)}
    expected = set()
    for c in kuhn_view.decision_edges.tolist():
        p = kuhn.parent[c]
        if kuhn.player[p] == 1 and br.policy.probabilities[kuhn.infoset[p], kuhn.action[c]] == 1:
            expected.add((f32(kuhn_view.x[c]), f32(kuhn_view.y[c])))
    assert lit == expected and len(lit) == 12
    assert trace.line.width > edge_width(1.0, kuhn_view.style)
    assert f"{br.value:+.4f}" in fig.layout.annotations[1].text


def test_a_widget_given_is_drawn_into(kuhn_view):
    """cfrviz's widgets give their FigureWidget (the views do not import widgets); True makes
    plotly's; a figure that holds traces already is refused."""
    given = FigureWidget()
    assert kuhn_view.figure(widget=given) is given and len(given.data) == len(kuhn_view.traces)
    plotlys = kuhn_view.figure(widget=True)
    assert isinstance(plotlys, go.FigureWidget) and not isinstance(plotlys, FigureWidget)
    with pytest.raises(ValueError, match="empty FigureWidget"):
        kuhn_view.figure(widget=given)
    with pytest.raises(ValueError, match="widget"):
        kuhn_view.figure(widget="yes")


def test_update_in_place_keeps_the_figure(kuhn_view, kuhn):
    fig = kuhn_view.figure(cfrviz.Policy.uniform(kuhn), widget=True)
    assert isinstance(fig, go.FigureWidget)
    traces = [id(t) for t in fig.data]
    bet_j = kuhn.history.index("JQ:b")
    before = segment_widths(kuhn_view, fig)[bet_j]
    kuhn_view.update(fig, cfrviz.Policy.from_dict(kuhn, KUHN_EQ).probabilities,
                     best_response=0, selected_infoset="Qb")
    assert [id(t) for t in fig.data] == traces
    after = segment_widths(kuhn_view, fig)[bet_j]
    assert before == pytest.approx(float(edge_width(0.5))) and after < before
    ring = fig.data[kuhn_view.traces["selected"]]
    members = kuhn.infoset_members(kuhn.infoset_index("Qb"))
    assert np.allclose(sorted(zip(ring.x, ring.y)),
                       sorted(zip(kuhn_view.x[members], kuhn_view.y[members])), atol=1e-5)
    assert "player 1" in fig.layout.annotations[1].text
    kuhn_view.update(fig)  # back to plain edges, no highlight
    assert len(fig.data[kuhn_view.traces["selected"]].x) == 0
    assert fig.layout.annotations[1].text == ""


def test_click_mapping(kuhn_view, kuhn):
    fig = kuhn_view.figure(widget=True)
    p2 = fig.data[kuhn_view.traces["player 2"]]
    node, infoset = kuhn_view.clicked(p2, Points(point_inds=[3], xs=[], ys=[]))[0]
    assert kuhn.player[node] == 1 and kuhn.infoset[node] == infoset
    assert kuhn_view.node_at((kuhn_view.x[node] + 0.1, kuhn_view.y[node])) == node
    assert kuhn_view.node_at((-50.0, 0.0)) is None
    seen = []
    kuhn_view.on_node_click(fig, lambda n, i: seen.append((n, i)))
    assert all(fig.data[kuhn_view.traces[r]]._click_callbacks for r in ("player 1", "terminal"))


# --- large games: subtrees and depth ---------------------------------------------------------

def test_kuhn_deal_and_depth_selection(kuhn):
    view = TreeView(kuhn, subtree="KQ")
    deal = kuhn.history.index("KQ:")
    assert view.nodes.tolist() == [0] + list(range(deal, deal + 9))
    assert view.notes == ("showing deal KQ; 5 of 6 deals hidden",)
    fig = view.figure()
    assert drawn_nodes(fig) == view.nodes.tolist()
    assert "showing deal KQ; 5 of 6 deals hidden" in fig.layout.annotations[0].text

    cut = TreeView(kuhn, depth=2)
    assert len(cut.nodes) == 1 + 6 + 12
    assert cut.notes[0].startswith("cut at depth 2: 36 nodes not drawn")
    assert len(cut.selection.cut) == 12

    node = TreeView(kuhn, subtree=kuhn.history.index("KQ:p"))
    assert len(node.nodes) == 2 + 5  # the path (root, KQ:), then KQ:p and its subtree
    assert "node" in node.notes[0] and "'KQ:p'" in node.notes[0]
    both = TreeView(kuhn, subtree="K")   # every deal in which player 1 holds K
    assert len(both.nodes) == 1 + 2 * 9 and "deals KJ, KQ" in both.notes[0]


def test_leduc_is_drawn_for_one_deal_by_default(leduc):
    view = TreeView(leduc)
    first = int(leduc.children[0][0])
    assert "showing the first deal JQ" in view.notes[0]
    assert view.selection.tops == (first,)
    assert len(view.nodes) <= 300

    qk = TreeView(leduc, subtree="QK", depth=4)
    assert qk.notes[0] == "showing deal QK; 8 of 9 deals hidden"
    assert qk.notes[1].startswith("cut at depth 4 below deal QK: ")
    deal = int(leduc.children[0][leduc.chance_labels[0].index("QK")])
    depth = leduc.depth[qk.nodes]
    assert depth.max() == leduc.depth[deal] + 4
    hidden = int(qk.notes[1].split(": ")[1].split(" ")[0].replace(",", ""))
    below = np.sum(np.isin(np.arange(leduc.num_nodes), qk.nodes) == False)  # noqa: E712
    assert hidden == below - (leduc.num_nodes - 1 - 240)  # the cut part of the deal's 240

    queens = TreeView(leduc, subtree="Q", depth=2)
    assert queens.notes[0] == "showing deals QJ, QK, QQ; 6 of 9 deals hidden"
    # Player 1's opening set holds one node per deal: grouped across the three deals.
    opening = leduc.infoset_index("Q:")
    assert sorted(queens.groups[opening].tolist()) == sorted(
        int(leduc.children[0][leduc.chance_labels[0].index(d)]) for d in ("QJ", "QK", "QQ"))


def test_layout_has_no_overlaps_in_a_leduc_deal(leduc):
    view = TreeView(leduc, subtree="KK")
    for level in np.unique(view.y[view.nodes]):
        xs = np.sort(view.x[view.nodes][view.y[view.nodes] == level])
        if len(xs) > 1:
            assert np.min(np.diff(xs)) > 0.99


def test_rps_tree_groups_player_two():
    game = cfrviz.load_game("rock_paper_scissors")
    fig = plot_tree(game, cfrviz.Policy.uniform(game))
    groups = groups_by_infoset(fig)
    assert list(groups) == [1] and groups[1][0] == "P2"
    assert sorted(groups[1][1]) == game.tree.infoset_members(1).tolist()
    assert len(groups[1][1]) == 3
    assert drawn_nodes(fig) == list(range(game.tree.num_nodes))


# --- errors and presenter mode ----------------------------------------------------------------

def test_errors_speak_to_the_user(kuhn, leduc):
    with pytest.raises(ValueError, match="no deal or node 'XY'.*'JQ', 'JK'"):
        plot_tree(kuhn, subtree="XY")
    with pytest.raises(ValueError, match="has nodes 0..54"):
        plot_tree(kuhn, subtree=99)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="depth"):
            plot_tree(kuhn, depth=bad)
    with pytest.raises(ValueError, match="made for leduc_poker, not kuhn_poker"):
        plot_tree(kuhn, cfrviz.Policy.uniform(leduc))
    with pytest.raises(ValueError, match="shape"):
        plot_tree(kuhn, np.ones((3, 2)))
    with pytest.raises(ValueError, match="needs a strategy"):
        plot_tree(kuhn, best_response=1)
    with pytest.raises(ValueError, match="player who best-responds"):
        plot_tree(kuhn, cfrviz.Policy.uniform(kuhn), best_response=2)
    with pytest.raises(ValueError, match="no information set 'Zz'"):
        plot_tree(kuhn, selected_infoset="Zz")
    with pytest.raises(ValueError, match="GameTree or a MatrixGame"):
        plot_tree("kuhn_poker")
    with pytest.raises(ValueError, match="True or False"):
        set_presenter("yes")


def test_presenter_mode_is_larger(kuhn):
    normal = plot_tree(kuhn, presenter=False)
    big = plot_tree(kuhn, presenter=True)
    assert big.layout.font.size > normal.layout.font.size
    # Both take the width of the page (no fixed width); presenter mode is taller.
    assert big.layout.width is None and normal.layout.width is None
    assert big.layout.height > normal.layout.height
    edge = next(t for t in big.data if t.name == "action")
    assert edge.line.width > next(t for t in normal.data if t.name == "action").line.width
    assert not presenter_mode()
    with presenting():
        assert plot_tree(kuhn).layout.font.size == big.layout.font.size
    assert not presenter_mode()
    assert plot_tree(kuhn).layout.font.size == normal.layout.font.size


def test_the_classroom_switch_wins_over_a_lesson(monkeypatch):
    from cfrviz.views import style

    monkeypatch.setenv(style.ENVIRONMENT_SWITCH, "1")
    style.set_presenter(False)
    assert style.presenter_mode()
    monkeypatch.delenv(style.ENVIRONMENT_SWITCH)
    style.set_presenter(False)
    assert not style.presenter_mode()


# --- fitting the page, and cheap frames (issues 11 and 14) ------------------------------------

def test_compact_layout_is_narrower_than_one_column_per_leaf(kuhn, kuhn_view):
    x = kuhn_view.x
    span = float(np.nanmax(x) - np.nanmin(x))
    leaves = int(np.sum(kuhn.player == TERMINAL))
    # One column per leaf plus the gaps between deals would be 29 + 5 * 0.6 = 32 units.
    assert span == pytest.approx(26.0) and span < leaves - 1
    # The chance root is centred over its deals, hence over the figure.
    assert x[0] == pytest.approx((np.nanmin(x) + np.nanmax(x)) / 2)


def message_sizes(fig):
    """Record (message name, JSON bytes + binary buffer bytes) of what fig sends."""
    import json

    from plotly.serializers import _py_to_js

    sent = []

    def size(value):
        buffers = 0

        def strip(v):
            nonlocal buffers
            if isinstance(v, dict):
                if isinstance(v.get("buffer"), memoryview):
                    buffers += v["buffer"].nbytes
                    return None
                return {k: strip(x) for k, x in v.items()}
            return [strip(x) for x in v] if isinstance(v, list) else v
        return len(json.dumps(strip(_py_to_js(value, None)))) + buffers

    def record(change):
        if change["new"] is not None:
            sent.append((change["name"], size(change["new"]), change["new"]))
    fig.observe(record, names=[n for n in fig.trait_names() if n.startswith("_py2js_")])
    return sent


def test_a_step_sends_one_small_message_without_the_skeleton(kuhn, kuhn_view):
    trace = cfrviz.solve(kuhn, "cfr", 60, checkpoints=list(range(1, 61)))
    fig = kuhn_view.figure(trace.average_policy(1), widget=True, selected_infoset="Qb")
    assert len(fig.data) <= 30  # 46 before issue 14: one trace per set and per 0.05 of width
    sent = message_sizes(fig)
    skeleton = {kuhn_view.traces[name] for name in
                ("player 1", "player 2", "chance", "terminal", "chance edges", "chance labels",
                 "infoset keys", "cut")} | {i for n, i in kuhn_view.traces.items()
                                            if n.startswith(("bands", "connectors"))}
    for k in range(2, 60, 6):
        kuhn_view.update(fig, trace.average_strategy[k], selected_infoset="Qb")
    assert [name for name, _, _ in sent] == ["_py2js_update"] * 10
    for _, size, message in sent:
        assert not skeleton & set(message["style_traces"])
        assert kuhn_view.traces["selected"] not in message["style_traces"]  # unchanged ring
        assert size < 4000  # 8.2 kB per step before (measured with the same serializer)
    # Showing the same step again changes nothing, so sends nothing.
    kuhn_view.update(fig, trace.average_strategy[56], selected_infoset="Qb")
    assert len(sent) == 10
    # The figure still holds everything: a fresh figure drawn at that step is the same.
    fresh = kuhn_view.figure(trace.average_strategy[56], widget=True, selected_infoset="Qb")
    for a, b in zip(fig.data, fresh.data):
        for prop in ("x", "y", "text", "hovertext"):
            if a[prop] is None:
                assert b[prop] is None
            elif prop in ("x", "y"):
                assert np.allclose(np.asarray(a[prop], float), np.asarray(b[prop], float),
                                   equal_nan=True)
            else:
                assert list(a[prop]) == list(b[prop])


def test_edge_hover_names_the_edge_and_its_probability(kuhn, kuhn_view):
    fig = kuhn_view.figure(cfrviz.Policy.from_dict(kuhn, KUHN_EQ))
    labels = fig.data[kuhn_view.traces["edge labels"]]
    bet_j = kuhn_view.decision_edges.tolist().index(kuhn.history.index("JQ:b"))
    assert labels.customdata[bet_j] == "b at J (history &#39;JQ:&#39;)"  # markup, escaped
    assert labels.hovertext[bet_j] == ": probability 0.333"
    assert labels.hovertemplate == "%{customdata}%{hovertext}<extra></extra>"


def test_crowded_labels_are_staggered(kuhn_view, kuhn):
    fig = kuhn_view.figure(cfrviz.Policy.uniform(kuhn))
    labels = fig.data[kuhn_view.traces["edge labels"]]
    y = np.asarray(labels.y, float)
    edges = kuhn_view.decision_edges
    parent_y = kuhn_view.y[kuhn.parent[edges]]
    below = parent_y - y
    left = kuhn_view.x[edges] < kuhn_view.x[kuhn.parent[edges]]
    # Player 2's fans sit one unit apart: left labels higher than right ones on that level.
    level = kuhn.player[kuhn.parent[edges]] == 1
    assert np.all(below[level & left] < below[level & ~left] - 0.2)
    # Player 1's first move, in 14-pixel labels at the narrowest width planned for, is
    # staggered too, its left labels still below the shaded bands (0.24 of a level deep).
    first = kuhn.depth[kuhn.parent[edges]] == 1
    assert np.all(below[first & left] < below[first & ~left] - 0.2)
    assert np.all(below[first] > 0.3)


def test_widget_figures_fit_their_output_area(kuhn_view):
    fig = kuhn_view.figure(widget=True)
    assert fig.layout.width is None and fig.layout.autosize is None
    assert fig._config["responsive"] is True
    sent = message_sizes(fig)
    # The first view to draw the figure answers with trace defaults: it is then asked, once,
    # to take its container's width.
    fig._js2py_traceDeltas = {"trace_deltas": [{}] * len(fig.data), "trace_edit_id": 0}
    fig._js2py_traceDeltas = None
    fig._js2py_traceDeltas = {"trace_deltas": [{}] * len(fig.data), "trace_edit_id": 1}
    relayouts = [m for name, _, m in sent if name == "_py2js_relayout"]
    assert len(relayouts) == 1 and relayouts[0]["relayout_data"] == {"autosize": True}


def test_kuhn_labels_sit_on_white_and_lanes_have_room(kuhn):
    """Issue 19: on a projector, no edge crosses a set key or a chance label, and the
    information-set lanes of a level do not stack into one band."""
    view = TreeView(kuhn, presenter=False)
    fig = view.figure()
    boxed = {a.text: a for a in fig.layout.annotations[2:]}
    expected = set(kuhn.infoset_keys) | {f"{d} 1/6" for d in kuhn.chance_labels[0]}
    assert set(boxed) == expected
    for annotation in boxed.values():
        assert annotation.bgcolor.startswith("rgba(255,255,255")
        assert annotation.font.size >= 12
    # The keys' own trace keeps the hover but no longer draws the text.
    keys = fig.data[view.traces["infoset keys"]]
    assert keys.mode == "markers" and keys.marker.opacity == 0
    # Player 2's six connectors: one lane each, a key label's height apart (27 px here).
    connectors = fig.data[view.traces["connectors of player 2"]]
    ys = sorted({round(float(y), 6) for y in connectors.y if y is not None})
    level = float(view.y[kuhn.history.index("JQ:p")])
    lanes = [y for y in ys if y > level + 0.15]  # above player 2's level (drops end below)
    gaps = np.diff(lanes)
    px = view.style.level_px
    assert len(lanes) == 6 and np.all(gaps * px >= 1.5 * view.style.font_size)


def test_kuhn_connectors_of_player_two_do_not_tangle(kuhn):
    """Issue 29: player 2's dashed connectors on lesson 02's Kuhn tree crossed each other 23
    times, the two sets that span the whole level (Qp, Qb) in the lowest lanes, under the
    drops of the four sets inside them.  A set now passes above every set whose span it
    holds: what remains is one crossing per pair of sets whose spans interleave (Kp, Kb, Jp
    and Jb pairwise, 6; Qp and Qb, 1), which no order of lanes avoids."""
    from cfrviz.views.tree.overlaps import connector_crossings

    view = TreeView(kuhn, presenter=False)
    fig = view.figure()
    assert connector_crossings(view, fig) == {"connectors": 7, "edges": 48}
    lanes = {kuhn.infoset_keys[i]: lane for i, lane in view._lanes.items()}
    inner = ("Kp", "Kb", "Jp", "Jb")
    assert min(lanes["Qp"], lanes["Qb"]) > max(lanes[k] for k in inner), lanes
    assert sorted(lanes[k] for k in inner + ("Qp", "Qb")) == list(range(6))


def test_connector_crossings_counts_a_set_under_another():
    """The counter itself: two sets of one level, one inside the other; drawn with the outer
    set's lane below the inner one's, both drops of the inner set cross it."""
    from cfrviz.views.tree.overlaps import _cross

    lane = np.array([[0.0, 1.0, 10.0, 1.0]])           # the outer set's lane, y = 1
    drops = np.array([[3.0, 2.0, 3.0, 0.1], [6.0, 2.0, 6.0, 0.1],   # inner drops from y = 2
                      [0.0, 1.0, 0.0, 0.1]])          # the outer set's own drop: an end
    assert _cross(lane, drops).tolist() == [[True, True, False]]
