# Source of lessons/12_deep_cfr.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 12 · Deep CFR: networks instead of tables
#
# **Goals.** By the end of this lesson you can
# - say why CFR's tables stop scaling, and what Deep CFR keeps instead: one small neural network
#   per player that maps an information set to a number per action;
# - follow one Deep CFR iteration: external-sampling traversals, a **reservoir** memory of sampled
#   regrets, a network trained on them with an **iteration-weighted** loss, regret matching on its
#   predictions;
# - read what the network sees (the encoding of an information set) and what it is trained towards;
# - write reservoir sampling yourself, and compute what the network is trained towards at a set
#   and Single Deep CFR's average strategy there;
# - compare Deep CFR with tabular CFR honestly, on iterations and on nodes touched, and say when
#   networks are worth their price.
#
# **You need** lessons 04–06 (CFR, exploitability, external sampling) and the Deep CFR paragraph of
# [The road to superhuman poker](11_road_to_superhuman.ipynb). No machine learning beyond "a network is a function with weights that gradient
# descent fits to data". About {{minutes}} minutes.
#
# Previous: [11 · The road to superhuman poker](11_road_to_superhuman.ipynb). Next: [13 · Solving while playing](13_solving_while_playing.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import json
from pathlib import Path

import numpy as np

import cfrviz
from cfrviz import engine
from cfrviz.analysis.scaling import PUBLISHED_SIZES, solver_bytes
from cfrviz.exercises import lesson12 as check
from cfrviz.solvers.deep_cfr import external_sampling_samples, infoset_features, train_deep_cfr
from cfrviz.views.deep import advantage_regret_figure, advantage_targets, recorded_runs_figure
from cfrviz.widgets.compare import ComparisonView

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · Why tables stop
#
# Every algorithm so far keeps two tables with one number per information set and action: the
# cumulative regrets and the strategy sum. [The road to superhuman
# poker](11_road_to_superhuman.ipynb) measured what they cost per information set on pocket poker
# and scaled that to the published size of heads-up limit hold'em. The same computation again:

# %%
pocket = cfrviz.load_game("pocket_poker")
bytes_per_set = solver_bytes(pocket) / pocket.num_infosets
print(f"pocket poker: {pocket.num_infosets:,} information sets, "
      f"{bytes_per_set:.0f} bytes of tables per set")
for p in PUBLISHED_SIZES:
    print(f"{p.game:34} {p.infosets:10.3g} sets -> tables of about "
          f"{p.infosets * bytes_per_set / 1e12:.3g} TB")

