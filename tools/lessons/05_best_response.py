# %%
# Source of lessons/05_best_response.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 05 · Best response and exploitability
#
# **Goals.** By the end of this lesson you can
# - compute a **best response** in a game with hidden cards: one action per information set, chosen
#   knowing the opponent's strategy but never the opponent's cards — by hand, then as code;
# - measure any strategy with **exploitability**, the yardstick every later lesson uses, and split it into
#   what each player gives away;
# - say what an exploitability number means at the table, and why a few hands of play cannot show it.
#
# **You need** lesson 04 (CFR on Kuhn poker). About {{minutes}} minutes, more if you enjoy playing the bot.
# Previous: [04 · CFR on Kuhn poker](04_cfr_on_kuhn.ipynb).
# Next: [06 · Monte Carlo CFR: sample, and stay unbiased](06_monte_carlo_cfr.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import ipywidgets as W
from IPython.display import display

import cfrviz
from cfrviz.exercises import lesson05 as check
from cfrviz.exercises import unanswered
from cfrviz.views.style import in_dashboard

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · A best response knows the strategy, not the cards
#
# In lesson 01 a best response was the most profitable answer to a known mixed strategy, and it could
# always be a single action. In a game tree the same holds *per information set*. Fix the opponent's
# strategy $\sigma_{-i}$. At one of player $i$'s sets $I$, the value of action $a$ adds up over the
# histories $h$ in $I$ — the deals $i$ cannot tell apart — weighted by how likely chance and the opponent
# are to lead there:
#
# $$ v_i(I, a) = \sum_{h \in I} \pi_{-i}(h)\; u_i(h a), $$
#
# where below $ha$ player $i$ keeps playing its best response. Working from the leaves up, the best
# response picks at every set an action with the largest $v_i(I, a)$ — **one action for the whole set**,
# because the player does not know which $h$ it is in. Its value is the best that player $i$ can earn
# against $\sigma_{-i}$:
#
# $$ b_i(\sigma_{-i}) = \max_{\sigma_i'} u_i(\sigma_i', \sigma_{-i}). $$
#
# These are the counterfactual values of lesson 03, with the best response playing below instead of the
# current strategy.
#
# The explorer below lets you set **player 1's** strategy with one row of sliders per information set:
# each slider is the probability of one action, and moving it moves the others of its row so that the row
# still adds up to 1. After every change it computes player 2's best response, highlights it on the tree,
# and says what it wins. Try it: make player 1 bet every jack (set `J`, slider `b` to 1) and watch what
# player 2 does with a queen facing a bet (set `Qb`).

# %%
kuhn = cfrviz.load_game("kuhn_poker")
br_explorer = cfrviz.BestResponseExplorer(kuhn, player=0)
br_explorer

# %% [markdown]
# ### Predict, then reveal: the honest player
#
# An "honest" player 1 bets only with a king, checks jacks and queens, and after check–bet calls only with
# a king. **Predict** before you run the next cell: what should player 2 do with a *jack* after player 1
# checks? And how much can player 2 win per hand against this player?

# %%
honest = cfrviz.Policy.from_dict(kuhn, {
    "J": {"p": 1, "b": 0}, "Q": {"p": 1, "b": 0}, "K": {"p": 0, "b": 1},
    "Jpb": {"p": 1, "b": 0}, "Qpb": {"p": 1, "b": 0}, "Kpb": {"p": 0, "b": 1}})
against_honest = cfrviz.best_response(kuhn, honest, player=1)
print(check.best_response_table(kuhn, honest, player=1))
print(f"\nplayer 2's best response wins {against_honest.value:+.4f} per hand "
      f"(at equilibrium player 2 wins 1/18 = {1 / 18:.4f})")
br_explorer.set_policy(honest)
W.VBox([br_explorer.summary, br_explorer.tree])

