"""Checkers and small helpers for lesson 04, CFR on Kuhn poker: exercises 1 and 2 (a number
read off the training explorer, the ``alpha`` of the equilibrium a run landed on) live in
:mod:`.reading`, exercise 3 (``my_cfr``, vanilla CFR written by the student) in :mod:`.cfr`.
The lesson, lesson 05 and the tests import what they use from here."""

from ...views.equilibrium import nearest_alpha
from .cfr import CFR_MISTAKES, CFR_RUNS, FLOAT_TOLERANCE, cfr_variant_run, check_my_cfr
from .reading import (
    ACTION,
    ALPHA_TOLERANCE,
    EXPLORER_ITERATIONS,
    ITERATION,
    READ_TOLERANCE,
    SET,
    alpha_estimates,
    alpha_figure,
    average_from_current,
    check_alpha,
    check_average_at_set,
    describe_kuhn_set,
    kuhn_coordinates,
    own_reach_history,
    strategy_table,
)

__all__ = ["ACTION", "ALPHA_TOLERANCE", "CFR_MISTAKES", "CFR_RUNS", "EXPLORER_ITERATIONS",
           "FLOAT_TOLERANCE", "ITERATION", "READ_TOLERANCE", "SET", "alpha_estimates",
           "alpha_figure", "average_from_current", "cfr_variant_run", "check_alpha",
           "check_average_at_set", "check_my_cfr", "describe_kuhn_set", "kuhn_coordinates",
           "nearest_alpha", "own_reach_history", "strategy_table"]
