# %%
# Source of lessons/09_frontier.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 09 · The frontier of tabular solving: predictions, last iterates, three players
#
# **Goals.** By the end of this lesson you can
# - say what *predictive* regret matching adds to CFR+, and why a good guess of the next regret
#   speeds it up;
# - race CFR+, DCFR, PCFR+ and PDCFR+ fairly, against iterations and against seconds, and say
#   where the 2019 method still wins;
# - tell the *average* strategy from the *last iterate*, and see a method built so that the last
#   iterate itself converges (magnetic mirror descent);
# - say what CFR still guarantees with three players, and what it no longer does, in numbers
#   (three-player Kuhn poker).
#
# **You need** lesson 08 (CFR+, linear CFR, DCFR, the current strategy). About {{minutes}} minutes.
#
# Previous: [08 · Faster CFR](08_faster_cfr.ipynb). Next: [10 · Scaling up](10_scaling_up.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import cfrviz
from cfrviz.exercises import predictive as check_pred
from cfrviz.solvers.registry import algorithm
from cfrviz.views.compare import exploitability_at, iterates_figure, log_checkpoints
from cfrviz.views.multiplayer import deviation_figure
from cfrviz.widgets.compare import ComparisonView

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %%
kuhn = cfrviz.load_game("kuhn_poker")
leduc = cfrviz.load_game("leduc_poker")
LABELS = {"cfr+": "CFR+", "dcfr": "DCFR", "pcfr+": "PCFR+", "pdcfr+": "PDCFR+"}

# %% [markdown]
# ## 1 · Guess the next regret
#
# Lesson 08 ended in 2019, with CFR+ and DCFR. Every method there *reacts*: at iteration $t$ it
# plays regret matching on the regrets it has collected so far, $R^{t-1}$, and only then learns
# this iteration's regrets $r^t$. If the regrets change slowly from one iteration to the next,
# the last regrets $r^{t-1}$ are a good guess of the coming ones. **Predictive regret matching+**
# (Farina, Kroer and Sandholm, 2021) plays as if the guess had already come true:
#
# $$ \sigma^t(I) \;\propto\; \bigl[\,R^{t-1}(I) + m^t(I)\,\bigr]^+ , \qquad m^t(I) = r^{t-1}(I), $$
#
# uniform where nothing is positive. After the iteration, the cumulative regrets are updated as in
# CFR+, $R^t = [R^{t-1} + r^t]^+$: the guess changes what is *played*, never what is *stored*.
# Run inside CFR with alternating updates, and with an average that weighs iteration $t$ by $t^2$,
# this is **PCFR+**. Two things it keeps from CFR+ are the floor at zero and the alternation; the
# quadratic average trusts late iterations even more than CFR+'s linear one.
#
# **PDCFR+** (Xu et al., 2024) adds DCFR's discount to PCFR+: after iteration $t$ the floored
# regrets are multiplied by $t^\alpha / (t^\alpha + 1)$ (the paper uses $\alpha = 2.3$) and the
# strategy sum by $(t / (t + 1))^\gamma$ with $\gamma = 5$.
#
# Both are registered like every other algorithm, with their papers:

# %%
for name in ("cfr+", "dcfr", "pcfr+", "pdcfr+"):
    entry = algorithm(name)
    settings = ", ".join(f"{p.name}={p.default}" for p in entry.params)
    print(f"{entry.label:7} {entry.summary}\n        ({settings})\n        {entry.paper}\n")

# %% [markdown]
# **Predict** before the race below: on Kuhn poker, after 100 iterations, how far apart will
# CFR+'s and PCFR+'s average strategies be in exploitability — about the same, 3 times, or 20
# times? And on Leduc poker after 2,000 iterations, will the 2021 method beat the 2019 one (DCFR)?

