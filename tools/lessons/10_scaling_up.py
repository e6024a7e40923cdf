# %%
# Source of lessons/10_scaling_up.ipynb; build with `python tools/build_lessons.py`.
# Cells are separated by lines "# %% [markdown]" or "# %%" (optionally with "tags=[...]").

# %% [markdown]
# # 10 · Scaling up: Leduc, pocket poker and bots
#
# **Goals.** By the end of this lesson you can
# - describe Leduc hold'em and pocket poker and count their information sets;
# - explain a **lossless abstraction** (playing ranks instead of cards) and check that it loses
#   nothing;
# - measure how a CFR iteration's time and memory grow with the game;
# - run a tournament against archetype bots, and explain why an equilibrium strategy does not beat
#   every opponent by as much as it could;
# - write a pocket-poker bot of your own, see where it ranks and how exploitable it is;
# - play against the bot you trained.
#
# **You need** lessons 04–05 (CFR, best response, exploitability) and 08 (we solve with DCFR).
# About {{minutes}} minutes.
#
# Previous: [09 · The frontier of tabular solving](09_frontier.ipynb). Next: [11 · Solving exactly: the sequence form and linear programming](11_linear_programming.ipynb).
#
# <span class="cfrviz-notebook-only">Run the cells from top to bottom (Shift+Enter). Sliders and buttons never need you to re-run a cell.</span>

# %%
import math

import numpy as np
from IPython.display import display

import cfrviz
from cfrviz.analysis.scaling import game_size, lift_policy, measure_scaling, solver_bytes
from cfrviz.exercises import bots as bot_check
from cfrviz.exercises import lesson10 as check
from cfrviz.exercises import unanswered
from cfrviz.play.entrants import situations
from cfrviz.views.compare import exploitation_figure
from cfrviz.views.sizes import scaling_figure
from cfrviz.views.style import in_dashboard
from cfrviz.widgets import leaderboard

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
# ### Exercise 1 — count information sets
# The table gives Leduc's 288 information sets, counted on **ranks** (you see "a king", not "the
# king of spades"). Find a way to count them by hand that gives 288, then use it for Leduc with
# **four** ranks (ten, jack, queen, king, two suits each: `cfrviz.load_game("leduc_poker",
# ranks=4)`), again on ranks. Some help:
# - within one betting round, the player to act can face six histories: none yet, `c`, `r`, `cr`,
#   `rr`, `crr`;
# - round one can end in a call in five ways: `cc`, `rc`, `crc`, `rrc`, `crrc` (a fold ends the game);
# - a player's information set is everything that player knows: their own card, the public card once
#   it is dealt, and all the betting so far.
#
# (Solution: `%load solutions/10_leduc_infosets.py`.)

# %% tags=["exercise-leduc-infosets"]
my_count = None  # a whole number: information sets of Leduc with four ranks

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
# then only approximately good in the real one; [The road to superhuman poker](12_road_to_superhuman.ipynb)
# shows how the superhuman programs cope.
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
# many nodes per information set (every deal the player cannot see). [The road to superhuman
# poker](12_road_to_superhuman.ipynb) pushes these measurements to the sizes of real poker.
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
# ## 4 · The archetype tournament
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
# ### Exercise 2 — predict the tournament
# Our DCFR strategy for Leduc (1,000 iterations, section 3) plays each archetype, both seats.
# Against which archetype does it win the **most** per hand? The tournament below plays once
# you have picked. (Solution: `%load solutions/10_most_exploited.py`.)

# %% tags=["exercise-most-exploited"]
my_pick = None  # "always_raise", "always_call", "uniform_random" or "strong_hands"

# %%
check.check_most_exploited(my_pick)

# %% [markdown]
# Now the tournament: every pair plays 20,000 deals, each dealt twice with the seats swapped
# (duplicate play, so card luck largely cancels). Rows win the number shown against columns, with a
# 95% confidence interval.
#
# **Winning is not exploiting.** The trained strategy approximates an equilibrium: it is built to
# lose nothing against *any* opponent, not to win the most against *this* one. A best response to a
# bot (lesson 05) wins what the bot's exploitability says. The chart puts the two side by side.

# %%
trained = leduc_trace.average_policy()
players = {"DCFR": trained, **{name: cfrviz.bot(leduc, name) for name in cfrviz.BOTS}}
if unanswered(my_pick) and not in_dashboard():
    print("Make your pick in exercise 2 first (any pick will do), then run this cell again.")
else:
    tournament = cfrviz.round_robin(leduc, players, hands=20_000, seed=0)
    display(tournament)
    bots = list(cfrviz.BOTS)
    equilibrium_wins = [tournament["DCFR"][name].exact for name in bots]
    best_response_wins = [cfrviz.exploitability(leduc, players[name]) for name in bots]
    display(exploitation_figure(bots, equilibrium_wins, best_response_wins,
                                labels=("DCFR strategy", "best response to that bot"),
                                title="Leduc: exact winnings per hand against each archetype"))
    for name, ours, best in zip(bots, equilibrium_wins, best_response_wins):
        print(f"against {name:15} DCFR wins {ours:+.3f} per hand, a best response "
              f"{best:+.3f}: {best / ours:.1f} times as much")

