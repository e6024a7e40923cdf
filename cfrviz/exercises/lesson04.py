"""Checkers and small helpers for lesson 04, CFR on Kuhn poker.

Exercise 1 asks for one number read off the training explorer: the
probability that player 1 calls with a queen after check–bet (set ``"Qpb"``)
in the *average* strategy after :data:`ITERATION` iterations of the run the
student's explorer shows.
Exercise 2 asks for the ``alpha`` of the equilibrium a run landed on
(Kuhn, 1950: player 1 bets a jack with ``alpha``, a king with ``3 alpha`` and
calls with a queen with ``alpha + 1/3``).
Exercise 3 is vanilla CFR written by the student, ``my_cfr(tree, iterations)``,
compared with :func:`cfrviz.solve` and with the wrong versions of
:func:`cfr_variant_run` (:func:`check_my_cfr`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..analysis.explain import infoset_snapshot
from ..core.regret import regret_matching
from ..engine import tree_reach_probabilities
from ..views.equilibrium import KUHN_COORDINATES, nearest_alpha
from . import Feedback, as_number, correct, unanswered, wrong
from .coding import run_student
from .diagnosis import Case, diagnose, fallback, screen
from .lesson03 import node_passes

#: Exercise 1: which number to read, and where.
SET, ACTION, ITERATION = "Qpb", "b", 50
#: The run the lesson's explorer shows (vanilla CFR, every iteration recorded).
EXPLORER_ITERATIONS = 300
#: How close a read-off number must be (the explorer's panel shows three decimals).
READ_TOLERANCE = 6e-4
#: How close an alpha must be to the run's (the three coordinates of a run that has not fully
#: converged give slightly different alphas; any of them counts).
ALPHA_TOLERANCE = 0.01


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


def _on_screen(shown):
    """``(trace, record on screen or None, selected set or None)`` of an explorer or a trace."""
    if hasattr(shown, "trace") and hasattr(shown, "slider"):  # a TrainingExplorer
        try:
            return shown.trace, int(shown.index), int(shown.infoset)
        except Exception:  # an explorer that never solved: no trace to read
            return None, None, None
    if hasattr(shown, "average_strategy") and hasattr(shown, "iterations"):
        return shown, None, None
    return None, None, None


def _set_and_action(trace) -> tuple[int, int] | None:
    """The row of :data:`SET` and the column of :data:`ACTION` in ``trace``'s game, or None."""
    try:
        info = trace.game.infoset_index(SET)
        return info, trace.game.infoset_actions[info].index(ACTION)
    except Exception:  # not Kuhn poker, or not a trace
        return None


