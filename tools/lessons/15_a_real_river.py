# %%
# Source of lessons/15_a_real_river.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 15 · A real river: ranges, the showdown, the grid and node locking
#
# **Goals.** By the end of this lesson you can
# - write a hold'em **range** the way players do (`AA-99`, `AKs-ATs`, `KQo`, `AhKh`, `QQ:0.5`)
#   and count its **combos** on a board, blockers included;
# - compute every combo's **showdown** value at once with one sort and a few prefix sums, card
#   removal included, instead of comparing every pair of hands;
# - solve a no-limit hold'em **river spot** live and read it the way players read a solver: on the
#   **13×13 grid**, decision by decision;
# - find the hands that **bluff** and say why those (blockers);
# - **lock** a player's mistake at one decision, re-solve, and measure what exploiting it earns;
# - say what the real solvers add for the turn and the flop.
#
# **You need** [CFR on Kuhn poker](04_cfr_on_kuhn.ipynb), [best response](05_best_response.ipynb),
# [DCFR](08_faster_cfr.ipynb), and public states, ranges and vector-form CFR from
# [Solving while playing](14_solving_while_playing.ipynb). About {{minutes}} minutes.
#
# Previous: [14 · Solving while playing](14_solving_while_playing.ipynb). Next: back to the course map, [00 · Start here](00_start_here.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import time

import numpy as np

import cfrviz
from cfrviz.exercises import lesson15 as check
from cfrviz.games.holdem import (
    MADE_HANDS,
    all_combos,
    card_name,
    hand_strength,
    made_hand,
    parse_board,
    parse_range,
)

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · A river spot
#
# In Texas hold'em each player holds two private cards and five public cards come on the table in
# three steps: the flop (three cards), the turn and the river. After each, the players bet. We
# start where the cards are all out: the **river**. Nothing is left to chance after the deal, so
# the game is a betting tree with the two players' hands under it, the same shape as Kuhn poker,
# with far more hands.
#
# A solver's user describes a river **spot** with five things: the **board** (the five public
# cards), the **pot** already in the middle, the **stack** each player still has behind, each
# player's **range** (the hands it can arrive with, and how often) and the **bet sizes** to
# consider. The out-of-position player, **OOP**, acts first; **IP** acts last. Here: pot 100
# chips, stacks of 200, bets of half the pot, raises to 2.5 times the bet, and an all-in when a
# raise would pass the stack. `print` shows the betting tree line by line (`X` checks, `B50`
# bets 50 chips, `R125` raises to 125, `AI200` is all-in, `F` folds, `C` calls):

# %%
OOP_RANGE = "AA-99,AKs-ATs,KQs,KJs,QJs,JTs,T9s,98s,87s,AKo,AQo"
IP_RANGE = "QQ-66,AQs-A9s,KQs,KJs,QJs,JTs,T9s,98s,87s,76s,AJo,ATo,KQo"
game = cfrviz.load_game("holdem_river", board="Td9d6h4c2s", pot=100, stack=200,
                        ranges=(OOP_RANGE, IP_RANGE), bets="50%", raises="2.5x")
print(game)

# %% [markdown]
# The payoffs are each player's share of the final pot minus the chips it put in on the river,
# minus half the starting pot (so that the game is zero-sum: the starting pot counts as half
# each). The game tree is the one you know: a chance node deals a pair of hands, one from each
# range, then the betting tree follows. Every pair of hands is dealt in its own copy of it, which
# is why the tree has so many nodes.
#
# ## 2 · Ranges and combos
#
# A **combo** is two specific cards, `AhKd`. Players write ranges in **hand classes**: a pair
# such as `QQ` (6 combos: the pairs of suits), a suited hand `AKs` (4 combos, one per suit), an
# offsuit hand `AKo` (12 combos) or both together, `AK` (16 combos). Runs save typing: `AA-99` is the pairs
# from aces down to nines, `AKs-ATs` the suited aces with a king down to a ten, `J9s+` raises
# the kicker up to JTs. A weight makes a class part of the range: `QQ:0.5` holds each queen combo
# half as often.
#
# The board matters: a combo holding a card that is on the board cannot be dealt. On this board
# (`Td9d6h4c2s`) no one holds the ten or the nine of diamonds:

