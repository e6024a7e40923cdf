# %%
# Source of lessons/11_linear_programming.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 11 · Solving exactly: the sequence form and linear programming
#
# **Goals.** By the end of this lesson you can
# - say what a *sequence* and a *realization plan* are, and why they make a game linear;
# - build the sequence form's constraints $E x = e$ for Kuhn poker and solve its linear program
#   with SciPy's `linprog`;
# - compare the exact LP with CFR in time and memory, measured, and say why poker programs use
#   CFR all the same.
#
# **You need** lessons 05 (best response, exploitability), 08 (CFR+, DCFR) and 10 (Leduc poker).
# About {{minutes}} minutes.
#
# Previous: [10 · Scaling up](10_scaling_up.ipynb). Next: [12 · The road to superhuman poker](12_road_to_superhuman.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
from pathlib import Path

import numpy as np
from IPython.display import HTML, display

import cfrviz
from cfrviz.analysis.lp_scaling import average_values, load_recorded, power_law, race, table_html
from cfrviz.analysis.realization import sequence_labels
from cfrviz.exercises import lesson10 as check
from cfrviz.exercises import sequence_form as check_sf
from cfrviz.views.compare import log_checkpoints
from cfrviz.views.lp import exact_convergence_figure, lp_vs_cfr_figure
from cfrviz.widgets.realization import RealizationPlanExplorer

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)
kuhn = cfrviz.load_game("kuhn_poker")
leduc = cfrviz.load_game("leduc_poker")

# %% [markdown]
# ## 1 · CFR or linear programming?
#
# CFR creeps up on an equilibrium. A two-player zero-sum game can also be solved **exactly, in one
# go**, by a linear program — so why do poker programs bother with CFR?
#
# The linear program works on the **sequence form** (Koller, Megiddo and von Stengel, 1994; von
# Stengel, 1996). A *sequence* of a player is one of their own moves, an (information set, action)
# pair, or the empty sequence at the start. Instead of the probability of each action, a
# **realization plan** gives each sequence the product of the player's own probabilities along the
# way to it. Two things become linear:
# - the constraints: the empty sequence gets weight 1, and the actions of an information set share
#   out the weight of the sequence that leads to it (perfect recall makes that sequence unique);
# - the payoff: each terminal history adds (chance's probability) × (player 1's weight on their
#   last sequence) × (player 2's weight on theirs) × (payoff), so it is $x^\top A y$ with one entry
#   of the matrix $A$ per pair of last sequences.
#
# Player 1 maximises the worst case $\min_y x^\top A y$; replacing the inner minimum by its dual
# turns the whole problem into one linear program, of the size of the tree.
# `cfrviz.exact_equilibrium` builds it from the tree's arrays and hands it to HiGHS (Huangfu and
# Hall, 2018), a sparse LP solver, through SciPy. On Leduc:

# %%
exact = cfrviz.exact_equilibrium(leduc)
print(exact)
print(f"exploitability of the LP's policy: {cfrviz.exploitability(leduc, exact.policy):.1e} "
      f"(rounding error: the policy is exact)")

# %% [markdown]
# ## 2 · The sequence form of Kuhn poker, by hand
#
# Before racing the LP against CFR, build one yourself, on Kuhn poker. Each player has 13
# sequences: the empty one, and two (pass `p`, bet `b`) at each of their six information sets.
# They are numbered as cfrviz numbers them: column 0 is ∅, and action `a` of information set
# `I` is column `first[I] + a`. The two lists below give every column its name (`Jpb·b` is "bet
# at information set `Jpb`"):

# %%
first = check_sf.first_columns(kuhn)  # first[I]: the column of information set I's first action
for p in (0, 1):
    names = sequence_labels(kuhn, p)
    print(f"player {p + 1}: " + "  ".join(f"{i}={name}" for i, name in enumerate(names)))

