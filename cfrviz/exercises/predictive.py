"""Checker for lesson 09's exercise: PCFR+'s step, predictive regret matching+.

PCFR+ (Farina, Kroer and Sandholm 2021) is CFR+ with a prediction in what is played.  The
student's ``step(regret_sum, regret, legal_mask, t)`` returns, for one player's sets, the new
regrets ``[R + r]^+``, the strategy played next (regret matching on ``[R + r]^+ + r``, uniform
over the legal actions where nothing is positive) and iteration t's weight, ``t**2`` (any
positive multiple passes).  :func:`check_predictive_step` feeds it the regrets of every iteration
of ``solve(game, "pcfr+")`` on each of :data:`GAMES` with the student's own regrets from the call
before, and compares regrets, strategy and average with the run's.

Tolerance: float32 code passes.  ``r`` comes from the run, so rounding cannot feed back, and the
fold is non-expansive: the regrets may drift by ``2 eps (|R| + |r|)`` per call (eps is float32's,
:data:`EPS`); a strategy is judged by :func:`_strategy_close`'s bound on regret matching with
values off by that much (a set where rounding could decide the sign need only play a
distribution; measured 2026-11-26, none in these runs), the average to ``(actions + 4) eps``.
A wrong answer is named by the wrong version (:mod:`cfrviz.reference.mistakes`) that gives its
outputs from its own inputs at every call (:func:`predictive_cases`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

import numpy as np

from ..core.regret import average_strategy
from ..core.tree import as_tree
from ..engine import tree_exploitability
from ..games import load_game
from ..reference import mistakes
from ..reference.cfr import cfr_pass
from ..solvers import solve
from . import Feedback, wrong
from .coding import checks, floats, run_student, short_repr
from .diagnosis import Case, diagnose, fallback
from .lesson08 import CHANGES as CHANGES  # lesson 09 reads these two from here
from .lesson08 import two_changes as two_changes

#: The games the checker runs the step on, with the iterations of each.
GAMES = (("kuhn_poker", 50), ("leduc_poker", 10))
#: The student's precision at worst: float32's machine epsilon.
EPS = float(np.finfo(np.float32).eps)
NAME = "`my_predictive_step`"
#: PCFR+'s step: ``([R + r]^+, regret matching on [R + r]^+ + r, t**2)``.
right_step = mistakes.predictive_step

#: What each named mistake is told (the weight mistakes' messages quote the weights).
MISTAKES = {
    "no-floor": "Your stored regrets go below zero: you keep regret_sum + regret as it is. PCFR+ "
                "keeps CFR+'s floor: store np.maximum(regret_sum + regret, 0). (Regret matching "
                "ignores negative values when it plays, but a negative stored sum holds an "
                "action back for many iterations after it has turned good.)",
    "floor-before": "You floor before adding, np.maximum(regret_sum, 0) + regret, so the stored "
                    "sum can still end below zero. Add this iteration's regrets first, then "
                    "floor: np.maximum(regret_sum + regret, 0).",
    "floor-increment": "You floor this iteration's regrets instead of the sum: regret_sum + "
                       "np.maximum(regret, 0) can only grow. Add the regrets as they are, then "
                       "floor the total: np.maximum(regret_sum + regret, 0).",
    "prediction-stored": "The prediction went into the stored regrets: your regret_sum holds the "
                         "last regrets twice ([R + r]⁺ + r, or R + 2r). The prediction is used "
                         "once, to choose the strategy, and then thrown away: store "
                         "np.maximum(regret_sum + regret, 0), and play regret matching on that "
                         "plus regret without storing the sum.",
    "regrets-not-updated": "The regret_sum you return is the one you were given: the regrets "
                           "never change. Return the new cumulative regrets, "
                           "np.maximum(regret_sum + regret, 0).",
    "swapped-returns": "Your regret_sum and strategy come back swapped: return them in the order "
                       "(regret_sum, strategy, weight).",
    "no-prediction": "Your strategy is regret matching on the cumulative regrets alone: that is "
                     "CFR+ (regret matching on R + r and on the floored [R + r]⁺ play the same). "
                     "The prediction adds the last regrets once more when choosing what to play: "
                     "regret matching on np.maximum(regret_sum + regret, 0) + regret.",
    "prediction-from-cumulative": "Your prediction is the cumulative regrets from before the "
                                  "update, not the last regrets. PCFR+ guesses that the next "
                                  "iteration's regrets will be like this iteration's: add "
                                  "`regret` to the new regret_sum, not the old running sum.",
    "prediction-floored": "You floor the prediction before adding it: [R + r]⁺ + max(r, 0). The "
                          "guess is the last regrets as they are, negative ones included (a "
                          "negative regret says that action is likely to do badly again): play "
                          "regret matching on np.maximum(regret_sum + regret, 0) + regret.",
    "strategy-before-update": "Your strategy is regret matching on the regret_sum you were "
                              "given, from before this iteration: it ignores both this "
                              "iteration's regrets and the prediction. Update first, then play "
                              "regret matching on np.maximum(regret_sum + regret, 0) + regret.",
    "division-by-zero": "Your strategy has NaN at the sets where no action has a positive value: "
                        "0 / 0. Divide only where the total is positive and play uniformly over "
                        "the legal actions elsewhere.",
    "uniform-over-illegal": "Where no action has a positive value, you play uniformly over every "
                            "column of the table, illegal actions included (1/3 each at a Leduc "
                            "set with only two legal actions). Spread the probability over the "
                            "legal actions only: legal_mask / legal_mask.sum(axis=1, "
                            "keepdims=True).",
    "zero-fallback": "Where no action has a positive value, your strategy is all zeros, which is "
                     "not a strategy. Play uniformly over the legal actions there.",
    "not-normalised": "Your strategy is the positive part itself, not divided by its total: each "
                      "set's probabilities must add up to 1.",
    "illegal-actions": "Your strategy puts probability on illegal actions (where legal_mask is "
                       "False). Keep them at 0, also where you play uniformly.",
    "uniform-average": "Your regrets and strategies are PCFR+'s, but your weight is the same at "
                       "every iteration: vanilla CFR's average. PCFR+ weighs iteration t by t², "
                       "so that the late, better strategies dominate the average.",
    "linear-average": "Your regrets and strategies are PCFR+'s, but your weight is t: CFR+'s "
                      "linear average. PCFR+ as published weighs iteration t by t² (quadratic "
                      "averaging), trusting the late iterations even more.",
}

_HINTS = {
    TypeError: "regret_sum and regret are numpy arrays of shape (sets, actions), legal_mask a "
               "boolean array of that shape, t an int; return (regret_sum, strategy, weight).",
    ValueError: "All three arrays have the same shape (this player's sets, max actions).",
    IndexError: "Each array has one row per information set of this player and one column per "
                "action (the table's widest set): index rows with i and actions with a.",
}


@dataclass
class Call:
    """One call of the student's step: what it was given and returned, and solve's regrets."""

    game: str  # "Kuhn poker", ...
    t: int
    player: int
    rows: np.ndarray  # the player's information sets, indices into the table
    keys: tuple[str, ...]  # their keys
    regret_sum: np.ndarray  # the student's cumulative regrets going in
    regret: np.ndarray
    mask: np.ndarray
    got_regrets: np.ndarray
    got_strategy: np.ndarray
    got_weight: float
    want_regrets: np.ndarray
    slack: np.ndarray  # the allowed gap in the cumulative regrets, per entry


@dataclass(frozen=True)
class Run:
    """solve(game, "pcfr+")'s record of every iteration and each one's own-reach weights."""

    name: str  # "Kuhn poker", ...
    tree: Any
    trace: Any
    weights: tuple[np.ndarray, ...]
    iterations: int


@lru_cache(maxsize=4)
def pcfr_plus_run(name: str, iterations: int) -> Run:
    """cfrviz's PCFR+ on ``name``, recorded after each of ``iterations + 1`` iterations."""
    tree = load_game(name)
    marks = list(range(1, iterations + 2))
    trace = solve(tree, "pcfr+", iterations + 1, checkpoints=marks, progress=False)
    # a player's own reach depends on its own strategy only: the one recorded for iteration t
    weights = tuple(cfr_pass(tree, sigma, 0)[1] + cfr_pass(tree, sigma, 1)[1]
                    for sigma in trace.current_strategy[:iterations])
    return Run(name.replace("_", " ").capitalize(), tree, trace, weights, iterations)


