"""The contract every registered algorithm keeps, checked for each of ``available_algorithms()``.

One suite over the registry, as scikit-learn's ``parametrize_with_checks`` runs one over every
estimator: a new algorithm is checked the day it is registered, with no list to extend.  On a
small game each algorithm supports (Kuhn poker for the tree algorithms, a rock-paper-scissors
variant whose strategies move for the matrix ones, three-player Kuhn for those that solve more
than two players), every run:

- returns a :class:`~cfrviz.core.trace.Trace` holding the schema's arrays, one record per
  checkpoint, whose strategies are distributions over the legal actions;
- is a function of its seed: the same seed gives the same trace bit for bit, another seed
  another trace for an algorithm that samples, and the same tables for one that does not;
- records at the checkpoints asked for (any iterable, read once; ``[]``: the final state
  only, not evaluated; none: every iteration of these small games), and recording changes
  nothing of the run;
- stopped by Ctrl-C (a SIGINT during a chunk, or a ``KeyboardInterrupt`` raised by code)
  comes back with every finished iteration, a warning that says whether it can be resumed,
  and Ctrl-C's handler given back;
- resumed (also from a saved file, also without its seed) equals one long run bit for bit
  where it is resumable, and otherwise refuses ``resume=`` saying so; a resume that does
  not fit (another algorithm, game, parameter or seed, or no more iterations) is refused;
- refuses bad arguments (iterations, seed, checkpoints, progress, resume, unknown or
  out-of-range parameters) with a ``ValueError`` naming the argument, before any compiled
  code runs.

The capabilities that decide which checks apply (:func:`capabilities`) are read from the
registry where it declares them and derived from what it declares otherwise.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import re
import signal
import warnings
from typing import Any, NamedTuple

import numpy as np
import pytest

import cfrviz
from cfrviz.core.trace import RECORD_ARRAYS, Trace, check_records
from cfrviz.solvers import algorithm as registered
from cfrviz.solvers import driver

#: Rock-paper-scissors whose equilibrium is not uniform, so regret matching moves from uniform.
VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]
#: Small runs: N iterations, interrupted after iteration K.
N, K = 6, 3
SEED = 5
#: Parameters that keep an expensive algorithm's iteration short (tiny networks, few walks).
FAST = {"deep_cfr": {"traversals": 2, "train_steps": 2, "hidden": 4, "capacity": 64}}
#: Settings that switch a capability on or off, checked besides the defaults: sampled regret
#: matching draws from the seed; MMD with a fixed magnet resumes (a moving one does not).
SWITCHES = {"regret_matching": [{"update": "sampled"}], "mmd": [{"magnet_every": 0}]}


@functools.cache
def game(name: str) -> Any:
    if name == "rps_variant":
        return cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    if name == "leduc_2_ranks":  # another game, as small as Leduc gets
        return cfrviz.load_game("leduc_poker", ranks=2)
    return cfrviz.load_game(name)


class Capabilities(NamedTuple):
    random: bool       # a run depends on its seed
    multiplayer: bool  # it solves games of more than two players
    resumable: bool    # resume= continues this run bit for bit
    matrix: bool       # it solves matrix games only


def capabilities(name: str, params: dict[str, Any], players: int = 2) -> Capabilities:
    """What the registry says ``name`` with ``params`` can do on a game of ``players`` players.

    Read from the registry's flags where it has them (``multiplayer``, ``resumable``); until
    it does (requested in /work/helpers/requests-contract.md), derived from what it declares:

    - random: :attr:`Algorithm.random` (the sampling and network families), plus regret
      matching's ``update="sampled"``, which that property says it does not see;
    - multiplayer: the full-tree members of the CFR family registered by
      :mod:`cfrviz.solvers.cfr`, whose runner hands a game of more than two players to the
      N-player kernel;
    - resumable: on two players, an algorithm whose state a trace keeps whole: not the
      network family (networks and memories are not in a trace), not a moving MMD magnet.
    """
    entry = registered(name)
    settings = {p.name: p.default for p in entry.params} | params
    random = entry.random or settings.get("update") == "sampled"
    multiplayer = getattr(entry, "multiplayer", None)
    if multiplayer is None:
        multiplayer = entry.family == "full_tree" and entry.run.__module__ == "cfrviz.solvers.cfr"
    resumable = getattr(entry, "resumable", None)
    if callable(resumable):
        resumable = resumable(settings, players)
    if resumable is None:
        resumable = (players == 2 and entry.family != "network"
                     and not settings.get("magnet_every", 0))
    return Capabilities(random, multiplayer, bool(resumable), entry.family == "matrix")


class Case(NamedTuple):
    algorithm: str
    game: str
    params: dict[str, Any]

    @property
    def tree(self) -> Any:
        return game(self.game)

    @property
    def can(self) -> Capabilities:
        return capabilities(self.algorithm, self.params, self.tree.num_players)

    def solve(self, iterations: int = N, **kwargs: Any) -> Trace:
        kwargs.setdefault("seed", SEED)
        kwargs.setdefault("progress", False)
        return cfrviz.solve(self.tree, self.algorithm, iterations, **self.params, **kwargs)


def _cases() -> list[Any]:
    cases = []
    for name in cfrviz.available_algorithms():
        can = capabilities(name, {})
        games = ["rps_variant"] if can.matrix else ["kuhn_poker"]
        if can.multiplayer:
            games.append("kuhn_poker_3p")
        for switch in [{}, *SWITCHES.get(name, [])]:
            for g in games:
                params = {**FAST.get(name, {}), **switch}
                label = "-".join([name, g, *(f"{k}={v}" for k, v in switch.items())])
                cases.append(pytest.param(Case(name, g, params), id=label))
    return cases


CASES = _cases()
ALGORITHMS = cfrviz.available_algorithms()


def same_run(got: Trace, expected: Trace) -> None:
    """Every record array, the timing's node counts and the final state, bit for bit."""
    for spec in RECORD_ARRAYS:
        a, b = getattr(got, spec.name), getattr(expected, spec.name)
        assert a.dtype == b.dtype and a.shape == b.shape, spec.name
        assert a.tobytes() == b.tobytes(), spec.name
    if "nodes_touched" in expected.extras:
        assert np.array_equal(got.extras["nodes_touched"], expected.extras["nodes_touched"])
    assert got.state.keys() == expected.state.keys()
    for key, value in expected.state.items():
        if isinstance(value, np.ndarray):
            assert got.state[key].tobytes() == value.tobytes(), key
        elif key != "elapsed":
            assert got.state[key] == value, key


