"""Checkers for lesson 07, sampling in practice (exercise 1 is in :mod:`.outcome_weights`).

Exercise 2 orders vanilla CFR and the three samplers by nodes touched per iteration on Leduc;
a wrong answer is told which pair is out of order and why, never the order or the numbers.
"""

from __future__ import annotations

from functools import lru_cache

from ..games import load_game
from ..solvers.registry import ALGORITHMS
from . import Feedback, unanswered
from .diagnosis import Case, diagnose, fallback, screen

#: The answer key: the four algorithms the exercise compares, fewest nodes touched per
#: iteration first (a test checks it against the measurement).
FEWEST_FIRST = ("outcome_sampling", "external_sampling", "chance_sampling", "cfr")


def algorithms_named(items, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The algorithms of ``allowed`` that ``items`` name (any registered alias), in order; an
    unknown name is left out (lesson 08's ranking reads names the same way)."""
    return tuple(name for name in map(ALGORITHMS.resolve, items) if name in allowed)


@lru_cache(maxsize=1)
def _measured() -> dict[str, float]:
    """Nodes per iteration on Leduc poker, measured (cached: the engine is deterministic)."""
    from ..analysis.sampling import nodes_per_iteration

    return nodes_per_iteration(load_game("leduc_poker"), FEWEST_FIRST[::-1], iterations=200)


def _numbers() -> str:
    m = _measured()
    return ", ".join(f"{name} {m[name]:,.0f}" for name in FEWEST_FIRST)


def check_fewest_nodes(answer) -> Feedback:
    """Exercise 2: cfr and the three samplers, fewest nodes per iteration first
    (:data:`FEWEST_FIRST`)."""
    unreadable = screen(answer, (
        Case.not_done(unanswered, "Set `my_order` to a list of the four names, fewest nodes per "
                                  "iteration first, e.g. ['cfr', 'chance_sampling', ...]."),
        Case("shape", lambda a: isinstance(a, str) or not hasattr(a, "__iter__"),
             f"Give a list of four names such as ['cfr', 'outcome_sampling', ...]; got "
             f"{answer!r}."),
    ))
    if unreadable is not None:
        return unreadable
    items = list(answer)
    return diagnose(algorithms_named(items, FEWEST_FIRST), order_cases(items))


def order_cases(items: list) -> tuple[Case, ...]:
    """Exercise 2's table over the algorithms the student's ``items`` name, in order."""
    measured = f"Measured on Leduc, nodes per iteration: {_numbers()}."

    def before(first: str, second: str):
        return lambda names: names.index(first) < names.index(second)

    return (
        Case("names", lambda names: len(items) != 4 or len(names) != 4
             or sorted(names) != sorted(FEWEST_FIRST),
             "List each of 'cfr', 'chance_sampling', 'external_sampling' and "
             f"'outcome_sampling' exactly once; got {items!r}."),
        Case.correct(lambda names: names == FEWEST_FIRST,
                     "Right. Outcome sampling follows a single path per player update; external "
                     "sampling branches only on the updated player's own actions; chance "
                     "sampling fixes the cards but tries every action of both players; vanilla "
                     f"CFR walks everything, once per player. {measured}"),
        Case("reversed", lambda names: names == FEWEST_FIRST[::-1],
             "That is the order from most to fewest. Put the cheapest iteration first."),
        Case("cfr-not-last", lambda names: names[-1] != "cfr",
             "Vanilla CFR cannot be cheaper than a sampler: it visits every node of the tree "
             "(once per player), and each sampler visits a subset of those nodes. Put 'cfr' "
             "last."),
        Case("chance-vs-external", before("chance_sampling", "external_sampling"),
             "Chance sampling samples only the cards; below the deal it still tries every "
             "action of both players. External sampling also samples the opponent's actions, "
             "one per decision, so it walks fewer nodes."),
        Case("outcome-vs-external", before("external_sampling", "outcome_sampling"),
             "External sampling tries every action of the player it updates, so its walk "
             "branches at each of that player's decisions; outcome sampling samples those too "
             "and follows one path."),
        fallback("Not quite. For each algorithm, ask which nodes a walk enters: every child, "
                 "or one drawn child, at chance's, the opponent's and the updated player's "
                 "nodes."),
    )
