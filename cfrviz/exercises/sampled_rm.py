"""Checker for lesson 01's sampled regret matching: the classic rock-paper-scissors trainer.

The student's loop draws through the checker's ``draw(player, strategy)`` (:class:`Draws`,
fixed uniform numbers per player and call), so a right loop reproduces
:func:`cfrviz.reference.cfr.sampled_regret_matching` exactly.  A wrong loop is named by the
variant that reproduces it (:data:`VARIANTS`, steps of the trainer swapped in
:data:`cfrviz.reference.mistakes.SAMPLED_REGRET_MATCHING`) or by its first draw from another
strategy.  A passing loop then runs :data:`LONG_ROUNDS` rounds, whose averages must be within
:func:`expected_bound`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..games.matrix import RPS_PAYOFFS, matrix_exploitability
from ..reference.cfr import sampled_regret_matching as reference_trainer
from ..reference.mccfr import sample
from ..reference.mistakes import SAMPLED_REGRET_MATCHING
from . import Feedback, as_vector, correct, not_done, unanswered, wrong
from .coding import DrawError, checks, floats, run_student, short_repr
from .diagnosis import Case, diagnose, fallback

#: The scissors variant of lesson 01 §6 and the fixed opponent of §4.
VARIANT = ((0, -1, 2), (1, 0, -2), (-2, 2, 0))
HABIT = (0.4, 0.3, 0.3)
#: A game that is neither square nor symmetric, so rows and columns cannot be confused.
LOPSIDED = ((1, -1, 0), (-2, 1, 3))

#: The short runs compared round by round: (what the student reads, payoffs, rounds, opponent).
CASES = (
    ("rock-paper-scissors, self-play", RPS_PAYOFFS, 40, None),
    ("the scissors variant against the fixed opponent [0.4, 0.3, 0.3]", VARIANT, 40, HABIT),
    ("a 2 x 3 game, self-play", LOPSIDED, 40, None),
)
#: The seed of the checker's uniform numbers, and the length of the convergence runs.
SEED = 11
LONG_ROUNDS = 5_000

#: Wrong loops the checker recognises, as steps of the reference swapped
#: (:data:`cfrviz.reference.mistakes.SAMPLED_REGRET_MATCHING`).
VARIANTS = {
    "flipped-sign": "Your regrets have the wrong sign: the regret of action a is what a would "
                    "have earned against the opponent's drawn action minus what your drawn "
                    "action earned, u(a, b) - u(a_drawn, b), not the other way round.",
    "mix-baseline": "You subtract what your whole mixed strategy would have earned against the "
                    "drawn action, u(σ, b). The classic trainer compares with the action you "
                    "actually drew: u(a, b) - u(a_drawn, b).",
    "expected": "Your regrets are taken against the opponent's whole strategy, the expected "
                "update of section 3. Here the opponent's action is drawn too: use the payoff "
                "against its drawn action b, u(a, b), for every a.",
    "player-2-sign": "Player 2's regrets use player 1's payoffs. The table is player 1's; "
                     "player 2 earns its negative, so its regret of column j is "
                     "-u(a, j) - (-u(a, b)) = u(a, b) - u(a, j).",
    "clipped-regrets": "Your regrets never stay below 0 from one round to the next: something "
                       "clips them. Most likely it is your regret matching of exercise 2 "
                       "changing the array it is given (`regrets[regrets < 0] = 0`, or "
                       "np.maximum(..., out=...)): then every call throws away the negative "
                       "totals. Regret matching must leave the cumulative regrets as they "
                       "were; compute the positive parts in a new array, np.maximum(r, 0).",
    "counts-actions": "Your average counts the actions drawn (a one-hot vector per round). The "
                      "average strategy adds each round's whole strategy σ, which is less noisy; "
                      "count frequencies would converge too, but they are not what is asked.",
    "late-strategy": "You add the strategy *after* this round's update to the average. Add the "
                     "strategy the round was played with (the one you drew from).",
    "not-divided": "You return the strategy sums. Divide by the number of rounds to get the "
                   "average strategies.",
    "current": "You return the current strategies, not their average over the rounds. The "
               "current strategy keeps circling; only the average settles.",
}

_HINTS = {
    IndexError: "The payoff table is payoffs[row of player 1, column of player 2]; player 1 "
                "has m = payoffs.shape[0] actions and player 2 has n = payoffs.shape[1].",
    TypeError: "Call draw(player, strategy) with player 0 or 1 and a strategy's probabilities; "
               "it returns the index of the action drawn.",
}


class Draws:
    """``draw(player, strategy) -> action index`` for one run: player ``p``'s ``k``-th call
    picks the index in which ``uniforms[k, p]`` falls (:func:`cfrviz.reference.mccfr.sample`,
    the draw of ``cfrviz.solve(..., update="sampled")``); ``sizes`` are the players' numbers of
    actions.  Every call is kept in ``log`` as ``(player, probabilities)``."""

    def __init__(self, uniforms: np.ndarray, sizes: tuple[int, int]):
        self.uniforms = np.asarray(uniforms, dtype=float)
        self.sizes = sizes
        self.calls = [0, 0]
        self.log: list[tuple[int, np.ndarray]] = []

    @classmethod
    def seeded(cls, seed: int, rounds: int, sizes: tuple[int, int] = (3, 3)) -> Draws:
        """The draws of ``cfrviz.solve(game, "regret_matching", rounds, seed=seed,
        update="sampled")``."""
        return cls(np.random.default_rng(seed).random((rounds, 2)), sizes)

    def __call__(self, player, strategy) -> int:
        if isinstance(player, (bool, np.bool_)) or player not in (0, 1):
            raise DrawError(f"draw(player, strategy) takes the player first, 0 (rows) or 1 "
                            f"(columns); got {player!r}")
        player = int(player)
        k = self.sizes[player]
        try:
            p = floats(strategy)
        except (TypeError, ValueError):
            p = np.array([np.nan])
        # `not min >= 0` also refuses NaN; an infinite entry makes the sum miss 1.
        if p.shape != (k,) or not p.min() >= 0 or not abs(p.sum() - 1) <= 1e-6:
            raise DrawError(f"draw({player}, strategy) needs player {player + 1}'s {k} "
                            f"probabilities, non-negative and summing to 1; got "
                            f"{short_repr(strategy)}. Pass the strategy regret matching gives, "
                            "not the regrets (and play uniformly when no regret is positive)")
        call = self.calls[player]
        if call >= len(self.uniforms):
            raise DrawError(f"draw was called more than {len(self.uniforms)} times for player "
                            f"{player + 1} in {len(self.uniforms)} rounds: draw once per player "
                            "per round")
        self.calls[player] += 1
        self.log.append((player, p))
        return sample(p.tolist(), float(self.uniforms[call, player]))


def sampled_regret_matching(payoffs, rounds: int, draw, opponent=None, *,
                            mistake: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The classic trainer (:func:`cfrviz.reference.cfr.sampled_regret_matching`), or the
    wrong loop ``mistake`` (a key of :data:`VARIANTS`) a student might write, its steps
    swapped (:data:`cfrviz.reference.mistakes.SAMPLED_REGRET_MATCHING`): the two averages."""
    return reference_trainer(payoffs, rounds, draw, opponent, SAMPLED_REGRET_MATCHING[mistake])


