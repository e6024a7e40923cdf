"""Regret matching in matrix games, in self-play or against a fixed opponent.

The loop is plain Python on lists of floats: for a handful of actions that beats
numpy's per-call overhead several times over in this strictly sequential loop.
It shares the tree solvers' machinery (:mod:`cfrviz.solvers.driver`): chunks of
about a tenth of a second, a deferred Ctrl-C checked between them, a progress
bar, resume from a trace's :class:`~cfrviz.core.trace.SolverState`, and the
:class:`~cfrviz.core.trace.Recorder` that builds the trace.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul
from typing import Any, TypeAlias

import numpy as np

from ..core.policy import as_distribution
from ..core.registry import Param
from ..core.regret import rounding_tolerance
from ..core.trace import Recorder, SolverState, Trace
from ..core.types import FloatArray
from ..games.matrix import MatrixGame, matrix_exploitability
from .driver import (
    Chunk,
    Row,
    Stepper,
    check_payoff_scale,
    drive,
    resume_state,
    schedule,
)
from .registry import Algorithm, Request, register_algorithm

#: Both players' lists of numbers (regrets, strategy sums, strategies), player 1 first.
Pair: TypeAlias = list[list[float]]
#: The last finished iteration: (t, cumulative regrets, strategy sums, its regrets, its
#: strategies).
Finished: TypeAlias = tuple[int, Pair, Pair, tuple[list[float], list[float]],
                            tuple[list[float], list[float]]]

UPDATES = ("expected", "sampled")
ALGORITHM = "regret_matching"
#: Records evaluated per (vectorized) call between two looks at the Ctrl-C flag.
EVALUATION_BLOCK = 4096


def solve_regret_matching(request: Request) -> Trace:
    """Regret matching (Hart and Mas-Colell, 2000) on a two-player matrix game.

    Each iteration both players play the strategy that regret matching derives from their
    cumulative regrets; each action's regret grows by how much better that action would have
    done than the strategy played.  The *average* strategy of self-play converges to a Nash
    equilibrium of a zero-sum game (its exploitability falls like 1/sqrt(T)); the current
    strategy need not converge at all.

    Parameters (``request.params``, declared at the bottom of this module)
    ---------------------------------------------------------------------
    opponent : array_like or dict, optional
        Player 2's fixed strategy (e.g. ``[0.4, 0.3, 0.3]`` or ``{"R": 0.5, "P": 0.5}``): player 1
        then learns a best response to it; player 2's regrets are still recorded, never used.
    update : {"expected", "sampled"}
        ``"expected"`` (default) measures regrets against the opponent's whole mixed strategy,
        which is deterministic.  ``"sampled"`` is the classic tutorial version: each round
        both players sample one action and regrets compare the other actions with the one
        played, against the opponent's sampled action.
    initial_regrets : dict or array_like, optional
        Cumulative regrets before the first iteration, e.g. ``{"P1": [1, 0, 0]}`` for a
        player 1 who starts out favouring rock.  With none, both players start uniform --
        already the equilibrium of standard rock-paper-scissors, so nothing would move.  Each
        at most :data:`MAX_INITIAL_REGRET` (1e150) in size, so their sums cannot overflow.
        Not with ``resume``, which starts from the trace's state.
    progress : bool or None
        Show a progress bar: always, never, or (``None``) once a run has taken two seconds.
    resume : Trace, optional
        Continue a run of the same game and parameters from its final state; its records are
        kept in front of the new ones, and the result equals an uninterrupted run bit for bit.

    Returns
    -------
    Trace
        With ``state`` set, so it can be saved and resumed.  Ctrl-C (or a kernel interrupt)
        ends the run between two chunks with a ``RuntimeWarning``; the trace then holds every
        finished iteration.  A further Ctrl-C during the evaluation of the records leaves the
        exploitability of those not yet evaluated NaN, with a warning.

    Raises
    ------
    ValueError
        For payoffs so large that regret sums could overflow (before running), or regrets
        that went infinite anyway (after the chunk where they did).
    """
    game, iterations = request.game, request.iterations
    if not isinstance(game, MatrixGame):
        raise ValueError("regret_matching solves matrix games such as rock_paper_scissors; "
                         f"got {getattr(game, 'name', game)!r}")
    m, n = game.payoffs.shape
    fixed, request = _fixed_opponent(request, game)
    check_payoff_scale(game, iterations, ALGORITHM)
    state = _start(request, game)
    generator = None if state.generator is None else _numpy_generator(state.generator)
    width = game.legal_mask.shape[1]
    plan = schedule(request.record, iterations, game.legal_mask.size, timed=False)
    recorder = Recorder(game, stack=lambda rows: _stack(rows, m, n, width), timed=False)
    step = _Step(game.payoffs, fixed, generator, set(plan.points))
    return drive(request, Stepper(state, step, step.record, recorder, plan, step.exploitability,
                                  block=EVALUATION_BLOCK))


def _fixed_opponent(request: Request, game: MatrixGame) -> tuple[FloatArray | None, Request]:
    """The ``opponent`` parameter as player 2's distribution (None in self-play), and the
    request with it normalised to that distribution's list."""
    opponent = request.params["opponent"]
    fixed = None if opponent is None else as_distribution(opponent, game.col_actions,
                                                           "opponent strategy")
    return fixed, request.normalised(opponent=None if fixed is None else fixed.tolist())


