"""Checkers for lesson 03, counterfactual regret.

Exercise 1: the counterfactual values of one Kuhn set by hand.  Exercise 2: a function that
computes them for any set, strategy and tree, run on Kuhn and Leduc poker beside
:func:`cf_variants` (the right values and each wrong weighting of :data:`CF_MISTAKES`).
Exercise 3: CFR's regret update as a function, run as the ``update`` of the reference's
:func:`~cfrviz.reference.vanilla_cfr` beside the unchanged one; a wrong update is named by
the rule of :data:`~cfrviz.reference.updates.REGRET_UPDATES` that reproduces every call.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable

import numpy as np

from ..reference.cfr import counterfactual_regret, vanilla_cfr
from ..reference.evaluation import reach_probabilities
from ..reference.updates import REGRET_UPDATES
from ..solvers.subtrees import node_values
from . import Feedback, as_number, correct, unanswered, wrong
from .coding import checks, floats, per_action, run_student
from .diagnosis import Case, close_to, diagnose, fallback, screen

#: Exercise 1: player 1 bets K always, J one time in three, Q never (other sets uniform).
BLUFF_POLICY = {"J": {"p": 2 / 3, "b": 1 / 3}, "Q": {"p": 1.0, "b": 0.0},
                "K": {"p": 0.0, "b": 1.0}}
#: ...and player 2 holds Q facing a bet.
CF_INFOSET = "Qb"
#: Iterations the regret-update checker runs side by side with the reference.
CHECK_ITERATIONS = 30
#: The deals of "loaded" Kuhn poker, in Kuhn's order (JQ, JK, QJ, QK, KJ, KQ), weighted 1 to 6.
LOADED_WEIGHTS = (1, 2, 3, 4, 5, 6)


def _kuhn():
    from ..games import load_game
    return load_game("kuhn_poker")


def loaded_kuhn():
    """Kuhn poker with uneven deals (probabilities 1/21 to 6/21), so that a regret update that
    hard-codes chance's 1/6, or leaves chance out, can be told from the right one."""
    kuhn = _kuhn()
    chance = kuhn.chance_prob.copy()
    chance[kuhn.children[0]] = np.array(LOADED_WEIGHTS) / sum(LOADED_WEIGHTS)
    return dataclasses.replace(kuhn, name="loaded_kuhn_poker", chance_prob=chance, description="",
                               params=None)


# --- exercise 1: counterfactual values by hand -----------------------------------------------

