"""A river spot's strategy at one node of its bet tree, combo by combo: how much of each combo is
still in the range there, how it plays, and what it is worth (issue 32 item 4; the hand grid of
:mod:`cfrviz.views.holdem` draws it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..core.tree import GameTree
from ..core.types import FloatArray, IntArray
from ..engine import counterfactual_table
from ..games.holdem import OOP, combo_name, hand_classes
from ..games.holdem.spot import river_spot
from .evaluation import expected_values

#: The 169 hand classes in the grid's reading order (``AA``, ``AKs``, ``AKo``, ...).
CLASSES = tuple(name for name, _ in hand_classes())
_CLASS_OF = {combo: k for k, (_, combos) in enumerate(hand_classes()) for combo in combos}


@dataclass(frozen=True, eq=False)
class NodeStrategy:
    """One player's strategy at one decision node of a river spot, combo by combo.

    Attributes
    ----------
    line, player, actions
        The node's line (``""`` at the root, ``"X-B50"``), who acts there (0 OOP, 1 IP) and
        the actions' labels.
    combos : list of str
        The player's combos (``"AsAh"``), in its range's order.
    hand_class : int array (combos,)
        Each combo's hand class, an index into :data:`CLASSES`.
    weight : float array (combos,)
        How much of each combo is still in the range here: its range weight times the
        player's own probability of playing to this node with it (0 to 1).
    strategy : float array (combos, actions)
        The combo's probability of each action (uniform where the policy gives none).
    class_combos : int array (169,)
        How many combos each hand class has on this board (those holding a board card gone).
    ev, action_ev : float arrays (combos,) and (combos, actions)
        What the combo is worth here in chips, and each action's worth: the player's share of
        the final pot minus everything it puts in on the river, given that play reached this
        node with this combo (at the root, OOP's range averages 47.216 on the reference spot
        at equilibrium).  NaN where the opponent never plays to the node.
    """

    line: str
    player: int
    actions: tuple[str, ...]
    combos: list[str]
    hand_class: IntArray
    weight: FloatArray
    strategy: FloatArray
    class_combos: IntArray
    ev: FloatArray
    action_ev: FloatArray

    def shares(self) -> FloatArray:
        """The range's share of each action here: each action's frequency over every combo,
        weighted by :attr:`weight` (they sum to 1; zeros when nothing reaches the node)."""
        total = self.weight.sum()
        if total <= 0:
            return np.zeros(len(self.actions))
        return (self.weight @ self.strategy) / total


def node_strategy(tree: GameTree, probabilities: FloatArray, line: str = "") -> NodeStrategy:
    """The acting player's strategy at ``line`` of a ``load_game("holdem_river", ...)`` tree,
    under a profile (e.g. ``trace.average_policy().probabilities``).

    Raises
    ------
    ValueError
        For a tree of another game, a line the bet tree does not have or a terminal line.
    """
    spot = river_spot(tree)
    node = spot.bets.nodes[spot.bets.index(line)]
    if node.terminal:
        raise ValueError(f"the line {line!r} ends the hand; a strategy belongs to a decision "
                         f"line, one of {_decision_lines(spot.bets)}")
    player = node.player
    hands = spot.ranges[player]
    names = [combo_name(c) for c in hands.combos.tolist()]
    infosets = np.array([tree.infoset_index(f"{name}:{line}") for name in names])
    table = counterfactual_table(tree, probabilities, player)
    opponent = table["opponent_reach"][infosets]
    reached = opponent > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        worth = np.where(reached, table["value"][infosets] / opponent, np.nan)
        action_worth = np.where(reached[:, None],
                                table["action_values"][infosets] / opponent[:, None], np.nan)
    half_pot = spot.bets.pot / 2  # the game's payoffs take half the starting pot off
    width = len(node.actions)
    return NodeStrategy(
        line, player, node.actions, names,
        np.array([_CLASS_OF[(a, b)] for a, b in hands.combos.tolist()], dtype=np.int64),
        hands.weights * table["own_reach"][infosets],
        np.asarray(probabilities)[infosets, :width].copy(),
        np.array([sum(1 for c in combos if not set(c) & set(spot.board))
                  for _, combos in hand_classes()], dtype=np.int64),
        worth + half_pot, action_worth[:, :width] + half_pot)


def _decision_lines(bets) -> str:
    lines = [bets.nodes[i].line for i in bets.decision_nodes()]
    return ", ".join(repr(line) for line in lines)


def decision_lines(tree: GameTree, player: int | None = None) -> list[str]:
    """The lines of the spot's decision nodes (of ``player`` alone if given), root first."""
    bets = river_spot(tree).bets
    return [bets.nodes[i].line for i in bets.decision_nodes(player)]


def line_name(line: str, player: int) -> str:
    """A decision line in words: ``"OOP at the root"``, ``"IP after X-B50"``."""
    who = "OOP" if player == OOP else "IP"
    return f"{who} at the root" if not line else f"{who} after {line}"


class LockGain(NamedTuple):
    """What a node lock changes: each player's EV in chips (its share of the pot net of its own
    river chips) at equilibrium and once the rest is re-solved around the lock.

    Attributes
    ----------
    pot : float
        The starting pot, for gains in % of it.
    equilibrium, locked : (float, float)
        OOP's and IP's EV in chips without and with the lock.
    """

    pot: float
    equilibrium: tuple[float, float]
    locked: tuple[float, float]

    def gain(self, player: int) -> float:
        """How many chips ``player`` (0 OOP, 1 IP) wins more against the lock."""
        return self.locked[player] - self.equilibrium[player]

    def __str__(self) -> str:
        rows = []
        for player, who in enumerate(("OOP", "IP")):
            gain = self.gain(player)
            rows.append(f"{who}: {self.equilibrium[player]:.2f} chips at equilibrium, "
                        f"{self.locked[player]:.2f} against the lock ({gain:+.2f} chips, "
                        f"{gain / self.pot:+.2%} of the pot)")
        return "\n".join(rows)


def lock_gain(tree: GameTree, policy, locked_tree: GameTree, locked_policy) -> LockGain:
    """Each player's EV at equilibrium (``policy`` on ``tree``) and against a lock
    (``locked_policy`` on ``locked_tree = cfrviz.games.lock(tree, ...)``)."""
    half_pot = river_spot(tree).bets.pot / 2
    before = expected_values(tree, policy)
    after = expected_values(locked_tree, locked_policy)
    return LockGain(2 * half_pot, (before[0] + half_pot, before[1] + half_pot),
                    (after[0] + half_pot, after[1] + half_pot))
