"""Whatever a student's code does, each of the 18 coding checkers answers with a Feedback.

Generated cases: every coding checker x every misbehaviour (an endless loop, each kind of
``BaseException``, an exception whose ``__str__`` raises or loops, returned objects that are not
numbers: arrays of ``None`` shaped like the answer, an object whose ``__array__`` raises or
loops, a ``__float__`` and ``__repr__`` that raise, an int too large for a float, text) x when
(the first call, or a later call after right answers, deeper in the checker).  Each must give a
Feedback, not an exception; never print anything (no traceback, no answer); never quote the
reference solution; and a raise or a loop is never "correct".  Ctrl-C still stops the cell
(:class:`~cfrviz.exercises.coding.Interrupted`).  The whole table runs in the slow suite; the
quick suite runs the first call of four misbehaviours per checker.
"""

from __future__ import annotations

import importlib
import itertools
from functools import cache

import numpy as np
import pytest
from _misbehaving import BadFloat, Custom, Endless, EndlessArray, NoArray, Unprintable, spin
from _solutions import SOLUTIONS, run_solution

from cfrviz.exercises import Feedback, guard
from cfrviz.exercises.coding import Interrupted

#: solution file -> (module of cfrviz.exercises, checker, the function the solution defines)
CHECKERS = {
    "01_regret_matching": ("lesson01", "check_regret_matching", "my_regret_matching"),
    "01_sampled_regret_matching": ("sampled_rm", "check_sampled_regret_matching",
                                   "my_sampled_regret_matching"),
    "03_counterfactual_function": ("lesson03", "check_counterfactual_function",
                                   "my_counterfactual_values"),
    "03_regret_update": ("lesson03", "check_regret_update", "my_regret_update"),
    "04_my_cfr": ("lesson04", "check_my_cfr", "my_cfr"),
    "05_best_response_code": ("lesson05", "check_best_response_code", "my_best_response"),
    "06_chance_sampling": ("chance_sampling", "check_chance_sampling", "my_chance_sampling"),
    "06_external_sampling": ("lesson06", "check_external_sampling", "my_external_sampling"),
    "07_outcome_regrets": ("outcome_weights", "check_outcome_regrets", "my_outcome_regrets"),
    "08_cfr_plus_iteration": ("lesson08", "check_cfr_plus_iteration", "my_cfr_plus_iteration"),
    "09_predictive_rm": ("predictive", "check_predictive_step", "my_predictive_step"),
    "10_my_bot": ("bots", "check_my_bot", "my_bot"),
    "11_plan_constraints": ("sequence_form", "check_plan_constraints", "my_constraints"),
    "11_sequence_lp": ("sequence_form", "check_sequence_lp", "my_game_value"),
    "13_reservoir_add": ("lesson13", "check_reservoir_add", "my_add"),
    "13_sd_average": ("deep_targets", "check_sd_average", "my_sd_average"),
    "13_weighted_target": ("deep_targets", "check_weighted_target", "my_target"),
    "14_root_values": ("lesson14", "check_root_values", "my_root_values"),
}


def leaves(value, make):
    """``value`` with each number or array in it (in tuples, lists, dicts) replaced by
    ``make(leaf)``: the answer's shape, with something else inside."""
    if isinstance(value, (tuple, list)):
        return type(value)(leaves(v, make) for v in value)
    if isinstance(value, dict):
        return {k: leaves(v, make) for k, v in value.items()}
    if isinstance(value, (np.ndarray, float, int, np.number)) and not isinstance(value, bool):
        return make(value)
    return value


def nones(leaf):
    return np.full(np.shape(leaf), None, dtype=object) if np.ndim(leaf) else None


