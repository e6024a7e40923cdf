# %%
# Source of lessons/04_cfr_on_kuhn.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 04 · CFR on Kuhn poker
#
# **Goals.** By the end of this lesson you can
# - train CFR on a real (if tiny) poker game and scrub through the training, set by set;
# - point at *bluffing* and *slow-playing* in the strategy it learns, and say why they pay;
# - state the value of Kuhn poker, $-1/18$ per hand for the first player, and check it;
# - describe player 1's whole *family* of equilibria, and find where a given run landed in it;
# - explain why the strategy you keep is the **average** one and not the last one played;
# - write vanilla CFR yourself, from an empty function to a strategy as good as the package's.
#
# **You need** lesson 02 (trees, information sets, reach) and lesson 03 (counterfactual regret and the
# CFR loop). About {{minutes}} minutes.
# Previous: [03 · Counterfactual regret](03_counterfactual_regret.ipynb).
# Next: [05 · Best response and exploitability](05_best_response.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import ipywidgets as W

import cfrviz
from cfrviz.exercises import lesson04 as check

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · The game, and where a player can decide
#
# Kuhn poker uses three cards, jack < queen < king. Both players put 1 chip in the pot (the *ante*) and get
# one card each; the third card stays hidden. Player 1 acts first: **check** or **bet** 1 chip.
# - After a check, player 2 may check too (showdown for the antes: the higher card wins 1) or bet 1. Facing
#   that bet, player 1 folds (loses 1) or calls (showdown for 2).
# - After a bet, player 2 folds (loses 1) or calls (showdown for 2).
#
# In the tree, a pass (check or fold) is written `p` and a bet or call `b`. An information-set key is the
# owner's card followed by the betting it has seen: `"K"` is player 1 holding a king before anyone acted,
# `"Jp"` is player 2 holding a jack after player 1 checked, `"Qpb"` is player 1 holding a queen after
# checking and facing a bet. Each player has six sets, two actions in each:

# %%
kuhn = cfrviz.load_game("kuhn_poker")
print(kuhn)
for key in kuhn.infoset_keys:
    who, situation, b = check.describe_kuhn_set(key)
    print(f"  {key:<4} {who}, {situation:<34} actions: p, b (b = {b})")

# %% [markdown]
# ## 2 · Train, then scrub through the training
#
# The explorer below ran 300 iterations of vanilla CFR (the algorithm of lesson 03) and recorded every one.
# - The **timeline** (play button and slider) moves through the iterations; nothing is re-run when you
#   drag it.
# - On the **tree**, an edge's width follows the probability of that action; the toggle switches between
#   the *average* strategy so far and the *current* strategy, the one played at that iteration.
# - Pick an **information set** from the list (or click one of its nodes): the panel shows its opponent
#   reach, the counterfactual value of each action, the regrets and the regret-matching step, and the
#   charts show its cumulative regrets and its strategies over the iterations.
# - At the bottom, the **exploitability** of both strategies, on log–log axes.
#
# Start with set `J` (player 1 holding the worst card), press play, and watch the bet probability.

# %%
explorer = cfrviz.explore(kuhn, "cfr", iterations=300, seed=0, infoset="J")
explorer

# %% [markdown]
# ## 3 · What CFR learns
#
# **Predict** before you run the next cell. Holding the *worst* card, a jack, should player 1 ever bet?
# Holding the *best* card, a king, should it always bet? Write down your guesses.
#
# The cell trains 10,000 iterations (a second or two) and lists, for every information set, the
# probability of action `b` (bet or call, as the column `b =` says) in the average strategy.

# %%
trace = cfrviz.solve(kuhn, "cfr", iterations=10_000, seed=0)
strategy = trace.average_policy()
print(check.strategy_table(kuhn, {"P(b), average": strategy}))

