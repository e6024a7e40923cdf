"""Checkers and helpers for lesson 08, faster CFR: CFR+, linear CFR and discounted CFR.

Exercise 1 is one CFR+ iteration as code (its wrong versions, :data:`PLUS_VARIANTS`, are steps
of :mod:`cfrviz.reference.mistakes` swapped), exercise 2 DCFR's discounts by hand, exercise 3
the race between the variants.  A wrong answer is told what is wrong and where to look, never
the answer.  :func:`one_change_at_a_time` and lesson 09's :func:`two_changes` separate the
changes a variant makes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache, partial

import numpy as np

from .. import engine
from ..analysis.variants import dcfr_discounts
from ..core.regret import average_strategy
from ..core.tree import as_tree
from ..games import load_game
from ..reference import mistakes
from ..solvers import solve
from . import Feedback, as_vector, not_done, unanswered, wrong
from .coding import checks, floats, run_student
from .diagnosis import Case, close_to, diagnose, fallback
from .lesson07 import algorithms_named

#: Exercise 1: iterations of the student's CFR+ the checker runs on Kuhn poker.
PLUS_ITERATIONS = 30
#: Exercise 2: DCFR's multipliers after this iteration, with the paper's parameters.
DISCOUNT_T = 4
DISCOUNT_PARAMS = (1.5, 0.0, 2.0)
#: Exercise 3: the race on Leduc poker.
RACE_GAME = "leduc_poker"
RACE_ITERATIONS = 500
#: The variants the race compares (the answer key of exercise 3).
VARIANTS = ("cfr", "cfr+", "linear_cfr", "dcfr")


def one_change_at_a_time(game, checkpoints) -> dict[str, dict[int, float]]:
    """``{run: {iteration: exploitability of the average}}`` at ``checkpoints`` for vanilla CFR,
    each of CFR+'s changes alone (``"linear average"``, ``"regret floor"``) and CFR+."""
    marks = sorted(set(int(t) for t in checkpoints))
    runs = {"cfr": {}, "linear average": {"linear_average": True},
            "regret floor": {"plus": True}, "cfr+": {"plus": True, "linear_average": True}}
    return {name: dict(zip(marks, values))
            for name, values in rule_curves(game, runs, marks).items()}


def rule_curves(tree, rules: dict[str, dict], marks) -> dict[str, list[float]]:
    """The exploitability of the average at each of ``marks`` (sorted, from 1) when the compiled
    full-tree CFR (the solvers' kernel) runs with each ``{label: flags of engine.UpdateRule}``,
    alternating; rules no registered algorithm has (``reference.cfr.cfr_variant`` has the same
    flags, but takes 13 ms an iteration on Leduc: too slow for a lesson's 2,000)."""
    arrays, shape = engine.plan(tree).arrays, tree.legal_mask.shape
    out: dict[str, list[float]] = {}
    for label, flags in rules.items():
        tables = engine.Tables(*(np.zeros(shape) for _ in range(4)))
        rule = engine.UpdateRule(alternating=True, **flags)
        out[label], done = [], 0
        for t in marks:
            engine.run_full_tree(arrays, tables, done + 1, t, rule)
            done = t
            average = average_strategy(tables.strategy_sum, tree.legal_mask)
            out[label].append(float(engine.tree_exploitability(tree, average)))
    return out


#: Lesson 09's comparison of PCFR+'s two changes to CFR+, by label: (predictive, average power).
CHANGES = {"CFR+ (no prediction, t average)": (False, 1.0),
           "t² average only": (False, 2.0),
           "prediction only (t average)": (True, 1.0),
           "PCFR+ (prediction, t² average)": (True, 2.0)}


