"""The shared training loop: progress, chunks, the solver state and recorder, and the guards
(non-finite values, bounded traces, a resume checked before compiled code).  What every
algorithm's run keeps (Ctrl-C, resume bit for bit, checkpoints, seeds, bad arguments) is
tests/test_contract.py's."""

import dataclasses
import json

import numpy as np
import pytest

import cfrviz
from cfrviz import engine
from cfrviz.core.trace import (
    DEFAULT_TRACE_BYTES,
    MAX_TRACE_BYTES,
    RECORD_ARRAYS,
    Recorder,
    SolverState,
    Trace,
    record_nbytes,
)
from cfrviz.core.tree import build_tree
from cfrviz.solvers import driver


def test_progress_bar_on_request(kuhn, capsys):
    cfrviz.solve(kuhn, "cfr", 2000, checkpoints=[], progress=True)
    assert "cfr on kuhn_poker" in capsys.readouterr().err
    cfrviz.solve(kuhn, "cfr", 2000, checkpoints=[], progress=False)
    cfrviz.solve(kuhn, "cfr", 2000, checkpoints=[])  # short: the default stays quiet
    assert capsys.readouterr().err == ""


def test_compilation_is_not_counted_as_solving_time(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 10, checkpoints=[1, 10])
    assert trace.extras["elapsed"][0] < 0.05  # a compile would take seconds


def test_chunks_follow_the_time_budget(kuhn, monkeypatch):
    sizes = []
    original = engine.run_full_tree

    def spy(*args):
        sizes.append(args[3] - args[2] + 1)  # (arrays, tables, first, last, rule)
        return original(*args)

    monkeypatch.setattr(engine, "run_full_tree", spy)
    cfrviz.solve(kuhn, "cfr", 50_000, checkpoints=[])
    assert sizes[0] == 0 and sizes[1] == 1  # warm-up, then one timed iteration
    assert max(sizes) > 1000 and sum(sizes) == 50_000


# --- the solver state and the recorder ---------------------------------------------------

@pytest.mark.parametrize("field, value, message", [
    ("regret_sum", np.zeros((3, 2)), r"'regret_sum' has shape \(3, 2\); kuhn_poker needs "
                                     r"\(12, 2\)"),
    ("regret_sum", "many", "'regret_sum' cannot be read as float64 numbers"),
    ("strategy_sum", np.full((12, 2), np.inf), "'strategy_sum' holds NaN or infinite values"),
    ("rng", np.zeros(2, dtype=np.uint64), r"'rng' must be one SplitMix64 word, a uint64 "
                                          r"array of shape \(1,\); it is uint64 of shape \(2,\)"),
    ("iteration", 2.5, "'iteration' must be a whole number >= 0; it is 2.5"),
    ("iteration", -1, "'iteration' must be a whole number >= 0"),
    ("nodes_touched", True, "'nodes_touched' must be a whole number"),
    ("elapsed", float("nan"), "'elapsed' must be a finite number of seconds"),
    ("generator", {"bit_generator": "NoSuchGenerator"}, "'generator' must be None or a numpy "
                                                        "bit generator's state"),
    ("strategy_sum", None, "'strategy_sum' is missing"),
])
def test_resume_names_the_state_field_at_fault(kuhn, field, value, message):
    trace = cfrviz.solve(kuhn, "cfr", 20)
    state = dict(trace.state)
    if value is None:
        del state[field]
    else:
        state[field] = value
    with pytest.raises(ValueError, match=f"solver state field {message}"):
        cfrviz.solve(kuhn, "cfr", 40, resume=dataclasses.replace(trace, state=state))


