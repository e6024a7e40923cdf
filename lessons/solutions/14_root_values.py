import numpy as np

from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL


def my_root_values(tree, policy, roots, hand_of_root, player):
    """`player`'s best-response value per unit of reach, for each of its hands at the roots."""
    reach = reach_probabilities(tree, policy)  # rows: player 1, player 2, chance
    # pi_{-i}(h): how likely chance and the other player make each node. The player's own
    # moves are the best response's to choose, so its reach is left out.
    weight = reach[2] * reach[1 - player]
    choice = {}  # information set -> the best response's action there

    def value(node):
        """Weighted payoff of `player` below `node` when it best-responds (lesson 05)."""
        if tree.player[node] == TERMINAL:
            return weight[node] * tree.utility[node, player]
        if tree.player[node] == player:
            return value(tree.children[node][best(tree.infoset[node])])
        return sum(value(child) for child in tree.children[node])  # chance or the other player

    def best(info):
        """One action for the whole set: the largest sum over its histories."""
        if info not in choice:
            nodes = tree.infoset_members(info)
            actions = range(len(tree.infoset_actions[info]))
            totals = [sum(value(tree.children[h][a]) for h in nodes) for a in actions]
            choice[info] = int(np.argmax(totals))
        return choice[info]

    hands = max(hand_of_root) + 1
    cbv = np.zeros(hands)    # counterfactual best-response value of each hand
    total = np.zeros(hands)  # the hand's weight: sum of pi_{-i} over its root histories
    for root, hand in zip(roots, hand_of_root):
        cbv[hand] += value(root)
        total[hand] += weight[root]
    # per unit of reach; a hand nobody brings here has no value (nan)
    return np.divide(cbv, total, out=np.full(hands, np.nan), where=total > 0)
