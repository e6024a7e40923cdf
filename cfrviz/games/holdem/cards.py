"""Cards, boards and seven-card hand strength for hold'em.

A card is an int from 0 to 51, rank-major: ``card = 4 * rank + suit``, with ranks ``2`` to ``A``
as 0 to 12 and suits ``c, d, h, s`` as 0 to 3 (so ``2c`` is 0, ``2s`` is 3 and ``As`` is 51).
Cards are written as players write them: a rank from ``RANKS`` and a suit from ``SUITS``
(``Td``, ``9d``, ``As``).  A combo is two distinct cards, higher card first; the 1,326 combos have
the index ``a * (a - 1) // 2 + b`` for ``a > b`` (the order of :func:`all_combos`).

The evaluator is ours and written for reading, not speed (a river spot needs at most 1,326
evaluations): the best five of seven cards are classed by flushes, straights (the wheel
``A2345`` included) and rank counts; tests/test_holdem_cards.py checks its order, ties included,
against phevaluator on every combo of hundreds of boards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_CARDS = 52
BOARD_SIZE = 5  # the river
#: The hand categories, weakest first: a strength's leading base-13 digit.
CATEGORIES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
              "full house", "four of a kind", "straight flush")


def card_name(card: int) -> str:
    """The two-character name of ``card`` (``0`` is ``"2c"``, ``51`` is ``"As"``).

    Raises
    ------
    ValueError
        If ``card`` is not an int from 0 to 51.
    """
    if isinstance(card, bool) or not isinstance(card, int | np.integer) or not 0 <= card < 52:
        raise ValueError(f"a card is an int from 0 to 51 (4 * rank + suit); got {card!r}")
    return RANKS[card // 4] + SUITS[card % 4]


def _card(token: str, position: int) -> int:
    """The card ``token`` names (rank letter any case, suit lower or upper case)."""
    rank, suit = token[:1].upper(), token[1:].lower()
    if len(token) != 2 or rank not in RANKS or suit not in SUITS:
        raise ValueError(f"card {position} {token!r} is not a card: a card is a rank "
                         f"({', '.join(RANKS)}) then a suit ({', '.join(SUITS)}), e.g. 'Td'")
    return 4 * RANKS.index(rank) + SUITS.index(suit)


def parse_cards(text: str) -> tuple[int, ...]:
    """The cards written in ``text``, in order: ``"Td9d6h4c2s"`` is ``(33, 29, 18, 8, 3)``.

    Spaces and commas between cards are allowed (``"Td 9d, 6h"``).

    Raises
    ------
    ValueError
        Naming the card and its position (counted from 1) if a token is not a rank then a suit,
        or if a card appears twice.
    """
    compact = "".join(text.replace(",", " ").split())
    tokens = [compact[i:i + 2] for i in range(0, len(compact), 2)]
    cards: list[int] = []
    for position, token in enumerate(tokens, start=1):
        card = _card(token, position)
        if card in cards:
            raise ValueError(f"card {position} {token!r} repeats card {cards.index(card) + 1}: "
                             f"each card is in the deck once")
        cards.append(card)
    return tuple(cards)


def parse_board(board: str | Sequence[int]) -> tuple[int, ...]:
    """A river board: exactly five distinct cards, from text (``"Td9d6h4c2s"``) or card ints.

    Raises
    ------
    ValueError
        Naming the bad card and its position, a repeated card, or the count when it is not five;
        for a board that is neither text nor a sequence of card ints.
    """
    if isinstance(board, bytes) or not isinstance(board, str | Sequence | np.ndarray):
        raise ValueError(f"a river board is text such as 'Td9d6h4c2s' or five card ints; got "
                         f"{board!r}")
    # card ints are read as their names (card_name refuses a non-card, naming it), so both
    # forms meet parse_cards' one check for a repeated card
    cards = parse_cards(board if isinstance(board, str) else "".join(map(card_name, board)))
    if len(cards) != BOARD_SIZE:
        raise ValueError(f"a river board has exactly {BOARD_SIZE} cards (e.g. 'Td9d6h4c2s'); "
                         f"got {len(cards)}: {board!r}")
    return cards


def all_combos() -> npt.NDArray[np.int64]:
    """The 1,326 two-card combos, shape (1326, 2), higher card first, in combo-index order."""
    return np.array([(a, b) for a in range(NUM_CARDS) for b in range(a)], dtype=np.int64)


def combo_index(combos: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Each combo's index in :func:`all_combos` (either card order accepted)."""
    pairs = np.asarray(combos, dtype=np.int64).reshape(-1, 2)
    high: npt.NDArray[np.int64] = pairs.max(axis=1)
    low: npt.NDArray[np.int64] = pairs.min(axis=1)
    return high * (high - 1) // 2 + low


