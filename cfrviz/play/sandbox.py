"""Each bot file in a process of its own: a bot can end, slow or rig nothing but itself.

A class tournament runs code nobody has read.  Every file is read first, before any bot
runs; then each is copied into a private temporary folder and run by
:mod:`cfrviz.play.runner` in a child process of its own (``python -I``: no user site and
none of Python's environment variables; the private folder as working directory, home and
temporary folder; a minimal environment).  The child sets its own limits before it loads
the bot (``resource.setrlimit``): processor time (twice the budget, plus 2 s) and address
space (:data:`MEMORY_LIMIT`).  The clock stays here, out of the bot's reach: every message
is awaited with a deadline (``selectors``), so a bot that sleeps, loops, clears
``ITIMER_REAL`` or ignores ``SIGALRM`` costs its limit and no more.  Answers arrive as
plain JSON data (never pickles) and are checked here by
:func:`~cfrviz.play.answers.as_probabilities` (one probability per legal action, finite,
non-negative, summing to 1) before they are used.

So a bot that exits (``os._exit``, at import, in a decision or from a thread), raises
``KeyboardInterrupt`` or ``SystemExit``, raises an error whose ``__str__`` raises or never
returns, closes its output, forks, patches numpy or cfrviz, rebinds the tournament's
functions or walks ``gc`` to rewrite objects changes its own process only.  It is reported
by name with what it did, and every other bot's result is exactly what it is without it.
A bot finds no other student's file by a relative path; what stops a program written to do
harm (reading or writing files by absolute path, with the rights of whoever runs the
tournament) is a throwaway environment, as ``docs/CLASSROOM.md`` says.

One process per bot serves its loading and all its decisions: the child streams one answer
per situation, each timed from the one before.  :data:`AHEAD` processes load while one is
asked.  POSIX only (Linux, macOS), like the course.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np

from ..core.policy import Policy
from ..core.tree import GameTree
from . import runner
from .answers import as_probabilities, decode
from .entrants import (
    Entrant,
    Problem,
    crash_problem,
    describe_situation,
    read_source,
    refused_problem,
    situations,
    slow_problem,
)

#: Bytes of address space a bot's process may use (numpy and a policy table fit many times).
MEMORY_LIMIT = 1 << 30
#: Bot processes started ahead, loading while an earlier bot is asked.
AHEAD = 4
#: Longest message a bot's process may send, in bytes (an answer is far shorter).
MESSAGE_LIMIT = 1 << 22
#: Seconds to wait for an exit status, or for a crash's message after its type.
GRACE = 1.0
#: Longest text from a bot's process kept in a report (a message, a line of code).
TEXT_LIMIT = 800
#: What a process that breaks the protocol did, for reports.
GARBLED = ("sent the tournament a message it could not read (did it write to the "
           "tournament's pipe, or fork?)")

_TIMEOUT, _CLOSED = "timeout", "closed"


def _text(value, default: str = "") -> str:
    """Text from a bot's process for a report: a string, shortened, control characters
    escaped (no terminal sequences in the teacher's report)."""
    if not isinstance(value, str):
        return default
    value = value[:TEXT_LIMIT] + ("..." if len(value) > TEXT_LIMIT else "")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in value)


def _line(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 \
        else None


def _environment(folder: str) -> dict[str, str]:
    env = {"HOME": folder, "TMPDIR": folder, "LANG": "C.UTF-8",
           "PATH": os.environ.get("PATH", os.defpath)}
    # One thread per numerical library: less memory, and no pool of threads per bot.
    env.update(dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"),
                             "1"))
    return env