def _outputs(out, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, float] | str:
    """The three things a step returned, as float arrays and a float, or what is wrong."""
    if out is None:
        return "returned None (a missing `return regret_sum, strategy, weight`?)"
    if not isinstance(out, (tuple, list)) or len(out) != 3:
        kind = f"{len(out)} things" if isinstance(out, (tuple, list)) else type(out).__name__
        return f"returned {kind}; it should return three: (regret_sum, strategy, weight)"
    arrays = []
    for what, value in zip(("regret_sum", "strategy"), out[:2]):
        try:
            array = floats(value, numeric_only=True)
        except ValueError:
            return f"returned a {what} that is not a table of numbers"
        if array.shape != shape:
            return (f"returned a {what} of shape {array.shape}; it should have the shape of the "
                    f"regrets it was given, {shape}")
        arrays.append(array)
    try:
        weight = floats(out[2], numeric_only=True)
    except ValueError:
        weight = np.array([])
    if weight.size != 1 or not np.isfinite(weight).all():
        return f"returned a weight of {short_repr(out[2]):.60}; it should be one finite number"
    if not np.all(np.isfinite(arrays[0])):
        return "returned a regret_sum that is not finite"
    return arrays[0], arrays[1], float(weight.astype(float).reshape(()))


def _strategy_close(got: np.ndarray, values: np.ndarray, slack: np.ndarray, mask: np.ndarray,
                    fallback_mode: str = "uniform") -> bool:
    """Is ``got`` regret matching on ``values`` (with ``fallback_mode``) when each value may be
    off by ``b = slack``?  With ``P`` the positive values' sum and ``B`` the ``b``'s, each
    probability may be off by ``(b + sigma B) / (P - B)`` plus the division's rounding."""
    if not np.all(np.isfinite(got)):
        return False
    want = mistakes.matched(values, mask, fallback_mode)
    actions = mask.shape[1]
    division = (actions + 2) * EPS
    if fallback_mode == "raw":
        return bool(np.all(np.abs(got - want) <= slack + division * np.abs(want)))
    b = np.where(mask, slack, 0.0)
    positive = np.where(mask, np.maximum(values, 0.0), 0.0)
    total, spread = positive.sum(axis=1), b.sum(axis=1)
    certain_zero = np.all(np.where(mask, values + b <= 0, True), axis=1)
    strict = total > 2 * spread
    with np.errstate(divide="ignore", invalid="ignore"):
        bound = (b + want * spread[:, None]) / np.where(strict, total - spread, 1.0)[:, None]
    bound = np.where(strict[:, None], bound, 0.0) + division
    gap = np.abs(got - want)
    judged = (strict | certain_zero)[:, None]
    if not np.all(np.where(judged, gap <= bound, True)):
        return False
    loose = ~(strict | certain_zero)
    if not loose.any():
        return True
    # rounding could decide the sign here: any distribution over the legal actions is right
    rows, legal = got[loose], mask[loose]
    return fallback_mode == "uniform" and bool(
        np.all(np.where(legal, rows >= -division, np.abs(rows) <= division))
        and np.all(np.abs(rows.sum(axis=1) - 1) <= actions * division))


