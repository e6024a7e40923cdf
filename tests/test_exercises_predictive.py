"""The frontier lesson's exercise: PCFR+'s step (cfrviz.exercises.predictive).

Tables, as issue 22 asks of every checker: right answers in several styles must pass, each
plausible wrong one must get the name of its mistake, and junk must never raise.
"""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import as_cell

from cfrviz.exercises import NOT_DONE, WRONG
from cfrviz.exercises import predictive as ex

#: The reference solution (lessons/solutions/09_predictive_rm.py), kept here so that this file
#: stands on its own; the wrong answers below are this with one or two lines changed.
SOLUTION = '''
import numpy as np


def my_predictive_step(regret_sum, regret, legal_mask, t):
    """PCFR+'s step for one player's sets after its pass at iteration t (1, 2, ...).

    Returns (new regret_sum, strategy to play next, weight of iteration t in the average).
    """
    # regret matching+, as in CFR+: add this iteration's regrets, floor the stored sum at zero
    regret_sum = np.maximum(regret_sum + regret, 0)
    # the prediction: the next regrets will be like these, so play as if they were already added
    positive = np.where(legal_mask, np.maximum(regret_sum + regret, 0), 0)
    total = positive.sum(axis=1, keepdims=True)
    uniform = legal_mask / legal_mask.sum(axis=1, keepdims=True)
    strategy = np.where(total > 0, positive / np.where(total > 0, total, 1), uniform)
    # quadratic averaging: iteration t's strategy weighs t squared
    return regret_sum, strategy, t**2
'''

FOLD = "regret_sum = np.maximum(regret_sum + regret, 0)\n"
PLAYED = "positive = np.where(legal_mask, np.maximum(regret_sum + regret, 0), 0)"
UNIFORM = "uniform = legal_mask / legal_mask.sum(axis=1, keepdims=True)"
DIVIDE = "strategy = np.where(total > 0, positive / np.where(total > 0, total, 1), uniform)"
RETURN = "return regret_sum, strategy, t**2"


def student(*changes):
    """The reference solution with some lines changed, as a student might, run as a cell."""
    source = SOLUTION
    for old, new in changes:
        assert old in source, old
        source = source.replace(old, new)
    return as_cell(source)["my_predictive_step"]


RIGHT = {
    "the reference solution (numpy)": SOLUTION,
    "pure python, loops over the rows, lists returned": '''
def my_predictive_step(regret_sum, regret, legal_mask, t):
    new_sum, strategy = [], []
    for row_sum, row, legal in zip(regret_sum.tolist(), regret.tolist(), legal_mask.tolist()):
        stored = [max(s + r, 0.0) for s, r in zip(row_sum, row)]
        played = [max(s + r, 0.0) if ok else 0.0 for s, r, ok in zip(stored, row, legal)]
        total = sum(played)
        if total > 0:
            strategy.append([p / total for p in played])
        else:
            strategy.append([1.0 / sum(legal) if ok else 0.0 for ok in legal])
        new_sum.append(stored)
    return new_sum, strategy, t * t
''',
    "recursion over the sets, a scaled weight": '''
def match(values, legal):
    positive = [max(v, 0.0) if ok else 0.0 for v, ok in zip(values, legal)]
    if sum(positive) <= 0:
        return [ok / sum(legal) for ok in legal]
    return [p / sum(positive) for p in positive]

def step_rows(sums, regrets, mask):
    if not sums:
        return [], []
    stored = [max(s + r, 0.0) for s, r in zip(sums[0], regrets[0])]
    rest_sums, rest_strategies = step_rows(sums[1:], regrets[1:], mask[1:])
    played = match([s + r for s, r in zip(stored, regrets[0])], mask[0])
    return [stored] + rest_sums, [played] + rest_strategies

def my_predictive_step(regret_sum, regret, legal_mask, t):
    sums, strategy = step_rows(regret_sum.tolist(), regret.tolist(), legal_mask.tolist())
    return np.array(sums), np.array(strategy), 0.5 * t**2   # half of t**2: the same average
''',
    "float32, in place, cfrviz's regret_matching": '''
from cfrviz.core.regret import regret_matching

def my_predictive_step(regret_sum, regret, legal_mask, t):
    r = regret.astype(np.float32)
    total = regret_sum.astype(np.float32) + r
    np.maximum(total, np.float32(0), out=total)
    strategy = regret_matching(total + r, legal_mask).astype(np.float32)
    return total, strategy, np.float32(t) ** 2
''',
    "iteration over sets with np.errstate and the prediction named": '''
def my_predictive_step(regret_sum, regret, legal_mask, t):
    prediction = regret.copy()          # m = the last regrets
    regret_sum = regret_sum + regret
    regret_sum[regret_sum < 0] = 0.0
    strategy = np.zeros_like(regret_sum)
    for i in range(regret_sum.shape[0]):
        legal = legal_mask[i]
        values = np.clip(regret_sum[i] + prediction[i], 0, None) * legal
        with np.errstate(invalid="ignore", divide="ignore"):
            strategy[i] = values / values.sum() if values.sum() > 0 else legal / legal.sum()
    return regret_sum, strategy, float(t) ** 2
''',
}