def two_changes(game="kuhn_poker", iterations=(100, 200, 1000)) -> dict[str, list[float]]:
    """The exploitability of the average at each of ``iterations`` for CFR+ with each
    combination of PCFR+'s two changes (:data:`CHANGES`), the prediction and the t² average.
    The first and last rows are ``cfrviz.solve``'s ``"cfr+"`` and ``"pcfr+"`` exactly."""
    tree = as_tree(load_game(game) if isinstance(game, str) else game, "PCFR+")
    marks = sorted(int(t) for t in iterations)
    if not marks or marks[0] < 1:
        raise ValueError(f"iterations must be whole numbers from 1; got {iterations!r}")
    return rule_curves(tree, {label: {"plus": True, "linear_average": True,
                                      "predictive": predictive, "average_power": power}
                              for label, (predictive, power) in CHANGES.items()}, marks)


#: CFR+ as steps of :func:`mistakes.iteration`: regrets floored after adding, average weighted t.
CFR_PLUS = {"fold": "floor", "weight": "linear"}
#: Exercise 1's wrong versions of CFR+, by the mistake each shows: the steps they change.
#: The regret mistakes come first; "vanilla" is "no-floor" with the uniform average too.
PLUS_VARIANTS: dict[str, dict[str, object]] = {
    "no-floor": {"fold": "add"},
    "floor-before": {"fold": "floor-before"},
    "floor-increment": {"fold": "floor-increment"},
    "linear-regrets": {"fold": "linear-regrets"},
    "simultaneous": {"alternating": False},
    "uniform-average": {"weight": "uniform"},
    "squared-average": {"weight": "squared"},
    "delayed-average": {"weight": "delayed"},
    "shifted-average": {"weight": "shifted"},
}

PLUS_MESSAGES = {
    "vanilla": "This is still vanilla CFR: your regrets and your average are exactly vanilla "
               "CFR's. Section 2 names the two things CFR+ changes, one in each sum: change "
               "both.",
    "no-floor": "Your stored regrets go below zero, as vanilla CFR's do. Flooring them only "
                "where regret matching reads them changes nothing (regret matching ignores "
                "negative regrets anyway): CFR+ floors the stored sum itself, after adding the "
                "iteration's regret, so that the next iteration starts from zero.",
    "floor-before": "You floor before adding the iteration's regret, so the stored sum can "
                    "still end below zero. Add first, then floor the total.",
    "floor-increment": "You floor this iteration's regret, not the sum, so the sum only ever "
                       "grows. Add the regret as it is, then floor the total.",
    "linear-regrets": "You multiply the regrets by t as well: that is linear CFR's rule for "
                      "regrets (with a floor). CFR+ adds the regret unweighted and weights only "
                      "the average by t.",
    "simultaneous": "Your regrets are right for player 1 but not for player 2: both players' "
                    "passes use the strategy from the start of the iteration (simultaneous "
                    "updates). CFR+ alternates: compute the strategy again from the updated "
                    "regrets before player 2's pass, inside the loop over players.",
    "uniform-average": "Your regrets are CFR+'s, but every iteration counts the same in your "
                       "average. CFR+ weights iteration t's strategy by t.",
    "squared-average": "Your regrets are CFR+'s, but your average weights iteration t by t²: "
                       "that is DCFR's γ = 2. CFR+ (as cfrviz and OpenSpiel run it) weights "
                       "iteration t by t.",
    "delayed-average": "Your regrets are CFR+'s, but your average weights iteration t by t − 1 "
                       "(so iteration 1 not at all). Tammelin et al. (2015) delayed the average "
                       "by d iterations, max(t − d, 0); cfrviz's CFR+, like OpenSpiel's, uses "
                       "no delay: weight t, counting iterations from 1.",
    "shifted-average": "Your regrets are CFR+'s, but your average weights iteration t by t + 1. "
                       "t already counts from 1 here: weight t.",
}


def plus_iteration(tree, regret_sum, strategy_sum, t: int, **steps):
    """One iteration of CFR+, or of a wrong version with ``steps`` changed (as in
    :data:`PLUS_VARIANTS`): the new ``(regret_sum, strategy_sum)``."""
    return mistakes.iteration(tree, regret_sum, strategy_sum, t, **{**CFR_PLUS, **steps})


