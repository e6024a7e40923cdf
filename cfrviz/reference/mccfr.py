"""Monte Carlo CFR by plain recursion: chance, external and outcome sampling.

Readable versions of the three sampling schemes of Lanctot, Waugh, Zinkevich
and Bowling (2009), "Monte Carlo sampling for regret minimization in extensive
games".  Each iteration updates player 1, then player 2; each player's update
is one recursive walk of a *sampled* part of the tree, which adds to the
cumulative regrets (at the player's own information sets) and to the strategy
sums.

They draw their random numbers from the same generator as the compiled
kernels, SplitMix64, written out below in plain Python, in the same order
(the kernels explore a node's actions from the last to the first, and so do
these walks), so that at a fixed seed the tests can check that the compiled
solvers compute exactly what these functions do.  Each walk takes its random
choices from a ``draw(node, probabilities)`` function: :func:`stream_draws`
makes the kernels' one, and a caller may pass another (lesson 06 records the
draws to show the sampled paths; its exercise's checker replays fixed ones).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from ..core.regret import rounded_regret_matching, rounding_tolerance
from ..core.tree import CHANCE, TERMINAL

__all__ = ["WALKS", "ChanceSteps", "SplitMix64", "chance_sampling", "chance_sampling_walk",
           "external_sampling",
           "external_sampling_walk", "outcome_sampling", "outcome_sampling_walk", "outcome_scale",
           "sample",
           "sampled_walk", "stream_draws"]

#: ``draw(node, probabilities) -> index``: how a walk picks one outcome or action at a node.
Draw = Callable[[int, Sequence[float]], int]

_WORD = 2**64 - 1


class SplitMix64:
    """SplitMix64 (Steele, Lea and Flood, 2014), the generator the compiled kernels use.

    Parameters
    ----------
    state : int
        The 64-bit state, for example ``int(cfrviz.engine.seed_state(rng)[0])``.
    """

    def __init__(self, state: int):
        self.state = int(state) & _WORD

    @classmethod
    def from_generator(cls, rng: np.random.Generator) -> SplitMix64:
        """Seeded from a numpy generator the way :func:`cfrviz.solve` seeds the kernels."""
        return cls(int(rng.integers(0, 2**63, dtype=np.uint64)))

    def uniform(self) -> float:
        """The next uniform number in [0, 1)."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _WORD
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _WORD
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _WORD
        z ^= z >> 31
        return (z >> 11) / 2**53  # the top 53 bits: every float of this form in [0, 1)


def sample(probabilities, u: float) -> int:
    """The index that a uniform number ``u`` picks from a distribution, by its running total."""
    total = 0.0
    for i, p in enumerate(probabilities):
        total += p
        if u < total:
            return i
    # Rounding left the total just below u: take the last index that can be drawn.
    return max(i for i, p in enumerate(probabilities) if p > 0)


def stream_draws(rng) -> Draw:
    """The ``draw(node, probabilities)`` of the compiled kernels: one SplitMix64 number per call.

    Each call takes the next number of the stream and picks an index with it
    (:func:`sample`).  The walks below call ``draw`` in the order the kernels
    draw, so at the same seed they follow the same sampled paths.

    Parameters
    ----------
    rng : numpy.random.Generator or int
        A generator seeds the stream as :func:`cfrviz.solve` does; an int is
        the SplitMix64 state itself.
    """
    stream = _stream(rng)

    def draw(_node, probabilities):
        return sample(probabilities, stream.uniform())

    return draw


def chance_sampling(tree, iterations: int, rng, walk=None):
    """Chance-sampled CFR (Zinkevich et al., 2007; Lanctot et al., 2009), by plain recursion.

    Vanilla CFR's walk (:func:`cfrviz.reference.walk`) with one change: at a
    chance node it follows a single outcome, drawn with chance's
    probabilities, instead of all of them.  Because an outcome is followed as
    often as chance plays it, chance's probabilities drop out of the
    weights: the regret of an action is weighted by the opponent's reach
    only.  Both players' actions are all explored.  A player's strategy is
    regret matching on the regrets at the start of the player's walk.

    Parameters
    ----------
    tree : GameTree
    iterations : int
    rng : numpy.random.Generator or int
        A generator seeds the stream as :func:`cfrviz.solve` does; an int is
        the SplitMix64 state itself.
    walk : callable, optional
        Another walk with :func:`chance_sampling_walk`'s arguments (lesson 06 trains the
        student's); by default that one.

    Yields
    ------
    dict
        After each iteration: ``strategy`` (at its start), ``cumulative_regret``,
        ``regret`` (this iteration's) and ``strategy_sum``, each of shape
        (information sets, max actions).
    """
    draw = stream_draws(rng)

    def walk_from_root(player, regret_sum, strategy_sum, tol):
        strategy = rounded_regret_matching(regret_sum, tree.legal_mask, tol)
        return (walk or chance_sampling_walk)(tree, 0, player, 1.0, 1.0, strategy, regret_sum,
                                              strategy_sum, draw)
    yield from _alternating(tree, iterations, walk_from_root, _payoff_scale(tree))


