"""Re-solving and depth-limited solving under Ctrl-C and bad arguments (issue 30): one Ctrl-C
ends a whole re-solve with a partial result holding exactly the iterations done; every argument
is checked before anything runs, with a message naming it."""

from __future__ import annotations

import signal
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.games.public import public_tree
from cfrviz.solvers import depth_limited as dl
from cfrviz.solvers import driver
from cfrviz.solvers import subgame as sg

#: Kuhn's public state after a bet, and the chunks of a 100-iteration run in 4.
STATE, ITERATIONS, CHUNKS = "deal/b", 100, 4
MARKS = [1, 5, 22, 100]


@pytest.fixture(scope="module")
def blueprint(kuhn):
    return cfrviz.solve(kuhn, "cfr", 10, checkpoints=[10]).average_policy()


def _calls_raise(monkeypatch, k: int, target: str = "_advance"):
    """Make the k-th call of subgame's ``target`` raise KeyboardInterrupt, as a Ctrl-C raised
    by Python code would; returns the list of calls made."""
    real = getattr(sg, target)
    calls: list[int] = []

    def wrapped(*args, **kwargs):
        calls.append(1)
        if len(calls) == k:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(sg, target, wrapped)
    return calls


def _ctrl_c_in_driver(monkeypatch, on_call) -> list[int]:
    """Send this process a real SIGINT (a Ctrl-C) from inside cfrviz.solve's training loop at
    the calls of the driver's per-chunk check for which ``on_call(n)`` is true."""
    real = driver.check_finite
    calls: list[int] = []

    def wrapped(*args, **kwargs):
        calls.append(1)
        if on_call(len(calls)):
            signal.raise_signal(signal.SIGINT)
        return real(*args, **kwargs)
    monkeypatch.setattr(driver, "check_finite", wrapped)
    return calls


@contextmanager
def _partial():
    """The run must end with the re-solve's own warning; a KeyboardInterrupt escaping it fails
    the test (pytest would otherwise stop the whole session)."""
    try:
        with pytest.warns(RuntimeWarning, match="interrupted: the Resolution is partial") \
                as caught:
            yield caught
    except KeyboardInterrupt:
        pytest.fail("the Ctrl-C escaped the re-solve")


def _rows(game, player: int) -> np.ndarray:
    return np.asarray(game.infoset_player) == player


# ------------------------------------------------------------------------- interrupts

def test_the_chunk_marks():
    assert sg._chunk_marks(ITERATIONS, CHUNKS) == MARKS
    assert sg._chunk_marks(10, 50) == list(range(1, 11))  # never more chunks than iterations
    assert sg._chunk_marks(7, 1) == [7]
    marks = sg._chunk_marks(2**63 - 1, 5)  # exact at the largest count, no float overflow
    assert marks[-1] == 2**63 - 1 and marks == sorted(set(marks)) and marks[0] == 1


@pytest.mark.parametrize("k,curves,done", [
    (1, [], ()),                                    # before gadget 1's first iteration
    (3, [MARKS[:2]], (5,)),                         # in gadget 1
    (6, [MARKS, MARKS[:1]], (100, 1)),              # in gadget 2
])
def test_a_ctrl_c_on_call_k_ends_the_run_with_exactly_the_iterations_done(
        kuhn, blueprint, monkeypatch, k, curves, done):
    calls = _calls_raise(monkeypatch, k)
    with _partial():
        # (one ResolveStep, updated and yielded again: what each step said is read as it comes)
        said, last = [], None
        for last in sg.resolve_steps(kuhn, blueprint, STATE, "resolve", ITERATIONS,
                                     chunks=CHUNKS):
            said.append((last.done, last.resolution))
    assert len(calls) == k  # nothing ran after the interrupt
    r = last.resolution
    assert r is not None and r.interrupted and r.iterations == done
    assert [its for _, its, _ in last.curves] == curves
    assert said == [(n, None) for n in range(1, k)] + [(k - 1, r)]
    assert last.done == k - 1 < last.total
    # What was done is what a shorter run gives, bit for bit; the rest is the blueprint.
    kept = np.array(blueprint.probabilities)
    for player, n in enumerate(done):
        full = sg.resolve(kuhn, blueprint, STATE, "resolve", n)
        kept[_rows(kuhn, player)] = full.policy.probabilities[_rows(kuhn, player)]
    np.testing.assert_array_equal(r.policy.probabilities, kept)
    assert r.exploitability == pytest.approx(cfrviz.exploitability(kuhn, r.policy), abs=1e-12)


