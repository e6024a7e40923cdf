"""A game tree with a drop-down of information sets: the chosen set's members are ringed."""

from __future__ import annotations

import ipywidgets as W

from ..core.checks import infoset_id
from ..core.markup import escape
from ..core.tree import as_tree
from ..views.tree import TreeView
from .figure_widget import FigureWidget
from .panel import Panel


class InfosetPicker(Panel):
    """A tree with a drop-down of information sets; the chosen set's members are ringed.

    Below the drop-down a line lists the members' histories and says what the
    acting player can and cannot see.  Only the ring moves when the choice
    changes (one restyle of one trace).

    Parameters
    ----------
    game
        A game tree (or matrix game).
    infoset : str or int, optional
        The set chosen at first (default: the first one).
    subtree, presenter
        As for :class:`~cfrviz.views.tree.TreeView`.

    Attributes
    ----------
    picker : ipywidgets.Dropdown
    figure : plotly.graph_objects.FigureWidget
    caption : ipywidgets.HTML
    view : TreeView
    """

    def __init__(self, game, infoset=None, *, subtree=None, presenter: bool | None = None):
        super().__init__()
        self.game = tree = as_tree(game)
        self.view = TreeView(tree, subtree=subtree, presenter=presenter)
        first = 0 if infoset is None else infoset_id(tree, infoset)
        self.figure = self.view.figure(widget=FigureWidget(), selected_infoset=first)
        self.picker = W.Dropdown(options=[(k, i) for i, k in enumerate(tree.infoset_keys)],
                                 value=first, description="information set",
                                 style={"description_width": "initial"})
        self.caption = W.HTML()
        self.picker.observe(self._show, names="value")
        self.children = [self.picker, self.caption, self.output, self.figure]
        self._show()

    def _show(self, _change=None) -> None:
        with self.reporting("Could not show that information set"):
            tree, info = self.game, int(self.picker.value)
            ring = self.view.traces["selected"]
            changes, _ = self.view.changes(selected_infoset=info)
            with self.figure.batch_update():
                self.figure.data[ring].update(changes[ring])
            members = tree.infoset_members(info)
            who = int(tree.infoset_player[info])
            names = ", ".join(escape(tree.history[m]) for m in members)
            if len(members) == 1:
                text = f"one node, {names}: player {who + 1} knows exactly where it is."
            else:
                text = (f"{len(members)} nodes, {names}. Player {who + 1} knows it is at one "
                        "of them but not which: they differ only in what it cannot see.")
            self.caption.value = (f"<b>{escape(tree.infoset_keys[info])}</b> "
                                  f"(player {who + 1}): {text}")


def infoset_picker(game, infoset=None, *, subtree=None,
                   presenter: bool | None = None) -> InfosetPicker:
    """An :class:`InfosetPicker` for ``game`` (lesson 02)."""
    return InfosetPicker(game, infoset, subtree=subtree, presenter=presenter)
