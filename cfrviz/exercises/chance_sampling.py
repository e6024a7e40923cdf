"""Checker for lesson 06's chance-sampled CFR: deal once, then walk that deal as CFR does.

The student writes the walk of :func:`cfrviz.reference.mccfr.chance_sampling_walk`, with its
signature: ``walk(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
strategy_sum, draw)``.  The checker drives it as the reference's iterations do (player 1's walk
then player 2's, each with regret matching on the regrets at the start of its walk), on Kuhn
poker and Leduc poker (:data:`WALK_CHECKS`), with a ``draw(node, probabilities)``
(:class:`NodeDraws`) whose uniform number is fixed per iteration, player and node: a right walk
reproduces the reference's tables exactly, whatever order it tries the actions in.  A walk
that calls the package's own (:func:`answers`) is refused, and one that neither draws nor
changes a table is "not done yet" (a blank body).  A wrong walk is named by how it drew (a
player's action, no chance node, other probabilities) or by the variant of the walk
(:func:`chance_sampling_variant`, :data:`MISTAKES`) that reproduces its tables.  A passing
walk then trains :data:`LONG_ITERATIONS` iterations on Kuhn poker with the compiled solver's
draws (:func:`~cfrviz.reference.mccfr.stream_draws`), and its average must
match ``cfrviz.solve(kuhn, "chance_sampling", ...)``'s exploitability at the same seed.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any

import numpy as np

from ..analysis.evaluation import exploitability
from ..core.policy import Policy
from ..core.regret import average_strategy, regret_matching
from ..core.tree import CHANCE
from ..reference.cfr import walk
from ..reference.mccfr import chance_sampling, chance_sampling_walk, sampled_walk
from ..reference.mccfr import sample as pick
from ..reference.mistakes import CHANCE_SAMPLING
from . import Feedback, correct, wrong
from .coding import DrawError, checked_draw, checks, number, run_student, short_repr
from .diagnosis import Case, diagnose, fallback

#: The games and iterations the walk is compared on, and the seed of the draws.
WALK_CHECKS = (("kuhn_poker", 30), ("leduc_poker", 4))
WALK_SEED = 17
#: The training run after the comparison: Kuhn poker, the compiled solver's draws at SEED.
LONG_ITERATIONS = 2_000
SEED = 0

#: What each recognised wrong walk is told (the variants of :func:`chance_sampling_variant`,
#: then the mistakes read from the draws and the tables).
MISTAKES = {
    "chance-weighted": "Your walk multiplies a reach by chance's probability of the outcome it "
                       "drew. The deal is drawn with exactly that probability, so the sampling "
                       "already counts it: a deal that comes up one time in six is walked in one "
                       "iteration in six. Multiplying as well counts chance twice (on Kuhn "
                       "poker every table shrinks by 1/6; on Leduc the public card's 1/4 or 1/5 "
                       "also changes the strategies). Follow the drawn outcome with the reaches "
                       "unchanged.",
    "unweighted-regret": "Your regrets are added without the opponent's reach. That is right in "
                         "external sampling, which *samples* the opponent's actions; chance "
                         "sampling walks all of them, so, as in CFR, each regret is weighted by "
                         "opponent_reach: regret_sum[info, :k] += opponent_reach * "
                         "(action_values - value).",
    "own-reach-regret": "Your regrets are weighted by the traverser's own reach. A "
                        "counterfactual regret supposes the traverser played to the node: weight "
                        "it by the opponent's reach, opponent_reach * (action_values - value).",
    "flipped-regret": "The regret's sign is flipped: it is action_values - value (what the "
                      "action earns minus what the strategy earns), not value - action_values.",
    "unweighted-average": "Your strategy sums add sigma unweighted. CFR's average weights each "
                          "iteration's strategy by the traverser's own reach of the node: "
                          "strategy_sum[info, :k] += own_reach * sigma.",
    "opponent-reach-average": "Your strategy sums weight sigma by the opponent's reach. The "
                              "average strategy of a player weights by its *own* reach: "
                              "strategy_sum[info, :k] += own_reach * sigma.",
    "reaches-swapped": "At the traverser's nodes you multiply the opponent's reach by sigma[a], "
                       "and at the opponent's the traverser's. The player who moves is the one "
                       "whose reach takes the factor: own_reach * sigma[a] at the traverser's "
                       "nodes, opponent_reach * sigma[a] at the opponent's.",
    "first-player-payoff": "Your walk returns player 1's payoff at the leaves whoever it updates. "
                           "Return tree.utility[node, player], the traverser's payoff.",
    "sampled-player": "Your walk called draw at a node where a player moves. Chance sampling "
                      "samples chance only (the deal) and then walks *every* action of both "
                      "players below it, as CFR does.",
    "vanilla": "Your walk never called draw: it walks every outcome of each chance node, "
               "weighted by chance's probabilities, which is vanilla CFR. Chance sampling draws "
               "one outcome with draw(node, tree.chance_prob[children]) and follows it with the "
               "reaches unchanged.",
    "chance-not-sampled": "Your walk never called draw at a chance node: it walks every outcome "
                          "in some other way, or draws with its own random numbers. Draw one "
                          "outcome with draw(node, tree.chance_prob[children]) and follow it.",
    "no-regret": "Your walk never changed regret_sum. Add the regrets into the table in place, "
                 "regret_sum[info, :k] += ..., at the traverser's nodes.",
    "no-average": "Your walk never changed strategy_sum. At each of the traverser's nodes, add "
                  "its strategy weighted by its own reach: strategy_sum[info, :k] += own_reach "
                  "* sigma.",
}

#: The variants of :func:`chance_sampling_variant` the checker tries, and the mistake each is.
VARIANTS = (
    ("chance-weighted", "chance-opponent"),
    ("chance-weighted", "chance-both"),
    ("unweighted-regret", "unweighted-regret"),
    ("own-reach-regret", "own-reach-regret"),
    ("flipped-regret", "flipped-regret"),
    ("unweighted-average", "unweighted-average"),
    ("opponent-reach-average", "opponent-reach-average"),
    ("reaches-swapped", "reaches-swapped"),
    ("first-player-payoff", "first-player-payoff"),
)

#: A walk that neither draws nor changes a table: the body is still empty (``pass``).
BLANK = ("`my_chance_sampling` returned without calling draw or changing regret_sum or "
         "strategy_sum: its body looks empty. Write the walk, then run this cell again.")

_ROWS = ("`tree.children[node]` is an array of child node ids; `strategy[info]`, "
         "`regret_sum[info]` and `strategy_sum[info]` are rows as wide as the widest set "
         "(3 in Leduc poker, where some sets have 2 actions): slice them with "
         "[:len(children)].")


_HINTS = {
    DrawError: "Call draw at chance nodes only, as draw(node, tree.chance_prob[children]).",
    IndexError: _ROWS,
    ValueError: _ROWS,
    TypeError: "Call the walk as my_chance_sampling(tree, child, player, own_reach, "
               "opponent_reach, strategy, regret_sum, strategy_sum, draw) and draw as "
               "draw(node, probabilities); return a number.",
}


class NodeDraws:
    """The checker's ``draw(node, probabilities)`` for one walk: a fixed uniform per node.

    Each node has its own uniform number, so a walk draws the same outcome at a node whatever
    order it visits the nodes in.  ``log`` keeps, per call, the node and the probabilities.
    """

    def __init__(self, tree, uniforms: np.ndarray):
        self.tree, self.uniforms = tree, uniforms
        self.log: list[tuple[int, np.ndarray]] = []

    def __call__(self, node, probabilities) -> int:
        tree = self.tree
        node, p = checked_draw(tree, node, probabilities)
        self.log.append((node, p))
        return pick(p, float(self.uniforms[node]))


def chance_sampling_variant(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                            strategy_sum, draw, mistake: str | None = None):
    """:func:`~cfrviz.reference.mccfr.chance_sampling_walk` with the steps of ``mistake`` (a
    name of :data:`VARIANTS`' second column; None: the right walk) swapped
    (:data:`cfrviz.reference.mistakes.CHANCE_SAMPLING`); ``"vanilla"`` is vanilla CFR's walk
    (:func:`cfrviz.reference.cfr.walk`), every outcome weighted by chance."""
    if mistake == "vanilla":
        reach = np.ones(3)
        reach[player], reach[1 - player] = own_reach, opponent_reach
        return walk(tree, node, player, reach, strategy, regret_sum, strategy_sum)
    return chance_sampling_walk(tree, node, player, own_reach, opponent_reach, strategy,
                                regret_sum, strategy_sum, draw, CHANCE_SAMPLING[mistake])


@lru_cache(maxsize=4)
def _game(name: str):
    from ..games import load_game

    return load_game(name)


def _uniforms(tree, iterations: int) -> np.ndarray:
    """The draws' uniform numbers, per (iteration, player, node)."""
    return np.random.default_rng(WALK_SEED).random((iterations, 2, tree.num_nodes))


def _train(tree, uniforms, walk) -> list[tuple[np.ndarray, np.ndarray, Any, NodeDraws]]:
    """Tables after each walk of ``walk`` from the root (with
    :func:`~cfrviz.reference.mccfr.chance_sampling_walk`'s arguments), the value it returned,
    and its draws."""
    regret_sum = np.zeros(tree.legal_mask.shape)
    strategy_sum = np.zeros(tree.legal_mask.shape)
    out = []
    for u in uniforms:
        for player in (0, 1):
            strategy = regret_matching(regret_sum, tree.legal_mask)
            draws = NodeDraws(tree, u[player])
            value = walk(tree, 0, player, 1.0, 1.0, strategy, regret_sum, strategy_sum, draws)
            out.append((regret_sum.copy(), strategy_sum.copy(), value, draws))
    return out


def _same(a, b) -> bool:
    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-9))