def test_resolve_stops_at_one_ctrl_c_instead_of_going_on_to_the_next_gadget(
        kuhn, blueprint, monkeypatch):
    """The issue's case: a Ctrl-C in gadget 1 used to end only that gadget."""
    calls = _ctrl_c_in_driver(monkeypatch, lambda n: n == 2)
    with _partial() as caught:
        r = sg.resolve(kuhn, blueprint, STATE, "resolve", 10**7)
    assert r.interrupted and len(r.iterations) == 1 and 1 <= r.iterations[0] < 10**7
    assert len(calls) == 2
    # one message, ours: not cfrviz.solve's advice to resume a trace the caller never sees
    texts = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert len(texts) == 1 and "resume" not in texts[0]
    rows = _rows(kuhn, 1)
    np.testing.assert_array_equal(r.policy.probabilities[rows], blueprint.probabilities[rows])


def test_resolve_steps_no_longer_swallows_ctrl_c_nor_records_iterations_not_done(
        kuhn, blueprint, monkeypatch):
    """The issue's case: a Ctrl-C in every chunk was swallowed seven times and the curve
    recorded every mark; now the first ends the run and the curve ends where it stopped."""
    calls = _ctrl_c_in_driver(monkeypatch, lambda _: True)
    with _partial():
        steps = list(sg.resolve_steps(kuhn, blueprint, STATE, "resolve", 10**7, chunks=8))
    last = steps[-1]
    assert len(steps) == 1 and len(calls) == 1  # the last step only: no chunk went on
    assert len(last.curves) == 1
    name, its, values = last.curves[0]
    assert its == list(last.resolution.iterations) and its[0] < 10**7
    assert len(values) == 1 and np.isfinite(values[0])


def test_a_ctrl_c_while_a_gadget_is_built_ends_the_run(kuhn, blueprint, monkeypatch):
    _calls_raise(monkeypatch, 2, "_gadget")
    with _partial():
        r = sg.resolve(kuhn, blueprint, STATE, "maxmargin", 20)
    assert r.interrupted and r.iterations == (20,) and len(r.gadgets) == 1


def test_between_steps_ctrl_c_belongs_to_the_caller(kuhn, blueprint):
    """The generator defers Ctrl-C only while it computes: at each step the caller's handler
    is back (a generator left unfinished cannot leave Ctrl-C switched off)."""
    before = signal.getsignal(signal.SIGINT)
    handlers = [signal.getsignal(signal.SIGINT)
                for _ in sg.resolve_steps(kuhn, blueprint, STATE, "resolve", 30, chunks=3)]
    assert len(handlers) == 7 and all(h is before for h in handlers)
    r = sg.resolve(kuhn, blueprint, STATE, "resolve", 30)
    assert not r.interrupted and r.iterations == (30, 30)


def test_a_run_in_many_chunks_is_one_run(kuhn, blueprint, monkeypatch):
    """Each gadget is one run of the algorithm, advanced chunk by chunk (nothing is resumed, so
    memory and checking do not grow with the chunks); the result is still the one-chunk
    run's, bit for bit."""
    real = sg._advance
    marks = []

    def spy(run, start, mark, *args):
        marks.append(mark)
        return real(run, start, mark, *args)
    monkeypatch.setattr(sg, "_advance", spy)
    *_, last = sg.resolve_steps(kuhn, blueprint, STATE, "maxmargin", 60, chunks=60)
    assert marks == 2 * list(range(1, 61))
    monkeypatch.setattr(sg, "_advance", real)
    once = sg.resolve(kuhn, blueprint, STATE, "maxmargin", 60)
    np.testing.assert_array_equal(last.resolution.policy.probabilities,
                                  once.policy.probabilities)
    assert last.resolution.iterations == once.iterations == (60, 60)


# ------------------------------------------------------------------------- the issue's cases

def test_the_issues_bounds_are_refused_before_anything_runs(kuhn, blueprint):
    with pytest.raises(ValueError, match=r"chunks must be a whole number >= 1 and <= 1000; "
                                         r"got 1000000000"):
        sg.resolve_steps(kuhn, blueprint, STATE, chunks=10**9)  # no next(): checked at the call
    with pytest.raises(ValueError, match=r"iterations must be .* <= 9223372036854775807"):
        sg.resolve(kuhn, blueprint, STATE, iterations=2**63)