def _rounding(regret_sum: np.ndarray, regret: np.ndarray) -> np.ndarray:
    """One call's rounding of the values matched, per entry: ``3 eps (|R| + |r|)``."""
    return 3 * EPS * (np.abs(regret_sum) + np.abs(regret))


def _call_student(function, run: Run) -> list[Call] | Feedback:
    """Drive the step through ``run``'s iterations; the calls, or the feedback that stops it."""
    tree, trace = run.tree, run.trace
    mask, owner = tree.legal_mask, tree.infoset_player
    regret_sum, slack = np.zeros(mask.shape), np.zeros(mask.shape)
    calls: list[Call] = []
    for t in range(1, run.iterations + 1):
        for player in (0, 1):
            rows = np.flatnonzero(owner == player)
            given = regret_sum[rows].copy()
            regret = trace.instantaneous_regret[t - 1][rows].copy()
            # the allowed gap grows by one call's rounding (the fold is non-expansive)
            slack[rows] += 2 * EPS * (np.abs(given) + np.abs(regret))
            legal = mask[rows]  # a copy, like given and regret: the student's to read
            with np.errstate(all="ignore"):
                out, problem = run_student(
                    lambda g=given, r=regret, m=legal, t=t: function(g, r, m, t),
                    name=NAME, hints=_HINTS,
                    unchanged=[("regret_sum", given), ("regret", regret), ("legal_mask", legal)])
            if problem is not None:
                return problem
            result = _outputs(out, given.shape)
            if isinstance(result, str):
                return wrong(f"{NAME} {result} (at iteration {t}, player {player + 1}'s sets of "
                             f"{run.name}).", "shape")
            got_regrets, got_strategy, weight = result
            calls.append(Call(run.name, t, player, rows, tuple(tree.infoset_keys[i] for i in rows),
                              given, regret, mask[rows], got_regrets, got_strategy, weight,
                              trace.cumulative_regret[t - 1][rows], slack[rows].copy()))
            regret_sum[rows] = got_regrets
    return calls