# %% [markdown]
# ### Exercise 1 — write predictive regret matching+
#
# Everything PCFR+ adds to CFR+ happens in a few lines, right after a player's pass. Suppose the
# pass at iteration $t$ has just given the regrets $r^t$ of one player's information sets. Then
#
# 1. the cumulative regrets are updated exactly as in CFR+: $R^t = [R^{t-1} + r^t]^+$ (add,
#    then floor at zero);
# 2. the strategy those sets play next is regret matching on the *new* sum plus the guess that
#    the next regrets will look like these: $\sigma^{t+1} \propto [R^t + r^t]^+$, uniform over the
#    legal actions where no entry is positive. The guess is used for playing only; it is not
#    stored;
# 3. iteration $t$'s strategy enters the average with weight $t^2$.
#
# Write `my_predictive_step(regret_sum, regret, legal_mask, t)`. It receives one player's rows
# only (one row per information set of that player, one column per action, illegal actions
# marked `False` in `legal_mask` and 0 in the two tables) and returns three things:
# `(new regret_sum, strategy to play next, weight)`, leaving the arrays it is given as they were.
# The rest of the iteration (the passes,
# alternating between the players, and adding `weight` times the reach-weighted strategy to the
# average) is done for you.
#
# The checker records every iteration of `cfrviz.solve(game, "pcfr+")` on Kuhn poker (50
# iterations) and Leduc poker (10 iterations), and calls your function for player 1's sets, then player 2's,
# at each iteration, with that run's regrets and your own regret_sum from the call before. After
# every call it compares your regrets and your strategy with the run's, and after every
# iteration your average with the run's. Code that computes in single precision (float32)
# passes; any fixed multiple of $t^2$ gives the same average and passes too.
# (Solution: `%load solutions/09_predictive_rm.py`.)

# %% tags=["exercise-predictive-rm"]
import numpy as np


def my_predictive_step(regret_sum, regret, legal_mask, t):
    """PCFR+'s step for one player's sets after its pass at iteration t (1, 2, ...).

    Returns (new regret_sum, strategy to play next, weight of iteration t in the average).
    """
    raise NotImplementedError  # replace this line with your code

# %%
verdict = check_pred.check_predictive_step(my_predictive_step)
verdict

# %% [markdown]
# **What you just wrote.** The checker fed your function the regrets of cfrviz's own run. Now
# let it drive a whole solver: below, your step is the only PCFR+ code, and the passes are the
# reference's `cfr_pass`, so the regrets your strategies earn feed your next step. The table
# compares the exploitability of your average with cfrviz's PCFR+ and with CFR+, on Kuhn poker.

# %%
if verdict.correct:
    yours = check_pred.run_your_step(my_predictive_step, kuhn, 200)
    print(f"{'iteration':>9}  {'your PCFR+':>10}  {'cfrviz PCFR+':>12}  {'CFR+':>8}")
    for t in (1, 10, 50, 100, 200):
        print(f"{t:>9}  {yours['yours'][t - 1]:>10.2e}  {yours['pcfr+'][t - 1]:>12.2e}  "
              f"{yours['cfr+'][t - 1]:>8.2e}")
    gap = yours["gap"].max()
    print("largest gap between your average strategy and cfrviz's: "
          + (f"zero up to rounding ({gap:.1e})" if gap < 1e-12 else f"{gap:.1e}"))
else:
    print("Once the checker above says your step is right, run this cell again.")

# %% [markdown]
# With the step right, your solver *is* cfrviz's PCFR+: on Kuhn poker the two averages agree
# at every one of the 200 iterations, up to rounding.
#
# Your step changed **two** things in CFR+: the `+ regret` in what is played, and the weight
# $t^2$ instead of $t$ in the average. Which one buys the speed? Run CFR+ with each change
# alone, and with both (the two middle rows are neither published method):

# %%
changes = check_pred.two_changes(kuhn, (100, 200, 1000))
print(f"{'Kuhn poker, exploitability after':34}" + "".join(f"{t:>10,}" for t in (100, 200, 1000)))
for label, values in changes.items():
    print(f"{label:34}" + "".join(f"{v:10.1e}" for v in values))
plain, square, predicted, both = (values[1] for values in changes.values())
print(f"\nat 200 iterations, against CFR+: prediction alone {plain / predicted:.1f} times lower, "
      f"t² average alone {square / plain:.1f} times higher, both {plain / both:.0f} times lower")

# %% [markdown]
# Neither change alone gives the hundredfold gain. The prediction alone makes CFR+ several
# times better. The $t^2$ average alone makes it *worse*: it trusts the late iterations even
# more than CFR+ does, and CFR+'s late iterations are not yet good enough to deserve it.
# Together they compound: with the prediction the late iterations are good, and the $t^2$
# average forgets the early, poor ones faster.

# %% [markdown]
# ## 2 · The race
#
# Four runs on each game, 2,000 iterations each, exploitability recorded at 60 checkpoints.
# The toggle above each chart switches the x axis between iterations, nodes touched and solver
# seconds (all four walk the whole tree, so nodes are iterations times a constant).

# %%
RACE = 2_000
RACERS = ("cfr+", "dcfr", "pcfr+", "pdcfr+")
races = {game.name: [cfrviz.solve(game, name, RACE, checkpoints=log_checkpoints(RACE, 60))
                     for name in RACERS]
         for game in (kuhn, leduc)}
ComparisonView(races["kuhn_poker"], labels=[LABELS[n] for n in RACERS], axis="iterations")