class _Process:
    """One bot's process: its private folder, its two pipes, and what it has sent so far."""

    def __init__(self, name: str, shown: str, text: str, table: str, cpu: int, quiet: bool):
        self.name, self.shown, self.cpu = name, shown, cpu
        self.buffer = b""
        self.process: subprocess.Popen | None = None
        self.reader = self.writer = -1
        self.folder = tempfile.mkdtemp(prefix="cfrviz-bot-")
        try:
            path = os.path.join(self.folder, shown)
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            table_path = os.path.join(self.folder, ".situations.json")
            with open(table_path, "w", encoding="utf-8") as stream:
                stream.write(table)
            self.reader, out = os.pipe()
            given, self.writer = os.pipe()
            output = subprocess.DEVNULL if quiet else None
            try:
                self.process = subprocess.Popen(
                    [sys.executable, "-I", "-X", "utf8", str(Path(runner.__file__)), path,
                     table_path, str(out), str(given), str(cpu), str(MEMORY_LIMIT)],
                    cwd=self.folder, env=_environment(self.folder), stdin=subprocess.DEVNULL,
                    stdout=output, stderr=output, pass_fds=(out, given),
                    start_new_session=True)  # its own process group, ended as one
            finally:
                os.close(out)
                os.close(given)
        except BaseException:
            self.close()
            raise
        self.started = time.monotonic()

    def receive(self, deadline: float):
        """The next message (a dict), or ``_TIMEOUT``, ``_CLOSED`` or ``GARBLED``."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.reader, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                # A message already waiting counts even past the deadline: the parent was busy.
                if not selector.select(max(deadline - time.monotonic(), 0.0)):
                    return _TIMEOUT
                chunk = os.read(self.reader, 1 << 16)
                if not chunk:
                    return _CLOSED
                self.buffer += chunk
                if len(self.buffer) > MESSAGE_LIMIT:
                    return GARBLED
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            return GARBLED
        return message if isinstance(message, dict) else GARBLED

    def go(self) -> bool:
        """Tell the loaded bot to start deciding; False if its process is gone."""
        try:
            return os.write(self.writer, b"g") == 1
        except OSError:
            return False

    def death(self) -> str:
        """How the process ended, in words ("exited with code 0"), once it has (or GRACE
        seconds later).  It is not reaped here, so that :meth:`close` can still end its
        process group by its id."""
        assert self.process is not None
        end = time.monotonic() + GRACE
        while True:
            info = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if info is not None or time.monotonic() > end:
                break
            time.sleep(0.01)
        if info is None:
            return "closed its connection to the tournament"
        if info.si_code == os.CLD_EXITED:
            return f"exited with code {info.si_status}"
        if info.si_status == signal.SIGXCPU:
            return f"used up its {self.cpu} s of processor time (stopped by SIGXCPU)"
        try:
            name = signal.Signals(info.si_status).name
        except ValueError:
            name = str(info.si_status)
        return f"was ended by signal {name}"

    def close(self) -> None:
        """End the process and everything it started, close the pipes, remove the folder."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)  # before reaping: the id is ours
            self.process.kill()  # in case it left its group
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)
        for fd in (self.reader, self.writer):
            if fd >= 0:
                os.close(fd)
        self.reader = self.writer = -1
        shutil.rmtree(self.folder, ignore_errors=True)


def _load_problem(child: _Process, message, budget: float) -> Problem | None:
    """None when the bot loaded; else what went wrong while it loaded."""
    name, shown = child.name, child.shown
    if message is _TIMEOUT:
        return Problem(name, "load", f"{shown} took more than {budget:g} s to load",
                       source=shown)
    if message is _CLOSED:
        return Problem(name, "load", f"{shown} {child.death()} while loading", source=shown)
    if message == {"loaded": True}:
        return None
    problem = message.get("problem") if isinstance(message, dict) else None
    if not isinstance(problem, dict) or not isinstance(problem.get("message"), str):
        return Problem(name, "load", f"{shown} {GARBLED} while loading", source=shown)
    error = problem.get("error")
    return Problem(name, "load", _text(problem["message"]), source=shown,
                   line=_line(problem.get("line")),
                   error=_text(error) if isinstance(error, str) else None)


