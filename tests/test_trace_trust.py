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
from _tolerance import STOPPED

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


@pytest.mark.parametrize("call", [save_trace, lambda path, _trace=None: load_trace(path)])
@pytest.mark.parametrize("path, error", [(None, TypeError), (3, TypeError), (b"x", TypeError),
                                         ("", ValueError), ("..", ValueError)])
def test_a_path_that_names_no_file_is_refused_by_name(saved, call, path, error):
    with pytest.raises(error, match=r"(save|load)_trace: path must (be|name) a file"):
        call(saved[0], path) if call is save_trace else call(path)


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
    assert time.perf_counter() - start < STOPPED
    # The game given by the caller is used instead (checked by the fingerprint).
    assert load_trace(path, game=saved[0].game).algorithm == "cfr"


# -- values inside a trace are checked against each other -----------------------------------

def entry_member(meta: dict, where: str, key: str) -> str | None:
    """The archive member holding ``extras``/``state`` array ``key`` (None for a JSON value)."""
    for entry in meta[where]:
        if entry["key"] == key:
            return entry.get("array")
    raise KeyError(key)


def set_value(meta: dict, where: str, key: str, value) -> None:
    for entry in meta[where]:
        if entry["key"] == key:
            entry["value"] = value


def swapped(values: np.ndarray) -> np.ndarray:
    """Two different entries exchanged: in a table, two legal actions of one row of the last
    record; in a list of records, the first and the last."""
    out = values.copy()
    if out.ndim == 3:
        row = next(i for i, r in enumerate(out[-1]) if r[0] != r[1])
        out[-1, row, [0, 1]] = out[-1, row, [1, 0]]
    elif out.ndim == 2:
        row = next(i for i, r in enumerate(out) if r[0] != r[1])
        out[row, [0, 1]] = out[row, [1, 0]]
    else:
        out[[0, -1]] = out[[-1, 0]]
    return out


def negated(values: np.ndarray) -> np.ndarray:
    out = values.copy()
    if out.ndim == 3:
        out[-1] = -out[-1]
    elif out.dtype.kind == "u":
        out = (2**64 - out.astype(object)).astype(np.uint64)
    else:
        out = -out
    return out


def with_nan(values: np.ndarray) -> np.ndarray:
    out = values.copy()
    out.reshape(-1)[-1] = np.nan
    return out


ARRAY_KINDS = {"swap": swapped, "negate": negated, "NaN": with_nan,
               "shrink": lambda values: values[:-1]}
#: Every array of a trace file: (where, key, what an error calls it).
ARRAY_FIELDS = [("trace", name, name) for name in (
    "iterations", "cumulative_regret", "current_strategy", "average_strategy",
    "exploitability", "current_exploitability")] + [
    ("extras", "elapsed", "elapsed"), ("extras", "nodes_touched", "nodes_touched"),
    ("state", "regret_sum", "regret_sum"), ("state", "strategy_sum", "strategy_sum"),
    ("state", "rng", "rng")]
#: Changes that are no corruption: NaN in an integer array cannot be written, one
#: SplitMix64 word has nothing to swap.
#: A NaN exploitability means "not evaluated", which a run reaches (checkpoints=[], or a
#: Ctrl-C during evaluation, then a resume), so it is a loss, not a contradiction.
NOT_A_CORRUPTION = {("iterations", "NaN"), ("rng", "NaN"), ("rng", "swap"),
                    ("nodes_touched", "NaN"), ("exploitability", "NaN"),
                    ("current_exploitability", "NaN")}