# %% [markdown]
# ### Exercise 1 — the constraints $E x = e$
# Write `my_constraints(tree, player, first)`, returning `(E, e)` for `player` (0 or 1), as
# numpy arrays:
# - one **column** per sequence of the player, numbered as above;
# - **row 0** says $x(\varnothing) = 1$: a 1 in column 0, and $e_0 = 1$;
# - then one **row per information set** of the player (in the order of their ids): its
#   actions' weights add up to the weight of the sequence that leads to it. That sequence is the
#   player's **own last move** before the set, or ∅ if they have not moved yet. So the row has
#   $+1$ on each action's column, $-1$ on that parent sequence's column, and $e = 0$.
#
# To find each set's parent sequence, walk the tree from the root (node 0):
# `tree.children[node]` lists a node's children, `tree.player[node]` is 0 or 1 for a
# player's decision (negative for chance and terminals), `tree.infoset[node]` is the
# information set of a decision node, and `tree.action[child]` is the number of the action
# that leads to `child`. `tree.infoset_player` and `tree.infoset_actions` give each set's owner
# and actions. The checker runs your function for both players of Kuhn poker and of Leduc poker
# with two ranks, and names the first row that is wrong.
# (Solution: `%load solutions/11_plan_constraints.py`.)

# %% tags=["exercise-plan-constraints"]
def my_constraints(tree, player, first):
    """(E, e): the row x(∅) = 1, then one row per information set of `player`."""
    raise NotImplementedError  # replace this line


# %%
check_sf.check_plan_constraints(my_constraints)

# %% [markdown]
# ### Exercise 2 — solve Kuhn poker with `linprog`
# With $E, e$ for player 1, $F, f$ for player 2 and the payoff matrix $A$ (one row per sequence
# of player 1, one column per sequence of player 2), the value of the game to player 1 is the
# optimum of
#
# $$ \max_{x,\,q}\; f^\top q \quad\text{subject to}\quad F^\top q - A^\top x \le 0,\quad
#    E x = e,\quad x \ge 0,\quad q \text{ free.} $$
#
# ($q$ has one entry per row of $F$: for each plan $x$, $\max f^\top q$ over the first
# constraint is what player 2's best response leaves player 1.) Write
# `my_game_value(A, E, e, F, f, linprog)`: solve this program with the `linprog` it is given
# (SciPy's `scipy.optimize.linprog`, which the checker watches so that it can tell you what is
# wrong with your program) and return the value. Mind two things about `linprog`: it
# **minimises** `c @ z`, and unless told otherwise it keeps **every** variable at $\ge 0$. The
# variables are $z = (x, q)$. The checker runs it on Kuhn poker, where the value must be
# $-1/18$ to within $10^{-7}$, and on two matrix games. The matrices of Kuhn poker are below.
# (Solution: `%load solutions/11_sequence_lp.py`.)

# %%
from cfrviz.solvers.lp import sequence_form

kuhn_form = sequence_form(kuhn)
A = kuhn_form.payoff.toarray()
E, F = (m.toarray() for m in kuhn_form.constraints)
e = f = np.eye(len(E))[0]
print(f"A: {A.shape}, {np.count_nonzero(A)} nonzero entries; E: {E.shape}; F: {F.shape}")

# %% tags=["exercise-sequence-lp"]
def my_game_value(A, E, e, F, f, linprog):
    """The value of the game to player 1, from the sequence-form linear program."""
    raise NotImplementedError  # replace this line


# %%
check_sf.check_sequence_lp(my_game_value)

# %% [markdown]
# ### Explore: a realization plan by hand
#
# A slider for each of player 1's sequences, and beside each information set its row of
# $E x = e$: whether it holds, or by how much it fails. The widget starts at the uniform
# strategy. Move `x(J·b)` alone: set `J`'s row fails. Move `x(J·p)` to make it hold again, and
# now `Jpb`'s row fails, because its parent weight changed: a realization plan moves in
# blocks. While every row holds, the widget shows the strategy, what it earns against player 2's
# LP strategy, and what it earns against player 2's **best response**, the number the linear
# program maximises. Press **equilibrium (LP)**: that number reaches the value, $-1/18$. From
# the uniform strategy, watch how much a best response takes from player 1.

# %%
RealizationPlanExplorer(kuhn)

# %% [markdown]
# ## 3 · Predict, then reveal: who is faster?
#
# CFR+ needs a few hundred iterations to bring Leduc's exploitability below $10^{-3}$ chips per
# hand. **Predict** before you run the next cells:
# 1. On Leduc, which finishes first: the exact LP, or CFR+ to an exploitability of $10^{-3}$?
# 2. Same rules, but 13 ranks instead of 3 (a whole suit, 26 cards): which wins now?
#
# Write your two guesses down.
#
# First, how CFR's answers approach the exact one. Three runs of 1,000 iterations, measured against
# the LP: how far the value each run's average strategy gives player 1 is from the exact value of
# the game (top), and the run's exploitability (bottom). Both panels share one log scale, so their
# heights compare directly.

