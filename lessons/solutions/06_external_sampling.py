from cfrviz.core.regret import regret_matching
from cfrviz.core.tree import CHANCE, TERMINAL


def my_external_sampling(tree, node, player, regret_sum, strategy_sum, draw):
    """External sampling below `node` for the traverser `player`; returns the sampled value."""
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    if kind == CHANCE:
        # Chance: follow one outcome, drawn with chance's own probabilities.
        outcome = draw(node, tree.chance_prob[children])
        return my_external_sampling(tree, children[outcome], player, regret_sum, strategy_sum,
                                    draw)
    info = tree.infoset[node]
    k = len(children)
    sigma = regret_matching(regret_sum[info], tree.legal_mask[info])[:k]
    if kind != player:
        # The opponent: its current strategy joins its average (unweighted: the walk comes
        # here as often as the opponent's reach), then one action is drawn and followed.
        strategy_sum[info, :k] += sigma
        action = draw(node, sigma)
        return my_external_sampling(tree, children[action], player, regret_sum, strategy_sum,
                                    draw)
    # The traverser: try every action, then add the regrets without any weight.
    action_values = np.array([my_external_sampling(tree, child, player, regret_sum,
                                                   strategy_sum, draw) for child in children])
    value = sigma @ action_values
    regret_sum[info, :k] += action_values - value
    return value
