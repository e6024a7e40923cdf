# The estimate w(c) * v(c) with c drawn from q averages to sum_c q(c) w(c) v(c).
# It equals the true expectation sum_c p(c) v(c) for every v exactly when w(c) = p(c) / q(c).
p = [1 / 3, 1 / 3, 1 / 3]
q = [1 / 2, 1 / 4, 1 / 4]
my_weights = [pc / qc for pc, qc in zip(p, q)]  # [2/3, 4/3, 4/3]
