"""What Deep CFR's networks learn from: external-sampling walks that write sampled regrets,
and the reservoir each player keeps them in (:mod:`cfrviz.solvers.deep_cfr` describes the
algorithm)."""

from __future__ import annotations

import numpy as np

from ... import engine
from ...core.tree import GameTree
from ...engine.mccfr import external_sampling_regrets

# ----------------------------------------------------------------------------- sampling

def samples_per_traversal(tree: GameTree, who: int) -> int:
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
                    bound[h] = np.max(kids)
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
    room = traversals * samples_per_traversal(tree, who)
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


