# %%
# Source of lessons/02_games_as_trees.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 02 · Games as trees
#
# **Goals.** By the end of this lesson you can
# - read a game drawn as a tree: decision nodes, chance nodes, leaves with payoffs;
# - say what an *information set* is, and find the set a node belongs to;
# - describe a *behaviour strategy*: one probability distribution per information set;
# - compute the *reach probability* of a node and split it into what each player and chance contribute.
#
# **You need** lesson 01 (strategies, regret, exploitability) and the rule that the probability of several
# independent steps all happening is their product. About {{minutes}} minutes.
# Previous: [01 · Regret matching on rock-paper-scissors](01_regret_matching.ipynb). Next: [03 · Counterfactual regret](03_counterfactual_regret.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter).</span> Hover over any node of a tree to see its
# history and its information set.

# %%
import math

import numpy as np

import cfrviz
from cfrviz.exercises import lesson02 as check
from cfrviz.core.tree import TERMINAL
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.widgets import infoset_picker

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · From a table to a tree
#
# In lesson 01 a game was a table: both players pick at once and the table says who wins. Poker does not
# fit in a table so easily. Players act in turn, cards are dealt at random, and each player sees only part
# of what has happened. The **extensive form** draws such a game as a tree:
#
# - the **root** is the start of the game;
# - at a **decision node** one player chooses; each edge leaving it is one of that player's actions;
# - at a **chance node** nobody chooses: each edge is a random outcome (a deal of the cards) with a
#   probability fixed by the rules;
# - a **leaf** (terminal node) ends the game and carries the payoffs.
#
# A node is named by its **history**, the list of moves that lead to it from the root. A path from the
# root to a leaf is one complete play.
#
# Rock-paper-scissors is a good first tree because we already know the answer. Draw it with player 1
# moving first:
#
# **Predict before you run the next cell.** In a tree somebody has to move first. But in
# rock-paper-scissors player 2 must *not* know player 1's choice, or it would win every time. What does a
# tree need, beyond nodes and edges, to say "player 2 has not seen that move"?

# %%
rps = cfrviz.load_game("rock_paper_scissors")
cfrviz.plot_tree(rps.tree)

# %% [markdown]
# Player 1 (blue circle) picks R, P or S; then player 2 (orange-red square) picks; the leaves show player 1's
# payoff. The shaded band joins player 2's three nodes into one **information set**, labelled `P2`: a
# group of one player's decision nodes that the player cannot tell apart from what it has observed.
#
# Because player 2 cannot know which of the three nodes it is at, it has to choose *in the same way at
# all three*. That is all "simultaneous" means: drawing player 1 first does no harm, since the band hides
# player 1's move. Take the band away — make each node a set of its own — and player 2 could answer
# rock with paper, paper with scissors, scissors with rock, winning 1 every game. Information sets are
# what turn a tree into a game of hidden information.
#
# ## 2 · Chance, and Kuhn poker
#
# **Kuhn poker** (H. W. Kuhn, 1950) is the smallest game that still has bluffing in it, and the course's
# workhorse:
#
# - three cards, J < Q < K; each player puts 1 chip in the pot (the *ante*) and gets one card; the third
#   card stays hidden;
# - player 1 **checks** (`p`, for pass) or **bets** 1 more (`b`);
# - after a check, player 2 checks (the higher card wins the pot of 2) or bets 1;
# - facing a bet, a player **folds** (`p`: gives up, losing its ante) or **calls** (`b`: puts in 1 too;
#   the higher card wins the pot of 4).
#
# The deal is a **chance node** at the root: six ordered pairs of cards, each with probability 1/6.
#
# **Predict.** Each player's information set is what it knows when it acts: its own card and the moves
# so far. How many information sets does player 1 have? And player 2? Write your guesses down, then run:

# %%
kuhn = cfrviz.load_game("kuhn_poker")
print(kuhn)
for player in (0, 1):
    keys = [k for k, p in zip(kuhn.infoset_keys, kuhn.infoset_player) if p == player]
    print(f"player {player + 1}: {len(keys)} information sets:", ", ".join(sorted(keys)))

