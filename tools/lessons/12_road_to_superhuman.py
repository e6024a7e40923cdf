# %%
# Source of lessons/12_road_to_superhuman.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 12 · The road to superhuman poker
#
# **Goals.** By the end of this lesson you can
# - put Kuhn, Leduc and pocket poker on one scale with the games the famous programs played, and
#   estimate what the CFR of this course would need to solve them;
# - say what **Cepheus**, **DeepStack**, **Libratus**, **Pluribus** and **Deep CFR** each added on
#   top of what you now know: CFR, Monte Carlo sampling, CFR+ and discounting, abstraction;
# - find your way into their papers.
#
# **You need** lessons 06–09 and [Scaling up](10_scaling_up.ipynb) (Leduc and pocket poker,
# lossless abstraction). About {{minutes}} minutes, plus as much reading as you like.
#
# Previous: [10 · Scaling up](10_scaling_up.ipynb). Next: [13 · Deep CFR: networks instead of tables](13_deep_cfr.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import cfrviz
from cfrviz.exercises import lesson12 as check
from cfrviz.analysis.scaling import PUBLISHED_SIZES, game_size, seconds_per_iteration, solver_bytes
from cfrviz.views.sizes import game_sizes_figure

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · How big is poker?
#
# Our games are counted from their trees. Real poker is far too big for that; its size is known
# from published counts, which `cfrviz.analysis.scaling.PUBLISHED_SIZES` keeps with their sources:

# %%
ours = [game_size(cfrviz.load_game(name), label) for name, label in
        (("kuhn_poker", "Kuhn poker"), ("leduc_poker", "Leduc (ranks)"),
         ("pocket_poker", "pocket poker"))]
ours.append(game_size(cfrviz.load_game("leduc_poker", suits=True), "Leduc (with suits)"))
for s in ours:
    print(f"{s.name:34} {s.infosets:>12,} information sets   (counted by cfrviz)")
for p in PUBLISHED_SIZES:
    print(f"{p.game:34} {p.infosets:>12.3g} information sets   ({p.cite})")

# %% [markdown]
# Heads-up **limit** Texas hold'em (two players, fixed bet sizes) has about $3.19 \times 10^{14}$
# information sets (Bowling, Burch, Johanson and Tammelin, 2015). Heads-up **no-limit** hold'em, in
# which a bet can be any number of chips up to the stack, has about $10^{161}$ for the stacks of 200
# big blinds used in the Annual Computer Poker Competition (Johanson, 2013).
#
# ### Exercise 1 — the memory of CFR for limit hold'em
# CFR keeps two tables: the cumulative regret and the strategy sum, one 8-byte number per information
# set and action. Suppose every one of limit hold'em's $3.19 \times 10^{14}$ information sets has 3
# actions (fold, call, raise). How many **terabytes** ($10^{12}$ bytes) do the two tables take?
# (Solution: `%load solutions/12_hulhe_memory.py`.)

# %% tags=["exercise-hulhe-memory"]
my_terabytes = None  # a number

# %%
check.check_hulhe_memory(my_terabytes)

# %% [markdown]
# **Predict** before you run the next cell: our engine does one vanilla CFR iteration of Leduc in
# well under a millisecond. How long would **one** iteration of heads-up limit hold'em take: a
# second, an hour, a day, a year? (And CFR needs thousands of iterations.)
#
# To extrapolate, scale by what the cost grows with. [Scaling up](10_scaling_up.ipynb) measured it:
# one iteration visits
# every **node** of the tree, so its time grows with the nodes; only the two tables grow with the
# information sets. The next cell measures both rates on two of our games.

# %%
measured = {"Leduc (ranks)": cfrviz.load_game("leduc_poker"),
            "pocket poker": cfrviz.load_game("pocket_poker")}
for label, game in measured.items():
    seconds = seconds_per_iteration(game, "cfr")
    print(f"{label:14} {seconds * 1e6:6.0f} µs per iteration = "
          f"{seconds / game.num_nodes * 1e9:4.0f} ns per node ({game.num_nodes:,} nodes) = "
          f"{seconds / game.num_infosets * 1e9:5.0f} ns per information set "
          f"({game.num_infosets} sets, {game.num_nodes / game.num_infosets:.0f} nodes per set)")
