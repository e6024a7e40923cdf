"""Head-to-head play: the sampler against exact reach, confidence intervals, duplicate seating."""

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kuhn import equilibrium

import cfrviz
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import CHANCE, TERMINAL
from cfrviz.play import MatchResult, bots, head_to_head, round_robin
from cfrviz.play import match as play


def random_policy(game, seed, zeros=0.3):
    """A mixed policy with some actions at probability 0 (which must never be played)."""
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(game.max_actions), size=game.num_infosets) * game.legal_mask
    probs[(rng.random(probs.shape) < zeros) & (probs.sum(axis=1, keepdims=True) > 0)] = 0.0
    empty = probs.sum(axis=1) == 0
    probs[empty] = game.legal_mask[empty]
    return cfrviz.Policy(game, probs / probs.sum(axis=1, keepdims=True))


def profiles(game, a, b):
    mine = game.infoset_player[:, None] == 0
    return (np.where(mine, a.probabilities, b.probabilities),
            np.where(mine, b.probabilities, a.probabilities))


def sample_terminals(game, a, b, deals, seed):
    first, second = profiles(game, a, b)
    sampler = play._Sampler(game, [first, second])
    end = play._play_batch(game, sampler, play._chance_ordinals(game),
                           np.random.default_rng(seed), deals)
    return first, second, end


# --- the sampler -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_terminal_frequencies_match_exact_reach(name):
    game = cfrviz.load_game(name)
    a, b = random_policy(game, 1), random_policy(game, 2)
    deals = 100_000
    first, second, end = sample_terminals(game, a, b, deals, seed=3)
    terminal = game.player == TERMINAL
    assert np.all(terminal[end])
    for probs, hands in ((first, end[:deals]), (second, end[deals:])):
        exact = reach_probabilities(game, probs).prod(axis=0)
        counts = np.bincount(hands, minlength=game.num_nodes) / deals
        assert np.all(counts[exact == 0] == 0)  # a zero-probability action is never taken
        bound = 5 * np.sqrt(exact * (1 - exact) / deals) + 1e-12
        assert np.all(np.abs(counts - exact)[terminal] <= bound[terminal])


def chance_path(game, node):
    """The chance outcomes (action indices) on the way to ``node``, in order."""
    outcomes = []
    while game.parent[node] >= 0:
        if game.player[game.parent[node]] == CHANCE:
            outcomes.append(int(game.action[node]))
        node = game.parent[node]
    return outcomes[::-1]


def test_both_seatings_see_the_same_cards(leduc):
    # Uniform against the maniac: many hands reach the public card, some fold before it.
    _, _, end = sample_terminals(leduc, bots.uniform_random(leduc), bots.always_raise(leduc),
                                 2000, seed=4)
    compared = 0
    for one, two in zip(end[:2000], end[2000:]):
        path_one, path_two = chance_path(leduc, one), chance_path(leduc, two)
        shared = min(len(path_one), len(path_two))
        assert path_one[:shared] == path_two[:shared]
        compared += shared == 2
    assert compared > 500  # the public card was compared, not only the private deal


# --- Monte Carlo against exact values ----------------------------------------------------

PAIRS = [("uniform_random", "always_raise"), ("uniform_random", "strong_hands"),
         ("always_call", "strong_hands"), ("strong_hands", "always_raise")]


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("pair", PAIRS)
def test_mean_is_within_its_interval_of_the_exact_value(name, pair):
    game = cfrviz.load_game(name)
    result = head_to_head(game, bots.bot(game, pair[0]), bots.bot(game, pair[1]), 20_000,
                          seed=0)
    assert result.ci[0] <= result.exact <= result.ci[1]
    assert math.isclose(play.Z95, 1.96, abs_tol=1e-4)
    assert result.ci == pytest.approx((result.mean - play.Z95 * result.std_error,
                                       result.mean + play.Z95 * result.std_error), abs=1e-15)
    assert result.exact == pytest.approx(sum(result.exact_seats) / 2)
    assert result.std_error > 0


def test_exact_matches_expected_values(kuhn):
    a, b = random_policy(kuhn, 5), random_policy(kuhn, 6)
    first, second = profiles(kuhn, a, b)
    result = head_to_head(kuhn, a, b, 2)
    assert result.exact_seats == (
        pytest.approx(cfrviz.expected_values(kuhn, cfrviz.Policy(kuhn, first))[0], abs=1e-15),
        pytest.approx(cfrviz.expected_values(kuhn, cfrviz.Policy(kuhn, second))[1], abs=1e-15))


