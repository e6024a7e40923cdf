"""How big a game is, what one CFR iteration costs on it, and how a lossless abstraction maps back.

Sizes of our own games are counted from their trees; the sizes of the games
the famous programs played are published figures, kept here with their
sources (:data:`PUBLISHED_SIZES`) so that every chart can cite them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from ..core.checks import whole_number
from ..core.policy import Policy
from ..core.tree import CHANCE, TERMINAL, as_tree
from ..solvers import solve

#: Bytes of one float64 entry of a solver table.
FLOAT_BYTES = 8


@dataclass(frozen=True)
class GameSize:
    """Counts read off a game tree.

    Attributes
    ----------
    name : str
    nodes, decision_nodes, chance_nodes, terminals : int
    infosets : int
        Information sets of both players.
    infoset_actions : int
        Legal (information set, action) pairs: the entries a regret table
        really needs.
    max_actions : int
        The widest set; our tables are ``infosets x max_actions``.
    depth : int
        Longest path from the root, in moves (chance included).
    """

    name: str
    nodes: int
    decision_nodes: int
    chance_nodes: int
    terminals: int
    infosets: int
    infoset_actions: int
    max_actions: int
    depth: int

    @property
    def table_entries(self) -> int:
        """Entries of one (information sets x max actions) solver table."""
        return self.infosets * self.max_actions


def game_size(game, name: str | None = None) -> GameSize:
    """Count the nodes, information sets and actions of a game tree."""
    tree = as_tree(game)
    return GameSize(name=name or tree.name, nodes=tree.num_nodes,
                    decision_nodes=int(np.sum(tree.player >= 0)),
                    chance_nodes=int(np.sum(tree.player == CHANCE)),
                    terminals=int(np.sum(tree.player == TERMINAL)),
                    infosets=tree.num_infosets, infoset_actions=int(tree.legal_mask.sum()),
                    max_actions=tree.max_actions, depth=int(np.max(tree.depth)))


def solver_bytes(game, tables: int = 2) -> int:
    """Memory of ``tables`` float64 tables of shape (information sets, max actions).

    CFR keeps two for good (cumulative regret and strategy sum); the current
    strategy and one iteration's regrets are scratch space on top.
    """
    whole_number(tables, "tables", 1)
    tree = as_tree(game)
    return int(tables) * tree.num_infosets * tree.max_actions * FLOAT_BYTES


def tree_bytes(game) -> int:
    """Memory of the tree's numpy arrays (node arrays, children, the legal mask)."""
    tree = as_tree(game)
    arrays = [tree.parent, tree.action, tree.player, tree.chance_prob, tree.utility,
              tree.infoset, tree.depth, tree.infoset_player, tree.legal_mask, *tree.children]
    return int(sum(a.nbytes for a in arrays))


def seconds_per_iteration(game, algorithm: str = "cfr", iterations: int = 200,
                          repeats: int = 3, **params) -> float:
    """Best-of-``repeats`` solver time per iteration, nothing evaluated (``checkpoints=[]``).

    Compilation happens before the timed loop (see :func:`cfrviz.solve`),
    so the first call on a machine is not penalised.
    """
    for value, name, low in ((iterations, "iterations", 1), (repeats, "repeats", 1)):
        whole_number(value, name, low)
    tree = as_tree(game)
    best = float("inf")
    for _ in range(int(repeats)):
        trace = solve(tree, algorithm, int(iterations), checkpoints=[], progress=False, **params)
        best = min(best, trace.extras["total_time"] / int(iterations))
    return best


@dataclass(frozen=True)
class ScalingRow:
    """One game's size with the measured cost of a CFR iteration and its memory."""

    size: GameSize
    seconds_per_iteration: float
    solver_bytes: int
    tree_bytes: int

    @property
    def microseconds_per_infoset(self) -> float:
        return 1e6 * self.seconds_per_iteration / self.size.infosets


@dataclass(frozen=True)
class ScalingTable:
    """:func:`measure_scaling`'s rows, shown as a table in a notebook."""

    rows: tuple
    algorithm: str

    def _cells(self):
        for r in self.rows:
            s = r.size
            yield [s.name, f"{s.nodes:,}", f"{s.infosets:,}", f"{s.infoset_actions:,}",
                   f"{1e6 * r.seconds_per_iteration:,.0f}", f"{r.solver_bytes / 1024:,.1f}",
                   f"{r.tree_bytes / 1024:,.0f}"]

    HEAD = ("game", "nodes", "information sets", "set-actions", "µs per iteration",
            "solver tables (KiB)", "tree arrays (KiB)")

    def __str__(self) -> str:
        rows = [list(self.HEAD), *self._cells()]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w)
                                   for i, (c, w) in enumerate(zip(r, widths))) for r in rows)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.HEAD)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>"
                       for cells in self._cells())
        return (f"<table><caption>{html.escape(self.algorithm)}: one iteration, measured here"
                f"</caption><tr>{head}</tr>{body}</table>")


