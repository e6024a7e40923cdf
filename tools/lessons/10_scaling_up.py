# Source of lessons/10_scaling_up.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 10 · Scaling up: Leduc and pocket poker
#
# **Goals.** By the end of this lesson you can
# - describe Leduc hold'em and pocket poker and count their information sets;
# - explain a **lossless abstraction** (playing ranks instead of cards) and check that it loses
#   nothing;
# - measure how a CFR iteration's time and memory grow with the game;
# - build the sequence form's constraints $E x = e$ for Kuhn poker and solve its linear program
#   with SciPy's `linprog`;
# - solve a game exactly with a linear program, and say why poker programs use CFR all the same;
# - run a tournament against archetype bots, and explain why an equilibrium strategy does not beat
#   every opponent by as much as it could;
# - write a pocket-poker bot of your own and see where it ranks among the archetypes;
# - play against the bot you trained.
#
# **You need** lessons 04–05 (CFR, best response, exploitability) and 08 (we solve with DCFR).
# About {{minutes}} minutes.
#
# Previous: [09 · The frontier of tabular solving](09_frontier.ipynb). Next: [11 · The road to superhuman poker](11_road_to_superhuman.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import math
from pathlib import Path

import numpy as np

import cfrviz
from cfrviz.exercises import lesson10 as check
from cfrviz.exercises import bots as bot_check
from cfrviz.play.entrants import situations
from cfrviz.widgets import leaderboard
from cfrviz.analysis.lp_scaling import average_values, load_recorded, power_law, race, table_text
from cfrviz.analysis.scaling import game_size, lift_policy, measure_scaling, solver_bytes
from cfrviz.views.compare import exploitation_figure, log_checkpoints
from cfrviz.views.lp import exact_convergence_figure, lp_vs_cfr_figure
from cfrviz.views.sizes import scaling_figure

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · Two bigger games
#
# **Leduc hold'em** (Southey et al., 2005) is the classic next step after Kuhn poker. The deck has
# six cards: jack, queen and king in two suits. Each player antes 1 chip and gets one private card.
# A betting round follows, in which a player checks or calls (`c`), bets or raises (`r`), or —
# only when facing a bet — folds (`f`); at most two bets per round, of 2 chips. Then one **public
# card** is turned up and a second round is played with bets of 4. A player whose card pairs the
# public card wins the showdown; otherwise the higher card wins.
#
# **Pocket poker** is the game of the course slides, which give its outline: 20 cards, two private
# cards each, one public card seen by both, a single betting round (fold, check, call, raise), and
# three of a kind beats a pair, which beats a high card. The details are cfrviz's own choices, not
# the slides': the cards are ten to ace in four suits, the public card is shown before the betting,
# and bets are of 2, at most two.
#
# The rules are in `game.description`; the sizes come from the trees:

# %%
kuhn = cfrviz.load_game("kuhn_poker")
leduc = cfrviz.load_game("leduc_poker")
leduc_suits = cfrviz.load_game("leduc_poker", suits=True)
pocket = cfrviz.load_game("pocket_poker")
GAMES = {"Kuhn": kuhn, "Leduc": leduc, "Leduc with suits": leduc_suits, "pocket poker": pocket}
print(f"{'game':18}{'nodes':>9}{'decision nodes':>16}{'terminals':>11}{'information sets':>18}")
for label, game in GAMES.items():
    s = game_size(game, label)
    print(f"{label:18}{s.nodes:>9,}{s.decision_nodes:>16,}{s.terminals:>11,}{s.infosets:>18,}")

# %% [markdown]
# ### Exercise 1 — count Leduc's information sets
# Count the information sets of Leduc poker **played on ranks** (you see "a king", not "the king of
# spades") without looking at the table above too hard. Some help:
# - within one betting round, the player to act can face six histories: none yet, `c`, `r`, `cr`,
#   `rr`, `crr`;
# - round one can end in a call in five ways: `cc`, `rc`, `crc`, `rrc`, `crrc` (a fold ends the game);
# - a player's information set is everything that player knows: their own card, the public card once
#   it is dealt, and all the betting so far.
#
# (Solution: `%load solutions/10_leduc_infosets.py`.)

# %% tags=["exercise-leduc-infosets"]
my_count = None  # a whole number

# %%
check.check_leduc_infosets(my_count)