# %% [markdown]
# A check from the honest player announces a jack or a queen, both of which fold to a bet. So after a
# check player 2 wins the pot with *any* card by betting. With a queen or a king checking wins just as much
# (the table calls it a tie), but with a jack betting is the only way to win: the best response bluffs
# every jack. Facing a bet, player 2 knows it faces a king and folds (holding a king itself it never faces
# that bet: the set is never reached). Honesty is expensive; this is why equilibrium play bluffs.
#
# The numbers in each row are counterfactual values, weighted by how often chance and player 1 lead to the
# set. The tree above shows the same best response highlighted.
#
# ### Exercise 1 — a best response by hand
#
# Player 1 now plays the **bluffer**: it bets every king, bets a jack one time in five (checks the other
# four), and never bets a queen. You are player 2, you hold the **queen**, and player 1 **bets**.
#
# Fold or call? And what does that action win, on average, each time you face this bet? Fold loses your
# ante (−1); a call wins 2 against a jack and loses 2 against a king. Careful: how likely is each card of
# player 1 *given that it bet*?
# (Solution: `%load solutions/05_best_response_by_hand.py`.)

# %% tags=["exercise-best-response-by-hand"]
my_action = None  # "fold" or "call"
my_value = None   # what that action wins per time you face the bet

# %%
check.check_best_response_by_hand(my_action, my_value)

# %% [markdown]
# The solver does the same computation. To leave your answer above yours to check, here it is against
# a *bolder* bluffer: it bets every king and a jack one time in **two**. `cfrviz.best_response` reports
# counterfactual values, summed over the two deals in the set and weighted by how often each happens (a
# king is dealt and bet; a jack is dealt and bet). Divided by the total weight they become the values per
# time you face the bet. The last lines show what a "best response" that could *see* player 1's card
# would do in each deal — not a strategy player 2 can play. Does the bolder bluffing change what player 2
# should do?

# %%
bolder = cfrviz.Policy.from_dict(kuhn, {"J": {"p": 0.5, "b": 0.5}, "Q": {"p": 1, "b": 0},
                                        "K": {"p": 0, "b": 1}})
spot = check.spot_analysis(kuhn, bolder, "Qb")
values = cfrviz.best_response(kuhn, bolder, player=1).action_values["Qb"]
print("counterfactual values at Qb:", {a: round(v, 4) for a, v in values.items()})
print(f"weight of the set: {spot['reach']:.4f}  ->  per time facing the bet:",
      {a: round(v / spot["reach"], 4) for a, v in values.items()})
for row in spot["nodes"]:
    print(f"  deal {row['history']:<6} weight {row['reach']:.4f}   fold {row['values'][0]:+.0f}"
          f"   call {row['values'][1]:+.0f}")
print(f"peeking would choose {spot['peeking']} and expect {spot['peeking_value']:+.4f}: "
      "it reads a card player 2 cannot see")

# %% [markdown]
# ### Exercise 2 — a best response, in code
#
# Now write the whole computation, for any strategy and either seat. `my_best_response(tree, policy,
# player)` gets a game tree, a strategy profile as an array (one row per information set, one column per
# action; only the opponent's rows matter) and the responding player, 0 or 1. It returns what that
# player's best response wins.
#
# The skeleton below is one way, working from the leaves up. Every terminal counts its payoff for `player`
# times its weight — how likely chance and the opponent make it, which
# `reach_probabilities(tree, policy)` gives you split three ways (rows player 1, player 2, chance). Chance
# and opponent nodes add up their children. At the player's own nodes `best(info)` picks **one** action
# for the whole set: the one whose weighted values, summed over the set's nodes, are largest. Fill in the
# three places marked `TODO` (each `raise` line). What you need from the tree: `tree.player[node]`
# (0, 1, chance or `TERMINAL`), `tree.children[node]` (child ids in action order), `tree.utility[node,
# player]`, `tree.infoset[node]`, `tree.infoset_members(info)` and `tree.infoset_actions[info]`. Any other
# correct method passes too.
#
# The checker calls your function on Kuhn poker against six strategies in both seats, and on Leduc poker,
# and compares with `cfrviz.best_response`. (Solution: `%load solutions/05_best_response_code.py`.)

# %% tags=["exercise-best-response-code"]
import numpy as np

from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL


def my_best_response(tree, policy, player):
    """What `player` (0 or 1) wins by best-responding to the other player's part of `policy`."""
    reach = reach_probabilities(tree, policy)  # rows: player 1, player 2, chance
    raise NotImplementedError  # TODO: weight = each node's weight, from `reach`
    choice = {}  # information set -> the action the best response takes there

    def value(node):
        """`player`'s payoff below `node`, weighted, when `player` best-responds."""
        if tree.player[node] == TERMINAL:
            raise NotImplementedError  # TODO: the terminal's weighted payoff for `player`
        if tree.player[node] == player:
            return value(tree.children[node][best(tree.infoset[node])])
        return sum(value(child) for child in tree.children[node])  # chance or the opponent

    def best(info):
        """The best action at set `info`: one action for all of its nodes."""
        if info not in choice:
            raise NotImplementedError  # TODO: choice[info] = the action with the largest sum
        return choice[info]

    return value(0)

# %%
check.check_best_response_code(my_best_response)

# %% [markdown]
# ## 2 · Exploitability: the yardstick
#
# How good is a strategy profile $\sigma = (\sigma_1, \sigma_2)$? Ask each player's worst enemy: an opponent
# who knows the strategy exactly and best-responds to it. The **exploitability** is the average of the two
# best responses' winnings:
#
# $$ \varepsilon(\sigma) = \tfrac12\big(b_1(\sigma_2) + b_2(\sigma_1)\big). $$
#
# (The sum, without the $\tfrac12$, is called NashConv.) With the game's value $v^* = -1/18$ for player 1
# it splits into what each player gives away against equilibrium play:
#
# $$ \varepsilon(\sigma) = \tfrac12\Big(\underbrace{b_1(\sigma_2) - v^*}_{\text{player 2's leak}}
#    + \underbrace{b_2(\sigma_1) + v^*}_{\text{player 1's leak}}\Big). $$
#
# Each bracket is at least 0 and both are 0 exactly at an equilibrium. Read $\varepsilon$ in chips per
# hand: a perfect exploiter who takes each seat half of the time wins $\varepsilon$ per hand on average
# against $\sigma$. Two checks with exact values: the uniform profile (both players uniform) has
# exploitability $11/24$, and the honest player 1 above leaks $1/3 - 1/18 = 5/18$:

# %%
uniform = cfrviz.Policy.uniform(kuhn)
print(f"uniform: exploitability {cfrviz.exploitability(kuhn, uniform):.5f}   11/24 = {11 / 24:.5f}")
print(f"honest player 1 leaks {against_honest.value - 1 / 18:.5f}   5/18 = {5 / 18:.5f}")

# %% [markdown]
# ### Exercise 3 — compute an exploitability
#
# The next cell trains vanilla CFR for 10,000 iterations, as in lesson 04. Using only
# `cfrviz.best_response(game, policy, player)` (its `.value` is what that player's best response wins),
# compute the exploitability of the **average** strategy after **30** iterations, `trace.average_policy(30)`.
# (Solution: `%load solutions/05_exploitability.py`.)

# %%
trace = cfrviz.solve(kuhn, "cfr", iterations=10_000, seed=0)

# %% tags=["exercise-exploitability"]
my_exploitability = None  # one number

# %%
check.check_exploitability(my_exploitability)

# %% [markdown]
# `cfrviz.exploitability` does the same in one call. Here it is along the whole run — the curve every
# algorithm of the next lessons is judged by. The average strategy's exploitability falls steadily on
# log–log axes; the current one (thin) stays far above it, as lesson 04 showed.
# <span class="cfrviz-notebook-only">The curve passes through iteration 30, so it is drawn once
# `my_exploitability` holds your number, right or wrong.</span>

# %%
for t in (10, 100, 10_000):
    print(f"after {t:>6,} iterations: exploitability of the average strategy "
          f"{cfrviz.exploitability(kuhn, trace.average_policy(t)):.5f}")
if unanswered(my_exploitability) and not in_dashboard():
    print("Compute your number in exercise 3 first (any attempt will do), then run this cell "
          "again for the curve.")
else:
    display(cfrviz.views.training.cost_curve_figure(trace))