# %%
ComparisonView(races["leduc_poker"], labels=[LABELS[n] for n in RACERS], axis="iterations")

# %% [markdown]
# The numbers behind the charts, read at a few budgets (exploitability of the average strategy):

# %%
BUDGETS = (30, 100, 300, 1000, 2000)
for game_name, runs in races.items():
    print(f"{game_name}: iterations " + "".join(f"{b:>10,}" for b in BUDGETS) + "    μs/iteration")
    for run in runs:
        per = 1e6 * run.extras["total_time"] / RACE
        print(f"  {LABELS[run.algorithm]:8}          "
              + "".join(f"{exploitability_at(run, b, 'iterations'):10.1e}" for b in BUDGETS)
              + f"   {per:11.1f}")
    leader = min(runs, key=lambda run: run.exploitability[-1]).algorithm
    print(f"  lowest after {RACE:,} iterations: {LABELS[leader]}\n")

# %% [markdown]
# Read it against your prediction. On Kuhn poker the predictive methods are in another league:
# around iteration 100, PCFR+'s average is 20 to 60 times closer to equilibrium than CFR+'s (CFR+'s
# jumps between about $6 \times 10^{-4}$ and $1.5 \times 10^{-3}$ from one iteration to the next,
# so the factor depends on the exact iteration), and PDCFR+ is near $10^{-13}$, the limits of
# floating-point arithmetic, after 1,000. On Leduc poker the order turns around: DCFR, from 2019,
# is ahead of both predictive methods after 2,000 iterations, and CFR+ comes second. The PCFR+
# paper itself reported the same kind of split: much faster on most of its 18 games, while DCFR
# stays ahead on some poker games. A prediction helps exactly as much as the last regrets
# resemble the next ones, and two games as alike as Kuhn and Leduc poker already differ in that:
# a race on your own game is the only way to know.
#
# The last column (microseconds per iteration on this machine) shows that the prediction is
# nearly free: it is one addition per action when the strategy is computed. Switch the charts to
# *solver seconds* to see that the order does not change.
#
# **A fair race** runs each method as published (PCFR+'s quadratic average, DCFR's and PDCFR+'s
# exponents), on the same games, with the same measure of progress. One more thing changes the
# verdict: *which* strategy you measure. So far it was the average.

# %% [markdown]
# ## 3 · The average, and the last iterate
#
# Regret minimisation promises that the **average** strategy converges. The strategy actually
# played at iteration $t$, the **current** strategy or *last iterate*, need not: for vanilla CFR it
# circles around the equilibrium for ever. Why care? Because the average has to be stored (one more
# table) and, with function approximation as in Deep CFR (lesson 13), it is hard to form at all: a
# method whose last iterate converges needs neither.
#
# In the chart, each colour is one run; the solid line is its average and the dotted line its
# current strategy, both measured at the same iterations.

# %%
iterates_figure(races["kuhn_poker"], labels=[LABELS[n] for n in RACERS],
                title="Kuhn poker: average (solid) and current (dotted) strategies")

# %% [markdown]
# CFR+'s and DCFR's current strategies stall around $10^{-2}$, far above their averages. PCFR+'s
# and PDCFR+'s current strategies fall *with* the averages, and on Kuhn poker they stop at exact
# equilibria: a dotted line that ends means the exploitability reached zero (to the last bit),
# which a log axis cannot draw. The printout gives the first checkpoint where that happens:

# %%
for run in races["kuhn_poker"]:
    exact = [t for t, e in zip(run.iterations, run.current_exploitability) if e <= 1e-15]
    print(f"{LABELS[run.algorithm]:8} current strategy exact from iteration "
          f"{exact[0] if exact else 'never (in 2,000)'}")

# %%
iterates_figure(races["leduc_poker"], labels=[LABELS[n] for n in RACERS],
                title="Leduc poker: average (solid) and current (dotted) strategies")

