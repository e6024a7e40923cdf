# %%
# Source of lessons/00_start_here.ipynb; build with `python tools/build_lessons.py`.

# %% [markdown]
# # 00 · Start here
#
# Welcome to **cfrviz**, a hands-on course on *counterfactual regret minimization* (CFR): the family of
# algorithms behind the poker programs that beat professional players. Instead of reading about it, you
# will run it, scrub through its training step by step and watch strategies settle into an equilibrium.
#
# This notebook takes about {{minutes}} minutes: it checks that your installation works and explains how the lessons
# are built.
#
# ## 1 · Check your installation
#
# Click into the cell below and press **Shift+Enter**. Every line should start with ✓. A line with ✗ says
# what is missing and how to fix it.

# %%
from cfrviz.check import check

check()

# %% [markdown]
# The solvers of this course are compiled to machine code (by numba) the first time they run, and the
# compiled code is kept on disk. `make lab` compiled them when it installed the course, so the next cell
# should report a *warm* cache and take about a second. If it reports a *cold* one (after an update of
# the course, or on a new Binder machine), it compiles them now, once, a line per solver — up to two
# minutes, depending on the machine; its last line says how long it took — and every lesson after it
# starts without waiting.

# %%
from cfrviz.warm import warm

warm()

# %% [markdown]
# If a line of the check above is about widgets, run the next cell: you should see a slider and a small
# chart that changes when you move it. If you see text such as `IntSlider(value=…)` or "Loading widget…"
# instead, the widget front end is missing — rerun `make lab` from the course folder, then reload this
# page.

# %%
import ipywidgets as widgets
import plotly.graph_objects as go
from cfrviz.widgets.figure_widget import FigureWidget  # plotly's, starting at once in a busy page

demo_slider = widgets.IntSlider(value=2, min=1, max=6, description="power")
demo_figure = FigureWidget(go.Scatter(x=list(range(11)), y=[x**2 for x in range(11)]),
                           layout=dict(height=250, margin=dict(l=40, r=10, t=10, b=30)))


def redraw(change):
    with demo_figure.batch_update():
        demo_figure.data[0].y = [x ** demo_slider.value for x in range(11)]


demo_slider.observe(redraw, names="value")
widgets.VBox([demo_slider, demo_figure])

