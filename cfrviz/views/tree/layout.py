"""Reingold and Tilford's tidy layered layout of the drawn nodes ("Tidier drawings of
trees", IEEE TSE 1981)."""

from __future__ import annotations

import numpy as np

from ...core.tree import CHANCE, GameTree

#: Extra horizontal space between the subtrees of two outcomes of a chance node.
CHANCE_GAP = 0.6


def tidy_layout(tree: GameTree, drawn: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Tidy layered coordinates of the drawn nodes (NaN for the others).

    Reingold and Tilford's layout (1981): subtrees are laid out bottom-up and
    each is pushed as close to its left sibling as their contours allow, so
    that no two nodes of a level come closer than one unit (``1 + CHANCE_GAP``
    between the subtrees of two chance outcomes); each inner node is centred
    over its first and last drawn child; ``y = -depth``.  Children keep their
    action order.  A shallow subtree may tuck under its deeper neighbour, which
    makes a tree like Kuhn poker's about a fifth narrower than one column per
    leaf.

    Returns
    -------
    x, y : float arrays of shape (nodes,)
    """
    drawn = np.ones(tree.num_nodes, dtype=bool) if drawn is None else drawn
    kids = {n: [c for c in tree.children[n].tolist() if drawn[c]]
            for n in np.flatnonzero(drawn).tolist()}
    offset = {}                                 # child -> its x relative to its parent
    left: dict[int, list[float]] = {}           # contours by depth below the node,
    right: dict[int, list[float]] = {}          # relative to the node
    order, stack = [], [0]
    while stack:  # preorder; reversed, it places every node after its children
        node = stack.pop()
        order.append(node)
        stack.extend(kids[node])
    for node in reversed(order):
        children = kids[node]
        if not children:
            left[node], right[node] = [0.0], [0.0]
            continue
        gap = 1.0 + (CHANCE_GAP if tree.player[node] == CHANCE else 0.0)
        lo, hi = list(left[children[0]]), list(right[children[0]])
        at = [0.0]
        for c in children[1:]:
            cl, cr = left.pop(c), right.pop(c)
            shift = max(h - low for h, low in zip(hi, cl)) + gap
            at.append(shift)
            for d in range(len(cl)):
                if d < len(lo):
                    lo[d], hi[d] = min(lo[d], cl[d] + shift), max(hi[d], cr[d] + shift)
                else:
                    lo.append(cl[d] + shift)
                    hi.append(cr[d] + shift)
        del left[children[0]], right[children[0]]
        centre = (at[0] + at[-1]) / 2.0
        for c, a in zip(children, at):
            offset[c] = a - centre
        left[node] = [0.0] + [v - centre for v in lo]
        right[node] = [0.0] + [v - centre for v in hi]
    x = np.full(tree.num_nodes, np.nan)
    x[0] = 0.0
    for node in order[1:]:  # preorder: a parent is placed before its children
        x[node] = x[tree.parent[node]] + offset[node]
    x -= np.nanmin(x)
    y = np.where(drawn, -tree.depth.astype(float), np.nan)
    return x, y

