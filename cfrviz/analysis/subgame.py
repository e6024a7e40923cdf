"""Subgame solving, which lives in the solving layer: :mod:`cfrviz.solvers.subgame`.

This module keeps the name lessons, notebooks and the widgets import it by.
"""

from __future__ import annotations

from ..solvers.subgame import (
    MAX_CHUNKS,
    METHOD_LABELS,
    METHODS,
    Resolution,
    ResolveStep,
    RootValues,
    TreeBuilder,
    deal_roots,
    hands_at,
    node_values,
    resolve,
    resolve_all,
    resolve_steps,
    root_values,
    subtree_end,
)

__all__ = ["MAX_CHUNKS", "METHODS", "METHOD_LABELS", "ResolveStep", "Resolution", "RootValues",
           "TreeBuilder", "deal_roots", "hands_at", "node_values", "resolve", "resolve_all",
           "resolve_steps", "root_values", "subtree_end"]
