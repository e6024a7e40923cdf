"""Custom games from files: cfrviz's JSON tree format and Gambit's ``.efg`` format.

Both formats are read into the same small node structure (:class:`~cfrviz.games.nodes.Node`)
and walked by :func:`~cfrviz.games.nodes.tree_from_nodes`, so they share its checks (chance
probabilities sum to 1, the nodes of an information set agree on player and
actions).  Every error names the file and the node path at fault, e.g.
``root/deal:H/b``: the path lists the actions and chance outcomes from the
root, each written ``name:label`` when the node it leaves has a name.
The JSON format is documented in ``data/games/FORMAT.md``.  The readers live in
:mod:`~cfrviz.games.json_file` and :mod:`~cfrviz.games.efg`, what they share (limits,
node paths, exact numbers) in :mod:`~cfrviz.games.reading`; this module opens the file.

Reading takes time linear in the size of the file (and of the paths it makes)
and never recurses, so a node
with a hundred thousand outcomes or a chain thousands of moves long loads; a tree
deeper than :data:`MAX_DEPTH` moves, or whose node paths add up to more than
:data:`MAX_PATH_TEXT` characters, is refused (each node keeps its path as text,
so memory grows with depth times the number of nodes).
"""

from __future__ import annotations

import codecs
import os
import reprlib
from pathlib import Path

from ..core.checks import read_regular_file
from ..core.tree import GameTree
from .efg import parse_efg
from .json_file import NODE_FIELDS, OUTCOME_FIELDS, TOP_FIELDS, parse_json
from .nodes import check_perfect_recall, tree_from_nodes
from .reading import MAX_DEPTH, MAX_PATH_TEXT

MAX_FILE_BYTES = 200_000_000
"""The largest game file read, in bytes (checked before reading; only regular files are read)."""


def load_game_file(path: str | os.PathLike[str]) -> GameTree:
    """Read a custom game from a JSON file (cfrviz's format) or a Gambit ``.efg`` file.

    Also reachable as ``cfrviz.load_game("file", path=...)``.  Reading is
    iterative and linear in the size of the file.

    Parameters
    ----------
    path : str or pathlib.Path
        A ``.json`` file in the format of ``data/games/FORMAT.md`` or a
        two-player Gambit extensive-form file (``.efg``, "EFG 2 R"), in
        UTF-8 (a byte-order mark is allowed).

    Returns
    -------
    GameTree
        Named after the JSON ``"name"`` (for ``.efg``, the file name without
        its extension).  Games that are not zero-sum load;
        :func:`~cfrviz.core.tree.check_zero_sum` is the check for algorithms that
        need zero-sum.

    Raises
    ------
    ValueError
        When ``path`` is not a path, or the file is missing, a folder, not
        UTF-8 text or malformed, naming the file and the node path (or the
        line and column) at fault: bad JSON, an unknown node type or field, a
        value of the wrong type, chance probabilities that are negative or do
        not sum to 1, an information set whose nodes disagree on the player or
        the actions, missing payoffs or numbers that are not finite (``NaN``,
        ``Infinity``, ``1e400``), a tree deeper than :data:`MAX_DEPTH` moves or
        whose paths add up to more than :data:`MAX_PATH_TEXT` characters,
        or a player who forgets their own earlier moves (imperfect recall).
    """
    try:
        file = Path(path)
    except TypeError:
        raise ValueError(f"path must be a str or pathlib.Path naming a .json or .efg game "
                         f"file; got {reprlib.repr(path)}") from None
    suffix = file.suffix.lower()
    if suffix not in (".json", ".efg"):
        raise ValueError(f"game file {str(path)!r} must end in .json (cfrviz's format, see "
                         f"data/games/FORMAT.md) or .efg (Gambit's format)")
    text = _read_text(file, f"game file {str(path)!r}")
    parse = parse_json if suffix == ".json" else parse_efg
    # Messages name the file; a name that is not UTF-8 holds lone surrogates, written escaped.
    shown = str(path).encode("utf-8", "backslashreplace").decode("utf-8")
    name, description, root = parse(text, shown, file.stem)
    try:
        tree = tree_from_nodes(name, description, root)
    except ValueError as error:
        raise ValueError(f"{shown}: {error}") from None
    return tree


def _read_text(file: Path, what: str) -> str:
    """The UTF-8 text of ``file`` without a byte-order mark, or a ValueError saying why not."""
    try:
        data = read_regular_file(file, what, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ValueError(f"{what} not found (looked for {file.resolve()})") from None
    except OSError as error:  # a read failing after the open (an I/O error)
        raise ValueError(f"{what} cannot be read: {error.strerror or error}") from None
    if data.startswith(codecs.BOM_UTF8):  # Notepad writes one; it is not part of the text
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - data.rfind(b"\n", 0, error.start)
        raise ValueError(f"{what} is not UTF-8 text: byte 0x{data[error.start]:02x} at line "
                         f"{line}, column {column} cannot be decoded; save the file as UTF-8"
                         ) from None


# The limits, the JSON fields and check_perfect_recall lived here before the readers moved
# out: they stay importable from this module.
__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_PATH_TEXT", "NODE_FIELDS", "OUTCOME_FIELDS",
           "TOP_FIELDS", "check_perfect_recall", "load_game_file"]
