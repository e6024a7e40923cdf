# %%
# Source of lessons/08_faster_cfr.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 08 · Faster CFR: CFR+, linear CFR and discounted CFR
#
# **Goals.** By the end of this lesson you can
# - name the two habits that slow vanilla CFR down: it never forgets its early, bad iterations,
#   and it lets negative regrets pile up;
# - write the update rules of **CFR+**, **linear CFR** and **discounted CFR** (DCFR), turn CFR into
#   CFR+ in code, and compute DCFR's discount factors by hand;
# - compare the variants on the same budget, and tune DCFR's three parameters with sliders;
# - say why CFR+'s *current* strategy is worth looking at, when vanilla CFR's is not.
#
# **You need** lessons 03–05 (CFR, exploitability); lesson 07's point about comparing on the same
# work helps. About {{minutes}} minutes.
#
# Previous: [07 · Sampling in practice: averages, outcomes and cost](07_sampling_in_practice.ipynb). Next: [09 · The frontier of tabular solving: predictions, last iterates, three players](09_frontier.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
from IPython.display import display

import cfrviz
from cfrviz.exercises import lesson08 as check
from cfrviz.exercises import unanswered
from cfrviz.views.compare import comparison_figure, exploitability_at, log_checkpoints
from cfrviz.views.style import in_dashboard
from cfrviz.widgets.compare import ComparisonView
from cfrviz.widgets.discount import DiscountExplorer

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · Where vanilla CFR loses time
#
# Vanilla CFR keeps two running sums per information set $I$ and action $a$: the cumulative regret
# and the strategy sum behind the average,
#
# $$ R^T(I,a) = \sum_{t=1}^{T} r^t(I,a), \qquad \bar\sigma^T(I) \propto \sum_{t=1}^{T} \pi_i^{t}(I)\, \sigma^t(I), $$
#
# where $r^t$ is iteration $t$'s counterfactual regret and $\pi_i^t(I)$ the player's own reach. Every
# iteration counts the same. That has two costs:
#
# 1. **The average remembers the beginning.** The first strategies are close to uniform and
#    terrible, yet after 1,000 iterations they still make up their full share of the average.
# 2. **Negative regrets pile up.** An action that did badly early collects a large negative
#    regret. Regret matching ignores it until enough *positive* regret has come in to cancel it,
#    so an action that has become good can stay unplayed for a long time.
#
# Each habit has its own repair, and CFR+ (section 2) makes both: weight iteration $t$ by $t$ in
# the average, and reset negative cumulative regrets to zero after every update. What does each
# repair buy *alone*? The next cell runs CFR on Leduc poker four times, changing one thing at a
# time: vanilla CFR; only the average weighted by $t$ (regrets exactly as vanilla); only the
# regrets floored at zero (average exactly as vanilla); both. It prints the exploitability of each
# run's average strategy.

# %%
leduc = cfrviz.load_game("leduc_poker")
at = (10, 100, 1000, 2000)
one_change = check.one_change_at_a_time(leduc, at)
print("iteration " + "".join(f"{name:>16}" for name in one_change))
for t in at:
    print(f"{t:>9,} " + "".join(f"{run[t]:>16.4f}" for run in one_change.values()))

