# %%
# Source of lessons/13_deep_cfr.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 13 · Deep CFR: networks instead of tables
#
# **Goals.** By the end of this lesson you can
# - say why CFR's tables stop scaling, and what Deep CFR keeps instead: a small neural network per
#   player, from an information set to a number per action;
# - follow one Deep CFR iteration: sampled regrets, a **reservoir** memory, an
#   **iteration-weighted** loss, regret matching on the predictions;
# - write reservoir sampling, the network's target at a set and Single Deep CFR's average there;
# - compare Deep CFR with tabular CFR honestly, and say when networks are worth their price.
#
# **You need** lessons 04–06 (CFR, exploitability, external sampling) and the Deep CFR paragraph of
# [The road to superhuman poker](12_road_to_superhuman.ipynb). No machine learning beyond "a network is a function with weights that gradient
# descent fits to data". About {{minutes}} minutes.
#
# Previous: [12 · The road to superhuman poker](12_road_to_superhuman.ipynb). Next: [14 · Solving while playing](14_solving_while_playing.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import json
from pathlib import Path

import numpy as np

import cfrviz
from cfrviz import engine
from cfrviz.analysis.scaling import PUBLISHED_SIZES, solver_bytes
from cfrviz.exercises import lesson13 as check
from cfrviz.solvers.deep_cfr import external_sampling_samples, infoset_features, train_deep_cfr
from cfrviz.views.deep import advantage_regret_figure, advantage_targets, recorded_runs_figure
from cfrviz.widgets.compare import ComparisonView

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · Why tables stop
#
# Every algorithm so far keeps two tables, cumulative regrets and the strategy sum, with a number
# per information set and action. [The road to superhuman poker](12_road_to_superhuman.ipynb)
# scaled their cost per set on pocket poker up to published game sizes; again:

# %%
pocket = cfrviz.load_game("pocket_poker")
bytes_per_set = solver_bytes(pocket) / pocket.num_infosets
print(f"pocket poker: {pocket.num_infosets:,} information sets, "
      f"{bytes_per_set:.0f} bytes of tables per set")
for p in PUBLISHED_SIZES:
    print(f"{p.game:34} {p.infosets:10.3g} sets -> tables of about "
          f"{p.infosets * bytes_per_set / 1e12:.3g} TB")

# %% [markdown]
# Thousands of terabytes for limit hold'em, and a 150-digit number of them for no-limit.
# Abstraction ([Scaling up](10_scaling_up.ipynb)) shrinks the game by hand until a table fits.
# **Deep CFR** (Brown, Lerer, Gross and Sandholm, 2019) stores no table: a neural network
# *computes* a set's regrets from a description of it. Its size is set by its layers, not by the
# game, and sets that look alike get alike regrets.
#
# ## 2 · One iteration of Deep CFR
#
# For iterations $t = 1, 2, \dots$, and for each player $p$:
#
# 1. **Play.** The strategy $\sigma_t$ is regret matching on the predictions of the networks of
#    iteration $t-1$ (uniform at $t = 1$, before any network).
# 2. **Sample.** Run $K$ external-sampling traversals for $p$ (lesson 06). Each of $p$'s nodes on
#    the way gives one **sample**: its set $I$, the iteration $t$ and the sampled regrets
#    $r(I, a) = \tilde v(a) - \tilde v$. Nothing is added to a table.
# 3. **Remember.** The samples go into $p$'s **advantage memory**, a *reservoir* of fixed capacity
#    (section 4).
# 4. **Learn.** $p$'s **advantage network** $V_p$ is trained on the whole memory, from scratch, to
#    make $V_p(I)$ close to the remembered regrets, each sample weighted by its iteration (section 5).
#
# The average strategy, the one that converges, comes from a second network in the paper.
# **Single Deep CFR** (Steinberger, 2019) instead keeps every iteration's networks and averages
# the strategies they play, iteration $t$ weighted by $t$ and by the player's own reach (lesson 04).
# cfrviz computes that exactly on our small games: only sampling and networks approximate.
#
# **This is a variant, not the paper's algorithm**, in two ways. Both players traverse against
# the same $\sigma_t$ (*simultaneous*); in the paper player 2 already faces player 1's retrained
# network within the iteration (*alternating*), which cfrviz does not implement. And where no
# predicted advantage is positive, this lesson plays uniformly, as tabular regret matching does
# (lesson 01); the paper plays the best-predicted action, available as `fallback="argmax"`.
#
# ## 3 · What the network sees
#
# A network needs numbers in. cfrviz's encoding uses the information set's key and nothing else,
# since the key holds exactly what the player to move can see: each character, at each position,
# becomes one input that is 1 or 0. For Kuhn poker:

# %%
kuhn = cfrviz.load_game("kuhn_poker")
encoding, features = infoset_features(kuhn)
print(f"{len(encoding.names())} inputs: " + " ".join(encoding.names()))
for key in ("Q", "Qb", "Kpb"):
    vector = encoding.encode(key)
    on = [name for name, x in zip(encoding.names(), vector) if x]
    print(f"{key:4} -> {vector.astype(int)}   (ones at {', '.join(on)})")
leduc = cfrviz.load_game("leduc_poker")
leduc_encoding, _ = infoset_features(leduc)
print(f"Leduc poker: {leduc.num_infosets} sets, keys up to {leduc_encoding.length} characters, "
      f"{leduc_encoding.size} inputs")

# %% [markdown]
# `Qb` (player 2 holds the queen, player 1 bet) lights up position 0 = `Q` and position 1 = `b`:
# every key has its own pattern, so a network *can* tell every set apart. The paper's poker
# encoding (cards by rank and suit, bets as fractions of the pot) is what lets a network generalise
# to sets it has not seen; our small games need less, since the traversals visit every set.
#
# The network itself is small: two hidden layers of 64 units with ReLU, one output per action, a
# few thousand weights in all, trained with Adam, in plain numpy (`cfrviz.solvers.network.MLP`).
#
# ## 4 · Samples, and where to keep them
#
# One iteration of traversals for player 1 at the uniform strategy, with $K = 4$. Each row is one
# sample: the set and its sampled regrets for (pass, bet).

# %%
uniform = kuhn.legal_mask / kuhn.legal_mask.sum(axis=1, keepdims=True)
infos, regrets, touched = external_sampling_samples(kuhn, uniform, 0, 4,
                                                    engine.seed_state(np.random.default_rng(1)))
for info, r in zip(infos, regrets):
    print(f"{kuhn.infoset_keys[info]:4} regrets pass {r[0]:+.2f}, bet {r[1]:+.2f}")
print(f"{len(infos)} samples from 4 traversals, {touched} nodes touched")

# %% [markdown]
# **Predict** before you run the next cell: Deep CFR's default runs 1,000 traversals per player per
# iteration. How many samples will player 1's memory have received after 100 iterations of Kuhn
# poker: about a thousand, a hundred thousand, ten million?

# %%
_, many, _ = external_sampling_samples(kuhn, uniform, 0, 1000,
                                       engine.seed_state(np.random.default_rng(2)))
print(f"one iteration, 1,000 traversals: {len(many):,} samples for player 1; "
      f"100 iterations: about {100 * len(many):,}")

# %% [markdown]
# The stream of samples never stops, and memory is short. Deep CFR keeps a **reservoir** of fixed
# capacity (a million samples per player in the paper). Keeping only the *latest* would be wrong:
# CFR's regrets sum over **all** iterations, so early ones must stay represented. Reservoir
# sampling (Vitter, 1985, "algorithm R") keeps every sample offered so far with the same
# probability, in one pass and fixed space:
#
# - while the buffer has room, append the sample;
# - after that, when the sample is the $(n+1)$-th offered ($n$ came before it), draw $j$ uniformly
#   from $0, 1, \dots, n$; if $j$ is below the capacity, the sample replaces slot $j$, else it is
#   dropped. It enters with probability $\text{capacity}/(n+1)$, into a random slot.
#
# By induction, after $N$ samples each of them is in the buffer with probability
# $\text{capacity}/N$: the newest by the rule itself, an older one because it survives each later
# arrival with probability $1 - \frac{1}{n+1}$.
#
# ### Exercise 1 — reservoir sampling
# Write `my_add(buffer, sample, seen, capacity, rng)`: `buffer` is a list (change it in place),
# `seen` is how many samples were offered **before** this one (0 for the first), `rng` a numpy
# generator. Draw with `rng.integers(0, seen + 1)`, which is uniform over $0, \dots, \text{seen}$.
# The checker compares your buffer with algorithm R's after every sample of a seeded stream (the
# samples are 100, 101, ...); if you draw another way, it measures how often each sample, and each
# pair, stays in the buffer. (Solution: `%load solutions/13_reservoir_add.py`.)