def check_counterfactual_values(answer) -> Feedback:
    """Exercise 1: the counterfactual values of fold and call at ``"Qb"`` under
    :data:`BLUFF_POLICY`: -(1/18 + 1/6) and 2/18 - 2/6, both -2/9 (to 2e-3)."""
    return diagnose(per_action(answer, ("p", "b")), (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_values` to two numbers: the counterfactual value of folding (p) "
                      "and of calling (b), e.g. [-1/3, 1/2]."),
        Case("shape", lambda values: values is None,
             f"Expected two numbers, [fold, call] (or {{'p': ..., 'b': ...}}); got {answer!r}."),
        Case.correct(close_to([-2 / 9, -2 / 9], atol=2e-3),
                     "Yes: both are -2/9. Player 1 holds J with weight 1/6 x 1/3 = 1/18 and K "
                     "with weight 1/6 x 1 = 1/6. Folding loses 1 either way: -(1/18 + 1/6). "
                     "Calling wins 2 against J and loses 2 against K: 2/18 - 2/6. Equal values "
                     "mean zero regret for both actions: with these bluffs, player 2 with Q has "
                     "nothing to learn."),
        *VALUE_MISTAKES,
        fallback(lambda values: f"Not quite: you gave {np.round(values, 4).tolist()}. Weight "
                                "each node of Qb (player 1 holds J, or K) by chance x player 1's "
                                "bet probability, and sum weight x payoff: folding pays -1, "
                                "calling +2 against J and -2 against K."),
    ))


#: Exercise 1's recognised mistakes: the values each wrong weighting gives, and what to say.
VALUE_MISTAKES = (
    Case("own-reach", close_to([-2.0, 0.0], atol=2e-3),
         "You weighted each node by 1, which is player 2's own reach (it has not moved yet). A "
         "counterfactual value weights each node by how likely chance and the opponent make it: "
         "1/6 x 1/3 for the J node, 1/6 x 1 for the K node."),
    Case("no-chance", close_to([-4 / 3, -4 / 3], atol=2e-3),
         "You used player 1's betting probabilities (1/3 and 1) but left out chance: each deal "
         "happens with probability 1/6, which multiplies in too."),
    Case("no-opponent", close_to([-1 / 3, 0.0], atol=2e-3),
         "You weighted both nodes by chance alone (1/6 each), as if player 1 bet with J as "
         "often as with K. Player 1's part of the reach counts: it bets K always but J only a "
         "third of the time."),
    Case("uniform", close_to([-1 / 6, 0.0], atol=2e-3),
         "These are the values if player 1 bet half the time with every card. Use the strategy "
         "given: bets J 1/3, K always."),
    Case("normalised", close_to([-1.0, -1.0], atol=2e-3),
         "These are the expected payoffs *given* that play reached Qb: the weights divided by "
         "their total (2/9) so that they sum to 1. The counterfactual value keeps the weights "
         "as they are, 1/18 and 1/6, without dividing."),
    Case("sign", close_to([2 / 9, 2 / 9], atol=2e-3),
         "The sign is flipped: these are player 1's values. The values here are player 2's: "
         "folding loses player 2 its ante, -1."),
)


# --- exercise 2: counterfactual values as code ----------------------------------------------

def node_reach(tree, strategy) -> np.ndarray:
    """Each node's reach split three ways, shape (nodes, 3): player 1, player 2, chance
    (the reference's readable pass, :func:`cfrviz.reference.evaluation.reach_probabilities`)."""
    return reach_probabilities(tree, np.asarray(strategy, dtype=float)).T


def cf_variants(tree, strategy, info: int) -> dict:
    """The counterfactual values of set ``info`` (``"right"``) and what each mistake of
    :data:`CF_MISTAKES` gives instead, one number per action (``"set-value"``: one in all).
    A wrong weight is the reference's wrong regret weight (:data:`REGRET_UPDATES`) without the
    baseline."""
    strategy = np.asarray(strategy, dtype=float)
    reach, values = node_reach(tree, strategy), node_values(tree, strategy)
    i = int(tree.infoset_player[info])
    nodes = tree.infoset_members(info)
    q = np.array([[values[c, i] for c in tree.children[n]] for n in nodes])  # (members, k)

    def weighted(rule: str, payoff=q, members=nodes):
        return sum(REGRET_UPDATES[rule](reach[n], i, v, 0.0) for n, v in zip(members, payoff))

    right, others = weighted("cfr"), reach[nodes, 2] * reach[nodes, 1 - i]
    set_value = float(strategy[info, :len(right)] @ right)
    return {
        "right": right,
        **{name: weighted(name) for name in WEIGHT_MISTAKES},
        "normalised": right / others.sum() if others.sum() > 0 else right * np.nan,
        "other-player": -right,
        "swapped-players": weighted("own-and-chance", -q),
        "one-node": weighted("cfr", members=nodes[:1]),
        "regret-not-value": right - set_value,
        "set-value-repeated": np.full(len(right), set_value),
        "set-value": set_value,
    }


#: The wrong weights of a node shared by exercises 2 and 3 (values and regrets alike).
WEIGHT_MISTAKES = {
    "own-reach": "You weighted each node by the acting player's own reach, reach[player]. "
                 "Counterfactual values and regrets weight a node by how likely *the others* "
                 "make it, chance and the opponent: reach[2] * reach[1 - player]. Your own "
                 "reach is the same at every node of a set, so it cannot tell which hidden "
                 "card is likelier; the opponent's and chance's can.",
    "all-reach": "You weighted each node by its whole reach, the acting player's own share "
                 "included. The counterfactual weight leaves it out (it asks 'what if I had "
                 "played to get here?'): reach[2] * reach[1 - player].",
    "no-chance": "You left out chance's reach (the opponent's only): multiply by reach[2] too. "
                 "In Kuhn poker every deal has probability 1/6, so this only rescales by 6; "
                 "where some deals are likelier than others (Leduc poker) the weights between "
                 "nodes come out wrong.",
    "chance-only": "You weighted each node by chance alone; the opponent's reach counts too "
                   "(how likely its own moves lead to the node): reach[2] * reach[1 - player].",
    "unweighted": "You added the values without weights. Each node counts in proportion to "
                  "how likely chance and the opponent make it: multiply by reach[2] * "
                  "reach[1 - player].",
}
#: What each wrong counterfactual value gets wrong (the names of :func:`cf_variants`).
CF_MISTAKES = {
    **WEIGHT_MISTAKES,
    "normalised": "You divided by the total weight of the set, which gives the expected value "
                  "*given* that play reached the set. The counterfactual value keeps the "
                  "weights as they are, without dividing.",
    "other-player": "These are the opponent's values (the negatives of the right ones). Use "
                    "the payoffs of the player who acts at the set, "
                    "tree.infoset_player[info].",
    "swapped-players": "You computed the values as if the set belonged to the opponent: its "
                       "payoffs, weighted by the acting player's reach. The values are those of "
                       "the acting player, tree.infoset_player[info], weighted by chance and "
                       "the *other* player.",
    "one-node": "You used only one node of the set. The counterfactual value sums over every "
                "node of the set: all the hidden situations the player cannot tell apart.",
    "regret-not-value": "These are the regrets (each action's value minus the strategy's value "
                        "at the set). Return the counterfactual values themselves; the regret "
                        "comes next.",
    "set-value-repeated": "You gave every action the same number, the value of the whole set "
                          "under the strategy. Each action has its own value: what the set "
                          "would be worth if the player took that action at every node of "
                          "it.",
}
#: Exercise 2's answer when it is a single number, the value of the whole set.
SET_VALUE = ("You returned one number, the value of the whole set under the strategy. Return "
             "one value per action: what the set would be worth if the player took that "
             "action at every node of it.")

#: Where the checker calls the student's function: (game, set key, strategy name).
CF_CASES = (("kuhn_poker", "Qb", "bluffer"), ("kuhn_poker", "Qpb", "random 1"),
            ("kuhn_poker", "K", "uniform"), ("kuhn_poker", "Jp", "random 2"),
            ("kuhn_poker", "Qpb", "bluffer"), ("kuhn_poker", "Kb", "random 3"),
            ("leduc_poker", "JK:cc/", "random 1"), ("leduc_poker", "Q:r", "random 2"),
            ("leduc_poker", "KQ:rrc/cr", "random 3"))


def _strategy(tree, name: str) -> np.ndarray:
    """The strategy table a case names: uniform, the lesson's bluffer, or a seeded random one."""
    mask = tree.legal_mask
    if name == "uniform":
        return mask / mask.sum(axis=1, keepdims=True)
    if name == "bluffer":
        from ..core.policy import Policy
        return np.array(Policy.from_dict(tree, BLUFF_POLICY).probabilities)
    rng = np.random.default_rng(int(name.split()[-1]))
    table = rng.dirichlet(np.ones(mask.shape[1]), size=mask.shape[0]) * mask
    return table / table.sum(axis=1, keepdims=True)


def _games() -> dict:
    from ..games import load_game
    return {name: load_game(name) for name in ("kuhn_poker", "leduc_poker")}


def _cf_answers() -> dict:
    """The functions that compute exercise 2's answer (the package's and this checker's),
    which the student's code must not call."""
    from ..analysis.explain import counterfactual_values
    from ..engine.evaluation import counterfactual_table
    return {counterfactual_values: "`counterfactual_values` (cfrviz.analysis.explain)",
            counterfactual_table: "`counterfactual_table` (cfrviz.engine)",
            cf_variants: "the checker's `cf_variants`",
            node_reach: "the checker's `node_reach`",
            node_values: "`node_values` (cfrviz.solvers.subgame)"}


@checks("`my_counterfactual_values`", "check_counterfactual_function(my_counterfactual_values)")
def check_counterfactual_function(function) -> Feedback:
    """Exercise 2: ``function(tree, strategy, info)`` returns each action's counterfactual value,
    on every case of :data:`CF_CASES` (to 1e-7), without calling :func:`_cf_answers`; a wrong
    answer is named if one variant of :func:`cf_variants` reproduces it on every case."""
    games = _games()
    hints = {IndexError: "`strategy` is an array (information sets x actions): "
                         "strategy[tree.infoset[node], a] is the probability of action a at a "
                         "decision node; tree.children[node][a] is the node it leads to.",
             TypeError: "`tree` is a GameTree of arrays indexed by node id, `strategy` a numpy "
                        "array and `info` an integer information-set id."}
    answers = []
    for game, key, name in CF_CASES:
        tree = games[game]
        info = tree.infoset_index(key)
        strategy = _strategy(tree, name)
        shown = (f"set {key!r} of {game} (player {tree.infoset_player[info] + 1}, {name} "
                 "strategy)")
        given = strategy.copy()  # the student's to read, not to change
        with np.errstate(all="ignore"):
            result, failed = run_student(
                lambda t=tree, s=given, i=info: function(t, s, i),
                name="`my_counterfactual_values`", hints=hints, forbidden=_cf_answers(),
                unchanged=[("strategy", given)])
        if failed is not None:
            if failed.mistake == "crash":
                return wrong(f"For {shown}: {failed.message}", "crash")
            return failed
        variants = cf_variants(tree, strategy, info)
        unusable = screen(result, _answer_cases(tree, info, shown, variants))
        if unusable is not None:
            return unusable
        values = per_action(result, tree.infoset_actions[info], tree.max_actions)
        answers.append((shown, values, variants))
    return diagnose(answers, (
        Case.correct(_everywhere("right"),
                     f"Your function gives the counterfactual values at all {len(answers)} sets "
                     "and strategies tried, on Kuhn poker and on Leduc poker (where some deals "
                     "are likelier than others). Opponent-and-chance reach times each action's "
                     "value, summed over the set's nodes: exactly what CFR feeds its regret "
                     "matchers."),
        *(Case(mistake, _everywhere(mistake), message) for mistake, message in CF_MISTAKES.items()),
        fallback(_first_difference),
    ))


def _everywhere(name: str) -> Callable[[list], bool]:
    """A condition on exercise 2's answers: each equals ``cf_variants(...)[name]`` of its case."""
    return lambda answers: all(_close(values, variants[name]) for _, values, variants in answers)


def _answer_cases(tree, info: int, shown: str, variants: dict) -> tuple[Case, ...]:
    """Exercise 2's rows for one call: what keeps its answer from being compared."""
    actions = list(tree.infoset_actions[info])

    def set_value(result) -> bool:
        scalar = as_number(result)
        return scalar is not None and bool(np.isclose(scalar, variants["set-value"], rtol=1e-7,
                                                      atol=1e-10))

    return (
        Case("no-return", lambda result: result is None,
             f"For {shown} your function returned None: did you forget `return`?"),
        Case("set-value", set_value, SET_VALUE),
        Case("shape", lambda result: as_number(result) is not None,
             lambda result: f"For {shown} you returned one number, {as_number(result):.4g}; "
                            f"return one value per action ({len(actions)} here, for "
                            f"{actions})."),
        Case("shape", lambda result: per_action(result, actions, tree.max_actions) is None,
             lambda result: f"For {shown} expected one finite number per action {actions}; got "
                            f"{result!r}."),
    )


def _first_difference(answers) -> str:
    shown, values, variants = next(a for a in answers if not _close(a[1], a[2]["right"]))
    return (f"For {shown} you returned {np.round(values, 4).tolist()}; the counterfactual "
            f"values are {np.round(variants['right'], 4).tolist()}. For each node h of the set, "
            "multiply chance's and the opponent's reach of h by the acting player's value of "
            "each child of h, and sum over the nodes.")


def _close(values, target) -> bool:
    return bool(np.allclose(values, target, rtol=1e-7, atol=1e-10))


# --- exercise 3: the regret update ----------------------------------------------------------

class BadUpdate(ValueError):
    """A regret update returned something other than one finite number per action."""


class _Refused(Exception):
    """What the update did breaks the exercise's rules: the checker's finding, not a crash."""

    def __init__(self, feedback: Feedback) -> None:
        super().__init__(feedback.message)
        self.feedback = feedback


def _increment(added, k: int) -> np.ndarray:
    """What the update returned as ``k`` finite numbers, or :class:`BadUpdate` saying why not."""
    shown = added.tolist() if isinstance(added, (np.ndarray, np.generic)) else added
    if added is None:
        raise BadUpdate("it returned None (a missing `return`?)")
    try:
        values = floats(added)
    except (TypeError, ValueError):
        raise BadUpdate(f"it returned {shown!r}, which is not numbers") from None
    if values.shape != (k,):
        raise BadUpdate(f"it returned {shown!r}; it should return one number per "
                        f"action ({k} here), like action_values does")
    if not np.all(np.isfinite(values)):
        raise BadUpdate(f"it returned {values.tolist()}, which is not finite")
    return values


#: What each wrong update of :data:`~cfrviz.reference.updates.REGRET_UPDATES` gets wrong.
MISTAKES = {
    **WEIGHT_MISTAKES,
    "own-and-chance": "You weighted by chance and the acting player's own reach, reach[player]. "
                      "Use the opponent's instead: reach[1 - player]. The player's own reach is "
                      "the same at every node of a set and tells nothing about which hidden "
                      "card is more likely; the opponent's betting does.",
    "sign": "The sign is flipped: regret is (what the action earns) - (what the strategy "
            "earns), action_values - value. With value - action_values, regret matching "
            "would favour the worst actions.",
    "no-baseline": "You added the weighted action values but did not subtract the node's "
                   "value. Regret compares each action with what the strategy earned: "
                   "(action_values - value).",
    "player-2-reach": "Right for player 1, whose opponent is player 2 (reach[1]), but player 2's "
                      "opponent is player 1: use reach[1 - player], not a fixed index.",
    "player-1-reach": "You always used reach[0], player 1's reach: for player 1's own nodes that "
                      "is its own reach. Use the opponent's, reach[1 - player].",
}


_UPDATE_ARGUMENTS = ("`reach` is a numpy array of three numbers [player 1, player 2, chance], "
                     "`player` is 0 or 1, `action_values` a numpy array with one value per "
                     "action and `value` one number.")


#: The package's own regret update, which exercise 3 asks the student to write.
_UPDATE_ANSWERS = {counterfactual_regret: "`counterfactual_regret` (cfrviz.reference)"}


@checks("`my_regret_update`", "check_regret_update(my_regret_update)")
def check_regret_update(function, iterations: int = CHECK_ITERATIONS) -> Feedback:
    """Exercise 3: ``function(reach, player, action_values, value)`` is CFR's regret update.

    :func:`~cfrviz.reference.vanilla_cfr` runs ``iterations`` iterations with it as its
    ``update``, on Kuhn poker and on :func:`loaded_kuhn`, beside the unchanged one; the
    cumulative regrets must agree after every iteration (to 1e-9, relative).  It must return
    one finite number per action, leave its arguments as they were and not call
    ``counterfactual_regret``; a wrong update is named by the rule of :data:`MISTAKES` that
    reproduces every call.
    """
    total, largest = 0, 0.0
    for tree, label in ((_kuhn(), "Kuhn poker"),
                        (loaded_kuhn(), "Kuhn poker with uneven deals (1/21 to 6/21)")):
        feedback, worst, count = _compare_update(function, tree, iterations)
        if feedback is not None:
            if label != "Kuhn poker" and feedback.mistake is None:
                return wrong(f"Your update is right on Kuhn poker, where every deal has "
                             f"probability 1/6, but not on {label}. {feedback.message}",
                             "uneven-chance")
            if label != "Kuhn poker":
                return wrong(f"On {label}: {feedback.message}", feedback.mistake)
            return feedback
        total, largest = total + count, max(largest, worst)
    return correct(f"Your update reproduces vanilla_cfr's cumulative regrets at every "
                   f"information set after each of {iterations} iterations, on Kuhn poker and "
                   f"on Kuhn poker with uneven deals, where chance's reach is not always 1/6 "
                   f"({total:,} calls; largest relative difference {largest:.1e}). Chance's and "
                   "the opponent's reach, times action value minus node value: that is the "
                   "counterfactual regret.")


def _compare_update(function, tree, iterations):
    """Run ``function`` as vanilla_cfr's update on ``tree`` beside the reference:
    (feedback or None when it agrees, largest relative difference, number of calls)."""
    calls = []

    def recorded(reach, player, action_values, value):
        given = (reach.copy(), action_values.copy())
        out = function(given[0], player, given[1], value)
        for label, theirs, mine in (("reach", given[0], reach),
                                    ("action_values", given[1], action_values)):
            if not (isinstance(theirs, np.ndarray) and theirs.shape == mine.shape
                    and np.array_equal(theirs, mine, equal_nan=True)):
                raise _Refused(wrong(
                    f"`my_regret_update` changed its argument `{label}` in place. vanilla_cfr's "
                    "walk keeps using that array after the call (the reach is carried down "
                    "the tree, the action values make the node's value): return a new array "
                    "instead, e.g. `weight * (action_values - value)`, and leave the "
                    "arguments as they were.", "changes its input"))
        try:
            added = _increment(out, len(action_values))
        except BadUpdate as bad:
            node = sys._getframe(1).f_locals["node"]  # the update gets no node; walk has it
            raise _Refused(wrong(f"Your function ran, but at node {tree.history[node]!r} (set "
                                 f"{tree.infoset_keys[tree.infoset[node]]!r}) {bad}.",
                                 "shape")) from None
        calls.append((reach.copy(), player, action_values.copy(), value, added))
        return added

    mine = vanilla_cfr(tree, iterations, update=recorded)
    # Run before the student's code is watched: the reference calls counterfactual_regret,
    # which the student's update must not (see _UPDATE_ANSWERS).
    reference = list(vanilla_cfr(tree, iterations))

    def run() -> tuple[list, Feedback | None]:
        # Every iteration, even after a difference: the more calls are recorded, the surer the
        # diagnosis (in iteration 1 several wrong weights happen to agree).
        try:
            with np.errstate(all="ignore"):
                return [got["cumulative_regret"] for got in mine], None
        except _Refused as refused:
            return [], refused.feedback

    hints = {IndexError: _UPDATE_ARGUMENTS, TypeError: _UPDATE_ARGUMENTS}
    ran, failed = run_student(run, name="`my_regret_update`", hints=hints,
                              forbidden=_UPDATE_ANSWERS)
    regrets, failed = ran if failed is None else ([], failed)
    with np.errstate(all="ignore"):
        gaps = [float(np.max(np.abs(got - want["cumulative_regret"])
                             / np.maximum(1.0, np.abs(want["cumulative_regret"]))))
                for got, want in zip(regrets, reference)]
    first = next((t for t, gap in enumerate(gaps) if gap > 1e-9), None)
    if failed is None and first is not None:
        failed = _explain(tree, calls, first + 1, regrets[first],
                          reference[first]["cumulative_regret"])
    return failed, max(gaps, default=0.0), len(calls)


def _explain(tree, calls, t, got, want) -> Feedback:
    """The mistake of :data:`MISTAKES` that reproduces every call, else the first wrong call,
    else (every call right, the regrets not) state kept between calls."""
    def agrees(rule) -> Callable[[list], bool]:
        return lambda calls: all(np.allclose(rule(r, i, q, v), out, rtol=1e-9, atol=1e-12)
                                 for r, i, q, v, out in calls)

    def first_wrong(calls) -> str:
        reach, player, q, v, out = next(c for c in calls if not agrees(counterfactual_regret)([c]))
        right = counterfactual_regret(reach, player, q, v)
        return (f"At a node of player {player + 1} with reach {np.round(reach, 4).tolist()} "
                f"(player 1, player 2, chance), action_values {np.round(q, 4).tolist()} and "
                f"value {v:.4f}, your function returned {out.tolist()}; CFR adds "
                f"{np.round(right, 4).tolist()}: chance's reach times the opponent's reach "
                "times (action_values - value).")

    info = int(np.argmax(np.abs(got - want).max(axis=1)))
    return diagnose(calls, (
        *(Case(name, agrees(REGRET_UPDATES[name]), text) for name, text in MISTAKES.items()),
        Case(None, lambda c: not agrees(counterfactual_regret)(c), first_wrong),
        fallback(f"After iteration {t} your cumulative regrets at set "
                 f"{tree.infoset_keys[info]!r} differ from vanilla_cfr's "
                 f"({np.round(got[info], 4).tolist()} against "
                 f"{np.round(want[info], 4).tolist()}), although each call "
                 "looked right: does your function keep state between calls?", "stateful"),
    ))
