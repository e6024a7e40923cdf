# %%
# Source of lessons/07_sampling_in_practice.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 07 · Sampling in practice: averages, outcomes and cost
#
# **Goals.** By the end of this lesson you can
# - explain *stochastically-weighted averaging*: why external sampling may add the opponent's
#   strategy unweighted, and what goes wrong with other weights;
# - say what outcome sampling divides by, and why it must explore;
# - see the price of sampling: noise, and results that depend on the seed;
# - compare algorithms honestly, on the work they do (nodes touched) rather than on iterations.
#
# **You need** lesson 06: unbiased estimates, the three samplers, external sampling's walk (its
# pseudocode's line numbers are used below). About {{minutes}} minutes.
#
# Previous: [06 · Monte Carlo CFR: sample, and stay unbiased](06_monte_carlo_cfr.ipynb). Next: [08 · Faster CFR: CFR+, linear CFR and discounted CFR](08_faster_cfr.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import numpy as np
from IPython.display import display

import cfrviz
from cfrviz.exercises import lesson07 as check
from cfrviz.exercises import outcome_weights as check_ow
from cfrviz.exercises import unanswered
from cfrviz.analysis.sampling import (AVERAGING, averaging_weights, counterfactual_regrets,
                                      expected_update, nodes_per_iteration)
from cfrviz.core.regret import regret_matching
from cfrviz.reference.mccfr import outcome_sampling_walk
from cfrviz.views.compare import comparison_figure, exploitability_at, log_checkpoints
from cfrviz.views.listing import listing
from cfrviz.views.style import in_dashboard
from cfrviz.widgets.compare import ComparisonView

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %%
kuhn = cfrviz.load_game("kuhn_poker")
leduc = cfrviz.load_game("leduc_poker")

# %% [markdown]
# ## 1 · Stochastically-weighted averaging
#
# Regret matching's *current* strategies do not converge; their **average** does, and lesson 04's
# average weights each iteration by the player's own reach of the set:
# $\bar\sigma(I) \propto \sum_t \pi_i^{t}(I)\,\sigma^t(I)$. External sampling never computes
# $\pi_i(I)$. It doesn't need to: in the walk that updates the *other* player, player $i$ is the
# opponent, its actions are drawn, and the walk comes to a node $h$ of $i$ with probability
# $\pi_c(h)\,\pi_i(h)$, where $\pi_c(h)$ is chance's part of the reach of $h$ (the product of
# the probabilities of the chance outcomes on the way to $h$). Adding $\sigma(I)$ **unweighted**
# each time (line 8 of lesson 06's pseudocode) therefore adds, on average,
# $\pi_c(I)\,\pi_i(I)\,\sigma(I)$, with $\pi_c(I) = \sum_{h \in I} \pi_c(h)$ chance's probability
# of dealing $i$ the cards it holds at $I$: the right weight times a number that is the same
# every iteration and drops out of the average. The weighting happens by
# sampling, hence *stochastically weighted*.
#
# Other places and weights look just as plausible. The cell computes, exactly as above, the weight
# each rule gives each information set in one iteration, divided by the weight the average needs
# (the set's own reach); the strategies are those after 1,000 iterations:

# %%
later = cfrviz.solve(kuhn, "external_sampling", 1000, seed=0,
                     checkpoints=[1000]).cumulative_regret[-1]
own_reach, weights = averaging_weights(kuhn, later)
for rule in AVERAGING:
    print(f"{rule:15} {AVERAGING[rule]}")
print("\nset   own reach  " + "".join(f"{rule:>16}" for rule in AVERAGING))
for i, key in enumerate(kuhn.infoset_keys):
    ratios = "".join(f"{w / own_reach[i]:16.3f}" if own_reach[i] > 0 else f"{'-':>16}"
                     for w in weights[:, i])
    print(f"{key:5} {own_reach[i]:9.3f}  {ratios}")