# %% [markdown]
# ## 2 · How the course works
#
# - **Lessons are numbered.** Take them in order; each says at the top what it assumes and what you will
#   be able to do at the end, and links to the previous and next one.
# - **Run cells from the top.** If something looks odd, use *Kernel → Restart Kernel and Run All Cells*.
#   The lessons only read the course's code and data, so nothing you run in them can break the course.
# - **Coming back later.** JupyterLab saves a lesson as you work, with your answers and printed results,
#   but not its widgets: they live in the running kernel. When you reopen a lesson, each widget's place
#   says *"A live widget was here … run this cell again"*. Use *Run → Run All Cells* and every widget
#   comes back. To start a lesson over as it was shipped, run `git checkout lessons/<its name>.ipynb` in a
#   terminal.
# - **Closing a lesson.** Each open lesson runs in a Python process of its own, its *kernel*, which holds a
#   few hundred megabytes of memory, and closing the lesson's tab does not stop it. To stop it, use
#   *File → Close and Shut Down Notebook* (closes the tab too) or *Kernel → Shut Down Kernel* (keeps the
#   tab); the *Running Terminals and Kernels* panel (the square in a circle in the left sidebar) lists
#   every kernel and shuts down any of them. If you just close the tab, the course's JupyterLab shuts its
#   kernel down for you once no tab has been connected to it and it has run nothing for 30 minutes. A
#   lesson open in a tab keeps its kernel however long you leave it, and so does a cell still running.
# - **Widgets.** Sliders and buttons update figures in place. Heavy work (training a solver) runs only when
#   you press a **Solve** button; scrubbing a timeline only reads what was recorded, so it is instant.
# - **Predict, then reveal.** Lessons often ask you to guess an outcome before you run the cell that shows
#   it. Guessing wrong is the point: it is where learning happens.
# - **Exercises.** An exercise is a cell with a blank (`None` or `raise NotImplementedError`) followed by a
#   *check* cell. The check says ✓ when you are right, explains what went wrong when you are not, and
#   says "not done yet" while the blank is still there. Solutions are in `lessons/solutions/`.
# - **Everything is seeded.** Runs that involve chance take a `seed`; the same seed gives the same result,
#   so your numbers match your neighbour's.
#
# ## 3 · The map
#
# Planned times follow one rule, so that they can be checked: reading at 110 words a minute (careful
# reading, formulas included), half a minute for each code cell, 10 minutes for each exercise that asks
# you to write a function and 4 minutes for any other exercise, rounded to 5 minutes.
#
# | lesson | what you learn | planned time |
# |---|---|---|
# | [01 · Regret matching](01_regret_matching.ipynb) | regret, regret matching, best response, exploitability, equilibrium of rock-paper-scissors; you write the sampled trainer | {{minutes:01_regret_matching}} min |
# | [02 · Games as trees](02_games_as_trees.ipynb) | extensive form, chance, information sets, behaviour strategies, reach probabilities | {{minutes:02_games_as_trees}} min |
# | [03 · Counterfactual regret](03_counterfactual_regret.ipynb) | counterfactual values and regrets; the CFR algorithm line by line | {{minutes:03_counterfactual_regret}} min |
# | [04 · CFR on Kuhn poker](04_cfr_on_kuhn.ipynb) | the training explorer; bluffing emerges; the value −1/18; the equilibrium segment | {{minutes:04_cfr_on_kuhn}} min |
# | [05 · Best response and exploitability](05_best_response.ipynb) | the yardstick of a strategy; playing against the bot | {{minutes:05_best_response}} min |
# | [06 · Monte Carlo CFR](06_monte_carlo_cfr.ipynb) | sample, then correct: unbiased regrets; chance, external and outcome sampling; you write chance sampling and external sampling | {{minutes:06_monte_carlo_cfr}} min |
# | [07 · Sampling in practice](07_sampling_in_practice.ipynb) | stochastically-weighted averaging, outcome sampling's weights and ε (you compute them on a sampled path), noise and seeds, an honest cost axis | {{minutes:07_sampling_in_practice}} min |
# | [08 · Faster CFR](08_faster_cfr.ipynb) | CFR+, linear CFR, discounted CFR side by side | {{minutes:08_faster_cfr}} min |
# | [09 · The frontier of tabular solving](09_frontier.ipynb) | predictive CFR+ (PCFR+, PDCFR+) raced against DCFR; the average and the last iterate | {{minutes:09_frontier}} min |
# | [10 · Scaling up](10_scaling_up.ipynb) | Leduc and pocket poker, lossless abstraction, what an iteration costs, the archetype tournament and a bot of your own | {{minutes:10_scaling_up}} min |
# | [11 · Solving exactly](11_linear_programming.ipynb) | the sequence form by hand (E x = e), its linear program with linprog, what an exact solve costs against CFR | {{minutes:11_linear_programming}} min |
# | [12 · The road to superhuman poker](12_road_to_superhuman.ipynb) | Cepheus, DeepStack, Libratus, Pluribus, Deep CFR | {{minutes:12_road_to_superhuman}} min |
# | [13 · Deep CFR](13_deep_cfr.ipynb) | networks instead of tables: traversals, a reservoir memory, the iteration-weighted loss and its target, Single Deep CFR's average; against tabular CFR | {{minutes:13_deep_cfr}} min |
# | [14 · Solving while playing](14_solving_while_playing.ipynb) | public states and ranges, vector-form CFR, unsafe against safe re-solving (the re-solve gadget, max-margin), depth-limited solving with a value network; how Libratus, DeepStack, Pluribus and ReBeL use them | {{minutes:14_solving_while_playing}} min |
# | [15 · A real river](15_a_real_river.ipynb) | a no-limit hold'em river spot: ranges and combos in players' notation, the showdown as a sorted prefix sum with card removal, solving it live on the 13×13 grid, bluffs and blockers, node locking and its exploitation | {{minutes:15_a_real_river}} min |
#
# To project a lesson in class, run `make present LESSON=04_cfr_on_kuhn` in the course folder: it serves the
# lesson as a dashboard with the code hidden and large fonts. Each page load runs the lesson in a kernel of
# its own, which stops when the page is closed or reloaded.
#
# Next: [01 · Regret matching](01_regret_matching.ipynb).
