"""Checkers and small helpers for lesson 05, best response and exploitability.

Exercise 1 is a best response by hand: player 2 holds a queen and faces a bet
from :data:`BLUFFER`, a player 1 who bets every king and bluffs one jack in
five.  Its checker recognises the classic slip of a best response that peeks
at player 1's card.  Exercise 2 computes an exploitability from two best
responses.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..analysis.evaluation import reach_probabilities
from ..core.policy import Policy
from ..core.tree import TERMINAL
from ..engine import tree_best_response
from . import Feedback, as_number, correct, not_done, unanswered, wrong
from .lesson04 import describe_kuhn_set, strategy_table  # noqa: F401  (used by the lesson)

#: Exercise 1: player 1's first move (the other sets do not matter for the spot).
BLUFFER = {"J": {"p": 0.8, "b": 0.2}, "Q": {"p": 1.0, "b": 0.0}, "K": {"p": 0.0, "b": 1.0}}
#: Exercise 1: the information set where player 2 must choose (holds Q, player 1 bet).
SPOT = "Qb"
#: Exercise 2: the CFR run and iteration whose average strategy is measured.
EXPLOIT_ITERATION = 100
#: Answers read off printed numbers (four decimals) count.
TOLERANCE = 1e-4
#: Exercise 1 values are simple fractions; two decimals (-1.33) count.
SPOT_TOLERANCE = 0.005
ACTION_WORDS = {"p": "fold", "b": "call"}
_ALIASES = {"p": "p", "fold": "p", "pass": "p", "f": "p",
            "b": "b", "call": "b", "bet": "b", "c": "b"}


def _kuhn():
    from ..games import load_game

    return load_game("kuhn_poker")


def spot_analysis(game, policy: Policy, infoset: str) -> dict:
    """Everything about one decision of a best response, node by node.

    Below the set both players follow ``policy`` (in the lesson's spot every
    action ends the hand, so this is exact).

    Returns
    -------
    dict
        ``nodes``: per node of the set, its history, the opponent-and-chance
        reach and each action's value; ``counterfactual``: each action's
        counterfactual value (reach-weighted sum over the nodes);
        ``conditional``: each action's expected value given that play reached
        the set; ``best``: the honest best action; ``value``: its conditional
        value; ``peeking_value``: what a player who saw which node it is in
        (the opponent's card) would expect, choosing per node; ``peeking``:
        that player's choice per node.
    """
    info = game.infoset_index(infoset)
    player = int(game.infoset_player[info])
    probs = policy.probabilities
    reach = reach_probabilities(game, policy)
    weight = reach[2] * reach[1 - player]
    nodes = [int(n) for n in np.flatnonzero(game.infoset == info)]
    actions = game.infoset_actions[info]

    def value(node: int) -> float:  # the policy's expected payoff for ``player`` below ``node``
        if game.player[node] == TERMINAL:
            return float(game.utility[node, player])
        kids = game.children[node]
        if game.player[node] < 0:
            return sum(float(game.chance_prob[c]) * value(int(c)) for c in kids)
        row = probs[game.infoset[node]]
        return sum(float(row[a]) * value(int(c)) for a, c in enumerate(kids))

    table = [{"node": n, "history": game.history[n], "reach": float(weight[n]),
              "values": np.array([value(int(c)) for c in game.children[n]])} for n in nodes]
    total = sum(row["reach"] for row in table)
    cf = sum(row["reach"] * row["values"] for row in table)
    conditional = cf / total if total > 0 else np.full(len(actions), np.nan)
    best = int(np.argmax(cf))
    peek = sum(row["reach"] * row["values"].max() for row in table) / total if total > 0 \
        else np.nan
    return {"infoset": infoset, "actions": actions, "nodes": table, "reach": total,
            "counterfactual": cf, "conditional": conditional, "best": actions[best],
            "value": float(conditional[best]), "peeking_value": float(peek),
            "peeking": {row["history"]: actions[int(np.argmax(row["values"]))] for row in table}}


@lru_cache(maxsize=1)
def _spot() -> dict:
    game = _kuhn()
    return spot_analysis(game, Policy.from_dict(game, BLUFFER), SPOT)


def _action(answer):
    """``"p"``/``"b"`` for a recognised single action, else None."""
    if isinstance(answer, str):
        return _ALIASES.get(answer.strip().lower())
    return None


def _opponent_card(history: str) -> str:
    return history.split(":")[0][0]  # Kuhn deals are "<player 1's card><player 2's card>:"


def check_best_response_by_hand(action, value) -> Feedback:
    """Exercise 1: player 2's best response at ``"Qb"`` against :data:`BLUFFER`, and its value.

    ``action`` is ``"fold"`` or ``"call"`` (``"p"``/``"b"`` also count);
    ``value`` is what player 2 expects to win each time it faces the bet.
    The answer is fold, −1: a bet comes from a king five times in six.
    """
    if unanswered(action) and unanswered(value):
        return not_done("Set `my_action` to 'fold' or 'call' and `my_value` to what that "
                        "action wins, on average, each time player 2 faces the bet.")
    spot = _spot()
    conditional = dict(zip(spot["actions"], spot["conditional"]))
    best, best_value, peek = spot["best"], spot["value"], spot["peeking_value"]
    peeking_words = ", ".join(f"{ACTION_WORDS[a]} against {_opponent_card(h)}"
                              for h, a in spot["peeking"].items())
    peek_message = (
        f"That is a best response that peeks at player 1's card: {peeking_words} would "
        f"expect {peek:+.3f}. But player 2 sees only its own queen and the bet: both deals "
        f"(player 1 holding J or K) are one information set, so player 2 must choose one "
        f"action for both, weighting each deal by how likely it is given the bet. A 'best "
        f"response' that reads hidden cards is not a strategy player 2 can play, and it "
        f"overstates how exploitable player 1 is.")
    if isinstance(action, (dict, list, tuple)) and len(action) > 1:
        return wrong(peek_message, "peeking")
    number = as_number(value)
    if number is not None and abs(number - peek) <= SPOT_TOLERANCE:
        return wrong(peek_message, "peeking")
    if unanswered(action):
        return not_done("Also set `my_action` to 'fold' or 'call'.")
    choice = _action(action)
    if choice is None:
        return wrong(f"`my_action` should be 'fold' or 'call'; got {action!r}.", "not-an-action")
    if unanswered(value):
        return not_done("Also set `my_value`: what the chosen action wins on average each time "
                        "player 2 faces the bet.")
    if number is None:
        return wrong(f"`my_value` should be one number; got {value!r}.", "not-a-number")

    def near(x):
        return abs(number - x) <= SPOT_TOLERANCE

    reach = spot["reach"]
    call, fold = conditional["b"], conditional["p"]
    if choice == best and near(best_value):
        return correct(
            f"Yes: {ACTION_WORDS[best]}, {best_value:+.3f}. Given the bet, player 1 holds J "
            f"with probability 1/6 and K with 5/6 (a king is always bet, a jack one time in "
            f"five), so calling wins 2·(1/6) − 2·(5/6) = {call:+.3f}, worse than the "
            f"{fold:+.0f} of folding. Against this strategy, bluffs are too rare to be "
            f"worth catching.")
    counterfactual = float(spot["counterfactual"][spot["actions"].index(choice)])
    if choice == best and near(counterfactual):
        return wrong(f"Right action; {number:+.3f} is its counterfactual value, weighted by "
                     f"how often play reaches the spot ({reach:.3f} of all deals). Per time "
                     f"player 2 faces the bet, divide by that reach: "
                     f"{counterfactual:+.3f} / {reach:.3f}.", "counterfactual")
    if choice == "b" and near(call):
        return wrong(f"Your value for calling is right ({call:+.3f}), but folding loses only "
                     f"{-fold:.0f} (the ante already in the pot). The best response takes the "
                     "action that loses less: fold.", "call")
    if choice == "b" and near(0.0):
        return wrong("Calling is worth 0 only if J and K were equally likely. But player 1 "
                     "bets every king and only one jack in five, so a bet tells you a lot: "
                     "given the bet, P(J) = (1/2·1/5) / (1/2·1/5 + 1/2·1) = 1/6. Redo the "
                     "call with those odds.", "ignored-bet")
    if choice == "p" and near(0.0):
        return wrong("Right action, but folding is not free: player 2's ante (1) stays in "
                     "the pot, so folding wins −1.", "fold-free")
    if choice == best:
        return wrong(f"Right action ({ACTION_WORDS[best]}). Its value is the ante player 2 "
                     f"gives up: {best_value:+.0f}.", "value")
    return wrong("Not quite. First find how likely each card of player 1 is, given that it "
                 "bet (Bayes: a king is always bet, a jack one time in five). Then compare "
                 "calling (win 2 against J, lose 2 against K) with folding (lose the ante).")


@lru_cache(maxsize=1)
def _exploit_targets() -> dict:
    from ..analysis.evaluation import best_response, expected_values, exploitability
    from ..solvers import solve

    game = _kuhn()
    trace = solve(game, "cfr", EXPLOIT_ITERATION, seed=0, progress=False)
    average, current = trace.average_policy(), trace.current_policy()
    br0 = best_response(game, average, 0).value
    br1 = best_response(game, average, 1).value
    v1, v2 = expected_values(game, average)
    return {"answer": exploitability(game, average), "nash_conv": br0 + br1,
            "br0": br0, "br1": br1, "gain0": br0 - v1, "gain1": br1 - v2,
            "current": exploitability(game, current),
            "uniform": exploitability(game, Policy.uniform(game))}


def check_exploitability(answer) -> Feedback:
    """Exercise 2: exploitability of vanilla CFR's average strategy after 100 iterations."""
    if unanswered(answer):
        return not_done("Set `my_exploitability` to one number computed with "
                        "cfrviz.best_response.")
    value = as_number(answer)
    if value is None:
        return wrong(f"Expected one number; got {answer!r}. (A BestResponse object? Use its "
                     "`.value`.)", "not-a-number")
    t = _exploit_targets()

    def near(x):
        # answers copied from a print with three or four decimals count
        return abs(value - x) <= max(TOLERANCE / 2, 0.03 * abs(x))

    if near(t["answer"]):
        return correct(f"Yes: {t['answer']:.5f}. Player 1's best response wins "
                       f"{t['br0']:+.5f} and player 2's {t['br1']:+.5f}; their mean is the "
                       "exploitability: what a perfect exploiter who knows the strategy wins "
                       "per hand, seats alternating. It is 0 exactly at an equilibrium.")
    if near(t["nash_conv"]):
        return wrong(f"{value:.5f} is the sum of the two best responses' winnings (NashConv). "
                     "Exploitability is half of it: the average over the two seats.",
                     "nash-conv")
    if near(t["br0"]) or near(t["gain0"]):
        return wrong("That is only player 1's best response (what an exploiter wins in player "
                     "1's seat). Add player 2's best response and take the mean.", "one-sided")
    if near(t["br1"]) or near(t["gain1"]):
        return wrong("That is only player 2's best response (what an exploiter wins in player "
                     "2's seat). Add player 1's best response and take the mean.", "one-sided")
    if near(t["current"]):
        return wrong(f"{value:.5f} is the exploitability of the *current* strategy (the one "
                     f"played at iteration {EXPLOIT_ITERATION}). Measure the average "
                     "strategy, trace.average_policy(100): that is the one CFR hands you.",
                     "current")
    if near(t["uniform"]):
        return wrong("That is the exploitability of the uniform strategy (11/24). Measure CFR's "
                     "average strategy after 100 iterations.", "uniform")
    if near((t["br0"] - t["br1"]) / 2) or near(t["br0"] - t["br1"]):
        return wrong("Check the signs: each best response's value is already what that "
                     "player wins, so add them (then halve).", "sign")
    return wrong(f"Not quite. With p = trace.average_policy({EXPLOIT_ITERATION}): "
                 "(best_response(kuhn, p, 0).value + best_response(kuhn, p, 1).value) / 2.")


def exploiter(game, policy: Policy) -> Policy:
    """A profile in which each player best-responds to the other's part of ``policy``.

    Seated as player 1 it plays the best response to ``policy``'s player 2,
    and as player 2 the best response to ``policy``'s player 1: the perfect
    exploiter of a bot, who knows its strategy but never sees its cards.
    Against ``policy`` it wins, per hand with seats alternating, exactly the
    exploitability of ``policy`` (in a two-player zero-sum game).
    """
    probs = np.array(policy.probabilities)
    for player in (0, 1):
        _, choice, _ = tree_best_response(game, policy.probabilities, player)
        for info in np.flatnonzero(game.infoset_player == player):
            probs[info] = 0.0
            probs[info, int(choice[info])] = 1.0
    return Policy(game, probs)


def best_response_table(game, policy: Policy, player: int) -> str:
    """A text table of ``player``'s best response to ``policy``, set by set.

    Each row gives the set, what the situation is (Kuhn poker keys are
    described in words), each action's counterfactual value and the chosen
    action; ties and sets the opponent never lets play reach are marked.
    """
    from ..engine import counterfactual_table
    from ..play.hand import action_names

    _, choice, values = tree_best_response(game, policy.probabilities, player)
    reach = counterfactual_table(game, policy.probabilities, player)["opponent_reach"]
    names = action_names(game)
    lines = []
    mine = [int(i) for i in np.flatnonzero(game.infoset_player == player)]
    for info in sorted(mine, key=lambda i: (len(game.infoset_keys[i]), game.infoset_keys[i][1:],
                                            "JQKA".find(game.infoset_keys[i][0]))):
        key = game.infoset_keys[info]
        k = len(game.infoset_actions[info])
        try:
            situation = describe_kuhn_set(key)[1]
        except ValueError:
            situation = ""
        shown = "  ".join(f"{names[info][a]} {values[info, a]:+.4f}" for a in range(k))
        if reach[info] <= 0:
            verdict = "never reached: any action"
        elif np.isclose(values[info, :k].max(), np.sort(values[info, :k])[-2] if k > 1 else -1):
            verdict = "a tie: " + " or ".join(names[info][a] for a in range(k)
                                               if np.isclose(values[info, a],
                                                             values[info, :k].max()))
        else:
            verdict = names[info][int(choice[info])]
        lines.append(f"{key:<4} {situation:<34} {shown:<30} -> {verdict}")
    return "\n".join(lines)