# %%
checkpoints = log_checkpoints(1000, 50)
runs = [cfrviz.solve(leduc, name, 1000, checkpoints=checkpoints)
        for name in ("cfr", "cfr+", "dcfr")]
run_values = [average_values(run) for run in runs]
for name, run, values in zip(("CFR", "CFR+", "DCFR"), runs, run_values):
    print(f"{name:5} after 1,000 iterations: exploitability {run.exploitability[-1]:.1e}, "
          f"|value − exact value| {abs(values[-1] - exact.value):.1e}")
exact_convergence_figure(runs, run_values, exact.value,
                         lp_exploitability=cfrviz.exploitability(leduc, exact.policy),
                         labels=["CFR", "CFR+", "DCFR"])

# %% [markdown]
# The value is never further from the exact value than twice the exploitability: both lie between
# what a best response can take from each player. In practice it is much closer (the top curves
# sit decades below the bottom ones), so a run's *value* looks settled long before its *strategy*
# is. The LP got to the exact value, written in the corner, in one call.
#
# Now the race, measured now on this machine for small games. `race` times the LP, finds the first
# iteration (checkpoints 4% apart) at which CFR+'s average strategy is exploitable by at most
# $10^{-3}$, and times a run of exactly that many iterations. Times are **CPU seconds** of this
# process, which other programs running on the machine hardly change. `leduc_poker(ranks=N)` is
# Leduc with N ranks of two suits each (`ranks=3` is Leduc; `ranks=4` deals T J Q K):

# %%
LIVE = [("Kuhn", "kuhn_poker", {}), ("Leduc, 2 ranks", "leduc_poker", {"ranks": 2}),
        ("Leduc", "leduc_poker", {}), ("Leduc, 4 ranks", "leduc_poker", {"ranks": 4})]
live = [race(cfrviz.load_game(name, **params), label, memory=False)
        for label, name, params in LIVE]
display(HTML(table_html(live)))

# %% [markdown]
# Memory is left out above: this notebook's process has already used and freed plenty, and a solver
# reuses that memory unseen. For it, and for bigger games, we ran `benchmarks/bench_lp_scaling.py`
# once, each game in a fresh process, and stored its rows: they are **recorded**, not measured now,
# and the cell prints where, when and with which command. Memory there is the peak growth of the
# process's resident memory during the solve (HiGHS' own allocations included). The chart shows
# both: recorded rows as lines with open circles, this session's as filled diamonds (the legend
# names each solver once, by colour).

# %%
recorded, recorded_meta = load_recorded(Path("..") / "data" / "benchmarks" / "lp_vs_cfr.json")
print(f"Recorded {recorded_meta['date']} on {recorded_meta['machine']}\n"
      f"with: {recorded_meta['command']}\n")
display(HTML(table_html(recorded)))
lp_vs_cfr_figure(recorded, live)

# %% [markdown]
# How fast does each cost grow? A straight line on a log-log chart is a power law,
# $\text{cost} \approx c \cdot n^b$, with $n$ the sequences per player; fitting one to the recorded
# rows of 1,000 sequences and more:

# %%
large = [r for r in recorded if r.sequences >= 1000]
sizes = [r.sequences for r in large]
for what, costs in (("LP time (s)", [r.lp_seconds for r in large]),
                    ("CFR+ time to 1e-3 (s)", [r.cfr_seconds for r in large]),
                    ("LP memory (MB)", [r.lp_bytes / 1e6 for r in large]),
                    ("CFR+ memory (MB)", [r.cfr_bytes / 1e6 for r in large])):
    b, c = power_law(sizes, costs)
    print(f"{what:24} ≈ {c:.4g} × n^{b:.3f}")
exponent, factor = power_law(sizes, [r.lp_bytes / 1e6 for r in large])
heavier = [r.sequences for r in large if r.cfr_bytes > r.lp_bytes]
print(f"sizes (sequences per player) where our CFR+ used more memory than the LP: "
      f"{', '.join(f'{n:,}' for n in heavier) or 'none'}")

