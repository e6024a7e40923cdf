"""Checkers and small helpers for lesson 05, best response and exploitability.

Exercise 1: player 2's best response at one Kuhn spot by hand (a best response that peeks at
player 1's card is the classic slip).  Exercise 2: a best response as code, compared on Kuhn
and Leduc poker with cfrviz's and with the reference's wrong versions (:data:`CODE_MISTAKES`).
Exercise 3: an exploitability from two best responses.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from ..analysis.evaluation import reach_probabilities
from ..core.policy import Policy
from ..engine import tree_best_response
from ..reference import mistakes as reference_mistakes
from ..solvers.subtrees import node_values
from . import Feedback, as_number, unanswered, wrong
from .coding import checks, run_student
from .diagnosis import Case, diagnose, fallback, screen
from .lesson04 import describe_kuhn_set, strategy_table  # noqa: F401  (used by the lesson)

#: Exercise 1: player 1's first move (the other sets do not matter for the spot).
BLUFFER = {"J": {"p": 0.8, "b": 0.2}, "Q": {"p": 1.0, "b": 0.0}, "K": {"p": 0.0, "b": 1.0}}
#: Exercise 1: the information set where player 2 must choose (holds Q, player 1 bet).
SPOT = "Qb"
#: Exercise 3: the CFR run and iteration whose average strategy is measured (one the lesson
#: prints no exploitability for: it prints 10, 100 and 10,000 after the exercise).
EXPLOIT_ITERATION = 30
#: Exercise 3: other iterations whose average a student might measure by mistake.
OTHER_ITERATIONS = (1, 10, 50, 100, 200, 500, 1000, 2000, 5000, 10_000)
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
    """Everything about one decision of a best response, node by node (below the set both
    players follow ``policy``: in the lesson's spot every action ends the hand).

    Returns a dict: ``nodes``, per node of the set its history, the opponent-and-chance reach
    and each action's value; ``counterfactual``, each action's reach-weighted sum over the
    nodes; ``conditional``, each action's value given that play reached the set; ``best``, the
    honest best action, and ``value``, its conditional value; ``peeking``, the choice per node
    of a player who saw the opponent's card, and ``peeking_value``, what it would expect.
    """
    info = game.infoset_index(infoset)
    player = int(game.infoset_player[info])
    reach = reach_probabilities(game, policy)
    weight = reach[2] * reach[1 - player]
    values = node_values(game, np.asarray(policy.probabilities))[:, player]
    actions = game.infoset_actions[info]
    table = [{"node": n, "history": game.history[n], "reach": float(weight[n]),
              "values": values[game.children[n]]} for n in game.infoset_members(info)]
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
    """Exercise 1: player 2's best response at ``"Qb"`` against :data:`BLUFFER` (``"fold"``
    or ``"call"``) and its value each time it faces the bet: fold, −1 (to 0.005)."""
    return diagnose(as_number(value), by_hand_cases(_spot(), action, value))


def _peeking(spot: dict) -> str:
    """Exercise 1's message for the value (or the per-card answer) of a peeking response."""
    words = ", ".join(f"{ACTION_WORDS[a]} against {_opponent_card(h)}"
                      for h, a in spot["peeking"].items())
    return (f"That is a best response that peeks at player 1's card: {words} would expect "
            f"{spot['peeking_value']:+.3f}. But player 2 sees only its own queen and the bet: "
            "both deals (player 1 holding J or K) are one information set, so player 2 must "
            "choose one action for both, weighting each deal by how likely it is given the bet. "
            "A 'best response' that reads hidden cards is not a strategy player 2 can play, and "
            "it overstates how exploitable player 1 is.")


