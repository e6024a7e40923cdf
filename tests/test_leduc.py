"""Leduc hold'em on the shared game tree: structure, rules and exact known values."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL
from cfrviz.games.leduc import PARAMS, leduc_poker, rank_labels


@pytest.fixture(scope="module")
def suited():
    return cfrviz.load_game("leduc_poker", suits=True)


def node(tree, history):
    return tree.history.index(history)


def children(tree, history):
    """{chance label: probability} below the node with ``history``."""
    n = node(tree, history)
    return dict(zip(tree.chance_labels[n], tree.chance_prob[tree.children[n]]))


def rank_key(key):
    """The rank-only key of a suited key: 'KsQh:rc/r' -> 'KQ:rc/r'."""
    cards, moves = key.split(":", 1)
    return cards[::2] + ":" + moves


def test_information_set_counts(leduc, suited):
    assert (leduc.num_nodes, leduc.num_infosets) == (1936, 288)
    assert (suited.num_nodes, suited.num_infosets) == (9451, 936)
    for tree in (leduc, suited):
        assert np.bincount(tree.infoset_player).tolist() == [tree.num_infosets // 2] * 2
        assert tree.player[0] == CHANCE
        assert np.all(tree.parent[1:] < np.arange(1, tree.num_nodes))
    # Round one: 3 ranks x 6 histories; round two: 3 x 3 public x 5 ways in x 6 histories.
    assert sum(":" in k and "/" not in k for k in leduc.infoset_keys) == 18


@pytest.mark.parametrize("key, player, actions", [
    ("Q:", 0, ("c", "r")),
    ("K:c", 1, ("c", "r")),
    ("K:cr", 0, ("f", "c", "r")),
    ("J:rr", 0, ("f", "c")),
    ("KQ:rc/", 0, ("c", "r")),
    ("KQ:rc/r", 1, ("f", "c", "r")),
    ("JJ:crrc/crr", 1, ("f", "c")),
])
def test_keys_from_the_issue(leduc, key, player, actions):
    info = leduc.infoset_index(key)
    assert leduc.infoset_player[info] == player
    assert leduc.infoset_actions[info] == actions


def test_no_fold_unless_facing_a_bet(leduc):
    for key, actions in zip(leduc.infoset_keys, leduc.infoset_actions):
        facing = key.split("/")[-1].split(":")[-1].endswith("r")
        assert ("f" in actions) == facing, key


def test_suited_keys(suited):
    assert suited.infoset_player[suited.infoset_index("Ks:")] == 0
    assert suited.infoset_player[suited.infoset_index("KsQh:rc/r")] == 1
    assert "KsKh:cc/" in suited.infoset_keys and "KsKs:cc/" not in suited.infoset_keys
    assert {rank_key(k) for k in suited.infoset_keys} == set(
        cfrviz.load_game("leduc_poker").infoset_keys)


def test_chance_probabilities(leduc, suited):
    deal = children(leduc, "")
    assert len(deal) == 9 and sum(deal.values()) == pytest.approx(1, abs=1e-15)
    assert deal["JJ"] == pytest.approx(2 / 6 * 1 / 5)
    assert deal["JQ"] == pytest.approx(2 / 6 * 2 / 5)
    assert children(leduc, "JQ:rc") == pytest.approx({"J": 1 / 4, "Q": 1 / 4, "K": 2 / 4})
    assert children(leduc, "KK:cc") == pytest.approx({"J": 1 / 2, "Q": 1 / 2})
    deal = children(suited, "")
    assert len(deal) == 30 and all(p == pytest.approx(1 / 30) for p in deal.values())
    quarter_each = {c: 1 / 4 for c in ("Jh", "Qs", "Ks", "Kh")}
    assert children(suited, "JsQh:crc") == pytest.approx(quarter_each)


@pytest.mark.parametrize("history, payoffs", [
    ("KQ:rf", (1, -1)),            # player 2 folds to the opening bet: loses the ante
    ("KQ:crf", (-1, 1)),           # player 1 folds to a bet after checking
    ("KQ:rrf", (-3, 3)),           # player 1 bet 2, folds to a raise: loses 1 + 2
    ("QK J:rrc/rrf", (-9, 9)),     # 1 + 4 in round one, 4 more in round two
    ("KQ J:rc/rc", (7, -7)),       # higher card: 1 + 2 + 4 each
    ("JK J:cc/cc", (1, -1)),       # a pair with the public card beats a king
    ("QK K:cc/rrc", (-9, 9)),      # player 2 pairs: 1 + 8
    ("KK Q:rc/rc", (0, 0)),        # equal ranks split the pot
    ("QJ K:crrc/crrc", (13, -13)), # maximum pot: 1 + 4 + 8 each
])
def test_payoffs(leduc, history, payoffs):
    n = node(leduc, history)
    assert leduc.player[n] == TERMINAL
    assert tuple(leduc.utility[n]) == payoffs


def test_zero_sum(leduc, suited):
    for tree in (leduc, suited):
        assert np.all(tree.utility.sum(axis=1) == 0)


def test_uniform_policy_exploitability(leduc, suited):
    for tree in (leduc, suited):
        uniform = cfrviz.Policy.uniform(tree)
        assert cfrviz.exploitability(tree, uniform) == pytest.approx(2.373611, abs=1e-6)
    assert cfrviz.expected_values(leduc, cfrviz.Policy.uniform(leduc)) == pytest.approx(
        cfrviz.expected_values(suited, cfrviz.Policy.uniform(suited)), abs=1e-12)


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_suits_are_a_lossless_abstraction(leduc, suited, seed):
    """A random rank policy, copied to every suited key with the same ranks, plays the same."""
    rng = np.random.default_rng(seed)
    probs = rng.random(leduc.legal_mask.shape) * leduc.legal_mask
    probs /= probs.sum(axis=1, keepdims=True)
    rank_policy = cfrviz.Policy(leduc, probs)
    lifted = cfrviz.Policy(suited, probs[[leduc.infoset_index(rank_key(k))
                                          for k in suited.infoset_keys]])
    assert cfrviz.expected_values(suited, lifted) == pytest.approx(
        cfrviz.expected_values(leduc, rank_policy), abs=1e-12)
    assert cfrviz.exploitability(suited, lifted) == pytest.approx(
        cfrviz.exploitability(leduc, rank_policy), abs=1e-12)


def test_bad_parameter():
    with pytest.raises(ValueError, match="suits must be True or False"):
        cfrviz.load_game("leduc_poker", suits="yes")


# --- leduc_poker(ranks=N): the same rules with more ranks -------------------------------------

TREE_ARRAYS = ("parent", "action", "player", "chance_prob", "utility", "infoset", "depth",
               "legal_mask", "infoset_player")
TREE_LISTS = ("infoset_keys", "infoset_actions", "history", "chance_labels")


@pytest.mark.parametrize("suits", [False, True])
def test_three_ranks_is_leduc(suits):
    default = cfrviz.load_game("leduc_poker", suits=suits)
    three = cfrviz.load_game("leduc_poker", suits=suits, ranks=3)
    for name in TREE_ARRAYS:
        assert np.array_equal(getattr(default, name), getattr(three, name)), name
    for name in TREE_LISTS:
        assert list(getattr(default, name)) == list(getattr(three, name)), name


@pytest.mark.parametrize("ranks, labels", [(2, "QK"), (3, "JQK"), (4, "TJQK"), (5, "9TJQK"),
                                           (12, "23456789TJQK"), (13, "23456789TJQKA")])
def test_rank_labels(ranks, labels):
    assert rank_labels(ranks) == labels


@pytest.mark.parametrize("ranks", [2, 4, 5])
def test_sizes_grow_with_ranks(ranks):
    tree = cfrviz.load_game("leduc_poker", ranks=ranks)
    # Round one: N private ranks x 6 histories; round two: N x N public x 5 ways in x 6.
    assert tree.num_infosets == 6 * ranks + 30 * ranks ** 2
    assert np.bincount(tree.infoset_player).tolist() == [tree.num_infosets // 2] * 2
    assert {k.split(":")[0] for k in tree.infoset_keys if "/" not in k} == set(
        rank_labels(ranks))
    assert np.all(tree.utility.sum(axis=1) == 0)
    deal = children(tree, "")
    top = rank_labels(ranks)[-1]
    assert len(deal) == ranks ** 2 and sum(deal.values()) == pytest.approx(1, abs=1e-15)
    assert deal[top + top] == pytest.approx(2 / (2 * ranks) * 1 / (2 * ranks - 1))


def test_nodes_grow_with_ranks():
    nodes = [cfrviz.load_game("leduc_poker", ranks=n).num_nodes for n in (2, 3, 4, 5)]
    assert nodes[1] == 1936 and nodes == sorted(nodes) and len(set(nodes)) == 4


def test_suited_sizes_with_ranks():
    tree = cfrviz.load_game("leduc_poker", ranks=2, suits=True)
    # 2N private cards x 6, plus 2N x (2N - 1) public cards x 5 x 6.
    assert tree.num_infosets == 12 * 2 + 60 * 2 * 3
    assert "Ks:" in tree.infoset_keys and "Js:" not in tree.infoset_keys


def test_more_ranks_showdown():
    tree = cfrviz.load_game("leduc_poker", ranks=5)
    assert tuple(tree.utility[node(tree, "9K 9:cc/cc")]) == (1, -1)   # a pair of nines wins
    assert tuple(tree.utility[node(tree, "TQ K:rc/rc")]) == (-7, 7)   # queen beats ten
    assert tuple(tree.utility[node(tree, "TT J:cc/cc")]) == (0, 0)


@pytest.mark.parametrize("ranks", [2, 4])
def test_exact_value_agrees_with_cfr_plus(ranks):
    """The LP's value, a long CFR+ run's value, and the suited game's LP value agree."""
    tree = cfrviz.load_game("leduc_poker", ranks=ranks)
    eq = cfrviz.exact_equilibrium(tree)
    assert cfrviz.exploitability(tree, eq.policy) < 1e-9
    trace = cfrviz.solve(tree, "cfr+", 3000, checkpoints=[])
    average = trace.average_policy()
    assert cfrviz.exploitability(tree, average) < 1e-3
    assert cfrviz.expected_values(tree, average)[0] == pytest.approx(eq.value, abs=1e-3)
    if ranks == 2:  # suits are a lossless abstraction for any number of ranks
        suited = cfrviz.exact_equilibrium(cfrviz.load_game("leduc_poker", ranks=2, suits=True))
        assert suited.value == pytest.approx(eq.value, abs=1e-9)


@pytest.mark.parametrize("ranks", [1, 14, 0, -3, 3.0, True, "3", None])
def test_bad_ranks(ranks):
    with pytest.raises(ValueError, match="ranks must be"):
        cfrviz.load_game("leduc_poker", ranks=ranks)
    with pytest.raises(ValueError, match="ranks must be"):
        leduc_poker(ranks=ranks)


def test_declared_parameters_match_the_factory():
    import inspect

    signature = inspect.signature(leduc_poker).parameters
    assert [p.name for p in PARAMS] == list(signature)
    assert all(p.default == signature[p.name].default for p in PARAMS)
    ranks = {p.name: p for p in PARAMS}["ranks"]
    assert (ranks.kind, ranks.low, ranks.high) == ("int", 2, 13)
    assert cfrviz.load_game("leduc_poker", ranks=5).params == {"ranks": 5}
