"""The sequence-form LP (cfrviz.exact_equilibrium): exact values, checked by second computations.

The second computations are independent of the LP: the readable best responses of
cfrviz.reference (which bracket the game's value between what each player's strategy
guarantees), expected values of the tree under a policy, CFR+ runs, and closed forms.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.tree import build_tree
from cfrviz.reference.evaluation import tree_best_response, tree_expected_values
from cfrviz.solvers import lp

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"
LEDUC_VALUE = -0.0856064240


@pytest.fixture(scope="module")
def leduc_suits():
    return cfrviz.load_game("leduc_poker", suits=True)


def oracle_bounds(game, policy) -> tuple[float, float]:
    """What player 1's and player 2's parts of ``policy`` guarantee player 1, by the reference:
    the game's value lies between them, so equal bounds pin it down."""
    tree = getattr(game, "tree", game)
    lower = -tree_best_response(tree, policy.probabilities, 1)[0]
    upper = tree_best_response(tree, policy.probabilities, 0)[0]
    return lower, upper


def assert_solved(game, eq, value=None):
    lower, upper = oracle_bounds(game, eq.policy)
    assert lower == pytest.approx(eq.value, abs=1e-9)
    assert upper == pytest.approx(eq.value, abs=1e-9)
    assert cfrviz.exploitability(game, eq.policy) < 1e-9
    if value is not None:
        assert eq.value == pytest.approx(value, abs=1e-9)


# --- exact values ------------------------------------------------------------------------------

def test_kuhn_is_minus_one_eighteenth(kuhn):
    eq = cfrviz.exact_equilibrium(kuhn)
    assert eq.fraction == Fraction(-1, 18)
    assert_solved(kuhn, eq, -1 / 18)
    # Kuhn's sequence form: 1 + 6 sets x 2 actions sequences each; E has 1 + 6 rows.
    assert eq.sequences == (13, 13)
    assert eq.constraints == 13 + 7 and eq.variables == 13 + 7
    assert eq.nonzeros > 0 and eq.seconds > 0 and eq.build_seconds > 0


def test_kuhn_strategies_are_in_kuhns_family(kuhn):
    # Kuhn (1950): player 1 bets the jack with some a in [0, 1/3], the king with 3a and calls
    # with the queen after check-bet with a + 1/3; player 2 calls a bet with the queen and
    # bluffs the jack after a check 1/3 of the time each.
    policy = cfrviz.exact_equilibrium(kuhn).policy
    a = policy["J"]["b"]
    assert -1e-12 <= a <= 1 / 3 + 1e-12
    assert policy["K"]["b"] == pytest.approx(3 * a, abs=1e-9)
    assert policy["Qpb"]["b"] == pytest.approx(a + 1 / 3, abs=1e-9)
    assert policy["Qb"]["b"] == pytest.approx(1 / 3, abs=1e-9)
    assert policy["Jp"]["b"] == pytest.approx(1 / 3, abs=1e-9)


@pytest.mark.parametrize("suits", [False, True], ids=["ranks", "suits"])
def test_leduc_value(suits, leduc, leduc_suits):
    game = leduc_suits if suits else leduc
    eq = cfrviz.exact_equilibrium(game)
    assert_solved(game, eq, LEDUC_VALUE)
    assert eq.sequences == ((1093, 1093) if suits else (337, 337))
    assert eq.fraction is None  # over EXACT_SEQUENCES: not certified, not guessed


def test_both_leduc_forms_agree(leduc, leduc_suits):
    ranks = cfrviz.exact_equilibrium(leduc).value
    suits = cfrviz.exact_equilibrium(leduc_suits).value
    assert ranks == pytest.approx(suits, abs=1e-12)


def test_pocket_poker_is_solved():
    game = cfrviz.load_game("pocket_poker")
    eq = cfrviz.exact_equilibrium(game)
    assert eq.sequences == (526, 526)
    assert_solved(game, eq)


@pytest.mark.parametrize("path", sorted(p.name for p in GAMES.iterdir()
                                        if p.suffix in (".json", ".efg")))
def test_every_game_file(path):
    game = cfrviz.load_game("file", path=str(GAMES / path))
    eq = cfrviz.exact_equilibrium(game)
    assert_solved(game, eq)
    # A third computation: CFR+'s average policy is worth the value to within NashConv.
    trace = cfrviz.solve(game, "cfr+", 2000, checkpoints=[2000])
    average = trace.average_policy()
    gap = 2 * cfrviz.exploitability(game, average)
    assert abs(cfrviz.expected_values(game, average)[0] - eq.value) <= gap + 1e-12
    assert eq.fraction is not None and float(eq.fraction) == pytest.approx(eq.value, abs=1e-9)


def test_game_file_values_match_the_format_page():
    expected = {"high_low_bluff.json": Fraction(1, 3), "high_low_bluff.efg": Fraction(1, 3),
                "matching_pennies.json": Fraction(0), "kuhn_poker.efg": Fraction(-1, 18)}
    for name, value in expected.items():
        game = cfrviz.load_game("file", path=str(GAMES / name))
        assert cfrviz.exact_equilibrium(game).fraction == value, name


# --- the sequence form itself --------------------------------------------------------------------

