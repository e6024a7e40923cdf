# %%
# Source of lessons/01_regret_matching.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 01 · Regret matching on rock-paper-scissors
#
# **Goals.** By the end of this lesson you can
# - say what the *regret* of an action is and compute it for one round;
# - turn accumulated regrets into a strategy with *regret matching*;
# - explain why the *average* strategy settles on an equilibrium while the strategy played each round keeps circling;
# - measure how far a strategy is from equilibrium with *exploitability*;
# - predict the equilibrium of a lopsided rock-paper-scissors.
#
# **You need** a little Python and the idea of a probability. About {{minutes}} minutes.
# Previous: [00 · Start here](00_start_here.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import numpy as np

import cfrviz
from cfrviz.exercises import lesson01 as check
from cfrviz.exercises import sampled_rm as check_srm
from cfrviz.views.style import in_dashboard
from cfrviz.widgets import RegretMatchingExplorer

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · The game
#
# Two players show rock (R), paper (P) or scissors (S) at the same moment. Paper wraps rock, rock blunts
# scissors, scissors cut paper. The table gives **player 1's** winnings; player 2 wins exactly the negative
# (a *zero-sum* game). Rows are player 1's choice, columns player 2's.

# %%
game = cfrviz.load_game("rock_paper_scissors")
print("        vs R   vs P   vs S")
for label, row in zip("RPS", game.payoffs):
    print(f"  {label}   " + "  ".join(f"{v:+5.0f}" for v in row))

# %% [markdown]
# ## 2 · Regret: how much better the other choice would have been
#
# Suppose you played rock and your opponent played paper. You lost 1. Looking back, paper would have tied
# (0) and scissors would have won (+1). The **regret** of an action is what it would have earned minus what
# you actually earned:
#
# $$ r(a) = u(a, \text{their action}) - u(\text{your action}, \text{their action}). $$
#
# The action you played always has regret 0; a positive regret means "I wish I had played that".
#
# ### Exercise 1 — one round's regrets
# You played **rock**, they played **paper**. Write your regrets for rock, paper and scissors, in that order.
# (Stuck? Put `%load solutions/01_regret_vector.py` in a cell and run it to load a solution.)

# %% tags=["exercise-regret-vector"]
my_regrets = None  # replace None with a list of three numbers, e.g. [?, ?, ?]

# %%
check.check_regret_vector(my_regrets)

# %% [markdown]
# ## 3 · Regret matching
#
# A learner that plays many rounds keeps a running total $R^T(a)$ of each action's regret over the first
# $T$ rounds. **Regret matching** (Hart and Mas-Colell, 2000) then plays each action in proportion to how
# much it is regretted — ignoring actions with negative total regret:
#
# $$ \sigma^{T+1}(a) = \frac{\max(R^T(a), 0)}{\sum_b \max(R^T(b), 0)}, $$
#
# and if no action has positive total regret, it plays every action with the same probability.
#
# We do not use the actual round played to measure regret here but its *expected* version: each action is
# compared with the whole mixed strategy, against the opponent's whole mixed strategy. That removes luck
# from the picture; section 7 shows the sampled version.
#
# ### Exercise 2 — implement regret matching
# Complete the function: it receives a numpy array of cumulative regrets and returns the probabilities.
# (Solution: `%load solutions/01_regret_matching.py`.)

# %% tags=["exercise-regret-matching"]
def my_regret_matching(cumulative_regrets):
    regrets = np.asarray(cumulative_regrets, dtype=float)
    raise NotImplementedError  # replace this line with your code


# %%
check.check_regret_matching(my_regret_matching)

# %% [markdown]
# ## 4 · Learning against a fixed opponent
#
# Player 2 is a creature of habit: rock 40%, paper 30%, scissors 30%. Player 1 runs regret matching.
#
# **Predict** before you run the next cell: what will player 1 end up playing?

# %%
habit = [0.4, 0.3, 0.3]
trace = cfrviz.solve(game, "regret_matching", iterations=2000, opponent=habit)
print("player 1 after   10 rounds:", trace.average_policy(10)["P1"])
print("player 1 after 2000 rounds:", trace.average_policy()["P1"])
best = cfrviz.best_response(game, trace.average_policy(), player=0)
print("each action's expected payoff against the habit:", best.action_values)

