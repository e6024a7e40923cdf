"""cfrviz: see how counterfactual regret minimization finds a Nash equilibrium.

The public contract::

    import cfrviz
    game = cfrviz.load_game("rock_paper_scissors")
    trace = cfrviz.solve(game, "regret_matching", iterations=10_000, seed=0)
    policy = trace.average_policy()
    policy.to_dict()
    cfrviz.exploitability(game, policy)
    cfrviz.expected_values(game, policy)
"""

from .equilibrium import MatrixEquilibrium, matrix_equilibrium
from .evaluation import BestResponse, best_response, exploitability, expected_values, nash_conv
from .games import MatrixGame, available_games, load_game
from .policy import Policy
from .regret import regret_matching
from .solvers import available_algorithms, solve
from .trace import Trace

__version__ = "0.1.0"

__all__ = [
    "BestResponse", "MatrixEquilibrium", "MatrixGame", "Policy", "Trace",
    "available_algorithms", "available_games", "best_response", "exploitability",
    "expected_values", "load_game", "matrix_equilibrium", "nash_conv", "regret_matching",
    "solve",
]
