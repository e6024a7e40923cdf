def my_showdown_values(strength, opp_strength, cards, opp_cards, opp_reach):
    """Each combo's showdown value per chip: the opponent's reach it beats minus the reach it
    loses to, over the opponent combos sharing none of its cards."""
    order = np.argsort(opp_strength, kind="stable")
    sorted_strength = opp_strength[order]
    reach = opp_reach[order]
    # running[k]: the reach of the k weakest opponent combos; per_card[c, k]: the same, counting
    # only the combos that hold card c.
    running = np.concatenate([[0.0], np.cumsum(reach)])
    holds = np.zeros((52, len(order)))
    for side in (0, 1):
        holds[opp_cards[order, side], np.arange(len(order))] = 1.0
    per_card = np.concatenate([np.zeros((52, 1)), np.cumsum(holds * reach, axis=1)], axis=1)
    weaker = np.searchsorted(sorted_strength, strength, side="left")    # strictly weaker
    not_stronger = np.searchsorted(sorted_strength, strength, side="right")
    values = np.empty(len(strength))
    for i, (a, b) in enumerate(cards):
        # A combo holding both of my cards is my own combo: it ties, so it is in neither sum.
        won = running[weaker[i]] - per_card[a, weaker[i]] - per_card[b, weaker[i]]
        lost = ((running[-1] - running[not_stronger[i]])
                - (per_card[a, -1] - per_card[a, not_stronger[i]])
                - (per_card[b, -1] - per_card[b, not_stronger[i]]))
        values[i] = won - lost
    return values
