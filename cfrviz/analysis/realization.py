"""One player's realization plan, checked against the sequence-form constraints ``E x = e``.

The sequence form (Koller, Megiddo & von Stengel 1994; von Stengel 1996; see
:mod:`cfrviz.solvers.lp`) describes a player's strategy by a *realization plan*
``x``: one weight per sequence, the product of the player's own probabilities
along it.  A vector is a plan exactly when ``x >= 0`` and ``E x = e``: ``x(∅) = 1``
and, at each information set ``I``, the weights of ``I``'s actions add up to the
weight of the sequence that leads to ``I``.  These functions name the sequences
and the rows, measure by how much each row fails, turn a behaviour strategy into
its plan and back, and evaluate a plan against the other player's best response
(bottom-up over the opponent's sets, von Stengel 1996).  Lesson 10's
realization-plan widget and its sequence-form exercises read them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.tree import as_tree
from ..solvers.lp import SequenceForm, sequence_form

#: A row holds when it is off by at most this (sliders move in steps of 0.01: their sums of
#: a few terms are off by about 1e-16 in floating point, never by 1e-9).
ROW_TOLERANCE = 1e-9


def sequence_labels(game, player: int, form: SequenceForm | None = None) -> list[str]:
    """Names of ``player``'s sequences in the sequence form's column order: ``"∅"``, then
    ``"J·p"`` (information set ``J``, action ``p``) and so on.

    Parameters
    ----------
    game : GameTree
    player : int
        0 or 1.
    form : SequenceForm, optional
        The game's sequence form (built if not given).
    """
    tree = as_tree(game, "sequence_labels")
    _check_player(player)
    form = sequence_form(tree) if form is None else form
    labels = ["∅"] * form.sizes[player]
    for info in np.flatnonzero(tree.infoset_player == player).tolist():
        for a, action in enumerate(tree.infoset_actions[info]):
            labels[int(form.first[info]) + a] = f"{tree.infoset_keys[info]}·{action}"
    return labels


@dataclass(frozen=True)
class PlanRow:
    """One constraint of ``E x = e``, with the plan's values.

    Attributes
    ----------
    infoset : str or None
        The information set's key, or None for the row ``x(∅) = 1``.
    parent : int
        The column of the sequence whose weight the row shares out (0 for ∅).
    columns : tuple of int
        The columns of the set's action sequences (``(0,)`` for the ∅ row).
    left, right : float
        The two sides with the plan's values: the sum of the actions' weights and
        the parent's weight (``x(∅)`` and 1 for the ∅ row).
    """

    infoset: str | None
    parent: int
    columns: tuple[int, ...]
    left: float
    right: float

    @property
    def gap(self) -> float:
        """left − right: by how much the row fails (0 when it holds)."""
        return self.left - self.right

    @property
    def holds(self) -> bool:
        return abs(self.gap) <= ROW_TOLERANCE


def plan_rows(game, player: int, plan, form: SequenceForm | None = None) -> list[PlanRow]:
    """Each row of ``E x = e`` for ``player``'s ``plan``, in ``E``'s row order.

    Raises
    ------
    ValueError
        If ``plan`` is not one finite number per sequence of the player.
    """
    tree = as_tree(game, "plan_rows")
    form = sequence_form(tree) if form is None else form
    x = check_plan(plan, form.sizes[_check_player(player)], "plan", negative_ok=True)
    rows = [PlanRow(None, 0, (0,), float(x[0]), 1.0)]
    for info in np.flatnonzero(tree.infoset_player == player).tolist():
        start, count = int(form.first[info]), len(tree.infoset_actions[info])
        columns = tuple(range(start, start + count))
        parent = int(form.parent[info])
        rows.append(PlanRow(tree.infoset_keys[info], parent, columns,
                            float(x[list(columns)].sum()), float(x[parent])))
    return rows


def check_plan(plan, size: int, name: str = "plan", *, negative_ok: bool = False) -> np.ndarray:
    """``plan`` as a float vector of ``size`` finite entries (and, unless ``negative_ok``,
    none negative); a ValueError naming the first entry at fault otherwise."""
    try:
        x = np.array(plan, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {size} numbers, one per sequence; got "
                         f"{_short(plan)}") from None
    if x.shape != (size,):
        raise ValueError(f"{name} must be {size} numbers, one per sequence; got shape "
                         f"{x.shape}")
    bad = np.flatnonzero(~np.isfinite(x) | ((x < 0) & (not negative_ok)))
    if len(bad):
        raise ValueError(f"{name}[{bad[0]}] is {float(x[bad[0]])!r}: a sequence's weight is a "
                         "probability, a finite number from 0 to 1")
    return x


def plan_from_behaviour(game, probs, player: int,
                        form: SequenceForm | None = None) -> np.ndarray:
    """The realization plan of ``player``'s behaviour strategy ``probs`` (sets × actions).

    ``x(I, a) = x(σ(I)) · probs[I, a]``, filled from the root down.
    """
    tree = as_tree(game, "plan_from_behaviour")
    form = sequence_form(tree) if form is None else form
    probs = np.asarray(probs, dtype=float)
    x = np.zeros(form.sizes[_check_player(player)])
    x[0] = 1.0
    for info in _sets_top_down(tree, player):
        count = len(tree.infoset_actions[info])
        start = int(form.first[info])
        x[start:start + count] = x[int(form.parent[info])] * probs[info, :count]
    return x


def worst_case_value(game, plan, player: int, form: SequenceForm | None = None) -> float:
    """Player 1's expected payoff when ``player`` follows ``plan`` and the other player
    best-responds (player 2 minimises player 1's payoff, player 1 maximises it).

    The responder's value of each of its sequences is its own column (or row) of
    ``xᵀ A`` (``A y``) plus, for every set it leads to, the best action's value
    there, summed from the deepest sets up (von Stengel 1996).  ``plan`` should
    satisfy ``E x = e`` (:func:`plan_rows`); otherwise the number is not a
    strategy's value.
    """
    tree = as_tree(game, "worst_case_value")
    form = sequence_form(tree) if form is None else form
    x = check_plan(plan, form.sizes[_check_player(player)])
    responder = 1 - player
    A = form.payoff
    value = np.asarray(A.T @ x if player == 0 else A @ x, dtype=float).ravel()
    pick = np.min if responder == 1 else np.max
    for info in reversed(_sets_top_down(tree, responder)):
        start, count = int(form.first[info]), len(tree.infoset_actions[info])
        value[int(form.parent[info])] += pick(value[start:start + count])
    return float(value[0])


def _sets_top_down(tree, player: int) -> list[int]:
    """``player``'s sets ordered by their first node, so a set comes after its parent's."""
    decision = np.flatnonzero(tree.player >= 0)
    first_node = np.full(tree.num_infosets, tree.num_nodes)
    np.minimum.at(first_node, tree.infoset[decision], decision)
    order = np.argsort(first_node, kind="stable")
    return [int(i) for i in order if tree.infoset_player[i] == player]


def _check_player(player) -> int:
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player must be 0 (player 1) or 1 (player 2); got {player!r}")
    return int(player)


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
