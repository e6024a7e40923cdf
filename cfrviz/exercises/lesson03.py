"""Checkers for lesson 03, counterfactual regret.

Two exercises: the counterfactual values of one Kuhn information set worked out by
hand (:func:`check_counterfactual_values`), and the regret update of CFR written as
a function (:func:`check_regret_update`), which the checker hands to the readable
recursive CFR, :func:`cfrviz.reference.vanilla_cfr`, as its ``update`` and runs on
Kuhn poker side by side with the unchanged one.

What the lesson shows besides lives with its kind: the counterfactual values in
:func:`cfrviz.analysis.explain.counterfactual_values`, the wrong updates and the
training they give in :mod:`cfrviz.reference.updates`, source listings in
:mod:`cfrviz.views.listing`, the bluffing sliders in :mod:`cfrviz.widgets.bluff`.
"""

from __future__ import annotations

import traceback

import numpy as np

from ..reference.cfr import counterfactual_regret, vanilla_cfr, walk
from ..reference.updates import REGRET_UPDATES
from . import Feedback, correct, not_done, unanswered, wrong

#: Exercise 1: player 1 bets K always, J one time in three, Q never (other sets uniform).
BLUFF_POLICY = {"J": {"p": 2 / 3, "b": 1 / 3}, "Q": {"p": 1.0, "b": 0.0},
                "K": {"p": 0.0, "b": 1.0}}
#: ...and player 2 holds Q facing a bet.
CF_INFOSET = "Qb"
#: Iterations the regret-update checker runs side by side with the reference.
CHECK_ITERATIONS = 30


def _kuhn():
    from ..games import load_game
    return load_game("kuhn_poker")


# --- exercise 1: counterfactual values by hand -----------------------------------------------

def _pair(answer, actions=("p", "b")):
    """Two finite numbers from a list, a tuple, an array or ``{"p": .., "b": ..}``."""
    if isinstance(answer, dict):
        if set(answer) != set(actions):
            return None
        answer = [answer[a] for a in actions]
    if isinstance(answer, (str, bytes)):
        return None
    try:
        values = np.array(answer, dtype=float)
    except (TypeError, ValueError):
        return None
    if values.shape != (len(actions),) or not np.all(np.isfinite(values)):
        return None
    return values


def check_counterfactual_values(answer) -> Feedback:
    """Exercise 1: the counterfactual values of fold and call at ``"Qb"`` under
    :data:`BLUFF_POLICY`.

    Player 2 holds Q facing a bet.  Player 1 holds J (chance 1/6, bets 1/3) or K
    (chance 1/6, bets always): weights 1/18 and 1/6.  Folding loses 1 at both:
    -(1/18 + 1/6) = -2/9.  Calling wins 2 against J and loses 2 against K:
    2/18 - 2/6 = -2/9.  Both are -2/9: player 1's bluffs make player 2 indifferent.
    """
    if unanswered(answer):
        return not_done("Set `my_values` to two numbers: the counterfactual value of folding "
                        "(p) and of calling (b), e.g. [-1/3, 1/2].")
    values = _pair(answer)
    if values is None:
        return wrong(f"Expected two numbers, [fold, call] (or {{'p': ..., 'b': ...}}); got "
                     f"{answer!r}.", "shape")
    right = np.array([-2 / 9, -2 / 9])
    if np.allclose(values, right, atol=2e-3):
        return correct("Yes: both are -2/9. Player 1 holds J with weight 1/6 x 1/3 = 1/18 and K "
                       "with weight 1/6 x 1 = 1/6. Folding loses 1 either way: -(1/18 + 1/6). "
                       "Calling wins 2 against J and loses 2 against K: 2/18 - 2/6. Equal "
                       "values mean zero regret for both actions: with these bluffs, player 2 "
                       "with Q has nothing to learn.")
    mistakes = (
        ([-2.0, 0.0], "own-reach",
         "You weighted each node by 1, which is player 2's own reach (it has not moved yet). "
         "A counterfactual value weights each node by how likely chance and the opponent "
         "make it: 1/6 x 1/3 for the J node, 1/6 x 1 for the K node."),
        ([-4 / 3, -4 / 3], "no-chance",
         "You used player 1's betting probabilities (1/3 and 1) but left out chance: each deal "
         "happens with probability 1/6, which multiplies in too."),
        ([-1 / 3, 0.0], "no-opponent",
         "You weighted both nodes by chance alone (1/6 each), as if player 1 bet with J as "
         "often as with K. Player 1's part of the reach counts: it bets K always but J only "
         "a third of the time."),
        ([-1 / 6, 0.0], "uniform",
         "These are the values if player 1 bet half the time with every card. Use the "
         "strategy given: bets J 1/3, K always."),
        ([-1.0, -1.0], "normalised",
         "These are the expected payoffs *given* that play reached Qb: the weights divided by "
         "their total (2/9) so that they sum to 1. The counterfactual value keeps the weights "
         "as they are, 1/18 and 1/6, without dividing."),
        ([2 / 9, 2 / 9], "sign",
         "The sign is flipped: these are player 1's values. The values here are player 2's: "
         "folding loses player 2 its ante, -1."),
    )
    for target, mistake, message in mistakes:
        if np.allclose(values, target, atol=2e-3):
            return wrong(message, mistake)
    return wrong(f"Not quite: you gave {np.round(values, 4).tolist()}. Weight each node of Qb "
                 "(player 1 holds J, or K) by chance x player 1's bet probability, and sum "
                 "weight x payoff: folding pays -1, calling +2 against J and -2 against K.")


