"""Bots of one's own: a Python function (or a file defining one) becomes a :class:`~cfrviz.Policy`.

A student's bot is a function of one argument, a :class:`Situation` (the
information set it has to decide at: its cards, the public card, the betting so
far, the legal actions), returning what it does there: an action (``"r"`` or
``"raise"``), a distribution ``{"c": 0.7, "r": 0.3}``, or a list of
probabilities in the order of ``situation.actions``.

A bot is a strategy, so it is asked once about every situation it can face
(450 in pocket poker, both seats) and its answers become a policy table, which
then plays any number of hands (:mod:`cfrviz.play.match`) and is evaluated
exactly.  To mix, a bot returns probabilities; a bot that draws random numbers
itself is asked only once per situation, so it plays one fixed draw.

Whatever goes wrong is caught and reported as a :class:`Problem` naming the
bot, the situation and, for a crash, the line of the bot's file or cell: an
exception, an answer that is not a legal action, probabilities that are
negative, not finite or do not sum to 1, and a decision slower than the
limit.  A function given here runs in this process: slow decisions are
interrupted (``SIGALRM``, on the main thread of a POSIX process, as Jupyter
runs cells), so a bot stuck in a loop costs the limit and no more, and its
answer is read to plain data under the same limit.  A bot that swallows every
exception inside a loop, or ends the process (``os._exit``), cannot be stopped
this way: a class's files are run by :mod:`cfrviz.play.sandbox`, each in a
process of its own, which :func:`cfrviz.play.tournament.run_tournament` does
for every file it is given.
"""

from __future__ import annotations

import io
import math
import os
import signal
import stat
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path

import numpy as np

from ..core.policy import Policy
from ..core.tree import GameTree
from .answers import Refused, as_probabilities, decode
from .bots import action_kinds
from .bots import hand_strength as set_strengths
from .hand import action_names
from .runner import (
    BOT_FUNCTION,
    LoadError,
    Situation,
    crash_line,
    load_bot,
    message_of,
    place,
    plain,
)

#: Seconds one decision may take before the bot is stopped and reported as slow.
DECISION_LIMIT = 1.0
#: Seconds a bot may spend over all its decisions (and loading its file).
BUDGET = 10.0
#: Bytes of a bot file read at most (a bot is a short program).
SOURCE_LIMIT = 1 << 20
#: How a bot file's name ends (in any case: ``BOB.PY`` is a bot too).
BOT_SUFFIX = ".py"

#: Problem kinds, in the order a report lists them.
KINDS = ("load", "crash", "illegal action", "bad answer", "bad probabilities", "slow",
         "skipped")
#: The kind of a folder's file that is not a bot file (listed apart from the bots' problems).
SKIPPED = KINDS[-1]

__all__ = ["BOT_FUNCTION", "BUDGET", "DECISION_LIMIT", "KINDS", "SKIPPED", "Entrant", "Problem",
           "Situation", "as_probabilities", "bot_files", "check_limits", "folder_contents",
           "load_file", "situations", "tabulate"]


def _parts(game: GameTree, key: str) -> tuple[str, str, str]:
    """(hand, public cards, betting) of an information-set key of a built-in card game."""
    if game.name == "pocket_poker":            # "AK|Q:cr"
        cards, _, betting = key.partition(":")
        hand, _, public = cards.partition("|")
        return hand, public, betting
    if game.name == "leduc_poker":             # "JK:cc/r": private rank, public rank, betting
        cards, _, betting = key.partition(":")
        return cards[:1], cards[1:], betting
    if game.name == "kuhn_poker":              # "Kpb"
        return key[:1], "", key[1:]
    return key, "", ""


def situations(game: GameTree) -> tuple[Situation, ...]:
    """Every information set of ``game`` as a :class:`Situation`, in the table's order.

    The values are computed once per game and kept as plain tuples; each call makes new
    Situation objects from them, so a bot that forces a change into a situation it was
    given (``object.__setattr__``) changes nobody else's.
    """
    return tuple(Situation(*row) for row in _rows(game))


def _rows(game: GameTree) -> tuple[tuple, ...]:
    """The fields of every :class:`Situation` of ``game``, computed once (immutable tuples)."""
    def build(tree: GameTree) -> tuple[tuple, ...]:
        names = action_names(tree)
        strength = set_strengths(tree)
        facing = (action_kinds(tree) == 0).any(axis=1)
        rows = []
        for row, key in enumerate(tree.infoset_keys):
            hand, public, betting = _parts(tree, key)
            rows.append((key, int(tree.infoset_player[row]), hand, public, betting,
                         tuple(tree.infoset_actions[row]), names[row], bool(facing[row]),
                         float(strength[row])))
        return tuple(rows)
    return game.cached("situation_rows", build)