# pocket poker, the larger tree, gives the rates we extrapolate from (the last ones printed)
per_node, per_set = seconds / game.num_nodes, seconds / game.num_infosets
nodes_per_set = game.num_nodes / game.num_infosets
bytes_per_set = solver_bytes(game) / game.num_infosets  # the two tables grow with the sets

# %% [markdown]
# Per node the two games cost about the same; per information set they do not, because pocket
# poker has several times more nodes behind each set (every hidden deal is a node of the same
# set). Limit hold'em has far more still: about $3.16 \times 10^{17}$ game states, the nodes of its
# tree (Bowling et al., 2015), for $3.19 \times 10^{14}$ information sets — about a thousand nodes
# per set. So we extrapolate time per node (with pocket poker's rate, the larger of our trees) and
# memory per information set.

# %%
HULHE_NODES = 3.16e17  # game states of heads-up limit hold'em (Bowling et al. 2015)
YEAR = 3.156e7  # seconds
limit, no_limit = (next(p for p in PUBLISHED_SIZES if p.game == f"heads-up {kind} Texas hold'em")
                   for kind in ("limit", "no-limit"))
seconds = HULHE_NODES * per_node
print(f"limit hold'em: one iteration ≈ {seconds:.2g} s = {seconds / YEAR:.2g} years "
      f"({HULHE_NODES:.3g} nodes × {per_node * 1e9:.0f} ns)")
print(f"   per information set instead, it would seem {limit.infosets * per_set / YEAR:.2g} "
      f"years: too low by the ratio of nodes per set, "
      f"{HULHE_NODES / limit.infosets:.0f} against our {nodes_per_set:.0f}")
# Every information set holds at least one node, so its sets bound its nodes from below.
print(f"no-limit hold'em: at least {no_limit.infosets:.0g} nodes, so one iteration takes at least "
      f"{no_limit.infosets * per_node / YEAR:.2g} years")
for p in (limit, no_limit):
    print(f"{p.game}: tables ≈ {p.infosets * bytes_per_set / 1e12:.3g} TB")

# %% [markdown]
# The chart puts all the games on one logarithmic scale (each bar is ten times longer per grid
# step). Hover over a bar to see where its number comes from; the button switches to the memory of
# the two tables, extrapolated per information set from our measurement, with reference lines.
# (The chart counts information sets only, so the time of an iteration, which grows with nodes,
# is in the printout above rather than in the chart.)

# %%
game_sizes_figure(ours, bytes_per_infoset=bytes_per_set)