# %% [markdown]
# Paper earns $0.4 - 0.3 = 0.1$ per game against this opponent, more than rock (0) or scissors (−0.1), so paper's
# regret keeps growing and regret matching ends up playing paper almost always. It has found a
# **best response**: the most profitable answer to a known strategy. A best response can always be a single
# action — mixing cannot beat the best of what is mixed.
#
# A player who is predictable can be exploited. The **exploitability** of a pair of strategies is the average of
# what each player could gain by switching to a best response:
#
# $$ \text{exploitability}(\sigma_1, \sigma_2) = \tfrac12\Big(\max_{\sigma_1'} u_1(\sigma_1', \sigma_2) + \max_{\sigma_2'} u_2(\sigma_1, \sigma_2')\Big) \quad\text{(in a zero-sum game)}. $$
#
# It is zero exactly at a **Nash equilibrium**: a pair of strategies where neither player can gain by changing.

# %%
habit_policy = cfrviz.Policy.from_dict(game, {"P1": {"R": 1/3, "P": 1/3, "S": 1/3},
                                               "P2": dict(zip("RPS", habit))})
print("exploitability of (uniform, habit):", cfrviz.exploitability(game, habit_policy))
print("exploitability of (uniform, uniform):",
      cfrviz.exploitability(game, cfrviz.Policy.uniform(game)))

# %% [markdown]
# Only player 2's habit is exploitable (by 0.1 per game, the paper answer); the uniform player 1 cannot be
# exploited at all, so the average is 0.05.
#
# ## 5 · Both players learn: the explorer
#
# Now both players run regret matching against each other (*self-play*). Starting both from uniform would
# be dull — uniform is already the equilibrium of this game, so no regret ever appears. Instead player 1
# starts out leaning towards rock.
#
# The explorer below trained 2,000 iterations. Press **play**, or drag the slider:
# - the **triangles** show strategies — each corner is one action, the centre is one third each; the dotted
#   orange trail is the strategy played at each iteration, the blue path the *average* of all strategies so
#   far, the star the equilibrium;
# - the **charts** show player 1's cumulative regrets and its strategies over the iterations;
# - the **log–log chart** at the bottom shows exploitability with a dashed line that falls like $1/\sqrt{T}$.
#
# Watch the orange point: it never settles.

# %%
explorer = RegretMatchingExplorer(iterations=2000, seed=0)
explorer

# %% [markdown]
# ### Why the average and not the current strategy?
#
# Each player chases the other: when player 1 leans to rock, paper becomes regretted for player 2, who
# shifts to paper, which makes scissors attractive to player 1, and round it goes. The current strategies
# circle the equilibrium and keep a large exploitability. But regret matching guarantees that each player's
# *average regret* shrinks like $1/\sqrt{T}$, and in a two-player zero-sum game, when both players' average
# regrets are at most $\varepsilon$, the pair of **average** strategies is a $2\varepsilon$-equilibrium.
# The numbers below, read off one trace, show both behaviours.

# %%
selfplay = cfrviz.solve(game, "regret_matching", iterations=10_000,
                        initial_regrets={"P1": [1, 0, 0]})
print("iteration   exploitability of average   of current")
for t in (10, 100, 1000, 10_000):
    i = selfplay.index(t)
    print(f"{t:>9,}   {selfplay.exploitability[i]:>24.5f}   {selfplay.current_exploitability[i]:>10.5f}")

# %% [markdown]
# **Why $2\varepsilon$? A sketch.** Write $\bar x, \bar y$ for the two average strategies after $T$ rounds
# and $\bar u$ for player 1's average payoff over those rounds (player 2's is $-\bar u$). Player 1's
# payoff is linear in player 2's strategy, so what a fixed action $a$ would have earned over the $T$ rounds,
# on average, is exactly what it earns against $\bar y$. Player 1's average regret $\varepsilon_1 =
# \max_a R_1^T(a)/T$ therefore says: the best answer to $\bar y$ earns $\bar u + \varepsilon_1$. Likewise
# the best answer to $\bar x$ earns player 2 $-\bar u + \varepsilon_2$. Add the two gains from switching,
# each measured from $(\bar x, \bar y)$, and $u(\bar x, \bar y)$ cancels out:
#
# $$ \underbrace{\big(\bar u + \varepsilon_1 - u_1(\bar x, \bar y)\big)}_{\text{player 1's gain}}
#  + \underbrace{\big(-\bar u + \varepsilon_2 - u_2(\bar x, \bar y)\big)}_{\text{player 2's gain}}
#  = \varepsilon_1 + \varepsilon_2 \quad (\text{as } u_1 + u_2 = 0). $$
#
# Neither gain is negative, so each is at most $\varepsilon_1 + \varepsilon_2 \le 2\varepsilon$: the
# averages are a $2\varepsilon$-equilibrium. The sum of the two gains is called *NashConv*; cfrviz's
# exploitability is half of it, so here it is at most $\varepsilon$. In a matrix game with expected updates
# the equation is exact, and the trace shows it (player 1's regrets started at $[1, 0, 0]$, so that
# starting push is subtracted):