# %%
board = parse_board("Td9d6h4c2s")
for text in ("QQ", "KQs", "T9s", "AKo", "99", "QQ:0.5"):
    hands = parse_range(text, board)
    names = ", ".join("".join(card_name(c) for c in combo) for combo in hands.combos.tolist())
    print(f"{text:7} {hands!r:45} {names}")

# %% [markdown]
# ### Exercise 1 — counting combos
#
# How many combos of `AT` (suited and offsuit together) can a player hold on this board? Count
# by hand first: how many before the board, and which does the board remove?
# (Solution: `%load solutions/15_combos.py`.)

# %% tags=["exercise-combos"]
my_combos = None  # a whole number

# %%
check.check_combos(my_combos)

# %% [markdown]
# Card removal also works between the players. A hand in your range **blocks** the opponent's
# combos that hold one of its cards: holding the ace of spades, you know the opponent has no
# `AsKs`. The cell counts, for a few of OOP's combos, how many of IP's combos each leaves
# possible:

# %%
oop, ip = (parse_range(OOP_RANGE, board), parse_range(IP_RANGE, board))
for text in ("AsKs", "AhQd", "QsQh", "8s7s"):
    mine = set(parse_range(text, board).combos[0].tolist())
    left = sum(1 for combo in ip.combos.tolist() if not mine & set(combo))
    print(f"OOP holds {text}: {left} of IP's {len(ip)} combos remain possible")

# %% [markdown]
# ## 3 · The showdown as a sorted prefix sum
#
# At a showdown the better hand wins the pot; equal hands split it. CFR needs, for each of a
# player's combos, the opponent's reach it beats minus the reach it loses to (its counterfactual
# value per chip in the pot), counting only opponent combos that share no card with it. Written
# as a double loop it is $n \times m$ comparisons: over a million per showdown with full ranges,
# at every showdown of the tree, at every iteration.
#
# Sort the opponent's combos by strength and it becomes a **prefix sum**: the reach of everything
# weaker than a combo is one running total, and everything stronger is the total minus the running
# total up to the last equal one. Card removal breaks the picture only slightly: the opponent
# combos that hold one of *your* two cards must come out. Keep, for each of the 52 cards, a second
# running total of the reach of the combos holding it, in the same sorted order, and subtract the
# two that belong to your cards. (The opponent's combo made of exactly your two cards holds both,
# so it would come out twice, but it ties with you and is in neither sum.) Vector-form CFR does
# this at every showdown: linear time after one sort, which is what lesson 14's speed-up rests on.
#
# ### Exercise 2 — showdown values
#
# Write `my_showdown_values(strength, opp_strength, cards, opp_cards, opp_reach)`:
#
# - `strength` (n,) and `opp_strength` (m,): each combo's seven-card strength, higher wins,
#   equal ties (`hand_strength(board, combos)` computes them);
# - `cards` (n, 2) and `opp_cards` (m, 2): each combo's two cards, numbers from 0 to 51;
# - `opp_reach` (m,): how likely the opponent is to be here with each combo;
# - return, for each of your combos $i$, $\sum_j r_j\,\mathrm{sign}(s_i - s_j)$ over the
#   opponent combos $j$ that share no card with $i$.
#
# Use a sort (`np.argsort`), running totals (`np.cumsum`) and `np.searchsorted` with
# `side="left"` (strictly weaker) and `side="right"` (not stronger). The checker compares your
# function with the double loop on five showdowns of random ranges and boards, and names the
# usual slips: counting blocked combos, counting ties as wins or losses, removing blocked combos
# from one side only. (Solution: `%load solutions/15_showdown.py`.)