def test_solver_state_fresh_copy_and_validate(kuhn):
    state = SolverState.fresh(kuhn, rng=[7])
    assert state.validate(kuhn) is state
    assert state.regret_sum.shape == kuhn.legal_mask.shape and state.rng.tolist() == [7]
    twin = state.copy()
    twin.regret_sum[0, 0] = 1.0
    twin.rng[0] = 8
    assert state.regret_sum[0, 0] == 0.0 and state.rng[0] == 7
    state.current = np.zeros((12, 2), dtype=np.float32)
    with pytest.raises(ValueError, match="solver state field 'current' must hold float64"):
        state.validate(kuhn)
    with pytest.raises(ValueError, match="'instant' has shape"):
        dataclasses.replace(twin, instant=np.zeros(3)).validate(kuhn)
    saved = twin.as_dict()
    assert list(saved) == list(SolverState.SAVED)
    back = SolverState.from_dict(saved, kuhn)
    assert back.regret_sum[0, 0] == 1.0 and back.rng[0] == 8 and back.iteration == 0
    assert not np.shares_memory(back.regret_sum, twin.regret_sum)


def test_recorder_keeps_copies_never_views(kuhn):
    state = SolverState.fresh(kuhn)
    recorder = Recorder(kuhn, average=lambda total: driver.average_strategy(total, kuhn.legal_mask))
    state.iteration, state.elapsed, state.nodes_touched = 1, 0.5, 55
    state.regret_sum[0, 0] = 1.0
    state.strategy_sum[0] = [1.0, 3.0]
    recorder.snapshot(state)
    state.regret_sum[0, 0] = 99.0
    state.strategy_sum[0] = [3.0, 1.0]
    trace = recorder.trace("cfr", {"alternating": True}, state)
    assert isinstance(trace, Trace) and trace.iterations.tolist() == [1]
    assert trace.cumulative_regret[0, 0, 0] == 1.0
    assert trace.average_strategy[0, 0].tolist() == [0.25, 0.75]
    assert np.all(np.isnan(trace.exploitability))  # no evaluation asked for
    assert trace.extras["nodes_touched"].tolist() == [55] and trace.extras["total_time"] == 0.5
    assert trace.params == {"alternating": True, "interrupted": False}
    state.regret_sum[0, 0] = 5.0
    assert trace.state["regret_sum"][0, 0] == 99.0  # the final state is a copy too
    for spec in RECORD_ARRAYS:
        assert getattr(trace, spec.name).dtype == spec.dtype
        assert not getattr(trace, spec.name).flags.writeable


def test_the_record_arrays_are_the_trace_fields():
    fields = [f.name for f in dataclasses.fields(Trace)]
    assert [spec.name for spec in RECORD_ARRAYS] == fields[3:10]
    assert {spec.evaluates for spec in RECORD_ARRAYS if spec.evaluates} \
        <= {spec.name for spec in RECORD_ARRAYS if spec.table}


def test_nothing_recorded_and_nothing_resumed_is_an_interrupt(kuhn):
    with pytest.raises(KeyboardInterrupt, match="before its first iteration finished"):
        Recorder(kuhn).trace("cfr", {}, SolverState.fresh(kuhn))


# --- guards: non-finite values, bounded traces -------------------------------------------

def huge_payoff_game(tmp_path, payoff: float):
    """Matching pennies whose payoffs are +-``payoff``, read from a custom game file."""
    def leaf(sign):
        return {"type": "terminal", "payoffs": [sign * payoff, -sign * payoff]}

    def p2(first):
        return {"type": "decision", "player": 2, "infoset": "P2",
                "actions": {"H": leaf(1 if first == "H" else -1),
                            "T": leaf(-1 if first == "H" else 1)}}

    game = {"name": "huge_pennies", "root": {"type": "decision", "player": 1, "infoset": "P1",
                                             "actions": {"H": p2("H"), "T": p2("T")}}}
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(game))
    return cfrviz.load_game("file", path=str(path))


@pytest.mark.usefixtures("no_compiled_code")
@pytest.mark.parametrize("algorithm", ["cfr", "linear_cfr", "external_sampling"])
def test_payoffs_that_could_overflow_are_refused_before_running(tmp_path, algorithm):
    # Before: payoffs this large gave infinite regrets and a trace that looked solved.
    game = huge_payoff_game(tmp_path, 1e307)
    with pytest.raises(ValueError, match=rf"{algorithm} on huge_pennies: payoffs as large as "
                                         r"1e\+307 are too large for 10 iterations.*scale the "
                                         r"payoffs down"):
        cfrviz.solve(game, algorithm, 10)