def plan(game, form, probs, player):
    """A realization plan from behaviour, in floats, walking the sets in tree order."""
    x = np.zeros(form.sizes[player])
    x[0] = 1.0
    for info in lp._set_order(game).tolist():
        if game.infoset_player[info] == player:
            n = len(game.infoset_actions[info])
            x[form.first[info]: form.first[info] + n] = x[form.parent[info]] * probs[info, :n]
    return x


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_payoff_matrix_gives_the_trees_expected_value(name):
    game = cfrviz.load_game(name)
    form = lp.sequence_form(game)
    rng = np.random.default_rng(0)
    for _ in range(3):
        probs = rng.random(game.legal_mask.shape) * game.legal_mask
        probs /= probs.sum(axis=1, keepdims=True)
        x, y = plan(game, form, probs, 0), plan(game, form, probs, 1)
        for M, plan_ in zip(form.constraints, (x, y)):
            assert np.allclose(M @ plan_, np.eye(M.shape[0])[0])
        assert x @ (form.payoff @ y) == pytest.approx(tree_expected_values(game, probs)[0],
                                                      abs=1e-12)


def test_plans_are_realization_plans_and_unreached_sets_are_uniform(kuhn):
    eq = cfrviz.exact_equilibrium(kuhn)
    form = lp.sequence_form(kuhn)
    for player, (x, M) in enumerate(zip(eq.plans, form.constraints)):
        assert np.allclose(M @ x, np.eye(M.shape[0])[0], atol=1e-12)
        assert np.all(x >= -1e-12)
        for info in np.flatnonzero(kuhn.infoset_player == player):
            if x[form.parent[info]] <= lp.UNREACHED:
                assert np.allclose(eq.policy.probabilities[info], 0.5)


def test_certificate_refuses_a_policy_that_is_not_an_equilibrium(kuhn):
    form = lp.sequence_form(kuhn)
    assert lp.certified_value(kuhn, form, cfrviz.Policy.uniform(kuhn).probabilities) is None


# --- matrix games --------------------------------------------------------------------------------

def test_matrix_game_through_its_tree():
    game = cfrviz.load_game("rock_paper_scissors", payoffs=[[0, -1, 2], [1, 0, -2], [-2, 2, 0]])
    eq = cfrviz.exact_equilibrium(game)
    assert eq.policy.game is game and eq.fraction == 0
    assert np.allclose(eq.policy.probabilities, [[0.4, 0.4, 0.2], [0.4, 0.4, 0.2]], atol=1e-12)
    assert_solved(game, eq, 0.0)


def closed_form_value(a, b, c, d) -> Fraction:
    """The value of [[a, b], [c, d]] in exact arithmetic: a saddle point, else the mixed formula."""
    lower = max(min(a, b), min(c, d))
    upper = min(max(a, c), max(b, d))
    if lower == upper:
        return Fraction(lower)
    return Fraction(a * d - b * c, a + d - b - c)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=4, max_size=4))
def test_two_by_two_fractions_are_exact(cells):
    a, b, c, d = cells
    game = cfrviz.MatrixGame("two_by_two", [[a, b], [c, d]], ("T", "B"), ("L", "R"))
    eq = cfrviz.exact_equilibrium(game)
    assert eq.fraction == closed_form_value(a, b, c, d)
    assert cfrviz.matrix_equilibrium([[a, b], [c, d]]).value == pytest.approx(eq.value, abs=1e-9)


# --- errors --------------------------------------------------------------------------------------

def test_refuses_a_game_that_is_not_zero_sum():
    from _games import Coordination

    with pytest.raises(ValueError, match="exact_equilibrium needs a two-player zero-sum game; "
                                         "coordination is not zero-sum at history 'a'"):
        cfrviz.exact_equilibrium(build_tree(Coordination()))


def test_refuses_a_name_and_a_non_game():
    with pytest.raises(ValueError, match="needs a game, not its name 'kuhn_poker'"):
        cfrviz.exact_equilibrium("kuhn_poker")
    with pytest.raises(ValueError, match="exact_equilibrium needs a game from cfrviz.load_game"):
        cfrviz.exact_equilibrium(np.zeros((2, 2)))


class Forgetful:
    """Player 1 moves L or R, then moves again without remembering which: imperfect recall."""

    name = "forgetful"

    def __init__(self, moves: str = ""):
        self.moves = moves

    def initial_state(self):
        return Forgetful()

    def is_terminal(self):
        return len(self.moves) == 2

    def current_player(self):
        return 0

    def legal_actions(self):
        return ("L", "R") if not self.moves else ("l", "r")

    def chance_outcomes(self):
        return ()

    def child(self, action):
        return Forgetful(self.moves + action)

    def returns(self):
        win = 1.0 if self.moves in ("Ll", "Rr") else -1.0
        return (win, -win)

    def infoset_key(self):
        return "start" if not self.moves else "again"

    def history(self):
        return self.moves


def test_refuses_imperfect_recall():
    game = build_tree(Forgetful())
    with pytest.raises(ValueError, match=r"perfect recall: in forgetful, information set "
                                         r"'again' \(player 1\) holds history 'L', after action "
                                         r"'L' at 'start', and history 'R', after action 'R'"):
        cfrviz.exact_equilibrium(game)


def test_reports_a_solver_failure(kuhn, monkeypatch):
    from scipy.optimize import OptimizeResult

    def stopped(*_args, **_kwargs):
        return OptimizeResult(status=1, message="Time limit reached.", x=None, fun=None)

    monkeypatch.setattr(lp.optimize, "linprog", stopped)
    with pytest.raises(RuntimeError, match=r"HiGHS did not solve the sequence form of "
                                           r"kuhn_poker \(13 \+ 13 sequences\): it stopped at "
                                           r"its iteration or time limit \(status 1: Time limit"):
        cfrviz.exact_equilibrium(kuhn)