# %% [markdown]
# Compare with your predictions (the "faster" column). On the tiniest games both take
# milliseconds. On games the size of Leduc the exact LP keeps up with CFR+ or beats it. But the
# LP's time grows with a larger exponent than CFR+'s, so the curves cross, and past the crossing
# CFR+'s lead grows with the game. CFR+'s iterations to $10^{-3}$ hardly change along the Leduc
# family (see the table); its time grows with the tree.
#
# Memory is not what stops the LP at these sizes: both stay in tens of megabytes. And on memory
# the recorded rows favour the LP, not CFR+: the LP's memory exponent is the smaller, and at the
# largest sizes our CFR+ used more (the last line). The reason is our CFR+, not CFR: it keeps the
# whole game tree in memory, laid out for speed, and the tree grows faster than the LP's
# sequence-form matrix. The dotted line is what CFR itself needs: its two tables, a number per
# information set and action each, far smaller. Programs for big games keep only those, and
# generate the tree as they walk it.
#
# ### Exercise 3 — where does the LP run out of memory?
# The cell above fitted the LP's peak memory as `factor × n ** exponent` megabytes, with `n` the
# sequences per player. Suppose the growth held for larger games. At how many sequences per player
# would the LP need a laptop's 16 GB (16,000 MB)? Use `exponent` and `factor`.
# (Solution: `%load solutions/11_lp_budget.py`.)

# %% tags=["exercise-lp-budget"]
my_sequences = None  # a number of sequences per player

# %%
check.check_lp_budget(my_sequences, exponent, factor)

# %% [markdown]
# ### So why do poker programs use CFR?
#
# - **Time.** The LP's cost grows faster than the game (the exponent above); a CFR+ iteration costs
#   one walk of the tree, and the number of iterations to a given accuracy grows slowly.
# - **Memory, for big games.** What matters is what each method *must* hold. The LP holds the
#   whole game at once: every sequence is a variable, every terminal history a coefficient, and
#   the solver keeps a factorisation of the matrix on top. CFR needs only its two tables (the
#   dotted line) and can generate the tree as it walks it; the tables can be compressed and split
#   across machines, as Cepheus did for limit hold'em ([The road to
#   superhuman poker](12_road_to_superhuman.ipynb)).
# - **Anytime.** Stop CFR whenever you like and its average strategy is usable, and better the
#   longer it ran, and its exploitability tells you how good. An LP solver stopped half-way is less
#   useful: a primal simplex iterate is a feasible strategy, but an uncertified one, with no bound
#   on how far from optimal it is, and an interior-point iterate need not even be feasible.
# - **Sampling.** Monte Carlo CFR (lesson 06) updates from sampled parts of the tree, so one
#   iteration never needs the whole game. The LP has no such shortcut.
#
# But the LP is **exact**, and on games the size of Leduc it is as fast as anything. That makes it
# the right referee for CFR on small games, as the top panel above showed.

# %% [markdown]
# ## Summary
#
# - A **realization plan** gives each of a player's sequences the product of their own
#   probabilities along it; $x(\varnothing) = 1$ and, at each information set, the actions share
#   out the weight of the player's own last move before it. These rows, $E x = e$, and the
#   payoff matrix $A$ make Kuhn poker one linear program, whose optimum is $-1/18$.
# - The sequence-form **linear program** solves a two-player zero-sum game exactly, and on small
#   games as fast as CFR. Its time grows faster than the game, it needs the whole game in memory
#   (our CFR+, which stores the tree too, needed more at the largest recorded sizes; CFR itself
#   needs only its tables), and a half-finished LP gives no certified strategy; CFR is anytime,
#   can sample and can be spread out. Poker programs use CFR; the LP checks it.
#
# **Read more.** D. Koller, N. Megiddo and B. von Stengel, *Fast Algorithms for Finding Randomized
# Strategies in Game Trees*, STOC 1994, and B. von Stengel, *Efficient Computation of Behavior
# Strategies*, Games and Economic Behavior 14, 1996 — the sequence form. Q. Huangfu and J. A. J.
# Hall, *Parallelizing the Dual Revised Simplex Method*, Mathematical Programming Computation 10,
# 2018 — HiGHS. O. Tammelin, *Solving Large Imperfect Information Games Using CFR+*, 2014.
#
# Previous: [10 · Scaling up](10_scaling_up.ipynb). Next: [12 · The road to superhuman poker](12_road_to_superhuman.ipynb).
