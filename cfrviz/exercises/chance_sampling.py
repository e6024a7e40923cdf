"""Checker for lesson 06's chance-sampled CFR walk, and the harness both of lesson 06's walk
checkers share (the external-sampling one is :mod:`.lesson06`'s).

The student writes :func:`cfrviz.reference.mccfr.chance_sampling_walk`, with its signature.  The
checker drives it as the reference's iterations do (player 1's walk then player 2's, each with
regret matching on the regrets at the start of its walk) on :data:`WALK_CHECKS`, with a
``draw(node, probabilities)`` (:class:`NodeDraws`) whose uniform number is fixed per iteration,
player and node, so a right walk reproduces the reference's tables exactly in any action order.
A wrong walk is named by how it drew or by the variant (:data:`VARIANTS`, steps of the walk
swapped in :data:`cfrviz.reference.mistakes.CHANCE_SAMPLING`) that reproduces its tables.  A
passing walk then trains :data:`LONG_ITERATIONS` iterations on Kuhn poker with the compiled
solver's draws; its exploitability must equal ``cfrviz.solve(kuhn, "chance_sampling", ...)``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any

import numpy as np

from ..analysis.evaluation import exploitability
from ..core.policy import Policy
from ..core.regret import average_strategy, regret_matching
from ..core.tree import CHANCE
from ..games import load_game
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


# --- the harness of lesson 06's two walk checkers -------------------------------------------

class NodeDraws:
    """The checker's ``draw(node, probabilities)`` for one walk: a fixed uniform per node, so
    a walk draws the same outcome at a node whatever order it visits the nodes in.  ``log``
    keeps, per call, the node and the probabilities."""

    def __init__(self, tree, uniforms: np.ndarray):
        self.tree, self.uniforms = tree, uniforms
        self.log: list[tuple[int, np.ndarray]] = []

    def __call__(self, node, probabilities) -> int:
        node, p = checked_draw(self.tree, node, probabilities)
        self.log.append((node, p))
        return pick(p, float(self.uniforms[node]))


#: One walk's result: the tables after it, the value it returned, and its draws.
Walk = tuple[np.ndarray, np.ndarray, Any, Any]


@lru_cache(maxsize=4)
def game(name: str):
    """The game ``name``, loaded once."""
    return load_game(name)


def fixed_uniforms(tree, iterations: int, seed: int) -> np.ndarray:
    """The draws' uniform numbers, per (iteration, player, node)."""
    return np.random.default_rng(seed).random((iterations, 2, tree.num_nodes))


def snapshots(tree, uniforms: np.ndarray, walk: Callable, draws: Callable | None = None
              ) -> list[Walk]:
    """``walk(player, regret_sum, strategy_sum, draw)`` for player 1 then player 2 each
    iteration, from zero tables; ``draw`` is ``draws(uniforms[iteration, player], regret_sum,
    player)``, by default a :class:`NodeDraws`."""
    regret_sum = np.zeros(tree.legal_mask.shape)
    strategy_sum = np.zeros(tree.legal_mask.shape)
    out = []
    for u in uniforms:
        for player in (0, 1):
            draw = NodeDraws(tree, u[player]) if draws is None else \
                draws(u[player], regret_sum, player)
            value = walk(player, regret_sum, strategy_sum, draw)
            out.append((regret_sum.copy(), strategy_sum.copy(), value, draw))
    return out


class Stop(Exception):
    """The student's walk failed: carries the verdict out of :func:`snapshots`."""

    def __init__(self, feedback: Feedback):
        super().__init__(feedback.message)
        self.feedback = feedback


def same(a, b) -> bool:
    """Two tables equal to 1e-9."""
    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-9))


def _tables_agree(walks: Sequence[Walk], others: Sequence[Walk]) -> bool:
    return all(same(a[0], b[0]) and same(a[1], b[1]) for a, b in zip(walks, others))


def _value_agrees(got: Walk, want: Walk) -> bool:
    try:
        return bool(np.isclose(number(got[2]), float(want[2]), rtol=1e-9, atol=1e-9))
    except (TypeError, ValueError):
        return False


