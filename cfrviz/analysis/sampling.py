"""Monte Carlo CFR, measured: what an iteration costs, and what its sampled regrets estimate.

Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling, 2009, "Monte Carlo
sampling for regret minimization in extensive games", NIPS) walks part of the
tree per iteration and divides what it sees by the probability of having
sampled it, so that its regrets are *unbiased* estimates of the full-tree
ones.  These helpers measure both facts on a game, for the lessons.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np

from ..core.tree import as_tree
from ..reference.cfr import vanilla_cfr
from ..solvers import solve
from ..solvers.registry import algorithms_in

#: The sampling algorithms of the registry, in registration order.
SAMPLERS = algorithms_in("sampling")


def nodes_per_iteration(game, algorithms=("cfr", *SAMPLERS), iterations: int = 200,
                        seed: int = 0) -> dict[str, float]:
    """Average nodes touched per iteration by each algorithm (a run of ``iterations``).

    Nothing is evaluated (``checkpoints=[]``), so this is quick.  Vanilla CFR
    with alternating updates walks the whole tree once per player: twice the
    number of nodes.
    """
    if isinstance(iterations, bool) or not isinstance(iterations, Integral) or iterations < 1:
        raise ValueError(f"iterations must be a whole number >= 1; got {iterations!r}")
    out = {}
    for name in algorithms:
        trace = solve(game, name, int(iterations), seed=seed, checkpoints=[], progress=False)
        out[name] = float(trace.extras["nodes_touched"][-1]) / int(iterations)
    return out


@dataclass(frozen=True)
class RegretEstimates:
    """First-iteration regrets of one player: exact, and as a sampler estimates them.

    Attributes
    ----------
    keys : tuple of str
        The player's information sets.
    actions : tuple of tuple of str
    exact : numpy.ndarray, shape (sets, actions)
        Vanilla CFR's regrets at iteration 1 (the whole tree walked).
    samples : numpy.ndarray, shape (runs, sets, actions)
        The sampler's regrets at iteration 1, one row per seed ``0..runs-1``.
    """

    algorithm: str
    keys: tuple
    actions: tuple
    exact: np.ndarray
    samples: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        return self.samples.mean(axis=0)

    @property
    def std_error(self) -> np.ndarray:
        """Standard error of :attr:`mean` (the spread of single runs over ``sqrt(runs)``)."""
        return self.samples.std(axis=0, ddof=1) / np.sqrt(len(self.samples))

    def within(self, z: float = 4.0) -> bool:
        """Whether every mean lies within ``z`` standard errors of the exact regret."""
        return bool(np.all(np.abs(self.mean - self.exact) <= z * self.std_error + 1e-12))


def first_iteration_regrets(game, algorithm: str = "external_sampling", runs: int = 1000,
                            player: int = 0) -> RegretEstimates:
    """Run a sampler for one iteration with seeds ``0..runs-1`` and keep ``player``'s regrets.

    At iteration 1 every set plays uniformly, so the exact counterfactual
    regrets are vanilla CFR's first ones (player 1 is updated first, against
    the uniform player 2, in both).  Averaged over many seeds, an unbiased
    sampler's estimates approach them; any single run can be far off.

    Parameters
    ----------
    game : GameTree
    algorithm : str
        One of ``chance_sampling``, ``external_sampling``, ``outcome_sampling``.
    runs : int
        Seeds to average over.
    player : int
        0 (player 1).  Player 2 is updated against player 1's *new* strategy
        in CFR, which a one-iteration sampler does not share, so only player
        1's regrets are comparable.
    """
    if algorithm not in SAMPLERS:
        raise ValueError(f"algorithm must be one of {', '.join(SAMPLERS)}; got {algorithm!r}")
    if isinstance(runs, bool) or not isinstance(runs, Integral) or runs < 2:
        raise ValueError(f"runs must be a whole number >= 2; got {runs!r}")
    if player != 0:
        raise ValueError("only player 1's (player=0) first regrets are comparable with "
                         "vanilla CFR's: player 2 is updated after player 1 has moved")
    tree = as_tree(game, "first_iteration_regrets")
    mine = np.flatnonzero(tree.infoset_player == player)
    exact = next(iter(vanilla_cfr(tree, 1)))["regret"][mine]
    samples = np.array([solve(tree, algorithm, 1, seed=s, checkpoints=[], progress=False)
                        .instantaneous_regret[0][mine] for s in range(int(runs))])
    return RegretEstimates(algorithm=algorithm,
                           keys=tuple(tree.infoset_keys[i] for i in mine),
                           actions=tuple(tree.infoset_actions[i] for i in mine),
                           exact=exact, samples=samples)
