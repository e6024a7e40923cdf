"""Widgets show complete figures to a page that connects after the notebook ran (Voila), and
report errors in their own output area instead of dying."""

import importlib
import inspect
import pkgutil

import ipywidgets as W
import pytest

import cfrviz
import cfrviz.widgets
from cfrviz.widgets.explorer import explore
from cfrviz.widgets.matrix import RegretMatchingExplorer
from cfrviz.widgets.panel import Panel, figure_widgets


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


def test_the_live_tree_syncs_its_figure_when_shown_alone():
    from cfrviz.views.tree import TreeView
    from cfrviz.widgets.tree import LiveTree

    tree = LiveTree(TreeView(cfrviz.load_game("kuhn_poker")))
    tree.update(selected_infoset="Kb")
    tree._repr_mimebundle_()
    assert len(tree.figure._widget_data) == len(tree.figure.data)
    shown = tree.figure._widget_data[tree.view.traces["selected"]]
    assert shown["name"] == "selected: Kb" and shown["showlegend"] is True


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


def test_reporting_turns_an_exception_into_a_message():
    panel = Panel()
    assert panel.last_error is None and panel.output.outputs == ()
    with panel.reporting("Could not draw"):
        raise ValueError("the policy sums to 0.9 at 'Qb'")
    assert panel.last_error == "Could not draw: the policy sums to 0.9 at 'Qb'"
    assert panel.output.outputs[0]["text"] == panel.last_error + "\n"
    with panel.reporting("Could not draw"):
        raise KeyError("x")           # not written for people: its type is shown too
    assert panel.last_error == "Could not draw: KeyError('x')"
    assert len(panel.output.outputs) == 2
    panel.clear_report()
    assert panel.last_error is None and panel.output.outputs == ()


def test_reporting_lets_the_rest_of_a_callback_run():
    panel, after = Panel(), []
    with panel.reporting("Could not draw"):
        pass
    after.append(1)
    assert panel.last_error is None and after == [1]
    with pytest.raises(KeyboardInterrupt), panel.reporting("Could not draw"):
        raise KeyboardInterrupt                     # only errors are caught, not an interrupt


def test_every_widget_is_a_panel():
    """Every box the package shows on its own (the rows of controls.py, the live tree and the
    explorers' download control are parts of one)."""
    modules = [importlib.import_module(f"cfrviz.widgets.{m.name}")
               for m in pkgutil.iter_modules(cfrviz.widgets.__path__)]
    parts = ("cfrviz.widgets.controls", "cfrviz.widgets.tree", "cfrviz.widgets.overlay",
             "cfrviz.widgets.export")
    boxes = {cls for module in modules for _, cls in inspect.getmembers(module, inspect.isclass)
             if issubclass(cls, W.Box) and cls.__module__.startswith("cfrviz.widgets")
             and cls.__module__ not in parts}
    assert len(boxes) >= 9
    assert all(issubclass(cls, Panel) for cls in boxes), boxes


def test_every_panel_is_exported():
    """A widget a lesson may show is importable from cfrviz.widgets (the exports had drifted:
    ComparisonView and DiscountExplorer were not)."""
    from cfrviz.widgets.panel import TimelinePanel

    modules = [importlib.import_module(f"cfrviz.widgets.{m.name}")
               for m in pkgutil.iter_modules(cfrviz.widgets.__path__)]
    panels = {cls.__name__ for module in modules
              for _, cls in inspect.getmembers(module, inspect.isclass)
              if issubclass(cls, Panel) and cls not in (Panel, TimelinePanel)}
    assert panels and panels <= set(cfrviz.widgets.__all__), panels - set(cfrviz.widgets.__all__)


def test_timeline_panels_keep_their_contract(kuhn):
    """A TimelinePanel subclass overrides _on_frame and creates play and slider; the base
    class says so when a subclass forgets."""
    from cfrviz.widgets.panel import TimelinePanel

    for widget in (explore(kuhn, iterations=5), RegretMatchingExplorer(iterations=5)):
        assert type(widget)._on_frame is not TimelinePanel._on_frame
        assert isinstance(widget.play, W.Play) and isinstance(widget.slider, W.IntSlider)

    class Forgetful(TimelinePanel):
        pass

    with pytest.raises(NotImplementedError, match="Forgetful must define _on_frame"):
        Forgetful()._on_frame()