def by_hand_cases(spot: dict, action, value) -> tuple[Case, ...]:
    """Exercise 1's table over the value as a number, for the answers ``action`` and ``value``
    about ``spot`` (:func:`spot_analysis` of the lesson's spot)."""
    conditional = dict(zip(spot["actions"], spot["conditional"]))
    best, best_value, peek = spot["best"], spot["value"], spot["peeking_value"]
    peek_message = _peeking(spot)
    choice = _action(action)
    reach, call, fold = spot["reach"], conditional["b"], conditional["p"]

    def near(x: float) -> Callable[[float], bool]:
        return lambda number: abs(number - x) <= SPOT_TOLERANCE

    def counterfactual() -> float:
        return float(spot["counterfactual"][spot["actions"].index(choice)])

    return (
        Case.not_done(lambda _: unanswered(action) and unanswered(value),
                      "Set `my_action` to 'fold' or 'call' and `my_value` to what that action "
                      "wins, on average, each time player 2 faces the bet."),
        Case("peeking", lambda _: isinstance(action, (dict, list, tuple)) and len(action) > 1,
             peek_message),
        Case("peeking", lambda number: number is not None and near(peek)(number), peek_message),
        Case.not_done(lambda _: unanswered(action), "Also set `my_action` to 'fold' or 'call'."),
        Case("not-an-action", lambda _: choice is None,
             f"`my_action` should be 'fold' or 'call'; got {action!r}."),
        Case.not_done(lambda _: unanswered(value),
                      "Also set `my_value`: what the chosen action wins on average each time "
                      "player 2 faces the bet."),
        Case("not-a-number", lambda number: number is None,
             f"`my_value` should be one number; got {value!r}."),
        Case.correct(lambda number: choice == best and near(best_value)(number),
                     f"Yes: {ACTION_WORDS[best]}, {best_value:+.3f}. Given the bet, player 1 "
                     "holds J with probability 1/6 and K with 5/6 (a king is always bet, a jack "
                     f"one time in five), so calling wins 2·(1/6) − 2·(5/6) = {call:+.3f}, "
                     f"worse than the {fold:+.0f} of folding. Against this strategy, bluffs are "
                     "too rare to be worth catching."),
        Case("counterfactual", lambda number: choice == best and near(counterfactual())(number),
             lambda number: f"Right action; {number:+.3f} is its counterfactual value, weighted "
                            f"by how often play reaches the spot ({reach:.3f} of all deals). Per "
                            "time player 2 faces the bet, divide by that reach: "
                            f"{counterfactual():+.3f} / {reach:.3f}."),
        Case("call", lambda number: choice == "b" and near(call)(number),
             f"Your value for calling is right ({call:+.3f}), but folding loses only "
             f"{-fold:.0f} (the ante already in the pot). The best response takes the action "
             "that loses less: fold."),
        Case("ignored-bet", lambda number: choice == "b" and near(0.0)(number),
             "Calling is worth 0 only if J and K were equally likely. But player 1 bets every "
             "king and only one jack in five, so a bet tells you a lot: given the bet, P(J) = "
             "(1/2·1/5) / (1/2·1/5 + 1/2·1) = 1/6. Redo the call with those odds."),
        Case("fold-free", lambda number: choice == "p" and near(0.0)(number),
             "Right action, but folding is not free: player 2's ante (1) stays in the pot, so "
             "folding wins −1."),
        Case("value", lambda _: choice == best,
             f"Right action ({ACTION_WORDS[best]}). Its value is the ante player 2 gives up: "
             f"{best_value:+.0f}."),
        fallback("Not quite. First find how likely each card of player 1 is, given that it bet "
                 "(Bayes: a king is always bet, a jack one time in five). Then compare calling "
                 "(win 2 against J, lose 2 against K) with folding (lose the ante)."),
    )


# --- exercise 2: a best response, as code ---------------------------------------------------

#: Seed of the random strategies the code checker plays against.
CODE_SEED = 5


def _random_strategy(game, rng: np.random.Generator, zeros: bool) -> np.ndarray:
    """A random profile, each set's legal actions drawn from a Dirichlet(1) distribution; with
    ``zeros`` about a third of the sets put all weight on one action, so that some sets are
    never reached (a best response must cope with zero weights)."""
    probs = np.zeros(game.legal_mask.shape)
    for info in range(game.num_infosets):
        k = int(game.legal_mask[info].sum())
        row = rng.dirichlet(np.ones(k))
        if zeros and rng.random() < 1 / 3:
            row = np.eye(k)[rng.integers(k)]
        probs[info, :k] = row
    return probs


