"""Monte Carlo CFR, measured: what an iteration costs, and what its sampled regrets estimate.

Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling, 2009, "Monte Carlo
sampling for regret minimization in extensive games", NIPS) walks part of the
tree per iteration and divides what it sees by the probability of having
sampled it, so that its regrets are *unbiased* estimates of the full-tree
ones.  These helpers measure both facts on a game, for the lessons:

- the cost: nodes per iteration, and which nodes each walk of an iteration
  enters (:func:`sampled_walks`, drawn by lesson 06's sampled-paths view);
- the estimates: single runs against exact regrets, and the *exact* expected
  update of one walk (:func:`expected_update`, by running it once for every
  possible sequence of draws);
- external sampling done wrong (:func:`external_sampling_variant`): an
  importance weight it does not need, averages in the wrong place or with
  the wrong weight (:func:`averaging_weights`, :func:`averaging_comparison`).

The walks are the readable ones of :mod:`cfrviz.reference.mccfr`, which draw
the same numbers as the compiled solvers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.checks import whole_number
from ..core.regret import average_strategy, regret_matching
from ..core.tree import TERMINAL, as_tree
from ..engine import tree_exploitability, tree_reach_probabilities
from ..reference.cfr import vanilla_cfr, walk
from ..reference.mccfr import WALKS, external_sampling_walk, sampled_walk, stream_draws
from ..reference.mistakes import SAMPLED_AVERAGES, SAMPLED_REGRETS, external_sampling
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
    whole_number(iterations, "iterations", 1)
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
    whole_number(runs, "runs", 2)
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


# --- what one walk visits --------------------------------------------------------------------

#: Every algorithm whose walks :func:`sampled_walks` can show: vanilla CFR, then the samplers.
WALKED = ("cfr", *WALKS)


@dataclass(frozen=True)
class Walk:
    """One player's walk of one iteration: the nodes it entered and the draws it made.

    Attributes
    ----------
    player : int
        The player the walk updates (0 or 1).
    nodes : numpy.ndarray of int
        The ids of the nodes the walk entered, ascending (the root included).
    drawn : dict
        ``{node: (index, probability)}``: at each node where the walk drew one
        outcome or action, which one and with what probability.  At every
        other non-terminal node it entered, the walk tried every child.
    """

    player: int
    nodes: np.ndarray
    drawn: dict


def visited_nodes(tree, drawn) -> np.ndarray:
    """The nodes a walk enters: the drawn child where it drew, every child elsewhere.

    That one rule describes vanilla CFR (no draws: the whole tree), chance,
    external and outcome sampling alike; ``drawn`` maps a node to the index
    of its child that was drawn (or to ``(index, probability)``).
    """
    entered, stack = [], [0]
    while stack:
        node = stack.pop()
        entered.append(node)
        children = tree.children[node]
        if node in drawn:
            choice = drawn[node]
            stack.append(int(children[choice[0] if isinstance(choice, tuple) else choice]))
        else:
            stack.extend(int(c) for c in children)
    return np.array(sorted(entered), dtype=np.int64)


def recording(draw, log: dict):
    """``draw`` that also writes ``{node: (index, probability)}`` of each draw into ``log``."""
    def recorded(node, probabilities):
        index = draw(node, probabilities)
        log[int(node)] = (int(index), float(probabilities[index]))
        return index
    return recorded


def sampled_walks(game, algorithm: str, iterations: int, seed: int = 0,
                  epsilon: float = 0.6) -> list[tuple[Walk, Walk]]:
    """The walks of the first ``iterations`` iterations of an algorithm: what each one visited.

    The samplers run their readable versions (:mod:`cfrviz.reference.mccfr`),
    which draw the same numbers as the compiled solvers: at the same ``seed``
    these are the walks of ``cfrviz.solve(game, algorithm, iterations,
    seed=seed)``, and their node counts add up to its ``nodes_touched``.
    Vanilla CFR draws nothing and walks the whole tree for each player.

    Parameters
    ----------
    game : GameTree
    algorithm : str
        ``"cfr"``, ``"chance_sampling"``, ``"external_sampling"`` or ``"outcome_sampling"``.
    iterations : int
    seed : int
        As for :func:`cfrviz.solve`.
    epsilon : float
        Outcome sampling's exploration.

    Returns
    -------
    list of (Walk, Walk)
        Per iteration, player 1's walk then player 2's.
    """
    if algorithm not in WALKED:
        raise ValueError(f"algorithm must be one of {', '.join(WALKED)}; got {algorithm!r}")
    whole_number(iterations, "iterations", 1)
    whole_number(seed, "seed", 0)
    tree = as_tree(game, "sampled_walks")
    if algorithm == "cfr":
        everything = np.arange(tree.num_nodes)
        return [(Walk(0, everything, {}), Walk(1, everything, {}))] * int(iterations)
    draw = stream_draws(np.random.default_rng(seed))
    regret_sum = np.zeros(tree.legal_mask.shape)
    strategy_sum = np.zeros(tree.legal_mask.shape)
    out = []
    for _ in range(int(iterations)):
        pair = []
        for player in (0, 1):
            log: dict = {}
            sampled_walk(tree, algorithm, player, regret_sum, strategy_sum,
                         recording(draw, log), epsilon)
            pair.append(Walk(player, visited_nodes(tree, log), log))
        out.append((pair[0], pair[1]))
    return out


def path_probability(tree, drawn, node: int) -> float:
    """The probability that a walk with draws ``drawn`` came to ``node``: the product of the
    probabilities of the draws on the path from the root (1 where it tried every child)."""
    q, child = 1.0, int(node)
    while tree.parent[child] >= 0:
        parent = int(tree.parent[child])
        if parent in drawn:
            q *= drawn[parent][1]
        child = parent
    return q


@dataclass(frozen=True)
class SampledTerminals:
    """The terminal histories one external-sampling walk reached, with two numbers each.

    Attributes
    ----------
    player : int
        The traverser.
    histories : tuple of str
    sampled : numpy.ndarray
        ``q(z)``: the probability that the walk reached ``z`` (its draws' probabilities).
    chance, opponent : numpy.ndarray
        Chance's and the opponent's reach of ``z`` under the walk's strategies:
        their product is the counterfactual weight of ``z``.
    """

    player: int
    histories: tuple
    sampled: np.ndarray
    chance: np.ndarray
    opponent: np.ndarray


def sampled_terminals(game, player: int = 0, regret_sum=None, seed: int = 0) -> SampledTerminals:
    """Run one external-sampling walk for ``player`` and list the terminal histories it reached.

    For each, the probability that the walk reached it, ``q(z)``, beside
    chance's and the opponent's reach of it at the strategies the walk
    used (regret matching on ``regret_sum``; the opponent's do not change
    during the walk): the two agree, which is why external sampling needs no
    importance weight.
    """
    tree = as_tree(game, "sampled_terminals")
    start = np.zeros(tree.legal_mask.shape) if regret_sum is None else np.array(regret_sum,
                                                                                 dtype=float)
    log: dict = {}
    sampled_walk(tree, "external_sampling", player, start.copy(), np.zeros(start.shape),
                 recording(stream_draws(np.random.default_rng(seed)), log))
    nodes = visited_nodes(tree, log)
    ends = nodes[tree.player[nodes] == TERMINAL]
    reach = tree_reach_probabilities(tree, regret_matching(start, tree.legal_mask))
    return SampledTerminals(player, tuple(tree.history[z] for z in ends),
                            np.array([path_probability(tree, log, z) for z in ends]),
                            reach[2, ends], reach[1 - player, ends])


# --- what a walk adds on average -------------------------------------------------------------

def executions(run):
    """Every way a randomised walk can go, with its probability.

    ``run(draw)`` is called once per possible sequence of draws; ``draw(node,
    probabilities)`` follows a script and records the probability of what it
    returns.  Draws of probability 0 are never made.

    Yields
    ------
    (float, object)
        The probability of that sequence of draws and what ``run`` returned.
    """
    pending: list[tuple[int, ...]] = [()]
    while pending:
        script = pending.pop()
        offered: list[np.ndarray] = []
        chosen: list[int] = []

        def draw(_node, probabilities, script=script, offered=offered, chosen=chosen):
            p = np.asarray(probabilities, dtype=float)
            i = len(chosen)
            index = script[i] if i < len(script) else int(np.flatnonzero(p > 0)[0])
            offered.append(p)
            chosen.append(index)
            return index

        result = run(draw)
        yield float(np.prod([p[i] for p, i in zip(offered, chosen)])), result
        # Every other sequence that agrees with this one up to a draw beyond the script.
        for j in range(len(script), len(chosen)):
            for other in np.flatnonzero(offered[j] > 0).tolist():
                if other > chosen[j]:
                    pending.append((*chosen[:j], other))


def expected_update(game, algorithm: str, player: int, regret_sum=None,
                    epsilon: float = 0.6, walk=None) -> tuple[np.ndarray, np.ndarray]:
    """What one walk adds to the regrets and the strategy sums, on average over its draws.

    Computed exactly, by running the walk once for every possible sequence of
    draws (:func:`executions`) and weighting each by its probability: for an
    unbiased sampler the expected regrets are vanilla CFR's counterfactual
    regrets at the same strategies (regret matching on ``regret_sum``).

    Parameters
    ----------
    game : GameTree
    algorithm : str
        One of ``chance_sampling``, ``external_sampling``, ``outcome_sampling``.
    player : int
        The player the walk updates.
    regret_sum : numpy.ndarray, optional
        The cumulative regrets before the walk (zeros: uniform strategies).
    epsilon : float
        Outcome sampling's exploration.
    walk : callable, optional
        ``walk(tree, player, regret_sum, strategy_sum, draw)`` to use instead
        of the algorithm's own (lesson 06 tries variants this way).

    Returns
    -------
    regret, strategy_sum : numpy.ndarray, shape (information sets, max actions)
    """
    tree = as_tree(game, "expected_update")
    start = np.zeros(tree.legal_mask.shape) if regret_sum is None else np.array(regret_sum,
                                                                                 dtype=float)
    if walk is None:
        if algorithm not in WALKS:
            raise ValueError(f"algorithm must be one of {', '.join(WALKS)}; got {algorithm!r}")

        def walk(tree, player, regrets, sums, draw):
            sampled_walk(tree, algorithm, player, regrets, sums, draw, epsilon)

    def run(draw):
        regrets, sums = start.copy(), np.zeros(start.shape)
        walk(tree, player, regrets, sums, draw)
        return regrets - start, sums

    regret, sums = np.zeros(start.shape), np.zeros(start.shape)
    for probability, (r, s) in executions(run):
        regret += probability * r
        sums += probability * s
    return regret, sums


def counterfactual_regrets(game, player: int, regret_sum=None) -> np.ndarray:
    """Vanilla CFR's regrets of ``player`` at the strategies regret matching gives ``regret_sum``.

    The whole tree walked once (:func:`cfrviz.reference.walk`): the target
    that an unbiased sampler's :func:`expected_update` must hit.
    """
    tree = as_tree(game, "counterfactual_regrets")
    start = np.zeros(tree.legal_mask.shape) if regret_sum is None else np.asarray(regret_sum)
    strategy = regret_matching(start, tree.legal_mask)
    regret = np.zeros(start.shape)
    walk(tree, 0, player, np.ones(3), strategy, regret, np.zeros(start.shape))
    return regret


# --- external sampling done differently (lesson 06: what goes wrong) -------------------------

#: Where an external-sampling walk adds to the strategy sums, and with what weight; the
#: first is stochastically-weighted averaging, the right one.
AVERAGING = {
    "opponent": "the opponent's strategy at the opponent's sampled nodes, unweighted",
    "opponent-reach": "the opponent's strategy times the opponent's reach, at its nodes",
    "own": "the traverser's strategy at its own nodes, unweighted",
    "own-reach": "the traverser's strategy times its own reach, at its own nodes",
}

#: What the traverser's regrets are multiplied by; the first is right.
REGRET_WEIGHTS = {
    "none": "nothing: the sampling already weights each history by its reach",
    "one-over-q": "1 / q, one over the probability of sampling the node",
    "reach": "chance's and the opponent's reach, vanilla CFR's weight",
    "flipped": "-1: value minus action value, the sign the wrong way round",
}


def external_sampling_variant(tree, node, player, regret_sum, strategy_sums, draw, *,
                              averaging=("opponent",), regret_weight="none",
                              reach=(1.0, 1.0, 1.0)) -> float:
    """External sampling with a choice of averaging rule and regret weight.

    :func:`cfrviz.reference.mccfr.external_sampling_walk` (the same draws, in the same
    order) with the rules of :mod:`cfrviz.reference.mistakes` swapped in: ``averaging`` holds
    one key of :data:`AVERAGING` for the one table of ``strategy_sums``, ``regret_weight`` is a
    key of :data:`REGRET_WEIGHTS`, ``reach`` the node's ``(player 1, player 2, chance)`` reach.
    """
    if len(averaging) != 1 or len(strategy_sums) != 1:
        raise ValueError(f"one averaging rule and one table per walk; got {len(averaging)} "
                         f"rules and {len(strategy_sums)} tables")
    return external_sampling_walk(tree, node, player, regret_sum, strategy_sums[0], draw,
                                  tuple(reach), SAMPLED_REGRETS[regret_weight],
                                  SAMPLED_AVERAGES[averaging[0]])


@dataclass(frozen=True)
class AveragingComparison:
    """Average strategies of one external-sampling run, averaged by several rules.

    Attributes
    ----------
    iterations : int
    rules : tuple of str
        Keys of :data:`AVERAGING`, then ``"none"`` (the last current strategy).
    averages : numpy.ndarray, shape (rules, information sets, max actions)
    exploitability : numpy.ndarray, shape (rules,)
    """

    iterations: int
    rules: tuple
    averages: np.ndarray
    exploitability: np.ndarray


def averaging_comparison(game, iterations: int = 2000, seed: int = 0,
                         rules=tuple(AVERAGING)) -> AveragingComparison:
    """Run external sampling and average its strategies by each rule of ``rules``.

    One run per rule at the same seed: the regrets, and so the current strategies and the
    draws, are the same for every rule (averaging never feeds back into them): only the
    average differs.  ``"none"`` is appended: no average at all, the last current
    strategy.
    """
    tree = as_tree(game, "averaging_comparison")
    whole_number(iterations, "iterations", 1)
    unknown = [r for r in rules if r not in AVERAGING]
    if unknown:
        raise ValueError(f"averaging rules are {', '.join(AVERAGING)}; got {unknown[0]!r}")
    averages = []
    for rule in rules or ("opponent",):  # the same seed: the same regrets and draws each time
        draw = stream_draws(np.random.default_rng(seed))
        regret_sum = np.zeros(tree.legal_mask.shape)
        sums = np.zeros(tree.legal_mask.shape)
        for _ in range(int(iterations)):
            for player in (0, 1):
                external_sampling(tree, player, regret_sum, sums, draw, average=rule)
        averages.append(average_strategy(sums, tree.legal_mask))
    averages = averages[:len(rules)]
    averages.append(regret_matching(regret_sum, tree.legal_mask))
    averages_array = np.array(averages)
    return AveragingComparison(int(iterations), (*rules, "none"), averages_array,
                               np.array([tree_exploitability(tree, a) for a in averages_array]))


def averaging_weights(game, regret_sum=None, rules=tuple(AVERAGING)) -> tuple[np.ndarray,
                                                                               np.ndarray]:
    """How much weight each averaging rule gives each information set in one iteration.

    Both players' walks are run from the same regrets (so at fixed strategies,
    regret matching on ``regret_sum``), and the strategy sums they add are
    averaged exactly over every possible draw (:func:`expected_update`).  As
    a set's strategy ``sigma`` sums to 1, the weight of the set is what its row
    of the strategy sums gains in total.  An average strategy needs weights
    in proportion to the player's own reach of the set, ``pi_own(I)``.

    Returns
    -------
    own_reach : numpy.ndarray, shape (information sets,)
        Each set's reach by its own player's strategy.
    weights : numpy.ndarray, shape (rules, information sets)
    """
    tree = as_tree(game, "averaging_weights")
    unknown = [r for r in rules if r not in AVERAGING]
    if unknown:
        raise ValueError(f"averaging rules are {', '.join(AVERAGING)}; got {unknown[0]!r}")
    start = np.zeros(tree.legal_mask.shape) if regret_sum is None else np.asarray(regret_sum)
    weights = np.zeros((len(rules), tree.num_infosets))
    for r, rule in enumerate(rules):
        def variant(tree, player, regrets, sums, draw, rule=rule):
            external_sampling(tree, player, regrets, sums, draw, average=rule)
        for player in (0, 1):
            weights[r] += expected_update(tree, "external_sampling", player, start,
                                          walk=variant)[1].sum(axis=1)
    reach = tree_reach_probabilities(tree, regret_matching(start, tree.legal_mask))
    first_member = np.array([np.flatnonzero(tree.infoset == i)[0]
                             for i in range(tree.num_infosets)])
    own_reach = reach[tree.infoset_player, first_member]
    return own_reach, weights
