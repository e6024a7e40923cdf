"""Pure functions from games and traces to plotly figures.

Importing it (as every cfrviz widget does) marks each widget output that shows a cfrviz widget
as cfrviz's, for the save hook (:mod:`cfrviz.views.saved`).
"""

from .equilibrium import (
    kuhn_equilibrium_figure,
    kuhn_equilibrium_point,
    kuhn_strategy_path,
    nearest_alpha,
    update_kuhn_equilibrium,
)
from .matrix import (
    display_frames,
    exploitability_figure,
    history_figure,
    simplex_figure,
    update_exploitability,
    update_history,
    update_simplex,
)
from .multiplayer import deviation_figure
from .saved import mark_widget_outputs
from .style import get_style, presenter_mode, presenting, set_presenter
from .training import cost_curve_figure
from .tree import TreeView, plot_tree, tidy_layout, tree_graph

__all__ = ["TreeView", "cost_curve_figure", "deviation_figure", "display_frames",
           "exploitability_figure", "get_style",
           "history_figure",
           "kuhn_equilibrium_figure", "kuhn_equilibrium_point", "kuhn_strategy_path",
           "nearest_alpha", "update_kuhn_equilibrium",
           "plot_tree", "presenter_mode", "presenting", "set_presenter", "simplex_figure",
           "tidy_layout", "tree_graph", "update_exploitability", "update_history",
           "update_simplex"]

mark_widget_outputs()
