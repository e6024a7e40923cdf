"""Two names of :mod:`cfrviz.solvers.subgame` kept at their old address, for the exercise
checkers that still import or name them here (``exercises/lesson14.py`` imports
``root_values``; ``exercises/lesson03.py`` names ``node_values`` in a message).  Everything else
imports :mod:`cfrviz.solvers.subgame`; this module goes once those two move.
"""

from __future__ import annotations

from ..solvers.subgame import node_values, root_values

__all__ = ["node_values", "root_values"]
