"""The CFR family on game trees: vanilla CFR, CFR+, linear CFR, DCFR and Monte Carlo CFR.

All are thin named front ends over two compiled cores in :mod:`cfrviz.engine`
(full-tree passes, and sampled traversals) and one training loop
(:func:`cfrviz.solvers.driver.run`); they differ only in the flags they set.
Each is registered once, at the bottom, with its parameters: :func:`cfrviz.solve`
checks values against those declarations before calling the runner.
"""

from __future__ import annotations

import numpy as np

from .. import engine
from ..core.registry import Param
from ..core.tree import GameTree, as_tree, check_zero_sum
from .driver import average_strategy, default_checkpoints, run
from .registry import Algorithm, register_algorithm

__all__ = ["average_strategy", "default_checkpoints", "tree_exploitability", "solve_cfr",
           "solve_cfr_plus", "solve_linear_cfr", "solve_dcfr", "solve_chance_sampling",
           "solve_external_sampling", "solve_outcome_sampling"]

tree_exploitability = engine.tree_exploitability


def _tree(game, algorithm: str) -> GameTree:
    tree = as_tree(game, algorithm)
    check_zero_sum(tree, algorithm)
    return tree


def _full_tree(game, iterations, rng, record, algorithm, params, progress, resume, *,
               alternating, plus=False, discount=False, alpha=1.0, beta=1.0, gamma=1.0,
               linear_average=False):
    tree = _tree(game, algorithm)
    p = engine.plan(tree)

    def step(state, first, last):
        tables = engine.Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        rule = engine.UpdateRule(alternating=alternating, plus=plus, discount=discount,
                                 alpha=alpha, beta=beta, gamma=gamma,
                                 linear_average=linear_average)
        engine.run_full_tree(p.arrays, tables, first, last, rule)
        return 2 * p.n * (last - first + 1)

    return run(tree, algorithm, iterations, rng, record, params, step, progress=progress,
               resume=resume)


def solve_cfr(game, iterations: int, rng: np.random.Generator, record, *,
              alternating, progress, resume):
    """Vanilla counterfactual regret minimization (Zinkevich et al., 2007).

    Each iteration computes, for every information set, the counterfactual
    regret of each action (weighted by the opponent's and chance's reach),
    adds it to the cumulative regret, and plays regret matching on the
    result; the average strategy, weighted by the player's own reach,
    converges to a Nash equilibrium of a two-player zero-sum game.
    :func:`cfrviz.reference.vanilla_cfr` is the readable recursive version
    this compiled engine is tested against.

    Parameters
    ----------
    alternating : bool, default True
        Update player 1, then player 2 against player 1's new strategy (as
        OpenSpiel does); ``False`` updates both from the same strategies.
    progress : bool or None
        Show a progress bar: always, never, or (``None``) once a run has
        taken two seconds.
    resume : Trace, optional
        Continue a run of the same game and parameters from its final state.
    """
    return _full_tree(game, iterations, rng, record, "cfr", {"alternating": alternating},
                      progress, resume, alternating=alternating)


def solve_cfr_plus(game, iterations: int, rng: np.random.Generator, record, *,
                   alternating, progress, resume):
    """CFR+ (Tammelin, 2014; Tammelin et al., 2015).

    Regret matching+ (cumulative regrets floored at zero after every
    update), alternating updates, and an average weighted linearly by the
    iteration number, as in OpenSpiel's ``CFRPlusSolver``.
    """
    return _full_tree(game, iterations, rng, record, "cfr+", {"alternating": alternating},
                      progress, resume, alternating=alternating, plus=True, linear_average=True)


def solve_linear_cfr(game, iterations: int, rng: np.random.Generator, record, *,
                     alternating, progress, resume):
    """Linear CFR (Brown and Sandholm, 2019): iteration t's regrets and strategy weigh t.

    The same as DCFR with alpha = beta = gamma = 1.
    """
    return _full_tree(game, iterations, rng, record, "linear_cfr", {"alternating": alternating},
                      progress, resume, alternating=alternating, discount=True,
                      alpha=1.0, beta=1.0, gamma=1.0)


def solve_dcfr(game, iterations: int, rng: np.random.Generator, record, *,
               alpha, beta, gamma, alternating, progress, resume):
    """Discounted CFR (Brown and Sandholm, 2019, "Solving imperfect-information games via
    discounted regret minimization").

    After iteration t, positive cumulative regrets are multiplied by
    t^alpha / (t^alpha + 1), negative ones by t^beta / (t^beta + 1), and the
    strategy sum by (t / (t + 1))^gamma.  The defaults (1.5, 0, 2) are the
    paper's recommendation.
    """
    params = {"alpha": alpha, "beta": beta, "gamma": gamma, "alternating": alternating}
    return _full_tree(game, iterations, rng, record, "dcfr", params, progress, resume,
                      alternating=alternating, discount=True, alpha=alpha, beta=beta,
                      gamma=gamma)


def _sampled(game, iterations, rng, record, algorithm, params, progress, resume, kernel,
             *extra):
    tree = _tree(game, algorithm)
    p = engine.plan(tree)

    def step(state, first, last):
        tables = engine.Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        return int(kernel(p.arrays, tables, first, last, state.rng, *extra))

    return run(tree, algorithm, iterations, rng, record, params, step, progress=progress,
               resume=resume)


