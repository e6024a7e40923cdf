def my_add(buffer, sample, seen, capacity, rng):
    """Offer `sample` to the reservoir `buffer` (a list, changed in place).

    `seen` samples were offered before this one; the buffer keeps at most `capacity`.
    """
    if seen < capacity:  # not full yet: keep everything
        buffer.append(sample)
        return
    j = rng.integers(0, seen + 1)  # uniform over the seen + 1 samples offered, this one included
    if j < capacity:  # probability capacity / (seen + 1)
        buffer[j] = sample  # into a uniformly random slot
