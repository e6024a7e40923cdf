"""Widgets show complete figures to a page that connects after the notebook ran (Voila)."""

import cfrviz
from cfrviz.widgets._panel import figure_widgets
from cfrviz.widgets.explorer import explore
from cfrviz.widgets.matrix import RegretMatchingExplorer


def test_displaying_a_panel_syncs_its_figures():
    widget = RegretMatchingExplorer(iterations=50)
    figures = figure_widgets(widget)
    assert len(figures) == 3
    # Filled after construction through messages only: a late view would see them empty.
    assert any(len(f._widget_data) != len(f.data) for f in figures)
    widget._repr_mimebundle_()
    for fig in figures:
        assert len(fig._widget_data) == len(fig.data)
        assert fig._widget_layout.get("title") == fig.layout.to_plotly_json().get("title")


def test_the_tree_explorer_too():
    ex = explore(cfrviz.load_game("kuhn_poker"), iterations=20)
    ex.slider.value = 3
    ex._repr_mimebundle_()
    tree = ex.tree_fig
    assert [d.get("x") is not None for d in tree._widget_data] == [True] * len(tree.data)