# %% [markdown]
# ## 2 · A lossless abstraction
#
# Suits never decide anything in Leduc: there are no flushes. Holding the king of spades or the king
# of hearts gives the same chances against every card the opponent may hold, so a good strategy plays
# them the same way. Merging the information sets that differ only in suits gives the rank game:
# $288$ sets instead of $936$. Such a merge is a **lossless abstraction** (Gilpin and Sandholm, 2007):
# solving the small game and playing its strategy in the big one loses nothing.
#
# Check it: solve the rank game, copy each rank set's strategy to all its suited sets
# (`cfrviz.analysis.scaling.lift_policy`), and measure the copy in the suited game. Then solve the suited
# game directly for comparison.

# %%
ranks_trace = cfrviz.solve(leduc, "dcfr", 1000, checkpoints=[])
ranks_policy = ranks_trace.average_policy()
lifted = lift_policy(ranks_policy, leduc_suits)
print("rank set 'K:' (player 1, king, first move):     ", ranks_policy["K:"])
print("suited sets 'Ks:' and 'Kh:' in the lifted copy:", lifted["Ks:"], lifted["Kh:"])
print(f"exploitability in the rank game:   {cfrviz.exploitability(leduc, ranks_policy):.3e}")
print(f"the copy's, in the suited game:    {cfrviz.exploitability(leduc_suits, lifted):.3e}")
print(f"value for player 1, rank game:     {cfrviz.expected_values(leduc, ranks_policy)[0]:+.6f}")
suits_trace = cfrviz.solve(leduc_suits, "dcfr", 1000, checkpoints=[])
print(f"solving the suited game directly:  {cfrviz.expected_values(leduc_suits, suits_trace.average_policy())[0]:+.6f}"
      f"  (exploitability {cfrviz.exploitability(leduc_suits, suits_trace.average_policy()):.3e})")
print(f"solver time, 1,000 iterations: ranks {ranks_trace.extras['total_time']:.2f} s, "
      f"suits {suits_trace.extras['total_time']:.2f} s")

# %% [markdown]
# The copy is exactly as exploitable in the suited game as the original is in the rank game, and
# both games are worth the same to player 1 (about −0.0856, the known value of Leduc). Yet the rank
# game has about a third of the information sets and a fifth of the nodes (section 1's table), so
# every iteration is cheaper. Pocket poker is built on ranks from the start: the tree deals
# *multisets of ranks* ("AK", "QQ") with their exact probabilities. Counting deals:

# %%
labelled = math.comb(20, 2) * math.comb(18, 2) * 16
first_decisions = int(np.sum(pocket.depth == 3))  # three chance moves, then player 1's first decision
print(f"pocket poker deals of labelled cards: {labelled:,}; deals of ranks in our tree: "
      f"{first_decisions:,}")

# %% [markdown]
# Real programs go much further with **lossy** abstraction: they put *similar* hands (not only
# identical ones) into one bucket, and allow only a few bet sizes. The strategy of the abstract game is
# then only approximately good in the real one — lesson 11 shows how the superhuman programs cope.
#
# ## 3 · Time and memory
#
# One iteration of vanilla CFR visits every node, so its time should grow with the tree. Its memory
# is two tables (cumulative regrets and the strategy sum) with one number per information set and
# action, plus the tree itself. Measured here (best of three runs of 200 iterations, nothing
# evaluated):

# %%
scaling = measure_scaling(GAMES)
scaling

# %%
scaling_figure(scaling)

# %% [markdown]
# The points lie close to the dashed line of slope 1: time per iteration is roughly proportional to
# the number of nodes. The solver's tables are small next to the tree here, because poker trees have
# many nodes per information set (every deal the player cannot see). Lesson 11 pushes these
# measurements to the sizes of real poker.
#
# A trace is a third cost: by default it records about 200 snapshots of four tables.

# %%
leduc_trace = cfrviz.solve(leduc, "dcfr", 1000)
snapshot_bytes = sum(getattr(leduc_trace, name).nbytes for name in
                     ("cumulative_regret", "instantaneous_regret", "current_strategy",
                      "average_strategy"))
print(f"DCFR on Leduc, 1,000 iterations: {len(leduc_trace)} records, "
      f"{snapshot_bytes / 1e6:.1f} MB of snapshots; the solver's own tables: "
      f"{solver_bytes(leduc) / 1e3:.1f} kB; exploitability {leduc_trace.exploitability[-1]:.2e}")

# %% [markdown]
# ## 4 · CFR or linear programming?
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
# ### The sequence form of Kuhn poker, by hand
#
# Before racing the LP against CFR, build one yourself, on Kuhn poker. Each player has 13
# sequences: the empty one, and two (pass `p`, bet `b`) at each of their six information sets.
# They are numbered as cfrviz numbers them: column 0 is ∅, and action `a` of information set
# `I` is column `first[I] + a`. The two lists below give every column its name (`Jpb·b` is "bet
# at information set `Jpb`"):

