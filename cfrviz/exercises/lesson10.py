"""Checkers for lesson 10, scaling up (Leduc, pocket poker, the archetype tournament), and for
the LP lesson's memory budget (:func:`check_lp_budget`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from . import Feedback, as_number, unanswered
from .diagnosis import Case, diagnose, fallback, screen

#: Exercise 1: the information sets of Leduc poker with RANKS ranks, cards read as ranks; the
#: decision points of a betting round, the ways round one can end in a call.
RANKS, DECISIONS_PER_ROUND, ROUND_ONE_CALLS = 4, 6, 5
#: The tournament exercise: the trained strategy the archetypes face.
TOURNAMENT_ALGORITHM, TOURNAMENT_ITERATIONS = "dcfr", 1000
BOT_NAMES = ("always_raise", "always_call", "uniform_random", "strong_hands")


def leduc_infosets(ranks: int = RANKS) -> int:
    """Information sets of Leduc poker with ``ranks`` ranks: ``ranks`` × 6 in round one plus
    ``ranks`` × ``ranks`` × 5 × 6 in round two (288 for 3, 504 for 4)."""
    return ranks * DECISIONS_PER_ROUND + ranks * ranks * ROUND_ONE_CALLS * DECISIONS_PER_ROUND


@lru_cache(maxsize=1)
def _exercise_game_sizes() -> tuple[int, int]:
    """(information sets with suits told apart, nodes) of the exercise's game."""
    from ..core.tree import as_tree
    from ..games import load_game

    suited = as_tree(load_game("leduc_poker", ranks=RANKS, suits=True), "exercise 1")
    plain = as_tree(load_game("leduc_poker", ranks=RANKS), "exercise 1")
    return suited.num_infosets, plain.num_nodes


def check_leduc_infosets(answer) -> Feedback:
    """Exercise 1: the information sets of Leduc poker with :data:`RANKS` ranks (504)."""
    n, total = RANKS, leduc_infosets(RANKS)
    first = n * DECISIONS_PER_ROUND
    second = total - first
    with_suits, nodes = _exercise_game_sizes()

    def equals(x: float) -> Callable[[float], bool]:
        return lambda value: value == x

    return diagnose(as_number(answer), (
        Case.not_done(lambda _: unanswered(answer), "Set `my_count` to a whole number."),
        Case("shape", lambda value: value is None, f"Expected a number; got {answer!r}."),
        Case.correct(equals(total),
                     f"Yes: {first} sets in round one ({n} private ranks × 6 decision points) "
                     f"and {second} in round two ({n} private ranks × {n} public ranks × 5 ways "
                     f"into the round × 6 decision points), {total} in all. The same count "
                     f"with three ranks gives the table's {leduc_infosets(3)}."),
        Case("three-ranks", equals(leduc_infosets(3)),
             f"{leduc_infosets(3)} is the table's count, for Leduc's three ranks. The question "
             f"is about {n} ranks (T, J, Q, K): the same method, with {n} private and {n} "
             "public ranks."),
        Case("suits", equals(with_suits),
             f"{with_suits:,} is the count with suits told apart ({2 * n} private cards, "
             f"{2 * n - 1} public cards). The question counts ranks only."),
        Case("nodes", equals(nodes),
             f"{nodes:,} is the number of nodes of the tree. An information set groups the "
             "nodes a player cannot tell apart: the opponent's card is hidden."),
        Case("only-round-two", equals(second),
             f"That is round two alone. Add the {first} decisions of round one ({n} private "
             "ranks × 6 decision points)."),
        Case("only-round-one", equals(first),
             "That is round one alone. Round two adds a public card and the five ways round one "
             f"can end in a call: {second} more sets."),
        Case("public-card",
             equals(first + n * ROUND_ONE_CALLS * DECISIONS_PER_ROUND),
             f"The public card is seen by both players, so it splits every round-two set {n} "
             f"ways (one per rank on the board). Multiply round two by {n}."),
        Case("round-one-history", equals(first + n * n * DECISIONS_PER_ROUND),
             "Round two's sets also remember how round one went: the five call-ending histories "
             "(cc, rc, crc, rrc, crrc) lead to different sets."),
        Case("one-player", equals(total / 2),
             "That is one player's share. Both players' sets count: add the other "
             "player's."),
        fallback("Not quite. Count round one (private rank × decision points) and round two "
                 "(private rank × public rank × ways into round two × decision points) and add "
                 "them. Check your method on three ranks first: it must give the table's "
                 f"{leduc_infosets(3)}."),
    ))


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
    """The tournament exercise: the archetype a DCFR strategy (1,000 iterations on Leduc) beats
    by the most per hand, computed exactly (:func:`tournament_values`)."""
    name = answer.strip().lower().replace(" ", "_").replace("-", "_") \
        if isinstance(answer, str) else None
    unreadable = screen(name, (
        Case.not_done(lambda _: unanswered(answer),
                      f"Set `my_pick` to one of {', '.join(map(repr, BOT_NAMES))}."),
        Case("names", lambda name: name not in BOT_NAMES,
             f"Pick one of {', '.join(map(repr, BOT_NAMES))}; got {answer!r}."),
    ))
    if unreadable is not None:
        return unreadable
    values = tournament_values()
    best = max(values, key=values.__getitem__)
    numbers = ", ".join(f"{n} {values[n]:+.3f}" for n in sorted(values, key=values.__getitem__,
                                                                 reverse=True))
    return diagnose(name, (
        Case.correct(lambda name: name == best,
                     f"Yes. Exact winnings per hand: {numbers}. The random bot folds good hands "
                     "to a bet and raises with bad ones; an equilibrium strategy collects on "
                     "every such mistake without trying to."),
        Case("maniac", lambda name: name == "always_raise",
             "A natural guess, but raising with everything also wins the pots a cautious "
             "strategy folds. The equilibrium strategy does not adapt to the maniac (a best "
             "response would call it down much wider), so it collects less than you might "
             f"think. Exact winnings per hand: {numbers}."),
        Case("tight", lambda name: name == "strong_hands",
             "The tight bot is the hardest of the four to beat: it only puts money in with good "
             "hands, which is close to sensible play in a small game. Exact winnings per hand: "
             f"{numbers}."),
        Case("station", lambda name: name == "always_call",
             "Close: the calling station pays off every value bet, but it never folds a winner "
             "and never gets bluffed off one. The random bot makes both kinds of mistake. Exact "
             f"winnings per hand: {numbers}."),
        fallback(f"Not quite. Exact winnings per hand: {numbers}."),
    ))


