"""Updating a drawn tree in place: what one strategy, best response and selected set show
(:class:`TreeFrame`) and the few properties that change between two of them.

:class:`Redraw` is the half of :class:`~cfrviz.views.tree.view.TreeView` that runs on every
step of a timeline: it reads the geometry the view computed once (edge segments, labels,
node positions, trace indexes) and never lays anything out again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from plotly.basedatatypes import Undefined

from ...core.markup import escape
from ...engine import tree_best_response
from ..style import batch
from .frames import (
    WIDTH_STEPS,
    TreeFrame,
    best_response_player,
    edge_texts,
    infoset_id,
    strategy_array,
    width_steps,
)

__all__ = ["Redraw"]


class Redraw:
    """Frames and in-place updates of a tree figure built by ``TreeView.figure``.

    A mixin: :class:`~cfrviz.views.tree.view.TreeView` provides the attributes annotated
    below when it lays the tree out and builds its figure.
    """

    tree: Any
    traces: dict[str, int]
    skeleton: bool
    decision_edges: np.ndarray
    selection: Any
    x: np.ndarray
    y: np.ndarray
    _seg_x: np.ndarray
    _seg_y: np.ndarray
    _edge_labels: list[str]
    _edge_infoset: np.ndarray
    _edge_action: np.ndarray
    _edge_player: np.ndarray

    def update(self, fig, probabilities=None, *, best_response=None,
               selected_infoset=None) -> None:
        """Draw another strategy on ``fig`` (built by :meth:`figure`) in place.

        Parameters
        ----------
        fig : go.Figure or go.FigureWidget
        probabilities : Policy or array of shape (information sets, actions), optional
            Edge widths follow it (``0.5 + 6 p`` pixels, in steps of ``1 / WIDTH_STEPS``)
            and edge labels show it; ``None`` draws plain edges with action labels.
        best_response : 0, 1 or {"player": 0 or 1}, optional
            Highlight that player's best response to ``probabilities`` and show its value.
        selected_infoset : str or int, optional
            Ring the drawn members of this information set.

        Notes
        -----
        At most one message goes to the browser (one ``plotly_update``), holding only the
        properties whose values differ from what ``fig`` shows: the node skeleton is never
        resent, and neither is a width step, label or highlight that did not change.
        """
        self.draw(fig, self.frame(probabilities, best_response=best_response,
                                  selected_infoset=selected_infoset))

    def draw(self, fig, frame: TreeFrame) -> None:
        """:meth:`update` with a :meth:`frame` already computed."""
        changes, note = self.frame_changes(frame)
        changes = {i: props for i, props in
                   ((i, {k: v for k, v in c.items() if not _same(fig.data[i][k], v)})
                    for i, c in changes.items()) if props}
        relayout = {} if fig.layout.annotations[1].text == note else \
            {"annotations[1].text": note}
        if not changes and not relayout:
            return
        # One unvalidated ``plotly_update`` (a single message to the browser): the values are
        # built as arrays and strings of the right types, and per-property setters would
        # validate each of them again, about 0.3 ms apiece (benchmarks/bench_views.py).
        indexes = sorted(changes)
        keys = sorted({k for c in changes.values() for k in c})
        restyle = {k: [changes[i].get(k, Undefined) for i in indexes] for k in keys}
        with batch(fig):
            fig.plotly_update(restyle_data=restyle, relayout_data=relayout,
                              trace_indexes=indexes)

    def frame(self, probabilities=None, *, best_response=None,
              selected_infoset=None) -> TreeFrame:
        """What a strategy shows on the drawn tree (the arguments of :meth:`update`), per
        decision edge: probabilities, the best response and its value, the ringed nodes.
        The one place a frame is computed, for plotly (:meth:`changes`) and for the marks
        of :class:`cfrviz.widgets.tree.LiveTree` alike."""
        tree = self.tree
        probs = strategy_array(tree, probabilities)
        player = best_response_player(best_response)
        selected = infoset_id(tree, selected_infoset)
        if player is not None and probs is None:
            raise ValueError("best_response needs a strategy to respond to: pass a policy")
        p = None if probs is None else probs[self._edge_infoset, self._edge_action]
        value, chosen = None, np.zeros(len(self.decision_edges), dtype=bool)
        if player is not None:
            assert probs is not None, "a best response without a strategy is refused above"
            value, best, _ = tree_best_response(tree, probs, player)
            value = float(value)
            chosen = (self._edge_player == player) & \
                (best[self._edge_infoset] == self._edge_action)
        ringed = np.empty(0, dtype=np.int64)
        if selected is not None:
            members = tree.infoset_members(selected)
            ringed = members[self.selection.drawn[members]]
        return TreeFrame(probability=p, player=player, value=value, chosen=chosen,
                         selected=selected, ringed=ringed)

    def changes(self, probabilities=None, *, best_response=None,
                selected_infoset=None) -> tuple[dict[int, dict], str]:
        """What :meth:`update` sets: ``({trace index: {property: value}}, best-response
        note)``, every property the strategy drives, for widgets that combine it with
        edits of their own."""
        return self.frame_changes(self.frame(probabilities, best_response=best_response,
                                             selected_infoset=selected_infoset))

    def frame_changes(self, frame: TreeFrame) -> tuple[dict[int, dict], str]:
        """:meth:`changes` of a :meth:`frame` already computed."""
        t = self.traces
        if not t:
            raise ValueError("build the figure with view.figure() before updating it")
        p, player = frame.probability, frame.player
        changes: dict[int, dict] = {}
        if self.skeleton:
            # Only the legend: what moves is drawn beneath the figure.
            changes[t[f"width {WIDTH_STEPS}"]] = dict(x=_NOTHING, y=_NOTHING,
                                                      showlegend=p is not None)
            changes[t["best response"]] = dict(
                x=_NOTHING, y=_NOTHING, showlegend=player is not None,
                name="best response" if player is None else
                f"best response of player {player + 1}")
            changes[t["selected"]] = dict(  # in the legend while a ring is drawn
                x=_NOTHING, y=_NOTHING, showlegend=len(frame.ringed) > 0,
                name=self._selected_name(frame.selected))
            return changes, ""

        if p is None:
            changes[t["edges"]] = dict(x=self._seg_x.ravel(), y=self._seg_y.ravel())
            for b in range(WIDTH_STEPS + 1):
                changes[t[f"width {b}"]] = dict(x=_EMPTY, y=_EMPTY)
            changes[t["edge labels"]] = dict(text=self._edge_labels,
                                             hovertext=[""] * len(self._edge_labels))
            changes[t[f"width {WIDTH_STEPS}"]]["showlegend"] = False
        else:
            steps = width_steps(p)
            order = np.argsort(steps, kind="stable")
            bounds = np.searchsorted(steps[order], np.arange(WIDTH_STEPS + 2))
            changes[t["edges"]] = dict(x=_EMPTY, y=_EMPTY)
            for b in range(WIDTH_STEPS + 1):
                sel = order[bounds[b]:bounds[b + 1]]
                changes[t[f"width {b}"]] = dict(x=self._seg_x[sel].ravel(),
                                                y=self._seg_y[sel].ravel())
            changes[t[f"width {WIDTH_STEPS}"]]["showlegend"] = True
            changes[t["edge labels"]] = dict(
                text=edge_texts(self._edge_labels, p),
                hovertext=[f": probability {q:.3f}" for q in p.tolist()])

        if player is None:
            changes[t["best response"]] = dict(x=_EMPTY, y=_EMPTY, showlegend=False)
        else:
            chosen = frame.chosen
            changes[t["best response"]] = dict(
                x=self._seg_x[chosen].ravel(), y=self._seg_y[chosen].ravel(), showlegend=True,
                name=f"best response of player {player + 1}")

        if frame.selected is None:
            changes[t["selected"]] = dict(x=_EMPTY, y=_EMPTY, showlegend=False)
        else:
            members = frame.ringed
            changes[t["selected"]] = dict(
                x=self.x[members].astype(np.float32), y=self.y[members].astype(np.float32),
                showlegend=True, name=self._selected_name(frame.selected))
        return changes, frame.note

    def _selected_name(self, selected: int | None) -> str:
        if selected is None:
            return "selected information set"
        return f"selected: {escape(self.tree.infoset_keys[selected])}"


#: Coordinates sent per step are float32 (plotly sends them as typed arrays): half the bytes
#: of float64, and far finer than a pixel.
_EMPTY = np.empty(0, dtype=np.float32)
#: A legend entry without data (plotly leaves an empty trace out of the legend).
_NOTHING = np.full(1, np.nan, dtype=np.float32)


def _same(shown, value) -> bool:
    """Whether a figure property already holds ``value`` (arrays compared by content)."""
    if isinstance(value, np.ndarray) or isinstance(shown, np.ndarray):
        if shown is None:
            return False
        a, b = np.asarray(shown, dtype=float), np.asarray(value, dtype=float)
        return a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(shown, tuple):
        shown = list(shown)
    return bool(shown == value)
