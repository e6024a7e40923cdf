"""Checker for lesson 07's outcome sampling weights: the regrets one sampled path gives.

The student writes ``regrets(path, payoff, player)``, lesson 07's formula at each of the
traverser's steps of one path (steps ``(who, sigma, q, a)``: who moved, ``"chance"``, 0 or 1;
the probabilities it plays with; those the walk drew with; the index drawn).  The paths are
walks of :func:`cfrviz.reference.mccfr.outcome_sampling_walk` recorded on Kuhn and Leduc poker
(:func:`recorded_paths`), the right answers the regrets that walk added.  A wrong answer is
named by the mistake (:data:`MISTAKES`, forms in :data:`cfrviz.reference.mistakes.OUTCOME_PATH`)
that gives it on every path, or on the first path that differs when no other mistake gives the
same numbers there.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..core.regret import regret_matching
from ..core.tree import CHANCE, TERMINAL
from ..games import load_game
from ..reference.mccfr import outcome_sampling_walk, stream_draws
from ..reference.mistakes import OUTCOME_PATH, path_regrets
from . import Feedback, correct, wrong
from .coding import checks, floats, run_student
from .diagnosis import Case, diagnose, fallback

#: The recorded walks: (game, iterations of external sampling that give the strategies, seed
#: of the walk's draws, traverser).  Kuhn's first path is lesson 07's example.
WALKS = (
    ("kuhn_poker", 50, 3, 0),
    ("kuhn_poker", 50, 8, 1),
    ("kuhn_poker", 200, 5, 0),
    ("leduc_poker", 100, 1, 0),
    ("leduc_poker", 100, 4, 1),
    ("leduc_poker", 300, 9, 0),
)
EPSILON = 0.6

#: Wrong answers the checker recognises: what each is told.
MISTAKES = {
    "no-division": "You did not divide by q(z), the probability that the walk sampled this path. "
                   "A path the walk draws rarely must count for more when it is drawn: divide "
                   "π_{-i}(h) π(z|ha) u_i(z) by q(z), the product of the q of every step.",
    "sigma-as-q": "You divided by the strategy's probabilities at the traverser's steps instead "
                  "of the ones the walk drew with. There the walk explores, drawing from q = "
                  "ε-uniform + (1-ε) σ; q(z) is the product of each step's q[a], and an action "
                  "the strategy never plays can still be drawn (with σ, you would divide by 0).",
    "prefix-q": "You divided by the probability of sampling the path down to h·a only. The walk "
                "also sampled the rest of the path to z, so divide by q(z), the whole path's.",
    "tail-includes-action": "Your tail reach includes σ(a) at h itself. The tail reach π(z|ha) "
                            "starts *after* the action a: it is the product of the steps below "
                            "h·a.",
    "tail-opponent-only": "Your tail reach leaves out the traverser's own probabilities below "
                          "h·a. π(z|ha) is everybody's (chance's, the opponent's and the "
                          "traverser's) probability of going from h·a to z: it turns u_i(z) "
                          "into the value of h·a under the current strategies.",
    "own-reach": "Your weight includes the traverser's own probabilities before h. A "
                 "counterfactual value supposes the traverser played to h: π_{-i}(h) is "
                 "chance's and the opponent's reach only.",
    "chance-once": "Chance's probabilities appear on one side only: in q(z) but not in your "
                   "π_{-i}(h)·π(z|ha), or the other way round (the opponent's are right). Count "
                   "them in both (the walk draws chance with chance's probabilities, so they "
                   "cancel), or in neither.",
    "opponent-once": "The opponent's probabilities appear on one side only: in q(z) but not in "
                     "your π_{-i}(h)·π(z|ha), or the other way round (chance's are right). The "
                     "walk draws the opponent's actions from its strategy, so they cancel: "
                     "count them in both, or in neither.",
    "chance-and-opponent-once": "Chance's and the opponent's probabilities both appear on one "
                                "side only: each is in q(z) but not in your "
                                "π_{-i}(h)·π(z|ha), or the other way round, so the weight "
                                "keeps no more than the traverser's own probabilities on one "
                                "side. Both are drawn with the probabilities they play with: "
                                "count each in both, or in neither.",
    "values-not-regrets": "These are the sampled values ṽ(I, b), not the regrets. Subtract the "
                          "strategy's sampled value, Σ_c σ(c) ṽ(I, c) = σ(a) ṽ(I, a), from "
                          "each.",
    "baseline-q": "Your baseline uses q(a), the probability the walk drew a with. The regret "
                  "compares each action with the *strategy*: subtract σ(a) ṽ(I, a).",
    "flipped": "The regrets' sign is flipped: regret(b) = ṽ(I, b) - σ(a) ṽ(I, a), not the "
               "other way round.",
}

_HINTS = {
    IndexError: "A path is a list of steps (who, sigma, q, a); sigma and q are arrays with "
                "one entry per action (or chance outcome) at that step, a is an index into "
                "them.",
    TypeError: "Return a list with one array of regrets per step of `player`, in path order.",
}


@dataclass(frozen=True)
class Path:
    """One recorded outcome-sampling walk: its steps, the leaf's payoff and the answer."""

    game: str
    player: int      # the traverser
    steps: list      # (who, sigma, q, a)
    payoff: float    # the traverser's at the leaf
    histories: list  # the history at each step
    regrets: list    # what the walk added at each of the traverser's steps, in path order


