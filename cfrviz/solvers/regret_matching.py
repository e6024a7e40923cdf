"""Regret matching in matrix games, in self-play or against a fixed opponent."""

from __future__ import annotations

import warnings
from operator import mul

import numpy as np

from ..analysis.evaluation import matrix_exploitability
from ..games.matrix import MatrixGame
from ..core.policy import as_distribution
from ..core.trace import Trace

UPDATES = ("expected", "sampled")


def solve_regret_matching(game, iterations: int, rng: np.random.Generator, record,
                          opponent=None, update: str = "expected",
                          initial_regrets=None) -> Trace:
    """Regret matching (Hart and Mas-Colell, 2000) on a two-player matrix game.

    Each iteration both players play the strategy that regret matching
    derives from their cumulative regrets; each action's regret grows by how
    much better that action would have done than the strategy played.  The
    *average* strategy of self-play converges to a Nash equilibrium of a
    zero-sum game (its exploitability falls like 1/sqrt(T)); the current
    strategy need not converge at all.

    Parameters
    ----------
    game : MatrixGame
    iterations : int
    rng : numpy.random.Generator
        Used only by ``update="sampled"``.
    record : list of int or None
        Iterations to snapshot; ``None`` for every iteration.
    opponent : array_like or dict, optional
        A fixed strategy for player 2 (e.g. ``[0.4, 0.3, 0.3]`` or
        ``{"R": 0.5, "P": 0.5}``).  Player 1 then learns a best response to
        it; player 2's regrets are still recorded, never used.
    update : {"expected", "sampled"}
        ``"expected"`` (default) measures regrets against the opponent's whole
        mixed strategy, which is deterministic.  ``"sampled"`` is the classic
        tutorial version: each round both players sample one action and
        regrets compare the other actions with the one played, against the
        opponent's sampled action.
    initial_regrets : dict or array_like, optional
        Cumulative regrets before the first iteration, e.g.
        ``{"P1": [1, 0, 0]}`` for a player 1 who starts out favouring rock.
        With none, both players start uniform -- already the equilibrium of
        standard rock-paper-scissors, so nothing would move.
    """
    if not isinstance(game, MatrixGame):
        raise ValueError("regret_matching solves matrix games such as rock_paper_scissors; "
                         f"got {getattr(game, 'name', game)!r}")
    if update not in UPDATES:
        raise ValueError(f"update must be one of {UPDATES}; got {update!r}")
    A = game.payoffs
    m, n = A.shape
    fixed = None if opponent is None else as_distribution(opponent, game.col_actions,
                                                           "opponent strategy")
    mask = game.legal_mask
    width = mask.shape[1]
    wanted = None if record is None else (set(record) or {iterations})
    start = _initial_regrets(game, initial_regrets)
    # Plain Python floats: for a handful of actions they beat numpy's per-call overhead
    # several times over in this strictly sequential loop.
    payoff = A.tolist()
    columns = A.T.tolist()
    cum = [start[0, :m].tolist(), start[1, :n].tolist()]
    strategy_sum = [[0.0] * m, [0.0] * n]
    fixed_list = None if fixed is None else fixed.tolist()
    draws = rng.random((iterations, 2)) if update == "sampled" else None
    rows = {"cum": [], "inst": [], "cur": [], "avg": []}
    recorded = []
    interrupted = False
    finished = None
    t = 0
    try:
        for t in range(1, iterations + 1):
            x = _match(cum[0])
            y = fixed_list if fixed_list is not None else _match(cum[1])
            if draws is None:
                u1 = [sum(map(mul, row, y)) for row in payoff]
                u2 = [-sum(map(mul, col, x)) for col in columns]
                v1 = sum(map(mul, x, u1))
                v2 = sum(map(mul, y, u2))
                r1 = [u - v1 for u in u1]
                r2 = [u - v2 for u in u2]
            else:
                a = _sample(x, draws[t - 1, 0])
                b = _sample(y, draws[t - 1, 1])
                r1 = [payoff[i][b] - payoff[a][b] for i in range(m)]
                r2 = [payoff[a][b] - payoff[a][j] for j in range(n)]
            c0, c1 = cum
            cum = [[c + r for c, r in zip(c0, r1)], [c + r for c, r in zip(c1, r2)]]
            strategy_sum = [[s + p for s, p in zip(strategy_sum[0], x)],
                            [s + p for s, p in zip(strategy_sum[1], y)]]
            finished = (t, cum, strategy_sum, (r1, r2), (x, y))  # one atomic rebinding
            if wanted is None or t in wanted:
                _record(rows, recorded, finished)
    except KeyboardInterrupt:
        # Records are appended whole at the end of an iteration, so every one kept is complete;
        # the last finished iteration is kept too, checkpoint or not, so nothing is lost.
        interrupted = True
        if finished is not None and (not recorded or recorded[-1] != finished[0]):
            _record(rows, recorded, finished)
        warnings.warn(f"regret matching interrupted at iteration {t}; returning the "
                      f"{len(recorded)} records taken so far", RuntimeWarning, stacklevel=3)
    k = len(recorded)
    if k == 0:
        raise KeyboardInterrupt("interrupted before the first recorded iteration")
    out_cum, out_inst, out_cur, out_avg = (_stack(rows[name][:k], m, n, width)
                                           for name in ("cum", "inst", "cur", "avg"))
    avg, cur = out_avg, out_cur
    return Trace(
        game=game,
        algorithm="regret_matching",
        params={"opponent": None if fixed is None else fixed.tolist(), "update": update,
                "interrupted": interrupted},
        iterations=np.array(recorded),
        cumulative_regret=out_cum,
        instantaneous_regret=out_inst,
        current_strategy=cur,
        average_strategy=avg,
        exploitability=matrix_exploitability(A, avg[:, 0, :m], avg[:, 1, :n]),
        current_exploitability=matrix_exploitability(A, cur[:, 0, :m], cur[:, 1, :n]),
    )