@lru_cache(maxsize=1)
def code_cases() -> tuple:
    """The (game, name, strategy, player) cases the code checker tries, in order: Kuhn poker
    against the uniform strategy, the lesson's honest player 1 and bluffer and three random
    strategies, then Leduc poker against two random ones, in both seats.  The responder's own
    rows are random too, so that a best response that reads them is caught."""
    from ..games import load_game

    kuhn, leduc = _kuhn(), load_game("leduc_poker")
    rng = np.random.default_rng(CODE_SEED)
    honest = {"J": {"p": 1, "b": 0}, "Q": {"p": 1, "b": 0}, "K": {"p": 0, "b": 1},
              "Jpb": {"p": 1, "b": 0}, "Qpb": {"p": 1, "b": 0}, "Kpb": {"p": 0, "b": 1}}
    named = [("the uniform strategy", Policy.uniform(kuhn).probabilities),
             ("the honest player 1", Policy.from_dict(kuhn, honest).probabilities),
             ("the bluffer", Policy.from_dict(kuhn, BLUFFER).probabilities)]
    named += [(f"random strategy {i}", _random_strategy(kuhn, rng, zeros=i > 1))
              for i in (1, 2, 3)]
    cases = [(kuhn, name, probs, player) for name, probs in named for player in (0, 1)]
    cases += [(leduc, f"random strategy {i}", _random_strategy(leduc, rng, zeros=i == 2), player)
              for i in (1, 2) for player in (0, 1)]
    for _, _, probs, _ in cases:
        probs.setflags(write=False)
    return tuple(cases)


#: A best response's value computed right (the defaults), or with one typical mistake
#: (``weight``, ``per_node``, ``minimise``, ``utility_of``, ``negate``): the reference's
#: recursion with one step swapped, :func:`cfrviz.reference.mistakes.best_response`.
variant_best_response = reference_mistakes.best_response


#: The typical mistakes of a best response written as code: name, the wrong versions
#: (keywords of :func:`variant_best_response`) and what to say.
CODE_MISTAKES = (
    ("clairvoyant", ({"per_node": True},),
     "Your function picks the best action at each *node*: it sees the opponent's cards. "
     "Player {who} sees only its own card and the betting, so all the nodes of one "
     "information set must get the same action: the one whose values, summed over the set's "
     "nodes (each weighted by chance's and the opponent's reach), are largest. Your value, "
     "{got:+.5f}, is more than any real strategy can win ({want:+.5f})."),
    ("no-chance", ({"weight": "opponent"},),
     "You left out chance: weight each node by chance's reach times the opponent's, "
     "reach[2] * reach[1 - player]. Without it every deal counts as if it were certain "
     "(in Kuhn poker your values are 6 times too large)."),
    ("own-reach", ({"weight": "own"}, {"weight": "all"}),
     "You weighted by the best responder's own reach, reach[player]. The responder's moves "
     "are not given: it is choosing them now, so only chance's and the opponent's reach "
     "weigh a node: reach[2] * reach[1 - player]."),
    ("no-opponent", ({"weight": "chance"},),
     "You weighted each node by chance alone. The opponent's strategy is what the best "
     "response answers: multiply by the opponent's reach too, reach[2] * reach[1 - player]."),
    ("unweighted", ({"weight": "none"},),
     "You added the payoffs without weights. Each terminal counts with how likely chance and "
     "the opponent make it: reach[2] * reach[1 - player]."),
    ("minimise", ({"minimise": True},),
     "For player 2 your function takes the action with the *smallest* value: that is the "
     "worst response. Every player maximises its own payoff; with player 2's payoffs, "
     "tree.utility[node, 1], the best response of player 2 takes the largest value too."),
    ("sign", ({"utility_of": "first"},),
     "For player 2 you counted player 1's payoffs, tree.utility[node, 0]: your best "
     "response helps player 1. Use the responder's own column, tree.utility[node, player]."),
    ("opponent-value", ({"negate": True}, {"utility_of": "first", "minimise": True}),
     "Your function returns the opponent's payoff: the best response is right, but report "
     "what the responder wins, not what the other player gets (in a zero-sum game, minus "
     "it). With tree.utility[node, player] and the largest value the number comes out "
     "right for both players."),
)