def _straight_high(ranks: set[int]) -> int | None:
    """The top rank of the highest five ranks in a row, the ace also low (``A2345`` is 3)."""
    for top in range(12, 2, -1):
        if all((top - step) % 13 in ranks for step in range(5)):
            return top
    return None


def _category(cards: Sequence[int]) -> tuple[int, list[int]]:
    """(category, the ranks that break ties within it, most significant first)."""
    ranks = sorted((card // 4 for card in cards), reverse=True)
    suits = [card % 4 for card in cards]
    flush_suit = next((s for s in range(4) if suits.count(s) >= 5), None)
    if flush_suit is not None:
        flush = sorted((c // 4 for c in cards if c % 4 == flush_suit), reverse=True)
        top = _straight_high(set(flush))
        return (8, [top]) if top is not None else (5, flush[:5])
    # ranks grouped by count then rank, largest first: quads, then trips, pairs, singles
    groups = sorted({(ranks.count(r), r) for r in ranks}, reverse=True)
    count, best = groups[0]
    others = [r for r in ranks if r != best]
    if count == 4:
        return 7, [best, others[0]]
    if count == 3 and groups[1][0] >= 2:
        return 6, [best, groups[1][1]]
    top = _straight_high(set(ranks))
    if top is not None:
        return 4, [top]
    if count == 3:
        return 3, [best, *others[:2]]
    if count == 2 and groups[1][0] == 2:
        second = groups[1][1]
        return 2, [best, second, next(r for r in ranks if r not in (best, second))]
    if count == 2:
        return 1, [best, *others[:3]]
    return 0, ranks[:5]


def strength(cards: Sequence[int]) -> int:
    """The strength of the best five of ``cards`` (five to seven): higher wins, equal ties.

    The category (see ``CATEGORIES``) then up to five tie-breaking ranks, as base-13 digits.
    """
    category, ranks = _category(cards)
    value = category
    for position in range(5):
        value = value * 13 + (ranks[position] if position < len(ranks) else 0)
    return value


def hand_strength(board: str | Sequence[int],
                  combos: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """The seven-card strength of each combo on a river ``board``: higher wins, equal ties.

    Parameters
    ----------
    board
        Five distinct cards (text such as ``"Td9d6h4c2s"`` or card ints), as :func:`parse_board`.
    combos
        Shape (n, 2): each row two distinct card ints, neither on the board.

    Returns
    -------
    numpy.ndarray
        int64, shape (n,).

    Raises
    ------
    ValueError
        For a bad board, or naming the combo that repeats a card or holds a board card.
    """
    cards = parse_board(board)
    pairs = np.asarray(combos, dtype=np.int64)
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ValueError(f"combos must have shape (n, 2), one row of two cards per combo; got "
                         f"shape {pairs.shape}")
    out = np.empty(len(pairs), dtype=np.int64)
    for row, (a, b) in enumerate(pairs.tolist()):
        hole = f"{card_name(a)}{card_name(b)}"
        if a == b or a in cards or b in cards:
            raise ValueError(f"combo {row} {hole} repeats a card or holds a card of the board "
                             f"{''.join(map(card_name, cards))}")
        out[row] = strength((*cards, a, b))
    return out


#: Made hands as players name them on a river, weakest first: a pair is named by where its rank
#: stands against the board's (above every board card: an overpair; the board's highest: top
#: pair; its second: second pair; lower: a weak pair), a pair only the board holds is no hand of
#: the player's own (high card); the rest are :data:`CATEGORIES`.
MADE_HANDS = ("high card", "weak pair", "second pair", "top pair", "overpair", *CATEGORIES[2:])


def made_hand(board: str | Sequence[int], combo: Sequence[int]) -> str:
    """What ``combo`` makes on the river ``board``, one of :data:`MADE_HANDS`.

    Raises
    ------
    ValueError
        As :func:`hand_strength`, for a bad board or combo.
    """
    cards = parse_board(board)
    value = int(hand_strength(cards, [list(combo)])[0])
    category = value // 13 ** 5
    if category != 1:
        return "high card" if category == 0 else CATEGORIES[category]
    pair = value // 13 ** 4 % 13
    if pair not in (card // 4 for card in combo):
        return "high card"  # the board's pair
    ranks = sorted({card // 4 for card in cards}, reverse=True)
    if pair > ranks[0]:
        return "overpair"
    if pair == ranks[0]:
        return "top pair"
    return "second pair" if pair == ranks[1] else "weak pair"
