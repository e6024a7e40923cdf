"""Lesson 10's sequence-form exercises: the constraints E x = e and the linear program.

Each checker accepts correct code written in different styles and names each plausible
mistake (every wrong version is written out below, as a student might write it)."""

import numpy as np
import pytest
import scipy.sparse
from _solutions import as_cell, run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import sequence_form as ex

# --- the constraints -------------------------------------------------------------------------

HEADER = """
import numpy as np

def player_sets(tree, player):
    return [i for i in range(tree.num_infosets) if tree.infoset_player[i] == player]

def columns(tree, player):
    return 1 + sum(len(tree.infoset_actions[i]) for i in player_sets(tree, player))
"""

#: Right, by climbing from each node to the player's last own move (pure Python, iteration).
CLIMB = HEADER + """
def my_constraints(tree, player, first):
    sets = player_sets(tree, player)
    parent = {}
    for node in range(tree.num_nodes):
        if tree.player[node] != player:
            continue
        child, up, last = node, tree.parent[node], 0
        while up >= 0:
            if tree.player[up] == player:
                last = first[tree.infoset[up]] + tree.action[child]
                break
            child, up = up, tree.parent[up]
        parent[tree.infoset[node]] = last
    E = [[0.0] * columns(tree, player) for _ in range(len(sets) + 1)]
    e = [1.0] + [0.0] * len(sets)
    E[0][0] = 1.0
    for row, info in enumerate(sets, start=1):
        for a in range(len(tree.infoset_actions[info])):
            E[row][first[info] + a] = 1.0
        E[row][parent[info]] = -1.0
    return E, e
"""

#: Right, numpy level by level, rows in reverse order, each row negated, E sparse.
LEVELS = HEADER + """
import scipy.sparse

def my_constraints(tree, player, first):
    last = np.zeros(tree.num_nodes, dtype=int)
    for nodes in tree.levels()[1:]:
        up = tree.parent[nodes]
        mine = tree.player[up] == player
        last[nodes] = np.where(mine, first[tree.infoset[up]] + tree.action[nodes], last[up])
    sets = player_sets(tree, player)
    E = np.zeros((len(sets) + 1, columns(tree, player)))
    e = np.zeros(len(sets) + 1)
    for row, info in enumerate(sets):
        node = np.flatnonzero(tree.infoset == info)[0]
        E[row, first[info]:first[info] + len(tree.infoset_actions[info])] = -1
        E[row, last[node]] = 1
    E[-1, 0], e[-1] = 2, 2
    return scipy.sparse.csr_matrix(E), e
"""

#: Right, with an explicit stack instead of recursion.
STACK = HEADER + """
def my_constraints(tree, player, first):
    sets = player_sets(tree, player)
    parent, stack = {}, [(0, 0)]
    while stack:
        node, last = stack.pop()
        if tree.player[node] == player:
            info = tree.infoset[node]
            parent[info] = last
            stack += [(c, first[info] + tree.action[c]) for c in tree.children[node]]
        else:
            stack += [(c, last) for c in tree.children[node]]
    E = np.zeros((len(sets) + 1, columns(tree, player)))
    E[0, 0] = 1
    for row, info in enumerate(sets, start=1):
        E[row, [first[info] + a for a in range(len(tree.infoset_actions[info]))]] = 1
        E[row, parent[info]] -= 1
    return E, np.eye(len(sets) + 1)[0]
"""


def wrong_constraints(*, parent="own", root_row=True, root_rhs=1.0, parent_coefficient=-1.0,
                      set_rhs=0.0, transpose=False, every_set=False, action_coefficient=1.0):
    """A recursive my_constraints with one thing changed (right with the defaults)."""
    def my_constraints(tree, player, first):
        sets = [i for i in range(tree.num_infosets)
                if every_set or tree.infoset_player[i] == player]
        mine = [i for i in range(tree.num_infosets) if tree.infoset_player[i] == player]
        n = 1 + sum(len(tree.infoset_actions[i]) for i in mine)
        parents = {}

        def walk(node, own, anyone):
            if tree.player[node] >= 0:
                info = tree.infoset[node]
                if tree.player[node] == player:
                    parents[info] = {"own": own, "empty": 0, "anyone": anyone}[parent]
                for child in tree.children[node]:
                    step = first[info] + tree.action[child]
                    walk(child, step if tree.player[node] == player else own, step)
            else:
                for child in tree.children[node]:
                    walk(child, own, anyone)
        walk(0, 0, 0)
        E = np.zeros((len(sets) + 1, n))
        e = np.full(len(sets) + 1, set_rhs)
        E[0, 0], e[0] = 1, root_rhs
        for row, info in enumerate(sets, start=1):
            if tree.infoset_player[info] != player:
                continue
            E[row, first[info]:first[info] + len(tree.infoset_actions[info])] = \
                action_coefficient
            if parent_coefficient:
                E[row, parents[info]] += parent_coefficient
        if not root_row:
            E, e = E[1:], e[1:]
        return (E.T, e) if transpose else (E, e)
    return my_constraints