@lru_cache(maxsize=1)
def _code_targets() -> tuple:
    """The exact value of each case of :func:`code_cases`, and each mistake's values."""
    cases = code_cases()
    exact = [tree_best_response(game, probs, player)[0] for game, _, probs, player in cases]
    mistakes = {name: [[variant_best_response(game, probs, player, **kw)
                        for game, _, probs, player in cases] for kw in versions]
                for name, versions, _ in CODE_MISTAKES}
    return exact, mistakes


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


_CODE_HINTS = {
    IndexError: "The arguments: `tree` is a GameTree (tree.player[node], tree.children[node], "
                "tree.infoset[node], tree.utility[node, player]), `policy` a numpy array with "
                "one row per information set and one column per action, `player` is 0 or 1; "
                "reach_probabilities(tree, policy) has shape (3, nodes).",
    TypeError: "`tree.children[node]` is an array of node ids; `policy[info, a]` a "
               "probability; `player` the int 0 or 1.",
    KeyError: "Information sets are numbered: tree.infoset[node] is an int, and the choice "
              "of a set is made once, before it is read.",
}


def _answer_functions() -> dict:
    """The package's functions that compute exercise 2's answer, by the name a student knows
    them under: the exercise is to write one, so a function that calls them is refused."""
    from ..analysis.evaluation import best_response, exploitability, nash_conv
    from ..reference.evaluation import BestResponseWalk
    from ..reference.evaluation import tree_best_response as reference_best_response

    return {best_response: "cfrviz.best_response", tree_best_response: "the engine's best "
            "response (cfrviz.engine.tree_best_response)",
            reference_best_response: "cfrviz.reference's best response",
            BestResponseWalk.value: "cfrviz.reference's best response (BestResponseWalk)",
            exploitability: "cfrviz.exploitability (two best responses)",
            nash_conv: "cfrviz.nash_conv (two best responses)",
            variant_best_response: "the checker's own best response "
            "(check.variant_best_response)",
            exploiter: "the checker's exploiter (a best response in both seats)"}


@checks("`my_best_response`", "check_best_response_code(my_best_response)")
def check_best_response_code(function) -> Feedback:
    """Exercise 2: ``function(tree, policy, player)`` returns what ``player``'s best response wins,
    equal to the engine's to 1e-9 on every case of :func:`code_cases`, without calling
    :func:`_answer_functions` or changing ``policy``; a wrong value is named if one version of
    :data:`CODE_MISTAKES` reproduces every value."""
    cases = code_cases()
    exact, mistakes = _code_targets()
    got: list[float] = []
    for game, name, probs, player in cases:
        given = probs.copy()  # writable, as a student's own table would be; to read only
        out, problem = run_student(lambda g=game, p=given, i=player: function(g, p, i),
                                   name="`my_best_response`", hints=_CODE_HINTS,
                                   forbidden=_answer_functions(), unchanged=[("policy", given)])
        value = as_number(out)
        if problem is None and value is None:
            shown = "None (a missing `return`?)" if out is None else repr(out)
            problem = wrong(f"`my_best_response` should return one number, what the best "
                            f"response wins; against {name} in {game.name} as player "
                            f"{player + 1} it returned {shown}.", "not-a-number")
        if problem is not None:
            return problem
        assert value is not None
        got.append(value)
    return diagnose(got, code_verdicts(cases, exact, mistakes))


