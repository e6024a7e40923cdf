def my_regret_update(reach, player, action_values, value):
    opponent = 1 - player
    # The counterfactual weight: how likely chance and the opponent make this node,
    # leaving out the acting player's own reach.
    weight = reach[2] * reach[opponent]
    return weight * (action_values - value)
