"""Node locking: a game whose player plays fixed strategies at some information sets.

A solver's tools lock a node to ask "what if this player always did that here?": the locked
player's strategy there is no longer chosen, and solving the rest shows how both players adapt
and what the mistake costs.  For the solver nothing is special about a fixed strategy: at each
node of a locked information set the play is a random draw from known probabilities, which is
what a chance node is.  So :func:`lock` returns a tree in which those nodes *are* chance nodes
and every other information set is as it was; any solver, best response or view then works on
it unchanged.  :func:`unlocked` puts a strategy of the locked tree back into the original's
table, the fixed rows included.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from ..core.tree import CHANCE, GameTree
from ..core.types import FloatArray

#: A locked information set's strategy: probabilities in the set's action order, or by label.
Fixed = Sequence[float] | Mapping[str, float]


def _probabilities(tree: GameTree, key: str, fixed: Fixed) -> list[float]:
    """``fixed`` for the set ``key`` as probabilities in its action order, checked."""
    actions = tree.infoset_actions[tree.infoset_index(key)]  # names a key the tree lacks
    if isinstance(fixed, Mapping):
        unknown = [a for a in fixed if a not in actions]
        if unknown:
            raise ValueError(f"locking {key!r}: no action {unknown[0]!r} there; its actions "
                             f"are {', '.join(actions)}")
        values = [fixed.get(a, 0.0) for a in actions]
    else:
        values = list(fixed)
        if len(values) != len(actions):
            raise ValueError(f"locking {key!r}: {len(values)} probabilities for its "
                             f"{len(actions)} actions ({', '.join(actions)})")
    try:
        probabilities = [float(p) for p in values]
    except (TypeError, ValueError):
        raise ValueError(f"locking {key!r}: probabilities must be numbers; got {values!r}"
                         ) from None
    if (not all(math.isfinite(p) and p >= 0 for p in probabilities)
            or abs(sum(probabilities) - 1) > 1e-9):
        raise ValueError(f"locking {key!r}: probabilities must be >= 0 and sum to 1; got "
                         f"{dict(zip(actions, probabilities))}")
    return probabilities


def lock(tree: GameTree, fixed: Mapping[str, Fixed]) -> GameTree:
    """``tree`` with the information sets named in ``fixed`` played by fixed strategies.

    Parameters
    ----------
    tree : GameTree
    fixed : mapping
        Information-set key to its strategy: probabilities in the set's action order, or a
        mapping from action label to probability (actions left out: 0).

    Returns
    -------
    GameTree
        The same nodes, payoffs and names; each node of a locked set is a chance node over
        the set's actions with the fixed probabilities, and the locked sets are gone from the
        information-set table (the others keep their order).

    Raises
    ------
    ValueError
        For an unknown key or action, or probabilities that are not a distribution.
    """
    if not fixed:
        raise ValueError("lock needs at least one information set to fix; got none")
    rows = {tree.infoset_index(key): _probabilities(tree, key, probs)
            for key, probs in fixed.items()}
    player, infoset = tree.player.copy(), tree.infoset.copy()
    chance_prob = tree.chance_prob.copy()
    labels = list(tree.chance_labels)
    for node in np.flatnonzero(np.isin(tree.infoset, list(rows))).tolist():
        probabilities = rows[int(tree.infoset[node])]
        player[node] = CHANCE
        labels[node] = tree.infoset_actions[int(tree.infoset[node])]
        chance_prob[tree.children[node]] = probabilities
    kept = np.array([i for i in range(tree.num_infosets) if i not in rows], dtype=np.int64)
    renumber = np.full(tree.num_infosets + 1, -1, dtype=np.int64)  # the last entry maps -1
    renumber[kept] = np.arange(len(kept))
    infoset = renumber[infoset]
    width = max((len(tree.infoset_actions[i]) for i in kept.tolist()), default=1)
    return replace(
        tree, player=player, infoset=infoset, chance_prob=chance_prob,
        chance_labels=tuple(labels),
        infoset_keys=tuple(tree.infoset_keys[i] for i in kept.tolist()),
        infoset_player=tree.infoset_player[kept].copy(),
        infoset_actions=tuple(tree.infoset_actions[i] for i in kept.tolist()),
        legal_mask=tree.legal_mask[kept, :width].copy(),
        description=f"{tree.description}\n\nLocked: {', '.join(map(repr, fixed))}".strip())


def unlocked(tree: GameTree, locked: GameTree, fixed: Mapping[str, Fixed],
             probabilities: FloatArray) -> FloatArray:
    """A strategy table of ``tree`` from one of ``locked = lock(tree, fixed)``: each set's row
    from ``probabilities`` (indexed by ``locked``'s sets), the locked sets' fixed rows."""
    table = np.zeros((tree.num_infosets, tree.max_actions))
    for i, key in enumerate(locked.infoset_keys):
        row = tree.infoset_index(key)
        table[row, :len(tree.infoset_actions[row])] = probabilities[i, :len(
            tree.infoset_actions[row])]
    for key, probs in fixed.items():
        row = tree.infoset_index(key)
        table[row, :len(tree.infoset_actions[row])] = _probabilities(tree, key, probs)
    return table