@pytest.mark.parametrize("style", RIGHT)
def test_right_code_in_any_style_is_accepted(style):
    feedback = ex.check_predictive_step(as_cell(RIGHT[style])["my_predictive_step"])
    assert feedback.correct, (style, feedback.message)
    assert "50 on Kuhn poker, 10 on Leduc poker" in feedback.message
    if "float32" in style:
        assert "single precision" in feedback.message


#: name: (the lines a student changed, the mistake the checker must name).
WRONG_ANSWERS = {
    "no floor": ([(FOLD, "regret_sum = regret_sum + regret\n")], "no-floor"),
    "floor before the add": ([(FOLD, "regret_sum = np.maximum(regret_sum, 0) + regret\n")],
                             "floor-before"),
    "floor on the increment": ([(FOLD, "regret_sum = regret_sum + np.maximum(regret, 0)\n")],
                               "floor-increment"),
    "prediction kept in the sum (R + r stored)": (
        [(FOLD, "regret_sum = np.maximum(regret_sum + regret, 0) + regret\n"),
         (PLAYED, "positive = np.where(legal_mask, np.maximum(regret_sum, 0), 0)")],
        "prediction-stored"),
    "prediction added to R (R + 2r)": (
        [(FOLD, "regret_sum = np.maximum(regret_sum + 2 * regret, 0)\n"),
         (PLAYED, "positive = np.where(legal_mask, regret_sum, 0)")], "prediction-stored"),
    "regrets never updated": ([(FOLD, "new_sum = np.maximum(regret_sum + regret, 0)\n"),
                               (PLAYED, "positive = np.where(legal_mask, np.maximum(new_sum + "
                                        "regret, 0), 0)")], "regrets-not-updated"),
    "returns swapped": ([(RETURN, "return strategy, regret_sum, t**2")], "swapped-returns"),
    "strategy from R alone (CFR+)": (
        [(PLAYED, "positive = np.where(legal_mask, regret_sum, 0)")], "no-prediction"),
    "prediction from the old sum plus r (CFR+ again)": (
        [(FOLD, "old = regret_sum\n    regret_sum = np.maximum(regret_sum + regret, 0)\n"),
         (PLAYED, "positive = np.where(legal_mask, np.maximum(old + regret, 0), 0)")],
        "no-prediction"),
    "prediction from cumulative regrets": (
        [(FOLD, "old = regret_sum\n    regret_sum = np.maximum(regret_sum + regret, 0)\n"),
         (PLAYED, "positive = np.where(legal_mask, np.maximum(regret_sum + old, 0), 0)")],
        "prediction-from-cumulative"),
    "floored prediction": (
        [(PLAYED, "positive = np.where(legal_mask, np.maximum(regret_sum + np.maximum(regret, 0), "
                  "0), 0)")], "prediction-floored"),
    "strategy from the regrets given": (
        [(FOLD, "old = regret_sum\n    regret_sum = np.maximum(regret_sum + regret, 0)\n"),
         (PLAYED, "positive = np.where(legal_mask, np.maximum(old, 0), 0)")],
        "strategy-before-update"),
    "0 / 0 where nothing is positive": (
        [(DIVIDE, "strategy = positive / total")], "division-by-zero"),
    "uniform over every column": (
        [(UNIFORM, "uniform = np.full(legal_mask.shape, 1 / legal_mask.shape[1])")],
        "uniform-over-illegal"),
    "zeros where nothing is positive": ([(UNIFORM, "uniform = 0")], "zero-fallback"),
    "not normalised": ([(DIVIDE, "strategy = positive")], "not-normalised"),
    "uniform without the mask": (
        [(UNIFORM, "uniform = 1 / legal_mask.sum(axis=1, keepdims=True)")], "illegal-actions"),
    "uniform average": ([(RETURN, "return regret_sum, strategy, 1")], "uniform-average"),
    "linear average (CFR+'s)": ([(RETURN, "return regret_sum, strategy, t")], "linear-average"),
    "cubic average": ([(RETURN, "return regret_sum, strategy, t**3")], "average-power"),
    "shifted quadratic average": ([(RETURN, "return regret_sum, strategy, (t + 1)**2")],
                                  "average-weight"),
    "two mistakes: no floor and a uniform average": (
        [(FOLD, "regret_sum = regret_sum + regret\n"),
         (RETURN, "return regret_sum, strategy, 1")], "no-floor"),
    "halved regrets (no named mistake)": (
        [(FOLD, "regret_sum = np.maximum(regret_sum + regret, 0) / 2\n")], None),
    # a floor that rounds small values away: caught above 3.6e-5, the smallest positive R + r
    # of the runs (see check_predictive_step's docstring)
    "floor rounds values below 1e-3 away (no named mistake)": (
        [(FOLD, FOLD + "    regret_sum = np.where(regret_sum > 1e-3, regret_sum, 0)\n")], None),
    "half the prediction (no named mistake)": (
        [(PLAYED, "positive = np.where(legal_mask, np.maximum(regret_sum + regret / 2, 0), 0)")],
        None),
    "first action where nothing is positive (no named mistake)": (
        [(UNIFORM, "uniform = np.eye(legal_mask.shape[1])[0]")], None),
    # Right step, but the caller's tables are changed (issue 29 item 4): it returns new ones.
    "regret_sum updated in place": (
        [(FOLD, "regret_sum += regret\n    np.maximum(regret_sum, 0, out=regret_sum)\n")],
        "changes its input"),
    "the prediction floored in place": (
        [(PLAYED, "np.maximum(regret, -regret_sum, out=regret)\n    " + PLAYED)],
        "changes its input"),
}