def _agrees(call: Call) -> bool:
    """The call's regrets and strategy are solve's, to the derived rounding."""
    gap = np.abs(call.got_regrets - call.want_regrets)
    if not np.all(gap <= call.slack):
        return False
    slack = gap + _rounding(call.want_regrets, call.regret)
    return _strategy_close(call.got_strategy, call.want_regrets + call.regret, slack, call.mask)


def _average_agrees(run: Run, calls: list[Call]) -> int | None:
    """The first iteration after which the student's weights give another average than
    solve's (None: none); ``calls`` are the run's, in order."""
    mask = run.tree.legal_mask
    strategy_sum = np.zeros(mask.shape)
    for call in calls:
        strategy_sum[call.rows] += call.got_weight * run.weights[call.t - 1][call.rows]
        if call.player == 1:  # the iteration's last call
            with np.errstate(all="ignore"):
                average = average_strategy(strategy_sum, mask)
            if not np.all(np.abs(average - run.trace.average_strategy[call.t - 1])
                          <= (mask.shape[1] + 4) * EPS):
                return call.t
    return None


def _regrets_by(rule: Callable[[np.ndarray, np.ndarray, int], np.ndarray], call: Call) -> bool:
    want = rule(call.regret_sum, call.regret, call.t)
    return bool(np.all(np.abs(call.got_regrets - want) <= _rounding(call.regret_sum, call.regret)))


def _strategy_by(rule: tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], str],
                 call: Call) -> bool:
    values, mode = rule
    return _strategy_close(call.got_strategy, values(call.regret_sum, call.regret),
                           _rounding(call.regret_sum, call.regret), call.mask, mode)


_regrets_right = partial(_regrets_by, mistakes.FOLDS["floor"])
_strategy_right = partial(_strategy_by, mistakes.PREDICTIVE_PLAYS["right"])


def _every(test: Callable[[Call], bool], calls: list[Call]) -> bool:
    return all(test(call) for call in calls)


def _regrets_wrong(calls: list[Call]) -> bool:
    return not _every(_regrets_right, calls)


def _regrets_are(forms: tuple, calls: list[Call]) -> bool:
    """The regrets are wrong, and one of a mistake's ``forms`` gives them at every call."""
    return _regrets_wrong(calls) and any(_every(partial(_regrets_by, rule), calls)
                                         for rule in forms)


