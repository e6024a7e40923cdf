"""Argument checks the public API shares: a game, a player, a whole number, a flag.

Each returns the value (converted to a plain Python type) or raises a
``ValueError`` that says what was given and what is valid.  A ``bool`` is never
a number here: Python lets ``True == 1``, but ``player=True`` or
``checkpoints=[True]`` is a mistake, not player 2 or iteration 1.  Numbers go
through :meth:`cfrviz.core.registry.Param.check`, so they read like the
messages of ``solve`` and ``load_game``.
"""

from __future__ import annotations

import math
from numbers import Integral

from .registry import Param
from .tree import as_tree


def check_game(game, what: str):
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
    return game


def check_player(player, what: str = "player") -> int:
    """``player`` as an int when it is 0 (player 1) or 1 (player 2); a bool is refused."""
    if isinstance(player, bool) or not isinstance(player, Integral) or player not in (0, 1):
        raise ValueError(f"{what} must be 0 (player 1) or 1 (player 2); got {player!r}")
    return int(player)


def whole_number(value, name: str, low: float = 0, high: float = math.inf) -> int:
    """``value`` as an int when it is a whole number in ``low..high`` (bools and floats refused)."""
    return Param(name, kind="int", low=low, high=high).check(value)


def check_flag(value, name: str) -> bool:
    """``value`` when it is ``True`` or ``False`` (not 1, not ``"yes"``)."""
    return Param(name, kind="bool").check(value)