def test_the_issues_node_ids_are_refused(kuhn, blueprint):
    nodes = [int(n) for n in public_tree(kuhn).find("deal/p").nodes]
    for bad in (7.5, "3", 3.0, True):
        with pytest.raises(ValueError, match=r"state\[0\] .* whole number >= 1 and <= 54"):
            sg.resolve(kuhn, blueprint, [bad, *nodes[1:]], "resolve", 10)
    two = nodes + [int(n) for n in public_tree(kuhn).find("deal/b").nodes]
    with pytest.raises(ValueError, match="lie in 2 public states .'deal/p', 'deal/b'."):
        sg.resolve(kuhn, blueprint, two, "resolve", 10)
    with pytest.raises(ValueError, match="lie in 2 public states"):
        sg.root_values(kuhn, blueprint, np.array(two), 0)


def test_a_public_state_of_another_game_is_refused(kuhn, leduc, blueprint):
    other = public_tree(leduc).find("deal/c")
    with pytest.raises(ValueError, match="belongs to another game's public tree"):
        sg.resolve(kuhn, blueprint, other, "resolve", 10)


def test_the_issues_player_is_refused(kuhn, blueprint):
    with pytest.raises(ValueError, match=r"player must be 0 .* got 1\.0"):
        sg.root_values(kuhn, blueprint, STATE, 1.0)


@pytest.fixture(scope="module")
def cut(leduc):
    return dl.trunk(leduc)


@pytest.mark.parametrize("r0,message", [
    ([np.nan, 1, 1], r"r0 .* finite weights >= 0.* got nan for hand J"),
    ([1, -1, 1], r"r0 .* finite weights >= 0.* got -1.0 for hand Q"),
    ([0, 0, 0], r"r0 .* positive, finite sum.* sum to 0.0"),
    ([1, 1], r"r0 .* must hold 3 numbers, one weight per hand J, Q, K; got 2"),
    ([1, 1, 1, 1], r"r0 .* must hold 3 numbers.* got 4"),
])
def test_the_issues_ranges_are_refused_not_made_uniform(cut, r0, message):
    with pytest.raises(ValueError, match=message):
        dl.solve_leaf(cut, 0, np.array(r0, dtype=float), np.ones(3), 10)


def test_a_range_need_not_sum_to_one_and_zero_weights_are_fine(cut):
    a = dl.solve_leaf(cut, 1, [2, 0, 6], [1, 1, 1], 50)
    b = dl.solve_leaf(cut, 1, np.array([0.25, 0.0, 0.75]), np.full(3, 1 / 3), 50)
    np.testing.assert_allclose(a, b, atol=1e-9)


# ------------------------------------------------------------------------- generated cases

#: Values that are not whole numbers, whatever the range.
NOT_WHOLE = st.one_of(
    st.booleans(), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
    st.none(), st.lists(st.integers(1, 5), max_size=2), st.integers().map(str),
    st.integers(-5, 5).map(np.float64), st.complex_numbers(max_magnitude=10))
#: Whole numbers beyond 64 bits.
HUGE = st.integers(min_value=2**63)


@settings(max_examples=150, deadline=None)
@given(value=st.one_of(NOT_WHOLE, st.integers(max_value=0), HUGE))
def test_generated_iterations_are_refused_naming_them(kuhn, blueprint, cut, value):
    for call in (lambda: sg.resolve(kuhn, blueprint, STATE, "resolve", value),
                 lambda: sg.resolve_steps(kuhn, blueprint, STATE, "resolve", value),
                 lambda: dl.solve_leaf(cut, 0, np.ones(3), np.ones(3), value),
                 lambda: dl.solve_trunk(cut, dl.exact_values(cut), value),
                 lambda: dl.exact_values(cut, value)):
        with pytest.raises(ValueError, match=r"^iterations must be a whole number >= 1 "):
            call()


@settings(max_examples=100, deadline=None)
@given(value=st.one_of(NOT_WHOLE, st.integers(max_value=0), st.integers(min_value=1001)))
def test_generated_chunks_are_refused_naming_them(kuhn, blueprint, value):
    with pytest.raises(ValueError, match=r"^chunks must be a whole number >= 1 and <= 1000"):
        sg.resolve_steps(kuhn, blueprint, STATE, "resolve", 10, chunks=value)


