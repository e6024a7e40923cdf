"""Lesson 04, exercise 3: vanilla CFR written by the student, compared with cfrviz.solve and
with the wrong versions of :func:`cfr_variant_run` (built by :mod:`cfrviz.reference.mistakes`)."""

from __future__ import annotations

import time

import numpy as np

from ...core.regret import average_strategy, regret_matching
from ...reference import mistakes
from .. import Feedback, correct, wrong
from ..coding import checks, floats, run_student
from ..diagnosis import Case, screen

#: The runs of ``my_cfr`` checked: Kuhn poker, then Leduc poker, where chance is not uniform
#: (a missing chance factor changes nothing in Kuhn poker, where every deal has probability 1/6).
CFR_RUNS = (("kuhn_poker", 300), ("leduc_poker", 10))
#: When the Kuhn run differs, ``my_cfr`` runs again this long beside the wrong versions.
DIAGNOSE_ITERATIONS = 20
#: Wrong regret weights told apart on Kuhn poker, where chance's reach is 1/6 at every decision
#: node: "no-chance" shows on Leduc only; own reach and no weight give the same Kuhn runs
#: (measured to 300 iterations), so "own-reach" stands for both.
KUHN_WEIGHTS = ("others", "own-reach", "all-reach", "sign")
#: A node's regret weight, right (``"others"``) or wrong, as a key of the reference's
#: :data:`cfrviz.reference.updates.REGRET_UPDATES`.
REGRET_WEIGHTS = {"others": "cfr", "own-reach": "own-reach", "all-reach": "all-reach",
                  "no-chance": "no-chance", "unweighted": "unweighted", "sign": "sign"}
#: The weight of a node's strategy in the average: the right one (``"own"``) and wrong ones.
AVERAGE_WEIGHTS = mistakes.AVERAGE_REACH
#: How far a run of my_cfr may stray from cfrviz's and still count as vanilla CFR: float32
#: tables were measured 5.4e-6 off on Kuhn poker after 300 iterations; the nearest wrong run,
#: one iteration more or fewer, is 8.9e-4 off.  (With player 2 first, float32 rounding flips a
#: near-tie and ends 0.046 away, which no tolerance can accept without accepting wrong code.)
FLOAT_TOLERANCE = 1e-4
PLAYER_2_FIRST = "alternating (player 2 first)"


def cfr_variant_run(tree, iterations: int, *, alternating: bool = True, first: int = 0,
                    regret_weight: str = "others", floor: bool = False,
                    averages=tuple(AVERAGE_WEIGHTS)) -> dict:
    """Vanilla CFR (the defaults; the tests check it against :func:`cfrviz.solve`) or a wrong
    version, as :func:`mistakes.run` builds it from the reference CFR: simultaneous updates
    (``alternating=False``), player 2 first, a wrong ``regret_weight`` (of
    :data:`REGRET_WEIGHTS`), CFR+'s ``floor``, and one run per ``averages`` (of
    :data:`AVERAGE_WEIGHTS`).

    Returns ``{t: {average name: average strategy, "played": the strategy played in iteration
    t, "next": regret matching on the regrets after it}}`` for ``t`` in ``iterations - 1 ..
    iterations + 1``.
    """
    mask = tree.legal_mask
    steps = {"update": REGRET_WEIGHTS[regret_weight], "fold": "floor" if floor else "add",
             "alternating": alternating, "first": first}
    snapshots: dict[int, dict] = {t: {} for t in range(max(iterations - 1, 1), iterations + 2)}
    current: dict[int, dict] = {}  # the same in every run: the averages do not change it
    for name in averages:
        run = mistakes.run(tree, iterations + 1, average=name, **steps)
        for t, (played, regret_sum, strategy_sum) in enumerate(run, start=1):
            if t in snapshots:
                snapshots[t][name] = average_strategy(strategy_sum, mask)
                current[t] = {"played": played, "next": regret_matching(regret_sum, mask)}
    for t, snapshot in snapshots.items():
        snapshot.update(current[t])
    return snapshots


def _player_2_first(tree, iterations: int) -> np.ndarray:
    """Vanilla CFR's average strategy with alternating updates, player 2 first."""
    return cfr_variant_run(tree, iterations, first=1, averages=("own",))[iterations]["own"]


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
        table = floats(result)
    except ValueError as error:  # NotNumbers, saying what it is
        return None, f"it returned {error}"
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
            values = floats(probs).ravel()
        except (TypeError, ValueError):
            return None, f"at {key!r} {probs!r} is not numbers"
        if len(values) not in (len(actions), table.shape[1]):
            return None, f"at {key!r} expected {len(actions)} probabilities, got {probs!r}"
        table[row, :len(actions)] = values[:len(actions)]
    return table, None


def _diagnose_run(tree, iterations: int, table, weights=KUHN_WEIGHTS,
                  modes=((True, 0), (True, 1), (False, 0)), floors=True) -> list[str] | None:
    """The fewest wrong ingredients (names of :data:`CFR_MISTAKES`) whose run gives ``table``:
    ``[]`` for the right run, None when no run tried gives it."""
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
                        extra = (["current"] if name in ("played", "next")
                                 else [] if name == "own" else [name])
                        if _same(table, strategy, tree.legal_mask):
                            found.append(base + extra + step)
    return min(found, key=len) if found else None