def _start(request: Request, game: MatrixGame) -> SolverState:
    """The state a run starts from: the resumed trace's, or fresh (with ``initial_regrets``,
    and the generator of sampled updates, a copy of the request's)."""
    sampled = request.params["update"] == "sampled"
    if request.resume is not None:
        if request.params["initial_regrets"] is not None:
            raise ValueError("initial_regrets sets where a run starts; a resumed run continues "
                             "from the trace's state, so leave initial_regrets out")
        state = resume_state(request, game, timed=False)
        if sampled != (state.generator is not None):
            raise ValueError("solver state field 'generator' must hold the numpy generator's "
                             "state for sampled updates, and only for them")
        return state
    return SolverState.fresh(
        game, regret_sum=_initial_regrets(game, request.params["initial_regrets"]),
        generator=_plain(request.rng.bit_generator.state) if sampled else None)


class _Step:
    """Regret matching's step: iterations ``first..last`` in plain Python lists.

    Returns the records of the checkpoints inside the chunk (an iteration takes
    microseconds, so a chunk spans many).  A ``KeyboardInterrupt`` raised part-way (by code:
    the signal only sets the loop's flag) leaves the state at the last finished iteration,
    gives back the draws of the rest of the chunk, so a resumed run draws what an
    uninterrupted one would, and returns what was done, marked interrupted.
    """

    def __init__(self, payoffs: FloatArray, fixed: FloatArray | None,
                 generator: np.random.Generator | None, wanted: set[int]) -> None:
        self.payoffs = payoffs
        self.fixed: list[float] | None = None if fixed is None else fixed.tolist()
        self.generator = generator
        self.wanted = wanted

    def exploitability(self, tables: FloatArray) -> FloatArray:
        m, n = self.payoffs.shape
        return matrix_exploitability(self.payoffs, tables[:, 0, :m], tables[:, 1, :n])

    def record(self, state: SolverState) -> Row:
        """The record of the state as it stands (the lists the loop wrote into it)."""
        m, n = self.payoffs.shape
        t = state.iteration

        def pair(table: FloatArray) -> Pair:
            return [table[0, :m].tolist(), table[1, :n].tolist()]

        return _row((t, pair(state.regret_sum), pair(state.strategy_sum),
                     (state.instant[0, :m].tolist(), state.instant[1, :n].tolist()),
                     (state.current[0, :m].tolist(), state.current[1, :n].tolist())))

    def __call__(self, state: SolverState, first: int, last: int) -> Chunk:
        payoff = self.payoffs.tolist()
        columns = self.payoffs.T.tolist()
        m, n = self.payoffs.shape
        cum = [state.regret_sum[0, :m].tolist(), state.regret_sum[1, :n].tolist()]
        strategy_sum = [state.strategy_sum[0, :m].tolist(), state.strategy_sum[1, :n].tolist()]
        fixed, generator, wanted = self.fixed, self.generator, self.wanted
        # rounding_tolerance(U, t) is rounding_tolerance(U, 1) * t, to the last bit
        step = rounding_tolerance(float(np.abs(self.payoffs).max()), 1)
        before = None if generator is None else generator.bit_generator.state
        draws = None if generator is None else generator.random((last - first + 1, 2)).tolist()
        finished = None
        rows: list[Row] = []
        record = rows.append
        try:
            for t in range(first, last + 1):
                x = _match(cum[0], step * t)
                y = fixed if fixed is not None else _match(cum[1], step * t)
                if draws is None:
                    u1 = [sum(map(mul, row, y)) for row in payoff]
                    u2 = [-sum(map(mul, col, x)) for col in columns]
                    v1 = sum(map(mul, x, u1))
                    v2 = sum(map(mul, y, u2))
                    r1 = [u - v1 for u in u1]
                    r2 = [u - v2 for u in u2]
                else:
                    draw = draws[t - first]
                    a = _sample(x, draw[0])
                    b = _sample(y, draw[1])
                    r1 = [payoff[i][b] - payoff[a][b] for i in range(m)]
                    r2 = [payoff[a][b] - payoff[a][j] for j in range(n)]
                c0, c1 = cum
                cum = [[c + r for c, r in zip(c0, r1)], [c + r for c, r in zip(c1, r2)]]
                strategy_sum = [[s + p for s, p in zip(strategy_sum[0], x)],
                                [s + p for s, p in zip(strategy_sum[1], y)]]
                finished = (t, cum, strategy_sum, (r1, r2), (x, y))  # one atomic rebinding
                if t in wanted:
                    record(_row(finished))
        except KeyboardInterrupt:
            if generator is not None and before is not None:  # give back the unfinished draws
                generator.bit_generator.state = before
                generator.random((0 if finished is None else finished[0] - first + 1, 2))
            return Chunk(first - 1 if finished is None else finished[0], 0, rows,
                         interrupted=True)
        finally:
            if finished is not None:
                _store(state, finished, m, n)
            if generator is not None:
                state.generator = _plain(generator.bit_generator.state)
        return Chunk(last, 0, rows)