@dataclass(frozen=True)
class Problem:
    """Why a bot could not play, in words, with where it happened.

    Attributes
    ----------
    name : str
        The bot's name (its file's stem, or the name it was entered under).
    kind : str
        One of :data:`KINDS`: ``"load"`` (the file has a syntax error, fails to
        import or defines no bot function), ``"crash"`` (the bot raised),
        ``"illegal action"``, ``"bad answer"`` (not an action or probabilities),
        ``"bad probabilities"`` (negative, not finite or not summing to 1),
        ``"slow"``, or ``"skipped"`` (a file of the folder that is not a bot file:
        ``alice.ipynb``, ``notes.txt``; its name is the file's name).
    message : str
        A sentence for the bot's author.
    situation : str or None
        The information-set key the bot was deciding at.
    source : str or None
        The bot's file name (or ``None`` for a function typed in a notebook).
    line : int or None
        The line of the bot's file or cell at fault, when known.
    error : str or None
        The exception's type for a crash (``"ZeroDivisionError"``), else ``None``.
    """

    name: str
    kind: str
    message: str
    situation: str | None = None
    source: str | None = None
    line: int | None = None
    error: str | None = None

    def __str__(self) -> str:
        return f"{self.name} ({self.kind}): {self.message}"


@dataclass(frozen=True)
class Entrant:
    """A bot ready to play: its name, its strategy and where it came from."""

    name: str
    policy: Policy
    source: str | None = None
    seconds: float = 0.0


class _Timeout(BaseException):
    """Raised inside a bot whose decision ran past the limit (a BaseException, so that a
    bot's ``except Exception`` does not swallow it)."""


@dataclass
class _Clock:
    """Times calls and interrupts one that runs past its limit.

    The interruption is ``SIGALRM`` (``signal.setitimer``), which only the main
    thread of a POSIX process can receive; elsewhere the time is checked after
    the call.  The timer repeats every ``limit`` seconds, so a bot that catches
    the first interruption with ``except BaseException`` in straight-line code is
    interrupted again.
    """

    interrupts: bool = field(default_factory=lambda: hasattr(signal, "setitimer")
                             and threading.current_thread() is threading.main_thread())
    armed: bool = False

    def _ring(self, _signum, _frame) -> None:
        if self.armed:
            raise _Timeout

    def __enter__(self) -> _Clock:
        if self.interrupts:
            # An alarm someone else set (a test runner's timeout) is paused, and resumed on exit.
            self._outer = signal.setitimer(signal.ITIMER_REAL, 0)
            self._entered = time.perf_counter()
            self._previous = signal.signal(signal.SIGALRM, self._ring)
        return self

    def __exit__(self, *exc) -> None:
        if self.interrupts:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
            delay, interval = self._outer
            if delay > 0:
                left = delay - (time.perf_counter() - self._entered)
                signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3), interval)

    def call(self, function: Callable, argument, limit: float):
        """``(result, seconds)``; raises :class:`_Timeout` when stopped."""
        start = time.perf_counter()
        try:
            if self.interrupts:
                self.armed = True
                signal.setitimer(signal.ITIMER_REAL, limit, limit)
            result = function(argument) if argument is not None else function()
        finally:
            self.armed = False
            if self.interrupts:
                signal.setitimer(signal.ITIMER_REAL, 0)
        seconds = time.perf_counter() - start
        if seconds > limit:
            raise _Timeout
        return result, seconds


@contextmanager
def _timed(quiet: bool) -> Iterator[_Clock]:
    """A :class:`_Clock` for a bot's calls, with what the bot prints hidden when ``quiet``."""
    with ExitStack() as stack:
        if quiet:
            stack.enter_context(redirect_stdout(io.StringIO()))
            stack.enter_context(redirect_stderr(io.StringIO()))
        yield stack.enter_context(_Clock())


def describe_situation(s: Situation) -> str:
    """``'J' (player 1; legal: 'p' (check), 'b' (bet))``: a situation as a report names it."""
    legal = ", ".join(f"{a!r} ({n})" for a, n in zip(s.actions, s.names))
    seat = f"player {s.player + 1}"
    return f"{s.key!r} ({seat}; legal: {legal})"


def refused_problem(name: str, situation: Situation, refusal: ValueError,
                    source: str | None) -> Problem:
    """The Problem of an answer :func:`as_probabilities` refused (its ``kind`` and words)."""
    return Problem(name, getattr(refusal, "kind", "bad answer"),
                   f"{refusal} at {describe_situation(situation)}", situation.key, source)


