def my_regret_matching(cumulative_regrets):
    regrets = np.asarray(cumulative_regrets, dtype=float)
    positive = np.maximum(regrets, 0.0)
    total = positive.sum()
    if total > 0:
        return positive / total
    # No action is regretted: play them all equally often.
    return np.full(len(regrets), 1.0 / len(regrets))
