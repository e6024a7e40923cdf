"""Games by name: ``cfrviz.load_game("rock_paper_scissors")``."""

from __future__ import annotations

import inspect

from .kuhn import kuhn_poker
from .leduc import leduc_poker
from .matrix import MatrixGame, rock_paper_scissors
from .pocket import pocket_poker

_GAMES = {
    "kuhn_poker": kuhn_poker,
    "leduc_poker": leduc_poker,
    "pocket_poker": pocket_poker,
    "rock_paper_scissors": rock_paper_scissors,
}


def available_games() -> list[str]:
    """Names accepted by :func:`load_game`."""
    return sorted(_GAMES)


def load_game(name: str, **params):
    """Build a game by name.

    Parameters
    ----------
    name : str
        One of :func:`available_games`, e.g. ``"rock_paper_scissors"``.
    **params
        Game parameters, e.g. ``payoffs=[[...], [...], [...]]`` for
        rock-paper-scissors.

    Raises
    ------
    ValueError
        For an unknown name or a bad parameter, saying what is valid.
    """
    if not isinstance(name, str) or name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; available games: {', '.join(available_games())}")
    factory = _GAMES[name]
    accepted = set(inspect.signature(factory).parameters)
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise ValueError(f"game {name!r} takes no parameter {', '.join(map(repr, unknown))}; "
                         f"it accepts: {', '.join(sorted(accepted)) or 'none'}")
    return factory(**params)


__all__ = ["MatrixGame", "available_games", "load_game", "rock_paper_scissors"]
