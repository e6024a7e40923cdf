"""Depth-limited solving: solve the first betting round only, with values at its leaves.

DeepStack's idea (Moravčík et al., *DeepStack: expert-level artificial intelligence in heads-up
no-limit poker*, Science 2017): instead of solving to the end of the game, solve a few moves
ahead and, at the depth limit, ask a *value function* what each private hand is worth given
both players' ranges there.  Here the depth limit is the first public chance event after the
private deal (in Leduc, the end of round one, where the public card comes), and the *trunk*
above it is solved by CFR+ (Tammelin 2014; regret matching+, simultaneous updates, the average
weighted by iteration), the CFR family's own compiled update run by the one training loop
(:func:`solve_trunk`).  At every iteration each leaf public state gets both players' ranges
under the current strategy, and the value function turns them into counterfactual values per
hand.

Two value functions:

:func:`continuation_values`
    Exact counterfactual values of a fixed continuation strategy (an equilibrium of the whole
    game, say): the expected payoff below each leaf history, averaged over the opponent's range.
:func:`train_value_network`
    A small :class:`~cfrviz.solvers.network.MLP` trained on random ranges: for each sample,
    both ranges are drawn at random, the leaf's subgame is solved for them by CFR+ and the
    counterfactual values per hand of that solution are the target (DeepStack's training data,
    on a game small enough to make it in seconds).

:func:`solve_trunk` returns the trunk's average strategy; :func:`combine` puts it into a
whole-game policy with a continuation below the leaves, so :func:`cfrviz.exploitability`
measures what the depth limit and the approximation cost.

A history's *counterfactual value per hand* here is normalised: for player 1's hand ``a``,
:math:`v_1(a) = \\sum_b c(a,b)\\, r_2(b)\\, u_1(a,b) / \\sum_b c(a,b)\\, r_2(b)` with
:math:`c` the chance probability of the deal and :math:`r_2` player 2's own reach.  Giving
every leaf history of hand ``a`` the payoff :math:`v_1(a)` leaves every information set's
counterfactual values, and so CFR's regrets, what the per-history payoffs would give.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import engine
from ..core.checks import whole_number
from ..core.policy import Policy, check_policy
from ..core.registry import INT_LIMIT
from ..core.trace import SolverState
from ..core.tree import CHANCE, TERMINAL, GameTree, as_tree, check_zero_sum
from ..core.types import FloatArray, IntArray
from ..games.public import public_tree
from . import solve
from .driver import average_strategy, deferred_interrupt, iterate, one_at_a_time, start_tree
from .network import MLP, train
from .registry import check_request
from .subgame import resolve
from .subtrees import TreeBuilder, deal_roots, hands_at, node_values, subtree_end

#: ``values(leaf, own_range_1, own_range_2) -> (values of player 1's hands, of player 2's)``.
LeafValues = Callable[[int, FloatArray, FloatArray], tuple[FloatArray, FloatArray]]


@dataclass(frozen=True, eq=False)
class Trunk:
    """A game cut at its first public chance event after the deal.

    Attributes
    ----------
    game : GameTree
        The whole game.
    tree : GameTree
        The trunk: the game's nodes above the cut, each leaf (a cut chance node) a terminal
        whose payoffs a value function fills in.
    source : int array (trunk nodes,)
        The game node of each trunk node.
    leaf_states : tuple of str
        The public history of each leaf public state.
    leaf_nodes : tuple of int arrays
        Trunk node ids of each leaf state's histories.
    hands : tuple of (tuple of str, tuple of str)
        Each leaf state's hands of player 1 and of player 2.
    hand_of : tuple of int arrays, shape (2, histories)
        Which hand of each player each leaf history holds.
    chance : tuple of float arrays, shape (hands of player 1, hands of player 2)
        Chance's probability of each hand pair at each leaf state.
    """

    game: GameTree
    tree: GameTree
    source: IntArray
    leaf_states: tuple[str, ...]
    leaf_nodes: tuple[IntArray, ...]
    hands: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    hand_of: tuple[IntArray, ...]
    chance: tuple[FloatArray, ...]

    def ranges(self, leaf: int, reach: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Both players' own reach of each of their hands at a leaf state, from a trunk reach
        table of shape (3, trunk nodes)."""
        nodes = self.leaf_nodes[leaf]
        out = []
        for who in (0, 1):
            r = np.zeros(len(self.hands[leaf][who]))
            r[self.hand_of[leaf][who]] = reach[who, nodes]
            out.append(r)
        return out[0], out[1]


