"""Checkers for lesson 06, Monte Carlo CFR: sample, and stay unbiased.

Exercise 1 asks for importance weights (:func:`check_importance_weights`).
Exercise 2, chance sampling, has its own module
(:mod:`cfrviz.exercises.chance_sampling`).  Exercise 3 is code: the
external-sampling walk with stochastically-weighted averaging
(:func:`check_external_sampling`). Its checker runs the student's walk beside
:func:`cfrviz.reference.mccfr.external_sampling_walk` with the *same* draws:
each node's draw takes a uniform number fixed in advance for that iteration,
player and node, so a right walk reproduces the reference's tables exactly, in
whatever order it tries the actions. A walk that calls the package's own walk
(the reference, :func:`cfrviz.analysis.sampling.external_sampling_variant` or
:func:`cfrviz.reference.mccfr.sampled_walk`) is refused: the exercise is to
write it.  A walk that neither draws nor changes a table is "not done yet".
When the tables differ it names the mistake, from the way the walk drew (its
own actions, no chance, wrong probabilities) or from a wrong version of the
walk (:func:`cfrviz.reference.mistakes.external_sampling`) that
reproduces every table.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.regret import regret_matching
from ..core.tree import CHANCE
from ..reference import mistakes
from ..reference.mccfr import external_sampling_walk, sampled_walk
from ..reference.mccfr import sample as pick
from . import Feedback, correct, not_done, unanswered, wrong
from .coding import checked_draw, checks, number, run_student, short_repr
from .diagnosis import Case, close_to, diagnose, fallback

#: Exercise 1: chance deals J, Q, K with probability 1/3 each; the sampler draws them with Q.
DEAL_P = np.array([1 / 3, 1 / 3, 1 / 3])
SAMPLER_Q = np.array([1 / 2, 1 / 4, 1 / 4])


def check_importance_weights(answer) -> Feedback:
    """Exercise 1: the weights w that make w(c) * v(c), with c drawn from Q, unbiased.

    Chance deals J, Q, K with probability p = 1/3 each, but the sampler draws
    them with q = (1/2, 1/4, 1/4).  The estimate is w(c) v(c) for the drawn
    card c; it is unbiased for every v exactly when w(c) = p(c) / q(c),
    i.e. (2/3, 4/3, 4/3).
    """
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
    "wrong-probabilities": "",  # filled in with the node and the numbers
    "root-value": "",  # filled in with the values
    "no-regret": "Your walk never changed regret_sum. Add the regrets into the table in place, "
                 "regret_sum[info, :k] += ..., at the traverser's nodes.",
    "no-average": "Your walk never changed strategy_sum. At each opponent node it reaches, add "
                  "the opponent's current strategy in place: strategy_sum[info, :k] += sigma.",
}


def walk_answers() -> dict:
    """The package's own walks, which a student's walk may not call: the exercise is to write
    one (``forbidden`` of :func:`~cfrviz.exercises.coding.run_student`)."""
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




class _Draws:
    """The checker's ``draw(node, probabilities)`` for one walk: fixed uniforms, and a log.

    Each node has its own uniform number, so a walk draws the same outcome at
    a node whatever order it visits the nodes in.  The log keeps, per call,
    the node and the probabilities, and where they are not what the node
    should draw from (``expected`` gives that: chance's probabilities, or the
    live current strategy of the opponent).
    """

    def __init__(self, tree, uniforms, regret_sum, player, check: bool):
        self.tree, self.uniforms, self.regret_sum = tree, uniforms, regret_sum
        self.player, self.check = player, check
        self.log: list[tuple[int, np.ndarray]] = []
        self.wrong: tuple | None = None

    def __call__(self, node, probabilities):
        tree = self.tree
        node, p = checked_draw(tree, node, probabilities)
        self.log.append((node, p))
        if self.check and self.wrong is None:
            want = self.expected(node)
            if tree.player[node] != self.player and not np.allclose(p, want, atol=1e-9):
                self.wrong = (node, p, want)
        return pick(p, float(self.uniforms[node]))

    def expected(self, node: int) -> np.ndarray:
        tree = self.tree
        children = tree.children[node]
        if tree.player[node] == CHANCE:
            return tree.chance_prob[children]
        info = tree.infoset[node]
        return regret_matching(self.regret_sum[info], tree.legal_mask[info])[:len(children)]




@lru_cache(maxsize=4)
def _walk_game(name: str):
    from ..games import load_game

    return load_game(name)


def _uniforms(tree, iterations: int) -> np.ndarray:
    """The draws' uniform numbers, per (iteration, player, node)."""
    return np.random.default_rng(WALK_SEED).random((iterations, 2, tree.num_nodes))


def _snapshots(tree, uniforms, walk) -> list[tuple[np.ndarray, np.ndarray, object]]:
    """Tables after each walk of ``walk(player, regret_sum, strategy_sum, draw)``, and the value
    it returned."""
    regret_sum = np.zeros(tree.legal_mask.shape)
    strategy_sum = np.zeros(tree.legal_mask.shape)
    out = []
    for u in uniforms:
        for player in (0, 1):
            draws = _Draws(tree, u[player], regret_sum, player, check=False)
            value = walk(player, regret_sum, strategy_sum, draws)
            out.append((regret_sum.copy(), strategy_sum.copy(), value))
    return out


def _same(a, b) -> bool:
    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-9))


