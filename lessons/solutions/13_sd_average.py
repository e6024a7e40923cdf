def my_sd_average(strategies, reaches):
    """Σ_t t·π_t·σ_t / Σ_t t·π_t over iterations t = 1 … T (rows of `strategies`)."""
    t = np.arange(1, len(strategies) + 1)                # iterations count from 1
    weights = t * reaches
    return weights @ strategies / weights.sum()
