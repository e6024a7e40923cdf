"""The public tree: its states, hands and ranges, and the games it refuses (and why)."""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL, build_tree
from cfrviz.games.public import (
    CHANCE_STATE,
    DECISION_STATE,
    TERMINAL_STATE,
    node_reach,
    public_tree,
    ranges,
)

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"


def check_partition(public):
    """Every node in exactly one state; a state's nodes are its children's parents; each
    information set inside one state, holding one hand of its player."""
    tree = public.tree
    seen = np.zeros(tree.num_nodes, dtype=int)
    for state in public.states:
        seen[state.nodes] += 1
        assert np.all(public.node_state[state.nodes] == state.id)
        for a, child in enumerate(state.children):
            kid = public.states[child]
            assert kid.parent == state.id
            assert set(tree.parent[kid.nodes]) <= set(state.nodes)
            if state.kind == DECISION_STATE:  # child a follows action a everywhere
                assert np.all(tree.action[kid.nodes] == a)
    assert np.all(seen == 1)
    for info in range(tree.num_infosets):
        members = tree.infoset_members(info)
        assert len(set(public.node_state[members])) == 1
        player = tree.infoset_player[info]
        assert set(public.node_hand[members, player]) == {public.infoset_hand[info]}
    for state in public.states:
        if state.dealt:  # each (hand, hand) pair is a deal: no pair twice (these games)
            pairs = {tuple(p) for p in public.pairs(state)}
            assert len(pairs) == len(state.nodes)


def test_kuhn_public_tree():
    kuhn = cfrviz.load_game("kuhn_poker")
    public = public_tree(kuhn)
    assert public is public_tree(kuhn)  # computed once
    assert public.hands(0) == public.hands(1) == ("J", "Q", "K")
    assert [s.history for s in public.states] == [
        "", "deal", "deal/p", "deal/p/p", "deal/p/b", "deal/p/b/p", "deal/p/b/b", "deal/b",
        "deal/b/p", "deal/b/b"]
    assert [s.kind for s in public.states[:4]] == [CHANCE_STATE, DECISION_STATE, DECISION_STATE,
                                                   TERMINAL_STATE]
    root, first = public.root, public.find("deal")
    assert root.private and not root.dealt and root.children == (first.id,)
    assert first.player == 0 and first.labels == ("p", "b") and len(first.nodes) == 6
    assert public.find("deal/p").player == 1
    node = kuhn.history.index("QK:pb")
    assert public.state_of(node).history == "deal/p/b"
    assert tuple(public.node_hand[node]) == (1, 2)  # Q against K
    # no pair of equal cards: a 3 x 3 table with an empty diagonal
    pairs = public.pairs(first)
    assert sorted(map(tuple, pairs)) == [(i, j) for i in range(3) for j in range(3) if i != j]
    check_partition(public)


@pytest.mark.parametrize("params", [{}, {"suits": True}, {"ranks": 4}])
def test_leduc_public_tree(params):
    leduc = cfrviz.load_game("leduc_poker", **params)
    public = public_tree(leduc)
    check_partition(public)
    board = public.find("deal/c/c")
    assert board.kind == CHANCE_STATE and not board.private and board.dealt
    ranks = params.get("ranks", 3)
    cards = 2 * ranks if params.get("suits") else ranks  # the board card, a player's hand
    assert len(board.children) == cards
    assert len(public.hands(0)) == len(public.hands(1)) == cards
    after = public.states[board.children[0]]
    # the board card cannot be a card a player holds: card removal in the deal's weights
    chance = ranges(public, after, cfrviz.Policy.uniform(leduc)).chance
    # outcomes are uniform over cards: each board's share is its number of cards over 2 * ranks
    assert chance.sum() == pytest.approx((1 if params.get("suits") else 2) / (2 * ranks))


def test_pocket_public_tree():
    pocket = cfrviz.load_game("pocket_poker")
    public = public_tree(pocket)
    check_partition(public)
    assert len(public.hands(0)) == 15 and public.hands(0)[-1] == "AA"
    deal = public.find("deal/deal")
    assert deal.dealt and not deal.private and sorted(deal.labels) == sorted("TJQKA")
    assert len(public.find("deal/deal/A").nodes) == 224  # AA against AA cannot be dealt with A up


def test_ranges_are_the_reach_factored():
    """joint[i, j] summed over the nodes' pairs equals the tree's reach probability, node by node
    (a random policy), and beliefs are the normalised marginals."""
    leduc = cfrviz.load_game("leduc_poker")
    public = public_tree(leduc)
    rng = np.random.default_rng(3)
    probs = rng.random(leduc.legal_mask.shape) * leduc.legal_mask
    policy = cfrviz.Policy(leduc, probs / probs.sum(axis=1, keepdims=True))
    reach = node_reach(public, policy).prod(axis=1) * public.chance_reach
    for state in public.states:
        if not state.dealt:
            continue
        r = ranges(public, state, policy)
        pairs = public.pairs(state)
        assert np.allclose(r.joint()[pairs[:, 0], pairs[:, 1]], reach[state.nodes], atol=1e-15)
        total = reach[state.nodes].sum()
        if total > 0:
            for p in (0, 1):
                belief = np.bincount(pairs[:, p], reach[state.nodes], len(public.hands(p)))
                assert np.allclose(r.belief(p), belief / total)


