"""Lesson 01's sampled regret matching (cfrviz/exercises/sampled_rm.py): right loops in several
styles reproduce the reference draw for draw and are accepted; wrong loops, written as a student
would, are rejected with their mistake named; the draw protocol agrees with cfrviz.solve."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import as_cell, run_solution

import cfrviz
from cfrviz.exercises import NOT_DONE, WRONG
from cfrviz.exercises import sampled_rm as ex

RIGHT = {
    "pure python": '''
def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    A = [list(map(float, row)) for row in payoffs]
    m, n = len(A), len(A[0])
    def match(r):
        pos = [max(v, 0.0) for v in r]
        s = sum(pos)
        return [p / s for p in pos] if s > 0 else [1.0 / len(r)] * len(r)
    r1, r2, s1, s2 = [0.0] * m, [0.0] * n, [0.0] * m, [0.0] * n
    for _ in range(rounds):
        x = match(r1)
        y = list(opponent) if opponent is not None else match(r2)
        a, b = draw(0, x), draw(1, y)
        r1 = [r1[i] + A[i][b] - A[a][b] for i in range(m)]
        r2 = [r2[j] + A[a][b] - A[a][j] for j in range(n)]
        s1 = [s + p for s, p in zip(s1, x)]
        s2 = [s + p for s, p in zip(s2, y)]
    return [s / rounds for s in s1], [s / rounds for s in s2]
''',
    "numpy, one table per player": '''
def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    tables = [np.asarray(payoffs, float), -np.asarray(payoffs, float).T]  # each player's rows
    regrets = [np.zeros(len(t)) for t in tables]
    sums = [np.zeros(len(t)) for t in tables]
    for _ in range(rounds):
        sigma = [cfrviz.regret_matching(r) for r in regrets]
        if opponent is not None:
            sigma[1] = np.asarray(opponent, float)
        acts = [draw(p, sigma[p]) for p in (0, 1)]
        for p in (0, 1):
            column = tables[p][:, acts[1 - p]]
            regrets[p] += column - column[acts[p]]
            sums[p] += sigma[p]
    return tuple(s / s.sum() for s in sums)
''',
    "recursion over halves of the rounds": '''
def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    A = np.asarray(payoffs, dtype=float)
    state = {"r": [np.zeros(A.shape[0]), np.zeros(A.shape[1])],
             "s": [np.zeros(A.shape[0]), np.zeros(A.shape[1])]}
    def play(k):
        if k == 0:
            return
        if k > 1:
            play(k // 2)
            play(k - k // 2)
            return
        x = cfrviz.regret_matching(state["r"][0])
        y = opponent if opponent is not None else cfrviz.regret_matching(state["r"][1])
        a = draw(0, x)
        b = draw(1, y)
        state["r"][0] = state["r"][0] + A[:, b] - A[a, b]
        state["r"][1] = state["r"][1] - A[a, :] + A[a, b]
        state["s"][0] = state["s"][0] + x
        state["s"][1] = state["s"][1] + np.asarray(y)
    play(rounds)
    return state["s"][0] / rounds, state["s"][1] / rounds
''',
    "a generator of rounds": '''
def rounds_of(A, draw, opponent):
    r = [np.zeros(A.shape[0]), np.zeros(A.shape[1])]
    while True:
        x = cfrviz.regret_matching(r[0])
        y = np.asarray(opponent if opponent is not None else cfrviz.regret_matching(r[1]))
        a, b = draw(0, x), draw(1, y)
        r[0] += A[:, b] - A[a, b]
        r[1] += A[a, b] - A[a]
        yield x, y

def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    A = np.asarray(payoffs, dtype=float)
    played = rounds_of(A, draw, opponent)
    xs, ys = zip(*(next(played) for _ in range(rounds)))
    return np.mean(xs, axis=0), np.mean(ys, axis=0)
''',
}

# The loop of the solution with one change each, as a student might write it.
BASE = '''
def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    A = np.asarray(payoffs, dtype=float)
    m, n = A.shape
    regrets = [np.zeros(m), np.zeros(n)]
    sums = [np.zeros(m), np.zeros(n)]
    for _ in range(rounds):
        x = cfrviz.regret_matching(regrets[0])
        y = OPPONENT
        a = draw(0, x)
        b = draw(1, y)
        regrets[0] += REGRET_1
        regrets[1] += REGRET_2
        SUMS
    return RETURN
'''
RIGHT_PARTS = {
    "OPPONENT": "cfrviz.regret_matching(regrets[1]) if opponent is None else opponent",
    "REGRET_1": "A[:, b] - A[a, b]",
    "REGRET_2": "A[a, b] - A[a, :]",
    "SUMS": "sums[0] += x; sums[1] += y",
    "RETURN": "sums[0] / rounds, sums[1] / rounds",
}


def variant(**changes):
    source = BASE
    for key, value in {**RIGHT_PARTS, **changes}.items():
        source = source.replace(key, value)
    return source


WRONG_CODE = {
    "flipped-sign": variant(REGRET_1="A[a, b] - A[:, b]", REGRET_2="A[a, :] - A[a, b]"),
    "mix-baseline": variant(REGRET_1="A[:, b] - x @ A[:, b]", REGRET_2="A[a] @ y - A[a, :]"),
    "expected": variant(REGRET_1="A @ y - A[a] @ y", REGRET_2="x @ A[:, b] - x @ A"),
    "player-2-sign": variant(REGRET_2="A[a, :] - A[a, b]"),
    "counts-actions": variant(SUMS="sums[0][a] += 1; sums[1][b] += 1"),
    # Issue 29: exercise 2's regret matching clipping the array it is given, as a student's
    # my_regret_matching did (the loop itself is right).
    "clipped-regrets": variant().replace("cfrviz.regret_matching(", "clipping_rm(").replace(
        "def my_sampled", """def clipping_rm(cumulative_regrets):
    regrets = np.asarray(cumulative_regrets, dtype=float)
    regrets[regrets < 0] = 0
    total = regrets.sum()
    return regrets / total if total > 0 else np.ones(len(regrets)) / len(regrets)