# %% [markdown]
# Every bar is positive: the trained strategy beats all four. But a best response wins more against
# every one of them, several times more (the last lines give the factors). The best response calls
# and raises in ways an equilibrium never would. Exploiting an opponent means leaving the
# equilibrium, and so becoming exploitable yourself: the trade-off behind *opponent modelling*.
#
# The slides' own game tells the same story, in an order of its own. Pocket poker, DCFR for 300
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
# ### Exercise 3 — a bot of your own
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
# strategy, which then plays 20,000 duplicate deals against each archetype. The checker also
# gives its **exploitability**: what a best response would win from it per hand. It passes when
# your bot beats both `always_call` and `uniform_random`, the two archetypes that finish last
# among themselves, with the whole 95% interval above zero, **and** is less exploitable than
# `always_call`, which ignores its cards. Beating weak bots alone is easy to game: a bot that
# never folds beats both, and gives a best response a fortune. Copying an archetype does not
# pass; using your cards does. Then try to beat `strong_hands`. A crash, an illegal action or a
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
# ## 5 · Play the bot
#
# Your turn at the table. The bot plays the Leduc DCFR strategy after the iteration on the slider
# (try an early one, then the last); after each hand it tells you what its strategy was at each of
# its decisions. Seats switch every hand. To play pocket poker instead, run
# `cfrviz.play_against(pocket, pocket_trace)` in a new cell.

# %%
cfrviz.play_against(leduc, leduc_trace)

# %% [markdown]
# ## 6 · Beyond our games: OpenSpiel (optional)
#
# [OpenSpiel](https://github.com/google-deepmind/open_spiel) is the library of games and
# algorithms that much of the research on CFR uses: more than 80 games. cfrviz reads any of them
# that is **sequential, zero-sum and with perfect recall** (two players or more), as the same kind
# of tree as Kuhn poker: OpenSpiel's information sets, chance outcomes and action names carry
# over. A game with simultaneous moves is read as OpenSpiel's turn-based version of it
# (`turn_based=True`).
#
# OpenSpiel is not part of the course's install. To try this section, run
# `%pip install open-spiel==2.0.2` in a new cell of this notebook (the `%` installs it into the
# Python this notebook runs; 2.0.2 is the version the course is tested with), then restart the
# kernel (Kernel ▸ Restart Kernel) and run the lesson again. Without it the cells below say so
# and do nothing.
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
except ImportError:
    dice = None
    print("OpenSpiel is not installed (the instruction is above). This section is optional: "
          "the rest of the course does not need it.")
else:
    print(dice.description)
    print("Player 1's first information sets:", dice.infoset_keys[:3])
    print("Actions at the second one:", dice.infoset_actions[1])

# %% [markdown]
# An information set's key is OpenSpiel's own: the player's die, then the bids so far (`"1 1-1"`:
# I rolled a 1 and my opponent opened with one 1). Here is one deal, player 1 rolled a 3 and
# player 2 a 1, three moves deep. Hover over a node to see its history.

# %%
if dice is None:
    print("OpenSpiel is not installed: nothing to draw.")
else:
    display(cfrviz.plot_tree(dice, subtree=("Roll 3", "Roll 1"), depth=3))

# %% [markdown]
# CFR+ solves this game as it solves Kuhn poker. OpenSpiel's own exploitability of the same
# strategy (converted to an OpenSpiel `TabularPolicy`) is a second opinion computed by other code:
# the two numbers should agree to the last digits. The cell also answers your prediction: how
# often the strategy opens `2-1` with a 1, and how likely that bid is to be true.

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
    for roll in "123":
        opening = {bid: round(p, 2) for bid, p in dice_policy[roll].items() if p >= 0.01}
        print(f"player 1 rolled a {roll}: opens with {opening}")
    true_bid = 2 / 3  # the opponent holds a 1 or a wild 3
    print(f"with a 1, player 1 opens 2-1 with probability {dice_policy['1'].get('2-1', 0):.2f}; "
          f"that bid is true with probability {true_bid:.2f}")
    print(f"player 1 expects {cfrviz.expected_values(dice, dice_policy)[0]:+.4f} a game; the "
          f"exact value (the next lesson's linear program) is "
          f"{cfrviz.exact_equilibrium(dice).value:+.4f}")

# %% [markdown]
# If you ran it, compare with your prediction: a bid that is true two times in three is no bluff
# in the usual sense. Try `name="kuhn_poker"`: is OpenSpiel's Kuhn poker worth −1/18, as
# cfrviz's is?

# %% [markdown]
# ## Summary
#
# - Leduc hold'em has 288 information sets on ranks (936 with suits); pocket poker has 450 on rank
#   multisets. Counting them is counting what a player can know.
# - Merging sets that differ only in irrelevant details (suits) is a **lossless abstraction**: the
#   small game's strategy is exactly as good in the big one, and much cheaper to compute.
# - A CFR iteration's time grows with the nodes of the tree, its memory with information sets ×
#   actions.
# - An equilibrium strategy beats the archetypes without adapting to them; a best response to each
#   would win more, at the price of being exploitable itself.
# - A bot is a strategy: a function from what a player knows to an action or a distribution. Yours
#   was ranked among the archetypes by duplicate play with 95% intervals, and measured by its
#   exploitability; the same function, in a file, enters a class tournament.
# - OpenSpiel's sequential zero-sum games with perfect recall load as cfrviz trees
#   (`cfrviz.load_game("openspiel", name=...)`), and the two libraries' exploitabilities agree.
#
# **Read more.** F. Southey, M. Bowling, B. Larson, C. Piccione, N. Burch, D. Billings and C. Rayner,
# *Bayes' Bluff: Opponent Modelling in Poker*, UAI 2005 — where Leduc hold'em comes from.
# A. Gilpin and T. Sandholm, *Lossless Abstraction of Imperfect Information Games*, Journal of the
# ACM 54(5), 2007. N. Brown and T. Sandholm, *Solving Imperfect-Information Games via Discounted
# Regret Minimization*, AAAI 2019 — the DCFR we train with.
#
# Previous: [09 · The frontier of tabular solving](09_frontier.ipynb). Next: [11 · Solving exactly: the sequence form and linear programming](11_linear_programming.ipynb).
