"""Exact equilibria of two-player zero-sum games: the sequence-form linear program.

A behaviour strategy of a game tree is a product of probabilities along paths,
so the expected payoff is not linear in it; the *sequence form* (Koller,
Megiddo & von Stengel 1994; von Stengel 1996) replaces it by a *realization
plan*, linear again, and a zero-sum game of perfect recall becomes one linear
program of the size of the tree (not of the exponentially many pure
strategies of the normal form).

Notation, for player 1 (player 2 alike with ``y``, ``F``, ``f``):

- a **sequence** is the empty sequence ∅ or an (information set, action) pair;
  with perfect recall each information set ``I`` has one parent sequence σ(I),
  the player's own last move before ``I``.
- a **realization plan** ``x`` gives each sequence the product of the player's
  own probabilities along it: ``x(∅) = 1`` and, for each set ``I``,
  ``Σ_a x(I, a) = x(σ(I))``, ``x >= 0``.  Written ``E x = e``.
- the **payoff matrix** ``A`` (sequences of player 1 × sequences of player 2)
  holds, for each terminal history ``z``, chance's reach to ``z`` times player
  1's payoff at ``z``, at the pair of both players' last sequences before ``z``;
  player 1 earns ``xᵀ A y``.

Player 1 maximises ``min_y xᵀ A y``; the inner minimum's dual turns the
problem into one linear program (von Stengel 1996, Theorem 4.3)::

    maximise   fᵀ q
    subject to Fᵀ q − Aᵀ x <= 0,   E x = e,   x >= 0,   q free,

whose optimum is the value of the game to player 1.  The multipliers of its
inequality block are player 2's optimal realization plan ``y``, so one solve
gives both players.  It is solved by HiGHS through :func:`scipy.optimize.linprog`
on sparse matrices built from the tree's arrays.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from scipy import optimize, sparse

from ..core.checks import check_game
from ..core.policy import Policy
from ..core.tree import CHANCE, TERMINAL, GameTree, as_tree, check_zero_sum

#: Below this own-reach an information set counts as never reached by its player's plan
#: (its behaviour is then uniform).  HiGHS' basic solutions are accurate to about 1e-15.
UNREACHED = 1e-12

#: Games with at most this many sequences per player get their value as a certified fraction
#: (Kuhn poker has 13, Leduc 337).  The certificate guesses the equilibrium's probabilities as
#: fractions with small denominators; Leduc's have denominators near a million, so the guess
#: fails there and would only cost time (0.1 s on Leduc, about 1 s on pocket poker).
EXACT_SEQUENCES = 300

#: Largest denominators tried, in turn, when the behaviour probabilities are read as fractions.
_DENOMINATORS = (10**3, 10**6)

_STATUS = {
    1: "it stopped at its iteration or time limit",
    2: "it found the program infeasible",
    3: "it found the program unbounded",
    4: "it ran into numerical difficulties",
}


@dataclass(frozen=True, eq=False)
class SequenceForm:
    """A game in sequence form (Koller, Megiddo & von Stengel 1994; von Stengel 1996).

    Sequence 0 of each player is the empty sequence; information set ``I``'s
    sequences are ``first[I] + a`` for its legal actions ``a``, numbered among
    its owner's sequences.

    Attributes
    ----------
    payoff : scipy.sparse.csr_matrix, shape (sequences of player 1, of player 2)
        ``A``: chance reach times player 1's payoff, summed per pair of last sequences.
    constraints : (csr_matrix, csr_matrix)
        ``E`` and ``F``: row 0 says ``x(∅) = 1``, row ``1 + k`` says that the
        ``k``-th information set of the player (in id order) splits its parent
        sequence's weight among its actions.  The right-hand sides are the
        first unit vectors.
    first : int array, shape (information sets,)
        The sequence of each set's first action, in its owner's numbering.
    parent : int array, shape (information sets,)
        σ(I), the owner's last sequence before the set.
    """

    payoff: sparse.csr_matrix
    constraints: tuple[sparse.csr_matrix, sparse.csr_matrix]
    first: np.ndarray
    parent: np.ndarray

    @property
    def sizes(self) -> tuple[int, int]:
        """Number of sequences of player 1 and of player 2."""
        rows, columns = self.payoff.shape
        return int(rows), int(columns)


@dataclass(frozen=True, eq=False)
class ExactEquilibrium:
    """A Nash equilibrium of a two-player zero-sum game from the sequence-form LP.

    Attributes
    ----------
    policy : Policy
        Both players' optimal behaviour strategies; uniform at the sets a
        player's own plan never reaches (any play there is optimal).
    value : float
        The value of the game to player 1.
    fraction : fractions.Fraction or None
        The value as an exact fraction, when certified: both players' strategies,
        read as fractions, were checked in exact arithmetic to guarantee
        exactly this value against every counter-strategy (so it *is* the
        value of the game, with its chance probabilities and payoffs read as
        the simplest fractions that round to them).  ``None`` for larger games
        (over ``EXACT_SEQUENCES`` sequences for a player) or when the check fails.
    plans : (numpy.ndarray, numpy.ndarray)
        The optimal realization plans ``x`` and ``y`` (indexed by sequence).
    sequences : (int, int)
        Number of sequences of player 1 and player 2 (the empty one included).
    constraints : int
        Rows of the linear program (inequalities and equalities).
    variables : int
        Columns of the linear program.
    nonzeros : int
        Nonzero coefficients of its constraint matrices.
    build_seconds, seconds : float
        Time to build the sparse program, and HiGHS' time to solve it.
    """

    policy: Policy
    value: float
    fraction: Fraction | None
    plans: tuple[np.ndarray, np.ndarray]
    sequences: tuple[int, int]
    constraints: int
    variables: int
    nonzeros: int
    build_seconds: float
    seconds: float

    def __repr__(self) -> str:
        exact = "" if self.fraction is None else f" = {self.fraction}"
        return (f"ExactEquilibrium({self.policy.game.name}: value {self.value:.10g}{exact}; "
                f"{self.sequences[0]} + {self.sequences[1]} sequences, {self.constraints} "
                f"constraints, {self.nonzeros} nonzeros, solved in {self.seconds:.3g} s)")


def exact_equilibrium(game: object) -> ExactEquilibrium:
    """Solve a two-player zero-sum game of perfect recall exactly by linear programming.

    Builds the sequence form of the game (Koller, Megiddo & von Stengel 1994;
    von Stengel 1996) and solves its linear program with HiGHS (Huangfu &
    Hall 2018) through :func:`scipy.optimize.linprog`: the program's optimum is
    the value of the game, its primal solution player 1's optimal realization
    plan and its dual solution player 2's.  Realization plans become behaviour
    strategies by ``σ(I)(a) = x(I, a) / x(σ(I))``.  The size of the program is
    linear in the size of the tree, unlike the normal form's.

    Parameters
    ----------
    game : GameTree or MatrixGame
        A game from :func:`cfrviz.load_game`: a matrix game, a built-in tree or
        a custom game file.

    Returns
    -------
    ExactEquilibrium
        The optimal policy, the value (also as a certified fraction for games
        of up to ``EXACT_SEQUENCES`` sequences per player) and the sizes and
        times of the program.

    Raises
    ------
    ValueError
        For something that is not a game, a game that is not zero-sum (naming
        the terminal history at fault) or one without perfect recall (naming
        the information set and two histories the sequence form cannot tell apart).
    RuntimeError
        When HiGHS does not report an optimal solution, with its status and message.

    Examples
    --------
    >>> import cfrviz
    >>> eq = cfrviz.exact_equilibrium(cfrviz.load_game("kuhn_poker"))
    >>> eq.fraction
    Fraction(-1, 18)
    """
    checked = check_game(game, "exact_equilibrium")
    tree = as_tree(checked, "exact_equilibrium")
    check_zero_sum(tree, "exact_equilibrium")
    start = time.perf_counter()
    form = sequence_form(tree)
    x, y, value, info = solve_sequence_form(form.payoff, *form.constraints,
                                            what=f"the sequence form of {tree.name}",
                                            started=start)
    probs = behaviour(tree, form, (x, y))
    fraction = None
    if max(form.sizes) <= EXACT_SEQUENCES:
        fraction = certified_value(tree, form, probs)
    return ExactEquilibrium(policy=Policy(checked, probs), value=value, fraction=fraction,
                            plans=(x, y), sequences=form.sizes, **info)


def sequence_form(game: object) -> SequenceForm:
    """The sequence form of a game tree, built from its arrays level by level.

    Raises
    ------
    ValueError
        When the game does not have perfect recall: two nodes of one
        information set follow different own last moves of its player, so no
        single parent sequence exists (the message names both histories).
    """
    tree = as_tree(game, "sequence_form")
    owner = tree.infoset_player
    counts = tree.legal_mask.sum(axis=1)
    first = np.zeros(tree.num_infosets, dtype=np.int64)
    sizes = []
    for p in (0, 1):
        mine = owner == p
        own = np.where(mine, counts, 0)
        first[mine] = (1 + np.cumsum(own) - own)[mine]
        sizes.append(1 + int(own.sum()))
    last, reach = _last_sequences(tree, first)

    decision = np.flatnonzero(tree.player >= 0)
    info = tree.infoset[decision]
    seen = last[tree.player[decision], decision]
    parent = np.zeros(tree.num_infosets, dtype=np.int64)
    parent[info[::-1]] = seen[::-1]  # the first member's parent sequence; all must agree
    wrong = np.flatnonzero(parent[info] != seen)
    if len(wrong):
        _refuse_imperfect_recall(tree, first, decision, info, seen, int(wrong[0]))

    terminal = np.flatnonzero(tree.player == TERMINAL)
    payoff = sparse.csr_matrix((reach[terminal] * tree.utility[terminal, 0],
                                (last[0, terminal], last[1, terminal])), shape=tuple(sizes))
    payoff.sum_duplicates()
    payoff.eliminate_zeros()
    constraints = tuple(plan_constraints(tree, first, parent, p, sizes[p]) for p in (0, 1))
    return SequenceForm(payoff, constraints, first, parent)


def _last_sequences(tree: GameTree, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each node's last sequence of each player (rows 0, 1) and chance's reach, by levels."""
    last = np.zeros((2, tree.num_nodes), dtype=np.int64)
    reach = np.ones(tree.num_nodes)
    for nodes in tree.levels()[1:]:
        par = tree.parent[nodes]
        last[:, nodes] = last[:, par]
        reach[nodes] = reach[par] * tree.chance_prob[nodes]  # 1 below a decision
        who = tree.player[par]
        for p in (0, 1):
            mine = who == p
            last[p, nodes[mine]] = first[tree.infoset[par[mine]]] + tree.action[nodes[mine]]
    return last, reach


