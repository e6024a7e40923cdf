"""What Deep CFR's networks see and play: information sets as one-hot features, and regret
matching on predicted advantages (:mod:`cfrviz.solvers.deep_cfr` describes the algorithm)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ... import engine
from ...core.tree import GameTree
from ...core.types import FloatArray
from ..network import MLP

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
    def compute(t: GameTree) -> tuple[FeatureEncoding, FloatArray]:
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

    cached: tuple[FeatureEncoding, FloatArray] = tree.cached("deep_cfr_features", compute)
    return cached


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


def advantage_table(tree: GameTree, networks: Sequence[MLP | None],
                    scale: float = 1.0) -> FloatArray:
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