# %% tags=["exercise-showdown"]
def my_showdown_values(strength, opp_strength, cards, opp_cards, opp_reach):
    """Each combo's value at a showdown per chip: opponent reach beaten minus reach lost to."""
    raise NotImplementedError  # replace this line


# %%
check.check_showdown(my_showdown_values)

# %% [markdown]
# How much the sort saves: both ways on 400 combos a side, the double loop written in Python
# (`check.showdown_values`) against yours.

# %%
rng = np.random.default_rng(0)
free = np.array([k for k, (a, b) in enumerate(all_combos().tolist())
                 if a not in board and b not in board])
sides = [all_combos()[np.sort(rng.choice(free, 400, replace=False))] for _ in range(2)]
strengths = [hand_strength(board, side) for side in sides]
reach = rng.random(400)
start = time.perf_counter()
slow = check.showdown_values(strengths[0], strengths[1], sides[0], sides[1], reach)
loop_seconds = time.perf_counter() - start
try:
    start = time.perf_counter()
    fast = my_showdown_values(strengths[0], strengths[1], sides[0], sides[1], reach)
    print(f"double loop {loop_seconds:.2f} s, yours {time.perf_counter() - start:.4f} s; "
          f"largest difference {np.max(np.abs(np.asarray(fast) - slow)):.1e}")
except NotImplementedError:
    print(f"double loop {loop_seconds:.2f} s; yours: write my_showdown_values above first")

# %% [markdown]
# ## 4 · Solving the spot, live
#
# DCFR (lesson 08) on the spot, 300 iterations, in vector form (lesson 14): `"vector_dcfr"`
# computes the same iterates as tabular `"dcfr"`, walking the betting tree once per iteration
# with every showdown done as in section 3. Each record of the trace holds the average strategy
# so far, so the grid below can show it forming.

# %%
start = time.perf_counter()
trace = cfrviz.solve(game, "vector_dcfr", 300, checkpoints=range(10, 301, 10))
print(f"{trace}, in {time.perf_counter() - start:.1f} s; exploitability "
      f"{trace.exploitability[-1]:.3f} chips, {trace.exploitability[-1] / 100:.3%} of the pot")

# %% [markdown]
# Solvers show a strategy on the **13×13 grid**: pairs on the diagonal, suited hands above it
# (row = higher card), offsuit hands below. Each cell is split by how often its combos take each
# action, and it is as tall as the share of the class's combos that are in the range at that
# decision: a class the range holds fully fills its cell, a class the range left earlier in the
# hand shrinks. Hover a cell for each combo's strategy and EV (its expected share of the pot
# minus what it puts in on the river). Choose another **decision** to follow the hand; move
# **record** to go back in the run. Under the grid you may change the ranges and solve again.
#
# **Predict** before you look: at the root, which of OOP's hands bet? Only the strongest? And if
# some weak hands bet, which ones?

# %%
from cfrviz.widgets import RiverGrid

RiverGrid(trace)

# %% [markdown]
# Now count. The cell groups OOP's combos at the root by what they make on this board, and
# prints how often each group bets:

# %%
from cfrviz.analysis.holdem import node_strategy

policy = trace.average_policy()
root = node_strategy(game, policy.probabilities, "")
made = [made_hand(board, parse_range(c, board).combos[0]) for c in root.combos]
print(f"{'OOP holds':18}{'combos':>7}{'bets':>7}")
for name in MADE_HANDS:
    rows = [k for k, m in enumerate(made) if m == name]
    if rows:
        bet = np.average(root.strategy[rows, 1], weights=root.weight[rows])
        print(f"{name:18}{len(rows):>7}{bet:>7.0%}")

