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
limit.  Slow decisions are interrupted (``SIGALRM``, on the main thread of a
POSIX process, as Jupyter runs cells), so a bot stuck in a loop costs the
limit and no more; elsewhere the time is measured after the call returns.
A bot that swallows every exception with a bare ``except:`` inside a loop, or
ends the process (``os._exit``), cannot be stopped this way: run classes'
files with :mod:`cfrviz.play.tournament`, which loads each bot in turn and
reports it, and keep a copy of the folder.
"""

from __future__ import annotations

import io
import linecache
import math
import signal
import threading
import time
import traceback
import types
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path

import numpy as np

from ..core.policy import SUM_TOLERANCE, Policy
from ..core.tree import GameTree
from .bots import action_kinds
from .bots import hand_strength as set_strengths
from .hand import action_names

#: Seconds one decision may take before the bot is stopped and reported as slow.
DECISION_LIMIT = 1.0
#: Seconds a bot may spend over all its decisions (and loading its file).
BUDGET = 10.0
#: Names a file's bot function may have when the file defines several functions.
BOT_FUNCTION = "bot"

#: Readable names a bot may use for the same action: with no bet to face, "raise" is the bet
#: and "call" the check (and the other way round).
SYNONYMS = {"raise": "bet", "bet": "raise", "call": "check", "check": "call"}
#: Problem kinds, in the order a report lists them.
KINDS = ("load", "crash", "illegal action", "bad answer", "bad probabilities", "slow")


@dataclass(frozen=True)
class Situation:
    """What a bot knows when it decides: one information set of the game.

    Attributes
    ----------
    key : str
        The information set's key, e.g. ``"AK|Q:c"`` in pocket poker.
    player : int
        0 when the bot is player 1 (first to act), 1 when player 2.
    hand : str
        The bot's private cards, e.g. ``"AK"`` (pocket poker), ``"K"`` (Kuhn, Leduc).
    public : str
        The public card(s) seen so far, e.g. ``"Q"``; ``""`` when there are none.
    betting : str
        The actions so far, e.g. ``"cr"`` (a check, then a raise); Leduc marks the end
        of round one with ``/``.
    actions : tuple of str
        The legal action labels, e.g. ``("f", "c", "r")``.
    names : tuple of str
        Their readable names in the same order: ``fold``, ``check`` or ``call``,
        ``bet`` or ``raise`` (:func:`cfrviz.play.hand.action_names`).
    facing_bet : bool
        Whether folding is legal (the opponent has bet or raised).
    strength : float
        The hand's expected payoff if both players only checked and called from
        here on (:func:`cfrviz.play.bots.hand_strength`): above 0 is better than
        average.
    """

    key: str
    player: int
    hand: str
    public: str
    betting: str
    actions: tuple[str, ...]
    names: tuple[str, ...]
    facing_bet: bool
    strength: float


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
    """Every information set of ``game`` as a :class:`Situation`, in the table's order."""
    def build(tree: GameTree) -> tuple[Situation, ...]:
        names = action_names(tree)
        strength = set_strengths(tree)
        facing = (action_kinds(tree) == 0).any(axis=1)
        out = []
        for row, key in enumerate(tree.infoset_keys):
            hand, public, betting = _parts(tree, key)
            out.append(Situation(key=key, player=int(tree.infoset_player[row]), hand=hand,
                                 public=public, betting=betting,
                                 actions=tuple(tree.infoset_actions[row]), names=names[row],
                                 facing_bet=bool(facing[row]), strength=float(strength[row])))
        return tuple(out)
    return game.cached("situations", build)


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
        ``"bad probabilities"`` (negative, not finite or not summing to 1) or
        ``"slow"``.
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


def _crash_line(error: BaseException, filename: str | None) -> tuple[int | None, str]:
    """(line, source text) of the innermost frame of ``filename`` in the error's traceback."""
    found: tuple[int | None, str] = (None, "")
    for frame, lineno in traceback.walk_tb(error.__traceback__):
        if filename is not None and frame.f_code.co_filename == filename:
            found = (lineno, linecache.getline(filename, lineno).strip())
    return found


def _place(source: str | None, line: int | None, text: str = "") -> str:
    if line is None:
        return ""
    where = f"line {line} of {source}" if source else f"line {line} of your cell"
    return f" at {where}" + (f": `{text}`" if text else "")


def _describe_situation(s: Situation) -> str:
    legal = ", ".join(f"{a!r} ({n})" for a, n in zip(s.actions, s.names))
    seat = f"player {s.player + 1}"
    return f"{s.key!r} ({seat}; legal: {legal})"