def expected_bound(payoffs, rounds: int) -> float:
    """``2 Δ sqrt(|A| / T)``, a bound on the expected exploitability of the averages after
    ``T = rounds`` sampled rounds (``Δ`` the payoff range, ``|A|`` the larger number of actions):
    regret matching's ``E ||R⁺||² <= T |A| Δ²`` plus the sampled regrets' martingale noise."""
    A = np.asarray(payoffs, dtype=float)
    spread = float(A.max() - A.min())
    return 2 * spread * math.sqrt(max(A.shape) / rounds)


@checks("`my_sampled_regret_matching`")
def check_sampled_regret_matching(function) -> Feedback:
    """Lesson 01: ``function(payoffs, rounds, draw, opponent=None) -> (average 1, average 2)``,
    compared with :func:`sampled_regret_matching` on :data:`CASES` (same draws), then run
    :data:`LONG_ROUNDS` rounds (:func:`_check_convergence`).  It must leave ``payoffs`` and
    ``opponent`` as they were (mistake ``"changes its input"``)."""
    if unanswered(function):
        return not_done("Write the loop of `my_sampled_regret_matching`, then run this cell "
                        "again.")
    if not callable(function):
        return wrong("Pass the function itself, check_sampled_regret_matching("
                     f"my_sampled_regret_matching); got {short_repr(function)}.", "not-callable")
    for label, payoffs, rounds, opponent in CASES:
        verdict = _check_case(function, label, payoffs, rounds, opponent)
        if verdict is not None:
            return verdict
    return _check_convergence(function)


