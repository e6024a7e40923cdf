import numpy as np


def my_predictive_step(regret_sum, regret, legal_mask, t):
    """PCFR+'s step for one player's sets after its pass at iteration t (1, 2, ...).

    Returns (new regret_sum, strategy to play next, weight of iteration t in the average).
    """
    # regret matching+, as in CFR+: add this iteration's regrets, floor the stored sum at zero
    regret_sum = np.maximum(regret_sum + regret, 0)
    # the prediction: the next regrets will be like these, so play as if they were already added
    positive = np.where(legal_mask, np.maximum(regret_sum + regret, 0), 0)
    total = positive.sum(axis=1, keepdims=True)
    uniform = legal_mask / legal_mask.sum(axis=1, keepdims=True)
    strategy = np.where(total > 0, positive / np.where(total > 0, total, 1), uniform)
    # quadratic averaging: iteration t's strategy weighs t squared
    return regret_sum, strategy, t**2
