"""Lesson 06 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import SOLUTIONS, as_cell, run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson06 as ex

JUNK = ["", "cfr", 3, 2.5, {"a": 1}, object(), [None, None], np.zeros((2, 2)), [np.nan] * 3,
        ["cfr"] * 4, [1, 2, 3, 4]]

WEIGHTS_RIGHT = {
    "list of fractions": [2 / 3, 4 / 3, 4 / 3],
    "rounded numpy": np.array([0.6667, 1.3333, 1.3333]),
    "p / q as arrays": ex.DEAL_P / ex.SAMPLER_Q,
    "the solution": run_solution("06_importance_weights.py")["my_weights"],
}


@pytest.mark.parametrize("form", WEIGHTS_RIGHT)
def test_importance_weights(form):
    assert ex.check_importance_weights(WEIGHTS_RIGHT[form]).status == CORRECT


def test_importance_weights_not_done():
    assert ex.check_importance_weights(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ([1, 1, 1], "no-correction"),
    ([1.5, 0.75, 0.75], "inverted"),
    ([2, 4, 4], "one-over-q"),
    ([1 / 3, 1 / 3, 1 / 3], "only-p"),
    ([1, 2], "shape"),
    ("2/3, 4/3, 4/3", "shape"),
    ([1.0, 1.0, 1.0, 1.0], "shape"),
    ([0.5, 1.5, 1.0], None),
])
def test_importance_weight_mistakes_are_explained(answer, mistake):
    feedback = ex.check_importance_weights(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("junk", JUNK, ids=stable_id)
def test_junk_never_raises(junk):
    for checker in (ex.check_importance_weights,):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message


# --- exercise 2: the external-sampling walk, as code ----------------------------------------

from cfrviz.core.regret import regret_matching  # noqa: E402
from cfrviz.core.tree import CHANCE, TERMINAL  # noqa: E402


def make_walk(*, regret_weight="none", average="opponent", average_weight="none",
              sample_own=False, sample_chance=True, sample_opponent=True, uniform=False,
              update_regrets=True):
    """An external-sampling walk written the way a student might, right by default.

    It tries the traverser's actions first to last (the reference goes last to first) and
    tracks the reach ``(player 1, player 2, chance)`` and the sampling probability ``q``
    itself, so that each wrong option is one a student could write.
    """
    def walk(tree, node, player, regret_sum, strategy_sum, draw, reach=(1.0, 1.0, 1.0), q=1.0):
        kind = tree.player[node]
        if kind == TERMINAL:
            return tree.utility[node, player]
        children = tree.children[node]
        if kind == CHANCE:
            probs = tree.chance_prob[children]
            if not sample_chance:
                return sum(p * walk(tree, c, player, regret_sum, strategy_sum, draw,
                                    (reach[0], reach[1], reach[2] * p), q * p)
                           for p, c in zip(probs, children))
            o = draw(node, probs)
            return walk(tree, children[o], player, regret_sum, strategy_sum, draw,
                        (reach[0], reach[1], reach[2] * probs[o]), q * probs[o])
        info, k = tree.infoset[node], len(children)
        sigma = regret_matching(regret_sum[info], tree.legal_mask[info])[:k]

        def below(a, sampled_with):
            step = list(reach)
            step[kind] *= sigma[a]
            return walk(tree, children[a], player, regret_sum, strategy_sum, draw, tuple(step),
                        q * sampled_with)

        at_own = kind == player
        if average == ("own" if at_own else "opponent"):
            strategy_sum[info, :k] += (reach[kind] if average_weight == "reach" else 1.0) * sigma
        if not at_own:
            if not sample_opponent:
                return sum(sigma[a] * below(a, sigma[a]) for a in range(k))
            probs = np.full(k, 1 / k) if uniform else sigma
            a = draw(node, probs)
            return below(a, probs[a])
        if sample_own:
            a = draw(node, sigma)
            return below(a, 1.0)
        values = np.array([below(a, 1.0) for a in range(k)])
        value = sigma @ values
        weight = {"none": 1.0, "one-over-q": 1 / q, "reach": reach[2] * reach[1 - player],
                  "flipped": -1.0}[regret_weight]
        if update_regrets:
            regret_sum[info, :k] += weight * (values - value)
        return value
    return walk


WALK_PURE_PYTHON = """
def my_external_sampling(tree, node, player, regret_sum, strategy_sum, draw):
    # Lists and plain floats: regret matching by hand, no numpy arithmetic.
    kind = int(tree.player[node])
    if kind == -2:
        return float(tree.utility[node][player])
    children = [int(c) for c in tree.children[node]]
    if kind == -1:
        probs = [float(tree.chance_prob[c]) for c in children]
        return my_external_sampling(tree, children[draw(node, probs)], player, regret_sum,
                                    strategy_sum, draw)
    info, k = int(tree.infoset[node]), len(children)
    positive = [max(float(r), 0.0) for r in regret_sum[info][:k]]
    total = sum(positive)
    sigma = [p / total for p in positive] if total > 0 else [1.0 / k] * k
    if kind != player:
        for a in range(k):
            strategy_sum[info][a] += sigma[a]
        return my_external_sampling(tree, children[draw(node, sigma)], player, regret_sum,
                                    strategy_sum, draw)
    values = [my_external_sampling(tree, c, player, regret_sum, strategy_sum, draw)
              for c in children]
    value = sum(s * v for s, v in zip(sigma, values))
    for a in range(k):
        regret_sum[info][a] += values[a] - value
    return value