def _uniforms(rounds: int) -> np.ndarray:
    return np.random.default_rng(SEED).random((rounds, 2))


def _run(function, payoffs, rounds, opponent, uniforms):
    """The student's averages (as two float vectors, or None) and their draws, or a verdict."""
    sizes = np.asarray(payoffs).shape
    draws = Draws(uniforms, sizes)
    args = (np.array(payoffs, dtype=float), rounds, draws)
    given = None if opponent is None else np.array(opponent)
    kept = [("payoffs", args[0])] + ([] if given is None else [("opponent", given)])
    with np.errstate(all="ignore"):  # a 0/0 shows up as the draw's complaint, not a warning
        result, failed = run_student(
            lambda: function(*args) if given is None else function(*args, given),
            name="`my_sampled_regret_matching`", hints=_HINTS, unchanged=kept)
    return result, failed, draws


def _as_pair(result, sizes) -> tuple[np.ndarray, np.ndarray] | None:
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        return None
    first, second = as_vector(result[0], sizes[0]), as_vector(result[1], sizes[1])
    return None if first is None or second is None else (first, second)


def _check_case(function, label, payoffs, rounds, opponent) -> Feedback | None:
    sizes = np.asarray(payoffs).shape
    uniforms = _uniforms(rounds)
    result, failed, draws = _run(function, payoffs, rounds, opponent, uniforms)
    if failed is not None:
        if failed.mistake == "crash":
            return wrong(f"In {label}: {failed.message}", "crash")
        return failed
    reference = Draws(uniforms, sizes)
    want = sampled_regret_matching(payoffs, rounds, reference, opponent)
    pair = _as_pair(result, sizes)

    def variant_of(mistake):
        def matches(got) -> bool:
            return _agree(got, sampled_regret_matching(payoffs, rounds, Draws(uniforms, sizes),
                                                       opponent, mistake=mistake))
        return matches

    return _verdict(diagnose(pair, (
        Case("no-return", lambda _: result is None,
             "`my_sampled_regret_matching` returned None: return the two average strategies, "
             "`return average_1, average_2`."),
        Case("shape", lambda got: got is None,
             f"In {label}, expected two average strategies ({sizes[0]} and {sizes[1]} "
             f"probabilities); got {short_repr(result)}."),
        Case("too-few-draws", lambda _: draws.calls != [rounds, rounds],
             f"In {label} ({rounds} rounds) your loop called draw {draws.calls[0]} times for "
             f"player 1 and {draws.calls[1]} times for player 2: each round draws one action "
             "for each player, draw(0, x) and draw(1, y), even when player 2's strategy is "
             "fixed."),
        Case.correct(lambda got: _agree(got, want), "agrees"),
        Case("ignores-opponent", lambda _: opponent is not None and any(
            p == 1 and not np.allclose(q, opponent) for p, q in draws.log),
             f"In {label}, player 2 must play the fixed strategy `opponent` every round; your "
             "loop drew player 2's action from another strategy. When `opponent` is given, "
             "use it for y instead of regret matching on player 2's regrets."),
        *(Case(mistake, variant_of(mistake), message) for mistake, message in VARIANTS.items()),
        fallback(lambda _: _first_difference(label, draws, reference, want, pair)),
    )))