# %% tags=["exercise-reservoir-add"]
def my_add(buffer, sample, seen, capacity, rng):
    """Offer `sample` to the reservoir `buffer` (a list, changed in place)."""
    raise NotImplementedError  # replace this line


# %%
check.check_reservoir_add(my_add)

# %% [markdown]
# cfrviz's `Reservoir` does the same for whole batches of samples at once, with numpy.
#
# ## 5 · The loss: weight iteration $t$ by $t$
#
# After the traversals of iteration $t$, player $p$'s network is trained on the memory $M_p$, whose
# samples are $(I_i, t_i, r_i)$, to minimise
#
# $$ L(V) = \frac{\sum_i t_i \sum_{a \text{ legal at } I_i} \bigl(V(I_i)_a - r_i(a)\bigr)^2}{\sum_i t_i}. $$
#
# Three details carry the meaning:
#
# - **Only legal actions count**: outputs for actions a set lacks are masked out of the loss.
# - **The weight $t_i$** is linear CFR's (lesson 08): later, better iterations count more.
# - **What the minimum is.** The inputs of a set are always the same, so at each set the best $V(I)$
#   is the weighted **mean** of that set's samples. A set is sampled in proportion to how often
#   chance and the opponent lead there, $\pi_{-p}(I)$, and external sampling's sampled regrets add up
#   to the exact counterfactual regret $r_s(I)$ on average (lesson 06). So the network aims at
#
# $$ V_t(I) \approx \frac{\sum_{s \le t} s\, r_s(I)}{\sum_{s \le t} s\, \pi^{s}_{-p}(I)}, $$
#
#   linear CFR's cumulative regret at $I$ divided by a positive number. Regret matching ignores a
#   positive factor, so it plays what linear CFR would play with those regrets.
#
# A memory to try this on: player 2's reservoir (capacity 300) after ten iterations of 50
# traversals each, all at the uniform strategy for simplicity. Each kept sample is a row: its
# iteration `ts[i]`, its information set `infos[i]` and its sampled regrets `regrets[i]`. A
# reservoir keeps them in no particular order:

# %%
from cfrviz.exercises import deep_targets as check_deep
from cfrviz.solvers.deep_cfr import Reservoir, own_reach_table

memory = Reservoir(capacity=300, width=kuhn.max_actions)
memory_rng = np.random.default_rng(3)
memory_walks = engine.seed_state(memory_rng)
for t in range(1, 11):
    new_infos, new_regrets, _ = external_sampling_samples(kuhn, uniform, 1, 50, memory_walks)
    memory.add(new_infos, new_regrets, t, memory_rng)
kept = len(memory)
ts, infos, regrets = memory.weights[:kept], memory.infos[:kept], memory.regrets[:kept]
print(f"{memory.seen:,} samples offered, {kept} kept; the first five:")
for i in range(5):
    print(f"  t = {ts[i]:2.0f}  set {kuhn.infoset_keys[infos[i]]:3}  regrets {np.round(regrets[i], 3)}")

# %% [markdown]
# ### Exercise 2 — the network's target at a set
# Write `my_target(ts, infos, regrets, info)`: the vector that player 2's network should output
# at information set `info` (a set id, e.g. `kuhn.infoset_keys.index("Qb")`) to make the loss
# above as small as it can be, given these samples. Return one number per action. The checker
# compares your function, at every set, with what cfrviz's Deep CFR trains towards, on this kind
# of memory for Kuhn and for Leduc poker (where some sets have two actions of three: return the
# legal ones, or the whole row), and on a small memory written out by hand.
# (Solution: `%load solutions/13_weighted_target.py`.)

# %% tags=["exercise-weighted-target"]
def my_target(ts, infos, regrets, info):
    """What the network's loss is minimised by at set `info`: one number per action."""
    raise NotImplementedError  # replace this line


# %%
check_deep.check_weighted_target(my_target)

# %% [markdown]
# ## 6 · Training on Kuhn poker, live
#
# Fewer traversals and training steps than the defaults, to finish in seconds; every iteration is
# recorded for section 7.

# %%
ITERATIONS = 30
run = train_deep_cfr(kuhn, ITERATIONS, seed=0, traversals=200, train_steps=150,
                     checkpoints=range(1, ITERATIONS + 1), progress=True)
deep = run.trace
for t in (1, 3, 10, 30):
    print(f"iteration {t:2}: exploitability of the average {deep.exploitability[t - 1]:.4f}, "
          f"nodes touched so far {deep.extras['nodes_touched'][t - 1]:,}")