def _initial_regrets(game: MatrixGame, value) -> np.ndarray:
    cum = np.zeros(game.legal_mask.shape)
    if value is None:
        return cum
    if not isinstance(value, dict):
        arr = np.asarray(value, dtype=float) if _numeric(value) else None
        if arr is None or arr.shape != cum.shape:
            raise ValueError(f"initial_regrets must be {{'P1': [...], 'P2': [...]}} or an array "
                             f"of shape {cum.shape}; got {value!r}")
        value = dict(zip(game.infoset_keys, arr))
    for key, regrets in value.items():
        row = game.infoset_index(key)
        actions = game.infoset_actions[row]
        arr = np.asarray(regrets, dtype=float) if _numeric(regrets) else None
        if arr is None or arr.shape != (len(actions),) or not np.all(np.isfinite(arr)):
            raise ValueError(f"initial_regrets[{key!r}] must be {len(actions)} finite numbers "
                             f"for actions {list(actions)}; got {regrets!r}")
        cum[row, : len(actions)] = arr
    return cum


def _numeric(value) -> bool:
    try:
        np.asarray(value, dtype=float)
        return True
    except (TypeError, ValueError):
        return False


def _record(rows: dict, recorded: list, finished: tuple) -> None:
    t, cum, strategy_sum, regrets, strategies = finished
    rows["cum"].append(cum)
    rows["inst"].append(regrets)
    rows["cur"].append(strategies)
    rows["avg"].append([[s / t for s in strategy_sum[0]], [s / t for s in strategy_sum[1]]])
    recorded.append(t)


def _match(regrets: list[float]) -> list[float]:
    """Regret matching on one list (same rule as cfrviz.core.regret.regret_matching)."""
    positive = [r if r > 0.0 else 0.0 for r in regrets]
    total = sum(positive)
    if total > 0.0:
        return [p / total for p in positive]
    return [1.0 / len(regrets)] * len(regrets)


def _sample(dist: list[float], u: float) -> int:
    """Inverse-CDF draw of an index of ``dist`` from a uniform number ``u``."""
    acc = 0.0
    for i, p in enumerate(dist):
        acc += p
        if u < acc and p > 0.0:
            return i
    return max(i for i, p in enumerate(dist) if p > 0.0)


def _stack(rows, m: int, n: int, width: int) -> np.ndarray:
    """Pad per-player lists to the information-set table's width and stack them."""
    if m == n == width:
        return np.array(rows, dtype=float).reshape(len(rows), 2, width)
    out = np.zeros((len(rows), 2, width))
    if rows:
        out[:, 0, :m] = [r[0] for r in rows]
        out[:, 1, :n] = [r[1] for r in rows]
    return out
