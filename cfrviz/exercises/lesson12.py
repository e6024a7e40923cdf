"""Checkers for lesson 12, the road to superhuman poker."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from numbers import Real

import numpy as np

from ..analysis.scaling import PUBLISHED_SIZES
from . import Feedback, not_done, unanswered, wrong
from .diagnosis import Case, diagnose, fallback, screen

#: The ideas of exercise 2, by letter.  They are listed in a different order from the programs
#: (:data:`SYSTEMS`), so that giving the letters A to E in turn matches none of them.
IDEAS = {
    "A": "six players: a blueprint from linear Monte Carlo CFR and a depth-limited search in "
         "which the opponents may switch among several continuation strategies",
    "B": "a blueprint from Monte Carlo CFR on an abstracted game, refined during play by safe "
         "nested subgame solving, with gaps the opponents found patched overnight",
    "C": "regret matching+ with compressed tables, run on the whole game until it is "
         "essentially solved, offline",
    "D": "neural networks trained on sampled regrets replace the regret and strategy tables, "
         "so no hand-made card abstraction is needed",
    "E": "no precomputed strategy for the whole game: at every decision, re-solve a "
         "depth-limited lookahead whose leaves are valued by a neural network",
}
SYSTEMS = ("Cepheus", "DeepStack", "Libratus", "Pluribus", "Deep CFR")
MATCH = {"Cepheus": "C", "DeepStack": "E", "Libratus": "B", "Pluribus": "A", "Deep CFR": "D"}
#: The answer that reads the letters off in the order the programs are listed.
IN_ORDER = dict(zip(SYSTEMS, IDEAS))
WHY = {
    "Cepheus": "Cepheus (2015) ran CFR+ on all of heads-up limit hold'em",
    "DeepStack": "DeepStack (2017) re-solves at every decision with a value network at the "
                 "depth limit",
    "Libratus": "Libratus (2017) refines an MCCFR blueprint with nested safe subgame solving",
    "Pluribus": "Pluribus (2019) plays six-player poker with a linear-MCCFR blueprint and "
                "depth-limited search",
    "Deep CFR": "Deep CFR (2019) learns regrets with neural networks instead of tables",
}

#: Exercise 1: heads-up limit hold'em's information sets, actions per set, tables, bytes.
HULHE_SETS = next(p.infosets for p in PUBLISHED_SIZES if "limit Texas" in p.game
                  and "no-limit" not in p.game)
ACTIONS, TABLES, BYTES = 3, 2, 8


def _system(name) -> str | None:
    if not isinstance(name, str):
        return None
    key = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    return next((system for system in SYSTEMS if key == system.lower().replace(" ", "")), None)


def _read_matches(answer) -> tuple[dict[str, str], Feedback | None]:
    """The student's ``{system: letter}`` cleaned up, or what is wrong with it."""
    if unanswered(answer):
        return {}, not_done("Fill in `my_matches` with a letter for each program.")
    if not isinstance(answer, Mapping):
        return {}, wrong(f"Give a dict such as {{'Cepheus': 'A', ...}}; got "
                         f"{type(answer).__name__}.", "shape")
    matches: dict[str, str] = {}
    for key, letter in answer.items():
        system = _system(key)
        problem = screen((system, letter), (
            Case("names", lambda pair: pair[0] is None,
                 f"{key!r} is not one of {', '.join(SYSTEMS)}."),
            Case.not_done(lambda pair: unanswered(pair[1]), f"{system} still has no letter."),
            Case("names", lambda pair: not isinstance(pair[1], str)
                 or pair[1].strip().upper() not in IDEAS,
                 f"{system}: use one of the letters {', '.join(IDEAS)}; got {letter!r}."),
        ))
        if problem is not None:
            return {}, problem
        assert system is not None
        matches[system] = letter.strip().upper()
    return matches, None


