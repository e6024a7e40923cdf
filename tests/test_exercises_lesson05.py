"""Lesson 05's checkers accept the right answers, explain typical mistakes and never raise."""

from fractions import Fraction

import numpy as np
import pytest
from _solutions import SOLUTIONS, as_cell, run_solution

import cfrviz
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson05 as ex

JUNK = ["abc", [1, 2, 3], {"x": 1}, np.array([0.1, 0.2]), float("nan"), float("inf"), True,
        object(), (1,)]


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

def _brs(kuhn, trace):
    policy = trace.average_policy(ex.EXPLOIT_ITERATION)
    return (cfrviz.best_response(kuhn, policy, 0).value,
            cfrviz.best_response(kuhn, policy, 1).value)


EXPLOITABILITY_RIGHT = {
    "exact": lambda kuhn, trace: cfrviz.exploitability(
        kuhn, trace.average_policy(ex.EXPLOIT_ITERATION)),
    "four decimals": lambda kuhn, trace: round(cfrviz.exploitability(
        kuhn, trace.average_policy(ex.EXPLOIT_ITERATION)), 4),
    "the mean of two best responses": lambda kuhn, trace: np.mean(_brs(kuhn, trace)),
    "the solution": lambda kuhn, trace: run_solution("05_exploitability.py", trace=trace,
                                                     kuhn=kuhn)["my_exploitability"],
}

EXPLOITABILITY_WRONG = [
    ("nash-conv", lambda kuhn, trace: sum(_brs(kuhn, trace))),
    ("one-sided", lambda kuhn, trace: _brs(kuhn, trace)[0]),
    ("one-sided", lambda kuhn, trace: _brs(kuhn, trace)[1]),
    ("current", lambda kuhn, trace: cfrviz.exploitability(
        kuhn, trace.current_policy(ex.EXPLOIT_ITERATION))),
    ("uniform", lambda *_: 11 / 24),
    ("sign", lambda kuhn, trace: (_brs(kuhn, trace)[0] - _brs(kuhn, trace)[1]) / 2),
    ("not-a-number", lambda kuhn, _: cfrviz.best_response(kuhn, cfrviz.Policy.uniform(kuhn), 0)),
    (None, lambda *_: 0.25),
]


@pytest.mark.parametrize("form", EXPLOITABILITY_RIGHT)
def test_exploitability_accepts(kuhn, trace, form):
    assert ex.check_exploitability(EXPLOITABILITY_RIGHT[form](kuhn, trace)).status == CORRECT


def test_exploitability_not_done():
    assert ex.check_exploitability(None).status == NOT_DONE


@pytest.mark.parametrize("mistake, answer", EXPLOITABILITY_WRONG)
def test_exploitability_mistakes(kuhn, trace, mistake, answer):
    feedback = ex.check_exploitability(answer(kuhn, trace))
    assert feedback.status == WRONG and feedback.mistake == mistake, (mistake, feedback)


@pytest.mark.parametrize("t", [10, 50, 100, 1000, 10_000])
def test_exploitability_at_another_iteration_is_named(kuhn, trace, t):
    feedback = ex.check_exploitability(cfrviz.exploitability(kuhn, trace.average_policy(t)))
    assert feedback.status == WRONG and feedback.mistake == "wrong-iteration", feedback
    assert f"average_policy({t})" in feedback.message


def test_exploitability_as_a_percentage_is_named(kuhn, trace):
    exact = cfrviz.exploitability(kuhn, trace.average_policy(ex.EXPLOIT_ITERATION))
    for answer in (100 * exact, round(100 * exact, 3)):
        feedback = ex.check_exploitability(answer)
        assert feedback.status == WRONG and feedback.mistake == "percentage", feedback
        assert f"{exact:.5f}" in feedback.message


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


# -- exercise 2: a best response, as code -------------------------------------------------------

SOLUTION = "05_best_response_code.py"


def student(*changes):
    """The reference solution with some lines changed: what a student might write instead."""
    source = (SOLUTIONS / SOLUTION).read_text()
    for old, new in changes:
        assert old in source, old
        source = source.replace(old, new)
    return run_solution_text(source)["my_best_response"]


def run_solution_text(source: str) -> dict:
    namespace = {"np": np, "cfrviz": cfrviz}
    exec(compile(source, "<string>", "exec"), namespace)
    return namespace