def _play(child: _Process, game: GameTree, decision_limit: float,
          budget: float) -> Entrant | Problem:
    """Load the bot and ask it about every situation, with the limits of
    :func:`~cfrviz.play.entrants.tabulate`."""
    name, shown = child.name, child.shown
    problem = _load_problem(child, child.receive(child.started + budget), budget)
    if problem is not None:
        return problem
    table = situations(game)
    if not child.go():
        return Problem(name, "crash", f"{child.death()} before its first decision",
                       table[0].key, shown)
    probabilities = np.zeros(game.legal_mask.shape)
    spent = 0.0
    for row, situation in enumerate(table):
        limit = min(decision_limit, max(budget - spent, 0.0) + 1e-3)
        asked = time.monotonic()
        message = child.receive(asked + limit)
        if message is _TIMEOUT:
            return slow_problem(name, situation, row, len(table),
                                out_of_budget=limit < decision_limit,
                                decision_limit=decision_limit, budget=budget, source=shown)
        if message is _CLOSED:
            return Problem(name, "crash", f"{child.death()} while deciding at "
                           f"{describe_situation(situation)}", situation.key, shown)
        crash = message.get("crash") if isinstance(message, dict) else None
        if isinstance(crash, dict) and crash.get("k") == row:
            # The type came first; the message may never come (an error's __str__ may loop).
            detail = child.receive(time.monotonic() + GRACE)
            words = detail.get("detail") if isinstance(detail, dict) else None
            return crash_problem(
                name, situation, _text(crash.get("error"), "an error"),
                _text(words, "(its message could not be shown: str() did not finish)"),
                _line(crash.get("line")), _text(crash.get("text")), shown)
        try:
            if not isinstance(message, dict) or message.get("k") != row:
                raise ValueError("out of turn")
            answer = decode(message.get("answer"))
        except ValueError:
            return Problem(name, "crash", f"{GARBLED} while deciding at "
                           f"{describe_situation(situation)}", situation.key, shown)
        try:
            probabilities[row, : len(situation.actions)] = as_probabilities(answer, situation)
        except ValueError as refusal:
            return refused_problem(name, situation, refusal, shown)
        spent += time.monotonic() - asked
    return Entrant(name, Policy(game, probabilities), shown, spent)


def play_files(game: GameTree, files: Sequence[tuple[str, str | Path]], *,
               decision_limit: float, budget: float, quiet: bool = True
               ) -> list[Entrant | Problem]:
    """Each bot file loaded and asked about every situation of ``game`` in a process of its own.

    Parameters
    ----------
    game : GameTree
    files : sequence of (name, path)
        The name each bot plays under, and its file.
    decision_limit, budget : float
        Seconds per decision, and for loading and for all decisions
        (:func:`~cfrviz.play.entrants.tabulate`'s limits).
    quiet : bool
        Hide what the bots print; ``False`` lets it through to this process's terminal.

    Returns
    -------
    list of Entrant or Problem
        One per file, in order: the bot's strategy, or the first thing that went wrong,
        with the same messages as :func:`~cfrviz.play.entrants.tabulate` and
        :func:`~cfrviz.play.entrants.load_file`, and for a process that ended, how it
        ended (``"exited with code 0 while deciding at 'J' ..."``).
    """
    wire = json.dumps([asdict(s) for s in situations(game)])
    # Every file is read before any bot runs: none can change another's before it is read.
    sources = [(name, Path(path).name, read_source(path)) for name, path in files]
    results: list[Entrant | Problem | None] = [
        replace(text, name=name) if isinstance(text, Problem) else None
        for name, _, text in sources]
    waiting = deque(k for k, result in enumerate(results) if result is None)
    live: deque[tuple[int, _Process]] = deque()
    cpu = math.ceil(2 * budget) + 2
    try:
        while waiting or live:
            while waiting and len(live) < AHEAD:
                k = waiting.popleft()
                name, shown, text = sources[k]
                assert isinstance(text, str)
                try:
                    live.append((k, _Process(name, shown, text, wire, cpu, quiet)))
                except OSError as error:
                    results[k] = Problem(name, "load", f"{shown} could not be started in a "
                                         f"process of its own: {error}", source=shown)
            if not live:
                continue
            k, child = live.popleft()
            try:
                results[k] = _play(child, game, decision_limit, budget)
            finally:
                child.close()
    finally:
        for _, child in live:
            child.close()
    return [r for r in results if r is not None]
