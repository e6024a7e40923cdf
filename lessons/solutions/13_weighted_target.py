def my_target(ts, infos, regrets, info):
    """The minimiser of Σ_i t_i ||V(I) − r_i||² at set `info`: Σ t·r / Σ t over its samples."""
    at = infos == info                                   # this set's samples only
    weights = ts[at]
    return (weights[:, None] * regrets[at]).sum(axis=0) / weights.sum()
