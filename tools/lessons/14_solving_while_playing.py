# %%
# Source of lessons/14_solving_while_playing.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 14 · Solving while playing: public states, ranges and safe re-solving
#
# **Goals.** By the end of this lesson you can
# - group a poker game's histories into **public states** and read each player's **range** there
#   (how likely it is to hold each hand, given what everybody has seen);
# - say what **vector-form CFR** changes about CFR (the layout, not the iterates) and check it;
# - re-solve one subgame of a blueprint strategy **unsafely** and **safely**, and measure, in the
#   whole game's exploitability, why the difference matters;
# - compute the **re-solve gadget's input** yourself: the opponent's best-response values at the
#   subgame's root;
# - solve only the first betting round with values at its leaves (**depth-limited solving**), and
#   say what an approximate value function costs;
# - tell how Libratus, DeepStack, Pluribus and ReBeL each put these pieces together.
#
# **You need** lessons 04–05 (CFR, best response, exploitability; you reuse lesson 05's best
# response code), [Scaling up](10_scaling_up.ipynb) (Leduc poker) and the story of the
# superhuman programs in [The road to superhuman poker](12_road_to_superhuman.ipynb); the value
# network of section 5 is the small numpy network of [Deep CFR](13_deep_cfr.ipynb).
# About {{minutes}} minutes.
#
# Previous: [13 · Deep CFR](13_deep_cfr.ipynb). Next: [15 · A real river](15_a_real_river.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import time

import numpy as np

import cfrviz
from cfrviz.exercises import lesson14 as check
from cfrviz.games.public import public_tree, ranges
from cfrviz.solvers import depth_limited as dl
from cfrviz.solvers.subgame import METHOD_LABELS, resolve_all

# %%
PRESENTER = False  # True enlarges fonts and figures for a projector
cfrviz.set_presenter(PRESENTER)

# %% [markdown]
# ## 1 · Public states
#
# So far every program in this course solved the whole game before the first card was dealt,
# and then played by looking its strategy up. The programs that beat professionals at no-limit
# hold'em could not: the game is far too big to solve in advance at the precision they needed.
# They kept a rough **blueprint** for the whole game and, during the hand, **solved again the
# part of the game they were in**, more finely. To do that they need a way to say "the part of
# the game we are in" that both players agree on.
#
# A history holds private cards, so no player knows which history it is at. But in the poker
# games of this course, as in hold'em, the only private information is the cards dealt to each
# player at the start; everything after (the bets, and public cards such as Leduc's, dealt face
# up later) is seen by both players. Group the histories by that shared part and you get
# **public states**: a public state holds one history per private deal. Kuhn poker has ten:

# %%
kuhn = cfrviz.load_game("kuhn_poker")
kuhn_public = public_tree(kuhn)
print(kuhn_public)
for state in kuhn_public.states:
    print(f"{state.history or '(root)':10} {state.kind:9} {len(state.nodes)} histories")

# %% [markdown]
# The public history `deal/b` reads "the cards were dealt, player 1 bet". It holds the six deals
# of Kuhn poker, all with the same public past. The labels grow the same way in Leduc poker, where
# `deal/r/r/c/Q/r` is: raise, re-raise, call, the public card is a queen, player 1 raises.
#
# ## 2 · Ranges
#
# At a public state each player knows its own hand and must reason about the other's. What it
# can say is a **range**: a probability for each hand the other may hold, given that play came
# here. It follows from the strategies: a hand that seldom bets is seldom in the range of a
# player who bet.
#
# Take a blueprint for Kuhn poker, 10 iterations of CFR (deliberately rough), and look at public
# state `deal/b`. First how often player 1's blueprint bets with each card:

# %%
kuhn_blueprint = cfrviz.solve(kuhn, "cfr", 10, checkpoints=[10]).average_policy()
for card in kuhn_public.hands(0):
    print(f"player 1 holding {card}: bets with probability "
          f"{kuhn_blueprint.probabilities[kuhn.infoset_keys.index(card), 1]:.3f}")

# %% [markdown]
# **Predict** before you run the next cell: player 2 has seen the bet. Which card is player 1 most
# likely to hold now, and roughly with what probability? (Each card is dealt to player 1 with
# probability 1/3.)

# %%
at_bet = ranges(kuhn_public, kuhn_public.find("deal/b"), kuhn_blueprint)
for p in (0, 1):
    print(f"player {p + 1}: own reach {np.round(at_bet.own[p], 3)}   as a belief "
          + ", ".join(f"{h} {b:.3f}" for h, b in zip(kuhn_public.hands(p), at_bet.belief(p))))

