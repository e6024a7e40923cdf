"""Property-based bad-input suite: random valid games load and solve; corruptions of valid game
files and saved traces give a ValueError (or FileNotFoundError), never another exception or a crash.

Corrupted traces are resumed, which runs compiled code, so those cases run in a child process: a
crash there fails the test with the case that caused it instead of taking pytest down.

``python -m pytest tests/test_bad_inputs.py -s`` prints how many inputs of each kind were tried
(the figures in README's table come from that run).
"""

import json
import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cfrviz

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
                         resume=trace, progress=False, **{k: v for k, v in trace.params.items()
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


@pytest.fixture(scope="module", autouse=True)
def summary():
    yield
    if TRIED:
        print("\nbad-input suite, inputs tried:")
        for kind, count in TRIED.items():
            ends = ", ".join(f"{n} {how}" for (k, how), n in sorted(OUTCOMES.items()) if k == kind)
            print(f"  {count:5d}  {kind}" + (f" ({ends})" if ends else ""))