# %% [markdown]
# Two conclusions follow. Limit hold'em is out of reach for the code of this course on one computer,
# but only by a factor that engineering can close: a cluster, compact numbers, a faster CFR. No-limit
# hold'em is not: $10^{161}$ is beyond any computer that could ever be built, so no program solves it
# whole. The programs below are what it took instead.
#
# ## 2 · Five milestones
#
# ### Cepheus (2015): CFR+ at full scale
# The University of Alberta's team ran **CFR+** (lesson 08) on the whole of heads-up limit hold'em,
# with no *lossy* abstraction. It did use a lossless one, the kind [Scaling
# up](10_scaling_up.ipynb) shows on Leduc: hands that differ only by a renaming of the suits (suit
# isomorphism) share one information set, which changes no strategy's value. Tables compressed to
# fit, spread over about 200 computers for more than two months (Bowling et al., 2015; Tammelin et al., 2015). The result's exploitability is below one
# thousandth of a big blind per hand — so small that a human playing a lifetime could not tell it
# from zero with statistical confidence. The game is *essentially solved*. Nothing conceptually new was needed
# beyond what you have run: regret matching+, alternating updates, linear averaging, plus very
# careful engineering.
#
# ### DeepStack (2017): re-solve at every decision, with learned values
# No-limit hold'em cannot be tabulated, so **DeepStack** (Moravčík et al., 2017) keeps no strategy
# for the whole game. At each decision it solves, with CFR, a small game: the situation at hand,
# looking a few actions ahead with only a handful of bet sizes. Where the lookahead stops, a deep
# neural network estimates the counterfactual values of each hand — trained beforehand on many
# randomly generated poker situations solved the same way. To make successive re-solves fit
# together, DeepStack carries its own range (the probability of each hand it could hold) and the
# opponent's counterfactual values from one decision to the next (*continual re-solving*).
# DeepStack beat a group of professional players by a wide margin.
#
# ### Libratus (2017): an abstract blueprint, refined safely during play
# **Libratus** (Brown and Sandholm, Science 2018) combined three modules. A **blueprint** strategy
# was computed in advance with a Monte Carlo CFR variant (lesson 06) on an *abstraction* of the
# game ([Scaling up](10_scaling_up.ipynb): similar hands bucketed, few bet sizes). During play, from the third betting
# round on, it re-solved the remaining subgame in much finer detail with **nested safe subgame
# solving** (Brown and Sandholm, NIPS 2017), which guarantees the refined strategy is no more
# exploitable than the blueprint, even when the opponent bets sizes the abstraction lacks.
# Overnight, a **self-improver** added the bet sizes the opponents had used most to the blueprint.
# In January 2017 Libratus beat four top heads-up no-limit specialists over 120,000 hands.
#
# The lesson [Solving while playing](14_solving_while_playing.ipynb) does both programs' core
# step on Leduc poker: ranges over public states, re-solving unsafely and safely (with the
# numbers), and solving to a depth limit with a small value network.
#
# ### Pluribus (2019): six players
# With more than two players a Nash equilibrium no longer guarantees anything, and CFR loses its
# guarantee of reaching one. Not every guarantee goes: each player's average regret still vanishes,
# so the empirical joint play (the iterations' strategy profiles, taken together) approaches the
# set of *coarse correlated equilibria*. What is lost is convergence to a Nash equilibrium (lesson
# 09 measures both on [three-player Kuhn poker](09_frontier.ipynb)). **Pluribus** (Brown and
# Sandholm, 2019) used the recipe anyway: a blueprint
# from Monte Carlo CFR with linear weighting in its early iterations (lessons 06–08), computed in
# eight days on a single 64-core server, and a **depth-limited search** during play in which, at
# the search's horizon, each opponent may switch among several continuation strategies (the
# blueprint and versions of it biased towards folding, calling or raising), so that the bot cannot
# count on one fixed reply. Pluribus beat elite professionals at six-player no-limit hold'em.
#
# ### Deep CFR (2019): networks instead of tables
# The programs above differ in what they store. Cepheus kept a table entry for every information
# set and action of the real game, compressed but not abstracted. Libratus and Pluribus keep tables
# too, but over an abstracted game: bucketed hands, a few bet sizes. DeepStack keeps no strategy
# table at all: it re-solves as it plays, and what it learned in advance lives in its value
# networks. **Deep CFR** (Brown, Lerer, Gross and Sandholm, 2019) takes CFR's own tables away: it
# runs external-sampling traversals (lesson 06), and a neural network learns to predict the
# sampled regrets of each action from a description of the information set; regret matching on the network's predictions gives the next strategy, and a
# second network learns the average strategy. Similar information sets get similar regrets because
# the network generalises — an abstraction learned rather than designed by hand. The course slides
# end on the same idea: an information set in, predicted regrets out. The lesson
# [Deep CFR: networks instead of tables](13_deep_cfr.ipynb) takes it apart and trains it on Kuhn
# poker.
#
# ### Exercise 2 — match each program to its idea
# Without scrolling up, give each program the letter of the idea it introduced. (A table of what
# each added follows the check.)

# %%
for letter, idea in check.IDEAS.items():
    print(f"{letter}: {idea}")

# %% tags=["exercise-milestones"]
my_matches = {"Cepheus": None, "DeepStack": None, "Libratus": None, "Pluribus": None,
              "Deep CFR": None}  # a letter "A"–"E" for each

# %% [markdown]
# (Solution: `%load solutions/12_milestones.py`.)

# %%
check.check_milestones(my_matches)