# %% [markdown]
# Player 1 acts at two moments — at the start, and after checking and then facing a bet — with any of three
# cards: 3 × 2 = 6 sets. Player 2 also acts at two moments — after a check, or facing a bet — with three
# possible cards: 6 sets. A set's **key** is the acting player's card followed by the moves it has seen:
# `Qb` is "I hold Q and player 1 has bet". A node's history puts both cards first, then a colon:
# `JQ:b` is the node where player 1 holds J, player 2 holds Q and player 1 has bet.
#
# Here is the whole tree. The shaded bands are player 1's opening sets (`J`, `Q`, `K`); sets whose nodes
# lie far apart are joined by dashed connectors with their keys. Hover over a node to see its history and
# the other members of its set.

# %%
cfrviz.plot_tree(kuhn)

# %% [markdown]
# Every set in Kuhn poker has two nodes: the two cards the *opponent* might hold. That is exactly what the
# acting player cannot see. Pick a set in the list below; its members are ringed on the tree.

# %%
infoset_picker(kuhn, "Kp")

# %% [markdown]
# Notice one more thing: the nodes of a set agree on everything the acting player itself did and saw (its
# card, its own earlier moves). The player never forgets. Games with this property have **perfect
# recall**; all the poker games in this course have it, and CFR relies on it.
#
# ### Exercise 1 — which set?
# Take the node `JQ:b`: player 1 holds J, player 2 holds Q, player 1 has bet. Who acts there, and in which
# information set is the node? Give the set's key, and the history of **another** node in the same set.
# (Solution: `%load solutions/02_which_set.py`.)

# %% tags=["exercise-which-set"]
my_key = None         # a key, e.g. "Kp"
my_other_node = None  # a history, e.g. "KJ:pb"

# %%
check.check_which_set(my_key, my_other_node)

# %% [markdown]
# ## 3 · Behaviour strategies
#
# Since a player cannot tell the nodes of a set apart, its strategy can only depend on the set. A
# **behaviour strategy** gives, at each of the player's information sets $I$, a probability distribution
# $\sigma_i(I)$ over the actions there. A pair of them, $\sigma = (\sigma_1, \sigma_2)$, is a **strategy
# profile**. In `cfrviz` a `Policy` holds a profile as one row per information set.
#
# Lesson 01's mixed strategies were different: a distribution over *pure* strategies, each of which fixes
# one action at every set. Counting them shows why that view does not scale:

# %%
for name in ("kuhn_poker", "leduc_poker"):
    game = cfrviz.load_game(name)
    for player in (0, 1):
        sets = np.flatnonzero(game.infoset_player == player)
        pure = math.prod(len(game.infoset_actions[i]) for i in sets)
        count = f"{pure:,}" if pure < 10**6 else f"a number with {len(str(pure))} digits"
        print(f"{name:<12} player {player + 1}: {len(sets):>3} information sets, "
              f"pure strategies: {count}")

# %% [markdown]
# A mixed strategy over 64 pure strategies takes 63 numbers; a behaviour strategy in Kuhn poker takes six
# (one betting probability per set). H. W. Kuhn (1953) showed that with perfect recall the two are equally
# powerful: whatever a mixed strategy can do, a behaviour strategy can do too. So we may learn one small
# distribution per information set — which is what CFR does.
#
# Here is a profile, drawn on one deal. Sets it does not mention are played uniformly (half and half);
# edge labels show each action's probability and edge widths follow it. The ringed node is the one the
# next exercise asks about.

# %%
policy = cfrviz.Policy.from_dict(kuhn, check.REACH_POLICY)
for key in check.REACH_POLICY:
    print(f"{key:<4}", policy[key])
cfrviz.plot_tree(kuhn, policy, subtree="QJ", selected_infoset="Qpb")

