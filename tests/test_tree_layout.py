"""Tree layout without overlaps (issue 25, item 3): no node marker and no label box overlaps
another at the default size, for every registered game, every file of ``data/games``, each of
Leduc's nine one-deal trees and pocket poker's deals.

Boxes come from :mod:`cfrviz.views.tree.overlaps` (estimated from the figure: font size,
``CHAR_EM`` per character, plotly.js's text offsets); the browser test at the end compares
those estimates with what Chromium draws.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from cfrviz.core.tree import GameTree
from cfrviz.games import available_games, load_game, load_game_file
from cfrviz.views.tree import TreeView
from cfrviz.views.tree.overlaps import (
    DEFAULT_WIDTH_PX,
    Box,
    box_overlaps,
    figure_boxes,
    overlaps,
)

GAME_FILES = sorted(p for p in (Path(__file__).resolve().parent.parent / "data" / "games")
                    .iterdir() if p.suffix in (".json", ".efg"))
#: Loaders that need a parameter naming what to load (a path, an OpenSpiel game): their games
#: are covered as files (data/games) or by the OpenSpiel helper's own tests.
LOADERS = {"file", "openspiel"}
#: The tallest a one-deal drawing may grow at the default size (Leduc's measured 1,940 px).
MAX_HEIGHT_PX = 2000


@pytest.fixture(scope="module")
def leduc_game():
    return load_game("leduc_poker")


@pytest.fixture(scope="module")
def pocket():
    return load_game("pocket_poker")


def assert_no_overlaps(view: TreeView, where: str, width: float = DEFAULT_WIDTH_PX):
    fig = view.figure()
    found = overlaps(view, fig, width)
    shown = "\n  ".join(str(o) for o in found[:10])
    assert not found, (f"{where}, {view.orientation}, {width:.0f} px wide and "
                       f"{fig.layout.height} px tall: {len(found)} overlapping pairs, e.g.\n  "
                       f"{shown}")
    return fig


def test_every_registered_game_is_covered():
    """A game registered later joins the parametrisation below (or says why not)."""
    assert set(available_games()) - LOADERS == set(REGISTERED)


REGISTERED = [g for g in available_games() if g not in LOADERS]


@functools.cache
def _registered(name: str) -> GameTree:
    """Each game built once for both widths: the hold'em river's default spot takes seconds."""
    return load_game(name)


@pytest.mark.parametrize("width", [DEFAULT_WIDTH_PX, 1280])
@pytest.mark.parametrize("name", REGISTERED)
def test_registered_games_draw_without_overlaps(name, width):
    assert_no_overlaps(TreeView(_registered(name)), name, width)


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.name)
def test_game_files_draw_without_overlaps(path):
    assert_no_overlaps(TreeView(load_game_file(path)), f"data/games/{path.name}")


@pytest.mark.parametrize("width", [DEFAULT_WIDTH_PX, 1280])
def test_each_leduc_deal_draws_without_overlaps_on_its_side(leduc_game, width):
    heights = {}
    for deal in leduc_game.chance_labels[0]:  # all nine one-deal trees, as the explorers show
        view = TreeView(leduc_game, subtree=deal)
        assert view.orientation == "right"
        fig = assert_no_overlaps(view, f"Leduc deal {deal}", width)
        heights[deal] = fig.layout.height
    # Taller than wide, but not absurdly: 166 to 241 nodes in rows of ROW_PX.
    assert max(heights.values()) <= MAX_HEIGHT_PX, heights


def test_pocket_poker_deals_draw_without_overlaps(pocket):
    """The default drawing and one deal per hand of player 1 (the opponent's hand cycling
    through its list); every one of the 225 deals is checked by the slow test below."""
    assert_no_overlaps(TreeView(pocket), "pocket poker's default deal")
    for i, first in enumerate(pocket.chance_labels[0]):
        hands = pocket.chance_labels[int(pocket.children[0][i])]
        second = hands[(5 * i) % len(hands)]
        assert_no_overlaps(TreeView(pocket, subtree=(first, second)),
                           f"pocket poker deal {first},{second}")


@pytest.mark.slow
def test_every_pocket_poker_deal_draws_without_overlaps(pocket):
    for i, first in enumerate(pocket.chance_labels[0]):
        for second in pocket.chance_labels[int(pocket.children[0][i])]:
            assert_no_overlaps(TreeView(pocket, subtree=(first, second)),
                               f"pocket poker deal {first},{second}")


def test_lesson_tens_liars_dice_draws_without_overlaps():
    """OpenSpiel's liar's dice (one three-sided die each), as lesson 10 draws it and whole:
    fans of six bids with long labels ("1-2 .33") turn it on its side."""
    pytest.importorskip("pyspiel")
    dice = load_game("openspiel", name="liars_dice", params={"numdice": 1, "dice_sides": 3})
    lesson = TreeView(dice, subtree=("Roll 3", "Roll 1"), depth=3)
    assert lesson.orientation == "right"
    assert_no_overlaps(lesson, "liar's dice as lesson 10 draws it")
    assert_no_overlaps(TreeView(dice), "liar's dice")


# --- the checker itself ----------------------------------------------------------------------

def test_the_checker_finds_overlaps_and_names_them():
    a = Box("marker", "node 1", 0, 0, 10, 10)
    b = Box("payoff", "node 2: +1", 9, 9, 20, 20)
    c = Box("payoff", "node 3: -1", 10.3, 0, 20, 8)   # touches a within the half-pixel slack
    found = box_overlaps([a, b, c])
    assert [(o.a.what, o.b.what) for o in found] == [("node 1", "node 2: +1")]
    assert "overlaps payoff 'node 2: +1'" in str(found[0]) and "by 1.0 x 1.0 px" in str(found[0])


def test_the_checker_sees_what_a_narrow_figure_crowds(kuhn):
    """Kuhn poker, clear at the default width, has overlapping labels at 300 pixels: the
    checker is not blind to the layout it checks."""
    view = TreeView(kuhn, presenter=False)
    fig = view.figure()
    assert overlaps(view, fig) == []
    assert len(overlaps(view, fig, 300)) > 10


def test_boxes_cover_every_marker_and_label(leduc_game):
    view = TreeView(leduc_game)
    fig = view.figure()
    boxes = figure_boxes(view, fig)
    kinds = {k: sum(b.kind == k for b in boxes) for k in {b.kind for b in boxes}}
    leaves = int(np.sum(leduc_game.player[view.nodes] == -2))
    assert kinds["marker"] == len(view.nodes)
    assert kinds["payoff"] == leaves
    assert kinds["edge label"] == len(view.decision_edges)
    assert kinds["boxed label"] == len(view.chance_edges)
    # Every box lies on the figure (nothing pushed off its edges).
    assert min(b.x0 for b in boxes) >= 0 and max(b.x1 for b in boxes) <= DEFAULT_WIDTH_PX
    assert min(b.y0 for b in boxes) >= 0 and max(b.y1 for b in boxes) <= fig.layout.height


def test_wide_trees_turn_on_their_side_and_small_ones_do_not(kuhn, leduc_game):
    assert TreeView(kuhn).orientation == "down"
    view = TreeView(leduc_game, subtree="KQ")
    assert view.orientation == "right"
    # Levels run left to right, the root's column first; no two nodes share a place.
    depth = leduc_game.depth[view.nodes]
    columns = [float(np.unique(view.x[view.nodes][depth == d])[0]) for d in np.unique(depth)]
    assert all(len(np.unique(view.x[view.nodes][depth == d])) == 1 for d in np.unique(depth))
    assert columns == sorted(columns)
    places = {(round(float(x), 6), round(float(y), 6)) for x, y in
              zip(view.x[view.nodes], view.y[view.nodes])}
    assert len(places) == len(view.nodes)


# --- the estimates against what Chromium draws -----------------------------------------------

#: Every drawn marker, trace text and annotation box in page pixels, by trace (``uid`` cfrN).
_MEASURE_JS = """(n) => {
  const svg = document.querySelector('.main-svg').getBoundingClientRect();
  const rel = (r) => [r.left - svg.left, r.top - svg.top, r.right - svg.left, r.bottom - svg.top];
  const traces = [...Array(n).keys()].map((i) => {
    const t = document.querySelector('.scatterlayer .tracecfr' + i);
    return !t ? {points: [], texts: []} : {
      points: [...t.querySelectorAll('.points path.point')].map((p) =>
        rel(p.getBoundingClientRect())),
      texts: [...t.querySelectorAll('.text .textpoint text')].map((p) =>
        rel(p.getBoundingClientRect()))};
  });
  const notes = [...document.querySelectorAll('.annotation')].map((a) => [
    a.querySelector('text') ? a.querySelector('text').textContent : '',
    ...rel(a.querySelector('rect.bg').getBoundingClientRect())]);
  return {traces, notes};
}"""


def _drawn_boxes(fig, width: int) -> dict:
    import plotly.io as pio
    from _browser import chromium, new_page

    fig = type(fig)(fig)
    for i, trace in enumerate(fig.data):
        trace.uid = f"cfr{i}"
    html = pio.to_html(fig, include_plotlyjs="inline", full_html=True,
                       default_width=f"{width}px", default_height=f"{fig.layout.height}px")
    with chromium() as browser, new_page(browser, width + 40, 1000) as page:
        page.set_content(html.replace("<body>", "<body style='margin:0'>"))
        page.wait_for_selector(".scatterlayer .trace", state="attached")
        return page.evaluate(_MEASURE_JS, len(fig.data))


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("game, deal", [("leduc_poker", "JQ"), ("kuhn_poker", None),
                                        ("kuhn_poker_3p", None)])
def test_estimated_boxes_match_what_chromium_draws(game, deal):
    """Measured on 2026-11-26 (Chromium 156, Arial): markers within 1.6 px; text within
    0.8 px vertically and at its anchored end; widths over-estimated by up to 16 px (commas,
    spaces and dots are narrower than ``CHAR_EM``), under-estimated only for a lone capital,
    by 1.9 px (the key "Q")."""
    from cfrviz import Policy
    from cfrviz.views.tree.view import roles_of

    tree = load_game(game)
    view = TreeView(tree, subtree=deal)
    fig = view.figure(Policy.uniform(tree))        # edge labels as "c .33", "b .5"
    drawn = _drawn_boxes(fig, DEFAULT_WIDTH_PX)
    boxes = figure_boxes(view, fig, probabilities=False)
    t = view.traces
    measured = {
        "marker": [r for role in roles_of(tree) for r in drawn["traces"][t[role]]["points"]],
        "payoff": drawn["traces"][t["terminal"]]["texts"],
        "edge label": drawn["traces"][t["edge labels"]]["texts"]}
    for kind, rects in measured.items():
        estimated = [b for b in boxes if b.kind == kind]
        assert len(rects) == len(estimated), kind
        for b, (x0, y0, x1, y1) in zip(estimated, rects):
            where = f"{b}; drawn at x {x0:.1f}..{x1:.1f}, y {y0:.1f}..{y1:.1f}"
            assert abs(b.y0 - y0) < 1.5 and abs(b.y1 - y1) < 1.5, where
            if kind == "marker":
                assert max(abs(b.x0 - x0), abs(b.x1 - x1)) < 2.0, where
            else:  # anchored at one end (or the middle); the width is an estimate
                assert min(abs(b.x0 - x0), abs(b.x1 - x1),
                           abs((b.x0 + b.x1) - (x0 + x1)) / 2) < 1.5, where
                assert -2.5 < (b.x1 - b.x0) - (x1 - x0) < 20, where
    keys = {}
    for text, *rect in drawn["notes"]:
        keys.setdefault(text, []).append(rect)
    for b in (b for b in boxes if b.kind == "boxed label"):
        x0, y0, x1, y1 = min(keys[b.what], key=lambda r: abs(r[0] - b.x0) + abs(r[1] - b.y0))
        where = f"{b} drawn x {x0:.1f}..{x1:.1f}, y {y0:.1f}..{y1:.1f}"
        assert abs(b.y0 - y0) < 1.5 and abs(b.y1 - y1) < 1.5, where
        assert -2.5 < (b.x1 - b.x0) - (x1 - x0) < 20, where