@lru_cache(maxsize=4)
def _game(name: str):
    return load_game(name)


@lru_cache(maxsize=8)
def _regrets_after(name: str, iterations: int) -> np.ndarray:
    """The regrets after a short external-sampling run (seed 0): strategies that are not
    uniform, with actions the traverser never plays (so that exploring them matters)."""
    from ..solvers import solve

    run = solve(_game(name), "external_sampling", iterations, seed=0, checkpoints=[iterations])
    return np.array(run.cumulative_regret[-1])


def record_path(name: str, iterations: int, seed: int, player: int) -> Path:
    """Walk outcome sampling once and record its path and the regrets it added."""
    tree = _game(name)
    before = _regrets_after(name, iterations)
    regret_sum = before.copy()
    strategy_sum = np.zeros(tree.legal_mask.shape)
    stream = stream_draws(np.random.default_rng(seed))
    log: list[tuple[int, np.ndarray, int]] = []

    def draw(node, probabilities):
        index = stream(node, probabilities)
        log.append((node, np.array(probabilities, dtype=float), index))
        return index

    outcome_sampling_walk(tree, 0, player, 1.0, 1.0, EPSILON, regret_sum, strategy_sum, draw)
    steps: list[tuple[str | int, np.ndarray, np.ndarray, int]] = []
    histories, regrets = [], []
    node = 0
    for node, q, index in log:
        children = tree.children[node]
        if tree.player[node] == CHANCE:
            steps.append(("chance", tree.chance_prob[children].copy(), q, index))
        else:
            info = tree.infoset[node]
            sigma = regret_matching(before[info], tree.legal_mask[info])[:len(children)]
            who = int(tree.player[node])
            steps.append((who, sigma, q, index))
            if who == player:
                regrets.append((regret_sum - before)[info, :len(children)])
        histories.append(tree.history[node])
    leaf = tree.children[node][log[-1][2]]
    assert tree.player[leaf] == TERMINAL
    return Path(name, player, steps, float(tree.utility[leaf, player]), histories, regrets)


@lru_cache(maxsize=1)
def recorded_paths() -> tuple[Path, ...]:
    """The checker's paths: :data:`WALKS`, recorded."""
    return tuple(record_path(*walk) for walk in WALKS)


def outcome_regrets(path, payoff: float, player: int, mistake: str | None = None) -> list:
    """The regrets outcome sampling adds at each of ``player``'s steps of ``path``: lesson 07's
    formula (:func:`cfrviz.reference.mistakes.path_regrets`), or with ``mistake``, a key of
    :data:`MISTAKES`, the wrong answer a student might compute (in its first form,
    :data:`cfrviz.reference.mistakes.OUTCOME_PATH`)."""
    return path_regrets(path, payoff, player, **OUTCOME_PATH[mistake][0])


def _as_regrets(result, path: Path):
    """The student's answer as a list of float arrays shaped like the right one, or None."""
    if isinstance(result, np.ndarray) and result.ndim == 2:
        result = list(result)
    if not isinstance(result, (list, tuple)) or len(result) != len(path.regrets):
        return None
    out = []
    for got, want in zip(result, path.regrets):
        try:
            values = floats(got)
        except (TypeError, ValueError):
            return None
        if values.shape != want.shape:
            return None
        out.append(values)
    return out


def _same(got, want) -> bool:
    return all(np.allclose(g, w, rtol=1e-7, atol=1e-10, equal_nan=True)
               for g, w in zip(got, want))


def _describe(path: Path) -> str:
    steps = ", ".join(f"{'chance' if w == 'chance' else 'P' + str(w + 1)}:{a}"
                      for w, _, _, a in path.steps)
    return (f"the {path.game.replace('_', ' ')} path for player {path.player + 1} "
            f"(steps {steps}; payoff {path.payoff:g})")