# %%
from cfrviz.analysis.lp import sequence_form
from cfrviz.analysis.realization import sequence_labels
from cfrviz.exercises import sequence_form as check_sf
from cfrviz.widgets.realization import RealizationPlanExplorer

kuhn_form = sequence_form(kuhn)
first = kuhn_form.first  # first[I]: the column of information set I's first action
for p in (0, 1):
    names = sequence_labels(kuhn, p, kuhn_form)
    print(f"player {p + 1}: " + "  ".join(f"{i}={name}" for i, name in enumerate(names)))

# %% [markdown]
# ### Exercise 2 — the constraints $E x = e$
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
# (Solution: `%load solutions/10_plan_constraints.py`.)

# %% tags=["exercise-plan-constraints"]
def my_constraints(tree, player, first):
    """(E, e): the row x(∅) = 1, then one row per information set of `player`."""
    raise NotImplementedError  # replace this line


# %%
check_sf.check_plan_constraints(my_constraints)

# %% [markdown]
# ### Exercise 3 — solve Kuhn poker with `linprog`
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
# (Solution: `%load solutions/10_sequence_lp.py`.)

# %%
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
# the uniform strategy, a best response holds player 1 about 0.36 chips per hand below it.

# %%
RealizationPlanExplorer(kuhn)

# %% [markdown]
# ### Predict, then reveal: who is faster?
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
print(table_text(live))

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
print(table_text(recorded))
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

# %% [markdown]
# Compare with your predictions (the "faster" column). On the tiniest games both take
# milliseconds. On games the size of Leduc the exact LP keeps up with CFR+ or beats it. But the
# LP's time grows with a larger exponent than CFR+'s, so the curves cross, and past the crossing
# CFR+'s lead grows with the game. CFR+'s iterations to $10^{-3}$ hardly change along the Leduc
# family (see the table); its time grows with the tree.
#
# Memory is not what stops the LP at these sizes: both stay in tens of megabytes. And on memory
# the recorded rows favour the LP, not CFR+: the fit above gives the LP's peak memory an exponent
# near 1 (1.05) and our CFR+'s a larger one (1.74), and at three of the four largest sizes (5,125,
# 6,007 and 8,513 sequences per player) CFR+ used more (50.3 MB against the LP's 42.4 MB at 8,513). The reason is our CFR+,
# not CFR: it keeps the whole game tree in memory, laid out for speed, and the tree grows faster
# than the LP's sequence-form matrix. The dotted line is what CFR itself needs: its two tables, a number per information set and
# action each, far smaller. Programs for big games keep only those, and generate the tree as they
# walk it.
#
# ### Exercise 4 — where does the LP run out of memory?
# The cell above fitted the LP's peak memory as `factor × n ** exponent` megabytes, with `n` the
# sequences per player. Suppose the growth held for larger games. At how many sequences per player
# would the LP need a laptop's 16 GB (16,000 MB)? Use `exponent` and `factor`.
# (Solution: `%load solutions/10_lp_budget.py`.)

# %% tags=["exercise-lp-budget"]
my_sequences = None  # a number of sequences per player

# %%
check.check_lp_budget(my_sequences, exponent, factor)

# %% [markdown]
# ### So why do poker programs use CFR?
#
# - **Time.** The LP's cost grows faster than the game (the exponent above); a CFR+ iteration costs
#   one walk of the tree, and the number of iterations to a given accuracy grows slowly.
# - **Memory, for big games.** Our own measurement above went the other way: our CFR+, which stores
#   the whole tree, used more memory than the LP at the largest sizes. What matters for big games is
#   what each method *must* hold. The LP holds the whole game at once: every sequence is a variable,
#   every terminal history a coefficient, and the solver keeps a factorisation of the matrix on
#   top. CFR needs only two numbers per information set and action (regrets and the strategy sum,
#   the dotted line) and can generate the tree as it walks it. Those tables can be compressed and split across machines, as Cepheus did
#   for limit hold'em (lesson 11).
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
# ## 5 · The archetype tournament
#
# The slides test their pocket-poker bot against player "archetypes", without saying which. cfrviz
# has four (`cfrviz.bot`), our own choice:
# - `always_raise`, the maniac: bets and raises whenever it can, never folds;
# - `always_call`, the calling station: checks and calls, never bets, never folds;
# - `uniform_random`: every legal action equally likely;
# - `strong_hands`, the tight player: bets and raises with strong hands, folds the rest to a bet.
#
# The bots read folds, calls and raises from the tree, so they play any of our games.
#
# ### Exercise 5 — predict the tournament
# Our DCFR strategy for Leduc (1,000 iterations) plays each archetype, both seats. Against which
# archetype does it win the **most** per hand? (Solution: `%load solutions/10_most_exploited.py`.)