def trunk(game: object) -> Trunk:
    """The game above its first public chance event after the private deal (computed once).

    Raises
    ------
    ValueError
        For a game that is not two-player zero-sum with the private deal at the root, or that
        has no later chance event to cut at (Kuhn poker: it has one betting round).
    """
    tree = as_tree(game, "depth-limited solving")
    check_zero_sum(tree, "depth-limited solving")
    public_tree(tree)  # refuses a game without a well-defined public state
    return tree.cached("depth_limited_trunk", _build_trunk)


def _build_trunk(tree: GameTree) -> Trunk:
    ends = subtree_end(tree)
    cut = np.zeros(tree.num_nodes, dtype=bool)
    below = np.zeros(tree.num_nodes, dtype=bool)
    for h in np.flatnonzero(tree.player == CHANCE):
        if h > 0 and not below[h]:
            cut[h] = True
            below[h + 1:ends[h]] = True
    if not cut.any():
        raise ValueError(f"depth-limited solving cuts the game at its first public chance event "
                         f"after the deal; {tree.name} has none (its private deal is its only "
                         f"chance node)")
    keep = np.flatnonzero(~below)
    new = np.full(tree.num_nodes, -1, dtype=np.int64)
    new[keep] = np.arange(len(keep))
    player = np.array(tree.player[keep])
    player[cut[keep]] = TERMINAL
    old_sets = np.unique(tree.infoset[keep][tree.infoset[keep] >= 0])
    set_id = np.full(tree.num_infosets, -1, dtype=np.int64)
    set_id[old_sets] = np.arange(len(old_sets))
    infoset = np.where(tree.infoset[keep] >= 0, set_id[tree.infoset[keep]], -1)
    children = tuple(np.empty(0, dtype=np.int64) if cut[h] else new[tree.children[h]]
                     for h in keep)
    parent = np.where(tree.parent[keep] >= 0, new[tree.parent[keep]], -1)
    sub = GameTree(
        name=f"{tree.name} trunk", parent=parent, action=np.array(tree.action[keep]),
        player=player, chance_prob=np.array(tree.chance_prob[keep]),
        utility=np.array(tree.utility[keep]), infoset=infoset,
        depth=np.array(tree.depth[keep]), children=children,
        history=tuple(tree.history[h] for h in keep),
        infoset_keys=tuple(tree.infoset_keys[s] for s in old_sets),
        infoset_player=np.array(tree.infoset_player[old_sets]),
        infoset_actions=tuple(tree.infoset_actions[s] for s in old_sets),
        legal_mask=np.array(tree.legal_mask[old_sets]),
        chance_labels=tuple(() if cut[h] else tree.chance_labels[h] for h in keep))
    # Leaf states: the public states of the cut nodes.
    leaf_states: list[str] = []
    leaf_nodes: list[IntArray] = []
    hands: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    hand_of: list[IntArray] = []
    chance: list[FloatArray] = []
    reach_c = public_tree(tree).chance_reach
    for state in public_tree(tree).states:
        nodes = state.nodes
        if not cut[nodes].any():
            continue
        names0, a = hands_at(tree, nodes, 0)
        names1, b = hands_at(tree, nodes, 1)
        c = np.zeros((len(names0), len(names1)))
        np.add.at(c, (a, b), reach_c[nodes])
        leaf_states.append(state.history)
        leaf_nodes.append(new[nodes])
        hands.append((names0, names1))
        hand_of.append(np.stack([a, b]))
        chance.append(c)
    return Trunk(tree, sub, keep, tuple(leaf_states), tuple(leaf_nodes), tuple(hands),
                 tuple(hand_of), tuple(chance))


