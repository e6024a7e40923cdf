"""Where the drawn nodes go: Reingold and Tilford's tidy layered layout ("Tidier drawings of
trees", IEEE TSE 1981), then the information sets' bands and connector lanes, which make the
levels that hold lanes taller."""

from __future__ import annotations

import numpy as np

from ...core.tree import CHANCE, GameTree

#: Extra horizontal space between the subtrees of two outcomes of a chance node.
CHANCE_GAP = 0.6

#: Height of the lowest information-set connector above its level, and between lanes (in
#: levels: at the normal 100 pixels a level, lanes are 27 pixels apart, room for a key label
#: in each).
LANE_BASE = 0.24
LANE_STEP = 0.27


def tidy_layout(tree: GameTree, drawn: np.ndarray | None = None, *,
                leaf_reach=0) -> tuple[np.ndarray, np.ndarray]:
    """Tidy layered coordinates of the drawn nodes (NaN for the others).

    Reingold and Tilford's layout (1981): subtrees are laid out bottom-up and
    each is pushed as close to its left sibling as their contours allow, so
    that no two nodes of a level come closer than one unit (``1 + CHANCE_GAP``
    between the subtrees of two chance outcomes); each inner node is centred
    over its first and last drawn child; ``y = -depth``.  Children keep their
    action order.  A shallow subtree may tuck under its deeper neighbour, which
    makes a tree like Kuhn poker's about a fifth narrower than one column per
    leaf.  With ``leaf_reach`` (a number of levels, or one per node), a leaf
    also holds its place that many levels deeper (a drawing on its side writes
    a long payoff there, beside the leaf).

    Returns
    -------
    x, y : float arrays of shape (nodes,)
    """
    drawn = np.ones(tree.num_nodes, dtype=bool) if drawn is None else drawn
    reach = np.broadcast_to(np.asarray(leaf_reach, dtype=int), (tree.num_nodes,))
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
            left[node], right[node] = [0.0] * (1 + reach[node]), [0.0] * (1 + reach[node])
            continue
        gap = 1.0 + (CHANCE_GAP if tree.player[node] == CHANCE else 0.0)
        at, lo, hi = _pack([(left.pop(c), right.pop(c)) for c in children], gap)
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


def _pack(contours: list[tuple[list[float], list[float]]], gap: float
          ) -> tuple[list[float], list[float], list[float]]:
    """Subtrees side by side, each pushed as close to those before it as their (left, right)
    contours allow, ``gap`` apart at the closest level: each one's shift, and the joined
    left and right contours."""
    lo, hi = list(contours[0][0]), list(contours[0][1])
    at = [0.0]
    for cl, cr in contours[1:]:
        shift = max(h - low for h, low in zip(hi, cl)) + gap
        at.append(shift)
        for d in range(len(cl)):
            if d < len(lo):
                lo[d], hi[d] = min(lo[d], cl[d] + shift), max(hi[d], cr[d] + shift)
            else:
                lo.append(cl[d] + shift)
                hi.append(cr[d] + shift)
    return at, lo, hi


def infoset_lanes(tree: GameTree, nodes: np.ndarray, x: np.ndarray,
                  drawn: np.ndarray) -> tuple[dict[int, np.ndarray], dict[int, int], np.ndarray]:
    """Where the information sets with two or more drawn members are drawn.

    A set is a shaded band when no other node of its level sits between its
    members, else a dashed connector in a lane of its own above the level (a
    lane is reused only with room for the set's key label before it).  Levels
    with lanes get taller to hold them: ``LANE_STEP`` levels per lane.

    Returns
    -------
    groups : dict
        ``{information-set id: drawn member node ids}``.
    lanes : dict
        ``{information-set id: lane}``, ``-1`` for a band.
    y : float array of shape (tree nodes,)
        The nodes' heights with the lanes' room added (NaN where not drawn).
    """
    drawn_decisions = nodes[tree.player[nodes] >= 0]
    members: dict[int, list[int]] = {}
    for n in drawn_decisions.tolist():
        members.setdefault(int(tree.infoset[n]), []).append(n)
    groups = {i: np.array(m) for i, m in members.items() if len(m) > 1}
    lanes: dict[int, int] = {}          # infoset -> lane, or -1 for a band
    lanes_at = np.zeros(int(np.max(tree.depth)) + 1, dtype=np.int64)
    by_depth: dict[int, list[int]] = {}
    for info, m in groups.items():
        by_depth.setdefault(int(tree.depth[m[0]]), []).append(info)
    for d, infos in by_depth.items():
        level_x = np.sort(x[nodes[tree.depth[nodes] == d]])
        placed: list[list[tuple[float, float]]] = []    # per lane, the spans drawn in it
        inside: list[tuple[float, float, int]] = []     # every connector's span and lane
        # Narrow sets first, each in the lowest lane it may take: a set whose span holds
        # another set's whole span passes above it, over that set's drops instead of
        # across them (its own drops cross nothing there), as in Kuhn poker, where Qp and
        # Qb span the other four sets of player 2.
        for info in sorted(infos, key=lambda i: (np.ptp(x[groups[i]]), x[groups[i]].min())):
            xs = x[groups[info]]
            lo, hi = float(xs.min()), float(xs.max())
            between = int(np.sum((level_x > lo) & (level_x < hi)))
            if between == len(xs) - 2:
                lanes[info] = -1
                continue
            lane = 1 + max((k for a, b, k in inside if lo < a and b < hi), default=-1)
            # Share a lane only with room for a key label before each span.
            while lane < len(placed) and any(not (hi < a - 1.2 or b < lo - 1.2)
                                             for a, b in placed[lane]):
                lane += 1
            placed += [[] for _ in range(lane + 1 - len(placed))]
            placed[lane].append((lo, hi))
            inside.append((lo, hi, lane))
            lanes[info] = lane
        lanes_at[d] = len(placed)
    extra = np.cumsum(LANE_STEP * lanes_at)
    y = np.where(drawn, -(tree.depth + extra[tree.depth]), np.nan)
    return groups, lanes, y