# %% [markdown]
# A range that only bet its strong hands would be easy to play against: fold everything weak to
# a bet. So the equilibrium also bets some hands that cannot win at a showdown, **bluffs**, in a
# proportion that leaves IP's calls with its middling hands no better than its folds (Kuhn poker
# did the same with the jack in lesson 04). Which weak hands bluff is not arbitrary. The next
# cell takes OOP's hands that make less than a pair of their own, class by class: how often they
# bet, what they are worth (EV, chips), and how many of the combos IP calls a bet with each combo
# blocks, on average:

# %%
from cfrviz.analysis.holdem import CLASSES

facing = node_strategy(game, policy.probabilities, "B50")
calls = [set(parse_range(c, board).combos[0].tolist())
         for k, c in enumerate(facing.combos) if facing.strategy[k, 1] > 0.5]
print(f"IP calls a half-pot bet with {len(calls)} of its {len(facing.combos)} combos")
print(f"{'OOP holds':10}{'bets':>6}{'EV':>7}{'blocks':>8}")
weak = [k for k, m in enumerate(made) if m == "high card"]
for hand_class in sorted({int(root.hand_class[k]) for k in weak},
                         key=lambda c: -root.strategy[root.hand_class == c, 1].mean()):
    rows = [k for k in weak if root.hand_class[k] == hand_class]
    blocks = [sum(1 for call in calls
                  if set(parse_range(root.combos[k], board).combos[0].tolist()) & call)
              for k in rows]
    print(f"{CLASSES[hand_class]:10}{np.mean(root.strategy[rows, 1]):>6.0%}"
          f"{np.mean(root.ev[rows]):>7.1f}{np.mean(blocks):>8.1f}")

# %% [markdown]
# Two things pick the bluffs. First, **showdown value**: the ace-high hands are worth far more
# than the king-high and queen-high ones, because IP arrives with hands ace-high beats, so they
# check and win those showdowns rather than turn their hand into a bluff; ace-queen checks though
# it blocks as many calls as queen-jack. The bluffs come from the hands that would win least by
# checking (king-queen beats king-jack and queen-jack, and mostly checks). Second, **blockers**:
# a bluff wins exactly when IP folds, and a hand whose cards are in IP's calling combos makes a
# call less likely (a queen and a jack take combos out of IP's queens, jacks and jack-ten). With
# the least showdown value and the most blockers, queen-jack is the bluff a player would pick
# first. The solver finds the same from the counterfactual values alone, through the card
# removal of section 3.
#
# ## 5 · Node locking: a mistake, and how to exploit it
#
# A solver's strategy is an equilibrium: it assumes the opponent plays well too. Real opponents
# do not, and solvers let you ask "what if they always do *that* here?" by **locking a node**:
# fixing one player's strategy at one decision and solving the rest again. In cfrviz a locked
# decision becomes a chance node over the fixed strategy (`cfrviz.games.lock`), so every solver
# and every view works on the locked game unchanged.
#
# The explorer below starts with a common mistake: **IP never calls a bet with less than top
# pair**. **Predict** before pressing *Lock and re-solve*: how will OOP change its betting at the
# root, and who gains how much? Then choose **show** to compare both grids at any decision.

# %%
from cfrviz.widgets import LockExplorer

lock = LockExplorer(trace)
lock

# %% [markdown]
# The same lock, scripted: the combos locked, the locked game solved, each player's EV with and
# without the lock.

# %%
from cfrviz.analysis.holdem import line_name, lock_gain
from cfrviz.games import lock as lock_game
from cfrviz.games.holdem import lock_line, parse_cards

top_pair = MADE_HANDS.index("top pair")
fixed = lock_line(game, "B50", lambda combo: {"F": 1.0} if MADE_HANDS.index(
    made_hand(board, parse_cards(combo))) < top_pair else None)
locked = lock_game(game, fixed)
locked_trace = cfrviz.solve(locked, "dcfr", 300, checkpoints=[300])
print(f"{len(fixed)} of IP's combos locked to fold facing the bet")
print(lock_gain(game, policy, locked, locked_trace.average_policy()))
exploiting = cfrviz.games.unlocked(game, locked, fixed,
                                   locked_trace.average_policy().probabilities)
