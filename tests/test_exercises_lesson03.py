"""Lesson 03's checkers accept the right answers, explain typical mistakes and never raise on junk;
the CFR with a pluggable update is the reference CFR, and the helpers agree with the engine."""


import numpy as np
import pytest

import cfrviz
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson03 as ex
from cfrviz.reference import vanilla_cfr
from _solutions import run_solution

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
    qb = ex.counterfactual_values(kuhn, ex.BLUFF_POLICY, "Qb")
    assert qb["action_values"] == pytest.approx([-2 / 9, -2 / 9])
    assert qb["opponent_reach"] == pytest.approx(1 / 18 + 1 / 6)
    assert qb["own_reach"] == pytest.approx(1.0)
    assert qb["regret"] == pytest.approx([0, 0], abs=1e-15)
    kpb = ex.counterfactual_values(kuhn, ex.BLUFF_POLICY, "Kpb")
    assert kpb["own_reach"] == 0.0                       # never reached by its owner...
    assert kpb["action_values"] == pytest.approx([-1 / 6, 1 / 3])   # ...yet it still learns


def test_counterfactual_values_give_the_first_iteration_regrets(kuhn):
    # Player 1's regrets in iteration 1 of the reference CFR are taken against the uniform
    # profile: an independent computation of the same numbers.
    first = next(vanilla_cfr(kuhn, 1))
    uniform = cfrviz.Policy.uniform(kuhn)
    for info in np.flatnonzero(kuhn.infoset_player == 0):
        cf = ex.counterfactual_values(kuhn, uniform, int(info))
        assert np.allclose(cf["regret"], first["regret"][info, :2], atol=1e-15)


# --- exercise 2: the regret update -----------------------------------------------------------

def right(reach, player, action_values, value):
    return reach[2] * reach[1 - player] * (action_values - value)


def test_cfr_with_the_right_update_is_the_reference(kuhn):
    for alternating in (True, False):
        pairs = zip(ex.cfr_with_update(kuhn, 20, right, alternating=alternating),
                    vanilla_cfr(kuhn, 20, alternating=alternating))
        for mine, ref in pairs:
            for key in ("strategy", "cumulative_regret", "regret", "strategy_sum"):
                assert np.allclose(mine[key], ref[key], rtol=1e-12, atol=1e-15), key


def test_cfr_with_the_right_update_is_the_reference_on_leduc():
    leduc = cfrviz.load_game("leduc_poker")
    for mine, ref in zip(ex.cfr_with_update(leduc, 2, right), vanilla_cfr(leduc, 2)):
        assert np.allclose(mine["cumulative_regret"], ref["cumulative_regret"], atol=1e-12)


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


@pytest.mark.parametrize("name", [n for n in ex.UPDATES if n != "cfr"])
def test_every_listed_mistake_is_recognised(name):
    feedback = ex.check_regret_update(ex.UPDATES[name][0])
    assert feedback.status == WRONG and feedback.mistake == name, feedback


def test_own_reach_is_explained_in_words():
    feedback = ex.check_regret_update(lambda reach, player, q, v: reach[player] * (q - v))
    assert feedback.mistake == "own-reach"
    assert "reach[1 - player]" in feedback.message and "own reach" in feedback.message


def test_sign_error_is_explained_in_words():
    feedback = ex.check_regret_update(lambda r, i, q, v: r[2] * r[1 - i] * (v - q))
    assert feedback.mistake == "sign" and "action_values - value" in feedback.message


@pytest.mark.parametrize("function, mistake", [
    (lambda r, i, q, v: None, "shape"),
    (lambda r, i, q, v: float(r[2] * (q.max() - v)), "shape"),     # one number, not one per action
    (lambda r, i, q, v: "x", "shape"),
    (lambda r, i, q, v: q * np.nan, "shape"),
    (lambda r, i, q, v: r[7], "crash"),
    (lambda r, i, q, v: r["chance"], "crash"),
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


def test_the_checker_hands_out_copies(kuhn):
    def vandal(reach, player, action_values, value):
        out = right(reach, player, action_values, value)
        reach[:] = 0.0
        action_values[:] = 99.0
        return out
    assert ex.check_regret_update(vandal).correct


def test_leaving_out_chance_does_not_change_kuhn_strategies(kuhn):
    # Every Kuhn deal has probability 1/6, so the no-chance update only rescales regrets
    # (the checker's message says so).
    for a, b in zip(ex.cfr_with_update(kuhn, 30, ex.UPDATES["no-chance"][0]),
                    ex.cfr_with_update(kuhn, 30, right)):
        assert np.allclose(a["strategy"], b["strategy"])
        assert np.allclose(a["cumulative_regret"], 6 * b["cumulative_regret"])


# --- helpers ---------------------------------------------------------------------------------

def test_own_reach_stalls_while_cfr_converges(kuhn):
    result = ex.update_comparison(kuhn, 300, names=("cfr", "own-reach"), points=6)
    assert result["iterations"][-1] == 300 and len(result["cfr"]) == len(result["iterations"])
    assert result["cfr"][-1] < 0.01 < 0.1 < result["own-reach"][-1]
    fig = ex.update_comparison_figure(result)
    assert [t.name for t in fig.data] == [ex.LABELS["cfr"], ex.LABELS["own-reach"]]
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"


def test_update_comparison_matches_the_engine(kuhn):
    result = ex.update_comparison(kuhn, 50, names=("cfr",), points=4)
    trace = cfrviz.solve(kuhn, "cfr", 50, checkpoints=result["iterations"].tolist(),
                         progress=False)
    assert np.allclose(result["cfr"], trace.exploitability, rtol=1e-9)


def test_update_comparison_refuses_bad_input(kuhn):
    with pytest.raises(ValueError, match="unknown update"):
        ex.update_comparison(kuhn, 10, names=("own reach",))
    with pytest.raises(ValueError, match="at least 1"):
        ex.update_comparison(kuhn, 0)


def test_listing_shows_the_parts_the_lesson_walks_through():
    from cfrviz.reference import walk as reference_walk

    walk = ex.listing(reference_walk, "def walk", "return value")
    assert walk.lines[0].startswith("def walk") and walk.lines[-1].strip() == "return value"
    decision = ex.listing(reference_walk, "info = tree.infoset[node]", "return value")
    text = "\n".join(decision.lines)
    assert "others = reach[2] * reach[1 - player]" in text
    assert "+= others * (action_values - value)" in text
    loop = ex.listing(vanilla_cfr, "for _ in range(iterations)", "yield")
    assert loop.lines[-1].rstrip().endswith("}")          # the yield's dict is not cut in half
    assert str(loop).splitlines()[0].startswith(str(loop.first))
    assert "<span" in loop._repr_html_() or "<pre" in loop._repr_html_()
    with pytest.raises(ValueError, match="does not occur"):
        ex.listing(vanilla_cfr, "no such line")


def test_bluff_explorer_follows_its_sliders(kuhn):
    box = ex.bluff_explorer()
    assert np.allclose(box.figure.data[0].y, [-2 / 9, -2 / 9])
    assert "neither" in box.text.value
    box.bluff.value = 0.6
    expected = ex.counterfactual_values(
        kuhn, {"J": {"p": 0.4, "b": 0.6}, "Q": {"p": 1, "b": 0}, "K": {"p": 0, "b": 1}}, "Qb")
    assert np.allclose(box.figure.data[0].y, expected["action_values"])
    assert "calling" in box.text.value
    box.bluff.value, box.value_bet.value = 0.0, 1.0
    assert "folding" in box.text.value