# %% [markdown]
# Read the table from the top.
#
# - **Bluffing.** Player 1 bets a jack some of the time (row `J`), although a jack never wins a showdown:
#   the bet wins the pot whenever player 2 folds a queen. Player 2 bluffs too: after a check it bets a jack
#   about one time in three (row `Jp`; exactly $1/3$ at every equilibrium).
# - **Slow-playing.** Player 1 does *not* always bet a king (row `K`). Checking a king invites player 2 to
#   bluff with a jack; player 1 then calls (row `Kpb`) and wins 2, where a bet would have won only the 1
#   in the pot, because the jack folds.
# - **Queens are for checking.** Player 1 almost never bets a queen (row `Q`): every jack would fold and
#   every king would call, so the bet gains nothing against a jack and loses more against a king. Facing a
#   bet, player 2 calls with a queen about one time in three (row `Qb`, exactly $1/3$ at equilibrium) —
#   just often enough that player 1's jack bluffs stop paying more than checking.
#
# None of this was programmed in. It came out of regrets, one information set at a time.
#
# ### Who is favoured?
#
# **Predict** before you run the next cell: the cards are dealt fairly and the rules are almost symmetric.
# Is the game worth more to player 1, who acts first, to player 2, or to neither?

# %%
v1, v2 = cfrviz.expected_values(kuhn, strategy)
print(f"player 1 expects {v1:+.5f} per hand, player 2 {v2:+.5f}")
print(f"exact value for player 1 at equilibrium: -1/18 = {-1 / 18:+.5f}")

# %% [markdown]
# Player 2 is favoured: at any equilibrium player 1 loses $1/18$ of a chip per hand. Acting second is an
# advantage — player 2 sees player 1's first move before deciding. (In a match the seats alternate, so
# neither *player* is favoured.) The average strategy after 10,000 iterations is already within a small
# fraction of that value.
#
# ## 4 · Exercise 1 — read the average strategy at a set
#
# With what probability does CFR's strategy *after 50 iterations* call at set `Qpb` (player 1 holds a queen,
# checked, and player 2 bet)? Read it off the explorer and type it below.
#
# The next cell shows the explorer's own timeline, set list and panel a second time, so that you need not
# scroll: they are the same widgets, not copies, so whatever you change here changes the explorer of
# section 2 too, and the other way round. Nothing moves by itself: pick `Qpb` in the list, drag the slider
# until the label reads iteration 50, and read the row "average strategy", column `b`. The checker reads the
# same explorer, so it checks against the run you see.
# (Stuck? `%load solutions/04_average_at_set.py` in a cell loads a solution.)

# %%
W.VBox([W.HBox([explorer.play, explorer.slider, explorer.iteration_label]), explorer.picker,
        explorer.panel])

# %% tags=["exercise-average-at-set"]
my_call_probability = None  # a number between 0 and 1

# %%
check.check_average_at_set(my_call_probability, explorer)

# %% [markdown]
# ## 5 · Why the average and not the current strategy
#
# CFR's guarantee (lesson 03) is about *regret*: each player's average counterfactual regret shrinks
# like $1/\sqrt{T}$. In a two-player zero-sum game that makes the **average** strategy profile an
# approximate equilibrium — nothing is promised about the strategy played at iteration $T$. The same trace
# shows the difference:

# %%
print("iteration   exploitability of the average   of the current")
for t in (10, 100, 1_000, 10_000):
    i = trace.index(t)
    print(f"{t:>9,}   {trace.exploitability[i]:>29.5f}   {trace.current_exploitability[i]:>14.5f}")
cfrviz.views.training.cost_curve_figure(trace)

# %% [markdown]
# The current strategy improves too, but it keeps wobbling and stays far more exploitable: the two
# players chase each other's last move, as in rock-paper-scissors in lesson 01. The average smooths the
# chase out.
#
# As lesson 03 said, "average" has a precise meaning here. Each iteration's strategy at a set $I$ of player
# $i$ is weighted by how likely player $i$ itself was to reach $I$ at that iteration, its *own* reach
# $\pi_i^{\sigma^t}(I)$:
#
# $$ \bar\sigma^T(I)(a) = \frac{\sum_{t=1}^{T} \pi_i^{\sigma^t}(I)\,\sigma^t(I)(a)}{\sum_{t=1}^{T}
# \pi_i^{\sigma^t}(I)}. $$
#
# Why? The average must be the strategy that, played in every game, produces the same play as picking
# one of the $T$ iterations at random and playing its strategy. At `Qpb` the own reach is the probability
# that player 1 checked its queen. In early iterations player 1 often bet its queen, so what it would have
# done after check–bet then barely mattered and counts for little. The cell below rebuilds the average at
# `Qpb` after the first 20 iterations from the strategies played, with and without the weights:

# %%
upto = 20
print(f"P(call) at Qpb in the average of the first {upto} iterations:")
for weighted in (True, False):
    rebuilt = check.average_from_current(trace, "Qpb", upto=upto, weighted=weighted)
    print(f"  {'weighted by own reach' if weighted else 'plain mean':<22} {rebuilt[1]:.4f}")
print(f"  {'recorded average':<22} {trace.average_policy(upto)['Qpb']['b']:.4f}")

# %% [markdown]
# ## 6 · Not one equilibrium but a whole segment
#
# Kuhn (1950) solved this game by hand. Player 2's equilibrium strategy is unique, but player 1 has a
# one-parameter family: pick any $\alpha \in [0, 1/3]$ and
#
# $$ P(\text{bet} \mid J) = \alpha, \qquad P(\text{bet} \mid K) = 3\alpha, \qquad
#    P(\text{call} \mid Q, \text{check–bet}) = \alpha + \tfrac13, $$
#
# while always checking a queen, folding a jack and calling with a king after check–bet. Every such
# strategy earns exactly $-1/18$ against player 2's equilibrium. A player who bluffs more must also
# slow-play less (bet its king more), so that a bet still carries the same mix of kings and jacks.
#
# In the three coordinates (bet J, bet K, call Q) the family is a straight segment. Which point does a
# run land on? That depends on the run.
#
# **Predict** before you run the next cell. Vanilla CFR is run again with `seed=1` instead of `seed=0`.
# Will it land at a different $\alpha$? And what about *chance sampling*, a variant you will meet in
# lesson 06 that deals random cards at each iteration instead of walking every deal?

# %%
again = cfrviz.solve(kuhn, "cfr", iterations=2_000, seed=1)
print("vanilla CFR, seed 0 vs seed 1 after 2,000 iterations:",
      f"{check.alpha_estimates(trace.average_policy(2_000))['nearest']:.4f}",
      f"{check.alpha_estimates(again)['nearest']:.4f}")
runs = [trace] + [cfrviz.solve(kuhn, "chance_sampling", iterations=10_000, seed=s) for s in (0, 1, 2)]
cfrviz.KuhnEquilibriumView(runs)

# %% [markdown]
# Vanilla CFR uses no random numbers: every seed gives the same run, the same $\alpha$. Chance sampling
# draws cards at random, so each seed follows its own path and lands at its own point. In the figure the
# thick black segment is the family of equilibria; the upper left panel plots bet-K against bet-J, the
# upper right one call-Q against bet-J, and each run draws its average strategy's path (light) from the
# uniform start (at one half everywhere) to where it lands (its marker, named in the legend with its
# $\alpha$). The wide panel below shows, over the iterations, the $\alpha$ of the equilibrium nearest to
# each run. Press play: every run wanders at first and then hugs the segment. Vanilla CFR
# settles early; the sampled runs keep drifting *along* the segment for a long time. That costs them
# nothing — every point of the segment is an equilibrium, all equally good.
#
# ### Exercise 2 — find $\alpha$ of a run
#
# The next cell trains 2,000 iterations of *linear CFR* (lesson 08; here just a black box) and does **not**
# draw it. From its average strategy, `mystery.average_policy()`, find the $\alpha$ it landed on.
# (Solution: `%load solutions/04_alpha.py`.)

# %%
mystery = cfrviz.solve(kuhn, "linear_cfr", iterations=2_000, seed=0)

# %% tags=["exercise-alpha"]
my_alpha = None  # one number between 0 and 1/3

# %%
check.check_alpha(my_alpha, mystery, others=runs)

# %% [markdown]
# Now draw it beside the others: one more point on the same segment. (The legend names every run's
# $\alpha$, so the cell waits for your right answer before it draws.)

# %%
check.alpha_figure(my_alpha, mystery, others=runs)