def plan_constraints(tree: GameTree, first: np.ndarray, parent: np.ndarray, player: int,
                      size: int) -> sparse.csr_matrix:
    """The sequence form's constraint matrix ``E`` (player 0) or ``F`` (player 1).

    Row 0 is x(∅) = 1; then one row per information set I of ``player``:
    Σ_a x(I, a) − x(σ(I)) = 0, where σ(I) is the player's last own sequence before I
    (``parent``) and ``first[I]`` the column of I's first action (von Stengel, 1996).
    Public because lesson 11's checker refuses a student's function that calls it.
    """
    sets = np.flatnonzero(tree.infoset_player == player)
    row_of, action = np.nonzero(tree.legal_mask[sets])
    rows = np.concatenate([[0], 1 + np.arange(len(sets)), 1 + row_of])
    cols = np.concatenate([[0], parent[sets], first[sets][row_of] + action])
    data = np.concatenate([[1.0], -np.ones(len(sets)), np.ones(len(row_of))])
    return sparse.csr_matrix((data, (rows, cols)), shape=(1 + len(sets), size))


def _refuse_imperfect_recall(tree: GameTree, first: np.ndarray, decision: np.ndarray,
                             info: np.ndarray, seen: np.ndarray, bad: int) -> None:
    """Raise the ValueError for a set whose members follow different own last moves."""
    node = int(decision[bad])
    infoset = int(info[bad])
    other = int(decision[np.flatnonzero((info == infoset) & (seen != seen[bad]))[0]])
    player = int(tree.infoset_player[infoset])

    def move(sequence: int) -> str:
        if sequence == 0:
            return "no earlier move"
        sets = np.flatnonzero((tree.infoset_player == player) & (first <= sequence))
        owner = int(sets[np.argmax(first[sets])])
        return (f"action {tree.infoset_actions[owner][sequence - first[owner]]!r} at "
                f"{tree.infoset_keys[owner]!r}")

    raise ValueError(
        f"exact_equilibrium needs a game of perfect recall: in {tree.name}, information set "
        f"{tree.infoset_keys[infoset]!r} (player {player + 1}) holds history "
        f"{tree.history[other]!r}, after {move(int(seen[decision == other][0]))}, and history "
        f"{tree.history[node]!r}, after {move(int(seen[bad]))}; a player who forgets their own "
        f"moves or what they knew has no sequence form (cfrviz.solve's CFR still runs on it)")


