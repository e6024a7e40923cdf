"""Save and load training traces: one ``.npz`` file, numpy arrays plus JSON, never pickle.

A trace file is a compressed numpy archive (:func:`numpy.savez_compressed`).  It holds
every array of the :class:`~cfrviz.core.trace.Trace` bit for bit (with its dtype and shape)
and one member, ``cfrviz_meta``, with UTF-8 JSON metadata: the format version, the
cfrviz version, the game's name and :func:`game_fingerprint`, what is needed to rebuild
the game, the algorithm, its parameters, and the scalar extras and solver state.  It
is read with ``allow_pickle=False``, so opening a file never runs code from it.

What can be saved
-----------------
``params``, and the values of ``extras`` and ``state``, may hold JSON values: ``None``,
``bool``, ``int``, ``float`` (NaN and infinities included, written as Python's JSON
writes them), ``str``, lists and tuples of these (tuples come back as lists) and dicts
with string keys; numpy scalars become the matching Python numbers.  A numpy array is
kept exactly, as an array, when it is a value at the top level of ``extras`` or
``state``.  Anything else (an array inside ``params`` or inside a nested dict, an
object array, any other object) is refused with a ``ValueError`` naming the key, so
nothing is lost without a word.

A solver's ``state`` is the plain dict of :meth:`cfrviz.core.trace.SolverState.as_dict`
(its tables and SplitMix64 word as arrays; its counts, time and numpy generator state as
JSON), and must be a valid one for the trace's game: a trace can always be resumed.

The game
--------
A matrix game is kept as its payoffs and labels; a game built into cfrviz
(:func:`~cfrviz.io.fileformat.rebuildable`: Kuhn, Leduc, ...) as its name and load
parameters, rebuilt within their declared ranges; any other game (read from a file, built
from a definition, by OpenSpiel or by a plug-in) as its content, the tree's fields as
JSON, which :func:`load_trace` walks again with :func:`~cfrviz.core.tree.build_tree`.  A
trace never keeps the path of a game file, and loading one never opens any file but
itself nor builds any game but cfrviz's own: a name in a trace would let a file someone
sends you choose what your machine reads or walks (a FIFO, a game of 10**12 nodes).  A
trace that names another game is refused at once; pass the game: ``load_trace(path,
game=...)``, checked by its fingerprint.

Loading checks everything
-------------------------
Nothing in a file is trusted: :func:`load_trace` opens only a regular file (never a pipe
or a device, also behind a link) of at most :data:`MAX_FILE_BYTES`, reads only the members
the metadata names, each after checking its size (against a bound derived from the game and
the number of records; the metadata's against :data:`MAX_META_BYTES`) and its header's dtype and
shape against the schema (:data:`~cfrviz.core.trace.RECORD_ARRAYS`,
:meth:`~cfrviz.core.trace.SolverState.array_fields`), then checks the values
(:meth:`SolverState.from_dict <cfrviz.core.trace.SolverState.from_dict>`), and then
the values against each other (:func:`~cfrviz.io.fileformat.check_values`): strategies
are distributions, exploitabilities at least 0 and, on a few records, equal to those
computed again; counts and times only add up; the last record is the state's; the
algorithm is a registered one with its settings in range, and the state's generator one
its seed gives.  A doctored file gives a ``ValueError`` naming the file and the field at
fault, and never reaches compiled code.  :func:`save_trace` applies the same checks before
it writes (and the file size after), so every trace it saves loads.
"""

from __future__ import annotations

from ..core.trace.records import set_writer
from .fileformat import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_FILE_BYTES,
    MAX_GAME_BYTES,
    MAX_META_BYTES,
    META,
    game_fingerprint,
)
from .load import load_trace
from .save import save_trace

set_writer(save_trace)  # trace.save(path) for one made without the package root

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "MAX_FILE_BYTES", "MAX_GAME_BYTES", "MAX_META_BYTES",
           "META", "game_fingerprint", "load_trace", "save_trace"]