def _row(finished: Finished) -> Row:
    t, cum, strategy_sum, regrets, strategies = finished
    return (t, cum, regrets, strategies,
            [[s / t for s in strategy_sum[0]], [s / t for s in strategy_sum[1]]])


def _store(state: SolverState, finished: Finished, m: int, n: int) -> None:
    """Write the loop's lists back into the state's tables (padding stays zero)."""
    t, cum, strategy_sum, regrets, strategies = finished
    for table, values in ((state.regret_sum, cum), (state.strategy_sum, strategy_sum),
                          (state.instant, regrets), (state.current, strategies)):
        table[0, :m] = values[0]
        table[1, :n] = values[1]
    state.iteration = t


def _plain(value: Any) -> Any:
    """A numpy bit generator's state as JSON values (arrays become lists), for saving."""
    if isinstance(value, dict):
        return {key: _plain(v) for key, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _numpy_generator(saved: dict[str, Any]) -> np.random.Generator:
    """A numpy generator in the state ``saved`` (validated by SolverState to name one)."""
    bit_generator = getattr(np.random, saved["bit_generator"])()
    try:
        bit_generator.state = saved
    except (TypeError, ValueError, KeyError) as exc:
        raise ValueError(f"solver state field 'generator' is not a valid "
                         f"{saved['bit_generator']} state ({exc})") from None
    return np.random.Generator(bit_generator)


#: The largest initial regret, in size: sums of a few of them, and of the regrets a run adds
#: to them, stay far from a float's overflow (1.8e308), which would turn the cumulative
#: regrets into inf and NaN and the strategies into zeros.
MAX_INITIAL_REGRET = 1e150


def _initial_regrets(game: MatrixGame, value: object) -> FloatArray:
    cum = np.zeros(game.legal_mask.shape)
    if value is None:
        return cum
    if not isinstance(value, dict):
        # Rows that are not all floats (10**400, text) are refused row by row below.
        rows: Any = np.asarray(value, dtype=float) if _numeric(value) else value
        if _shape(rows) != cum.shape:
            raise ValueError(f"initial_regrets must be {{'P1': [...], 'P2': [...]}} or an array "
                             f"of shape {cum.shape}; got {value!r:.200}")
        value = dict(zip(game.infoset_keys, rows))
    for key, regrets in value.items():
        row = game.infoset_index(key)
        actions = game.infoset_actions[row]
        arr = np.asarray(regrets, dtype=float) if _numeric(regrets) else None
        if arr is None or arr.shape != (len(actions),) or not np.all(np.isfinite(arr)) \
                or np.abs(arr).max() > MAX_INITIAL_REGRET:
            raise ValueError(f"initial_regrets[{key!r}] must be {len(actions)} finite numbers "
                             f"for actions {list(actions)}, each between "
                             f"-{MAX_INITIAL_REGRET:g} and {MAX_INITIAL_REGRET:g} (regret "
                             f"matching adds regrets up: larger ones overflow a float, whose "
                             f"largest is 1.8e308, and every strategy would become 0); "
                             f"got {regrets!r:.200}")
        cum[row, : len(actions)] = arr
    return cum


def _shape(value: Any) -> tuple[int, ...] | None:
    """numpy's shape of ``value``, ``None`` for a ragged nesting."""
    try:
        shape: tuple[int, ...] = np.shape(value)
    except ValueError:
        return None
    return shape


def _numeric(value: Any) -> bool:
    try:
        np.asarray(value, dtype=float)
        return True
    except (TypeError, ValueError, OverflowError):  # OverflowError: an int like 10**400
        return False


def _match(regrets: list[float], tol: float) -> list[float]:
    """Regret matching on one list (the rule of cfrviz.core.regret.regret_matching), uniform
    where the positive regrets sum to at most ``tol``, rounding residue of zero
    (cfrviz.core.regret's rounding_tolerance)."""
    positive = [r if r > 0.0 else 0.0 for r in regrets]
    total = sum(positive)
    if total > tol:
        return [p / total for p in positive]
    return [1.0 / len(regrets)] * len(regrets)


def _sample(dist: list[float], u: float) -> int:
    """Inverse-CDF draw of an index of ``dist`` from a uniform number ``u``."""
    acc = 0.0
    for i, p in enumerate(dist):
        acc += p
        if u < acc and p > 0.0:
            return i
    # Rounding left u past the total; a distribution with no positive entry (NaN after an
    # overflow, which the check after the chunk reports) draws 0 rather than failing here.
    return max((i for i, p in enumerate(dist) if p > 0.0), default=0)


def _stack(rows: Sequence[Any], m: int, n: int, width: int) -> FloatArray:
    """Pad per-player lists to the information-set table's width and stack them."""
    if m == n == width:
        return np.array(rows, dtype=float).reshape(len(rows), 2, width)
    out = np.zeros((len(rows), 2, width))
    if rows:
        out[:, 0, :m] = [r[0] for r in rows]
        out[:, 1, :n] = [r[1] for r in rows]
    return out


register_algorithm(Algorithm(
    "regret_matching", "regret matching", "matrix", solve_regret_matching,
    (Param("opponent", None, help="a fixed strategy for player 2 (player 1 then learns a best "
                                  "response)"),
     Param("update", "expected", "choice", choices=UPDATES,
           help="regrets against the opponent's whole mix, or against one sampled action"),
     Param("initial_regrets", None, help="cumulative regrets before the first iteration")),
    start_only=("initial_regrets",),
    summary="both players play in proportion to their positive regrets",
    paper="Hart and Mas-Colell (2000), A simple adaptive procedure leading to correlated "
          "equilibrium, Econometrica", aliases=("rm",)))