def solve_sequence_form(payoff: Any, plan_rows: Any, other_rows: Any, *,
                        what: str = "the sequence form", started: float | None = None
                        ) -> tuple[np.ndarray, np.ndarray, float, dict[str, Any]]:
    """Solve ``max_x min_y xᵀ A y`` over realization plans by one linear program.

    The program is von Stengel's (1996)::

        maximise q_0   subject to   Fᵀ q − Aᵀ x <= 0,   E x = e_0,   x >= 0,   q free,

    solved with HiGHS (``scipy.optimize.linprog(method="highs")``) on sparse matrices.  A matrix
    game is the case ``E = [1 … 1]``, ``F = [1 … 1]``.  The payoffs are scaled to at most 1 in
    size for HiGHS, whose tolerances are absolute, and the value scaled back: payoffs of 1e-9
    or 1e15 solve as those of 1 do.

    Parameters
    ----------
    payoff : sparse or dense matrix, shape (n1, n2)
        ``A``, player 1's payoffs per pair of sequences.
    plan_rows, other_rows : sparse or dense matrix
        ``E`` (rows × n1) and ``F`` (rows × n2), right-hand sides ``e_0``, ``f_0``.
    what : str
        The program's name, for the error message.
    started : float, optional
        ``time.perf_counter()`` when building began (default: now).

    Returns
    -------
    x, y : numpy.ndarray
        Optimal realization plans of player 1 (primal) and player 2 (the
        multipliers of the inequality block).
    value : float
        The optimum, the value to player 1.
    info : dict
        ``constraints``, ``variables``, ``nonzeros``, ``build_seconds``, ``seconds``.

    Raises
    ------
    RuntimeError
        When HiGHS does not report an optimal solution (its status and message).
    """
    start = time.perf_counter() if started is None else started
    A, scale = _unit_scale(payoff)
    E, F = sparse.csr_matrix(plan_rows), sparse.csr_matrix(other_rows)
    n1, n2 = A.shape
    m1, m2 = E.shape[0], F.shape[0]
    program = _program(A, E, F)
    built = time.perf_counter()
    result = optimize.linprog(**program, method="highs")
    solved = time.perf_counter()
    if result.status != 0:
        reason = _STATUS.get(result.status, f"status {result.status}")
        raise RuntimeError(f"HiGHS did not solve {what} ({n1} + {n2} sequences): {reason} "
                           f"(status {result.status}: {result.message})")
    x = np.asarray(result.x[:n1], dtype=float)
    y = -np.asarray(result.ineqlin.marginals, dtype=float)  # d(-q_0)/d(b_ub) = -y
    info = {"constraints": n2 + m1, "variables": n1 + m2,
            "nonzeros": int(program["A_ub"].nnz + program["A_eq"].nnz),
            "build_seconds": built - start, "seconds": solved - built}
    value = float(-result.fun) * scale if scale > 0.0 else float(-result.fun)
    return x, y, value + 0.0, info  # + 0.0: no -0.0


