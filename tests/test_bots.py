"""Archetype bots: actions read from the tree, hand strength from the payoffs."""

import numpy as np
import pytest

import cfrviz
from cfrviz.core.tree import CHANCE, TERMINAL
from cfrviz.play import bots
from cfrviz.play.bots import AGGRESSIVE, FOLD, ILLEGAL, PASSIVE

POKER = ["kuhn_poker", "leduc_poker", "pocket_poker"]


@pytest.fixture(scope="module", params=POKER)
def poker(request):
    return cfrviz.load_game(request.param)


def chosen(policy, key):
    """The one action a deterministic bot takes at ``key``."""
    dist = policy[key]
    (action,) = [a for a, p in dist.items() if p == 1.0]
    return action


# --- reading the actions -------------------------------------------------------------

def test_kuhn_actions_read_from_the_tree(kuhn):
    kinds = bots.action_kinds(kuhn)
    for row, key in enumerate(kuhn.infoset_keys):
        facing_bet = key.endswith("b")  # the test may read the strings; the bots may not
        expected = [FOLD, PASSIVE] if facing_bet else [PASSIVE, AGGRESSIVE]
        assert kinds[row].tolist() == expected, key


@pytest.mark.parametrize("name", ["leduc_poker", "pocket_poker"])
def test_fold_call_raise_read_from_the_tree(name):
    game = cfrviz.load_game(name)
    kinds = bots.action_kinds(game)
    label_kind = {"f": FOLD, "c": PASSIVE, "r": AGGRESSIVE}
    for row, actions in enumerate(game.infoset_actions):
        expected = [label_kind[a] for a in actions]
        expected += [ILLEGAL] * (game.max_actions - len(actions))
        assert kinds[row].tolist() == expected, game.infoset_keys[row]


# --- hand strength -------------------------------------------------------------------

def reference_strength(game):
    """Plain recursion: chance-weighted mean, over a set's nodes, of the always-call value."""
    probs = bots.always_call(game).probabilities
    memo = {}

    def value(node):
        if node not in memo:
            kind = game.player[node]
            if kind == TERMINAL:
                memo[node] = game.utility[node]
            else:
                kids = game.children[node]
                weights = (game.chance_prob[kids] if kind == CHANCE
                           else probs[game.infoset[node], game.action[kids]])
                memo[node] = sum(w * value(int(c)) for w, c in zip(weights, kids))
        return memo[node]

    def chance_reach(node):
        reach = 1.0
        while game.parent[node] >= 0:
            if game.player[game.parent[node]] == CHANCE:
                reach *= game.chance_prob[node]
            node = game.parent[node]
        return reach

    strength = []
    for info in range(game.num_infosets):
        members = game.infoset_members(info)
        who = game.infoset_player[info]
        weights = np.array([chance_reach(int(h)) for h in members])
        values = np.array([value(int(h))[who] for h in members])
        strength.append(weights @ values / weights.sum())
    return np.array(strength)


def test_kuhn_hand_strength(kuhn):
    strength = dict(zip(kuhn.infoset_keys, bots.hand_strength(kuhn)))
    # Nobody bets: the higher card wins the antes (1); facing a bet, calling plays for 2.
    assert strength == pytest.approx({
        "J": -1, "Q": 0, "K": 1, "Jp": -1, "Qp": 0, "Kp": 1,
        "Jb": -2, "Qb": 0, "Kb": 2, "Jpb": -2, "Qpb": 0, "Kpb": 2}, abs=1e-15)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_hand_strength_matches_a_recursive_reference(name):
    game = cfrviz.load_game(name)
    np.testing.assert_allclose(bots.hand_strength(game), reference_strength(game),
                               rtol=0, atol=1e-12)


def test_leduc_strength_orders_the_cards():
    game = cfrviz.load_game("leduc_poker")
    strength = dict(zip(game.infoset_keys, bots.hand_strength(game)))
    # First decision, checked down: J wins only on a pair (-0.4), K is its mirror image.
    assert strength["J:"] == pytest.approx(-0.4) and strength["K:"] == pytest.approx(0.4)
    assert strength["Q:"] == pytest.approx(0, abs=1e-12)
    assert strength["KK:cc/"] == 1 and strength["JJ:cc/"] == 1  # a pair beats any non-pair


# --- the bots ------------------------------------------------------------------------