def _tables_agree(walks, others) -> bool:
    return all(_same(a[0], b[0]) and _same(a[1], b[1]) for a, b in zip(walks, others))


def _value_agrees(got, want) -> bool:
    try:
        return bool(np.isclose(number(got[2]), float(want[2]), rtol=1e-9, atol=1e-9))
    except (TypeError, ValueError):
        return False


class _Stop(Exception):
    """The student's walk failed: carries the verdict out of the training loop."""

    def __init__(self, feedback: Feedback):
        super().__init__(feedback.message)
        self.feedback = feedback


@checks("`my_chance_sampling`", "check_chance_sampling(my_chance_sampling)")
def check_chance_sampling(function) -> Feedback:
    """Lesson 06: ``function(tree, node, player, own_reach, opponent_reach, strategy,
    regret_sum, strategy_sum, draw)`` is chance-sampled CFR's walk.

    Compared walk by walk with :func:`~cfrviz.reference.mccfr.chance_sampling_walk` on
    :data:`WALK_CHECKS` (same draws), then trained for :data:`LONG_ITERATIONS` iterations on
    Kuhn poker with the compiled solver's draws; the average's exploitability must equal
    ``cfrviz.solve(kuhn, "chance_sampling", LONG_ITERATIONS, seed=SEED)``'s.  The walk adds
    into ``regret_sum`` and ``strategy_sum`` in place and must leave ``strategy`` as it was
    (mistake ``"changes its input"``).
    """
    walks = 0
    for name, iterations in WALK_CHECKS:
        tree = _game(name)
        feedback = _check_game(tree, iterations, function)
        if feedback is not None:
            return feedback
        walks += 2 * iterations
    return _check_training(function, walks)