# %% [markdown]
# On Leduc poker no current strategy is anywhere near exact after 2,000 iterations, the predictive
# ones included: that they settled on Kuhn poker is an observation about one small game, not a
# guarantee. Methods with a guarantee for the last iterate change the problem itself, as the next
# section shows.
#
# ## 4 · A method built for the last iterate: magnetic mirror descent
#
# Regret matching chases the best action; near an equilibrium the best action keeps changing, and
# the strategy circles. **Magnetic mirror descent** (MMD; Sokota et al., 2023) damps the circling
# with two pulls. At each information set it takes a small step toward the actions that are worth
# more (step size $\eta$), and it is pulled, with weight $\alpha$, toward a fixed strategy, the
# *magnet*:
#
# $$ \sigma^{t+1}(I) \;\propto\; \Bigl[\sigma^t(I)\; \rho(I)^{\eta\alpha}\; e^{\eta\, q^t(I)}\Bigr]^{1/(1+\eta\alpha)} , $$
#
# one softmax per set, where $q^t(I)$ are the action values against the other player's current
# strategy. That is the whole step at a set with no decision of its player below it; higher up,
# the log-normaliser of each softmax below is added to $q$, so the *dilated* entropy turns the
# whole tree into one mirror-descent step, computed from the deepest sets up. With
# a fixed magnet $\rho$, the current strategy converges, but to a *regularised* equilibrium: a
# strategy that trades a little value for staying close to the magnet. To reach a Nash
# equilibrium, reset the magnet to the current strategy every few iterations (Abe et al., 2024),
# so that the pull points at ever better strategies.
#
# **Predict:** with a fixed magnet, will MMD's current strategy on Kuhn poker reach zero
# exploitability? With the magnet reset every 50 iterations?

# %%
MMD_ITERATIONS = 5_000
mmd_runs = [cfrviz.solve(kuhn, "mmd", MMD_ITERATIONS, magnet_every=every,
                         checkpoints=log_checkpoints(MMD_ITERATIONS, 60))
            for every in (0, 50)]
kuhn_long = [cfrviz.solve(kuhn, name, MMD_ITERATIONS,
                          checkpoints=log_checkpoints(MMD_ITERATIONS, 60))
             for name in ("cfr+", "pcfr+")]
iterates_figure(kuhn_long + mmd_runs,
                labels=["CFR+", "PCFR+", "MMD, fixed magnet", "MMD, magnet reset every 50"],
                title="Kuhn poker: average (solid) and current (dotted) strategies")

# %%
for run, label in zip(mmd_runs, ("fixed magnet", "magnet reset every 50")):
    print(f"MMD, {label:22} current {run.current_exploitability[-1]:9.2e}   "
          f"average {run.exploitability[-1]:9.2e}   after {MMD_ITERATIONS:,} iterations")

# %% [markdown]
# With a fixed magnet the current strategy levels off at about $10^{-2}$: that is the distance
# from the regularised equilibrium to a Nash equilibrium, and waiting does not shrink it. With the
# magnet reset, the current strategy goes to zero, and faster than the *average* of the same run,
# which still carries its early iterations. On Leduc poker the same setting converges, but slowly
# (we measured about 0.026 after 10,000 iterations, where CFR+'s average is below $10^{-4}$):
# guaranteed last-iterate convergence is not yet fast convergence, and tuning $\eta$ and
# $\alpha$ per game matters. The registry lists its parameters:

# %%
print(algorithm("mmd").summary)
for param in algorithm("mmd").params:
    print(f"  {param.name:12} default {param.default!s:6} {param.help}")

# %% [markdown]
# ## 5 · Three players
#
# Everything so far was two-player zero-sum, where the theorem is simple: if both players' regrets
# vanish, their *average strategies* form a Nash equilibrium. With three players, regret
# minimisation still makes each player's regret vanish, but that now says something about the
# **joint play**: the list of strategy profiles $(\sigma^1, \dots, \sigma^T)$ played, taken as
# one correlated distribution. A player's regret compares what it got against that list with the
# best *single* strategy against the same list. So vanishing regrets mean that the joint play
# approaches a **coarse correlated equilibrium** (CCE): no player wants to leave it before seeing
# its draw. They say nothing about the profile of the three *average* strategies, which is what
# you would actually play. Nash is not promised there.
#
# Three-player Kuhn poker (OpenSpiel's version: four cards, each player antes 1) is small enough to
# measure both exactly:
#
# - each player's **gain from deviating** alone from the average profile (a best response to the
#   other two averages, minus the value of the profile): all three are zero exactly at a Nash
#   equilibrium;
# - the **CCE gap** of the joint play: the largest player regret per iteration, computed exactly
#   by a best response against the others' reach summed over all iterations.
#
# The guarantee is for **simultaneous** updates: all three players update against the same
# profile, and the joint play is the list of those profiles. cfrviz's default alternates (each
# player updates against the others' *new* strategies), which is usually faster but means each
# player's regret is measured against profiles other than the one recorded at the start of the
# iteration; the theorem then does not cover the gap of that recorded list. So this run uses
# `alternating=False`.
#
# **Predict:** after 10,000 iterations of vanilla CFR, will the average profile be close to a
# Nash equilibrium, even though nothing guarantees it?

# %%
kuhn3 = cfrviz.load_game("kuhn_poker_3p")
print(f"{kuhn3.name}: {kuhn3.num_players} players, {kuhn3.num_nodes} nodes, "
      f"{len(kuhn3.infoset_keys)} information sets")