WEIGHT = "weight = reach[2] * reach[1 - player]"
TERMINAL_LINE = "return weight[node] * tree.utility[node, player]"
CHOICE = "choice[info] = int(np.argmax(totals))"


def test_best_response_code_solution_passes():
    feedback = ex.check_best_response_code(run_solution(SOLUTION)["my_best_response"])
    assert feedback.status == CORRECT, feedback
    assert "16 cases" in feedback.message and "Leduc" in feedback.message


BEST_RESPONSE_PURE_PYTHON = """
def my_best_response(tree, policy, player):
    # Pure Python, no recursion: the others' reach top-down, then values deepest level first.
    n = len(tree.player)
    weight = [1.0] * n
    for node in range(n):
        kind = int(tree.player[node])
        for a, child in enumerate(tree.children[node]):
            if kind == -1:
                weight[child] = weight[node] * float(tree.chance_prob[child])
            elif kind == 1 - player:
                weight[child] = weight[node] * float(policy[int(tree.infoset[node])][a])
            else:
                weight[child] = weight[node]
    value = [0.0] * n
    choice = {}
    for node in sorted(range(n), key=lambda i: -int(tree.depth[i])):
        kind = int(tree.player[node])
        kids = [int(c) for c in tree.children[node]]
        if kind == -2:
            value[node] = weight[node] * float(tree.utility[node][player])
        elif kind != player:
            value[node] = sum(value[c] for c in kids)
        else:
            info = int(tree.infoset[node])
            if info not in choice:
                members = [h for h in range(n) if int(tree.player[h]) == player
                           and int(tree.infoset[h]) == info]
                totals = [sum(value[int(tree.children[h][a])] for h in members)
                          for a in range(len(kids))]
                choice[info] = totals.index(max(totals))
            value[node] = value[kids[choice[info]]]
    return value[0]
"""


def test_a_pure_python_best_response_passes():
    feedback = ex.check_best_response_code(as_cell(BEST_RESPONSE_PURE_PYTHON)["my_best_response"])
    assert feedback.status == CORRECT, feedback.message


def test_variants_default_to_the_exact_best_response():
    for game, _, probs, player in ex.code_cases():
        exact = cfrviz.best_response(game, cfrviz.Policy(game, probs), player).value
        assert ex.variant_best_response(game, probs, player) == pytest.approx(exact, abs=1e-12)


def test_every_mistake_differs_from_the_truth_and_from_the_others():
    exact, mistakes = ex._code_targets()
    firsts = {name: values[0] for name, values in mistakes.items()}
    for name, values in firsts.items():
        assert not np.allclose(values, exact, rtol=1e-9, atol=1e-12), name
        for other, theirs in firsts.items():
            if other != name:
                assert not np.allclose(values, theirs, rtol=1e-9, atol=1e-12), (name, other)


def test_a_differently_written_best_response_passes():
    # bottom-up over information sets, deepest first, instead of memoised recursion
    def by_levels(tree, policy, player):
        from cfrviz.analysis.evaluation import reach_probabilities
        weight = (lambda r: r[2] * r[1 - player])(reach_probabilities(tree, policy))
        value = np.zeros(tree.num_nodes)
        for node in np.argsort(-tree.depth, kind="stable"):
            kids = tree.children[node]
            if tree.player[node] == -2:
                value[node] = weight[node] * tree.utility[node, player]
            elif tree.player[node] != player:
                value[node] = value[kids].sum()
            else:
                info = tree.infoset[node]
                members = tree.infoset_members(info)
                totals = sum(value[tree.children[h]] for h in members)
                value[node] = value[kids[int(np.argmax(totals))]]
        return value[0]

    assert ex.check_best_response_code(by_levels).correct


@pytest.mark.parametrize("changes, mistake", [
    ([("return value(tree.children[node][best(tree.infoset[node])])",
       "return max(value(child) for child in tree.children[node])")], "clairvoyant"),
    ([(WEIGHT, "weight = reach[1 - player]")], "no-chance"),
    ([(WEIGHT, "weight = reach[2] * reach[player]")], "own-reach"),
    ([(WEIGHT, "weight = reach.prod(axis=0)")], "own-reach"),
    ([(WEIGHT, "weight = reach[2]")], "no-opponent"),
    ([(TERMINAL_LINE, "return tree.utility[node, player]")], "unweighted"),
    ([(CHOICE, "choice[info] = int(np.argmax(totals) if player == 0 else np.argmin(totals))")],
     "minimise"),
    ([(TERMINAL_LINE, "return weight[node] * tree.utility[node, 0]")], "sign"),
    ([("return value(0)", "return -value(0)")], "opponent-value"),
    # Right value, but the caller's policy is zeroed after reading it (issue 29 item 4).
    ([(WEIGHT, WEIGHT + "\n    policy[:] = 0")], "changes its input"),
    ([(TERMINAL_LINE, "return weight[node] * tree.utility[node, 0]"),
      (CHOICE, "choice[info] = int(np.argmax(totals) if player == 0 else np.argmin(totals))")],
     "opponent-value"),
])
def test_best_response_code_mistakes_are_named(changes, mistake):
    feedback = ex.check_best_response_code(student(*changes))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 80