def _unit_scale(payoff: Any) -> tuple[sparse.csr_matrix, float]:
    """``(A / scale, scale)``: the payoffs as a sparse matrix scaled to at most 1 in size, and
    their largest size (0, and ``A`` unscaled, when every payoff is 0).

    HiGHS works to absolute tolerances (1e-7) and treats coefficients of 1e15 and more as
    infinite: payoffs of 1e-9 all look like 0 to it, payoffs of 1e15 make the program
    "infeasible".  The plans do not change with the scale (x, and y, the multipliers of
    F^T q - A^T x <= 0, are fixed by the plan constraints), only the value, which the caller
    scales back.
    """
    A = sparse.csr_matrix(payoff, dtype=float)
    scale = float(abs(A).max()) if A.nnz else 0.0
    if scale > 0.0:
        A = A * (1.0 / scale) if np.isfinite(1.0 / scale) else A / scale
    return A, scale


def _program(A: sparse.csr_matrix, E: sparse.csr_matrix, F: sparse.csr_matrix
             ) -> dict[str, Any]:
    """``scipy.optimize.linprog``'s arguments for von Stengel's program over ``(x, q)``:
    minimise ``-q_0`` subject to ``Fᵀ q − Aᵀ x <= 0``, ``E x = e_0``, ``x >= 0``, ``q`` free."""
    (n1, n2), m1, m2 = A.shape, E.shape[0], F.shape[0]
    cost = np.zeros(n1 + m2)
    cost[n1] = -1.0  # maximise q_0
    b_eq = np.zeros(m1)
    b_eq[0] = 1.0
    return {"c": cost, "A_ub": sparse.hstack([-A.T, F.T], format="csr"), "b_ub": np.zeros(n2),
            "A_eq": sparse.hstack([E, sparse.csr_matrix((m1, m2))], format="csr"), "b_eq": b_eq,
            "bounds": np.array([(0.0, np.inf)] * n1 + [(-np.inf, np.inf)] * m2)}


