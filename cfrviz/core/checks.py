"""Argument checks the public API shares: a game, a player, a whole number, a flag, a file,
a bounded list.

Each returns the value (converted to a plain Python type) or raises a
``ValueError`` that says what was given and what is valid.  A ``bool`` is never
a number here: Python lets ``True == 1``, but ``player=True`` or
``checkpoints=[True]`` is a mistake, not player 2 or iteration 1.  Numbers go
through :meth:`cfrviz.core.registry.Param.check`, so they read like the
messages of ``solve`` and ``load_game``.
"""

from __future__ import annotations

import math
import os
import stat
from itertools import islice
from numbers import Integral
from typing import Any, BinaryIO, cast

from .registry import Param
from .tree import as_tree
from .types import GameLike


def check_game(game: object, what: str) -> GameLike:
    """``game`` itself when it is a game from :func:`cfrviz.load_game` (a tree or a matrix game).

    Parameters
    ----------
    game
    what : str
        Who needs the game, for the message (e.g. ``"exploitability"``).

    Raises
    ------
    ValueError
        For anything else; a game's name given as a string is answered with
        the call that loads it.
    """
    if isinstance(game, str):
        raise ValueError(f"{what} needs a game, not its name {game!r}: load it first, e.g. "
                         f"game = cfrviz.load_game({game!r})")
    as_tree(game, what)
    # as_tree refused anything that is neither a GameTree nor has one as ``.tree`` (a
    # MatrixGame): both are Games, which core cannot name by class (games sits above it).
    return cast(GameLike, game)


def check_player(player: object, what: str = "player") -> int:
    """``player`` as an int when it is 0 (player 1) or 1 (player 2); a bool is refused."""
    if isinstance(player, bool) or not isinstance(player, Integral) or player not in (0, 1):
        raise ValueError(f"{what} must be 0 (player 1) or 1 (player 2); got {player!r}")
    return int(player)


def whole_number(value: object, name: str, low: float = 0, high: float = math.inf) -> int:
    """``value`` as an int when it is a whole number in ``low..high`` (bools and floats refused)."""
    number: int = Param(name, kind="int", low=low, high=high).check(value)
    return number


def infoset_id(game: GameLike, infoset: object, name: str = "infoset") -> int:
    """The id of an information set given by key (a string) or by id.

    An id is a whole number in ``0..num_infosets - 1``: ``1.5``, ``True`` or ``-1`` (which
    numpy would read as the last set) is refused, naming ``name`` and the valid range.
    """
    if isinstance(infoset, str):
        return game.infoset_index(infoset)
    count = game.num_infosets
    if count == 0:
        raise ValueError(f"{getattr(game, 'name', 'this game')} has no information set; got "
                         f"{name}={infoset!r}")
    try:
        index: int = Param(name, kind="int", low=0, high=count - 1).check(infoset)
        return index
    except ValueError:
        raise ValueError(f"{name} must be an information set's key or id, a whole number in "
                         f"0..{count - 1} ({getattr(game, 'name', 'the game')} has {count} "
                         f"information sets); got {infoset!r:.60}") from None


def bounded_list(values: object, name: str, limit: int, why: str) -> list[Any]:
    """The items of the iterable ``values`` as a list, refusing more than ``limit`` of them.

    At most ``limit + 1`` items are read, so an endless iterable (``itertools.count()``) or
    a huge one (``range(2**62)``) is refused at once instead of filling memory for ever.

    Parameters
    ----------
    values
        Any iterable but a string or bytes.
    name : str
        The argument's name, for messages.
    limit : int
        The most items accepted.
    why : str
        Why there is a limit, completing "``name`` may hold at most ``limit`` items ...".

    Raises
    ------
    ValueError
        For something that is not an iterable (or is text), or holds more than ``limit``
        items, naming ``name``, the value and the limit.
    """
    shown = f"{values!r:.80}"  # before reading: a generator's repr changes as it is read
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a list, not text; got {shown}")
    try:
        items = iter(values)  # type: ignore[call-overload]  # checked here, at run time
    except TypeError:
        raise ValueError(f"{name} must be a list; got {shown}") from None
    taken = list(islice(items, limit + 1))
    if len(taken) > limit:
        raise ValueError(f"{name} holds more than {limit:,} items (got {shown}; an "
                         f"endless iterable such as itertools.count() is refused too): it may "
                         f"hold at most {limit:,} {why}")
    return taken


def check_flag(value: object, name: str) -> bool:
    """``value`` when it is ``True`` or ``False`` (not 1, not ``"yes"``)."""
    flag: bool = Param(name, kind="bool").check(value)
    return flag


_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def open_regular_file(path: str | os.PathLike[str], what: str, limit: int) -> BinaryIO:
    """``path`` opened for binary reading when it is a regular file of at most ``limit`` bytes.

    The one way cfrviz opens a file it reads (game files, traces).  Opening never blocks
    and nothing is read before the checks: a named pipe would wait for a writer for ever,
    and a device (``/dev/zero``, also behind a symbolic link) never ends.  The size is
    the file's own (:func:`os.fstat` of the opened file, so a link or a rename in between
    cannot swap it); read at most ``limit + 1`` bytes and refuse more, in case it grows.

    Parameters
    ----------
    path : str or os.PathLike
    what : str
        How messages call the file (e.g. ``"game file 'x.json'"``).
    limit : int
        The most bytes the file may hold.

    Raises
    ------
    FileNotFoundError
        When nothing is at ``path`` (callers turn it into their own message).
    ValueError
        When ``path`` is a folder, a pipe, a device or a socket, is larger than
        ``limit``, or cannot be opened (e.g. no permission); the message says which.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except IsADirectoryError:  # Windows refuses to open a folder
        raise ValueError(f"{what} is a folder, not a file") from None
    except OSError as error:
        raise ValueError(f"{what} cannot be opened: {error.strerror or error}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"{what} is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "not a file")
            raise ValueError(f"{what} is {kind}, not a regular file; cfrviz reads only "
                             f"regular files (never a pipe or a device, which may not end)")
        if info.st_size > limit:
            raise ValueError(f"{what} holds {info.st_size:,} bytes, more than the {limit:,} "
                             f"cfrviz reads; it was not read")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular_file(path: str | os.PathLike[str], what: str, limit: int) -> bytes:
    """The bytes of ``path``, read through :func:`open_regular_file` (same checks and errors)."""
    with open_regular_file(path, what, limit) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{what} grew past {limit:,} bytes while it was read; it was not read")
    return data
