"""Saving and loading traces: exact round trips, the game check, corrupt files, atomic saves."""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.trace import RECORD_ARRAYS
from cfrviz.io import FORMAT_VERSION, META, game_fingerprint, load_trace, save_trace

ARRAYS = tuple(spec.name for spec in RECORD_ARRAYS)
VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]  # scissors wins and loses 2


@pytest.fixture(scope="module")
def rps_trace():
    return cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "regret_matching", 200)


@pytest.fixture(scope="module")
def kuhn_trace():
    return cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr", 50)


def assert_same(loaded, original):
    """Bitwise equal arrays with equal dtypes, equal params and extras, read-only arrays."""
    assert loaded.algorithm == original.algorithm
    assert loaded.params == original.params
    assert game_fingerprint(loaded.game) == game_fingerprint(original.game)
    for name in ARRAYS:
        a, b = getattr(loaded, name), getattr(original, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert a.tobytes() == b.tobytes(), name
        assert not a.flags.writeable, name
    assert list(loaded.extras) == list(original.extras)
    for key, value in original.extras.items():
        if isinstance(value, np.ndarray):
            got = loaded.extras[key]
            assert got.dtype == value.dtype and got.tobytes() == value.tobytes(), key
            assert not got.flags.writeable
        else:
            assert loaded.extras[key] == value and type(loaded.extras[key]) is type(value), key


# --- fingerprints ------------------------------------------------------------------

def test_fingerprint_is_stable_and_tells_games_apart():
    kuhn = game_fingerprint(cfrviz.load_game("kuhn_poker"))
    assert kuhn == game_fingerprint(cfrviz.load_game("kuhn_poker"))
    assert len(kuhn) == 64 and int(kuhn, 16) >= 0
    rps = game_fingerprint(cfrviz.load_game("rock_paper_scissors"))
    assert rps == game_fingerprint(cfrviz.load_game("rock_paper_scissors"))
    variant = game_fingerprint(cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT))
    assert len({kuhn, rps, variant}) == 3
    negative_zero = [[-0.0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    assert game_fingerprint(cfrviz.load_game("rock_paper_scissors",
                                             payoffs=negative_zero)) == rps


def test_fingerprint_rejects_other_objects():
    with pytest.raises(ValueError, match="cannot fingerprint a dict"):
        game_fingerprint({})


# --- round trips -------------------------------------------------------------------

def test_rps_round_trip(rps_trace, tmp_path):
    written = save_trace(rps_trace, tmp_path / "rps")
    assert written == tmp_path / "rps.npz" and written.is_file()
    assert_same(load_trace(written), rps_trace)
    assert_same(load_trace(str(tmp_path / "rps"), game=rps_trace.game), rps_trace)


def test_kuhn_round_trip_with_extras(kuhn_trace, tmp_path):
    assert {"elapsed", "nodes_touched"} <= set(kuhn_trace.extras)
    path = save_trace(kuhn_trace, tmp_path / "kuhn.npz")
    loaded = load_trace(path)
    assert_same(loaded, kuhn_trace)
    assert loaded.game.num_infosets == 12
    assert loaded.average_policy().to_dict() == kuhn_trace.average_policy().to_dict()


def test_trace_save_is_save_trace(kuhn_trace, tmp_path):
    """``trace.save(path)`` (issue 31 item 7) writes what ``save_trace`` writes, byte for
    byte apart from the archive's timestamps, and the same checks refuse the same traces."""
    written = kuhn_trace.save(tmp_path / "kuhn")
    assert written == tmp_path / "kuhn.npz"
    assert_same(load_trace(written), kuhn_trace)
    twin = save_trace(kuhn_trace, tmp_path / "twin.npz")
    with np.load(written) as a, np.load(twin) as b:
        assert sorted(a.files) == sorted(b.files)
        assert all(np.array_equal(a[k], b[k]) for k in a.files)
    bad = dataclasses.replace(kuhn_trace, params={**kuhn_trace.params, "x": object()})
    with pytest.raises(ValueError) as by_method:
        bad.save(tmp_path / "bad")
    with pytest.raises(ValueError) as by_function:
        save_trace(bad, tmp_path / "bad")
    assert str(by_method.value) == str(by_function.value)


def test_trace_save_without_the_file_layer_says_what_to_do(kuhn_trace, monkeypatch, tmp_path):
    import cfrviz.core.trace.records as records

    monkeypatch.setattr(records, "_WRITER", None)
    with pytest.raises(RuntimeError, match=r"import cfrviz.io.*cfrviz.save_trace"):
        kuhn_trace.save(tmp_path / "k")
    assert not (tmp_path / "k.npz").exists()


def test_custom_payoff_variant_is_rebuilt(tmp_path):
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    trace = cfrviz.solve(game, "regret_matching", 20)
    loaded = load_trace(save_trace(trace, tmp_path / "variant.npz"))
    assert_same(loaded, trace)
    assert loaded.game.payoffs.tolist() == game.payoffs.tolist()
    assert loaded.game.action_names == game.action_names


def test_state_and_general_extras_round_trip(kuhn_trace, tmp_path):
    # The state must be a solver state (load_trace checks it against the game); anything
    # else a run wants to keep goes to extras, arrays at the top level kept exactly.
    rng = np.random.default_rng(7)
    extras = {**kuhn_trace.extras, "note": "hello", "flag": True, "none": None,
              "nested": {"a": [1, 2.5, "x"], "b": {"c": False}}, "nan": float("nan"),
              "weights": np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::2],  # not contiguous
              "fortran": np.asfortranarray(np.arange(6.0).reshape(2, 3)),
              "words": rng.integers(0, 2**64, size=4, dtype=np.uint64)}
    # The state must be the run's own (load_trace checks it against the records and the
    # seed): its arrays are the run's, its generator one from the run's seed, some draws on.
    rng = np.random.default_rng(kuhn_trace.params["seed"])
    rng.random(5)
    state = {**kuhn_trace.state, "generator": rng.bit_generator.state}  # 128-bit ints
    trace = dataclasses.replace(kuhn_trace, state=state, extras=extras)
    loaded = load_trace(save_trace(trace, tmp_path / "state.npz"), game=kuhn_trace.game)
    assert list(loaded.state) == list(state)
    for key in ("regret_sum", "strategy_sum", "rng"):
        got = loaded.state[key]
        assert got.dtype == state[key].dtype and got.shape == state[key].shape
        assert np.array_equal(got, state[key]) and not got.flags.writeable
    assert loaded.state["iteration"] == 50
    assert loaded.state["generator"] == state["generator"]
    restored = np.random.default_rng()
    restored.bit_generator.state = loaded.state["generator"]
    assert restored.random() == rng.random()
    for key in ("weights", "fortran", "words"):
        got = loaded.extras[key]
        assert got.dtype == extras[key].dtype and np.array_equal(got, extras[key]), key
        assert not got.flags.writeable
    assert loaded.extras["nested"] == extras["nested"]
    assert np.isnan(loaded.extras["nan"])
    assert (loaded.extras["note"], loaded.extras["flag"], loaded.extras["none"]) == \
        ("hello", True, None)


def test_a_state_that_is_not_a_solver_state_is_refused_before_saving(kuhn_trace, tmp_path):
    for state, match in [({"iteration": 50, "regret_sum": np.zeros((12, 2))},
                          "'strategy_sum' is missing"),
                         ({**kuhn_trace.state, "weights": np.zeros(3)},
                          "'weights' is not part of a solver state"),
                         ({**kuhn_trace.state, "rng": np.zeros(4, dtype=np.uint64)},
                          "'rng' must be one SplitMix64 word")]:
        with pytest.raises(ValueError, match=match):
            save_trace(dataclasses.replace(kuhn_trace, state=state), tmp_path / "s.npz")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("update", ["expected", "sampled"])
def test_regret_matching_trace_resumes_after_saving_and_loading(tmp_path, update):
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    first = cfrviz.solve(game, "regret_matching", 300, seed=5, update=update)
    loaded = load_trace(save_trace(first, tmp_path / "rm"))
    assert_same(loaded, first)
    assert list(loaded.state) == list(first.state)
    for key in ("regret_sum", "strategy_sum", "rng"):
        got = loaded.state[key]
        assert got.dtype == first.state[key].dtype and got.tobytes() == first.state[key].tobytes()
    assert loaded.state.get("generator") == first.state.get("generator")  # 128-bit ints kept
    resumed = cfrviz.solve(game, "regret_matching", 700, seed=5, update=update, resume=loaded)
    whole = cfrviz.solve(game, "regret_matching", 700, seed=5, update=update)
    for name in ARRAYS:
        assert getattr(resumed, name).tobytes() == getattr(whole, name).tobytes(), name
    assert resumed.state["strategy_sum"].tobytes() == whole.state["strategy_sum"].tobytes()


def test_a_file_holds_the_record_arrays_of_the_schema(kuhn_trace, tmp_path):
    path = save_trace(kuhn_trace, tmp_path / "k.npz")
    with np.load(path, allow_pickle=False) as archive:
        members = set(archive.files)
    assert {name for name in members if name.startswith("trace.")} == \
        {f"trace.{spec.name}" for spec in RECORD_ARRAYS}
    for spec in RECORD_ARRAYS:
        assert getattr(kuhn_trace, spec.name).dtype == spec.dtype, spec.name


def test_a_state_that_does_not_fit_is_named_on_load(kuhn_trace, tmp_path):
    # Before: this file loaded, and only resuming it found the rng word at fault.
    path = save_trace(kuhn_trace, tmp_path / "k.npz")
    rewrite_array(path, member_of(path, "state", "rng"), np.zeros(3, dtype=np.uint64))
    with pytest.raises(ValueError, match=r"solver state field 'rng' has shape \(3,\)"):
        load_trace(path)


def test_trace_without_state_loads_none(rps_trace, tmp_path):
    stateless = dataclasses.replace(rps_trace, state=None)
    assert load_trace(save_trace(stateless, tmp_path / "a.npz")).state is None


def test_empty_checkpoints_trace_keeps_nan_exploitability(tmp_path):
    trace = cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr", 3, checkpoints=[])
    loaded = load_trace(save_trace(trace, tmp_path / "final.npz"))
    assert_same(loaded, trace)


# --- what cannot be saved ----------------------------------------------------------

@pytest.mark.parametrize("field, value, match", [
    ("extras", {"policy": object()}, r"extras\['policy'\] is a object"),
    ("extras", {"deep": {"x": np.zeros(2)}}, r"extras\['deep'\]\['x'\] is a numpy array"),
    ("extras", {"objects": np.array([1, "a"], dtype=object)}, "array of Python objects"),
    ("extras", {3: 1.0}, "extras key 3 must be a string"),
    ("params", {"opponent": np.ones(3)}, r"params\['opponent'\] is a numpy array"),
    ("params", {"weights": {1: 2}}, "keys must be strings"),
    ("state", {"seen": {1, 2}}, r"state\['seen'\] is a set"),
])
def test_unsaveable_values_are_refused_by_name(rps_trace, tmp_path, field, value, match):
    trace = dataclasses.replace(rps_trace, **{field: value})
    with pytest.raises(ValueError, match=match):
        save_trace(trace, tmp_path / "x.npz")
    assert list(tmp_path.iterdir()) == []


def test_numpy_scalars_in_params_become_python_numbers(rps_trace, tmp_path):
    # Beside the run's own settings (checked on load), params may keep any JSON values.
    params = {"alpha": np.float64(1.5), "n": np.int32(3), "on": np.bool_(True),
              "pair": (1, 2)}
    trace = dataclasses.replace(rps_trace, params={**rps_trace.params, **params})
    loaded = load_trace(save_trace(trace, tmp_path / "p.npz"))
    assert loaded.params == {**rps_trace.params, "alpha": 1.5, "n": 3, "on": True,
                             "pair": [1, 2]}
    assert [type(loaded.params[k]) for k in params] == [float, int, bool, list]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=8)