# %% [markdown]
# Read the columns against the first one. Flooring the regrets alone helps: about half of vanilla's
# exploitability after 2,000 iterations. Weighting the average alone *hurts*: it ends about four
# times worse than vanilla. Forgetting the beginning pays only if the recent strategies are good.
# Vanilla CFR's current strategy stays poor and keeps jumping about (lesson 04): its average is good
# because many of those strategies cancel each other's errors, and weighting the recent ones more
# leaves fewer to cancel. With the floor the current strategies settle (section 5), and then the
# two changes together are far better than either: after 2,000 iterations the last column is about
# 80 times below the first.
#
# ## 2 · Three repairs
#
# **CFR+** (Tammelin, 2014) changes the regret sum into *regret matching+*: after each update,
# negative cumulative regrets are reset to zero,
#
# $$ R^{+,t}(I,a) = \max\big(R^{+,t-1}(I,a) + r^t(I,a),\; 0\big), $$
#
# so a good action comes back into play as soon as it starts earning regret. CFR+ also updates the
# players in turn (alternating updates, which our CFR uses too) and weights iteration $t$'s strategy
# by $t$ in the average.
#
# ### Exercise 1 — turn CFR into CFR+
#
# Here is one iteration of vanilla CFR, built from two helpers: `regret_matching(regret_sum,
# tree.legal_mask)` turns the cumulative regrets into a strategy, and `cfr_pass(tree, strategy,
# player)` walks the tree once (like lesson 03's `walk`) and returns two tables, one row per
# information set: this iteration's counterfactual regrets at `player`'s sets, and `player`'s strategy
# weighted by its own reach (what the average adds up).
#
# ```python
# def vanilla_cfr_iteration(tree, regret_sum, strategy_sum, t):
#     for player in (0, 1):  # player 2 plays against player 1's updated strategy
#         strategy = regret_matching(regret_sum, tree.legal_mask)
#         regret, weights = cfr_pass(tree, strategy, player)
#         regret_sum = regret_sum + regret
#         strategy_sum = strategy_sum + weights
#     return regret_sum, strategy_sum
# ```
#
# Write `my_cfr_plus_iteration`, the same iteration for CFR+ (`t` counts from 1). Like the code above,
# it returns new tables and leaves the ones it is given as they were. The checker runs it
# 30 times on Kuhn poker, starting from zero tables, and compares your regrets and average strategy
# after every iteration with `cfrviz.solve(kuhn, "cfr+")`; updating player 2 first is CFR+ too, and
# the checker accepts that order as well (lesson 04's checker does the same). (Solution:
# `%load solutions/08_cfr_plus_iteration.py`.)

# %% tags=["exercise-cfr-plus-iteration"]
import numpy as np

from cfrviz.core.regret import regret_matching
from cfrviz.reference.cfr import cfr_pass


def my_cfr_plus_iteration(tree, regret_sum, strategy_sum, t):
    """Iteration t (1, 2, ...) of CFR+: returns the new (regret_sum, strategy_sum)."""
    raise NotImplementedError  # replace this line with your code

# %%
check.check_cfr_plus_iteration(my_cfr_plus_iteration)

# %% [markdown]
# **Linear CFR** (Brown and Sandholm, 2019) keeps vanilla CFR's rules but weights iteration $t$ by
# $t$ in *both* sums: $R^T = \sum_t t\, r^t$ and $\bar\sigma^T \propto \sum_t t\, \pi_i^t \sigma^t$.
# Recent iterations count more; the first ones fade.
#
# **Discounted CFR** (DCFR, Brown and Sandholm, 2019) generalises both with three parameters.
# After iteration $t$ it multiplies
#
# $$ \text{positive regrets by } \frac{t^\alpha}{t^\alpha + 1}, \qquad \text{negative regrets by } \frac{t^\beta}{t^\beta + 1}, \qquad \text{the strategy sum by } \left(\frac{t}{t+1}\right)^{\gamma}. $$
#
# Linear CFR is DCFR with $\alpha = \beta = \gamma = 1$. From $t = 2$ on, a very large $\alpha$
# leaves positive regrets almost alone and a very negative $\beta$ almost wipes out negative ones
# after each iteration (close to CFR+'s floor). At $t = 1$ neither happens: $1^\alpha = 1^\beta = 1$,
# so both factors are $1/2$ whatever $\alpha$ and $\beta$ are, and the first iteration's regrets are
# halved either way. And $\gamma$ sets how fast the average forgets: iteration $k$'s strategy ends up weighted
# in proportion to $k^\gamma$. The paper recommends $\alpha = 1.5$, $\beta = 0$, $\gamma = 2$.
#
# ### Exercise 2 — the discount factors
# With the recommended $(\alpha, \beta, \gamma) = (1.5, 0, 2)$: by what factors does DCFR multiply
# the positive regrets, the negative regrets and the strategy sum after iteration $t = 4$?
# (Solution: `%load solutions/08_dcfr_discounts.py`.)