# %% [markdown]
# `own[p]` is the range as vector-form CFR carries it: player $p$'s own probability of playing to
# this public state with each hand (player 2 has not acted yet, so its own reach is 1 for every
# card). `belief(p)` multiplies in chance's deal (with card removal: two players never hold the
# same card) and normalises, which is Bayes' rule. The bet makes the king and the queen much more
# likely than the jack. Player 2's belief is not a uniform third either: which card player 2 holds
# is correlated with player 1's, and player 1's range is now tilted.
#
# A public state and both ranges together are a **public belief state**. Everything in the rest of
# the lesson works on them.
#
# ## 3 · Vector-form CFR: the same algorithm, laid out differently
#
# Tabular CFR walks every history. **Vector-form CFR** walks the public tree instead, once, and at
# each public state carries one range vector per player downwards and one vector of
# counterfactual values per player upwards. At a showdown it does not loop over hand pairs: after
# sorting the hands by strength, the value of each hand is a prefix sum of the opponent's range
# (the weight of the weaker hands minus the weight of the stronger ones), linear in the number of
# hands instead of quadratic. The regrets it computes are the same numbers, so the strategies must
# be the same. Check it on Leduc poker (registered as `"vector_cfr"`):

# %%
leduc = cfrviz.load_game("leduc_poker")
leduc_public = public_tree(leduc)
print(leduc_public)
tabular = cfrviz.solve(leduc, "cfr", 100, checkpoints=[100])
vector = cfrviz.solve(leduc, "vector_cfr", 100, checkpoints=[100])
gap = np.abs(tabular.average_strategy[-1] - vector.average_strategy[-1]).max()
print(f"after 100 iterations: largest difference of the average strategies {gap:.1e}; "
      f"exploitability {tabular.exploitability[-1]:.6f} (tabular), "
      f"{vector.exploitability[-1]:.6f} (vector)")

# %% [markdown]
# Equal to rounding. (Over long runs the two drift apart in the last bits, as any two orders of
# summing do; cfrviz's tests compare them iteration by iteration from the same tables.)
#
# Why bother, then? Speed, when a player has many hands. The cell times 200 iterations of each, on
# Leduc (3 hands a player) and on pocket poker (many two-card hands):

# %%
pocket = cfrviz.load_game("pocket_poker")
for game in (leduc, pocket):
    seconds = {}
    for name in ("cfr", "vector_cfr"):
        cfrviz.solve(game, name, 2)  # compile and build the plan outside the clock
        start = time.perf_counter()
        cfrviz.solve(game, name, 200, checkpoints=[200])
        seconds[name] = time.perf_counter() - start
    print(f"{game.name:12} tabular {seconds['cfr']:.3f} s, vector {seconds['vector_cfr']:.3f} s"
          f" -> vector is {seconds['cfr'] / seconds['vector_cfr']:.1f}x as fast")

# %% [markdown]
# (Both timings include one exploitability computation at the end, and the machine may be busy;
# `benchmarks/bench_vector_cfr.py`, whose figures are in `benchmarks/RESULTS.md`, times the
# iterations alone, best of seven.) The gain grows with the number of hands. In hold'em each player has 1,326 two-card
# hands, and DeepStack's re-solving works on whole ranges of them at once, in this layout.
#
# ## 4 · Re-solving a subgame, unsafely and safely
#
# A **subgame** is everything below one public state. Its information sets lie inside it (the
# public state is common knowledge), so we may replace the blueprint's strategy there by a new one
# and keep the blueprint everywhere else. The blueprint here: 30 iterations of CFR on Leduc poker,
# and the subgame at `deal/r/r/c/Q/r`. Both ranges there:

# %%
blueprint = cfrviz.solve(leduc, "cfr", 30, checkpoints=[30]).average_policy()
STATE = "deal/r/r/c/Q/r"
here = ranges(leduc_public, leduc_public.find(STATE), blueprint)
for p in (0, 1):
    print(f"player {p + 1}'s range at {STATE}: "
          + ", ".join(f"{h} {b:.3f}" for h, b in zip(leduc_public.hands(p), here.belief(p))))
print(f"blueprint exploitability {cfrviz.exploitability(leduc, blueprint):.4f}")