"""

WALK_RIGHT = {
    "the solution (numpy)": lambda: run_solution("06_external_sampling.py")[
        "my_external_sampling"],
    "reach and q tracked, actions first to last": make_walk,
    "pure python": lambda: as_cell(WALK_PURE_PYTHON)["my_external_sampling"],
}


@pytest.mark.parametrize("style", WALK_RIGHT)
def test_the_solution_and_a_students_walk_pass(style):
    feedback = ex.check_external_sampling(WALK_RIGHT[style]())
    assert feedback.status == CORRECT, feedback.message


@pytest.mark.parametrize("options, mistake", [
    (dict(regret_weight="one-over-q"), "one-over-q"),
    (dict(regret_weight="reach"), "reach-weighted-regret"),
    (dict(regret_weight="flipped"), "flipped-regret"),
    (dict(average="own"), "own-nodes"),
    (dict(average="own", average_weight="reach"), "own-reach-average"),
    (dict(average_weight="reach"), "reach-weighted-average"),
    (dict(sample_own=True), "sampled-own"),
    (dict(sample_chance=False), "chance-not-sampled"),
    (dict(sample_opponent=False), "opponent-not-sampled"),
    (dict(uniform=True), "wrong-probabilities"),
    (dict(update_regrets=False), "no-regret"),
    (dict(average="nowhere"), "no-average"),
])
def test_each_walk_mistake_is_named(options, mistake):
    feedback = ex.check_external_sampling(make_walk(**options))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 60


def test_the_starter_is_not_done_and_crashes_are_explained():
    def starter(tree, node, player, regret_sum, strategy_sum, draw):
        raise NotImplementedError

    assert ex.check_external_sampling(starter).status == NOT_DONE
    assert ex.check_external_sampling(None).status == NOT_DONE

    source = (SOLUTIONS / "06_external_sampling.py").read_text()
    forgets_the_payoff = source.replace("return tree.utility[node, player]", "return None")
    assert forgets_the_payoff != source
    namespace = {"np": np}
    exec(forgets_the_payoff, namespace)
    feedback = ex.check_external_sampling(namespace["my_external_sampling"])
    assert feedback.status == WRONG and feedback.mistake == "crash", feedback
    assert "TypeError" in feedback.message

    def returns_nothing(tree, node, player, regret_sum, strategy_sum, draw):
        make_walk()(tree, node, player, regret_sum, strategy_sum, draw)

    feedback = ex.check_external_sampling(returns_nothing)
    assert feedback.status == WRONG and feedback.mistake == "root-value", feedback

    def bad_draw(_tree, node, _player, _regret_sum, _strategy_sum, draw):
        return draw(node, [2.0, -1.0])

    feedback = ex.check_external_sampling(bad_draw)
    assert feedback.mistake == "crash" and "summing to 1" in feedback.message, feedback


def test_an_unknown_mistake_names_the_set_that_differs():
    def off_by_a_bit(tree, node, player, regret_sum, strategy_sum, draw):
        value = make_walk()(tree, node, player, regret_sum, strategy_sum, draw)
        if node == 0:
            regret_sum[0, 0] += 0.5
        return value

    feedback = ex.check_external_sampling(off_by_a_bit)
    assert feedback.status == WRONG and feedback.mistake is None, feedback
    assert "iteration 1" in feedback.message and "'J'" in feedback.message


@pytest.mark.parametrize("junk", [*JUNK, lambda: None, print], ids=stable_id)
def test_junk_walks_never_raise(junk):
    feedback = ex.check_external_sampling(junk)
    assert feedback.status in (WRONG, NOT_DONE)
    assert feedback.message


BLANK_BODY = """
from cfrviz.core.tree import CHANCE, TERMINAL


def my_external_sampling(tree, node, player, regret_sum, strategy_sum, draw):
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    pass
"""


def test_a_blank_body_is_not_done_and_a_walk_without_draws_is_told_so():
    feedback = ex.check_external_sampling(as_cell(BLANK_BODY)["my_external_sampling"])
    assert feedback.status == NOT_DONE, feedback
    assert "vanilla" not in feedback.message and "never called draw" not in feedback.message
    feedback = ex.check_external_sampling(make_walk(sample_chance=False))
    assert feedback.status == WRONG and feedback.mistake == "chance-not-sampled", feedback


CALLS_THE_ANSWER = {
    "the reference walk": """
from cfrviz.reference.mccfr import external_sampling_walk as walk


def my_external_sampling(tree, node, player, regret_sum, strategy_sum, draw):
    return walk(tree, node, player, regret_sum, strategy_sum, draw)
""",
    "the variant walk of lesson 06's section 6": """
from cfrviz.analysis.sampling import external_sampling_variant


def my_external_sampling(tree, node, player, regret_sum, strategy_sum, draw):
    return external_sampling_variant(tree, node, player, regret_sum, [strategy_sum], draw)
""",
    "sampled_walk": """
from cfrviz.reference import mccfr


def my_external_sampling(tree, node, player, regret_sum, strategy_sum, draw):
    return mccfr.sampled_walk(tree, "external_sampling", player, regret_sum, strategy_sum, draw)
""",
}


@pytest.mark.parametrize("how", CALLS_THE_ANSWER)
def test_a_walk_that_calls_the_packages_walk_is_refused(how):
    feedback = ex.check_external_sampling(as_cell(CALLS_THE_ANSWER[how])["my_external_sampling"])
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback
