"""A class tournament: students' bots and the archetypes play a round robin, ranked with 95% CIs.

Every pair of bots plays ``hands`` deals of duplicate poker with
:func:`~cfrviz.play.match.head_to_head`: each deal twice, once in each seat,
with the same cards and the same random numbers, so card luck largely cancels.
A pair's mean winnings per hand get a 95% confidence interval by the normal
approximation, mean ± 1.96 standard errors, the standard error taken from the
spread of the per-deal means (a deal's two seatings share cards, so the deal
is the independent unit).

Each pair plays its own deals, seeded from the tournament's seed and the two
names, so the matches are independent and the same pair replays the same
deals whatever else entered.  A bot's score is its mean winnings per hand
averaged over its opponents, with equal weight; its standard error is
``sqrt(sum of the pairs' squared standard errors) / opponents``, which is
exact for independent matches.  Bots are ranked by score.

Entries are functions, files or policies (:mod:`cfrviz.play.entrants`).  Each
file runs in a process of its own (:mod:`cfrviz.play.sandbox`), so no bot can
end, slow or rig the tournament or another bot.  A bot that cannot be loaded,
crashes, ends its process, answers with an illegal action or bad probabilities,
or is too slow is left out of the round robin and listed in
:attr:`Tournament.problems` by name, with what went wrong and where; the
tournament goes on without it, and every other result is what it would be
without it.  Every other file of a folder is listed there too, as ``skipped``,
with why (``alice.ipynb`` is a notebook, ``dave`` has no ``.py`` ending).

From a shell, for a folder of students' files (one ``name.py`` each)::

    python -m cfrviz.play.tournament bots/ --hands 20000
"""

from __future__ import annotations

import argparse
import html
import math
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path

import numpy as np

from ..core.checks import whole_number
from ..core.policy import Policy, check_policy
from ..core.tree import GameTree
from .bots import BOTS, bot, require_card_game
from .entrants import (
    BUDGET,
    DECISION_LIMIT,
    KINDS,
    Entrant,
    Problem,
    check_limits,
    folder_contents,
    tabulate,
)
from .match import Z95, MatchResult, RoundRobin, head_to_head
from .sandbox import play_files

#: Deals per pair by default (each played twice, seats swapped).
HANDS = 20_000
#: How the intervals are made, in one sentence for reports.
METHOD = ("duplicate deals (each deal played twice, seats swapped, same cards); 95% CI = "
          "mean ± 1.96 standard errors of the per-deal means (normal approximation); each pair "
          "plays its own independently seeded deals")


@dataclass(frozen=True)
class Standing:
    """One bot's line in the ranking.

    Attributes
    ----------
    rank : int
        1 for the best score.
    name : str
    score : float
        Mean winnings per hand, averaged over the opponents (equal weights).
    std_error : float
        Its standard error (the matches are independent).
    exact : float
        The same average computed exactly from the strategies (no luck).
    worst : str or None
        The opponent it does worst against (loses most to, or beats by least).
    source : str or None
        The bot's file, or None for an archetype or a function.
    """

    rank: int
    name: str
    score: float
    std_error: float
    exact: float
    worst: str | None
    source: str | None = None

    @property
    def half_width(self) -> float:
        """Half the width of the 95% confidence interval."""
        return Z95 * self.std_error

    @property
    def ci(self) -> tuple[float, float]:
        return (self.score - self.half_width, self.score + self.half_width)


@dataclass(frozen=True)
class Tournament:
    """The result of :func:`run_tournament`.

    Attributes
    ----------
    game : str
    standings : tuple of Standing
        Best first.
    pairs : RoundRobin
        ``pairs[a][b]`` is a's :class:`~cfrviz.play.match.MatchResult` against b.
    problems : tuple of Problem
        Bots that could not play, with what went wrong.
    archetypes : tuple of str
        Which of the players are cfrviz's archetype bots.
    hands : int
        Deals per pair (each played in both seats).
    seed : int
    seconds : float
        Wall-clock time of the whole tournament, loading included.
    """

    game: str
    standings: tuple[Standing, ...]
    pairs: RoundRobin
    problems: tuple[Problem, ...]
    archetypes: tuple[str, ...]
    hands: int
    seed: int
    seconds: float

    @property
    def names(self) -> tuple[str, ...]:
        """The players, best first."""
        return tuple(s.name for s in self.standings)

    def standing(self, name: str) -> Standing:
        """The line of the bot called ``name`` (a ValueError listing the players if none)."""
        for s in self.standings:
            if s.name == name:
                return s
        problem = [p for p in self.problems if p.name == name]
        if problem:
            raise ValueError(f"{name!r} did not play: {problem[0].message}")
        raise ValueError(f"no player called {name!r}; players: {list(self.names)}")

    def __str__(self) -> str:
        width = max([len(s.name) for s in self.standings] + [4])
        lines = [f"{self.game}: {len(self.standings)} bots, {self.hands:,} deals per pair "
                 f"({2 * self.hands:,} hands), seed {self.seed}, {self.seconds:.1f} s",
                 f"Method: {METHOD}.", "",
                 f"{'rank':>4}  {'bot':{width}}  {'won per hand (95% CI)':>22}  {'exact':>7}  "
                 f"worst against"]
        for s in self.standings:
            lines.append(f"{s.rank:>4}  {s.name:{width}}  {_signed(s.score):>8} ± "
                         f"{s.half_width:.3f}      {_signed(s.exact):>7}  {s.worst or ''}")
        if len(self.standings) >= 2:
            lines += ["", "Per pair, row's winnings per hand against column (± 95% CI):",
                      str(self.pairs)]
        lines += ["", f"Problems ({len(self.problems)}):" if self.problems else "Problems: none"]
        lines += [f"  {p}" for p in self.problems]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(str(self))}</pre>"


def _signed(x: float) -> str:
    return f"{round(x, 3) + 0.0:+.3f}"  # + 0.0 turns a rounded -0.000 into 0.000


def pair_seed(seed: int, a: str, b: str) -> int:
    """The seed of the match between ``a`` and ``b``: the same whichever is named first and
    whoever else entered (SeedSequence of the tournament's seed and the two names' CRC-32)."""
    low, high = sorted((a, b))
    words = [seed, zlib.crc32(low.encode()), zlib.crc32(high.encode())]
    return int(np.random.SeedSequence(words).generate_state(1)[0])


def mirror(result: MatchResult) -> MatchResult:
    """B's side of A's result in a zero-sum game: payoffs negated, seats swapped."""
    low, high = result.ci
    return MatchResult(
        game=result.game, names=(result.names[1], result.names[0]), deals=result.deals,
        hands=result.hands, mean=-result.mean, std_error=result.std_error, ci=(-high, -low),
        seat_means=(-result.seat_means[1], -result.seat_means[0]), exact=-result.exact,
        exact_seats=(-result.exact_seats[1], -result.exact_seats[0]), seed=result.seed)


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    k = 2
    while f"{name}_{k}" in taken:
        k += 1
    return f"{name}_{k}"


Entry = Callable | Policy | str | Path


def _as_entries(entries) -> tuple[list[tuple[str | None, Entry]], list[Problem]]:
    """``(name or None, entry)`` pairs from a folder, a mapping or an iterable of entries, and
    the files of a folder that are not bots (each with why)."""
    if entries is None:
        return [], []
    if isinstance(entries, (str, Path)):
        if Path(entries).is_dir():
            files, skipped = folder_contents(entries)
            return [(None, p) for p in files], skipped
        return [(None, Path(entries))], []
    if isinstance(entries, Mapping):
        named = [k for k in entries if not isinstance(k, str) or not k.strip()]
        if named:
            raise ValueError(f"entries are keyed by name: each key must be a non-empty string, "
                             f"e.g. {{'my_bot': my_bot}}; got the key {named[0]!r}")
        return [(k.strip(), v) for k, v in entries.items()], []
    if isinstance(entries, Iterable):
        return [(None, e) for e in entries], []
    raise ValueError(f"entries must be a folder, a file, a dict {{name: bot}} or a list of bot "
                     f"functions or files; got {type(entries).__name__}")


def enter(game: GameTree, entries=None, *, decision_limit: float = DECISION_LIMIT,
          budget: float = BUDGET, quiet: bool = True, taken: Iterable[str] = ()
          ) -> tuple[list[Entrant], list[Problem]]:
    """Load and tabulate every entry: the bots that can play, and the problems of the rest.

    Files are run each in a process of its own (:func:`cfrviz.play.sandbox.play_files`), so
    that no bot can end, slow or rig the tournament or another bot; functions run in this
    process (:func:`~cfrviz.play.entrants.tabulate`): they are the notebook's own code.

    Parameters
    ----------
    game : GameTree
    entries : folder, file, mapping or iterable, optional
        A folder (its ``*.py`` files, :func:`~cfrviz.play.entrants.folder_contents`; every
        other file in it is listed as a ``"skipped"`` problem saying why); one file;
        ``{name: function, file or Policy}``; or a list of functions (named by
        ``__name__``) and files (named by their stem).
    decision_limit, budget, quiet
        As for :func:`~cfrviz.play.entrants.tabulate`.
    taken : iterable of str
        Names already in use (the archetypes): a clashing entry gets ``_2``.

    Raises
    ------
    ValueError
        Only for arguments that are not entries at all (a bad key, a number);
        nothing a bot does raises.
    """
    used = set(taken)
    listed, skipped = _as_entries(entries)
    results: list[Entrant | Problem | None] = []
    files: list[tuple[int, str, Path]] = []
    for given, entry in listed:
        if isinstance(entry, Policy):
            if given is None:
                raise ValueError("a Policy entry needs a name: pass {'name': policy}")
            check_policy(game, entry, given)
            name = _unique(given, used)
            results.append(Entrant(name, entry))
        elif isinstance(entry, (str, Path)):
            name = _unique(given or Path(entry).stem, used)
            files.append((len(results), name, Path(entry)))
            results.append(None)  # played below, all files together
        elif callable(entry):
            name = _unique(given or getattr(entry, "__name__", None) or type(entry).__name__,
                           used)
            results.append(tabulate(game, entry, name, decision_limit=decision_limit,
                                    budget=budget, quiet=quiet))
        else:
            raise ValueError(f"an entry is a bot function, a file name.py or a Policy; "
                             f"got {entry!r:.60}")
        used.add(name)
    played = play_files(game, [(name, path) for _, name, path in files],
                        decision_limit=decision_limit, budget=budget, quiet=quiet)
    for (k, _, _), result in zip(files, played):
        results[k] = result
    entrants = [r for r in results if isinstance(r, Entrant)]
    problems = [r for r in results if isinstance(r, Problem)] + skipped
    return entrants, problems


def _game(game) -> GameTree:
    if isinstance(game, str):
        from ..games import load_game
        game = load_game(game)
    if not isinstance(game, GameTree):
        raise ValueError(f"a tournament needs a card game, e.g. 'pocket_poker' or "
                         f"cfrviz.load_game('pocket_poker'); got {type(game).__name__}")
    return require_card_game(game, "a tournament")


def run_tournament(game="pocket_poker", entries=None, *, archetypes: bool | Iterable[str] = True,
                   hands: int = HANDS, seed: int = 0, decision_limit: float = DECISION_LIMIT,
                   budget: float = BUDGET, quiet: bool = True,
                   progress: Callable[[str], None] | None = None) -> Tournament:
    """Play a round robin among the archetypes and the entries, and rank them.

    Parameters
    ----------
    game : str or GameTree
        A game name (``"pocket_poker"``) or a tree from :func:`cfrviz.load_game`.
    entries : folder, file, mapping or iterable, optional
        The bots of the class (see :func:`enter`).
    archetypes : bool or iterable of str
        ``True`` enters every archetype of :data:`cfrviz.play.bots.BOTS`, ``False`` none;
        or a list of their names.
    hands : int
        Deals per pair (at least 2), each played in both seats.
    seed : int
        Seeds every pair's deals (:func:`pair_seed`).
    decision_limit, budget : float
        Seconds one decision, and one bot's loading and decisions together, may take.
    quiet : bool
        Hide what bots print.
    progress : callable, optional
        Called with a line of text as each bot is entered and each bot's matches are done.

    Returns
    -------
    Tournament
        With fewer than two bots able to play, ``standings`` lists them unranked
        against nobody and ``pairs`` is empty; the problems say why.

    Raises
    ------
    ValueError
        For a bad game, entry, number of hands, seed or limit, or an unknown
        archetype; never for what a bot does.
    """
    start = time.perf_counter()
    tree = _game(game)
    hands = whole_number(hands, "hands", 2)
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer; got {seed!r}")
    decision_limit, budget = check_limits(decision_limit, budget)
    chosen = _archetypes(archetypes)
    say = progress or (lambda _line: None)
    players: dict[str, Entrant] = {name: Entrant(name, bot(tree, name)) for name in chosen}
    problems = _enter_all(tree, entries, players, decision_limit, budget, quiet, say)
    results = _play_pairs(tree, players, hands, seed, say)
    standings = _standings(results, players)
    order = tuple(s.name for s in standings)
    ordered = {a: {b: results[a][b] for b in order if b in results[a]} for a in order}
    problems.sort(key=lambda p: (KINDS.index(p.kind), p.name))
    return Tournament(game=tree.name, standings=standings, pairs=RoundRobin(order, ordered),
                      problems=tuple(problems), archetypes=tuple(chosen), hands=hands,
                      seed=int(seed), seconds=time.perf_counter() - start)


def _enter_all(tree: GameTree, entries, players: dict[str, Entrant], decision_limit: float,
               budget: float, quiet: bool, say: Callable[[str], None]) -> list[Problem]:
    """Enter ``entries`` beside ``players`` (adding each bot that can play); the problems."""
    entrants, problems = enter(tree, entries, decision_limit=decision_limit, budget=budget,
                               quiet=quiet, taken=players)
    for entrant in entrants:
        players[entrant.name] = entrant
        say(f"entered {entrant.name} ({entrant.seconds:.2f} s of decisions)")
    for problem in problems:
        say(f"left out {problem}")
    return problems


def _archetypes(archetypes: bool | Iterable[str]) -> list[str]:
    """The archetypes' names ``archetypes`` asks for (all, none, or those listed)."""
    if archetypes is True:
        return list(BOTS)
    if archetypes is False:
        return []
    chosen = list(archetypes)
    for name in chosen:
        BOTS.lookup(name)  # a ValueError listing the archetypes
    return chosen


def _play_pairs(tree: GameTree, players: dict[str, Entrant], hands: int, seed: int,
                say: Callable[[str], None]) -> dict[str, dict[str, MatchResult]]:
    """``{a: {b: a's result against b}}`` for every pair, each pair on its own seeded deals
    (one match, mirrored, in a zero-sum game)."""
    names = list(players)
    zero_sum = bool(np.allclose(tree.utility.sum(axis=1), 0.0))
    results: dict[str, dict[str, MatchResult]] = {a: {} for a in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            result = head_to_head(tree, players[a].policy, players[b].policy, hands,
                                  pair_seed(seed, a, b), (a, b))
            results[a][b] = result
            results[b][a] = mirror(result) if zero_sum else head_to_head(
                tree, players[b].policy, players[a].policy, hands, pair_seed(seed, a, b),
                (b, a))
        say(f"played {a}'s matches")
    return results


def _standings(results: dict[str, dict[str, MatchResult]],
               players: dict[str, Entrant]) -> tuple[Standing, ...]:
    """Everyone ranked by mean payoff per hand over their opponents (ties by name)."""
    lines = []
    for a, row in results.items():
        if row:
            score = float(np.mean([r.mean for r in row.values()]))
            se = math.sqrt(sum(r.std_error ** 2 for r in row.values())) / len(row)
            exact = float(np.mean([r.exact for r in row.values()]))
            worst: str | None = min(row.items(), key=lambda pair: pair[1].mean)[0]
        else:
            score, se, exact, worst = 0.0, 0.0, 0.0, None
        lines.append((a, score, se, exact, worst))
    lines.sort(key=lambda line: (-line[1], line[0]))
    return tuple(Standing(k + 1, a, score, se, exact, worst, players[a].source)
                 for k, (a, score, se, exact, worst) in enumerate(lines))


#: ASCII stand-ins for the report's few non-ASCII characters, for a stream that cannot show them.
FALLBACKS = str.maketrans({"±": "+/-", "—": "-", "–": "-"})


def printable(text: str, stream=None) -> str:
    """``text`` as ``stream`` (stdout by default) can write it: unchanged when its encoding
    has every character; else '±' as '+/-', dashes as '-', and anything else (a student's
    accented name) as a backslash escape.  ``PYTHONIOENCODING=ascii`` then prints the report
    instead of failing on its first '±'."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        return text.translate(FALLBACKS).encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:  # an encoding Python does not know: ASCII is safe
        return text.translate(FALLBACKS).encode("ascii", "backslashreplace").decode("ascii")


def main(argv: list[str] | None = None) -> int:
    """``python -m cfrviz.play.tournament FOLDER``: run a class tournament and print the report."""
    parser = argparse.ArgumentParser(
        prog="python -m cfrviz.play.tournament",
        description="Round robin of the bots in FOLDER (one name.py each, defining a function "
                    "`bot(situation)`, or only one function) and cfrviz's archetypes.")
    parser.add_argument("folder", help="folder of bot files (or one file)")
    parser.add_argument("--game", default="pocket_poker", help="game name (pocket_poker)")
    parser.add_argument("--hands", type=int, default=HANDS,
                        help=f"deals per pair, each played in both seats ({HANDS})")
    parser.add_argument("--seed", type=int, default=0, help="seed of every deal (0)")
    parser.add_argument("--no-archetypes", action="store_true",
                        help="only the students' bots")
    parser.add_argument("--decision-limit", type=float, default=DECISION_LIMIT,
                        help=f"seconds per decision before a bot is stopped ({DECISION_LIMIT:g})")
    parser.add_argument("--budget", type=float, default=BUDGET,
                        help=f"seconds per bot, loading and all decisions ({BUDGET:g})")
    parser.add_argument("--verbose", action="store_true", help="say what happens as it happens")
    args = parser.parse_args(argv)
    if not Path(args.folder).exists():
        parser.error(f"{args.folder!r} does not exist")
    try:
        result = run_tournament(args.game, args.folder, archetypes=not args.no_archetypes,
                                hands=args.hands, seed=args.seed,
                                decision_limit=args.decision_limit, budget=args.budget,
                                progress=(lambda line: print(printable(line, sys.stderr),
                                                             file=sys.stderr))
                                if args.verbose else None)
    except ValueError as error:
        parser.error(printable(str(error), sys.stderr))
    print(printable(str(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