@settings(max_examples=25, deadline=None)
@given(extra=st.dictionaries(st.text(max_size=8), json_values, max_size=4))
def test_json_params_round_trip_exactly(extra, rps_small):
    # Any JSON values kept beside the run's own settings (which load_trace checks).
    params = {**extra, **rps_small.params}
    trace = dataclasses.replace(rps_small, params=params)
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        loaded = load_trace(save_trace(trace, Path(folder) / "t.npz"))
    assert loaded.params == params
    # json.dumps tells True from 1 and 1 from 1.0, which == does not.
    assert json.dumps(loaded.params) == json.dumps(params)


@pytest.fixture(scope="module")
def rps_small():
    return cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "regret_matching", 3)


# --- wrong game --------------------------------------------------------------------

def test_wrong_game_is_named(kuhn_trace, tmp_path):
    path = save_trace(kuhn_trace, tmp_path / "kuhn.npz")
    with pytest.raises(ValueError, match=r"recorded on kuhn_poker \(fingerprint [0-9a-f]{12}\), "
                                         r"not 'rock_paper_scissors'") as info:
        load_trace(path, game=cfrviz.load_game("rock_paper_scissors"))
    assert str(path) in str(info.value)


def test_other_version_of_same_game_is_named(rps_trace, tmp_path):
    path = save_trace(rps_trace, tmp_path / "rps.npz")
    variant = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    with pytest.raises(ValueError, match="different version of rock_paper_scissors: its rules "
                                         "or payoffs differ"):
        load_trace(path, game=variant)


