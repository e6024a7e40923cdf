"""cfrviz.games.holdem.cards: the card encoding, boards and their refusals, and our own
seven-card evaluator, checked on known hands and against an outside one (phevaluator) on every
combo of 200 seeded boards, ties included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfrviz.games.holdem.cards import (
    CATEGORIES,
    all_combos,
    card_name,
    combo_index,
    hand_strength,
    parse_board,
    parse_cards,
    strength,
)

BOARD = "Td9d6h4c2s"


def test_the_encoding_is_rank_major():
    assert [card_name(c) for c in (0, 1, 2, 3, 4, 51)] == ["2c", "2d", "2h", "2s", "3c", "As"]
    assert parse_cards(BOARD) == (33, 29, 18, 8, 3)
    names = "".join(card_name(c) for c in range(52))
    assert parse_cards(names) == tuple(range(52))


def test_cards_may_be_spaced_and_any_case():
    assert parse_cards("td 9D, 6h") == parse_cards("Td9d6h")
    assert parse_board(" Td 9d 6h 4c 2s ") == parse_board(BOARD) == parse_board(
        [33, 29, 18, 8, 3])


@pytest.mark.parametrize(("board", "message"), [
    ("Td9d6h4c", "exactly 5 cards (e.g. 'Td9d6h4c2s'); got 4"),
    ("Td9d6h4c2s3s", "exactly 5 cards (e.g. 'Td9d6h4c2s'); got 6"),
    ("", "got 0"),
    ("Td9d6hTd2s", "card 4 'Td' repeats card 1: each card is in the deck once"),
    ("Td9d1h4c2s", "card 3 '1h' is not a card: a card is a rank (2, 3, 4, 5, 6, 7, 8, 9, T, J, "
                   "Q, K, A) then a suit (c, d, h, s), e.g. 'Td'"),
    ("Td9x6h4c2s", "card 2 '9x' is not a card"),
    ("Td9d6h4c2", "card 5 '2' is not a card"),
    ([33, 29, 18, 29, 3], "card 4 '9d' repeats card 2"),
    ([33, 29, 18, 8, 52], "a card is an int from 0 to 51 (4 * rank + suit); got 52"),
    ([33, 29, 18, 8], "got 4"),
    (None, "a river board is text such as 'Td9d6h4c2s' or five card ints; got None"),
    (5, "five card ints; got 5"),
    (b"Td9d6h4c2s", "five card ints; got b'Td9d6h4c2s'"),
])
def test_a_bad_board_is_refused_naming_the_card(board, message):
    with pytest.raises(ValueError) as raised:
        parse_board(board)
    assert message in str(raised.value)


@pytest.mark.parametrize("card", [-1, 52, True, 2.0, "2c"])
def test_card_name_refuses_a_non_card(card):
    with pytest.raises(ValueError, match="a card is an int from 0 to 51"):
        card_name(card)


def test_all_combos_are_in_combo_index_order():
    combos = all_combos()
    assert combos.shape == (1326, 2) and (combos[:, 0] > combos[:, 1]).all()
    assert (combo_index(combos) == np.arange(1326)).all()
    assert (combo_index(combos[:, ::-1]) == np.arange(1326)).all()


def _category(cards: str) -> str:
    return CATEGORIES[strength(parse_cards(cards)) // 13**5]


@pytest.mark.parametrize(("cards", "category"), [
    ("As5d4c3h2s9c9d", "straight"),  # the wheel beats the pair of nines
    ("5s4s3s2sAsKsQs", "straight flush"),  # the steel wheel, not the ace-high flush
    ("AsKs9s5s2sAhAd", "flush"),
    ("KsKhKd7s7h7d2c", "full house"),  # two trips make a full house
    ("9s9h9d9c2c3d4h", "four of a kind"),
    ("QsQhJdJc5s5h2c", "two pair"),
    ("QsQh8d7c5s4h2c", "pair"),
    ("AsKh8d7c5s4h2c", "high card"),
    ("7s7h7d6c5s4h3c", "straight"),  # the straight 3-7 beats the trips
    ("Ts9s8s7s6s5s4s", "straight flush"),
])
def test_categories_of_known_hands(cards, category):
    assert _category(cards) == category


@pytest.mark.parametrize(("better", "worse"), [
    ("6s5d4c3h2s9c9d", "As5d4c3h2sKcQd"),  # a six-high straight beats the wheel
    ("KsKhKd7s7h2d2c", "KsKhKd5s5h4d4c"),  # the full house takes the higher pair: kings full
    ("QsQhJdJc5s5hAc", "QsQhJdJc5s5h4c"),  # two pair: the kicker may be the third pair's rank
    ("QsQhJdJc9s5h4c", "QsQhJdJc5s5h8c"),  # ... or a single above it
    ("9s9h9d9cAc3d4h", "9s9h9d9cKcKdKh"),  # quads: the best fifth card, here an ace
    ("AsKs9s5s3sAhAd", "AsKs9s5s2sAhAd"),  # flush: the fifth card decides
])
def test_known_orders(better, worse):
    assert strength(parse_cards(better)) > strength(parse_cards(worse))


def test_the_board_can_play_for_both():
    # a broadway straight on the board: every combo without a flush or higher ties
    board = "AsKdQhJcTs"
    values = hand_strength(board, [parse_cards("2c3d"), parse_cards("4h5h"), parse_cards("Ad2c")])
    assert len(set(values.tolist())) == 1


def test_hand_strength_refuses_a_combo_on_the_board_or_a_bad_shape():
    with pytest.raises(ValueError, match=r"combo 1 TdAs repeats a card or holds a card of the "
                                         r"board Td9d6h4c2s"):
        hand_strength(BOARD, [parse_cards("AhKh"), parse_cards("TdAs")])
    with pytest.raises(ValueError, match=r"combo 0 AhAh repeats a card"):
        hand_strength(BOARD, [(50, 50)])
    with pytest.raises(ValueError, match=r"shape \(n, 2\).*got shape \(3,\)"):
        hand_strength(BOARD, [1, 2, 3])


def _ranks(values) -> np.ndarray:
    """Dense ranks (0 for the weakest): equal values share a rank."""
    return np.unique(values, return_inverse=True)[1].ravel()


def test_agrees_with_phevaluator_on_every_combo_of_200_boards():
    from phevaluator import evaluate_cards  # smaller is stronger

    rng = np.random.default_rng(20261203)
    combos = all_combos()
    for _ in range(200):
        board = [int(c) for c in rng.choice(52, size=5, replace=False)]
        dealt = combos[~np.isin(combos, board).any(axis=1)]
        ours = hand_strength(board, dealt)
        names = [card_name(c) for c in board]
        theirs = [-evaluate_cards(*names, card_name(a), card_name(b)) for a, b in dealt.tolist()]
        assert len(dealt) == 1081
        assert (_ranks(ours) == _ranks(theirs)).all(), [card_name(c) for c in board]


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(52)), st.permutations(range(4)))
def test_renaming_the_suits_changes_no_strength(deck, suits):
    cards = deck[:7]
    renamed = [4 * (c // 4) + suits[c % 4] for c in cards]
    assert strength(cards) == strength(renamed)
    assert strength(cards) == strength(cards[::-1])  # nor does the order of the cards
