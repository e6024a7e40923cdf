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


def _non_finite(value, path=""):
    """Paths of NaN or infinite floats in plain JSON-bound data (numpy arrays travel as buffers)."""
    if isinstance(value, float):
        return [] if value == value and abs(value) != float("inf") else [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _non_finite(v, f"{path}/{k}")]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in _non_finite(v, f"{path}[{i}]")]
    return []


def test_widget_state_is_valid_json():
    """JSON has no NaN: a NaN in a synced list makes Jupyter print a serialization warning."""
    from ipywidgets.widgets.widget import _remove_buffers

    leduc = cfrviz.load_game("leduc_poker")
    for widget in (explore(cfrviz.load_game("kuhn_poker"), iterations=20),
                   explore(leduc, iterations=20, subtree="Q"),
                   cfrviz.BestResponseExplorer(cfrviz.load_game("kuhn_poker")),
                   RegretMatchingExplorer(iterations=20)):
        widget._repr_mimebundle_()
        for fig in figure_widgets(widget):
            state, _, _ = _remove_buffers(fig.get_state())
            assert _non_finite(state) == []
