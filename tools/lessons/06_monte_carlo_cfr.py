# Source of lessons/06_monte_carlo_cfr.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 06 · Sampling: Monte Carlo CFR
#
# **Goals.** By the end of this lesson you can
# - say what one iteration of CFR costs, and count it in nodes;
# - describe what *chance*, *external* and *outcome sampling* sample, and watch what each one walks;
# - explain why dividing by the probability of a sample keeps the regrets *unbiased*;
# - read external sampling line by line, say why it needs **no** division by a probability, and
#   write it yourself;
# - explain *stochastically-weighted averaging*, and why outcome sampling must explore;
# - see the price of sampling: noise, and results that depend on the seed;
# - compare algorithms honestly, on the work they do (nodes touched) rather than on iterations.
#
# **You need** lessons 03–05: counterfactual regret, the recursive walk of CFR, CFR on Kuhn poker,
# exploitability. About {{minutes}} minutes.
#
# Previous: [05 · Best response and exploitability](05_best_response.ipynb). Next: [07 · Faster CFR](07_faster_cfr.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import math

import numpy as np

import cfrviz
from cfrviz.exercises import lesson06 as check
from cfrviz.analysis.sampling import (AVERAGING, averaging_weights,
                                      counterfactual_regrets, expected_update,
                                      external_sampling_variant, first_iteration_regrets,
                                      nodes_per_iteration, sampled_terminals)
from cfrviz.core.regret import regret_matching
from cfrviz.reference.mccfr import (external_sampling, external_sampling_walk,
                                   outcome_sampling_walk)
from cfrviz.views.compare import (comparison_figure, exploitability_at, log_checkpoints,
                                  regret_estimates_figure)
from cfrviz.views.listing import listing
from cfrviz.widgets.compare import ComparisonView
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
# the traverser's part of the factors $1/q$, $1/q_i$, stays bounded (the opponent's and chance's
# parts need no bound: section 8 shows why). External sampling's name says what it samples: everything
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
#   the opponent's strategy sum (section 7 explains why this, unweighted, is the right average),
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
# The package keeps a plain Python version next to the compiled solver. Exercise 3 (end of
# section 7) asks you to write this walk yourself, so the listing is behind a button: try the
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
# ## 7 · Stochastically-weighted averaging
#
# Regret matching's *current* strategies do not converge; their **average** does, and lesson 04's
# average weights each iteration by the player's own reach of the set:
# $\bar\sigma(I) \propto \sum_t \pi_i^{t}(I)\,\sigma^t(I)$. External sampling never computes
# $\pi_i(I)$. It doesn't need to: in the walk that updates the *other* player, player $i$ is the
# opponent, its actions are drawn, and the walk comes to a node $h$ of $i$ with probability
# $\pi_c(h)\,\pi_i(h)$. Adding $\sigma(I)$ **unweighted** each time (line 8) therefore adds, on
# average, $\pi_c(I)\,\pi_i(I)\,\sigma(I)$: the right weight times chance's probability of $i$'s
# cards, which is the same every iteration and drops out of the average. The weighting happens by
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
# ### Exercise 3 — write external sampling
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
# ## 8 · Outcome sampling: divide, and explore
#
# Outcome sampling samples the traverser's actions too, so each walk is a single path from the root
# to one leaf $z$. Now the cancellation of section 6 cannot happen: the walk reaches $z$ with a
# probability $q(z)$ that includes the traverser's own choices, and the estimate must divide by it.
# At a node $h$ of the traverser on the path, with $a$ the action taken there, the estimated value
# of the action is
#
# $$ \tilde v(I, a) = \frac{\pi_{-i}(h)\;\pi^\sigma(z \mid h a)\;u_i(z)}{q(z)}, $$
#
# and $\tilde v(I, b) = 0$ for the actions $b$ not taken. $\pi^\sigma(z \mid h a)$, the **tail
# reach**, is the probability that everybody's strategies lead from $h a$ to $z$; it turns the
# payoff at $z$ into a value of $h a$. The regret of action $b$ is then
# $\tilde v(I, b) - \sum_c \sigma(I, c)\,\tilde v(I, c)$. The readable version builds these products
# one level at a time on the way back up (`sampled = below / explore[a]` divides by the probability
# of the draw, `value = sigma[a] * sampled` multiplies by the strategy's):

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
# $\pi^\sigma(z \mid h a)$ above it and cancel, as in section 6. (So the opponent needs no
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
# ## 9 · Noise you can watch
#
# The explorer from lesson 04 runs any of these algorithms. Here it runs external sampling on Kuhn
# poker. Pick an information set (say `Jpb`, player 1 holding the jack after check–bet) and compare
# its regret chart with what you saw for vanilla CFR: the lines now zig-zag, because every iteration
# adds a noisy estimate. Switch the **x axis** of the bottom chart to *nodes touched*, try outcome
# sampling, or a few seeds, and press **Solve**.

# %%
cfrviz.explore(kuhn, "external_sampling", iterations=2000, seed=0, infoset="Jpb")

# %% [markdown]
# ## 10 · Seeds
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
# ## 11 · The honest comparison
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
# - External sampling tries every action of the player it updates and draws everything else. The
#   probability of reaching a node equals the weight CFR gives it, so its regrets carry **no**
#   weight and no division.
# - Its average is **stochastically weighted**: the opponent's current strategy, unweighted, at the
#   opponent's sampled nodes. Being sampled in proportion to its own reach gives each iteration the
#   right weight; adding elsewhere or multiplying by a reach biases the average, and not averaging
#   at all does not converge.
# - Outcome sampling divides by the probability $q(z)$ of the sampled path and **explores**
#   ($\varepsilon$), so that every action keeps a positive probability of being sampled.
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