def code_verdicts(cases, exact, mistakes) -> tuple[Case, ...]:
    """Exercise 2's table over the values the student's function returned for ``cases``:
    right everywhere, or one of :data:`CODE_MISTAKES` everywhere, or neither."""
    kuhn_cases = sum(1 for c in cases if c[0].name == "kuhn_poker")

    def matches(values) -> Callable[[list], bool]:
        return lambda got: all(_same(a, b) for a, b in zip(got, values))

    def any_of(versions) -> Callable[[list], bool]:
        return lambda got: any(matches(values)(got) for values in versions)

    def first(got) -> int:
        return next(i for i, (a, b) in enumerate(zip(got, exact)) if not _same(a, b))

    def explained(message: str) -> Callable[[list], str]:
        return lambda got: message.format(who=cases[first(got)][3] + 1, got=got[first(got)],
                                          want=exact[first(got)])

    def unexplained(got) -> str:
        game, name, _, player = cases[first(got)]
        return (f"Against {name} in {game.name}, as player {player + 1}, your function "
                f"returned {got[first(got)]:+.6f}; the best response wins "
                f"{exact[first(got)]:+.6f}. Check the three parts: each terminal's payoff for "
                "`player` times reach[2] * reach[1 - player]; chance and opponent nodes add up "
                "their children; at the player's sets one action for the whole set, the one "
                "with the largest sum over the set's nodes.")

    return (
        Case.correct(matches(exact),
                     f"Your best response wins exactly what cfrviz.best_response finds in all "
                     f"{len(cases)} cases: {kuhn_cases} in Kuhn poker (six strategies, both "
                     f"seats) and {len(cases) - kuhn_cases} in Leduc poker "
                     f"({cases[-1][0].num_infosets} information sets). One action per set, "
                     "chosen by values weighted by chance and the opponent: that is all a best "
                     "response is."),
        *(Case(mistake, any_of(mistakes[mistake]), explained(message))
          for mistake, _, message in CODE_MISTAKES),
        fallback(unexplained),
    )


@lru_cache(maxsize=1)
def _exploit_targets() -> dict:
    from ..analysis.evaluation import best_response, expected_values, exploitability
    from ..solvers import solve

    game = _kuhn()
    marks = sorted({EXPLOIT_ITERATION, *OTHER_ITERATIONS})
    trace = solve(game, "cfr", max(marks), seed=0, checkpoints=marks, progress=False)
    average = trace.average_policy(EXPLOIT_ITERATION)
    current = trace.current_policy(EXPLOIT_ITERATION)
    others = {t: float(trace.exploitability[trace.index(t)]) for t in OTHER_ITERATIONS}
    br0 = best_response(game, average, 0).value
    br1 = best_response(game, average, 1).value
    v1, v2 = expected_values(game, average)
    return {"answer": exploitability(game, average), "nash_conv": br0 + br1,
            "br0": br0, "br1": br1, "gain0": br0 - v1, "gain1": br1 - v2,
            "current": exploitability(game, current),
            "uniform": exploitability(game, Policy.uniform(game)), "others": others}