#: The JSON values: (where, key, kinds -> new value from the old).
SCALAR_CASES = [
    ("algorithm", None, "relabel", lambda _old: "nope", "algorithm"),
    ("params", "seed", "relabel", lambda old: old + 1, "seed"),
    ("params", "seed", "negate", lambda _old: -1, "seed"),
    ("params", "alternating", "relabel", lambda _old: "yes", "alternating"),
    ("params", "iterations", "shrink", lambda old: old - 1, "iterations"),
    ("params", "iterations", "negate", lambda old: -old, "iterations"),
    ("state", "iteration", "shrink", lambda old: old - 1, "iteration"),
    ("state", "iteration", "negate", lambda old: -old, "iteration"),
    ("state", "nodes_touched", "shrink", lambda old: old - 1, "nodes_touched"),
    ("state", "nodes_touched", "negate", lambda old: -old, "nodes_touched"),
    ("state", "elapsed", "shrink", lambda old: old / 2, "elapsed"),
    ("state", "elapsed", "negate", lambda old: -old, "elapsed"),
    ("state", "elapsed", "NaN", lambda _old: float("nan"), "elapsed"),
]
CORRUPTIONS = [(where, key, kind, ARRAY_KINDS[kind], what)
               for where, key, what in ARRAY_FIELDS for kind in ARRAY_KINDS
               if (key, kind) not in NOT_A_CORRUPTION] + SCALAR_CASES


@pytest.mark.parametrize("where, key, change, what", [
    pytest.param(where, key, change, what, id=f"{where}.{key or ''}-{kind}")
    for where, key, kind, change, what in CORRUPTIONS])
def test_every_corruption_of_a_saved_trace_is_refused_by_name(saved, tmp_path, where, key,
                                                              change, what):
    data = members(saved[1])
    meta = meta_of(data)
    if where == "algorithm":
        meta["algorithm"] = change(meta["algorithm"])
    elif where == "params":
        meta["params"][key] = change(meta["params"][key])
    elif where == "trace":
        data[f"trace.{key}"] = change(data[f"trace.{key}"])
    else:
        member = entry_member(meta, where, key)
        if member is None:
            old = next(e["value"] for e in meta[where] if e["key"] == key)
            set_value(meta, where, key, change(old))
        else:
            data[member] = change(data[member])
    path = rewrite(saved[1], tmp_path / "corrupt.npz", meta=meta,
                   **{k: v for k, v in data.items() if k != META})
    with pytest.raises(ValueError, match="not a valid cfrviz trace") as caught:
        load_trace(path)
    assert what in str(caught.value), str(caught.value)


def test_an_untouched_trace_loads_and_round_trips_exactly(saved, tmp_path):
    original, path = saved
    loaded = load_trace(path)
    again = load_trace(save_trace(loaded, tmp_path / "again.npz"))
    assert Path(path).read_bytes() != b""
    for trace in (loaded, again):
        assert (trace.algorithm, trace.params) == (original.algorithm, original.params)
        for name in ("iterations", "cumulative_regret", "instantaneous_regret",
                     "current_strategy", "average_strategy", "exploitability",
                     "current_exploitability"):
            assert np.array_equal(getattr(trace, name), getattr(original, name)), name
        for key, value in original.state.items():
            assert np.array_equal(trace.state[key], value), key


def test_two_probabilities_swapped_in_an_average_strategy_are_refused(saved, tmp_path):
    data = members(saved[1])
    table = swapped(data["trace.average_strategy"])
    path = rewrite(saved[1], tmp_path / "swap.npz", **{"trace.average_strategy": table})
    last = len(table) - 1
    with pytest.raises(ValueError, match=rf"record array 'average_strategy' at record {last} "):
        load_trace(path)
    # Without the state to give it away, the exploitability computed again does.
    meta = meta_of(data)
    meta["state"] = None
    kept = {k: v for k, v in data.items() if not k.startswith("state.")}
    kept.update({META: np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
                 "trace.average_strategy": table})
    path = tmp_path / "swap_nostate.npz"
    np.savez_compressed(path, **kept)
    with pytest.raises(ValueError, match=rf"record array 'exploitability' holds [\d.e-]+ at "
                                         rf"record {last} .*average_strategy recorded there "
                                         rf"has exploitability"):
        load_trace(path)


