def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    """Both players draw an action each round; returns the two average strategies."""
    A = np.asarray(payoffs, dtype=float)  # player 1's payoffs; player 2's are -A
    m, n = A.shape
    regrets = [np.zeros(m), np.zeros(n)]
    strategy_sums = [np.zeros(m), np.zeros(n)]
    for _ in range(rounds):
        x = cfrviz.regret_matching(regrets[0])
        y = cfrviz.regret_matching(regrets[1]) if opponent is None else opponent
        a = draw(0, x)  # player 1's action, drawn from x
        b = draw(1, y)  # player 2's action, drawn from y
        # What each other action would have earned against the drawn one, minus what was earned.
        regrets[0] += A[:, b] - A[a, b]
        regrets[1] += A[a, b] - A[a, :]  # player 2 earns -A
        strategy_sums[0] += x
        strategy_sums[1] += y
    return strategy_sums[0] / rounds, strategy_sums[1] / rounds