@settings(max_examples=100, deadline=None)
@given(value=st.one_of(NOT_WHOLE, st.integers().filter(lambda p: p not in (0, 1)),
                       st.sampled_from([0.0, 1.0, np.float64(1), np.bool_(True), "0", "1"])))
def test_generated_players_are_refused_naming_them(kuhn, blueprint, value):
    with pytest.raises(ValueError, match=r"^player must be 0 \(player 1\) or 1 \(player 2\)"):
        sg.root_values(kuhn, blueprint, STATE, value)


@settings(max_examples=100, deadline=None)
@given(value=st.one_of(NOT_WHOLE, st.integers(max_value=-1), st.integers(min_value=5)))
def test_generated_leaves_are_refused_naming_them(cut, value):
    with pytest.raises(ValueError, match=r"^leaf must be a whole number >= 0 and <= 4"):
        dl.solve_leaf(cut, value, np.ones(3), np.ones(3), 10)


@st.composite
def bad_node_ids(draw, game):
    """A public state's node ids with one made bad (not a whole number, out of range), or nodes
    drawn from two public states."""
    public = public_tree(game)
    states = [s for s in public.states if s.id > 0]
    first = draw(st.sampled_from(states))
    nodes: list[object] = [int(n) for n in first.nodes]
    if draw(st.booleans()):
        second = draw(st.sampled_from([s for s in states if s.id != first.id]))
        more = draw(st.lists(st.sampled_from([int(n) for n in second.nodes]), min_size=1,
                             unique=True))
        return draw(st.permutations(nodes + more)), "lie in 2 public states"
    bad = draw(st.one_of(NOT_WHOLE, st.integers(max_value=0),
                         st.integers(min_value=game.num_nodes), HUGE,
                         st.sampled_from(first.nodes.tolist()).map(float)))
    nodes[draw(st.integers(0, len(nodes) - 1))] = bad
    return nodes, r"state\[\d+\] \(a node id of .* below its root\) must be a whole number"


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_generated_node_ids_are_refused_naming_them(kuhn, leduc, data):
    game = data.draw(st.sampled_from([kuhn, leduc]))
    nodes, message = data.draw(bad_node_ids(game))
    bp = cfrviz.Policy.uniform(game)
    as_array = data.draw(st.booleans())
    if as_array and all(isinstance(n, int) and not isinstance(n, bool) for n in nodes) \
            and max(nodes) < 2**63:  # an integer array takes the vectorised check
        nodes = np.array(nodes, dtype=np.int64)
    with pytest.raises(ValueError, match=message):
        sg.resolve(game, bp, nodes, "resolve", 1)
    with pytest.raises(ValueError, match=message):
        sg.root_values(game, bp, nodes, 0)


@st.composite
def bad_ranges(draw):
    """A range over 3 hands with a NaN, an infinity or a negative weight, all zero, the wrong
    length or shape, or not numbers; and the message it gets."""
    kind = draw(st.sampled_from(["value", "zero", "length", "type"]))
    if kind == "value":
        r = draw(st.lists(st.floats(0, 10), min_size=3, max_size=3))
        r[draw(st.integers(0, 2))] = draw(st.one_of(
            st.just(np.nan), st.just(np.inf), st.just(-np.inf),
            st.floats(max_value=-1e-300, allow_infinity=False)))
        return r, r"finite weights >= 0"
    if kind == "zero":
        return [0.0, 0.0, 0.0], r"positive, finite sum"
    if kind == "length":
        n = draw(st.integers(0, 8).filter(lambda n: n != 3))
        return draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)), r"must hold 3 numbers"
    return draw(st.one_of(st.text(max_size=3), st.none(), st.just(["1", "1", "1"]),
                          st.just([True, False, True]), st.just({1, 2, 3}))), \
        r"must be a sequence of 3 numbers|must hold 3 numbers"


@settings(max_examples=150, deadline=None)
@given(case=bad_ranges(), which=st.sampled_from(["r0", "r1"]))
def test_generated_ranges_are_refused_naming_them(cut, case, which):
    bad, message = case
    r0, r1 = (bad, np.ones(3)) if which == "r0" else (np.ones(3), bad)
    with pytest.raises(ValueError, match=rf"^{which} \(player [12]'s range at leaf 0, "
                                         rf"'deal/c/c'\) .*({message})"):
        dl.solve_leaf(cut, 0, r0, r1, 10)