class ChanceSteps(NamedTuple):
    """The steps of :func:`chance_sampling_walk` a usual mistake swaps (:mod:`.mistakes`):
    the payoff's column at a leaf, the reaches after chance draws an outcome of probability
    ``p``, whether the traverser is the one who moves, and at its nodes the regret added and
    the strategy's weight in the average.  The defaults are the walk's own steps."""

    payoff: Callable = lambda player: player
    chance: Callable = lambda own, opponent, _p: (own, opponent)
    moves: Callable = lambda kind, player: kind == player
    regret: Callable = lambda _own, opponent, action_values, value: \
        opponent * (action_values - value)
    average: Callable = lambda own, _opponent: own


_WALK_STEPS = ChanceSteps()


def chance_sampling_walk(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                         strategy_sum, draw, steps: ChanceSteps = _WALK_STEPS):
    """One player's chance-sampled CFR pass below ``node``: returns the node's value.

    ``draw(node, probabilities)`` returns the index of the outcome drawn at a
    chance node (:func:`stream_draws` draws as the compiled kernel does); ``steps``
    (:class:`ChanceSteps`) are swapped only to reproduce a mistake.
    """
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, steps.payoff(player)]
    children = tree.children[node]
    if kind == CHANCE:
        outcome = draw(node, tree.chance_prob[children])
        own_reach, opponent_reach = steps.chance(own_reach, opponent_reach,
                                                 tree.chance_prob[children[outcome]])
        return chance_sampling_walk(tree, children[outcome], player, own_reach, opponent_reach,
                                    strategy, regret_sum, strategy_sum, draw, steps)
    info = tree.infoset[node]
    sigma = strategy[info, : len(children)]
    action_values = np.zeros(len(children))
    for a in reversed(range(len(children))):  # last first, in the compiled kernel's order
        if steps.moves(kind, player):
            reaches = (own_reach * sigma[a], opponent_reach)
        else:
            reaches = (own_reach, opponent_reach * sigma[a])
        action_values[a] = chance_sampling_walk(tree, children[a], player, *reaches, strategy,
                                                regret_sum, strategy_sum, draw, steps)
    value = sum(sigma[a] * action_values[a] for a in range(len(children)))
    if kind == player:
        regret_sum[info, : len(children)] += steps.regret(own_reach, opponent_reach,
                                                          action_values, value)
        strategy_sum[info, : len(children)] += steps.average(own_reach, opponent_reach) * sigma
    return value


def external_sampling(tree, iterations: int, rng):
    """External-sampling Monte Carlo CFR (Lanctot et al., 2009), by plain recursion.

    The player being updated (the *traverser*) tries every action; everything
    external to it, chance and the opponent, is sampled: one outcome, one
    action drawn from the opponent's current strategy.  A history is sampled
    with probability equal to its chance-and-opponent reach, the very weight
    the counterfactual regret gives it, so the two cancel: the regret added
    is simply ``value of the action - value of the strategy`` below the
    sampled histories, an unbiased estimate of the counterfactual regret.

    The average strategy is *stochastically weighted*: at each opponent node
    reached, the opponent's current strategy is added to its strategy sum,
    so each set is counted as often as it is sampled, that is in proportion
    to its reach.  Current strategies are regret matching on the regrets at
    the moment a set is reached, as in the paper's pseudocode.

    Parameters and yields as :func:`chance_sampling`.
    """
    draw = stream_draws(rng)
    yield from _alternating(tree, iterations, lambda player, regret_sum, strategy_sum, tol:
                            external_sampling_walk(tree, 0, player, regret_sum, strategy_sum,
                                                   draw, tol=tol), _payoff_scale(tree))


def sampled_regret(_reach, _player, action_values, value):
    """External sampling's regret at the traverser's node: no weight, the sampling supplies it."""
    return action_values - value


def opponent_strategy(_reach, player, kind):
    """Stochastically-weighted averaging: the weight of the current strategy in the average at
    a node of ``kind``, 1 at the opponent's sampled nodes and 0 at the traverser's."""
    return 1.0 if kind != player else 0.0