def test_the_solution_and_three_other_styles_pass():
    solution = run_solution("11_plan_constraints.py")["my_constraints"]
    assert ex.check_plan_constraints(solution).status == CORRECT
    assert ex.check_plan_constraints(wrong_constraints()).status == CORRECT
    for source in (CLIMB, LEVELS, STACK):
        feedback = ex.check_plan_constraints(as_cell(source)["my_constraints"])
        assert feedback.status == CORRECT, feedback


@pytest.mark.parametrize("options, mistake, says", [
    (dict(parent="empty"), "parent-is-empty", "'Jpb'"),
    (dict(parent="anyone"), "wrong-parent", "own last move before 'Jpb'"),
    (dict(parent_coefficient=0.0, set_rhs=1.0), "behaviour-rows", "behaviour strategy"),
    (dict(parent_coefficient=0.0), "no-parent", "leading to 'J', x(∅)"),
    (dict(parent_coefficient=1.0), "parent-sign", "+1 on x(∅)"),
    (dict(root_row=False), "no-root-row", "x(∅) = 1"),
    (dict(root_rhs=0.0), "root-rhs", "e[0], must be 1"),
    (dict(set_rhs=0.5), "row-rhs", "right-hand side 0.5"),
    (dict(transpose=True), "transposed", "(13, 7)"),
    (dict(every_set=True), "all-sets", "13 rows"),
    (dict(action_coefficient=0.5), "actions", "[0.5, 0.5] and x(∅) -1"),
])
def test_each_constraint_mistake_is_named(options, mistake, says):
    feedback = ex.check_plan_constraints(wrong_constraints(**options))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert says in feedback.message, feedback.message
    assert "Kuhn poker, for player 1" in feedback.message


def _permuted(function, order):
    """``function`` with the rows of E and e put in ``order(number of rows)``."""
    def my_constraints(tree, player, first):
        E, e = function(tree, player, first)
        rows = order(len(E))
        return np.asarray(E)[rows], np.asarray(e)[rows]
    return my_constraints


@pytest.mark.parametrize("order", [
    lambda n: np.arange(n)[::-1],                                   # children before parents
    lambda n: np.roll(np.arange(n), -1),                            # x(∅) = 1 last
    lambda n: np.random.default_rng(3).permutation(n),
], ids=["reversed", "root-last", "shuffled"])
def test_correct_rows_in_any_order_pass(order):
    """Issue 29: the docstring promises any row order, but a child set's row (-1 on one of
    its parent set's actions) listed first was taken for the parent set's row."""
    solution = run_solution("11_plan_constraints.py")["my_constraints"]
    feedback = ex.check_plan_constraints(_permuted(solution, order))
    assert feedback.status == CORRECT, feedback


def test_a_wrong_row_is_named_by_its_set_and_its_place_in_any_order():
    """With the rows reversed, the wrong row (set 'Jpb' hangs from ∅) is still named by its set
    and by its own index in the student's matrix."""
    wrong = wrong_constraints(parent="empty")
    feedback = ex.check_plan_constraints(_permuted(wrong, lambda n: np.arange(n)[::-1]))
    assert feedback.mistake == "parent-is-empty", feedback
    kuhn = ex.game_for("kuhn_poker", {})
    sets = [i for i in range(kuhn.num_infosets) if kuhn.infoset_player[i] == 0]
    row = 6 - 1 - sets.index(kuhn.infoset_index("Jpb"))   # row 1 + k of 7, reversed
    assert f"the row of information set 'Jpb' (row {row} of your matrix)" in feedback.message
    straight = ex.check_plan_constraints(wrong).message
    assert f"'Jpb' (row {1 + sets.index(kuhn.infoset_index('Jpb'))} of your matrix)" in straight