def answers() -> dict:
    """The package's own walks, which a student's walk may not call: the exercise is to write
    one (``forbidden`` of :func:`~cfrviz.exercises.coding.run_student`)."""
    return {chance_sampling_walk: "cfrviz.reference.mccfr.chance_sampling_walk",
            chance_sampling_variant: "cfrviz.exercises.chance_sampling.chance_sampling_variant",
            sampled_walk: "cfrviz.reference.mccfr.sampled_walk"}


def _student_walk(function):
    def walk(*args):
        value, failed = run_student(
            lambda: function(*args), name="`my_chance_sampling`", hints=_HINTS,
            forbidden=answers(), unchanged=[("strategy", args[5])])  # the tables are the walk's
        if failed is not None:
            raise _Stop(failed)
        return value
    return walk


def _check_game(tree, iterations: int, function) -> Feedback | None:
    uniforms = _uniforms(tree, iterations)
    try:
        with np.errstate(all="ignore"):
            mine = _train(tree, uniforms, _student_walk(function))
    except _Stop as stop:
        return stop.feedback
    reference = _train(tree, uniforms, chance_sampling_walk)
    game = tree.name.replace("_", " ")

    def kinds(walk) -> set[int]:
        return {int(tree.player[node]) for node, _ in walk[3].log}

    def wrong_probabilities(walk) -> str | None:
        for node, p in walk[3].log:
            want = tree.chance_prob[tree.children[node]]
            if tree.player[node] == CHANCE and not np.allclose(p, want, atol=1e-9):
                return (f"At the chance node {node} (history {tree.history[node]!r}) your walk "
                        f"drew with probabilities {np.round(p, 4).tolist()}; chance plays "
                        f"{np.round(want, 4).tolist()} (tree.chance_prob[children]).")
        return None

    def variant_of(name):
        def matches(walks) -> bool:
            with np.errstate(all="ignore"):
                return _tables_agree(walks, _train(tree, uniforms, partial(
                    chance_sampling_variant, mistake=name)))
        return matches

    def tables_agree(walks) -> bool:
        return _tables_agree(walks, reference)

    def blank(walks) -> bool:
        return all(not w[3].log for w in walks) and not np.any(walks[-1][0]) \
            and not np.any(walks[-1][1])

    return _passed(diagnose(mine, (
        Case.not_done(blank, BLANK),
        Case("sampled-player", lambda walks: any(kinds(w) & {0, 1} for w in walks),
             MISTAKES["sampled-player"]),
        Case("chance-not-sampled", lambda walks: any(CHANCE not in kinds(w) for w in walks),
             lambda walks: MISTAKES["vanilla" if variant_of("vanilla")(walks)
                                    else "chance-not-sampled"]),
        Case("wrong-probabilities", lambda walks: any(wrong_probabilities(w) for w in walks),
             lambda walks: next(m for w in walks if (m := wrong_probabilities(w)))),
        Case.correct(lambda walks: tables_agree(walks) and all(map(_value_agrees, walks,
                                                                   reference)), "agrees"),
        Case("root-value", tables_agree,
             lambda walks: _root_value_message(game, walks, reference)),
        Case("no-regret", lambda walks: not np.any(walks[-1][0]), MISTAKES["no-regret"]),
        Case("no-average", lambda walks: not np.any(walks[-1][1]), MISTAKES["no-average"]),
        *(Case(mistake, variant_of(name), MISTAKES[mistake]) for mistake, name in VARIANTS),
        fallback(lambda walks: _first_difference(tree, walks, reference)),
    )))