# --- exercise 2: the regret update ----------------------------------------------------------

class BadUpdate(ValueError):
    """A regret update returned something other than one finite number per action."""


def _increment(added, k: int) -> np.ndarray:
    """What the update returned as ``k`` finite numbers, or :class:`BadUpdate` saying why not."""
    shown = added.tolist() if isinstance(added, (np.ndarray, np.generic)) else added
    if added is None:
        raise BadUpdate("it returned None (a missing `return`?)")
    try:
        values = np.array(added, dtype=float)
    except (TypeError, ValueError):
        raise BadUpdate(f"it returned {shown!r}, which is not numbers") from None
    if values.shape != (k,):
        raise BadUpdate(f"it returned {shown!r}; it should return one number per "
                        f"action ({k} here), like action_values does")
    if not np.all(np.isfinite(values)):
        raise BadUpdate(f"it returned {values.tolist()}, which is not finite")
    return values


def _where(error: BadUpdate) -> str:
    """The node the reference ``walk`` was at when the update failed.

    The update is called without its node (students should not need it), so
    read the node from the innermost ``walk`` frame of the traceback.
    """
    frames = [frame for frame, _ in traceback.walk_tb(error.__traceback__)
              if frame.f_code is walk.__code__]
    tree, node = frames[-1].f_locals["tree"], frames[-1].f_locals["node"]
    return f"at node {tree.history[node]!r} (set {tree.infoset_keys[tree.infoset[node]]!r})"


#: What each wrong update of :data:`~cfrviz.reference.updates.REGRET_UPDATES` gets wrong.
MISTAKES = {
    "own-reach": "You weighted by the acting player's own reach, reach[player]. Counterfactual "
                 "regret weights each node by how likely *the others* make it: chance and the "
                 "opponent, reach[2] * reach[1 - player]. Your own reach is the same at every "
                 "node of a set, so it cannot tell which hidden card is more likely; the "
                 "opponent's and chance's reach can.",
    "own-and-chance": "You weighted by chance and the acting player's own reach, reach[player]. "
                      "Use the opponent's instead: reach[1 - player]. The player's own reach is "
                      "the same at every node of a set and tells nothing about which hidden "
                      "card is more likely; the opponent's betting does.",
    "sign": "The sign is flipped: regret is (what the action earns) - (what the strategy "
            "earns), action_values - value. With value - action_values, regret matching "
            "would favour the worst actions.",
    "no-chance": "You left out chance: multiply by reach[2] too. In Kuhn poker every deal has "
                 "probability 1/6, so this only rescales the regrets by 6 and the strategies "
                 "come out the same; in a game where some deals are likelier than others (Leduc "
                 "poker) the weights between nodes would be wrong.",
    "all-reach": "You multiplied all three reaches, the player's own included. The "
                 "counterfactual weight leaves out the acting player's own reach: it asks "
                 "'what if I had played to get here?'. Use reach[2] * reach[1 - player].",
    "unweighted": "You added action_values - value without a weight. Each node of a set "
                  "counts in proportion to how likely chance and the opponent make it: "
                  "multiply by reach[2] * reach[1 - player].",
    "chance-only": "You weighted by chance alone; the opponent's reach counts too: "
                   "reach[2] * reach[1 - player].",
    "no-baseline": "You added the weighted action values but did not subtract the node's "
                   "value. Regret compares each action with what the strategy earned: "
                   "(action_values - value).",
    "player-2-reach": "Right for player 1, whose opponent is player 2 (reach[1]), but player 2's "
                      "opponent is player 1: use reach[1 - player], not a fixed index.",
    "player-1-reach": "You always used reach[0], player 1's reach: for player 1's own nodes that "
                      "is its own reach. Use the opponent's, reach[1 - player].",
}


def _diagnose(calls) -> str | None:
    """The name of the one wrong update that reproduces every recorded call, if any."""
    for name in MISTAKES:
        rule = REGRET_UPDATES[name]
        if all(np.allclose(rule(r, i, q, v), out, rtol=1e-9, atol=1e-12)
               for r, i, q, v, out in calls):
            return name
    return None


