"""The full-tree CFR family on games of more than two players, and what such a run records.

:func:`cfrviz.solve` sends a full-tree algorithm (``"cfr"``, ``"cfr+"``, ``"dcfr"``, ...) on a
game of three or more players here (:func:`run_multiplayer`): the compiled N-player kernel
(:func:`cfrviz.engine.multi.run_multi_full_tree`) under the same update rule, through the
one driver.  Exploitability as NashConv / 2 is a two-player zero-sum measure, so such a
trace's ``exploitability`` arrays stay NaN; it records instead, in ``trace.extras``:

- ``"deviation_gains"``, shape (records, players): each player's gain from deviating alone
  against the average profile (NaN for a run that asked for no evaluation);
- ``"cce_gaps"``, shape (records, players): each player's external regret against the
  profiles played so far, divided by the iterations; ``"cce_gap"``, shape (records,), the
  largest of them: the empirical joint play is an epsilon-coarse correlated equilibrium
  for that epsilon.
"""

from __future__ import annotations

import numpy as np

from ..core.trace import SolverState, Trace
from ..core.tree import GameTree
from ..core.types import FloatArray
from ..engine import UpdateRule, seed_state
from ..engine.cfr import Tables
from ..engine.multi import (
    JointPlay,
    coarse_correlated_gaps,
    deviation_gains,
    multi_plan,
    run_multi_full_tree,
)
from .driver import Row, check_payoff_scale, drive, tree_record, tree_stepper
from .registry import Request

__all__ = ["MULTIPLAYER_EXTRAS", "run_multiplayer"]

#: What a run on a game of more than two players adds to ``trace.extras``.
MULTIPLAYER_EXTRAS = ("deviation_gains", "cce_gaps", "cce_gap")


def run_multiplayer(request: Request, tree: GameTree, rule: UpdateRule) -> Trace:
    """Run a full-tree member of the CFR family on a game of more than two players.

    Parameters
    ----------
    request : Request
        What :func:`cfrviz.solve` checked.
    tree : GameTree
        A tree of three or more players.
    rule : UpdateRule
        The variant (vanilla CFR, CFR+, DCFR, ...), as for two players.

    Returns
    -------
    Trace
        Its ``exploitability`` and ``current_exploitability`` are NaN (NashConv / 2 is not
        defined here); ``extras`` holds :data:`MULTIPLAYER_EXTRAS` per record.

    Raises
    ------
    ValueError
        For ``resume=``: the coarse-correlated gap sums over every profile played, which the
        trace's solver state does not keep.
    """
    if request.resume is not None:
        raise ValueError(f"resume= is not available for {request.name} on {tree.name} "
                         f"({tree.num_players} players): the coarse-correlated gap sums over "
                         "every profile played, which a trace's solver state does not keep; "
                         "run again with more iterations instead")
    check_payoff_scale(tree, request.iterations, request.name)
    p = multi_plan(tree)
    joint = JointPlay(np.zeros((p.players, p.n)), np.zeros(p.players))
    state = SolverState.fresh(tree, rng=seed_state(request.rng))

    def step(state: SolverState, first: int, last: int) -> int:
        tables = Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        run_multi_full_tree(p.arrays, p.players, tables, first, last, rule, joint)
        return (p.players + 1) * p.n * (last - first + 1)

    # The coarse-correlated gaps depend on every profile played, so they are taken with each
    # record, live.
    gaps: list[FloatArray] = []

    def record(state: SolverState) -> Row:
        gaps.append(coarse_correlated_gaps(tree, joint, state.iteration))
        return snapshot(state)

    def undefined(tables: FloatArray) -> FloatArray:
        return np.full(len(tables), np.nan)  # NashConv / 2 is a two-player zero-sum measure

    snapshot = tree_record(tree)
    # resume= is refused for more than two players, so an interrupted run must not say it
    # can be resumed (tests/test_contract.py found the warning saying so)
    stepper = tree_stepper(request, tree, state, step, record=record, exploitability=undefined,
                           resumable=False)
    trace = drive(request, stepper)
    trace.extras.update(_extras(tree, trace, gaps, p.players, stepper.plan.evaluate))
    return trace


def _extras(tree: GameTree, trace: Trace, gaps: list[FloatArray], players: int,
            evaluate: bool) -> dict[str, FloatArray]:
    """:data:`MULTIPLAYER_EXTRAS` per record of ``trace``: each player's gain from deviating
    alone against the average profile (NaN unless ``evaluate``), and the coarse-correlated
    ``gaps`` taken with the records, with their largest."""
    records = len(trace.iterations)
    gains = np.full((records, players), np.nan)
    if evaluate:
        for r in range(records):
            gains[r] = deviation_gains(tree, trace.average_strategy[r])
    table = np.array(gaps).reshape(records, players)
    return {"deviation_gains": gains, "cce_gaps": table, "cce_gap": table.max(axis=1)}