def _same(a, b, mask, loose: bool = False) -> bool:
    if loose:
        return bool(np.allclose(a[mask], b[mask], rtol=0.0, atol=FLOAT_TOLERANCE))
    return bool(np.allclose(a[mask], b[mask], rtol=1e-6, atol=1e-7))


_CFR_HINTS = {IndexError: "tree.children[node] lists a node's children in action order; "
                          "tables of shape (information sets, actions) are indexed "
                          "[tree.infoset[node], a].",
              TypeError: "`tree` is a GameTree (arrays indexed by node id), `iterations` an "
                         "int."}


def _answer_functions() -> dict:
    """The package's CFR and the checker's, which a ``my_cfr`` may not call."""
    from ...solvers import solve

    return {solve: "cfrviz.solve", cfr_variant_run: "the checker's own vanilla CFR "
            "(check.cfr_variant_run)"}


def _student_run(function, tree, iterations: int):
    """Run ``my_cfr`` once: ``(table, not normalised?, seconds, None)`` or ``(.., feedback)``."""
    game = tree.name
    start = time.perf_counter()
    result, failed = run_student(lambda: function(tree, iterations), name="`my_cfr`",
                                 hints=_CFR_HINTS, forbidden=_answer_functions())
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


_NOT_NORMALISED = ("Your rows do not sum to 1: divide the strategy sums by their total at each "
                   "set. ")


@checks("`my_cfr`", "check_my_cfr(my_cfr)")
def check_my_cfr(function) -> Feedback:
    """Exercise 3: ``function(tree, iterations)`` is vanilla CFR and returns its average strategy.

    Its average after each run of :data:`CFR_RUNS` must agree with :func:`cfrviz.solve`'s
    vanilla CFR, alternating or simultaneous (to 1e-6, or :data:`FLOAT_TOLERANCE` for float32
    tables), as an array (sets x actions) or a dict ``{key: probabilities}``.  A wrong Kuhn
    run is run again for :data:`DIAGNOSE_ITERATIONS` iterations and named by the ingredients
    (:data:`CFR_MISTAKES`) of the wrong version of :func:`cfr_variant_run` that reproduces it.
    """
    from ...analysis.evaluation import exploitability
    from ...core.policy import Policy
    from ...games import load_game
    from ...solvers import solve

    (kuhn_name, n), (leduc_name, m) = CFR_RUNS
    kuhn, leduc = load_game(kuhn_name), load_game(leduc_name)
    table, unnormalised, seconds, failed = _student_run(function, kuhn, n)
    if failed is not None:
        return failed
    references = {"alternating": solve(kuhn, "cfr", n, progress=False),
                  "simultaneous": solve(kuhn, "cfr", n, alternating=False, progress=False)}
    mode, loose, failed = _kuhn_mode(function, kuhn, table, unnormalised, references)
    if failed is not None:
        return failed
    failed, exact_leduc = _leduc_verdict(function, leduc, m, mode)
    if failed is not None:
        return failed
    theirs = exploitability(kuhn, Policy(kuhn, table))
    ours = float(references[mode if mode in references else "alternating"].exploitability[-1])
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
    mask = kuhn.legal_mask
    for loose in (False, True):  # float32 tables, or sums in another order: close, not equal
        mode = next((name for name, run in references.items()
                     if _same(table, run.average_strategy[-1], mask, loose)), None)
        if mode is not None:
            break
    if mode is None and not unnormalised:
        late = _player_2_first(kuhn, int(references["alternating"].iterations[-1]))
        if _same(table, late, mask, loose=True):
            return PLAYER_2_FIRST, not _same(table, late, mask), None
    if mode is None or unnormalised:
        return None, False, _explain_kuhn(function, kuhn, table, unnormalised, mode, references)
    return mode, loose, None


def _leduc_verdict(function, leduc, m: int, mode: str) -> tuple[Feedback | None, bool]:
    """Run ``my_cfr`` on Leduc poker and compare with vanilla CFR in the ``mode`` Kuhn poker
    showed: ``(feedback when it differs or fails, or None; equal to 1e-6?)``."""
    from ...solvers import solve

    table, _, _, failed = _student_run(function, leduc, m)
    if failed is not None:
        return failed, False
    assert table is not None
    alternating, first = mode != "simultaneous", int(mode == PLAYER_2_FIRST)
    want = (_player_2_first(leduc, m) if first else
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


def _explain_kuhn(function, kuhn, table, unnormalised, mode, references) -> Feedback:
    """Name what a Kuhn run that differs from vanilla CFR's got wrong, if a variant shows it."""
    prefix = _NOT_NORMALISED if unnormalised else ""
    if unnormalised and mode is not None:
        return wrong(prefix + f"Once divided, your average matches vanilla CFR ({mode} "
                     "updates).", "not-normalised")
    n = int(references["alternating"].iterations[-1])
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