# %% [markdown]
# ## 4 · Reach probabilities
#
# The **reach probability** $\pi^\sigma(h)$ of a node $h$ is the probability that a play following the
# profile $\sigma$ passes through $h$: the product of the probabilities on the edges from the root down to
# $h$. Each factor belongs to whoever chose that edge, so the product splits into three parts:
#
# $$ \pi^\sigma(h) = \pi^\sigma_1(h)\,\pi^\sigma_2(h)\,\pi_c(h), $$
#
# player 1's contribution (the product of its own action probabilities on the path), player 2's, and
# chance's. The product of everything *except* player $i$'s part gets a name of its own, $\pi^\sigma_{-i}(h)$:
# for player 1 it is $\pi^\sigma_2(h)\,\pi_c(h)$. Lesson 03 is built on it.
#
# ### Exercise 2 — a reach probability by hand
# Under the profile drawn above, what is the probability of reaching the node `QJ:pb` (player 1 holds Q,
# player 2 holds J, player 1 checked, player 2 bet; player 1 is about to act)? Read the numbers off the
# figure. (Solution: `%load solutions/02_reach.py`.)

# %% tags=["exercise-reach"]
my_reach = None  # a number; a product such as 1/2 * 1/3 is fine

# %%
check.check_reach(my_reach)

# %% [markdown]
# The package splits a reach probability the same way. Here is its working for another node of the
# same profile, `KJ:pb` (player 1 holds K this time, checks, and player 2 bets with J); set it
# beside yours for `QJ:pb`:

# %%
check.reach_breakdown(kuhn, policy, "KJ:pb")

# %% [markdown]
# Reach probabilities also give the value of a profile. Every play ends at exactly one leaf $z$, so the
# leaves' reach probabilities sum to 1, and a player's expected payoff is
#
# $$ u_i(\sigma) = \sum_{z \text{ a leaf}} \pi^\sigma(z)\, u_i(z). $$
#
# The next cell computes every node's three factors at once (rows: player 1, player 2, chance), takes the
# products at the leaves and checks the sum against `cfrviz.expected_values`:

# %%
reach = reach_probabilities(kuhn, policy)
leaves = np.flatnonzero(kuhn.player == TERMINAL)
leaf_reach = reach[:, leaves].prod(axis=0)
print(f"the {len(leaves)} leaves' reach probabilities sum to {leaf_reach.sum():.6f}")
print(f"player 1's expected payoff, leaf by leaf: {leaf_reach @ kuhn.utility[leaves, 0]:+.6f}")
print(f"cfrviz.expected_values:                   {cfrviz.expected_values(kuhn, policy)[0]:+.6f}")

# %% [markdown]
# ## Summary
#
# - A game tree has decision nodes (one player chooses), chance nodes (the rules draw an outcome) and
#   leaves (payoffs). A node is named by its history.
# - An **information set** groups the nodes a player cannot tell apart; it must act the same way at all of
#   them. In rock-paper-scissors player 2's three nodes form one set; in Kuhn poker each set pairs the two
#   cards the opponent might hold.
# - A **behaviour strategy** is one distribution over actions per information set; with perfect recall
#   it is as powerful as a mixed strategy, and far smaller.
# - The **reach probability** of a node is the product of the probabilities on its path, and splits into
#   $\pi_1 \pi_2 \pi_c$. Leaving out player $i$'s own part gives $\pi_{-i}$, the weight at the heart of CFR.
#
# **Read more.** H. W. Kuhn, *A simplified two-person poker*, Contributions to the Theory of Games I, 1950
# (the game). H. W. Kuhn, *Extensive games and the problem of information*, Contributions to the Theory of
# Games II, 1953 (information sets, perfect recall, behaviour strategies). M. Zinkevich, M. Johanson,
# M. Bowling and C. Piccione, *Regret Minimization in Games with Incomplete Information*, NIPS 2007
# (the notation $\pi_i$, $\pi_{-i}$ used here). T. Neller and M. Lanctot, *An Introduction to Counterfactual
# Regret Minimization*, 2013 (its worked example is Kuhn poker).
#
# Previous: [01 · Regret matching on rock-paper-scissors](01_regret_matching.ipynb). Next: [03 · Counterfactual regret](03_counterfactual_regret.ipynb) —
# what a regret minimizer at one information set should count as its payoff.
