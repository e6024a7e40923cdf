"""cfrviz: see how counterfactual regret minimization finds a Nash equilibrium.

The public contract::

    import cfrviz
    game = cfrviz.load_game("rock_paper_scissors")
    trace = cfrviz.solve(game, "regret_matching", iterations=10_000, seed=0)
    policy = trace.average_policy()
    policy.to_dict()
    cfrviz.exploitability(game, policy)
    cfrviz.expected_values(game, policy)

Names are imported on first use (PEP 562), so ``python -m cfrviz.check`` can
report a missing numpy or plotly instead of crashing on ``import cfrviz``.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

#: Public names by the module that defines them.
_MODULES = {
    "analysis.equilibrium": ("MatrixEquilibrium", "matrix_equilibrium"),
    "solvers.lp": ("ExactEquilibrium", "exact_equilibrium"),
    "analysis.evaluation": ("BestResponse", "best_response", "deviation_gains", "exploitability",
                            "expected_values", "nash_conv"),
    "core.policy": ("Policy",),
    "core.regret": ("regret_matching",),
    "core.trace": ("Trace",),
    "games": ("MatrixGame", "available_games", "load_game", "register_game"),
    "io": ("save_trace", "load_trace", "game_fingerprint"),
    "play.bots": ("bot", "BOTS", "always_raise", "always_call", "uniform_random", "strong_hands"),
    "play.match": ("head_to_head", "round_robin", "MatchResult", "RoundRobin"),
    "solvers": ("available_algorithms", "register_algorithm", "solve"),
    "views": ("TreeView", "tree_graph", "set_presenter", "kuhn_equilibrium_figure"),
    "widgets.explorer": ("explore", "TrainingExplorer"),
    "widgets.best_response": ("BestResponseExplorer",),
    "widgets.play": ("PlayTable", "play_against", "play_tabs"),
    "widgets.equilibrium": ("KuhnEquilibriumView",),
    "widgets.export": ("export",),
    "widgets.tree": ("plot_tree",),  # the view's, drawing into cfrviz's FigureWidget
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names}

__all__ = sorted(_EXPORTS)


# Any: the exports are looked up by name at run time; importing them here for the checker
# would be the static import this module avoids (typed code imports from their modules).
def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'cfrviz' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    # trace.save(path) for a trace reached through any public name: the file layer sits above
    # core, so the root lends Trace its writer, which loads cfrviz.io on the first save only.
    importlib.import_module(".core.trace.records", __name__).set_writer(_save_trace)
    globals()[name] = value
    return value


def _save_trace(trace: Any, path: Any) -> Any:
    """What ``trace.save(path)`` calls: :func:`cfrviz.save_trace`, imported when first used."""
    return importlib.import_module(".io", __name__).save_trace(trace, path)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