def test_unknown_game_asks_for_game(kuhn_trace, tmp_path):
    path = save_trace(kuhn_trace, tmp_path / "kuhn.npz")
    rewrite_meta(path, lambda meta: meta["game"].update(name="my_game"))
    with pytest.raises(ValueError, match=r"rebuilds only the games built into cfrviz .*pass it: "
                                         r"load_trace\(path, game=\.\.\.\)"):
        load_trace(path)


def test_game_rebuilt_differently_is_named(kuhn_trace, tmp_path):
    path = save_trace(kuhn_trace, tmp_path / "kuhn.npz")
    rewrite_meta(path, lambda meta: meta["game"].update(fingerprint="0" * 64, params=None))
    with pytest.raises(ValueError, match=r"does not record the parameters kuhn_poker was built "
                                         r"with, and load_game\('kuhn_poker'\) builds a "
                                         r"different game; pass the game"):
        load_trace(path)
    rewrite_meta(path, lambda meta: meta["game"].update(params={}))
    with pytest.raises(ValueError, match="different version of kuhn_poker: its rules or payoffs "
                                         "differ from the game rebuilt now"):
        load_trace(path)


# --- corrupt files -----------------------------------------------------------------

def rewrite_meta(path, change):
    """Rewrite a saved file with its metadata changed (arrays kept)."""
    with np.load(path, allow_pickle=False) as archive:
        members = {name: archive[name] for name in archive.files}
    meta = json.loads(members[META].tobytes())
    change(meta)
    members[META] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez_compressed(path, **members)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no_such"):
        load_trace(tmp_path / "no_such.npz")


