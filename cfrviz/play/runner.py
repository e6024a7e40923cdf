"""Inside a bot's own process: its file is loaded, it is asked about every situation, and its
answers go back to the tournament as plain data.

:mod:`cfrviz.play.sandbox` runs this module as a script, one process per bot file
(``python -I runner.py ...``), and the bot runs here and nowhere else.  Whatever the bot
does to this process (exits, patches numpy, closes its output, forks, catches every
signal, loops) ends or slows this process only; the tournament's clock is in the parent,
which reads the messages below with a deadline and checks every value before use.

The module uses the standard library only: importing cfrviz would cost each process a
second or two.  The parent imports it too, for what both sides share: :class:`Situation`,
how a file becomes a bot function (:func:`load_bot`), how an error is described
(:func:`crash_line`, :func:`message_of`) and how an answer becomes plain data (:func:`plain`).

The protocol, one JSON object per line from the child, on a pipe of its own (not stdout):
``{"loaded": true}`` or ``{"problem": {"message", "line", "error"}}`` once; then, after the
parent writes ``g``, ``{"k": row, "answer": plain(answer)}`` per situation in order, or
``{"crash": {"k", "error", "line", "text"}}`` followed by ``{"detail": message}``.
"""

from __future__ import annotations

import contextlib
import json
import linecache
import numbers
import os
import signal
import sys
import traceback
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

#: Names a file's bot function may have when the file defines several functions.
BOT_FUNCTION = "bot"
#: Longest text (an action label, a repr, a message) and most items an answer is sent with.
TEXT_LIMIT, ITEM_LIMIT = 200, 10_000


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


def crash_line(error: BaseException, filename: str | None) -> tuple[int | None, str]:
    """(line, source text) of the innermost frame of ``filename`` in the error's traceback."""
    found: tuple[int | None, str] = (None, "")
    for frame, lineno in traceback.walk_tb(error.__traceback__):
        if filename is not None and frame.f_code.co_filename == filename:
            found = (lineno, linecache.getline(filename, lineno).strip())
    return found


def message_of(error: BaseException) -> str:
    """``str(error)`` for a report, even when the error's ``__str__`` raises or is empty."""
    try:
        text = str(error)
    except BaseException as inner:  # noqa: B036 -- a bot's error may raise anything here
        return f"(its message could not be shown: str() raised {type(inner).__name__})"
    if not text:
        return "(not written yet)" if isinstance(error, NotImplementedError) else "(no message)"
    return text if len(text) <= 4 * TEXT_LIMIT else text[: 4 * TEXT_LIMIT] + "..."


def place(source: str | None, line: int | None, text: str = "") -> str:
    """`` at line 3 of alice.py: `code` `` (or ``of your cell`` for a function in a notebook)."""
    if line is None:
        return ""
    where = f"line {line} of {source}" if source else f"line {line} of your cell"
    return f" at {where}" + (f": `{text}`" if text else "")


class LoadError(Exception):
    """A file that does not give a bot: the message for its author, the line and the error's
    type when known."""

    def __init__(self, message: str, line: int | None = None, error: str | None = None):
        super().__init__(message)
        self.message, self.line, self.error = message, line, error


def load_bot(text: str, filename: str, shown: str, run: Callable | None = None,
             passthrough: tuple[type[BaseException], ...] = ()) -> Callable:
    """The bot function a file's ``text`` defines, run as a fresh module named after its stem.

    The bot is the function named :data:`BOT_FUNCTION` if there is one, else the file's only
    function; imported functions do not count.  ``run(code, namespace)`` executes the module
    (``exec`` by default); an exception of a type in ``passthrough`` propagates, any other is
    a :class:`LoadError` naming the line of the file at fault.
    """
    try:
        code = compile(text, filename, "exec")
    except (SyntaxError, ValueError) as error:  # ValueError: a null byte in the source
        line = getattr(error, "lineno", None)
        reason = getattr(error, "msg", str(error))
        raise LoadError(f"{shown} has a syntax error{place(shown, line)}: {reason}", line,
                        type(error).__name__) from None
    stem = shown.rpartition(".")[0] or shown
    module = types.ModuleType(stem)
    module.__file__ = filename
    linecache.checkcache(filename)
    try:
        (run or exec)(code, module.__dict__)
    except passthrough:
        raise
    except BaseException as error:  # noqa: B036 -- an import-time sys.exit() is reported too
        line, source_text = crash_line(error, filename)
        raise LoadError(f"{shown} raised {type(error).__name__}: {message_of(error)} while "
                        f"loading{place(shown, line, source_text)}", line,
                        type(error).__name__) from None
    functions = {key: value for key, value in vars(module).items()
                 if isinstance(value, types.FunctionType)
                 and value.__code__.co_filename == filename}
    if BOT_FUNCTION in functions:
        return functions[BOT_FUNCTION]
    if len(functions) == 1:
        return next(iter(functions.values()))
    if not functions:
        raise LoadError(f"{shown} defines no function; a bot is one function taking a "
                        "situation and returning an action")
    raise LoadError(f"{shown} defines several functions ({', '.join(sorted(functions))}); "
                    f"call the one that plays `{BOT_FUNCTION}`")


