"""The game-size chart (with its sources and extrapolation buttons) and the scaling chart."""

import numpy as np

import cfrviz
from cfrviz.analysis.scaling import PUBLISHED_SIZES, game_size, measure_scaling
from cfrviz.views.sizes import game_sizes_figure, scaling_figure


def test_sizes_figure_shows_counts_and_sources():
    ours = [game_size(cfrviz.load_game("kuhn_poker"), "Kuhn"),
            game_size(cfrviz.load_game("leduc_poker"), "Leduc")]
    fig = game_sizes_figure(ours)
    assert list(fig.data[0].x) == [12, 288] and list(fig.data[0].y) == ["Kuhn", "Leduc"]
    assert list(fig.data[1].x) == [p.infosets for p in PUBLISHED_SIZES]
    for text, p in zip(fig.data[1].customdata, PUBLISHED_SIZES):
        assert p.source.split(",")[0] in text  # every published bar names its source
    assert fig.layout.xaxis.type == "log" and not fig.layout.updatemenus
    assert list(fig.layout.yaxis.categoryarray)[0] == "Kuhn"  # smallest first


def test_sizes_figure_buttons_extrapolate():
    ours = [game_size(cfrviz.load_game("kuhn_poker"))]
    fig = game_sizes_figure(ours, seconds_per_infoset=2e-7, bytes_per_infoset=48)
    buttons = fig.layout.updatemenus[0].buttons
    assert [b.label for b in buttons] == ["information sets", "one CFR iteration at our speed",
                                          "memory of CFR's two tables"]
    xo, xp = buttons[1].args[0]["x"]
    assert np.allclose(xo, [12 * 2e-7]) and np.allclose(xp, [p.infosets * 2e-7
                                                             for p in PUBLISHED_SIZES])
    assert buttons[2].args[1]["shapes"]  # reference lines on the memory view


def test_scaling_figure():
    table = measure_scaling({"Kuhn": cfrviz.load_game("kuhn_poker"),
                             "Leduc": cfrviz.load_game("leduc_poker")}, iterations=10, repeats=1)
    fig = scaling_figure(table)
    assert list(fig.data[0].x) == [55, 1936] and list(fig.data[0].text) == ["Kuhn", "Leduc"]
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