# %% [markdown]
# The obvious way to re-solve: take the ranges above as given, deal the subgame's histories in
# proportion to how likely they are under the blueprint, and solve that little game for both
# players. This is **unsafe re-solving**. It answers "what is best against *these* ranges?", and the
# ranges came from the blueprint's play *before* the subgame. But the opponent is not bound to
# play as the blueprint assumed: if the new strategy in the subgame is easier to exploit with some
# hand, the opponent can bring that hand into the subgame more often.
#
# **Safe re-solving** guards against that. The **re-solve gadget** (Burch, Johanson and Bowling,
# 2014) adds a step before the subgame: chance deals the opponent a hand in proportion to how
# often *our* blueprint and chance lead there, and the opponent chooses between *terminate*, which
# pays it what its best response earns against the blueprint in this subgame with that hand, and
# *follow*, which enters the subgame. A solution of the gadget gives every opponent hand at most
# its terminate value, so no hand gains from steering here, and the whole game's exploitability
# cannot rise (up to how well the gadget was solved). **Max-margin** re-solving (Moravčík et al.,
# 2016) pushes further: it maximises the smallest amount by which the new strategy *lowers* those
# values.
#
# **Predict** before you run the next cell: the blueprint's exploitability is printed above. After
# unsafe re-solving (1,000 iterations of CFR+ on the subgame, so it is solved almost exactly),
# will the whole game's exploitability be lower, the same, or higher? And after safe re-solving?

# %%
resolved = resolve_all(leduc, blueprint, STATE, iterations=1000)
print(f"{'method':38}{'exploitability':>15}{'guaranteed rise at most':>25}{'seconds':>9}")
for method, r in resolved.items():
    print(f"{METHOD_LABELS[method]:38}{r.exploitability:>15.4f}{r.bound:>25.1e}"
          f"{r.seconds:>9.3f}")

# %% [markdown]
# The unsafe re-solve made the strategy **more** exploitable than the rough blueprint it was meant
# to improve; the two safe ones did not raise it (the bound column is how far the theory allows
# them to rise given how well each gadget was solved; unsafe re-solving has no bound). Why? The
# answer is in each opponent hand's best-response value at the subgame's root, the terminate
# payoffs of the gadget: you compute them in the exercise below, and after it we compare them
# before and after each re-solve.
#
# The same happens in Kuhn poker at `deal/b`:

# %%
for method, r in resolve_all(kuhn, kuhn_blueprint, "deal/b", iterations=1000).items():
    print(f"{METHOD_LABELS[method]:38} exploitability {r.blueprint_exploitability:.4f} -> "
          f"{r.exploitability:.4f}")

# %% [markdown]
# ### Exercise — the gadget's input
#
# The terminate payoffs are the one thing the gadget needs beyond the subgame itself. Write
# `my_root_values(tree, policy, roots, hand_of_root, player)`:
#
# - `tree` is the game, `policy` the blueprint's table (one row per information set);
# - `roots` are the subgame's root histories (node ids) and `hand_of_root[k]` is which of
#   `player`'s hands root `k` holds (0, 1, 2 for J, Q, K);
# - return, for each hand $I$, what `player` earns in the subgame by best-responding to the other
#   player's blueprint, per unit of reach:
#
# $$ \frac{\sum_{h \in I} \pi_{-i}(h)\, v_i^{\mathrm{BR}}(h)}{\sum_{h \in I} \pi_{-i}(h)}, $$
#
#   where $\pi_{-i}(h)$ is chance's reach times the other player's reach. Give one number per hand
#   (a list, an array, or a dict from hand index to value); a hand of weight 0 may be anything.
#
# Lesson 05's `my_best_response` is most of it: start its recursion at each root instead of at the
# top of the game, and add up per hand. `reach_probabilities(tree, policy)` gives the reach split
# three ways (rows player 1, player 2, chance). The checker compares your function with
# `root_values` on six subgames of Kuhn and Leduc poker for both players, and names the usual slips
# (the blueprint's own play instead of a best response, a missing weight, no normalisation, the
# wrong player); it refuses a function that calls `root_values` itself.
# (Solution: `%load solutions/14_root_values.py`.)

# %% tags=["exercise-root-values"]
from cfrviz.analysis.evaluation import reach_probabilities
from cfrviz.core.tree import TERMINAL


def my_root_values(tree, policy, roots, hand_of_root, player):
    """`player`'s best-response value per unit of reach, for each of its hands at the roots."""
    raise NotImplementedError  # replace this line


# %%
check.check_root_values(my_root_values)

