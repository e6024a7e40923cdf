"""Checkers for lesson 07, sampling in practice: averages, outcomes and cost.

Exercise 1 asks for the order of vanilla CFR and the three samplers by nodes
touched per iteration on Leduc poker; the feedback quotes the measurement.
"""

from __future__ import annotations

from functools import lru_cache

from ..solvers.registry import ALGORITHMS
from . import Feedback, correct, not_done, unanswered, wrong

#: The answer key: the four algorithms the exercise compares, fewest nodes touched per
#: iteration first (a test checks it against the measurement).
FEWEST_FIRST = ("outcome_sampling", "external_sampling", "chance_sampling", "cfr")


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
