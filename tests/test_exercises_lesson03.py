"""Lesson 03's checkers accept the right answers, explain typical mistakes, never raise on junk."""


import numpy as np
import pytest
from _solutions import as_cell, run_solution

import cfrviz
from cfrviz.analysis.explain import counterfactual_values
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson03 as ex
from cfrviz.reference import vanilla_cfr
from cfrviz.reference.updates import REGRET_UPDATES

JUNK = [None, ..., "", "abc", 3, [], {}, [1.0], [1, 2, 3], {"p": 1}, {"x": 1, "y": 2}, object(),
        float("nan"), [np.nan, 0.0], np.zeros((2, 2)), b"ab", True]


# --- exercise 1: counterfactual values -------------------------------------------------------

VALUES_RIGHT = {
    "list": [-2 / 9, -2 / 9],
    "rounded tuple": (-0.222, -0.222),
    "dict": {"p": -2 / 9, "b": -2 / 9},
    "numpy": np.array([-2 / 9, -2 / 9]),
    "the solution": run_solution("03_counterfactual_values.py")["my_values"],
}


@pytest.mark.parametrize("form", VALUES_RIGHT)
def test_counterfactual_values_accepts_the_answer(form):
    assert ex.check_counterfactual_values(VALUES_RIGHT[form]).status == CORRECT