# %% [markdown]
# With your function, the terminate payoffs of the gadget that re-solves player 2's strategy at
# `deal/r/r/c/Q/r` (player 1 is the opponent there), beside the package's:

# %%
from cfrviz.solvers.subgame import root_values

package = root_values(leduc, blueprint, STATE, 0)
try:
    yours = my_root_values(leduc, blueprint.probabilities, package.roots, package.hand_of_root, 0)
    print("yours:  ", np.round(np.asarray(yours, dtype=float), 4) if not isinstance(yours, dict)
          else yours)
except NotImplementedError:
    print("yours:   (write my_root_values above first)")
print("package:", np.round(package.value, 4), "for hands", package.hands)

# %% [markdown]
# Now why the unsafe re-solve did harm. Each player's best-response value per hand at the
# subgame's root, against the blueprint and against each re-solved strategy:

# %%
for p in (0, 1):
    before = root_values(leduc, blueprint, STATE, p)
    print(f"player {p + 1}'s best-response value per hand {before.hands}: "
          f"blueprint {np.round(before.value, 3)}")
    for method, r in resolved.items():
        after = root_values(leduc, r.policy, STATE, p)
        print(f"   after {method:10} {np.round(after.value, 3)}   largest change "
              f"{np.max(after.value - before.value):+.3f}")

# %% [markdown]
# Unsafe re-solving lets one of player 1's hands earn far more in this subgame than the blueprint
# allowed: the new strategy is tuned to the blueprint's ranges, and that hand was rare in the
# range, so the solver hardly cared what it earned. A best response brings it here anyway. The
# safe methods keep every hand at or below its blueprint value (up to the solve's tolerance).
#
# ### Explore it
#
# The re-solve explorer shows the same blueprint's public tree. Click a public state (or pick it
# in the menu) to see both ranges there, choose a method and press **Re-solve**: the subgame's
# CFR+ is drawn as it runs, then the whole game's exploitability appears beside the blueprint's
# (and, for the safe methods, the bound it may not pass). Try states of the first round too, and
# find another state where unsafe re-solving does harm.

# %%
from cfrviz.widgets import ResolveExplorer

ResolveExplorer(leduc, blueprint=blueprint, state=STATE)

# %% [markdown]
# ## 5 · Depth-limited solving
#
# Re-solving a subgame to the end of the game is affordable late in a hand. Early on, the rest of
# the game is almost all of it. DeepStack's answer: solve only a few moves ahead, and at the
# **depth limit** ask a **value function** what each hand is worth there, given both ranges.
#
# In Leduc poker we cut at the end of the first betting round, where the public card comes. The
# part above the cut, the **trunk**, is small; its leaves are the public states where the card is
# about to be dealt:

# %%
cut = dl.trunk(leduc)
print(cut.tree)
print("leaf public states:", ", ".join(cut.leaf_states))

# %% [markdown]
# CFR+ runs on the trunk. At every iteration each leaf gets both players' current ranges, and the
# value function turns them into a counterfactual value per hand. Two value functions:
#
# - **exact**: solve the leaf's subgame for those ranges (CFR+, 50 iterations per leaf per trunk
#   iteration), expensive but right;
# - **a value network**: a small network (the numpy MLP of the Deep CFR lesson) trained beforehand
#   on leaf subgames solved for *random* ranges: DeepStack's recipe, at toy scale.
#
# After the trunk is solved, the player re-solves each leaf's subgame when it gets there, for the
# ranges the trunk leads to. That re-solve is **unsafe**, in section 4's sense: it takes both
# ranges as given. A safe re-solve needs a value to guard for each opponent hand (the gadget's
# terminate payoffs); section 4 took them from a best response to a blueprint below the subgame,
# and a depth-limited player has no blueprint below its depth limit. (DeepStack guards with the
# opponent's values from its own previous solve instead; cfrviz does not implement that.) So the
# exploitability printed below is of the whole strategy, trunk plus unsafe leaf re-solves,
# measured in the whole game: whatever the unsafe step costs is in it. Where no range reaches,
# the strategy is uniform.
#
# Every depth-limited solve below gets the same budget, 50 trunk iterations. Beside them, as a
# baseline, CFR and CFR+ on the whole game for the same 50 iterations, and vanilla CFR for 2,000
# (compare the times): on a game as small as Leduc, nothing stops us from solving it whole.
#
# **Predict**: which is least exploitable: whole-game CFR+, the exact leaf values, or a network?

# %%
TRUNK_ITERATIONS = 50
filler = cfrviz.Policy.uniform(leduc)  # where no range reaches a leaf


