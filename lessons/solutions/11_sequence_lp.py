def my_game_value(A, E, e, F, f, linprog):
    """max fᵀq subject to Fᵀq − Aᵀx ≤ 0, Ex = e, x ≥ 0, q free; the value to player 1."""
    n1, m2 = A.shape[0], F.shape[0]
    c = np.concatenate([np.zeros(n1), -f])               # linprog minimises: −fᵀq
    A_ub = np.hstack([-A.T, F.T])                        # Fᵀq − Aᵀx ≤ 0
    A_eq = np.hstack([E, np.zeros((E.shape[0], m2))])    # Ex = e (q not involved)
    bounds = [(0, None)] * n1 + [(None, None)] * m2      # x ≥ 0, q free
    result = linprog(c, A_ub=A_ub, b_ub=np.zeros(A.shape[1]), A_eq=A_eq, b_eq=e,
                     bounds=bounds, method="highs")
    return -result.fun
