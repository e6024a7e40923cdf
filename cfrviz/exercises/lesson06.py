"""Checkers for lesson 06, Monte Carlo CFR."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..solvers.registry import ALGORITHMS
from . import Feedback, correct, not_done, unanswered, wrong

#: The answer key: the four algorithms the exercise compares, fewest nodes touched per
#: iteration first (a test checks it against the measurement).
FEWEST_FIRST = ("outcome_sampling", "external_sampling", "chance_sampling", "cfr")

#: Exercise 2: chance deals J, Q, K with probability 1/3 each; the sampler draws them with Q.
DEAL_P = np.array([1 / 3, 1 / 3, 1 / 3])
SAMPLER_Q = np.array([1 / 2, 1 / 4, 1 / 4])


def _name(item) -> str | None:
    """The algorithm a student's name refers to (any registered alias), if the exercise has it."""
    name = ALGORITHMS.resolve(item)
    return name if name in FEWEST_FIRST else None


@lru_cache(maxsize=1)
def _measured() -> dict[str, float]:
    """Nodes per iteration on Leduc poker, measured (cached: the engine is deterministic)."""
    from ..analysis.sampling import nodes_per_iteration
    from ..games import load_game

    return nodes_per_iteration(load_game("leduc_poker"), FEWEST_FIRST[::-1], iterations=200)


def _numbers() -> str:
    m = _measured()
    return ", ".join(f"{name} {m[name]:,.0f}" for name in FEWEST_FIRST)


def check_fewest_nodes(answer) -> Feedback:
    """Exercise 1: order cfr and the three samplers from fewest nodes per iteration to most.

    The right order is outcome sampling (one path per player), external
    sampling (all of the updated player's actions, one of everything else),
    chance sampling (every action of both players below one deal), vanilla
    CFR (the whole tree, once per player).
    """
    if unanswered(answer):
        return not_done("Set `my_order` to a list of the four names, fewest nodes per "
                        "iteration first, e.g. ['cfr', 'chance_sampling', ...].")
    if isinstance(answer, str) or not hasattr(answer, "__iter__"):
        return wrong(f"Give a list of four names such as ['cfr', 'outcome_sampling', ...]; got "
                     f"{answer!r}.", "shape")
    items = list(answer)
    # the names the exercise has, in the given order (an unknown one leaves fewer than four)
    names = tuple(n for n in map(_name, items) if n is not None)
    if len(items) != 4 or len(names) != 4 or sorted(names) != sorted(FEWEST_FIRST):
        return wrong("List each of 'cfr', 'chance_sampling', 'external_sampling' and "
                     f"'outcome_sampling' exactly once; got {items!r}.", "names")
    measured = f"Measured on Leduc, nodes per iteration: {_numbers()}."
    if names == FEWEST_FIRST:
        return correct("Right. Outcome sampling follows a single path per player update; "
                       "external sampling branches only on the updated player's own actions; "
                       "chance sampling fixes the cards but tries every action of both players; "
                       f"vanilla CFR walks everything, once per player. {measured}")
    if names == FEWEST_FIRST[::-1]:
        return wrong("That is the order from most to fewest. Put the cheapest iteration "
                     "first.", "reversed")
    if names[-1] != "cfr":
        return wrong("Vanilla CFR cannot be cheaper than a sampler: it visits every node of the "
                     "tree (once per player), and each sampler visits a subset of those nodes. "
                     "Put 'cfr' last.", "cfr-not-last")
    if names.index("chance_sampling") < names.index("external_sampling"):
        return wrong("Chance sampling samples only the cards; below the deal it still tries "
                     "every action of both players. External sampling also samples the "
                     "opponent's actions, one per decision, so it walks fewer nodes. "
                     f"{measured}", "chance-vs-external")
    if names.index("external_sampling") < names.index("outcome_sampling"):
        return wrong("External sampling tries every action of the player it updates, so its "
                     "walk branches at each of that player's decisions; outcome sampling "
                     "samples those too and follows one path. "
                     f"{measured}", "outcome-vs-external")
    return wrong(f"Not quite. {measured}")


def check_importance_weights(answer) -> Feedback:
    """Exercise 2: the weights w that make w(c) * v(c), with c drawn from Q, unbiased.

    Chance deals J, Q, K with probability p = 1/3 each, but the sampler draws
    them with q = (1/2, 1/4, 1/4).  The estimate is w(c) v(c) for the drawn
    card c; it is unbiased for every v exactly when w(c) = p(c) / q(c),
    i.e. (2/3, 4/3, 4/3).
    """
    if unanswered(answer):
        return not_done("Set `my_weights` to three numbers: the weight for a drawn J, Q and K.")
    try:
        w = np.array(answer, dtype=float)
    except (TypeError, ValueError):
        w = None
    if w is None or w.shape != (3,) or not np.all(np.isfinite(w)):
        return wrong(f"Expected three numbers (weights for J, Q, K); got {answer!r}.", "shape")
    right = DEAL_P / SAMPLER_Q
    expectation = float(np.sum(SAMPLER_Q * w * 1.0))  # with v = 1 for every card
    if np.allclose(w, right, atol=1e-3):
        return correct("Yes: w = p / q = (2/3, 4/3, 4/3). The often-drawn jack is scaled down, "
                       "the rarely-drawn queen and king up, so that on average "
                       "Σ q(c) · w(c) · v(c) = Σ p(c) · v(c): the exact expected value, whatever "
                       "v is. This is the division by the sampling probability in every Monte "
                       "Carlo CFR update.")
    if np.allclose(w, 1.0):
        return wrong("With no correction the estimate averages to ½v(J) + ¼v(Q) + ¼v(K), not "
                     "⅓ of each: the jack, drawn more often than it is dealt, counts too much. "
                     "Divide by how likely the sampler was to draw the card.", "no-correction")
    if np.allclose(w, SAMPLER_Q / DEAL_P, atol=1e-3):
        return wrong("Upside down: that is q / p, which makes the frequent jack count even more. "
                     "A card the sampler draws often must be scaled down.", "inverted")
    if np.allclose(w, 1 / SAMPLER_Q, atol=1e-3):
        return wrong("Dividing by q is half of it: the true expectation also weighs each card "
                     "by its chance probability p = 1/3. With 1/q the estimate averages to "
                     f"{expectation:g} times the right value when every v is 1.", "one-over-q")
    if np.allclose(w, DEAL_P, atol=1e-3):
        return wrong("Multiplying by p alone keeps the sampler's bias: the estimate would "
                     "average Σ q(c) p(c) v(c). Divide by q as well.", "only-p")
    return wrong("Not quite. Write the expectation of the estimate, Σ_c q(c) w(c) v(c), and "
                 "choose w so that it equals Σ_c p(c) v(c) for every v.")
