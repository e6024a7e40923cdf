# Source of lessons/06_monte_carlo_cfr.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 06 · Monte Carlo CFR: sample, and stay unbiased
#
# **Goals.** By the end of this lesson you can
# - say what one iteration of CFR costs, and count it in nodes;
# - explain why dividing by the probability of a sample keeps the regrets *unbiased*;
# - describe what *chance*, *external* and *outcome sampling* sample, and watch what each one walks;
# - read external sampling line by line, say why it needs **no** division by a probability, and
#   write it yourself.
#
# Lesson 07 goes on with the same samplers: how they average, outcome sampling, and what sampling
# costs in noise.
#
# **You need** lessons 03–05: counterfactual regret, the recursive walk of CFR, CFR on Kuhn poker,
# exploitability. About {{minutes}} minutes.
#
# Previous: [05 · Best response and exploitability](05_best_response.ipynb). Next: [07 · Sampling in practice](07_sampling_in_practice.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import math

import numpy as np

import cfrviz
from cfrviz.exercises import lesson06 as check
from cfrviz.exercises import chance_sampling as check_cs
from cfrviz.analysis.sampling import (counterfactual_regrets, expected_update,
                                      external_sampling_variant, first_iteration_regrets,
                                      sampled_terminals)
from cfrviz.reference.mccfr import external_sampling, external_sampling_walk
from cfrviz.views.compare import regret_estimates_figure
from cfrviz.views.listing import listing
from cfrviz.widgets.reveal import ShowMe
from cfrviz.widgets.sampling import SampledPaths

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
# reach (lesson 11 puts more numbers on it). **Monte Carlo CFR**
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
# the traverser's part of the factors $1/q$, $1/q_i$, stays bounded (the opponent's and chance's
# parts need no bound: lesson 07 shows why). External sampling's name says what it samples: everything
# *external* to the player being updated.
#
# ### Watch the walks
#
# Numbers are one thing; seeing the walks is another. The view below draws Kuhn poker's tree and
# one iteration of the algorithm you pick. Every iteration walks the tree twice, once to update
# player 1 and once to update player 2; the toggle picks which walk is shown. **Blue** edges are
# those the walk went down because it tries *every* child at that node; **orange dashed** edges are
# the ones it *drew*, one child among several. Rings mark the nodes the walk entered: hover one to
# see what it drew and with which probability. Press **Next** to step through iterations, change
# the seed to see other draws.

# %%
SampledPaths(kuhn, "external_sampling", iterations=30, seed=0)

# %% [markdown]
# Things to look for:
#
# - **CFR** enters all 55 nodes in each walk: nothing is drawn.
# - **Chance sampling** draws one deal at the root and then walks all of that deal's betting.
# - **External sampling**: in player 1's walk, every action of player 1 is blue and every action of
#   player 2 is orange. The walk branches only where the player it updates moves.
# - **Outcome sampling** follows one path from the root to a single leaf, drawing even player 1's
#   actions in player 1's walk.
# - The count under the controls adds both walks of an iteration: for the same seed it is exactly
#   what `cfrviz.solve` reports as `nodes_touched` for that iteration (the tests check it).
#
# ### Exercise 2 — write chance sampling
#
# Chance sampling is the first Monte Carlo CFR (Zinkevich et al. already dealt their poker hands
# this way), and the one most tutorials start from. It is lesson 04's CFR walk with **one** change:
# at a chance node the walk deals a single outcome, drawn with chance's probabilities, and follows
# it with the reaches **unchanged**. Everything else stays: both players' actions are all tried,
# the regrets are weighted by the opponent's reach, the strategy sums by the traverser's own.
#
# Why does chance's probability $p$ of the deal disappear from the weight? A deal with probability
# $p$ is walked in a fraction $p$ of the iterations: the sampling does the weighting. In the terms
# of section 2, the estimate multiplies by $p(z)/q(z)$, and here $q = p$.
#
# Write the walk. Your function gets the `tree`, the `node` to walk from, the traverser `player`
# (0 or 1), `own_reach` and `opponent_reach` (the reaches of `node`: the traverser's, and the
# other player's), `strategy` (every set's current strategy, one row per set: read it, do not
# change it), the tables `regret_sum` and `strategy_sum` (add to them in place), and `draw`:
# call `draw(node, probabilities)` at a chance node and it returns the index of the outcome
# drawn. Return the node's value for `player`. Useful pieces: `tree.player[node]` (0, 1,
# `CHANCE` or `TERMINAL`), `tree.children[node]`, `tree.chance_prob[children]`,
# `tree.infoset[node]`, `tree.utility[node, player]`; a row of a table is as wide as the widest
# set, so take `[:len(children)]` of it.
#
# The checker runs your walk for player 1 then player 2, iteration after iteration, on Kuhn and
# Leduc poker beside the package's readable version, with the same deals (each node has its own
# random number, so the order you try actions in does not matter). Then it trains Kuhn poker
# for 2,000 iterations with the compiled solver's deals and compares the exploitability of your
# average strategy with `cfrviz.solve(kuhn, "chance_sampling", 2000, seed=0)`.
# (Solution: `%load solutions/06_chance_sampling.py`.)