def _run(tree, iterations: int, **steps) -> list[tuple[np.ndarray, np.ndarray]]:
    """CFR+ (or a wrong version) from zero tables: the sums after each iteration."""
    return [(r, s) for _, r, s in mistakes.run(tree, iterations, **{**CFR_PLUS, **steps})]


def _average(tree, strategy_sum: np.ndarray) -> np.ndarray:
    return average_strategy(strategy_sum, tree.legal_mask)


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-12))


@lru_cache(maxsize=1)
def _plus_targets():
    """cfrviz's CFR+ on Kuhn poker, recorded after each of :data:`PLUS_ITERATIONS` iterations."""
    tree = load_game("kuhn_poker")
    marks = list(range(1, PLUS_ITERATIONS + 1))
    trace = solve(tree, "cfr+", PLUS_ITERATIONS, checkpoints=marks, progress=False)
    vanilla = solve(tree, "cfr", PLUS_ITERATIONS, checkpoints=[PLUS_ITERATIONS], progress=False)
    return tree, trace, float(vanilla.exploitability[-1])


def _sums(out, shape) -> tuple[np.ndarray, np.ndarray] | str:
    """The two tables a student's iteration returned, or what is wrong with them."""
    if out is None:
        return "returned None (a missing `return regret_sum, strategy_sum`?)"
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        return (f"returned {type(out).__name__}; it should return two tables, "
                "(regret_sum, strategy_sum)")
    tables = []
    for name, table in zip(("regret_sum", "strategy_sum"), out):
        try:
            array = floats(table)
        except (TypeError, ValueError):
            return f"returned a {name} that is not numbers"
        if array.shape != shape:
            return (f"returned a {name} of shape {array.shape}; it should keep the shape "
                    f"{shape}, one row per information set")
        if not np.all(np.isfinite(array)):
            return f"returned a {name} that is not finite"
        tables.append(array)
    return tables[0], tables[1]


_PLUS_HINTS = {
    TypeError: "cfr_pass(tree, strategy, player) returns two tables (regret, weights); "
               "regret_matching(regret_sum, tree.legal_mask) a strategy; t is an int.",
    ValueError: "All tables have shape (information sets, max actions), tree.legal_mask.shape.",
}


def _same(tree, got: list[tuple[np.ndarray, np.ndarray]], steps: dict, average: bool = True
          ) -> bool:
    """The student's regrets (and average, if ``average``) are those of CFR+ with ``steps``
    changed after every iteration."""
    return all(_close(g[0], r[0]) and (not average or _close(_average(tree, g[1]),
                                                            _average(tree, r[1])))
               for g, r in zip(got, _run(tree, len(got), **steps)))


def _diagnose(tree, got: list[tuple[np.ndarray, np.ndarray]]) -> str | None:
    """The wrong version (:data:`PLUS_VARIANTS`) whose regrets (and, for an average mistake,
    average) match the student's after every iteration, or "vanilla"."""
    if _same(tree, got, {}, average=False):
        return next((name for name, steps in PLUS_VARIANTS.items()
                     if "weight" in steps and _same(tree, got, steps)), None)
    for name, steps in PLUS_VARIANTS.items():
        if "weight" not in steps and _same(tree, got, steps, average=False):
            vanilla = name == "no-floor" and _same(tree, got, {**steps, "weight": "uniform"})
            return "vanilla" if vanilla else name
    return None