def answers() -> dict:
    """The package's own answer, which the student's function may not call (``forbidden`` of
    :func:`~cfrviz.exercises.coding.run_student`)."""
    return {outcome_regrets: "cfrviz.exercises.outcome_weights.outcome_regrets",
            path_regrets: "cfrviz.reference.mistakes.path_regrets"}


@checks("`my_outcome_regrets`", "check_outcome_regrets(my_outcome_regrets)")
def check_outcome_regrets(function) -> Feedback:
    """Lesson 07: ``function(path, payoff, player)`` gives the regrets the walk added on each
    of :func:`recorded_paths`; it must leave the path, its list and its arrays, as they were
    (mistake ``"changes its input"``)."""
    paths = recorded_paths()
    results = []
    for path in paths:
        steps = [(w, s.copy(), q.copy(), a) for w, s, q, a in path.steps]  # theirs to read
        kept = [("path", steps)] + [("path", array) for _, s, q, _ in steps for array in (s, q)]
        with np.errstate(all="ignore"):
            result, failed = run_student(lambda steps=steps, path=path: function(
                steps, path.payoff, path.player), name="`my_outcome_regrets`", hints=_HINTS,
                forbidden=answers(), unchanged=kept)
        if failed is not None:
            return failed
        results.append(result)
    with np.errstate(all="ignore"):  # a wrong version may divide by a probability of 0
        verdict = _verdict(results, paths)
    if verdict is not None:
        return verdict
    where = sum(len(p.regrets) for p in paths)
    return correct(f"Your regrets equal the ones outcome_sampling_walk added at all {where} of "
                   f"the traverser's nodes on {len(paths)} sampled paths of Kuhn and Leduc "
                   "poker: π_{-i}(h) · π(z|ha) · u_i(z) / q(z) for the action taken, 0 for the "
                   "others, minus σ(a) times that.")


def _verdict(results, paths) -> Feedback | None:
    """None when every path's regrets are right; else the mistake that gives the student's
    regrets on every path, or the verdict on the first path that differs."""
    got = [_as_regrets(result, path) for result, path in zip(results, paths)]
    if all(g is not None and _same(g, path.regrets) for g, path in zip(got, paths)):
        return None
    everywhere = [m for m in MISTAKES
                  if all(g is not None and _is(m, g, path) for g, path in zip(got, paths))]
    if len(everywhere) == 1:
        return wrong(MISTAKES[everywhere[0]], everywhere[0])
    return next(v for v in (_judge(r, p) for r, p in zip(results, paths)) if not v.correct)


def _is(mistake: str, got, path: Path) -> bool:
    """Whether ``got`` is what ``mistake`` (in any of its forms) gives on ``path``."""
    return any(_same(got, path_regrets(path.steps, path.payoff, path.player, **form))
               for form in OUTCOME_PATH[mistake])


def _judge(result, path: Path) -> Feedback:
    """The verdict on one path: a mistake is named only when no other gives the same numbers
    here (on a path where the opponent's action had probability 1, leaving the opponent out
    changes nothing); else the first step that differs is shown."""
    shown = _describe(path)
    steps = len(path.regrets)

    def variant(mistake):
        def matches(got) -> bool:
            return _is(mistake, got, path) and not any(
                _is(other, got, path) for other in MISTAKES if other != mistake)
        return matches

    return diagnose(_as_regrets(result, path), (
        Case("no-return", lambda _: result is None,
             "`my_outcome_regrets` returned None: return the list of regret arrays."),
        Case("shape", lambda got: got is None,
             f"On {shown}, expected a list of {steps} array(s) of regrets, one per step of "
             f"player {path.player + 1}, each with one entry per action there; got "
             f"{result!r:.120}."),
        Case.correct(lambda got: _same(got, path.regrets), "agrees"),
        *(Case(mistake, variant(mistake), message) for mistake, message in MISTAKES.items()),
        fallback(lambda got: _first_difference(got, path, shown)),
    ))


def _first_difference(got, path: Path, shown: str) -> str:
    k = next(k for k, (g, w) in enumerate(zip(got, path.regrets))
             if not np.allclose(g, w, rtol=1e-7, atol=1e-10))
    return (f"On {shown}, at player {path.player + 1}'s step {k + 1} you gave "
            f"{np.round(got[k], 4).tolist()}; outcome_sampling_walk added "
            f"{np.round(path.regrets[k], 4).tolist()}. Build ṽ(a) = π_{{-i}}(h) · π(z|ha) · "
            "u_i(z) / q(z) from the steps before h (not the traverser's), the steps after it "
            "(everybody's σ) and every step's q; then regret(b) = ṽ(b) - σ(a) ṽ(a).")
