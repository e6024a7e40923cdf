"""cfrviz.solvers.deep_cfr.budget: a Deep CFR run is estimated from its parameters and refused
past a stated limit before it starts (issue 30: ``hidden=4096, traversals=10**6,
capacity=10**8``, each inside its declared range, ran with no answer and no estimate).

Nothing here trains a network: refused runs stop before, and runs within the budget are only
estimated.
"""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.solvers.deep_cfr.budget import (
    MAX_RUN_BYTES,
    MAX_SECONDS,
    WARN_SECONDS,
    check_budget,
    estimate,
)
from cfrviz.solvers.network import MAX_PARAMETERS, MLP
from cfrviz.solvers.registry import ALGORITHMS

KUHN = cfrviz.load_game("kuhn_poker")
DECLARED = {p.name: p for p in ALGORITHMS.lookup("deep_cfr").params}
DEFAULTS = {name: p.default for name, p in DECLARED.items()}


def within(name: str) -> st.SearchStrategy[int]:
    """Whole numbers inside the declared range of ``name``, with its ends likelier."""
    low, high = int(DECLARED[name].low), int(DECLARED[name].high)
    return st.one_of(st.integers(low, high), st.sampled_from([low, high]))


COMBINATIONS = st.fixed_dictionaries({
    "hidden": within("hidden"), "traversals": within("traversals"),
    "capacity": within("capacity"), "train_steps": within("train_steps"),
    "batch_size": within("batch_size")})


def test_the_issue_case_is_refused_saying_the_estimate_and_the_limit():
    with pytest.raises(ValueError) as caught:
        cfrviz.solve(KUHN, "deep_cfr", 10, hidden=4096, traversals=10**6, capacity=10**8,
                     progress=False)
    message = str(caught.value)
    assert message.startswith("deep_cfr on kuhn_poker with 10 iterations, hidden=4,096, "
                              "traversals=1,000,000, capacity=100,000,000, train_steps=300, "
                              "batch_size=0 would need at least about ")
    assert re.search(r"up to [\d.]+ GiB of memory .* more than the 4\.0 GiB a run may take: "
                     r"lower hidden, traversals, capacity, train_steps or iterations", message)


@settings(max_examples=150, deadline=None)
@given(params=COMBINATIONS, iterations=st.integers(1, 10_000))
def test_a_combination_is_refused_exactly_when_its_estimate_passes_a_limit(params, iterations):
    values = {**DEFAULTS, **params}
    cost = estimate(KUHN, iterations, values)
    if cost.nbytes <= MAX_RUN_BYTES and cost.seconds <= MAX_SECONDS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_budget(KUHN, iterations, values, MAX_SECONDS)  # estimated, never run
        return
    with pytest.raises(ValueError) as caught:
        cfrviz.solve(KUHN, "deep_cfr", iterations, progress=False, **params)
    message = str(caught.value)
    for name, value in params.items():
        assert f"{name}={value:,}" in message
    assert ("a run may take" in message) if cost.nbytes > MAX_RUN_BYTES else \
        ("max_seconds=600" in message and "pass a larger max_seconds" in message)


@settings(max_examples=60, deadline=None)
@given(params=COMBINATIONS, iterations=st.integers(1, 1000), name=st.sampled_from(
    ["hidden", "traversals", "capacity", "train_steps"]), factor=st.integers(2, 10))
def test_the_estimate_grows_with_every_parameter(params, iterations, name, factor):
    values = {**DEFAULTS, **params}
    bigger = {**values, name: min(values[name] * factor, int(DECLARED[name].high))}
    small, large = estimate(KUHN, iterations, values), estimate(KUHN, iterations, bigger)
    assert large.seconds >= small.seconds and large.nbytes >= small.nbytes
    more = estimate(KUHN, iterations * factor, values)
    assert more.seconds >= small.seconds and more.nbytes >= small.nbytes


def test_a_long_run_within_the_limit_starts_with_the_estimate():
    values = {**DEFAULTS, "hidden": 1024}
    cost = estimate(KUHN, 20, values)
    assert WARN_SECONDS < cost.seconds < MAX_SECONDS
    with pytest.warns(UserWarning, match=r"hidden=1,024.* will take at least about \d+ min"):
        check_budget(KUHN, 20, values, MAX_SECONDS)


def test_max_seconds_lowers_or_raises_the_limit():
    with pytest.raises(ValueError, match=r"more than max_seconds=1e-06 .*pass a larger "
                                         r"max_seconds to run it anyway"):
        cfrviz.solve(KUHN, "deep_cfr", 2, max_seconds=1e-6, progress=False)
    values = {**DEFAULTS, "hidden": 4096}
    with pytest.raises(ValueError, match="max_seconds=600"):
        check_budget(KUHN, 10, values, MAX_SECONDS)
    with pytest.warns(UserWarning):
        check_budget(KUHN, 10, values, 10**6)  # allowed, with the estimate
    for bad in (0, -1, float("nan"), True, "600"):
        with pytest.raises(ValueError, match="max_seconds must be a finite number > 0"):
            cfrviz.solve(KUHN, "deep_cfr", 1, max_seconds=bad)


# --- the network's own sizes ---------------------------------------------------------------

BAD_SIZE = st.one_of(st.integers(max_value=0), st.floats(), st.booleans(), st.text(max_size=2),
                     st.none())


@settings(max_examples=80, deadline=None)
@given(sizes=st.lists(st.integers(1, 8), min_size=2, max_size=4), bad=BAD_SIZE,
       at=st.integers(0, 3))
def test_an_mlp_refuses_sizes_that_are_not_whole_numbers_from_one(sizes, bad, at):
    sizes[min(at, len(sizes) - 1)] = bad
    with pytest.raises(ValueError, match="an MLP needs at least an input and an output size, "
                                         "all whole numbers >= 1; got "):
        MLP(sizes)


def test_an_mlp_past_max_parameters_is_refused_before_it_is_allocated():
    with pytest.raises(ValueError, match=f"more than the {MAX_PARAMETERS:,}"):
        MLP((20, 10**6, 10**6, 2))