def check_exploitability(answer) -> Feedback:
    """Exercise 3: exploitability of vanilla CFR's average strategy after
    :data:`EXPLOIT_ITERATION` iterations."""
    value = as_number(answer)
    unreadable = screen(value, (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_exploitability` to one number computed with "
                      "cfrviz.best_response."),
        Case("not-a-number", lambda v: v is None,
             f"Expected one number; got {answer!r}. (A BestResponse object? Use its "
             "`.value`.)"),
    ))
    if unreadable is not None:
        return unreadable
    return diagnose(value, exploitability_cases(_exploit_targets()))


def exploitability_cases(t: dict) -> tuple[Case, ...]:
    """Exercise 3's table, from the numbers of :func:`_exploit_targets`: the answer, and what
    a student might compute instead."""

    def near(x: float) -> Callable[[float], bool]:
        # answers copied from a print with three or four decimals count
        return lambda value: abs(value - x) <= max(TOLERANCE / 2, 0.03 * abs(x))

    def other_iteration(value: float) -> int | None:
        found = [it for it, x in t["others"].items() if near(x)(value)]
        return min(found, key=lambda it: abs(t["others"][it] - value)) if found else None

    return (
        Case.correct(near(t["answer"]),
                     f"Yes: {t['answer']:.5f}. Player 1's best response wins {t['br0']:+.5f} "
                     f"and player 2's {t['br1']:+.5f}; their mean is the exploitability: what a "
                     "perfect exploiter who knows the strategy wins per hand, seats alternating. "
                     "It is 0 exactly at an equilibrium."),
        Case("nash-conv", near(t["nash_conv"]),
             lambda v: f"{v:.5f} is the sum of the two best responses' winnings (NashConv). "
                       "Exploitability is half of it: the average over the two seats."),
        Case("one-sided", lambda v: near(t["br0"])(v) or near(t["gain0"])(v),
             "That is only player 1's best response (what an exploiter wins in player 1's "
             "seat). Add player 2's best response and take the mean."),
        Case("one-sided", lambda v: near(t["br1"])(v) or near(t["gain1"])(v),
             "That is only player 2's best response (what an exploiter wins in player 2's "
             "seat). Add player 1's best response and take the mean."),
        Case("current", near(t["current"]),
             lambda v: f"{v:.5f} is the exploitability of the *current* strategy (the one "
                       f"played at iteration {EXPLOIT_ITERATION}). Measure the average "
                       f"strategy, trace.average_policy({EXPLOIT_ITERATION}): that is the one CFR "
                       "hands you."),
        Case("uniform", near(t["uniform"]),
             "That is the exploitability of the uniform strategy (11/24). Measure CFR's average "
             f"strategy after {EXPLOIT_ITERATION} iterations."),
        Case("percentage", near(100 * t["answer"]),
             lambda v: f"{v:g} looks like a percentage: the exploitability is in chips per "
                       f"hand, {v / 100:.5f}, not a fraction of anything. Give the number "
                       "itself."),
        Case("wrong-iteration", lambda v: other_iteration(v) is not None,
             lambda v: f"{v:.5f} is the exploitability of the average strategy after "
                       f"{other_iteration(v):,} iterations "
                       f"(trace.average_policy({other_iteration(v)})). The exercise asks after "
                       f"{EXPLOIT_ITERATION}: trace.average_policy({EXPLOIT_ITERATION})."),
        Case("sign", lambda v: near((t["br0"] - t["br1"]) / 2)(v) or near(t["br0"] - t["br1"])(v),
             "Check the signs: each best response's value is already what that player wins, so "
             "add them (then halve)."),
        fallback(f"Not quite. With p = trace.average_policy({EXPLOIT_ITERATION}): "
                 "(best_response(kuhn, p, 0).value + best_response(kuhn, p, 1).value) / 2."),
    )


def exploiter(game, policy: Policy) -> Policy:
    """The perfect exploiter of a bot playing ``policy``: in each seat, the best response to
    the other seat's part of ``policy``.  Against ``policy`` it wins, per hand with seats
    alternating, exactly ``policy``'s exploitability (two-player zero-sum)."""
    from ..analysis.evaluation import best_response

    probs = np.array(policy.probabilities)
    for player in (0, 1):
        mine = game.infoset_player == player
        probs[mine] = best_response(game, policy, player).policy.probabilities[mine]
    return Policy(game, probs)


def best_response_table(game, policy: Policy, player: int) -> str:
    """A text table of ``player``'s best response to ``policy``, one row per set: the set, its
    situation in words (Kuhn poker), each action's counterfactual value and the choice, ties
    and sets play never reaches marked."""
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
        elif np.isclose(np.max(values[info, :k]), np.sort(values[info, :k])[-2] if k > 1 else -1):
            verdict = "a tie: " + " or ".join(names[info][a] for a in range(k)
                                               if np.isclose(values[info, a],
                                                             np.max(values[info, :k])))
        else:
            verdict = names[info][int(choice[info])]
        lines.append(f"{key:<4} {situation:<34} {shown:<30} -> {verdict}")
    return "\n".join(lines)
