"""Property-based bad-input suite: random valid games load and solve; corruptions of valid game
files and saved traces give a ValueError (or FileNotFoundError), never another exception or a crash.

Then one generator per class of bad input found in issue 20 (each fixed at its root): game
strings that try to become plotly markup through templates, names that collide, files that
are not regular or too large, arguments (iterables, seeds on resume, numbers of any size,
widget indices, unknown actions, colliding names, registry entries), traces with no record
or a doctored state, the exact LP at any payoff scale, and the environment (a cache folder
that cannot take compiled code, lone surrogates, Deep CFR on very long keys).

Corrupted traces are resumed, which runs compiled code, so those cases run in a child process: a
crash there fails the test with the case that caused it instead of taking pytest down.

``python -m pytest tests/test_bad_inputs.py -s`` prints how many inputs of each kind were tried
and what became of them.
"""

import dataclasses
import errno
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import warnings
import zipfile
from collections import Counter
from pathlib import Path

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go
import pytest
from _tolerance import STOPPED
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.analysis.scaling import ScalingRow, ScalingTable, game_size
from cfrviz.core.trace import RECORD_ARRAYS, TIMING_EXTRAS
from cfrviz.games.matrix import RPS_PAYOFFS, MatrixGame
from cfrviz.views import history_figure, plot_tree, simplex_figure
from cfrviz.views.compare import (
    comparison_figure,
    exploitation_figure,
    iteration_weights_figure,
    regret_estimates_figure,
)
from cfrviz.views.counterfactual import counterfactual_values_figure
from cfrviz.views.lp import exact_convergence_figure
from cfrviz.views.sizes import game_sizes_figure, scaling_figure
from cfrviz.views.training import cost_curve_figure, set_history_figure
from cfrviz.widgets.best_response import BestResponseExplorer
from cfrviz.widgets.explorer import TrainingExplorer

GAMES = Path(__file__).resolve().parent.parent / "data" / "games"
#: Cases of each kind, for the summary printed at the end (see the module docstring).
TRIED: Counter = Counter()
#: How they ended: (kind, "error" | "loaded" | "resumed").
OUTCOMES: Counter = Counter()
CASES = int(os.environ.get("CFRVIZ_BAD_INPUT_CASES", "150"))
SETTINGS = settings(max_examples=CASES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
pytestmark = pytest.mark.slow  # about half a minute: a fuzzing run, not a quick check


# ------------------------------------------------------------------------------------ valid games

@st.composite
def game_trees(draw, depth: int = 0):
    """A random zero-sum game tree in cfrviz's JSON format, with perfect recall.

    Each decision node gets its own information set, except that player 2's moves right after
    one of player 1's may share one set (player 2 does not see that move): both keep perfect
    recall, since player 2 has made no earlier move that could tell the nodes apart.
    """
    kind = draw(st.sampled_from(["terminal", "decision", "chance"] if depth < 4 else ["terminal"]))
    if kind == "terminal":
        value = draw(st.integers(-5, 5))
        return {"type": "terminal", "payoffs": [value, -value]}
    labels = draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=3, unique=True))
    if kind == "chance":
        weights = draw(st.lists(st.integers(1, 4), min_size=len(labels), max_size=len(labels)))
        total = sum(weights)
        return {"type": "chance", "outcomes": {
            label: {"probability": f"{w}/{total}", "node": draw(game_trees(depth + 1))}
            for label, w in zip(labels, weights)}}
    player = draw(st.sampled_from([1, 2]))
    return {"type": "decision", "player": player, "infoset": None,
            "actions": {label: draw(game_trees(depth + 1)) for label in labels}}


def name_infosets(node, path="root") -> None:
    """Give every decision node its own information-set key (its path: perfect recall)."""
    stack = [(node, path)]
    while stack:
        here, where = stack.pop()
        if here["type"] == "decision":
            here["infoset"] = where
            stack.extend((child, f"{where}/{a}") for a, child in here["actions"].items())
        elif here["type"] == "chance":
            stack.extend((o["node"], f"{where}/{a}") for a, o in here["outcomes"].items())


@SETTINGS
@given(root=game_trees())
def test_random_valid_games_load_and_solve(tmp_path, root):
    name_infosets(root)
    path = tmp_path / "random.json"
    path.write_text(json.dumps({"root": root}))
    TRIED["valid random game files (load, solve, evaluate)"] += 1
    game = cfrviz.load_game("file", path=str(path))
    if game.num_infosets == 0:
        return  # no decision to learn
    trace = cfrviz.solve(game, "cfr", 20, checkpoints=[20])
    value = cfrviz.exploitability(game, trace.average_policy())
    assert np.isfinite(value) and value > -1e-9


# ------------------------------------------------------------------------------- corrupted files

def _mutations(document):
    """Every place in a JSON document, as (container, key) pairs, root first."""
    places, stack = [], [document]
    while stack:
        here = stack.pop()
        items = here.items() if isinstance(here, dict) else enumerate(here)
        for key, value in items:
            places.append((here, key))
            if isinstance(value, (dict, list)):
                stack.append(value)
    return places


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30),
                 st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
                 st.sampled_from(["NaN", "1e400", "-1/0", "1/3", "", "<script>", [], {}, [1],
                                  {"type": "terminal"}, {"type": "x"}]))


def _expect_clear_error(load) -> str:
    """Run ``load``; success or a ValueError / FileNotFoundError are fine, anything else fails."""
    try:
        load()
    except (ValueError, FileNotFoundError) as error:
        assert str(error), "an error must say what is wrong"
        return "error"
    return "loaded"


@SETTINGS
@given(which=st.sampled_from(["high_low_bluff.json", "matching_pennies.json"]),
       picks=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["replace", "delete"]),
                                JUNK), min_size=1, max_size=3))
def test_corrupted_json_files_give_clear_errors(tmp_path, which, picks):
    document = json.loads((GAMES / which).read_text())
    for index, action, junk in picks:
        places = _mutations(document)
        container, key = places[index % len(places)]
        if action == "delete" and isinstance(container, dict):
            del container[key]
        else:
            container[key] = junk
    path = tmp_path / "corrupt.json"
    path.write_text(json.dumps(document, allow_nan=True))
    kind = "JSON game files with fields replaced or deleted"
    TRIED[kind] += 1
    OUTCOMES[kind, _expect_clear_error(lambda: cfrviz.load_game("file", path=str(path)))] += 1


@SETTINGS
@given(which=st.sampled_from(["high_low_bluff.json", "high_low_bluff.efg", "kuhn_poker.efg"]),
       cut=st.floats(0, 1), flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)),
                                          max_size=4))