def behaviour(game: object, form: SequenceForm, plans: Sequence[np.ndarray]) -> np.ndarray:
    """Behaviour strategies from realization plans: ``x(I, a) / Σ_b x(I, b)``.

    The denominator is the set's parent weight ``x(σ(I))`` when the plan
    satisfies its constraints; summing the set's own sequences keeps each row
    a distribution despite rounding.  Sets the player's own plan does not
    reach (below ``UNREACHED``) are played uniformly.

    Returns
    -------
    numpy.ndarray, shape (information sets, max actions)
    """
    tree = as_tree(game, "behaviour")
    mask = tree.legal_mask
    probs = np.zeros(mask.shape)
    sets, action = np.nonzero(mask)
    owner = tree.infoset_player[sets]
    for p in (0, 1):
        mine = owner == p
        probs[sets[mine], action[mine]] = np.clip(
            plans[p][form.first[sets[mine]] + action[mine]], 0.0, None)
    total = probs.sum(axis=1, keepdims=True)
    reached = total[:, 0] > UNREACHED
    probs[reached] /= total[reached]
    probs[~reached] = mask[~reached] / mask[~reached].sum(axis=1, keepdims=True)
    return probs


# --- the exact certificate ------------------------------------------------------------------

def certified_value(game: object, form: SequenceForm, probs: np.ndarray) -> Fraction | None:
    """The game's value as a fraction, proven in exact arithmetic, or ``None``.

    Each player's behaviour probabilities are read as fractions
    (``Fraction.limit_denominator``, the last action of a set taking the rest
    so each row sums to exactly 1), which is only a guess; the guess is then
    checked.  The value player 1's rational strategy guarantees (the best
    response of player 2 to it, computed exactly on the sequence form) is a
    lower bound on the game's value, and what player 2's guarantees an upper
    bound; when the two are equal, that number is the value, and both rational
    strategies are optimal.  The game's own numbers (chance probabilities,
    payoffs) are read as the simplest fractions that round to them.

    Returns
    -------
    fractions.Fraction or None
        ``None`` when no guess closes the gap, or when the game's chance
        probabilities, read as fractions, do not sum to exactly 1.
    """
    tree = as_tree(game, "certified_value")
    entries = _rational_payoff(tree, form)
    if entries is None:
        return None
    lower: Fraction | None = None
    upper: Fraction | None = None
    for limit in _DENOMINATORS:
        rational = _rational_behaviour(tree, probs, limit)
        if rational is None:
            continue
        x = _rational_plan(tree, form, rational, 0)
        y = _rational_plan(tree, form, rational, 1)
        low = _best_response_value(tree, form, entries, x, 0)
        high = _best_response_value(tree, form, entries, y, 1)
        lower = low if lower is None else max(lower, low)
        upper = high if upper is None else min(upper, high)
        if lower == upper:
            return lower
    return None