# %% [markdown]
# ### What each added
#
# | program | year of the result | game | built on (lesson) | what it added |
# |---|---|---|---|---|
# | Cepheus | 2015 | heads-up limit hold'em | CFR+ ([Faster CFR](08_faster_cfr.ipynb)), lossless suit isomorphism ([Scaling up](10_scaling_up.ipynb)) | scale: compressed tables on a cluster, the whole game |
# | DeepStack | 2017 | heads-up no-limit | CFR and counterfactual values ([Counterfactual regret](03_counterfactual_regret.ipynb), [CFR on Kuhn poker](04_cfr_on_kuhn.ipynb)) | continual re-solving, neural value estimates at the depth limit |
# | Libratus | 2017 (paper 2018) | heads-up no-limit | MCCFR ([Monte Carlo CFR](06_monte_carlo_cfr.ipynb)), abstraction ([Scaling up](10_scaling_up.ipynb)) | safe nested subgame solving, self-improvement |
# | Pluribus | 2019 | six-player no-limit | MCCFR ([Monte Carlo CFR](06_monte_carlo_cfr.ipynb)), linear weighting ([Faster CFR](08_faster_cfr.ipynb)) | depth-limited search with several opponent continuations, multiplayer |
# | Deep CFR | 2019 | benchmark games | external sampling ([Monte Carlo CFR](06_monte_carlo_cfr.ipynb)) | function approximation of regrets instead of tables |
#
# ## Summary
#
# - Our games have tens to hundreds of information sets; heads-up limit hold'em about
#   $3.19 \times 10^{14}$ (and about $3.16 \times 10^{17}$ nodes), heads-up no-limit about $10^{161}$.
#   A CFR iteration's time grows with the nodes, its tables with the information sets: at our
#   engine's speed one iteration of limit hold'em would take the years section 1 printed, and its
#   two tables the terabytes of exercise 1.
# - **Cepheus** scaled CFR+, with only a lossless abstraction (suit isomorphism), until limit hold'em was essentially solved.
# - **DeepStack** and **Libratus** made no-limit playable by solving during play: DeepStack from
#   scratch with neural value estimates, Libratus refining an abstract MCCFR blueprint safely.
# - **Pluribus** took blueprint plus search to six players, cheaply.
# - **Deep CFR** replaced CFR's tables by neural networks trained on sampled regrets.
#
# **Read more.**
# - M. Bowling, N. Burch, M. Johanson and O. Tammelin, *Heads-up Limit Hold'em Poker Is Solved*,
#   Science 347(6218), 2015; O. Tammelin, N. Burch, M. Johanson and M. Bowling, *Solving Heads-up
#   Limit Texas Hold'em*, IJCAI 2015.
# - M. Moravčík, M. Schmid, N. Burch, V. Lisý, D. Morrill, N. Bard, T. Davis, K. Waugh, M. Johanson
#   and M. Bowling, *DeepStack: Expert-Level Artificial Intelligence in Heads-Up No-Limit Poker*,
#   Science 356(6337), 2017.
# - N. Brown and T. Sandholm, *Safe and Nested Subgame Solving for Imperfect-Information Games*,
#   NIPS 2017; *Superhuman AI for Heads-Up No-Limit Poker: Libratus Beats Top Professionals*,
#   Science 359(6374), 2018; *Superhuman AI for Multiplayer Poker*, Science 365(6456), 2019.
# - N. Brown, A. Lerer, S. Gross and T. Sandholm, *Deep Counterfactual Regret Minimization*,
#   ICML 2019.
# - M. Johanson, *Measuring the Size of Large No-Limit Poker Games*, technical report TR13-01,
#   University of Alberta, 2013 (arXiv:1302.7008).
#
# Two lessons take these milestones further: [Deep CFR: networks instead of
# tables](13_deep_cfr.ipynb) takes the last of them apart, and [Solving while
# playing](14_solving_while_playing.ipynb) re-solves subgames as DeepStack and Libratus do. Or go back to the map in [00 · Start here](00_start_here.ipynb) to revisit any lesson, or take a
# game of your own (`cfrviz.load_game("file", path=...)`) and solve it.
#
# Previous: [10 · Scaling up](10_scaling_up.ipynb). Next: [13 · Deep CFR: networks instead of tables](13_deep_cfr.ipynb).
