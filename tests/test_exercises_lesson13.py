"""Lesson 13 checker: accepts reservoir sampling, names each typical slip, never raises."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import as_cell, run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson13 as ex

STARTER = '''
def my_add(buffer, sample, seen, capacity, rng):
    raise NotImplementedError
'''

MISTAKES = {
    "always-replace": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    else:
        buffer[rng.integers(0, capacity)] = sample
''',
    "off-by-one": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
        return
    j = rng.integers(0, seen)
    if j < capacity:
        buffer[j] = sample
''',
    "never-replace": '''
def my_add(buffer, sample, seen, capacity, rng):
    if len(buffer) < capacity:
        buffer.append(sample)
''',
    "append-beyond": '''
def my_add(buffer, sample, seen, capacity, rng):
    buffer.append(sample)
''',
}

#: Mistakes written with other random draws: named from the distribution, not the replay.
MISTAKES_OTHER_DRAWS = {
    "off-by-one": '''
def my_add(buffer, sample, seen, capacity, rng):
    if len(buffer) < capacity:
        buffer.append(sample)
    elif rng.random() < capacity / seen:
        buffer[rng.integers(0, capacity)] = sample
''',
    "always-replace": '''
def my_add(buffer, sample, seen, capacity, rng):
    if len(buffer) < capacity:
        buffer.append(sample)
    else:
        buffer[int(rng.random() * capacity)] = sample
''',
}


def test_solution_passes_on_the_exact_replay():
    feedback = ex.check_reservoir_add(run_solution("13_reservoir_add.py")["my_add"])
    assert feedback.status == CORRECT and "algorithm R" in feedback.message


def test_other_draws_with_the_right_distribution_pass():
    source = '''
def my_add(buffer, sample, seen, capacity, rng):
    if len(buffer) < capacity:
        buffer.append(sample)
    elif rng.random() < capacity / (seen + 1):
        buffer[rng.integers(0, capacity)] = sample
'''
    feedback = ex.check_reservoir_add(as_cell(source)["my_add"])
    assert feedback.status == CORRECT and "differently" in feedback.message


#: Reservoirs that never change the caller's buffer (the exercise asks to change it in place).
NOT_IN_PLACE = {
    "returns a new list": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        return buffer + [sample]
    j = rng.integers(0, seen + 1)
    if j < capacity:
        buffer = list(buffer)
        buffer[j] = sample
    return buffer
''',
    "rebinds the name": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer = buffer + [sample]
        return
    j = rng.integers(0, seen + 1)
    if j < capacity:
        buffer = buffer[:j] + [sample] + buffer[j + 1:]
''',
    "a copy once full": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
        return buffer
    j = rng.integers(0, seen + 1)
    if j < capacity:
        kept = list(buffer)
        kept[j] = sample
        return kept
    return buffer
''',
}


@pytest.mark.parametrize("name", NOT_IN_PLACE)
def test_a_buffer_left_unchanged_is_refused(name):
    feedback = ex.check_reservoir_add(as_cell(NOT_IN_PLACE[name])["my_add"])
    assert feedback.status == WRONG and feedback.mistake == "not-in-place", feedback
    assert "in place" in feedback.message


def test_changing_the_buffer_and_returning_it_too_is_accepted():
    source = '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
        return list(buffer)
    j = rng.integers(0, seen + 1)
    if j < capacity:
        buffer[j] = sample
    return buffer[:]
'''
    assert ex.check_reservoir_add(as_cell(source)["my_add"]).correct


def test_starter_and_blank_are_not_done():
    assert ex.check_reservoir_add(None).status == NOT_DONE
    assert ex.check_reservoir_add(as_cell(STARTER)["my_add"]).status == NOT_DONE


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_each_mistake_is_named(mistake):
    feedback = ex.check_reservoir_add(as_cell(MISTAKES[mistake])["my_add"])
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("mistake", list(MISTAKES_OTHER_DRAWS))
def test_mistakes_with_other_draws_are_named_from_the_distribution(mistake):
    feedback = ex.check_reservoir_add(as_cell(MISTAKES_OTHER_DRAWS[mistake])["my_add"])
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


def test_every_variant_is_reproduced_by_its_own_test():
    assert set(ex.VARIANTS) == set(MISTAKES)


def test_keep_probabilities():
    assert np.allclose(ex.keep_probabilities("right", 12, 3), 0.25)
    assert np.allclose(ex.keep_probabilities("never-replace", 5, 2), [1, 1, 0, 0, 0])
    assert np.isclose(ex.keep_probabilities("always-replace", 5, 2)[-1], 1.0)


def test_a_crash_names_the_line():
    source = '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    else:
        buffer[seen] = sample
'''
    feedback = ex.check_reservoir_add(as_cell(source)["my_add"])
    assert feedback.status == WRONG and feedback.mistake == "crash"
    assert "IndexError" in feedback.message and "line 6" in feedback.message
    assert "buffer[seen] = sample" in feedback.message


def test_wrong_length_and_contents_are_explained():
    lazy = as_cell('''
def my_add(buffer, sample, seen, capacity, rng):
    buffer = buffer + [sample]
''')["my_add"]
    assert ex.check_reservoir_add(lazy).mistake == "not-in-place"
    twice = as_cell('''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.extend([sample, sample])
''')["my_add"]
    assert ex.check_reservoir_add(twice).mistake == "length"
    copies = as_cell('''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(seen * 100)
''')["my_add"]
    assert ex.check_reservoir_add(copies).mistake == "contents"


def test_uniformly_wrong_without_a_name():
    source = '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    elif rng.random() < 0.5:
        buffer[0] = sample
'''
    feedback = ex.check_reservoir_add(as_cell(source)["my_add"])
    assert feedback.status == WRONG and feedback.mistake is None
    assert "3/12" in feedback.message


@pytest.mark.parametrize("junk", [3, "add", [1, 2], object()], ids=stable_id)
def test_junk_never_raises(junk):
    feedback = ex.check_reservoir_add(junk)
    assert feedback.status == WRONG and feedback.mistake == "not-callable"


# --- by class of hole (issue 22 item 2): samples distinct from counters, pairs not one at a time --

RIGHT_STYLES = {
    "pure python, other draws": '''
def my_add(buffer, sample, seen, capacity, rng):
    if len(buffer) < capacity:
        buffer.append(sample)
    elif rng.random() * (seen + 1) < capacity:
        buffer[int(rng.random() * capacity)] = sample
''',
    "numpy choice": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    elif rng.choice(seen + 1) < capacity:
        buffer[rng.choice(capacity)] = sample
''',
    "pop and append (another order, same set)": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
        return
    j = rng.integers(0, seen + 1)
    if j < capacity:
        buffer.pop(j)
        buffer.append(sample)
''',
    "iteration over the slots": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
        return
    j = rng.integers(0, seen + 1)
    for slot in range(capacity):
        if slot == j:
            buffer[slot] = sample
''',
}

WRONG_STYLES = {
    "counter-not-sample": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(seen)
        return
    j = rng.integers(0, seen + 1)
    if j < capacity:
        buffer[j] = seen
''',
    # Every slot a reservoir of size one over its own samples (seen % capacity): each sample
    # alone is kept 3/12 of the time, exactly right, but two samples of one slot never together.
    "pairs": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    elif rng.random() < 1 / (seen // capacity + 1):
        buffer[seen % capacity] = sample
''',
    "cyclic slot": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    elif rng.random() < capacity / (seen + 1):
        buffer[seen % capacity] = sample
''',
    "evicts the oldest": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    elif rng.random() < capacity / (seen + 1):
        buffer.pop(0)
        buffer.append(sample)
''',
    "too rarely": '''
def my_add(buffer, sample, seen, capacity, rng):
    if seen < capacity:
        buffer.append(sample)
    elif rng.random() < capacity / (seen + 2):
        buffer[rng.integers(0, capacity)] = sample
''',
}


@pytest.mark.parametrize("style", RIGHT_STYLES)
def test_right_code_in_any_style_is_accepted(style):
    feedback = ex.check_reservoir_add(as_cell(RIGHT_STYLES[style])["my_add"])
    assert feedback.correct, (style, feedback.message)


#: The mistake each of WRONG_STYLES gets: None where no wrong version explains it, and the
#: message then names the sample whose frequency is furthest off.
WRONG_STYLE_MISTAKE = {"counter-not-sample": "counter-not-sample", "pairs": "pairs",
                       "cyclic slot": None, "evicts the oldest": None, "too rarely": None}


@pytest.mark.parametrize("name", WRONG_STYLES)
def test_plausible_wrong_code_is_rejected(name):
    feedback = ex.check_reservoir_add(as_cell(WRONG_STYLES[name])["my_add"])
    assert feedback.status == WRONG and feedback.mistake == WRONG_STYLE_MISTAKE[name], (
        name, feedback.message)
    if feedback.mistake is None:
        assert "ended in the buffer" in feedback.message


@pytest.mark.parametrize("name", ["counter-not-sample", "pairs"])
def test_counter_and_pair_holes_are_named(name):
    # "pairs" is only reported once every sample alone fits capacity / length: slot k holds one
    # of the samples k, k + 3, k + 6, k + 9, each with probability 1/4 = 3/12.
    feedback = ex.check_reservoir_add(as_cell(WRONG_STYLES[name])["my_add"])
    assert feedback.mistake == name, feedback.message


def test_samples_are_never_the_counter():
    assert all(ex.sample_of(seen) != seen for seen in range(ex.REPLAY[0]))