# %% tags=["exercise-dcfr-discounts"]
my_factors = None  # [positive regrets, negative regrets, strategy sum]

# %%
check.check_dcfr_discounts(my_factors)

# %% [markdown]
# The same factors at other iterations, computed by `cfrviz.analysis.variants.dcfr_discounts`:

# %%
from cfrviz.analysis.variants import dcfr_discounts

for t in (1, 2, 10, 100, 1000):
    positive, negative, average = dcfr_discounts(t, 1.5, 0.0, 2.0)
    print(f"t = {t:>4}: positive × {positive:.4f}   negative × {negative:.4f}   "
          f"strategy sum × {average:.4f}")

# %% [markdown]
# With $\beta = 0$ the negative regrets are halved after *every* iteration: whatever an action lost
# long ago is soon forgotten, which is CFR+'s repair done gently.
#
# ## 3 · Predict, then race
#
# All four variants walk the same tree in the same way, so one iteration costs each of them the same
# nodes (lesson 07): comparing them per iteration is fair here.
#
# ### Exercise 3 — who is ahead after 500 iterations?
# On Leduc poker, rank `"cfr"`, `"cfr+"`, `"linear_cfr"` and `"dcfr"` (with the recommended
# parameters) by the exploitability of their average strategy after **500 iterations**, lowest
# first. Decide before you run anything below. (Solution: `%load solutions/08_variant_ranking.py`.)

# %% tags=["exercise-variant-ranking"]
my_ranking = None  # e.g. ["cfr", "linear_cfr", "cfr+", "dcfr"], lowest exploitability first

# %%
check.check_variant_ranking(my_ranking)

# %% [markdown]
# Now the race itself, 2,000 iterations each on the same tree. Use the toggle to put nodes touched
# or seconds on the x axis instead.
# <span class="cfrviz-notebook-only">The race, the explorer of section 4 and the current strategies
# of section 5 all show the ranking, so each appears once `my_ranking` holds yours, right or
# wrong.</span>

# %%
VARIANTS = ("cfr", "cfr+", "linear_cfr", "dcfr")
marks = sorted(set(log_checkpoints(2000, 100)) | {500})
runs = {name: cfrviz.solve(leduc, name, 2000, checkpoints=marks) for name in VARIANTS}
if unanswered(my_ranking) and not in_dashboard():
    print("Rank the variants in exercise 3 first (any ranking will do), then run this cell "
          "again.")
else:
    for name, run in runs.items():
        print(f"{name:10} nodes touched {run.extras['nodes_touched'][-1]:>10,}   "
              f"exploitability after 500: {exploitability_at(run, 500, 'iterations'):.2e}   "
              f"after 2,000: {run.exploitability[-1]:.2e}")
    display(ComparisonView(list(runs.values()), axis="iterations"))

# %% [markdown]
# On the log–log chart a straight line is a power law, and a steeper line a faster one. Vanilla
# CFR's line is the flattest of the four: the variants that forget their beginnings fall faster.
#
# ## 4 · Tune DCFR yourself
#
# The widget below runs DCFR on Leduc poker with the sliders' $\alpha$, $\beta$, $\gamma$ and draws
# it (thick black line) beside CFR, CFR+ and linear CFR on the same number of iterations.
# The lower chart follows the sliders at once: how much each iteration still counts at the end of
# the run in the positive regrets, in the negative regrets and in the average (the last iteration
# counts 1). **Solve** re-runs DCFR. Things to try:
# - the preset *linear CFR (1, 1, 1)*: its line lands exactly on linear CFR's;
# - *close to CFR+ (5, −5, 1)* and *close to vanilla CFR (5, 5, 0)*;
# - $\gamma = 0$ (a plain average) with the recommended $\alpha$, $\beta$: how much of DCFR's lead
#   came from forgetting early strategies?
# - a large $\beta$: negative regrets kept for long, as in vanilla CFR.