def _swapped(call: Call) -> bool:
    """The regret_sum returned is the strategy PCFR+ plays, and the strategy its regrets."""
    return (call.got_strategy.shape == call.got_regrets.shape
            and np.allclose(call.got_strategy, np.maximum(call.regret_sum + call.regret, 0.0),
                            rtol=1e-5, atol=1e-7)
            and np.allclose(call.got_regrets,
                            right_step(call.regret_sum, call.regret, call.mask, call.t)[1],
                            rtol=1e-5, atol=1e-7))


def _not_finite_only_where_nothing_positive(call: Call) -> bool:
    bad = ~np.isfinite(call.got_strategy).all(axis=1)
    values = mistakes.PREDICTIVE_PLAYS["right"][0](call.regret_sum, call.regret)
    return not np.any(bad & np.any(call.mask & (values > 0), axis=1))


def _powers(calls: list[Call]) -> tuple[np.ndarray, np.ndarray]:
    ts = np.array([c.t for c in calls], dtype=float)
    return ts, np.array([c.got_weight for c in calls])


def _proportional(weights: np.ndarray, shape: np.ndarray) -> bool:
    """``weights`` is a positive multiple of ``shape``, which is positive (to float32
    rounding)."""
    if not np.all(weights > 0):
        return False
    ratio = weights / shape
    return bool(np.all(np.abs(ratio - ratio[0]) <= 4 * EPS * ratio[0]))


#: The weights a step may give, as rules of ``mistakes.ITERATION_WEIGHTS``, by mistake (None:
#: right, PCFR+'s t²); another power of t is "average-power", anything else "average-weight".
WEIGHT_RULES = {None: "squared", "uniform-average": "uniform", "linear-average": "linear"}


def weight_mistake(calls: list[Call]) -> str | None:
    """The name of what the weights do instead of ``t**2`` (:data:`WEIGHT_RULES`, then
    ``"average-power"`` or ``"average-weight"``); None when they are right."""
    ts, weights = _powers(calls)
    for name, rule in WEIGHT_RULES.items():
        if _proportional(weights, np.array([mistakes.ITERATION_WEIGHTS[rule](t) for t in ts])):
            return name
    return "average-power" if _power(calls) is not None else "average-weight"


def _power(calls: list[Call]) -> float | None:
    """The exponent k if the weights are a positive multiple of t**k, else None."""
    ts, weights = _powers(calls)
    if not np.all(weights > 0) or len(set(ts)) < 2:
        return None
    later = ts > 1
    k = float(np.median(np.log(weights[later] / weights[ts == 1][0]) / np.log(ts[later])))
    return k if _proportional(weights, ts ** k) else None


def _weights_said(calls: list[Call]) -> str:
    shown: dict[int, float] = {}
    for call in calls:
        shown.setdefault(call.t, call.got_weight)
    first = ", ".join(f"t = {t}: {w:g}" for t, w in list(shown.items())[:4])
    return f"your weights were {first}, …"


#: What a step whose regrets and strategies are right is told of its weights, by mistake.
WEIGHT_MESSAGES: dict[str, str | Callable[[list[Call]], str]] = {
    **{name: MISTAKES[name] for name in ("uniform-average", "linear-average")},
    "average-power": lambda calls: (
        f"Your regrets and strategies are PCFR+'s, but your weight grows like "
        f"t^{_power(calls):.3g}: {_weights_said(calls)} PCFR+ weighs iteration t by t² "
        "(quadratic averaging)."),
    "average-weight": lambda calls: (
        f"Your regrets and strategies are PCFR+'s, but {_weights_said(calls)} The weight "
        "of iteration t in PCFR+'s average is t² (or any fixed positive multiple of it, "
        "which gives the same average): 1, 4, 9, 16, …"),
}


def _weights_are(name: str, calls: list[Call]) -> bool:
    return weight_mistake(calls) == name


