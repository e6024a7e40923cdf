# Source of lessons/06_monte_carlo_cfr.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 06 · Sampling: Monte Carlo CFR
#
# **Goals.** By the end of this lesson you can
# - say what one iteration of CFR costs, and count it in nodes;
# - describe what *chance*, *external* and *outcome sampling* sample, and what each still walks;
# - explain why dividing by the probability of a sample keeps the regrets *unbiased*;
# - see the price of sampling: noise, and results that depend on the seed;
# - compare algorithms honestly, on the work they do (nodes touched) rather than on iterations.
#
# **You need** lessons 03–05: counterfactual regret, CFR on Kuhn poker, exploitability. About 30 minutes.
#
# Previous: [05 · Best response and exploitability](05_best_response.ipynb). Next: [07 · Faster CFR](07_faster_cfr.ipynb).
#
# Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.

# %%
import math

import numpy as np

import cfrviz
from cfrviz.exercises import lesson06 as check
from cfrviz.analysis.sampling import first_iteration_regrets, nodes_per_iteration
from cfrviz.views.compare import (comparison_figure, exploitability_at, log_checkpoints,
                                  regret_estimates_figure)
from cfrviz.widgets.compare import ComparisonView

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · What one iteration of CFR costs
#
# Every iteration of vanilla CFR computes the counterfactual value of every action at every
# information set. With alternating updates it walks the whole tree once for player 1 and once for
# player 2: **twice the number of nodes**, every iteration. The trace of a run counts the nodes it
# touched (`trace.extras["nodes_touched"]`), so we can check:

# %%
kuhn = cfrviz.load_game("kuhn_poker")
leduc = cfrviz.load_game("leduc_poker")
for game in (kuhn, leduc):
    run = cfrviz.solve(game, "cfr", 10, checkpoints=[])
    print(f"{game.name:12} {game.num_nodes:6,} nodes   CFR touches "
          f"{run.extras['nodes_touched'][-1] / 10:8,.0f} nodes per iteration")
holdem_deals = math.comb(52, 2) * math.comb(50, 2) * math.comb(48, 5)
print(f"deals of heads-up hold'em (two private cards each, five public cards): {holdem_deals:.2e}")

# %% [markdown]
# Most of those nodes lie below the chance nodes that deal the cards: Kuhn poker can deal 6 ordered
# pairs of cards, Leduc 30 and then a public card. Heads-up Texas hold'em has the number of deals
# printed above, each followed by its own betting tree, so one walk of the full tree is out of
# reach (lesson 09 puts more numbers on it). **Monte Carlo CFR**
# (Lanctot, Waugh, Zinkevich and Bowling, 2009) walks only a *sampled* part of the tree per
# iteration.
#
# ## 2 · Sample, then correct
#
# A counterfactual value is an expectation: a sum over the ways the game can end, each weighted by
# how likely chance and the opponent are to get there. Write it as $\sum_z p(z)\, x(z)$. Sampling
# visits some endings $z$ only, drawn with probabilities $q(z)$ that we choose. If we scale what we
# see by $1/q(z)$, the **expected** result is exactly the full sum:
#
# $$ \mathbb{E}_{z \sim q}\!\left[\frac{p(z)\, x(z)}{q(z)}\right] = \sum_z q(z)\,\frac{p(z)\, x(z)}{q(z)} = \sum_z p(z)\, x(z). $$
#
# Any one sample can be far off; on average it is right. Such an estimate is called **unbiased**,
# and regret matching still converges when it is fed unbiased regrets instead of exact ones (more
# slowly: the noise has to average out too).
#
# ### Exercise 1 — the correction
# Chance deals J, Q or K, each with probability $p = 1/3$. A sampler draws the jack with
# probability $1/2$ and the queen and king with $1/4$ each. It sees the value $v(c)$ of the card
# $c$ it drew and reports $w(c)\,v(c)$. Which weights $w$ (for J, Q, K) make the report unbiased,
# whatever the values are? (Solution: `%load solutions/06_importance_weights.py`.)

# %% tags=["exercise-importance-weights"]
my_weights = None  # three numbers: the weight for a drawn J, Q and K

# %%
check.check_importance_weights(my_weights)

# %% [markdown]
# ### Seeing it on Kuhn poker
#
# External sampling (section 3) estimates every regret of the player it updates. Run it for **one**
# iteration, a thousand times with seeds 0 to 999, and compare player 1's estimates of the regret
# of betting with the exact regrets a full CFR iteration computes:

# %%
estimates = first_iteration_regrets(kuhn, "external_sampling", runs=1000)
bet = 1  # the actions are pass (p) and bet (b)
regret_estimates_figure(estimates.keys, estimates.exact[:, bet], estimates.samples[0][:, bet],
                        estimates.mean[:, bet], len(estimates.samples),
                        title="Player 1's regret of betting, iteration 1")

# %% [markdown]
# The orange bars (seed 0 alone) are off, some of them badly; the blue bars (the mean of all
# runs) sit on the black ones. The printout gives the numbers and how much a single run scatters:

# %%
print("set    exact    mean of runs   ± standard error   one run's spread (std)")
for k, key in enumerate(estimates.keys):
    print(f"{key:5} {estimates.exact[k, bet]:+7.3f}   {estimates.mean[k, bet]:+10.3f}   "
          f"{estimates.std_error[k, bet]:>14.3f}   {estimates.samples[:, k, bet].std():>12.3f}")
print("every mean within 4 standard errors of the exact value:", estimates.within(4))

# %% [markdown]
# ## 3 · Three ways to sample
#
# The samplers differ in *which* part of the tree they walk for the player $i$ being updated:
#
# | algorithm | samples | walks every action of |
# |---|---|---|
# | **chance sampling** | one outcome at each chance node (one deal) | both players |
# | **external sampling** | chance, and the opponent's actions (from the opponent's current strategy) | player $i$ only |
# | **outcome sampling** | everything, player $i$ included: one path from the root to a terminal | nobody |
#
# Outcome sampling lets player $i$ explore: with probability $\varepsilon$ it picks uniformly among
# its actions instead of following its strategy, so that every action keeps a chance to be seen and
# the factors $1/q$ stay bounded. External sampling's name says what it samples: everything
# *external* to the player being updated.
#
# ### Exercise 2 — predict the cost
# Before you look at any measurement: order `"cfr"`, `"chance_sampling"`, `"external_sampling"`
# and `"outcome_sampling"` from the **fewest nodes touched per iteration** on Leduc poker to the
# most. (Solution: `%load solutions/06_fewest_nodes.py`.)

# %% tags=["exercise-fewest-nodes"]
my_order = None  # e.g. ["cfr", "chance_sampling", "external_sampling", "outcome_sampling"]

# %%
check.check_fewest_nodes(my_order)

# %% [markdown]
# The measurement, from 200 iterations of each:

# %%
per_iteration = nodes_per_iteration(leduc)
for name, nodes in sorted(per_iteration.items(), key=lambda item: item[1]):
    print(f"{name:18} {nodes:8,.1f} nodes per iteration", end="")
    if name != "cfr":
        print(f"   ({per_iteration['cfr'] / nodes:4,.0f} iterations for the price of one of CFR)",
              end="")
    print()

# %% [markdown]
# ## 4 · Noise you can watch
#
# The explorer from lesson 04 runs any of these algorithms. Here it runs external sampling on Kuhn
# poker. Pick an information set (say `Jpb`, player 1 holding the jack after check–bet) and compare
# its regret chart with what you saw for vanilla CFR: the lines now zig-zag, because every iteration
# adds a noisy estimate. Switch the **x axis** of the bottom chart to *nodes touched*, try outcome
# sampling, or a few seeds, and press **Solve**.

# %%
cfrviz.explore(kuhn, "external_sampling", iterations=2000, seed=0, infoset="Jpb")

# %% [markdown]
# ## 5 · Seeds
#
# Vanilla CFR has no randomness: any seed gives the same run. A sampler's run depends on its seed.
# Five seeds of external sampling on Leduc poker, drawn in one colour:

# %%
same = [cfrviz.solve(leduc, "cfr", 50, seed=s, checkpoints=[]) for s in (0, 1)]
print("CFR with seeds 0 and 1 identical:",
      np.array_equal(same[0].average_strategy, same[1].average_strategy))

SEED_ITERATIONS = 20_000
seed_runs = [cfrviz.solve(leduc, "external_sampling", SEED_ITERATIONS, seed=s,
                          checkpoints=log_checkpoints(SEED_ITERATIONS, 60)) for s in range(5)]
finals = np.array([run.exploitability[-1] for run in seed_runs])
print(f"external sampling after {SEED_ITERATIONS:,} iterations, seeds 0–4: "
      + ", ".join(f"{x:.4f}" for x in finals)
      + f"\nmean {finals.mean():.4f}, smallest {finals.min():.4f}, largest {finals.max():.4f}")
comparison_figure(seed_runs, ["external sampling, 5 seeds"] * 5, axis="iterations")

