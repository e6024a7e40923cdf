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
    "MatrixEquilibrium": "equilibrium", "matrix_equilibrium": "equilibrium",
    "BestResponse": "evaluation", "best_response": "evaluation",
    "exploitability": "evaluation", "expected_values": "evaluation", "nash_conv": "evaluation",
    "MatrixGame": "games", "available_games": "games", "load_game": "games",
    "save_trace": "io", "load_trace": "io", "game_fingerprint": "io",
    "head_to_head": "play", "round_robin": "play", "MatchResult": "play", "RoundRobin": "play",
    "bot": "bots", "BOTS": "bots", "always_raise": "bots", "always_call": "bots",
    "uniform_random": "bots", "strong_hands": "bots",
    "Policy": "policy",
    "regret_matching": "regret",
    "available_algorithms": "solvers", "solve": "solvers",
    "Trace": "trace",
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
