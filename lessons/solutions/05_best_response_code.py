import numpy as np

from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL


def my_best_response(tree, policy, player):
    """What `player` (0 or 1) wins by best-responding to the other player's part of `policy`."""
    reach = reach_probabilities(tree, policy)  # rows: player 1, player 2, chance
    # How likely chance and the opponent make each node; the responder's own moves are
    # what we are choosing, so its reach is left out.
    weight = reach[2] * reach[1 - player]
    choice = {}  # information set -> the action the best response takes there

    def value(node):
        """`player`'s payoff below `node`, weighted, when `player` best-responds."""
        if tree.player[node] == TERMINAL:
            return weight[node] * tree.utility[node, player]
        if tree.player[node] == player:
            return value(tree.children[node][best(tree.infoset[node])])
        return sum(value(child) for child in tree.children[node])  # chance or the opponent

    def best(info):
        """The best action at set `info`: one action for all of its nodes."""
        if info not in choice:
            nodes = tree.infoset_members(info)
            actions = range(len(tree.infoset_actions[info]))
            # each action's counterfactual value: summed over the nodes of the set
            totals = [sum(value(tree.children[h][a]) for h in nodes) for a in actions]
            choice[info] = int(np.argmax(totals))
        return choice[info]

    return value(0)