def test_corrupted_bytes_give_clear_errors(tmp_path, which, cut, flips):
    data = bytearray((GAMES / which).read_bytes())
    for where, byte in flips:
        data[int(where * (len(data) - 1))] = byte
    data = data[: max(1, int(cut * len(data)))] if cut < 0.9 else data
    path = tmp_path / f"corrupt{Path(which).suffix}"
    path.write_bytes(bytes(data))
    kind = "game files truncated or with bytes flipped (.json and .efg)"
    TRIED[kind] += 1
    OUTCOMES[kind, _expect_clear_error(lambda: cfrviz.load_game("file", path=str(path)))] += 1


# ------------------------------------------------------------------------------ corrupted traces

CHILD = textwrap.dedent("""
    import sys, numpy as np, cfrviz, warnings
    warnings.simplefilter("ignore")
    kuhn = cfrviz.load_game("kuhn_poker")
    outcomes = []
    for path in sys.argv[1:]:
        print("case", path, flush=True)
        try:
            trace = cfrviz.load_trace(path, game=kuhn)
            cfrviz.solve(kuhn, trace.algorithm, int(trace.state["iteration"]) + 5,
                         resume=trace, progress=False, seed=trace.params["seed"],
                         **{k: v for k, v in trace.params.items()
                            if k not in ("seed", "iterations", "interrupted", "resumed_from")})
            outcomes.append("resumed")
        except (ValueError, FileNotFoundError) as error:
            assert str(error)
            outcomes.append("error")
    print("done", outcomes.count("error"), outcomes.count("resumed"), flush=True)
""")


def _doctor(arrays: dict, rng: np.random.Generator) -> str:
    """Change one member of a saved trace in a random way; returns what was done."""
    name = rng.choice(sorted(arrays))
    value = arrays[name]
    how = rng.integers(6)
    if how == 0:
        arrays[name] = value.reshape(-1)[: max(0, value.size - 1 - int(rng.integers(3)))]
    elif how == 1:
        arrays[name] = np.concatenate([value.reshape(-1), value.reshape(-1)])
    elif how == 2 and value.dtype.kind == "f" and value.size:
        flat = value.reshape(-1).copy()
        flat[rng.integers(value.size)] = rng.choice([np.nan, np.inf, -np.inf, 1e308])
        arrays[name] = flat.reshape(value.shape)
    elif how == 3:
        arrays[name] = value.astype(rng.choice(["int8", "float32", "complex128", "bool"]))
    elif how == 4:
        del arrays[name]
    else:
        arrays[name + "_extra" if rng.integers(2) else name] = rng.standard_normal(
            tuple(int(d) for d in rng.integers(1, 40, size=int(rng.integers(1, 4)))))
    return f"{name}:{how}"


def test_corrupted_traces_never_crash(tmp_path):
    kuhn = cfrviz.load_game("kuhn_poker")
    sources = [cfrviz.solve(kuhn, a, 30, seed=1) for a in ("cfr", "external_sampling", "dcfr")]
    rng = np.random.default_rng(2026)
    paths = []
    for case in range(CASES):
        source = sources[case % len(sources)]
        saved = cfrviz.save_trace(source, tmp_path / f"source{case % len(sources)}")
        with np.load(saved, allow_pickle=False) as archive:
            arrays = {k: archive[k] for k in archive.files}
        meta_only = [k for k in arrays if k != "cfrviz_meta"]
        doctored = {k: arrays[k] for k in meta_only}
        for _ in range(int(rng.integers(1, 3))):
            _doctor(doctored, rng)
        doctored["cfrviz_meta"] = arrays["cfrviz_meta"]
        path = tmp_path / f"doctored{case}.npz"
        np.savez_compressed(path, **doctored)
        paths.append(str(path))
    kind = ("saved traces with an array reshaped, retyped, poisoned, removed or added "
            "(loaded and resumed in a child process)")
    TRIED[kind] += len(paths)
    run = subprocess.run([sys.executable, "-c", CHILD, *paths], capture_output=True, text=True,
                         timeout=900)
    last = [line for line in run.stdout.splitlines() if line.startswith("case")][-1:]
    assert run.returncode == 0, (f"the child process died (exit {run.returncode}) at "
                                 f"{last}: {run.stderr[-2000:]}")
    done = run.stdout.strip().splitlines()[-1].split()
    assert done[0] == "done" and int(done[1]) + int(done[2]) == len(paths)
    OUTCOMES[kind, "error"] += int(done[1])
    OUTCOMES[kind, "resumed"] += int(done[2])


# ------------------------------------------------------------------------------ names that collide

SEPARATORS = st.sampled_from(["a", "b", "a/b", "b/a", "a/", "/", ":", "a:b", "\\", "a\\", "\\/"])


@st.composite
def labelled_trees(draw, depth: int = 0):
    """A random JSON game tree whose labels and node names are made of ``/``, ``\\``, ``:``,
    ``a`` and ``b``: the characters that could make two paths alike."""
    kind = draw(st.sampled_from(["terminal", "decision", "chance"] if depth < 3 else ["terminal"]))
    if kind == "terminal":
        return {"type": "terminal", "payoffs": [1, -1]}
    labels = draw(st.lists(SEPARATORS, min_size=2, max_size=4, unique=True))
    name = {"name": draw(SEPARATORS)} if draw(st.integers(0, 3)) == 0 else {}
    if kind == "chance":
        return {"type": "chance", **name, "outcomes": {
            label: {"probability": f"1/{len(labels)}", "node": draw(labelled_trees(depth + 1))}
            for label in labels}}
    return {"type": "decision", "player": 1, "infoset": None, **name,
            "actions": {label: draw(labelled_trees(depth + 1)) for label in labels}}


@SETTINGS
@given(root=labelled_trees())
def test_every_node_has_its_own_path(tmp_path, root):
    stack, count = [root], 0
    while stack:  # each decision its own set (perfect recall)
        node = stack.pop()
        if node["type"] == "decision":
            node["infoset"], count = f"set {count}", count + 1
        stack.extend(node.get("actions", {}).values())
        stack.extend(o["node"] for o in node.get("outcomes", {}).values())
    path = tmp_path / "paths.json"
    path.write_text(json.dumps({"root": root}))
    kind = "game files with '/', '\\' and ':' in labels and node names (paths distinct)"
    TRIED[kind] += 1
    game = cfrviz.load_game("file", path=str(path))
    assert len(set(game.history)) == game.num_nodes, "two nodes share a path"
    OUTCOMES[kind, "loaded"] += 1


def _efg(sets: list[tuple[int, int, str]]) -> str:
    """A Gambit file: chance deals one of ``len(sets)`` cards; each card leads to a decision
    at (player, set number, name), with two actions ending the game."""
    lines = ['EFG 2 R "collide" { "A" "B" }',
             'c "" 1 "" { ' + " ".join(f'"{i}" 1/{len(sets)}' for i in range(len(sets))) + " } 0"]
    declared: set = set()
    outcome = 0
    for player, number, name in sets:
        if (player, number) in declared:
            lines.append(f'p "" {player} {number} 0')
        else:
            declared.add((player, number))
            lines.append(f'p "" {player} {number} "{name}" {{ "l" "r" }} 0')
        for payoff in (1, -1):
            outcome += 1
            lines.append(f't "" {outcome} "o{outcome}" {{ {payoff} {-payoff} }}')
    return "\n".join(lines) + "\n"


