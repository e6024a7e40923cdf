# %%
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
# Lesson 07 goes on with how the samplers average, outcome sampling, and what sampling costs.
#
# **You need** lessons 03–05: counterfactual regret, the recursive walk of CFR, CFR on Kuhn poker,
# exploitability. About {{minutes}} minutes.
#
# Previous: [05 · Best response and exploitability](05_best_response.ipynb). Next: [07 · Sampling in practice: averages, outcomes and cost](07_sampling_in_practice.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import math

import numpy as np

import cfrviz
from cfrviz.exercises import lesson06 as check
from cfrviz.exercises import chance_sampling as check_cs
from cfrviz.analysis.sampling import (counterfactual_regrets, expected_update,
                                      first_iteration_regrets, sampled_terminals)
from cfrviz.reference import mccfr
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
# information set. With alternating updates it walks the whole tree once per player: **twice the
# number of nodes**. A run counts the nodes it touched (`trace.extras["nodes_touched"]`):

# %%
kuhn = cfrviz.load_game("kuhn_poker")
leduc = cfrviz.load_game("leduc_poker")
for game in (kuhn, leduc):
    run = cfrviz.solve(game, "cfr", 10, checkpoints=[])
    print(f"{game.name:12} {game.num_nodes:6,} nodes {len(game.children[0]):3} deals at the root"
          f"   CFR touches {run.extras['nodes_touched'][-1] / 10:6,.0f} nodes per iteration")
holdem_deals = math.comb(52, 2) * math.comb(50, 2) * math.comb(48, 5)
print(f"deals of heads-up hold'em (two private cards each, five public cards): {holdem_deals:.2e}")

# %% [markdown]
# Most of those nodes lie below the chance node at the root, which deals the private cards (the
# deals printed above; Leduc's tree deals pairs of ranks, a pair of equal ranks half as likely as
# the others, and a public card later). Heads-up Texas hold'em has the number of deals printed
# last, each followed by its own betting tree: one walk of that tree is out of reach (lesson 12
# has more numbers). **Monte Carlo CFR** (Lanctot, Waugh, Zinkevich and Bowling, 2009) walks only
# a *sampled* part of the tree per iteration.
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
# Any one sample can be far off; on average it is right: the estimate is **unbiased**. Regret
# matching still converges on unbiased regrets, more slowly (the noise has to average out too).
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
# External sampling (section 3) estimates every regret of the player it updates. Run **one**
# iteration with seeds 0 to 999 and compare player 1's estimates of the regret of betting with the
# exact regrets of a full CFR iteration:

# %%
estimates = first_iteration_regrets(kuhn, "external_sampling", runs=1000)
bet = 1  # the actions are pass (p) and bet (b)
regret_estimates_figure(estimates.keys, estimates.exact[:, bet], estimates.samples[0][:, bet],
                        estimates.mean[:, bet], len(estimates.samples),
                        title="Player 1's regret of betting, iteration 1")

# %% [markdown]
# The orange bars (seed 0 alone) are off, some badly; the blue ones (the mean of all runs) sit on
# the black ones. The numbers, and how much one run scatters:

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
# External sampling samples everything *external* to the player being updated. Outcome sampling
# also lets player $i$ explore (with probability $\varepsilon$ it picks uniformly among its
# actions), so that every action keeps a chance to be seen; lesson 07 says what it divides by.
#
# ### Watch the walks
#
# The view draws Kuhn poker's tree and one iteration of the algorithm you pick; the toggle picks
# player 1's walk or player 2's. **Blue** edges: the walk tried *every* child there. **Orange
# dashed** edges: it *drew* one child among several. Rings mark the nodes it entered (hover one to
# see what it drew, with which probability). **Next** steps through iterations; the seed changes
# the draws.

# %%
SampledPaths(kuhn, "external_sampling", iterations=30, seed=0)

