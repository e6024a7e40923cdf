"""The sequence-form linear program, which lives in the solving layer: :mod:`cfrviz.solvers.lp`.

This module keeps the name lessons, exercises and widgets import it by.
"""

from __future__ import annotations

from ..solvers.lp import (
    EXACT_SEQUENCES,
    UNREACHED,
    ExactEquilibrium,
    SequenceForm,
    behaviour,
    certified_value,
    exact_equilibrium,
    plan_constraints,
    sequence_form,
    solve_sequence_form,
)

__all__ = ["EXACT_SEQUENCES", "UNREACHED", "ExactEquilibrium", "SequenceForm", "behaviour",
           "certified_value", "exact_equilibrium", "plan_constraints", "sequence_form",
           "solve_sequence_form"]