class _Refused(ValueError):
    """An answer that is not a distribution over the legal actions (kind, message)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def as_probabilities(answer, situation: Situation) -> np.ndarray:
    """A bot's answer at ``situation`` as probabilities over ``situation.actions``.

    Accepted: an action label or readable name (``"r"``, ``"raise"``, any case;
    ``"raise"`` and ``"bet"``, ``"call"`` and ``"check"`` are the same action),
    a mapping ``{action: probability}`` (labels or names), or a sequence of
    ``len(situation.actions)`` probabilities.  Probabilities must be finite,
    non-negative and sum to 1 (within ``SUM_TOLERANCE``).

    Raises
    ------
    ValueError
        Saying what was returned and what the legal actions are; its
        ``kind`` attribute is ``"illegal action"``, ``"bad answer"`` or
        ``"bad probabilities"``.
    """
    actions, names = situation.actions, situation.names
    lookup = {a.lower(): i for i, a in enumerate(actions)}
    lookup.update({n.lower(): i for i, n in enumerate(names)})
    for word, same in SYNONYMS.items():  # "raise" with no bet to face is the bet, and so on
        if same in lookup and word not in lookup:
            lookup[word] = lookup[same]

    def index(label) -> int:
        if isinstance(label, str) and label.strip().lower() in lookup:
            return lookup[label.strip().lower()]
        if isinstance(label, str):
            raise _Refused("illegal action", f"returned {label!r}, which is not a legal action "
                           "here")
        raise _Refused("bad answer", f"used {label!r} as an action; actions are strings")

    if isinstance(answer, str):
        probs = np.zeros(len(actions))
        probs[index(answer)] = 1.0
        return probs
    if answer is None:
        raise _Refused("bad answer", "returned None (is a `return` missing?); return an action "
                       f"such as {actions[0]!r}, {{action: probability}} or a list of "
                       f"{len(actions)} probabilities")
    if isinstance(answer, Mapping):
        probs = np.zeros(len(actions))
        for label, p in answer.items():
            probs[index(label)] += _probability(p, label)
    elif isinstance(answer, (Sequence, np.ndarray)) and not isinstance(answer, (bytes, bytearray)):
        values = list(np.asarray(answer, dtype=object).ravel()) \
            if isinstance(answer, np.ndarray) else list(answer)
        if len(values) != len(actions):
            raise _Refused("bad answer", f"returned {len(values)} probabilities, but there are "
                           f"{len(actions)} legal actions here, in the order of "
                           "situation.actions")
        probs = np.array([_probability(p, a) for p, a in zip(values, actions)])
    else:
        raise _Refused("bad answer", f"returned {answer!r:.60}; return an action such as "
                       f"{actions[0]!r}, {{action: probability}} or a list of {len(actions)} "
                       "probabilities")
    if not np.all(np.isfinite(probs)):
        raise _Refused("bad probabilities", f"returned probabilities {probs.tolist()}, which "
                       "are not all finite numbers (a NaN often comes from 0/0)")
    if np.any(probs < 0):
        raise _Refused("bad probabilities", f"returned a negative probability: {probs.tolist()}")
    total = float(probs.sum())
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise _Refused("bad probabilities", f"returned probabilities {probs.tolist()} over "
                       f"{list(actions)}, which sum to {total:g}, not 1")
    return probs


def _probability(value, label) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (Real, np.number)):
        raise _Refused("bad probabilities", f"gave {label!r} the probability {value!r:.40}, "
                       "which is not a number")
    return float(value)


def tabulate(game: GameTree, bot: Callable, name: str, *, source: str | None = None,
             decision_limit: float = DECISION_LIMIT, budget: float = BUDGET,
             quiet: bool = True) -> Entrant | Problem:
    """Ask ``bot`` about every situation of ``game``; its answers make its :class:`Policy`.

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
    # A function's own code, or a callable object's __call__, tells which file is the bot's.
    target = bot if isinstance(bot, types.FunctionType) else vars(type(bot)).get("__call__")
    code = getattr(target, "__code__", None)
    filename = code.co_filename if code is not None else None
    probabilities = np.zeros(game.legal_mask.shape)
    spent = 0.0
    with ExitStack() as stack:
        if quiet:
            stack.enter_context(redirect_stdout(io.StringIO()))
            stack.enter_context(redirect_stderr(io.StringIO()))
        clock = stack.enter_context(_Clock())
        for row, situation in enumerate(situations(game)):
            limit = min(decision_limit, max(budget - spent, 0.0) + 1e-3)
            try:
                answer, seconds = clock.call(bot, situation, limit)
                probabilities[row, : len(situation.actions)] = as_probabilities(answer,
                                                                                situation)
            except _Timeout:
                if limit < decision_limit:
                    message = (f"used up its {budget:g} s budget after {row} of "
                               f"{game.num_infosets} situations; each decision should take "
                               "well under a millisecond")
                else:
                    message = (f"took more than {decision_limit:g} s to decide at "
                               f"{_describe_situation(situation)}; it was stopped there")
                return Problem(name, "slow", message, situation.key, source)
            except _Refused as refusal:
                return Problem(name, refusal.kind,
                               f"{refusal} at {_describe_situation(situation)}",
                               situation.key, source)
            except KeyboardInterrupt:
                raise
            except BaseException as error:  # noqa: B036 -- a bot's SystemExit is a crash too
                line, text = _crash_line(error, filename)
                detail = str(error) or ("(not written yet)"
                                        if isinstance(error, NotImplementedError)
                                        else "(no message)")
                return Problem(name, "crash",
                               f"raised {type(error).__name__}: {detail}"
                               f"{_place(source, line, text)}, deciding at "
                               f"{_describe_situation(situation)}",
                               situation.key, source, line, type(error).__name__)
            spent += seconds
    return Entrant(name, Policy(game, probabilities), source, spent)


