"""Lesson 04, exercises 1 and 2: reading the average strategy at a set off the explorer,
and the alpha of the equilibrium a run landed on (plus the helpers the lesson prints with)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import numpy as np

from ...analysis.explain import infoset_snapshot
from ...engine import tree_reach_probabilities
from ...views.equilibrium import KUHN_COORDINATES, nearest_alpha
from .. import Feedback, as_number, not_done, unanswered
from ..diagnosis import Case, diagnose, fallback, screen

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
    """:math:`\\pi_i^{\\sigma^t}(I)` for ``t = 1 .. upto`` (default: the last): the probability
    that the owner of ``infoset`` (a key or an id) plays towards it under the strategy played
    at each iteration, chance and the opponent left out, from a full-tree ``trace`` that
    recorded every iteration."""
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
    """The average strategy of one set (one probability per action) rebuilt from the
    strategies played, each weighted by its owner's own reach of the set (Zinkevich et al.,
    2007); with ``weighted=False``, the plain mean, which is *not* what CFR averages."""
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
    """Exercise 1: ``answer``, P(call) at ``"Qpb"`` in the average strategy after 50
    iterations, read off ``shown``, the student's TrainingExplorer (or its trace): checked
    against that run, whatever the student trained; the explorer's timeline and selected set
    help name a wrong reading (:func:`reading_cases`)."""
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


def _near(x: float) -> Callable[[float], bool]:
    return lambda value: abs(value - x) <= READ_TOLERANCE


def _readings(trace, info: int, a: int, on_screen: int | None) -> SimpleNamespace:
    """What else a number read off ``trace``'s explorer may be: ``next_strategy`` and
    ``plain_mean`` (whether it is that), ``neighbour``, ``other_iteration`` and ``other_set``
    (the iteration or the set it was read at, or None), each a function of the number."""
    recorded = [int(t) for t in trace.iterations]
    k = trace.index(ITERATION)
    averages = {t: float(trace.average_strategy[i, info, a]) for i, t in enumerate(recorded)}
    try:
        step: float | None = float(infoset_snapshot(trace, k, info).next_strategy[a])
    except Exception:  # a trace without what the panel shows: skip this reading
        step = None
    try:
        plain: float | None = float(average_from_current(trace, SET, ITERATION,
                                                         weighted=False)[a])
    except ValueError:  # a run that did not record every iteration
        plain = None
    # The iteration on the explorer's screen first, then the closest reading of any other.
    shown = [] if on_screen is None else [recorded[on_screen]]
    sets = {key: float(trace.average_strategy[k, row, 1])
            for row, key in enumerate(trace.game.infoset_keys) if key != SET}

    def found(value: float, candidates: dict):
        return next((c for c, x in candidates.items() if _near(x)(value)), None)

    def other_iteration(value: float) -> int | None:
        closest = min(recorded, key=lambda t: abs(averages[t] - value))
        return found(value, {t: averages[t] for t in shown + [closest] if t != ITERATION})

    return SimpleNamespace(
        next_strategy=lambda v: step is not None and _near(step)(v),
        plain_mean=lambda v: plain is not None and _near(plain)(v),
        neighbour=lambda v: found(v, {t: averages[t] for t in (ITERATION - 1, ITERATION + 1)
                                      if t in averages}),
        other_iteration=other_iteration, other_set=lambda v: found(v, sets))


def reading_cases(trace, info: int, a: int, on_screen: int | None,
                  selected: int | None) -> tuple[Case, ...]:
    """Exercise 1's table: the numbers a student might read off ``trace``'s explorer instead of
    the average P(call) at :data:`SET` after :data:`ITERATION` iterations (``on_screen``: the
    record its timeline shows, ``selected``: its selected set; None for a bare trace)."""
    k = trace.index(ITERATION)
    average = float(trace.average_strategy[k, info, a])
    current = float(trace.current_strategy[k, info, a])
    near, r = _near, _readings(trace, info, a, on_screen)
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
        Case("next-strategy", r.next_strategy,
             lambda v: f"{v:.3f} is the regret-matching step: the strategy the regrets after "
                       f"iteration {ITERATION} give for the *next* iteration. Read the row "
                       "'average strategy'."),
        Case("fold-not-call", near(1 - average),
             lambda v: f"{v:.3f} is the average probability of folding (p) at {SET!r}. The "
                       "question asks for calling, the action b."),
        Case("current", near(1 - current),
             lambda v: f"{v:.3f} is the probability of folding in the *current* strategy. "
                       "Read the row 'average strategy', column b (call)."),
        Case("unweighted", r.plain_mean,
             lambda v: f"{v:.3f} is the plain mean of the strategies played in iterations "
                       f"1..{ITERATION}. CFR weights each iteration by player 1's own "
                       f"probability of reaching {SET!r} (how often it checked its queen then): "
                       "a strategy at a set you rarely reach counts for little."),
        Case("off-by-one", lambda v: r.neighbour(v) is not None,
             lambda v: f"{v:.3f} is the average strategy after iteration {r.neighbour(v)}, one "
                       f"step from {ITERATION}. The slider moves one frame at a time: check the "
                       f"label beside it reads {ITERATION}." + where),
        Case("other-iteration", lambda v: r.other_iteration(v) is not None,
             lambda v: f"{v:.3f} is the average strategy at {SET!r} after iteration "
                       f"{r.other_iteration(v)}, not {ITERATION}." + where),
        Case("other-set", lambda v: r.other_set(v) is not None,
             lambda v: f"{v:.3f} is the average probability of b at {r.other_set(v)!r}, another "
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
    """Three estimates of ``alpha`` from player 1's strategy, and the nearest equilibrium's:
    ``{"bet J": P(b|J), "bet K / 3": P(b|K)/3, "call Q - 1/3": P(b|Qpb) - 1/3, "nearest"}``."""
    point = kuhn_coordinates(policy_or_trace)
    return {"bet J": float(point[0]), "bet K / 3": float(point[1] / 3),
            "call Q - 1/3": float(point[2] - 1 / 3), "nearest": nearest_alpha(point)[0]}


def kuhn_coordinates(policy_or_trace, current: bool = False) -> np.ndarray:
    """The probabilities :data:`cfrviz.views.equilibrium.KUHN_COORDINATES` names, read from a
    policy, or from a trace's last average strategy (``current``: its last current one)."""
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
    """Exercise 2: ``answer``, the ``alpha`` of the equilibrium the average strategy of
    ``trace`` (a Kuhn poker run) landed on; ``others`` are the other runs on screen, to
    recognise the alpha of the wrong run."""
    value = as_number(answer)
    try:
        estimates = alpha_estimates(trace)
        points = kuhn_coordinates(trace), kuhn_coordinates(trace, current=True)
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


