"""Which nodes of a game tree to draw: a deal, a node or a history, cut at a depth, and
what the drawing hides, in words."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.tree import CHANCE, GameTree
from .graph import edge_label

#: Trees with more nodes are drawn for one deal unless a subtree or depth is chosen.
MAX_NODES = 300
#: An explicitly chosen subtree larger than this is cut at a depth that fits.
MAX_DRAWN = 800


def subtree_sizes(tree: GameTree) -> np.ndarray:
    """Number of nodes in the subtree below (and including) each node."""
    sizes = np.ones(tree.num_nodes, dtype=np.int64)
    for d in range(int(np.max(tree.depth)), 0, -1):
        level = np.flatnonzero(tree.depth == d)
        np.add.at(sizes, tree.parent[level], sizes[level])
    return sizes


@dataclass(frozen=True)
class Selection:
    drawn: np.ndarray        # bool per node
    tops: tuple              # the selected subtree roots
    what: str | None         # "deal KQ", "node 17 (history 'KQ:p')", None for the whole tree
    notes: tuple             # what is hidden, in words
    cut: np.ndarray          # drawn nodes whose children are cut off by the depth limit


def _walk_labels(tree: GameTree, parts) -> tuple[list[int], str] | None:
    """Follow chance outcomes from the root; ``parts`` is a string or a sequence of labels."""
    node = 0
    path: list[str] = []
    if isinstance(parts, str):
        rest = parts
        while True:
            rest = rest.lstrip(" ,|/:;-")
            if not rest:
                return [node], ",".join(path)
            if tree.player[node] != CHANCE:
                return None
            labels = tree.chance_labels[node]
            full = sorted((lab for lab in labels if rest.startswith(lab)), key=len, reverse=True)
            if full:
                label = full[0]
                node = int(tree.children[node][labels.index(label)])
                path.append(label)
                rest = rest[len(label):]
                continue
            # A prefix of several outcomes ("Q" for every Leduc deal where player 1 holds Q).
            partial = [i for i, lab in enumerate(labels) if lab.startswith(rest)]
            if partial:
                prefix = ",".join(path) + "," if path else ""
                return ([int(tree.children[node][i]) for i in partial],
                        ", ".join(prefix + labels[i] for i in partial))
            return None
    for label in parts:
        if tree.player[node] != CHANCE or label not in tree.chance_labels[node]:
            return None
        node = int(tree.children[node][tree.chance_labels[node].index(label)])
        path.append(label)
    return [node], ",".join(path)


def _resolve_subtree(tree: GameTree, subtree) -> tuple[list[int], str | None]:
    if isinstance(subtree, (int, np.integer)) and not isinstance(subtree, bool):
        node = int(subtree)
        if not 0 <= node < tree.num_nodes:
            raise ValueError(f"{tree.name} has nodes 0..{tree.num_nodes - 1}; got node {node}")
        return [node], (None if node == 0 else f"node {node} (history {tree.history[node]!r})")
    if isinstance(subtree, (str, list, tuple)) and subtree:
        found = _walk_labels(tree, subtree)
        if found is not None and found[0] != [0]:
            tops, path = found
            return tops, (f"deals {path}" if len(tops) > 1 else f"deal {path}")
    if isinstance(subtree, str) and subtree in tree.history:
        node = tree.history.index(subtree)
        return [node], (None if node == 0 else f"node {node} (history {subtree!r})")
    deals = tree.chance_labels[0]
    if deals:
        listed = ", ".join(repr(d) for d in deals[:8]) + (", ..." if len(deals) > 8 else "")
        hint = (f"its deals (chance outcomes at the root) are {listed}; a history such as "
                f"{tree.history[tree.num_nodes - 1]!r} or a node id also works")
    else:
        hint = (f"it has no chance at the root: pass a node id (0..{tree.num_nodes - 1}) or a "
                f"history such as {tree.history[1]!r}")
    raise ValueError(f"{tree.name} has no deal or node {subtree!r}; {hint}")


def select(tree: GameTree, subtree, depth) -> Selection:
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, (int, np.integer))
                              or depth < 1):
        raise ValueError(f"depth is how many levels to draw below the top of the drawing, a "
                         f"whole number >= 1; got {depth!r}")
    sizes = subtree_sizes(tree)
    notes: list[str] = []
    if subtree is None:
        tops, what = [0], None
        if depth is None and tree.num_nodes > MAX_NODES:
            tops, what, notes = _first_deal(tree, sizes)
    else:
        tops, what = _resolve_subtree(tree, subtree)
    limit = MAX_NODES if subtree is None else MAX_DRAWN
    auto_depth = depth is None and sum(int(sizes[t]) for t in tops) > limit
    if auto_depth:
        depth = 1
        while _count_within(tree, tops, int(tree.depth[tops[0]]) + depth + 1) <= limit:
            depth += 1
    drawn, cut = _drawn(tree, tops,
                        None if depth is None else int(tree.depth[tops[0]]) + int(depth))
    cut_hidden = int(sum(int(sizes[c]) - 1 for c in cut))
    if what is not None and subtree is not None:
        notes.append(_shown_note(tree, tops, what,
                                 tree.num_nodes - int(drawn.sum()) - cut_hidden))
    if len(cut):
        where = f" below {what}" if what else ""
        how = " to keep it readable (choose with depth=)" if auto_depth else ""
        notes.append(f"cut at depth {depth}{where}{how}: {cut_hidden:,} nodes not drawn (⋯ marks "
                     "where)")
    return Selection(drawn=drawn, tops=tuple(tops), what=what, notes=tuple(notes),
                      cut=cut)


def _first_deal(tree: GameTree, sizes: np.ndarray) -> tuple[list[int], str | None, list[str]]:
    """A tree too large to read whole: its first deal (the first chance outcomes down to a
    subtree small enough), what that is, and a note saying so; the whole tree when its root
    is no chance node."""
    node = 0
    while sizes[node] > MAX_NODES and tree.player[node] == CHANCE:
        node = int(tree.children[node][0])
    if node == 0:
        return [0], None, []
    path = []
    n = node
    while n != 0:
        path.append(edge_label(tree, n))
        n = int(tree.parent[n])
    what = "deal " + ",".join(reversed(path))
    return [node], what, [f"{tree.num_nodes:,} nodes are too many to read: showing the first "
                          f"{what} (choose another with subtree=, e.g. "
                          f"subtree={tree.chance_labels[0][-1]!r})"]


def _drawn(tree: GameTree, tops: list[int], limit_depth: int | None
           ) -> tuple[np.ndarray, np.ndarray]:
    """Which nodes are drawn (the path from the root, and ``tops``' subtrees down to
    ``limit_depth``), and the drawn nodes whose children the limit cuts off."""
    drawn = np.zeros(tree.num_nodes, dtype=bool)
    n = int(tree.parent[tops[0]])
    while n >= 0:  # the path from the root to the selection
        drawn[n] = True
        n = int(tree.parent[n])
    frontier = list(tops)
    cut_nodes = []
    while frontier:
        drawn[frontier] = True
        nxt = []
        for n in frontier:
            kids = tree.children[n]
            if len(kids) == 0:
                continue
            if limit_depth is not None and tree.depth[n] >= limit_depth:
                cut_nodes.append(n)
            else:
                nxt.extend(kids.tolist())
        frontier = nxt
    return drawn, np.array(sorted(cut_nodes), dtype=np.int64)


def _shown_note(tree: GameTree, tops: list[int], what: str, hidden_elsewhere: int) -> str:
    """What a chosen subtree leaves out: the other deals, or the other branches' nodes."""
    if what.startswith("deal") and int(tree.parent[tops[0]]) == 0:
        hidden = len(tree.children[0]) - len(tops)
        return f"showing {what}; {hidden} of {len(tree.children[0])} deals hidden"
    return (f"showing {what} and the path to it; {hidden_elsewhere:,} of "
            f"{tree.num_nodes:,} nodes in other branches hidden")


def _count_within(tree: GameTree, tops, max_depth: int) -> int:
    count, frontier = 0, list(tops)
    while frontier:
        count += len(frontier)
        frontier = [c for n in frontier if tree.depth[n] < max_depth
                    for c in tree.children[n].tolist()]
    return count