# %% [markdown]
# Only the first column is the same number, 1/3 (the probability of the card), for every set:
# only that rule weights each iteration by the player's own reach. Adding at the traverser's own
# nodes (`own`, `own-reach`) weights by how often the **opponent** leads there instead, which is
# wrong at nearly every set after the first move. Multiplying the opponent's strategy by its reach
# (`opponent-reach`) counts a reach that the sampling already counted: it goes wrong where the
# player's own reach is below 1 (`Jpb` and `Kpb` here). As reaches change from iteration to
# iteration, such weights favour some iterations over others, and the average is no longer the
# one the convergence proof is about. On Kuhn poker the damage to exploitability happens to be
# small (in a run of 10,000 iterations, 0.0097 with `own` against 0.0077 with the right rule).
#
# Never averaging at all is another matter. The solver records the exploitability of both the
# average and the current strategy:

# %%
run = cfrviz.solve(kuhn, "external_sampling", 20_000, seed=0, checkpoints=[1_000, 5_000, 20_000])
print("iterations   average strategy   current strategy   (exploitability)")
for t, average, current in zip(run.iterations, run.exploitability, run.current_exploitability):
    print(f"{t:10,} {average:18.4f} {current:18.4f}")

# %% [markdown]
# ## 2 · Outcome sampling: divide, and explore
#
# Outcome sampling samples the traverser's actions too, so each walk is a single path from the root
# to one leaf $z$. Now the cancellation of lesson 06's section 7 cannot happen: the walk reaches $z$ with a
# probability $q(z)$ that includes the traverser's own choices, and the estimate must divide by it.
# At a node $h$ of the traverser on the path, with $a$ the action taken there, the estimated value
# of the action is
#
# $$ \tilde v(I, a) = \frac{\pi_{-i}(h)\;\pi^\sigma(z \mid h a)\;u_i(z)}{q(z)}, $$
#
# and $\tilde v(I, b) = 0$ for the actions $b$ not taken. $\pi^\sigma(z \mid h a)$, the **tail
# reach**, is the probability that everybody's strategies lead from $h a$ to $z$; it turns the
# payoff at $z$ into a value of $h a$. The regret of action $b$ is then
# $\tilde v(I, b) - \sum_c \sigma(I, c)\,\tilde v(I, c)$.
#
# ### Exercise 1 — the regrets of one sampled path
#
# Work these numbers out for a path the walk really drew. A path is the list of its steps from the
# root to the leaf $z$, each a tuple `(who, sigma, q, a)`: who moved there (`"chance"`, 0 for
# player 1 or 1 for player 2), the probabilities it plays with (`sigma`; chance's own at a chance
# node), the probabilities the walk drew with (`q`), and the index `a` it drew. Chance and the
# opponent are drawn on policy, so their `q` is their `sigma`; the traverser explores, with
# $q = \varepsilon/k + (1 - \varepsilon)\,\sigma$ and $\varepsilon = 0.6$ here. So $q(z)$ is the
# product of every step's `q[a]`, $\pi_{-i}(h)$ the product of `sigma[a]` over the steps before
# $h$ where the traverser does not move, and the tail reach the product of `sigma[a]` over the
# steps after $h$.
#
# Write `my_outcome_regrets(path, payoff, player)`: `payoff` is $u_i(z)$ for the traverser
# `player`; return one array of regrets (one entry per action) for each step of `player` on the
# path, in path order. The first path the checker tries is this one, drawn on Kuhn poker with the
# strategies after 50 iterations of external sampling (actions: pass, bet):

# %%
example = check_ow.recorded_paths()[0]
print(f"traverser: player {example.player + 1}; payoff at the leaf: {example.payoff:g}")
print("history  who      sigma           q               drew")
for (who, sigma, q, a), history in zip(example.steps, example.histories):
    print(f"{history!r:8} {str(who):7}  {np.round(sigma, 3)!s:15} {np.round(q, 3)!s:15} {a}")

# %% [markdown]
# The checker compares your regrets, on six paths of Kuhn and Leduc poker (some with a chance node
# in the middle, some for player 2), with the ones the package's readable walk added when it drew
# them, and names the likely mistake if they differ. (Solution:
# `%load solutions/07_outcome_regrets.py`.)

