"""Checkers for lesson 06, Monte Carlo CFR: sample, and stay unbiased.

Exercise 1: importance weights (:func:`check_importance_weights`).  Exercise 2, chance sampling,
is :mod:`.chance_sampling`'s.  Exercise 3: the external-sampling walk with stochastically-weighted
averaging (:func:`check_external_sampling`), run beside
:func:`cfrviz.reference.mccfr.external_sampling_walk` on the same fixed draws by the harness of
:mod:`.chance_sampling`; a wrong walk is named by how it drew or by the wrong version
(:data:`WALK_VARIANTS`, :func:`cfrviz.reference.mistakes.external_sampling`) that reproduces
every table.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..core.regret import regret_matching
from ..core.tree import CHANCE
from ..reference import mistakes
from ..reference.mccfr import external_sampling_walk, sampled_walk
from . import Feedback, correct, not_done, unanswered, wrong
from .chance_sampling import NodeDraws, Stop, fixed_uniforms, game, same, snapshots, walk_cases
from .coding import checks, run_student
from .diagnosis import Case, close_to, diagnose, fallback

#: Exercise 1: chance deals J, Q, K with probability 1/3 each; the sampler draws them with Q.
DEAL_P = np.array([1 / 3, 1 / 3, 1 / 3])
SAMPLER_Q = np.array([1 / 2, 1 / 4, 1 / 4])


def check_importance_weights(answer) -> Feedback:
    """Exercise 1: the weights that make w(c) v(c), c drawn from :data:`SAMPLER_Q`, unbiased
    for every v: w = p / q = (2/3, 4/3, 4/3), with p = :data:`DEAL_P`."""
    try:
        w = np.array(answer, dtype=float)
    except (TypeError, ValueError):
        w = None
    right = DEAL_P / SAMPLER_Q
    return diagnose(w, (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_weights` to three numbers: the weight for a drawn J, Q and K."),
        Case("shape", lambda w: w is None or w.shape != (3,) or not np.all(np.isfinite(w)),
             f"Expected three numbers (weights for J, Q, K); got {answer!r}."),
        Case.correct(close_to(right, atol=1e-3),
                     "Yes: w = p / q = (2/3, 4/3, 4/3). The often-drawn jack is scaled down, the "
                     "rarely-drawn queen and king up, so that on average Σ q(c) · w(c) · v(c) = "
                     "Σ p(c) · v(c): the exact expected value, whatever v is. This is the "
                     "division by the sampling probability in every Monte Carlo CFR update."),
        Case("no-correction", close_to(1.0),
             "With no correction the estimate averages to ½v(J) + ¼v(Q) + ¼v(K), not ⅓ of "
             "each: the jack, drawn more often than it is dealt, counts too much. Divide by how "
             "likely the sampler was to draw the card."),
        Case("inverted", close_to(SAMPLER_Q / DEAL_P, atol=1e-3),
             "Upside down: that is q / p, which makes the frequent jack count even more. A card "
             "the sampler draws often must be scaled down."),
        Case("one-over-q", close_to(1 / SAMPLER_Q, atol=1e-3),
             lambda w: "Dividing by q is half of it: the true expectation also weighs each card "
                       "by its chance probability p = 1/3. With 1/q the estimate averages to "
                       f"{float(np.sum(SAMPLER_Q * w * 1.0)):g} times the right value when "
                       "every v is 1."),
        Case("only-p", close_to(DEAL_P, atol=1e-3),
             "Multiplying by p alone keeps the sampler's bias: the estimate would average "
             "Σ q(c) p(c) v(c). Divide by q as well."),
        fallback("Not quite. Write the expectation of the estimate, Σ_c q(c) w(c) v(c), and "
                 "choose w so that it equals Σ_c p(c) v(c) for every v."),
    ))


# --- exercise 3: the external-sampling walk, as code ----------------------------------------

#: The games and iterations the walk is checked on, and the seed of the draws.
WALK_CHECKS = (("kuhn_poker", 40), ("leduc_poker", 3))
WALK_SEED = 6

#: Wrong walks the checker recognises: (mistake, regret weight, averaging rule) of
#: :func:`cfrviz.reference.mistakes.external_sampling`.
WALK_VARIANTS = (
    ("one-over-q", "one-over-q", "opponent"),
    ("reach-weighted-regret", "reach", "opponent"),
    ("flipped-regret", "flipped", "opponent"),
    ("own-nodes", "none", "own"),
    ("own-reach-average", "none", "own-reach"),
    ("reach-weighted-average", "none", "opponent-reach"),
)

WALK_MISTAKES = {
    "one-over-q": "Your regrets carry an explicit 1/q weight, one over the probability of "
                  "sampling the node. External sampling needs none: a history is sampled with "
                  "probability q = chance's reach times the opponent's, which is exactly the "
                  "weight the counterfactual regret gives it. The sampling already weighs each "
                  "history; dividing by q cancels that weighing and counts a rare history as "
                  "much as a likely one. Add action_values - value as it is.",
    "reach-weighted-regret": "Your regrets are multiplied by chance's and the opponent's reach, "
                             "as in vanilla CFR. In external sampling the sampling supplies that "
                             "weight (a history is reached as often as that reach), so "
                             "multiplying again counts it twice. Add action_values - value "
                             "unweighted.",
    "flipped-regret": "The regret's sign is flipped: it is action_values - value (what the "
                      "action earns minus what the strategy earns), not value - action_values.",
    "own-nodes": "You add to the strategy sums at the traverser's own nodes. External sampling "
                 "visits those in proportion to chance's and the *opponent's* reach, not the "
                 "player's own, so that average weighs the wrong iterations. Add the current "
                 "strategy at the *opponent's* nodes, where the walk samples an action: they "
                 "are reached in proportion to the opponent's own reach, the weight its average "
                 "needs.",
    "own-reach-average": "You add the traverser's strategy times its own reach at its own nodes, "
                         "vanilla CFR's rule. Here those nodes are also visited in proportion "
                         "to the opponent's reach, so each iteration's weight carries an extra "
                         "factor that changes from iteration to iteration. Add the opponent's "
                         "current strategy at the opponent's sampled nodes instead, unweighted.",
    "reach-weighted-average": "You weight the opponent's strategy by its reach. The walk "
                              "already reaches an opponent node in proportion to that reach "
                              "(it samples the opponent's actions), so the weight is counted "
                              "twice. Add the current strategy unweighted: that is "
                              "stochastically-weighted averaging.",
    "sampled-own": "Your walk drew one of the traverser's own actions. External sampling tries "
                   "*every* action of the player it updates (it needs each action's value for "
                   "the regrets) and samples only chance and the opponent.",
    "chance-not-sampled": "Your walk never called draw at a chance node: it either walks every "
                          "outcome or draws them with its own random numbers. Draw one outcome "
                          "with draw(node, tree.chance_prob[children]) and follow it.",
    "opponent-not-sampled": "Your walk never called draw at an opponent's node: it walks every "
                            "action of the opponent (or draws with its own random numbers). "
                            "Draw one action from the opponent's current strategy with "
                            "draw(node, sigma) and follow it.",
    "no-regret": "Your walk never changed regret_sum. Add the regrets into the table in place, "
                 "regret_sum[info, :k] += ..., at the traverser's nodes.",
    "no-average": "Your walk never changed strategy_sum. At each opponent node it reaches, add "
                  "the opponent's current strategy in place: strategy_sum[info, :k] += sigma.",
}


def walk_answers() -> dict:
    """The package's own walks, which a student's walk may not call (``forbidden`` of
    :func:`~cfrviz.exercises.coding.run_student`)."""
    from ..analysis.sampling import external_sampling_variant

    return {external_sampling_walk: "cfrviz.reference.mccfr.external_sampling_walk",
            external_sampling_variant: "cfrviz.analysis.sampling.external_sampling_variant",
            mistakes.external_sampling: "cfrviz.reference.mistakes.external_sampling",
            sampled_walk: "cfrviz.reference.mccfr.sampled_walk"}


#: A walk that neither draws nor changes a table: the body is still empty (``pass``).
BLANK = ("`my_external_sampling` returned without calling draw or changing regret_sum or "
         "strategy_sum: its body looks empty. Write the walk, then run this cell again.")

_WALK_HINTS = {
    IndexError: "`tree.children[node]` is an array of child node ids; `regret_sum[info]` and "
                "`strategy_sum[info]` are rows as wide as the widest set: slice them with "
                "[:len(children)].",
    TypeError: "Call the walk as my_external_sampling(tree, child, player, regret_sum, "
               "strategy_sum, draw) and draw as draw(node, probabilities); return a number.",
}


class _Draws(NodeDraws):
    """:class:`~cfrviz.exercises.chance_sampling.NodeDraws` that also keeps, in ``wrong``, the
    first draw not from what the node should draw from (:meth:`expected`: chance's
    probabilities, or the opponent's live current strategy)."""

    def __init__(self, tree, uniforms, regret_sum, player):
        super().__init__(tree, uniforms)
        self.regret_sum, self.player = regret_sum, player
        self.wrong: tuple | None = None

    def __call__(self, node, probabilities) -> int:
        index = super().__call__(node, probabilities)
        node, p = self.log[-1]
        if self.wrong is None and self.tree.player[node] != self.player:
            want = self.expected(node)
            if not np.allclose(p, want, atol=1e-9):
                self.wrong = (node, p, want)
        return index

    def expected(self, node: int) -> np.ndarray:
        tree = self.tree
        children = tree.children[node]
        if tree.player[node] == CHANCE:
            return tree.chance_prob[children]
        info = tree.infoset[node]
        return regret_matching(self.regret_sum[info], tree.legal_mask[info])[:len(children)]


def _snapshots(tree, uniforms, walk) -> list:
    """:func:`~cfrviz.exercises.chance_sampling.snapshots` with this checker's draws."""
    return snapshots(tree, uniforms, walk, partial(_Draws, tree))


@checks("`my_external_sampling`", "check_external_sampling(my_external_sampling)")
def check_external_sampling(function) -> Feedback:
    """Exercise 3: ``function(tree, node, player, regret_sum, strategy_sum, draw)`` is external
    sampling with stochastically-weighted averaging, called for player 1 then player 2 on
    :data:`WALK_CHECKS` with tables the checker owns; both tables after every walk must equal
    :func:`~cfrviz.reference.mccfr.external_sampling_walk`'s on the same draws."""
    walks = 0
    for name, iterations in WALK_CHECKS:
        feedback = _check_walk(game(name), iterations, function)
        if feedback is not None:
            return feedback
        walks += 2 * iterations
    return correct(f"Your walk reproduces the reference's regrets and strategy sums after each "
                   f"of {walks} walks on Kuhn and Leduc poker, drawing exactly where external "
                   "sampling draws: every action of the traverser tried, one outcome of chance "
                   "and one action of the opponent sampled, regrets added without any weight, "
                   "and the opponent's current strategy added to its average where it is "
                   "sampled.")


def _check_walk(tree, iterations: int, function) -> Feedback | None:
    draws = fixed_uniforms(tree, iterations, WALK_SEED)
    answers = walk_answers()

    def student(player, regret_sum, strategy_sum, draw):
        before = (regret_sum.copy(), strategy_sum.copy())
        value, failed = run_student(
            lambda: function(tree, 0, player, regret_sum, strategy_sum, draw),
            name="`my_external_sampling`", hints=_WALK_HINTS, forbidden=answers)
        if failed is None and not draw.log and same(before[0], regret_sum) \
                and same(before[1], strategy_sum):
            failed = not_done(BLANK)
        if failed is None:
            failed = _drawing_mistake(tree, draw, player)
        if failed is not None:
            raise Stop(failed)
        return value

    def variant(regret: str, average: str):
        return lambda: _snapshots(tree, draws, partial(mistakes.external_sampling, tree,
                                                       regret=regret, average=average))

    try:
        mine = _snapshots(tree, draws, student)
    except Stop as stop:
        return stop.feedback
    reference = _snapshots(tree, draws, partial(external_sampling_walk, tree, 0))
    feedback = diagnose(mine, walk_cases(
        tree, reference, WALK_MISTAKES,
        [(mistake, variant(regret, average)) for mistake, regret, average in WALK_VARIANTS],
        value="sampled value", returns="Return the value of every node: the payoff at a "
        "terminal, the value of the followed child at chance's and the opponent's nodes, and "
        "the strategy's value at the traverser's.", compare="Compare your walk with the "
        "pseudocode line by line: the value returned at each kind of node, the regret at the "
        "traverser's nodes, the average at the opponent's."))
    return None if feedback.correct else feedback


def _drawing_mistake(tree, draws: _Draws, player: int) -> Feedback | None:
    kinds = [int(tree.player[node]) for node, _ in draws.log]
    if player in kinds:
        return wrong(WALK_MISTAKES["sampled-own"], "sampled-own")
    if CHANCE not in kinds:
        return wrong(WALK_MISTAKES["chance-not-sampled"], "chance-not-sampled")
    if 1 - player not in kinds:
        return wrong(WALK_MISTAKES["opponent-not-sampled"], "opponent-not-sampled")
    if draws.wrong is not None:
        node, got, want = draws.wrong
        where = "chance's probabilities" if tree.player[node] == CHANCE else (
            "the opponent's current strategy (regret matching on its regrets, "
            "regret_matching(regret_sum[info], tree.legal_mask[info]))")
        return wrong(f"At node {node} (history {tree.history[node]!r}) your walk drew with "
                     f"probabilities {np.round(got, 4).tolist()}; it should draw from {where}: "
                     f"{np.round(want, 4).tolist()}.", "wrong-probabilities")
    return None


def divides_by_q(tree, player: int, regret_sum, strategy_sum, draw) -> None:
    """External sampling's walk for ``player`` from the root with each regret divided by q, the
    probability of sampling its node: the wrong weight lesson 06's section 7 compares with CFR
    (a ``walk`` for :func:`cfrviz.analysis.sampling.expected_update`)."""
    mistakes.external_sampling(tree, player, regret_sum, strategy_sum, draw,
                               regret="one-over-q")