def external_sampling_walk(tree, node, player, regret_sum, strategy_sum, draw,
                           reach=(1.0, 1.0, 1.0), update=sampled_regret,
                           average=opponent_strategy, tol: float = 0.0):
    """One external-sampling walk below ``node`` for ``player``: returns the sampled value.

    ``draw(node, probabilities)`` returns the index of the outcome or action
    drawn at ``node``; :func:`stream_draws` draws as the compiled kernel does.
    ``reach`` is the node's ``(player 1, player 2, chance)`` reach;
    ``update(reach, player, action_values, value)`` is what a traverser's node adds to its
    regrets and ``average(reach, player, kind)`` the weight of the current strategy in the
    strategy sum (:mod:`.mistakes` swaps them for the usual wrong ones).  Regrets at most
    ``tol`` count as zero (rounding residue, :func:`cfrviz.core.regret.rounding_tolerance`).
    """
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    if kind == CHANCE:  # chance: follow one outcome, drawn with chance's probabilities
        outcome = draw(node, tree.chance_prob[children])
        below = (reach[0], reach[1], reach[2] * tree.chance_prob[children[outcome]])
        return external_sampling_walk(tree, children[outcome], player, regret_sum,
                                      strategy_sum, draw, below, update, average, tol)
    info = tree.infoset[node]
    k = len(children)
    sigma = rounded_regret_matching(regret_sum[info], tree.legal_mask[info], tol)[:k]
    strategy_sum[info, :k] += average(reach, player, kind) * sigma

    def walk_to(a):  # the acting player's reach times sigma[a]
        below = tuple(r * sigma[a] if who == kind else r for who, r in enumerate(reach))
        return external_sampling_walk(tree, children[a], player, regret_sum, strategy_sum,
                                      draw, below, update, average, tol)

    if kind != player:  # the opponent: follow one action, drawn from its strategy
        return walk_to(draw(node, sigma))
    # The traverser: try every action (last first, in the compiled kernel's order).
    action_values = np.zeros(k)
    for a in reversed(range(k)):
        action_values[a] = walk_to(a)
    value = sum(sigma * action_values)  # summed first to last, as the kernel does
    regret_sum[info, :k] += update(reach, player, action_values, value)
    return value


def outcome_sampling(tree, iterations: int, rng, epsilon: float = 0.6):
    """Outcome-sampling Monte Carlo CFR (Lanctot et al., 2009), by plain recursion.

    Each player's update follows a single path from the root to a terminal
    history z.  Chance and the opponent play on policy; the traverser
    explores, drawing its action from ``epsilon * uniform + (1 - epsilon) *
    sigma`` so that every action keeps a chance of being sampled.  On the way
    back up, the terminal payoff divided by the probability of sampling the
    path below gives an estimate of each node's value (0 for the actions not
    taken), and at the traverser's nodes the regrets are

        opponent reach / sample reach * (estimated action value - estimated node value).

    At the opponent's nodes, the opponent's current strategy is added to its
    strategy sum with the weight ``opponent reach / sample reach``
    (stochastically-weighted averaging).  Chance's probabilities cancel
    against its sampling and appear in neither reach.

    Parameters
    ----------
    epsilon : float in (0, 1], default 0.6
        Exploration of the traverser.

    Other parameters and yields as :func:`chance_sampling`.
    """
    draw = stream_draws(rng)
    yield from _alternating(tree, iterations, lambda player, regret_sum, strategy_sum, tol:
                            outcome_sampling_walk(tree, 0, player, 1.0, 1.0, epsilon, regret_sum,
                                                  strategy_sum, draw, tol),
                            outcome_scale(tree, epsilon))


def outcome_sampling_walk(tree, node, player, opponent_reach, sample_reach, epsilon, regret_sum,
                          strategy_sum, draw, tol: float = 0.0):
    """One sampled path below ``node``: returns the node's estimated value for ``player``.

    ``opponent_reach`` is the opponent's probability of playing to ``node``;
    ``sample_reach`` the probability that this walk sampled the path to it
    (without chance's, which cancel).  ``draw(node, probabilities)`` returns
    the index drawn at ``node`` (:func:`stream_draws`).  Regrets at most ``tol`` count as
    zero (rounding residue; :func:`outcome_scale` says what bounds these values).
    """
    kind = tree.player[node]
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    if kind == CHANCE:
        outcome = draw(node, tree.chance_prob[children])
        return outcome_sampling_walk(tree, children[outcome], player, opponent_reach,
                                     sample_reach, epsilon, regret_sum, strategy_sum, draw, tol)
    info = tree.infoset[node]
    k = len(children)
    sigma = rounded_regret_matching(regret_sum[info], tree.legal_mask[info], tol)[:k]
    explore = epsilon / k + (1.0 - epsilon) * sigma if kind == player else sigma
    a = draw(node, explore)
    below = outcome_sampling_walk(tree, children[a], player,
                                  opponent_reach if kind == player else opponent_reach * sigma[a],
                                  sample_reach * explore[a], epsilon, regret_sum, strategy_sum,
                                  draw, tol)
    sampled = below / explore[a]  # the sampled action's value estimate; the others estimate 0
    value = sigma[a] * sampled
    weight = opponent_reach / sample_reach
    if kind == player:
        action_values = np.zeros(k)
        action_values[a] = sampled
        regret_sum[info, :k] += weight * (action_values - value)
    else:
        strategy_sum[info, :k] += weight * sigma
    return value