def test_clairvoyant_feedback_gives_both_values():
    feedback = ex.check_best_response_code(student(
        ("return value(tree.children[node][best(tree.infoset[node])])",
         "return max(value(child) for child in tree.children[node])")))
    assert "information set" in feedback.message and feedback.message.count("+0.") >= 2


# A student's cell that returns the package's answer instead of computing it: each is refused
# (issue 29), under whatever name the function was imported.
CALLS_THE_ANSWER = {
    "cfrviz.best_response": """
import cfrviz

def my_best_response(tree, policy, player):
    return cfrviz.best_response(tree, cfrviz.Policy(tree, policy), player).value
""",
    "renamed on import": """
from cfrviz import Policy, best_response as br

def my_best_response(tree, policy, player):
    return br(tree, Policy(tree, policy), player).value
""",
    "the engine's": """
from cfrviz.engine import tree_best_response

def my_best_response(tree, policy, player):
    return tree_best_response(tree, policy, player)[0]
""",
    "the reference's": """
from cfrviz.reference.evaluation import tree_best_response

def my_best_response(tree, policy, player):
    return tree_best_response(tree, policy, player)[0]
""",
    "the reference's walk": """
from cfrviz.reference.mistakes import best_response_walk

def my_best_response(tree, policy, player):
    return best_response_walk(tree, policy, player).value(0)
""",
    "the checker's own": """
from cfrviz.exercises import lesson05 as check

def my_best_response(tree, policy, player):
    return check.variant_best_response(tree, policy, player)
""",
    "the checker's exploiter": """
import cfrviz
from cfrviz.exercises import lesson05 as check

def my_best_response(tree, policy, player):
    them = cfrviz.Policy(tree, policy)
    mine = check.exploiter(tree, them).probabilities.copy()
    rows = tree.infoset_player == 1 - player
    mine[rows] = policy[rows]
    return cfrviz.expected_values(tree, cfrviz.Policy(tree, mine))[player]
""",
}


@pytest.mark.parametrize("how", CALLS_THE_ANSWER)
def test_best_response_code_refuses_the_package_best_response(how):
    function = as_cell(CALLS_THE_ANSWER[how])["my_best_response"]
    feedback = ex.check_best_response_code(function)
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
    assert "write" in feedback.message.lower()
    exact, _ = ex._code_targets()
    assert not any(f"{value:+.6f}" in feedback.message for value in exact)


def test_best_response_code_unknown_mistake_names_the_first_case():
    feedback = ex.check_best_response_code(lambda *_: 0.25)
    assert feedback.status == WRONG and feedback.mistake is None
    assert "uniform strategy" in feedback.message and "player 1" in feedback.message


def test_best_response_code_crash_reports_the_line():
    feedback = ex.check_best_response_code(student((WEIGHT, "weight = reach[3]")))
    assert feedback.status == WRONG and feedback.mistake == "crash"
    lines = (SOLUTIONS / SOLUTION).read_text().splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if WEIGHT in text)
    assert "IndexError" in feedback.message and f"line {line} of your cell" in feedback.message
    assert "reach_probabilities(tree, policy) has shape (3, nodes)" in feedback.message


def test_best_response_code_not_done_and_junk():
    def starter(tree, policy, player):
        raise NotImplementedError

    assert ex.check_best_response_code(starter).status == NOT_DONE
    assert ex.check_best_response_code(None).status == NOT_DONE
    assert ex.check_best_response_code(3).mistake == "not-callable"
    assert ex.check_best_response_code(lambda *_: None).mistake == "not-a-number"
    assert ex.check_best_response_code(lambda *_: (1.0, {})).mistake == "not-a-number"
    assert ex.check_best_response_code(lambda: 1.0).mistake == "crash"
