"""Hold'em ranges in the notation players write: ``AA-22,AKs-A2s,J9s+,KQo,AK,AhKh,AA:0.5``.

A token is one of

- a pair ``AA``, a run of pairs ``AA-22`` (either end first) or ``TT+`` (TT up to AA);
- a hand class ``AKs`` (suited, 4 combos), ``AKo`` (offsuit, 12) or ``AK`` (both, 16), higher
  rank first; a run keeping the top card ``AKs-A2s`` or ``KQo-KJo``; ``J9s+`` raises the kicker
  up to one below the top card (J9s, JTs);
- a single combo ``AhKh``;

each optionally weighted ``:w`` with ``0 < w <= 1`` (``AA:0.5``); tokens are separated by commas,
spaces around them allowed.  Combos holding a board card are removed and counted, except a single
combo written out, which is refused: it names a card the board already holds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .cards import RANKS, SUITS, card_name, combo_index, parse_board

VALID = ("a pair (AA, TT+, AA-22), a hand class higher rank first (AKs suited, AKo offsuit, AK "
         "both, J9s+, AKs-A2s, KQo-KJo) or a combo (AhKh), each with an optional weight 0 < w "
         "<= 1 (AA:0.5), separated by commas")
_RANK = "[2-9TJQKA]"
_CLASS = re.compile(f"({_RANK})({_RANK})([so]?)", re.IGNORECASE)
_COMBO = re.compile(f"({_RANK})([cdhs])({_RANK})([cdhs])", re.IGNORECASE)


@dataclass(frozen=True, eq=False)
class Range:
    """A player's range: the combos dealt with a positive weight, none holding a board card.

    Attributes
    ----------
    combos
        int64, shape (n, 2): each combo's cards, higher card first, in combo-index order
        (:func:`cfrviz.games.holdem.cards.all_combos`); read-only.
    weights
        float64, shape (n,): each combo's weight, in (0, 1]; read-only.
    blocked
        How many combos the text named that hold a board card, and so were removed.
    board
        The board's cards, or ``()`` for a range read without one.
    """

    combos: npt.NDArray[np.int64]
    weights: npt.NDArray[np.float64]
    blocked: int = 0
    board: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.combos)

    def __iter__(self) -> Iterator[tuple[tuple[int, int], float]]:
        """``((high card, low card), weight)`` per combo: ``dict(r)`` maps combo to weight."""
        yield from (((a, b), weight)
                    for (a, b), weight in zip(self.combos.tolist(), self.weights.tolist()))

    def __repr__(self) -> str:
        removed = (f", {self.blocked} removed by the board "
                   f"{''.join(map(card_name, self.board))}" if self.board else "")
        return f"<Range: {len(self)} combos{removed}>"

    def __str__(self) -> str:
        """The range written out: whole hand classes as ``AA``, ``AKs``, ``AKo``, the rest as
        combos, weights below 1 as ``:w``; :func:`parse_range` of it (with the same board)
        gives the same combos and weights."""
        return ",".join(_written(self))


def _written(hands: Range) -> list[str]:
    """The tokens of ``str(hands)``: a class whose every combo off the board is in the range
    with one weight is written as the class, other combos one by one."""
    weight_of = dict(hands)
    tokens = []
    for name, members in hand_classes():
        present = [c for c in members if not set(c) & set(hands.board)]
        weights = {weight_of.get(c) for c in present}
        if present and len(weights) == 1 and None not in weights:
            tokens.append(name + _weight_text(weights.pop()))
            continue
        tokens += [f"{card_name(a)}{card_name(b)}{_weight_text(weight_of[(a, b)])}"
                   for a, b in present if (a, b) in weight_of]
    return tokens


def _weight_text(weight: float | None) -> str:
    return "" if weight == 1.0 else f":{weight!r}"


def hand_classes() -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """The 169 hand classes with their combos (higher card first), as the 13x13 grid reads
    them row by row: ``AA``, ``AKs``, ``AKo``, ``AQs``, ..., ``KK``, ``KQs``, ..., ``22``."""
    for high in range(12, -1, -1):
        for low in range(high, -1, -1):
            kinds = ("",) if low == high else ("s", "o")
            for kind in kinds:
                yield RANKS[high] + RANKS[low] + kind, _class_combos(high, low, kind)


def _class_combos(high: int, low: int, kind: str) -> list[tuple[int, int]]:
    """The combos of a pair (``high == low``) or of a suited ``s`` / offsuit ``o`` / both ``""``
    class, each higher card first."""
    combos = []
    for suit_a in range(4):
        for suit_b in range(4):
            a, b = 4 * high + suit_a, 4 * low + suit_b
            pair_ok = high != low or suit_a > suit_b
            kind_ok = {"s": suit_a == suit_b, "o": suit_a != suit_b}.get(kind, True)
            if pair_ok and kind_ok:
                combos.append((a, b))
    return combos


class _TokenError(ValueError):
    """A token's fault, without its position (added by :func:`parse_range`); ``syntax``: the
    token is not written as any valid token, so the message lists them."""

    def __init__(self, message: str, syntax: bool = True) -> None:
        super().__init__(message)
        self.syntax = syntax


def _hand_class(text: str) -> tuple[int, int, str]:
    """(high rank, low rank, kind) of ``AKs``, ``AKo``, ``AK`` or a pair ``AA``."""
    match = _CLASS.fullmatch(text)
    if match is None:
        raise _TokenError(f"{text!r} is not a pair or a hand class")
    high, low = (RANKS.index(match.group(i).upper()) for i in (1, 2))
    kind = match.group(3).lower()
    if high == low and kind:
        raise _TokenError(f"a pair is neither suited nor offsuit: write {text[:2].upper()}")
    if high < low:
        raise _TokenError(f"write the higher rank first: {text[1] + text[0] + text[2:]}")
    return high, low, kind


def _expand(item: str) -> tuple[list[tuple[int, int]], bool]:
    """(the combos a token without its weight names, whether it is a single combo)."""
    if match := _COMBO.fullmatch(item):
        a, b = (4 * RANKS.index(match.group(i).upper()) + SUITS.index(match.group(i + 1).lower())
                for i in (1, 3))
        if a == b:
            raise _TokenError("a combo is two different cards", syntax=False)
        return [(max(a, b), min(a, b))], True
    if "-" in item:
        first, _, last = item.partition("-")
        (h1, l1, k1), (h2, l2, k2) = _hand_class(first), _hand_class(last)
        if h1 == l1 and h2 == l2:  # a run of pairs
            return _run([(r, r, "") for r in range(min(h1, h2), max(h1, h2) + 1)]), False
        if h1 != h2 or k1 != k2 or h1 == l1 or h2 == l2:
            raise _TokenError("a run keeps its top card and kind and moves the kicker, e.g. "
                              "AKs-A2s or KQo-KJo (pairs: AA-22)")
        return _run([(h1, r, k1) for r in range(min(l1, l2), max(l1, l2) + 1)]), False
    plus = item.endswith("+")
    high, low, kind = _hand_class(item.removesuffix("+"))
    if not plus:
        return _class_combos(high, low, kind), False
    if high == low:
        return _run([(r, r, "") for r in range(high, 13)]), False
    return _run([(high, r, kind) for r in range(low, high)]), False


def _run(classes: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    return [combo for high, low, kind in classes for combo in _class_combos(high, low, kind)]


def _weight(text: str) -> float:
    try:
        weight = float(text)
    except ValueError:
        weight = math.nan
    if not 0 < weight <= 1:  # NaN fails too
        raise _TokenError(f"the weight {text!r} is not a number in (0, 1]", syntax=False)
    return weight


def parse_range(text: str, board: str | Sequence[int] | None = None) -> Range:
    """Read a range written in players' notation (see the module's docstring).

    Parameters
    ----------
    text
        Comma-separated tokens, e.g. ``"AA-22,AKs-A2s,KQo-KJo,J9s+,AhKh,QQ:0.5"``.
    board
        The river board (text or card ints, as :func:`~cfrviz.games.holdem.cards.parse_board`):
        combos holding one of its cards are removed and counted in ``blocked``.

    Returns
    -------
    Range
        The combos in combo-index order with their weights.

    Raises
    ------
    ValueError
        For text that is empty or not text; naming the token and its position (counted from
        1) and saying what is valid for an unknown token, a bad weight, a combo given twice or
        a single combo on the board; and for a range whose every combo holds a board card.
    """
    if not isinstance(text, str):
        raise ValueError(f"a range is text such as 'AA-22,AKs,KQo'; got {text!r}")
    cards = parse_board(board) if board is not None else ()
    tokens = [token.strip() for token in text.split(",")]
    if tokens == [""]:
        raise ValueError(f"the range {text!r} is empty: write {VALID}")
    given: dict[tuple[int, int], tuple[float, int]] = {}  # combo -> (weight, token position)
    blocked = 0
    for position, token in enumerate(tokens, start=1):
        try:
            blocked += _read_token(tokens, position, cards, given)
        except _TokenError as error:
            valid = f"; valid tokens are {VALID}" if error.syntax else ""
            raise ValueError(f"range token {position} {token!r}: {error}{valid}") from None
    kept = sorted((c for c in given if not set(c) & set(cards)),
                  key=lambda c: int(combo_index(c)[0]))
    if not kept:
        raise ValueError(f"every combo of the range {text!r} holds a card of the board "
                         f"{''.join(map(card_name, cards))}: no hand is left to deal")
    combos = np.array(kept, dtype=np.int64).reshape(-1, 2)
    weights = np.array([given[c][0] for c in kept], dtype=np.float64)
    combos.setflags(write=False)
    weights.setflags(write=False)
    return Range(combos, weights, blocked, cards)


def _read_token(tokens: list[str], position: int, cards: tuple[int, ...],
                given: dict[tuple[int, int], tuple[float, int]]) -> int:
    """Add the combos of token ``position`` (from 1) to ``given``; return how many of them hold
    a board card."""
    token = tokens[position - 1]
    if not token:
        raise _TokenError("an empty token (two commas in a row, or a comma at an end)")
    item, colon, weight_text = token.partition(":")
    weight = _weight(weight_text.strip()) if colon else 1.0
    combos, single = _expand(item.strip())
    on_board = [c for c in combos if set(c) & set(cards)]
    if single and on_board:
        raise _TokenError(f"it holds a card of the board {''.join(map(card_name, cards))}: "
                          "leave it out", syntax=False)
    for combo in combos:
        if combo in given:
            earlier = given[combo][1]
            raise _TokenError(f"{card_name(combo[0])}{card_name(combo[1])} is already in token "
                              f"{earlier} {tokens[earlier - 1]!r}: give each combo once",
                              syntax=False)
        given[combo] = (weight, position)
    return len(on_board)
