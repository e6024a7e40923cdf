"""Games by name: ``cfrviz.load_game("rock_paper_scissors")``."""

from __future__ import annotations

from dataclasses import replace

from ..core.registry import Factory, Registry
from ..core.tree import GameTree
from . import leduc, openspiel
from .files import load_game_file
from .holdem import river
from .kuhn import kuhn_poker
from .kuhn3 import kuhn_poker_3p
from .leduc import leduc_poker
from .locking import lock, unlocked
from .matrix import MatrixGame, rock_paper_scissors
from .openspiel import from_openspiel, openspiel_game, policy_from_openspiel, policy_to_openspiel
from .pocket import pocket_poker

#: One game as :func:`load_game` knows it: ``Game(name, factory, summary, aliases)``, where
#: ``factory(**params)`` builds a :class:`GameTree` or a :class:`MatrixGame`.
Game = Factory


GAMES: Registry[Game] = Registry("game", "load_game")


def register_game(game: Game) -> Game:
    """Make a game available to :func:`load_game` by name."""
    if not isinstance(game, Game):
        raise ValueError(f"register_game takes a cfrviz.games.Game(name, factory, summary); got "
                         f"{type(game).__name__}")
    return GAMES.register(game)


register_game(Game("rock_paper_scissors", rock_paper_scissors,
                   "rock-paper-scissors, with editable payoffs", aliases=("rps",)))
register_game(Game("kuhn_poker", kuhn_poker, "Kuhn poker: three cards, one bet", ("kuhn",)))
register_game(Game("kuhn_poker_3p", kuhn_poker_3p,
                   "three-player Kuhn poker: four cards, one bet (OpenSpiel's players=3)",
                   ("kuhn3", "three_player_kuhn")))
register_game(Game("leduc_poker", leduc_poker, "Leduc hold'em: six cards, two rounds",
                   ("leduc",), params=leduc.PARAMS))
register_game(Game("pocket_poker", pocket_poker, "pocket poker: twenty cards, two rounds",
                   ("pocket",)))
register_game(Game("file", load_game_file, "a custom game read from a .json or Gambit .efg "
                                           "file"))
register_game(Game("openspiel", openspiel_game, "an OpenSpiel game by name (pip install "
                                             "open-spiel), e.g. name='leduc_poker'",
                   params=openspiel.PARAMS))
register_game(Game("holdem_river", river.holdem_river, "a no-limit hold'em river spot: board, "
                   "pot, stack, two ranges, bet sizes (default Td9d6h4c2s, 208 vs 239 combos)",
                   ("river",), params=river.PARAMS))


def available_games() -> list[str]:
    """Names accepted by :func:`load_game`."""
    return GAMES.names()


def load_game(name: str, /, **params: object) -> GameTree | MatrixGame:
    """Build a game by name.

    Parameters
    ----------
    name : str
        One of :func:`available_games`, e.g. ``"rock_paper_scissors"``, or
        ``"file"`` for a custom game read from ``path`` (a ``.json`` file in
        the format of ``data/games/FORMAT.md`` or a Gambit ``.efg`` file).
        Positional only, so a game may take a parameter called ``name``
        (``load_game("openspiel", name="leduc_poker")``).
    **params
        Game parameters, e.g. ``payoffs=[[...], [...], [...]]`` for
        rock-paper-scissors, ``suits=True`` for Leduc,
        ``path="data/games/high_low_bluff.json"`` for ``"file"``.

    Raises
    ------
    ValueError
        For an unknown name or a bad parameter, saying what is valid.
    """
    entry = GAMES.lookup(name)
    GAMES.check_params(entry, params)
    game: object = entry.factory(**params)  # checked below: a plug-in may return anything
    if not isinstance(game, (GameTree, MatrixGame)):
        raise ValueError(f"game {name!r} is registered with a factory that returned a "
                         f"{type(game).__name__}, not a game: a factory must return "
                         f"cfrviz.core.tree.build_tree(...) (a GameTree) or a MatrixGame")
    if isinstance(game, GameTree) and game.name == name:
        # Remember how it was built, so a saved trace can rebuild it (cfrviz.io).
        game = replace(game, params=dict(params))
    return game


__all__ = ["GAMES", "Game", "MatrixGame", "available_games", "from_openspiel", "kuhn_poker",
           "kuhn_poker_3p", "leduc_poker", "load_game", "load_game_file", "lock",
           "policy_from_openspiel", "policy_to_openspiel", "pocket_poker", "register_game",
           "rock_paper_scissors", "unlocked"]
