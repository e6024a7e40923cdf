"""Pocket poker: exact chance probabilities from card counts, hand ranking, payoffs."""

from itertools import combinations

import numpy as np
import pytest

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL
from cfrviz.games.pocket import RANKS, hand_strength
from cfrviz.reference.evaluation import reach_probabilities


@pytest.fixture(scope="module")
def pocket():
    return cfrviz.load_game("pocket_poker")


def test_structure(pocket):
    assert (pocket.num_nodes, pocket.num_infosets) == (17041, 450)
    assert np.bincount(pocket.infoset_player).tolist() == [225, 225]
    assert pocket.player[0] == CHANCE and pocket.depth.max() == 7
    assert pocket.infoset_actions[pocket.infoset_index("AK|Q:")] == ("c", "r")
    assert pocket.infoset_actions[pocket.infoset_index("AK|Q:cr")] == ("f", "c", "r")
    assert pocket.infoset_actions[pocket.infoset_index("AK|Q:rr")] == ("f", "c")
    assert pocket.infoset_player[pocket.infoset_index("TT|T:c")] == 1
    assert np.all(pocket.utility.sum(axis=1) == 0)


def deal_distribution_by_brute_force():
    """{(hand 1, hand 2, public rank): probability} over the 20 labelled cards."""
    rank = np.arange(20) // 4
    pairs = np.array(list(combinations(range(20), 2)))
    a, b, c = np.meshgrid(np.arange(len(pairs)), np.arange(len(pairs)), np.arange(20),
                          indexing="ij")
    a, b, c = a.ravel(), b.ravel(), c.ravel()
    cards = np.column_stack([pairs[a], pairs[b], c])
    same = cards[:, :, None] == cards[:, None, :]
    cards = cards[same.sum(axis=(1, 2)) == 5]  # five distinct cards: only the diagonal matches
    r = rank[cards]
    hand1 = np.sort(r[:, :2], axis=1)[:, ::-1]
    hand2 = np.sort(r[:, 2:4], axis=1)[:, ::-1]
    code = ((hand1[:, 0] * 5 + hand1[:, 1]) * 25 + hand2[:, 0] * 5 + hand2[:, 1]) * 5 + r[:, 4]
    counts = np.bincount(code, minlength=5 ** 5)
    out = {}
    for k in np.flatnonzero(counts):
        digits = [int(k) // 5 ** e % 5 for e in range(4, -1, -1)]
        label = (RANKS[digits[0]] + RANKS[digits[1]], RANKS[digits[2]] + RANKS[digits[3]],
                 RANKS[digits[4]])
        out[label] = counts[k] / len(cards)
    return out


def test_chance_probabilities_match_the_labelled_deck(pocket):
    chance_reach = reach_probabilities(pocket, cfrviz.Policy.uniform(pocket).probabilities)[2]
    # The first decision node of each deal is where betting starts: history "h1,h2|p:".
    starts = [n for n in range(pocket.num_nodes) if pocket.history[n].endswith(":")]
    tree = {}
    for n in starts:
        hands, public = pocket.history[n][:-1].split("|")
        h1, h2 = hands.split(",")
        tree[(h1, h2, public)] = chance_reach[n]
    brute = deal_distribution_by_brute_force()
    assert tree.keys() == brute.keys()
    assert max(abs(tree[k] - brute[k]) for k in brute) < 1e-15
    deal, board = 2 * 4 * 4 / (20 * 19) * 3 * 2 / (18 * 17), 3 / 16
    assert tree[("AK", "AA", "K")] == pytest.approx(deal * board)
    # Every chance node's probabilities sum to 1 exactly enough for build_tree.
    for n in np.flatnonzero(pocket.player == CHANCE):
        assert pocket.chance_prob[pocket.children[n]].sum() == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("better, worse", [
    ("TTT", "AAK"),   # three of a kind beats a pair
    ("TTJ", "AKQ"),   # a pair beats a high card
    ("QQK", "JJA"),   # higher pair wins whatever the kicker
    ("AAK", "AAQ"),   # same pair: the kicker decides
    ("AJT", "KQJ"),   # high card: highest rank first
    ("AQJ", "AQT"),   # then the second and third ranks
])
def test_ranking(better, worse):
    assert hand_strength(better) > hand_strength(worse)
    assert hand_strength(better[::-1]) == hand_strength(better)  # order of cards is irrelevant


@pytest.mark.parametrize("history, payoffs", [
    ("TT,AA|T:cc", (1, -1)),     # player 1's three tens beat a pair of aces
    ("JT,AK|T:cc", (1, -1)),     # a pair of tens (with the public ten) beats ace high
    ("QQ,KT|K:rc", (-3, 3)),     # pair of kings beats pair of queens: bet 2 + ante
    ("AK,AQ|A:rrc", (5, -5)),    # both pair aces, king kicker wins: ante + 4
    ("AT,AJ|Q:cc", (-1, 1)),     # A-Q-J beats A-Q-T on the third card
    ("AK,AK|Q:rrc", (0, 0)),     # identical ranks split the pot
    ("AA,TT|K:rf", (1, -1)),     # player 2 folds to a bet: loses the ante
    ("AA,TT|K:crf", (-1, 1)),    # player 1 folds after checking
    ("TT,AA|K:rrf", (-3, 3)),    # player 1 bet 2 then folds to the raise
])
def test_payoffs(pocket, history, payoffs):
    n = pocket.history.index(history)
    assert pocket.player[n] == TERMINAL
    assert tuple(pocket.utility[n]) == payoffs


def test_uniform_policy_values(pocket):
    values = cfrviz.expected_values(pocket, cfrviz.Policy.uniform(pocket))
    assert values[0] == pytest.approx(-values[1], abs=1e-12)
