"""Lesson 08 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import SOLUTIONS, as_cell, run_solution

import cfrviz
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson08 as ex

JUNK = ["", "fast", 3, {"a": 1}, object(), [None] * 3, np.zeros((2, 2)), [np.nan] * 3,
        ["cfr"] * 4, [1, 2, 3, 4], [np.inf, 0, 0]]

DISCOUNTS_RIGHT = {
    "fractions": [8 / 9, 1 / 2, 16 / 25],
    "rounded tuple": (0.889, 0.5, 0.64),
    "numpy": np.array(ex.dcfr_discounts(4, 1.5, 0.0, 2.0)),
    "the solution": run_solution("08_dcfr_discounts.py")["my_factors"],
}


@pytest.mark.parametrize("form", DISCOUNTS_RIGHT)
def test_dcfr_discounts(form):
    assert ex.check_dcfr_discounts(DISCOUNTS_RIGHT[form]).status == CORRECT


def test_dcfr_discounts_not_done():
    assert ex.check_dcfr_discounts(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ([1 / 2, 8 / 9, 16 / 25], "swapped"),
    ([5**1.5 / (5**1.5 + 1), 1 / 2, (5 / 6) ** 2], "next-iteration"),
    ([8 / 9, 1 / 2, 4 / 5], "gamma-power"),
    ([8 / 9, 1 / 2, 16 / 17], "average-formula"),
    ([8 / 9, 0, 16 / 25], "cfr-plus"),
    ([8, 1, 16], "not-a-factor"),
    ([8 / 9, 1 / 2], "shape"),
    ([0.5, 0.5, 0.5], None),
])
def test_dcfr_discount_mistakes_are_explained(answer, mistake):
    feedback = ex.check_dcfr_discounts(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_race_is_what_the_lesson_says():
    results = ex.race()
    assert sorted(results, key=results.get) == ["dcfr", "cfr+", "linear_cfr", "cfr"]


RANKING_RIGHT = {
    "list": ["dcfr", "cfr+", "linear_cfr", "cfr"],
    "aliases in a tuple": ("DCFR", "CFR+", "linear", "vanilla"),
    "a single name, the lowest": "discounted",
    "the solution": run_solution("08_variant_ranking.py")["my_ranking"],
}


@pytest.mark.parametrize("form", RANKING_RIGHT)
def test_variant_ranking_accepts_the_truth_in_any_spelling(form):
    assert ex.check_variant_ranking(RANKING_RIGHT[form]).status == CORRECT


def test_variant_ranking_not_done():
    assert ex.check_variant_ranking(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    (["cfr", "linear_cfr", "cfr+", "dcfr"], "vanilla-best"),
    (["linear_cfr", "dcfr", "cfr+", "cfr"], "linear-best"),
    (["cfr+", "dcfr", "linear_cfr", "cfr"], "plus-vs-dcfr"),
    ("cfr+", "plus-vs-dcfr"),
    ("cfr", "vanilla-best"),
    (["dcfr", "linear_cfr", "cfr+", "cfr"], "linear-vs-plus"),
    (["dcfr", "cfr+", "cfr", "linear_cfr"], "partly"),
    (["dcfr", "cfr+", "cfr"], "names"),
    ("fast", "names"),
])
def test_variant_ranking_mistakes_are_explained(answer, mistake):
    feedback = ex.check_variant_ranking(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    # A wrong ranking is told what is wrong, never the measured order (issue 29).
    assert not any(f"{e:.1e}" in feedback.message for e in ex.race().values()), feedback


@pytest.mark.parametrize("junk", JUNK, ids=stable_id)
def test_junk_never_raises(junk):
    for checker in (ex.check_dcfr_discounts, ex.check_variant_ranking):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message


@pytest.mark.parametrize("answer", [[88.89, 50, 64], (100 * 8 / 9, 50.0, 64.0)])
def test_dcfr_discounts_as_percentages_are_named(answer):
    feedback = ex.check_dcfr_discounts(answer)
    assert feedback.status == WRONG and feedback.mistake == "percentage", feedback


@pytest.mark.parametrize("t", [1, 2, 3, 8, 10])
def test_dcfr_discounts_at_another_iteration_are_named(t):
    feedback = ex.check_dcfr_discounts(list(ex.dcfr_discounts(t, 1.5, 0.0, 2.0)))
    assert feedback.status == WRONG and feedback.mistake == "wrong-iteration", feedback
    assert f"t = {t}" in feedback.message


# -- section 1: one change at a time ------------------------------------------------------------

def test_one_change_at_a_time_ends_where_the_solvers_end(kuhn):
    curves = ex.one_change_at_a_time(kuhn, [10, 50])
    assert set(curves) == {"cfr", "linear average", "regret floor", "cfr+"}
    for name in ("cfr", "cfr+"):
        trace = cfrviz.solve(kuhn, name, 50, checkpoints=[10, 50], progress=False)
        np.testing.assert_allclose([curves[name][10], curves[name][50]], trace.exploitability,
                                   rtol=1e-12)
    # each change alone gives a different run from both ends
    for name in ("linear average", "regret floor"):
        assert curves[name][50] not in (curves["cfr"][50], curves["cfr+"][50])


# -- exercise 1: CFR+ as code -------------------------------------------------------------------

PLUS = "08_cfr_plus_iteration.py"
FLOOR = "regret_sum = np.maximum(regret_sum + regret, 0)"
AVERAGE = "strategy_sum = strategy_sum + t * weights"
LOOP = ("    for player in (0, 1):  # alternating: player 2 plays against player 1's updated "
        "strategy\n        strategy = regret_matching(regret_sum, tree.legal_mask)\n")


def plus_student(*changes):
    """The reference CFR+ iteration with some lines changed, as a student might."""
    source = (SOLUTIONS / PLUS).read_text()
    for old, new in changes:
        assert old in source, old
        source = source.replace(old, new)
    namespace = {}
    exec(compile(source, "<string>", "exec"), namespace)
    return namespace["my_cfr_plus_iteration"]


def test_cfr_plus_solution_passes():
    feedback = ex.check_cfr_plus_iteration(run_solution(PLUS)["my_cfr_plus_iteration"])
    assert feedback.status == CORRECT, feedback
    assert f"{ex.PLUS_ITERATIONS} iterations" in feedback.message


def test_plus_iteration_is_cfrviz_cfr_plus(kuhn):
    trace = cfrviz.solve(kuhn, "cfr+", 5, checkpoints=[1, 2, 3, 4, 5], progress=False)
    for t, (regret_sum, strategy_sum) in enumerate(ex._run(kuhn, 5), start=1):
        np.testing.assert_allclose(regret_sum, trace.cumulative_regret[t - 1], atol=1e-12)
        np.testing.assert_allclose(ex._average(kuhn, strategy_sum),
                                   trace.average_strategy[t - 1], atol=1e-12)


def test_other_correct_writings_pass():
    # a new array then updated in place, a scaled strategy sum, and a floor also inside
    # regret matching
    feedback = ex.check_cfr_plus_iteration(plus_student(
        (FLOOR, "regret_sum = regret_sum + regret\n"
                "        np.maximum(regret_sum, 0, out=regret_sum)"),
        (AVERAGE, "strategy_sum = strategy_sum + 0.5 * t * weights"),
        ("strategy = regret_matching(regret_sum, tree.legal_mask)",
         "strategy = regret_matching(np.maximum(regret_sum, 0), tree.legal_mask)")))
    assert feedback.correct, feedback


@pytest.mark.parametrize("changes, mistake", [
    ([(FLOOR, "regret_sum = regret_sum + regret"),
      (AVERAGE, "strategy_sum = strategy_sum + weights")], "vanilla"),
    ([(FLOOR, "regret_sum = regret_sum + regret"),
      ("strategy = regret_matching(regret_sum, tree.legal_mask)",
       "strategy = regret_matching(np.maximum(regret_sum, 0), tree.legal_mask)")], "no-floor"),
    ([(FLOOR, "regret_sum = np.maximum(regret_sum, 0) + regret")], "floor-before"),
    ([(FLOOR, "regret_sum = regret_sum + np.maximum(regret, 0)")], "floor-increment"),
    ([(FLOOR, "regret_sum = np.maximum(regret_sum + t * regret, 0)")], "linear-regrets"),
    ([(LOOP, "    strategy = regret_matching(regret_sum, tree.legal_mask)\n"
             "    for player in (0, 1):\n")], "simultaneous"),
    ([(AVERAGE, "strategy_sum = strategy_sum + weights")], "uniform-average"),
    ([(AVERAGE, "strategy_sum = strategy_sum + t**2 * weights")], "squared-average"),
    ([(AVERAGE, "strategy_sum = strategy_sum + (t - 1) * weights")], "delayed-average"),
    ([(AVERAGE, "strategy_sum = strategy_sum + (t + 1) * weights")], "shifted-average"),
    ([(FLOOR, "regret_sum = np.maximum(regret_sum, 0) + regret"),
      (AVERAGE, "strategy_sum = strategy_sum + weights")], "floor-before"),
    # Right tables, but the caller's are updated in place (issue 29 item 4): the exercise
    # returns new ones.
    ([(FLOOR, "regret_sum += regret\n        np.maximum(regret_sum, 0, out=regret_sum)")],
     "changes its input"),
    ([(AVERAGE, "strategy_sum += t * weights")], "changes its input"),
])
def test_cfr_plus_mistakes_are_named(changes, mistake):
    feedback = ex.check_cfr_plus_iteration(plus_student(*changes))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    if mistake == "changes its input":
        assert "in place" in feedback.message
    else:
        assert feedback.message == ex.PLUS_MESSAGES[mistake]


def test_cfr_plus_unknown_mistake_says_where_it_went_wrong():
    feedback = ex.check_cfr_plus_iteration(plus_student((FLOOR, "regret_sum = regret_sum * 0")))
    assert feedback.status == WRONG and feedback.mistake is None
    assert "After iteration 1 your cumulative regrets" in feedback.message


def test_cfr_plus_crash_reports_the_line():
    feedback = ex.check_cfr_plus_iteration(plus_student(
        ("regret, weights = cfr_pass(tree, strategy, player)",
         "regret, weights, extra = cfr_pass(tree, strategy, player)")))
    lines = (SOLUTIONS / PLUS).read_text().splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if "cfr_pass(tree, strategy" in text)
    assert feedback.status == WRONG and feedback.mistake == "crash"
    assert "ValueError" in feedback.message and f"line {line} of your cell" in feedback.message


def test_cfr_plus_not_done_and_junk():
    def starter(tree, regret_sum, strategy_sum, t):
        raise NotImplementedError

    assert ex.check_cfr_plus_iteration(starter).status == NOT_DONE
    assert ex.check_cfr_plus_iteration(None).status == NOT_DONE
    assert ex.check_cfr_plus_iteration("cfr+").mistake == "not-callable"
    for returned in (None, 3, (np.zeros(2), np.zeros(2)), ("a", "b"),
                     (np.full((12, 2), np.nan), np.zeros((12, 2)))):
        feedback = ex.check_cfr_plus_iteration(lambda *_, r=returned: r)
        assert feedback.status == WRONG and feedback.mistake == "shape", (returned, feedback)
    assert ex.check_cfr_plus_iteration(lambda: None).mistake == "crash"


# -- exercise 1 by class of hole (issue 22 item 2): either update order, any style ------------

PLUS_RIGHT = {
    "numpy, player 2 first": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    for player in (1, 0):
        strategy = regret_matching(regret_sum, tree.legal_mask)
        regret, weights = cfr_pass(tree, strategy, player)
        regret_sum = np.maximum(regret_sum + regret, 0)
        strategy_sum = strategy_sum + t * weights
    return regret_sum, strategy_sum
''',
    "pure python loops over the rows": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    regret_sum = [list(row) for row in regret_sum]
    strategy_sum = [list(row) for row in strategy_sum]
    for player in range(2):
        strategy = regret_matching(np.array(regret_sum), tree.legal_mask)
        regret, weights = cfr_pass(tree, strategy, player)
        for i in range(len(regret_sum)):
            for a in range(len(regret_sum[i])):
                regret_sum[i][a] = max(regret_sum[i][a] + regret[i][a], 0.0)
                strategy_sum[i][a] += t * weights[i][a]
    return regret_sum, strategy_sum
''',
    "recursion over the players": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def update(tree, regret_sum, strategy_sum, t, players):
    if not players:
        return regret_sum, strategy_sum
    strategy = regret_matching(regret_sum, tree.legal_mask)
    regret, weights = cfr_pass(tree, strategy, players[0])
    return update(tree, np.clip(regret_sum + regret, 0, None), strategy_sum + t * weights, t,
                  players[1:])

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    return update(tree, regret_sum, strategy_sum, t, [1, 0])
''',
}

PLUS_WRONG = {
    "floor only inside regret matching, player 2 first": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    for player in (1, 0):
        strategy = regret_matching(np.maximum(regret_sum, 0), tree.legal_mask)
        regret, weights = cfr_pass(tree, strategy, player)
        regret_sum = regret_sum + regret
        strategy_sum = strategy_sum + t * weights
    return regret_sum, strategy_sum
''',
    "player 2 first, uniform average": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    for player in (1, 0):
        strategy = regret_matching(regret_sum, tree.legal_mask)
        regret, weights = cfr_pass(tree, strategy, player)
        regret_sum = np.maximum(regret_sum + regret, 0)
        strategy_sum = strategy_sum + weights
    return regret_sum, strategy_sum
''',
    "player 2 first, simultaneous": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    strategy = regret_matching(regret_sum, tree.legal_mask)
    for player in (1, 0):
        regret, weights = cfr_pass(tree, strategy, player)
        regret_sum = np.maximum(regret_sum + regret, 0)
        strategy_sum = strategy_sum + t * weights
    return regret_sum, strategy_sum
''',
    "one player only": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    strategy = regret_matching(regret_sum, tree.legal_mask)
    regret, weights = cfr_pass(tree, strategy, 0)
    return np.maximum(regret_sum + regret, 0), strategy_sum + t * weights
''',
    # A floor with a tolerance. Only tolerances above 0.0101, the smallest positive cumulative
    # regret of 30 CFR+ iterations on Kuhn poker, are caught: a 1e-3 one passes (see the docstring
    # of check_cfr_plus_iteration).
    "floor rounds small regrets away": '''
from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass

def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    for player in (0, 1):
        strategy = regret_matching(regret_sum, tree.legal_mask)
        regret, weights = cfr_pass(tree, strategy, player)
        total = regret_sum + regret
        regret_sum = np.where(total > 0.05, total, 0.0)
        strategy_sum = strategy_sum + t * weights
    return regret_sum, strategy_sum
''',
}


@pytest.mark.parametrize("style", PLUS_RIGHT)
def test_cfr_plus_right_code_in_any_style_and_order_is_accepted(style):
    feedback = ex.check_cfr_plus_iteration(as_cell(PLUS_RIGHT[style])["my_cfr_plus_iteration"])
    assert feedback.correct, (style, feedback.message)
    if "player 2 first" in style or "recursion" in style:
        assert "player 2 updated first" in feedback.message


#: The mistake each of PLUS_WRONG gets: None where no one wrong version explains it (then the
#: message says after which iteration the tables first differ).
PLUS_WRONG_MISTAKE = {"floor only inside regret matching, player 2 first": None,
                      "player 2 first, uniform average": None,
                      "player 2 first, simultaneous": "simultaneous",
                      "one player only": None, "floor rounds small regrets away": None}


@pytest.mark.parametrize("name", PLUS_WRONG)
def test_cfr_plus_wrong_code_in_either_order_is_rejected(name):
    feedback = ex.check_cfr_plus_iteration(as_cell(PLUS_WRONG[name])["my_cfr_plus_iteration"])
    assert feedback.status == WRONG and feedback.mistake == PLUS_WRONG_MISTAKE[name], (
        name, feedback.message)
    if feedback.mistake is None:
        assert "After iteration" in feedback.message


# -- a wrong answer is never told the answer (issue 29) ----------------------------------------

@pytest.mark.parametrize("answer", [[0.5, 8 / 9, 0.64], [88.89, 50, 64], [8 / 9, 0.0, 0.64],
                                    [8 / 9, 0.5, 0.8], [0.3, 0.3, 0.3]])
def test_a_wrong_discount_is_not_told_the_factors(answer):
    feedback = ex.check_dcfr_discounts(answer)
    assert feedback.status == WRONG
    for shown in ("8/9", "0.889", "1/2", "0.64", "16/25"):
        assert shown not in feedback.message, (answer, feedback.message)


@pytest.mark.parametrize("changes", [
    [(FLOOR, "regret_sum = regret_sum * 0")],
    [(AVERAGE, "strategy_sum = strategy_sum + (t + 2) * weights")],
    [(FLOOR, "regret_sum = regret_sum + regret"),
     (AVERAGE, "strategy_sum = strategy_sum + weights")],
    [(FLOOR, "regret_sum = regret_sum + regret")],
    [(FLOOR, "regret_sum = np.maximum(regret_sum, 0) + regret")],
    [(AVERAGE, "strategy_sum = strategy_sum + weights")],
])
def test_a_wrong_cfr_plus_is_not_told_the_solution_lines(changes):
    feedback = ex.check_cfr_plus_iteration(plus_student(*changes))
    assert feedback.status == WRONG
    for line in ("np.maximum(regret_sum + regret, 0)", "t * weights"):
        assert line not in feedback.message, feedback.message


def test_the_unexplained_average_message_is_grammatical():
    feedback = ex.check_cfr_plus_iteration(plus_student(
        (AVERAGE, "strategy_sum = strategy_sum + (t + 2) * weights")))
    assert feedback.mistake is None
    assert "your average strategy differs" in feedback.message, feedback.message


def test_a_cfr_plus_that_calls_the_packages_iteration_is_refused():
    source = """
from cfrviz.exercises import lesson08 as check


def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    return check.plus_iteration(tree, regret_sum, strategy_sum, t)
"""
    feedback = ex.check_cfr_plus_iteration(as_cell(source)["my_cfr_plus_iteration"])
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