def _passed(feedback: Feedback) -> Feedback | None:
    return None if feedback.correct else feedback


def _root_value_message(game, walks, reference) -> str:
    for w, (got, want) in enumerate(zip(walks, reference)):
        if not _value_agrees(got, want):
            iteration, player = divmod(w, 2)
            return (f"Your tables are right, but in {game} your walk for player {player + 1} in "
                    f"iteration {iteration + 1} returned {short_repr(got[2])} at the root; the "
                    f"value there is {float(want[2]):.4f}. Return the value of every node: the "
                    "payoff at a leaf, the drawn child's value at a chance node, and the "
                    "strategy's value, sum of sigma[a] * action_values[a], at a player's node.")
    return "Your tables are right, but the values your walk returned are not."


def _first_difference(tree, walks, reference) -> str:
    first = next(w for w, (a, b) in enumerate(zip(walks, reference))
                 if not _tables_agree([a], [b]))
    got, want = walks[first], reference[first]
    iteration, player = divmod(first, 2)
    table = 0 if not _same(got[0], want[0]) else 1
    info = int(np.argmax(np.abs(got[table] - want[table]).max(axis=1)))
    what = ("regrets", "strategy sums")[table]
    return (f"In {tree.name.replace('_', ' ')}, after iteration {iteration + 1}'s walk for "
            f"player {player + 1}, your {what} at set {tree.infoset_keys[info]!r} are "
            f"{np.round(got[table][info], 4).tolist()}; the reference has "
            f"{np.round(want[table][info], 4).tolist()}. Compare your walk with CFR's: the "
            "reaches passed to each child, the regret weighted by opponent_reach, the strategy "
            "sum weighted by own_reach, and chance followed with the reaches unchanged.")


