"""Lesson 06's chance-sampled CFR walk (cfrviz/exercises/chance_sampling.py): right walks in
several styles reproduce the reference on the same deals and train to cfrviz.solve's
exploitability; wrong walks, written as a student would, are rejected with their mistake
named; the checker's own variant walk is the reference when no mistake is asked for."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import as_cell, run_solution

import cfrviz
from cfrviz.exercises import NOT_DONE, WRONG
from cfrviz.exercises import chance_sampling as ex
from cfrviz.reference.mccfr import chance_sampling

HEADER = '''
from cfrviz.core.tree import CHANCE, TERMINAL
'''

RIGHT = {
    "recursion, actions last to first": HEADER + '''
def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    if kind == CHANCE:
        o = draw(node, tree.chance_prob[children])
        return my_chance_sampling(tree, children[o], player, own_reach, opponent_reach,
                                  strategy, regret_sum, strategy_sum, draw)
    info, k = tree.infoset[node], len(children)
    sigma = strategy[info, :k]
    values = np.zeros(k)
    for a in reversed(range(k)):
        mine = kind == player
        values[a] = my_chance_sampling(tree, children[a], player,
                                       own_reach * sigma[a] if mine else own_reach,
                                       opponent_reach if mine else opponent_reach * sigma[a],
                                       strategy, regret_sum, strategy_sum, draw)
    value = float(np.dot(sigma, values))
    if kind == player:
        regret_sum[info, :k] += opponent_reach * (values - value)
        strategy_sum[info, :k] += own_reach * sigma
    return value
''',
    "pure python, a reach pair indexed by player": HEADER + '''
def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    reach = [0.0, 0.0]
    reach[player], reach[1 - player] = own_reach, opponent_reach

    def walk(node, reach):
        kind = int(tree.player[node])
        if kind == TERMINAL:
            return float(tree.utility[node][player])
        children = list(tree.children[node])
        if kind == CHANCE:
            probs = [float(tree.chance_prob[c]) for c in children]
            return walk(children[draw(node, probs)], reach)
        info = int(tree.infoset[node])
        sigma = [float(strategy[info][a]) for a in range(len(children))]
        values = []
        for a, child in enumerate(children):
            step = list(reach)
            step[kind] *= sigma[a]
            values.append(walk(child, step))
        value = sum(s * v for s, v in zip(sigma, values))
        if kind == player:
            for a in range(len(children)):
                regret_sum[info][a] += reach[1 - player] * (values[a] - value)
                strategy_sum[info][a] += reach[player] * sigma[a]
        return value

    return walk(node, reach)
''',
    "iteration with an explicit stack": HEADER + '''
def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    # First pass: which nodes the walk enters, with their reaches (parents before children).
    order, reach, stack = [], {node: (own_reach, opponent_reach)}, [node]
    followed = {}
    while stack:
        h = stack.pop()
        order.append(h)
        kind, children = tree.player[h], tree.children[h]
        if kind == TERMINAL:
            continue
        own, opp = reach[h]
        if kind == CHANCE:
            c = children[draw(h, tree.chance_prob[children])]
            followed[h] = c
            reach[c] = (own, opp)
            stack.append(c)
            continue
        sigma = strategy[tree.infoset[h], :len(children)]
        for a, c in enumerate(children):
            reach[c] = (own * sigma[a], opp) if kind == player else (own, opp * sigma[a])
            stack.append(c)
    # Second pass, children before parents: values and updates.
    value = {}
    for h in reversed(order):
        kind, children = tree.player[h], tree.children[h]
        if kind == TERMINAL:
            value[h] = tree.utility[h, player]
        elif kind == CHANCE:
            value[h] = value[followed[h]]
        else:
            info, k = tree.infoset[h], len(children)
            sigma = strategy[info, :k]
            v = np.array([value[c] for c in children])
            value[h] = sigma @ v
            if kind == player:
                own, opp = reach[h]
                regret_sum[info, :k] += opp * (v - value[h])
                strategy_sum[info, :k] += own * sigma
    return value[node]
''',
}

BASE = HEADER + '''
def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    kind = tree.player[node]
    if kind == TERMINAL:
        return LEAF
    children = tree.children[node]
    if kind == CHANCE:
        CHANCE_STEP
    info, k = tree.infoset[node], len(children)
    sigma = strategy[info, :k]
    values = np.zeros(k)
    for a in range(k):
        if kind == player:
            values[a] = my_chance_sampling(tree, children[a], player, own_reach * sigma[a],
                                           opponent_reach, strategy, regret_sum, strategy_sum,
                                           draw)
        else:
            values[a] = my_chance_sampling(tree, children[a], player, own_reach,
                                           opponent_reach * sigma[a], strategy, regret_sum,
                                           strategy_sum, draw)
    value = sigma @ values
    if kind == player:
        regret_sum[info, :k] += REGRET
        strategy_sum[info, :k] += AVERAGE
    return value
'''
PARTS = {
    "LEAF": "tree.utility[node, player]",
    "CHANCE_STEP": '''o = draw(node, tree.chance_prob[children])
        return my_chance_sampling(tree, children[o], player, own_reach, opponent_reach,
                                  strategy, regret_sum, strategy_sum, draw)''',
    "REGRET": "opponent_reach * (values - value)",
    "AVERAGE": "own_reach * sigma",
}


def variant(**changes):
    source = BASE
    for key, value in {**PARTS, **changes}.items():
        source = source.replace(key, value)
    return source


WRONG_CODE = {
    "chance-weighted": variant(CHANCE_STEP='''o = draw(node, tree.chance_prob[children])
        p = tree.chance_prob[children][o]
        return my_chance_sampling(tree, children[o], player, own_reach, opponent_reach * p,
                                  strategy, regret_sum, strategy_sum, draw)'''),
    "chance-not-sampled": variant(CHANCE_STEP='''return sum(
            p * my_chance_sampling(tree, c, player, own_reach, opponent_reach * p, strategy,
                                   regret_sum, strategy_sum, draw)
            for p, c in zip(tree.chance_prob[children], children))'''),
    "wrong-probabilities": variant(CHANCE_STEP='''k = len(children)
        o = draw(node, np.full(k, 1 / k))
        return my_chance_sampling(tree, children[o], player, own_reach, opponent_reach,
                                  strategy, regret_sum, strategy_sum, draw)'''),
    "unweighted-regret": variant(REGRET="values - value"),
    "own-reach-regret": variant(REGRET="own_reach * (values - value)"),
    "flipped-regret": variant(REGRET="opponent_reach * (value - values)"),
    "unweighted-average": variant(AVERAGE="sigma"),
    "opponent-reach-average": variant(AVERAGE="opponent_reach * sigma"),
    "first-player-payoff": variant(LEAF="tree.utility[node, 0]"),
    "root-value": variant(CHANCE_STEP='''o = draw(node, tree.chance_prob[children])
        my_chance_sampling(tree, children[o], player, own_reach, opponent_reach,
                           strategy, regret_sum, strategy_sum, draw)
        return 0.0'''),
    "no-average": variant().replace("strategy_sum[info, :k] += own_reach * sigma", "pass"),
    "crash": variant(AVERAGE="own_reach * strategy[info]"),
    # Right walk, but it wipes the strategy it was told to read only once the walk is over
    # (issue 29 item 4).
    "changes its input": variant(CHANCE_STEP='''o = draw(node, tree.chance_prob[children])
        v = my_chance_sampling(tree, children[o], player, own_reach, opponent_reach,
                               strategy, regret_sum, strategy_sum, draw)
        if node == 0:
            strategy[:] = 0
        return v'''),
}


def sampled_opponent():
    """External sampling's habit carried over: draw the opponent's action."""
    return variant().replace('''        else:
            values[a] = my_chance_sampling(tree, children[a], player, own_reach,
                                           opponent_reach * sigma[a], strategy, regret_sum,
                                           strategy_sum, draw)''', '''        else:
            b = draw(node, sigma)
            return my_chance_sampling(tree, children[b], player, own_reach, opponent_reach,
                                      strategy, regret_sum, strategy_sum, draw)''')


WRONG_CODE["sampled-player"] = sampled_opponent()


def student(source):
    return as_cell(source, cfrviz=cfrviz)["my_chance_sampling"]


@pytest.mark.parametrize("style", RIGHT)
def test_right_walks_in_any_style_are_accepted(style):
    feedback = ex.check_chance_sampling(student(RIGHT[style]))
    assert feedback.correct, (style, feedback.message)


def test_the_solution_is_accepted_with_the_solvers_exploitability():
    walk = run_solution("06_chance_sampling.py")["my_chance_sampling"]
    feedback = ex.check_chance_sampling(walk)
    assert feedback.correct, feedback.message
    kuhn = cfrviz.load_game("kuhn_poker")
    compiled = cfrviz.solve(kuhn, "chance_sampling", ex.LONG_ITERATIONS, seed=ex.SEED,
                            checkpoints=[ex.LONG_ITERATIONS])
    assert f"{compiled.exploitability[-1]:.5f}" in feedback.message


@pytest.mark.parametrize("mistake", WRONG_CODE)
def test_wrong_walks_are_named(mistake):
    feedback = ex.check_chance_sampling(student(WRONG_CODE[mistake]))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    if mistake == "crash":
        assert "line" in feedback.message and "[:len(children)]" in feedback.message


@pytest.mark.parametrize("mistake, name", ex.VARIANTS)
def test_each_variant_is_named_by_its_mistake(mistake, name, monkeypatch):
    # The checker's own variant is refused as a student's walk; here it stands for one.
    monkeypatch.setattr(ex, "answers", dict)

    def walk(*args, name=name):
        return ex.chance_sampling_variant(*args, mistake=name)
    assert ex.check_chance_sampling(walk).mistake == mistake


def test_a_wrong_walk_no_row_knows_is_shown_where_it_first_differs():
    source = variant(REGRET="opponent_reach * (values - value) * 1.5")
    feedback = ex.check_chance_sampling(student(source))
    assert feedback.status == WRONG and feedback.mistake is None
    assert "iteration 1's walk for player 1" in feedback.message


def test_the_variant_walk_without_mistake_is_the_reference():
    kuhn = cfrviz.load_game("kuhn_poker")
    regret_sum, strategy_sum = ex.train(
        lambda *args: ex.chance_sampling_variant(*args), iterations=200, seed=3)
    reference = list(chance_sampling(kuhn, 200, np.random.default_rng(3)))[-1]
    np.testing.assert_allclose(regret_sum, reference["cumulative_regret"], atol=1e-12)
    np.testing.assert_allclose(strategy_sum, reference["strategy_sum"], atol=1e-12)


@pytest.mark.parametrize("answer", [None, ...])
def test_unanswered_is_not_done(answer):
    assert ex.check_chance_sampling(answer).status == NOT_DONE


def test_starter_is_not_done():
    starter = HEADER + '''
def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    raise NotImplementedError
'''
    assert ex.check_chance_sampling(student(starter)).status == NOT_DONE


@pytest.mark.parametrize("junk", ["walk", 3, [1, 2]], ids=stable_id)
def test_junk_is_not_callable(junk):
    assert ex.check_chance_sampling(junk).mistake == "not-callable"


@pytest.mark.parametrize("node, probs, words", [
    (-1, [1.0], "whole number"),
    (True, [1.0], "whole number"),
    (0, [0.5, 0.5], "6 probabilities"),
    (0, [np.nan] * 6, "summing to 1"),
])
def test_draw_refuses_bad_calls_with_a_reason(node, probs, words):
    kuhn = cfrviz.load_game("kuhn_poker")
    draws = ex.NodeDraws(kuhn, np.zeros(kuhn.num_nodes))
    with pytest.raises(ex.DrawError, match=words):
        draws(node, probs)


def test_a_blank_body_is_not_done_not_vanilla_cfr():
    blank = HEADER + '''
def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    pass
'''
    feedback = ex.check_chance_sampling(student(blank))
    assert feedback.status == NOT_DONE, feedback
    assert "vanilla" not in feedback.message and "never called draw" not in feedback.message


def test_only_a_walk_of_every_outcome_is_called_vanilla_cfr():
    feedback = ex.check_chance_sampling(student(WRONG_CODE["chance-not-sampled"]))
    assert feedback.mistake == "chance-not-sampled" and "vanilla CFR" in feedback.message
    own_numbers = variant(CHANCE_STEP='''o = int(np.random.default_rng(0).integers(len(children)))
        return my_chance_sampling(tree, children[o], player, own_reach, opponent_reach,
                                  strategy, regret_sum, strategy_sum, draw)''')
    feedback = ex.check_chance_sampling(student(own_numbers))
    assert feedback.mistake == "chance-not-sampled", feedback
    assert "vanilla" not in feedback.message and "own random numbers" in feedback.message


@pytest.mark.parametrize("source", [
    '''
from cfrviz.reference.mccfr import chance_sampling_walk


def my_chance_sampling(*args):
    return chance_sampling_walk(*args)
''',
    '''
from cfrviz.exercises import chance_sampling as check_cs


def my_chance_sampling(*args):
    return check_cs.chance_sampling_variant(*args)
''',
], ids=["reference", "checker's variant"])
def test_a_walk_that_calls_the_packages_walk_is_refused(source):
    feedback = ex.check_chance_sampling(student(source))
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