@SETTINGS
@given(sets=st.lists(st.tuples(st.sampled_from([1, 2]), st.integers(1, 3),
                               st.sampled_from(["", "", "x", "P1.1", "P1.2", "P2.1", "P2.3"])),
                     min_size=1, max_size=6))
def test_efg_names_never_merge_sets(tmp_path, sets):
    path = tmp_path / "collide.efg"
    path.write_text(_efg(sets))
    kind = "Gambit files whose set names equal generated keys (P1.1) or repeat"
    TRIED[kind] += 1
    declared = {(player, number) for player, number, _ in sets}
    try:
        game = cfrviz.load_game("file", path=str(path))
    except ValueError as error:
        assert "merge into one set" in str(error) and "rename" in str(error)
        OUTCOMES[kind, "refused (names the two sets)"] += 1
        return
    assert game.num_infosets == len(declared), "two information sets were merged"
    OUTCOMES[kind, "loaded, every set distinct"] += 1


# ----------------------------------------------------------------------------------------- files

def _special(tmp_path: Path, kind: str, name: str) -> Path:
    """A path called ``name`` that is not a regular file: a FIFO, a device, a folder, or a
    symbolic link to one of those."""
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind.startswith("link to "):
        target = kind.removeprefix("link to ")
        if target == "fifo":
            os.mkfifo(tmp_path / "pipe")
            target = str(tmp_path / "pipe")
        path.symlink_to(target)
    elif name.endswith(".npz"):  # a device itself cannot be created here: use the system's
        return Path(kind)
    else:  # a game file's name must end in .json or .efg, so the device is reached by a link
        path.symlink_to(kind)
    return path