def measure_scaling(games: Mapping[str, object], algorithm: str = "cfr", iterations: int = 200,
                    repeats: int = 3) -> ScalingTable:
    """Size, time per iteration and memory of each named game (``{label: game}``)."""
    if not isinstance(games, Mapping) or not games:
        raise ValueError("games must be a non-empty dict {label: game}")
    rows = []
    for label, game in games.items():
        rows.append(ScalingRow(size=game_size(game, label),
                               seconds_per_iteration=seconds_per_iteration(
                                   game, algorithm, iterations, repeats),
                               solver_bytes=solver_bytes(game), tree_bytes=tree_bytes(game)))
    return ScalingTable(rows=tuple(rows), algorithm=algorithm)


# ----------------------------------------------------------------------------- abstraction

_SUIT = re.compile(r"[a-z]")


def suit_free_key(key: str) -> str:
    """The rank-only key of a suited Leduc key: ``"KsQh:rc/r"`` becomes ``"KQ:rc/r"``.

    Card names are an upper-case rank and a lower-case suit; the betting
    history after ``:`` is kept as it is.
    """
    if not isinstance(key, str) or ":" not in key:
        raise ValueError(f"expected a key such as 'KsQh:rc/r'; got {key!r}")
    cards, betting = key.split(":", 1)
    return f"{_SUIT.sub('', cards)}:{betting}"


def lift_policy(policy: Policy, game, key_map: Callable[[str], str] = suit_free_key) -> Policy:
    """Play an abstract game's policy in the full game: each set copies its abstract set's row.

    Parameters
    ----------
    policy : Policy
        A policy of the abstract game (e.g. ``leduc_poker`` on ranks).
    game : GameTree
        The full game (e.g. ``leduc_poker(suits=True)``).
    key_map : callable
        Maps a full-game key to its abstract key (default :func:`suit_free_key`).

    Raises
    ------
    ValueError
        When a full-game set maps to no abstract set, or the actions differ.
    """
    full = as_tree(game)
    abstract = policy.game
    probs = np.zeros(full.legal_mask.shape)
    for row, key in enumerate(full.infoset_keys):
        target = abstract.infoset_index(key_map(key))
        if abstract.infoset_actions[target] != full.infoset_actions[row]:
            raise ValueError(f"{key!r} has actions {list(full.infoset_actions[row])} but "
                             f"{key_map(key)!r} has {list(abstract.infoset_actions[target])}")
        width = len(full.infoset_actions[row])
        probs[row, :width] = policy.probabilities[target, :width]
    return Policy(full, probs)


# ----------------------------------------------------------------------------- published sizes

@dataclass(frozen=True)
class PublishedSize:
    """A game size from the literature, with where it comes from.

    Attributes
    ----------
    game : str
    infosets : float
        Information sets (decision points) of both players.
    approximate : bool
        True when the source gives an order of magnitude rather than a count.
    note : str
        What exactly was counted.
    source : str
        Authors, year, title, venue.
    cite : str
        The short form, e.g. "Bowling et al. 2015".
    """

    game: str
    infosets: float
    approximate: bool
    note: str
    source: str
    cite: str


PUBLISHED_SIZES = (
    PublishedSize(
        game="heads-up limit Texas hold'em",
        infosets=3.19e14, approximate=False,
        note="about 3.19 × 10^14 information sets; the game Cepheus solved",
        source=("M. Bowling, N. Burch, M. Johanson and O. Tammelin (2015), Heads-up limit "
                "hold'em poker is solved, Science 347(6218)"),
        cite="Bowling et al. 2015"),
    PublishedSize(
        game="heads-up no-limit Texas hold'em",
        infosets=1e161, approximate=True,
        note=("about 10^161 information sets, for 200-big-blind stacks as in the Annual "
              "Computer Poker Competition; the game DeepStack and Libratus played"),
        source=("M. Johanson (2013), Measuring the size of large no-limit poker games, "
                "technical report TR13-01, University of Alberta (arXiv:1302.7008)"),
        cite="Johanson 2013"),
)