def solve_chance_sampling(game, iterations: int, rng: np.random.Generator, record, *,
                          progress, resume):
    """Chance-sampled CFR (Zinkevich et al., 2007; Lanctot et al., 2009).

    Each iteration, for each player in turn, draws one outcome at every chance
    node on the way and runs a full CFR pass over the players' actions below
    the drawn outcomes.  Cheap iterations, noisier progress.
    """
    return _sampled(game, iterations, rng, record, "chance_sampling", {}, progress, resume,
                    engine.run_chance_sampling)


def solve_external_sampling(game, iterations: int, rng: np.random.Generator, record, *,
                            progress, resume):
    """External-sampling Monte Carlo CFR (Lanctot et al., 2009), stochastically-weighted averaging.

    For each player in turn, sample chance and the opponent's actions, and
    try every action of the player being updated.
    """
    return _sampled(game, iterations, rng, record, "external_sampling", {}, progress, resume,
                    engine.run_external_sampling)


def solve_outcome_sampling(game, iterations: int, rng: np.random.Generator, record, *,
                           epsilon, progress, resume):
    """Outcome-sampling Monte Carlo CFR (Lanctot et al., 2009).

    Each player's update follows one sampled path from root to a terminal;
    the player being updated explores with probability ``epsilon`` (uniform
    over legal actions), which keeps the importance weights bounded.

    Parameters
    ----------
    epsilon : float in (0, 1], default 0.6
    """
    return _sampled(game, iterations, rng, record, "outcome_sampling", {"epsilon": epsilon},
                    progress, resume, engine.run_outcome_sampling, epsilon)


# ----------------------------------------------------------------------------- registrations

_ALTERNATING = Param("alternating", True, "bool",
                     help="update player 1, then player 2 against player 1's new strategy")
_ZINKEVICH = ("Zinkevich, Johanson, Bowling and Piccione (2007), Regret minimization in games "
              "with incomplete information, NeurIPS")
_LANCTOT = ("Lanctot, Waugh, Zinkevich and Bowling (2009), Monte Carlo sampling for regret "
            "minimization in extensive games, NeurIPS")
_BROWN = ("Brown and Sandholm (2019), Solving imperfect-information games via discounted "
          "regret minimization, AAAI")

register_algorithm(Algorithm(
    "cfr", "CFR", "full_tree", solve_cfr, (_ALTERNATING,), alternates=True,
    summary="vanilla CFR: exact counterfactual regrets over the whole tree", paper=_ZINKEVICH,
    aliases=("vanilla", "vanilla_cfr", "full")))
register_algorithm(Algorithm(
    "cfr+", "CFR+", "full_tree", solve_cfr_plus, (_ALTERNATING,), alternates=True,
    summary="regret matching+ (regrets floored at 0) and a linearly weighted average",
    paper="Tammelin (2014), Solving large imperfect information games using CFR+, arXiv:1407.5042",
    aliases=("cfr_plus", "cfrplus")))
register_algorithm(Algorithm(
    "linear_cfr", "linear CFR", "full_tree", solve_linear_cfr, (_ALTERNATING,), alternates=True,
    summary="iteration t's regrets and strategy weigh t", paper=_BROWN,
    aliases=("linear", "lcfr")))
register_algorithm(Algorithm(
    "dcfr", "DCFR", "full_tree", solve_dcfr,
    (Param("alpha", 1.5, "float", 0.0, 100.0, help="discount of positive regrets: t^α/(t^α+1)"),
     Param("beta", 0.0, "float", -100.0, 100.0, help="discount of negative regrets: t^β/(t^β+1)"),
     Param("gamma", 2.0, "float", 0.0, 100.0, help="discount of the average: (t/(t+1))^γ"),
     _ALTERNATING), alternates=True,
    summary="discounted CFR: old regrets and strategies count less", paper=_BROWN,
    aliases=("discounted", "discounted_cfr")))
register_algorithm(Algorithm(
    "chance_sampling", "chance sampling", "sampling", solve_chance_sampling, (),
    exact_regrets=False, summary="one chance outcome per chance node, every action swept",
    paper=_ZINKEVICH + "; " + _LANCTOT, aliases=("chance", "cs", "chance_sampled_cfr")))
register_algorithm(Algorithm(
    "external_sampling", "external sampling", "sampling", solve_external_sampling, (),
    exact_regrets=False, summary="chance and the opponent sampled, every own action tried",
    paper=_LANCTOT, aliases=("external", "es", "external_sampling_mccfr")))
register_algorithm(Algorithm(
    "outcome_sampling", "outcome sampling", "sampling", solve_outcome_sampling,
    (Param("epsilon", 0.6, "float", 0.0, 1.0, low_open=True, step=0.05,
           help="exploration: how often the updated player samples uniformly"),),
    exact_regrets=False, summary="one sampled path from root to a terminal per update",
    paper=_LANCTOT, aliases=("outcome", "os", "outcome_sampling_mccfr")))