@pytest.fixture
def alarm():
    """Fail, rather than hang, when a load blocks (a FIFO opened for reading waits)."""
    def stop(*_):
        raise TimeoutError("a load blocked for 10 s")
    previous = signal.signal(signal.SIGALRM, stop)
    yield lambda: signal.alarm(10)
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@settings(SETTINGS, max_examples=max(10, CASES // 5))
@given(kind=st.sampled_from(["fifo", "folder", "/dev/zero", "/dev/null", "/dev/urandom",
                             "link to /dev/zero", "link to /dev/urandom", "link to fifo"]),
       loader=st.sampled_from(["game.json", "game.efg", "trace.npz"]))
def test_only_regular_files_are_read(tmp_path_factory, alarm, kind, loader):
    path = _special(tmp_path_factory.mktemp("special"), kind, loader)
    kind_tried = "FIFOs, devices, folders and links to them given as a game file or a trace"
    TRIED[kind_tried] += 1
    alarm()
    start = time.perf_counter()
    with pytest.raises(ValueError, match="not a regular file|is a folder"):
        if loader == "trace.npz":
            cfrviz.load_trace(path)
        else:
            cfrviz.load_game("file", path=str(path))
    # wall time: a read that blocks uses no CPU (the alarm above ends a blocked read), and a
    # read that blocks never returns at all
    assert time.perf_counter() - start < STOPPED
    OUTCOMES[kind_tried, "refused before reading"] += 1


@settings(SETTINGS, max_examples=max(5, CASES // 30))
@given(loader=st.sampled_from(["game.json", "game.efg", "trace.npz"]), extra=st.integers(1, 10**6))
def test_files_past_the_limit_are_refused_before_reading(tmp_path_factory, loader, extra):
    from cfrviz.games.files import MAX_FILE_BYTES as GAME_LIMIT
    from cfrviz.io import MAX_FILE_BYTES as TRACE_LIMIT
    path = tmp_path_factory.mktemp("large") / loader
    with open(path, "wb") as handle:  # sparse: no disk is used, reading it would take long
        handle.write(b"PK" if loader == "trace.npz" else b"{")
        handle.truncate((TRACE_LIMIT if loader == "trace.npz" else GAME_LIMIT) + extra)
    kind = "files one byte to a megabyte past the size limit (sparse)"
    TRIED[kind] += 1
    start = time.process_time()  # CPU time: reading the file would cost it, load does not
    with pytest.raises(ValueError, match=r"holds [\d,]+ bytes, more than the [\d,]+"):
        if loader == "trace.npz":
            cfrviz.load_trace(path)
        else:
            cfrviz.load_game("file", path=str(path))
    assert time.process_time() - start < 1
    OUTCOMES[kind, "refused before reading"] += 1


@settings(SETTINGS, max_examples=max(4, CASES // 40))
@given(members=st.integers(2, 40_000), twice=st.floats(0, 1))
@example(members=80_000, twice=0.5)
def test_archive_member_check_is_linear(tmp_path_factory, members, twice):
    """A trace archive with many members, one of them twice: refused in time linear in the
    number of members (it was quadratic: 80,000 took 116 s)."""
    path = tmp_path_factory.mktemp("members") / "many.npz"
    with zipfile.ZipFile(path, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the name written twice
        for i in range(members):
            archive.writestr(f"m{i}.npy", b"")
        archive.writestr(f"m{int(twice * (members - 1))}.npy", b"")
    kind = "trace archives with 2 to 80,000 members, one of them twice"
    TRIED[kind] += 1
    # CPU time, not wall time: the bound tells linear from quadratic (the quadratic check spent
    # 116 s on 80,000 members), and a busy machine stretches wall time (it failed at load 20)
    start = time.process_time()
    with pytest.raises(ValueError, match="more than once"):
        cfrviz.load_trace(path)
    assert time.process_time() - start < 1 + members * 2e-5  # 80,000: under 3 s of CPU
    OUTCOMES[kind, "refused"] += 1


@settings(SETTINGS, max_examples=max(10, CASES // 5))
@given(extra_bytes=st.integers(0, 6000), param_chars=st.integers(0, 6000),
       limits=st.tuples(st.integers(1000, 5000), st.integers(500, 5000)))
def test_every_saved_trace_loads(tmp_path_factory, monkeypatch, extra_bytes, param_chars,
                                 limits):
    """Save and load share their limits (made small here so they are reached): a trace either
    saves and then loads, or is refused by save_trace with a ValueError."""
    import cfrviz.io.fileformat as io  # where save and load read their limits
    meta_limit, extra_limit = limits
    monkeypatch.setattr(io, "MAX_META_BYTES", meta_limit)
    monkeypatch.setattr(io, "MIN_EXTRA_BYTES", extra_limit)
    trace = dataclasses.replace(
        KUHN_TRACE, params=dict(KUHN_TRACE.params, note="x" * param_chars),
        extras=dict(KUHN_TRACE.extras, data=np.zeros(extra_bytes // 8)))
    kind = "traces with metadata and extras arrays around the size limits (save, then load)"
    TRIED[kind] += 1
    path = tmp_path_factory.mktemp("limits") / "trace.npz"
    try:
        cfrviz.save_trace(trace, path)
    except ValueError as error:
        assert "load_trace reads" in str(error)
        assert not path.exists()
        OUTCOMES[kind, "refused by save"] += 1
        return
    loaded = cfrviz.load_trace(path, game=trace.game)
    assert loaded.params["note"] == trace.params["note"]
    OUTCOMES[kind, "saved and loaded"] += 1


KUHN_TRACE = cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr", 5, checkpoints=[5],
                          progress=False)


# ------------------------------------------------------------------------------------- arguments

KUHN = cfrviz.load_game("kuhn_poker")


@SETTINGS
@given(points=st.lists(st.integers(1, 12), max_size=6),
       wrap=st.sampled_from(["list", "tuple", "iterator", "generator", "set", "array", "map"]))
def test_checkpoints_of_any_iterable_are_read_once(points, wrap):
    given_points = {"list": list, "tuple": tuple, "iterator": iter, "set": set,
                    "generator": lambda p: (x for x in p), "array": np.array,
                    "map": lambda p: map(int, p)}[wrap](points)
    kind = "checkpoints as lists, tuples, sets, arrays, iterators, generators, map objects"
    TRIED[kind] += 1
    trace = cfrviz.solve(KUHN, "cfr", 12, checkpoints=given_points, progress=False)
    expected = sorted(set(points) | {12}) if points else [12]
    assert trace.iterations.tolist() == expected
    OUTCOMES[kind, "recorded as given"] += 1


@settings(SETTINGS, max_examples=max(10, CASES // 5))
@given(first=st.integers(0, 2**63 - 1), second=st.integers(0, 2**63 - 1),
       same=st.booleans(), algorithm=st.sampled_from(["external_sampling", "outcome_sampling",
                                                      "cfr"]))
def test_resume_with_another_seed_is_refused(first, second, same, algorithm):
    second = first if same else second
    kind = "resumes with the trace's seed or another one"
    TRIED[kind] += 1
    start = cfrviz.solve(KUHN, algorithm, 3, seed=first, progress=False)
    try:
        resumed = cfrviz.solve(KUHN, algorithm, 6, seed=second, resume=start, progress=False)
    except ValueError as error:
        assert first != second
        assert f"seeded with {first}" in str(error) and f"seed={second}" in str(error)
        OUTCOMES[kind, "another seed: refused, naming both"] += 1
        return
    assert first == second
    whole = cfrviz.solve(KUHN, algorithm, 6, seed=first, progress=False)
    np.testing.assert_array_equal(resumed.cumulative_regret[-1], whole.cumulative_regret[-1])
    OUTCOMES[kind, "same seed: resumed, equal to one run"] += 1


NOT_A_NUMBER_HERE = st.one_of(
    st.integers(min_value=2**63), st.integers(max_value=-(2**63)),
    st.sampled_from([10**400, -10**400, 2**64, 1.5, -0.5, float("nan"), float("inf"), True,
                     False, np.bool_(True), np.float64(2.0), "3", None, 1e300, -1]),
    st.fractions(), st.decimals(allow_nan=True))


def _number_arguments():
    """(name, call) for public arguments that take a whole number or a number."""
    from cfrviz.analysis.sampling import first_iteration_regrets, sampled_walks
    from cfrviz.analysis.scaling import seconds_per_iteration, solver_bytes
    from cfrviz.play.match import head_to_head
    uniform = cfrviz.Policy.uniform(KUHN)
    return [
        ("iterations", lambda v: cfrviz.solve(KUHN, "cfr", v, progress=False)),
        ("seed", lambda v: cfrviz.solve(KUHN, "cfr", 2, seed=v, progress=False)),
        ("alpha", lambda v: cfrviz.solve(KUHN, "dcfr", 2, alpha=v, progress=False)),
        ("checkpoints", lambda v: cfrviz.solve(KUHN, "cfr", 2, checkpoints=[v])),
        ("hands", lambda v: head_to_head(KUHN, uniform, uniform, hands=v)),
        ("runs", lambda v: first_iteration_regrets(KUHN, runs=v)),
        ("iterations", lambda v: sampled_walks(KUHN, "external_sampling", v)),
        ("tables", lambda v: solver_bytes(KUHN, v)),
        ("repeats", lambda v: seconds_per_iteration(KUHN, repeats=v)),
    ]


@SETTINGS
@given(value=NOT_A_NUMBER_HERE, which=st.integers(0, 8))
def test_a_bad_number_is_named_whatever_its_size(value, which):
    name, call = _number_arguments()[which]
    kind = "bad numbers of any size (10**400, 2**63, NaN, 1.5, True, Fractions, Decimals)"
    TRIED[kind] += 1
    if name == "alpha" and isinstance(value, (int, float)) and not isinstance(value, bool) \
            and 0 <= value <= 100:
        return  # a valid alpha
    with pytest.raises(ValueError) as error:
        call(value)
    assert name in str(error.value), str(error.value)
    OUTCOMES[kind, "refused, naming the argument"] += 1


WIDGETS = {}


def _widgets():
    if not WIDGETS:
        from cfrviz.widgets.equilibrium import KuhnEquilibriumView
        trace = cfrviz.solve(KUHN, "cfr", 10, progress=False)
        WIDGETS.update(explorer=TrainingExplorer(KUHN, iterations=10),
                       best=BestResponseExplorer(KUHN, player=0),
                       equilibrium=KuhnEquilibriumView(trace))
    return WIDGETS


@settings(SETTINGS, max_examples=max(10, CASES // 3))
@given(value=st.one_of(st.floats(), st.booleans(), st.sampled_from([np.bool_(True),
                                                                      np.float64(1.0)]),
                       st.fractions(), st.integers(min_value=12), st.integers(max_value=-1)),
       method=st.sampled_from(["select", "show_iteration", "equilibrium.show_iteration",
                               "set_history_figure", "infoset_snapshot", "InfosetPicker"]))
def test_widget_indices_are_whole_numbers(value, method):
    widgets = _widgets()
    kind = ("floats, bools, Fractions and out-of-range numbers as information-set ids and "
            "iterations (widget methods, figures, snapshots)")
    TRIED[kind] += 1
    if method in ("set_history_figure", "infoset_snapshot", "InfosetPicker"):
        from cfrviz.analysis.explain import infoset_snapshot
        from cfrviz.widgets.infoset import InfosetPicker
        trace = widgets["equilibrium"].traces[0]
        call = {"set_history_figure": lambda: set_history_figure(trace, value),
                "infoset_snapshot": lambda: infoset_snapshot(trace, 0, value),
                "InfosetPicker": lambda: InfosetPicker(KUHN, infoset=value)}[method]
        with pytest.raises(ValueError, match=r"infoset must be an information set's key or id"):
            call()
    elif method == "select":
        explorer = widgets["explorer"]
        before = explorer.picker.value
        explorer.select(value)
        assert explorer.last_error is not None and "infoset" in explorer.last_error
        assert explorer.picker.value == before
    else:
        owner = widgets["explorer" if method == "show_iteration" else "equilibrium"]
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            owner.show_iteration(value)  # any iteration: the closest stop is shown
            OUTCOMES[kind, "whole iterations: shown"] += 1
            return
        with pytest.raises(ValueError, match="iteration must be a whole number"):
            owner.show_iteration(value)
    OUTCOMES[kind, "refused, naming the argument"] += 1


@SETTINGS
@given(weights=st.dictionaries(st.one_of(st.sampled_from(["p", "b"]), st.text(max_size=3)),
                               st.floats(0.1, 1), min_size=1, max_size=3))
def test_unknown_actions_in_a_strategy_are_refused(weights):
    best = _widgets()["best"]
    kind = "strategies naming random actions (best-response explorer, Policy.from_dict)"
    TRIED[kind] += 1
    actions = KUHN.infoset_actions[0]
    unknown = [a for a in weights if a not in actions]
    best.last_error = None
    best.set_strategy(KUHN.infoset_keys[0], weights)
    try:
        cfrviz.Policy.from_dict(KUHN, {KUHN.infoset_keys[0]: weights})
        refused = False
    except ValueError as error:
        refused = True
        if unknown:
            assert repr(unknown[0]) in str(error)
    if unknown:
        assert best.last_error is not None and repr(unknown[0]) in best.last_error
        assert refused
        OUTCOMES[kind, "unknown action: refused, naming it"] += 1
    else:
        OUTCOMES[kind, "known actions only: used"] += 1


@settings(SETTINGS, max_examples=max(10, CASES // 5))
@given(names=st.lists(st.sampled_from([1, "1", 1.0, True, "a", "a ", " a", "", None, "b", "c",
                                       "cfr"]),
                      min_size=2, max_size=4, unique_by=lambda x: (type(x), x)))
@example(names=["cfr", "a", "b"])
def test_policies_sharing_a_name_lose_no_result(names):
    policies = {}
    for name in names:
        policies.setdefault(name, cfrviz.Policy.uniform(KUHN))
    assume(len(policies) >= 2)  # 1, 1.0 and True are one dict key before cfrviz sees them
    kind = "round robins whose policy names collide (1 and '1', 'a' and 'a ')"
    TRIED[kind] += 1
    shown = [str(name) for name in policies]
    try:  # the bar chart of winnings against each bot: one bar per name
        bars = exploitation_figure(shown, [0.0] * len(shown), [0.0] * len(shown))
        assert len(set(shown)) == len(shown) and len(bars.data[0].x) == len(shown)
    except ValueError as error:
        assert len(set(shown)) < len(shown) and "both named" in str(error)
    try:
        table = cfrviz.round_robin(KUHN, policies, hands=2)
    except ValueError as error:
        assert "name" in str(error)
        OUTCOMES[kind, "refused, naming the two"] += 1
        return
    assert len(table.results) == len(policies)
    assert all(len(row) == len(policies) - 1 for row in table.results.values())
    OUTCOMES[kind, "played, every result kept"] += 1


def _factories():
    tree = KUHN
    return st.sampled_from([
        ("returns a list", lambda: [1, 2]), ("returns None", lambda: None),
        ("returns a string", lambda: "kuhn_poker"), ("returns a game", lambda: tree),
        ("takes **kwargs", lambda **kwargs: tree),  # noqa: ARG005
        ("takes *args", lambda *args: tree),  # noqa: ARG005
        ("is not callable", 3), ("returns a policy", lambda: cfrviz.Policy.uniform(tree))])


@settings(SETTINGS, max_examples=max(10, CASES // 5))
@given(factory=_factories(), aliases=st.one_of(
    st.sampled_from(["toy", "ab", ""]), st.lists(st.text("abc", max_size=3), max_size=2).map(tuple),
    st.sampled_from([("toy",), ("toy",), (), (), ["toy2"], (3,), None])))
@example(factory=("returns a game", lambda: KUHN), aliases=("toy",))
def test_registry_entries_are_checked(factory, aliases):
    from cfrviz.games import GAMES, Game, register_game
    kind = "games registered with aliases as one string, bad factories, **kwargs"
    TRIED[kind] += 1
    what, function = factory
    name = "toy_game_under_test"
    try:
        register_game(Game(name, function, "a toy", aliases))
    except ValueError as error:
        assert str(error)
        assert GAMES.resolve(name) is None
        OUTCOMES[kind, "refused at registration"] += 1
        return
    try:
        assert isinstance(aliases, (tuple, list)) and all(a.strip() for a in aliases)
        assert all(GAMES.resolve(letter) is None for letter in "abc"), "letters as aliases"
        try:
            game = cfrviz.load_game(name)
        except ValueError as error:
            assert what != "returns a game" and "not a game" in str(error)
            OUTCOMES[kind, "refused when loaded"] += 1
            return
        assert what == "returns a game" and game is KUHN
        OUTCOMES[kind, "registered and loaded"] += 1
    finally:
        GAMES.unregister(name)


# ---------------------------------------------------------------------------------------- traces

def _rewrite(path: Path, change) -> None:
    """Rewrite a saved trace after ``change(members, meta)`` (members by name, meta as JSON)."""
    with np.load(path, allow_pickle=False) as archive:
        members = {k: archive[k] for k in archive.files}
    meta = json.loads(members["cfrviz_meta"].tobytes())
    change(members, meta)
    members["cfrviz_meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez_compressed(path, **members)


SOURCES = {}


def _source(which: str):
    if which not in SOURCES:
        SOURCES[which] = (
            cfrviz.solve(KUHN, "external_sampling", 12, seed=4, progress=False)
            if which == "kuhn" else
            cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "regret_matching", 12, seed=4,
                         update="sampled", progress=False))
    return SOURCES[which]


@settings(SETTINGS, max_examples=max(10, CASES // 5))
@given(which=st.sampled_from(["kuhn", "rps"]), keep=st.integers(0, 12))
def test_a_trace_with_no_record_is_refused_on_load(tmp_path_factory, which, keep):
    trace = _source(which)
    path = cfrviz.save_trace(trace, tmp_path_factory.mktemp("records") / "t.npz")
    timing = {name for name, _ in TIMING_EXTRAS}

    def cut(members, meta):
        arrays = [f"trace.{spec.name}" for spec in RECORD_ARRAYS]
        arrays += [e["array"] for e in meta["extras"] if e["key"] in timing and "array" in e]
        for name in arrays:
            members[name] = members[name][:keep]
    _rewrite(path, cut)
    kind = "saved traces cut to 0..12 records"
    TRIED[kind] += 1
    if keep == 0:
        with pytest.raises(ValueError, match="'iterations' is empty: a trace holds at least one"):
            cfrviz.load_trace(path)
        OUTCOMES[kind, "no record: refused on load"] += 1
    else:
        assert len(cfrviz.load_trace(path)) == min(keep, len(trace))
        OUTCOMES[kind, "loaded"] += 1


ANY_VALUE = st.one_of(st.integers(), st.sampled_from([2**62 + 1, 2**63, 2**64, 10**400, -1,
                                                      -(2**63)]),
                      st.floats(allow_nan=False), st.booleans(), st.none(), st.text(max_size=4),
                      st.lists(st.integers(0, 3), max_size=2))


@SETTINGS
@given(which=st.sampled_from(["kuhn", "rps"]),
       field=st.sampled_from(["iteration", "nodes_touched", "elapsed", "generator.bit_generator",
                              "generator.state.state", "generator.state.inc",
                              "generator.has_uint32", "generator.uinteger", "generator.extra",
                              "generator.state"]),
       value=ANY_VALUE)
def test_doctored_state_values_are_caught_on_load(tmp_path_factory, which, field, value):
    trace = _source(which)
    if field.startswith("generator") and which == "kuhn":
        field = "generator"  # Kuhn's sampler keeps a SplitMix64 word: add a generator
    path = cfrviz.save_trace(trace, tmp_path_factory.mktemp("state") / "t.npz")

    def doctor(_members, meta):
        entries = {e["key"]: e for e in meta["state"]}
        *where, last = field.split(".")
        if where:
            place = entries[where[0]]["value"] if where[0] in entries else None
            if place is None:
                entries.setdefault("generator", {"key": "generator", "value": {}})
                place = entries["generator"]["value"]
            for key in where[1:]:
                place = place.setdefault(key, {}) if isinstance(place, dict) else place
            if isinstance(place, dict):
                place[last] = value
        elif field in entries:
            entries[field]["value"] = value
        else:
            entries[field] = {"key": field, "value": value}
        meta["state"] = list(entries.values())
    try:
        _rewrite(path, doctor)
    except (ValueError, OverflowError):
        return  # json cannot write it (an int of more than 4300 digits): no such file exists
    kind = "saved traces with a state counter or the random generator's state doctored"
    TRIED[kind] += 1
    try:
        loaded = cfrviz.load_trace(path)
    except ValueError as error:
        assert "solver state" in str(error) or "metadata" in str(error), str(error)
        OUTCOMES[kind, "refused on load, naming the field"] += 1
        return
    # What loads is a valid state: resuming it runs, or says clearly why not.
    try:
        cfrviz.solve(loaded.game, loaded.algorithm, int(loaded.state["iteration"]) + 3,
                     seed=4, resume=loaded, progress=False,
                     **{k: v for k, v in loaded.params.items()
                        if k not in ("seed", "iterations", "interrupted", "resumed_from")})
        OUTCOMES[kind, "still valid: loaded and resumed"] += 1
    except ValueError as error:
        assert "iteration" in str(error)  # a count so large no more iterations can be asked
        OUTCOMES[kind, "loaded; resume refused clearly"] += 1


# ---------------------------------------------------------------------------- the exact LP, scale

def _scaled(node, factor: float):
    """A copy of a JSON game tree with every payoff multiplied by ``factor``."""
    if node["type"] == "terminal":
        return {**node, "payoffs": [p * factor for p in node["payoffs"]]}
    if node["type"] == "chance":
        return {**node, "outcomes": {k: {**o, "node": _scaled(o["node"], factor)}
                                     for k, o in node["outcomes"].items()}}
    return {**node, "actions": {k: _scaled(c, factor) for k, c in node["actions"].items()}}


@settings(SETTINGS, max_examples=max(10, CASES // 3))
@given(root=game_trees(), exponent=st.integers(-12, 15), mantissa=st.sampled_from([1, 3, 7.5]))
@example(root={"type": "decision", "player": 1, "infoset": None, "actions": {
    "a": {"type": "decision", "player": 2, "infoset": None,
          "actions": {"x": {"type": "terminal", "payoffs": [3, -3]},
                      "y": {"type": "terminal", "payoffs": [-1, 1]}}},
    "b": {"type": "decision", "player": 2, "infoset": None,
          "actions": {"x": {"type": "terminal", "payoffs": [-2, 2]},
                      "y": {"type": "terminal", "payoffs": [1, -1]}}}}},
         exponent=-9, mantissa=1)
def test_exact_equilibrium_of_scaled_payoffs(tmp_path_factory, root, exponent, mantissa):
    """The LP's value and policy do not depend on the payoffs' scale, from 1e-12 to 7.5e15."""
    folder = tmp_path_factory.mktemp("scaled")
    name_infosets(root)
    if root["type"] == "decision" and "x" in str(root):  # the example: player 2 sees nothing
        for child in root["actions"].values():
            child["infoset"] = "p2"
    factor = mantissa * 10.0 ** exponent
    games = []
    for tag, tree in (("one", root), ("scaled", _scaled(root, factor))):
        path = folder / f"{tag}.json"
        path.write_text(json.dumps({"root": tree}))
        games.append(cfrviz.load_game("file", path=str(path)))
    one, scaled = games
    kind = "random game trees with payoffs scaled by 1e-12 to 7.5e15 (exact LP)"
    TRIED[kind] += 1
    if one.num_infosets == 0:
        OUTCOMES[kind, "no decision: nothing to solve"] += 1
        return
    base, eq = cfrviz.exact_equilibrium(one), cfrviz.exact_equilibrium(scaled)
    size = max(1.0, float(np.abs(one.utility).max()))
    assert abs(eq.value / factor - base.value) <= 1e-7 * size
    assert cfrviz.exploitability(one, cfrviz.Policy(one, eq.policy.probabilities)) <= 1e-6 * size
    OUTCOMES[kind, "same equilibrium as at scale 1"] += 1


@pytest.mark.parametrize("factor", [1e-12, 1e-9, 1e-3, 1e3, 1e9, 1e15, 1e18])
def test_known_equilibria_at_any_scale(factor):
    """Kuhn poker (-1/18) and a 2x2 game (1/7, row plays 3/7) with payoffs scaled."""
    kuhn = cfrviz.load_game("kuhn_poker")
    scaled = dataclasses.replace(kuhn, utility=kuhn.utility * factor)  # a fresh memo
    assert abs(cfrviz.exact_equilibrium(scaled).value / factor + 1 / 18) < 1e-9
    game = MatrixGame("m", np.array([[3.0, -1.0], [-2.0, 1.0]]) * factor, ("a", "b"), ("x", "y"))
    eq = cfrviz.exact_equilibrium(game)
    assert abs(eq.value / factor - 1 / 7) < 1e-9
    np.testing.assert_allclose(eq.policy.probabilities[0, :2], [3 / 7, 4 / 7], atol=1e-9)


# ----------------------------------------------------------------------------------- environment

def _add(a, b):
    return a + b


@settings(SETTINGS, max_examples=max(6, CASES // 20))
@given(code=st.sampled_from([errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EROFS,
                             errno.EACCES]),
       where=st.sampled_from(["data", "folder"]), a=st.integers(-100, 100))
def test_a_cache_that_cannot_take_compiled_code_falls_back(code, where, a):
    """numba saving a kernel into a full (or failing) cache folder: the call still returns, the
    kernel runs uncached and CACHE_PROBLEM says why (a read-only folder already fell back)."""
    from cfrviz.engine import jit
    kind = "numba cache saves failing with ENOSPC, EDQUOT, EIO, EFBIG, EROFS, EACCES"
    TRIED[kind] += 1
    before = jit.CACHE_PROBLEM
    jit.CACHE_PROBLEM = None
    try:
        dispatcher = jit.kernel(_add)
        cache = dispatcher._cache
        cache.load_overload = lambda *_args, **_kw: None  # compile, then save

        def fail(*_args, **_kw):
            raise OSError(code, os.strerror(code))
        if where == "data":
            cache._cache_file.save = fail
        else:
            cache._impl.locator.ensure_cache_path = fail
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert dispatcher(a, 2) == a + 2
        assert jit.CACHE_PROBLEM is not None and os.strerror(code) in jit.CACHE_PROBLEM
        assert any("NUMBA_CACHE_DIR" in str(w.message) for w in caught)
        assert dispatcher(a, 3) == a + 3  # later calls too
    finally:
        jit.CACHE_PROBLEM = before
    OUTCOMES[kind, "ran uncached, with a warning"] += 1


@SETTINGS
@given(surrogate=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
       where=st.sampled_from(["infoset", "label", "node name", "game name", "description"]),
       at=st.integers(0, 3))
def test_a_lone_surrogate_is_refused_on_load(tmp_path_factory, surrogate, where, at):
    def put(text):
        return text[:at] + surrogate + text[at:]
    leaf = {"type": "terminal", "payoffs": [1, -1]}
    node = {"type": "decision", "player": 1, "infoset": "Kb", "name": "bet",
            "actions": {"call": leaf, "fold": leaf}}
    spec = {"name": "game", "description": "text", "root": node}
    if where == "infoset":
        node["infoset"] = put("Kb")
    elif where == "label":
        node["actions"] = {put("call"): leaf, "fold": leaf}
    elif where == "node name":
        node["name"] = put("bet")
    else:
        field = "name" if where == "game name" else "description"
        spec[field] = put(spec[field])
    path = tmp_path_factory.mktemp("surrogate") / "g.json"
    path.write_text(json.dumps(spec))  # ensure_ascii: the surrogate as a \\u escape
    kind = "game files with a lone surrogate in a key, label, name or description"
    TRIED[kind] += 1
    with pytest.raises(ValueError, match="lone surrogate") as error:
        cfrviz.load_game("file", path=str(path))
    assert repr(surrogate)[1:-1] in str(error.value)  # the string is named, escaped
    str(error.value).encode("utf-8")  # the message itself is text a widget can send
    OUTCOMES[kind, "refused, naming the string"] += 1


@settings(SETTINGS, max_examples=max(10, CASES // 5))
@given(length=st.integers(1, 300_000), alphabet=st.integers(1, 60))
def test_deep_cfr_refuses_keys_too_long_to_encode(tmp_path_factory, length, alphabet):
    from cfrviz.solvers.deep_cfr import MAX_FEATURE_BYTES, MAX_INPUTS, infoset_features
    letters = "".join(chr(ord("A") + i) for i in range(alphabet))
    key = (letters * (length // alphabet + 1))[:length]
    leaf = {"type": "terminal", "payoffs": [1, -1]}
    spec = {"root": {"type": "decision", "player": 1, "infoset": key,
                     "actions": {"a": leaf, "b": {"type": "terminal", "payoffs": [-1, 1]}}}}
    path = tmp_path_factory.mktemp("long") / "g.json"
    path.write_text(json.dumps(spec))
    game = cfrviz.load_game("file", path=str(path))
    kind = "Deep CFR on keys of 1 to 300,000 characters over 1 to 60 letters"
    TRIED[kind] += 1
    inputs = min(length, len(key)) * len(set(key))
    start = time.process_time()  # CPU time, which allocating would cost; a busy machine not
    if inputs > MAX_INPUTS or 8 * inputs > MAX_FEATURE_BYTES:
        with pytest.raises(ValueError, match=r"network inputs .* at most 20,000 inputs"):
            cfrviz.solve(game, "deep_cfr", 1, progress=False)
        assert time.process_time() - start < 1  # refused before anything is allocated
        OUTCOMES[kind, "refused before allocating, naming the key"] += 1
    else:
        encoding, features = infoset_features(game)
        assert features.shape == (1, inputs)
        OUTCOMES[kind, "encoded"] += 1


# ------------------------------------------------------------- injection through plotly templates

#: Pieces of hostile text: plotly templates that read trace data or ``meta``, markup plotly.js
#: draws (a link, an image, a script), a MathJax formula with a link, and references.
HOSTILE = ["%{meta}", "%{meta.keys[0]}", "%{data[0].meta.keys[0]}", "%{data[1].meta}",
           "%{customdata}", "%{customdata[0]}", "%{text}", "%{hovertext}", "%{fullData.meta}",
           "%{data.name}", "%{x}", "%{label}", '<a href="https://evil.example/">win</a>',
           "<a href=javascript:alert(1)>x</a>", "<img src=x onerror=alert(1)>",
           "<script>alert(1)</script>", "$\\href{javascript:alert(1)}{win}$", "&lt;a href=x&gt;",
           "<iframe src=x>", "%{y:.2f}", "%{", "}", "$"]
hostile_text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text("aK &<>%{}$[]:.", max_size=5)),
                        min_size=1, max_size=3).map("".join)
#: Markup a game must never get plotly to draw, and a formula it must never get MathJax to set.
LIVE_MARKUP = re.compile(r"<\s*/?\s*(a|img|script|iframe)\b|\$\\href", re.IGNORECASE)
#: A plotly template reference, as plotly.js finds it (``Lib.templateString``/``hovertemplate``).
TEMPLATE = re.compile(r"%{([^\s%{}:|]*)[^}]*}")


def _leaves(value):
    """Every string inside a plotly JSON value."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, np.ndarray) and item.dtype.kind in "OU":
            stack.extend(item.ravel().tolist())


def _expanded(text: str, scope: dict) -> str:
    """``text`` with every ``%{...}`` replaced by all the strings plotly could put there.

    An over-approximation of plotly.js: a reference to ``customdata[0]`` may give any string
    in ``customdata``; ``data``/``fullData`` (the trace itself in a trace, every trace's
    ``meta`` in the layout) likewise.
    """
    def every(match):
        root = re.split(r"[.\[]", match.group(1), maxsplit=1)[0]
        return " ".join(_leaves(scope.get(root)))
    return TEMPLATE.sub(every, text)


def rendered_templates(fig) -> list[str]:
    """Every string of ``fig`` as plotly.js could draw it, each taken as a template.

    Every string counts as a template (names, titles, annotations, hover and text
    templates are; treating the rest as well costs nothing), read against its trace's data
    and ``meta`` or, in the layout, against the layout's and every trace's ``meta``.
    """
    data = fig.to_plotly_json()
    traces = data.get("data", [])
    metas = [{"meta": t.get("meta")} for t in traces]
    out = []
    for trace in traces:
        scope = dict(trace, data=trace, fullData=trace)
        out += [_expanded(text, scope) for text in _leaves(trace)]
    layout = data.get("layout", {})
    scope = {"meta": layout.get("meta"), "data": metas}
    out += [_expanded(text, scope) for text in _leaves(layout)]
    return out


def _hostile_game(tmp_path: Path, texts: list[str], named: bool) -> Path:
    """High-low bluff with ``texts`` in every string a game file controls: the file name (the
    game's name when the file gives none), name, description, node names, chance and action
    labels (without ``/``, which joins a path) and information-set keys."""
    t = iter(texts)
    label = lambda prefix: prefix + next(t).replace("/", "|")  # noqa: E731

    def terminal(payoff):
        return {"type": "terminal", "payoffs": [payoff, -payoff]}

    def holding(card, win):
        faced = {"type": "decision", "player": 2, "infoset": f"{card}2:" + next(t),
                 "name": next(t), "actions": {label("f"): terminal(1),
                                              label("c"): terminal(2 * win)}}
        return {"type": "decision", "player": 1, "infoset": f"{card}1:" + next(t), "name": next(t),
                "actions": {label("c"): terminal(win), label("b"): faced}}

    spec = {"description": next(t),
            "root": {"type": "chance", "name": next(t), "outcomes": {
                label("H"): {"probability": "1/2", "node": holding("H", 1)},
                label("L"): {"probability": "1/2", "node": holding("L", -1)}}}}
    if named:
        spec["name"] = next(t)
    # "g" first: an empty text would leave ".json", a dotfile with no suffix (Path.suffix "").
    path = tmp_path / ("g" + next(t).replace("/", "|").replace("\0", "")[:120] + ".json")
    path.write_text(json.dumps(spec))
    return path


def _figures(game, trace):
    """Every figure cfrviz draws of a game and a run on it, widgets' figures included."""
    keys, name = game.infoset_keys, game.name
    yield plot_tree(game)
    yield plot_tree(game, trace.average_policy(), best_response=1, selected_infoset=keys[1])
    yield plot_tree(game, subtree=game.chance_labels[0][0])
    yield plot_tree(game, subtree=game.history[3])
    yield plot_tree(game, depth=1)
    yield cost_curve_figure(trace)
    for info in range(game.num_infosets):
        yield set_history_figure(trace, info)
    yield comparison_figure([trace], labels=[name])
    yield comparison_figure([trace])
    yield counterfactual_values_figure(game.infoset_actions[0], [0.1, -0.1])
    yield regret_estimates_figure(keys, np.zeros(len(keys)), np.ones(len(keys)),
                                  np.ones(len(keys)), 10)
    yield exploitation_figure(list(keys[:2]), [0.1, 0.2], [0.3, 0.4], labels=(name, keys[0]))
    yield iteration_weights_figure({name: [1.0, 0.5]}, title=None)
    size = game_size(game)
    yield game_sizes_figure([size])
    yield scaling_figure(ScalingTable(rows=(ScalingRow(size, 1e-5, 1024, 2048),),
                                      algorithm="cfr"))
    yield exact_convergence_figure([trace], [np.zeros(len(trace.iterations))], 0.0,
                                   labels=[name])
    explorer = TrainingExplorer(game, iterations=10)
    for info in range(game.num_infosets):
        explorer.select(info)
        yield from _widget_figures(explorer)
    best = BestResponseExplorer(game, player=1)
    yield from _widget_figures(best)
    assert explorer.last_error is None and best.last_error is None


def _widget_figures(widget):
    stack = [widget]
    while stack:
        w = stack.pop()
        if isinstance(w, (go.Figure, go.FigureWidget)):
            yield w
        elif isinstance(w, W.Widget):
            stack.extend(getattr(w, "children", ()) or ())


@settings(SETTINGS, max_examples=max(5, CASES // 10))
@given(texts=st.lists(hostile_text, min_size=22, max_size=22), named=st.booleans())
def test_game_strings_never_become_plotly_markup(tmp_path_factory, texts, named):
    path = _hostile_game(tmp_path_factory.mktemp("hostile"), texts, named)
    game = cfrviz.load_game("file", path=str(path))
    trace = cfrviz.solve(game, "cfr", 10, progress=False)
    kind = "hostile strings (templates, links, formulas) in every string of a game file"
    TRIED[kind] += 1
    figures = 0
    for fig in _figures(game, trace):
        figures += 1
        for text in rendered_templates(fig):
            found = LIVE_MARKUP.search(text)
            assert found is None, f"a game string became markup: ...{text[:200]}..."
    labels = tuple(f"{i}{text}" for i, text in enumerate(texts[:3]))
    matrix = MatrixGame(texts[3], RPS_PAYOFFS, labels, labels)
    run = cfrviz.solve(matrix, "regret_matching", 20)
    for fig in (simplex_figure(run), history_figure(run)):
        figures += 1
        for text in rendered_templates(fig):
            assert LIVE_MARKUP.search(text) is None, f"a game string became markup: {text[:200]}"
    assert figures > 20
    OUTCOMES[kind, "drawn as text"] += 1


def test_the_template_check_catches_a_title_reading_meta():
    """The check above fails on the injection it is there for (a title reading ``meta``)."""
    fig = go.Figure(go.Scatter(x=[1], y=[1], meta={"keys": ["<a href=x>win</a>"]}))
    fig.update_layout(title_text="%{data[0].meta.keys[0]}")
    assert any(LIVE_MARKUP.search(text) for text in rendered_templates(fig))
    fig = go.Figure(go.Scatter(x=[1], y=[1], customdata=["<img src=x>"],
                               hovertemplate="%{customdata}"))
    assert any(LIVE_MARKUP.search(text) for text in rendered_templates(fig))


@pytest.fixture(scope="module", autouse=True)
def summary():
    yield
    if TRIED:
        print("\nbad-input suite, inputs tried:")
        for kind, count in TRIED.items():
            ends = ", ".join(f"{n} {how}" for (k, how), n in sorted(OUTCOMES.items()) if k == kind)
            print(f"  {count:5d}  {kind}" + (f" ({ends})" if ends else ""))
