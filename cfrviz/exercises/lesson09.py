"""Checkers for lesson 09, scaling up: Leduc, pocket poker, and CFR against linear programming."""

from __future__ import annotations

from functools import lru_cache
from numbers import Real

import numpy as np

from . import Feedback, as_number, correct, not_done, unanswered, wrong

#: Exercise 1's counts: private ranks, decision points in one betting round, ways the first
#: round can end with a call, public ranks.
PRIVATE_RANKS, DECISIONS_PER_ROUND, ROUND_ONE_CALLS, PUBLIC_RANKS = 3, 6, 5, 3
#: Exercise 2: the trained strategy the archetypes face.
TOURNAMENT_ALGORITHM, TOURNAMENT_ITERATIONS = "dcfr", 1000
BOT_NAMES = ("always_raise", "always_call", "uniform_random", "strong_hands")


def leduc_infosets() -> int:
    """3 × 6 first-round sets plus 3 × 3 × 5 × 6 second-round sets: 288."""
    first = PRIVATE_RANKS * DECISIONS_PER_ROUND
    second = PRIVATE_RANKS * PUBLIC_RANKS * ROUND_ONE_CALLS * DECISIONS_PER_ROUND
    return first + second


def _count(answer):
    if isinstance(answer, bool) or not isinstance(answer, (Real, np.integer, np.floating)):
        return None
    value = float(answer)
    return value if np.isfinite(value) else None


def check_leduc_infosets(answer) -> Feedback:
    """Exercise 1: how many information sets Leduc poker has when cards are ranks (288)."""
    if unanswered(answer):
        return not_done("Set `my_count` to a whole number.")
    value = _count(answer)
    if value is None:
        return wrong(f"Expected a number; got {answer!r}.", "shape")
    first = PRIVATE_RANKS * DECISIONS_PER_ROUND
    second = PRIVATE_RANKS * PUBLIC_RANKS * ROUND_ONE_CALLS * DECISIONS_PER_ROUND
    total = first + second
    if value == total:
        return correct(f"Yes: {first} sets in round one (3 private ranks × 6 decision points) "
                       f"and {second} in round two (3 private ranks × 3 public ranks × 5 ways "
                       f"into the round × 6 decision points), {total} in all.")
    if value == 936:
        return wrong("936 is the count with suits told apart (6 private cards, 5 public cards), "
                     "as OpenSpiel builds Leduc. The question counts ranks only.", "suits")
    if value == 1936:
        return wrong("1,936 is the number of nodes of the tree. An information set groups the "
                     "nodes a player cannot tell apart: the opponent's card is hidden.", "nodes")
    if value == second:
        return wrong(f"That is round two alone. Add the {first} decisions of round one "
                     "(3 private ranks × 6 decision points).", "only-round-two")
    if value == first:
        return wrong(f"That is round one alone. Round two adds a public card and the five "
                     f"ways round one can end in a call: {second} more sets.", "only-round-one")
    if value == first + PRIVATE_RANKS * ROUND_ONE_CALLS * DECISIONS_PER_ROUND:
        return wrong("The public card is seen by both players, so it splits every round-two "
                     "set three ways (J, Q or K on the board). Multiply round two by 3.",
                     "public-card")
    if value == first + PRIVATE_RANKS * PUBLIC_RANKS * DECISIONS_PER_ROUND:
        return wrong("Round two's sets also remember how round one went: the five call-ending "
                     "histories (cc, rc, crc, rrc, crrc) lead to different sets.",
                     "round-one-history")
    if value * 2 == total:
        return wrong(f"That is one player's share. Both players' sets count: {total} in all "
                     "(each player has 144).", "one-player")
    return wrong("Not quite. Count round one (private rank × decision points) and round two "
                 "(private rank × public rank × ways into round two × decision points) and "
                 "add them.")


@lru_cache(maxsize=1)
def tournament_values() -> dict[str, float]:
    """Exact payoff per hand (both seats averaged) of a DCFR strategy against each archetype."""
    from ..games import load_game
    from ..play.bots import bot
    from ..play.match import head_to_head
    from ..solvers import solve

    game = load_game("leduc_poker")
    trained = solve(game, TOURNAMENT_ALGORITHM, TOURNAMENT_ITERATIONS, checkpoints=[],
                    progress=False).average_policy()
    return {name: head_to_head(game, trained, bot(game, name), hands=2, seed=0).exact
            for name in BOT_NAMES}


