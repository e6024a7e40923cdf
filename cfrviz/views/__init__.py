"""Pure functions from games and traces to plotly figures."""

from .matrix import (display_frames, exploitability_figure, history_figure, simplex_figure,
                     update_exploitability, update_history, update_simplex)
from .style import get_style, presenter_mode, presenting, set_presenter
from .tree import TreeView, plot_tree, tidy_layout, tree_graph

__all__ = ["TreeView", "display_frames", "exploitability_figure", "get_style", "history_figure",
           "plot_tree", "presenter_mode", "presenting", "set_presenter", "simplex_figure",
           "tidy_layout", "tree_graph", "update_exploitability", "update_history",
           "update_simplex"]
