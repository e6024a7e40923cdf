"""Lesson 15 checkers: combos of AT on the board, and the showdown as a sorted prefix sum,
written several ways, accepted; each usual slip, written as a student would, named."""

import numpy as np
import pytest

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson15 as ex

#: The sorted prefix sum with one slip as a switch: which sides get the card-by-card
#: correction, and which side of the sort ties fall on.
TEMPLATE = '''
import numpy as np

def my_showdown_values(strength, opp_strength, cards, opp_cards, opp_reach):
    order = np.argsort(opp_strength)
    s, r = opp_strength[order], opp_reach[order]
    running = np.concatenate([[0.0], np.cumsum(r)])
    holds = np.zeros((52, len(order)))
    for side in (0, 1):
        holds[opp_cards[order, side], np.arange(len(order))] = 1.0
    card = np.concatenate([np.zeros((52, 1)), np.cumsum(holds * r, axis=1)], axis=1)
    low = np.searchsorted(s, strength, side="{below}")
    high = np.searchsorted(s, strength, side="{above}")
    out = []
    for i, (a, b) in enumerate(cards):
        won = running[low[i]] - {win_fix} * (card[a, low[i]] + card[b, low[i]])
        lost = (running[-1] - running[high[i]]) - {loss_fix} * (
            card[a, -1] - card[a, high[i]] + card[b, -1] - card[b, high[i]])
        out.append(won - lost)
    return out
'''

RIGHT = dict(below="left", above="right", win_fix=1, loss_fix=1)


def _function(**changes):
    namespace: dict = {}
    exec(TEMPLATE.format(**{**RIGHT, **changes}), namespace)
    return namespace["my_showdown_values"]


def test_the_sorted_prefix_sum_is_right():
    feedback = ex.check_showdown(_function())
    assert feedback.status == CORRECT, feedback.message


def test_the_double_loop_is_right_too():
    def pairwise(strength, opp_strength, cards, opp_cards, opp_reach):
        return [sum(r * np.sign(si - sj) for sj, cj, r in zip(opp_strength, opp_cards, opp_reach)
                    if not set(c.tolist()) & set(cj.tolist()))
                for si, c in zip(strength, cards)]
    assert ex.check_showdown(pairwise).status == CORRECT


@pytest.mark.parametrize("changes, mistake", [
    (dict(win_fix=0, loss_fix=0), "no-card-removal"),
    (dict(below="right"), "ties-as-wins"),
    (dict(above="left"), "ties-as-losses"),
    (dict(loss_fix=0), "removal-on-wins-only"),
    (dict(win_fix=0), "removal-on-losses-only"),
])
def test_each_usual_slip_is_named(changes, mistake):
    feedback = ex.check_showdown(_function(**changes))
    assert (feedback.status, feedback.mistake) == (WRONG, mistake), feedback.message


def test_every_named_slip_differs_from_the_right_answer():
    right = [ex.showdown_values(c.strength, c.opp_strength, c.cards, c.opp_cards, c.opp_reach)
             for c in ex.showdown_cases()]
    for name, formula, _ in ex.VARIANTS:
        assert any(not np.allclose(formula(c), r) for c, r in zip(ex.showdown_cases(), right)), \
            name


def test_the_cases_hold_ties_and_shared_combos():
    for case in ex.showdown_cases():
        assert len(np.unique(case.opp_strength)) < len(case.opp_strength)  # ties
        mine = {tuple(c) for c in case.cards.tolist()}
        assert mine & {tuple(c) for c in case.opp_cards.tolist()}  # the same combo both sides


def test_a_starter_a_wrong_shape_and_a_changed_input_are_told_apart():
    def starter(*_args):
        raise NotImplementedError
    assert ex.check_showdown(starter).status == NOT_DONE

    def one_number(*_args):
        return 0.0
    feedback = ex.check_showdown(one_number)
    assert feedback.mistake == "shape" and "one per combo of yours" in feedback.message

    def sorts_in_place(strength, *others):
        others[-1].sort()  # opp_reach, sorted in place
        return np.zeros(len(strength))
    feedback = ex.check_showdown(sorts_in_place)
    assert feedback.status == WRONG and "opp_reach" in feedback.message


def test_an_unrecognised_answer_shows_the_first_combo_that_differs():
    def off_by_one(*args):
        return np.asarray(ex.showdown_values(*args)) + 1
    feedback = ex.check_showdown(off_by_one)
    assert feedback.status == WRONG and feedback.mistake is None
    assert "your value is" in feedback.message and "blocked combos removed" in feedback.message


@pytest.mark.parametrize("answer, status, mistake", [
    (None, NOT_DONE, None), (12, CORRECT, None), (12.0, CORRECT, None),
    (16, WRONG, "board-ignored"), (3, WRONG, "suited-only"), (4, WRONG, "suited-only"),
    (9, WRONG, "offsuit-only"), (11.5, WRONG, "shape"), ("12", WRONG, "shape"),
    (True, WRONG, "shape"), (13, WRONG, None)])
def test_combos_of_at(answer, status, mistake):
    feedback = ex.check_combos(answer)
    assert (feedback.status, feedback.mistake) == (status, mistake), feedback.message
    assert ex.at_combos() == 12