def _describe_regrets(calls: list[Call]) -> str:
    call = next(call for call in calls if not _regrets_right(call))  # the first wrong one
    want = mistakes.FOLDS["floor"](call.regret_sum, call.regret, call.t)
    gap = np.abs(call.got_regrets - want) - _rounding(call.regret_sum, call.regret)
    i = int(np.unravel_index(np.argmax(gap), gap.shape)[0])
    legal = call.mask[i]  # only the legal actions' entries, the others are 0 throughout
    return (f"At iteration {call.t} on {call.game}, at player {call.player + 1}'s set "
            f"{call.keys[i]!r} you were given regret_sum {_show(call.regret_sum[i, legal])} "
            f"and regret {_show(call.regret[i, legal])}, and returned regret_sum "
            f"{_show(call.got_regrets[i, legal])}; PCFR+ stores np.maximum(regret_sum + "
            f"regret, 0) = {_show(want[i, legal])}.")


def _describe_strategy(calls: list[Call]) -> str:
    call = next(call for call in calls if not _strategy_right(call))
    new, want, _ = right_step(call.regret_sum, call.regret, call.mask, call.t)
    with np.errstate(invalid="ignore"):
        gap = np.where(np.isfinite(call.got_strategy), np.abs(call.got_strategy - want), np.inf)
    i = int(np.unravel_index(np.argmax(gap), gap.shape)[0])
    return (f"At iteration {call.t} on {call.game}, at player {call.player + 1}'s set "
            f"{call.keys[i]!r} (legal actions {call.mask[i].tolist()}) the new regret_sum is "
            f"{_show(new[i])} and regret {_show(call.regret[i])}; you returned the strategy "
            f"{_show(call.got_strategy[i])}, PCFR+ plays regret matching on "
            f"np.maximum(regret_sum + regret, 0) + regret: {_show(want[i])}.")


def _show(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{v:.4g}" for v in values) + "]"


def predictive_cases(runs: list[Run]) -> tuple[Case, ...]:
    """The table over all the calls of the student's step: the right step, then the
    regrets', the strategy's and the weights' mistakes."""
    def not_finite(calls: list[Call]) -> bool:
        return not all(np.isfinite(c.got_strategy).all() for c in calls)

    return (
        Case.correct(lambda calls: all(map(_agrees, calls)) and all(
            _average_agrees(run, [c for c in calls if c.game == run.name]) is None
            for run in runs), partial(correct_message, runs)),
        Case("swapped-returns", lambda calls: _regrets_wrong(calls) and _every(_swapped, calls),
             MISTAKES["swapped-returns"]),
        *(Case(name, partial(_regrets_are, forms), MISTAKES[name])
          for name, forms in mistakes.PREDICTIVE_FOLDS.items()),
        Case(None, _regrets_wrong, _describe_regrets),
        Case("division-by-zero", lambda calls: not_finite(calls) and all(
            map(_not_finite_only_where_nothing_positive, calls)), MISTAKES["division-by-zero"]),
        Case("not-finite", not_finite,
             "Your strategy has NaN or infinite entries at sets where some action has a positive "
             "value: check the division."),
        *(Case(name, partial(_every, partial(_strategy_by, rule)), MISTAKES[name])
          for name, rule in mistakes.PREDICTIVE_PLAYS.items() if name != "right"),
        Case("illegal-actions", lambda calls: any(
            np.any(np.abs(np.where(c.mask, 0.0, c.got_strategy)) > 4 * EPS) for c in calls),
             MISTAKES["illegal-actions"]),
        Case(None, lambda calls: not _every(_strategy_right, calls), _describe_strategy),
        *(Case(name, partial(_weights_are, name), message)
          for name, message in WEIGHT_MESSAGES.items()),
        fallback("Each call agrees with PCFR+'s rule, but the run differs from cfrviz's "
                 "solve(game, 'pcfr+'). Does your function keep something between calls (a "
                 "global, a default argument)? It should use only what it is given."),
    )