# %%
if unanswered(my_ranking) and not in_dashboard():
    print("The explorer follows once exercise 3 holds your ranking; then run this cell again.")
else:
    display(DiscountExplorer(leduc, iterations=1000))

# %% [markdown]
# ## 5 · CFR+'s current strategy
#
# Vanilla CFR's current strategy never settles (lesson 04): only the average converges. CFR+'s
# current strategy behaves much better, which matters in practice: the average needs a second table
# as large as the regrets, and a strategy read straight off the regrets needs none. Compare the
# current strategies of the same runs:

# %%
if unanswered(my_ranking) and not in_dashboard():
    print("The current strategies follow once exercise 3 holds your ranking; then run this cell "
          "again.")
else:
    for name, run in runs.items():
        print(f"{name:10} current strategy after 2,000 iterations: "
              f"{run.current_exploitability[-1]:.2e}   (average: {run.exploitability[-1]:.2e})")
    display(comparison_figure(list(runs.values()), axis="iterations", current=True))

# %% [markdown]
# ## 6 · No variant wins everywhere
#
# The ranking depends on the game and on the budget. Here are the same four on Kuhn poker,
# 1,000 iterations each:

# %%
kuhn = cfrviz.load_game("kuhn_poker")
kuhn_final = {name: cfrviz.solve(kuhn, name, 1000, checkpoints=[1000]).exploitability[-1]
              for name in VARIANTS}
for name in sorted(kuhn_final, key=kuhn_final.get):
    print(f"{name:10} {kuhn_final[name]:.2e}")

# %% [markdown]
# Compare this order with Leduc's: vanilla CFR is last in both, but the best one changes. Brown and
# Sandholm chose the setting (1.5, 0, 2) because it did well across the games they tested, large
# no-limit hold'em subgames among them, which is why it is a common default; on your own game,
# test.
#
# ## Summary
#
# - Vanilla CFR weighs every iteration the same in its regrets and its average, and lets negative
#   regrets grow without bound.
# - **CFR+** floors cumulative regrets at zero and weights the average by $t$; its current strategy
#   is good too. The two changes need each other: on Leduc poker, weighting vanilla CFR's average
#   by $t$ alone made it worse.
# - **Linear CFR** weights iteration $t$ by $t$ in both sums.
# - **DCFR** multiplies positive regrets by $t^\alpha/(t^\alpha+1)$, negative ones by
#   $t^\beta/(t^\beta+1)$ and the strategy sum by $(t/(t+1))^\gamma$; $(1, 1, 1)$ is linear CFR,
#   $(1.5, 0, 2)$ the recommended setting.
# - These changes cost nothing per iteration and often gain orders of magnitude; which one wins
#   depends on the game, so compare them on the same budget.
#
# **Read more.** O. Tammelin, *Solving Large Imperfect Information Games Using CFR+*, arXiv:1407.5042,
# 2014. O. Tammelin, N. Burch, M. Johanson and M. Bowling, *Solving Heads-up Limit Texas Hold'em*,
# IJCAI 2015 — CFR+ at the scale of lesson 12's Cepheus. N. Brown and T. Sandholm, *Solving
# Imperfect-Information Games via Discounted Regret Minimization*, AAAI 2019 — linear CFR and DCFR.
#
# Previous: [07 · Sampling in practice: averages, outcomes and cost](07_sampling_in_practice.ipynb). Next: [09 · The frontier of tabular solving: predictions, last iterates, three players](09_frontier.ipynb).
