"""Vector-form CFR registered as ``"vector_cfr"``: vanilla CFR swept over the public tree.

The kernel is :func:`cfrviz.engine.vector_cfr.run_vector_cfr`; the public tree it sweeps is
:func:`cfrviz.games.public.public_tree`'s.  Its iterates are ``"cfr"``'s (tested step by step
to 1e-12), so the two share the tables a trace records and either can resume the other.
"""

from __future__ import annotations

from ..core.registry import Param
from ..core.trace import SolverState, Trace
from ..core.tree import as_tree, check_zero_sum
from ..engine.cfr import Tables, UpdateRule
from ..engine.vector_cfr import run_vector_cfr, vector_plan
from .driver import Stepper, drive, start_tree
from .registry import Algorithm, Request, register_algorithm

__all__ = ["solve_vector_cfr"]


def solve_vector_cfr(request: Request) -> Trace:
    """Vanilla CFR in vector form over the public tree (Zinkevich et al. 2007; the vector form
    of Johanson et al. 2012, as DeepStack and Libratus use it).

    Each public state holds one range vector per player (its own reach with each private
    hand) on the way down and the updated player's counterfactual values per hand on the way
    up; a public leaf's values are a sum over the opponent's compatible hands, by a sorted
    prefix sum where the game allows it.  The regrets, strategies and averages are those of
    ``"cfr"``.

    Parameters (``request.params``)
    -------------------------------
    alternating : bool, default True
        As ``"cfr"``'s.

    Raises
    ------
    ValueError
        For a game that is not two-player zero-sum, or whose public tree is not defined
        (:func:`cfrviz.games.public.public_tree` says why).
    """
    return drive(request, _vector_cfr(request))


def _vector_cfr(request: Request) -> Stepper:
    tree = as_tree(request.game, request.name)
    check_zero_sum(tree, request.name)
    try:
        vp = vector_plan(tree)
    except ValueError as error:
        raise ValueError(f"{request.name} sweeps the public tree: {error}") from None
    update = UpdateRule(alternating=request.params["alternating"])

    def step(state: SolverState, first: int, last: int) -> int:
        tables = Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        run_vector_cfr(vp.arrays, vp.tree_arrays, tables, first, last, update)
        return vp.work * (last - first + 1)

    return start_tree(request, tree, step)


register_algorithm(Algorithm(
    "vector_cfr", "vector CFR", "full_tree", solve_vector_cfr,
    (Param("alternating", True, "bool",
           help="update player 1, then player 2 against player 1's new strategy"),),
    alternates=True,
    summary="vanilla CFR over public states, one range vector per player (same iterates)",
    stepper=_vector_cfr,
    paper="Zinkevich, Johanson, Bowling and Piccione (2007), Regret minimization in games with "
          "incomplete information, NeurIPS; Johanson, Bard, Lanctot, Gibson and Bowling (2012), "
          "Efficient Nash equilibrium approximation through Monte Carlo counterfactual regret "
          "minimization, AAMAS", aliases=("vector", "vector_form_cfr", "public_tree_cfr")))