#: The budget exercise: a laptop's 16 GB, in MB (decimal units, as in the figures).
BUDGET_MB = 16_000
#: How close an answer must be: the printed fit is rounded.
BUDGET_TOLERANCE = 0.10
#: Heads-up limit hold'em's sequences per player, in order of magnitude, for scale.
HULHE_SEQUENCES = 1e14


def sequences_within(budget_mb: float, exponent: float, factor: float) -> float:
    """Solve ``factor * n ** exponent = budget_mb`` for ``n``."""
    return (budget_mb / factor) ** (1.0 / exponent)


def check_lp_budget(answer, exponent, factor, budget_mb: float = BUDGET_MB) -> Feedback:
    """The LP lesson's budget exercise: the sequences per player at which the fit ``memory
    (MB) ≈ factor × sequences ** exponent`` reaches ``budget_mb`` (:func:`sequences_within`,
    within 10%)."""
    b, f, budget = as_number(exponent), as_number(factor), as_number(budget_mb)
    value = as_number(answer)
    unreadable = screen(value, (
        Case("no-fit", lambda _: b is None or f is None or budget is None or b <= 0 or f <= 0
             or budget <= 0,
             "The fit is missing: run the cell that prints the LP's growth (`exponent`, "
             "`factor`) first."),
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_sequences` to a number of sequences per player."),
        Case("shape", lambda value: value is None or value <= 0,
             f"Expected a positive number of sequences; got {answer!r}."),
    ))
    if unreadable is not None:
        return unreadable
    assert b is not None and f is not None and budget is not None
    return diagnose(value, budget_cases(b, f, budget))


def budget_cases(b: float, f: float, budget: float) -> tuple[Case, ...]:
    """The budget exercise's table for the fit ``memory (MB) = f × n^b`` and a budget in MB."""
    right = sequences_within(budget, b, f)
    hulhe_tb = f * HULHE_SEQUENCES ** b / 1e6

    def near(x: float) -> Callable[[float], bool]:
        return lambda value: abs(value - x) <= BUDGET_TOLERANCE * x

    other_units = [sequences_within(budget_as, b, f)
                   for budget_as in (budget / 1e3, budget * 1e6, budget / 1e6, budget * 1e3)]
    return (
        Case.correct(near(right),
                     f"Yes: about {right:,.0f} sequences per player, since {f:.4g} × "
                     f"{right:,.0f}^{b:.3f} ≈ {budget:,.0f} MB. Our Leduc has 337. Heads-up "
                     "limit hold'em has some 10^14 sequences per player; the same growth would "
                     f"ask for {hulhe_tb:.1e} TB there, if it held that far."),
        Case("units", lambda value: any(near(x)(value) for x in other_units),
             "The method is right but the units are not: the fit gives megabytes, so the "
             f"budget is {budget:,.0f} MB (16 GB = 16,000 MB), not 16 or 16 × 10^9."),
        Case("root", near((budget / f) ** b),
             "Raise to the power 1/exponent, not exponent: from memory = factor × n^b, n = "
             "(memory / factor)^(1/b)."),
        Case("linear", near(budget / f),
             "That treats memory as proportional to the size (exponent 1). Use the fitted "
             f"exponent {b:.3f}: n = (budget / factor)^(1/exponent)."),
        Case("both-players", near(2 * right),
             "That counts both players' sequences; the fit is per player (the x axis of the "
             "figure)."),
        fallback("Not quite. Solve factor × n^exponent = budget for n: n = (budget / "
                 "factor)^(1/exponent), with the budget in MB."),
    )