def train(function, iterations: int = LONG_ITERATIONS, seed: int = SEED):
    """``function`` (a chance-sampling walk) trained on Kuhn poker with the compiled solver's
    draws at ``seed`` (:func:`~cfrviz.reference.mccfr.chance_sampling` with it as the walk):
    returns ``(regret_sum, strategy_sum)``.

    The walk draws only at the deal, once per walk, so any order of the actions draws what
    ``cfrviz.solve(kuhn, "chance_sampling", iterations, seed=seed)`` draws.
    """
    *_, last = chance_sampling(_game("kuhn_poker"), iterations, np.random.default_rng(seed),
                               walk=function)
    return last["cumulative_regret"], last["strategy_sum"]


def average_exploitability(strategy_sum) -> float:
    """The exploitability of the average strategy a Kuhn-poker ``strategy_sum`` holds."""
    tree = _game("kuhn_poker")
    return exploitability(tree, Policy(tree, average_strategy(strategy_sum, tree.legal_mask)))


def _check_training(function, walks: int) -> Feedback:
    from ..solvers import solve

    tree = _game("kuhn_poker")
    result, failed = run_student(lambda: train(function), name="`my_chance_sampling`",
                                 hints=_HINTS)
    if failed is not None:
        return failed
    mine = average_exploitability(result[1])
    compiled = solve(tree, "chance_sampling", LONG_ITERATIONS, seed=SEED,
                     checkpoints=[LONG_ITERATIONS]).exploitability[-1]
    if not np.isclose(mine, compiled, rtol=1e-6, atol=1e-9):
        return wrong(f"Your walk agrees with the reference on {walks} walks, but trained for "
                     f"{LONG_ITERATIONS:,} iterations on Kuhn poker its average strategy's "
                     f"exploitability is {mine:.5f}, not the {compiled:.5f} of cfrviz.solve "
                     f"(kuhn, 'chance_sampling', {LONG_ITERATIONS}, seed={SEED}), which draws "
                     "the same deals. Does your walk keep state between calls (a global, a "
                     "default argument)?", "training")
    return correct(f"Your walk reproduces the reference's regrets and strategy sums after each "
                   f"of {walks} walks on Kuhn and Leduc poker: one deal drawn per walk, every "
                   "action of both players walked, regrets weighted by the opponent's reach, "
                   "averages by the traverser's own. Trained for "
                   f"{LONG_ITERATIONS:,} iterations on Kuhn poker with the compiled solver's "
                   f"deals, its average is {mine:.5f} from equilibrium (exploitability), "
                   f"exactly cfrviz.solve(kuhn, 'chance_sampling', {LONG_ITERATIONS}, "
                   f"seed={SEED})'s.")
