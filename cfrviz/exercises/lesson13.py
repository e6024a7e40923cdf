"""Checker for lesson 13's reservoir, a Deep CFR network's training memory.

``add(buffer, sample, seen, capacity, rng)`` is reservoir sampling (Vitter 1985, algorithm R):
append while ``seen < capacity``, then ``j = rng.integers(0, seen + 1)`` replaces ``buffer[j]``
when ``j < capacity``.  The checker offers samples ``SAMPLE_BASE + seen`` and compares the buffer
after every sample with :func:`reference_add`'s on the same draws (:data:`REPLAY`); a function
that draws differently is judged by how often each sample, and each pair, ends in the buffer
over many streams (:data:`DISTRIBUTION`, to :data:`TOLERANCE` standard errors).  A wrong answer
is named when a rule of :data:`SLOTS` (or ``"append-beyond"``) reproduces it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from . import Feedback, wrong
from .coding import checks, run_student, short_repr
from .diagnosis import Case, diagnose, fallback, screen

#: The stream of the exact replay: its length, the capacity and the generator's seed.
REPLAY = (60, 8, 2024)
#: The distribution test: stream length, capacity, number of streams.
DISTRIBUTION = (12, 3, 3000)
#: How many standard errors a frequency may stray before it counts as wrong.
TOLERANCE = 4.5
#: The checker offers sample ``SAMPLE_BASE + seen`` as number ``seen``: samples are never equal to
#: the counter, so storing ``seen`` instead of ``sample`` is caught.
SAMPLE_BASE = 100


def sample_of(seen: int) -> int:
    """The sample the checker offers as number ``seen`` (from 0)."""
    return SAMPLE_BASE + seen

#: Where a full buffer's new sample goes, ``rule(rng, seen, capacity)``: a slot, kept when
#: below the capacity, or None.  Algorithm R draws over the ``seen + 1`` samples offered so
#: far; the slips replace always, draw over ``seen`` (off by one: probability capacity / seen)
#: or never replace.
SLOTS: dict[str, Callable[[np.random.Generator, int, int], int | None]] = {
    "right": lambda rng, seen, _capacity: int(rng.integers(0, seen + 1)),
    "always-replace": lambda rng, _seen, capacity: int(rng.integers(0, capacity)),
    "off-by-one": lambda rng, seen, _capacity: int(rng.integers(0, seen)),
    "never-replace": lambda *_: None,
}
#: The probability that each rule of :data:`SLOTS` lets sample number ``seen`` into a full buffer.
ENTERS: dict[str, Callable[[int, int], float]] = {
    "right": lambda seen, capacity: capacity / (seen + 1), "always-replace": lambda *_: 1.0,
    "off-by-one": lambda seen, capacity: min(1.0, capacity / seen),
    "never-replace": lambda *_: 0.0,
}
#: The wrong versions the checker can name: the wrong slots, and appending beyond the capacity.
VARIANTS = ("always-replace", "off-by-one", "never-replace", "append-beyond")


def reference_add(buffer: list, sample, seen: int, capacity: int,
                  rng: np.random.Generator, rule: str = "right") -> None:
    """Algorithm R, or a wrong version: append while not full (always, for
    ``"append-beyond"``), then put the sample in the slot ``SLOTS[rule]`` draws."""
    if seen < capacity or rule == "append-beyond":
        buffer.append(sample)
        return
    j = SLOTS[rule](rng, seen, capacity)
    if j is not None and j < capacity:
        buffer[j] = sample


def keep_probabilities(name: str, length: int, capacity: int) -> np.ndarray:
    """The exact probability that each sample of a stream of ``length`` ends in the buffer
    under the rule ``name``: it enters (always while there is room, else with
    :data:`ENTERS`'), and each later sample that enters evicts it with probability
    ``1 / capacity`` (a uniform slot)."""
    def enters(seen: int) -> float:
        return 1.0 if seen < capacity else ENTERS[name](seen, capacity)

    out = np.empty(length)
    for i in range(length):
        p = enters(i)
        for k in range(max(i + 1, capacity), length):
            p *= 1.0 - enters(k) / capacity
        out[i] = p
    return out


_HINTS = {
    IndexError: "buffer has len(buffer) items, indices 0..len(buffer) - 1: while it is not full, "
                "append; once full, replace buffer[j] only for j < capacity.",
    TypeError: "add(buffer, sample, seen, capacity, rng): buffer is a list, seen and capacity "
               "whole numbers, rng a numpy Generator (rng.integers(0, n) is uniform in 0..n-1).",
    AttributeError: "rng is a numpy Generator: rng.integers(0, n) draws a whole number in "
                    "0..n-1, rng.random() a number in [0, 1).",
}

MESSAGES = {
    "always-replace": "Once the buffer is full, every new sample goes in: the buffer then holds "
                      "mostly the latest samples, and old iterations are forgotten, like a queue. "
                      "A sample must enter only with probability capacity / (seen + 1): draw "
                      "j = rng.integers(0, seen + 1) and replace buffer[j] only if j < capacity.",
    "off-by-one": "Off by one: a sample enters your full buffer with probability capacity / "
                  "seen (as with j = rng.integers(0, seen), uniform over seen numbers), so the "
                  "first one after the buffer fills always enters. The samples offered so far "
                  "are seen + 1, this one included: draw j = rng.integers(0, seen + 1).",
    "never-replace": "Once the buffer is full, nothing new ever enters: the buffer keeps the "
                     "first capacity samples forever, and a network trained on it never sees a "
                     "later iteration. Draw j = rng.integers(0, seen + 1) and replace buffer[j] "
                     "when j < capacity.",
    "append-beyond": "Your buffer grows past its capacity: you append every sample. The point of "
                     "a reservoir is a fixed memory: append only while len(buffer) < capacity, "
                     "then replace.",
}


def _stream(function, length: int, capacity: int, rng: np.random.Generator
            ) -> tuple[list | None, Feedback | None]:
    """Offer samples 0..length-1 to ``function``; the buffer after each, or what went wrong."""
    buffer: list = []
    after = []
    for seen in range(length):
        before = list(buffer)
        out, problem = run_student(
            lambda s=seen, b=buffer: function(b, sample_of(s), s, capacity, rng), name="`my_add`",
            hints=_HINTS)
        if problem is not None:
            return None, problem
        problem = _not_in_place(buffer, before, out, seen, capacity)
        if problem is not None:
            return None, problem
        after.append(list(buffer))
    return after, None


def _not_in_place(buffer: list, before: list, out, seen: int, capacity: int) -> Feedback | None:
    """A call that left the caller's buffer as it was where it must have changed: while it
    has room (every sample is appended), or when the function returned a different list (the
    change went into a new list the caller's buffer never sees)."""
    if buffer != before:
        return None
    new_list = isinstance(out, list) and out is not buffer and out != before
    if new_list:
        return wrong(f"After sample number {seen} your function returned a new list, "
                     f"{short_repr(out)}, and left `buffer` as it was. The memory is the "
                     "caller's list: change it in place (`buffer.append(sample)`, `buffer[j] = "
                     "sample`) so every later call sees the change; Deep CFR never copies its "
                     "reservoir.", "not-in-place")
    if seen < capacity:
        return wrong(f"After sample number {seen} `buffer` is unchanged, though it had room "
                     f"(capacity {capacity}): every sample is appended until the buffer is "
                     "full. Change the caller's list in place with `buffer.append(sample)`; "
                     "`buffer = buffer + [sample]` only makes a new list inside your "
                     "function.", "not-in-place")
    return None


def _frequencies(function, length: int, capacity: int, streams: int
                 ) -> tuple[tuple[np.ndarray, np.ndarray] | None, Feedback | None]:
    """How often each sample, and each pair of samples, ends in the buffer over ``streams``
    streams of one generator: (frequency per sample, frequency per pair (i, j))."""
    counts = np.zeros(length)
    pairs = np.zeros((length, length))
    rng = np.random.default_rng(7)
    for _ in range(streams):
        after, problem = _stream(function, length, capacity, rng)
        if problem is not None:
            return None, problem
        assert after is not None
        kept = np.unique(np.array([s - SAMPLE_BASE for s in after[-1]
                                   if isinstance(s, (int, np.integer))
                                   and 0 <= s - SAMPLE_BASE < length], dtype=int))
        counts[kept] += 1
        pairs[np.ix_(kept, kept)] += 1
    return (counts / streams, pairs / streams), None


def _fits(freq: np.ndarray, expected: np.ndarray, streams: int) -> bool:
    error = np.sqrt(np.maximum(expected * (1 - expected), 1e-4) / streams)
    return bool(np.all(np.abs(freq - expected) <= TOLERANCE * error))


def _counters(after: list[list]) -> bool:
    """True when every buffer held only counters: numbers 0..seen after sample ``seen``."""
    return all(isinstance(s, (int, np.integer)) and 0 <= s <= seen
               for seen, buffer in enumerate(after) for s in buffer)


def _shape_problem(after: list[list], capacity: int) -> Feedback | None:
    """A buffer of the wrong length, or holding something never offered."""
    for seen, buffer in enumerate(after):
        want = min(seen + 1, capacity)
        if len(buffer) > capacity:
            return wrong(MESSAGES["append-beyond"] + f" (After {seen + 1} samples with capacity "
                         f"{capacity} it held {len(buffer)}.)", "append-beyond")
        if len(buffer) != want:
            return wrong(f"After {seen + 1} samples with capacity {capacity} your buffer holds "
                         f"{len(buffer)} samples; it should hold {want}: every sample is "
                         "appended until the buffer is full, and after that its length stays "
                         "the capacity.", "length")
        offered = range(sample_of(0), sample_of(seen) + 1)
        if any(not isinstance(s, (int, np.integer)) or s not in offered for s in buffer):
            if _counters(after):
                return wrong(f"After {seen + 1} samples your buffer holds {buffer!r}: those are "
                             "counters (`seen`), not samples. The checker offers samples "
                             f"{sample_of(0)}, {sample_of(1)}, ... as numbers 0, 1, ...: store "
                             "`sample` itself.", "counter-not-sample")
            return wrong(f"After {seen + 1} samples your buffer holds {buffer!r}: only the "
                         f"samples offered (here the numbers {sample_of(0)}.."
                         f"{sample_of(seen)}) belong in it. Store `sample` itself.", "contents")
    return None


@checks("`my_add`", "check_reservoir_add(my_add)")
def check_reservoir_add(function) -> Feedback:
    """Exercise 1: ``function(buffer, sample, seen, capacity, rng)`` is reservoir sampling: the
    exact replay, else the distribution (see the module); a version of :data:`VARIANTS` is
    named when it reproduces the replay or its keep probabilities fit the frequencies."""
    verdict = _replay_verdict(function)
    if verdict is not None:
        return verdict
    length, capacity, streams = DISTRIBUTION
    measured, problem = _frequencies(function, length, capacity, streams)
    if problem is not None:
        return problem
    return diagnose(measured, distribution_cases(length, capacity, streams))


def _replay_verdict(function) -> Feedback | None:
    """The exact replay of :data:`REPLAY`: correct, a named variant, a buffer of the wrong
    shape, or None when the buffer differs from algorithm R's and the distribution decides."""
    length, capacity, seed = REPLAY
    after, problem = _stream(function, length, capacity, np.random.default_rng(seed))
    if problem is not None:
        return problem
    assert after is not None

    def replay(rule: str) -> list | None:
        return _stream(functools.partial(reference_add, rule=rule), length, capacity,
                       np.random.default_rng(seed))[0]

    def replays(name: str) -> Callable[[list], bool]:
        return lambda buffers: buffers == replay(name)

    right = replay("right")
    verdict = screen(after, (
        Case.correct(lambda buffers: buffers == right,
                     f"Your buffer matches algorithm R after each of {length} samples with the "
                     f"same random draws (capacity {capacity}). Every sample offered so far is "
                     "kept with the same probability, capacity / samples offered: the memory of "
                     "a Deep CFR run remembers early iterations as well as recent ones, in a "
                     "fixed space."),
        *(Case(name, replays(name), MESSAGES[name]) for name in VARIANTS),
    ))
    return verdict if verdict is not None else _shape_problem(after, capacity)


def distribution_cases(length: int, capacity: int, streams: int) -> tuple[Case, ...]:
    """The table over ``(freq, pairs)``, how often each sample and each pair of samples ended
    in the buffer over ``streams`` streams of ``length`` samples (:func:`_frequencies`)."""
    uniform = np.full(length, capacity / length)
    # A uniform reservoir keeps each sample capacity / length of the time, and every *pair*
    # equally often too, capacity (capacity - 1) / (length (length - 1)).
    upper = np.triu_indices(length, 1)
    together = capacity * (capacity - 1) / (length * (length - 1))

    def singles_fit(measured) -> bool:
        return _fits(measured[0], uniform, streams)

    def keeps_like(name: str) -> Callable[[tuple], bool]:
        return lambda measured: _fits(measured[0], keep_probabilities(name, length, capacity),
                                      streams)

    def pairs_off(measured) -> str:
        pairs = measured[1]
        worst = int(np.argmax(np.abs(pairs[upper] - together)))
        i, j = upper[0][worst], upper[1][worst]
        return (f"Each sample alone ends in your buffer {capacity}/{length} of the time, as it "
                f"should, but pairs do not: samples {i} and {j} were in it together "
                f"{pairs[i, j]:.1%} of the time over {streams:,} streams, against "
                f"{together:.1%} for a uniformly random set of {capacity}. A sample that enters "
                "must evict a uniformly random slot, whichever sample is in it: draw j = "
                "rng.integers(0, seen + 1) and replace buffer[j] when j < capacity.")

    def singles_off(measured) -> str:
        freq = measured[0]
        worst = int(np.argmax(np.abs(freq - uniform)))
        return (f"Over {streams:,} streams of {length} samples with capacity {capacity}, sample "
                f"{worst} ended in the buffer {freq[worst]:.1%} of the time; every sample "
                f"should end there {capacity}/{length} = {capacity / length:.0%} of the time. "
                "Append while the buffer is not full; after that draw j = rng.integers(0, seen "
                "+ 1) and replace buffer[j] when j < capacity.")

    return (
        Case.correct(lambda measured: singles_fit(measured) and _fits(
            measured[1][upper], np.full(len(upper[0]), together), streams),
                     f"Your buffer draws its random numbers differently from algorithm R, but "
                     f"over {streams:,} streams of {length} samples (capacity {capacity}) each "
                     f"sample ended in the buffer {capacity}/{length} of the time, and each "
                     "pair of samples together "
                     f"{capacity * (capacity - 1)}/{length * (length - 1)} of the time, as they "
                     "should: the buffer is a uniformly random set of samples."),
        Case("pairs", singles_fit, pairs_off),
        *(Case(name, keeps_like(name), MESSAGES[name])
          for name in ("always-replace", "off-by-one", "never-replace")),
        fallback(singles_off),
    )
