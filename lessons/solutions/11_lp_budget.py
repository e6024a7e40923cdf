# memory (MB) = factor * n ** exponent; solve for n with the budget in MB (16 GB = 16,000 MB).
my_sequences = (16_000 / factor) ** (1 / exponent)