def test_player_2_is_checked_too():
    right = wrong_constraints()

    def wrong_for_player_2(tree, player, first):
        E, e = right(tree, player, first)
        if player == 1:
            E[3, 0] = 0.0                            # a set of player 2 without its parent
        return E, e

    feedback = ex.check_plan_constraints(wrong_for_player_2)
    assert feedback.mistake == "no-parent", feedback
    assert "player 2 (F, f)" in feedback.message and "'Kp'" in feedback.message


def test_a_matrix_typed_in_for_kuhn_fails_on_leduc():
    reference = {p: ex.reference_constraints(ex.game_for("kuhn_poker", {}), p) for p in (0, 1)}
    feedback = ex.check_plan_constraints(lambda _tree, player, _first: reference[player])
    assert feedback.mistake == "columns", feedback
    assert "Leduc poker with two ranks" in feedback.message and "155 sequences" in \
        feedback.message


def test_the_starter_and_junk_get_clear_messages():
    def starter(tree, player, first):
        raise NotImplementedError

    assert ex.check_plan_constraints(starter).status == NOT_DONE
    assert ex.check_plan_constraints(None).status == NOT_DONE
    crashes = ex.check_plan_constraints(lambda _tree, _player, first: first[99])
    assert crashes.mistake == "crash" and "IndexError" in crashes.message
    for junk, mistake in ((3, "not-callable"), (lambda *_: None, "not-a-pair"),
                          (lambda *_: ("E", [1]), "not-a-matrix"),
                          (lambda *_: (np.zeros((7, 13)), [1, 2]), "rhs-shape")):
        feedback = ex.check_plan_constraints(junk)
        assert feedback.status == WRONG and feedback.mistake == mistake, feedback


# --- the linear program ----------------------------------------------------------------------

#: Right: player 2's side (minimise eᵀp subject to A y − Eᵀp ≤ 0, F y = f, y ≥ 0, p free).
DUAL = """
def my_game_value(A, E, e, F, f, linprog):
    n2, m1 = A.shape[1], E.shape[0]
    c = np.concatenate([np.zeros(n2), e])
    A_ub = np.hstack([A, -E.T])
    A_eq = np.hstack([F, np.zeros((F.shape[0], m1))])
    bounds = [(0, None)] * n2 + [(None, None)] * m1
    result = linprog(c, A_ub=A_ub, b_ub=np.zeros(A.shape[0]), A_eq=A_eq, b_eq=f, bounds=bounds)
    return result.fun
"""

#: Right: sparse blocks, positional arguments, the interior-point method.
SPARSE = """
import scipy.sparse as sp

def my_game_value(A, E, e, F, f, linprog):
    n1, m2 = A.shape[0], len(f)
    A_ub = sp.hstack([-sp.csr_matrix(A).T, sp.csr_matrix(F).T])
    A_eq = sp.hstack([sp.csr_matrix(E), sp.csr_matrix((len(e), m2))])
    c = np.r_[np.zeros(n1), -f]
    bounds = [(0, None) for _ in range(n1)] + [(None, None) for _ in range(m2)]
    return float(-linprog(c, A_ub, np.zeros(A.shape[1]), A_eq, e, bounds,
                          method="highs-ipm").fun)
"""


def primal(*, q_bounds=(None, None), objective=-1.0, block=lambda A: -A.T, answer="value"):
    """Player 1's program as a student might write it, with one thing changed."""
    def my_game_value(A, E, e, F, f, linprog):
        n1, m2 = A.shape[0], F.shape[0]
        c = np.concatenate([np.zeros(n1), objective * f])
        A_ub = np.hstack([block(A), F.T])
        A_eq = np.hstack([E, np.zeros((E.shape[0], m2))])
        bounds = None if q_bounds is None else [(0, None)] * n1 + [q_bounds] * m2
        result = linprog(c, A_ub=A_ub, b_ub=np.zeros(A_ub.shape[0]), A_eq=A_eq, b_eq=e,
                         bounds=bounds)
        return {"value": lambda: -result.fun, "fun": lambda: result.fun,
                "result": lambda: result}[answer]()
    return my_game_value