def my_sampled"""),
    "not-divided": variant(RETURN="sums[0], sums[1]"),
    "current": variant(RETURN="x, y"),
    "ignores-opponent": variant(OPPONENT="cfrviz.regret_matching(regrets[1])"),
    "no-return": variant(RETURN="None").replace("return None", "pass"),
    "shape": variant(RETURN="sums[0] / rounds"),
    # Uniform missing when no regret is positive: draw refuses the zeros, the crash is reported.
    "crash": variant().replace("cfrviz.regret_matching(regrets[0])",
                               "np.maximum(regrets[0], 0) / np.maximum(regrets[0], 0).sum()"),
    "too-few-draws": variant().replace("b = draw(1, y)",
                                       "b = draw(1, y) if opponent is None else 0"),
    # Right loop, but the caller's payoff table is shifted in place (issue 29 item 4): np.asarray
    # of a float array is that array, and regrets do not see a constant shift.
    "changes its input": variant().replace("    m, n = A.shape", "    A += 1\n    m, n = A.shape"),
}


@pytest.mark.parametrize("style", RIGHT)
def test_right_loops_in_any_style_are_accepted(style):
    feedback = ex.check_sampled_regret_matching(
        as_cell(RIGHT[style], cfrviz=cfrviz)["my_sampled_regret_matching"])
    assert feedback.correct, (style, feedback.message)


def test_the_solution_is_accepted_and_reports_convergence():
    solution = run_solution("01_sampled_regret_matching.py")["my_sampled_regret_matching"]
    feedback = ex.check_sampled_regret_matching(solution)
    assert feedback.correct, feedback.message
    assert f"{ex.expected_bound(ex.RPS_PAYOFFS, ex.LONG_ROUNDS):.4f}" in feedback.message


@pytest.mark.parametrize("mistake", WRONG_CODE)
def test_wrong_loops_are_named(mistake):
    function = as_cell(WRONG_CODE[mistake], cfrviz=cfrviz)["my_sampled_regret_matching"]
    feedback = ex.check_sampled_regret_matching(function)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    if mistake == "crash":  # the student's line, and what draw wanted
        assert "line" in feedback.message and "summing to 1" in feedback.message


def test_every_variant_is_recognised_and_none_passes():
    """Each VARIANTS option of the reference is told apart from the right loop on CASES."""
    for mistake in ex.VARIANTS:
        def loop(p, r, d, o=None, mistake=mistake):
            return ex.sampled_regret_matching(p, r, d, o, mistake=mistake)
        assert ex.check_sampled_regret_matching(loop).mistake == mistake


def test_a_drifting_loop_is_told_the_round_where_it_left():
    source = variant(REGRET_1="A[:, b] - A[a, b] + 0.01 * (A[:, b] > 0)")
    feedback = ex.check_sampled_regret_matching(as_cell(source, cfrviz=cfrviz)[
        "my_sampled_regret_matching"])
    assert feedback.status == WRONG and feedback.mistake is None
    assert "round" in feedback.message and "regret matching on the regrets so far" in \
        feedback.message


@pytest.mark.parametrize("answer", [None, ...])
def test_unanswered_is_not_done(answer):
    assert ex.check_sampled_regret_matching(answer).status == NOT_DONE


def test_starter_is_not_done():
    starter = '''
def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    raise NotImplementedError
'''
    feedback = ex.check_sampled_regret_matching(as_cell(starter)["my_sampled_regret_matching"])
    assert feedback.status == NOT_DONE


@pytest.mark.parametrize("junk", ["loop", 3, [1, 2]], ids=stable_id)
def test_junk_never_raises(junk):
    assert ex.check_sampled_regret_matching(junk).mistake == "not-callable"


@pytest.mark.parametrize("seed, opponent", [(0, None), (5, None), (2, [0.4, 0.3, 0.3])])
def test_draws_are_those_of_cfrviz_solve(seed, opponent):
    """The checker's draw protocol is the package's: the reference reproduces the solver."""
    game = cfrviz.load_game("rock_paper_scissors")
    trace = cfrviz.solve(game, "regret_matching", 300, seed=seed, update="sampled",
                         opponent=opponent, checkpoints=[300])
    mine = ex.reference_log(game.payoffs, 300, seed, opponent)
    np.testing.assert_allclose(trace.average_strategy[-1, 0], mine[0], atol=1e-12)
    np.testing.assert_allclose(trace.average_strategy[-1, 1], mine[1], atol=1e-12)


@pytest.mark.parametrize("bad, words", [
    ((2, [1, 0, 0]), "player first"),
    ((0, [2.0, -1.0, 0.0]), "summing to 1"),
    ((0, [0.5, 0.5]), "3 probabilities"),
    ((1, [np.nan, 0.5, 0.5]), "summing to 1"),
])
def test_draw_refuses_bad_calls_with_a_reason(bad, words):
    draws = ex.Draws(np.zeros((2, 2)), (3, 3))
    with pytest.raises(ex.DrawError, match=words):
        draws(*bad)


def test_draw_refuses_a_third_call_in_two_rounds():
    draws = ex.Draws(np.zeros((2, 2)), (3, 3))
    draws(0, [1, 0, 0])
    draws(0, [1, 0, 0])
    with pytest.raises(ex.DrawError, match="once per player per round"):
        draws(0, [1, 0, 0])


@pytest.mark.parametrize("rounds", [100, 10_000])
def test_expected_bound(rounds):
    # Δ = 2 and three actions: 2 * 2 * sqrt(3 / T).
    assert ex.expected_bound(ex.RPS_PAYOFFS, rounds) == pytest.approx(4 * np.sqrt(3 / rounds))
