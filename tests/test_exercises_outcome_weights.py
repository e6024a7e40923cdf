"""Lesson 07's outcome-sampling regrets (cfrviz/exercises/outcome_weights.py): right answers in
several styles equal the regrets reference.mccfr.outcome_sampling_walk added on recorded paths;
wrong answers, written as a student would, are rejected with their mistake named."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import as_cell, run_solution

from cfrviz.exercises import NOT_DONE, WRONG
from cfrviz.exercises import outcome_weights as ex

RIGHT = {
    "pure python": '''
def my_outcome_regrets(path, payoff, player):
    q_z = 1.0
    for who, sigma, q, a in path:
        q_z *= q[a]
    out = []
    for d, (who, sigma, q, a) in enumerate(path):
        if who != player:
            continue
        reach = 1.0
        for k, (w, s, _, b) in enumerate(path):
            if (k < d and w != player) or k > d:
                reach *= s[b]
        value = reach * payoff / q_z
        out.append([(value if b == a else 0.0) - sigma[a] * value for b in range(len(sigma))])
    return out
''',
    "numpy prefix and suffix products": '''
def my_outcome_regrets(path, payoff, player):
    p = np.array([s[a] for _, s, _, a in path], dtype=float)
    q = np.array([qq[a] for _, _, qq, a in path], dtype=float)
    others = np.array([w != player for w, _, _, _ in path])
    before = np.concatenate([[1.0], np.cumprod(np.where(others, p, 1.0))])  # π_-i up to d
    after = np.concatenate([np.cumprod(p[::-1])[::-1], [1.0]])  # π from d to the end
    result = []
    for d in np.flatnonzero(~others):
        sigma, a = path[d][1], path[d][3]
        value = before[d] * after[d + 1] * payoff / q.prod()
        regret = -sigma[a] * value * np.ones(len(sigma))
        regret[a] += value
        result.append(regret)
    return result
''',
    "recursion from the leaf up, as the walk returns": '''
def my_outcome_regrets(path, payoff, player):
    found = []

    def up(d, others_reach, sampled):
        # returns the sampled value of the node at step d (the leaf when d == len(path))
        if d == len(path):
            return payoff
        who, sigma, q, a = path[d]
        below = up(d + 1, others_reach * (sigma[a] if who != player else 1.0),
                   sampled * q[a])
        estimate = below / q[a]
        if who == player:
            values = np.zeros(len(sigma))
            values[a] = estimate
            found.append((d, others_reach / sampled * (values - sigma[a] * estimate)))
        return sigma[a] * estimate

    up(0, 1.0, 1.0)
    return [r for _, r in sorted(found, key=lambda item: item[0])]
''',
    "iteration from the leaf up, chance left out of both": '''
def my_outcome_regrets(path, payoff, player):
    regrets = []
    tail_over_q = 1.0  # π(z|h·a) / q(z|h·a), built from the leaf upwards
    for d in reversed(range(len(path))):
        who, sigma, q, a = path[d]
        if who == player:
            mine = [k for k in range(d) if path[k][0] not in (player, "chance")]
            reach = np.prod([path[k][1][path[k][3]] for k in mine])
            sampled = np.prod([path[k][2][path[k][3]] for k in range(d)
                               if path[k][0] != "chance"])
            value = reach / sampled * tail_over_q / q[a] * payoff
            r = np.full(len(sigma), -sigma[a] * value)
            r[a] += value
            regrets.insert(0, r)
        if who != "chance":
            tail_over_q *= sigma[a] / q[a]
    return regrets
''',
}

BASE = '''
def my_outcome_regrets(path, payoff, player):
    played = [sigma[a] for who, sigma, q, a in path]
    drawn = [q[a] for who, sigma, q, a in path]
    q_z = Q_Z
    regrets = []
    for d, (who, sigma, q, a) in enumerate(path):
        if who != player:
            continue
        before = np.prod([played[k] for k in range(d) if BEFORE])
        tail = np.prod(TAIL)
        value = VALUE
        values = np.zeros(len(sigma))
        values[a] = value
        regrets.append(REGRET)
    return regrets
'''
PARTS = {
    "Q_Z": "np.prod(drawn)",
    "BEFORE": "path[k][0] != player",
    "TAIL": "played[d + 1:]",
    "VALUE": "before * tail * payoff / q_z",
    "REGRET": "values - sigma[a] * value",
}


def variant(**changes):
    source = BASE
    for key, value in {**PARTS, **changes}.items():
        source = source.replace(key, value)
    return source


WRONG_CODE = {
    "no-division": variant(VALUE="before * tail * payoff"),
    "sigma-as-q": variant(Q_Z="np.prod([played[k] if path[k][0] == player else drawn[k] "
                              "for k in range(len(path))])"),
    "prefix-q": variant(VALUE="before * tail * payoff / np.prod(drawn[:d + 1])"),
    "tail-includes-action": variant(TAIL="played[d:]"),
    "own-reach": variant(BEFORE="True"),
    "chance-once": variant(Q_Z="np.prod([drawn[k] for k in range(len(path)) "
                               "if path[k][0] != 'chance'])"),
    "opponent-once": variant(BEFORE="path[k][0] == 'chance'",
                             TAIL="[played[k] for k in range(d + 1, len(path)) "
                                  "if path[k][0] in ('chance', player)]"),
    # Only the traverser's own probabilities in the weight: chance and the opponent left out of
    # π_{-i}(h) and the tail, kept in q(z). On the Kuhn paths, where the opponent's action had
    # probability 1, it gives what chance alone left out gives: it must not be called that.
    "chance-and-opponent-once": variant(BEFORE="False",
                                        TAIL="[played[k] for k in range(d + 1, len(path)) "
                                             "if path[k][0] == player]"),
    "values-not-regrets": variant(REGRET="values"),
    "baseline-q": variant(REGRET="values - q[a] * value"),
    "flipped": variant(REGRET="sigma[a] * value - values"),
    "no-return": variant().replace("    return regrets\n", "    pass\n"),
    "shape": variant().replace("return regrets", "return regrets[0]"),
    "crash": variant(TAIL="played[d + 1:] + [sigma[a + 5]]"),
    # Right regrets, but the caller's sigma arrays are zeroed (issue 29 item 4).
    "changes its input": variant().replace("    return regrets\n",
                                           "    for step in path:\n        step[1][:] = 0\n"
                                           "    return regrets\n"),
}


def student(source):
    return as_cell(source)["my_outcome_regrets"]


@pytest.mark.parametrize("style", RIGHT)
def test_right_answers_in_any_style_are_accepted(style):
    feedback = ex.check_outcome_regrets(student(RIGHT[style]))
    assert feedback.correct, (style, feedback.message)


def test_the_solution_is_accepted():
    solution = run_solution("07_outcome_regrets.py")["my_outcome_regrets"]
    assert ex.check_outcome_regrets(solution).correct


@pytest.mark.parametrize("mistake", WRONG_CODE)
def test_wrong_answers_are_named(mistake):
    feedback = ex.check_outcome_regrets(student(WRONG_CODE[mistake]))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    if mistake == "crash":
        assert "line" in feedback.message and "IndexError" in feedback.message


@pytest.mark.parametrize("mistake", ex.MISTAKES)
def test_every_variant_is_told_apart(mistake, monkeypatch):
    monkeypatch.setattr(ex, "answers", dict)  # the package's formula stands for a student's
    def answer(path, payoff, player, mistake=mistake):
        return ex.outcome_regrets(path, payoff, player, mistake)
    assert ex.check_outcome_regrets(answer).mistake == mistake


def test_the_plain_formula_is_the_walk():
    """outcome_regrets without a mistake gives what outcome_sampling_walk added, path by path,
    and the paths exercise what the mistakes need: exploration, chance inside the path, both
    traversers, more than one step of the traverser."""
    paths = ex.recorded_paths()
    for path in paths:
        got = ex.outcome_regrets(path.steps, path.payoff, path.player)
        assert len(got) == len(path.regrets)
        for g, w in zip(got, path.regrets):
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)
    assert {p.player for p in paths} == {0, 1}
    assert any(len(p.regrets) > 1 for p in paths)
    assert any(w == "chance" for p in paths for w, _, _, _ in p.steps[1:])
    assert any(w == p.player and s[a] == 0 for p in paths for w, s, _, a in p.steps)


def test_a_wrong_answer_no_row_knows_shows_the_first_step_that_differs():
    feedback = ex.check_outcome_regrets(student(variant(VALUE="2 * before * tail * payoff / q_z")))
    assert feedback.status == WRONG and feedback.mistake is None
    assert "outcome_sampling_walk added" in feedback.message


@pytest.mark.parametrize("change", ["zero sigma", "normalise q", "drop a step"])
def test_a_function_that_changes_the_path_is_refused(change, monkeypatch):
    # Issue 29 item 4: right regrets, but the caller's path is changed (a reused path would
    # then give other regrets); the second run shows the recorded paths were not touched.
    monkeypatch.setattr(ex, "answers", dict)  # the package's formula stands for a student's

    def destructive(path, payoff, player):
        answer = ex.outcome_regrets(path, payoff, player)
        if change == "zero sigma":
            path[0][1][:] = 0
        elif change == "normalise q":
            path[-1][2][:] = path[-1][2] / path[-1][2].sum() * (1 + 1e-12)
        else:
            path.pop()
        return answer
    for _ in range(2):
        feedback = ex.check_outcome_regrets(destructive)
        assert feedback.status == WRONG and feedback.mistake == "changes its input", feedback
        assert "`path`" in feedback.message
    assert ex.check_outcome_regrets(
        lambda path, payoff, player: ex.outcome_regrets(path, payoff, player)).correct


@pytest.mark.parametrize("answer", [None, ...])
def test_unanswered_is_not_done(answer):
    assert ex.check_outcome_regrets(answer).status == NOT_DONE


def test_starter_is_not_done():
    starter = '''
def my_outcome_regrets(path, payoff, player):
    regrets = []
    for d, (who, sigma, q, a) in enumerate(path):
        if who != player:
            continue
        raise NotImplementedError
    return regrets
'''
    assert ex.check_outcome_regrets(student(starter)).status == NOT_DONE


@pytest.mark.parametrize("junk", ["regrets", 3], ids=stable_id)
def test_junk_is_not_callable(junk):
    assert ex.check_outcome_regrets(junk).mistake == "not-callable"



def test_each_one_sided_diagnosis_says_exactly_which_probabilities():
    feedback = ex.check_outcome_regrets(student(WRONG_CODE["chance-and-opponent-once"]))
    assert "opponent" in feedback.message and "Chance" in feedback.message
    feedback = ex.check_outcome_regrets(student(WRONG_CODE["chance-once"]))
    assert "the opponent's are right" in feedback.message


def test_a_function_that_calls_the_packages_formula_is_refused():
    source = """
from cfrviz.exercises import outcome_weights as check_ow


def my_outcome_regrets(path, payoff, player):
    return check_ow.outcome_regrets(path, payoff, player)
"""
    feedback = ex.check_outcome_regrets(student(source))
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
