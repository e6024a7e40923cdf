"""The answers of lesson 11's exercises (10b before the renumbering), as an output would give
them away (issue 29).

Exercises 1 and 2 (the constraints E x = e, the linear program) are code; exercise 2's value,
-1/18, is given in its own statement.  Exercise 3 is the number of sequences per player at which
the LP's fitted memory reaches 16 GB, from the recorded benchmark's fit, as the lesson fits it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cfrviz.analysis.lp_scaling import load_recorded, power_law
from cfrviz.exercises import lesson10

RECORDED = Path(__file__).resolve().parents[2] / "data" / "benchmarks" / "lp_vs_cfr.json"


def _lp_budget() -> list[str]:
    rows, _ = load_recorded(RECORDED)
    large = [r for r in rows if r.sequences >= 1000]
    exponent, factor = power_law([r.sequences for r in large],
                                 [r.lp_bytes / 1e6 for r in large])
    n = lesson10.sequences_within(lesson10.BUDGET_MB, exponent, factor)
    return [f"{n:,.0f}", f"{n:.0f}", f"{n:.4g}", f"{n:.3g}"]


ANSWERS: dict[str, Callable[[], list[str]]] = {
    "exercise-lp-budget": _lp_budget,
}
