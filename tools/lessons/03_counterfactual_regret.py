# %%
# Source of lessons/03_counterfactual_regret.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 03 · Counterfactual regret
#
# **Goals.** By the end of this lesson you can
# - compute the *counterfactual value* of an information set and of each of its actions, and say why it
#   counts chance's and the opponent's reach but not the player's own;
# - write a function that computes the counterfactual values of any information set;
# - turn counterfactual values into *counterfactual regrets*, and regrets into a strategy at every
#   information set — which is CFR;
# - read the recursive CFR of `cfrviz.reference` line by line, and write its regret update yourself;
# - see what the most common mistake, own reach instead of the opponent's, does to training.
#
# **You need** lesson 01 (regret, regret matching, why the *average* strategy) and lesson 02 (game trees,
# information sets, reach probabilities $\pi_1, \pi_2, \pi_c, \pi_{-i}$). About {{minutes}} minutes.
# Previous: [02 · Games as trees](02_games_as_trees.ipynb). Next: [04 · CFR on Kuhn poker](04_cfr_on_kuhn.ipynb).

# %%
import numpy as np
from IPython.display import HTML, display

import cfrviz
from cfrviz.exercises import lesson03 as check
from cfrviz.analysis.explain import infoset_snapshot, snapshot_html
from cfrviz.reference import vanilla_cfr, walk
from cfrviz.reference.updates import update_comparison
from cfrviz.views.compare import UPDATE_LABELS, update_comparison_figure
from cfrviz.views.listing import listing
from cfrviz.widgets import bluff_explorer

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · One small learner per information set
#
# Regret matching (lesson 01) needs a short list of actions and, after each round, a payoff for every one
# of them. Applied to a whole poker game, the "actions" would be pure strategies: $2^6 = 64$ per player
# in Kuhn poker (one of two actions at each of six sets), and a number too long to write out in Leduc
# poker (lesson 02 counted them). That road is closed.
#
# **Counterfactual regret minimization** (CFR; Zinkevich, Johanson, Bowling and Piccione, 2007) takes
# another one: it places a small regret matcher at *every information set*, choosing only among that
# set's own actions — two in Kuhn poker. Each one learns on its own. What remains is to say what payoff
# the learner at a set $I$ should receive for each action. The answer is the counterfactual value.
#
# ## 2 · Counterfactual value
#
# Write $u_i(\sigma, h)$ for player $i$'s expected payoff when play starts at node $h$ and then follows the
# profile $\sigma$, and $ha$ for the node reached from $h$ by action $a$. The **counterfactual values** of
# an information set $I$ of player $i$, and of each action $a$ there, are
#
# $$ v_i(\sigma, I) = \sum_{h \in I} \pi^\sigma_{-i}(h)\, u_i(\sigma, h), \qquad
#    v_i(\sigma, I \to a) = \sum_{h \in I} \pi^\sigma_{-i}(h)\, u_i(\sigma, ha). $$
#
# Each node of the set counts with weight $\pi^\sigma_{-i}(h)$: the probability that **chance and the
# opponent** lead play to $h$. The player's own reach $\pi^\sigma_i(h)$ is left out. And since the player
# mixes its actions with $\sigma(I)$, $v_i(\sigma, I) = \sum_a \sigma(I, a)\, v_i(\sigma, I \to a)$.
#
# An example. Player 1 bets with every K, with a third of its J's (a bluff), and never with Q; player 2
# holds Q and faces a bet, the set `Qb`. The tree below stops two levels down; the ringed nodes are the two
# members of `Qb`: player 1 holds J, or player 1 holds K.

# %%
kuhn = cfrviz.load_game("kuhn_poker")
bluffer = cfrviz.Policy.from_dict(kuhn, check.BLUFF_POLICY)
cfrviz.plot_tree(kuhn, bluffer, depth=2, selected_infoset="Qb")

# %% [markdown]
# **Predict before you compute.** Player 2 holds the middle card and faces a bet. Against this player 1,
# is calling better than folding, worse, or the same?
#
# ### Exercise 1 — counterfactual values by hand
# Compute player 2's counterfactual value of **folding** (`p`) and of **calling** (`b`) at `Qb`. Payoffs to
# player 2: folding loses its ante, $-1$; calling wins $+2$ against J and loses $2$ against K.
# Weight each node by chance's probability of the deal times player 1's probability of betting.
# (Solution: `%load solutions/03_counterfactual_values.py`.)

# %% tags=["exercise-counterfactual-values"]
my_values = None  # [value of folding, value of calling]

# %%
check.check_counterfactual_values(my_values)