@checks("`my_cfr_plus_iteration`", "check_cfr_plus_iteration(my_cfr_plus_iteration)")
def check_cfr_plus_iteration(function, iterations: int = PLUS_ITERATIONS) -> Feedback:
    """Exercise 1: ``function(tree, regret_sum, strategy_sum, t)`` is one iteration of CFR+.

    Run from zero tables for t = 1..``iterations`` on Kuhn poker, fed its own tables; after
    every iteration its regrets and average (any positive scale of the sum) must be
    ``cfrviz.solve(kuhn, "cfr+")``'s to 1e-9, with player 2 first accepted too, and the tables
    it was given left unchanged.  Known limit: the smallest positive cumulative regret in these
    30 iterations is 0.0101, so a floor at ``total > 1e-3`` is not told apart from the right one.
    """
    tree, trace, _ = _plus_targets()
    iterations = min(int(iterations), PLUS_ITERATIONS)
    shape = tree.legal_mask.shape
    regret_sum, strategy_sum = np.zeros(shape), np.zeros(shape)
    got: list[tuple[np.ndarray, np.ndarray]] = []
    for t in range(1, iterations + 1):
        given = (regret_sum.copy(), strategy_sum.copy())  # to read: it returns new tables
        out, problem = run_student(
            lambda g=given, t=t: function(tree, *g, t),
            name="`my_cfr_plus_iteration`", hints=_PLUS_HINTS,
            forbidden={plus_iteration: "cfrviz.exercises.lesson08.plus_iteration"},
            unchanged=[("regret_sum", given[0]), ("strategy_sum", given[1])])
        if problem is not None:
            return problem
        sums = _sums(out, shape)
        if isinstance(sums, str):
            return wrong(f"`my_cfr_plus_iteration` {sums} (at iteration {t}).", "shape")
        regret_sum, strategy_sum = sums
        got.append(sums)
    return diagnose(got, plus_cases(tree, trace, got))


def plus_cases(tree, trace, got: list[tuple[np.ndarray, np.ndarray]]) -> tuple[Case, ...]:
    """Exercise 1's table over the student's tables after each iteration (``got``, also the
    value read): cfrviz's CFR+ in either order, a wrong version :func:`_diagnose` names, or
    neither."""
    iterations, vanilla = len(got), _plus_targets()[2]
    bad = next((t for t, (regret_sum, strategy_sum) in enumerate(got, start=1)
                if not (_close(regret_sum, trace.cumulative_regret[trace.index(t)])
                        and _close(_average(tree, strategy_sum),
                                   trace.average_strategy[trace.index(t)]))), None)
    mistake = cache(partial(_diagnose, tree, got))  # it runs the wrong versions: once at most

    def named(name: str) -> Callable[[object], bool]:
        return lambda _: mistake() == name

    def exploitability() -> float:
        return engine.tree_exploitability(tree, _average(tree, got[-1][1]))

    def unexplained(_) -> str:
        assert bad is not None
        which, look = (("cumulative regrets differ", "cumulative_regret[-1]")
                       if not _close(got[bad - 1][0], trace.cumulative_regret[trace.index(bad)])
                       else ("average strategy differs", "average_strategy[-1]"))
        return (f"After iteration {bad} your {which} from cfrviz's CFR+. Start from vanilla "
                "CFR's iteration above and change only the two things section 2 names; to "
                f"see where yours goes off, run it {bad} time(s) from zero tables and compare "
                f"with cfrviz.solve(kuhn, 'cfr+', {bad}, checkpoints=[{bad}]).{look}.")

    return (
        Case.correct(lambda _: bad is None,
                     lambda _: f"Your iteration reproduces cfrviz's CFR+ on Kuhn poker after "
                               f"each of {iterations} iterations: the same cumulative regrets "
                               "and the same average strategy. After "
                               f"{iterations} iterations its exploitability is "
                               f"{exploitability():.5f}, against {vanilla:.5f} for vanilla "
                               "CFR. Two lines changed: a floor on the stored regrets, and "
                               "the weight t in the average."),
        Case.correct(lambda _: _same(tree, got, {"first": 1}),
                     lambda _: f"Your iteration is CFR+ with player 2 updated first: after "
                               f"each of {iterations} iterations on Kuhn poker your regrets "
                               "and average strategy are those of CFR+ in that order "
                               "(cfrviz's CFR+ starts with player 1; both orders are CFR+, as "
                               f"in lesson 04). After {iterations} iterations its "
                               f"exploitability is {exploitability():.5f}, against "
                               f"{vanilla:.5f} for vanilla CFR."),
        *(Case(name, named(name), message) for name, message in PLUS_MESSAGES.items()),
        fallback(unexplained),
    )