def test_game_files():
    bluff = public_tree(cfrviz.load_game("file", path=GAMES / "high_low_bluff.json"))
    check_partition(bluff)
    assert bluff.hands(0) == ("H", "L") and len(bluff.hands(1)) == 1
    efg = public_tree(cfrviz.load_game("file", path=GAMES / "kuhn_poker.efg"))
    check_partition(efg)
    assert len(efg) == len(public_tree(cfrviz.load_game("kuhn_poker")))
    with pytest.raises(ValueError, match="not all public"):
        public_tree(cfrviz.load_game("file", path=GAMES / "matching_pennies.json"))


@dataclass(frozen=True)
class Toy:
    """A tiny poker-like game whose rules a test bends: chance deals player 1 a bit, player 1
    moves, player 2 moves, player 1 moves again.  With ``late``, chance deals a second bit
    that only player 2 sees, after player 1's first move; with ``forget``, player 1 forgets its
    bit at its second move."""

    moves: tuple[str, ...] = ()
    late: bool = False
    forget: bool = False

    def is_terminal(self):
        return len(self.moves) == (5 if self.late else 4)

    def current_player(self):
        turns = (CHANCE, 0, CHANCE, 1, 0) if self.late else (CHANCE, 0, 1, 0)
        return turns[len(self.moves)]

    def legal_actions(self):
        return ("x", "y")

    def chance_outcomes(self):
        return (("0", 0.5), ("1", 0.5))

    def child(self, action):
        return Toy((*self.moves, action), self.late, self.forget)

    def returns(self):
        u = 1.0 if self.moves[0] == "1" else -1.0
        return (u, -u)

    def infoset_key(self):
        bit, *public = self.moves
        if self.late and len(self.moves) >= 3:
            second = public.pop(1)
            if len(self.moves) == 3:  # player 2 sees the second bit
                return f"P2 {second} {''.join(public)}"
        if self.current_player() == 1:
            return f"P2 {''.join(public)}"
        return f"P1 {'' if self.forget and public else bit} {''.join(public)}"

    def history(self):
        return "".join(self.moves)


class ToyGame:
    name = "toy"

    def __init__(self, **rules):
        self.rules = rules

    def initial_state(self):
        return Toy(**self.rules)


def test_refusals_say_why():
    check_partition(public_tree(build_tree(ToyGame())))
    with pytest.raises(ValueError, match="private information after the first move"):
        public_tree(build_tree(ToyGame(late=True)))
    with pytest.raises(ValueError, match="same private hand in information sets"):
        public_tree(build_tree(ToyGame(forget=True)))
    with pytest.raises(ValueError, match="two-player"):
        public_tree(cfrviz.load_game("kuhn_poker_3p"))
    with pytest.raises(ValueError, match="no public state 'x'"):
        public_tree(cfrviz.load_game("kuhn_poker")).find("x")
    assert TERMINAL == -2


@dataclass(frozen=True)
class Race:
    """No private information at all: chance flips a public coin, then player 1 and player 2
    each choose a number; a public tree whose every state holds one node."""

    moves: tuple[str, ...] = ()

    def is_terminal(self):
        return len(self.moves) == 3

    def current_player(self):
        return (CHANCE, 0, 1)[len(self.moves)]

    def legal_actions(self):
        return ("1", "2")

    def chance_outcomes(self):
        return (("heads", 0.5), ("tails", 0.5))

    def child(self, action):
        return Race((*self.moves, action))

    def returns(self):
        u = float(int(self.moves[1]) - int(self.moves[2]))
        return (u, -u)

    def infoset_key(self):
        return " ".join(self.moves)

    def history(self):
        return " ".join(self.moves)


class RaceGame:
    name = "race"

    def initial_state(self):
        return Race()


def test_a_game_without_private_information():
    public = public_tree(build_tree(RaceGame()))
    check_partition(public)
    assert len(public) == public.tree.num_nodes  # one node per public state
    assert public.hands(0) == public.hands(1) == ("hand 1",)
    assert public.root.kind == CHANCE_STATE and not public.root.private and public.root.dealt
    assert set(public.node_hand.ravel()) == {0}


@dataclass(frozen=True)
class Coin:
    """A public coin first, then a private card for player 1 whose odds depend on the coin,
    then one move each: the deal ends in two places (one per coin face)."""

    moves: tuple[str, ...] = ()

    def is_terminal(self):
        return len(self.moves) == 4

    def current_player(self):
        return (CHANCE, CHANCE, 0, 1)[len(self.moves)]

    def legal_actions(self):
        return ("x", "y")

    def chance_outcomes(self):
        if not self.moves:
            return (("H", 0.3), ("T", 0.7))
        if self.moves[0] == "H":
            return (("a", 0.2), ("b", 0.5), ("c", 0.3))
        return (("a", 0.6), ("b", 0.4))

    def child(self, action):
        return Coin((*self.moves, action))

    def returns(self):
        card = {"a": 1, "b": -1, "c": 2}[self.moves[1]]
        u = card * (1 if self.moves[2] == self.moves[3] else -1) + (self.moves[0] == "H")
        return (float(u), float(-u))

    def infoset_key(self):
        if len(self.moves) == 2:
            return f"{self.moves[0]} {self.moves[1]}"
        return f"{self.moves[0]} {''.join(self.moves[2:])}"

    def history(self):
        return " ".join(self.moves)


class CoinGame:
    name = "coin"

    def initial_state(self):
        return Coin()


def test_a_public_card_before_the_private_one():
    public = public_tree(build_tree(CoinGame()))
    check_partition(public)
    assert public.hands(0) == ("a", "b", "c") and len(public.hands(1)) == 1
    heads, tails = public.find("H"), public.find("T")
    assert heads.private and not heads.dealt and tails.private
    assert not public.root.private and not public.root.dealt
    assert len(public.find("H/deal").nodes) == 3 and len(public.find("T/deal").nodes) == 2
