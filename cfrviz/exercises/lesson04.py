"""Checkers and small helpers for lesson 04, CFR on Kuhn poker.

Exercise 1 asks for one number read off the training explorer: the
probability that player 1 calls with a queen after check–bet (set ``"Qpb"``)
in the *average* strategy of vanilla CFR after :data:`ITERATION` iterations.
Exercise 2 asks for the ``alpha`` of the equilibrium a run landed on
(Kuhn, 1950: player 1 bets a jack with ``alpha``, a king with ``3 alpha`` and
calls with a queen with ``alpha + 1/3``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..engine import tree_reach_probabilities
from ..views.equilibrium import KUHN_COORDINATES, nearest_alpha
from . import Feedback, as_number, correct, not_done, unanswered, wrong

#: Exercise 1: which number to read, and where.
SET, ACTION, ITERATION = "Qpb", "b", 50
#: The run the lesson's explorer shows (vanilla CFR, every iteration recorded).
EXPLORER_ITERATIONS = 300
#: How close a read-off number must be (the explorer's panel shows three decimals).
READ_TOLERANCE = 6e-4
#: How close an alpha must be to the run's (the three coordinates of a run that has not fully
#: converged give slightly different alphas; any of them counts).
ALPHA_TOLERANCE = 0.01


@lru_cache(maxsize=4)
def _kuhn_run(iterations: int):
    from ..games import load_game
    from ..solvers import solve

    return solve(load_game("kuhn_poker"), "cfr", iterations, seed=0, progress=False)


def own_reach_history(trace, infoset, upto: int | None = None) -> np.ndarray:
    """The owner's own reach of ``infoset`` under the strategy played at each iteration.

    Parameters
    ----------
    trace : Trace
        A full-tree run (vanilla CFR) that recorded every iteration up to ``upto``.
    infoset : str or int
    upto : int, optional
        Last iteration (default: the trace's last).

    Returns
    -------
    numpy.ndarray, shape (upto,)
        :math:`\\pi_i^{\\sigma^t}(I)` for ``t = 1 .. upto``: the probability that the
        set's owner plays towards it (chance and the opponent left out).
    """
    game = trace.game
    info = game.infoset_index(infoset) if isinstance(infoset, str) else int(infoset)
    player = int(game.infoset_player[info])
    stop = trace.index(upto) + 1
    if not np.array_equal(trace.iterations[:stop], np.arange(1, stop + 1)):
        raise ValueError("own_reach_history needs a trace that recorded every iteration")
    # Perfect recall: the owner's own reach is the same at every node of the set, so any node
    # tells it, whatever chance and the opponent do (even where they never lead there).
    node = int(np.flatnonzero(game.infoset == info)[0])
    return np.array([tree_reach_probabilities(game, trace.current_strategy[k])[player, node]
                     for k in range(stop)])


def average_from_current(trace, infoset, upto: int | None = None,
                         weighted: bool = True) -> np.ndarray:
    """Rebuild the average strategy of one set from the strategies played.

    .. math:: \\bar\\sigma^T(I)(a) = \\frac{\\sum_{t\\le T} \\pi_i^{\\sigma^t}(I)\\,
              \\sigma^t(I)(a)}{\\sum_{t\\le T} \\pi_i^{\\sigma^t}(I)}

    (Zinkevich et al., 2007).  With ``weighted=False`` every iteration counts
    the same: the plain mean of the current strategies, which is *not* what
    CFR averages.

    Returns
    -------
    numpy.ndarray
        One probability per action of the set.
    """
    game = trace.game
    info = game.infoset_index(infoset) if isinstance(infoset, str) else int(infoset)
    k = len(game.infoset_actions[info])
    stop = trace.index(upto) + 1
    played = np.asarray(trace.current_strategy[:stop, info, :k])
    weights = own_reach_history(trace, info, upto) if weighted else np.ones(stop)
    return weights @ played / weights.sum()


def check_average_at_set(answer) -> Feedback:
    """Exercise 1: P(call) at ``"Qpb"`` in vanilla CFR's average strategy after 50 iterations."""
    if unanswered(answer):
        return not_done("Set `my_call_probability` to the number you read in the panel "
                        "(one probability, e.g. 0.5).")
    value = as_number(answer)
    if value is None:
        return wrong(f"Expected one probability (a number between 0 and 1); got {answer!r}.",
                     "not-a-number")
    if not 0 <= value <= 1:
        return wrong(f"{value:g} is not a probability: it must lie between 0 and 1.",
                     "not-a-probability")
    trace = _kuhn_run(EXPLORER_ITERATIONS)
    game = trace.game
    info, a = game.infoset_index(SET), game.infoset_actions[game.infoset_index(SET)].index(ACTION)
    k = trace.index(ITERATION)
    average = float(trace.average_strategy[k, info, a])
    current = float(trace.current_strategy[k, info, a])
    plain = float(average_from_current(trace, SET, ITERATION, weighted=False)[a])

    def near(x):
        return abs(value - x) <= READ_TOLERANCE

    if near(average):
        return correct(f"Yes: {average:.3f}. That is the average strategy, the one CFR's "
                       f"guarantee is about and the one you would deploy. The strategy played "
                       f"at iteration {ITERATION} was {current:.3f}: the current strategy still "
                       "swings from iteration to iteration.")
    if near(current):
        return wrong(f"{current:.3f} is the *current* strategy, the one played at iteration "
                     f"{ITERATION} (row 'strategy played'). CFR's guarantee is about the "
                     f"average of all the strategies played so far (row 'average strategy'); "
                     "the current one keeps swinging and can be exploited.", "current")
    if near(1 - average):
        return wrong(f"{value:.3f} is the average probability of folding (p) at {SET!r}. The "
                     "question asks for calling, the action b.", "fold-not-call")
    if near(1 - current):
        return wrong(f"{value:.3f} is the probability of folding in the *current* strategy. "
                     "Read the row 'average strategy', column b (call).", "current")
    if near(plain):
        return wrong(f"{value:.3f} is the plain mean of the strategies played in iterations "
                     f"1..{ITERATION}. CFR weights each iteration by player 1's own "
                     f"probability of reaching {SET!r} (how often it checked its queen then): "
                     "a strategy at a set you rarely reach counts for little.", "unweighted")
    if near(float(trace.average_strategy[-1, info, a])):
        return wrong(f"{value:.3f} is the average strategy at {SET!r} after "
                     f"{int(trace.iterations[-1])} iterations, the end of the timeline. Move the "
                     f"timeline to iteration {ITERATION} (the cell above does it for you).",
                     "other-iteration")
    for row, key in enumerate(game.infoset_keys):
        if key != SET and near(float(trace.average_strategy[k, row, 1])):
            return wrong(f"{value:.3f} is the average probability of b at {key!r}, another "
                         f"information set. Pick {SET!r} (player 1 holds a queen, checked, and "
                         "player 2 bet).", "other-set")
    return wrong(f"Not quite. Select {SET!r} (or click one of its nodes), put the timeline on "
                 f"iteration {ITERATION}, and read the row 'average strategy' in column b.")


def alpha_estimates(policy_or_trace) -> dict:
    """Three estimates of ``alpha`` from player 1's strategy, and the nearest equilibrium's.

    Returns
    -------
    dict
        ``{"bet J": P(b|J), "bet K / 3": P(b|K)/3, "call Q - 1/3": P(b|Qpb) - 1/3,
        "nearest": alpha of the closest point of the segment}``.
    """
    point = _coordinates(policy_or_trace)
    return {"bet J": float(point[0]), "bet K / 3": float(point[1] / 3),
            "call Q - 1/3": float(point[2] - 1 / 3), "nearest": nearest_alpha(point)[0]}


def _coordinates(policy_or_trace, current: bool = False) -> np.ndarray:
    if hasattr(policy_or_trace, "average_strategy"):
        trace = policy_or_trace
        game = trace.game
        table = trace.current_strategy[-1] if current else trace.average_strategy[-1]
    else:
        game, table = policy_or_trace.game, policy_or_trace.probabilities
    rows = [game.infoset_index(key) for key, _ in KUHN_COORDINATES]
    cols = [game.infoset_actions[r].index(a) for r, (_, a) in zip(rows, KUHN_COORDINATES)]
    return np.array([table[r, c] for r, c in zip(rows, cols)])


def check_alpha(answer, trace, others=()) -> Feedback:
    """Exercise 2: the ``alpha`` of the equilibrium ``trace``'s average strategy landed on.

    Parameters
    ----------
    answer
        The student's alpha.
    trace : Trace
        The run asked about (a Kuhn poker trace).
    others : iterable of Trace, optional
        Other runs on screen, to recognise the alpha of the wrong run.
    """
    if unanswered(answer):
        return not_done("Set `my_alpha` to one number between 0 and 1/3.")
    value = as_number(answer)
    if value is None:
        return wrong(f"Expected one number (alpha); got {answer!r}.", "not-a-number")
    try:
        estimates = alpha_estimates(trace)
        current = _coordinates(trace, current=True)
    except Exception as error:  # the trace is not a Kuhn run: say so, never raise
        return wrong(f"Could not read a Kuhn poker run from {type(trace).__name__}: {error}")
    alpha = estimates["nearest"]
    candidates = [alpha] + [estimates[k] for k in ("bet J", "bet K / 3", "call Q - 1/3")]

    def near(x, tol=ALPHA_TOLERANCE):
        return abs(value - x) <= tol

    shown = (f"bet J {estimates['bet J']:.3f}, bet K / 3 {estimates['bet K / 3']:.3f}, "
             f"call Q − 1/3 {estimates['call Q - 1/3']:.3f}")
    if any(near(x) for x in candidates):
        return correct(f"Yes: alpha ≈ {alpha:.3f} ({shown}). Three different readings of the "
                       "same alpha agree because the run sits on the segment of equilibria. "
                       "Another algorithm or another sampling seed lands somewhere else on it.")
    point = _coordinates(trace)
    if near(point[1]):
        return wrong(f"{value:.3f} is P(bet | K), which is 3·alpha at an equilibrium. Divide "
                     "by 3.", "bet-king")
    if near(point[2]):
        return wrong(f"{value:.3f} is P(call | Q after check–bet), which is alpha + 1/3 at an "
                     "equilibrium. Subtract 1/3.", "call-queen")
    if near(1 - point[0]) or near(1 - point[1]):
        return wrong(f"{value:.3f} is a probability of *checking*. alpha is the probability of "
                     "betting a jack.", "check-not-bet")
    from_current = nearest_alpha(current)[0]
    if near(from_current, ALPHA_TOLERANCE / 2) and not near(alpha, 3 * ALPHA_TOLERANCE):
        return wrong(f"{value:.3f} comes from the *current* strategy (the last one played). The "
                     "run's answer is its average strategy: use trace.average_policy().",
                     "current")
    for other in others:
        if other is trace:
            continue
        try:
            theirs = alpha_estimates(other)["nearest"]
        except Exception:
            continue
        if near(theirs, ALPHA_TOLERANCE / 2):
            return wrong(f"{value:.3f} is where another run ({other.algorithm}) landed. Each "
                         "run lands at its own alpha: read this run's average strategy.",
                         "other-run")
    if not 0 <= value <= 1 / 3 + 1e-9:
        return wrong(f"alpha lies between 0 and 1/3; {value:.3f} does not. Read P(bet | J) from "
                     "the run's average strategy (that is alpha).", "out-of-range")
    return wrong("Not quite. At an equilibrium alpha = P(bet | J) = P(bet | K)/3 = "
                 "P(call | Q, check–bet) − 1/3: read any of the three from the run's "
                 "average strategy.")


_SITUATIONS = {"": ("player 1", "first to act", "bet"),
               "p": ("player 2", "player 1 checked", "bet"),
               "b": ("player 2", "player 1 bet", "call"),
               "pb": ("player 1", "checked, then player 2 bet", "call")}


def describe_kuhn_set(key: str) -> tuple[str, str, str]:
    """``(who, situation, what action b means)`` for a Kuhn poker information-set key.

    Kuhn keys are the owner's card followed by the betting so far, in ``p``
    (pass: check or fold) and ``b`` (bet or call): ``"Qpb"`` is player 1
    holding a queen after checking and facing a bet.
    """
    if not isinstance(key, str) or len(key) < 1 or key[1:] not in _SITUATIONS:
        raise ValueError(f"not a Kuhn poker information-set key: {key!r}")
    who, situation, b = _SITUATIONS[key[1:]]
    return who, f"holds {key[0]}, {situation}", b


def strategy_table(game, columns: dict, action: str = "b") -> str:
    """A text table of ``P(action)`` at every Kuhn set, one column per named policy.

    Parameters
    ----------
    game : GameTree
        Kuhn poker.
    columns : dict
        ``{column title: Policy}``.
    action : str
        Which action's probability to show (``"b"``: bet or call).
    """
    titles = list(columns)
    order = sorted(game.infoset_keys,
                   key=lambda k: (describe_kuhn_set(k)[0], len(k), "JQK".index(k[0])))
    width = max(8, *(len(t) for t in titles))
    lines = [f"{'set':<5} {'who':<9} {'situation':<35} {'b =':<5} "
             + " ".join(f"{t:>{width}}" for t in titles)]
    for key in order:
        who, situation, b = describe_kuhn_set(key)
        probs = [columns[t][key][action] for t in titles]
        lines.append(f"{key:<5} {who:<9} {situation:<35} {b:<5} "
                     + " ".join(f"{p:>{width}.3f}" for p in probs))
    return "\n".join(lines)
