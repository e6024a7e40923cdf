"""A trace file is trusted with nothing (issue 30, item 3): it rebuilds only games built into
cfrviz, its values are checked against each other on load, a resume checks the run it claims
against its state, and save_trace writes the path it is given."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.io import META, load_trace, save_trace


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


@pytest.fixture(scope="module")
def saved(kuhn, tmp_path_factory):
    """A CFR trace on Kuhn poker, saved once."""
    trace = cfrviz.solve(kuhn, "cfr", iterations=40, seed=3)
    return trace, save_trace(trace, tmp_path_factory.mktemp("trace") / "cfr.npz")


def members(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def meta_of(arrays: dict[str, np.ndarray]) -> dict:
    return json.loads(arrays[META].tobytes().decode())


def rewrite(source: Path, target: Path, meta=None, **arrays) -> Path:
    """``source`` written again at ``target`` with some members replaced (as a hand would)."""
    data = members(source)
    if meta is not None:
        data[META] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    data.update(arrays)
    with open(target, "wb") as handle:
        np.savez_compressed(handle, **data)
    return target


# -- save_trace writes the path it is given -------------------------------------------------

@pytest.mark.parametrize("name", ["trace.NPZ", "trace.Npz", "trace.npz"])
def test_save_keeps_an_npz_suffix_in_any_case(saved, tmp_path, name):
    written = save_trace(saved[0], tmp_path / name)
    assert written == tmp_path / name
    assert sorted(os.listdir(tmp_path)) == [name]
    assert load_trace(written).iterations.tolist() == saved[0].iterations.tolist()


@pytest.mark.parametrize("name", ["", ".", "folder/"])
def test_save_to_no_file_name_is_refused(saved, name):
    with pytest.raises(ValueError, match=r"path must name a file.*got"):
        save_trace(saved[0], name)


def test_save_into_an_unwritable_place_names_the_path_given(saved):
    with pytest.raises(OSError) as caught:
        save_trace(saved[0], "/proc/trace.npz")
    assert caught.value.filename == "/proc/trace.npz"
    assert ".tmp" not in str(caught.value)


# -- a trace rebuilds only games built into cfrviz ------------------------------------------

NAMED_GAMES = [
    {"name": "openspiel", "params": {"name": "efg_game", "params": {"filename": "FIFO"}}},
    {"name": "openspiel", "params": {"name": "connect_four", "params": {"max_nodes": 10**12}}},
    {"name": "openspiel", "params": {"name": "tic_tac_toe"}},
    {"name": "file", "params": {"path": "FIFO"}},
    {"name": "a_plug_in_game", "params": {}},
]


@pytest.mark.parametrize("named", NAMED_GAMES, ids=lambda n: n["name"] + str(n["params"])[:30])
def test_a_trace_naming_a_game_outside_cfrviz_is_refused_at_once(saved, tmp_path, named):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    meta = meta_of(members(saved[1]))
    text = json.dumps(named).replace("FIFO", str(fifo))
    meta["game"] = {**meta["game"], "kind": "tree", **json.loads(text)}
    path = rewrite(saved[1], tmp_path / "named.npz", meta=meta)
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"rebuilds only the games built into cfrviz.*"
                                         r"load_trace\(path, game=\.\.\.\)"):
        load_trace(path)
    assert time.perf_counter() - start < 2
    # The game given by the caller is used instead (checked by the fingerprint).
    assert load_trace(path, game=saved[0].game).algorithm == "cfr"