def walk_cases(tree, reference: Sequence[Walk], messages: dict[str, str],
               variants: Sequence[tuple[str, Callable[[], list[Walk]]]], *, value: str,
               returns: str, compare: str) -> tuple[Case, ...]:
    """The rows of a walk checker after its own: right (tables and root values), "root-value"
    (``value`` is what the root's value is called, ``returns`` what to return), "no-regret"
    and "no-average" (``messages``), a wrong walk whose snapshots (computed only when tried)
    are the student's, and the first table that differs (then the sentence ``compare``)."""
    shown = tree.name.replace("_", " ")

    def first(walks, agree) -> tuple[int, int, Walk, Walk]:  # iteration, player, got, want
        w = next(w for w, pair in enumerate(zip(walks, reference)) if not agree(*pair))
        return (*divmod(w, 2), walks[w], reference[w])

    def root_value(walks) -> str:
        iteration, player, got, want = first(walks, _value_agrees)
        return (f"Your tables are right, but in {shown} your walk for player {player + 1} in "
                f"iteration {iteration + 1} returned {short_repr(got[2])} at the root; the "
                f"{value} there is {float(want[2]):.4f}. {returns}")

    def first_difference(walks) -> str:
        iteration, player, got, want = first(walks, lambda a, b: _tables_agree([a], [b]))
        table = 0 if not same(got[0], want[0]) else 1
        info = int(np.argmax(np.abs(got[table] - want[table]).max(axis=1)))
        return (f"In {shown}, after iteration {iteration + 1}'s walk for player {player + 1}, "
                f"your {('regrets', 'strategy sums')[table]} at set "
                f"{tree.infoset_keys[info]!r} are {np.round(got[table][info], 4).tolist()}; "
                f"the reference has {np.round(want[table][info], 4).tolist()}. {compare}")

    def reproduced_by(run: Callable[[], list[Walk]]) -> Callable[[list[Walk]], bool]:
        def matches(walks) -> bool:
            with np.errstate(all="ignore"):
                return _tables_agree(walks, run())
        return matches

    return (
        Case.correct(lambda walks: _tables_agree(walks, reference)
                     and all(map(_value_agrees, walks, reference)), "agrees"),
        Case("root-value", lambda walks: _tables_agree(walks, reference), root_value),
        Case("no-regret", lambda walks: not np.any(walks[-1][0]), messages["no-regret"]),
        Case("no-average", lambda walks: not np.any(walks[-1][1]), messages["no-average"]),
        *(Case(mistake, reproduced_by(run), messages[mistake]) for mistake, run in variants),
        fallback(first_difference),
    )


# --- the chance-sampling checker ------------------------------------------------------------

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


def _train(tree, uniforms: np.ndarray, walk: Callable) -> list[Walk]:
    """:func:`snapshots` of ``walk``, a walk with :func:`chance_sampling_walk`'s arguments,
    from the root, with regret matching on the regrets at the start of each walk."""
    return snapshots(tree, uniforms, lambda player, regret_sum, strategy_sum, draw: walk(
        tree, 0, player, 1.0, 1.0, regret_matching(regret_sum, tree.legal_mask), regret_sum,
        strategy_sum, draw))


@checks("`my_chance_sampling`", "check_chance_sampling(my_chance_sampling)")
def check_chance_sampling(function) -> Feedback:
    """Lesson 06: ``function(tree, node, player, own_reach, opponent_reach, strategy,
    regret_sum, strategy_sum, draw)`` is chance-sampled CFR's walk, compared walk by walk on
    :data:`WALK_CHECKS`, then trained (:func:`_check_training`).  It adds into the tables in
    place and must leave ``strategy`` as it was (mistake ``"changes its input"``)."""
    walks = 0
    for name, iterations in WALK_CHECKS:
        feedback = _check_game(game(name), iterations, function)
        if feedback is not None:
            return feedback
        walks += 2 * iterations
    return _check_training(function, walks)