# %%
start = np.array([[1, 0, 0], [0, 0, 0]])  # the initial regrets given to solve above
print("iteration   avg regret P1   avg regret P2      sum   NashConv = 2 x exploitability")
for t in (10, 100, 1000, 10_000):
    i = selfplay.index(t)
    eps = (selfplay.cumulative_regret[i] - start).max(axis=1) / t
    print(f"{t:>9,}   {eps[0]:>13.5f}   {eps[1]:>13.5f}   {eps.sum():>7.5f}   "
          f"{2 * selfplay.exploitability[i]:>10.5f}")

# %% [markdown]
# Try it in the explorer: raise **iterations** to 20,000 and press **Solve**, switch the start, or set
# **player 2** to a fixed opponent and watch player 1's average run into a corner (a best response).
#
# ## 6 · Predict, then reveal: scissors wins and loses 2
#
# Change the rules: any game involving scissors is worth 2 instead of 1. Rock vs paper still pays 1.
#
# $$ \begin{array}{c|ccc} & R & P & S \\ \hline R & 0 & -1 & 2 \\ P & 1 & 0 & -2 \\ S & -2 & 2 & 0 \end{array} $$
#
# ### Exercise 3 — predict the equilibrium
# Before you run anything, how often should each player show rock, paper and scissors now?
# (The reasoning, after you have guessed: `%load solutions/01_variant_prediction.py`.)

# %% tags=["exercise-variant-prediction"]
my_prediction = None  # e.g. [0.3, 0.3, 0.4] for rock, paper, scissors

# %%
check.check_variant_prediction(my_prediction)

# %% [markdown]
# Now check with the solver and with an exact computation (a small linear program)<span
# class="cfrviz-notebook-only">, shown once `my_prediction` holds your guess, right or wrong</span>.

# %%
variant = cfrviz.load_game("rock_paper_scissors", payoffs=[[0, -1, 2], [1, 0, -2], [-2, 2, 0]])
variant_trace = cfrviz.solve(variant, "regret_matching", iterations=10_000)
exact = cfrviz.matrix_equilibrium(variant.payoffs)
if my_prediction is None and not in_dashboard():
    print("Write your prediction in exercise 3 first (any guess will do), then run this cell "
          "again.")
else:
    print("regret matching, average after 10,000 iterations:",
          variant_trace.average_policy()["P1"])
    print("exact equilibrium:", {a: round(float(p), 6) for a, p in zip("RPS", exact.row)},
          " value:", round(exact.value, 12))

# %% [markdown]
# In the explorer above, choose the preset *scissors wins and loses 2* and press **Solve** to watch the
# average strategy head for the new star. Here the start can stay uniform: uniform is no longer an
# equilibrium, so regrets appear by themselves.
#
# ## 7 · The sampled version
#
# Many tutorials let each player *sample* one action per round and compute the regrets of that one round, as
# in exercise 1. It is noisier — the result depends on the random seed — but it needs only the outcome of
# each round, not the opponent's whole strategy. Compare a few seeds, on the variant, by how far
# player 1's average ends from the exact equilibrium (its largest difference in one action) and
# by exploitability:

# %%
def off(trace):
    """How far player 1's average ends from the exact equilibrium: the largest difference."""
    average = trace.average_policy()["P1"]
    return max(abs(average[a] - p) for a, p in zip("RPS", exact.row))


for seed in (0, 1, 2):
    sampled = cfrviz.solve(variant, "regret_matching", iterations=10_000, update="sampled", seed=seed)
    print(f"seed {seed}:         {off(sampled):.4f} from the equilibrium, "
          f"exploitability {sampled.exploitability[-1]:.4f}")
print(f"expected updates: {off(variant_trace):.4f} from the equilibrium, "
      f"exploitability {variant_trace.exploitability[-1]:.4f}")

# %% [markdown]
# ### Exercise 4 — write the sampled trainer
#
# Now write that loop yourself. Every round:
#
# 1. each player's strategy is regret matching on its cumulative regrets (`cfrviz.regret_matching`,
#    or your own from exercise 2); when `opponent` is given, player 2 plays it instead, every round;
# 2. each player draws one action from its strategy: `a = draw(0, x)` for player 1 and `b = draw(1, y)`
#    for player 2. `draw` comes from the checker and returns the index of the action drawn; it takes
#    its random numbers from a list fixed in advance, so that your run and the checker's draw alike;
# 3. each player's regret of each action grows by what that action would have earned against the
#    other player's *drawn* action, minus what the drawn pair earned (the table is player 1's
#    payoffs; player 2 earns their negative);
# 4. each player's strategy (the probabilities, not the action drawn) is added to its sum.
#
# Return the two average strategies. The checker runs your loop on three short runs, with the
# same draws as its own loop, and names the likely mistake if they differ; then it runs yours for
# 5,000 rounds, in self-play and against the creature of habit of section 4.
# (Solution: `%load solutions/01_sampled_regret_matching.py`.)