# %% tags=["exercise-chance-sampling"]
from cfrviz.core.tree import CHANCE, TERMINAL


def my_chance_sampling(tree, node, player, own_reach, opponent_reach, strategy, regret_sum,
                       strategy_sum, draw):
    """Chance-sampled CFR below `node` for the traverser `player`; returns the node's value."""
    kind = tree.player[node]  # 0 or 1 (who moves), CHANCE or TERMINAL
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    raise NotImplementedError  # replace this line: chance's node, then the players' nodes


# %%
chance_verdict = check_cs.check_chance_sampling(my_chance_sampling)
chance_verdict

# %% [markdown]
# Once your walk passes, the next cell trains it on Kuhn poker with the compiled solver's deals
# at seed 0 and puts the exploitability of your average beside `cfrviz.solve`'s, and beside
# vanilla CFR's after as many iterations, with the nodes each has entered so far.

# %%
if chance_verdict.correct:
    print("iterations   your walk   cfrviz.solve (nodes)   vanilla CFR (nodes)")
    for n in (10, 100, 1_000, 2_000):
        _, sums = check_cs.train(my_chance_sampling, iterations=n, seed=0)
        yours = check_cs.average_exploitability(sums)
        compiled = cfrviz.solve(kuhn, "chance_sampling", n, seed=0, checkpoints=[n])
        vanilla = cfrviz.solve(kuhn, "cfr", n, checkpoints=[n])
        print(f"{n:>10,} {yours:>11.5f} {compiled.exploitability[-1]:>10.5f} "
              f"({compiled.extras['nodes_touched'][-1]:>6,}) {vanilla.exploitability[-1]:>9.5f} "
              f"({vanilla.extras['nodes_touched'][-1]:>7,})")
else:
    print("When your walk passes the checker above, this cell trains it on Kuhn poker.")

# %% [markdown]
# Your walk and the compiled solver agree to every digit printed: they dealt the same cards.
# Each chance-sampled iteration enters 20 nodes (one deal's betting, for each player's walk)
# where vanilla CFR enters 110, but on a game as small as Kuhn poker CFR stays ahead even for
# equal work: 100 iterations of CFR (11,000 nodes) reach 0.0082, 1,000 of chance sampling
# (20,000 nodes) 0.018. Sampling pays where one walk of the whole tree is out of reach; lesson 07
# compares the samplers on the work they do.
#
# ## 4 · External sampling, line by line
#
# External sampling is the sampler most later work builds on (Deep CFR among others), so we take
# it apart. Call the player being updated the **traverser** $i$. One walk for $i$, written as
# pseudocode with $R$ the cumulative regrets and $S$ the strategy sums:
#
# ```text
#  1  WALK(h, i):                                   returns the sampled value of h for i
#  2    if h is a leaf:  return the payoff u_i(h)
#  3    if chance moves at h:
#  4      draw one outcome o with chance's probabilities;  return WALK(h·o, i)
#  5    I := the information set of h
#  6    σ := regret matching on R[I]                      the current strategy at I
#  7    if the opponent moves at I:
#  8      S[I] := S[I] + σ                                the averaging step, no weight
#  9      draw one action a from σ;  return WALK(h·a, i)
# 10    for every action a at I:  v[a] := WALK(h·a, i)   the traverser tries them all
# 11    v_σ := Σ_a σ[a] · v[a]
# 12    for every action a at I:  R[I][a] := R[I][a] + (v[a] − v_σ)    no weight either
# 13    return v_σ
# ```
#
# - **Lines 2–4.** A leaf returns its payoff. Chance is *sampled*: the walk follows a single
#   outcome, drawn as often as chance really plays it.
# - **Lines 5–6.** At a decision node, the strategy is regret matching on the set's regrets right
#   now, as in CFR.
# - **Lines 7–9.** At the opponent's node, the walk first adds the opponent's current strategy to
#   the opponent's strategy sum (lesson 07 explains why this, unweighted, is the right average),
#   then draws *one* action from that strategy and returns what the walk finds below it.
# - **Lines 10–11.** At the traverser's own node, the walk tries *every* action, because a regret
#   compares each action with the strategy: it needs all their values.
# - **Line 12.** The regret of each action is its value minus the strategy's value. Compare with
#   CFR's update from lesson 03: there the difference was multiplied by $\pi_{-i}(h)$, chance's
#   and the opponent's reach. Here **nothing** multiplies it, and nothing divides it by a sampling
#   probability either. Section 6 shows why both are right.
# - **Line 13.** The node's value is the strategy's value; the parent uses it as one of its `v[a]`.
#
# One iteration runs `WALK(root, 1)` and then `WALK(root, 2)`.
#
# ## 5 · The same, in readable Python
#
# The package keeps a plain Python version next to the compiled solver. Exercise 3 (section
# 7) asks you to write this walk yourself, so the listing is behind a button: try the
# exercise first if you like, or click to read it now.