def check_regret_update(function, iterations: int = CHECK_ITERATIONS) -> Feedback:
    """Exercise 2: ``function(reach, player, action_values, value)`` is CFR's regret update.

    The checker runs :func:`cfrviz.reference.vanilla_cfr` on Kuhn poker for
    ``iterations`` iterations with the student's function as its ``update``,
    beside the unchanged one, and compares the cumulative regrets after every
    iteration.  The function receives copies, and what it returns must be one
    finite number per action.  When the regrets differ the checker names the
    mistake if one of the wrong updates of :data:`MISTAKES` reproduces every
    call the function answered (own reach instead of the opponent's, a flipped
    sign, chance left out, ...).
    """
    if unanswered(function):
        return not_done("Write the body of `my_regret_update`, then run this cell again.")
    if not callable(function):
        return wrong(f"Pass the function itself, check_regret_update(my_regret_update); got "
                     f"{function!r}.", "not-callable")
    tree = _kuhn()
    calls = []

    def recorded(reach, player, action_values, value):
        out = function(reach.copy(), player, action_values.copy(), value)
        calls.append((reach.copy(), player, action_values.copy(), value,
                      None if out is None else np.array(out, dtype=float, copy=True)
                      if _numeric(out) else out))
        return _increment(out, len(action_values))

    mine = vanilla_cfr(tree, iterations, update=recorded)
    reference = vanilla_cfr(tree, iterations)
    worst, first_bad = 0.0, None
    try:
        with np.errstate(all="ignore"):
            # Run every iteration even after a difference: the more calls are recorded, the
            # surer the diagnosis (in iteration 1 several wrong weights happen to agree).
            for t, (got, want) in enumerate(zip(mine, reference), start=1):
                diff = np.abs(got["cumulative_regret"] - want["cumulative_regret"])
                scale = np.maximum(1.0, np.abs(want["cumulative_regret"]))
                worst = max(worst, float(np.max(diff / scale)))
                if worst > 1e-9 and first_bad is None:
                    first_bad = (t, got, want)
    except NotImplementedError:
        return not_done("`my_regret_update` still raises NotImplementedError: replace that line "
                        "with your code.")
    except BadUpdate as error:
        return wrong(f"Your function ran, but {_where(error)} {error}.", "shape")
    except Exception as error:  # the student's code crashed: explain, never re-raise
        hint = ""
        if isinstance(error, (IndexError, TypeError)):
            hint = (" `reach` is a numpy array of three numbers [player 1, player 2, chance], "
                    "`player` is 0 or 1, `action_values` a numpy array with one value per "
                    "action and `value` one number.")
        return wrong(f"Your function raised {type(error).__name__}: {error}.{hint}", "crash")
    if first_bad is not None:
        return _explain(tree, calls, *first_bad)
    return correct(f"Your update reproduces vanilla_cfr's cumulative regrets at all "
                   f"{tree.num_infosets} information sets of Kuhn poker after each of "
                   f"{iterations} iterations ({len(calls):,} calls; largest relative difference "
                   f"{worst:.1e}). Chance's and the opponent's reach, times action value minus "
                   "node value: that is the counterfactual regret.")


def _numeric(out) -> bool:
    try:
        np.array(out, dtype=float)
    except (TypeError, ValueError):
        return False
    return True


def _explain(tree, calls, t, got, want) -> Feedback:
    usable = [c for c in calls if isinstance(c[4], np.ndarray)]
    name = _diagnose(usable) if len(usable) == len(calls) else None
    if name is not None:
        return wrong(MISTAKES[name], name)
    # No known mistake fits: show the first call that went wrong.
    for reach, player, q, v, out in calls:
        right = counterfactual_regret(reach, player, q, v)
        if not (isinstance(out, np.ndarray) and np.allclose(out, right, rtol=1e-9, atol=1e-12)):
            shown = out.tolist() if isinstance(out, np.ndarray) else out
            return wrong(f"At a node of player {player + 1} with reach "
                         f"{np.round(reach, 4).tolist()} (player 1, player 2, chance), "
                         f"action_values {np.round(q, 4).tolist()} and value {v:.4f}, your "
                         f"function returned {shown}; CFR adds {np.round(right, 4).tolist()}: "
                         "chance's reach times the opponent's reach times "
                         "(action_values - value).")
    diff = np.abs(got["cumulative_regret"] - want["cumulative_regret"])
    info = int(np.argmax(diff.max(axis=1)))
    return wrong(f"After iteration {t} your cumulative regrets at set "
                 f"{tree.infoset_keys[info]!r} differ from vanilla_cfr's "
                 f"({np.round(got['cumulative_regret'][info], 4).tolist()} against "
                 f"{np.round(want['cumulative_regret'][info], 4).tolist()}), although each call "
                 "looked right: does your function keep state between calls?", "stateful")
