"""Deep CFR with the Single Deep CFR average: networks instead of regret tables.

Deep CFR (Brown, Lerer, Gross and Sandholm, 2019) replaces CFR's table of
cumulative regrets by one *advantage network* per player, a function from the
features of an information set to one number per action.  Each iteration t:

1. **Play.** The strategy of iteration t, sigma_t, is regret matching on the
   previous iteration's advantage networks (before any training, every set
   plays uniformly).
2. **Sample.** For each player p, ``traversals`` external-sampling walks from
   the root (Lanctot et al., 2009): chance and the opponent are sampled from
   sigma_t, every action of p is tried, and each of p's sets reached gives a
   sample ``(set, sampled regrets r = v(a) - v, t)``.
3. **Remember.** Samples go into p's *advantage memory*, a reservoir of fixed
   ``capacity`` (Vitter, 1985: every sample ever offered is kept with the
   same probability).
4. **Learn.** p's network is trained -- from scratch, as in the paper, unless
   ``warm_start`` -- to minimise ``sum_i t_i ||V(I_i) - r_i||^2`` over the
   memory: weighting iteration t by t is linear CFR's weighting, and the
   minimiser at a set is (up to a positive factor per set, which regret
   matching ignores) linear CFR's cumulative regret there.

The average strategy, which is what converges to an equilibrium, is the
**Single Deep CFR** one (Steinberger, 2019): every iteration's networks are
kept, and the average at a set I of player p is the mixture

    avg(I) = sum_t t * pi_p^{sigma_t}(I) * sigma_t(I) / sum_t t * pi_p^{sigma_t}(I)

of the strategies they played, weighted by t and by p's own probability of
reaching I.  Deep CFR trains a second, *strategy* network towards this
mixture; on the course's small trees we compute it exactly instead, at every
information set (sigma_t is what the networks play there, evaluated once per
iteration), so the average carries no strategy-network approximation error --
only the advantage networks' and the sampling's.  It is the behaviour
strategy of Steinberger's player, who draws one iteration's network with
probability proportional to t at the start of a game and plays it throughout.

The policy a trace holds is always what the networks play, evaluated at every
information set; there is no hidden regret table.

Features (:func:`infoset_features`) are game-agnostic: the one-hot encoding
of each character of the information set's key by its position.

Implementation choices, measured on this course's machine (these two comparisons
with ``fallback="argmax"``):

- With ``batch_size=0`` (the default) each Adam step uses the gradient of the
  loss over the *whole* memory.  The features depend only on the set, so the
  loss groups by set: ``sum_i t_i ||V(I_i) - r_i||^2 = sum_I W_I ||V(I) -
  rbar_I||^2 + const``, with ``W_I`` the sum of the weights of I's samples and
  ``rbar_I`` their weighted mean.  A step then costs one pass over the
  distinct sets in memory -- the same gradient, far cheaper than a pass over
  the samples.  ``batch_size=k`` draws k samples per step instead, as the
  paper does on large games (Kuhn, 100 iterations, seeds 0-2: median
  exploitability 0.032 with ``batch_size=256``, about three times slower,
  against 0.024 with the whole memory).
- Networks are trained from scratch each iteration, as in the paper:
  ``warm_start=True`` with 100 steps instead of 300 is about three times
  faster but missed 0.05 on Kuhn for seed 0 (0.053; median 0.029).
- Sampled regrets are divided by the game's largest payoff before training
  (and predictions multiplied back), so one learning rate suits every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import engine
from ..core.checks import infoset_id, whole_number
from ..core.registry import Param
from ..core.trace import SolverState, Trace
from ..core.tree import GameTree, as_tree, check_zero_sum
from ..engine.mccfr import external_sampling_regrets
from .driver import drive, tree_stepper
from .network import MLP, train
from .registry import Algorithm, Request, check_request, register_algorithm

__all__ = ["DeepCFRRun", "FeatureEncoding", "Reservoir", "advantage_table", "infoset_features",
           "own_reach_table", "solve_deep_cfr", "strategy_from_advantages", "train_deep_cfr"]

ALGORITHM = "deep_cfr"
#: What a set plays when none of its predicted advantages is positive.
FALLBACKS = ("uniform", "argmax")


# ----------------------------------------------------------------------------- features

@dataclass(frozen=True)
class FeatureEncoding:
    """How information sets become network inputs: one-hot characters of the key by position.

    A key of length L over an alphabet of C characters (both taken from all the
    game's keys) becomes L_max * C zeros and ones: entry ``j * C + c`` is 1 when
    character ``j`` of the key is the alphabet's ``c``-th.  Kuhn poker's
    ``"Qpb"`` sets the entries (0, Q), (1, p), (2, b); Leduc's ``"KQ:cr/c"``
    one per character, cards and betting alike.  Distinct keys give distinct
    vectors, and the encoding uses nothing but the key, which holds exactly
    what the player to move can see -- so it works for every game, files
    included.  (Poker-specific encodings, as in the paper, generalise better
    across sets; here the network only has to tell the sets apart.)

    Attributes
    ----------
    alphabet : str
        The characters of all keys, sorted.
    length : int
        The longest key.
    """

    alphabet: str
    length: int

    @property
    def size(self) -> int:
        """Inputs of the network."""
        return self.length * len(self.alphabet)

    def encode(self, key: str) -> np.ndarray:
        """The feature vector of one key."""
        out = np.zeros(self.size)
        index = {c: i for i, c in enumerate(self.alphabet)}
        for j, c in enumerate(key[: self.length]):
            if c not in index:
                raise ValueError(f"information-set key {key!r} holds {c!r}, which is not in "
                                 f"this encoding's alphabet {self.alphabet!r}")
            out[j * len(self.alphabet) + index[c]] = 1.0
        return out

    def names(self) -> list[str]:
        """A label per input, ``"position:character"``."""
        return [f"{j}:{c}" for j in range(self.length) for c in self.alphabet]


#: The most network inputs (key length times alphabet size) Deep CFR builds features for.
MAX_INPUTS = 20_000
#: The most bytes the feature matrix (information sets x inputs, float64) may take.
MAX_FEATURE_BYTES = 256 * 2**20


def infoset_features(tree: GameTree) -> tuple[FeatureEncoding, np.ndarray]:
    """The encoding of a game's keys and the feature matrix, shape (information sets, inputs).

    Raises
    ------
    ValueError
        When the keys would need more than :data:`MAX_INPUTS` inputs or the matrix more
        than :data:`MAX_FEATURE_BYTES` (one very long key is enough), naming the longest key;
        checked before anything is allocated.
    """
    def compute(t: GameTree):
        keys = t.infoset_keys
        encoding = FeatureEncoding("".join(sorted(set("".join(keys)))),
                                   max((len(k) for k in keys), default=0))
        nbytes = 8 * len(keys) * encoding.size
        if encoding.size > MAX_INPUTS or nbytes > MAX_FEATURE_BYTES:
            longest = max(keys, key=len)
            shown = repr(longest) if len(longest) <= 40 else f"{longest[:37]!r}..."
            raise ValueError(
                f"{ALGORITHM} encodes each information-set key one-hot by position: the "
                f"longest key of {t.name}, {shown} ({len(longest):,} characters), over the "
                f"keys' {len(encoding.alphabet):,} distinct characters needs "
                f"{encoding.size:,} network inputs ({nbytes:,} bytes of features for "
                f"{len(keys):,} sets); it takes at most {MAX_INPUTS:,} inputs and "
                f"{MAX_FEATURE_BYTES:,} bytes: use shorter keys (what the player saw, not the "
                f"whole path) or a tabular algorithm")
        features = np.array([encoding.encode(k) for k in keys]).reshape(len(keys),
                                                                        encoding.size)
        features.setflags(write=False)
        return encoding, features

    return tree.cached("deep_cfr_features", compute)


# ----------------------------------------------------------------------------- strategies

def strategy_from_advantages(advantages: np.ndarray, mask: np.ndarray,
                             fallback: str = "uniform") -> np.ndarray:
    """Regret matching on predicted advantages, shape (sets, actions).

    Each legal action is played in proportion to its positive advantage.  Where
    none is positive, ``fallback="uniform"`` plays uniformly (tabular regret
    matching's rule, :func:`cfrviz.core.regret.regret_matching`), ``"argmax"``
    the legal action with the largest prediction (Brown et al.'s rule).
    """
    if fallback not in FALLBACKS:
        raise ValueError(f"fallback must be one of {FALLBACKS}; got {fallback!r}")
    mask = np.asarray(mask, dtype=bool)
    positive = np.where(mask, np.maximum(advantages, 0.0), 0.0)
    total = positive.sum(axis=1, keepdims=True)
    if fallback == "argmax":
        best = np.argmax(np.where(mask, advantages, -np.inf), axis=1)
        backup = np.zeros(mask.shape)
        backup[np.arange(len(mask)), best] = 1.0
    else:
        backup = mask / np.maximum(mask.sum(axis=1, keepdims=True), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, positive / np.where(total > 0, total, 1.0), backup)


def advantage_table(tree: GameTree, networks, scale: float = 1.0) -> np.ndarray:
    """Each set's advantages predicted by its owner's network, shape (sets, actions).

    ``networks`` holds one :class:`~cfrviz.solvers.network.MLP` per player (or
    None: an untrained network, which predicts 0).  Predictions are multiplied
    by ``scale`` (back to payoff units); illegal actions hold 0.
    """
    _, features = infoset_features(tree)
    out = np.zeros(tree.legal_mask.shape)
    for p, net in enumerate(networks):
        rows = tree.infoset_player == p
        if net is not None and rows.any():
            out[rows] = net.forward(features[rows]) * scale
    return np.where(tree.legal_mask, out, 0.0)


def own_reach_table(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """Each set's owner's own probability of playing into it under ``strategy``, shape (sets,)."""
    reach = np.zeros(tree.num_infosets)
    for p in range(2):
        rows = tree.infoset_player == p
        reach[rows] = engine.counterfactual_table(tree, strategy, p)["own_reach"][rows]
    return reach


# ----------------------------------------------------------------------------- sampling

def _samples_per_traversal(tree: GameTree, who: int) -> int:
    """The most samples one traversal for ``who`` can write (to size the output buffers)."""
    def compute(t: GameTree) -> tuple[int, int]:
        bounds = []
        for p in range(2):
            # p explores every child of its own nodes; chance and the opponent follow one
            bound = np.zeros(t.num_nodes, dtype=np.int64)
            for h in range(t.num_nodes - 1, -1, -1):  # children come after their parent
                kids = bound[t.children[h]]
                if t.player[h] == p:
                    bound[h] = 1 + kids.sum()
                elif len(kids):
                    bound[h] = kids.max()
            bounds.append(int(bound[0]))
        return bounds[0], bounds[1]

    return tree.cached("deep_cfr_sample_bounds", compute)[who]


def external_sampling_samples(tree: GameTree, strategy: np.ndarray, who: int, traversals: int,
                              rng_state: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Run ``traversals`` external-sampling walks for ``who`` against ``strategy``.

    Returns
    -------
    infos : int array (samples,)
        The set of each sample.
    regrets : float array (samples, actions)
        Its sampled regrets (0 on illegal actions).
    touched : int
        Nodes visited.
    """
    p = engine.plan(tree)
    room = traversals * _samples_per_traversal(tree, who)
    infos = np.zeros(room, dtype=np.int64)
    regrets = np.zeros((room, tree.max_actions))
    strategy = np.ascontiguousarray(strategy, dtype=np.float64)
    count, touched = external_sampling_regrets(p.arrays, strategy, who, traversals, rng_state,
                                               infos, regrets)
    return infos[:count], regrets[:count], int(touched)


# ----------------------------------------------------------------------------- memory

class Reservoir:
    """A fixed-capacity memory where every sample ever offered is kept with equal probability.

    Reservoir sampling (Vitter, 1985, algorithm R): the first ``capacity``
    samples are stored; sample number ``k`` (counting from 0) after that
    replaces a stored one, chosen uniformly, with probability
    ``capacity / (k + 1)``.

    Attributes
    ----------
    infos : int array (size,)
        The information set of each stored sample (its features are the set's).
    regrets : float array (size, actions)
    weights : float array (size,)
        The iteration each sample comes from (its weight in the loss).
    seen : int
        Samples offered so far.
    """

    def __init__(self, capacity: int, width: int):
        self.capacity = int(capacity)
        # The arrays grow (doubling) as samples arrive, up to the capacity.
        self.infos = np.zeros(0, dtype=np.int64)
        self.regrets = np.zeros((0, width))
        self.weights = np.zeros(0)
        self.seen = 0

    def _reserve(self, size: int) -> None:
        """Room for ``size`` stored samples (at most the capacity)."""
        have = len(self.infos)
        if size <= have:
            return
        room = min(self.capacity, max(size, 2 * have))
        self.infos = np.concatenate([self.infos, np.zeros(room - have, dtype=np.int64)])
        self.regrets = np.concatenate([self.regrets, np.zeros((room - have,
                                                               self.regrets.shape[1]))])
        self.weights = np.concatenate([self.weights, np.zeros(room - have)])

    def __len__(self) -> int:
        return min(self.seen, self.capacity)

    def add(self, infos: np.ndarray, regrets: np.ndarray, weight: float,
            rng: np.random.Generator) -> None:
        """Offer samples (in order), all with the same ``weight``."""
        n = len(infos)
        index = self.seen + np.arange(n)  # each sample's number
        slot = np.where(index < self.capacity, index, -1)
        late = index >= self.capacity
        if late.any():
            draw = rng.integers(0, index[late] + 1)  # uniform in 0..k
            slot[late] = np.where(draw < self.capacity, draw, -1)
        keep = np.flatnonzero(slot >= 0)
        # Algorithm R writes the samples one after another: where two land in the same slot,
        # the later one stays.
        last = len(keep) - 1 - np.unique(slot[keep][::-1], return_index=True)[1]
        keep = keep[last]
        self._reserve(min(self.seen + n, self.capacity))
        self.infos[slot[keep]] = infos[keep]
        self.regrets[slot[keep]] = regrets[keep]
        self.weights[slot[keep]] = weight
        self.seen += n

    def grouped(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The memory grouped by set: ``(sets, weighted mean regrets, total weights)``.

        ``sum_i w_i ||V(I_i) - r_i||^2`` equals ``sum_I W_I ||V(I) - rbar_I||^2``
        plus a constant (the spread of each set's samples), so both losses have
        the same gradient.
        """
        size = len(self)
        sets, where = np.unique(self.infos[:size], return_inverse=True)
        total = np.bincount(where, weights=self.weights[:size], minlength=len(sets))
        mean = np.zeros((len(sets), self.regrets.shape[1]))
        np.add.at(mean, where, self.regrets[:size] * self.weights[:size, None])
        return sets, mean / total[:, None], total


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

    def features(self, infoset) -> np.ndarray:
        """The network input of a set (key or id); see :class:`FeatureEncoding`."""
        return infoset_features(self.game)[1][self._info(infoset)].copy()

    def network(self, player: int, iteration: int | None = None) -> MLP:
        """Player ``player``'s (0 or 1) advantage network trained at ``iteration`` (or the last)."""
        return self.networks[player][self._iteration(iteration) - 1]

    def advantages(self, infoset, iteration: int | None = None) -> np.ndarray:
        """The advantages (payoff units, legal actions) predicted at a set after ``iteration``."""
        info = self._info(infoset)
        net = self.network(int(self.game.infoset_player[info]), iteration)
        k = len(self.game.infoset_actions[info])
        return net.forward(infoset_features(self.game)[1][info][None])[0, :k] * self.scale

    def advantage_table(self, iteration: int | None = None) -> np.ndarray:
        """Predicted advantages at every set after ``iteration``, shape (sets, actions)."""
        t = self._iteration(iteration)
        return advantage_table(self.game, [self.networks[p][t - 1] for p in range(2)],
                               self.scale)

    def strategy(self, iteration: int) -> np.ndarray:
        """sigma_t, the strategy played at ``iteration`` (uniform at 1), shape (sets, actions)."""
        mask = self.game.legal_mask
        if self._iteration(iteration) == 1:
            return mask / mask.sum(axis=1, keepdims=True)
        return strategy_from_advantages(self.advantage_table(iteration - 1), mask,
                                        self.fallback)

    def _iteration(self, iteration: int | None) -> int:
        if iteration is None:
            return self.iterations
        return whole_number(iteration, "iteration", 1, self.iterations)

    def _info(self, infoset) -> int:
        return infoset_id(self.game, infoset)


def _train(request: Request) -> DeepCFRRun:
    """Train Deep CFR as ``request`` asks, through the one driver."""
    tree = as_tree(request.game, ALGORITHM)
    check_zero_sum(tree, ALGORITHM)
    if request.resume is not None:
        raise ValueError("deep_cfr cannot resume a run: its networks and memories are not kept "
                         "in a trace; run it again with more iterations")
    step = _Step(tree, request.params, request.rng)
    state = SolverState.fresh(tree)
    state.current = tree.legal_mask / tree.legal_mask.sum(axis=1, keepdims=True)  # sigma_1
    trace = drive(request, tree_stepper(request, tree, state, step, chunked=False,
                                        resumable=False))
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


def _exact_regrets(counterfactual, owner, mask) -> np.ndarray:
    """The exact counterfactual regrets of the strategy played, from each set's owner's table."""
    out = np.zeros(mask.shape)
    for p in range(2):
        table = counterfactual[p]
        regrets = table["action_values"] - table["value"][:, None]
        out[owner == p] = regrets[owner == p]
    return np.where(mask, out, 0.0)


def _fit(net: MLP, memory: Reservoir, features, mask, steps: int, learning_rate: float,
         batch_size: int, rng: np.random.Generator) -> None:
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

    - ``current_strategy``: sigma_t, what the networks of iteration t - 1 play
      at every set (uniform at t = 1);
    - ``cumulative_regret``: the advantages the networks trained at iteration t
      predict at every set (payoff units) -- regret matching on them gives
      sigma_{t+1}, as cumulative regrets do in tabular CFR.  They estimate
      linear CFR's cumulative regret divided, per set, by a positive weight (the
      t-weighted reach with which the set was sampled), so their scale is not
      a sum's;
    - ``instantaneous_regret``: the *exact* counterfactual regrets of sigma_t,
      computed over the whole tree (the explorer shows them beside the
      predictions; the algorithm itself only ever sees sampled ones);
    - ``average_strategy``: the Single Deep CFR average -- exact, at every set,
      not a strategy network's approximation;
    - ``extras["nodes_touched"]``: nodes visited by the sampled traversals
      (the exact average and the recorded exact regrets walk the whole tree
      once per iteration besides, which this count leaves out, as it leaves
      out exploitability).

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
        Start each iteration's network from the previous one's weights instead
        of from scratch (the paper trains from scratch).
    fallback : {"uniform", "argmax"}, default "uniform"
        What a set plays when no advantage is positive: uniform, as tabular
        regret matching does (so the explorer's "next strategy (regret
        matching)" is exactly the next iteration's strategy), or the action
        with the largest prediction, the paper's rule.  Measured with the
        other defaults (median of seeds 0-2, 100 iterations): Kuhn 0.0238
        either way; Leduc 0.206 (uniform), 0.189 (argmax).

    Run options (``request.options``)
    ---------------------------------
    networks : bool, default False
        Return a :class:`DeepCFRRun`, the trace with every iteration's advantage
        networks, instead of the trace alone: ``cfrviz.solve(game, "deep_cfr", n,
        networks=True)``.  The networks are not in the trace (a trace file holds
        arrays of fixed schema).

    ``resume`` is refused: a Deep CFR run cannot be resumed (its memories and networks
    are not in the trace).

    Returns
    -------
    Trace or DeepCFRRun
        A Ctrl-C ends the run after the iteration in progress, with a warning;
        the trace holds the finished iterations.
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
                   help="return a DeepCFRRun: the trace and every iteration's networks"),),
    exact_regrets=True,  # the recorded instantaneous regrets are the exact ones
    summary="advantage networks trained on sampled regrets; exact Single Deep CFR average",
    paper="Brown, Lerer, Gross and Sandholm (2019), Deep counterfactual regret minimization, "
          "ICML; Steinberger (2019), Single deep counterfactual regret minimization, "
          "arXiv:1901.07621",
    aliases=("deep", "deepcfr", "sd_cfr", "single_deep_cfr")))