def test_random_bytes(tmp_path):
    path = tmp_path / "noise.npz"
    path.write_bytes(np.random.default_rng(0).bytes(1000))
    with pytest.raises(ValueError, match=r"noise\.npz is not a valid cfrviz trace file: it is "
                                         r"not an \.npz"):
        load_trace(path)


def test_random_bytes_after_zip_magic(tmp_path):
    path = tmp_path / "noise.npz"
    path.write_bytes(b"PK\x03\x04" + np.random.default_rng(1).bytes(1000))
    with pytest.raises(ValueError, match=r"noise\.npz is corrupt or truncated"):
        load_trace(path)


def test_a_plain_npy_file(tmp_path):
    path = tmp_path / "array.npz"
    with open(path, "wb") as handle:
        np.save(handle, np.arange(3))
    with pytest.raises(ValueError, match="not an .npz"):
        load_trace(path)


@pytest.mark.parametrize("keep", [0.3, 0.9, 0.999])
def test_truncated_copy(rps_trace, tmp_path, keep):
    data = save_trace(rps_trace, tmp_path / "full.npz").read_bytes()
    path = tmp_path / "cut.npz"
    path.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ValueError, match=r"cut\.npz is corrupt or truncated"):
        load_trace(path)


def test_flipped_bytes_never_load_silently_wrong(rps_trace, tmp_path):
    """A damaged byte is reported, or falls in an unchecked zip field and changes nothing."""
    data = save_trace(rps_trace, tmp_path / "full.npz").read_bytes()
    path = tmp_path / "flipped.npz"
    reported = 0
    for position in np.random.default_rng(0).choice(len(data), 60, replace=False):
        damaged = bytearray(data)
        damaged[position] ^= 0x55
        path.write_bytes(bytes(damaged))
        try:
            loaded = load_trace(path)
        except ValueError as error:
            assert str(path) in str(error)
            reported += 1
        else:
            assert_same(loaded, rps_trace)
    assert reported > 30


def test_npz_without_metadata(tmp_path):
    path = tmp_path / "plain.npz"
    np.savez_compressed(path, iterations=np.arange(3))
    with pytest.raises(ValueError, match=r"plain\.npz is not a valid cfrviz trace file: it has "
                                         r"no 'cfrviz_meta' metadata"):
        load_trace(path)


def test_future_format_version(rps_trace, tmp_path):
    path = save_trace(rps_trace, tmp_path / "future.npz")
    rewrite_meta(path, lambda meta: meta.update(format_version=FORMAT_VERSION + 1))
    with pytest.raises(ValueError, match=r"future\.npz was written by a newer cfrviz .*upgrade"):
        load_trace(path)


@pytest.mark.parametrize("change, match", [
    (lambda m: m.update(format="something-else"), "does not say format 'cfrviz-trace'"),
    (lambda m: m.update(format_version="1"), "format version '1' is not a whole number"),
    (lambda m: m.pop("params"), "metadata lacks params"),
    (lambda m: m.pop("game"), "metadata lacks game"),
    (lambda m: m["game"].pop("fingerprint"), "does not describe the game"),
    (lambda m: m["extras"].append({"key": "x", "array": "extras.99"}),
     r"the array \"extras\['x'\]\" is missing"),
])
def test_bad_metadata(rps_trace, tmp_path, change, match):
    path = save_trace(rps_trace, tmp_path / "meta.npz")
    rewrite_meta(path, change)
    with pytest.raises(ValueError, match=match):
        load_trace(path)


def rewrite_array(path, member, value):
    with np.load(path, allow_pickle=False) as archive:
        members = {name: archive[name] for name in archive.files}
    if value is None:
        del members[member]
    else:
        members[member] = value
    np.savez_compressed(path, **members)


def test_missing_array(rps_trace, tmp_path):
    path = save_trace(rps_trace, tmp_path / "a.npz")
    rewrite_array(path, "trace.average_strategy", None)
    with pytest.raises(ValueError, match="'average_strategy' is missing"):
        load_trace(path)