def alpha_figure(answer, trace, others=()):
    """:func:`cfrviz.kuhn_equilibrium_figure` of ``others`` and ``trace`` once ``answer``, its
    alpha, is right; before, a "not done yet" Feedback that names no alpha (the legend gives
    each run's alpha, so the figure would give exercise 2's answer away)."""
    if not check_alpha(answer, trace, others).correct:
        return not_done("This cell draws the run of exercise 2 beside the others once "
                        "`my_alpha` is right (the legend gives each run's alpha). Answer the "
                        "exercise above, or load its solution, then run this cell again.")
    from ...views.equilibrium import kuhn_equilibrium_figure

    return kuhn_equilibrium_figure([*others, trace])


def alpha_cases(trace, estimates: dict, point, current, others=()) -> tuple[Case, ...]:
    """Exercise 2's table: what else a student might give for ``trace``'s alpha, from its
    :func:`alpha_estimates`, the coordinates of its average (``point``) and current strategies
    and the ``others`` runs on screen."""
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
    """``(who, situation, what action b means)`` for a Kuhn poker information-set key, the
    owner's card and the betting so far (``"Qpb"``: player 1 holds Q, checked, faces a bet)."""
    if not isinstance(key, str) or len(key) < 1 or key[1:] not in _SITUATIONS:
        raise ValueError(f"not a Kuhn poker information-set key: {key!r}")
    who, situation, b = _SITUATIONS[key[1:]]
    return who, f"holds {key[0]}, {situation}", b


def strategy_table(game, columns: dict, action: str = "b") -> str:
    """A text table of ``P(action)`` (``"b"``: bet or call) at every set of Kuhn poker
    ``game``, one column per ``{column title: Policy}`` of ``columns``."""
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