def _per_hand(chance: FloatArray, other: FloatArray, values: FloatArray, axis: int
              ) -> FloatArray:
    """Normalised counterfactual values per hand from per-pair values (hands x hands): the
    average over the other player's hands weighted by chance and its range (0 where the hand
    meets no weight)."""
    w = chance * (other[None, :] if axis == 0 else other[:, None])
    total = w.sum(axis=1 - axis)
    out: FloatArray = (w * values).sum(axis=1 - axis) / np.where(total > 0, total, 1.0)
    return out


def continuation_values(trunk_: Trunk, policy: Policy) -> LeafValues:
    """Exact counterfactual values at the leaves when both players continue with ``policy``.

    Parameters
    ----------
    trunk_ : Trunk
    policy : Policy
        A whole-game policy; only its part below the leaves is read (an equilibrium's, for
        DeepStack's "exact" leaf values).
    """
    game = trunk_.game
    check_policy(game, policy)
    values = node_values(game, policy.probabilities)
    pair_values = []
    for leaf, nodes in enumerate(trunk_.leaf_nodes):
        a, b = trunk_.hand_of[leaf]
        shape = trunk_.chance[leaf].shape
        v = np.zeros((2, *shape))
        for who in (0, 1):
            v[who][a, b] = values[trunk_.source[nodes], who]
        pair_values.append(v)

    def leaf_values(leaf: int, r0: FloatArray, r1: FloatArray) -> tuple[FloatArray, FloatArray]:
        c, v = trunk_.chance[leaf], pair_values[leaf]
        return _per_hand(c, r1, v[0], 0), _per_hand(c, r0, v[1], 1)
    return leaf_values


#: The uniform share mixed into a range before a leaf is solved, so every hand's histories stay
#: in the leaf's subgame (a hand a player never brings here still needs a counterfactual value:
#: CFR's regrets for the moves that would bring it are computed from it).
SMOOTHING = 1e-3


def _smooth(r: FloatArray) -> FloatArray:
    total = r.sum()
    base = r / total if total > 0 else np.full(len(r), 1.0 / len(r))
    out: FloatArray = (1 - SMOOTHING) * base + SMOOTHING / len(r)
    return out


def check_range(values: object, hands: tuple[str, ...], name: str, what: str = "") -> FloatArray:
    """``values`` as a float array when it is a range over ``hands``: one weight per hand,
    each finite and >= 0, with a positive (finite) sum; it need not sum to 1.

    Parameters
    ----------
    values : sequence or array of numbers
    hands : tuple of str
        The hands, in order (the expected length is theirs).
    name : str
        The argument's name, for messages (``what`` says more, in brackets).

    Raises
    ------
    ValueError
        Naming ``name``, the length expected (and the hands) or the weight at fault: a NaN, a
        negative or an all-zero range has no meaning as a range and is refused, never
        replaced by the uniform one; nor are strings or booleans read as numbers.
    """
    label = f"{name} ({what})" if what else name
    each = f"one weight per hand {', '.join(hands)}"
    try:
        raw = np.asarray(values) if isinstance(values, (list, tuple, np.ndarray)) else None
    except (TypeError, ValueError):  # a ragged list
        raw = None
    if raw is None or raw.dtype.kind not in "iuf":
        shown = f"{values!r:.80}" if raw is None else f"an array of {raw.dtype}"
        raise ValueError(f"{label} must be a sequence of {len(hands)} numbers, {each}; got "
                         f"{shown}")
    if raw.shape != (len(hands),):
        raise ValueError(f"{label} must hold {len(hands)} numbers, {each}; got "
                         f"{'an array of shape ' + str(raw.shape) if raw.ndim != 1 else len(raw)}")
    weights = raw.astype(float)
    bad = np.flatnonzero(~np.isfinite(weights) | (weights < 0))
    if len(bad):
        i = int(bad[0])
        raise ValueError(f"{label} must hold finite weights >= 0, {each}; got "
                         f"{float(weights[i])!r} for hand {hands[i]} ({name}[{i}])")
    with np.errstate(over="ignore"):
        total = float(weights.sum())
    if not 0 < total < np.inf:
        raise ValueError(f"{label} must have a positive, finite sum (a range gives some hand "
                         f"some weight); its weights sum to {total!r}")
    return weights


