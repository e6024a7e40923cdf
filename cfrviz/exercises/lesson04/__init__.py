"""Checkers and small helpers for lesson 04, CFR on Kuhn poker.

Exercise 1 asks for one number read off the training explorer: the
probability that player 1 calls with a queen after check–bet (set ``"Qpb"``)
in the *average* strategy after :data:`ITERATION` iterations of the run the
student's explorer shows.
Exercise 2 asks for the ``alpha`` of the equilibrium a run landed on
(Kuhn, 1950: player 1 bets a jack with ``alpha``, a king with ``3 alpha`` and
calls with a queen with ``alpha + 1/3``).
Exercise 3 is vanilla CFR written by the student, ``my_cfr(tree, iterations)``,
compared with :func:`cfrviz.solve` and with the wrong versions of
:func:`cfr_variant_run` (:func:`check_my_cfr`).

Exercises 1 and 2 live in :mod:`.reading`, exercise 3 in :mod:`.cfr`; the lesson and
lesson 05 import everything from here.
"""

from ...views.equilibrium import nearest_alpha
from .cfr import (
    AVERAGE_WEIGHTS,
    CFR_MISTAKES,
    CFR_RUNS,
    DIAGNOSE_ITERATIONS,
    FLOAT_TOLERANCE,
    KUHN_WEIGHTS,
    PLAYER_2_FIRST,
    REGRET_WEIGHTS,
    cfr_variant_run,
    check_my_cfr,
)
from .reading import (
    ACTION,
    ALPHA_TOLERANCE,
    EXPLORER_ITERATIONS,
    ITERATION,
    READ_TOLERANCE,
    SET,
    alpha_cases,
    alpha_estimates,
    alpha_figure,
    average_from_current,
    check_alpha,
    check_average_at_set,
    describe_kuhn_set,
    kuhn_coordinates,
    own_reach_history,
    reading_cases,
    strategy_table,
)

__all__ = ["ACTION", "ALPHA_TOLERANCE", "AVERAGE_WEIGHTS", "CFR_MISTAKES", "CFR_RUNS",
           "DIAGNOSE_ITERATIONS", "EXPLORER_ITERATIONS", "FLOAT_TOLERANCE", "ITERATION",
           "KUHN_WEIGHTS", "PLAYER_2_FIRST", "READ_TOLERANCE", "REGRET_WEIGHTS", "SET",
           "alpha_cases", "alpha_estimates", "alpha_figure", "average_from_current",
           "cfr_variant_run", "check_alpha", "check_average_at_set", "check_my_cfr",
           "describe_kuhn_set", "kuhn_coordinates", "nearest_alpha", "own_reach_history",
           "reading_cases", "strategy_table"]
