"""Games by name: ``cfrviz.load_game("rock_paper_scissors")``."""

from __future__ import annotations

import dataclasses
import inspect

from ..core.tree import GameTree
from .files import load_game_file
from .kuhn import kuhn_poker
from .leduc import leduc_poker
from .matrix import MatrixGame, rock_paper_scissors
from .pocket import pocket_poker

_GAMES = {
    "file": load_game_file,
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
        One of :func:`available_games`, e.g. ``"rock_paper_scissors"``, or
        ``"file"`` for a custom game read from ``path`` (a ``.json`` file in
        the format of ``data/games/FORMAT.md`` or a Gambit ``.efg`` file).
    **params
        Game parameters, e.g. ``payoffs=[[...], [...], [...]]`` for
        rock-paper-scissors, ``suits=True`` for Leduc,
        ``path="data/games/high_low_bluff.json"`` for ``"file"``.

    Raises
    ------
    ValueError
        For an unknown name or a bad parameter, saying what is valid.
    """
    if not isinstance(name, str) or name not in _GAMES:
        raise ValueError(f"unknown game {name!r}; available games: {', '.join(available_games())}")
    factory = _GAMES[name]
    signature = inspect.signature(factory).parameters
    accepted = set(signature)
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise ValueError(f"game {name!r} takes no parameter {', '.join(map(repr, unknown))}; "
                         f"it accepts: {', '.join(sorted(accepted)) or 'none'}")
    missing = [p for p, spec in signature.items()
               if spec.default is inspect.Parameter.empty and p not in params]
    if missing:
        raise ValueError(f"game {name!r} needs the parameter {', '.join(map(repr, missing))}, "
                         f"e.g. load_game({name!r}, {missing[0]}=...)")
    game = factory(**params)
    if isinstance(game, GameTree) and game.name == name:
        # Remember how it was built, so a saved trace can rebuild it (cfrviz.io).
        game = dataclasses.replace(game, params=dict(params))
    return game


__all__ = ["MatrixGame", "available_games", "kuhn_poker", "leduc_poker", "load_game",
           "load_game_file", "pocket_poker", "rock_paper_scissors"]