# %% [markdown]
# `run.networks[p][t - 1]` is player $p$'s network trained at iteration $t$. Evaluating it by hand
# at `Qb` gives the advantages that regret matching turns into the next strategy (the networks
# predict in units of the largest payoff, `run.scale`):

# %%
net = run.network(1, ITERATIONS)  # player 2 owns Qb
print(net)
by_hand = net.forward(run.features("Qb")[None])[0] * run.scale
print("advantages at Qb (pass, bet):", np.round(by_hand, 4),
      "  same as run.advantages:", np.allclose(by_hand, run.advantages("Qb")))
positive = np.maximum(by_hand, 0)
print("next strategy at Qb:", np.round(positive / positive.sum(), 3) if positive.sum() > 0
      else "uniform (no positive advantage)")

# %% [markdown]
# Single Deep CFR keeps every iteration's strategy $\sigma_t$ (`run.strategy(t)`) and, at a set
# $I$ of player $p$, mixes them with weight $t\,\pi^{\sigma_t}_p(I)$: linear weighting times $p$'s
# own reach (`own_reach_table`). At `Qb`, iteration by iteration:

# %%
qb = kuhn.infoset_keys.index("Qb")
played = [run.strategy(t) for t in range(1, ITERATIONS + 1)]
strategies = np.array([sigma[qb, :2] for sigma in played])
reaches = np.array([own_reach_table(kuhn, sigma)[qb] for sigma in played])
for t in (1, 2, 10, 30):
    print(f"iteration {t:2}: sigma_t(Qb) = (pass {strategies[t - 1, 0]:.3f}, bet "
          f"{strategies[t - 1, 1]:.3f}), player 2's reach {reaches[t - 1]:.3f}")

# %% [markdown]
# ### Exercise 3 — Single Deep CFR's average at a set
# Write `my_sd_average(strategies, reaches)`: row $k$ of `strategies` is the strategy played at
# the set in iteration $t = k + 1$ (one column per action) and `reaches[k]` the owner's reach to
# the set in that iteration; return the average strategy at the set, one probability per action.
# The checker compares it, at every set of a short Deep CFR run, with the average cfrviz keeps in
# the run's trace, and on a set of three actions that some iterations never reach.
# (Solution: `%load solutions/13_sd_average.py`.)

# %% tags=["exercise-sd-average"]
def my_sd_average(strategies, reaches):
    """Single Deep CFR's average at one set: one probability per action."""
    raise NotImplementedError  # replace this line


# %%
check_deep.check_sd_average(my_sd_average)

# %% [markdown]
# ## 7 · Advantages against exact regrets
#
# The trace holds, at every iteration, the network's predicted advantages and, computed exactly
# over the whole tree, the counterfactual regrets of the strategy played at that iteration.
#
# **Predict** before you run the next cell: at `Qb`, will the network's prediction (solid lines)
# jump around with the regret of each iteration's strategy (dots), or move smoothly?

# %%
advantage_regret_figure(deep, "Qb")

# %% [markdown]
# The dots jump with each iteration's strategy. The network follows the dashed line instead,
# section 5's weighted average of all regrets so far, which settles as iterations pile up. (Where
# it still jumps, the set was hardly reached before, so one iteration outweighs the rest.) How
# close solid stays to dashed is how well sampling and training did:

# %%
for key in ("Qb", "Jpb", "K"):
    target = advantage_targets(deep, key)
    gap = np.abs(target["predicted"] - target["target"])[ITERATIONS // 2:].max()
    print(f"{key:4} largest gap between prediction and target over iterations "
          f"{ITERATIONS // 2 + 1}-{ITERATIONS}: {gap:.4f}")

# %% [markdown]
# ## 8 · Against tabular CFR
#
# The same iterations of vanilla CFR and of external sampling (Deep CFR's kind of traversal, once
# per player per iteration instead of 200 times, adding to tables):

# %%
tabular = [cfrviz.solve(kuhn, name, ITERATIONS, seed=0, checkpoints=range(1, ITERATIONS + 1))
           for name in ("cfr", "external_sampling")]
per_iteration = {trace.algorithm: trace.extras["nodes_touched"][-1] / ITERATIONS
                 for trace in [deep, *tabular]}
for name, nodes in per_iteration.items():
    i = ITERATIONS - 1
    exploitability = {t.algorithm: t.exploitability[i] for t in [deep, *tabular]}[name]
    print(f"{name:18} {nodes:9,.0f} nodes per iteration   exploitability after {ITERATIONS}: "
          f"{exploitability:.4f}")
print(f"Deep CFR touches {per_iteration['deep_cfr'] / per_iteration['cfr']:.0f} times as many "
      "nodes per iteration as CFR")
ComparisonView([deep, *tabular], ["Deep CFR", "CFR", "external sampling"], axis="iterations")

# %% [markdown]
# Switch the x axis to **nodes touched**. Per iteration Deep CFR is behind CFR but ahead of external
# sampling (one traversal per player against Deep CFR's 200); per node it is far behind both, and
# per second further still, since it also trains two networks. On a 55-node game, walking the whole
# tree is cheaper than sampling, and a 12-set table costs nothing. Here tables win.
#
# ## 9 · Leduc poker, recorded
#
# Deep CFR on Leduc takes over a minute for 100 iterations, so these numbers are **recorded** by
# `benchmarks/record_deep_cfr.py`, not measured now; the cell prints where, when and how.

# %%
recorded = json.loads((Path("..") / "data" / "benchmarks" / "deep_cfr_leduc.json").read_text())
meta = recorded["meta"]
print(f"Recorded {meta['date']} on {meta['machine']}\nwith: {meta['command']}\n")
for name, r in recorded["runs"].items():
    print(f"{name:29} {r['iterations'][-1]:8,} iterations {r['nodes_touched'][-1]:11,} nodes "
          f"exploitability {r['exploitability'][-1]:.4f}   {r['wall_seconds']:5.1f} s")
recorded_runs_figure(recorded, axis="nodes")

# %% [markdown]
# Read the printout line by line. After 100 iterations Deep CFR is about twice as exploitable as
# vanilla CFR, after touching about eleven times as many nodes (4,292,425 against 387,200) and taking
# about 1,200 times as long (76.6 s against 0.064 s). External
# sampling given the **same** number of nodes as Deep CFR's traversals, but adding to tables, does
# best of all (with only Deep CFR's 100 iterations, one traversal each, it has barely started).
# This is no failure of Deep CFR: Leduc's 288-set table fits in kilobytes and is an exact memory,
# where a network is an approximate one retrained every iteration. Networks earn their price when
# no table can be stored, as in section 1's games: the choice is then "network or nothing" (or a
# hand-made abstraction), which is what the paper shows on games far bigger than ours.
#
# ## 10 · Explore it
#
# The training explorer runs Deep CFR too: the tree shows the networks' strategies, a set's panel
# their advantages beside the exact regrets. Try more `traversals` or fewer `train_steps`, then
# press **Solve**.

# %%
cfrviz.explore(kuhn, "deep_cfr", iterations=20, traversals=200, train_steps=150, infoset="Qb")

# %% [markdown]
# ## Summary
#
# - For real poker CFR's tables cannot be stored. Deep CFR replaces the regret table by one
#   network per player and plays regret matching on its predictions.
# - Each iteration: external-sampling traversals give sampled regrets; a **reservoir** keeps every
#   sample offered with the same probability; the network is retrained on it, iteration $t$
#   weighted by $t$, legal actions only.
# - At a set the loss is minimised by the weighted mean Σ t·r / Σ t (you computed it): linear
#   CFR's cumulative regret up to a positive factor that regret matching ignores.
# - The average strategy comes from a second network (Deep CFR) or from every iteration's networks
#   (Single Deep CFR: iteration t weighted by t and the player's own reach, as you computed).
# - On Kuhn and Leduc, tables win on nodes, time and exploitability; networks pay off where tables
#   cannot be stored and sets must share what is learned.
#
# **Read more.**
# - N. Brown, A. Lerer, S. Gross and T. Sandholm, *Deep Counterfactual Regret Minimization*,
#   ICML 2019.
# - E. Steinberger, *Single Deep Counterfactual Regret Minimization*, arXiv:1901.07621, 2019.
# - J. S. Vitter, *Random Sampling with a Reservoir*, ACM Transactions on Mathematical Software
#   11(1), 1985.
# - M. Lanctot, K. Waugh, M. Zinkevich and M. Bowling, *Monte Carlo Sampling for Regret
#   Minimization in Extensive Games*, NIPS 2009 (external sampling).
# - N. Brown and T. Sandholm, *Solving Imperfect-Information Games via Discounted Regret
#   Minimization*, AAAI 2019 (linear CFR, whose weights the loss uses).
#
# Previous: [12 · The road to superhuman poker](12_road_to_superhuman.ipynb). Next: [14 · Solving while playing](14_solving_while_playing.ipynb).