@pytest.mark.parametrize("name", WRONG_ANSWERS)
def test_wrong_code_gets_its_mistake(name):
    changes, mistake = WRONG_ANSWERS[name]
    feedback = ex.check_predictive_step(student(*changes))
    assert feedback.status == WRONG and feedback.mistake == mistake, (name, feedback.message)
    if mistake in ex.MISTAKES:
        assert feedback.message == ex.MISTAKES[mistake]
    elif mistake is None:
        assert feedback.message.startswith("At iteration"), feedback.message


def test_weight_messages_quote_the_weights():
    feedback = ex.check_predictive_step(student((RETURN, "return regret_sum, strategy, t**3")))
    assert "t^3" in feedback.message and "t = 2: 8" in feedback.message


def test_rounding_is_accepted_but_an_error_just_above_it_is_not():
    # float32 passes (RIGHT); the same code in float16, or exact code off by 1e-5, does not
    half = RIGHT["float32, in place, cfrviz's regret_matching"].replace("float32", "float16")
    assert not ex.check_predictive_step(as_cell(half)["my_predictive_step"]).correct
    nudged = student((RETURN, "return regret_sum + 1e-5 * (regret_sum > 0), strategy, t**2"))
    assert ex.check_predictive_step(nudged).status == WRONG


def test_the_run_the_checker_drives_is_cfrviz_pcfr_plus():
    # the right step, applied to the recorded regrets, gives the recorded run bit for bit
    for name, iterations in ex.GAMES:
        run = ex.pcfr_plus_run(name, iterations)
        owner, mask = run.tree.infoset_player, run.tree.legal_mask
        regret_sum = np.zeros(mask.shape)
        for t in range(1, iterations + 1):
            for player in (0, 1):
                rows = owner == player
                new, strategy, weight = ex.right_step(
                    regret_sum[rows], run.trace.instantaneous_regret[t - 1][rows], mask[rows], t)
                np.testing.assert_array_equal(new, run.trace.cumulative_regret[t - 1][rows])
                np.testing.assert_array_equal(strategy, run.trace.current_strategy[t][rows])
                assert weight == t**2
                regret_sum[rows] = new