# %% tags=["exercise-most-exploited"]
my_pick = None  # "always_raise", "always_call", "uniform_random" or "strong_hands"

# %%
check.check_most_exploited(my_pick)

# %% [markdown]
# Now the tournament: every pair plays 20,000 deals, each dealt twice with the seats swapped
# (duplicate play, so card luck largely cancels). Rows win the number shown against columns, with a
# 95% confidence interval.

# %%
trained = leduc_trace.average_policy()
players = {"DCFR": trained, **{name: cfrviz.bot(leduc, name) for name in cfrviz.BOTS}}
tournament = cfrviz.round_robin(leduc, players, hands=20_000, seed=0)
tournament

# %% [markdown]
# **Winning is not exploiting.** The trained strategy approximates an equilibrium: it is built to
# lose nothing against *any* opponent, not to win the most against *this* one. A best response to a
# bot (lesson 05) wins what the bot's exploitability says. The chart puts the two side by side:

# %%
bots = list(cfrviz.BOTS)
equilibrium_wins = [tournament["DCFR"][name].exact for name in bots]
best_response_wins = [cfrviz.exploitability(leduc, players[name]) for name in bots]
exploitation_figure(bots, equilibrium_wins, best_response_wins,
                    labels=("DCFR strategy", "best response to that bot"),
                    title="Leduc: exact winnings per hand against each archetype")

# %% [markdown]
# Every bar is positive: the trained strategy beats all four. But a best response wins more against
# every one of them; when we ran this cell, about 10 times more against the tight `strong_hands`
# (0.800 against 0.081 chips per hand), 6.9 times against the maniac, 3.3 times against the random
# bot and 2.3 times against the calling station. The best response calls and raises in ways an
# equilibrium never would. Exploiting an opponent means leaving the equilibrium, and so becoming exploitable yourself:
# the trade-off behind *opponent modelling*.
#
# The slides' own game tells the same story with a different order. Pocket poker, DCFR for 300
# iterations:

# %%
pocket_trace = cfrviz.solve(pocket, "dcfr", 300, checkpoints=[300])
pocket_players = {"DCFR": pocket_trace.average_policy(),
                  **{name: cfrviz.bot(pocket, name) for name in cfrviz.BOTS}}
pocket_tournament = cfrviz.round_robin(pocket, pocket_players, hands=10_000, seed=0)
print(f"pocket poker, exploitability of the DCFR strategy: {pocket_trace.exploitability[-1]:.1e}")
for name in cfrviz.BOTS:
    result = pocket_tournament["DCFR"][name]
    print(f"DCFR vs {name:15} {result.mean:+.3f} ± {result.half_width:.3f} per hand "
          f"(exact {result.exact:+.3f})")

# %% [markdown]
# ### Exercise 6 — a bot of your own
#
# Now enter a pocket-poker bot of your own. A bot is a function `my_bot(situation)`, where
# `situation` is everything you know when it is your turn:
# - `situation.hand`, your two cards (`"AK"`), and `situation.public`, the public card (`"Q"`);
# - `situation.betting`, the actions so far: `""` when you open, `"c"` after a check, `"cr"` after
#   a check and a raise;
# - `situation.actions` and `situation.names`, the legal actions, e.g. `("f", "c", "r")` and
#   `("fold", "call", "raise")`; `situation.facing_bet` says whether folding is legal. At most two
#   bets are allowed, so after `"rr"` or `"crr"` you may only call or fold;
# - `situation.strength`, what your hand would win per hand on average if nobody bet any more:
#   above 0 is better than average. To rank hands your own way,
#   `cfrviz.games.pocket.hand_strength(situation.hand + situation.public)` starts with 2 for three
#   of a kind, 1 for a pair and 0 for a high card;
# - `situation.player`, 0 if you act first and 1 if you act second.
#
# Return an action (`"fold"`, `"check"`, `"call"`, `"bet"`, `"raise"`, or a label from
# `situation.actions`), a distribution such as `{"call": 0.7, "raise": 0.3}`, or a list of
# probabilities in the order of `situation.actions`. Here is one situation: you are player 1
# with ace-king, the queen is up, you checked and the opponent raised.