def solve_leaf(trunk_: Trunk, leaf: int, r0: FloatArray, r1: FloatArray,
               iterations: int = 200) -> tuple[FloatArray, FloatArray]:
    """Counterfactual values per hand of the leaf's subgame solved for the ranges ``r0, r1``.

    The subgame below leaf state ``leaf`` is solved as a game of its own (chance deals its
    histories in proportion to chance times both ranges, each mixed with a
    :data:`SMOOTHING` share of the uniform range) by ``iterations`` of CFR+, and each hand's
    normalised counterfactual value under that solution is returned (weighted by the other
    player's given range, or its smoothed one where that leaves no weight): the exact
    range-dependent leaf values, and the target a value network learns.

    Parameters
    ----------
    trunk_ : Trunk
    leaf : int
        Which leaf state: a whole number in ``0 .. len(trunk_.leaf_states) - 1``.
    r0, r1 : array
        Player 1's and player 2's ranges there, one weight per hand of
        ``trunk_.hands[leaf]`` (finite, >= 0, with a positive sum: :func:`check_range`).
    iterations : int
        CFR+ iterations, a whole number from 1 to 2**63 - 1.

    Raises
    ------
    ValueError
        For a leaf, range or iterations as above, naming the argument at fault.
    """
    index = whole_number(leaf, "leaf", 0, len(trunk_.leaf_states) - 1)
    hands0, hands1 = trunk_.hands[index]
    at = f"range at leaf {index}, {trunk_.leaf_states[index]!r}"
    return _solve_leaf(trunk_, index, check_range(r0, hands0, "r0", "player 1's " + at),
                       check_range(r1, hands1, "r1", "player 2's " + at),
                       whole_number(iterations, "iterations", 1, INT_LIMIT))


def _solve_leaf(trunk_: Trunk, leaf: int, r0: FloatArray, r1: FloatArray, iterations: int
                ) -> tuple[FloatArray, FloatArray]:
    """:func:`solve_leaf` on checked arguments; a range may be all zero here (a leaf the
    trunk's current strategy never reaches still needs values: they are read as uniform)."""
    game = trunk_.game
    nodes = trunk_.source[trunk_.leaf_nodes[leaf]]
    a, b = trunk_.hand_of[leaf]
    s0, s1 = _smooth(np.asarray(r0, dtype=float)), _smooth(np.asarray(r1, dtype=float))
    c = trunk_.chance[leaf]
    weight = c[a, b] * s0[a] * s1[b]
    live = weight > 0
    builder = TreeBuilder(game)
    deal_roots(builder, nodes[live], weight[live], -1, -1, 0, "")
    sub = builder.build(f"{game.name} leaf {trunk_.leaf_states[leaf]}")
    solved = solve(sub, "cfr+", iterations, checkpoints=[iterations]).average_strategy[-1]
    root_values = node_values(sub, solved)[sub.children[0]]
    v = np.zeros((2, *c.shape))
    for who in (0, 1):
        v[who][a[live], b[live]] = root_values[:, who]
    w1 = r1 if (c * r1[None, :]).sum() > 0 else s1
    w0 = r0 if (c * r0[:, None]).sum() > 0 else s0
    return _per_hand(c, w1, v[0], 0), _per_hand(c, w0, v[1], 1)


