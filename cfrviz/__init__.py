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

__version__ = "0.1.0"

_EXPORTS = {
    "MatrixEquilibrium": "analysis.equilibrium", "matrix_equilibrium": "analysis.equilibrium",
    "BestResponse": "analysis.evaluation", "best_response": "analysis.evaluation",
    "exploitability": "analysis.evaluation", "expected_values": "analysis.evaluation", "nash_conv": "analysis.evaluation",
    "MatrixGame": "games", "available_games": "games", "load_game": "games",
    "save_trace": "io", "load_trace": "io", "game_fingerprint": "io",
    "head_to_head": "play.match", "round_robin": "play.match", "MatchResult": "play.match", "RoundRobin": "play.match",
    "bot": "play.bots", "BOTS": "play.bots", "always_raise": "play.bots", "always_call": "play.bots",
    "uniform_random": "play.bots", "strong_hands": "play.bots",
    "Policy": "core.policy",
    "regret_matching": "core.regret",
    "available_algorithms": "solvers", "solve": "solvers",
    "Trace": "core.trace",
    "plot_tree": "views", "TreeView": "views", "tree_graph": "views", "set_presenter": "views",
    "kuhn_equilibrium_figure": "views",
    "explore": "widgets", "TrainingExplorer": "widgets", "BestResponseExplorer": "widgets",
    "PlayTable": "widgets", "play_against": "widgets", "KuhnEquilibriumView": "widgets",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'cfrviz' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
