def my_outcome_regrets(path, payoff, player):
    """Outcome sampling's regrets at each of `player`'s steps on one sampled path."""
    played = [sigma[a] for who, sigma, q, a in path]  # each step's probability under σ
    drawn = [q[a] for who, sigma, q, a in path]  # ... and under the walk's sampling
    q_z = np.prod(drawn)  # the probability that the walk sampled this whole path
    regrets = []
    for d, (who, sigma, q, a) in enumerate(path):
        if who != player:
            continue
        # π_{-i}(h): chance's and the opponent's probabilities before h (not the traverser's).
        others_before = np.prod([played[k] for k in range(d) if path[k][0] != player])
        tail = np.prod(played[d + 1:])  # π(z | h·a): everybody's, from h·a down to z
        value = others_before * tail * payoff / q_z  # ṽ(I, a); the other actions get 0
        values = np.zeros(len(sigma))
        values[a] = value
        regrets.append(values - sigma[a] * value)  # minus the strategy's value, σ(a) ṽ(I, a)
    return regrets
