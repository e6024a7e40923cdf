"""Plain, readable versions of the algorithms, kept as references.

These are the versions the lessons show.  They favour clarity over speed; the
tests check that the fast solvers agree with them to 1e-12 at every iteration.
"""

from __future__ import annotations

import numpy as np

from .regret import regret_matching


def self_play_regret_matching(payoffs, iterations: int, initial_regrets=None):
    """Regret matching in self-play with expected-payoff updates, one iteration at a time.

    Parameters
    ----------
    payoffs : array_like, shape (m, n)
        Player 1's payoffs.
    iterations : int
    initial_regrets : (array_like, array_like), optional
        Starting cumulative regrets of player 1 and player 2.

    Yields
    ------
    dict
        After each iteration: ``strategies`` (played), ``regrets`` (this
        iteration's), ``cumulative_regrets`` and ``average_strategies``.
    """
    A = np.asarray(payoffs, dtype=float)
    m, n = A.shape
    cumulative = [np.zeros(m), np.zeros(n)]
    if initial_regrets is not None:
        cumulative = [np.array(r, dtype=float) for r in initial_regrets]
    strategy_sum = [np.zeros(m), np.zeros(n)]
    for t in range(1, iterations + 1):
        x = regret_matching(cumulative[0])
        y = regret_matching(cumulative[1])
        # What each action would have earned against the opponent's mix...
        action_values = [A @ y, -(x @ A)]
        # ...minus what the mix actually earned: "how much better that choice would have been".
        regrets = [action_values[0] - x @ action_values[0],
                   action_values[1] - y @ action_values[1]]
        cumulative = [cumulative[0] + regrets[0], cumulative[1] + regrets[1]]
        strategy_sum = [strategy_sum[0] + x, strategy_sum[1] + y]
        yield {
            "strategies": (x, y),
            "regrets": tuple(regrets),
            "cumulative_regrets": tuple(cumulative),
            "average_strategies": (strategy_sum[0] / t, strategy_sum[1] / t),
        }