# %%
situations(pocket)[pocket.infoset_index("AK|Q:cr")]

# %% [markdown]
# Your bot is asked once about each of the 450 situations, in both seats; its answers are its
# strategy, which then plays 20,000 duplicate deals against each archetype. The checker passes
# when your bot beats both `always_call` and `uniform_random`, the two archetypes that finish last
# among themselves, with the whole 95% interval above zero. Copying an archetype does not get
# there; using your cards does. Then try to beat `strong_hands`. A crash, an illegal action or a
# decision slower than a second is reported with the situation, and the line, where it happened.
# The same function, saved in a file of its own, is what a class tournament collects (see
# `docs/CLASSROOM.md`). (Solution: `%load solutions/10_my_bot.py`.)

# %% tags=["exercise-my-bot"]
def my_bot(situation):
    """What to do in `situation`: an action, {action: probability}, or a list of probabilities."""
    raise NotImplementedError  # replace this line with your bot

# %%
field = bot_check.archetype_tournament(my_bot)
bot_check.check_my_bot(my_bot, field)

# %% [markdown]
# The leaderboard ranks your bot among the archetypes by its winnings per hand averaged over its
# opponents. The table of pairs shows where it wins and where it loses, and a bot that could not
# play is listed at the bottom with the reason.

# %%
leaderboard(field, highlight=bot_check.YOU)

# %% [markdown]
# ## 6 · Play the bot
#
# Your turn at the table. The bot plays the Leduc DCFR strategy after the iteration on the slider
# (try an early one, then the last); after each hand it tells you what its strategy was at each of
# its decisions. Seats switch every hand. To play pocket poker instead, run
# `cfrviz.play_against(pocket, pocket_trace)` in a new cell.

# %%
cfrviz.play_against(leduc, leduc_trace)

# %% [markdown]
# ## 7 · Beyond our games: OpenSpiel (optional)
#
# [OpenSpiel](https://github.com/google-deepmind/open_spiel) is the library of games and
# algorithms that much of the research on CFR uses: more than 80 games. cfrviz reads any of them
# that is **sequential, zero-sum and with perfect recall** (two players or more), as the same kind
# of tree as Kuhn poker: OpenSpiel's information sets, chance outcomes and action names carry
# over. A game with simultaneous moves is read as OpenSpiel's turn-based version of it
# (`turn_based=True`).
#
# OpenSpiel is not part of the course's install. To try this section run
# `pip install open-spiel` in a terminal and restart the kernel; without it the cells below say
# so and do nothing.
#
# The game is **liar's dice** with one three-sided die each. Each player rolls in secret. Then
# the players take turns bidding, each bid higher than the last: `2-1` means "between us there are
# at least two 1s". A 3 is wild: it counts as any face. Instead of raising, a player may call
# `Liar`: the dice are shown, and whoever was wrong (the bidder if the bid is false, the caller if
# it is true) loses 1.
#
# **Predict before you run.** You rolled a 1. Your opponent's die is a 1, 2 or 3, each with
# probability 1/3. Is the bid `2-1` (two 1s) a bluff? How likely is it to be true?

# %%
try:
    dice = cfrviz.load_game("openspiel", name="liars_dice",
                            params={"numdice": 1, "dice_sides": 3})
except ImportError as missing:
    dice = None
    print(f"{missing}.\nThis section is optional: the rest of the lesson does not need it.")
else:
    print(dice.description)
    print("Player 1's first information sets:", dice.infoset_keys[:3])
    print("Actions at the second one:", dice.infoset_actions[1])

# %% [markdown]
# An information set's key is OpenSpiel's own: the player's die, then the bids so far (`"1 1-1"`:
# I rolled a 1 and my opponent opened with one 1). Here is one deal, player 1 rolled a 3 and
# player 2 a 1, three moves deep. Hover over a node to see its history.

# %%
from IPython.display import display

if dice is None:
    print("OpenSpiel is not installed: nothing to draw.")
else:
    display(cfrviz.plot_tree(dice, subtree=("Roll 3", "Roll 1"), depth=3))

# %% [markdown]
# CFR+ solves this game as it solves Kuhn poker. OpenSpiel's own exploitability of the same
# strategy (converted to an OpenSpiel `TabularPolicy`) is a second opinion computed by other code:
# the two numbers should agree to the last digits.

# %%
if dice is None:
    print("OpenSpiel is not installed: nothing to solve.")