THREE = 10_000
three = cfrviz.solve(kuhn3, "cfr", THREE, alternating=False,
                     checkpoints=log_checkpoints(THREE, 40))
deviation_figure(three)

# %%
gains = three.extras["deviation_gains"]
print("iteration   gain P1    gain P2    gain P3    CCE gap")
for k in range(9, len(three), 9):
    print(f"{three.iterations[k]:9,}  " + "  ".join(f"{g:9.2e}" for g in gains[k])
          + f"  {three.extras['cce_gap'][k]:9.2e}")
values = cfrviz.deviation_gains(kuhn3, three.average_policy())
print("gains of the final average profile, recomputed:", ", ".join(f"{g:.2e}" for g in values))
tenfold = [k for k, t in enumerate(three.iterations) if t >= THREE / 10][0]
print(f"from iteration {three.iterations[tenfold]:,} to {THREE:,}: the CCE gap falls "
      f"{three.extras['cce_gap'][tenfold] / three.extras['cce_gap'][-1]:.1f} times, the largest "
      f"gain {gains[tenfold].max() / gains[-1].max():.1f} times")

# %% [markdown]
# Both kinds of number keep falling (the last line gives the factors between the last two
# rows), so on this game CFR's average profile does end up close to a Nash equilibrium.
# That is a measurement on one small game, not a theorem: the guarantee covers only the CCE
# gap, the last column, and only because the updates were simultaneous. This is the
# situation of Pluribus (lesson 12), which played six-player poker with a strategy computed by a
# Monte Carlo CFR variant: no theory promised a Nash equilibrium, and the program was judged by
# how much it won against professionals instead.
#
# Some things have no three-player meaning at all, and cfrviz refuses them with the reason:

# %%
try:
    cfrviz.exploitability(kuhn3, three.average_policy())
except ValueError as error:
    print("ValueError:", error)

# %% [markdown]
# ## Summary
#
# - **PCFR+** plays regret matching+ on the cumulative regrets *plus a prediction* of the next
#   ones, the last regrets seen; it stores the same floored regrets as CFR+ and averages with
#   weights $t^2$. **PDCFR+** adds DCFR's discounts.
# - Raced as published, the predictive methods win by orders of magnitude on Kuhn poker, while on
#   Leduc poker DCFR (2019) is still ahead at 2,000 iterations: measure on your game before you
#   choose.
# - The **average** strategy is what regret minimisation guarantees. The **current** strategy of
#   CFR+ and DCFR does not converge; PCFR+'s happened to on Kuhn poker, not on Leduc.
# - **MMD** with dilated entropy makes the current strategy converge: to a regularised equilibrium
#   with a fixed magnet, to a Nash equilibrium when the magnet is reset to the current strategy.
# - With **three players** and simultaneous updates, vanishing regrets make the *joint play*
#   approach a coarse correlated equilibrium; the average profile has no Nash guarantee. On three-player Kuhn poker CFR's
#   average still comes close to one, which we measured rather than assumed.
# - Every method here solves the whole game before play starts. The programs that beat
#   professionals also solved *during* play, the part of the game they were in, over public
#   states and ranges, and safely: [14 · Solving while playing](14_solving_while_playing.ipynb)
#   shows how, on Leduc poker.
#
# **Read more.** G. Farina, C. Kroer and T. Sandholm, *Faster Game Solving via Predictive
# Blackwell Approachability: Connecting Regret Matching and Mirror Descent*, AAAI 2021 — PCFR+.
# H. Xu, K. Li, B. Liu, H. Fu, Q. Fu, J. Xing and J. Cheng, *Minimizing Weighted Counterfactual
# Regret with Optimistic Online Mirror Descent*, IJCAI 2024 — PDCFR+. N. Brown and T. Sandholm,
# *Solving Imperfect-Information Games via Discounted Regret Minimization*, AAAI 2019 — DCFR.
# S. Sokota, R. D'Orazio, J. Z. Kolter, N. Loizou, M. Lanctot, I. Mitliagkas, N. Brown and
# C. Kroer, *A Unified Approach to Reinforcement Learning, Quantal Response Equilibria, and
# Two-Player Zero-Sum Games*, ICLR 2023 — MMD. K. Abe, K. Ariu, M. Sakamoto and A. Iwasaki,
# *Adaptively Perturbed Mirror Descent for Learning in Games*, ICML 2024 — resetting the magnet.
#
# Previous: [08 · Faster CFR](08_faster_cfr.ipynb). Next: [10 · Scaling up](10_scaling_up.ipynb).
