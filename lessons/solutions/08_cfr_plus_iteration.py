import numpy as np

from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass


def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    """Iteration t (1, 2, ...) of CFR+: returns the new (regret_sum, strategy_sum)."""
    for player in (0, 1):  # alternating: player 2 plays against player 1's updated strategy
        strategy = regret_matching(regret_sum, tree.legal_mask)
        regret, weights = cfr_pass(tree, strategy, player)
        # regret matching+: add this iteration's regret, then floor the stored sum at zero
        regret_sum = np.maximum(regret_sum + regret, 0)
        # linear averaging: iteration t's strategy weighs t
        strategy_sum = strategy_sum + t * weights
    return regret_sum, strategy_sum
