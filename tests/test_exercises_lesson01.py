"""Lesson 01's regret-matching checker, by class of hole (issue 22 item 2): plausible wrong code
written as a student would (thresholds, rounding, a floored sum, the max with 0 missing) is
rejected with a named mistake, and right code in several styles is accepted."""

import pytest
from _solutions import as_cell

from cfrviz.exercises import WRONG
from cfrviz.exercises import lesson01 as ex

RIGHT = {
    "pure python": '''
def my_regret_matching(cumulative_regrets):
    positive = [max(r, 0.0) for r in cumulative_regrets]
    total = sum(positive)
    if total > 0:
        return [p / total for p in positive]
    return [1 / len(positive)] * len(positive)
''',
    "numpy": '''
def my_regret_matching(cumulative_regrets):
    positive = np.clip(cumulative_regrets, 0, None)
    total = positive.sum()
    return positive / total if total > 0 else np.full(len(positive), 1 / len(positive))
''',
    "recursion": '''
def positive_sum(regrets):
    if not len(regrets):
        return 0.0
    return max(regrets[0], 0.0) + positive_sum(regrets[1:])

def my_regret_matching(cumulative_regrets):
    total = positive_sum(list(cumulative_regrets))
    n = len(cumulative_regrets)
    return [max(r, 0.0) / total if total > 0 else 1 / n for r in cumulative_regrets]
''',
    "iteration with a loop": '''
def my_regret_matching(cumulative_regrets):
    strategy = np.zeros(len(cumulative_regrets))
    total = 0.0
    for a, r in enumerate(cumulative_regrets):
        if r > 0:
            strategy[a] = r
            total += r
    if total == 0:
        strategy[:] = 1.0 / len(strategy)
    else:
        strategy /= total
    return strategy
''',
}

WRONG_CODE = {
    # A tolerance instead of > 0: tiny positive regrets are treated as none.
    "threshold": '''
def my_regret_matching(cumulative_regrets):
    positive = np.where(cumulative_regrets > 1e-9, cumulative_regrets, 0.0)
    total = positive.sum()
    return positive / total if total > 0 else np.ones(len(positive)) / len(positive)
''',
    # Rounding the regrets first, to "clean up" float noise.
    "rounded regrets": '''
def my_regret_matching(cumulative_regrets):
    positive = np.maximum(np.round(cumulative_regrets, 6), 0)
    total = positive.sum()
    return positive / total if total > 0 else np.ones(len(positive)) / len(positive)
''',
    # Guarding the division with max(sum, 1) instead of a test for zero.
    "floored sum": '''
def my_regret_matching(cumulative_regrets):
    positive = [max(r, 0.0) for r in cumulative_regrets]
    if sum(positive) == 0:
        return [1 / len(positive)] * len(positive)
    return [p / max(sum(positive), 1.0) for p in positive]
''',
    # Normalising by the sum of absolute values.
    "absolute sum": '''
def my_regret_matching(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0)
    total = np.abs(cumulative_regrets).sum()
    return positive / total if positive.sum() > 0 else np.ones(len(positive)) / len(positive)
''',
    # The max with 0 missing: negative regrets divided in.
    "no max with 0": '''
def my_regret_matching(cumulative_regrets):
    total = sum(r for r in cumulative_regrets if r > 0)
    if total > 0:
        return [r / total for r in cumulative_regrets]
    return [1 / len(cumulative_regrets)] * len(cumulative_regrets)
''',
    # A total-sum test: uniform whenever the regrets sum to 0 or less, positive ones or not.
    "sum test": '''
def my_regret_matching(cumulative_regrets):
    positive = np.maximum(cumulative_regrets, 0)
    if np.sum(cumulative_regrets) <= 0:
        return np.ones(len(positive)) / len(positive)
    return positive / positive.sum()
''',
}


@pytest.mark.parametrize("style", RIGHT)
def test_right_code_in_any_style_is_accepted(style):
    feedback = ex.check_regret_matching(as_cell(RIGHT[style])["my_regret_matching"])
    assert feedback.correct, (style, feedback.message)


@pytest.mark.parametrize("name", WRONG_CODE)
def test_plausible_wrong_code_is_rejected(name):
    feedback = ex.check_regret_matching(as_cell(WRONG_CODE[name])["my_regret_matching"])
    assert feedback.status == WRONG, (name, feedback.message)


@pytest.mark.parametrize("name, mistake", [("threshold", "threshold"),
                                           ("rounded regrets", "threshold"),
                                           ("floored sum", "sum-floor")])
def test_threshold_and_rounding_holes_are_named(name, mistake):
    feedback = ex.check_regret_matching(as_cell(WRONG_CODE[name])["my_regret_matching"])
    assert feedback.mistake == mistake, feedback.message