#: name -> (what replaces the student's answer, raises or loops: never "correct")
RAISES = {
    "loops": spin,
    "SystemExit": SystemExit(3),
    "sys.exit()": SystemExit(),
    "GeneratorExit": GeneratorExit(),
    "a BaseException of its own": Custom("odd"),
    "a BaseExceptionGroup": BaseExceptionGroup("two", [ValueError(1), Custom(2)]),
    "an exception whose str raises": Unprintable(),
    "an exception whose str loops": Endless(),
}
RETURNS = {
    "None in the answer's shape": lambda answer: leaves(answer, nones),
    "an __array__ that raises": lambda answer: leaves(answer, lambda _: NoArray()),
    "an __array__ that loops": lambda answer: leaves(answer, lambda _: EndlessArray()),
    "a __float__ and __repr__ that raise": lambda answer: leaves(answer, lambda _: BadFloat()),
    "an int too large for a float": lambda answer: leaves(answer, lambda _: 10 ** 400),
    "an object of its own": lambda _answer: NoArray(),
    "text": lambda _answer: "0.5",
}
WHEN = {"on the first call": 1, "on the third call": 3}
QUICK = ("loops", "SystemExit", "None in the answer's shape", "an __array__ that raises")


@cache
def reference(solution: str):
    return run_solution(f"{solution}.py")[CHECKERS[solution][2]]


def checker(solution: str):
    module, name, _ = CHECKERS[solution]
    return getattr(importlib.import_module(f"cfrviz.exercises.{module}"), name)


def misbehaving(solution: str, how: str, call: int):
    """The reference solution, which misbehaves ``how`` from its ``call``-th call on."""
    right = reference(solution)
    calls = [0]

    def student(*args, **kwargs):
        calls[0] += 1
        if calls[0] < call:
            return right(*args, **kwargs)
        if how in RAISES:
            if how == "loops":
                spin()
            raise RAISES[how]
        return RETURNS[how](right(*args, **kwargs))
    return student


def solution_lines(solution: str) -> list[str]:
    """The reference solution's lines of code long enough to recognise in a message."""
    lines = (line.strip() for line in (SOLUTIONS / f"{solution}.py").read_text().splitlines())
    return [line for line in lines if len(line) >= 25 and not line.startswith("#")]


#: The slow part is a rotation, not the whole product: each other misbehaviour and moment on
#: every SPREAD-th checker, shifted by one per checker, so every checker meets several and
#: each misbehaviour several checkers (the guard they go through is one: coding.run_student).
#: The whole product (468 slow cases) took about 6 minutes, most of CI's spare time.
SPREAD = 6


def table(quick: bool):
    pairs = list(itertools.product([*RAISES, *RETURNS], WHEN))
    for (i, solution), (j, (how, when)) in itertools.product(enumerate(CHECKERS),
                                                             enumerate(pairs)):
        if (how in QUICK and when == "on the first call") != quick:
            continue
        if not quick and (i + j) % SPREAD:
            continue
        mark = () if quick else (pytest.mark.slow,)
        yield pytest.param(solution, how, WHEN[when], id=f"{solution}-{how}-{when}", marks=mark)


@pytest.fixture
def quick_limit(monkeypatch):
    monkeypatch.setattr(guard, "TIME_LIMIT", 0.25)  # instead of 30 s: the loops end fast


@pytest.mark.usefixtures("quick_limit")
@pytest.mark.parametrize("solution, how, call", [*table(quick=True), *table(quick=False)])
def test_a_checker_answers_whatever_the_code_does(capsys, solution, how, call):
    feedback = checker(solution)(misbehaving(solution, how, call))
    assert isinstance(feedback, Feedback)
    assert capsys.readouterr() == ("", "")
    assert not any(line in feedback.message for line in solution_lines(solution))
    if how in RAISES:
        assert not feedback.correct, feedback.message


@pytest.mark.usefixtures("quick_limit")
@pytest.mark.parametrize("solution", CHECKERS)
def test_ctrl_c_in_the_student_code_stops_every_checker_cleanly(solution):
    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as stopped:
        checker(solution)(interrupted)
    if solution != "10_my_bot":  # the tournament's own (cfrviz/exercises/bots.py)
        assert isinstance(stopped.value, Interrupted)
