"""Lesson 03's checkers accept the right answers, explain typical mistakes, never raise on junk."""


import numpy as np
import pytest
from _solutions import run_solution

import cfrviz
from cfrviz.analysis.explain import counterfactual_values
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson03 as ex
from cfrviz.reference import vanilla_cfr
from cfrviz.reference.updates import REGRET_UPDATES

JUNK = [None, ..., "", "abc", 3, [], {}, [1.0], [1, 2, 3], {"p": 1}, {"x": 1, "y": 2}, object(),
        float("nan"), [np.nan, 0.0], np.zeros((2, 2)), b"ab", True]




@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


# --- exercise 1: counterfactual values -------------------------------------------------------

def test_counterfactual_values_accepts_the_answer():
    assert ex.check_counterfactual_values([-2 / 9, -2 / 9]).status == CORRECT
    assert ex.check_counterfactual_values((-0.222, -0.222)).correct
    assert ex.check_counterfactual_values({"p": -2 / 9, "b": -2 / 9}).correct
    assert ex.check_counterfactual_values(np.array([-2 / 9, -2 / 9])).correct
    assert ex.check_counterfactual_values(
        run_solution("03_counterfactual_values.py")["my_values"]).correct
    assert ex.check_counterfactual_values(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ([-2, 0], "own-reach"),          # each node weighted by player 2's own reach, 1
    ([-4 / 3, -4 / 3], "no-chance"),
    ([-1 / 3, 0], "no-opponent"),
    ([-1 / 6, 0], "uniform"),
    ([-1, -1], "normalised"),
    ([2 / 9, 2 / 9], "sign"),
    ([1, 2, 3], "shape"),
])
def test_counterfactual_value_mistakes_are_explained(answer, mistake):
    feedback = ex.check_counterfactual_values(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


@pytest.mark.parametrize("junk", JUNK)
def test_counterfactual_values_never_raises_on_junk(junk):
    assert ex.check_counterfactual_values(junk).status in (WRONG, NOT_DONE)


def test_counterfactual_values_of_the_example(kuhn):
    qb = counterfactual_values(kuhn, ex.BLUFF_POLICY, "Qb")
    assert qb["action_values"] == pytest.approx([-2 / 9, -2 / 9])
    assert qb["opponent_reach"] == pytest.approx(1 / 18 + 1 / 6)
    assert qb["own_reach"] == pytest.approx(1.0)
    assert qb["regret"] == pytest.approx([0, 0], abs=1e-15)
    kpb = counterfactual_values(kuhn, ex.BLUFF_POLICY, "Kpb")
    assert kpb["own_reach"] == 0.0                       # never reached by its owner...
    assert kpb["action_values"] == pytest.approx([-1 / 6, 1 / 3])   # ...yet it still learns


def test_counterfactual_values_give_the_first_iteration_regrets(kuhn):
    # Player 1's regrets in iteration 1 of the reference CFR are taken against the uniform
    # profile: an independent computation of the same numbers.
    first = next(vanilla_cfr(kuhn, 1))
    uniform = cfrviz.Policy.uniform(kuhn)
    for info in np.flatnonzero(kuhn.infoset_player == 0):
        cf = counterfactual_values(kuhn, uniform, int(info))
        assert np.allclose(cf["regret"], first["regret"][info, :2], atol=1e-15)


# --- exercise 2: the regret update -----------------------------------------------------------

def right(reach, player, action_values, value):
    return reach[2] * reach[1 - player] * (action_values - value)


def test_regret_update_accepts_correct_implementations():
    assert ex.check_regret_update(right).status == CORRECT
    assert ex.check_regret_update(lambda r, i, q, v: list(right(r, i, q, v))).correct
    assert ex.check_regret_update(
        lambda r, i, q, v: np.prod(np.delete(r, i)) * (q - v)).correct
    assert ex.check_regret_update(run_solution("03_regret_update.py")["my_regret_update"]).correct


def test_regret_update_starter_is_not_done():
    def starter(reach, player, action_values, value):
        raise NotImplementedError
    assert ex.check_regret_update(starter).status == NOT_DONE
    assert ex.check_regret_update(None).status == NOT_DONE


@pytest.mark.parametrize("name", list(ex.MISTAKES))
def test_every_listed_mistake_is_recognised(name):
    feedback = ex.check_regret_update(REGRET_UPDATES[name])
    assert feedback.status == WRONG and feedback.mistake == name, feedback


def test_own_reach_is_explained_in_words():
    feedback = ex.check_regret_update(lambda reach, player, q, v: reach[player] * (q - v))
    assert feedback.mistake == "own-reach"
    assert "reach[1 - player]" in feedback.message and "own reach" in feedback.message


def test_sign_error_is_explained_in_words():
    feedback = ex.check_regret_update(lambda r, i, q, v: r[2] * r[1 - i] * (v - q))
    assert feedback.mistake == "sign" and "action_values - value" in feedback.message


@pytest.mark.parametrize("function, mistake", [
    (lambda *_: None, "shape"),
    (lambda r, _i, q, v: float(r[2] * (q.max() - v)), "shape"),    # one number, not one per action
    (lambda *_: "x", "shape"),
    (lambda _r, _i, q, _v: q * np.nan, "shape"),
    (lambda r, *_: r[7], "crash"),
    (lambda r, *_: r["chance"], "crash"),
    ("my_regret_update", "not-callable"),
    (42, "not-callable"),
])
def test_broken_functions_are_explained(function, mistake):
    feedback = ex.check_regret_update(function)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_an_unknown_wrong_update_shows_the_first_call_that_differs():
    feedback = ex.check_regret_update(lambda r, i, q, v: 1.5 * right(r, i, q, v))
    assert feedback.status == WRONG and feedback.mistake is None
    assert "CFR adds" in feedback.message


def test_a_stateful_update_is_caught():
    calls = []

    def drifting(r, i, q, v):
        calls.append(1)
        return right(r, i, q, v) * (1.0 if len(calls) < 100 else 1.01)
    feedback = ex.check_regret_update(drifting)
    assert feedback.status == WRONG


def test_the_checker_hands_out_copies():
    def vandal(reach, player, action_values, value):
        out = right(reach, player, action_values, value)
        reach[:] = 0.0
        action_values[:] = 99.0
        return out
    assert ex.check_regret_update(vandal).correct


def test_every_wrong_update_has_an_explanation():
    assert set(ex.MISTAKES) == set(REGRET_UPDATES) - {"cfr"}


def test_a_bad_return_names_the_node_it_came_from():
    feedback = ex.check_regret_update(lambda *_: None)
    assert feedback.message == ("Your function ran, but at node 'JQ:pb' (set 'Jpb') it returned "
                                "None (a missing `return`?).")
