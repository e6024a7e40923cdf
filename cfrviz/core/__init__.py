"""The data everything shares: the game tree, policies, training traces, regret matching."""