def check_average_at_set(answer, shown) -> Feedback:
    """Exercise 1: P(call) at ``"Qpb"`` in the average strategy after 50 iterations.

    Parameters
    ----------
    answer
        The number the student read.
    shown : TrainingExplorer or Trace
        The explorer the student read it from (or its trace): the answer is
        checked against that run, whatever the student trained, and the
        explorer's timeline and selected set help name a wrong reading
        (:func:`reading_cases`).
    """
    value = as_number(answer)
    trace, on_screen, selected = _on_screen(shown)
    cell = None if trace is None else _set_and_action(trace)
    recorded = [] if cell is None else [int(t) for t in trace.iterations]
    unreadable = screen(value, (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_call_probability` to the number you read in the panel (one "
                      "probability, e.g. 0.5)."),
        Case("not-a-number", lambda v: v is None,
             f"Expected one probability (a number between 0 and 1); got {answer!r}."),
        Case("no-explorer", lambda _: trace is None,
             "Pass the explorer you read the number from: "
             "check_average_at_set(my_call_probability, explorer)."),
        Case("no-explorer", lambda _: cell is None,
             f"The explorer is not showing Kuhn poker (it has no set {SET!r}): choose "
             "kuhn_poker and press Solve, or run the explorer's cell again."),
        Case("run-too-short", lambda _: ITERATION not in recorded,
             lambda _: f"The explorer's run did not record iteration {ITERATION} (it has "
                       f"{recorded[0]}..{recorded[-1]}): set iterations to "
                       f"{EXPLORER_ITERATIONS} and press Solve, then read the panel again."),
    ))
    if unreadable is not None:
        return unreadable
    assert trace is not None and cell is not None
    return diagnose(value, reading_cases(trace, *cell, on_screen, selected))


def reading_cases(trace, info: int, a: int, on_screen: int | None,
                  selected: int | None) -> tuple[Case, ...]:
    """Exercise 1's table: the numbers a student might read off ``trace``'s explorer instead of
    the average P(call) at :data:`SET` after :data:`ITERATION` iterations.

    ``on_screen`` is the record the explorer's timeline shows and ``selected`` its selected
    set (None for a bare trace).
    """
    game = trace.game
    recorded = [int(t) for t in trace.iterations]
    k = trace.index(ITERATION)

    def average_at(t: int, row: int = info, column: int = a) -> float:
        return float(trace.average_strategy[trace.index(t), row, column])

    average, current = average_at(ITERATION), float(trace.current_strategy[k, info, a])

    def near(x: float) -> Callable[[float], bool]:
        return lambda value: abs(value - x) <= READ_TOLERANCE

    def next_strategy(value: float) -> bool:
        try:
            step = float(infoset_snapshot(trace, k, info).next_strategy[a])
        except Exception:  # a trace without what the panel shows: skip this reading
            return False
        return near(step)(value)

    def plain_mean(value: float) -> bool:
        try:
            plain = float(average_from_current(trace, SET, ITERATION, weighted=False)[a])
        except ValueError:  # a run that did not record every iteration
            return False
        return near(plain)(value)

    def neighbour(value: float) -> int | None:
        return next((t for t in (ITERATION - 1, ITERATION + 1)
                     if t in recorded and near(average_at(t))(value)), None)

    def other_iteration(value: float) -> int | None:
        # The iteration on the explorer's screen first, then the closest reading of any other.
        shown_t = [] if on_screen is None else [int(trace.iterations[on_screen])]
        others = np.array([average_at(t) for t in recorded])
        closest = recorded[int(np.argmin(np.abs(others - value)))]
        return next((t for t in shown_t + [closest]
                     if t != ITERATION and near(average_at(t))(value)), None)

    def other_set(value: float) -> str | None:
        return next((key for row, key in enumerate(game.infoset_keys)
                     if key != SET and near(float(trace.average_strategy[k, row, 1]))(value)),
                    None)

    where, hint = _explorer_hints(trace, info, on_screen, selected)
    return (
        Case("percentage", lambda v: 1 < v <= 100 and abs(v / 100 - average) <= 1e-3,
             lambda v: f"{v:g} looks like a percentage. Give the probability as a number "
                       f"between 0 and 1: {v / 100:.3f}."),
        Case("not-a-probability", lambda v: not 0 <= v <= 1,
             lambda v: f"{v:g} is not a probability: it must lie between 0 and 1."),
        Case.correct(near(average),
                     f"Yes: {average:.3f}. That is the average strategy, the one CFR's guarantee "
                     f"is about and the one you would deploy. The strategy played at iteration "
                     f"{ITERATION} was {current:.3f}: the current strategy still swings from "
                     "iteration to iteration."),
        Case("current", near(current),
             f"{current:.3f} is the *current* strategy, the one played at iteration "
             f"{ITERATION} (row 'strategy played'). CFR's guarantee is about the average of all "
             "the strategies played so far (row 'average strategy'); the current one keeps "
             "swinging and can be exploited."),
        Case("next-strategy", next_strategy,
             lambda v: f"{v:.3f} is the regret-matching step: the strategy the regrets after "
                       f"iteration {ITERATION} give for the *next* iteration. Read the row "
                       "'average strategy'."),
        Case("fold-not-call", near(1 - average),
             lambda v: f"{v:.3f} is the average probability of folding (p) at {SET!r}. The "
                       "question asks for calling, the action b."),
        Case("current", near(1 - current),
             lambda v: f"{v:.3f} is the probability of folding in the *current* strategy. "
                       "Read the row 'average strategy', column b (call)."),
        Case("unweighted", plain_mean,
             lambda v: f"{v:.3f} is the plain mean of the strategies played in iterations "
                       f"1..{ITERATION}. CFR weights each iteration by player 1's own "
                       f"probability of reaching {SET!r} (how often it checked its queen then): "
                       "a strategy at a set you rarely reach counts for little."),
        Case("off-by-one", lambda v: neighbour(v) is not None,
             lambda v: f"{v:.3f} is the average strategy after iteration {neighbour(v)}, one "
                       f"step from {ITERATION}. The slider moves one frame at a time: check the "
                       f"label beside it reads {ITERATION}." + where),
        Case("other-iteration", lambda v: other_iteration(v) is not None,
             lambda v: f"{v:.3f} is the average strategy at {SET!r} after iteration "
                       f"{other_iteration(v)}, not {ITERATION}." + where),
        Case("other-set", lambda v: other_set(v) is not None,
             lambda v: f"{v:.3f} is the average probability of b at {other_set(v)!r}, another "
                       f"information set. Pick {SET!r} (player 1 holds a queen, checked, and "
                       f"player 2 bet).{hint}"),
        fallback(f"Not quite. Select {SET!r} (or click one of its nodes), put the timeline on "
                 f"iteration {ITERATION}, and read the row 'average strategy' in column b."),
    )


def _explorer_hints(trace, info: int, on_screen: int | None,
                    selected: int | None) -> tuple[str, str]:
    """What to add to a wrong reading about the explorer's timeline and its selected set."""
    where = hint = ""
    if on_screen is not None and int(trace.iterations[on_screen]) != ITERATION:
        where = (f" Your explorer's timeline is at iteration {int(trace.iterations[on_screen])};"
                 f" move it to {ITERATION}.")
    if selected is not None and selected != info:
        hint = f" The explorer has {trace.game.infoset_keys[selected]!r} selected."
    return where, hint


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
    value = as_number(answer)
    try:
        estimates = alpha_estimates(trace)
        points = _coordinates(trace), _coordinates(trace, current=True)
        problem = None
    except Exception as error:  # the trace is not a Kuhn run: say so, never raise
        problem = f"Could not read a Kuhn poker run from {type(trace).__name__}: {error}"
    unreadable = screen(value, (
        Case.not_done(lambda _: unanswered(answer), "Set `my_alpha` to one number between 0 "
                                                    "and 1/3."),
        Case("not-a-number", lambda v: v is None, f"Expected one number (alpha); got {answer!r}."),
        Case(None, lambda _: problem is not None, lambda _: str(problem)),
    ))
    if unreadable is not None:
        return unreadable
    return diagnose(value, alpha_cases(trace, estimates, *points, others))


def alpha_cases(trace, estimates: dict, point, current, others=()) -> tuple[Case, ...]:
    """Exercise 2's table: what else a student might give for ``trace``'s alpha.

    ``estimates`` is :func:`alpha_estimates` of the run, ``point`` and ``current`` the
    coordinates of its average and current strategies, ``others`` the other runs on screen.
    """
    alpha = estimates["nearest"]
    candidates = [alpha] + [estimates[k] for k in ("bet J", "bet K / 3", "call Q - 1/3")]

    def near(x: float, tol: float = ALPHA_TOLERANCE) -> Callable[[float], bool]:
        return lambda value: abs(value - x) <= tol

    def another_run(value: float):
        for other in others:
            if other is trace:
                continue
            try:
                theirs = alpha_estimates(other)["nearest"]
            except Exception:
                continue
            if near(theirs, ALPHA_TOLERANCE / 2)(value):
                return other
        return None

    from_current = nearest_alpha(current)[0]
    shown = (f"bet J {estimates['bet J']:.3f}, bet K / 3 {estimates['bet K / 3']:.3f}, "
             f"call Q − 1/3 {estimates['call Q - 1/3']:.3f}")
    return (
        Case("percentage", lambda v: 1 < v <= 100
             and any(abs(v / 100 - x) <= ALPHA_TOLERANCE for x in candidates),
             lambda v: f"{v:g} looks like a percentage. alpha is a probability: "
                       f"{v / 100:.3f}."),
        Case.correct(lambda v: any(near(x)(v) for x in candidates),
                     f"Yes: alpha ≈ {alpha:.3f} ({shown}). Three different readings of the same "
                     "alpha agree because the run sits on the segment of equilibria. Another "
                     "algorithm or another sampling seed lands somewhere else on it."),
        Case("bet-king", near(point[1]),
             lambda v: f"{v:.3f} is P(bet | K), which is 3·alpha at an equilibrium. Divide by "
                       "3."),
        Case("call-queen", near(point[2]),
             lambda v: f"{v:.3f} is P(call | Q after check–bet), which is alpha + 1/3 at an "
                       "equilibrium. Subtract 1/3."),
        Case("check-not-bet", lambda v: near(1 - point[0])(v) or near(1 - point[1])(v),
             lambda v: f"{v:.3f} is a probability of *checking*. alpha is the probability of "
                       "betting a jack."),
        Case("current", lambda v: near(from_current, ALPHA_TOLERANCE / 2)(v)
             and not near(alpha, 3 * ALPHA_TOLERANCE)(v),
             lambda v: f"{v:.3f} comes from the *current* strategy (the last one played). The "
                       "run's answer is its average strategy: use trace.average_policy()."),
        Case("other-run", lambda v: another_run(v) is not None,
             lambda v: f"{v:.3f} is where another run ({another_run(v).algorithm}) landed. "
                       "Each run lands at its own alpha: read this run's average strategy."),
        Case("out-of-range", lambda v: not 0 <= v <= 1 / 3 + 1e-9,
             lambda v: f"alpha lies between 0 and 1/3; {v:.3f} does not. Read P(bet | J) from "
                       "the run's average strategy (that is alpha)."),
        fallback("Not quite. At an equilibrium alpha = P(bet | J) = P(bet | K)/3 = "
                 "P(call | Q, check–bet) − 1/3: read any of the three from the run's average "
                 "strategy."),
    )


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


# --- exercise 3: vanilla CFR, whole -----------------------------------------------------------

#: Iterations the checker runs the student's ``my_cfr`` for: Kuhn poker, then Leduc poker,
#: where chance is not uniform (a missing chance factor changes nothing in Kuhn poker, where
#: every deal has probability 1/6, and shows in Leduc).
CFR_RUNS = (("kuhn_poker", 300), ("leduc_poker", 10))
#: When the Kuhn run differs, the student's function runs again for this many iterations
#: and is compared with the wrong versions of :func:`cfr_variant_run` (each takes a while).
DIAGNOSE_ITERATIONS = 20
#: Wrong regret weights told apart on Kuhn poker.  Chance's reach is 1/6 at every decision
#: node there, so a weight with or without it gives the same strategies: "no-chance" is
#: told apart on Leduc poker only, and chance's reach alone looks "unweighted".
#: Regrets weighted by the player's own reach and regrets not weighted at all also give the
#: same runs on Kuhn poker (measured to 300 iterations), so "own-reach" stands for both.
KUHN_WEIGHTS = ("others", "own-reach", "all-reach", "sign")

#: The weight of a node's regret: the right one (``"others"``) and the wrong ones people write.
#: ``reach`` is (nodes, 3), [player 1, player 2, chance]; ``i`` the player updated.
REGRET_WEIGHTS = {
    "others": lambda reach, i: reach[:, 2] * reach[:, 1 - i],
    "own-reach": lambda reach, i: reach[:, i],
    "all-reach": lambda reach, _i: reach.prod(axis=1),
    "no-chance": lambda reach, i: reach[:, 1 - i],
    "unweighted": lambda reach, _i: np.ones(len(reach)),
    "sign": lambda reach, i: -reach[:, 2] * reach[:, 1 - i],
}
#: The weight of an iteration's strategy in the average: the right one (``"own"``) and wrong ones.
AVERAGE_WEIGHTS = {
    "own": lambda reach, i: reach[:, i],
    "unweighted-average": lambda reach, _i: np.ones(len(reach)),
    "full-reach-average": lambda reach, _i: reach.prod(axis=1),
    "others-reach-average": lambda reach, i: reach[:, 2] * reach[:, 1 - i],
}


def cfr_variant_run(tree, iterations: int, *, alternating: bool = True, first: int = 0,
                    regret_weight: str = "others", floor: bool = False) -> dict:
    """Vanilla CFR, or a wrong version of it, by whole-tree numpy passes.

    The checker's own CFR, written with the whole-tree passes of
    :func:`~cfrviz.exercises.lesson03.node_passes` rather than a recursion, so
    that the twenty-odd variants a student's run is compared with take about
    a second for twenty iterations of Kuhn poker.  With the defaults it is
    vanilla CFR (Zinkevich et al., 2007) with alternating updates, player
    ``first`` updated first; the tests check it against :func:`cfrviz.solve`.

    Parameters
    ----------
    alternating : bool
        Update one player, then the other against the new strategy; otherwise
        both from the same strategies (simultaneous updates).
    first : int
        With alternating updates, the player updated first (0 or 1).
    regret_weight : str
        A key of :data:`REGRET_WEIGHTS`: how a node's regret is weighted.
    floor : bool
        Reset negative cumulative regrets to 0 after each update (CFR+'s rule).

    Returns
    -------
    dict
        ``{t: {name: average strategy after t iterations for each name of
        AVERAGE_WEIGHTS, "played": the strategy played in iteration t,
        "next": regret matching on the regrets after it}}`` for ``t`` in
        ``iterations - 1, iterations, iterations + 1``.
    """
    mask = tree.legal_mask
    owner = tree.infoset_player
    decisions, child = _decision_children(tree)
    info = tree.infoset[decisions]
    regret_sum = np.zeros(mask.shape)
    sums = {name: np.zeros(mask.shape) for name in AVERAGE_WEIGHTS}
    weigh = REGRET_WEIGHTS[regret_weight]

    def update(player, strategy):
        """One player's regrets under ``strategy``; adds its strategy weights to ``sums``."""
        reach, values = node_passes(tree, strategy)
        mine = owner[info] == player
        nodes, sets, r = decisions[mine], info[mine], reach[decisions[mine]]
        gain = (values[child[mine], player] - values[nodes, player][:, None]) * mask[sets]
        regret = np.zeros(mask.shape)
        np.add.at(regret, sets, weigh(r, player)[:, None] * gain)
        for name, rule in AVERAGE_WEIGHTS.items():
            np.add.at(sums[name], sets, rule(r, player)[:, None] * strategy[sets])
        return regret

    def fold(player, regret):
        rows = owner == player
        regret_sum[rows] += regret[rows]
        if floor:
            regret_sum[rows] = np.maximum(regret_sum[rows], 0.0)

    snapshots = {}
    for t in range(1, iterations + 2):
        strategy = played = regret_matching(regret_sum, mask)
        if alternating:
            for player in (first, 1 - first):
                fold(player, update(player, strategy))
                strategy = regret_matching(regret_sum, mask)
        else:
            regrets = [update(player, strategy) for player in (0, 1)]
            for player in (0, 1):
                fold(player, regrets[player])
        if t >= iterations - 1:
            snapshots[t] = {name: _normalised(total, mask) for name, total in sums.items()}
            snapshots[t].update(played=played, next=regret_matching(regret_sum, mask))
    return snapshots


def _decision_children(tree) -> tuple[np.ndarray, np.ndarray]:
    """The decision nodes, and per decision node its children in action order (0-padded)."""
    decisions = np.flatnonzero(tree.player >= 0)
    child = np.zeros((len(decisions), tree.legal_mask.shape[1]), dtype=int)
    for row, node in enumerate(decisions):
        child[row, :len(tree.children[node])] = tree.children[node]
    return decisions, child


def _normalised(sums, mask) -> np.ndarray:
    """Rows of ``sums`` divided by their totals (uniform over the legal actions where 0)."""
    total = sums.sum(axis=1, keepdims=True)
    return np.where(total > 0, sums / np.where(total > 0, total, 1.0),
                    mask / mask.sum(axis=1, keepdims=True))


#: What each wrong ingredient of a CFR run gets wrong, by name (a run can have several).
CFR_MISTAKES = {
    "own-reach": "Your regrets are weighted by the acting player's own reach, or not weighted "
                 "at all (on Kuhn poker the two give the same run, with or without chance's "
                 "1/6). CFR weights a node's regret by how likely chance and the opponent make "
                 "it, reach[chance] * reach[opponent] (lesson 03): the player's own reach is "
                 "the same at every node of a set and cannot tell which hidden card is "
                 "likelier.",
    "all-reach": "Your regrets are weighted by the whole reach, the acting player's own share "
                 "included. Leave it out: reach[chance] * reach[opponent].",
    "no-chance": "Your regrets leave out chance's reach (they use the opponent's only). In Kuhn "
                 "poker every deal has probability 1/6, so that changed nothing there, but in "
                 "Leduc poker some deals are likelier than others and your run went elsewhere. "
                 "Multiply by reach[chance] too.",
    "sign": "Your regrets have the wrong sign: regret is (value of the action) - (value of the "
            "node), so that regret matching favours the actions that did better.",
    "regret-floor": "You reset negative cumulative regrets to zero. That is CFR+'s rule "
                    "(lesson 08), a good algorithm but not vanilla CFR, and its average lands "
                    "elsewhere. Vanilla CFR keeps the negative regrets.",
    "unweighted-average": "Your average is the plain mean of the strategies played. CFR weights "
                          "each iteration's strategy at a set by the player's own reach of the "
                          "set (section 5 of this lesson).",
    "full-reach-average": "Your average weights each iteration's strategy by the whole reach "
                          "of the node, chance's and the opponent's included. It is weighted by "
                          "the player's own reach only: reach[player].",
    "others-reach-average": "Your average weights each strategy by chance's and the opponent's "
                            "reach: that is the regret's weight. The average uses the player's "
                            "own reach, reach[player].",
    "current": "You returned the current strategy (the last one regret matching gave), not the "
               "average. The regret guarantee is about the average strategy: return "
               "strategy_sum normalised at each set.",
    "off-by-one": "Your run matches CFR after one iteration more or less than asked: check the "
                  "loop runs exactly `iterations` times.",
}


def _as_strategy_table(result, tree):
    """The student's average strategy as a (sets, max actions) array, or a reason why not."""
    mask = tree.legal_mask
    if hasattr(result, "probabilities"):
        result = result.probabilities
    if isinstance(result, dict):
        return _table_from_dict(result, tree)
    if isinstance(result, (str, bytes)):
        return None, f"it returned {result!r}"
    try:
        table = np.array(result, dtype=float)
    except (TypeError, ValueError):
        return None, f"it returned a {type(result).__name__}, not numbers"
    if table.shape != mask.shape:
        return None, (f"it returned an array of shape {table.shape}; expected "
                      f"{mask.shape} (information sets x actions) or a dict "
                      "{key: probabilities}")
    return np.where(mask, table, 0.0), None


def _table_from_dict(result: dict, tree):
    """``{key: probabilities}`` (a list, or ``{action: p}``) as a strategy table, or why not."""
    missing = [key for key in tree.infoset_keys if key not in result]
    if missing:
        return None, (f"your dict has no entry for {len(missing)} of the "
                      f"{tree.num_infosets} information sets, e.g. {missing[0]!r}")
    table = np.zeros(tree.legal_mask.shape)
    for row, key in enumerate(tree.infoset_keys):
        actions, probs = tree.infoset_actions[row], result[key]
        if isinstance(probs, dict):
            if set(probs) != set(actions):
                return None, (f"at {key!r} your dict has actions {sorted(probs)}, "
                              f"not {list(actions)}")
            probs = [probs[a] for a in actions]
        try:
            values = np.array(probs, dtype=float).ravel()
        except (TypeError, ValueError):
            return None, f"at {key!r} {probs!r} is not numbers"
        if len(values) not in (len(actions), table.shape[1]):
            return None, f"at {key!r} expected {len(actions)} probabilities, got {probs!r}"
        table[row, :len(actions)] = values[:len(actions)]
    return table, None


def _diagnose_run(tree, iterations: int, table, weights=KUHN_WEIGHTS,
                  modes=((True, 0), (True, 1), (False, 0)), floors=True) -> list[str] | None:
    """The fewest wrong ingredients (names of :data:`CFR_MISTAKES`) whose run gives ``table``.

    ``[]`` when the right run gives it; None when no run tried does.
    """
    found = []
    for weight in weights:
        for floor in ((False, True) if floors and weight == "others" else (False,)):
            for alternating, first in modes:
                runs = cfr_variant_run(tree, iterations, alternating=alternating, first=first,
                                       regret_weight=weight, floor=floor)
                base = ([] if weight == "others" else [weight]) + (["regret-floor"] * floor)
                for t, snapshot in runs.items():
                    step = [] if t == iterations else ["off-by-one"]
                    for name, strategy in snapshot.items():
                        if name in ("played", "next"):
                            extra = ["current"]
                        else:
                            extra = [] if name == "own" else [name]
                        if _same(table, strategy, tree.legal_mask):
                            found.append(base + extra + step)
    return min(found, key=len) if found else None


#: How far a run of my_cfr may stray from cfrviz's and still count as vanilla CFR: float32
#: tables (about 7 significant digits) were measured 5.4e-6 off on Kuhn poker after 300
#: iterations (7.9e-7 with simultaneous updates); the nearest wrong run, one iteration more or
#: fewer, is 8.9e-4 off.  Not every float32 run stays that close: with player 2 updated first,
#: float32 rounding flips a near-tie in regret matching and the run ends 0.046 away, which no
#: tolerance can accept without accepting wrong code.
FLOAT_TOLERANCE = 1e-4


def _same(a, b, mask, loose: bool = False) -> bool:
    if loose:
        return bool(np.allclose(a[mask], b[mask], rtol=0.0, atol=FLOAT_TOLERANCE))
    return bool(np.allclose(a[mask], b[mask], rtol=1e-6, atol=1e-7))


_CFR_HINTS = {IndexError: "tree.children[node] lists a node's children in action order; "
                          "tables of shape (information sets, actions) are indexed "
                          "[tree.infoset[node], a].",
              TypeError: "`tree` is a GameTree (arrays indexed by node id), `iterations` an "
                         "int."}


def _student_run(function, tree, iterations: int):
    """Run ``my_cfr`` once: ``(table, not normalised?, seconds, None)`` or ``(.., feedback)``."""
    game = tree.name
    start = time.perf_counter()
    result, failed = run_student(lambda: function(tree, iterations), name="`my_cfr`",
                                 hints=_CFR_HINTS)
    seconds = time.perf_counter() - start
    if failed is not None:
        if failed.mistake == "crash":
            failed = wrong(f"On {game}: {failed.message}", "crash")
        return None, False, seconds, failed
    table, why = (None, None) if result is None else _as_strategy_table(result, tree)
    failed = screen(table, (
        Case("no-return", lambda _: result is None,
             "`my_cfr` returned None: return the average strategy (an array of information "
             "sets x actions, or a dict {key: probabilities})."),
        Case("shape", lambda t: t is None, f"`my_cfr` ran on {game}, but {why}."),
        Case("not-finite", lambda t: not np.all(np.isfinite(t)),
             f"On {game} your strategy holds NaN or infinite numbers: a division by a zero "
             "total? Every row of the average is the strategy sum divided by its own total."),
        Case("not-a-strategy", lambda t: not _is_strategy(t) and not _divisible(t),
             f"On {game} your result is not a strategy: at each information set the "
             "probabilities must be at least 0 and sum to 1."),
    ))
    if failed is not None:
        return None, False, seconds, failed
    assert table is not None
    if _is_strategy(table):
        return table, False, seconds, None
    return table / table.sum(axis=1)[:, None], True, seconds, None


def _is_strategy(table) -> bool:
    """Rows of probabilities: at least 0 (to rounding) and summing to 1."""
    return bool(np.all(table >= -1e-12) and np.allclose(table.sum(axis=1), 1, atol=1e-6))


def _divisible(table) -> bool:
    """Rows of non-negative strategy sums, each with a positive total: normalisable."""
    return bool(np.all(table >= 0) and np.all(table.sum(axis=1) > 0))


PLAYER_2_FIRST = "alternating (player 2 first)"
_NOT_NORMALISED = ("Your rows do not sum to 1: divide the strategy sums by their total at each "
                   "set. ")


def check_my_cfr(function) -> Feedback:
    """Exercise 3: ``function(tree, iterations)`` is vanilla CFR and returns its average strategy.

    The checker runs it on Kuhn poker for 300 iterations and compares the
    average strategy with :func:`cfrviz.solve`'s vanilla CFR, with alternating
    updates and with simultaneous ones (both are vanilla CFR; the message says
    which it recognised), then on Leduc poker for 10 iterations, where chance
    is not uniform.  Any implementation whose average strategy agrees to
    1e-6 passes, returned as an array (information sets x actions) or a dict
    ``{key: probabilities}``.  When it does not, the checker runs the
    student's function again for :data:`DIAGNOSE_ITERATIONS` iterations beside
    the wrong versions of :func:`cfr_variant_run` (the regret weights of
    :data:`REGRET_WEIGHTS`, CFR+'s regret floor, the averages of
    :data:`AVERAGE_WEIGHTS`, the current strategy, one iteration more or less)
    and names the ingredients of the one that reproduces it, from
    :data:`CFR_MISTAKES`.  A correct run's message gives the exploitability
    of the student's Kuhn strategy beside cfrviz's.
    """
    unusable = screen(function, (
        Case.not_done(unanswered, "Write `my_cfr`, then run this cell again."),
        Case("not-callable", lambda f: not callable(f),
             f"Pass the function itself, check_my_cfr(my_cfr); got {function!r}."),
    ))
    if unusable is not None:
        return unusable
    from ..analysis.evaluation import exploitability
    from ..core.policy import Policy
    from ..games import load_game
    from ..solvers import solve

    (kuhn_name, n), (leduc_name, m) = CFR_RUNS
    kuhn, leduc = load_game(kuhn_name), load_game(leduc_name)
    table, unnormalised, seconds, failed = _student_run(function, kuhn, n)
    if failed is None:
        assert table is not None
        references = {"alternating": solve(kuhn, "cfr", n, progress=False),
                      "simultaneous": solve(kuhn, "cfr", n, alternating=False, progress=False)}
        mode, loose, failed = _kuhn_mode(function, kuhn, table, unnormalised, references)
    if failed is None:
        theirs = exploitability(kuhn, Policy(kuhn, table))
        ours = float(references[mode if mode in references else "alternating"]
                     .exploitability[-1])
        failed, exact_leduc = _leduc_verdict(function, leduc, m, mode)
    if failed is not None:
        return failed
    return correct(f"Your CFR is vanilla CFR with {mode} updates: its average strategy agrees "
                   f"with cfrviz's on Kuhn poker ({n} iterations) and on Leduc poker ({m} "
                   f"iterations). On Kuhn poker your average strategy has exploitability "
                   f"{theirs:.6f}, cfrviz's {ours:.6f} (your run took {seconds:.2f} s). "
                   "Alternating and simultaneous updates are both vanilla CFR; with "
                   "alternating ones, player 2 answers player 1's updated strategy within "
                   "the same iteration." + (
                       f" Your numbers agree with cfrviz's within {FLOAT_TOLERANCE:g} but not "
                       "to 1e-6: that is what float32 tables (about 7 significant digits) or "
                       "sums added in another order give, and the checker accepts it (the "
                       "nearest wrong run, one iteration more or fewer, is about 9e-4 off "
                       "on Kuhn poker)." if loose or not exact_leduc else ""))


def _kuhn_mode(function, kuhn, table, unnormalised: bool, references: dict):
    """Which vanilla CFR the student's Kuhn run is: ``(mode, within FLOAT_TOLERANCE only?,
    None)``, or ``(None, False, feedback)`` naming what it got wrong."""
    n = int(references["alternating"].iterations[-1])
    mode = next((name for name, run in references.items()
                 if _same(table, run.average_strategy[-1], kuhn.legal_mask)), None)
    loose = False
    if mode is None:  # float32 tables, or the additions in another order: close, not equal
        mode = next((name for name, run in references.items()
                     if _same(table, run.average_strategy[-1], kuhn.legal_mask, loose=True)),
                    None)
        loose = mode is not None
    if mode is None or unnormalised:
        failed = _explain_kuhn(function, kuhn, table, unnormalised, mode, references)
        if failed is not None:
            return None, False, failed
        mode = PLAYER_2_FIRST
        loose = not _same(table, cfr_variant_run(kuhn, n, first=1)[n]["own"], kuhn.legal_mask)
    return mode, loose, None


def _leduc_verdict(function, leduc, m: int, mode: str) -> tuple[Feedback | None, bool]:
    """Run ``my_cfr`` on Leduc poker and compare with vanilla CFR in the ``mode`` Kuhn poker
    showed: ``(feedback when it differs or fails, or None; equal to 1e-6?)``."""
    from ..solvers import solve

    table, _, _, failed = _student_run(function, leduc, m)
    if failed is not None:
        return failed, False
    assert table is not None
    alternating, first = mode != "simultaneous", int(mode == PLAYER_2_FIRST)
    want = (cfr_variant_run(leduc, m, first=1)[m]["own"] if first else
            solve(leduc, "cfr", m, alternating=alternating, progress=False).average_strategy[-1])
    if _same(table, want, leduc.legal_mask):
        return None, True
    if _same(table, want, leduc.legal_mask, loose=True):
        return None, False
    names = _diagnose_run(leduc, m, table, weights=("no-chance",),
                          modes=((alternating, first),), floors=False)
    if names:
        return wrong(" ".join(CFR_MISTAKES[name] for name in names), "+".join(names)), False
    return wrong("Your run agreed with vanilla CFR on Kuhn poker but not on Leduc poker, where "
                 "some sets have three actions and some deals are likelier than others. "
                 + _difference(leduc, table, want, f"{mode} updates", m), "leduc-only"), False


def _explain_kuhn(function, kuhn, table, unnormalised, mode, references) -> Feedback | None:
    """Name what a Kuhn run that differs from vanilla CFR's got wrong, if a variant shows it.

    None when it is vanilla CFR after all, with alternating updates that start
    with player 2 (checked on the full run).
    """
    prefix = _NOT_NORMALISED if unnormalised else ""
    if unnormalised and mode is not None:
        return wrong(prefix + f"Once divided, your average matches vanilla CFR ({mode} "
                     "updates).", "not-normalised")
    n = int(references["alternating"].iterations[-1])
    if not unnormalised and _same(table, cfr_variant_run(kuhn, n, first=1)[n]["own"],
                                  kuhn.legal_mask, loose=True):
        return None  # vanilla CFR, player 2 first (within FLOAT_TOLERANCE)
    short, _, _, failed = _student_run(function, kuhn, DIAGNOSE_ITERATIONS)
    names = None
    if failed is None and short is not None:
        names = _diagnose_run(kuhn, DIAGNOSE_ITERATIONS, short)
    if names:
        names = (["not-normalised"] if unnormalised else []) + names
        return wrong(prefix + " ".join(CFR_MISTAKES[name] for name in names
                                       if name in CFR_MISTAKES), "+".join(names))
    mask = kuhn.legal_mask
    nearest = min(references, key=lambda name: float(np.abs(
        (table - references[name].average_strategy[-1])[mask]).max()))
    return wrong(prefix + _difference(kuhn, table, references[nearest].average_strategy[-1],
                                      f"{nearest} updates", n),
                 "not-normalised" if unnormalised else None)


def _difference(tree, table, want, label: str, iterations: int) -> str:
    """Where the student's average differs most from vanilla CFR's, in words."""
    row = int(np.argmax(np.abs(table - want).max(axis=1)))
    k = len(tree.infoset_actions[row])
    return (f"After {iterations} iterations on {tree.name} your average strategy differs from "
            f"vanilla CFR's ({label}) most at set {tree.infoset_keys[row]!r}: you have "
            f"{np.round(table[row, :k], 4).tolist()}, CFR {np.round(want[row, :k], 4).tolist()}. "
            "Check the regret update (chance's and the opponent's reach times action value "
            "minus node value), regret matching (uniform over the legal actions when no regret "
            "is positive) and the average (each strategy weighted by the player's own reach).")