def crash_problem(name: str, situation: Situation, error: str, detail: str, line: int | None,
                  text: str, source: str | None) -> Problem:
    """The Problem of a bot that raised ``error`` (a type's name) deciding at ``situation``."""
    return Problem(name, "crash", f"raised {error}: {detail}{place(source, line, text)}, "
                   f"deciding at {describe_situation(situation)}", situation.key, source,
                   line, error)


def slow_problem(name: str, situation: Situation, row: int, rows: int, *, out_of_budget: bool,
                 decision_limit: float, budget: float, source: str | None) -> Problem:
    """The Problem of a bot stopped at its decision limit, or at its budget after ``row`` of
    ``rows`` situations."""
    if out_of_budget:
        message = (f"used up its {budget:g} s budget after {row} of {rows} situations; each "
                   "decision should take well under a millisecond")
    else:
        message = (f"took more than {decision_limit:g} s to decide at "
                   f"{describe_situation(situation)}; it was stopped there")
    return Problem(name, "slow", message, situation.key, source)


def tabulate(game: GameTree, bot: Callable, name: str, *, source: str | None = None,
             decision_limit: float = DECISION_LIMIT, budget: float = BUDGET,
             quiet: bool = True) -> Entrant | Problem:
    """Ask ``bot`` about every situation of ``game``; its answers make its :class:`Policy`.

    The bot runs in this process (a function of a notebook); files are run each in a process
    of its own by :func:`cfrviz.play.sandbox.play_files`.  Each call gets its own copy of the
    situation, and the answer is made plain data (:func:`cfrviz.play.runner.plain`) under the
    decision's time limit, so an answer whose ``__iter__`` or ``__float__`` never returns is
    stopped like a slow bot.

    Parameters
    ----------
    game : GameTree
    bot : callable
        ``bot(situation) -> action, {action: probability} or probabilities``.
    name : str
        What to call the bot in reports.
    source : str, optional
        The file the bot came from, for messages (``"alice.py"``).
    decision_limit : float
        Seconds one decision may take; the bot is stopped there and reported slow.
    budget : float
        Seconds all its decisions together may take.
    quiet : bool
        Hide what the bot prints (a class tournament); ``False`` lets it through.

    Returns
    -------
    Entrant or Problem
        The bot's strategy, or the first thing that went wrong, by name.
    """
    filename = _code_file(bot)
    rows = _rows(game)
    probabilities = np.zeros(game.legal_mask.shape)
    spent = 0.0
    with _timed(quiet) as clock:
        for row, fields in enumerate(rows):
            limit = min(decision_limit, max(budget - spent, 0.0) + 1e-3)
            # The bot gets a situation of its own, and its answer is checked against another
            # made after it returned: one that forces changes into situations (gc,
            # object.__setattr__) changes nobody else's, nor the check of its own answers.
            situation = Situation(*fields)
            try:
                answer, seconds = clock.call(lambda s: plain(bot(s)), situation, limit)
                situation = Situation(*fields)
                probabilities[row, : len(situation.actions)] = as_probabilities(decode(answer),
                                                                                situation)
            except _Timeout:
                return slow_problem(name, situation, row, len(rows),
                                    out_of_budget=limit < decision_limit,
                                    decision_limit=decision_limit, budget=budget, source=source)
            except Refused as refusal:
                return refused_problem(name, situation, refusal, source)
            except KeyboardInterrupt:
                raise
            except BaseException as error:  # noqa: B036 -- a bot's SystemExit is a crash too
                return _crashed(name, situation, error, clock, decision_limit, filename, source)
            spent += seconds
    return Entrant(name, Policy(game, probabilities), source, spent)


def _code_file(bot: Callable) -> str | None:
    """The file of the bot's code: a function's own, or a callable object's ``__call__``'s."""
    target = bot if isinstance(bot, types.FunctionType) else vars(type(bot)).get("__call__")
    code = getattr(target, "__code__", None)
    return code.co_filename if code is not None else None


def _crashed(name: str, situation: Situation, error: BaseException, clock: _Clock,
             decision_limit: float, filename: str | None, source: str | None) -> Problem:
    """The Problem of a bot that raised ``error``, its message read under the time limit."""
    line, text = crash_line(error, filename)
    try:  # an error's __str__ is the bot's code too
        detail = clock.call(message_of, error, decision_limit)[0]
    except _Timeout:
        detail = "(its message could not be shown: str() did not finish)"
    return crash_problem(name, situation, type(error).__name__, detail, line, text, source)