for line in ("", "X"):
    before = node_strategy(game, policy.probabilities, line)
    after = node_strategy(game, exploiting, line)
    print(f"{line_name(line, before.player)}: "
          + ", ".join(f"{a} {x:.0%} -> {y:.0%}"
                      for a, x, y in zip(before.actions, before.shares(), after.shares())))

# %% [markdown]
# The over-folder loses chips, and its opponent gains the same amount. The rest of the re-solve
# is where the lesson is: against an opponent who folds this much, OOP bets far more often at the
# root (compare the two grids at "OOP at the root"), and IP, knowing its own leak, changes too at
# the decisions that are not locked: after OOP checks it bets less.
# A **maximal exploit** would let only OOP adapt; re-solving lets both, which is what solvers'
# node locking does and what a thinking opponent would do. Try other locks: IP that never folds,
# OOP that never bluff-raises.
#
# ## 6 · From the river to the whole game
#
# The river is the easy street: the cards are out. What the programs of lessons 12 and 14 add
# for the earlier streets:
#
# - **Chance between the streets.** On the turn, the tree holds a chance node over the river
#   card (46 possibilities), and the flop has two streets below it. The trees multiply: a flop
#   spot with a few bet sizes has millions of public states.
# - **Isomorphism.** Suits have no rank: on a board with two hearts, the clubs and spades are
#   interchangeable, and a solver keeps one copy of equivalent cards.
# - **Abstraction.** Fewer bet sizes (the tree grows with every size at every decision) and, for
#   whole games, hands grouped into buckets of similar strength.
# - **Re-solving.** Solving a small part of the game during the hand, for the ranges that reach
#   it, with a guarantee that the rest is not exploited more (lesson 14).
#
# The open-source postflop-solver and TexasSolver, and the commercial PioSolver and GTO Wizard,
# run this lesson's algorithm (DCFR in vector form, showdowns by sorted prefix sums, exact best
# responses) on turn and flop spots, many threads wide. `benchmarks/bench_river.py` times
# cfrviz's kernel on the spot postflop-solver measures, beside its figures.

# %% [markdown]
# ## Summary
#
# - A range is a set of hand classes (`AA-99`, `AKs-ATs`, `KQo`) or combos with weights; a pair
#   has 6 combos, a suited class 4, an offsuit 12, and the board (and the opponent's cards)
#   remove those holding their cards.
# - A showdown's values for every combo at once: sort the opponent's combos by strength, take
#   prefix sums of its reach, and correct card by card for the combos yours block; ties give 0.
# - DCFR solves a river spot in seconds here; the grid shows each decision's strategy, class by
#   class, and the trace shows it form.
# - The equilibrium bets strong hands and some weak ones; the weak hands it chooses to bluff are
#   those whose cards make the opponent's calls less likely: blockers.
# - Node locking fixes one decision's strategy and re-solves the rest: the exploiter's gain in
#   chips and in % of the pot is the mistake's price.
#
# **Read more.**
# - M. Johanson, K. Waugh, M. Bowling and M. Zinkevich, *Accelerating Best Response Calculation in
#   Large Extensive Games*, IJCAI 2011 (the sorted showdown with card removal).
# - M. Johanson, N. Bard, M. Lanctot, R. Gibson and M. Bowling, *Efficient Nash Equilibrium
#   Approximation through Monte Carlo Counterfactual Regret Minimization*, AAMAS 2012 (vector-form
#   CFR).
# - N. Brown and T. Sandholm, *Solving Imperfect-Information Games via Discounted Regret
#   Minimization*, AAAI 2019 (DCFR).
#
# Previous: [14 · Solving while playing](14_solving_while_playing.ipynb). Next: back to the course map, [00 · Start here](00_start_here.ipynb).
