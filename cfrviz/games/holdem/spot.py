"""A river spot read back from its game tree: the board, the two ranges and the bet tree that
:func:`~cfrviz.games.holdem.river.holdem_river` built it from (what the hand grid and node
locking need to name combos and lines)."""

from __future__ import annotations

from typing import Any, NamedTuple

from ...core.tree import GameTree
from .bets import BetTree, bet_tree
from .cards import parse_board
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