def test_the_payoff_bound_grows_with_the_iterations(tmp_path):
    game = huge_payoff_game(tmp_path, 1e300)
    assert len(cfrviz.solve(game, "cfr", 100)) == 100  # 1e300 * 100 * 101 * 2 fits
    with pytest.raises(ValueError, match="too large for 100000 iterations"):
        cfrviz.solve(game, "cfr", 100_000)


@pytest.mark.parametrize("algorithm, kernel, table, name", [
    ("cfr", "run_full_tree", 0, "cumulative regrets \\(regret_sum\\)"),
    ("outcome_sampling", "run_outcome_sampling", 1, "strategy sums \\(strategy_sum\\)"),
])
def test_a_state_going_non_finite_stops_the_run_naming_the_table(kuhn, monkeypatch, algorithm,
                                                                 kernel, table, name):
    monkeypatch.setattr(driver, "CHUNK_SECONDS", 1e-9)  # one iteration per compiled call
    original = getattr(engine, kernel)

    def overflowing(arrays, tables, first, last, *rest):
        result = original(arrays, tables, first, last, *rest)
        if last >= 7:
            tables[table][3, 1] = np.inf  # what an overflowing sum leaves
        return result

    monkeypatch.setattr(engine, kernel, overflowing)
    with pytest.raises(ValueError, match=rf"{algorithm} on kuhn_poker: the {name} became "
                                         r"infinite or NaN during iteration 7: the payoffs "
                                         r"\(up to 2 in absolute value\)"):
        cfrviz.solve(kuhn, algorithm, 20)


def test_default_checkpoints_fit_the_byte_budget_whatever_the_game():
    for iterations in (1, 7, 100, 101, 5000, 400_000, 10**9):
        for table_size in (1, 6, 24, 864, 12_000, 200_000, 10**6, 10**8):
            points = driver.default_checkpoints(iterations, table_size)
            assert points == sorted(set(points)) and points[-1] == iterations and points[0] >= 1
            assert len(points) == 1 or \
                len(points) * record_nbytes(table_size) <= DEFAULT_TRACE_BYTES
            if 4 * iterations * table_size <= driver.EVERY_ITERATION_BUDGET:
                assert points == list(range(1, iterations + 1))  # small runs: unchanged


class WideGame:
    """Chance deals one of ``cards`` cards to player 1, who then picks one of three actions.

    A one-move game with a large (information sets x actions) table.
    """

    name = "wide"

    def __init__(self, cards: int):
        self.cards = cards

    def initial_state(self):
        return WideState(self, ())


@dataclasses.dataclass(frozen=True)
class WideState:
    game: WideGame
    moves: tuple

    def is_terminal(self):
        return len(self.moves) == 2

    def current_player(self):
        return -1 if not self.moves else 0

    def legal_actions(self):
        return ("a", "b", "c")

    def chance_outcomes(self):
        return tuple((str(c), 1 / self.game.cards) for c in range(self.game.cards))

    def child(self, action):
        return WideState(self.game, (*self.moves, action))

    def returns(self):
        card, action = int(self.moves[0]), "abc".index(self.moves[1])
        value = float((card * 7 + action * 3) % 5 - 2)
        return value, -value

    def infoset_key(self):
        return self.moves[0]

    def history(self):
        return "/".join(self.moves)


def trace_bytes(trace) -> int:
    arrays = [getattr(trace, spec.name) for spec in RECORD_ARRAYS]
    arrays += [v for v in trace.extras.values() if isinstance(v, np.ndarray)]
    return sum(a.nbytes for a in arrays)


@pytest.fixture(scope="module")
def wide():
    return build_tree(WideGame(4000))