# -- a resume checks the run it claims against its state ------------------------------------

RESUMABLE = {"cfr": {}, "cfr+": {}, "linear_cfr": {}, "vector_cfr": {},
             "dcfr": {"alpha": 1.5, "beta": 0.0, "gamma": 2.0}, "pcfr+": {"gamma": 2.0},
             "pdcfr+": {"alpha": 2.3, "gamma": 5.0}, "mmd": {"magnet_every": 0},
             "chance_sampling": {}, "external_sampling": {}, "outcome_sampling": {"epsilon": 0.6}}
RELABELS = [("cfr", "cfr+"), ("cfr+", "linear_cfr"), ("linear_cfr", "cfr"),
            ("chance_sampling", "external_sampling"), ("external_sampling", "chance_sampling")]
NUDGES = [(name, key) for name, params in RESUMABLE.items() for key, value in params.items()
          if isinstance(value, float)]


def resumed(game, algorithm, trace, **params):
    return cfrviz.solve(game, algorithm, iterations=24, seed=trace.params["seed"],
                        resume=trace, progress=False, **params)


@pytest.mark.parametrize("recorded, claimed", RELABELS)
def test_a_relabelled_algorithm_is_not_resumed(kuhn, recorded, claimed):
    import dataclasses

    trace = cfrviz.solve(kuhn, recorded, iterations=12, seed=7, progress=False)
    relabelled = dataclasses.replace(trace, algorithm=claimed)
    with pytest.raises(ValueError, match=rf"this trace is not a {re_escape(claimed)} run .*"
                                         r"algorithm, parameters or seed were changed"):
        resumed(kuhn, claimed, relabelled)


@pytest.mark.parametrize("algorithm, key", NUDGES)
def test_a_changed_parameter_is_not_resumed(kuhn, algorithm, key):
    import dataclasses

    params = RESUMABLE[algorithm]
    trace = cfrviz.solve(kuhn, algorithm, iterations=12, seed=7, progress=False, **params)
    claimed = {**params, key: params[key] + 0.25}
    changed = dataclasses.replace(trace, params={**trace.params, **claimed})
    with pytest.raises(ValueError, match=rf"this trace is not a {re_escape(algorithm)} run "
                                         rf".*'{key}': {claimed[key]}.* were changed"):
        resumed(kuhn, algorithm, changed, **claimed)


@pytest.mark.parametrize("algorithm", ["cfr", "dcfr", "outcome_sampling", "external_sampling"])
def test_a_changed_seed_is_not_resumed(kuhn, algorithm, tmp_path):
    import dataclasses

    trace = cfrviz.solve(kuhn, algorithm, iterations=12, seed=7, progress=False)
    changed = dataclasses.replace(trace, params={**trace.params, "seed": 8})
    with pytest.raises(ValueError, match=r"'rng' is not a state that seed=8 gives"):
        resumed(kuhn, algorithm, changed)
    # In a file, the same change is refused on load.
    path = save_trace(trace, tmp_path / "t.npz")
    meta = meta_of(members(path))
    meta["params"]["seed"] = 8
    with pytest.raises(ValueError, match=r"'rng' is not a state that seed=8 gives"):
        load_trace(rewrite(path, tmp_path / "seed.npz", meta=meta))


def test_a_changed_seed_of_regret_matching_is_refused():
    import dataclasses

    rps = cfrviz.load_game("rock_paper_scissors")
    trace = cfrviz.solve(rps, "regret_matching", iterations=12, seed=7, update="sampled")
    changed = dataclasses.replace(trace, params={**trace.params, "seed": 8})
    with pytest.raises(ValueError, match=r"'generator' is not a state of .*seed=8"):
        cfrviz.solve(rps, "regret_matching", iterations=24, seed=8, update="sampled",
                     resume=changed)


def re_escape(text: str) -> str:
    import re

    return re.escape(text)
