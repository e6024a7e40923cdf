"""cfrviz.solve refuses what a run cannot hold: endless or huge checkpoint iterables and
initial regrets whose sums overflow, each with a ValueError naming the argument.

Generated cases (hypothesis) cover each class besides the named ones from issue 30:
``checkpoints=itertools.count(1)`` (read for ever), ``checkpoints=range(1, 2**62)``,
``initial_regrets`` of 1e308 (all-zero strategies recorded as exploitability 0).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.checks import bounded_list
from cfrviz.solvers.registry import MAX_CHECKPOINTS

RPS = cfrviz.load_game("rock_paper_scissors")


def endless(start: int):
    """A generator that never ends."""
    while True:
        yield start
        start += 1


# --- checkpoints ---------------------------------------------------------------------------

def too_many(iterations: int):
    """Iterables of iteration numbers, each longer than a run of ``iterations`` may record."""
    first = st.integers(1, iterations)
    return st.one_of(
        first.map(itertools.count),
        first.map(itertools.repeat),
        first.map(endless),
        first.map(lambda c: itertools.cycle([c])),
        st.integers(iterations + 1, 2**62).map(lambda stop: range(1, stop + 1)),
        st.lists(first, min_size=iterations + 1, max_size=iterations + 5),
        st.lists(first, min_size=iterations + 1, max_size=iterations + 5).map(tuple),
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40).flatmap(lambda n: st.tuples(st.just(n), too_many(n))))
def test_checkpoints_longer_than_the_run_are_refused_naming_the_argument(case):
    iterations, checkpoints = case
    shown = f"{checkpoints!r:.80}"
    with pytest.raises(ValueError) as caught:
        cfrviz.solve(RPS, "regret_matching", iterations, checkpoints=checkpoints,
                     progress=False)
    message = str(caught.value)
    assert message.startswith(f"checkpoints holds more than {iterations:,} items (got {shown}")
    assert f"one per iteration of this {iterations:,}-iteration run" in message


@pytest.mark.parametrize("checkpoints", [itertools.count(1), range(1, 2**62),
                                         itertools.repeat(5)], ids=["count", "range", "repeat"])
def test_a_long_run_records_at_most_max_checkpoints(checkpoints):
    with pytest.raises(ValueError, match=f"checkpoints holds more than {MAX_CHECKPOINTS:,} items"
                                         r".*pick fewer, e.g. checkpoints=range\(1, "):
        cfrviz.solve(RPS, "regret_matching", 2**62, checkpoints=checkpoints, progress=False)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 30).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.integers(1, n), max_size=n))))
def test_checkpoints_within_the_run_are_kept(case):
    iterations, checkpoints = case
    trace = cfrviz.solve(RPS, "regret_matching", iterations, checkpoints=iter(checkpoints),
                         progress=False)
    assert list(trace.iterations) == sorted({*checkpoints, iterations})


def test_bounded_list_reads_at_most_one_item_past_its_limit():
    seen = []

    def counted():
        for i in itertools.count():
            seen.append(i)
            yield i

    with pytest.raises(ValueError, match=r"marks holds more than 3 items .* at most 3 marks"):
        bounded_list(counted(), "marks", 3, "marks")
    assert seen == [0, 1, 2, 3]
    assert bounded_list((1, 2), "marks", 2, "marks") == [1, 2]
    for bad in ("12", b"12", 5, None):
        with pytest.raises(ValueError, match="marks must be a list"):
            bounded_list(bad, "marks", 3, "marks")


# --- initial regrets -----------------------------------------------------------------------

TOO_LARGE = st.one_of(
    st.floats(min_value=1e150, exclude_min=True, allow_infinity=True),
    st.floats(max_value=-1e150, exclude_max=True, allow_infinity=True),
    st.just(float("nan")),
    st.integers(min_value=10**151, max_value=10**500),
    st.integers(min_value=10**151, max_value=10**500).map(lambda n: -n),
)
FINE = st.floats(-1e150, 1e150)


@settings(max_examples=80, deadline=None)
@given(bad=TOO_LARGE, others=st.lists(FINE, min_size=2, max_size=2), at=st.integers(0, 2),
       key=st.sampled_from(["P1", "P2"]), as_array=st.booleans())
def test_initial_regrets_beyond_the_bound_are_refused_naming_the_set(bad, others, at, key,
                                                                     as_array):
    row = [*others[:at], bad, *others[at:]]
    given_rows = {"P1": [0, 0, 0], "P2": [0, 0, 0], key: row}
    value = [given_rows["P1"], given_rows["P2"]] if as_array else {key: row}
    with pytest.raises(ValueError) as caught:
        cfrviz.solve(RPS, "regret_matching", 3, initial_regrets=value, progress=False)
    message = str(caught.value)
    assert message.startswith(f"initial_regrets[{key!r}] must be 3 finite numbers for actions "
                              "['R', 'P', 'S'], each between -1e+150 and 1e+150")
    assert "got " in message


@settings(max_examples=40, deadline=None)
@given(st.lists(FINE, min_size=3, max_size=3), st.lists(FINE, min_size=3, max_size=3))
def test_initial_regrets_within_the_bound_give_strategies(p1, p2):
    trace = cfrviz.solve(RPS, "regret_matching", 3, initial_regrets={"P1": p1, "P2": p2},
                         progress=False)
    sums = trace.average_strategy[-1].sum(axis=1)
    assert sums == pytest.approx([1.0, 1.0])
    assert 0.0 <= trace.exploitability[-1] <= 2.0