# %% tags=["exercise-outcome-regrets"]
def my_outcome_regrets(path, payoff, player):
    """Outcome sampling's regrets at each of `player`'s steps on one sampled path."""
    regrets = []
    for d, (who, sigma, q, a) in enumerate(path):
        if who != player:
            continue
        raise NotImplementedError  # replace this line: π_{-i}(h), the tail reach, q(z), regrets
    return regrets


# %%
outcome_verdict = check_ow.check_outcome_regrets(my_outcome_regrets)
outcome_verdict

# %% [markdown]
# Once yours passes, the next cell prints your regrets beside the walk's, path by path and step
# by step, and then the largest regret in size against the largest payoff.

# %%
if outcome_verdict.correct:
    for path in check_ow.recorded_paths():
        mine = my_outcome_regrets(path.steps, path.payoff, path.player)
        game = path.game.replace("_", " ")
        print(f"{game}, player {path.player + 1}, payoff {path.payoff:g}:")
        for k, (yours, walks) in enumerate(zip(mine, path.regrets)):
            print(f"   step {k + 1}: yours {np.round(yours, 4)!s:28} "
                  f"the walk's {np.round(walks, 4)!s}")
    largest = max((r for path in check_ow.recorded_paths() for r in path.regrets),
                  key=lambda r: np.abs(r).max())
    print(f"largest regret in size: {largest[np.argmax(np.abs(largest))]:+.1f}; "
          f"largest payoff in size in Leduc poker: {np.abs(leduc.utility).max():g}")
else:
    print("When your function passes the checker above, this cell compares it on every path.")

# %% [markdown]
# Once your function passes, the last line above shows a regret far larger than any payoff:
# dividing by a small $q(z)$ is what keeps the estimate unbiased, and it is also where its
# variance comes from. Some regrets are exactly 0: the tail reach is 0 when, below $h$, the walk
# explored an action the strategy never plays.
#
# The readable version builds the same products one level at a time on the way back up
# (`sampled = below / explore[a]` divides by the probability of the draw, `value = sigma[a] *
# sampled` multiplies by the strategy's):

# %%
listing(outcome_sampling_walk, "explore =", "return value")

# %% [markdown]
# **Why explore.** The traverser draws from `explore`: with probability $\varepsilon$ uniformly, else
# from its strategy. An importance-sampling estimate is unbiased only if everything that matters
# has a positive chance to be sampled. An action that the current strategy gives probability 0 would
# never be drawn; its value would always be estimated as 0 and its regret would be wrong. With
# $\varepsilon > 0$ every action keeps probability at least $\varepsilon / k$, so the traverser's
# part of $1/q$, the factor $1/q_i$ from its own draws, also stays bounded, by $(k/\varepsilon)$
# per node on the path. The whole $1/q$ need not be: the opponent's and chance's draws can be very
# unlikely. That part does no harm, because the same probabilities appear in $\pi_{-i}(h)$ and
# $\pi^\sigma(z \mid h a)$ above it and cancel, as in lesson 06's section 7. (So the opponent needs no
# exploration: an action it never plays has weight 0 in $\pi_{-i}$ anyway.)
#
# The exact expected regrets of one outcome-sampling walk for player 1, at strategies that never
# play `b` with J or Q (those after 50 iterations), with the package's $\varepsilon = 0.6$ and
# with no exploration:

# %%
greedy = cfrviz.solve(kuhn, "external_sampling", 50, seed=0, checkpoints=[50]).cumulative_regret[-1]
strategy = regret_matching(greedy, kuhn.legal_mask)
exact = counterfactual_regrets(kuhn, 0, greedy)
explored, _ = expected_update(kuhn, "outcome_sampling", 0, greedy, epsilon=0.6)
unexplored, _ = expected_update(kuhn, "outcome_sampling", 0, greedy, epsilon=0.0)
print("player 1's regret of b (bet; after p-b, call):")
print("set     P(b)    CFR's regret   expected, ε = 0.6   expected, ε = 0")
for i in np.flatnonzero(kuhn.infoset_player == 0):
    print(f"{kuhn.infoset_keys[i]:5} {strategy[i, 1]:7.2f} {exact[i, 1]:+13.4f} "
          f"{explored[i, 1]:+19.4f} {unexplored[i, 1]:+17.4f}")

