"""No-limit hold'em on the river: cards, boards, hand strength and ranges (issue 32)."""

from .cards import (
    CATEGORIES,
    RANKS,
    SUITS,
    all_combos,
    card_name,
    combo_index,
    hand_strength,
    parse_board,
    parse_cards,
    strength,
)
from .ranges import Range, hand_classes, parse_range

__all__ = [
    "CATEGORIES",
    "RANKS",
    "SUITS",
    "Range",
    "all_combos",
    "card_name",
    "combo_index",
    "hand_classes",
    "hand_strength",
    "parse_board",
    "parse_cards",
    "parse_range",
    "strength",
]