# %% [markdown]
# The curves wander around a common trend. A single run of a sampler is one draw: before you
# conclude that one setting beats another, run a few seeds and look at the spread.
#
# ## 6 · The honest comparison
#
# Now race the four algorithms on Leduc poker, each given about the same **work**: two million nodes
# touched (so vanilla CFR gets a few hundred iterations, outcome sampling many thousands). First the
# usual chart, with iterations on the x axis:

# %%
BUDGET = 2_000_000
race = [cfrviz.solve(leduc, name, max(1, int(BUDGET / per_iteration[name])), seed=0,
                     checkpoints=log_checkpoints(max(1, int(BUDGET / per_iteration[name])), 80))
        for name in ("cfr", "chance_sampling", "external_sampling", "outcome_sampling")]
comparison_figure(race, axis="iterations", title="Leduc poker: exploitability per iteration")

# %% [markdown]
# Per iteration, vanilla CFR is far ahead. But its iterations are also far more expensive.
#
# **Predict** before you run the next cell: if the x axis shows **nodes touched** instead, which
# algorithm will be lowest early on (around $10^4$ nodes)? And at the end of the budget
# (two million nodes)?

# %%
ComparisonView(race, axis="nodes")

# %% [markdown]
# The toggle above the chart switches between iterations, nodes touched and solver seconds.
# The table reads the exploitability of each run at a few budgets:

# %%
budgets = (1e4, 1e5, 1e6, 2e6)
print("nodes touched:      " + "".join(f"{b:>12,.0f}" for b in budgets) + "   ns per node")
for run in race:
    ns = 1e9 * run.extras["total_time"] / run.extras["nodes_touched"][-1]
    print(f"{run.algorithm:18}  " + "".join(f"{exploitability_at(run, b, 'nodes'):>12.4f}"
                                             for b in budgets) + f"   {ns:11.0f}")
leaders = [min(race, key=lambda run: exploitability_at(run, b, "nodes")).algorithm
           for b in budgets]
print("lowest:             " + "".join(f"{name.split('_')[0]:>12}" for name in leaders))

# %% [markdown]
# Read the table against your prediction (the last row names the lowest run at each budget). On
# the nodes axis the samplers are no longer hopeless: with a small budget, many cheap noisy updates
# spread over many deals beat one or two exact but expensive iterations, and external sampling
# leads. As the budget grows, the noise costs more than the exactness buys: in a tree as small as
# Leduc's, walking all of it is affordable, and vanilla CFR takes the lead. Sampling earns its keep
# when a single walk of the tree is out of reach, as in the games of lesson 09.
#
# The **seconds** view adds a third point: nodes touched measure work anywhere, seconds measure
# this implementation on this machine (the last column of the table). Our vanilla CFR sweeps the
# tree in tight compiled loops over arrays, one node after the next, while a sampler jumps around
# the tree with a stack, draws random numbers and recomputes a strategy at each set it meets, so
# here a sampled node costs more time than a swept one. Comparisons in papers say which axis they
# use; now you know why they must.
#
# ## Summary
#
# - One iteration of vanilla CFR touches every node (twice, with alternating updates).
# - Monte Carlo CFR walks a sampled part of the tree and divides by the sampling probability, so
#   its regrets are **unbiased** estimates of CFR's: right on average, noisy in any one run.
# - Chance sampling samples the deal; external sampling also samples the opponent; outcome sampling
#   samples one path. The cheaper the iteration, the noisier it is.
# - Results of samplers depend on the seed: compare several seeds, and compare algorithms on the
#   work done (nodes touched), not on iterations.
#
# **Read more.** M. Lanctot, K. Waugh, M. Zinkevich and M. Bowling, *Monte Carlo Sampling for Regret
# Minimization in Extensive Games*, NIPS 2009 — external and outcome sampling, and the proof that
# sampled regrets still lead to equilibrium. M. Zinkevich, M. Johanson, M. Bowling and C. Piccione,
# *Regret Minimization in Games with Incomplete Information*, NIPS 2007 — whose poker experiments
# already sampled the deal (chance sampling). M. Lanctot, *Monte Carlo Sampling and Regret
# Minimization for Equilibrium Computation and Decision-Making in Large Extensive Form Games*, PhD
# thesis, University of Alberta, 2013 — external sampling with stochastically-weighted averaging,
# as our engine implements it.
#
# Previous: [05 · Best response and exploitability](05_best_response.ipynb). Next: [07 · Faster CFR](07_faster_cfr.ipynb).