# %% [markdown]
# ### Exercise 2 — counterfactual values as code
# Now let the computer do exercise 1 for any set, any strategy and any game. Write
# `my_counterfactual_values(tree, strategy, info)`: it returns, for each action $a$ of set `info`,
# $v_i(\sigma, I \to a) = \sum_{h \in I} \pi^\sigma_{-i}(h)\, u_i(\sigma, ha)$. Two helpers do the work:
# `others_reach(node)` climbs from `node` to the root through `tree.parent`, multiplying the probability of
# every move made by chance or by the opponent (the acting player's own moves are skipped), and
# `value(node)` returns player $i$'s expected payoff below a node by recursion, as `walk` will in section 4.
# The docstring lists what the tree gives. The checker calls your function on sets of Kuhn poker and of
# Leduc poker (where some deals are likelier than others), under several strategies, random ones among
# them. (Solution: `%load solutions/03_counterfactual_function.py`.)

# %% tags=["exercise-counterfactual-function"]
def my_counterfactual_values(tree, strategy, info):
    """The counterfactual value of each action of information set `info`, for its owner.

    tree: a GameTree, arrays indexed by node id (the root is node 0):
        tree.player[node]       0 or 1 at a decision, -1 at a chance node, -2 at a terminal
        tree.parent[node]       the parent's id (-1 at the root)
        tree.action[node]       the index of the action (or chance outcome) leading from the parent
        tree.children[node]     the children's ids, in action order
        tree.chance_prob[node]  the probability of the chance outcome leading to node
        tree.utility[node]      the payoffs [player 1, player 2] at a terminal
        tree.infoset[node]      the information set of a decision node
        tree.infoset_player[info], tree.infoset_actions[info]
    strategy: array (information sets x actions); strategy[tree.infoset[node], a] is the
        probability of action a at a decision node.
    info: the set's id (tree.infoset_index("Qb") gives it from a key).
    Returns one number per action of the set.
    """
    player = tree.infoset_player[info]
    nodes = np.flatnonzero(tree.infoset == info)  # the members of the set

    def others_reach(node):
        """The probability that chance and the opponent lead play from the root to `node`."""
        raise NotImplementedError  # replace this line with your code

    def value(node):
        """`player`'s expected payoff when play starts at `node` and follows `strategy`."""
        raise NotImplementedError  # replace this line with your code

    raise NotImplementedError  # replace this line with your code


# %%
check.check_counterfactual_function(my_counterfactual_values)

# %% [markdown]
# The package computes counterfactual values too: `counterfactual_values`, from
# `cfrviz.analysis.explain`, reads them off `cfrviz.engine.counterfactual_table`, the function the
# training explorer uses. Here they are at `Qb` for another player 1, one who never bluffs: it bets
# with K only. `regret` is each action's value minus the value of the strategy player 2 plays at
# `Qb`, uniform here.

# %%
from cfrviz.analysis.explain import counterfactual_values

honest = cfrviz.Policy.from_dict(kuhn, {**check.BLUFF_POLICY, "J": {"p": 1.0, "b": 0.0}})
qb = counterfactual_values(kuhn, honest, "Qb")
for name in ("opponent_reach", "own_reach", "action_values", "value", "regret"):
    print(f"{name:<15}", np.round(qb[name], 4))

# %% [markdown]
# Against a player 1 who never bluffs, a bet always means K: calling loses 2 where folding loses
# only the ante, so folding has the positive regret. Bluffs change that. The explorer below starts
# with this honest player 1. Move **player 1 bets with J** to 1/3, exercise 1's player, and compare
# the bars with your answer; then find out how player 2's values respond to player 1's betting.
# More bluffs make calling better; fewer bets with K make calling better too.

# %%
bluff_explorer()

# %% [markdown]
# ### Why the opponent's and chance's reach, and not the player's own?
#
# **They are the beliefs.** Divide the weights by their total and you get what player 2 should believe
# about the hidden card after seeing a bet from exercise 1's player 1: "J" with probability $\frac{1/18}{1/18 + 1/6} = \frac14$, "K"
# with $\frac34$. Those odds come from chance (the deal) and from the opponent (how often it bets each
# card). The player's own reach cannot change them: with perfect recall, every node of a set has the same
# own history, so $\pi_i(h)$ is the same number at all of them. Multiplying it in would only rescale the
# whole set.
#
# **A set you avoid still learns.** Dropping the own reach is what makes the value *counterfactual*: it is
# what the set would be worth *if the player had played to get there*. That matters for sets the player
# currently avoids. Exercise 1's player 1 never checks with K, so it never reaches `Kpb` (holding K, checked,
# facing a bet): its own reach there is 0. The counterfactual values still tell it that calling there
# beats folding, so the set keeps learning, and should checking with K ever become attractive, it will
# already know what to do.