# %%
ShowMe(listing(external_sampling_walk), "Show me external_sampling_walk")

# %% [markdown]
# The lines follow the pseudocode: `kind` says who moves; `sigma` is line 6; the opponent's branch
# is lines 8–9; the loop is line 10 and the last three lines are 11–13. The game tree is the one of
# lesson 03 (`tree.player`, `tree.children`, `tree.infoset`, `tree.utility`), and two details are
# there for the computer rather than the algorithm:
#
# - Random choices go through `draw(node, probabilities)`, which returns the index drawn. The
#   package's `draw` takes the next number from the same generator as the compiled solver, and the
#   loop tries actions from last to first, in the compiled solver's order, so that both draw the
#   same numbers at the same nodes.
# - The tables have one row per information set, as wide as the widest set: `[:k]` keeps the
#   node's own actions.
#
# Because of that, the readable version and `cfrviz.solve` compute the very same run:

# %%
ITERATIONS = 200
compiled = cfrviz.solve(kuhn, "external_sampling", ITERATIONS, seed=0, checkpoints=[ITERATIONS])
readable = list(external_sampling(kuhn, ITERATIONS, np.random.default_rng(0)))[-1]
gap = np.abs(compiled.cumulative_regret[-1] - readable["cumulative_regret"]).max()
print(f"after {ITERATIONS} iterations, largest difference in cumulative regrets: {gap:.1e}")

# %% [markdown]
# ## 6 · Why external sampling divides by nothing
#
# Section 2 said: to keep an estimate unbiased, divide what you see by the probability $q$ of
# having sampled it. So where is the division? Take a node $h$ of the traverser. CFR adds, over the
# nodes of the set,
#
# $$ r(I, a) = \sum_{h \in I} \pi_{-i}(h)\,\bigl(u_i(h a) - u_i(h)\bigr), $$
#
# where $\pi_{-i}(h)$ is the probability that chance and the opponent play to $h$. The walk tries
# all of the traverser's actions, so it comes to $h$ exactly when chance's and the opponent's draws
# lead there: it reaches $h$ with probability
#
# $$ q(h) = \pi_c(h)\,\pi_{\text{opp}}(h) = \pi_{-i}(h). $$
#
# The importance-weighted estimate is $\frac{\pi_{-i}(h)}{q(h)}\bigl(\tilde u(ha) - \tilde u(h)\bigr)$,
# and the fraction is exactly 1. The weight CFR multiplies by and the $1/q$ that undoes the sampling
# **cancel**: how *often* the walk comes to $h$ does the weighting. Below $h$, the values
# $\tilde u$ are themselves sampled, and right on average.
#
# Checking it on one walk. Take the strategies after 5 iterations and walk once for player 1; for
# each leaf $z$ the walk reached, compare the probability that the walk reached it (the product
# of the probabilities of its draws) with chance's and player 2's reach of $z$:

# %%
early = cfrviz.solve(kuhn, "external_sampling", 5, seed=0, checkpoints=[5]).cumulative_regret[-1]
one_walk = sampled_terminals(kuhn, player=0, regret_sum=early, seed=1)
print("leaf      q(z), the walk's     chance's reach   player 2's reach   their product")
for z, q, c, o in zip(one_walk.histories, one_walk.sampled, one_walk.chance, one_walk.opponent):
    print(f"{z:8} {q:14.4f} {c:20.4f} {o:16.4f} {c * o:15.4f}")

# %% [markdown]
# The first column and the last agree, leaf by leaf. To see that the cancellation makes the
# regrets right *on average*, we can do better than many seeds: a walk of Kuhn poker has only a
# few dozen possible sequences of draws, so we run it once for each, weight each result by its
# probability and add up. That is the exact expected regret of one walk. Beside it, CFR's regret at
# the same strategies, and the expectation of a walk that divides by $q$ anyway:

# %%
exact = counterfactual_regrets(kuhn, 0, early)
expected, _ = expected_update(kuhn, "external_sampling", 0, early)


def divides_by_q(tree, player, regret_sum, strategy_sum, draw):
    external_sampling_variant(tree, 0, player, regret_sum, [strategy_sum], draw,
                              regret_weight="one-over-q")


divided, _ = expected_update(kuhn, "external_sampling", 0, early, walk=divides_by_q)
print("player 1's regret of b (bet; after p-b, call):")
print("set    CFR's regret   expected, external sampling   expected, divided by q")
for i in np.flatnonzero(kuhn.infoset_player == 0):
    print(f"{kuhn.infoset_keys[i]:5} {exact[i, 1]:+12.4f} {expected[i, 1]:+25.4f} "
          f"{divided[i, 1]:+24.4f}")
print("largest gap, external sampling against CFR:", f"{np.abs(expected - exact).max():.1e}")

# %% [markdown]
# External sampling's expected regret *is* CFR's, to rounding. Dividing by $q$ removes the
# weighting that the sampling frequency supplied: every history then counts the same, however
# unlikely chance and the opponent make it. The regrets come out several times too large, and not
# by one common factor (compare the sets' ratios), so the strategies they lead to change too.
#
# ## 7 · Exercise 3 — write external sampling
#
# Write the walk of section 4 yourself, without opening the listing of section 5 if you can. Your
# function gets the `tree`, the `node` to walk from, the traverser `player` (0 or 1), the two tables
# `regret_sum` and `strategy_sum` (update them in place), and `draw`: call `draw(node,
# probabilities)` wherever the walk samples, and it returns the index of the outcome or action
# drawn. It returns the node's sampled value for `player`.
#
# The checker runs your walk beside the package's on Kuhn and Leduc poker, for player 1 then
# player 2, iteration after iteration, with the **same** draws: its `draw` gives every node a
# random number fixed in advance, so whatever order you try actions in, a right walk reproduces
# the package's tables exactly. If not, it tries to name the mistake. Useful pieces:
# `tree.player[node]` (0, 1, `CHANCE` or `TERMINAL`), `tree.children[node]`,
# `tree.chance_prob[children]`, `tree.infoset[node]`, `tree.legal_mask[info]`, and
# `regret_matching(regrets, mask)`. (Solution: `%load solutions/06_external_sampling.py`.)

# %% tags=["exercise-external-sampling"]
from cfrviz.core.regret import regret_matching
from cfrviz.core.tree import CHANCE, TERMINAL


def my_external_sampling(tree, node, player, regret_sum, strategy_sum, draw):
    """External sampling below `node` for the traverser `player`; returns the sampled value."""
    kind = tree.player[node]  # 0 or 1 (who moves), CHANCE or TERMINAL
    if kind == TERMINAL:
        return tree.utility[node, player]
    children = tree.children[node]
    raise NotImplementedError  # replace this line: chance, the opponent, then the traverser


# %%
check.check_external_sampling(my_external_sampling)

# %% [markdown]
# ## Summary
#
# - One iteration of vanilla CFR touches every node (twice, with alternating updates).
# - Monte Carlo CFR walks a sampled part of the tree and divides by the sampling probability, so
#   its regrets are **unbiased** estimates of CFR's: right on average, noisy in any one run.
# - Chance sampling samples the deal; external sampling also samples the opponent; outcome sampling
#   samples one path.
# - External sampling tries every action of the player it updates and draws everything else. The
#   probability of reaching a node equals the weight CFR gives it, so its regrets carry **no**
#   weight and no division: the cancellation is exact, leaf by leaf.
#
# Lesson 07 asks the questions this one left open: why the unweighted sum on line 8 is the right
# average, what outcome sampling must divide by, and what the noise costs.
#
# **Read more.** M. Lanctot, K. Waugh, M. Zinkevich and M. Bowling, *Monte Carlo Sampling for Regret
# Minimization in Extensive Games*, NIPS 2009 — external and outcome sampling, and the proof that
# sampled regrets still lead to equilibrium. M. Zinkevich, M. Johanson, M. Bowling and C. Piccione,
# *Regret Minimization in Games with Incomplete Information*, NIPS 2007 — whose poker experiments
# already sampled the deal (chance sampling).
#
# Previous: [05 · Best response and exploitability](05_best_response.ipynb). Next: [07 · Sampling in practice](07_sampling_in_practice.ipynb).