else:
    import pyspiel
    from open_spiel.python.algorithms import exploitability as openspiel_exploitability

    from cfrviz.games import policy_to_openspiel

    dice_policy = cfrviz.solve(dice, "cfr+", iterations=1000, seed=0).average_policy()
    same_game = pyspiel.load_game("liars_dice", {"numdice": 1, "dice_sides": 3})
    theirs = openspiel_exploitability.exploitability(
        same_game, policy_to_openspiel(dice_policy, same_game))
    ours = cfrviz.exploitability(dice, dice_policy)
    print(f"exploitability after 1000 CFR+ iterations: cfrviz {ours:.3e}, OpenSpiel {theirs:.3e}")
    print(f"player 1 expects {cfrviz.expected_values(dice, dice_policy)[0]:+.4f} a game")
    for roll in "123":
        opening = {bid: round(p, 2) for bid, p in dice_policy[roll].items() if p >= 0.01}
        print(f"player 1 rolled a {roll}: opens with {opening}")

# %% [markdown]
# With a 1, the strategy opens `2-1` every time. It is not a bluff in the usual sense: the bid is
# true whenever the opponent holds a 1 or a wild 3, two chances in three. The game is worth about
# +0.111 a game to player 1, the first bidder (the exact value, from `cfrviz.exact_equilibrium`,
# is 1/9). Try `name="kuhn_poker"`: is OpenSpiel's Kuhn poker worth -1/18, as cfrviz's is?

# %% [markdown]
# ## Summary
#
# - Leduc hold'em has 288 information sets on ranks (936 with suits); pocket poker has 450 on rank
#   multisets. Counting them is counting what a player can know.
# - Merging sets that differ only in irrelevant details (suits) is a **lossless abstraction**: the
#   small game's strategy is exactly as good in the big one, and much cheaper to compute.
# - A CFR iteration's time grows with the nodes of the tree, its memory with information sets ×
#   actions.
# - A **realization plan** gives each of a player's sequences the product of their own
#   probabilities along it; $x(\varnothing) = 1$ and, at each information set, the actions share
#   out the weight of the player's own last move before it. These rows, $E x = e$, and the
#   payoff matrix $A$ make Kuhn poker one linear program of 20 variables, whose optimum is
#   $-1/18$.
# - The sequence-form **linear program** solves a two-player zero-sum game exactly, and on small
#   games faster than CFR. Its time grows faster than the game, it needs the whole game in memory
#   (our CFR+, which stores the tree too, needed more at the largest recorded sizes; CFR itself
#   needs only its tables), and a half-finished LP gives no certified strategy; CFR is anytime,
#   can sample and can be spread out. Poker programs use CFR; the LP checks it.
# - An equilibrium strategy beats the archetypes without adapting to them; a best response to each
#   would win more, at the price of being exploitable itself.
# - A bot is a strategy: a function from what a player knows to an action or a distribution. Yours
#   was ranked among the archetypes by duplicate play with 95% intervals; the same function, in a
#   file, enters a class tournament.
# - OpenSpiel's sequential zero-sum games with perfect recall load as cfrviz trees
#   (`cfrviz.load_game("openspiel", name=...)`), and the two libraries' exploitabilities agree.
#
# **Read more.** F. Southey, M. Bowling, B. Larson, C. Piccione, N. Burch, D. Billings and C. Rayner,
# *Bayes' Bluff: Opponent Modelling in Poker*, UAI 2005 — where Leduc hold'em comes from.
# A. Gilpin and T. Sandholm, *Lossless Abstraction of Imperfect Information Games*, Journal of the
# ACM 54(5), 2007. N. Brown and T. Sandholm, *Solving Imperfect-Information Games via Discounted
# Regret Minimization*, AAAI 2019 — the DCFR we train with.
# D. Koller, N. Megiddo and B. von Stengel, *Fast Algorithms for Finding Randomized Strategies in
# Game Trees*, STOC 1994, and B. von Stengel, *Efficient Computation of Behavior Strategies*, Games
# and Economic Behavior 14, 1996 — the sequence form. Q. Huangfu and J. A. J. Hall, *Parallelizing
# the Dual Revised Simplex Method*, Mathematical Programming Computation 10, 2018 — HiGHS.
# O. Tammelin, *Solving Large Imperfect Information Games Using CFR+*, 2014.
#
# Previous: [09 · The frontier of tabular solving](09_frontier.ipynb). Next: [11 · The road to superhuman poker](11_road_to_superhuman.ipynb).