def exact_values(trunk_: Trunk, iterations: int = 200) -> LeafValues:
    """Leaf values by solving each leaf's subgame for the ranges asked (:func:`solve_leaf`):
    exact up to the leaf solve's tolerance, and slow (one solve per leaf per trunk iteration)."""
    runs = whole_number(iterations, "iterations", 1, INT_LIMIT)

    def leaf_values(leaf: int, r0: FloatArray, r1: FloatArray) -> tuple[FloatArray, FloatArray]:
        return _solve_leaf(trunk_, leaf, r0, r1, runs)
    return leaf_values


def resolved_continuation(trunk_: Trunk, trunk_strategy: FloatArray, base: Policy,
                          iterations: int = 1000) -> Policy:
    """The trunk's strategy with every leaf subgame re-solved for the ranges it leads to.

    What a depth-limited player does on reaching a leaf: each leaf public state's subgame is
    solved (unsafely, :func:`cfrviz.solvers.subgame.resolve`) for both players' ranges under
    ``trunk_strategy``; ``base`` fills whatever no range reaches.
    """
    policy = combine(trunk_, trunk_strategy, base)
    for state in trunk_.leaf_states:
        policy = resolve(trunk_.game, policy, state, "unsafe", iterations).policy
    return policy


# --------------------------------------------------------------------------- the trunk's CFR+

#: The trunk's update: CFR+'s rule (regret matching+, the average weighted by the iteration) with
#: simultaneous updates, so that both players see the same leaf ranges in one iteration.
TRUNK_RULE = engine.UpdateRule(alternating=False, plus=True, linear_average=True)


def solve_trunk(trunk_: Trunk, values: LeafValues, iterations: int = 1000) -> FloatArray:
    """CFR+ on the trunk with leaf payoffs from ``values`` at every iteration.

    Regret matching+ with simultaneous updates and the average strategy weighted by the
    iteration number (Tammelin 2014's CFR+ with simultaneous rather than alternating updates,
    so both players see the same leaf ranges in one iteration): the CFR family's compiled
    update (:func:`cfrviz.engine.run_full_tree` under :data:`TRUNK_RULE`), run one iteration
    at a time by the one training loop (:func:`cfrviz.solvers.driver.iterate`).  Before each
    iteration the leaves become terminals paying, to each player's hand, what ``values`` gives
    for both players' ranges under the strategy about to be played.  With values that do not
    depend on the ranges, this is ``cfrviz.solve(trunk with those payoffs, "cfr+",
    alternating=False)``.

    Returns
    -------
    array, shape (trunk information sets, max actions)
        The average strategy, rows following ``trunk_.tree``'s information sets.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C (taken between iterations) or one raised by ``values``.
    """
    runs = whole_number(iterations, "iterations", 1, INT_LIMIT)
    tree = trunk_.tree
    arrays = engine.plan(tree).arrays
    strategy = np.empty(tree.legal_mask.shape)

    def run(state: SolverState, first: int, last: int) -> int:
        if last < first:  # the loop's first call, before any iteration
            return 0
        # The strategy the iteration plays (first == last: one_at_a_time), and the leaf
        # payoffs its ranges lead to.
        engine.regret_matching_table(state.regret_sum, arrays.mask, strategy)
        payoffs = arrays._replace(utility=_leaf_payoffs(trunk_, values, strategy))
        tables = engine.Tables(state.regret_sum, state.strategy_sum, state.current, state.instant)
        engine.run_full_tree(payoffs, tables, first, last, TRUNK_RULE)
        return 2 * len(arrays.parent)

    request = check_request(tree, "cfr+", runs, 0, [], {"alternating": False, "progress": False})
    stepper = one_at_a_time(start_tree(request, tree, run))
    with deferred_interrupt() as flag:  # a Ctrl-C ends the loop between iterations
        ended = [p for p in iterate(request, stepper, stop=lambda: flag.hit) if p.interrupted]
    if ended:
        raise KeyboardInterrupt(f"solve_trunk interrupted after iteration "
                                f"{ended[-1].iteration} of {runs}")
    return average_strategy(stepper.state.strategy_sum, tree.legal_mask)