#: The sequence-form payoff in exact arithmetic: {(player 1 sequence, player 2 sequence): A}.
Entries = dict[tuple[int, int], Fraction]


def _rational(number: float) -> Fraction:
    """The simplest fraction that rounds to ``number`` (else the float's exact value)."""
    simple = Fraction(number).limit_denominator(10**9)
    return simple if float(simple) == number else Fraction(number)


def _rational_payoff(tree: GameTree, form: SequenceForm) -> Entries | None:
    """``A`` in exact arithmetic, ``{(player 1 sequence, player 2 sequence): Fraction}``."""
    prob = [_rational(p) for p in tree.chance_prob.tolist()]
    for chance in np.flatnonzero(tree.player == CHANCE).tolist():
        if sum(prob[c] for c in tree.children[chance].tolist()) != 1:
            return None
    reach: list[Fraction] = [Fraction(1)] * tree.num_nodes
    parents = tree.parent.tolist()
    for node in range(1, tree.num_nodes):  # parents precede their children
        reach[node] = reach[parents[node]] * prob[node]
    last, _ = _last_sequences(tree, form.first)
    entries: dict[tuple[int, int], Fraction] = {}
    utility = tree.utility[:, 0].tolist()
    for z in np.flatnonzero(tree.player == TERMINAL).tolist():
        key = (int(last[0, z]), int(last[1, z]))
        entries[key] = entries.get(key, Fraction(0)) + reach[z] * _rational(utility[z])
    return entries


def _rational_behaviour(tree: GameTree, probs: np.ndarray, limit: int
                        ) -> list[list[Fraction]] | None:
    """Each set's probabilities as fractions of denominator <= ``limit`` summing to 1."""
    rows = []
    for row, actions in zip(probs.tolist(), tree.infoset_actions):
        values = [Fraction(p).limit_denominator(limit) for p in row[: len(actions)]]
        biggest = max(range(len(values)), key=values.__getitem__)
        values[biggest] = 1 - (sum(values) - values[biggest])
        if values[biggest] < 0:
            return None
        rows.append(values)
    return rows


def _set_order(tree: GameTree) -> np.ndarray:
    """Information sets ordered by their first node, so a set comes after its parent sequence's."""
    decision = np.flatnonzero(tree.player >= 0)
    first_node = np.full(tree.num_infosets, tree.num_nodes)
    np.minimum.at(first_node, tree.infoset[decision], decision)
    return np.argsort(first_node, kind="stable")


def _rational_plan(tree: GameTree, form: SequenceForm, rational: list[list[Fraction]],
                   player: int) -> list[Fraction]:
    """A player's realization plan in fractions, from its rational behaviour strategy."""
    plan = [Fraction(0)] * form.sizes[player]
    plan[0] = Fraction(1)
    for info in _set_order(tree).tolist():
        if tree.infoset_player[info] == player:
            base = plan[int(form.parent[info])]
            start = int(form.first[info])
            for a, p in enumerate(rational[info]):
                plan[start + a] = base * p
    return plan


def _best_response_value(tree: GameTree, form: SequenceForm, entries: Entries,
                         plan: list[Fraction], player: int) -> Fraction:
    """Player 1's payoff when the opponent of ``player`` best-responds to ``plan``, exactly.

    The responder's value of a sequence is its own payoff term plus, for each
    set whose parent it is, the best action's value there, summed from the
    deepest sets up (von Stengel 1996: the responder's LP has this recursive solution).
    """
    responder = 1 - player
    value = [Fraction(0)] * form.sizes[responder]
    for (s1, s2), a in entries.items():
        if player == 0:
            value[s2] += plan[s1] * a
        else:
            value[s1] += a * plan[s2]
    pick = min if responder == 1 else max  # player 2 minimises player 1's payoff
    for info in reversed(_set_order(tree).tolist()):
        if tree.infoset_player[info] == responder:
            start = int(form.first[info])
            count = len(tree.infoset_actions[info])
            value[int(form.parent[info])] += pick(value[start: start + count])
    return value[0]