# %% tags=["exercise-sampled-regret-matching"]
def my_sampled_regret_matching(payoffs, rounds, draw, opponent=None):
    """Both players draw an action each round; returns the two average strategies."""
    A = np.asarray(payoffs, dtype=float)  # player 1's payoffs; player 2 earns -A
    m, n = A.shape
    regrets = [np.zeros(m), np.zeros(n)]
    strategy_sums = [np.zeros(m), np.zeros(n)]
    for _ in range(rounds):
        raise NotImplementedError  # replace this line: strategies, draws, regrets, sums
    return strategy_sums[0] / rounds, strategy_sums[1] / rounds


# %%
sampled_verdict = check_srm.check_sampled_regret_matching(my_sampled_regret_matching)
sampled_verdict

# %% [markdown]
# The next cell runs the package's sampled trainer, `cfrviz.solve(..., update="sampled", seed=0)`, on
# rock-paper-scissors in self-play for 10 to 10,000 rounds, and puts the exploitability of its
# averages beside the bound $2\Delta\sqrt{|A|/T}$ that holds in expectation ($\Delta = 2$ is the
# payoff range, $|A| = 3$ the number of actions): regret matching keeps each player's expected
# sampled regret below $\Delta\sqrt{|A|\,T}$, and the sampling itself adds noise of at most the
# same size. Once your loop passes the checker above, the cell runs it too, with the same draws,
# in a column of its own.

# %%
print("  rounds   cfrviz.solve's   bound 2Δ√(|A|/T)   your exploitability")
theirs = {}
for rounds in (10, 100, 1_000, 10_000):
    theirs[rounds] = cfrviz.solve(game, "regret_matching", rounds, update="sampled", seed=0,
                                  checkpoints=[rounds]).exploitability[-1]
    yours = "(when your loop passes)"
    if sampled_verdict.correct:
        mine = my_sampled_regret_matching(game.payoffs, rounds, check_srm.Draws.seeded(0, rounds))
        averages = {"P1": dict(zip("RPS", mine[0])), "P2": dict(zip("RPS", mine[1]))}
        yours = f"{cfrviz.exploitability(game, cfrviz.Policy.from_dict(game, averages)):.4f}"
    print(f"{rounds:>8,} {theirs[rounds]:>16.4f} "
          f"{check_srm.expected_bound(game.payoffs, rounds):>18.4f}   {yours}")
print(f"from 100 to 10,000 rounds the package's column falls {theirs[100] / theirs[10_000]:.1f} "
      "times (1/√T: 10 times)")

# %% [markdown]
# Your loop's column, once it passes, agrees with the package's to every digit: your loop *is* the
# package's sampled solver. The exploitability falls roughly like $1/\sqrt{T}$, as the last line
# measures, and stays well below the bound, a worst case for the expectation. Both players start
# with zero regrets, which would leave the expected update of section 5 at uniform for ever; the
# sampled one moves at once, because a handful of draws is never balanced.
#
# ## Summary
#
# - The regret of an action is what it would have earned minus what was earned.
# - Regret matching plays actions in proportion to their positive cumulative regret.
# - Against a fixed opponent it finds a best response; in self-play of a zero-sum game the **average**
#   strategies approach a Nash equilibrium (exploitability $\sim 1/\sqrt{T}$) while the current ones cycle.
# - Equilibria can surprise: doubling scissors' stakes makes scissors rarer.
# - The classic trainer draws one action per player per round and takes regrets against the drawn
#   action: noisier, but it needs only what was played, and its average converges too.
#
# **Read more.** S. Hart and A. Mas-Colell, *A simple adaptive procedure leading to correlated equilibrium*,
# Econometrica 2000. T. Neller and M. Lanctot, *An Introduction to Counterfactual Regret Minimization*, 2013
# (sections 2–3). M. Zinkevich et al., *Regret Minimization in Games with Incomplete Information*, NIPS 2007 —
# the paper that takes regret matching to game trees, where the course goes next.
#
# Previous: [00 · Start here](00_start_here.ipynb). Next: [02 · Games as trees](02_games_as_trees.ipynb).
