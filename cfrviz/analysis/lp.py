"""Names of :mod:`cfrviz.solvers.lp` kept at their old address, for what still imports them
here: ``exercises/sequence_form.py`` (``sequence_form``, ``plan_constraints``) and the root's
lazy export of ``ExactEquilibrium`` and ``exact_equilibrium``.  Everything else imports
:mod:`cfrviz.solvers.lp`; this module goes once those move.
"""

from __future__ import annotations

from ..solvers.lp import ExactEquilibrium, exact_equilibrium, plan_constraints, sequence_form

__all__ = ["ExactEquilibrium", "exact_equilibrium", "plan_constraints", "sequence_form"]