def test_nan_where_not_allowed(rps_trace, tmp_path):
    path = save_trace(rps_trace, tmp_path / "a.npz")
    regret = np.array(rps_trace.cumulative_regret)
    regret[5, 1, 2] = np.nan
    rewrite_array(path, "trace.cumulative_regret", regret)
    with pytest.raises(ValueError, match=r"'cumulative_regret' holds NaN .*record 5, iteration 6"):
        load_trace(path)


def test_wrong_shape(rps_trace, tmp_path):
    path = save_trace(rps_trace, tmp_path / "a.npz")
    rewrite_array(path, "trace.current_strategy", np.zeros((200, 2, 2)))
    with pytest.raises(ValueError, match=r"'current_strategy' has shape \(200, 2, 2\)"):
        load_trace(path)


# --- atomic saves ------------------------------------------------------------------

def test_save_leaves_no_temporary_file(rps_trace, tmp_path):
    save_trace(rps_trace, tmp_path / "a.npz")
    save_trace(rps_trace, tmp_path / "a.npz")  # overwriting works too
    assert [p.name for p in tmp_path.iterdir()] == ["a.npz"]


def test_failed_save_keeps_previous_file(rps_trace, kuhn_trace, tmp_path, monkeypatch):
    path = save_trace(rps_trace, tmp_path / "run.npz")
    before = path.read_bytes()

    def crash(file, **_arrays):
        file.write(b"PK\x03\x04 half a file")
        raise KeyboardInterrupt  # as if the student pressed Ctrl-C mid-save

    monkeypatch.setattr(np, "savez_compressed", crash)
    with pytest.raises(KeyboardInterrupt):
        save_trace(kuhn_trace, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["run.npz"]
    monkeypatch.undo()
    assert_same(load_trace(path), rps_trace)


def test_save_into_missing_directory(rps_trace, tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere"):
        save_trace(rps_trace, tmp_path / "nowhere" / "a.npz")


def test_only_a_regular_file_is_opened(tmp_path):
    # A FIFO would block the open for ever, /dev/zero never ends: refused before any read.
    os.mkfifo(tmp_path / "pipe.npz")
    (tmp_path / "zero.npz").symlink_to("/dev/zero")
    with pytest.raises(ValueError, match=r"pipe\.npz' is a named pipe \(FIFO\), not a regular"):
        load_trace(tmp_path / "pipe.npz")
    with pytest.raises(ValueError, match=r"zero\.npz' is a character device, not a regular"):
        load_trace(tmp_path / "zero.npz")


def test_what_load_would_refuse_is_not_saved(kuhn_trace, tmp_path, monkeypatch):
    import cfrviz.io.fileformat as io  # where save and load read their limits

    monkeypatch.setattr(io, "MIN_EXTRA_BYTES", 1000)
    big = dataclasses.replace(kuhn_trace, extras={**kuhn_trace.extras, "x": np.zeros(2000)})
    with pytest.raises(ValueError, match=r"extras array 'x' takes 16,000 bytes, more than the "
                                         r"[\d,]+ load_trace reads"):
        save_trace(big, tmp_path / "big.npz")
    monkeypatch.setattr(io, "MAX_META_BYTES", 1000)
    wordy = dataclasses.replace(kuhn_trace, params={**kuhn_trace.params, "note": "x" * 2000})
    with pytest.raises(ValueError, match=r"metadata .* takes [\d,]+ bytes as JSON, more than "
                                         r"the 1,000 load_trace reads"):
        save_trace(wordy, tmp_path / "wordy.npz")
    assert not list(tmp_path.iterdir())


def test_a_game_built_with_parameters_is_rebuilt_from_the_file(tmp_path):
    game = cfrviz.load_game("leduc_poker", suits=True)
    path = save_trace(cfrviz.solve(game, "cfr", 3), tmp_path / "suited")
    loaded = cfrviz.load_trace(path)
    assert loaded.game.num_infosets == 936 and loaded.game.params == {"suits": True}


# --- doctored files: every array checked before use -------------------------------------

def read_members(path) -> tuple[dict, dict]:
    with np.load(path, allow_pickle=False) as archive:
        members = {name: archive[name] for name in archive.files}
    return members, json.loads(members[META].tobytes())


def member_of(path, where: str, key: str) -> str:
    """The archive member holding ``state[key]`` or ``extras[key]``."""
    _, meta = read_members(path)
    return next(entry["array"] for entry in meta[where] if entry["key"] == key)


def doctor(path, change):
    """Rewrite a saved file after ``change(members, meta)`` (members by name, meta as JSON)."""
    members, meta = read_members(path)
    change(members, meta)
    members[META] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez_compressed(path, **members)


def in_state(key, make):
    def change(members, meta):
        member = next(e["array"] for e in meta["state"] if e["key"] == key)
        members[member] = make(members[member])
    return change


def in_records(name, make):
    def change(members, _meta):
        members[f"trace.{name}"] = make(members[f"trace.{name}"])
    return change


def in_timing(key, make):
    def change(members, meta):
        member = next(e["array"] for e in meta["extras"] if e["key"] == key)
        members[member] = make(members[member])
    return change


def state_value(key, value):
    def change(members, meta):
        for entry in meta["state"]:
            if entry["key"] == key and "array" in entry:
                del members[entry["array"]]
        entries = [e for e in meta["state"] if e["key"] != key]
        meta["state"] = [*entries, {"key": key, "value": value}]
    return change


def with_value(array, index, value):
    array = np.array(array)
    array[index] = value
    return array


def swap_first(array):
    array = np.array(array)
    array[[3, 4]] = array[[4, 3]]
    return array


def add_member(members, _meta):
    members["payload"] = np.zeros(3)


def drop_member(key):
    def change(members, meta):
        del members[next(e["array"] for e in meta["state"] if e["key"] == key)]
    return change


TABLES = [spec.name for spec in RECORD_ARRAYS if spec.table]
DOCTORED = [
    # the solver state's tables and rng word: shape, dtype, finiteness
    ("state regret_sum shape", in_state("regret_sum", lambda _a: np.zeros((3, 2))),
     r"solver state field 'regret_sum' has shape \(3, 2\)"),
    ("state strategy_sum shape", in_state("strategy_sum", lambda _a: np.zeros((12, 3))),
     r"solver state field 'strategy_sum' has shape \(12, 3\)"),
    ("state rng shape", in_state("rng", lambda _a: np.zeros(2, dtype=np.uint64)),
     r"solver state field 'rng' has shape \(2,\)"),
    ("state regret_sum dtype", in_state("regret_sum", lambda a: a.astype(np.float32)),
     "solver state field 'regret_sum' must hold float64 numbers; it holds float32"),
    ("state rng dtype", in_state("rng", lambda a: a.astype(np.int64)),
     "solver state field 'rng' must hold uint64 numbers; it holds int64"),
    ("state NaN regrets", in_state("regret_sum", lambda a: with_value(a, (4, 1), np.nan)),
     "solver state field 'regret_sum' holds NaN or infinite values"),
    ("state inf strategy sums", in_state("strategy_sum", lambda a: with_value(a, 0, np.inf)),
     "solver state field 'strategy_sum' holds NaN or infinite values"),
    ("state iteration before the records", state_value("iteration", 10),
     r"record array 'iterations' goes up to 50, past the solver state's iteration 10"),
    ("state negative iteration", state_value("iteration", -3),
     "solver state field 'iteration' must be a whole number >= 0"),
    ("state unknown field", state_value("weights", [1, 2]),
     "solver state field 'weights' is not part of a solver state"),
    ("state table as JSON", state_value("regret_sum", [[0.0, 0.0]] * 12),
     "solver state field 'regret_sum' must be stored as an array"),
    # the records: shape, dtype, finiteness, consistency
    *[(f"records {name} shape", in_records(name, lambda _a: np.zeros((50, 12, 3))),
       rf"record array '{name}' has shape \(50, 12, 3\); as many records as record array "
       r"'iterations' lists, on this game, need \(50, 12, 2\)") for name in TABLES],
    ("records iterations dtype", in_records("iterations", lambda a: a.astype(np.float64)),
     "record array 'iterations' must hold int64 numbers; it holds float64"),
    ("records current_strategy dtype",
     in_records("current_strategy", lambda a: a.astype(np.float32)),
     "record array 'current_strategy' must hold float64 numbers; it holds float32"),
    ("records NaN regrets", in_records("cumulative_regret", lambda a: with_value(a, 5, np.nan)),
     r"record array 'cumulative_regret' holds NaN or infinite values \(first at record 5, "
     r"iteration 6\)"),
    ("records inf strategy",
     in_records("average_strategy", lambda a: with_value(a, (7, 0, 1), np.inf)),
     "record array 'average_strategy' holds NaN or infinite values"),
    ("records inf exploitability", in_records("exploitability", lambda a: with_value(a, 2, np.inf)),
     "record array 'exploitability' holds infinite values"),
    ("records of different lengths", in_records("exploitability", lambda a: a[:-1]),
     r"record array 'exploitability' has shape \(49,\); as many records as record array "
     r"'iterations' lists, on this game, need \(50,\)"),
    ("records strategy not a distribution",
     in_records("average_strategy", lambda a: with_value(a, (7, 0, 1), 1e308)),
     "record array 'average_strategy' holds probabilities that do not sum to 1"),
    ("records strategy negative",
     in_records("current_strategy", lambda a: with_value(a, (3, 2, 0), -0.5)),
     "record array 'current_strategy' holds a negative probability"),
    ("records one table short", in_records("current_strategy", lambda a: a[:-1]),
     r"record array 'current_strategy' has shape \(49, 12, 2\)"),
    ("decreasing iterations", in_records("iterations", swap_first),
     r"record array 'iterations' must be strictly increasing; record 4 \(iteration 4\) follows "
     r"iteration 5"),
    ("iterations from 0", in_records("iterations", lambda a: a - 1),
     "record array 'iterations' must start at 1 or later; it starts at 0"),
    ("timing extras short", in_timing("elapsed", lambda a: a[:-1]),
     r"extras array 'elapsed' has shape \(49,\)"),
    ("timing extras dtype", in_timing("nodes_touched", lambda a: a.astype(np.float64)),
     "extras array 'nodes_touched' must hold int64 numbers"),
    # the members: exactly those the metadata names
    ("an extra member", add_member, "it holds a member 'payload' its metadata does not name"),
    ("a missing state member", drop_member("regret_sum"),
     r"the array \"state\['regret_sum'\]\" is missing"),
    ("a missing record member", lambda members, _: members.pop("trace.average_strategy"),
     "the array 'average_strategy' is missing"),
]


@pytest.mark.usefixtures("no_compiled_code")
@pytest.mark.parametrize("label, change, match", DOCTORED, ids=[d[0] for d in DOCTORED])
def test_a_doctored_file_is_refused_naming_the_array(kuhn_trace, tmp_path, label, change, match):
    path = save_trace(kuhn_trace, tmp_path / "doctored.npz")
    doctor(path, change)
    for game in (None, kuhn_trace.game):
        with pytest.raises(ValueError, match=match) as info:
            cfrviz.solve(kuhn_trace.game, "cfr", 80, resume=load_trace(path, game=game))
        assert str(path) in str(info.value), label


def opened_members(monkeypatch) -> list[str]:
    """Record the archive members opened from now on."""
    import zipfile

    seen: list[str] = []
    original = zipfile.ZipFile.open

    def spy(self, name, *args, **kwargs):
        seen.append(getattr(name, "filename", name))
        return original(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", spy)
    return seen


def test_oversized_metadata_is_refused_unread(rps_trace, tmp_path, monkeypatch):
    from cfrviz.io import MAX_META_BYTES

    path = save_trace(rps_trace, tmp_path / "big.npz")
    # Valid JSON, padded past the bound; it compresses to a few kilobytes.
    doctor(path, lambda _members, meta: meta.update(padding=" " * (MAX_META_BYTES + 20_000)))
    assert path.stat().st_size < 1_000_000
    seen = opened_members(monkeypatch)
    with pytest.raises(ValueError, match=r"big\.npz is not a valid cfrviz trace file: its "
                                         r"'cfrviz_meta' metadata takes [\d,]+ bytes, more than "
                                         r"the [\d,]+ metadata may take; it was not read"):
        load_trace(path)
    assert f"{META}.npy" not in seen


@pytest.mark.parametrize("where, make, match", [
    ("trace.cumulative_regret", lambda: np.zeros(2_000_000),
     "record array 'cumulative_regret' takes 16,000,128 bytes, more than the 19,616"),
    ("extras.elapsed", lambda: np.zeros(2_000_000), "extras array 'elapsed' takes 16,000,128"),
    ("extras.other", lambda: np.zeros(2_000_000), "extras array 'other' takes 16,000,128"),
])
def test_an_oversized_member_is_refused_unread(kuhn_trace, tmp_path, monkeypatch, where, make,
                                               match):
    trace = dataclasses.replace(kuhn_trace, extras={**kuhn_trace.extras, "other": np.zeros(3)})
    path = save_trace(trace, tmp_path / "big.npz")
    kind, key = where.split(".")
    member = f"trace.{key}" if kind == "trace" else member_of(path, "extras", key)
    doctor(path, lambda members, _meta: members.update({member: make()}))
    seen = opened_members(monkeypatch)
    with pytest.raises(ValueError, match=match):
        load_trace(path)
    assert f"{member}.npy" not in seen


def test_a_path_in_the_metadata_is_never_opened(kuhn_trace, tmp_path, monkeypatch):
    # A trace naming load_game("file", path=...) would make loading read any file the trace
    # chose: before this change it did.  The trap is a valid game file, so reading it would
    # have worked; the guard fails the test if it is opened at all.
    import builtins
    import io
    import os

    trap = tmp_path / "trap.json"
    trap.write_text(Path("data/games/matching_pennies.json").read_text())
    path = save_trace(kuhn_trace, tmp_path / "k.npz")
    doctor(path, lambda _members, meta: meta["game"].update(name="file", kind="tree",
                                                            params={"path": str(trap)}))
    real_open = io.open

    def guarded(file, *args, **kwargs):
        if isinstance(file, (str, os.PathLike)) and Path(file).resolve() == trap.resolve():
            raise AssertionError(f"{trap} was opened")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", guarded)
    monkeypatch.setattr(builtins, "open", guarded)
    with pytest.raises(ValueError, match=r"never a game read from a file.*pass it"):
        load_trace(path)


@pytest.fixture(scope="module")
def bluff():
    return cfrviz.load_game("file", path="data/games/high_low_bluff.json")


def test_a_custom_game_is_kept_by_content_and_its_file_never_reopened(bluff, tmp_path,
                                                                      monkeypatch):
    import builtins
    import io

    first = cfrviz.solve(bluff, "external_sampling", 300, seed=2)
    path = save_trace(first, tmp_path / "bluff")
    _, meta = read_members(path)
    assert meta["game"]["kind"] == "stored" and "high_low_bluff.json" not in json.dumps(meta)
    real_open = io.open

    def guarded(file, *args, **kwargs):
        if str(file).endswith(".json"):
            raise AssertionError(f"{file} was opened")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", guarded)
    monkeypatch.setattr(builtins, "open", guarded)
    loaded = load_trace(path)
    monkeypatch.undo()
    assert_same(loaded, first)
    assert loaded.game.history == bluff.history and loaded.game.description == bluff.description
    resumed = cfrviz.solve(loaded.game, "external_sampling", 700, seed=2, resume=loaded)
    whole = cfrviz.solve(bluff, "external_sampling", 700, seed=2)
    for name in ARRAYS:
        assert getattr(resumed, name).tobytes() == getattr(whole, name).tobytes(), name


@pytest.mark.parametrize("change, match", [
    (lambda tree: tree.update(parent=[-1, *tree["parent"][2:], 0]), "'parent' must be -1 at"),
    (lambda tree: tree["chance_prob"].__setitem__(1, 0.9), "chance probabilities must be >= 0 "
                                                           "and sum to 1"),
    (lambda tree: tree["player"].__setitem__(0, 7), "node 0's 'player' 7 is not 0, 1, chance"),
    (lambda tree: tree["utility"].__setitem__(-1, ["x", 1]), "'utility' must be numbers"),
    (lambda tree: tree.pop("history"), "its content must hold exactly"),
])
def test_a_doctored_stored_game_is_refused(bluff, tmp_path, change, match):
    path = save_trace(cfrviz.solve(bluff, "cfr", 3), tmp_path / "bluff")
    doctor(path, lambda _members, meta: change(meta["game"]["tree"]))
    with pytest.raises(ValueError, match=rf"its stored game .* cannot be rebuilt .*{match}"):
        load_trace(path)


def test_a_game_built_from_a_definition_is_stored_too(tmp_path):
    tree = cfrviz.games.kuhn_poker()  # no load parameters recorded: kept by content
    trace = cfrviz.solve(tree, "cfr", 5)
    loaded = load_trace(save_trace(trace, tmp_path / "k.npz"))
    assert_same(loaded, trace)


def test_a_trace_with_no_record_is_refused(kuhn_trace, tmp_path):
    path = save_trace(kuhn_trace, tmp_path / "empty.npz")

    def empty(members, meta):
        for spec in RECORD_ARRAYS:
            members[f"trace.{spec.name}"] = members[f"trace.{spec.name}"][:0]
        for entry in meta["extras"]:
            if "array" in entry and entry["key"] in ("elapsed", "nodes_touched"):
                members[entry["array"]] = members[entry["array"]][:0]
    doctor(path, empty)
    with pytest.raises(ValueError, match=r"empty\.npz is not a valid cfrviz trace file: record "
                                         r"array 'iterations' is empty"):
        load_trace(path)
    with pytest.raises(ValueError, match=r"save_trace: .* 'iterations' is empty"):
        save_trace(dataclasses.replace(kuhn_trace, **{
            spec.name: getattr(kuhn_trace, spec.name)[:0] for spec in RECORD_ARRAYS}),
            tmp_path / "none.npz")


@pytest.mark.parametrize("change, match", [
    (lambda g: g["state"].update(state=-1), r"'generator' is not a valid PCG64 state"),
    (lambda g: g.pop("uinteger"), r"'generator' is not a valid PCG64 state"),
    (lambda g: g["state"].update(inc="x"), r"'generator' is not a valid PCG64 state"),
])
def test_a_doctored_generator_state_is_refused_on_load(tmp_path, change, match):
    trace = cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "regret_matching", 5,
                         update="sampled")
    path = save_trace(trace, tmp_path / "rm.npz")

    def doctored(_members, meta):
        change(next(e for e in meta["state"] if e["key"] == "generator")["value"])
    doctor(path, doctored)
    with pytest.raises(ValueError, match=match):
        load_trace(path)


def test_a_counter_past_64_bits_is_refused_on_load(kuhn_trace, tmp_path):
    path = save_trace(kuhn_trace, tmp_path / "big.npz")

    def doctored(_members, meta):
        next(e for e in meta["state"] if e["key"] == "nodes_touched")["value"] = 2**70
    doctor(path, doctored)
    with pytest.raises(ValueError, match=r"'nodes_touched' must be at most 4,611,686,018,427,"):
        load_trace(path)