def answers() -> dict:
    """The package's own walks, which a student's walk may not call (``forbidden`` of
    :func:`~cfrviz.exercises.coding.run_student`)."""
    return {chance_sampling_walk: "cfrviz.reference.mccfr.chance_sampling_walk",
            chance_sampling_variant: "cfrviz.exercises.chance_sampling.chance_sampling_variant",
            sampled_walk: "cfrviz.reference.mccfr.sampled_walk"}


def _student_walk(function):
    def walk(*args):
        value, failed = run_student(
            lambda: function(*args), name="`my_chance_sampling`", hints=_HINTS,
            forbidden=answers(), unchanged=[("strategy", args[5])])  # the tables are the walk's
        if failed is not None:
            raise Stop(failed)
        return value
    return walk


def _check_game(tree, iterations: int, function) -> Feedback | None:
    draws = fixed_uniforms(tree, iterations, WALK_SEED)
    try:
        with np.errstate(all="ignore"):
            mine = _train(tree, draws, _student_walk(function))
    except Stop as stop:
        return stop.feedback
    reference = _train(tree, draws, chance_sampling_walk)

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

    def variant(name):
        return lambda: _train(tree, draws, partial(chance_sampling_variant, mistake=name))

    def vanilla(walks) -> bool:
        with np.errstate(all="ignore"):
            return _tables_agree(walks, variant("vanilla")())

    def blank(walks) -> bool:
        return all(not w[3].log for w in walks) and not np.any(walks[-1][0]) \
            and not np.any(walks[-1][1])

    feedback = diagnose(mine, (
        Case.not_done(blank, BLANK),
        Case("sampled-player", lambda walks: any(kinds(w) & {0, 1} for w in walks),
             MISTAKES["sampled-player"]),
        Case("chance-not-sampled", lambda walks: any(CHANCE not in kinds(w) for w in walks),
             lambda walks: MISTAKES["vanilla" if vanilla(walks) else "chance-not-sampled"]),
        Case("wrong-probabilities", lambda walks: any(wrong_probabilities(w) for w in walks),
             lambda walks: next(m for w in walks if (m := wrong_probabilities(w)))),
        *walk_cases(tree, reference, MISTAKES,
                    [(mistake, variant(name)) for mistake, name in VARIANTS],
                    value="value", returns="Return the value of every node: the payoff at a "
                    "leaf, the drawn child's value at a chance node, and the strategy's value, "
                    "sum of sigma[a] * action_values[a], at a player's node.",
                    compare="Compare your walk with CFR's: the reaches passed to each child, "
                    "the regret weighted by opponent_reach, the strategy sum weighted by "
                    "own_reach, and chance followed with the reaches unchanged."),
    ))
    return None if feedback.correct else feedback


def train(function, iterations: int = LONG_ITERATIONS, seed: int = SEED):
    """``function`` (a chance-sampling walk) trained on Kuhn poker with the compiled solver's
    draws at ``seed`` (:func:`~cfrviz.reference.mccfr.chance_sampling` with it as the walk):
    ``(regret_sum, strategy_sum)``.  It draws only at the deal, once per walk, so in any action
    order it draws what ``cfrviz.solve(kuhn, "chance_sampling", iterations, seed=seed)`` does.
    """
    *_, last = chance_sampling(game("kuhn_poker"), iterations, np.random.default_rng(seed),
                               walk=function)
    return last["cumulative_regret"], last["strategy_sum"]


def average_exploitability(strategy_sum) -> float:
    """The exploitability of the average strategy a Kuhn-poker ``strategy_sum`` holds."""
    tree = game("kuhn_poker")
    return exploitability(tree, Policy(tree, average_strategy(strategy_sum, tree.legal_mask)))


def _check_training(function, walks: int) -> Feedback:
    """:func:`train` must reach the exploitability of ``cfrviz.solve`` at the same seed."""
    from ..solvers import solve

    result, failed = run_student(lambda: train(function), name="`my_chance_sampling`",
                                 hints=_HINTS)
    if failed is not None:
        return failed
    mine = average_exploitability(result[1])
    compiled = solve(game("kuhn_poker"), "chance_sampling", LONG_ITERATIONS, seed=SEED,
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