def check_most_exploited(answer) -> Feedback:
    """Exercise 3: which archetype does the trained Leduc strategy beat by the most per hand?

    The truth is computed exactly (expected values, no luck) for a DCFR
    strategy after 1,000 iterations; it is the uniformly random bot.
    """
    if unanswered(answer):
        return not_done(f"Set `my_pick` to one of {', '.join(map(repr, BOT_NAMES))}.")
    name = answer.strip().lower().replace(" ", "_").replace("-", "_") \
        if isinstance(answer, str) else None
    if name not in BOT_NAMES:
        return wrong(f"Pick one of {', '.join(map(repr, BOT_NAMES))}; got {answer!r}.", "names")
    values = tournament_values()
    best = max(values, key=values.__getitem__)
    numbers = ", ".join(f"{n} {values[n]:+.3f}" for n in sorted(values, key=values.__getitem__,
                                                                 reverse=True))
    if name == best:
        return correct(f"Yes. Exact winnings per hand: {numbers}. The random bot folds good "
                       "hands to a bet and raises with bad ones; an equilibrium strategy "
                       "collects on every such mistake without trying to.")
    if name == "always_raise":
        return wrong("A natural guess, but raising with everything also wins the pots a "
                     "cautious strategy folds. The equilibrium strategy does not adapt to the "
                     "maniac (a best response would call it down much wider), so it collects "
                     f"less than you might think. Exact winnings per hand: {numbers}.", "maniac")
    if name == "strong_hands":
        return wrong("The tight bot is the hardest of the four to beat: it only puts money in "
                     "with good hands, which is close to sensible play in a small game. "
                     f"Exact winnings per hand: {numbers}.", "tight")
    if name == "always_call":
        return wrong("Close: the calling station pays off every value bet, but it never folds "
                     "a winner and never gets bluffed off one. The random bot makes both "
                     f"kinds of mistake. Exact winnings per hand: {numbers}.", "station")
    return wrong(f"Not quite. Exact winnings per hand: {numbers}.")


#: Exercise 3: the memory budget, in MB (a laptop's 16 GB, decimal units as in the figures).
BUDGET_MB = 16_000
#: How close an answer must be: printed fits are rounded, so a careful hand calculation lands
#: within a few per cent.
BUDGET_TOLERANCE = 0.10
#: The order of magnitude of heads-up limit hold'em's sequences per player (3.19e14 information
#: sets, lesson 10), for scale in the feedback.
HULHE_SEQUENCES = 1e14


def sequences_within(budget_mb: float, exponent: float, factor: float) -> float:
    """Solve ``factor * n ** exponent = budget_mb`` for ``n``."""
    return (budget_mb / factor) ** (1.0 / exponent)


def check_lp_budget(answer, exponent, factor, budget_mb: float = BUDGET_MB) -> Feedback:
    """Exercise 2: sequences per player at which the LP's memory reaches ``budget_mb``.

    The recorded runs fit ``memory (MB) ≈ factor × sequences ** exponent``; the
    answer is :func:`sequences_within` (within 10%).  Recognised mistakes: the
    budget in GB or in bytes against a fit in MB (``units``), raising to the
    exponent instead of taking its root (``root``), ignoring the exponent as if
    memory grew in proportion (``linear``) and counting both players' sequences
    (``both-players``).
    """
    b, f, budget = as_number(exponent), as_number(factor), as_number(budget_mb)
    if b is None or f is None or budget is None or b <= 0 or f <= 0 or budget <= 0:
        return wrong("The fit is missing: run the cell that prints the LP's growth "
                     "(`exponent`, `factor`) first.", "no-fit")
    if unanswered(answer):
        return not_done("Set `my_sequences` to a number of sequences per player.")
    value = as_number(answer)
    if value is None or value <= 0:
        return wrong(f"Expected a positive number of sequences; got {answer!r}.", "shape")
    right = sequences_within(budget, b, f)

    def near(x: float) -> bool:
        return abs(value - x) <= BUDGET_TOLERANCE * x

    if near(right):
        hulhe_tb = f * HULHE_SEQUENCES ** b / 1e6
        return correct(f"Yes: about {right:,.0f} sequences per player, since "
                       f"{f:.4g} × {right:,.0f}^{b:.3f} ≈ {budget:,.0f} MB. Our Leduc has 337. "
                       "Heads-up limit hold'em has some 10^14 sequences per player; the same "
                       f"growth would ask for {hulhe_tb:.1e} TB there, if it held that far.")
    for budget_as in (budget / 1e3, budget * 1e6, budget / 1e6, budget * 1e3):
        if near(sequences_within(budget_as, b, f)):
            return wrong("The method is right but the units are not: the fit gives megabytes, "
                         f"so the budget is {budget:,.0f} MB (16 GB = 16,000 MB), not 16 or "
                         "16 × 10^9.", "units")
    if near((budget / f) ** b):
        return wrong("Raise to the power 1/exponent, not exponent: from memory = factor × n^b, "
                     "n = (memory / factor)^(1/b).", "root")
    if near(budget / f):
        return wrong("That treats memory as proportional to the size (exponent 1). Use the "
                     f"fitted exponent {b:.3f}: n = (budget / factor)^(1/exponent).", "linear")
    if near(2 * right):
        return wrong("That counts both players' sequences; the fit is per player (the x axis "
                     "of the figure).", "both-players")
    return wrong("Not quite. Solve factor × n^exponent = budget for n: "
                 "n = (budget / factor)^(1/exponent), with the budget in MB.")
