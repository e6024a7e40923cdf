"""Lesson 04's checkers accept the right answers, explain typical mistakes and never raise."""

import numpy as np
import pytest
from _solutions import run_solution

import cfrviz
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson04 as ex

JUNK = ["0.5", "abc", [0.5, 0.5], {"b": 0.5}, np.array([0.1, 0.2]), float("nan"), float("inf"),
        True, object(), -3, 7]


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


@pytest.fixture(scope="module")
def run300(kuhn):
    return cfrviz.solve(kuhn, "cfr", ex.EXPLORER_ITERATIONS, seed=0, progress=False)


@pytest.fixture(scope="module")
def mystery(kuhn):
    return cfrviz.solve(kuhn, "linear_cfr", 2000, seed=0, progress=False)


@pytest.fixture(scope="module")
def others(kuhn):
    return [cfrviz.solve(kuhn, "cfr", 2000, progress=False),
            cfrviz.solve(kuhn, "chance_sampling", 2000, seed=1, progress=False)]


def cell(run300, which: str) -> float:
    table = run300.average_strategy if which == "average" else run300.current_strategy
    game = run300.game
    return float(table[run300.index(ex.ITERATION), game.infoset_index(ex.SET), 1])


def test_average_strategy_is_rebuilt_from_the_strategies_played(run300):
    for key in ("Qpb", "Jpb", "Kpb", "Qb", "J"):
        rebuilt = ex.average_from_current(run300, key, upto=ex.ITERATION)
        recorded = run300.average_policy(ex.ITERATION)[key]
        np.testing.assert_allclose(rebuilt, list(recorded.values()), atol=1e-12)
    plain = ex.average_from_current(run300, "Qpb", upto=ex.ITERATION, weighted=False)
    assert abs(plain[1] - cell(run300, "average")) > 0.01  # the weights matter at Qpb


def test_own_reach_of_a_first_move_is_one(run300):
    np.testing.assert_allclose(ex.own_reach_history(run300, "J", upto=20), np.ones(20))


def test_average_at_set_accepts_the_average(run300):
    value = cell(run300, "average")
    assert ex.check_average_at_set(value).status == CORRECT
    assert ex.check_average_at_set(round(value, 3)).correct
    assert ex.check_average_at_set(np.float64(value)).correct
    assert ex.check_average_at_set(None).status == NOT_DONE


def test_average_at_set_solution_passes(run300):
    explorer = type("E", (), {"trace": run300})()
    namespace = run_solution("04_average_at_set.py", explorer=explorer)
    assert ex.check_average_at_set(namespace["my_call_probability"]).correct


def test_average_at_set_recognises_the_current_strategy(run300):
    feedback = ex.check_average_at_set(round(cell(run300, "current"), 3))
    assert feedback.status == WRONG and feedback.mistake == "current"
    assert "current" in feedback.message and "average" in feedback.message


@pytest.mark.parametrize("mistake", ["fold-not-call", "unweighted", "other-iteration",
                                     "other-set"])
def test_average_at_set_explains_other_mistakes(run300, mistake):
    game = run300.game
    k = run300.index(ex.ITERATION)
    answer = {"fold-not-call": 1 - cell(run300, "average"),
              "unweighted": ex.average_from_current(run300, ex.SET, ex.ITERATION, False)[1],
              "other-iteration": run300.average_policy()[ex.SET]["b"],
              "other-set": run300.average_strategy[k, game.infoset_index("J"), 1]}[mistake]
    feedback = ex.check_average_at_set(float(answer))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


@pytest.mark.parametrize("junk", JUNK)
def test_average_at_set_never_raises_on_junk(junk):
    feedback = ex.check_average_at_set(junk)
    assert feedback.status == WRONG and feedback.message


def test_alpha_accepts_each_reading(mystery, others):
    estimates = ex.alpha_estimates(mystery)
    for key in ("bet J", "bet K / 3", "call Q - 1/3", "nearest"):
        assert ex.check_alpha(estimates[key], mystery, others).correct
    assert ex.check_alpha(round(estimates["nearest"], 2), mystery).correct
    namespace = run_solution("04_alpha.py", mystery=mystery)
    assert ex.check_alpha(namespace["my_alpha"], mystery, others).correct
    assert ex.check_alpha(None, mystery).status == NOT_DONE


def test_alpha_recognises_typical_mistakes(mystery, others):
    p = mystery.average_policy()
    cases = {"bet-king": p["K"]["b"], "call-queen": p["Qpb"]["b"], "check-not-bet": p["J"]["p"],
             "other-run": ex.alpha_estimates(others[0])["nearest"], "out-of-range": 0.5}
    for mistake, answer in cases.items():
        feedback = ex.check_alpha(answer, mystery, others)
        assert feedback.status == WRONG and feedback.mistake == mistake, (mistake, feedback)


def test_alpha_recognises_the_current_strategy(kuhn):
    run = cfrviz.solve(kuhn, "chance_sampling", 300, seed=2, progress=False)
    current = ex.nearest_alpha(ex._coordinates(run, current=True))[0]
    average = ex.alpha_estimates(run)["nearest"]
    assert abs(current - average) > 3 * ex.ALPHA_TOLERANCE  # the case this test needs
    assert ex.check_alpha(current, run).mistake == "current"


@pytest.mark.parametrize("junk", JUNK)
def test_alpha_never_raises_on_junk(mystery, junk):
    assert ex.check_alpha(junk, mystery).status == WRONG


def test_alpha_never_raises_on_a_bad_trace():
    assert ex.check_alpha(0.2, "not a trace").status == WRONG
    assert ex.check_alpha(0.2, None).status == WRONG


def test_alpha_estimates_agree_on_the_segment(kuhn):
    alpha = 0.1
    policy = cfrviz.Policy.from_dict(kuhn, {"J": {"p": 1 - alpha, "b": alpha},
                                            "K": {"p": 1 - 3 * alpha, "b": 3 * alpha},
                                            "Qpb": {"p": 2 / 3 - alpha, "b": alpha + 1 / 3}})
    estimates = ex.alpha_estimates(policy)
    assert all(abs(v - alpha) < 1e-12 for v in estimates.values())


def test_describe_and_table(kuhn, run300):
    assert ex.describe_kuhn_set("Qpb") == ("player 1", "holds Q, checked, then player 2 bet",
                                           "call")
    assert ex.describe_kuhn_set("Jp")[2] == "bet"
    with pytest.raises(ValueError):
        ex.describe_kuhn_set("Qx")
    table = ex.strategy_table(kuhn, {"avg": run300.average_policy()})
    assert len(table.splitlines()) == 1 + kuhn.num_infosets and "Qpb" in table
