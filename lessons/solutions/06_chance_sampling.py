from cfrviz.core.tree import CHANCE, TERMINAL


def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    """Chance-sampled CFR below `node` for the traverser `player`; returns the node's value."""
    kind = tree.player[node]  # 0 or 1 (who moves), CHANCE or TERMINAL
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    if kind == CHANCE:
        # Deal one outcome, drawn as often as chance plays it: the reaches stay as they are.
        outcome = draw(node, tree.chance_prob[children])
        return my_chance_sampling(tree, children[outcome], player, own_reach, opponent_reach,
                                  strategy, regret_sum, strategy_sum, draw)
    info = tree.infoset[node]
    k = len(children)
    sigma = strategy[info, :k]
    action_values = np.zeros(k)
    for a, child in enumerate(children):  # every action of both players, as in CFR
        if kind == player:
            action_values[a] = my_chance_sampling(tree, child, player, own_reach * sigma[a],
                                                  opponent_reach, strategy, regret_sum,
                                                  strategy_sum, draw)
        else:
            action_values[a] = my_chance_sampling(tree, child, player, own_reach,
                                                  opponent_reach * sigma[a], strategy,
                                                  regret_sum, strategy_sum, draw)
    value = sigma @ action_values
    if kind == player:
        regret_sum[info, :k] += opponent_reach * (action_values - value)
        strategy_sum[info, :k] += own_reach * sigma
    return value