def _leaf_payoffs(trunk_: Trunk, values: LeafValues, strategy: FloatArray) -> FloatArray:
    """The trunk's payoffs when ``strategy`` is played: each leaf history pays each player
    ``values``' value of its hand for both players' ranges there (read-only, as a plan's)."""
    reach = engine.tree_reach_probabilities(trunk_.tree, strategy)
    utility = np.array(trunk_.tree.utility, dtype=np.float64, order="C")
    for leaf, nodes in enumerate(trunk_.leaf_nodes):
        v0, v1 = values(leaf, *trunk_.ranges(leaf, reach))
        a, b = trunk_.hand_of[leaf]
        utility[nodes, 0], utility[nodes, 1] = v0[a], v1[b]
    utility.setflags(write=False)  # the plan's own type: one compiled kernel for every iteration
    return utility


def combine(trunk_: Trunk, trunk_strategy: FloatArray, continuation: Policy) -> Policy:
    """A whole-game policy: ``trunk_strategy`` above the leaves, ``continuation`` below."""
    game = trunk_.game
    check_policy(game, continuation)
    table = np.array(continuation.probabilities)
    index = {k: i for i, k in enumerate(game.infoset_keys)}
    for r, key in enumerate(trunk_.tree.infoset_keys):
        table[index[key]] = trunk_strategy[r]
    return Policy(game, table)


# --------------------------------------------------------------------------- a value network

@dataclass(frozen=True, eq=False)
class ValueNetwork:
    """A network from (leaf, both ranges) to counterfactual values per hand.

    Inputs: each player's range normalised to sum 1, then a one-hot of the leaf state; outputs:
    player 1's hands' values then player 2's, divided by ``scale``.

    Attributes
    ----------
    net : MLP
    scale : float
        The largest payoff of the game (outputs are in units of it).
    losses : list of float
        The training loss before each Adam step.
    test_error : float
        The mean absolute error, in chips, of the values on held-out random ranges (before
        the zero-sum correction).
    zero_sum : bool
        Shift the outputs so that the two players' values cancel over the joint range, as
        DeepStack's network does (Moravčík et al. 2017, supplement): a leaf then neither
        creates nor destroys chips.
    """

    trunk: Trunk
    net: MLP
    scale: float
    losses: list[float]
    test_error: float
    zero_sum: bool = True

    def features(self, leaf: int, r0: FloatArray, r1: FloatArray) -> FloatArray:
        return _features(self.trunk, leaf, r0, r1)

    def __call__(self, leaf: int, r0: FloatArray, r1: FloatArray
                 ) -> tuple[FloatArray, FloatArray]:
        out = self.net.forward(self.features(leaf, r0, r1)[None, :])[0] * self.scale
        n0 = len(self.trunk.hands[leaf][0])
        v0, v1 = out[:n0], out[n0:n0 + len(self.trunk.hands[leaf][1])]
        if not self.zero_sum:
            return v0, v1
        # DeepStack's zero-sum correction: shift both players' values by half the amount by
        # which the two players' leaf values, weighted by the joint range, fail to cancel.
        joint = self.trunk.chance[leaf] * np.outer(r0, r1)
        mass = joint.sum()
        if mass <= 0:
            return v0, v1
        error = float(joint.sum(axis=1) @ v0 + joint.sum(axis=0) @ v1) / mass
        return v0 - error / 2, v1 - error / 2


def _features(trunk_: Trunk, leaf: int, r0: FloatArray, r1: FloatArray) -> FloatArray:
    widths = _widths(trunk_)
    x = np.zeros(2 * max(widths) + len(trunk_.leaf_states))
    for i, r in enumerate((r0, r1)):
        s = r.sum()
        x[i * max(widths):i * max(widths) + len(r)] = r / s if s > 0 else 0.0
    x[2 * max(widths) + leaf] = 1.0
    return x


def _widths(trunk_: Trunk) -> list[int]:
    return [len(h) for pair in trunk_.hands for h in pair]