def test_the_fallback_and_the_illegal_actions_are_exercised():
    # Leduc's run has sets where nothing is positive and only two of three actions are legal:
    # without them the fallback mistakes could not be told apart
    run = ex.pcfr_plus_run("leduc_poker", 10)
    mask = run.tree.legal_mask
    nothing = 0
    for t in range(1, 11):
        prev = run.trace.cumulative_regret[t - 2] if t > 1 else np.zeros(mask.shape)
        values = np.maximum(prev + run.trace.instantaneous_regret[t - 1], 0) \
            + run.trace.instantaneous_regret[t - 1]
        nothing += int(np.sum(~np.any(mask & (values > 0), axis=1) & ~mask.all(axis=1)))
    assert nothing > 0


def test_not_done_not_callable_crash_and_shapes():
    def starter(regret_sum, regret, legal_mask, t):
        raise NotImplementedError

    assert ex.check_predictive_step(starter).status == NOT_DONE
    assert ex.check_predictive_step(None).status == NOT_DONE
    assert ex.check_predictive_step(...).status == NOT_DONE
    assert ex.check_predictive_step("pcfr+").mistake == "not-callable"
    bad = "    regret_sum[99, 0] = 1\n"
    crash = ex.check_predictive_step(student((FOLD, FOLD + bad)))
    line = SOLUTION.replace(FOLD, FOLD + bad).splitlines().index(bad.rstrip("\n")) + 1
    assert crash.mistake == "crash" and "IndexError" in crash.message
    assert f"line {line} of your cell" in crash.message, crash.message
    assert ex.check_predictive_step(lambda: None).mistake == "crash"


JUNK_RETURNS = [None, 3, "abc", (1, 2), ("a", "b", "c"), [None] * 3, {"a": 1},
                (np.zeros((2, 2)), np.zeros((2, 2)), 1.0)]


@pytest.mark.parametrize("returned", JUNK_RETURNS, ids=stable_id)
def test_junk_returns_never_raise(returned):
    feedback = ex.check_predictive_step(lambda *_, r=returned: r)
    assert feedback.status == WRONG and feedback.mistake == "shape", feedback


