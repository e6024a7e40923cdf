"""No-limit hold'em on the river: cards, boards, hand strength, ranges, bet trees, and the spot as
a game tree (issue 32)."""

from .bets import IP, OOP, BetNode, BetSize, BetTree, bet_tree, parse_sizes
from .cards import (
    CATEGORIES,
    MADE_HANDS,
    RANKS,
    SUITS,
    all_combos,
    card_name,
    combo_index,
    hand_strength,
    made_hand,
    parse_board,
    parse_cards,
    strength,
)
from .ranges import Range, hand_classes, parse_range
from .river import Deals, HoldemRiver, combo_name, deals, holdem_river
from .spot import RiverSpot, lock_line, river_spot, river_tree

__all__ = [
    "IP",
    "OOP",
    "BetNode",
    "BetSize",
    "BetTree",
    "bet_tree",
    "parse_sizes",
    "CATEGORIES",
    "MADE_HANDS",
    "RANKS",
    "SUITS",
    "Range",
    "all_combos",
    "card_name",
    "combo_index",
    "hand_classes",
    "hand_strength",
    "made_hand",
    "parse_board",
    "parse_cards",
    "parse_range",
    "strength",
    "Deals",
    "HoldemRiver",
    "combo_name",
    "deals",
    "holdem_river",
    "RiverSpot",
    "lock_line",
    "river_spot",
    "river_tree",
]