# %% [markdown]
# With exploration the expectation is CFR's regret. Without it, every set where `b` has
# probability 0 gets a wrong regret, at `J`, `Jpb` and `Qpb` not even of the right sign: the untried
# action is valued at 0, and where the position loses on average, 0 looks better than the
# strategy, so regret matching would start playing it for a wrong reason.

# %% [markdown]
# ## 3 · Noise you can watch
#
# The explorer from lesson 04 runs any of these algorithms. Here it runs external sampling on Kuhn
# poker. Pick an information set (say `Jpb`, player 1 holding the jack after check–bet) and compare
# its regret chart with what you saw for vanilla CFR: the lines now zig-zag, because every iteration
# adds a noisy estimate. Switch the **x axis** of the bottom chart to *nodes touched*, try outcome
# sampling, or a few seeds, and press **Solve**.

# %%
cfrviz.explore(kuhn, "external_sampling", iterations=2000, seed=0, infoset="Jpb")

# %% [markdown]
# ## 4 · Seeds
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
# ## 5 · What an iteration costs
#
# Lesson 06 counted what vanilla CFR touches per iteration: every node, twice. The samplers touch
# far fewer, and not equally few.
#
# ### Exercise 2 — predict the cost
# Before you look at any measurement: order `"cfr"`, `"chance_sampling"`, `"external_sampling"`
# and `"outcome_sampling"` from the **fewest nodes touched per iteration** on Leduc poker to the
# most. (Solution: `%load solutions/07_fewest_nodes.py`.)

# %% tags=["exercise-fewest-nodes"]
my_order = None  # e.g. ["cfr", "chance_sampling", "external_sampling", "outcome_sampling"]

# %%
check.check_fewest_nodes(my_order)

# %% [markdown]
# The measurement, from 200 iterations of each<span class="cfrviz-notebook-only"> (shown once
# `my_order` holds your order, right or wrong)</span>:

# %%
per_iteration = nodes_per_iteration(leduc)
if unanswered(my_order) and not in_dashboard():
    print("Write your order in exercise 2 first (any order will do), then run this cell again.")
else:
    for name, nodes in sorted(per_iteration.items(), key=lambda item: item[1]):
        print(f"{name:18} {nodes:8,.1f} nodes per iteration", end="")
        if name != "cfr":
            print(f"   ({per_iteration['cfr'] / nodes:4,.0f} iterations for the price of one "
                  "of CFR)", end="")
        print()

# %% [markdown]
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
if unanswered(my_order) and not in_dashboard():  # where each line ends gives exercise 2 away
    print("The chart follows once exercise 2 holds your order; then run this cell again.")
else:
    display(comparison_figure(race, axis="iterations",
                              title="Leduc poker: exploitability per iteration"))

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
# when a single walk of the tree is out of reach, as in the games of lesson 12.
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
# - External sampling's average is **stochastically weighted**: the opponent's current strategy,
#   unweighted, at the opponent's sampled nodes. Being sampled in proportion to its own reach gives
#   each iteration the right weight; adding elsewhere or multiplying by a reach biases the average,
#   and not averaging at all does not converge.
# - Outcome sampling divides by the probability $q(z)$ of the sampled path and **explores**
#   ($\varepsilon$), so that every action keeps a positive probability of being sampled.
# - The cheaper the iteration, the noisier it is. Results of samplers depend on the seed: compare
#   several seeds, and compare algorithms on the work done (nodes touched), not on iterations.
#
# **Read more.** M. Lanctot, K. Waugh, M. Zinkevich and M. Bowling, *Monte Carlo Sampling for Regret
# Minimization in Extensive Games*, NIPS 2009 — outcome sampling and its exploration. M. Lanctot,
# *Monte Carlo Sampling and Regret Minimization for Equilibrium Computation and Decision-Making in
# Large Extensive Form Games*, PhD thesis, University of Alberta, 2013 — external sampling with
# stochastically-weighted averaging, as our engine implements it.
#
# Previous: [06 · Monte Carlo CFR: sample, and stay unbiased](06_monte_carlo_cfr.ipynb). Next: [08 · Faster CFR: CFR+, linear CFR and discounted CFR](08_faster_cfr.ipynb).
