"""The CFR family on game trees: vanilla CFR, CFR+, linear CFR, DCFR and Monte Carlo CFR.

All are thin named front ends over two compiled cores in :mod:`cfrviz.engine`
(full-tree passes, and sampled traversals) and one training loop
(:func:`cfrviz.solvers.driver.iterate`); they differ only in the flags they set.
Each is registered once, at the bottom, with its parameters: :func:`cfrviz.solve`
checks values against those declarations and hands the runner the checked
:class:`~cfrviz.solvers.registry.Request`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import engine
from ..core.registry import Param
from ..core.trace import SolverState, Trace
from ..core.tree import GameTree, as_tree, check_two_players, check_zero_sum
from .driver import Stepper, average_strategy, default_checkpoints, drive, start_tree
from .multi import run_multiplayer
from .registry import Algorithm, Request, register_algorithm

__all__ = ["average_strategy", "default_checkpoints", "tree_exploitability", "solve_cfr",
           "solve_cfr_plus", "solve_linear_cfr", "solve_dcfr", "solve_pcfr_plus",
           "solve_pdcfr_plus", "solve_chance_sampling",
           "solve_external_sampling", "solve_outcome_sampling", "UPDATE_RULES"]

tree_exploitability = engine.tree_exploitability

#: A compiled sampler: ``kernel(arrays, tables, first, last, rng, *extra) -> nodes touched``.
Sampler = Callable[..., int]


def _tree(request: Request) -> GameTree:
    tree = as_tree(request.game, request.name)
    check_two_players(tree, request.name, "its compiled kernels follow one opponent",
                      instead="a full-tree algorithm, e.g. cfrviz.solve(game, 'cfr', n), which "
                              "runs the N-player kernel")
    check_zero_sum(tree, request.name)
    return tree


def _rule(request: Request, **flags: Any) -> engine.UpdateRule:
    """The update rule of a full-tree member of the family: these flags
    (:class:`cfrviz.engine.UpdateRule`'s), ``alternating`` the request's."""
    return engine.UpdateRule(alternating=request.params["alternating"], **flags)


def _full_tree(request: Request, update: engine.UpdateRule) -> Trace:
    """A full-tree member of the family: the compiled sweep under ``update``.  On a game of
    more than two players the same rule runs in the N-player kernel
    (:func:`cfrviz.solvers.multi.run_multiplayer`)."""
    players = as_tree(request.game, request.name)
    if players.num_players > 2:
        return run_multiplayer(request, players, update)
    return drive(request, _full_tree_stepper(request, update))


def _full_tree_stepper(request: Request, update: engine.UpdateRule) -> Stepper:
    """The two-player sweep under ``update``, as a :class:`~cfrviz.solvers.driver.Stepper`."""
    tree = _tree(request)
    p = engine.plan(tree)

    def step(state: SolverState, first: int, last: int) -> int:
        tables = engine.Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        engine.run_full_tree(p.arrays, tables, first, last, update)
        return 2 * p.n * (last - first + 1)

    return start_tree(request, tree, step)


def solve_cfr(request: Request) -> Trace:
    """Vanilla counterfactual regret minimization (Zinkevich et al., 2007).

    Each iteration computes, for every information set, the counterfactual
    regret of each action (weighted by the opponent's and chance's reach),
    adds it to the cumulative regret, and plays regret matching on the
    result; the average strategy, weighted by the player's own reach,
    converges to a Nash equilibrium of a two-player zero-sum game.
    :func:`cfrviz.reference.vanilla_cfr` is the readable recursive version
    this compiled engine is tested against.

    Parameters (``request.params``)
    -------------------------------
    alternating : bool, default True
        Update player 1, then player 2 against player 1's new strategy (as
        OpenSpiel does); ``False`` updates both from the same strategies.
    """
    return _full_tree(request, _cfr(request))


def solve_cfr_plus(request: Request) -> Trace:
    """CFR+ (Tammelin, 2014; Tammelin et al., 2015).

    Regret matching+ (cumulative regrets floored at zero after every
    update), alternating updates, and an average weighted linearly by the
    iteration number, as in OpenSpiel's ``CFRPlusSolver``.
    """
    return _full_tree(request, _cfr_plus(request))


def solve_linear_cfr(request: Request) -> Trace:
    """Linear CFR (Brown and Sandholm, 2019): iteration t's regrets and strategy weigh t.

    The same as DCFR with alpha = beta = gamma = 1.
    """
    return _full_tree(request, _linear_cfr(request))


def solve_dcfr(request: Request) -> Trace:
    """Discounted CFR (Brown and Sandholm, 2019, "Solving imperfect-information games via
    discounted regret minimization").

    After iteration t, positive cumulative regrets are multiplied by
    t^alpha / (t^alpha + 1), negative ones by t^beta / (t^beta + 1), and the
    strategy sum by (t / (t + 1))^gamma.  The defaults (1.5, 0, 2) are the
    paper's recommendation.
    """
    return _full_tree(request, _dcfr(request))


def solve_pcfr_plus(request: Request) -> Trace:
    """Predictive CFR+ (Farina, Kroer and Sandholm, 2021).

    CFR+'s floored cumulative regrets R, but the strategy played is regret
    matching on R + m, where the prediction m of the next iteration's regrets
    is the last regrets seen at the set.  Alternating updates, and an average
    that weighs iteration t by t^gamma (2, quadratic, as published).
    """
    return _full_tree(request, _pcfr_plus(request))


def solve_pdcfr_plus(request: Request) -> Trace:
    """Predictive discounted CFR+ (Xu, Li, Liu, Fu, Fu, Xing and Cheng, 2024).

    PCFR+ with DCFR's discount: after iteration t the floored cumulative
    regrets are multiplied by t^alpha / (t^alpha + 1) and the strategy sum by
    (t / (t + 1))^gamma; the strategy played is regret matching on the
    discounted regrets plus the last regrets.  The defaults (alpha 2.3,
    gamma 5) are the paper's.
    """
    return _full_tree(request, _pdcfr_plus(request))


# The update rule of each full-tree algorithm, read by its solve_* above and its stepper.

def _cfr(request: Request) -> engine.UpdateRule:
    return _rule(request)


def _cfr_plus(request: Request) -> engine.UpdateRule:
    return _rule(request, plus=True, linear_average=True)


def _linear_cfr(request: Request) -> engine.UpdateRule:
    return _rule(request, discount=True, alpha=1.0, beta=1.0, gamma=1.0)


def _dcfr(request: Request) -> engine.UpdateRule:
    params = request.params
    return _rule(request, discount=True, alpha=params["alpha"], beta=params["beta"],
                 gamma=params["gamma"])


def _pcfr_plus(request: Request) -> engine.UpdateRule:
    return _rule(request, plus=True, linear_average=True, predictive=True,
                 average_power=request.params["gamma"])


def _pdcfr_plus(request: Request) -> engine.UpdateRule:
    params = request.params
    return _rule(request, plus=True, discount=True, alpha=params["alpha"],
                 beta=params["alpha"], gamma=params["gamma"], predictive=True)


#: Each full-tree algorithm's update rule, by name: what its solve_* and stepper run, and what
#: its vector form (:mod:`cfrviz.solvers.vector_cfr`) runs over the public tree.
UPDATE_RULES: dict[str, Callable[[Request], engine.UpdateRule]] = {
    "cfr": _cfr, "cfr+": _cfr_plus, "linear_cfr": _linear_cfr, "dcfr": _dcfr,
    "pcfr+": _pcfr_plus, "pdcfr+": _pdcfr_plus}


def _steps(rule: Callable[[Request], engine.UpdateRule]) -> Callable[[Request], Stepper]:
    """The :attr:`~cfrviz.solvers.registry.Algorithm.stepper` of a full-tree algorithm."""
    return lambda request: _full_tree_stepper(request, rule(request))


def _sampled(request: Request, kernel: Sampler, *extra: float) -> Stepper:
    """A sampling member of the family: the compiled ``kernel``, drawing from the state's
    generator."""
    tree = _tree(request)
    p = engine.plan(tree)

    def step(state: SolverState, first: int, last: int) -> int:
        tables = engine.Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        return int(kernel(p.arrays, tables, first, last, state.rng, *extra))

    return start_tree(request, tree, step)


def _chance_sampling(request: Request) -> Stepper:
    return _sampled(request, engine.run_chance_sampling)


def _external_sampling(request: Request) -> Stepper:
    return _sampled(request, engine.run_external_sampling)


def _outcome_sampling(request: Request) -> Stepper:
    return _sampled(request, engine.run_outcome_sampling, request.params["epsilon"])


def solve_chance_sampling(request: Request) -> Trace:
    """Chance-sampled CFR (Zinkevich et al., 2007; Lanctot et al., 2009).

    Each iteration, for each player in turn, draws one outcome at every chance
    node on the way and runs a full CFR pass over the players' actions below
    the drawn outcomes.  Cheap iterations, noisier progress.
    """
    return drive(request, _chance_sampling(request))


def solve_external_sampling(request: Request) -> Trace:
    """External-sampling Monte Carlo CFR (Lanctot et al., 2009), stochastically-weighted averaging.

    For each player in turn, sample chance and the opponent's actions, and
    try every action of the player being updated.
    """
    return drive(request, _external_sampling(request))


def solve_outcome_sampling(request: Request) -> Trace:
    """Outcome-sampling Monte Carlo CFR (Lanctot et al., 2009).

    Each player's update follows one sampled path from root to a terminal;
    the player being updated explores with probability ``epsilon`` (uniform
    over legal actions), which keeps the importance weights bounded.

    Parameters (``request.params``)
    -------------------------------
    epsilon : float in (0, 1], default 0.6
    """
    return drive(request, _outcome_sampling(request))


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
    aliases=("vanilla", "vanilla_cfr", "full"),
    stepper=_steps(_cfr)))
register_algorithm(Algorithm(
    "cfr+", "CFR+", "full_tree", solve_cfr_plus, (_ALTERNATING,), alternates=True,
    summary="regret matching+ (regrets floored at 0) and a linearly weighted average",
    paper="Tammelin (2014), Solving large imperfect information games using CFR+, arXiv:1407.5042",
    aliases=("cfr_plus", "cfrplus"),
    stepper=_steps(_cfr_plus)))
register_algorithm(Algorithm(
    "linear_cfr", "linear CFR", "full_tree", solve_linear_cfr, (_ALTERNATING,), alternates=True,
    summary="iteration t's regrets and strategy weigh t", paper=_BROWN,
    aliases=("linear", "lcfr"),
    stepper=_steps(_linear_cfr)))
register_algorithm(Algorithm(
    "dcfr", "DCFR", "full_tree", solve_dcfr,
    (Param("alpha", 1.5, "float", 0.0, 100.0, help="discount of positive regrets: t^α/(t^α+1)"),
     Param("beta", 0.0, "float", -100.0, 100.0, help="discount of negative regrets: t^β/(t^β+1)"),
     Param("gamma", 2.0, "float", 0.0, 100.0, help="discount of the average: (t/(t+1))^γ"),
     _ALTERNATING), alternates=True,
    summary="discounted CFR: old regrets and strategies count less", paper=_BROWN,
    aliases=("discounted", "discounted_cfr"),
    stepper=_steps(_dcfr)))
_FARINA = ("Farina, Kroer and Sandholm (2021), Faster game solving via predictive Blackwell "
           "approachability: connecting regret matching and mirror descent, AAAI")
register_algorithm(Algorithm(
    "pcfr+", "PCFR+", "full_tree", solve_pcfr_plus,
    (Param("gamma", 2.0, "float", 0.0, 100.0,
           help="the average weighs iteration t by t^γ (2: quadratic, as published)"),
     _ALTERNATING), alternates=True, predictive=True,
    summary="predictive regret matching+: regrets plus a prediction (the last regrets)",
    paper=_FARINA, aliases=("pcfr_plus", "pcfrplus", "predictive_cfr+", "predictive"),
    stepper=_steps(_pcfr_plus)))
register_algorithm(Algorithm(
    "pdcfr+", "PDCFR+", "full_tree", solve_pdcfr_plus,
    (Param("alpha", 2.3, "float", 0.0, 100.0,
           help="discount of the floored regrets: t^α/(t^α+1)"),
     Param("gamma", 5.0, "float", 0.0, 100.0, help="discount of the average: (t/(t+1))^γ"),
     _ALTERNATING), alternates=True, predictive=True,
    summary="PCFR+ with DCFR's discounts", paper=(
        "Xu, Li, Liu, Fu, Fu, Xing and Cheng (2024), Minimizing weighted counterfactual regret "
        "with optimistic online mirror descent, IJCAI"),
    aliases=("pdcfr_plus", "pdcfrplus", "predictive_discounted"),
    stepper=_steps(_pdcfr_plus)))
register_algorithm(Algorithm(
    "chance_sampling", "chance sampling", "sampling", solve_chance_sampling, (),
    exact_regrets=False, summary="one chance outcome per chance node, every action swept",
    paper=_ZINKEVICH + "; " + _LANCTOT, aliases=("chance", "cs", "chance_sampled_cfr"),
    stepper=_chance_sampling))
register_algorithm(Algorithm(
    "external_sampling", "external sampling", "sampling", solve_external_sampling, (),
    exact_regrets=False, summary="chance and the opponent sampled, every own action tried",
    paper=_LANCTOT, aliases=("external", "es", "external_sampling_mccfr"),
    stepper=_external_sampling))
register_algorithm(Algorithm(
    "outcome_sampling", "outcome sampling", "sampling", solve_outcome_sampling,
    (Param("epsilon", 0.6, "float", 0.0, 1.0, low_open=True, step=0.05,
           help="exploration: how often the updated player samples uniformly"),),
    exact_regrets=False, summary="one sampled path from root to a terminal per update",
    paper=_LANCTOT, aliases=("outcome", "os", "outcome_sampling_mccfr"),
    stepper=_outcome_sampling))