def load_file(path: str | Path, *, budget: float = BUDGET, quiet: bool = True
              ) -> tuple[str, Callable] | Problem:
    """The bot function a file defines: ``(name, function)``, or a :class:`Problem`.

    The file is run as a fresh module named after its stem (``alice.py`` is
    ``alice``).  Its bot is the function named ``bot`` if it defines one, else
    its only function; imported functions do not count.  Problems (reported,
    never raised): the file cannot be read, has a syntax error, raises while it
    loads (an ``ImportError`` of a library the tournament lacks, say), takes
    longer than ``budget`` seconds to load, or defines no function or several
    without one called ``bot``.
    """
    path = Path(path)
    name = path.stem
    shown = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return Problem(name, "load", f"could not read {shown}: {error}", source=shown)
    filename = str(path.resolve())
    try:
        code = compile(text, filename, "exec")
    except (SyntaxError, ValueError) as error:  # ValueError: a null byte in the source
        line = getattr(error, "lineno", None)
        reason = getattr(error, "msg", str(error))
        return Problem(name, "load", f"{shown} has a syntax error{_place(shown, line)}: "
                       f"{reason}", source=shown, line=line, error=type(error).__name__)
    module = types.ModuleType(name)
    module.__file__ = filename
    linecache.checkcache(filename)
    with ExitStack() as stack:
        if quiet:
            stack.enter_context(redirect_stdout(io.StringIO()))
            stack.enter_context(redirect_stderr(io.StringIO()))
        clock = stack.enter_context(_Clock())
        try:
            clock.call(lambda: exec(code, module.__dict__), None, budget)
        except _Timeout:
            return Problem(name, "load", f"{shown} took more than {budget:g} s to load",
                           source=shown)
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # noqa: B036 -- an import-time sys.exit() is reported too
            line, source_text = _crash_line(error, filename)
            return Problem(name, "load", f"{shown} raised {type(error).__name__}: "
                           f"{str(error) or '(no message)'} while loading"
                           f"{_place(shown, line, source_text)}", source=shown,
                           line=line, error=type(error).__name__)
    functions = {key: value for key, value in vars(module).items()
                 if isinstance(value, types.FunctionType)
                 and value.__code__.co_filename == filename}
    if BOT_FUNCTION in functions:
        return name, functions[BOT_FUNCTION]
    if len(functions) == 1:
        return name, next(iter(functions.values()))
    if not functions:
        return Problem(name, "load", f"{shown} defines no function; a bot is one function "
                       "taking a situation and returning an action", source=shown)
    listed = ", ".join(sorted(functions))
    return Problem(name, "load", f"{shown} defines several functions ({listed}); call the one "
                   f"that plays `{BOT_FUNCTION}`", source=shown)


def bot_files(folder: str | Path) -> list[Path]:
    """The bot files of a folder: its ``*.py`` files, sorted, skipping ``_*`` and ``.*``.

    Raises
    ------
    ValueError
        If ``folder`` is not a folder.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"expected a folder of bot files (one name.py per student); "
                         f"{str(folder)!r} is not a folder")
    return sorted(p for p in folder.glob("*.py")
                  if p.is_file() and not p.name.startswith(("_", ".")))


def check_limits(decision_limit: float, budget: float) -> tuple[float, float]:
    """Both limits as floats, or a ValueError naming the bad one."""
    for label, value in (("decision_limit", decision_limit), ("budget", budget)):
        if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) \
                or value <= 0:
            raise ValueError(f"{label} must be a positive number of seconds; got {value!r}")
    return float(decision_limit), float(budget)
