"""cfrviz.games.holdem.ranges: the notation players write, the reference spot's combo counts,
board removal, the written-out form and every refusal's message."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfrviz.games.holdem.cards import RANKS, all_combos, card_name, combo_index, parse_cards
from cfrviz.games.holdem.ranges import VALID, Range, hand_classes, parse_range

BOARD = "Td9d6h4c2s"
# docs of the reference spot: ../shared/peers/postflop-river.md
OOP = "AA-22,AKs-A2s,KQs-K9s,QJs-Q9s,JTs,T9s,98s,AKo-ATo,KQo-KJo"
IP = "AA-22,AKs-A2s,KQs-K9s,QJs-Q9s,J9s+,T8s+,97s+,87s,76s,65s,AKo-ATo,KQo-KJo,QJo"
EVERY_HAND = ",".join(["AA-22", *(RANKS[h] + RANKS[low] for h in range(13) for low in range(h))])


def names(hands: Range) -> set[str]:
    return {card_name(a) + card_name(b) for (a, b), _ in hands}


def test_the_reference_spots_ranges():
    oop, ip = parse_range(OOP, board=BOARD), parse_range(IP, board=BOARD)
    assert (len(oop), len(ip)) == (208, 239)
    assert oop.blocked == len(parse_range(OOP)) - 208
    assert ip.blocked == len(parse_range(IP)) - 239
    assert repr(oop) == f"<Range: 208 combos, {oop.blocked} removed by the board {BOARD}>"


@pytest.mark.parametrize(("text", "count"), [
    ("AA", 6), ("AKs", 4), ("AKo", 12), ("AK", 16), ("AA-22", 78), ("TT+", 30),
    ("AKs-A2s", 48), ("KQo-KJo", 24), ("J9s+", 8), ("AhKh", 1), ("AK+", 16), ("A2+", 192),
])
def test_counts_without_a_board(text, count):
    assert len(parse_range(text)) == count


def test_every_hand():
    assert len(parse_range(EVERY_HAND)) == 1326
    full = parse_range(EVERY_HAND, board=BOARD)
    assert (len(full), full.blocked) == (1081, 245)
    dealt = all_combos()[~np.isin(all_combos(), parse_cards(BOARD)).any(axis=1)]
    assert (full.combos == dealt).all()


@pytest.mark.parametrize(("text", "same"), [
    ("TT+", "TT,JJ,QQ,KK,AA"),
    ("22-44", "44-22"),
    ("J9s+", "J9s,JTs"),
    ("KQo-KJo", "KJo-KQo"),
    ("AK", "AKs, AKo"),
    ("ak", "AK"),
    ("AKs-AQs", "AhKh,AsKs,AcKc,AdKd,AQs"),
    (" AA : 0.5 ,KK", "AA:0.5,KK"),
])
def test_spellings_of_one_range(text, same):
    a, b = parse_range(text), parse_range(same)
    assert (a.combos == b.combos).all() and (a.weights == b.weights).all()


def test_combos_are_canonical_read_only_and_weighted():
    hands = parse_range("KhAh,QQ:0.25,AKo:1")
    assert (hands.combos[:, 0] > hands.combos[:, 1]).all()
    assert (np.diff(combo_index(hands.combos)) > 0).all()
    assert hands.combos.dtype == np.int64 and hands.weights.dtype == np.float64
    weights = dict(hands)
    assert weights[parse_cards("AhKh")] == 1.0 and weights[parse_cards("QsQd")] == 0.25
    assert len(hands) == len(weights) == 1 + 6 + 12
    with pytest.raises(ValueError):
        hands.weights[0] = 0.5
    with pytest.raises(dataclasses.FrozenInstanceError):
        hands.blocked = 3


def test_written_out():
    hands = parse_range("AA:0.5,AKs,KhQd,KJo-KTo", board=BOARD)
    assert str(hands) == "AA:0.5,AKs,KhQd,KJo,KTo"  # KTo: its combos off the board
    # a class missing a combo is written combo by combo
    assert str(parse_range("AhKh,AsKs,AdKd")) == "AdKd,AhKh,AsKs"
    again = parse_range(str(parse_range(OOP, BOARD)), BOARD)
    assert len(again) == 208


_SYNTAX = f"; valid tokens are {VALID}"


@pytest.mark.parametrize(("text", "message"), [
    ("", f"the range '' is empty: write {VALID}"),
    ("  ", f"the range '  ' is empty: write {VALID}"),
    ("AA, AhAd", "range token 2 'AhAd': AhAd is already in token 1 'AA': give each combo once"),
    ("AK-QJ", "range token 1 'AK-QJ': a run keeps its top card and kind and moves the kicker, "
              "e.g. AKs-A2s or KQo-KJo (pairs: AA-22)" + _SYNTAX),
    ("AKs-A2o", "range token 1 'AKs-A2o': a run keeps its top card and kind and moves the "
                "kicker, e.g. AKs-A2s or KQo-KJo (pairs: AA-22)" + _SYNTAX),
    ("AA-KQ", "range token 1 'AA-KQ': a run keeps its top card and kind and moves the kicker, "
              "e.g. AKs-A2s or KQo-KJo (pairs: AA-22)" + _SYNTAX),
    ("KK,AA:0", "range token 2 'AA:0': the weight '0' is not a number in (0, 1]"),
    ("AA:1.5", "range token 1 'AA:1.5': the weight '1.5' is not a number in (0, 1]"),
    ("AA:nan", "range token 1 'AA:nan': the weight 'nan' is not a number in (0, 1]"),
    ("AA:", "range token 1 'AA:': the weight '' is not a number in (0, 1]"),
    ("AA,XYZ", "range token 2 'XYZ': 'XYZ' is not a pair or a hand class" + _SYNTAX),
    ("KAs", "range token 1 'KAs': write the higher rank first: AKs" + _SYNTAX),
    ("AAs", "range token 1 'AAs': a pair is neither suited nor offsuit: write AA" + _SYNTAX),
    ("AA,,KK", "range token 2 '': an empty token (two commas in a row, or a comma at an end)"
               + _SYNTAX),
    ("AA,", "range token 2 '': an empty token (two commas in a row, or a comma at an end)"
            + _SYNTAX),
    ("AhAh", "range token 1 'AhAh': a combo is two different cards"),
    ("AA,TdAs", "range token 2 'TdAs': it holds a card of the board Td9d6h4c2s: leave it out"),
])
def test_each_refusal_names_the_token(text, message):
    with pytest.raises(ValueError) as raised:
        parse_range(text, board=BOARD)
    assert message in str(raised.value)
    if _SYNTAX not in message:
        assert str(raised.value).endswith(message)  # the token list only for a syntax error


def test_a_range_the_board_blocks_whole_is_refused():
    blocked = "TdTcTh9s2c"  # three tens block every TT; Td, Tc, Th and 9s every T9s
    with pytest.raises(ValueError) as raised:
        parse_range("TT,T9s", board=blocked)
    assert str(raised.value) == ("every combo of the range 'TT,T9s' holds a card of the board "
                                 "TdTcTh9s2c: no hand is left to deal")
    left = parse_range("TT,T9s,T9o", board=blocked)
    assert names(left) == {"Ts9c", "Ts9d", "Ts9h"} and left.blocked == 6 + 4 + 9


@pytest.mark.parametrize("text", [None, 5, ["AA"]])
def test_a_range_must_be_text(text):
    with pytest.raises(ValueError, match="a range is text such as 'AA-22,AKs,KQo'; got "):
        parse_range(text)


def test_a_bad_board_is_refused():
    with pytest.raises(ValueError, match="exactly 5 cards"):
        parse_range("AA", board="AsKs")


_rank = st.integers(0, 12)


@settings(max_examples=80, deadline=None)
@given(_rank, _rank, st.sampled_from(["", "s", "o"]), _rank)
def test_runs_count_their_classes(top, a, kind, b):
    """A run of pairs holds 6 combos a pair; a run of classes 4 (suited), 12 (offsuit) or 16 a
    kicker."""
    pairs = parse_range(f"{RANKS[a]}{RANKS[a]}-{RANKS[b]}{RANKS[b]}")
    assert len(pairs) == 6 * (abs(a - b) + 1)
    low, high = sorted((a % top, b % top)) if top else (0, 0)
    if top:
        hands = parse_range(f"{RANKS[top]}{RANKS[high]}{kind}-{RANKS[top]}{RANKS[low]}{kind}")
        assert len(hands) == {"s": 4, "o": 12, "": 16}[kind] * (high - low + 1)
        plus = parse_range(f"{RANKS[top]}{RANKS[low]}{kind}+")
        assert len(plus) == {"s": 4, "o": 12, "": 16}[kind] * (top - low)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1325), st.sampled_from([1.0, 0.5, 0.125, 0.3])),
                min_size=1, max_size=300, unique_by=lambda pair: pair[0]))
def test_written_out_reads_back_as_itself(picked):
    text = ",".join(f"{card_name(a)}{card_name(b)}:{w}" for (a, b), w in
                    ((tuple(all_combos()[i].tolist()), w) for i, w in picked))
    hands = parse_range(text)
    again = parse_range(str(hands))
    assert (again.combos == hands.combos).all() and (again.weights == hands.weights).all()
    assert dict(again) == dict(hands) == {tuple(all_combos()[i].tolist()): w for i, w in picked}


CLASSES = [name for name, _ in hand_classes()]


def test_the_169_hand_classes():
    assert len(CLASSES) == 169 and CLASSES[:4] == ["AA", "AKs", "AKo", "AQs"]
    assert CLASSES[-1] == "22"
    combos = [c for _, members in hand_classes() for c in members]
    assert sorted(combo_index(combos).tolist()) == list(range(1326))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(CLASSES), st.sampled_from([1.0, 0.75, 0.01])),
                min_size=1, max_size=60, unique_by=lambda pair: pair[0]),
       st.sampled_from([None, BOARD, "AsKdQhJcTs", "2c2d2h3s3c"]))
def test_classes_written_out_read_back_as_themselves(picked, board):
    text = ",".join(f"{name}:{weight}" for name, weight in picked)
    try:
        hands = parse_range(text, board=board)
    except ValueError as error:  # the board took every combo: a refusal, said so
        assert "no hand is left to deal" in str(error)
        return
    again = parse_range(str(hands), board=board)
    assert dict(again) == dict(hands)
    if board is None:  # each class stays one token
        assert len(str(hands).split(",")) == len(picked)