def test_counterfactual_values_not_done():
    assert ex.check_counterfactual_values(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ([-2, 0], "own-reach"),          # each node weighted by player 2's own reach, 1
    ([-4 / 3, -4 / 3], "no-chance"),
    ([-1 / 3, 0], "no-opponent"),
    ([-1 / 6, 0], "uniform"),
    ([-1, -1], "normalised"),
    ([2 / 9, 2 / 9], "sign"),
    ([1, 2, 3], "shape"),
    ({"fold": -2 / 9, "call": -2 / 9}, "shape"),
    ([0.5, 0.5], None),
])
def test_counterfactual_value_mistakes_are_explained(answer, mistake):
    feedback = ex.check_counterfactual_values(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


@pytest.mark.parametrize("junk", JUNK)
def test_counterfactual_values_never_raises_on_junk(junk):
    assert ex.check_counterfactual_values(junk).status in (WRONG, NOT_DONE)


def test_counterfactual_values_of_the_example(kuhn):
    qb = counterfactual_values(kuhn, ex.BLUFF_POLICY, "Qb")
    assert qb["action_values"] == pytest.approx([-2 / 9, -2 / 9])
    assert qb["opponent_reach"] == pytest.approx(1 / 18 + 1 / 6)
    assert qb["own_reach"] == pytest.approx(1.0)
    assert qb["regret"] == pytest.approx([0, 0], abs=1e-15)
    kpb = counterfactual_values(kuhn, ex.BLUFF_POLICY, "Kpb")
    assert kpb["own_reach"] == 0.0                       # never reached by its owner...
    assert kpb["action_values"] == pytest.approx([-1 / 6, 1 / 3])   # ...yet it still learns


def test_counterfactual_values_give_the_first_iteration_regrets(kuhn):
    # Player 1's regrets in iteration 1 of the reference CFR are taken against the uniform
    # profile: an independent computation of the same numbers.
    first = next(vanilla_cfr(kuhn, 1))
    uniform = cfrviz.Policy.uniform(kuhn)
    for info in np.flatnonzero(kuhn.infoset_player == 0):
        cf = counterfactual_values(kuhn, uniform, int(info))
        assert np.allclose(cf["regret"], first["regret"][info, :2], atol=1e-15)


# --- exercise 2: the regret update -----------------------------------------------------------

def right(reach, player, action_values, value):
    return reach[2] * reach[1 - player] * (action_values - value)


@pytest.mark.parametrize("function", [
    right,
    lambda r, i, q, v: list(right(r, i, q, v)),
    lambda r, i, q, v: np.prod(np.delete(r, i)) * (q - v),
    run_solution("03_regret_update.py")["my_regret_update"],
])
def test_regret_update_accepts_correct_implementations(function):
    assert ex.check_regret_update(function).status == CORRECT


def test_regret_update_starter_is_not_done():
    def starter(reach, player, action_values, value):
        raise NotImplementedError
    assert ex.check_regret_update(starter).status == NOT_DONE
    assert ex.check_regret_update(None).status == NOT_DONE


@pytest.mark.parametrize("name", list(ex.MISTAKES))
def test_every_listed_mistake_is_recognised(name):
    feedback = ex.check_regret_update(REGRET_UPDATES[name])
    assert feedback.status == WRONG and feedback.mistake == name, feedback


def test_own_reach_is_explained_in_words():
    feedback = ex.check_regret_update(lambda reach, player, q, v: reach[player] * (q - v))
    assert feedback.mistake == "own-reach"
    assert "reach[1 - player]" in feedback.message and "own reach" in feedback.message


def test_sign_error_is_explained_in_words():
    feedback = ex.check_regret_update(lambda r, i, q, v: r[2] * r[1 - i] * (v - q))
    assert feedback.mistake == "sign" and "action_values - value" in feedback.message


@pytest.mark.parametrize("function, mistake", [
    (lambda *_: None, "shape"),
    (lambda r, _i, q, v: float(r[2] * (q.max() - v)), "shape"),    # one number, not one per action
    (lambda *_: "x", "shape"),
    (lambda _r, _i, q, _v: q * np.nan, "shape"),
    (lambda r, *_: r[7], "crash"),
    (lambda r, *_: r["chance"], "crash"),
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


@pytest.mark.parametrize("argument", ["reach", "action_values"])
def test_an_update_that_changes_its_input_is_refused(argument):
    # Issue 29: right numbers, but it writes into an array the walk goes on using.
    def vandal(reach, player, action_values, value):
        out = right(reach, player, action_values, value)
        (reach if argument == "reach" else action_values)[:] = 0.0
        return out
    feedback = ex.check_regret_update(vandal)
    assert feedback.status == WRONG and feedback.mistake == "changes its input", feedback
    assert f"`{argument}`" in feedback.message


def test_every_wrong_update_has_an_explanation():
    assert set(ex.MISTAKES) == set(REGRET_UPDATES) - {"cfr"}


def test_a_bad_return_names_the_node_it_came_from():
    feedback = ex.check_regret_update(lambda *_: None)
    assert feedback.message == ("Your function ran, but at node 'JQ:pb' (set 'Jpb') it returned "
                                "None (a missing `return`?).")


# --- exercise 2: counterfactual values as code -----------------------------------------------

CF_SOLUTION = "03_counterfactual_function.py"


def cf_function(**replace):
    """The solution with some lines changed: a student's implementation, right or wrong."""
    from _solutions import SOLUTIONS
    source = (SOLUTIONS / CF_SOLUTION).read_text()
    for old, new in replace.items():
        assert old in source, old
        source = source.replace(old, new)
    return as_cell(source)["my_counterfactual_values"]


OPPONENT_MOVE = "elif tree.player[up] == opponent:"
SUM = "values[a] += weight * value(child)"
RETURN = "    return values\n"


CF_ITERATIVE = """
def my_counterfactual_values(tree, strategy, info):
    # No recursion: reaches top-down and values bottom-up, in node order (parents come first).
    player = int(tree.infoset_player[info])
    n = len(tree.player)

    def p(node, a, child, mine_too):
        kind = int(tree.player[node])
        if kind == -1:
            return float(tree.chance_prob[child])
        if kind == player and not mine_too:
            return 1.0
        return float(strategy[int(tree.infoset[node])][a])

    reach = [1.0] * n
    value = [0.0] * n
    for node in range(n):
        for a, child in enumerate(tree.children[node]):
            reach[child] = reach[node] * p(node, a, child, False)
    for node in reversed(range(n)):
        if int(tree.player[node]) == -2:
            value[node] = float(tree.utility[node][player])
        for a, child in enumerate(tree.children[node]):
            value[node] += p(node, a, child, True) * value[child]
    out = [0.0] * len(tree.infoset_actions[info])
    for node in range(n):
        if int(tree.player[node]) >= 0 and int(tree.infoset[node]) == info:
            for a, child in enumerate(tree.children[node]):
                out[a] += reach[node] * value[child]
    return out
"""

CF_RIGHT = {
    "the solution (recursive values)": lambda: run_solution(CF_SOLUTION)[
        "my_counterfactual_values"],
    "pure python, iterative": lambda: as_cell(CF_ITERATIVE)["my_counterfactual_values"],
    "a dict by action": lambda: cf_function(**{
        RETURN: "    return dict(zip(tree.infoset_actions[info], values.tolist()))\n"}),
    "padded to the table's width": lambda: cf_function(**{
        RETURN: "    return np.append(values, [0.0] * (tree.max_actions - len(values)))\n"}),
}


@pytest.mark.parametrize("style", CF_RIGHT)
def test_counterfactual_function_accepts_the_solution_and_other_forms(style):
    feedback = ex.check_counterfactual_function(CF_RIGHT[style]())
    assert feedback.status == CORRECT, feedback.message


def test_counterfactual_function_agrees_with_the_engine():
    from cfrviz.analysis.explain import counterfactual_values as engine_values
    for game, key, name in ex.CF_CASES:
        tree = cfrviz.load_game(game)
        strategy = ex._strategy(tree, name)
        mine = ex.cf_variants(tree, strategy, tree.infoset_index(key))["right"]
        np.testing.assert_allclose(mine, engine_values(tree, strategy, key)["action_values"],
                                   atol=1e-13)


def test_node_reach_agrees_with_the_engine(kuhn):
    from cfrviz.engine import tree_reach_probabilities
    strategy = ex._strategy(kuhn, "random 1")
    np.testing.assert_allclose(ex.node_reach(kuhn, strategy),
                               tree_reach_probabilities(kuhn, strategy).T, atol=1e-15)


def test_the_cases_tell_every_mistake_apart():
    # A mistake can only be named if no other one (nor the right answer) gives the same numbers
    # on every case.
    answers = {}
    for game, key, name in ex.CF_CASES:
        tree = cfrviz.load_game(game)
        variants = ex.cf_variants(tree, ex._strategy(tree, name), tree.infoset_index(key))
        for mistake, values in variants.items():
            answers.setdefault(mistake, []).append(np.atleast_1d(values))
    names = [n for n in answers if n != "set-value"]  # a scalar: told apart by its shape
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not all(np.allclose(x, y) for x, y in zip(answers[a], answers[b])), (a, b)


@pytest.mark.parametrize("replace, mistake", [
    ({"reach = 1.0\n": "reach = 1.0\n        return 1.0\n",
      SUM: "values[a] += reach_of_me(node) * value(child)",
      "    values = np.zeros(": "    def reach_of_me(node):\n"
                              "        reach = 1.0\n"
                              "        while tree.parent[node] >= 0:\n"
                              "            up = tree.parent[node]\n"
                              "            if tree.player[up] == player:\n"
                              "                reach *= strategy[tree.infoset[up],\n"
                              "                                  tree.action[node]]\n"
                              "            node = up\n"
                              "        return reach\n\n"
                              "    values = np.zeros("}, "own-reach"),
    ({OPPONENT_MOVE: "elif tree.player[up] >= 0:"}, "all-reach"),
    ({"reach *= tree.chance_prob[node]": "pass"}, "no-chance"),
    ({"reach *= strategy[tree.infoset[up], tree.action[node]]": "pass"}, "chance-only"),
    ({SUM: "values[a] += value(child)"}, "unweighted"),
    ({RETURN: "    return values / sum(others_reach(n) for n in nodes)\n"}, "normalised"),
    ({"return tree.utility[node, player]": "return tree.utility[node, opponent]"},
     "other-player"),
    ({"return tree.utility[node, player]": "return tree.utility[node, opponent]",
      OPPONENT_MOVE: "elif tree.player[up] == player:"}, "swapped-players"),
    ({"    for node in nodes:\n": "    for node in nodes[:1]:\n"}, "one-node"),
    ({RETURN: "    return values - strategy[info, :len(values)] @ values\n"}, "regret-not-value"),
    ({RETURN: "    return float(strategy[info, :len(values)] @ values)\n"}, "set-value"),
    ({RETURN: "    return [float(strategy[info, :len(values)] @ values)] * len(values)\n"},
     "set-value-repeated"),
    ({RETURN: "    return float(values.sum())\n"}, "shape"),
    ({RETURN: "    return [values]\n"}, "shape"),
    ({RETURN: "    return 'p'\n"}, "shape"),
    ({RETURN: "\n"}, "no-return"),
    ({"weight = others_reach(node)": "weight = others_reach(node)[0]"}, "crash"),
    # Right values, but the caller's strategy table is changed (issue 29 item 4).
    ({RETURN: "    strategy[info] = 0.0\n    return values\n"}, "changes its input"),
])
def test_counterfactual_function_names_each_mistake(replace, mistake):
    feedback = ex.check_counterfactual_function(cf_function(**replace))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    if mistake in ex.CF_MISTAKES:
        assert feedback.message == ex.CF_MISTAKES[mistake]
    if mistake == "set-value":
        assert feedback.message == ex.SET_VALUE


def test_one_number_is_said_only_of_one_number():
    """Issue 29: a list with the set's value for every action was told "You returned one
    number"; it is told that every action got the same number, and a single number is still
    told it is one."""
    repeated = ex.check_counterfactual_function(cf_function(**{
        RETURN: "    return np.full(len(values), strategy[info, :len(values)] @ values)\n"}))
    assert repeated.mistake == "set-value-repeated", repeated
    assert "one number" not in repeated.message and "every action" in repeated.message
    single = ex.check_counterfactual_function(cf_function(**{
        RETURN: "    return float(strategy[info, :len(values)] @ values)\n"}))
    assert single.mistake == "set-value" and "one number" in single.message


def test_counterfactual_function_crash_reports_the_line():
    feedback = ex.check_counterfactual_function(
        cf_function(**{"weight = others_reach(node)": "weight = others_reach(node)[0]"}))
    assert "line" in feedback.message and "others_reach(node)[0]" in feedback.message
    assert "set 'Qb' of kuhn_poker" in feedback.message


def test_counterfactual_function_starter_is_not_done():
    def starter(_tree, _strategy, info):
        def others_reach(_node):
            raise NotImplementedError
        return others_reach(info)
    assert ex.check_counterfactual_function(starter).status == NOT_DONE
    assert ex.check_counterfactual_function(None).status == NOT_DONE


def test_an_unrecognised_wrong_answer_shows_the_first_difference():
    feedback = ex.check_counterfactual_function(cf_function(**{RETURN: "    return values + 1\n"}))
    assert feedback.status == WRONG and feedback.mistake is None
    assert "the counterfactual values are" in feedback.message


@pytest.mark.parametrize("junk", JUNK)
def test_counterfactual_function_never_raises_on_junk(junk):
    assert ex.check_counterfactual_function(junk).status in (WRONG, NOT_DONE)
    assert ex.check_counterfactual_function(lambda *_: junk).status in (WRONG, NOT_DONE)


# --- exercise 3 by class of hole (issue 22 item 2): chance that is not uniform -------------------

UPDATE_RIGHT = {
    "numpy": '''
def my_regret_update(reach, player, action_values, value):
    return reach[2] * reach[1 - player] * (action_values - value)
''',
    "pure python": '''
def my_regret_update(reach, player, action_values, value):
    others = 1.0
    for who, r in enumerate(reach):
        if who != player:
            others *= r
    return [others * (q - value) for q in action_values]
''',
    "recursion": '''
def product_without(reach, skip, k=0):
    if k == len(reach):
        return 1.0
    return (1.0 if k == skip else reach[k]) * product_without(reach, skip, k + 1)

def my_regret_update(reach, player, action_values, value):
    return product_without(list(reach), player) * (np.asarray(action_values) - value)
''',
}

#: Plausible wrong updates, and the mistake each gets (issue 22 item 2).
UPDATE_MISTAKE = {"hard-coded 1/6": "uneven-chance", "uniform chance": "uneven-chance",
                  "no chance": "no-chance", "own reach": "own-and-chance", "sign": "sign",
                  "chance squared": "uneven-chance"}

UPDATE_WRONG = {
    # Chance's 1/6 hard-coded: right on Kuhn poker, where every deal has probability 1/6.
    "hard-coded 1/6": '''
def my_regret_update(reach, player, action_values, value):
    return reach[1 - player] / 6 * (action_values - value)
''',
    # Chance as one over the number of deals: the same hole, written differently.
    "uniform chance": '''
def my_regret_update(reach, player, action_values, value):
    deals = 6
    return reach[1 - player] * (1 / deals) * (action_values - value)
''',
    "no chance": '''
def my_regret_update(reach, player, action_values, value):
    return reach[1 - player] * (action_values - value)
''',
    "own reach": '''
def my_regret_update(reach, player, action_values, value):
    return [reach[player] * reach[2] * (q - value) for q in action_values]
''',
    "sign": '''
def my_regret_update(reach, player, action_values, value):
    return np.prod(np.delete(reach, player)) * (value - action_values)
''',
    "chance squared": '''
def my_regret_update(reach, player, action_values, value):
    return reach[2] ** 2 * 6 * reach[1 - player] * (action_values - value)
''',
}


def test_the_loaded_game_really_deals_unevenly():
    tree = ex.loaded_kuhn()
    root = np.flatnonzero(tree.parent < 0)[0] if hasattr(tree, "parent") else 0
    probabilities = np.sort(tree.chance_prob[tree.children[root]])
    np.testing.assert_allclose(probabilities, np.arange(1, 7) / 21)


@pytest.mark.parametrize("style", UPDATE_RIGHT)
def test_regret_update_in_any_style_is_accepted(style):
    feedback = ex.check_regret_update(as_cell(UPDATE_RIGHT[style])["my_regret_update"])
    assert feedback.correct, (style, feedback.message)
    assert "uneven deals" in feedback.message


@pytest.mark.parametrize("name", UPDATE_WRONG)
def test_regret_update_wrong_code_is_rejected(name):
    feedback = ex.check_regret_update(as_cell(UPDATE_WRONG[name])["my_regret_update"])
    assert feedback.status == WRONG and feedback.mistake == UPDATE_MISTAKE[name], (
        name, feedback.message)


@pytest.mark.parametrize("name", ["hard-coded 1/6", "uniform chance", "chance squared"])
def test_a_uniform_chance_assumption_is_caught_only_by_uneven_deals(name):
    feedback = ex.check_regret_update(as_cell(UPDATE_WRONG[name])["my_regret_update"])
    assert feedback.mistake == "uneven-chance" and "1/6" in feedback.message, feedback.message


# --- issue 29: the package's answer is not the student's code ------------------------------------

def test_a_regret_update_that_calls_the_package_is_refused():
    """The lesson once imported counterfactual_regret before exercise 3 and the checker took
    a call to it, under any name, for the student's update."""
    from cfrviz.reference import counterfactual_regret as cr

    for function in (cr, lambda reach, player, q, v: cr(reach, player, q, v),
                     lambda reach, player, q, v: REGRET_UPDATES["cfr"](reach, player, q, v)):
        feedback = ex.check_regret_update(function)
        assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
        assert "counterfactual_regret" in feedback.message


def test_a_counterfactual_function_that_calls_the_package_is_refused():
    from cfrviz.engine import counterfactual_table

    def package(tree, strategy, info):
        return counterfactual_values(tree, strategy, tree.infoset_keys[info])["action_values"]

    def engine(tree, strategy, info):
        return counterfactual_table(tree, strategy, int(tree.infoset_player[info]))[
            "action_values"][info, :len(tree.infoset_actions[info])]

    def checker(tree, strategy, info):
        return ex.cf_variants(tree, strategy, info)["right"]

    for function, name in ((package, "counterfactual_values"), (engine, "counterfactual_table"),
                           (checker, "cf_variants")):
        feedback = ex.check_counterfactual_function(function)
        assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
        assert name in feedback.message
