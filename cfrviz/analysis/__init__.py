"""What to compute about a game or a run: evaluation, exact equilibria, explanations, costs."""