def sampled_walk(tree, algorithm: str, player: int, regret_sum, strategy_sum, draw,
                 epsilon: float = 0.6, tol: float = 0.0) -> float:
    """One player's walk of a sampler from the root, updating the tables in place.

    Parameters
    ----------
    tree : GameTree
    algorithm : str
        ``"chance_sampling"``, ``"external_sampling"`` or ``"outcome_sampling"``.
    player : int
        The player updated (0 or 1).
    regret_sum, strategy_sum : numpy.ndarray, shape (information sets, max actions)
    draw : callable
        ``draw(node, probabilities) -> index`` (:func:`stream_draws`).
    epsilon : float
        Outcome sampling's exploration.
    tol : float
        Regrets at most ``tol`` count as zero (:func:`cfrviz.core.regret.rounding_tolerance`; 0, the
        default, is the textbook rule).

    Returns
    -------
    float
        The root's (sampled) value for ``player``.
    """
    if algorithm == "chance_sampling":
        strategy = rounded_regret_matching(regret_sum, tree.legal_mask, tol)
        return chance_sampling_walk(tree, 0, player, 1.0, 1.0, strategy, regret_sum,
                                    strategy_sum, draw)
    if algorithm == "external_sampling":
        return external_sampling_walk(tree, 0, player, regret_sum, strategy_sum, draw, tol=tol)
    if algorithm == "outcome_sampling":
        return outcome_sampling_walk(tree, 0, player, 1.0, 1.0, epsilon, regret_sum,
                                     strategy_sum, draw, tol)
    raise ValueError(f"algorithm must be one of {', '.join(WALKS)}; got {algorithm!r}")


#: The samplers :func:`sampled_walk` knows.
WALKS = ("chance_sampling", "external_sampling", "outcome_sampling")


def _alternating(tree, iterations, walk_from_root, scale):
    """``walk_from_root(player, regret_sum, strategy_sum, tol)`` for player 1 then player 2,
    each iteration, ``tol`` its :func:`cfrviz.core.regret.rounding_tolerance` for values bounded by
    ``scale``; yields :func:`chance_sampling`'s dicts."""
    mask = tree.legal_mask
    regret_sum = np.zeros(mask.shape)
    strategy_sum = np.zeros(mask.shape)
    for t in range(1, iterations + 1):
        tol = rounding_tolerance(scale, t)
        start = rounded_regret_matching(regret_sum, mask, tol)
        before = regret_sum.copy()
        for player in (0, 1):
            walk_from_root(player, regret_sum, strategy_sum, tol)
        yield {"strategy": start, "cumulative_regret": regret_sum.copy(),
               "regret": regret_sum - before, "strategy_sum": strategy_sum.copy()}


def _payoff_scale(tree) -> float:
    """What bounds chance and external sampling's values: the largest |payoff| (chance's
    probabilities, and external sampling's opponent's, cancel against their sampling)."""
    return float(np.abs(tree.utility).max())


def outcome_scale(tree, epsilon: float) -> float:
    """What bounds outcome sampling's values: the largest |payoff| times ``(k / epsilon) ** D``,
    k the widest node and D the most decisions one player makes on a path (a regret divides
    the payoff by the traverser's sampling probabilities, each at least ``epsilon / k``)."""

    def most(node, mine):  # the most decisions one player makes on a path through node
        if tree.player[node] >= 0:
            mine = tuple(m + (p == tree.player[node]) for p, m in enumerate(mine))
        return max([max(mine)] + [most(c, mine) for c in tree.children[node]])

    return _payoff_scale(tree) * (tree.legal_mask.shape[1] / epsilon) ** most(0, (0, 0))


def _stream(rng) -> SplitMix64:
    if isinstance(rng, np.random.Generator):
        return SplitMix64.from_generator(rng)
    return SplitMix64(rng)