def _shown(value) -> list:
    text = repr(value)
    return ["repr", text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + "..."]


def _text(value: str) -> list:
    text = str.__str__(value)  # a plain str, whatever subclass the bot returned
    return ["s", text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT] + "..."]


def _number(value):
    numpy = sys.modules.get("numpy")
    if isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_)):
        return ["bool", bool(value)]
    if isinstance(value, numbers.Real) or (numpy is not None and isinstance(value, numpy.number)
                                           and not isinstance(value, numpy.complexfloating)):
        try:
            return float(value)
        except OverflowError:
            pass
    return _shown(value)


def plain(answer) -> object:
    """A bot's answer as data JSON can carry and the parent can check without running the
    bot's code: ``["s", label]``, ``["none"]``, ``["seq", [numbers]]``,
    ``["map", [[label, number], ...]]``; a number is a float, ``["bool", b]`` or, like any
    other object, ``["repr", text]``.  Runs the answer's own methods (``__iter__``,
    ``__float__``, ...), so it runs under the decision's time limit, as the bot does.
    """
    if answer is None:
        return ["none"]
    if isinstance(answer, str):
        return _text(answer)
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(answer, numpy.ndarray):
        answer = answer.ravel().tolist()  # the in-process rule: an array counts by its entries
    if isinstance(answer, Mapping):
        if len(answer) > ITEM_LIMIT:
            return ["repr", f"<a {type(answer).__name__} of {len(answer)} items>"]
        return ["map", [[_text(k) if isinstance(k, str) else _shown(k), _number(v)]
                        for k, v in answer.items()]]
    if isinstance(answer, Sequence) and not isinstance(answer, (bytes, bytearray)):
        if len(answer) > ITEM_LIMIT:
            return ["repr", f"<a {type(answer).__name__} of {len(answer)} items>"]
        return ["seq", [_number(v) for v in answer]]
    return _shown(answer)


def _send(fd: int, message: dict) -> None:
    data = (json.dumps(message) + "\n").encode("ascii")
    while data:
        data = data[os.write(fd, data):]


def _limit(cpu_seconds: int, memory_bytes: int) -> None:
    import resource

    for which, value in ((resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1)),
                         (resource.RLIMIT_AS, (memory_bytes, memory_bytes)),
                         (resource.RLIMIT_CORE, (0, 0))):
        with contextlib.suppress(ValueError, OSError):  # a lower hard limit stays
            resource.setrlimit(which, value)


def main(argv: list[str]) -> None:
    """``runner.py BOT_FILE SITUATIONS_JSON OUT_FD IN_FD CPU_SECONDS MEMORY_BYTES``."""
    bot_file, table_file = argv[0], argv[1]
    out, given, cpu, memory = (int(a) for a in argv[2:6])
    _limit(cpu, memory)
    # Python's own Ctrl-C handler, whatever the parent had: a process started with SIGINT
    # ignored (any job a non-interactive shell starts in the background, as CI jobs often are)
    # passes that on, and a bot that sends itself SIGINT would then play on unreported.  The
    # child is in a session of its own (sandbox.py): a Ctrl-C at a terminal never reaches it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # A copy made by os.fork() ends at once: one process answers, and no copy lingers.
    os.register_at_fork(after_in_child=lambda: os._exit(0))
    with open(table_file, encoding="utf-8") as stream:
        table = [Situation(**{**row, "actions": tuple(row["actions"]),
                              "names": tuple(row["names"])}) for row in json.load(stream)]
    os.remove(table_file)
    with open(bot_file, encoding="utf-8") as stream:
        text = stream.read()
    shown = os.path.basename(bot_file)
    try:
        bot = load_bot(text, bot_file, shown)
    except LoadError as problem:
        _send(out, {"problem": {"message": problem.message, "line": problem.line,
                                "error": problem.error}})
        return
    _send(out, {"loaded": True})
    if os.read(given, 1) != b"g":
        return
    for k, situation in enumerate(table):
        try:
            answer = plain(bot(situation))
        except BaseException as error:  # noqa: B036 -- a bot's SystemExit is a crash too
            line, source_text = crash_line(error, bot_file)
            _send(out, {"crash": {"k": k, "error": type(error).__name__, "line": line,
                                  "text": source_text}})
            _send(out, {"detail": message_of(error)})  # may never come: __str__ may loop
            return
        _send(out, {"k": k, "answer": answer})


if __name__ == "__main__":
    main(sys.argv[1:])
    with contextlib.suppress(BaseException):  # the bot may have closed or replaced its output
        sys.stdout.flush()
    os._exit(0)  # not waiting for threads the bot may have left running
