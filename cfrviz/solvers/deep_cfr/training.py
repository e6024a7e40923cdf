"""A Deep CFR run: the step the one driver calls, the networks it keeps, the entry points and
the registration (:mod:`cfrviz.solvers.deep_cfr` describes the algorithm)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import engine
from ...core.checks import infoset_id, whole_number
from ...core.registry import Param
from ...core.trace import SolverState, Trace
from ...core.tree import GameTree, as_tree, check_zero_sum
from ...core.types import BoolArray, FloatArray, IntArray
from ..driver import drive, one_at_a_time, tree_stepper
from ..network import MLP, train
from ..registry import Algorithm, Request, check_request, register_algorithm
from .budget import MAX_SECONDS, check_budget
from .features import (
    ALGORITHM,
    FALLBACKS,
    advantage_table,
    infoset_features,
    strategy_from_advantages,
)
from .memory import Reservoir, external_sampling_samples

# ----------------------------------------------------------------------------- the run

@dataclass
class DeepCFRRun:
    """A Deep CFR run: its trace and everything the trace cannot hold (the networks).

    Attributes
    ----------
    trace : Trace
        What :func:`cfrviz.solve` returns for ``"deep_cfr"``.
    networks : list of two lists of MLP
        ``networks[p][t - 1]`` is player p's advantage network after training at
        iteration t.  Iteration t + 1 plays regret matching on the networks of
        iteration t.
    scale : float
        Networks predict advantages divided by this (the game's largest payoff).
    fallback : str
        The regret-matching rule where no advantage is positive.
    """

    trace: Trace
    networks: list[list[MLP]]
    scale: float
    fallback: str

    @property
    def game(self) -> GameTree:
        """The tree the run solved (a matrix game's two-move tree for a matrix game)."""
        game = self.trace.game
        if not isinstance(game, GameTree):
            raise TypeError(f"a Deep CFR trace holds a game tree; got {type(game).__name__}")
        return game

    @property
    def iterations(self) -> int:
        """Iterations run (networks trained per player)."""
        return len(self.networks[0])

    def features(self, infoset: str | int) -> FloatArray:
        """The network input of a set (key or id); see :class:`FeatureEncoding`."""
        row: FloatArray = infoset_features(self.game)[1][self._info(infoset)].copy()
        return row

    def network(self, player: int, iteration: int | None = None) -> MLP:
        """Player ``player``'s (0 or 1) advantage network trained at ``iteration`` (or the last)."""
        return self.networks[player][self._iteration(iteration) - 1]

    def advantages(self, infoset: str | int, iteration: int | None = None) -> FloatArray:
        """The advantages (payoff units, legal actions) predicted at a set after ``iteration``."""
        info = self._info(infoset)
        net = self.network(int(self.game.infoset_player[info]), iteration)
        k = len(self.game.infoset_actions[info])
        return net.forward(infoset_features(self.game)[1][info][None])[0, :k] * self.scale

    def advantage_table(self, iteration: int | None = None) -> FloatArray:
        """Predicted advantages at every set after ``iteration``, shape (sets, actions)."""
        t = self._iteration(iteration)
        return advantage_table(self.game, [self.networks[p][t - 1] for p in range(2)],
                               self.scale)

    def strategy(self, iteration: int) -> FloatArray:
        """sigma_t, the strategy played at ``iteration`` (uniform at 1), shape (sets, actions)."""
        mask = self.game.legal_mask
        if self._iteration(iteration) == 1:
            uniform: FloatArray = mask / mask.sum(axis=1, keepdims=True)
            return uniform
        return strategy_from_advantages(self.advantage_table(iteration - 1), mask,
                                        self.fallback)

    def _iteration(self, iteration: int | None) -> int:
        if iteration is None:
            return self.iterations
        return whole_number(iteration, "iteration", 1, self.iterations)

    def _info(self, infoset: object) -> int:
        return infoset_id(self.game, infoset)


def _train(request: Request) -> DeepCFRRun:
    """Train Deep CFR as ``request`` asks, through the one driver."""
    tree = as_tree(request.game, ALGORITHM)
    check_zero_sum(tree, ALGORITHM)
    if request.resume is not None:
        raise ValueError("deep_cfr cannot resume a run: its networks and memories are not kept "
                         "in a trace; run it again with more iterations")
    check_budget(tree, request.iterations, request.params, request.options["max_seconds"])
    step = _Step(tree, request.params, request.rng)
    state = SolverState.fresh(tree)
    state.current = tree.legal_mask / tree.legal_mask.sum(axis=1, keepdims=True)  # sigma_1
    trace = drive(request, one_at_a_time(tree_stepper(request, tree, state, step,
                                                      resumable=False)))
    return DeepCFRRun(trace, step.networks, step.scale, step.fallback)


class _Step:
    """Deep CFR's step: iterations ``first..last`` (the driver asks for one at a time).

    It keeps what a trace cannot hold: each player's advantage memory and every iteration's
    networks.  The state's ``current`` is sigma_t, ``regret_sum`` the advantages the networks
    of iteration t predict, ``instant`` the exact regrets of sigma_t and ``strategy_sum`` the
    Single Deep CFR sums (sigma_t weighted by t and the owner's own reach).
    """

    def __init__(self, tree: GameTree, params: Mapping[str, Any],
                 rng: np.random.Generator) -> None:
        self.tree, self.rng = tree, rng
        self.traversals: int = params["traversals"]
        self.hidden: int = params["hidden"]
        self.train_steps: int = params["train_steps"]
        self.learning_rate: float = params["learning_rate"]
        self.batch_size: int = params["batch_size"]
        self.warm_start: bool = params["warm_start"]
        self.fallback: str = params["fallback"]
        width = tree.legal_mask.shape[1]
        _, self.features = infoset_features(tree)
        self.scale = float(np.max(np.abs(tree.utility))) or 1.0
        self.walk_rng = engine.seed_state(rng)  # the compiled walks' SplitMix64 word
        self.memories = [Reservoir(params["capacity"], width) for _ in range(2)]
        self.networks: list[list[MLP]] = [[], []]

    def __call__(self, state: SolverState, first: int, last: int) -> int:
        touched = 0
        for t in range(first, last + 1):
            touched += self.iteration(state, t)
        return touched

    def iteration(self, state: SolverState, t: int) -> int:
        """Play sigma_t, sample, remember, learn; returns the nodes the walks touched."""
        tree, mask = self.tree, self.tree.legal_mask
        if t > 1:  # sigma_t: what the networks of iteration t - 1 play
            state.current = strategy_from_advantages(state.regret_sum, mask, self.fallback)
        sigma = state.current
        touched = 0
        for p in range(2):
            infos, regrets, walked = external_sampling_samples(tree, sigma, p, self.traversals,
                                                               self.walk_rng)
            self.memories[p].add(infos, regrets / self.scale, float(t), self.rng)
            touched += walked
        trained = [self.learn(p) for p in range(2)]
        # SD-CFR's exact average: sigma_t weighted by t and the owner's own reach.
        counterfactual = [engine.counterfactual_table(tree, sigma, p) for p in range(2)]
        owner = tree.infoset_player
        reach = np.where(owner == 0, counterfactual[0]["own_reach"],
                         counterfactual[1]["own_reach"])
        state.strategy_sum += t * reach[:, None] * sigma
        state.regret_sum = advantage_table(tree, trained, self.scale)
        state.instant = _exact_regrets(counterfactual, owner, mask)
        state.iteration = t
        if not np.isfinite(state.regret_sum).all():
            raise ValueError(f"deep_cfr on {tree.name}: the advantage networks' outputs became "
                             f"infinite or NaN at iteration {t}; lower learning_rate")
        return touched

    def learn(self, p: int) -> MLP:
        """Player p's network of this iteration, trained on p's memory, kept and returned."""
        networks = self.networks[p]
        if self.warm_start and networks:
            net = networks[-1].copy()
        else:
            sizes = (self.features.shape[1], self.hidden, self.hidden,
                     self.tree.legal_mask.shape[1])
            net = MLP.create(sizes, self.rng)
        _fit(net, self.memories[p], self.features, self.tree.legal_mask, self.train_steps,
             self.learning_rate, self.batch_size, self.rng)
        networks.append(net)
        return net


def _exact_regrets(counterfactual: Sequence[Mapping[str, FloatArray]], owner: IntArray,
                   mask: BoolArray) -> FloatArray:
    """The exact counterfactual regrets of the strategy played, from each set's owner's table."""
    out = np.zeros(mask.shape)
    for p in range(2):
        table = counterfactual[p]
        regrets = table["action_values"] - table["value"][:, None]
        out[owner == p] = regrets[owner == p]
    return np.where(mask, out, 0.0)


def _fit(net: MLP, memory: Reservoir, features: FloatArray, mask: BoolArray, steps: int,
         learning_rate: float, batch_size: int, rng: np.random.Generator) -> None:
    """Train ``net`` on the memory: the whole of it per step (grouped by set), or minibatches."""
    if len(memory) == 0:
        return
    if batch_size == 0:
        sets, targets, weights = memory.grouped()
        train(net, features[sets], targets, weights, mask[sets], steps, learning_rate)
    else:
        size = len(memory)
        infos = memory.infos[:size]
        train(net, features[infos], memory.regrets[:size], memory.weights[:size], mask[infos],
              steps, learning_rate, batch_size=batch_size, rng=rng)


# ----------------------------------------------------------------------------- entry points

def solve_deep_cfr(request: Request) -> Trace | DeepCFRRun:
    """Deep CFR (Brown et al., 2019) with the Single Deep CFR average (Steinberger, 2019).

    See the module's documentation for the algorithm.  The trace's records hold:

    - ``current_strategy``: sigma_t, what the networks of iteration t - 1 play (uniform at t = 1);
    - ``cumulative_regret``: the advantages the networks trained at iteration t predict at
      every set (payoff units), on which regret matching gives sigma_{t+1} as on cumulative
      regrets in tabular CFR.  They estimate linear CFR's cumulative regret divided, per set,
      by a positive weight (the t-weighted reach the set was sampled with): not a sum's scale;
    - ``instantaneous_regret``: the *exact* counterfactual regrets of sigma_t over the whole
      tree (the explorer shows them beside the predictions; the algorithm sees only sampled ones);
    - ``average_strategy``: the Single Deep CFR average, exact at every set (no strategy network);
    - ``extras["nodes_touched"]``: nodes the sampled traversals visit (leaving out the walk of
      the whole tree each iteration for the exact average and regrets, and exploitability).

    Parameters
    ----------
    traversals : int, default 1000
        External-sampling walks per player per iteration (the paper's K).
    capacity : int, default 1_000_000
        Samples each player's advantage memory keeps (reservoir sampling).
    hidden : int, default 64
        Units in each of the network's two hidden layers.
    train_steps : int, default 300
        Adam steps per network per iteration.
    learning_rate : float, default 0.003
    batch_size : int, default 0
        Samples per step; 0 uses the gradient over the whole memory.
    warm_start : bool, default False
        Start each iteration's network from the previous one's weights instead of from
        scratch (the paper trains from scratch).
    fallback : {"uniform", "argmax"}, default "uniform"
        What a set plays when no advantage is positive: uniform, as tabular regret matching
        does (so the explorer's "next strategy (regret matching)" is exactly the next
        iteration's strategy), or the action with the largest prediction, the paper's rule.
        Measured with the other defaults (median of seeds 0-2, 100 iterations): Kuhn 0.0238
        either way; Leduc 0.206 (uniform), 0.189 (argmax).

    Run options (``request.options``)
    ---------------------------------
    networks : bool, default False
        Return a :class:`DeepCFRRun`, the trace and every iteration's advantage networks (not
        in the trace: a trace file holds arrays of fixed schema), instead of the trace alone:
        ``cfrviz.solve(game, "deep_cfr", n, networks=True)``.
    max_seconds : float, default 600
        A run estimated to take longer (before it starts, from its parameters, by the lower
        estimate of :mod:`~cfrviz.solvers.deep_cfr.budget`) is refused, as is one estimated
        to need over 4 GiB of memory; one estimated past a minute warns, giving the estimate.

    ``resume`` is refused: a run's memories and networks are not in the trace.

    Returns
    -------
    Trace or DeepCFRRun
        A Ctrl-C ends the run after the iteration in progress, with a warning; the trace holds
        the finished iterations.
    """
    run = _train(request)
    return run if request.options["networks"] else run.trace


def train_deep_cfr(game: object, iterations: int, seed: int | None = None,
                   checkpoints: Iterable[int] | None = None, **params: Any) -> DeepCFRRun:
    """``cfrviz.solve(game, "deep_cfr", iterations, seed, checkpoints, networks=True,
    **params)``: Deep CFR, keeping the networks.

    The same request, checked by the same registry, run by the same runner;
    ``train_deep_cfr(game, n, seed=s).trace`` equals ``cfrviz.solve(game,
    "deep_cfr", n, seed=s)``.

    Returns
    -------
    DeepCFRRun
        The trace, and every iteration's advantage networks (to evaluate a
        network at a set: ``run.advantages("Qb", iteration=30)``).
    """
    request = check_request(game, ALGORITHM, iterations, seed, checkpoints,
                            {**params, "networks": True})
    return _train(request)


register_algorithm(Algorithm(
    ALGORITHM, "Deep CFR", "network", solve_deep_cfr,
    (Param("traversals", 1000, "int", 1, 1_000_000, step=100,
           help="external-sampling walks per player per iteration"),
     Param("capacity", 1_000_000, "int", 1, 100_000_000, step=10_000,
           help="samples each player's advantage memory keeps (reservoir sampling)"),
     Param("hidden", 64, "int", 1, 4096, step=16,
           help="units in each of the network's two hidden layers"),
     Param("train_steps", 300, "int", 1, 100_000, step=50,
           help="Adam steps per network per iteration"),
     Param("learning_rate", 3e-3, "float", 0.0, 1.0, low_open=True, step=0.001,
           help="Adam's step size"),
     Param("batch_size", 0, "int", 0, 1_000_000, step=64,
           help="samples per training step; 0: the whole memory's gradient"),
     Param("warm_start", False, "bool",
           help="start each network from the previous iteration's instead of from scratch"),
     Param("fallback", "uniform", "choice", choices=FALLBACKS,
           help="what a set plays when no predicted advantage is positive")),
    options=(Param("networks", False, "bool",
                   help="return a DeepCFRRun: the trace and every iteration's networks"),
             Param("max_seconds", MAX_SECONDS, "float", 0.0, low_open=True, step=60,
                   help="refuse a run estimated to take longer than this (seconds)")),
    exact_regrets=True,  # the recorded instantaneous regrets are the exact ones
    summary="advantage networks trained on sampled regrets; exact Single Deep CFR average",
    paper="Brown, Lerer, Gross and Sandholm (2019), Deep counterfactual regret minimization, "
          "ICML; Steinberger (2019), Single deep counterfactual regret minimization, "
          "arXiv:1901.07621",
    aliases=("deep", "deepcfr", "sd_cfr", "single_deep_cfr")))