@pytest.mark.parametrize("solution, function, check, old, new, argument", [
    # Right rows, but the caller's numbering is changed after use (issue 29 item 4).
    ("11_plan_constraints.py", "my_constraints", ex.check_plan_constraints,
     "    return E, e", "    first[:] = 0\n    return E, e", "first"),
    # Right value, but A is negated in place instead of in a new array.
    ("11_sequence_lp.py", "my_game_value", ex.check_sequence_lp,
     "np.hstack([-A.T, F.T])", "np.hstack([np.negative(A, out=A).T, F.T])", "A"),
    ("11_sequence_lp.py", "my_game_value", ex.check_sequence_lp,
     "    c = np.concatenate([np.zeros(n1), -f])",
     "    f *= -1\n    c = np.concatenate([np.zeros(n1), f])", "f"),
])
def test_a_function_that_changes_its_input_is_refused(solution, function, check, old, new,
                                                      argument):
    from _solutions import SOLUTIONS
    source = (SOLUTIONS / solution).read_text()
    assert old in source
    feedback = check(as_cell(source.replace(old, new), np=np)[function])
    assert feedback.status == WRONG and feedback.mistake == "changes its input", feedback
    assert f"`{argument}`" in feedback.message


def test_the_lp_solution_and_other_styles_pass():
    solution = run_solution("11_sequence_lp.py")["my_game_value"]
    assert ex.check_sequence_lp(solution).status == CORRECT
    assert ex.check_sequence_lp(primal()).status == CORRECT
    for source in (DUAL, SPARSE):
        feedback = ex.check_sequence_lp(as_cell(source, np=np)["my_game_value"])
        assert feedback.status == CORRECT, feedback
    assert "−1/18" in ex.check_sequence_lp(primal()).message


@pytest.mark.parametrize("options, mistake, says", [
    (dict(q_bounds=None), "q-nonnegative", "q ≥ 0"),
    (dict(q_bounds=(0, None)), "q-nonnegative", "(None, None)"),
    (dict(objective=1.0), "minimise", "c = −f"),
    (dict(block=lambda A: A.T), "plus-A", "−Aᵀ"),
    (dict(block=lambda A: -A), "A-not-transposed", "the block on x is"),
    (dict(answer="fun"), "sign", "−result.fun"),
    (dict(answer="result"), "returned-result", "−result.fun"),
])
def test_each_lp_mistake_is_named(options, mistake, says):
    feedback = ex.check_sequence_lp(primal(**options))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert says in feedback.message, feedback.message


def test_a_typed_in_value_fails_on_the_matrix_games():
    feedback = ex.check_sequence_lp(lambda *_: -1 / 18)
    assert feedback.mistake == "no-linprog" and "matrix game" in feedback.message, feedback


def test_the_lp_starter_and_junk():
    def starter(A, E, e, F, f, linprog):
        raise NotImplementedError

    assert ex.check_sequence_lp(starter).status == NOT_DONE
    assert ex.check_sequence_lp(None).status == NOT_DONE
    assert ex.check_sequence_lp("x").mistake == "not-callable"
    feedback = ex.check_sequence_lp(lambda *_: "-1/18")
    assert feedback.mistake == "not-a-number", feedback
    feedback = ex.check_sequence_lp(lambda *args: args[-1](
        np.ones(3), A_eq=np.ones((2, 2)), b_eq=[1, 1]))
    assert feedback.status == WRONG and "ValueError" in feedback.message, feedback


def test_the_matrix_games_values_are_their_equilibria():
    values = [value for _, _, value in ex.lp_cases()]
    assert values[0] == pytest.approx(-1 / 18, abs=1e-15)
    assert values[1:] == pytest.approx([-1 / 3, 1 / 4], abs=1e-12)
    A, E, e, F, f = ex.matrix_sequence_form([[1, 2]])
    assert A.shape == (2, 3) and E.tolist() == [[1, 0], [-1, 1]] and F.shape == (2, 3)
    assert scipy.sparse.issparse(scipy.sparse.csr_matrix(A))


def test_calling_sequence_form_is_not_writing_the_constraints():
    """Issue 29: `sequence_form(tree).constraints` (imported before the exercise, under any
    name) was accepted as the student's code."""
    as_student = as_cell("""
from cfrviz.solvers.lp import sequence_form as sf
import numpy as np

def my_constraints(tree, player, first):
    E = sf(tree).constraints[player].toarray()
    return E, np.eye(len(E))[0]
""")["my_constraints"]
    feedback = ex.check_plan_constraints(as_student)
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
    assert "sequence_form" in feedback.message
    via_checker = ex.check_plan_constraints(
        lambda tree, player, _first: ex.reference_constraints(tree, player))
    assert via_checker.mistake == "calls the answer", via_checker


def test_first_columns_is_the_sequence_forms_numbering():
    kuhn = ex.game_for("kuhn_poker", {})
    from cfrviz.solvers.lp import sequence_form
    np.testing.assert_array_equal(ex.first_columns(kuhn), sequence_form(kuhn).first)