def records(trace: Trace, keep: list[int]) -> dict[str, np.ndarray]:
    """The record arrays of ``trace`` at the records numbered ``keep``."""
    return {spec.name: getattr(trace, spec.name)[keep] for spec in RECORD_ARRAYS}


def same_records(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    for name in a:
        assert a[name].tobytes() == b[name].tobytes(), name


# --- what a run returns ---------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_a_run_returns_a_trace_with_the_schemas_arrays(case):
    trace = case.solve(checkpoints=[2, 4])
    assert isinstance(trace, Trace) and trace.algorithm == case.algorithm
    assert trace.game is case.tree
    assert trace.iterations.tolist() == [2, 4, N]
    sets, actions = case.tree.legal_mask.shape
    for spec in RECORD_ARRAYS:
        array = getattr(trace, spec.name)
        assert array.dtype == spec.dtype, spec.name
        assert array.shape == ((3, sets, actions) if spec.table else (3,)), spec.name
        assert not array.flags.writeable, spec.name
    assert check_records({spec.name: getattr(trace, spec.name) for spec in RECORD_ARRAYS},
                         case.tree, last_iteration=N, extras=trace.extras) == 3
    assert trace.state["iteration"] == N and not trace.params["interrupted"]
    assert trace.params["seed"] == SEED and trace.params["iterations"] == N
    declared = {p.name for p in registered(case.algorithm).params}
    start_only = set(registered(case.algorithm).start_only)
    assert set(trace.params) - {"seed", "iterations", "interrupted"} == declared - start_only
    # The last record is the state's (what a resume continues from).
    assert np.array_equal(trace.cumulative_regret[-1], trace.state["regret_sum"])


@pytest.mark.parametrize("case", CASES)
def test_strategies_are_distributions_on_the_legal_actions(case):
    trace = case.solve()
    mask = case.tree.legal_mask
    for name in ("average_strategy", "current_strategy"):
        table = getattr(trace, name)
        assert np.all(np.isfinite(table)) and np.all(table >= 0), name
        assert np.all(table[:, ~mask] == 0), f"{name}: weight on an illegal action"
        assert np.allclose(table.sum(axis=2), 1.0, rtol=0, atol=1e-12), name
    for i in (1, N):
        policy = trace.average_policy(i)
        assert np.array_equal(policy.probabilities, trace.average_strategy[i - 1])
        assert np.array_equal(trace.current_policy(i).probabilities,
                              trace.current_strategy[i - 1])


# --- seeds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_the_same_seed_gives_the_same_trace_bit_for_bit(case):
    same_run(case.solve(), case.solve())


@pytest.mark.parametrize("case", CASES)
def test_another_seed_gives_another_run_exactly_when_the_algorithm_samples(case):
    one, other = case.solve(seed=SEED), case.solve(seed=SEED + 1)
    tables = ("cumulative_regret", "current_strategy", "average_strategy")
    differ = [name for name in tables if not np.array_equal(getattr(one, name),
                                                              getattr(other, name))]
    if case.can.random:
        assert differ, "two seeds gave the same tables"
    else:
        assert differ == [], f"a deterministic algorithm's {differ} depend on the seed"


@pytest.mark.parametrize("case", CASES)
def test_a_run_without_a_seed_is_the_seed_0_run(case):
    unseeded = cfrviz.solve(case.tree, case.algorithm, 2, progress=False, **case.params)
    assert unseeded.params["seed"] == 0
    same_run(unseeded, case.solve(2, seed=0))


# --- checkpoints --------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_checkpoints_are_honoured_and_recording_changes_nothing(case):
    dense = case.solve()  # the default schedule: every iteration of a game this small
    assert dense.iterations.tolist() == list(range(1, N + 1))
    sparse = case.solve(checkpoints=(c for c in (4, 2, 4)))  # any iterable, read once
    assert sparse.iterations.tolist() == [2, 4, N]
    same_records(records(sparse, [0, 1, 2]), records(dense, [1, 3, N - 1]))
    final = case.solve(checkpoints=[])
    assert final.iterations.tolist() == [N]
    assert np.all(np.isnan(final.exploitability))  # the final state only, not evaluated
    for name in ("cumulative_regret", "average_strategy", "current_strategy"):
        assert np.array_equal(getattr(final, name)[0], getattr(dense, name)[-1]), name
    with pytest.raises(ValueError, match="not in this trace|index"):
        sparse.average_policy(3)


# --- Ctrl-C -----------------------------------------------------------------------------------

def interrupt_at(monkeypatch, iteration: int, how: str) -> None:
    """Stop the next run after ``iteration`` the way ``how`` says: ``"signal"`` delivers a
    SIGINT while iteration ``iteration`` runs (Ctrl-C, a kernel interrupt); ``"raised"``
    raises ``KeyboardInterrupt`` from the step that would run the next one (Python code
    interrupted).  One iteration per chunk, so the chunk boundaries fall on every iteration."""
    monkeypatch.setattr(driver, "CHUNK_SECONDS", 1e-9)
    original = driver.iterate

    def iterate(request, stepper, stop=lambda: False):
        step = stepper.step

        def cut(state, first, last):
            if first <= last and how == "signal" and first == iteration:
                signal.raise_signal(signal.SIGINT)
            if first <= last and how == "raised" and first == iteration + 1:
                raise KeyboardInterrupt
            return step(state, first, last)

        return original(request, dataclasses.replace(stepper, step=cut), stop)

    monkeypatch.setattr(driver, "iterate", iterate)


@pytest.mark.parametrize("how", ["signal", "raised"])
@pytest.mark.parametrize("case", CASES)
def test_ctrl_c_gives_back_every_finished_iteration(case, monkeypatch, how):
    before = signal.getsignal(signal.SIGINT)  # default, or SIG_IGN in a background job
    interrupt_at(monkeypatch, K, how)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cut = case.solve(checkpoints=[2, N])
    monkeypatch.undo()
    assert signal.getsignal(signal.SIGINT) is before
    messages = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    during = f"at iteration {K + 1}, " if how == "raised" else ""
    assert any(f"{case.algorithm} interrupted {during}after iteration {K} of {N}" in m
               for m in messages), messages
    assert cut.params["interrupted"] and cut.state["iteration"] == K
    assert cut.iterations.tolist() == [2, K]  # the last finished iteration is recorded
    assert check_records({spec.name: getattr(cut, spec.name) for spec in RECORD_ARRAYS},
                         cut.game, last_iteration=K, extras=cut.extras) == 2
    whole = case.solve(checkpoints=[2, K, 5])
    same_records(records(cut, [0, 1]), records(whole, [0, 1]))
    if case.can.resumable:
        resumed = case.solve(checkpoints=[5], resume=cut)
        assert resumed.iterations.tolist() == [2, K, 5, N]
        assert resumed.params["resumed_from"] == K and not resumed.params["interrupted"]
        if "nodes_touched" in resumed.extras:  # the timed runs (not regret matching's)
            assert np.all(np.diff(resumed.extras["nodes_touched"]) > 0)
        same_run(resumed, whole)
    else:
        with pytest.raises(ValueError, match="resum"):
            case.solve(resume=cut)
    says = "can be resumed" if case.can.resumable else "cannot be resumed"
    assert any(says in m for m in messages), f"the warning should say it {says}: {messages}"


# --- resume -------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].can.resumable])
def test_resume_equals_one_long_run_bit_for_bit(case, tmp_path):
    first = case.solve(K, checkpoints=[2])
    whole = case.solve(checkpoints=[2, K, 5])
    resumed = case.solve(checkpoints=[5], resume=first)
    assert resumed.iterations.tolist() == [2, K, 5, N]
    assert resumed.params == dict(whole.params, resumed_from=K)
    same_run(resumed, whole)
    # Without a seed a resume goes on with the trace's own (not 0).
    unseeded = cfrviz.solve(case.tree, case.algorithm, N, checkpoints=[5], resume=first,
                            progress=False, **case.params)
    assert unseeded.params["seed"] == SEED
    same_run(unseeded, whole)
    # From a saved file, as from the trace in memory.
    loaded = cfrviz.load_trace(cfrviz.save_trace(first, tmp_path / "run"), game=case.tree)
    same_run(case.solve(checkpoints=[5], resume=loaded), whole)


@pytest.mark.parametrize("case", [c for c in CASES if not c.values[0].can.resumable])
def test_a_run_that_cannot_resume_refuses_resume_before_compiled_code(case, request):
    first = case.solve(K)
    request.getfixturevalue("no_compiled_code")
    with pytest.raises(ValueError, match="resum") as refused:
        case.solve(resume=first)
    assert re.search(r"run (it )?again", str(refused.value))  # and says what to do instead


def _other_game(case: Case) -> tuple[Any, str]:
    if case.can.matrix:
        return cfrviz.load_game("rock_paper_scissors"), "another version of rock_paper_scissors"
    other = game("leduc_2_ranks")
    return other, f"recorded on {case.game}, not leduc_poker"


def _changed(case: Case) -> dict[str, Any] | None:
    """One of the run's recorded settings changed to another valid value (None: it has none)."""
    entry = registered(case.algorithm)
    for p in entry.params:
        if p.name in entry.start_only or p.name in SWITCHES_KEYS.get(case.algorithm, ()):
            continue
        value = case.params.get(p.name, p.default)
        if p.kind == "bool":
            return {p.name: not value}
        if p.kind == "choice":
            return {p.name: next(c for c in p.choices if c != value)}
        if p.kind in ("int", "float") and value + 1 <= p.high:
            return {p.name: value + 1}
    return None


SWITCHES_KEYS = {name: {k for s in switches for k in s} for name, switches in SWITCHES.items()}


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].can.resumable])
def test_a_resume_that_does_not_fit_is_refused_before_compiled_code(case, request):
    first = case.solve(K)
    others = [a for a in ALGORITHMS if a != case.algorithm
              and capabilities(a, {}).matrix == case.can.matrix]
    other_game, other_game_says = _other_game(case)
    changed = _changed(case)
    request.getfixturevalue("no_compiled_code")
    with pytest.raises(ValueError, match=f"already has {K} iterations"):
        case.solve(K, resume=first)
    with pytest.raises(ValueError, match=rf"seeded with {SEED}; seed={SEED + 1} was given"):
        case.solve(resume=first, seed=SEED + 1)
    with pytest.raises(ValueError, match=re.escape(other_game_says)):
        cfrviz.solve(other_game, case.algorithm, N, resume=first, progress=False,
                     **case.params)
    if changed is not None:
        with pytest.raises(ValueError, match="resume with the run's own parameters"):
            cfrviz.solve(case.tree, case.algorithm, N, seed=SEED, resume=first,
                         progress=False, **{**case.params, **changed})
    for other in others[:1]:
        with pytest.raises(ValueError, match=re.escape(f"cannot resume a {case.algorithm} "
                                                       f"run as {other}")):
            cfrviz.solve(case.tree, other, N, resume=first, progress=False)
    for other in [a for a in ALGORITHMS if capabilities(a, {}).matrix != case.can.matrix][:1]:
        on = game("kuhn_poker" if case.can.matrix else "rps_variant")  # a game it solves
        with pytest.raises(ValueError, match=re.escape(f"cannot resume a {case.algorithm} "
                                                       f"run as {other}")):
            cfrviz.solve(on, other, N, resume=first, progress=False)