def _agree(got, want) -> bool:
    return all(np.allclose(g, w, rtol=1e-7, atol=1e-9) for g, w in zip(got, want))


def _verdict(feedback: Feedback) -> Feedback | None:
    return None if feedback.correct else feedback


def _first_difference(label, draws: Draws, reference: Draws, want, pair) -> str:
    """Where the student's run first left the reference's: a draw, or only the averages."""
    for k, ((p, got), (_, expected)) in enumerate(zip(draws.log, reference.log)):
        if not np.allclose(got, expected, atol=1e-9):
            return (f"In {label}, round {k // 2 + 1}, you drew player {p + 1}'s action from "
                    f"{np.round(got, 4).tolist()}; regret matching on the regrets so far "
                    f"gives {np.round(expected, 4).tolist()}. Check the regrets of the rounds "
                    "before: u(a, b) - u(a_drawn, b) for player 1, and with player 2's payoffs "
                    "(the negatives) for player 2.")
    return (f"In {label}, every draw used the right strategy, but you returned averages "
            f"{[np.round(v, 4).tolist() for v in pair]}; the average strategies are "
            f"{[np.round(v, 4).tolist() for v in want]}. Add each round's strategies (x, y) to "
            "their sums and divide by the number of rounds at the end.")


def _check_convergence(function) -> Feedback:
    """The long runs: self-play on rock-paper-scissors and the fixed opponent of §4."""
    lines = []
    uniforms = _uniforms(LONG_ROUNDS)
    bound = expected_bound(RPS_PAYOFFS, LONG_ROUNDS)
    A = np.asarray(RPS_PAYOFFS, dtype=float)
    for opponent in (None, HABIT):
        result, failed, _ = _run(function, RPS_PAYOFFS, LONG_ROUNDS, opponent, uniforms)
        pair = None if failed is not None else _as_pair(result, (3, 3))
        if pair is None:
            return failed or wrong(f"In the {LONG_ROUNDS:,}-round run your function returned "
                                   f"{short_repr(result)}, not two average strategies.", "shape")
        x, y = pair
        if opponent is None:
            gap = float(matrix_exploitability(A, x[None], y[None])[0])
            what = "self-play: exploitability of the averages"
        else:
            gap = float((A @ np.asarray(HABIT)).max() - x @ A @ np.asarray(HABIT))
            what = "against [0.4, 0.3, 0.3]: player 1's average earns less than a best response by"
        if gap > bound:
            return wrong(f"Your loop agrees with the reference on the short runs, but after "
                         f"{LONG_ROUNDS:,} rounds ({what}) {gap:.4f} is above the bound "
                         f"2Δ√(|A|/T) = {bound:.4f}.", "not-converging")
        lines.append(f"{what} {gap:.4f}")
        if opponent is None:
            lines[-1] += f" (averages {np.round(x, 3).tolist()} and {np.round(y, 3).tolist()})"
    return correct(f"Your loop reproduces the reference draw for draw on all {len(CASES)} short "
                   f"runs (self-play, a fixed opponent, a 2 x 3 game). After {LONG_ROUNDS:,} "
                   f"rounds, {'; '.join(lines)}; regret matching keeps these below "
                   f"2Δ√(|A|/T) = {bound:.4f} in expectation.")


def reference_log(payoffs, rounds: int, seed: int, opponent: Sequence[float] | None = None):
    """The reference's averages at ``seed``, with the draws of ``cfrviz.solve`` at that seed."""
    draws = Draws.seeded(seed, rounds, np.asarray(payoffs).shape)
    return sampled_regret_matching(payoffs, rounds, draws, opponent)