def test_confidence_intervals_cover_about_95_percent(kuhn):
    a, b = bots.uniform_random(kuhn), bots.strong_hands(kuhn)
    covered = [r.ci[0] <= r.exact <= r.ci[1]
               for r in (head_to_head(kuhn, a, b, 500, seed=s) for s in range(300))]
    # Binomial(300, 0.95) lies in [0.91, 0.99] with probability above 0.998.
    assert 0.91 <= np.mean(covered) <= 0.99


def test_batches_combine_to_the_plain_mean_and_error(kuhn, monkeypatch):
    a, b = random_policy(kuhn, 7), bots.always_call(kuhn)
    monkeypatch.setattr(play, "BATCH", 10)
    result = head_to_head(kuhn, a, b, 25, seed=8)
    # Replay the same three batches and compute the statistics directly.
    first, second = profiles(kuhn, a, b)
    sampler = play._Sampler(kuhn, [first, second])
    rng = np.random.default_rng(8)
    pairs, seats = [], []
    for size in (10, 10, 5):
        end = play._play_batch(kuhn, sampler, play._chance_ordinals(kuhn), rng, size)
        one, two = kuhn.utility[end[:size], 0], kuhn.utility[end[size:], 1]
        pairs.append((one + two) / 2)
        seats.append(np.stack([one, two]))
    pairs, seats = np.concatenate(pairs), np.concatenate(seats, axis=1)
    assert result.deals == 25 and result.hands == 50
    assert result.mean == pytest.approx(pairs.mean(), abs=1e-12)
    assert result.std_error == pytest.approx(pairs.std(ddof=1) / 5, abs=1e-12)
    assert result.seat_means == pytest.approx(tuple(seats.mean(axis=1)), abs=1e-12)


# --- duplicate seating --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_a_policy_against_itself_scores_zero_on_every_deal(name):
    game = cfrviz.load_game(name)
    policy = random_policy(game, 9)
    result = head_to_head(game, policy, policy, 5000, seed=1)
    # Every deal's two seatings replay one hand with the seats swapped: zero-sum gives 0 each
    # time, so the mean and its standard error are exactly 0.
    assert result.mean == 0 and result.std_error == 0
    assert result.seat_means[0] == -result.seat_means[1]
    assert result.seat_means[0] != 0  # the seats themselves are not worth the same


def test_swapping_the_players_mirrors_the_result(leduc):
    a, b = random_policy(leduc, 10), bots.strong_hands(leduc)
    ab = head_to_head(leduc, a, b, 3000, seed=2)
    ba = head_to_head(leduc, b, a, 3000, seed=2)
    assert ba.mean == -ab.mean and ba.std_error == ab.std_error
    assert ba.seat_means == (-ab.seat_means[1], -ab.seat_means[0])
    assert ba.exact == pytest.approx(-ab.exact, abs=1e-12)


def test_seeds(kuhn):
    a, b = bots.uniform_random(kuhn), random_policy(kuhn, 11)
    one = head_to_head(kuhn, a, b, 1000, seed=3)
    assert head_to_head(kuhn, a, b, 1000, seed=3) == one
    other = head_to_head(kuhn, a, b, 1000, seed=4)
    assert other.mean != one.mean and other.exact == one.exact
    from_generator = head_to_head(kuhn, a, b, 1000, seed=np.random.default_rng(3))
    assert from_generator.mean == one.mean and from_generator.seed is None


# --- equilibrium and trained policies against the archetypes -------------------------------

@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(bots.BOTS)))
def test_exact_value_is_bounded_by_exploitability(seed, name):
    # In a zero-sum game, A's payoff averaged over both seats is at least -exploitability(A):
    # each seat loses at most what the best response to that seat gains.
    game = cfrviz.load_game("kuhn_poker")
    a, b = random_policy(game, seed), bots.bot(game, name)
    result = head_to_head(game, a, b, 2)
    assert result.exact >= -cfrviz.exploitability(game, a) - 1e-12
    assert result.exact <= cfrviz.exploitability(game, b) + 1e-12


@pytest.mark.parametrize("alpha", [0.0, 0.2, 1 / 3])
def test_kuhn_equilibrium_never_loses_to_a_bot(kuhn, alpha):
    table = round_robin(kuhn, {"equilibrium": equilibrium(kuhn, alpha),
                               **{name: bots.bot(kuhn, name) for name in bots.BOTS}},
                        hands=5000, seed=0)
    exact = table.exact()["equilibrium"]
    assert min(exact.values()) >= -1e-12
    assert exact["always_raise"] > 0.05 and exact["uniform_random"] > 0.05
    for name, result in table["equilibrium"].items():
        assert result.ci[0] <= result.exact <= result.ci[1], name


