"""Lesson 05's checkers accept the right answers, explain typical mistakes and never raise."""

from fractions import Fraction

import numpy as np
import pytest
from _solutions import run_solution

import cfrviz
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson05 as ex

JUNK = ["abc", [1, 2, 3], {"x": 1}, np.array([0.1, 0.2]), float("nan"), float("inf"), True,
        object(), (1,)]


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


@pytest.fixture(scope="module")
def trace(kuhn):
    return cfrviz.solve(kuhn, "cfr", 10_000, seed=0, progress=False)




# -- exercise 1: a best response by hand --------------------------------------------------------

def test_spot_matches_the_exact_best_response(kuhn):
    bluffer = cfrviz.Policy.from_dict(kuhn, ex.BLUFFER)
    spot = ex.spot_analysis(kuhn, bluffer, ex.SPOT)
    values = cfrviz.best_response(kuhn, bluffer, player=1).action_values[ex.SPOT]
    np.testing.assert_allclose(spot["counterfactual"], [values["p"], values["b"]], atol=1e-12)
    assert spot["best"] == "p" and spot["value"] == pytest.approx(-1)
    assert spot["reach"] == pytest.approx(float(Fraction(1, 6) * Fraction(6, 5)))  # 1/5
    assert spot["conditional"][1] == pytest.approx(-4 / 3)
    # the peeking player calls a jack and folds to a king
    assert spot["peeking_value"] == pytest.approx(-1 / 2)
    assert sorted(spot["peeking"].values()) == ["b", "p"]


@pytest.mark.parametrize("action, value", [("fold", -1), ("p", -1.0), ("Fold", -1.0),
                                           ("fold", -1.001), ("fold", np.float64(-1))])
def test_best_response_by_hand_accepts(action, value):
    assert ex.check_best_response_by_hand(action, value).status == CORRECT


def test_best_response_by_hand_solution_passes():
    ns = run_solution("05_best_response_by_hand.py")
    assert ex.check_best_response_by_hand(ns["my_action"], ns["my_value"]).correct


@pytest.mark.parametrize("action, value, mistake", [
    ("fold", -0.5, "peeking"),                          # the value of peeking at the card
    ("call", -0.5, "peeking"),
    ({"J": "call", "K": "fold"}, None, "peeking"),        # one action per card
    (["call", "fold"], -1, "peeking"),
    ("call", -4 / 3, "call"),
    ("call", -1.33, "call"),
    ("call", 0, "ignored-bet"),                         # J and K taken as equally likely
    ("fold", 0, "fold-free"),
    ("fold", -0.2, "counterfactual"),                   # weighted by reach, not conditional
    ("fold", -0.9, "value"),
    ("raise", -1, "not-an-action"),
    ("fold", "minus one", "not-a-number"),
])
def test_best_response_by_hand_mistakes(action, value, mistake):
    feedback = ex.check_best_response_by_hand(action, value)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


def test_peeking_feedback_explains_why_it_is_not_allowed():
    feedback = ex.check_best_response_by_hand("fold", -0.5)
    assert "-0.500" in feedback.message and "call against J" in feedback.message
    assert "sees only" in feedback.message and "information set" in feedback.message


def test_best_response_by_hand_not_done():
    assert ex.check_best_response_by_hand(None, None).status == NOT_DONE
    assert ex.check_best_response_by_hand("fold", None).status == NOT_DONE
    assert ex.check_best_response_by_hand(None, -1).status == NOT_DONE


@pytest.mark.parametrize("junk", JUNK)
def test_best_response_by_hand_never_raises(junk):
    for action, value in ((junk, -1), ("fold", junk), (junk, junk)):
        feedback = ex.check_best_response_by_hand(action, value)
        assert feedback.status in (WRONG, NOT_DONE) and feedback.message


# -- exercise 2: an exploitability --------------------------------------------------------------

def test_exploitability_accepts(kuhn, trace):
    policy = trace.average_policy(ex.EXPLOIT_ITERATION)
    exact = cfrviz.exploitability(kuhn, policy)
    assert ex.check_exploitability(exact).status == CORRECT
    assert ex.check_exploitability(round(exact, 4)).correct
    ns = run_solution("05_exploitability.py", trace=trace, kuhn=kuhn)
    assert ex.check_exploitability(ns["my_exploitability"]).correct
    assert ex.check_exploitability(None).status == NOT_DONE


def test_exploitability_mistakes(kuhn, trace):
    policy = trace.average_policy(ex.EXPLOIT_ITERATION)
    br0 = cfrviz.best_response(kuhn, policy, 0).value
    br1 = cfrviz.best_response(kuhn, policy, 1).value
    cases = {"nash-conv": br0 + br1, "one-sided": br1,
             "current": cfrviz.exploitability(kuhn, trace.current_policy(ex.EXPLOIT_ITERATION)),
             "uniform": 11 / 24, "sign": (br0 - br1) / 2}
    for mistake, answer in cases.items():
        feedback = ex.check_exploitability(answer)
        assert feedback.status == WRONG and feedback.mistake == mistake, (mistake, feedback)
    assert ex.check_exploitability(br0).mistake == "one-sided"


@pytest.mark.parametrize("junk", JUNK)
def test_exploitability_never_raises(junk):
    assert ex.check_exploitability(junk).status == WRONG


def test_exploitability_of_a_best_response_object_is_explained(kuhn):
    br = cfrviz.best_response(kuhn, cfrviz.Policy.uniform(kuhn), 0)
    feedback = ex.check_exploitability(br)
    assert feedback.status == WRONG and ".value" in feedback.message


# -- helpers ------------------------------------------------------------------------------------

def test_exploiter_wins_exactly_the_exploitability(kuhn, trace):
    for t in (10, 100):
        bot = trace.average_policy(t)
        match = cfrviz.head_to_head(kuhn, ex.exploiter(kuhn, bot), bot, hands=2_000, seed=0)
        assert match.exact == pytest.approx(cfrviz.exploitability(kuhn, bot), abs=1e-12)


def test_best_response_table_marks_ties_and_unreached_sets(kuhn):
    honest = cfrviz.Policy.from_dict(kuhn, {
        "J": {"p": 1, "b": 0}, "Q": {"p": 1, "b": 0}, "K": {"p": 0, "b": 1},
        "Jpb": {"p": 1, "b": 0}, "Qpb": {"p": 1, "b": 0}, "Kpb": {"p": 0, "b": 1}})
    rows = {line.split()[0]: line for line in ex.best_response_table(kuhn, honest, 1).splitlines()}
    assert set(rows) == {"Jp", "Qp", "Kp", "Jb", "Qb", "Kb"}
    assert rows["Jp"].endswith("-> bet") and rows["Qb"].endswith("-> fold")
    assert "never reached" in rows["Kb"] and "tie" in rows["Qp"]
