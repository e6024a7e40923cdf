"""Lesson 14 checker: the re-solve gadget's input (root best-response values), written several
ways, accepted; each usual slip, written as a student would, named."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import as_cell, run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson14 as ex
from cfrviz.solvers.subgame import root_values

STARTER = '''
def my_root_values(tree, policy, roots, hand_of_root, player):
    raise NotImplementedError
'''

#: The lesson-05 recursion with one slip marked SLIP; `{...}` fills the variable parts.
TEMPLATE = '''
import numpy as np
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL

def my_root_values(tree, policy, roots, hand_of_root, player):
    reach = reach_probabilities(tree, policy)
    weight = {weight}
    choice = {{}}

    def value(node):
        if tree.player[node] == TERMINAL:
            return weight[node] * tree.utility[node, {payoff}]
        if tree.player[node] == player:
            {own}
        return sum(value(child) for child in tree.children[node])

    def best(info):
        if info not in choice:
            nodes = tree.infoset_members(info)
            totals = [sum(value(tree.children[h][a]) for h in nodes)
                      for a in range(len(tree.infoset_actions[info]))]
            choice[info] = int(np.argmax(totals))
        return choice[info]

    hands = max(hand_of_root) + 1
    cbv, total, count, mean = np.zeros(hands), np.zeros(hands), np.zeros(hands), np.zeros(hands)
    for root, hand in zip(roots, hand_of_root):
        cbv[hand] += value(root)
        total[hand] += weight[root]
        if weight[root] > 0:
            mean[hand] += value(root) / weight[root]
            count[hand] += 1
    with np.errstate(all="ignore"):
        return {result}
'''

RIGHT = dict(weight="reach[2] * reach[1 - player]", payoff="player",
             own="return value(tree.children[node][best(tree.infoset[node])])",
             result="cbv / total")


def variant(**change):
    return TEMPLATE.format(**{**RIGHT, **change})


MISTAKES = {
    "on-policy": variant(own="return sum(policy[tree.infoset[node], a] * value(c) "
                             "for a, c in enumerate(tree.children[node]))"),
    "peeking": variant(own="return max(value(c) for c in tree.children[node])"),
    "unnormalised": variant(result="cbv"),
    "no-opponent-reach": variant(weight="reach[2]"),
    "no-chance-reach": variant(weight="reach[1 - player]"),
    "unweighted-mean": variant(result="mean / count"),
}

RIGHT_STYLES = {
    "recursion, the template": variant(),
    "numpy, level by level": '''
import numpy as np
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL

def my_root_values(tree, policy, roots, hand_of_root, player):
    reach = reach_probabilities(tree, policy)
    w = reach[2] * reach[1 - player]
    v = w * tree.utility[:, player]
    for nodes in reversed(tree.levels()):
        inner = nodes[tree.player[nodes] != TERMINAL]
        mine = inner[tree.player[inner] == player]
        for info in np.unique(tree.infoset[mine]):
            members = tree.infoset_members(info)
            kids = np.array([tree.children[h] for h in members])
            v[members] = v[kids[:, np.argmax(v[kids].sum(axis=0))]]
        for h in inner[tree.player[inner] != player]:
            v[h] = v[tree.children[h]].sum()
    n = hand_of_root.max() + 1
    cbv = np.bincount(hand_of_root, weights=v[roots], minlength=n)
    weight = np.bincount(hand_of_root, weights=w[roots], minlength=n)
    return np.divide(cbv, weight, out=np.zeros(n), where=weight > 0)
''',
    "expected values per history, a dict by hand": '''
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import CHANCE, TERMINAL

def my_root_values(tree, policy, roots, hand_of_root, player):
    reach = reach_probabilities(tree, policy)
    w = reach[2] * reach[1 - player]
    memo, choice = {}, {}

    def ev(h):  # player's expected payoff once h is reached, best-responding below
        if h in memo:
            return memo[h]
        kids = [int(c) for c in tree.children[h]]
        who = tree.player[h]
        if who == TERMINAL:
            out = float(tree.utility[h, player])
        elif who == CHANCE:
            out = sum(tree.chance_prob[c] * ev(c) for c in kids)
        elif who == player:
            info = int(tree.infoset[h])
            if info not in choice:
                members = [int(m) for m in tree.infoset_members(info)]
                scores = [sum(w[m] * ev(int(tree.children[m][a])) for m in members)
                          for a in range(len(kids))]
                choice[info] = scores.index(max(scores))
            out = ev(kids[choice[info]])
        else:
            out = sum(policy[tree.infoset[h], a] * ev(c) for a, c in enumerate(kids))
        memo[h] = out
        return out

    num, den = {}, {}
    for root, hand in zip(roots.tolist(), hand_of_root.tolist()):
        num[hand] = num.get(hand, 0.0) + w[root] * ev(root)
        den[hand] = den.get(hand, 0.0) + w[root]
    return {hand: num[hand] / den[hand] for hand in num if den[hand] > 0}
''',
    "iteration with an explicit stack": '''
import numpy as np
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL

def my_root_values(tree, policy, roots, hand_of_root, player):
    reach = reach_probabilities(tree, policy)
    w = reach[2] * reach[1 - player]
    # every node below the roots, deepest first
    below, stack = [], list(roots)
    while stack:
        h = int(stack.pop())
        below.append(h)
        stack.extend(int(c) for c in tree.children[h])
    below.sort(key=lambda h: -tree.depth[h])
    v = {}
    done = set()
    for h in below:
        if tree.player[h] == TERMINAL:
            v[h] = w[h] * tree.utility[h, player]
        elif tree.player[h] == player:
            info = int(tree.infoset[h])
            if info not in done:
                members = tree.infoset_members(info)
                sums = [sum(v[int(tree.children[m][a])] for m in members)
                        for a in range(len(tree.infoset_actions[info]))]
                best = int(np.argmax(sums))
                for m in members:
                    v[int(m)] = v[int(tree.children[m][best])]
                done.add(info)
        else:
            v[h] = sum(v[int(c)] for c in tree.children[h])
    out = []
    for hand in range(max(hand_of_root) + 1):
        mine = [int(r) for r, k in zip(roots, hand_of_root) if k == hand]
        weight = sum(w[r] for r in mine)
        out.append(sum(v[r] for r in mine) / weight if weight > 0 else float("nan"))
    return out
''',
}


def test_solution_passes():
    feedback = ex.check_root_values(run_solution("14_root_values.py")["my_root_values"])
    assert feedback.status == CORRECT, feedback


@pytest.mark.parametrize("style", list(RIGHT_STYLES))
def test_right_answers_written_differently_pass(style):
    feedback = ex.check_root_values(as_cell(RIGHT_STYLES[style])["my_root_values"])
    assert feedback.status == CORRECT, feedback


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_each_mistake_is_named(mistake):
    feedback = ex.check_root_values(as_cell(MISTAKES[mistake])["my_root_values"])
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_the_other_players_values_are_named():
    # The other player's values, by its own hands (written out, since root_values is refused).
    cell = as_cell('''
import numpy as np
from cfrviz.solvers.subtrees import hands_at
from cfrviz.exercises.lesson14 import _values

def my_root_values(tree, policy, roots, hand_of_root, player):
    _, theirs = hands_at(tree, np.asarray(roots), 1 - player)
    return _values(tree, policy, np.asarray(roots), theirs, 1 - player)
''')
    feedback = ex.check_root_values(cell["my_root_values"])
    assert feedback.status == WRONG and feedback.mistake == "wrong-player", feedback


def test_every_variant_differs_from_the_right_answer_and_the_others():
    right = ex._flat(lambda c: c.expected)
    flats = {name: ex._flat(formula) for name, formula, _ in ex.VARIANTS}
    for name, values in flats.items():
        assert not np.allclose(values, right, rtol=0, atol=1e-6), name
        for other, theirs in flats.items():
            if other != name:
                assert not np.allclose(values, theirs, rtol=0, atol=1e-6), (name, other)


def test_every_variant_is_written_as_a_student_would():
    assert set(MISTAKES) | {"wrong-player"} == {name for name, _, _ in ex.VARIANTS}


def test_the_cases_are_root_values_and_the_written_formula_agrees():
    # The checker's expected values are the package's; its own bottom-up formula, written
    # independently, agrees with them (so a variant's formula and the right one share a frame).
    right = ex._flat(lambda c: c.expected)
    assert np.allclose(ex._flat(ex._formula()), right, rtol=0, atol=1e-12)
    case = ex.root_cases()[3]
    assert case.player == 0 and "deal/r/r/c/Q/r" in case.name
    from cfrviz.core.policy import Policy
    rv = root_values(case.tree, Policy(case.tree, case.policy), "deal/r/r/c/Q/r", 0)
    assert np.allclose(rv.value, case.expected, equal_nan=True)


def test_starter_and_blank_are_not_done():
    assert ex.check_root_values(None).status == NOT_DONE
    assert ex.check_root_values(as_cell(STARTER)["my_root_values"]).status == NOT_DONE


def test_wrong_shape_and_nan_are_explained():
    short = as_cell('''
def my_root_values(tree, policy, roots, hand_of_root, player):
    return [0.0, 1.0]
''')["my_root_values"]
    assert ex.check_root_values(short).mistake == "shape"
    nan = as_cell('''
import numpy as np
def my_root_values(tree, policy, roots, hand_of_root, player):
    return np.full(3, np.nan)
''')["my_root_values"]
    assert ex.check_root_values(nan).mistake == "not-finite"


def test_unrecognised_answer_shows_the_first_difference():
    zeros = as_cell('''
def my_root_values(tree, policy, roots, hand_of_root, player):
    return [0.0, 0.0, 0.0]
''')["my_root_values"]
    feedback = ex.check_root_values(zeros)
    assert feedback.status == WRONG and feedback.mistake is None
    assert "'J'" in feedback.message and "-1.0000" in feedback.message


def test_a_crash_names_the_line():
    source = '''
def my_root_values(tree, policy, roots, hand_of_root, player):
    return tree.children[roots[0]][99]
'''
    feedback = ex.check_root_values(as_cell(source)["my_root_values"])
    assert feedback.status == WRONG and feedback.mistake == "crash"
    assert "line 3" in feedback.message


@pytest.mark.parametrize("junk", [3, "values", [1, 2], object()], ids=stable_id)
def test_junk_never_raises(junk):
    feedback = ex.check_root_values(junk)
    assert feedback.status == WRONG and feedback.mistake == "not-callable"


def test_a_call_of_root_values_is_refused():
    # root_values is the answer: a function that only calls it (under any name) has written
    # nothing, and the checker says so instead of accepting it.
    cell = as_cell('''
from cfrviz.solvers import subgame
from cfrviz.core.policy import Policy

def my_root_values(tree, policy, roots, hand_of_root, player):
    return subgame.root_values(tree, Policy(tree, policy), list(roots), player).value
''')
    feedback = ex.check_root_values(cell["my_root_values"])
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
    assert "root_values" in feedback.message


def test_changing_the_blueprint_is_refused():
    # The solution, but it first zeroes the caller's policy table where it reads it.
    cell = as_cell(run_solution_source().replace(
        "    reach = reach_probabilities(tree, policy)",
        "    reach = reach_probabilities(tree, policy)\n    policy[:] = 0"))
    feedback = ex.check_root_values(cell["my_root_values"])
    assert feedback.status == WRONG and feedback.mistake == "changes its input", feedback


def test_the_right_answer_says_at_most():
    # The gadget bounds the opponent's hands from above: a safe re-solve leaves each at most
    # its best-response value against the blueprint (the lesson's re-solving cells say so too).
    feedback = ex.check_root_values(run_solution("14_root_values.py")["my_root_values"])
    assert feedback.status == CORRECT
    assert "at most" in feedback.message and "at least" not in feedback.message


def run_solution_source():
    from _solutions import SOLUTIONS
    return (SOLUTIONS / "14_root_values.py").read_text()