def depth_limited(values):
    """Solve the trunk with `values` at its leaves, then re-solve every leaf (unsafely) for
    the ranges it leads to: (whole-game exploitability, seconds of the trunk solve)."""
    start = time.perf_counter()
    strategy = dl.solve_trunk(cut, values, TRUNK_ITERATIONS)
    seconds = time.perf_counter() - start
    played = dl.resolved_continuation(cut, strategy, filler, 300)
    return cfrviz.exploitability(leduc, played), seconds


exact_exploitability, exact_seconds = depth_limited(dl.exact_values(cut, 50))
print(f"{'depth-limited, exact leaf values':40} exploitability {exact_exploitability:.4f}  "
      f"({exact_seconds:.2f} s)")
for name, iterations in (("cfr", TRUNK_ITERATIONS), ("cfr+", TRUNK_ITERATIONS), ("cfr", 2000)):
    start = time.perf_counter()
    whole = cfrviz.solve(leduc, name, iterations, checkpoints=[iterations])
    seconds = time.perf_counter() - start  # including one exploitability computation
    print(f"{f'whole game, {name}, {iterations:,} iterations':40} exploitability "
          f"{whole.exploitability[-1]:.4f}  ({seconds:.2f} s)")

# %% [markdown]
# On Leduc, solving the whole game wins. Whole-game CFR+ beats the exact depth-limited solve at
# the same 50 iterations, in a small fraction of its time; vanilla CFR needs more iterations, and
# 2,000 of them still take less time than the exact solve. One whole-game iteration walks every
# node of the game once, while each depth-limited iteration solves every leaf's subgame anew, 50
# CFR+ iterations each.
# Depth-limited solving is for games whose rest cannot be walked at all; here it lets us measure
# what the cut and the value function cost, in a game we can also solve whole.
#
# Now the value networks. One set of leaf subgames is solved for random ranges (300 to train
# from, 50 held out to measure the error), and networks are trained on the first 30, 100 and 300
# of them, each from two seeds. Each row: the network's mean error on the held-out ranges, and
# the exploitability of the depth-limited strategy it leads to, with the same budget as above.

# %%
start = time.perf_counter()
data = dl.value_samples(cut, 350, np.random.default_rng(0), iterations=50)
print(f"350 leaf subgames solved for random ranges in {time.perf_counter() - start:.1f} s")
print(f"{'ranges':>6} {'seed':>4}  {'error (chips per hand)':>22}  {'exploitability':>14}")
networks = []
for size in (30, 100, 300):
    subset = tuple(np.concatenate([a[:size], a[300:]]) for a in data)  # the same 50 held out
    for seed in (0, 1):
        network = dl.train_value_network(cut, samples=size, seed=seed, steps=800,
                                         test_samples=50, data=subset)
        exploitability, _ = depth_limited(network)
        networks.append((network.test_error, exploitability))
        print(f"{size:>6} {seed:>4}  {network.test_error:>22.3f}  {exploitability:>14.4f}")
errors, results = np.array(networks).T
print(f"every network more exploitable than the exact values ({exact_exploitability:.4f}): "
      f"{bool(np.all(results > exact_exploitability))}")
print("the exploitabilities, networks sorted by error:", np.round(results[np.argsort(errors)], 4))