# --- games an algorithm does not solve ---------------------------------------------------------

@pytest.mark.parametrize("name", ALGORITHMS)
@pytest.mark.usefixtures("no_compiled_code")
def test_a_game_an_algorithm_does_not_solve_is_refused_before_compiled_code(name):
    can, named = capabilities(name, {}), re.escape(name)  # "cfr+" is a name, not a pattern
    if can.matrix:
        with pytest.raises(ValueError, match=f"{named} solves matrix games"):
            cfrviz.solve(game("kuhn_poker"), name, N, progress=False)
    if not can.multiplayer:
        with pytest.raises(ValueError, match=f"{named} is defined for two-player games|"
                                             f"{named} solves matrix games"):
            cfrviz.solve(game("kuhn_poker_3p"), name, N, progress=False)


# --- bad arguments ------------------------------------------------------------------------------

WHOLE = "must be a whole number"
BAD_ARGUMENTS = [
    *[("iterations", {"iterations": v}, rf"iterations {WHOLE} >= 1; got {re.escape(t)}")
      for v, t in ((True, "True"), (-1, "-1"), (0, "0"), (1.5, "1.5"), ("10", "'10'"),
                   (None, "None"))],
    ("iterations", {"iterations": 10**400},
     rf"iterations {WHOLE} >= 1 that fits in 64 bits .*; got an integer of 401 digits"),
    *[("seed", {"seed": v}, rf"seed {WHOLE} >= 0; got {re.escape(t)}")
      for v, t in ((True, "True"), (-1, "-1"), (1.5, "1.5"), ("1", "'1'"), (2.0, "2.0"))],
    ("seed", {"seed": 2**64}, rf"seed {WHOLE} >= 0 that fits in 64 bits .*; got {2**64}"),
    *[("checkpoints", {"checkpoints": v},
       rf"checkpoints must be iteration numbers, whole numbers in 1..{N}; got {re.escape(t)}")
      for v, t in (([1.5], "1.5"), (["2"], "'2'"), ([True], "True"), ([2.0], "2.0"),
                   ([math.nan], "nan"))],
    *[("checkpoints", {"checkpoints": [v]},
       rf"checkpoint {v} is outside the run; checkpoints must lie in 1..{N}")
      for v in (0, -1, N + 1)],
    ("checkpoints", {"checkpoints": "3"}, "checkpoints must be a list of iteration numbers; "
                                          "got '3'"),
    ("checkpoints", {"checkpoints": 5}, "checkpoints must be a list of iteration numbers; got 5"),
    ("checkpoints", {"checkpoints": itertools.count(1)},  # refused, not read for ever
     rf"checkpoints holds more than {N} items"),
    ("progress", {"progress": "yes"}, "progress must be True, False or None.*; got 'yes'"),
    ("resume", {"resume": "trace.npz"}, "resume= takes a Trace .*has no solver state"),
    ("nope", {"nope": 1}, "takes no parameter 'nope'"),
]


def _bad_settings(name: str) -> list[tuple[str, dict[str, Any], str]]:
    """A bad value of each declared parameter, from its declaration."""
    cases = []
    for p in registered(name).params:
        if p.kind == "bool":
            cases.append((p.name, {p.name: "yes"}, rf"{p.name} must be True or False"))
        elif p.kind == "choice":
            cases.append((p.name, {p.name: "nope"}, rf"{p.name} must be one of"))
        elif p.kind in ("int", "float"):
            for value in (p.low - 1 if math.isfinite(p.low) else None,
                          p.high + 1 if math.isfinite(p.high) else None, math.nan, True):
                if value is not None:
                    cases.append((p.name, {p.name: value}, rf"{p.name} must be a "))
    return cases


@pytest.mark.parametrize("name", ALGORITHMS)
@pytest.mark.usefixtures("no_compiled_code")
def test_bad_arguments_are_refused_naming_them_before_compiled_code(name):
    target = game("rps_variant") if capabilities(name, {}).matrix else game("kuhn_poker")
    for argument, given, message in [*BAD_ARGUMENTS, *_bad_settings(name)]:
        call = {"iterations": N, "progress": False, **given}
        with pytest.raises(ValueError, match=message) as refused:
            cfrviz.solve(target, name, **call)
        assert argument in str(refused.value), (given, str(refused.value))


def test_an_unknown_algorithm_is_refused_listing_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown algorithm 'cfr\+\+'") as refused:
        cfrviz.solve(game("kuhn_poker"), "cfr++", N)
    for name in ALGORITHMS:
        assert name in str(refused.value)


# --- the no-compiled-code fixture these checks lean on ------------------------------------------

@pytest.mark.parametrize("kernel", __import__("cfrviz.warm").warm.KERNELS,
                         ids=lambda k: k.name)
@pytest.mark.usefixtures("no_compiled_code")
def test_the_no_compiled_code_fixture_stops_every_kernel_warm_compiles(kernel):
    # What cfrviz.warm runs to compile each kernel, given the game and policy it shares (made
    # without compiled code), reaches compiled code, and the fixture stops it there.
    shared = {"game": game("kuhn_poker"), "policy": cfrviz.Policy.uniform(game("kuhn_poker"))}
    with pytest.raises(AssertionError, match="compiled code was reached"):
        kernel.run(shared)