# %% [markdown]
# ## 7 · Exercise 3 — vanilla CFR, written by you
#
# You have now seen every piece: regret matching (lesson 01), counterfactual values and the regret update
# (lesson 03), the average weighted by own reach (section 5). Put them together. Complete `my_cfr(tree,
# iterations)` below: it runs vanilla CFR for `iterations` iterations and returns the **average** strategy,
# as an array (information sets × actions) or as a dict `{key: probabilities}`.
#
# The skeleton has two helpers to fill in and a loop to write. `regret_matching` turns the table of
# cumulative regrets into a strategy at every set. `walk` visits the tree below a node for the player being
# updated, carrying `reach = [π₁, π₂, π_c]`, and returns the node's value for that player; at that player's
# own decision nodes it adds to `regret_sum` and `strategy_sum`. Update the players one after the other
# (alternating) or both from the same strategy (simultaneous): both are vanilla CFR, and the checker says
# which one it recognised.
#
# The checker runs your function on Kuhn poker for 300 iterations and compares its average strategy with
# `cfrviz.solve(kuhn, "cfr", 300)`'s, then on Leduc poker for 10 iterations, where some deals are likelier
# than others; if they differ, it tries the usual mistakes to name yours. Plain Python is fast enough: the
# whole check takes a few seconds.
# (Solution: `%load solutions/04_my_cfr.py`.)

# %% tags=["exercise-my-cfr"]
import numpy as np


def my_cfr(tree, iterations):
    """Vanilla CFR on `tree` for `iterations` iterations; returns the average strategy.

    What the tree gives (arrays indexed by node id; the root is node 0):
        tree.player[node]       0 or 1 at a decision, -1 at a chance node, -2 at a terminal
        tree.children[node]     the children's ids, in action order
        tree.chance_prob[node]  the probability of the chance outcome leading to node
        tree.utility[node]      the payoffs [player 1, player 2] at a terminal
        tree.infoset[node]      the information set of a decision node
        tree.legal_mask         (information sets x actions), True where the action exists
        tree.infoset_keys, tree.infoset_actions, tree.infoset_player: one entry per set
    """
    mask = tree.legal_mask
    regret_sum = np.zeros(mask.shape)    # cumulative counterfactual regrets
    strategy_sum = np.zeros(mask.shape)  # strategies weighted by the owner's own reach

    def regret_matching(regrets):
        """The strategy at every set: positive regrets normalised; uniform over the legal
        actions where no regret is positive."""
        raise NotImplementedError  # replace this line with your code

    def walk(node, player, reach, strategy):
        """`player`'s expected payoff below `node`, with reach = np.array([pi_1, pi_2, pi_chance]).
        At `player`'s own decision nodes, add the counterfactual regrets to regret_sum and the
        strategy weighted by the player's own reach to strategy_sum."""
        raise NotImplementedError  # replace this line with your code

    # Each iteration: the strategy by regret matching, then a walk from the root (node 0) for each
    # player. At the end, return the average: each row of strategy_sum divided by its total.
    raise NotImplementedError  # replace this line with your code


# %%
check.check_my_cfr(my_cfr)

# %% [markdown]
# ## Summary
#
# - CFR on Kuhn poker discovers poker by itself: bluffs with jacks, slow-played kings, queens that check
#   and catch bluffs one time in three.
# - The game is worth $-1/18$ per hand to player 1; acting second is an advantage.
# - Player 2's equilibrium is unique; player 1's is a segment, $\alpha \in [0, 1/3]$. Different
#   algorithms and different sampling seeds land at different points of it, all equally good.
# - The strategy to keep is the **average**, each iteration weighted by the player's own reach: it is the
#   one the regret guarantee is about. The current strategy keeps wobbling and stays exploitable.
# - Vanilla CFR fits in one short function: regret matching, one recursive walk per player, and the
#   average at the end.
#
# **Read more.** H. W. Kuhn, *A simplified two-person poker*, Contributions to the Theory of Games I,
# 1950 — the game and its equilibria. M. Zinkevich, M. Johanson, M. Bowling and C. Piccione, *Regret
# minimization in games with incomplete information*, NIPS 2007 — CFR and the average-strategy theorem.
# T. Neller and M. Lanctot, *An introduction to counterfactual regret minimization*, 2013 — CFR on Kuhn
# poker, step by step. B. Hoehn, F. Southey, R. Holte and V. Bulitko, *Effective short-term opponent
# exploitation in simplified poker*, AAAI 2005 — Kuhn poker's equilibria and how to exploit departures
# from them.
#
# Previous: [03 · Counterfactual regret](03_counterfactual_regret.ipynb).
# Next: [05 · Best response and exploitability](05_best_response.ipynb) — how much an opponent who knows
# your strategy can win, and playing the bot yourself.