# %% [markdown]
# Thousands of terabytes for limit hold'em; for no-limit, a number of terabytes with about 150
# digits. Abstraction ([Scaling up](10_scaling_up.ipynb)) shrinks the game by hand until a table
# fits.
# **Deep CFR** (Brown, Lerer, Gross and Sandholm, 2019) instead stores no table: a neural network
# *computes* each set's regrets from a description of the set. Its size is fixed by its layers,
# not by the game, and sets that look alike get alike regrets without anyone deciding which sets
# are alike.
#
# ## 2 · One iteration of Deep CFR
#
# For iterations $t = 1, 2, \dots$, and for each player $p$:
#
# 1. **Play.** The strategy $\sigma_t$ is regret matching on the predictions of the networks of
#    iteration $t-1$ (uniform at $t = 1$, before any network).
# 2. **Sample.** Run $K$ external-sampling traversals for $p$ (lesson 06): chance and the opponent
#    draw one action from $\sigma_t$, $p$ tries every action. Each of $p$'s nodes on the way gives
#    one **sample**: its information set $I$, the iteration $t$, and the sampled regrets
#    $r(I, a) = \tilde v(a) - \tilde v$ of its actions. Nothing is added to a table.
# 3. **Remember.** The samples go into $p$'s **advantage memory**, a *reservoir* of fixed capacity
#    (section 4).
# 4. **Learn.** $p$'s **advantage network** $V_p$ is trained on the whole memory, from scratch, to
#    make $V_p(I)$ close to the remembered regrets, each sample weighted by its iteration (section 5).
#
# And the average strategy, the one that converges? The paper trains a second network on the
# strategies played. **Single Deep CFR** (Steinberger, 2019) keeps every iteration's advantage
# networks instead and averages the strategies they play, weighting iteration $t$ by $t$ and by
# the player's own reach, as in lesson 04. cfrviz does that exactly, over every information set
# of our small games, so the only approximations left are the sampling and the networks.
#
# **This is a variant, not the paper's algorithm.** It differs from Brown et al. in two ways:
#
# - **Simultaneous, not alternating.** Above, both players traverse against the same $\sigma_t$,
#   and then both networks are trained. In the paper the players alternate *within* an iteration:
#   player 1 traverses and player 1's network is retrained, and only then does player 2 traverse,
#   already facing player 1's new network. cfrviz implements only the simultaneous version.
# - **Uniform, not the best action, when no advantage is positive.** Here regret matching then
#   plays uniformly, as tabular regret matching does (lesson 01). The paper plays the action with
#   the highest predicted advantage instead, since a network's small negative predictions still
#   rank the actions. cfrviz offers the paper's rule as an option,
#   `cfrviz.solve(game, "deep_cfr", ..., fallback="argmax")`; the default, used in this lesson, is
#   `fallback="uniform"`.
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
# `Qb` (player 2 holds the queen, player 1 bet) lights up position 0 = `Q` and position 1 = `b`.
# Every key gets its own pattern, so a network *can* tell every set apart. The paper's encoding
# for poker is richer (cards by rank and suit, bets as fractions of the pot), which is what lets a
# network generalise from sets it has seen to similar ones it has not. On our games that matters
# less: there are few sets, and the traversals visit all of them.
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
# On a real game the stream of samples never stops, and memory is what we are short of. Deep CFR
# keeps a **reservoir** of fixed capacity (a million samples in the paper, per player). Keeping the
# *latest* samples would be wrong: CFR's regrets are sums over **all** iterations, so the memory
# must represent early iterations as well as recent ones. Reservoir sampling (Vitter, 1985,
# "algorithm R") keeps every sample offered so far with the same probability, in one pass and
# fixed space:
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
# The checker offers a stream of samples with its own seeded generator and compares your buffer
# with algorithm R's after every sample (the samples are the numbers 100, 101, ..., never equal to
# `seen`); if you drew your random numbers another way, it measures instead how often each sample,
# and each pair of samples, stays in the buffer. (Solution: `%load solutions/12_reservoir_add.py`.)

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
# - **Only legal actions count**: the network has one output per action of the widest set; at a
#   set with fewer actions, the others are masked out of the loss.
# - **The weight $t_i$** is linear CFR's weighting (lesson 08): later iterations, played by better
#   strategies, count more.
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
# (Solution: `%load solutions/12_weighted_target.py`.)

# %% tags=["exercise-weighted-target"]
def my_target(ts, infos, regrets, info):
    """What the network's loss is minimised by at set `info`: one number per action."""
    raise NotImplementedError  # replace this line


# %%
check_deep.check_weighted_target(my_target)

# %% [markdown]
# ## 6 · Training on Kuhn poker, live
#
# A short run with fewer traversals and training steps than the defaults, so that it finishes in
# seconds; `checkpoints` records every iteration for section 7.

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
# Each iteration's networks play a strategy $\sigma_t$ (`run.strategy(t)`), and Single Deep CFR
# keeps them all. Its average at a set $I$ of player $p$ mixes them, iteration $t$ weighted by
# $t$ (linear averaging, as the loss weights its samples) and by $\pi^{\sigma_t}_p(I)$, player
# $p$'s own probability of playing into $I$ (`own_reach_table`), as lesson 04's average strategy
# weights by the player's reach. At `Qb`, the strategies played and player 2's reach, iteration by
# iteration:

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
# (Solution: `%load solutions/12_sd_average.py`.)

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
# The dots jump: each iteration's strategy is different, and so is its regret. The network does not
# follow them; it follows the dashed line, section 5's weighted average of all the regrets so far,
# which changes more gently as iterations pile up, as a cumulative regret does. (Where it still
# jumps, the set had hardly been reached before: its weighted reach is small, so one iteration in
# which the opponent leads there often outweighs all earlier ones.) How close the solid lines stay
# to the dashed ones is how well the sampling and the training did:

# %%
for key in ("Qb", "Jpb", "K"):
    target = advantage_targets(deep, key)
    gap = np.abs(target["predicted"] - target["target"])[ITERATIONS // 2:].max()
    print(f"{key:4} largest gap between prediction and target over iterations "
          f"{ITERATIONS // 2 + 1}-{ITERATIONS}: {gap:.4f}")

# %% [markdown]
# ## 8 · Against tabular CFR
#
# The same number of iterations of vanilla CFR and of external sampling (which walks exactly the
# same kind of traversal, once per player per iteration instead of 200 times, and adds to tables):

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
# Switch the x axis to **nodes touched**. Per iteration Deep CFR is behind CFR but well ahead of
# external sampling, which walks one traversal per player where Deep CFR walks 200; per node it is
# far behind both, and per second further still (each iteration also trains two networks). Kuhn poker
# has 55 nodes: walking all of them is cheaper than sampling a couple hundred traversals, and a
# table of 12 sets costs nothing to store. Here tables win.
#
# ## 9 · Leduc poker, recorded
#
# Deep CFR on Leduc takes about a minute for 100 iterations, too long to wait for in a lesson.
# We ran `benchmarks/record_deep_cfr.py` once and stored its result: the numbers below are
# **recorded**, not measured now; the cell prints where, when and with which command.

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
# None of this is a failure of Deep CFR: on Leduc a table of 288 sets fits in a few
# kilobytes, and a table is an exact memory, while a network is an approximate one trained anew
# every iteration.
#
# Networks earn their price when the table cannot be stored at all, as in section 1's games: there
# a fixed-size network that generalises across similar sets is the only memory available, and the
# comparison is no longer "network or table" but "network or nothing" (or an abstraction designed
# by hand). That is what the paper shows on games far bigger than ours.
#
# ## 10 · Explore it
#
# The training explorer runs Deep CFR too. The tree shows the strategies the networks play; in a
# set's panel the regret chart shows the networks' advantages, and the panel puts them beside the
# exact regrets. Try more `traversals`, or fewer `train_steps`, and press **Solve**.

# %%
cfrviz.explore(kuhn, "deep_cfr", iterations=20, traversals=200, train_steps=150, infoset="Qb")

# %% [markdown]
# ## Summary
#
# - CFR's tables grow with the information sets; for real poker they cannot be stored. Deep CFR
#   replaces the regret table by one network per player, from a set's features to a number per
#   action, and plays regret matching on its predictions. This lesson's version updates both
#   players from the same strategy and plays uniformly where no prediction is positive; the
#   paper's alternates the players within an iteration and plays the best-predicted action
#   (`fallback="argmax"` in cfrviz).
# - Each iteration: external-sampling traversals give sampled regrets; a **reservoir** of fixed
#   capacity keeps each sample ever offered with the same probability; the network is retrained on
#   it with samples of iteration $t$ weighted by $t$, over legal actions only.
# - At each set, the loss is minimised by the weighted mean of its samples, Σ t·r / Σ t (you
#   computed it): linear CFR's cumulative regret, divided by a positive factor that regret
#   matching ignores.
# - The average strategy comes from a second network (Deep CFR) or from keeping every iteration's
#   networks (Single Deep CFR, which cfrviz computes exactly: at a set, iteration t's strategy
#   weighted by t and by the player's own reach, as you computed).
# - On Kuhn and Leduc, tables win: fewer nodes, less time, lower exploitability. Networks pay off
#   when tables cannot be stored and sets must share what is learned.
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
# Previous: [11 · The road to superhuman poker](11_road_to_superhuman.ipynb). Next: [13 · Solving while playing](13_solving_while_playing.ipynb).