# %%
kpb = counterfactual_values(kuhn, bluffer, "Kpb")
print(f"Kpb  own reach {kpb['own_reach']}, opponent-and-chance reach {kpb['opponent_reach']:.4f}")
print("     counterfactual values (fold, call):", np.round(kpb["action_values"], 4))

# %% [markdown]
# ## 3 · Counterfactual regret, and CFR
#
# With counterfactual values as payoffs, regret at a set is defined exactly as in lesson 01. At iteration
# $t$ the **counterfactual regret** of action $a$ (of that one iteration, sometimes called *instantaneous*)
# is
#
# $$ r^t(I, a) = v_i(\sigma^t, I \to a) - v_i(\sigma^t, I), $$
#
# the cumulative regret is $R^T(I, a) = \sum_{t \le T} r^t(I, a)$, and the next strategy at the set is
# regret matching on it:
#
# $$ \sigma^{T+1}(I, a) = \frac{\max(R^T(I, a), 0)}{\sum_b \max(R^T(I, b), 0)} \quad
#    \text{(uniform if no regret is positive)}. $$
#
# Zinkevich et al. (2007) name the average of the best of these sums the set's **immediate counterfactual
# regret**,
#
# $$ R^T_{i,\text{imm}}(I) = \frac1T \max_a R^T(I, a), $$
#
# a single number per set, and proved that a player's overall average regret is at most the sum, over its
# information sets, of their positive parts. Each set's regret matcher keeps $\max_a R^T(I, a)$ growing
# slower than $T$, so every immediate counterfactual regret, and with them the overall average regret, goes
# to 0; by lesson 01's argument the **average** strategies approach a Nash equilibrium.
#
# The average is the one place where the player's own reach does come in. Iterations in which the player
# rarely reached $I$ say little about how it plays there, so they count less:
#
# $$ \bar\sigma^T(I, a) = \frac{\sum_{t \le T} \pi_i^{\sigma^t}(I)\, \sigma^t(I, a)}{\sum_{t \le T} \pi_i^{\sigma^t}(I)}. $$
#
# ## 4 · The recursive CFR, line by line
#
# `cfrviz.reference.vanilla_cfr` is a plain Python version of CFR (the package's fast engine is tested
# against it after every iteration). Its heart is the function `walk`, beside it in `cfrviz.reference`, that visits the whole tree once for
# the player being updated, carrying the node's reach split three ways, `reach = [π₁, π₂, π_c]`, and
# returning the node's value for that player. First, the two easy kinds of node:

# %%
listing(walk, "def walk", "return value")

# %% [markdown]
# - A **leaf** returns its payoff for `player`.
# - A **chance node** goes down each outcome, multiplying chance's entry of the reach by the outcome's
#   probability, and returns the probability-weighted average of the children's values.
#
# Then the decision nodes, where the work happens:

# %%
listing(walk, "info = tree.infoset[node]", "return value")

# %% [markdown]
# - For each action, the acting player's entry of the reach (`step[kind]`) is multiplied by that action's
#   probability, and the walk goes down. `action_values[a]` is $u_i(\sigma, ha)$: the value for `player`
#   *from* the child on, not yet weighted.
# - `value` mixes them with the strategy: $u_i(\sigma, h)$.
# - At the updated player's own nodes (`kind == player`), the node adds `update(reach, player,
#   action_values, value)` to the row of its set, `regret[info]`. Every node of a set adds into the same
#   row, so the sum over $h \in I$ happens by itself.
# - The strategy sum grows by the player's **own** reach times its strategy, for the average.
#
# By default `update` is `counterfactual_regret`, CFR's own rule; a caller may pass another. Its body
# is exercise 3, so its listing comes after the exercise.
#
# Finally the loop over iterations:

# %%
listing(vanilla_cfr, "for t in range(1, iterations + 1)", "yield")

# %% [markdown]
# Each iteration computes the current strategy by regret matching, walks the tree for player 1 and adds
# its regrets, recomputes the strategy, then walks for player 2 (*alternating updates*: player 2 already
# faces player 1's new strategy). `rounded_regret_matching` is the regret matching you wrote in lesson
# 01 with one guard: a row whose positive regrets add up to no more than `tol`, a bound on the rounding
# error of the sums (about $10^{-13}$ times the largest payoff per iteration), plays uniformly, as if
# they were exactly 0. Without it, two programs that add the same numbers in different orders could
# play different strategies from the same regrets.
#
# Here is one iteration with numbers. The reference's regret at `Qb` after iteration 1, beside the
# training explorer's panel for the same set, computed independently from the engine's trace:

# %%
first = next(vanilla_cfr(kuhn, 1))
qb_row = kuhn.infoset_index("Qb")
print("vanilla_cfr, iteration 1, regret at Qb:", np.round(first["regret"][qb_row], 6))
trace = cfrviz.solve(kuhn, "cfr", iterations=1, progress=False)
display(HTML(snapshot_html(infoset_snapshot(trace, 0, "Qb"))))

# %% [markdown]
# ### Exercise 3 — complete the regret update
# Write the line that CFR adds to the regrets at one node of the player being updated. Your function gets
# the node's `reach` (a numpy array `[player 1, player 2, chance]`), the acting `player` (0 or 1),
# `action_values` (a numpy array, one value per action) and the node's `value`. It must return one number
# per action. The checker passes it to `vanilla_cfr` as its `update`, runs it beside the unchanged
# `vanilla_cfr` on Kuhn poker, then on a Kuhn poker whose deals are uneven (probabilities 1/21 to 6/21,
# so chance's reach is not always 1/6), and compares the cumulative regrets after every iteration.
# (Solution: `%load solutions/03_regret_update.py`.)

# %% tags=["exercise-regret-update"]
def my_regret_update(reach, player, action_values, value):
    raise NotImplementedError  # replace this line with your code


# %%
check.check_regret_update(my_regret_update)

# %% [markdown]
# Once the checker is happy, compare with the reference's own rule:

# %%
from cfrviz.reference import counterfactual_regret

listing(counterfactual_regret)

# %% [markdown]
# `others` is $\pi_{-i}(h)$, chance's reach times the opponent's, and `others * (action_values - value)` is
# this node's share of the counterfactual regret of its set.

# %% [markdown]
# ## 5 · Predict, then reveal: the own-reach mistake
#
# The commonest bug in home-made CFR is to weight regrets by the player's **own** reach, `reach[player]`,
# instead of the opponent's and chance's. **Predict:** does CFR still find an equilibrium of Kuhn poker
# with that update? Faster, slower, or not at all?
#
# The next cell trains 1,000 iterations with each update (plain Python, a few seconds) and plots the
# exploitability of the average strategy:

# %%
comparison = update_comparison(kuhn, iterations=1000, names=("cfr", "own-reach"))
for name in ("cfr", "own-reach"):
    print(f"{UPDATE_LABELS[name]:<32} exploitability after 1,000 iterations: {comparison[name][-1]:.5f}")
update_comparison_figure(comparison)

# %% [markdown]
# With the right weights, exploitability keeps falling. With the player's own reach it levels off and stays
# there: no matter how long it trains, the result can be exploited. The cause is the one from section 2.
# With its own reach as the weight (which is 1 at all of player 2's sets, since player 2 acts only once),
# player 2 at `Qb` counts "player 1 holds J" and "player 1 holds K" equally, whatever player 1 does. It
# cannot see how often player 1 bets each card, so it cannot answer player 1's bluffs.
#
# ## Summary
#
# - CFR runs regret matching separately at every information set. The payoff of an action there is its
#   **counterfactual value**: the values of the set's nodes weighted by the reach of **chance and the
#   opponent**, $\pi_{-i}(h)$.
# - Those weights are the player's beliefs about what it cannot see. The player's own reach is the same
#   at every node of a set, and leaving it out lets sets the player avoids keep learning.
# - The counterfactual regret of an action in one iteration is $v(I \to a) - v(I)$. Summed over the
#   iterations, it is what regret matching is fed; its best sum divided by $T$, the *immediate*
#   counterfactual regret of the set, bounds the player's overall average regret, so the **average**
#   strategy (weighted by own reach) approaches an equilibrium.
# - In code: `regret += reach[2] * reach[1 - player] * (action_values - value)`. Own reach in its place
#   stalls training.
#
# **Read more.** M. Zinkevich, M. Johanson, M. Bowling and C. Piccione, *Regret Minimization in Games with
# Incomplete Information*, NIPS 2007 (counterfactual regret, and the theorem that bounds overall regret by
# it). T. Neller and M. Lanctot, *An Introduction to Counterfactual Regret Minimization*, 2013 (a gentle
# walk through CFR on Kuhn poker). S. Hart and A. Mas-Colell, *A simple adaptive procedure leading to
# correlated equilibrium*, Econometrica 2000 (regret matching).
#
# Previous: [02 · Games as trees](02_games_as_trees.ipynb). Next: [04 · CFR on Kuhn poker](04_cfr_on_kuhn.ipynb) —
# the training explorer, where bluffing and slow-playing appear as CFR learns.