@checks("`my_external_sampling`")
def check_external_sampling(function) -> Feedback:
    """Exercise 2: ``function(tree, node, player, regret_sum, strategy_sum, draw)`` is external
    sampling with stochastically-weighted averaging.

    The checker calls it for player 1 then player 2, iteration after
    iteration, on Kuhn poker and then Leduc poker (:data:`WALK_CHECKS`), with
    tables it owns and a ``draw`` whose uniform number is fixed per node, and
    compares both tables after every walk with those of
    :func:`~cfrviz.reference.mccfr.external_sampling_walk` run on the same
    draws.  Every call goes through :func:`~cfrviz.exercises.coding.run_student`.
    """
    if unanswered(function):
        return not_done("Write `my_external_sampling`, then run this cell again.")
    if not callable(function):
        return wrong(f"Pass the function itself, check_external_sampling(my_external_sampling); "
                     f"got {short_repr(function)}.", "not-callable")
    walks = 0
    for name, iterations in WALK_CHECKS:
        tree = _walk_game(name)
        feedback, done = _check_walk(tree, iterations, function)
        if feedback is not None:
            return feedback
        walks += done
    return correct(f"Your walk reproduces the reference's regrets and strategy sums after each "
                   f"of {walks} walks on Kuhn and Leduc poker, drawing exactly where external "
                   "sampling draws: every action of the traverser tried, one outcome of chance "
                   "and one action of the opponent sampled, regrets added without any weight, "
                   "and the opponent's current strategy added to its average where it is "
                   "sampled.")


def _check_walk(tree, iterations: int, function) -> tuple[Feedback | None, int]:
    uniforms = _uniforms(tree, iterations)
    regret_sum = np.zeros(tree.legal_mask.shape)
    strategy_sum = np.zeros(tree.legal_mask.shape)
    answers = walk_answers()
    mine = []
    for u in uniforms:
        for player in (0, 1):
            draws = _Draws(tree, u[player], regret_sum, player, check=True)
            before = (regret_sum.copy(), strategy_sum.copy())
            value, feedback = run_student(
                lambda player=player, draws=draws: function(tree, 0, player, regret_sum,
                                                            strategy_sum, draws),
                name="`my_external_sampling`", hints=_WALK_HINTS, forbidden=answers)
            if feedback is not None:
                return feedback, 0
            if not draws.log and _same(before[0], regret_sum) and _same(before[1], strategy_sum):
                return not_done(BLANK), 0
            feedback = _drawing_mistake(tree, draws, player)
            if feedback is not None:
                return feedback, 0
            mine.append((regret_sum.copy(), strategy_sum.copy(), value))
    reference = _snapshots(tree, uniforms, lambda player, r, s, draw: external_sampling_walk(
        tree, 0, player, r, s, draw))
    first_bad = next((w for w, (got, want) in enumerate(zip(mine, reference))
                      if not (_same(got[0], want[0]) and _same(got[1], want[1]))), None)
    if first_bad is None:
        return _check_values(tree, mine, reference), len(mine)
    return _explain_walk(tree, uniforms, mine, reference, first_bad), 0


def _check_values(tree, mine, reference) -> Feedback | None:
    """The tables agree: the value each walk returned at the root must agree too."""
    for w, (got, want) in enumerate(zip(mine, reference)):
        try:
            ok = bool(np.isclose(number(got[2]), float(want[2]), rtol=1e-9, atol=1e-9))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            iteration, player = divmod(w, 2)
            return wrong(f"Your tables are right, but in {tree.name.replace('_', ' ')} your walk "
                         f"for player {player + 1} in iteration {iteration + 1} returned "
                         f"{short_repr(got[2])} at the root; the sampled value there is "
                         f"{float(want[2]):.4f}. Return the value of every node: the payoff at "
                         "a terminal, the value of the followed child at chance's and the "
                         "opponent's nodes, and the strategy's value at the traverser's.",
                         "root-value")
    return None


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


def _explain_walk(tree, uniforms, mine, reference, first_bad: int) -> Feedback:
    last_regret, last_sums, _ = mine[-1]
    if not np.any(last_regret):
        return wrong(WALK_MISTAKES["no-regret"], "no-regret")
    if not np.any(last_sums):
        return wrong(WALK_MISTAKES["no-average"], "no-average")
    for mistake, weight, rule in WALK_VARIANTS:
        def variant(player, r, s, draw, weight=weight, rule=rule):
            mistakes.external_sampling(tree, player, r, s, draw, regret=weight, average=rule)
        with np.errstate(all="ignore"):
            theirs = _snapshots(tree, uniforms, variant)
        if all(_same(a[0], b[0]) and _same(a[1], b[1]) for a, b in zip(mine, theirs)):
            return wrong(WALK_MISTAKES[mistake], mistake)
    got, want = mine[first_bad], reference[first_bad]
    iteration, player = divmod(first_bad, 2)
    table = 0 if not _same(got[0], want[0]) else 1
    diff = np.abs(got[table] - want[table]).max(axis=1)
    info = int(np.argmax(diff))
    what = ("regrets", "strategy sums")[table]
    return wrong(f"In {tree.name.replace('_', ' ')}, after iteration {iteration + 1}'s walk for "
                 f"player {player + 1}, your {what} at set {tree.infoset_keys[info]!r} are "
                 f"{np.round(got[table][info], 4).tolist()}; the reference has "
                 f"{np.round(want[table][info], 4).tolist()}. Compare your walk with the "
                 "pseudocode line by line: the value returned at each kind of node, the regret "
                 "at the traverser's nodes, the average at the opponent's.")