def check_milestones(answer) -> Feedback:
    """Exercise 2: match each program to the idea it added (a dict ``{system: letter}``)."""
    matches, problem = _read_matches(answer)
    if problem is not None:
        return problem

    def missing(matches) -> list[str]:
        return [s for s in SYSTEMS if s not in matches]

    def wrong_ones(matches) -> list[str]:
        return [s for s in SYSTEMS if matches[s] != MATCH[s]]

    def swapped(a: str, b: str) -> Callable[[dict], bool]:
        return lambda matches: matches[a] == MATCH[b] and matches[b] == MATCH[a]

    return diagnose(matches, (
        Case.not_done(lambda matches: bool(missing(matches)),
                      lambda matches: f"Give a letter for {', '.join(missing(matches))} as "
                                      "well."),
        Case.correct(lambda matches: not wrong_ones(matches),
                     "All five right. Cepheus scaled a full-width solver (CFR+); DeepStack and "
                     "Libratus both solve during play but from different starting points (a "
                     "value network vs. a precomputed blueprint); Pluribus carried the "
                     "blueprint-plus-search recipe to six players; Deep CFR replaced the tables "
                     "themselves."),
        Case("in-order", lambda matches: matches == IN_ORDER,
             "Those are the letters A to E in the order the programs are listed, but the ideas "
             "are listed in another order: read each description and find the program that "
             "introduced it (the milestones above say what each added)."),
        Case("deepstack-libratus", swapped("DeepStack", "Libratus"),
             "DeepStack and Libratus are swapped. Both solve subgames while playing, but "
             "DeepStack keeps no strategy for the whole game and values its lookahead's leaves "
             "with a neural network, while Libratus starts from a blueprint computed in advance "
             "with Monte Carlo CFR."),
        Case("deepstack-deepcfr", swapped("DeepStack", "Deep CFR"),
             "DeepStack and Deep CFR both use deep networks, for different jobs: DeepStack's "
             "network estimates counterfactual values where its lookahead stops; Deep CFR's "
             "networks stand in for the regret and strategy tables of CFR itself."),
        Case("libratus-pluribus", swapped("Libratus", "Pluribus"),
             "Libratus and Pluribus are swapped. Both combine a blueprint with search, but "
             "Libratus played one opponent at a time (heads-up) and Pluribus sat at a table of "
             "six."),
        Case("cepheus", lambda matches: matches["Cepheus"] != MATCH["Cepheus"],
             "Cepheus is the one that needed no abstraction of the betting and no search: limit "
             "hold'em was small enough (about 3 × 10^14 sets) for CFR+ to solve it whole, "
             "offline."),
        fallback(lambda matches: f"{len(wrong_ones(matches))} of five are off, e.g. "
                                 f"{wrong_ones(matches)[0]}: {WHY[wrong_ones(matches)[0]]}."),
    ))


def hulhe_terabytes() -> float:
    """Two float64 tables of 3 actions for every HULHE information set, in terabytes (10^12)."""
    return HULHE_SETS * ACTIONS * TABLES * BYTES / 1e12


def check_hulhe_memory(answer) -> Feedback:
    """Exercise 1: CFR's two tables for heads-up limit hold'em in terabytes, within 5%."""
    positive = (not isinstance(answer, bool)
                and isinstance(answer, (Real, np.integer, np.floating))
                and np.isfinite(float(answer)) and float(answer) > 0)
    right = hulhe_terabytes()

    def near(*targets: float) -> Callable[[float], bool]:
        return lambda value: any(abs(value - x) <= 0.05 * x for x in targets)

    return diagnose(float(answer) if positive else None, (
        Case.not_done(lambda _: unanswered(answer), "Set `my_terabytes` to a number."),
        Case("shape", lambda value: value is None,
             f"Expected a positive number of terabytes; got {answer!r}."),
        Case.correct(near(right),
                     f"Yes, about {right:,.0f} TB, or {right / 1000:,.0f} petabytes: far beyond "
                     "one machine. The Cepheus team compressed the tables and spread the "
                     "computation over a cluster of about 200 computers for some two months; our "
                     "engine would need every entry in memory."),
        Case("one-table", near(right / TABLES),
             "That is one table. CFR keeps two for the whole run: cumulative regrets and the "
             "strategy sum (for the average)."),
        Case("per-set", near(right / ACTIONS),
             "Each information set needs one entry per action (fold, call, raise), not one per "
             "set."),
        Case("units", near(right * 1e12, right * 1e3, right / 1e3),
             "The size is right but the unit is off: the question asks for terabytes, 10^12 "
             "bytes."),
        Case("bits-bytes", near(right / BYTES, right * BYTES),
             "Count 8 bytes (64 bits) per number."),
        fallback("Not quite. Multiply the information sets by 3 actions, 2 tables and 8 bytes, "
                 "then divide by 10^12."),
    ))