# %% [markdown]
# Read the table. The networks trained on the fewest ranges have the largest errors and, here,
# the worst exploitability; more ranges bring the error down. But the error is only a rough guide:
# sorted by error (the last line), the exploitabilities do not rise in step, and two networks of
# about the same error can lead to very different strategies. The trunk's CFR+ trusts the
# network's values completely, so what counts is how wrong they are at the ranges the trunk
# actually visits, which a mean error over random ranges does not measure. The exact values are too slow to use at the
# scale of real poker, where one leaf is a whole remaining game; the network answers in one
# forward pass. DeepStack trained its networks on millions of solved random situations, and its
# value functions had to be good, because everything above the cut trusts them.
#
# ## 6 · How the superhuman programs use this
#
# [The road to superhuman poker](12_road_to_superhuman.ipynb) told who won; here is what each
# program computed during a hand, in the terms of this lesson.
#
# - **Libratus** (Brown and Sandholm, Science 2018; the match was played in January 2017)
#   computed a blueprint for the whole of heads-up no-limit hold'em in advance, by Monte Carlo
#   CFR on an abstracted game. From the third betting round on, it re-solved the rest of the hand
#   in real time with a safe method (from their own work on safe and nested subgame solving,
#   NeurIPS 2017), each time the opponent acted, at a finer abstraction than the blueprint's:
#   *nested* safe subgame solving. Its subgames went to the end of the game: no value function.
# - **DeepStack** (Moravčík et al., 2017) had no precomputed strategy for the whole game. At
#   every decision it re-solved from the current public state with the re-solve gadget's idea
#   (the opponent's counterfactual values carried from the previous solve as the terminate
#   payoffs), but only a few actions deep, with value networks at the depth limit, and vector-form CFR over ranges of
#   1,326 hands.
# - **Pluribus** (Brown and Sandholm, 2019), six players, used a blueprint from Monte Carlo CFR
#   and depth-limited search during play. At its leaves each player may switch to one of several
#   continuation strategies (the blueprint and versions of it biased towards folding, calling or
#   raising), so the search cannot assume the opponents keep one fixed way of playing below the
#   depth limit. With six players the safety guarantee of section 4 no longer holds; it worked in
#   practice.
# - **ReBeL** (Brown, Bakhtin, Lerer and Gong, 2020) joined the two halves: it treats public
#   belief states as the states of a perfect-information game, and learns the value function by
#   self-play, using the values computed by its own depth-limited searches as training targets, as
#   AlphaZero learns from its searches.
#
# All four rest on what you computed: public states, ranges, re-solving that respects the
# opponent's alternatives, and, for three of them, values at a depth limit.

# %% [markdown]
# ## Summary
#
# - In these games, as in hold'em, the private cards are dealt at the start and everything after
#   (bets, public cards) is seen by both players, so histories group into **public states**; at
#   each, a player's **range** is how likely it is to hold each hand, given the strategies and what
#   was seen.
# - **Vector-form CFR** runs the same iterations as CFR over the public tree, one range vector per
#   player per public state, showdowns by a sorted prefix sum: same strategies, faster when there
#   are many hands.
# - **Unsafe re-solving** fixes the opponent's range to the blueprint's and can make the whole
#   strategy *more* exploitable (on Leduc above, measured in the table). **Safe re-solving** with
#   the re-solve gadget or max-margin gives each opponent hand no more than its best-response value
#   against the blueprint (you computed those values), so it cannot.
# - **Depth-limited solving** stops at a depth limit and asks a value function for each hand's
#   value given both ranges; exact values are expensive, a network is fast. On Leduc, with the same
#   budget, every network we trained was more exploitable than the exact values, and both lost to
#   whole-game CFR+; a network's held-out error was only a rough guide to what it cost.
# - Libratus: blueprint plus nested safe re-solving to the end of the game. DeepStack: re-solving
#   at every decision, depth-limited, with value networks. Pluribus: depth-limited search with
#   several continuation strategies. ReBeL: search plus value learning over public belief states.
#
# **Read more.**
# - N. Burch, M. Johanson and M. Bowling, *Solving Imperfect Information Games Using
#   Decomposition*, AAAI 2014 (CFR-D and the re-solve gadget).
# - M. Johanson, N. Bard, M. Lanctot, R. Gibson and M. Bowling, *Efficient Nash Equilibrium
#   Approximation through Monte Carlo Counterfactual Regret Minimization*, AAMAS 2012 (public
#   chance sampling and vector-form updates).
# - M. Moravčík, M. Schmid, K. Ha, M. Hladík and S. J. Gaukrodger, *Refining Subgames in Large
#   Imperfect Information Games*, AAAI 2016 (max-margin).
# - N. Brown and T. Sandholm, *Safe and Nested Subgame Solving for Imperfect-Information Games*,
#   NeurIPS 2017 (reach subgame solving; Libratus's method).
# - M. Moravčík et al., *DeepStack: Expert-Level Artificial Intelligence in Heads-Up No-Limit
#   Poker*, Science 2017.
# - N. Brown and T. Sandholm, *Superhuman AI for Heads-Up No-Limit Poker: Libratus Beats Top
#   Professionals*, Science 2018; *Superhuman AI for Multiplayer Poker*, Science 2019 (Pluribus).
# - N. Brown, A. Bakhtin, A. Lerer and Q. Gong, *Combining Deep Reinforcement Learning and Search
#   for Imperfect-Information Games*, NeurIPS 2020 (ReBeL).
#
# Previous: [13 · Deep CFR](13_deep_cfr.ipynb). Next: [15 · A real river](15_a_real_river.ipynb).
