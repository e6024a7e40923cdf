def my_counterfactual_values(tree, strategy, info):
    """The counterfactual value of each action of information set `info`, for its owner."""
    player = tree.infoset_player[info]
    opponent = 1 - player
    nodes = np.flatnonzero(tree.infoset == info)  # the members of the set

    def others_reach(node):
        """The probability that chance and the opponent lead play from the root to `node`."""
        reach = 1.0
        while tree.parent[node] >= 0:
            up = tree.parent[node]
            if tree.player[up] == -1:                  # a chance outcome
                reach *= tree.chance_prob[node]
            elif tree.player[up] == opponent:          # the opponent's move
                reach *= strategy[tree.infoset[up], tree.action[node]]
            node = up                                  # the player's own moves are skipped
        return reach

    def value(node):
        """`player`'s expected payoff when play starts at `node` and follows `strategy`."""
        if tree.player[node] == -2:
            return tree.utility[node, player]
        total = 0.0
        for a, child in enumerate(tree.children[node]):
            if tree.player[node] == -1:
                p = tree.chance_prob[child]
            else:
                p = strategy[tree.infoset[node], a]
            total += p * value(child)
        return total

    values = np.zeros(len(tree.infoset_actions[info]))
    for node in nodes:
        weight = others_reach(node)
        for a, child in enumerate(tree.children[node]):
            values[a] += weight * value(child)
    return values
