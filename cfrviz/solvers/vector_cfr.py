"""The full-tree CFR family in vector form: ``"vector_cfr"`` (vanilla CFR) swept over the
public tree, and beside it ``"vector_cfr+"``, ``"vector_linear_cfr"``, ``"vector_dcfr"``,
``"vector_pcfr+"`` and ``"vector_pdcfr+"``.

The kernel is :func:`cfrviz.engine.vector_cfr.run_vector_cfr`; the public tree it sweeps is
:func:`cfrviz.games.public.public_tree`'s, except on a hold'em river spot, whose own kernel
(:mod:`cfrviz.engine.river`) reads the spot's bet tree and combos directly.  Each member runs
its tabular namesake's update rule (:data:`cfrviz.solvers.cfr.UPDATE_RULES`) with its declared
parameters, so its iterates are the tabular algorithm's (tested iteration by iteration to
1e-12) and the two share the tables a trace records.
"""

from __future__ import annotations

import numpy as np

from ..core.trace import SolverState, Trace
from ..core.tree import GameTree, as_tree, check_zero_sum
from ..core.types import FloatArray
from ..engine.cfr import Tables, UpdateRule
from ..engine.river import river_exploitability, river_plan, run_river_cfr
from ..engine.vector_cfr import run_vector_cfr, vector_plan
from ..games.holdem.public import RiverPublic, river_public_of
from ..games.holdem.spot import river_spot
from .cfr import UPDATE_RULES
from .driver import Stepper, drive, start_tree
from .registry import ALGORITHMS, Algorithm, Request, register_algorithm

__all__ = ["solve_vector_cfr"]

_JOHANSON = ("Johanson, Bard, Lanctot, Gibson and Bowling (2012), Efficient Nash equilibrium "
             "approximation through Monte Carlo counterfactual regret minimization, AAMAS")


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
    return _stepper(request, UPDATE_RULES["cfr"](request))


def _stepper(request: Request, update: UpdateRule) -> Stepper:
    """A member of the family in vector form: the public-tree sweep under ``update``."""
    tree = as_tree(request.game, request.name)
    check_zero_sum(tree, request.name)
    if tree.name == "holdem_river":
        spot = river_spot(tree)
        public = river_public_of(spot.board, spot.ranges, spot.bets)
        if public.infoset_keys == tree.infoset_keys:  # not a locked copy (games.locking)
            return _river_stepper(request, tree, public, update)
    try:
        vp = vector_plan(tree)
    except ValueError as error:
        raise ValueError(f"{request.name} sweeps the public tree: {error}") from None

    def step(state: SolverState, first: int, last: int) -> int:
        tables = Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        run_vector_cfr(vp.arrays, vp.tree_arrays, tables, first, last, update)
        return vp.work * (last - first + 1)

    return start_tree(request, tree, step)


def _river_stepper(request: Request, tree: GameTree, public: RiverPublic,
                   update: UpdateRule) -> Stepper:
    """A hold'em river spot's sweep: its public tree is the bet tree and each player's hands
    its combos, so the river kernel (:func:`cfrviz.engine.river.run_river_cfr`: showdowns and
    folds by sorted prefix sums with card-by-card removal) runs on the spot read back from the
    tree (``public``, whose information sets are the tree's), into the same tables, and each
    record's exploitability is the kernel's vector best response instead of a walk of every
    dealt node (both equal the tabular ones to 1e-12, tests/test_holdem_vector.py)."""
    rp = river_plan(public)

    def step(state: SolverState, first: int, last: int) -> int:
        tables = Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        run_river_cfr(rp.arrays, rp.tree_arrays, tables, first, last, update)
        return int(rp.work) * (last - first + 1)

    def exploitability(averages: FloatArray) -> FloatArray:
        return np.array([river_exploitability(rp, average) for average in averages])

    return start_tree(request, tree, step, exploitability=exploitability)


def _vector_form(name: str) -> Algorithm:
    """The vector form of the full-tree algorithm registered as ``name`` (e.g. ``"dcfr"``):
    registered as ``"vector_" + name``, with its parameters, flags and aliases (each prefixed
    ``vector_``) and its update rule, swept over the public tree."""
    tabular, rule = ALGORITHMS[name], UPDATE_RULES[name]

    def stepper(request: Request) -> Stepper:
        return _stepper(request, rule(request))

    def run(request: Request) -> Trace:
        return drive(request, stepper(request))

    run.__doc__ = f"{tabular.label} in vector form over the public tree: {name!r}'s iterates."
    return Algorithm(
        f"vector_{name}", f"vector {tabular.label}", "full_tree", run, tabular.params,
        alternates=tabular.alternates, predictive=tabular.predictive,
        summary=f"{tabular.summary}; over public states (same iterates as {name!r})",
        paper=f"{tabular.paper}; {_JOHANSON}", stepper=stepper,
        aliases=tuple(f"vector_{alias}" for alias in tabular.aliases))


register_algorithm(Algorithm(
    "vector_cfr", "vector CFR", "full_tree", solve_vector_cfr,
    ALGORITHMS["cfr"].params, alternates=True,
    summary="vanilla CFR over public states, one range vector per player (same iterates)",
    stepper=_vector_cfr,
    paper="Zinkevich, Johanson, Bowling and Piccione (2007), Regret minimization in games with "
          f"incomplete information, NeurIPS; {_JOHANSON}",
    aliases=("vector", "vector_form_cfr", "public_tree_cfr")))
for _name in ("cfr+", "linear_cfr", "dcfr", "pcfr+", "pdcfr+"):
    register_algorithm(_vector_form(_name))