def correct_message(runs: list[Run], calls: list[Call]) -> str:
    """What a right step is told: where it was checked, and what PCFR+ buys on Kuhn poker."""
    kuhn = runs[0]
    n = kuhn.iterations
    plus = solve(kuhn.tree, "cfr+", n, checkpoints=[n], progress=False)
    parts = ", ".join(f"{run.iterations} on {run.name}" for run in runs)
    gap = max(float(np.max(np.abs(c.got_regrets - c.want_regrets))) for c in calls)
    precision = (f" Your regrets differ from cfrviz's by at most {gap:.1g}: rounding, within "
                 "what single precision allows." if gap > 1e-12 else "")
    return (f"Your step reproduces cfrviz's PCFR+ at every iteration ({parts}): the same "
            "cumulative regrets, the same strategy played next, and the same average with your "
            f"weights.{precision} After {n} iterations on Kuhn poker PCFR+'s average is "
            f"{float(kuhn.trace.exploitability[n - 1]):.2g} from equilibrium, CFR+'s "
            f"{float(plus.exploitability[-1]):.2g}: the prediction and the t² average together "
            "(the lesson measures each change apart).")


@checks("`my_predictive_step`", "check_predictive_step(my_predictive_step)")
def check_predictive_step(function) -> Feedback:
    """The exercise: ``function(regret_sum, regret, legal_mask, t)`` is PCFR+'s step (see the
    module's docstring); it must leave its inputs as they were.  Known limit: the smallest
    positive ``R + r`` in these runs is 3.6e-5 (Leduc), so a floor that also zeroes values
    below 1e-6 is not told apart from the right one (one below 1e-3 is)."""
    runs = [pcfr_plus_run(name, iterations) for name, iterations in GAMES]
    calls: list[Call] = []
    for run in runs:
        got = _call_student(function, run)
        if isinstance(got, Feedback):
            return got
        calls.extend(got)
    return diagnose(calls, predictive_cases(runs))


def run_your_step(function, game="kuhn_poker", iterations: int = 200
                  ) -> dict[str, np.ndarray]:
    """PCFR+ with ``function`` as its step, run on its own (:func:`cfrviz.reference.mistakes.
    stepwise`).  Returns ``{"iterations", "yours", "pcfr+", "cfr+", "gap"}``: the
    exploitability after each iteration of the student's average, cfrviz's PCFR+'s and CFR+'s,
    and the largest gap between the student's average and PCFR+'s.

    Raises
    ------
    ValueError
        If ``function`` raises or returns something that is not (regret_sum, strategy,
        weight) with the shapes it was given; the message is the checker's.
    """
    tree = as_tree(load_game(game) if isinstance(game, str) else game, "PCFR+")
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) \
            or not 1 <= iterations <= 100_000:
        raise ValueError(f"iterations must be a whole number from 1 to 100000; got "
                         f"{iterations!r}")
    calls = [0]

    def step(regret_sum, regret, mask, t):
        player, calls[0] = calls[0] % 2, calls[0] + 1
        out, problem = run_student(lambda: function(regret_sum, regret, mask, t), name=NAME,
                                   hints=_HINTS)
        if problem is not None:
            raise ValueError(problem.message)
        result = _outputs(out, regret.shape)
        if isinstance(result, str):
            raise ValueError(f"{NAME} {result} (at iteration {t}, player {player + 1}).")
        return result

    marks = list(range(1, iterations + 1))
    ours = solve(tree, "pcfr+", iterations, checkpoints=marks, progress=False)
    plus = solve(tree, "cfr+", iterations, checkpoints=marks, progress=False)
    averages = [average_strategy(sums, tree.legal_mask)
                for sums in mistakes.stepwise(tree, iterations, step)]
    return {"iterations": np.array(marks),
            "yours": np.array([tree_exploitability(tree, a) for a in averages]),
            "pcfr+": np.array(ours.exploitability), "cfr+": np.array(plus.exploitability),
            "gap": np.array([float(np.max(np.abs(a - b)))
                             for a, b in zip(averages, ours.average_strategy)])}