def test_trained_leduc_policy_beats_every_bot(leduc):
    trained = cfrviz.solve(leduc, "cfr", iterations=300, seed=0, checkpoints=[]).average_policy()
    table = round_robin(leduc, {"cfr": trained,
                                **{name: bots.bot(leduc, name) for name in bots.BOTS}},
                        hands=20_000, seed=0)
    for name, result in table["cfr"].items():
        assert result.exact > 0.05, name
        assert result.ci[0] > 0, name  # and the play shows it, with this seed


def test_round_robin_table(kuhn):
    policies = {name: bots.bot(kuhn, name) for name in ("always_raise", "uniform_random",
                                                        "strong_hands")}
    table = round_robin(kuhn, policies, hands=1000, seed=5)
    assert table.names == tuple(policies)
    for a in policies:
        assert set(table[a]) == set(policies) - {a}
        for b in table[a]:
            assert table[a][b] == head_to_head(kuhn, policies[a], policies[b], 1000, 5, (a, b))
            assert table[a][b].mean == -table[b][a].mean  # same deals, seen from the other side
    assert table.means()["always_raise"]["uniform_random"] == table["always_raise"][
        "uniform_random"].mean
    text = str(table)
    assert text.splitlines()[0].split()[-3:] == list(policies)
    assert "—" in text and "<table>" in table._repr_html_()


# --- display and bad input -------------------------------------------------------------------

def test_printed_result(kuhn):
    result = head_to_head(kuhn, bots.uniform_random(kuhn), bots.always_raise(kuhn), 10_000,
                          names=("uniform", "maniac"))
    text = str(result)
    assert re.fullmatch(r"uniform wins -0\.3\d\d ± 0\.0\d\d per hand against maniac "
                        r"\(95% CI, 20,000 hands\); exact -0\.375", text), text
    html = result._repr_html_()
    assert "<table>" in html and "uniform as player 2" in html
    zero = MatchResult("g", ("A", "B"), 2, 4, -1e-9, 0.0, (-1e-9, -1e-9), (0.0, 0.0), -0.0,
                       (0.0, 0.0), 0)
    assert str(zero) == "A wins 0.000 ± 0.000 per hand against B (95% CI, 4 hands); exact 0.000"


def test_matrix_games_are_played_as_trees():
    rps = cfrviz.load_game("rock_paper_scissors")
    paper = cfrviz.Policy.from_dict(rps, {"P1": {"P": 1}, "P2": {"P": 1}})
    rock = cfrviz.Policy.from_dict(rps, {"P1": {"R": 1}, "P2": {"R": 1}})
    result = head_to_head(rps, paper, rock, 100)
    assert result.mean == 1 and result.exact == 1 and result.std_error == 0


def test_bad_input(kuhn, leduc):
    a = bots.uniform_random(kuhn)
    with pytest.raises(ValueError, match="policy_b: this policy was made for leduc_poker, "
                                         "not kuhn_poker"):
        head_to_head(kuhn, a, bots.uniform_random(leduc))
    with pytest.raises(ValueError, match="policy_a: expected a cfrviz Policy"):
        head_to_head(kuhn, {"K": {"b": 1}}, a)
    for hands in (0, 1, -5, 2.5, True, "10", None):
        with pytest.raises(ValueError, match="hands must be a whole number of deals, at least 2"):
            head_to_head(kuhn, a, a, hands)
    for seed in (-1, 1.5, "x", None):
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            head_to_head(kuhn, a, a, 10, seed=seed)
    with pytest.raises(ValueError, match="needs a game such as"):
        head_to_head("kuhn_poker", a, a)
    with pytest.raises(ValueError, match=r"at least two policies; got \['only'\]"):
        round_robin(kuhn, {"only": a})
    with pytest.raises(ValueError, match="must be a dict"):
        round_robin(kuhn, [a, a])
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        round_robin(kuhn, {"a": a, "b": a}, seed=np.random.default_rng(0))
    with pytest.raises(ValueError, match="uniform against foreign: policy_b: this policy was "
                                         "made for leduc_poker"):
        round_robin(kuhn, {"uniform": a, "foreign": bots.uniform_random(leduc)})
