"""Game trees as plotly figures: roles, information sets, strategies and best responses.

:func:`plot_tree` draws a game tree once; :class:`TreeView` keeps the layout and
the trace indices so that a widget can move an existing ``FigureWidget`` to
another strategy in place (inside ``batch_update``), never rebuilding it::

    view = TreeView(game)                          # layout, computed once
    fig = view.figure(policy, widget=True)         # a FigureWidget
    view.update(fig, trace.average_policy(i).probabilities,
                best_response=1, selected_infoset="Kb")   # one slider step

Rendering reads only the flat arrays of :class:`~cfrviz.core.tree.GameTree`; the
:func:`tree_graph` ``networkx.DiGraph`` is built from the same arrays, with the
same node ids, for anyone who wants graph algorithms or another layout.

Layout.  Reingold and Tilford's tidy layered layout ("Tidier drawings of
trees", IEEE TSE 1981): depth gives the level, each subtree is pushed as close
to its left sibling as their contours allow (one unit between nodes of a level,
a little more between the outcomes of a chance node), and every inner node is
centred over its first and last child, so children keep their action order and
the chance root sits over the middle.  The figure has no fixed width: it takes
the width of the output area it is shown in, with labels placed to stay
readable down to ``NARROW_PX`` pixels; zoom and pan show detail.  A tree too
wide for that (one Leduc deal: 86 units across) or whose edge labels would
overlap is drawn on its side (``TreeView.orientation == "right"``): levels as
columns, one ``ROW_PX`` row per node, the figure taller instead of wider.  At
``DEFAULT_PX`` (the output area of a 1280-pixel window) no node marker and no
label box overlaps another (:mod:`cfrviz.views.tree.overlaps` measures it;
``tests/test_tree_layout.py`` checks every game).

Frames.  Only what a strategy moves is ever sent again (edge-width steps, edge
labels and their hover probabilities, the best response, the ring); nodes,
chance edges and information sets (one trace per player and kind) are drawn
once, and :meth:`TreeView.update` drops whatever the figure already shows.
Each frame is computed once (:meth:`TreeView.frame`), for this figure or for the
marks that :class:`cfrviz.widgets.tree.LiveTree` draws beneath a skeleton figure
(``figure(skeleton=True)``): there plotly redraws nothing per frame.
"""


from __future__ import annotations

from .frames import WIDTH_STEPS, TreeFrame, edge_texts, edge_width, width_steps
from .graph import fraction_label, tree_graph
from .layout import CHANCE_GAP, LANE_BASE, LANE_STEP, infoset_lanes, tidy_layout
from .marks import HOVER_MEMBERS
from .selection import MAX_DRAWN, MAX_NODES, subtree_sizes
from .view import (
    CHAR_EM,
    DEFAULT_PX,
    MAX_BOXED_KEYS,
    NARROW_PX,
    ROLES,
    ROW_PX,
    TreeView,
    plot_tree,
)

__all__ = ["CHANCE_GAP", "CHAR_EM", "DEFAULT_PX", "HOVER_MEMBERS", "LANE_BASE", "LANE_STEP",
           "MAX_BOXED_KEYS", "MAX_DRAWN", "MAX_NODES", "NARROW_PX", "ROLES", "ROW_PX",
           "WIDTH_STEPS", "TreeFrame", "TreeView", "edge_texts", "edge_width", "fraction_label",
           "infoset_lanes", "plot_tree", "subtree_sizes", "tidy_layout", "tree_graph",
           "width_steps"]