def random_range(rng: np.random.Generator, hands: int) -> FloatArray:
    """A random range: Dirichlet(1) weights, with each hand left out with probability 1/4
    (at least one kept), as ranges deep in a game often exclude hands."""
    r = rng.dirichlet(np.ones(hands))
    drop = rng.random(hands) < 0.25
    if drop.all():
        drop[rng.integers(hands)] = False
    r[drop] = 0.0
    out: FloatArray = r / r.sum()
    return out


def value_samples(trunk_: Trunk, samples: int, rng: np.random.Generator,
                  iterations: int = 200) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """``samples`` random (leaf, ranges) and the solved leaf values: ``(x, y, mask)``.

    ``mask`` marks the outputs that are defined (a hand that meets no opponent weight has no
    counterfactual value).
    """
    width = max(_widths(trunk_))
    x = np.zeros((samples, 2 * width + len(trunk_.leaf_states)))
    y = np.zeros((samples, 2 * width))
    mask = np.zeros((samples, 2 * width), dtype=bool)
    for i in range(samples):
        leaf = int(rng.integers(len(trunk_.leaf_states)))
        h0, h1 = (len(h) for h in trunk_.hands[leaf])
        r0, r1 = random_range(rng, h0), random_range(rng, h1)
        v0, v1 = _solve_leaf(trunk_, leaf, r0, r1, iterations)
        c = trunk_.chance[leaf]
        x[i] = _features(trunk_, leaf, r0, r1)
        y[i, :h0], y[i, h0:h0 + h1] = v0, v1
        mask[i, :h0] = c.sum(axis=1) > 0  # smoothed ranges: every possible hand has a value
        mask[i, h0:h0 + h1] = c.sum(axis=0) > 0
    return x, y, mask


def train_value_network(trunk_: Trunk, samples: int = 600, seed: int = 0,
                        hidden: tuple[int, ...] = (64, 64), steps: int = 3000,
                        iterations: int = 200, test_samples: int = 100,
                        data: tuple[FloatArray, FloatArray, np.ndarray] | None = None
                        ) -> ValueNetwork:
    """DeepStack's value network in miniature, trained on leaf subgames solved for random ranges.

    Parameters
    ----------
    trunk_ : Trunk
    samples : int
        Training ranges (each one leaf subgame solved by ``iterations`` of CFR+).
    seed : int
        Seeds the ranges, the network's initial weights and nothing else.
    hidden : tuple of int
        Hidden layer sizes of the :class:`~cfrviz.solvers.network.MLP`.
    steps : int
        Full-batch Adam steps.
    test_samples : int
        Held-out ranges for :attr:`ValueNetwork.test_error`.
    data : (x, y, mask), optional
        Samples made before by :func:`value_samples` (the first ``samples`` rows train, the
        next ``test_samples`` test), to train several networks on one set of solved ranges.
    """
    rng = np.random.default_rng(seed)
    if data is None:
        x, y, mask = value_samples(trunk_, samples + test_samples, rng, iterations)
    else:
        x, y, mask = data
        if len(x) < samples + test_samples:
            raise ValueError(f"data holds {len(x)} samples; samples + test_samples = "
                             f"{samples + test_samples}")
    scale = float(np.abs(trunk_.game.utility).max()) or 1.0
    net = MLP.create((x.shape[1], *hidden, y.shape[1]), rng)
    fit = slice(0, samples)
    losses = train(net, x[fit], y[fit] / scale, np.ones(samples), mask[fit], steps,
                   learning_rate=3e-3)
    held = slice(samples, None)
    error = np.abs(net.forward(x[held]) * scale - y[held])[mask[held]]
    return ValueNetwork(trunk_, net, scale, losses, float(error.mean()) if error.size else 0.0)


__all__ = ["SMOOTHING", "LeafValues", "Trunk", "ValueNetwork", "check_range", "combine",
           "continuation_values",
           "exact_values", "random_range", "resolved_continuation", "solve_leaf", "solve_trunk",
           "train_value_network", "trunk", "value_samples"]