def test_kuhn_bots(kuhn):
    raise_ = bots.always_raise(kuhn)
    call = bots.always_call(kuhn)
    strong = bots.strong_hands(kuhn)
    for key in kuhn.infoset_keys:
        facing_bet = key.endswith("b")
        assert chosen(raise_, key) == "b"  # bet, or call when facing a bet: never fold
        assert chosen(call, key) == ("b" if facing_bet else "p")
    # The tight player bets and calls with the king only; folds the rest facing a bet.
    for key in ("K", "Kp", "Kb", "Kpb"):
        assert chosen(strong, key) == "b"
    for key in ("J", "Jp", "Q", "Qp"):
        assert chosen(strong, key) == "p"  # checks
    for key in ("Jb", "Jpb", "Qb", "Qpb"):
        assert chosen(strong, key) == "p"  # folds
    assert bots.uniform_random(kuhn).to_dict() == cfrviz.Policy.uniform(kuhn).to_dict()


def test_bots_follow_their_rules(poker):
    kinds = bots.action_kinds(poker)
    strength = bots.hand_strength(poker)
    picks = {name: np.argmax(bots.bot(poker, name).probabilities, axis=1)
             for name in ("always_raise", "always_call", "strong_hands")}
    for row in range(poker.num_infosets):
        present = set(kinds[row][kinds[row] >= 0].tolist())
        kind = {name: kinds[row, pick[row]] for name, pick in picks.items()}
        assert kind["always_raise"] == (AGGRESSIVE if AGGRESSIVE in present else PASSIVE)
        assert kind["always_call"] == PASSIVE
        if strength[row] > 0:
            assert kind["strong_hands"] == kind["always_raise"]
        else:
            assert kind["strong_hands"] == (FOLD if FOLD in present else PASSIVE)


def test_leduc_strong_hands():
    game = cfrviz.load_game("leduc_poker")
    strong = bots.strong_hands(game)
    assert chosen(strong, "K:") == "r" and chosen(strong, "J:") == "c"
    assert chosen(strong, "J:r") == "f" and chosen(strong, "K:r") == "r"
    # A queen with a king on the board: the opponent holds J, J, Q or K, so it is worth 0.25.
    assert chosen(strong, "QK:cc/") == "r"
    assert chosen(strong, "JQ:cc/r") == "f"


def test_threshold_extremes(kuhn):
    loose = bots.strong_hands(kuhn, threshold=-10)  # every hand is strong
    assert np.array_equal(loose.probabilities, bots.always_raise(kuhn).probabilities)
    tight = bots.strong_hands(kuhn, threshold=10)  # no hand is
    kinds = bots.action_kinds(kuhn)
    picked = kinds[np.arange(kuhn.num_infosets), np.argmax(tight.probabilities, axis=1)]
    assert AGGRESSIVE not in picked
    facing = (kinds == FOLD).any(axis=1)
    assert np.all(picked[facing] == FOLD) and np.all(picked[~facing] == PASSIVE)


def test_bot_by_name(kuhn):
    assert set(bots.BOTS) == {"always_raise", "always_call", "uniform_random", "strong_hands"}
    for name, entry in bots.BOTS.items():
        assert bots.bot(kuhn, name).to_dict() == entry.factory(kuhn).to_dict()
    assert (bots.bot(kuhn, "strong_hands", threshold=-10).to_dict()
            == bots.always_raise(kuhn).to_dict())


def test_bad_input(kuhn):
    with pytest.raises(ValueError, match="unknown bot 'maniac'.*always_call, always_raise"):
        bots.bot(kuhn, "maniac")
    with pytest.raises(ValueError, match="takes no parameter 'threshold'; it accepts: none"):
        bots.bot(kuhn, "always_call", threshold=1)
    with pytest.raises(ValueError, match="threshold must be a finite number; got 'high'"):
        bots.strong_hands(kuhn, threshold="high")
    with pytest.raises(ValueError, match="finite"):
        bots.strong_hands(kuhn, threshold=float("nan"))
    rps = cfrviz.load_game("rock_paper_scissors")
    for name in bots.BOTS:
        with pytest.raises(ValueError, match="'rock_paper_scissors' is a MatrixGame"):
            bots.bot(rps, name)
    with pytest.raises(ValueError, match="'rock_paper_scissors' deals no cards"):
        bots.always_raise(rps.tree)