@pytest.mark.parametrize("change", [
    "return regret_sum, strategy, 'heavy'",
    "return regret_sum, strategy, float('nan')",
    "return regret_sum, strategy, [t, t]",
    "return regret_sum * np.nan, strategy, t**2",
    "return regret_sum, strategy * np.inf, t**2",
    "return regret_sum, strategy.astype(str), t**2",
    "return regret_sum, -strategy, 0",
    "return regret_sum, strategy, -t**2",
    "return regret_sum.tolist(), strategy[:, :1], t**2",
    "return regret_sum, strategy, t**2 if t < 3 else 0",
    "return regret_sum * 1e308 * 10, strategy, t**2",
], ids=str)
def test_junk_from_a_working_step_never_raises(change):
    feedback = ex.check_predictive_step(student((RETURN, change)))
    assert feedback.status == WRONG and feedback.message, (change, feedback)


@pytest.mark.parametrize("junk", [0, [], object(), np.zeros(3), print, int], ids=stable_id)
def test_junk_answers_never_raise(junk):
    feedback = ex.check_predictive_step(junk)
    assert feedback.status in (WRONG, NOT_DONE) and feedback.message


def test_run_your_step_follows_cfrviz_pcfr_plus(kuhn):
    out = ex.run_your_step(as_cell(SOLUTION)["my_predictive_step"], kuhn, 30)
    assert out["gap"].max() < 1e-9
    np.testing.assert_allclose(out["yours"], out["pcfr+"], rtol=1e-6, atol=1e-12)
    assert out["pcfr+"][-1] < out["cfr+"][-1]


def test_run_your_step_says_what_is_wrong(kuhn):
    with pytest.raises(ValueError, match="iterations"):
        ex.run_your_step(as_cell(SOLUTION)["my_predictive_step"], kuhn, 0)
    with pytest.raises(ValueError, match="three"):
        ex.run_your_step(lambda *_: (1, 2), kuhn, 3)
    with pytest.raises(ValueError, match="ZeroDivisionError"):
        ex.run_your_step(lambda *_: 1 / 0, kuhn, 3)
    with pytest.raises(ValueError, match="PCFR"):
        ex.run_your_step(as_cell(SOLUTION)["my_predictive_step"], 3, 3)


def test_every_named_mistake_has_a_wrong_answer_that_gets_it():
    names = {mistake for _, mistake in WRONG_ANSWERS.values()}
    assert set(ex.MISTAKES) <= names


def test_the_correct_message_does_not_credit_the_prediction_alone():
    """Issue 29: PCFR+ changes two things (prediction and t² average); the message said "one
    extra `+ regret`" gave the whole gain."""
    feedback = ex.check_predictive_step(as_cell(RIGHT[sorted(RIGHT)[0]])["my_predictive_step"])
    assert feedback.correct and "one extra" not in feedback.message
    assert "the prediction and the t² average together" in feedback.message


def test_two_changes_separates_the_prediction_from_the_t2_average(kuhn):
    """The first and last rows are solve's CFR+ and PCFR+; the middle rows are each change
    alone (the prediction alone is PCFR+ with gamma=1), and on Kuhn poker neither alone gives
    PCFR+'s gain: the t² average alone is worse than CFR+ at 200 iterations."""
    import cfrviz

    marks = (10, 200)
    rows = ex.two_changes(kuhn, marks)
    assert list(rows) == list(ex.CHANGES)
    plain, square, predicted, both = rows.values()
    for values, (name, params) in ((plain, ("cfr+", {})), (both, ("pcfr+", {})),
                                   (predicted, ("pcfr+", {"gamma": 1.0}))):
        run = cfrviz.solve(kuhn, name, 200, checkpoints=list(marks), progress=False, **params)
        np.testing.assert_allclose(values, run.exploitability, rtol=1e-12)
    assert both[1] < predicted[1] < plain[1] < square[1]
    assert plain[1] / both[1] > 10 * plain[1] / predicted[1]


def test_pdcfr_plus_cites_all_seven_authors():
    """Lesson 09 prints the registry's papers; the IJCAI 2024 paper has seven authors."""
    from cfrviz.solvers.registry import algorithm

    assert algorithm("pdcfr+").paper.startswith("Xu, Li, Liu, Fu, Fu, Xing and Cheng (2024)")