# %% [markdown]
# ## 3 · Play the bot: 10, 100 and 10,000 iterations
#
# What do these numbers feel like at the table? First the view of a perfect exploiter, who knows each bot's
# strategy (never its cards) and best-responds in both seats.
#
# **Predict** before you run the next cell: the exploiter plays 40,000 hands against each bot (20,000 deals,
# each dealt twice with the seats swapped, so the cards' luck largely cancels). Against which bots will it
# *clearly* be ahead — its 95% confidence interval above 0?

# %%
bots = {t: trace.average_policy(t) for t in (10, 100, 10_000)}
for t, bot in bots.items():
    match = cfrviz.head_to_head(kuhn, check.exploiter(kuhn, bot), bot, hands=20_000, seed=t,
                                names=("exploiter", f"bot after {t:,}"))
    low, high = match.ci
    gap = cfrviz.exploitability(kuhn, bot)
    print(f"bot after {t:>6,}: exploitability {gap:.4f};  the exploiter won {match.mean:+.4f} "
          f"per hand, 95% CI [{low:+.4f}, {high:+.4f}]: {(high - low) / gap:.1f} times as wide "
          "as the exploitability")
# An interval narrows with the square root of the number of hands: over 24 hands it is
# sqrt(40,000 / 24), about 41, times wider than over 40,000.
width_24 = (high - low) * (40_000 / 24) ** 0.5
print(f"over 24 hands the interval would be about {width_24:.2f} chips wide, "
      f"{width_24 / gap:,.0f} times the last bot's exploitability")

# %% [markdown]
# Compare each interval's width with the exploitability. Against the 10-iteration bot the interval is a
# fraction of the gap, which shows clearly; against the 100-iteration bot they are about the same size; for
# the 10,000-iteration bot the interval is about 90 times wider than its exploitability, so 40,000 hands
# cannot tell it from a perfect player. An interval narrows only with the square root of the number of
# hands: over the two dozen hands you will play it is about 40 times wider again (the last line), and luck
# dominates your score completely. Judge the bots by their *decisions*, not by the score. Here is what each
# does, as the probability of `b` (bet or call) at every set:

# %%
print(check.strategy_table(kuhn, {f"after {t:,}": bot for t, bot in bots.items()}))

# %% [markdown]
# Now play. Each tab is a table against one bot (you switch seats every hand; the bot's cards are shown at
# the end, with a sentence per decision saying what its strategy was there). Look for the habits in the
# table above: does the 10-iteration bot bluff too much or too little? Does it call a bet with a queen too
# often? Play a dozen hands against each; then try to exploit the weakest one on purpose.

# %%
cfrviz.play_tabs(kuhn, trace, iterations=list(bots))

# %% [markdown]
# ## Summary
#
# - A best response picks one action per information set, weighing the histories in it by how likely
#   chance and the opponent make them. A "best response" that peeks at hidden cards is not a strategy, and
#   it overstates how exploitable the opponent is.
# - Exploitability, $\tfrac12(b_1(\sigma_2) + b_2(\sigma_1))$, is what a perfect exploiter wins per hand
#   with the seats alternating; it splits into what each player gives away, and is 0 exactly at an
#   equilibrium. It is the yardstick for every algorithm that follows.
# - CFR's average strategy becomes hard to exploit quickly. Small exploitabilities are invisible in a few
#   hands of play: luck is far larger.
#
# **Read more.** M. Johanson, K. Waugh, M. Bowling and M. Zinkevich, *Accelerating best response calculation
# in large extensive games*, IJCAI 2011 — computing exact best responses in games far larger than Kuhn
# poker. M. Zinkevich, M. Johanson, M. Bowling and C. Piccione, *Regret minimization in games with
# incomplete information*, NIPS 2007 — exploitability as the measure of CFR's progress. H. W. Kuhn,
# *A simplified two-person poker*, 1950. M. Lanctot, *Monte Carlo sampling and regret minimization for
# equilibrium computation and decision-making in large extensive form games*, PhD thesis, University of
# Alberta, 2013 — best responses, NashConv and the sampling methods of the next lesson.
#
# Previous: [04 · CFR on Kuhn poker](04_cfr_on_kuhn.ipynb).
# Next: [06 · Monte Carlo CFR: sample, and stay unbiased](06_monte_carlo_cfr.ipynb) — sampling instead of
# walking the whole tree, and measuring cost honestly.
