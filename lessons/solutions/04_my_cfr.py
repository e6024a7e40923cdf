import numpy as np


def my_cfr(tree, iterations):
    """Vanilla CFR on `tree` for `iterations` iterations; returns the average strategy."""
    mask = tree.legal_mask
    regret_sum = np.zeros(mask.shape)    # cumulative counterfactual regrets
    strategy_sum = np.zeros(mask.shape)  # strategies weighted by the owner's own reach

    def regret_matching(regrets):
        positive = np.where(mask, np.maximum(regrets, 0.0), 0.0)
        totals = positive.sum(axis=1, keepdims=True)
        uniform = mask / mask.sum(axis=1, keepdims=True)
        # Where no regret is positive, play every legal action equally often.
        return np.where(totals > 0, positive / np.where(totals > 0, totals, 1.0), uniform)

    def walk(node, player, reach, strategy):
        kind = tree.player[node]
        if kind == -2:                                   # terminal: the payoff
            return tree.utility[node, player]
        if kind == -1:                                   # chance: average over the outcomes
            value = 0.0
            for child in tree.children[node]:
                p = tree.chance_prob[child]
                value += p * walk(child, player, reach * np.array([1, 1, p]), strategy)
            return value
        info = tree.infoset[node]
        children = tree.children[node]
        action_values = np.zeros(len(children))
        for a, child in enumerate(children):
            step = np.ones(3)
            step[kind] = strategy[info, a]               # the mover's reach takes the action
            action_values[a] = walk(child, player, reach * step, strategy)
        value = strategy[info, :len(children)] @ action_values
        if kind == player:
            # Counterfactual regret: weighted by chance's and the opponent's reach only.
            regret_sum[info, :len(children)] += reach[2] * reach[1 - player] * (action_values - value)
            # The average: each strategy weighted by the player's own reach.
            strategy_sum[info, :len(children)] += reach[player] * strategy[info, :len(children)]
        return value

    for _ in range(iterations):
        for player in (0, 1):                            # alternating updates
            strategy = regret_matching(regret_sum)
            walk(0, player, np.ones(3), strategy)
    return strategy_sum / strategy_sum.sum(axis=1, keepdims=True)