def test_a_large_game_default_trace_stays_under_50_mb(wide, tmp_path):
    # Before: 199 records of 12,000-entry tables, 76 MB.
    assert wide.legal_mask.size == 12_000
    trace = cfrviz.solve(wide, "cfr", 1000)
    assert trace_bytes(trace) <= DEFAULT_TRACE_BYTES
    assert trace.iterations.tolist() == driver.default_checkpoints(1000, 12_000)
    assert len(trace) == 130 and trace.iterations[-1] == 1000
    assert "thinned from 199 to 130 records" in trace.extras["schedule_note"]
    assert np.all(np.isfinite(trace.exploitability))
    loaded = cfrviz.load_trace(cfrviz.save_trace(trace, tmp_path / "wide"))
    assert loaded.extras["schedule_note"] == trace.extras["schedule_note"]


@pytest.mark.usefixtures("no_compiled_code")
def test_explicit_checkpoints_are_honoured_up_to_the_hard_limit(wide):
    per_record = record_nbytes(wide.legal_mask.size)
    too_many = MAX_TRACE_BYTES // per_record + 1
    with pytest.raises(ValueError, match=rf"checkpoints: {too_many:,} records of "
                                         rf"{per_record:,} bytes would make a trace of 2.0 GB, "
                                         r"more than the 2 GB a trace may take"):
        cfrviz.solve(wide, "cfr", too_many, checkpoints=range(1, too_many + 1))


def test_explicit_checkpoints_beyond_the_default_budget_are_kept(kuhn):
    trace = cfrviz.solve(kuhn, "cfr", 5, checkpoints=[1, 2, 3, 4, 5])
    assert "schedule_note" not in trace.extras and len(trace) == 5


@pytest.fixture(scope="module")
def kuhn_run(kuhn):
    return cfrviz.solve(kuhn, "cfr", 20)


def shorter(trace, name):
    return {name: getattr(trace, name)[:-1]}


@pytest.mark.parametrize("change, match", [
    (lambda t: shorter(t, "cumulative_regret"),
     r"record array 'cumulative_regret' has shape \(19, 12, 2\); 20 records of kuhn_poker "
     r"need \(20, 12, 2\)"),
    (lambda t: {"iterations": t.iterations[::-1].copy()},
     "record array 'iterations' must be strictly increasing"),
    (lambda t: {"state": {**t.state, "iteration": 10}},
     "record array 'iterations' goes up to 20, past the solver state's iteration 10"),
    (lambda t: {"state": {**t.state, "regret_sum": np.zeros((12, 3))}},
     r"solver state field 'regret_sum' has shape \(12, 3\)"),
    (lambda t: {"extras": {"nodes_touched": t.extras["nodes_touched"]}},
     "extras array 'elapsed' is missing"),
    (lambda t: {"exploitability": t.exploitability.astype(np.float32)},
     "record array 'exploitability' must hold float64 numbers; it holds float32"),
    (lambda t: {"average_strategy": np.where(t.average_strategy > 0.9, np.nan,
                                             t.average_strategy)},
     "record array 'average_strategy' holds NaN or infinite values"),
])
@pytest.mark.usefixtures("no_compiled_code")
def test_resuming_checks_the_whole_trace_before_compiled_code(kuhn, kuhn_run, change, match):
    doctored = dataclasses.replace(kuhn_run, **change(kuhn_run))
    with pytest.raises(ValueError, match=match):
        cfrviz.solve(kuhn, "cfr", 40, resume=doctored)


def test_solving_leaves_no_thread_behind():
    """A solve's progress bar (shown after 2 s, made at once) starts no thread that outlives
    the solve: tqdm keeps a monitor thread per bar class, and a class made per call once left
    one per solve behind (a test process reached 11,000 threads, the CI's load average 500)."""
    import threading

    game = cfrviz.load_game("kuhn_poker")
    cfrviz.solve(game, "cfr", 2)
    before = threading.active_count()
    for progress in (None, True, None, True):
        cfrviz.solve(game, "cfr", 2, progress=progress)
    assert threading.active_count() == before
