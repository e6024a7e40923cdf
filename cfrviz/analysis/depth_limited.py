"""Depth-limited solving, which lives in the solving layer: :mod:`cfrviz.solvers.depth_limited`.

This module keeps the name lessons and notebooks import it by.
"""

from __future__ import annotations

from ..solvers.depth_limited import (
    SMOOTHING,
    LeafValues,
    Trunk,
    ValueNetwork,
    check_range,
    combine,
    continuation_values,
    exact_values,
    random_range,
    resolved_continuation,
    solve_leaf,
    solve_trunk,
    train_value_network,
    trunk,
    value_samples,
)

__all__ = ["SMOOTHING", "LeafValues", "Trunk", "ValueNetwork", "check_range", "combine",
           "continuation_values", "exact_values", "random_range", "resolved_continuation",
           "solve_leaf", "solve_trunk", "train_value_network", "trunk", "value_samples"]