def read_source(path: str | Path) -> str | Problem:
    """The text of a bot file, or a ``"load"`` :class:`Problem` saying why it cannot be read
    (missing, not a regular file, larger than :data:`SOURCE_LIMIT`, not UTF-8)."""
    path = Path(path)
    name, shown = path.stem, path.name
    try:
        # O_NONBLOCK: a FIFO named like a bot is refused below instead of blocking the open.
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return Problem(name, "load", f"{shown} is not a regular file", source=shown)
            data = stream.read(SOURCE_LIMIT + 1)
        if len(data) > SOURCE_LIMIT:
            return Problem(name, "load", f"{shown} is larger than {SOURCE_LIMIT >> 10} KB; a "
                           "bot is a short program", source=shown)
        return data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        return Problem(name, "load", f"could not read {shown}: {error}", source=shown)


def load_file(path: str | Path, *, budget: float = BUDGET, quiet: bool = True
              ) -> tuple[str, Callable] | Problem:
    """The bot function a file defines, loaded into this process: ``(name, function)``, or a
    :class:`Problem`.

    The file is run as a fresh module named after its stem (``alice.py`` is
    ``alice``).  Its bot is the function named ``bot`` if it defines one, else
    its only function; imported functions do not count.  Problems (reported,
    never raised): the file cannot be read, has a syntax error, raises while it
    loads (an ``ImportError`` of a library the tournament lacks, say), takes
    longer than ``budget`` seconds to load, or defines no function or several
    without one called ``bot``.  A class tournament loads files each in a process of
    its own instead (:mod:`cfrviz.play.sandbox`), with the same rules and messages.
    """
    path = Path(path)
    name, shown = path.stem, path.name
    text = read_source(path)
    if isinstance(text, Problem):
        return text
    with _timed(quiet) as clock:
        try:
            function = load_bot(text, str(path.resolve()), shown,
                                run=lambda code, space: clock.call(lambda: exec(code, space),
                                                                   None, budget),
                                passthrough=(_Timeout, KeyboardInterrupt))
        except _Timeout:
            return Problem(name, "load", f"{shown} took more than {budget:g} s to load",
                           source=shown)
        except LoadError as problem:
            return Problem(name, "load", problem.message, source=shown, line=problem.line,
                           error=problem.error)
    return name, function


def _not_a_bot(path: Path) -> str | None:
    """Why a folder's entry is not a bot file, or None for a bot file."""
    name = path.name
    stem, dot, suffix = name.rpartition(".")
    if name.startswith("."):
        return "a hidden file (its name starts with '.'), not a bot"
    if path.is_dir():
        return f"a folder; bots are the {BOT_SUFFIX} files directly in the tournament's folder"
    if not path.is_file():
        return "not a regular file"
    if dot and suffix.lower() == "ipynb":
        return f"a notebook, not a {BOT_SUFFIX} file: copy its bot function into {stem}.py"
    if not dot or f".{suffix.lower()}" != BOT_SUFFIX:
        return (f"not a {BOT_SUFFIX} file (a bot file is named name{BOT_SUFFIX}): rename it "
                f"{name.split('.')[0]}{BOT_SUFFIX} if it is a bot")
    if name.startswith("_"):
        return "a helper file (its name starts with '_'), not a bot"
    return None


def folder_contents(folder: str | Path) -> tuple[list[Path], list[Problem]]:
    """A folder's bot files, and every other entry of it as a ``"skipped"`` :class:`Problem`
    saying why it is not one, so that no file a student handed in goes unmentioned.

    Bot files end in ``.py`` (any case) and do not start with ``_`` or ``.``; both lists
    are sorted by name.

    Raises
    ------
    ValueError
        If ``folder`` is not a folder.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"expected a folder of bot files (one name.py per student); "
                         f"{str(folder)!r} is not a folder")
    files, skipped = [], []
    for path in sorted(folder.iterdir()):
        reason = _not_a_bot(path)
        if reason is None:
            files.append(path)
        else:
            skipped.append(Problem(path.name, SKIPPED, reason, source=path.name))
    return files, skipped


def bot_files(folder: str | Path) -> list[Path]:
    """The bot files of a folder: its ``*.py`` files, sorted, skipping ``_*`` and ``.*``
    (:func:`folder_contents` says why each other entry is skipped).

    Raises
    ------
    ValueError
        If ``folder`` is not a folder.
    """
    return folder_contents(folder)[0]


def check_limits(decision_limit: float, budget: float) -> tuple[float, float]:
    """Both limits as floats, or a ValueError naming the bad one."""
    for label, value in (("decision_limit", decision_limit), ("budget", budget)):
        if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) \
                or value <= 0:
            raise ValueError(f"{label} must be a positive number of seconds; got {value!r}")
    return float(decision_limit), float(budget)