def check_dcfr_discounts(answer) -> Feedback:
    """Exercise 2: the factors DCFR (1.5, 0, 2) applies after iteration 4: 8/9, 1/2, 16/25."""
    t, gamma = DISCOUNT_T, DISCOUNT_PARAMS[2]

    def factors_at(other: int) -> np.ndarray:
        return np.array(dcfr_discounts(other, *DISCOUNT_PARAMS))

    right = factors_at(t)

    def other_iteration(got) -> int | None:
        return next((other for other in range(1, 21) if other not in (t, t + 1)
                     and np.allclose(got, factors_at(other), atol=2e-3)), None)

    def regrets_right_and_average(factor: float) -> Callable[[np.ndarray], bool]:
        return lambda got: bool(np.allclose(got[:2], right[:2], atol=2e-3)
                                and np.isclose(got[2], factor, atol=2e-3))

    return diagnose(as_vector(answer, 3), (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_factors` to three numbers: the multipliers for positive regrets, "
                      "negative regrets and the strategy sum."),
        Case("shape", lambda got: got is None,
             f"Expected three numbers [positive, negative, average]; got {answer!r}."),
        Case.correct(close_to(right, atol=2e-3),
                     "Right: 8/9 ≈ 0.889 (4^1.5 = 8), 1/2 (any t^0 is 1) and (4/5)^2 = 0.64. "
                     "Positive regrets are barely touched, negative regrets are halved after "
                     "every iteration — so an action that was bad early can recover quickly — "
                     "and the average forgets early strategies."),
        Case("swapped", close_to(right[[1, 0, 2]], atol=2e-3),
             "α and β are swapped: α discounts the positive regrets and β the negative ones."),
        Case("next-iteration", close_to(factors_at(t + 1), atol=2e-3),
             "Those are the factors after iteration 5. Use t = 4, the iteration just finished."),
        Case("percentage", lambda got: bool(np.allclose(got / 100, right, atol=2e-3)),
             "Those look like percentages: a discount is a multiplier. Give the three factors "
             "as numbers between 0 and 1."),
        Case("wrong-iteration", lambda got: other_iteration(got) is not None,
             lambda got: f"Those are the factors after iteration t = {other_iteration(got)}. "
                         f"Use t = {t}, the iteration just finished."),
        Case("gamma-power", regrets_right_and_average(t / (t + 1)),
             "The regret factors are right. The average's factor is (t/(t+1)) raised to the "
             "power γ = 2."),
        Case("average-formula", regrets_right_and_average(t**gamma / (t**gamma + 1)),
             "The regret factors are right, but the strategy sum uses a different formula: "
             "(t/(t+1))^γ, not t^γ/(t^γ+1)."),
        Case("cfr-plus", lambda got: bool(np.isclose(got[0], right[0], atol=2e-3)
                                          and np.isclose(got[1], 0.0)),
             "Setting negative regrets to 0 is what CFR+ does. DCFR multiplies them by "
             "t^β/(t^β+1): work it out with β = 0."),
        Case("not-a-factor", lambda got: bool(np.any(got > 1)),
             "A discount is a multiplier between 0 and 1. Did you forget to divide: t^α / "
             "(t^α + 1)?"),
        fallback("Not quite. Positive regrets: t^α/(t^α+1); negative regrets: t^β/(t^β+1); "
                 "strategy sum: (t/(t+1))^γ; with t = 4, α = 1.5, β = 0, γ = 2."),
    ))


@lru_cache(maxsize=1)
def race() -> dict[str, float]:
    """Exploitability of each variant's average after :data:`RACE_ITERATIONS` on Leduc."""
    from ..analysis.evaluation import exploitability

    game = load_game(RACE_GAME)
    out = {}
    for name in VARIANTS:
        trace = solve(game, name, RACE_ITERATIONS, checkpoints=[], progress=False)
        out[name] = float(exploitability(game, trace.average_policy()))
    return out


def check_variant_ranking(answer) -> Feedback:
    """Exercise 3: CFR, CFR+, linear CFR and DCFR, lowest exploitability after 500 iterations
    on Leduc first (one name alone: the lowest), against the race run here (:func:`race`)."""
    if unanswered(answer):
        return not_done("Set `my_ranking` to the four names, lowest exploitability first, "
                        "e.g. ['cfr', 'linear_cfr', 'cfr+', 'dcfr'].")
    single = isinstance(answer, str)
    try:
        items = [answer] if single else list(answer)
    except TypeError:
        items = None
    names = () if items is None else algorithms_named(items, VARIANTS)
    return diagnose(names, ranking_cases(answer, items, race()))


def ranking_cases(answer, items: list | None, results: dict[str, float]) -> tuple[Case, ...]:
    """Exercise 3's table over the variants named, best first; ``items`` is what the student
    listed (None: not a list) and ``results`` the measured exploitabilities."""
    single = isinstance(answer, str)
    truth = tuple(sorted(results, key=results.__getitem__))
    numbers = ", ".join(f"{n} {results[n]:.1e}" for n in truth)
    ratio = results[truth[-1]] / results[truth[0]]

    def complete(names) -> bool:
        return items is not None and len(items) == 4 and len(names) == 4 \
            and sorted(names) == sorted(VARIANTS)

    def first(name: str) -> Callable[[tuple], bool]:
        return lambda names: names[0] == name

    return (
        Case("names", lambda names: single and not names,
             f"Use one of {', '.join(VARIANTS)}; got {answer!r}."),
        Case("shape", lambda _: items is None, f"Give a list of the four names; got {answer!r}."),
        Case("names", lambda names: not single and not complete(names),
             f"List each of {', '.join(VARIANTS)} exactly once; got {items!r}."),
        Case.correct(lambda names: single and names[0] == truth[0],
                     f"Yes, {truth[0]} is lowest after {RACE_ITERATIONS} iterations "
                     f"({numbers})."),
        Case.correct(lambda names: names == truth,
                     f"All four in the right order: {numbers}. Discounting the early, bad "
                     f"iterations pays: after the same work {truth[0]} is {ratio:.0f} times "
                     f"less exploitable than {truth[-1]}."),
        Case("vanilla-best", first("cfr"),
             "Not vanilla CFR: its average gives the terrible first iterations as much weight "
             "as the last ones, and its negative regrets pile up. The race below measures "
             "all four."),
        Case("linear-best", first("linear_cfr"),
             "Not linear CFR: recent iterations count more, but it keeps large negative "
             "regrets, so an action that looked bad early stays unplayed for long. The race "
             "below measures all four."),
        Case("plus-vs-dcfr", lambda names: names[0] == "cfr+" and truth[0] == "dcfr",
             "Close, but not CFR+ first: think about what halving negative regrets every "
             "iteration (β = 0) and a steeper average (γ = 2) do on Leduc. The race below "
             "measures all four."),
        Case("linear-vs-plus", lambda names: len(names) == 4 and names[0] == truth[0]
             and names.index("linear_cfr") < names.index("cfr+"),
             "The winner is right. Further down, compare linear CFR with CFR+: which matters "
             "more, throwing negative regrets away or weighting iterations linearly? The race "
             "below measures all four."),
        Case("partly", lambda names: len(names) == 4 and names[0] == truth[0],
             "The winner is right, the rest is not. The race below measures all four."),
        fallback("Not quite. Ask of each variant whether it forgets its early iterations and "
                 "whether it keeps negative regrets; the race below measures all four."),
    )
