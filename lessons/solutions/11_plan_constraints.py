def my_constraints(tree, player, first):
    """(E, e) of `player`'s realization plans: x(∅) = 1 and, at each of the player's sets I,
    Σ_a x(I, a) − x(σ(I)) = 0, where σ(I) is the player's own last move before I."""
    sets = [i for i in range(tree.num_infosets) if tree.infoset_player[i] == player]
    columns = 1 + sum(len(tree.infoset_actions[i]) for i in sets)

    # Walk the tree, carrying the player's last sequence (column 0 = ∅ until they move).
    parent = {}
    def walk(node, last):
        if tree.player[node] == player:
            info = tree.infoset[node]
            parent[info] = last
            for child in tree.children[node]:
                walk(child, first[info] + tree.action[child])
        else:
            for child in tree.children[node]:
                walk(child, last)
    walk(0, 0)

    E = np.zeros((1 + len(sets), columns))
    e = np.zeros(1 + len(sets))
    E[0, 0], e[0] = 1, 1                     # x(∅) = 1
    for row, info in enumerate(sets, start=1):
        for a in range(len(tree.infoset_actions[info])):
            E[row, first[info] + a] = 1      # + x(I, a) for each action
        E[row, parent[info]] = -1            # − x(σ(I))
    return E, e