# %% [markdown]
# Things to look for:
#
# - **CFR** enters every node in each walk: nothing is drawn.
# - **Chance sampling** draws one deal, then walks all of that deal's betting.
# - **External sampling**: in player 1's walk, player 1's actions are blue and player 2's orange;
#   the walk branches only where the player it updates moves.
# - **Outcome sampling** follows one path to a single leaf, drawing even player 1's actions in
#   player 1's walk.
# - The count under the controls adds both walks of an iteration: exactly what `cfrviz.solve`
#   reports as `nodes_touched` for that iteration and seed.
#
# ### Exercise 2 — write chance sampling
#
# Chance sampling is the first Monte Carlo CFR (Zinkevich et al. already dealt their poker hands
# this way). It is lesson 04's CFR walk with **one** change: at a chance node the walk deals a
# single outcome, drawn with chance's probabilities, and follows it with the reaches
# **unchanged**. Both players' actions are all tried, the regrets weighted by the opponent's reach,
# the strategy sums by the traverser's own. Chance's $p$ disappears from the weight because a deal
# of probability $p$ is walked in a fraction $p$ of the iterations: in section 2's terms,
# $p(z)/q(z) = 1$.
#
# Your function gets the `tree`, the `node`, the traverser `player` (0 or 1), `own_reach` and
# `opponent_reach` (the node's reaches), `strategy` (every set's current strategy, one row per
# set: read it only), the tables `regret_sum` and `strategy_sum` (add to them in place), and
# `draw`: `draw(node, probabilities)` returns the index of the outcome drawn. Return the node's
# value for `player`. Useful pieces: `tree.player[node]` (0, 1, `CHANCE` or `TERMINAL`),
# `tree.children[node]`, `tree.chance_prob[children]`, `tree.infoset[node]`,
# `tree.utility[node, player]`; a table's row is as wide as the widest set: take
# `[:len(children)]` of it.
#
# The checker runs your walk beside the package's on Kuhn and Leduc poker with the same deals
# (each node has its own random number, so the order of your actions does not matter), then
# trains it 2,000 iterations on Kuhn poker and compares with
# `cfrviz.solve(kuhn, "chance_sampling", 2000, seed=0)`. (Solution:
# `%load solutions/06_chance_sampling.py`.)

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
# Once your walk passes, the next cell puts the exploitability of its average beside
# `cfrviz.solve`'s (same deals) and vanilla CFR's, with the nodes each has entered.

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
# Your walk and the compiled solver agree to every digit: they dealt the same cards. Compare CFR at
# 100 iterations with chance sampling at 1,000: fewer nodes, and still ahead. On a game as small
# as Kuhn poker CFR wins even for equal work; sampling pays where one walk of the whole tree is out
# of reach (lesson 07 compares the samplers on the work they do).
#
# ## 4 · External sampling, line by line
#
# External sampling is the sampler most later work builds on (Deep CFR among others). Call the
# player being updated the **traverser** $i$. One walk for $i$, with $R$ the cumulative regrets
# and $S$ the strategy sums:
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
# - **Lines 2–4.** A leaf returns its payoff; chance is *sampled*, one outcome drawn as often as
#   chance plays it.
# - **Lines 5–9.** At a decision node the strategy is regret matching, as in CFR. At the
#   opponent's node the walk adds the opponent's current strategy to its strategy sum (lesson 07
#   explains why this, unweighted, is the right average), then draws *one* action and follows it.
# - **Lines 10–11.** At its own node the traverser tries *every* action: a regret compares each
#   action with the strategy.
# - **Line 12.** CFR's update (lesson 03) multiplied the difference by $\pi_{-i}(h)$, chance's and
#   the opponent's reach. Here **nothing** multiplies it, and nothing divides it by a sampling
#   probability: section 7 shows why.
#
# One iteration runs `WALK(root, 1)` and then `WALK(root, 2)`.
#
# ## 5 · Exercise 3 — write external sampling
#
# Write the walk of section 4. Your function gets the `tree`, the `node`, the traverser `player`,
# the tables `regret_sum` and `strategy_sum` (update them in place) and `draw`, called wherever the
# walk samples; it returns the node's sampled value for `player`. Exercise 2's pieces serve again,
# with `tree.legal_mask[info]` and `regret_matching(regrets, mask)` for the strategy.
#
# The checker runs your walk beside the package's on Kuhn and Leduc poker with the **same**
# draws (a random number fixed per node, as in exercise 2) and, if the tables differ, tries to name
# the mistake. (Solution: `%load solutions/06_external_sampling.py`.)

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
# ## 6 · The same, in readable Python
#
# The package keeps a plain Python version of the walk next to the compiled solver; the button
# shows it, to compare with yours.

# %%
ShowMe(listing(mccfr.external_sampling_walk), "Show me external_sampling_walk")

# %% [markdown]
# The lines follow the pseudocode, on lesson 03's tree arrays (`tree.player`, `tree.children`,
# `tree.infoset`, `tree.utility`). Random choices go through `draw(node, probabilities)`, which
# returns the index drawn; the package's `draw` reads the compiled solver's generator, and the
# loop tries actions last to first, in the compiled solver's order, so both draw the same numbers
# at the same nodes. Tables have one row per set, as wide as the widest: `[:k]` keeps the node's
# actions. The readable version and `cfrviz.solve` compute the very same run:

# %%
ITERATIONS = 200
compiled = cfrviz.solve(kuhn, "external_sampling", ITERATIONS, seed=0, checkpoints=[ITERATIONS])
readable = list(mccfr.external_sampling(kuhn, ITERATIONS, np.random.default_rng(0)))[-1]
gap = np.abs(compiled.cumulative_regret[-1] - readable["cumulative_regret"]).max()
print(f"after {ITERATIONS} iterations, largest difference in cumulative regrets: {gap:.1e}")

# %% [markdown]
# ## 7 · Why external sampling divides by nothing
#
# Section 2 divided what we see by the probability $q$ of sampling it. Where is the division here?
# Take a node $h$ of the traverser. CFR adds, over the nodes of the set,
#
# $$ r(I, a) = \sum_{h \in I} \pi_{-i}(h)\,\bigl(u_i(h a) - u_i(h)\bigr), $$
#
# where $\pi_{-i}(h)$ is the probability that chance and the opponent play to $h$. The walk tries
# all of the traverser's actions, so it reaches $h$ exactly when chance's and the opponent's draws
# lead there, with probability
#
# $$ q(h) = \pi_c(h)\,\pi_{\text{opp}}(h) = \pi_{-i}(h). $$
#
# The importance-weighted estimate is $\frac{\pi_{-i}(h)}{q(h)}\bigl(\tilde u(ha) - \tilde u(h)\bigr)$,
# and the fraction is exactly 1: CFR's weight and the $1/q$ **cancel**, and how *often* the walk
# comes to $h$ does the weighting. (Below $h$ the values $\tilde u$ are sampled too, right on
# average.)
#
# One walk for player 1, at the strategies after 5 iterations: for each leaf $z$ it reached, the
# probability of its draws beside chance's and player 2's reach of $z$:

# %%
early = cfrviz.solve(kuhn, "external_sampling", 5, seed=0, checkpoints=[5]).cumulative_regret[-1]
one_walk = sampled_terminals(kuhn, player=0, regret_sum=early, seed=1)
print("leaf      q(z), the walk's     chance's reach   player 2's reach   their product")
for z, q, c, o in zip(one_walk.histories, one_walk.sampled, one_walk.chance, one_walk.opponent):
    print(f"{z:8} {q:14.4f} {c:20.4f} {o:16.4f} {c * o:15.4f}")

# %% [markdown]
# The first column and the last agree, leaf by leaf. For the regrets *on average*, better than many
# seeds: a walk of Kuhn poker has a few dozen possible sequences of draws, so we run each once and
# weight it by its probability, the exact expected regret of one walk. Beside it, CFR's regret at
# the same strategies, and the expectation of a walk that divides by $q$ anyway:

# %%
exact = counterfactual_regrets(kuhn, 0, early)
expected, _ = expected_update(kuhn, "external_sampling", 0, early)
divided, _ = expected_update(kuhn, "external_sampling", 0, early, walk=check.divides_by_q)
print("player 1's regret of b (bet; after p-b, call):")
print("set    CFR's regret   expected, external sampling   expected, divided by q")
for i in np.flatnonzero(kuhn.infoset_player == 0):
    print(f"{kuhn.infoset_keys[i]:5} {exact[i, 1]:+12.4f} {expected[i, 1]:+25.4f} "
          f"{divided[i, 1]:+24.4f}")
print("largest gap, external sampling against CFR:", f"{np.abs(expected - exact).max():.1e}")

# %% [markdown]
# External sampling's expected regret *is* CFR's, to rounding. Dividing by $q$ removes the weight
# the sampling frequency supplied: every history counts the same, however unlikely. The regrets
# come out too large, and not by one common factor (compare the sets' ratios), so the strategies
# change too.

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
#   weight and no division.
#
# Lesson 07: why the unweighted sum on line 8 is the right average, what outcome sampling divides
# by, and what the noise costs.
#
# **Read more.** M. Lanctot, K. Waugh, M. Zinkevich and M. Bowling, *Monte Carlo Sampling for Regret
# Minimization in Extensive Games*, NIPS 2009 — external and outcome sampling, and the proof that
# sampled regrets still lead to equilibrium. M. Zinkevich, M. Johanson, M. Bowling and C. Piccione,
# *Regret Minimization in Games with Incomplete Information*, NIPS 2007 — whose poker experiments
# already sampled the deal (chance sampling).
#
# Previous: [05 · Best response and exploitability](05_best_response.ipynb). Next: [07 · Sampling in practice: averages, outcomes and cost](07_sampling_in_practice.ipynb).
