"""Checker for lesson 14's coding exercise: the re-solve gadget's input.

``my_root_values(tree, policy, roots, hand_of_root, player)`` returns, per private hand of
``player`` at a subgame's root, its counterfactual best-response value against the blueprint
per unit of reach, ``Σ_h π₋ᵢ(h) v(h) / Σ_h π₋ᵢ(h)``: the payoff of *terminate* in the re-solve
gadget of Burch, Johanson and Bowling (AAAI 2014).  It is compared, on the subgames of
:data:`CASES` and to :data:`TOLERANCE`, with :func:`cfrviz.solvers.subgame.root_values`, which
best-responds in the subgame built as a game of its own; hands of weight 0 are not compared.
A wrong answer is named only when a formula of :data:`VARIANTS` reproduces it at every hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.policy import Policy
from ..core.tree import GameTree, as_tree
from ..games import load_game
from ..reference import mistakes
from ..reference.evaluation import reach_probabilities
from ..solvers import solve
from ..solvers.subgame import root_values
from . import Feedback, wrong
from .coding import checks, floats, number, run_student, short_repr
from .diagnosis import Case, close_to, diagnose, fallback

#: Answers within this of the package's count as equal.
TOLERANCE = 1e-9


@dataclass(frozen=True)
class RootCase:
    """One subgame of one blueprint, as the student's function receives it."""

    name: str
    tree: GameTree
    policy: np.ndarray        # the blueprint's table (information sets, actions)
    roots: np.ndarray         # the subgame's root histories (node ids)
    hand_of_root: np.ndarray  # which of the player's hands each root holds
    hands: tuple[str, ...]
    player: int
    weight: np.ndarray        # chance's and the other player's reach of each hand
    expected: np.ndarray      # root_values(...).value


#: (game, blueprint iterations of CFR, public state, player) of each case checked.
CASES = (("kuhn_poker", 10, "deal/b", 1), ("kuhn_poker", 10, "deal/p/b", 0),
         ("kuhn_poker", 10, "deal/p", 1), ("leduc_poker", 30, "deal/r/r/c/Q/r", 0),
         ("leduc_poker", 30, "deal/r/r/c/Q/r", 1), ("leduc_poker", 10, "deal/c/r/c/K", 0))


@lru_cache(maxsize=1)
def root_cases() -> tuple[RootCase, ...]:
    """The subgames the exercise is checked on (built once)."""
    cases = []
    blueprints: dict[tuple[str, int], Any] = {}
    for game, iterations, state, player in CASES:
        tree = as_tree(load_game(game), "check_root_values")
        if (game, iterations) not in blueprints:
            blueprints[game, iterations] = solve(tree, "cfr", iterations,
                                                 checkpoints=[iterations]).average_policy()
        blueprint = blueprints[game, iterations]
        rv = root_values(tree, blueprint, state, player)
        cases.append(RootCase(f"{game}, CFR-{iterations} blueprint, public state {state!r}, "
                              f"player {player + 1}'s values", tree,
                              np.array(blueprint.probabilities), np.array(rv.roots),
                              np.array(rv.hand_of_root), rv.hands, player,
                              np.array(rv.weight), np.array(rv.value)))
    return tuple(cases)


# --- the right formula and the usual wrong ones, written out -------------------------------

def _values(tree: GameTree, policy: np.ndarray, roots: np.ndarray, hand_of_root: np.ndarray,
            player: int, *, weight: str = "others", play: str = "best", result: str = "value"
            ) -> np.ndarray:
    """Per hand: what ``player`` earns below the roots, by
    :func:`cfrviz.reference.mistakes.best_response_walk` with its ``weight`` and ``play``
    steps named; ``result`` is "value" (Σ w v / Σ w), "cbv" (Σ w v) or "mean" (the plain mean
    of v over the hand's roots that are reached)."""
    w = mistakes.BEST_RESPONSE_WEIGHTS[weight](reach_probabilities(tree, policy), player)
    value = mistakes.best_response_walk(tree, policy, player, weight=weight, play=play).value
    hands = int(hand_of_root.max()) + 1
    cbv, total, mean, count = (np.zeros(hands) for _ in range(4))
    for root, hand in zip(roots.tolist(), hand_of_root.tolist()):
        cbv[hand] += value(root)
        total[hand] += w[root]
        if w[root] > 0:
            mean[hand] += value(root) / w[root]
            count[hand] += 1
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"cbv": cbv, "mean": mean / count}.get(result, cbv / total)


def _formula(**options: str) -> Callable[[RootCase], np.ndarray]:
    def formula(case: RootCase) -> np.ndarray:
        return _values(case.tree, case.policy, case.roots, case.hand_of_root, case.player,
                       **options)
    return formula


def _wrong_player(case: RootCase) -> np.ndarray:
    other = root_values(case.tree, Policy(case.tree, case.policy), case.roots.tolist(),
                        1 - case.player)
    return np.array(other.value)


