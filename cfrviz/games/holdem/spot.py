"""A river spot read back from its game tree: the board, the two ranges and the bet tree that
:func:`~cfrviz.games.holdem.river.holdem_river` built it from (what the hand grid and node
locking need to name combos and lines)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ...core.tree import GameTree
from .bets import BetTree, bet_tree
from .cards import card_name, parse_board
from .ranges import Range, parse_range
from .river import PARAMS


class RiverSpot(NamedTuple):
    """The parts of a river spot.

    Attributes
    ----------
    board : tuple of int
        The five board cards.
    ranges : (Range, Range)
        OOP's and IP's ranges, board cards removed.
    bets : BetTree
        The betting: its lines, who acts where, the chips in.
    """

    board: tuple[int, ...]
    ranges: tuple[Range, Range]
    bets: BetTree


def river_tree(game: object) -> GameTree:
    """``game`` itself if it is a hold'em river spot's tree.

    Raises
    ------
    ValueError
        For anything else, naming it.
    """
    if not isinstance(game, GameTree) or game.name != "holdem_river":
        name = game.name if isinstance(game, GameTree) else type(game).__name__
        raise ValueError(f"this needs a hold'em river spot, load_game('holdem_river', ...); "
                         f"got {name}")
    return game


def river_spot(tree: object) -> RiverSpot:
    """The spot a ``load_game("holdem_river", ...)`` tree was built from.

    Raises
    ------
    ValueError
        For a tree of another game.
    """
    given = dict(river_tree(tree).params or {})
    args: dict[str, Any] = {param.name: given.get(param.name, param.default)
                            for param in PARAMS}
    board = parse_board(args["board"])
    oop, ip = args["ranges"]
    return RiverSpot(board, (parse_range(oop, board), parse_range(ip, board)),
                     bet_tree(args["pot"], args["stack"], args["bets"], args["raises"]))


def lock_line(tree: GameTree, line: str,
              choose: Callable[[str], Mapping[str, float] | None]) -> dict[str, dict[str, float]]:
    """The fixed strategies that lock some of the acting player's combos at ``line``, for
    :func:`cfrviz.games.locking.lock`: ``choose(combo)`` (a combo as ``"AsKd"``) returns the
    combo's strategy there as ``{action: probability}``, or ``None`` to leave it free.

    Example: IP never calls a half-pot bet with less than top pair::

        weak = MADE_HANDS.index("top pair")
        fixed = lock_line(tree, "B50", lambda combo: {"F": 1.0} if MADE_HANDS.index(
            made_hand(board, parse_cards(combo))) < weak else None)

    Raises
    ------
    ValueError
        For a line that is not a decision of the bet tree, or when ``choose`` locks nothing.
    """
    spot = river_spot(tree)
    node = spot.bets.nodes[spot.bets.index(line)]
    if node.terminal:
        raise ValueError(f"the line {line!r} ends the hand: nothing is decided there")
    fixed = {}
    for cards in spot.ranges[node.player].combos.tolist():
        combo = "".join(card_name(card) for card in cards)
        strategy = choose(combo)
        if strategy is not None:
            fixed[f"{combo}:{line}"] = dict(strategy)
    if not fixed:
        raise ValueError(f"nothing locked at {line!r}: the rule leaves every combo free")
    return fixed
