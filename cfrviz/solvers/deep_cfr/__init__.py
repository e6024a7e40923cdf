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

from .features import (
    ALGORITHM,
    FALLBACKS,
    MAX_FEATURE_BYTES,
    MAX_INPUTS,
    FeatureEncoding,
    advantage_table,
    infoset_features,
    own_reach_table,
    strategy_from_advantages,
)
from .memory import Reservoir, external_sampling_samples
from .training import DeepCFRRun, solve_deep_cfr, train_deep_cfr

__all__ = ["ALGORITHM", "FALLBACKS", "MAX_FEATURE_BYTES", "MAX_INPUTS", "DeepCFRRun",
           "FeatureEncoding", "Reservoir", "advantage_table", "external_sampling_samples",
           "infoset_features", "own_reach_table", "solve_deep_cfr", "strategy_from_advantages",
           "train_deep_cfr"]