#: Wrong answers the checker recognises: (mistake, formula, message).
VARIANTS: tuple[tuple[str, Callable[[RootCase], np.ndarray], str], ...] = (
    ("on-policy", _formula(play="policy"),
     "Your values are what the player earns by playing its *blueprint* strategy in the "
     "subgame. The gadget's terminate pays what the opponent could get by best-responding "
     "there: at each of its information sets inside the subgame, the one action whose values, "
     "summed over the set's histories, are largest."),
    ("peeking", _formula(play="peek"),
     "You take the best action at every history separately, as if the player saw the other "
     "player's cards. A best response picks one action per information set: sum each "
     "action's weighted values over the set's histories, then take the largest (lesson 05)."),
    ("unnormalised", _formula(result="cbv"),
     "These are the counterfactual values Σ π₋ᵢ(h)·v(h), not divided by the hand's weight. "
     "The gadget pays terminate per unit of reach: divide each hand's sum by Σ π₋ᵢ(h) over "
     "its root histories."),
    ("no-opponent-reach", _formula(weight="chance"),
     "You weight the histories by chance alone. How often the other player's blueprint plays "
     "into the subgame with each of its hands changes which hands the player is likely to "
     "face: weight by π₋ᵢ(h) = chance's reach x the other player's reach (rows 2 and "
     "1 - player of the reach table)."),
    ("no-chance-reach", _formula(weight="opponent"),
     "You weight the histories by the other player's reach alone. Chance's reach matters too: "
     "in Leduc the deals are not equally likely once cards are removed, and the public card "
     "has its own probability. Weight by chance's reach x the other player's reach."),
    ("unweighted-mean", _formula(result="mean"),
     "You average the histories' values with equal weights. The hand's root histories are "
     "not equally likely: weight each by π₋ᵢ(h), chance's reach x the other player's, and "
     "divide by the sum of those weights."),
    ("wrong-player", _wrong_player,
     "These are the *other* player's values. The gadget's input belongs to the player given "
     "as `player`, whose hands `hand_of_root` indexes: best-respond for it, and weight by "
     "chance and the other player."),
)

_HINTS = {
    IndexError: "roots and hand_of_root have one entry per root history; tree.children[node] "
                "lists a node's children in action order; policy has one row per information "
                "set.",
    TypeError: "The checker calls my_root_values(tree, policy, roots, hand_of_root, player) "
               "with a GameTree, a numpy table, two integer arrays and 0 or 1, and expects one "
               "number per hand.",
}


def _vector(value: Any, case: RootCase) -> np.ndarray | None:
    """The student's answer as one float per hand, or None if it cannot be read so."""
    n = len(case.hands)
    if isinstance(value, dict):
        out = np.full(n, np.nan)
        for key, v in value.items():
            index = case.hands.index(key) if key in case.hands else key
            if not isinstance(index, (int, np.integer)) or not 0 <= index < n:
                return None
            try:
                out[int(index)] = number(v)
            except (TypeError, ValueError):
                return None
        return out
    try:
        array = floats(value).ravel()
    except (TypeError, ValueError):
        return None
    return array if array.shape == (n,) else None


def _flat(formula: Callable[[RootCase], np.ndarray]) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.concatenate([np.asarray(formula(c), dtype=float)[c.weight > 0]
                               for c in root_cases()])


@checks("`my_root_values`", "check_root_values(my_root_values)")
def check_root_values(function: Any) -> Feedback:
    """Exercise: ``function(tree, policy, roots, hand_of_root, player)`` gives
    :func:`cfrviz.solvers.subgame.root_values`' values at every hand with weight of
    :func:`root_cases`."""
    got = []
    for case in root_cases():
        given = (case.policy.copy(), case.roots.copy(), case.hand_of_root.copy())
        answer, failed = run_student(
            lambda c=case, g=given: function(c.tree, *g, c.player),
            name="`my_root_values`", hints=_HINTS,
            forbidden={root_values: "`root_values` (cfrviz.solvers.subgame)"},
            unchanged=[("policy", given[0]), ("roots", given[1]), ("hand_of_root", given[2])])
        if failed is not None:
            return failed
        vector = _vector(answer, case)
        if vector is None:
            return wrong(f"In {case.name}, your function returned {short_repr(answer)}: return "
                         f"{len(case.hands)} numbers, one per hand {list(case.hands)} (a list, "
                         "an array, or a dict from hand index to value).", "shape")
        live = case.weight > 0
        if not np.all(np.isfinite(vector[live])):
            return wrong(f"In {case.name}, your values {np.round(vector, 4).tolist()} are not "
                         f"all numbers at the hands that reach the subgame "
                         f"{[h for h, ok in zip(case.hands, live) if ok]}: a division by zero? "
                         "Only hands of weight 0 may be left undefined.", "not-finite")
        got.append(vector[live])
    values = np.concatenate(got)
    right = _flat(lambda c: c.expected)
    hands = int(right.size)
    return diagnose(values, (
        Case.correct(close_to(right, rtol=0, atol=TOLERANCE),
                     f"Right at all {hands} hands of the {len(root_cases())} subgames: your "
                     "values equal root_values(...).value, the terminate payoffs of the re-solve "
                     "gadget. When they are the opponent's values, a safe re-solve must leave "
                     "every one of these hands at most this much (no more than its best "
                     "response earns against the blueprint), or the opponent would have a "
                     "reason to steer that hand into the subgame."),
        *(Case(name, close_to(_flat(formula), rtol=0, atol=TOLERANCE), message)
          for name, formula, message in VARIANTS),
        fallback(_first_difference),
    ))


def _first_difference(values: np.ndarray) -> str:
    at = 0
    for case in root_cases():
        live = np.flatnonzero(case.weight > 0)
        for hand in live.tolist():
            if not np.isclose(values[at], case.expected[hand], rtol=0, atol=TOLERANCE):
                return (f"In {case.name}, for hand {case.hands[hand]!r} your value is "
                        f"{values[at]:.4f}; the best-response value per unit of reach is "
                        f"{case.expected[hand]:.4f} (weight Σ π₋ᵢ(h) = {case.weight[hand]:.4f}).")
            at += 1
    return "Not quite: best-respond per information set, weight by chance x the other player."


__all__ = ["CASES", "TOLERANCE", "VARIANTS", "RootCase", "check_root_values", "root_cases"]
