"""Vector-form CFR, readable: vanilla CFR walked over the public tree with numpy vectors.

The same iterates as :func:`cfrviz.reference.vanilla_cfr`, laid out differently: a walk visits
each *public state* once and carries one vector per player (its range: its own probability of
having played here with each private hand) instead of visiting every history.  The compiled
version, with leaves by sorted prefix sums, is :func:`cfrviz.engine.vector_cfr.run_vector_cfr`.
"""

from __future__ import annotations

import numpy as np

from ..core.regret import regret_matching
from ..games.public import CHANCE_STATE, TERMINAL_STATE, PublicState, PublicTree, public_tree

__all__ = ["showdown_values", "state_values", "vector_cfr"]


def vector_cfr(tree, iterations: int, alternating: bool = True):
    """Vanilla CFR (Zinkevich et al., 2007) in vector form over the public tree.

    Each iteration, for the player being updated, a walk down the public tree carries both
    players' ranges; on the way back it returns that player's counterfactual value of each of
    its hands (:func:`state_values`), and at its own public states it adds, hand by hand (one
    hand is one information set there), the regret of each action and the range-weighted
    strategy.

    Yields
    ------
    dict
        After each iteration: ``strategy`` (played at its start), ``cumulative_regret``,
        ``regret`` (this iteration's) and ``strategy_sum``, as
        :func:`cfrviz.reference.vanilla_cfr` yields them.
    """
    public = public_tree(tree)
    mask = tree.legal_mask
    regret_sum = np.zeros(mask.shape)
    strategy_sum = np.zeros(mask.shape)
    # The first public states after the deal: where both ranges start at 1 for every hand.
    starts = [s for s in public.states
              if s.dealt and (s.parent < 0 or not public.states[s.parent].dealt)]
    full = [np.ones(len(public.hands(p))) for p in (0, 1)]
    for _ in range(iterations):
        strategy = regret_matching(regret_sum, mask)
        start = strategy.copy()
        regret = np.zeros(mask.shape)
        players = (0, 1)
        if alternating:
            for player in players:
                for s in starts:
                    state_values(public, s, player, full, strategy, regret, strategy_sum)
                mine = tree.infoset_player == player
                regret_sum[mine] += regret[mine]
                strategy = regret_matching(regret_sum, mask)
        else:
            for player in players:
                for s in starts:
                    state_values(public, s, player, full, strategy, regret, strategy_sum)
            regret_sum += regret
        yield {"strategy": start, "cumulative_regret": regret_sum.copy(), "regret": regret,
               "strategy_sum": strategy_sum.copy()}


def state_values(public: PublicTree, state: PublicState, player: int, ranges, strategy, regret,
                 sums):
    """``player``'s counterfactual value of each of its hands at a public state.

    ``ranges[p][i]`` is player ``p``'s own probability of having played to ``state`` holding
    hand ``i``.  A hand's counterfactual value weighs each deal by chance's probability and the
    *opponent's* range only, as CFR's counterfactual values do.  At ``player``'s own states
    the regrets and range-weighted strategy are added to ``regret`` and ``sums``.
    """
    tree = public.tree
    opponent = 1 - player
    hands = len(public.hands(player))
    if state.kind == TERMINAL_STATE:
        # A leaf: sum over its deals of chance x payoff x the opponent's range for that hand.
        pairs = public.pairs(state)
        weight = public.chance_reach[state.nodes] * tree.utility[state.nodes, player]
        return np.bincount(pairs[:, player], weight * ranges[opponent][pairs[:, opponent]],
                           minlength=hands)
    children = [public.states[c] for c in state.children]
    if state.kind == CHANCE_STATE:  # a public card: its probability is in chance_reach
        return sum(state_values(public, child, player, ranges, strategy, regret, sums)
                   for child in children)
    actor = state.player
    width = len(children)
    pairs = public.pairs(state)
    sets = np.full(len(public.hands(actor)), -1)  # the actor's information set for each hand
    sets[pairs[:, actor]] = tree.infoset[state.nodes]
    here = sets >= 0
    probs = np.zeros((len(sets), width))
    probs[here] = strategy[sets[here], :width]
    action_values = np.zeros((hands, width))
    for a, child in enumerate(children):
        after = list(ranges)
        after[actor] = ranges[actor] * probs[:, a]  # the actor's range splits over its actions
        action_values[:, a] = state_values(public, child, player, after, strategy, regret, sums)
    if actor != player:
        return action_values.sum(axis=1)  # the opponent's mix is already in its range
    value = (probs * action_values).sum(axis=1)
    regret[sets[here], :width] += action_values[here] - value[here, None]
    # The tabular walk adds a set's strategy once per node of the set: so does this, to match.
    members = np.bincount(tree.infoset[state.nodes], minlength=tree.num_infosets)[sets[here]]
    sums[sets[here], :width] += (ranges[player][here] * members)[:, None] * probs[here]
    return value


def showdown_values(my_ranks, their_ranks, their_range):
    """Each of my hands' net showdown weight against a range, by one sorted prefix sum.

    ``sum over the opponent's hands j of sign(my_rank - their_rank[j]) * their_range[j]``, the
    mass my hand beats minus the mass that beats it, without the hands x hands table: sort the
    opponent's hands by rank, accumulate their range, and read for each of my hands the mass
    ranked below it and the mass ranked above it (O(n log n) here with searchsorted; a merge
    of two sorted lists, as the compiled kernel walks them, is O(n)).  Card removal (hands
    that cannot meet) is left out here; the kernel corrects those deals one by one.
    """
    my_ranks = np.asarray(my_ranks)
    order = np.argsort(their_ranks, kind="stable")
    ranks = np.asarray(their_ranks)[order]
    mass = np.concatenate(([0.0], np.cumsum(np.asarray(their_range, dtype=float)[order])))
    below = mass[np.searchsorted(ranks, my_ranks, side="left")]
    above = mass[-1] - mass[np.searchsorted(ranks, my_ranks, side="right")]
    return below - above
