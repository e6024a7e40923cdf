"""Every figure the lessons draw, built as the lessons build them (smaller runs where the size of
a run does not change the drawing): the legibility test checks each, and
``benchmarks/screens.py`` photographs them.

``lesson_figures()`` maps a name (``"04 equilibrium figure"``) to a function returning a list of
plotly figures: a widget's figures are found by walking its children.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import plotly.graph_objects as go

REPO = Path(__file__).resolve().parent.parent


def figures_in(widget) -> list:
    """The plotly figures inside a widget (depth first), or the figure itself."""
    if isinstance(widget, go.Figure | go.FigureWidget):
        return [widget]
    found: list = []
    for child in getattr(widget, "children", ()) or ():
        found += figures_in(child)
    return found


@cache
def _kuhn():
    import cfrviz
    return cfrviz.load_game("kuhn_poker")


@cache
def _leduc():
    import cfrviz
    return cfrviz.load_game("leduc_poker")


@cache
def _kuhn_runs():
    import cfrviz
    kuhn = _kuhn()
    return ([cfrviz.solve(kuhn, "cfr", iterations=2000, seed=0, progress=False)]
            + [cfrviz.solve(kuhn, "chance_sampling", iterations=2000, seed=s, progress=False)
               for s in (0, 1, 2)])


@cache
def _frontier_runs():
    import cfrviz
    from cfrviz.views.compare import log_checkpoints
    marks = log_checkpoints(300, 30)
    return [cfrviz.solve(_kuhn(), name, 300, checkpoints=marks, progress=False)
            for name in ("cfr+", "dcfr", "pcfr+", "pdcfr+")]


@cache
def _leduc_runs():
    import cfrviz
    from cfrviz.views.compare import log_checkpoints
    marks = log_checkpoints(200, 30)
    return [cfrviz.solve(_leduc(), name, 200, checkpoints=marks, progress=False)
            for name in ("cfr", "cfr+", "linear_cfr", "dcfr")]


def _tree_figures():
    import cfrviz
    from cfrviz.exercises import lesson02, lesson03
    kuhn = _kuhn()
    return {
        "02 rock paper scissors tree": lambda: [cfrviz.plot_tree(
            cfrviz.load_game("rock_paper_scissors").tree)],
        "02 kuhn tree": lambda: [cfrviz.plot_tree(kuhn)],
        "02 kuhn tree with reach": lambda: [cfrviz.plot_tree(
            kuhn, cfrviz.Policy.from_dict(kuhn, lesson02.REACH_POLICY), subtree="QJ",
            selected_infoset="Qpb")],
        "02 infoset picker": lambda: figures_in(cfrviz.widgets.infoset_picker(kuhn, "Kp")),
        "03 bluffer tree": lambda: [cfrviz.plot_tree(
            kuhn, cfrviz.Policy.from_dict(kuhn, lesson03.BLUFF_POLICY), depth=2,
            selected_infoset="Qb")],
    }


def _update_comparison():
    import numpy as np

    from cfrviz.views.compare import update_comparison_figure
    its = np.arange(1, 101)
    return [update_comparison_figure({"iterations": its, "cfr": 1.0 / its,
                                      "own-reach": 0.05 + 0.0 * its})]


def _regret_estimates():
    from cfrviz.analysis.sampling import first_iteration_regrets
    from cfrviz.views.compare import regret_estimates_figure
    est = first_iteration_regrets(_kuhn(), "external_sampling", runs=50)
    return [regret_estimates_figure(est.keys, est.exact[:, 1], est.samples[0][:, 1],
                                    est.mean[:, 1], len(est.samples),
                                    title="Player 1's regret of betting, iteration 1")]


def _exact_convergence():
    import cfrviz
    from cfrviz.analysis.lp_scaling import average_values
    from cfrviz.views.compare import log_checkpoints
    from cfrviz.views.lp import exact_convergence_figure
    leduc = _leduc()
    exact = cfrviz.exact_equilibrium(leduc)
    runs = [cfrviz.solve(leduc, name, 300, checkpoints=log_checkpoints(300, 30), progress=False)
            for name in ("cfr", "cfr+", "dcfr")]
    return [exact_convergence_figure(runs, [average_values(r) for r in runs], exact.value,
                                     lp_exploitability=cfrviz.exploitability(leduc, exact.policy),
                                     labels=["CFR", "CFR+", "DCFR"])]


def _lp_vs_cfr():
    import cfrviz
    from cfrviz.analysis.lp_scaling import load_recorded, race
    from cfrviz.views.lp import lp_vs_cfr_figure
    recorded, _ = load_recorded(REPO / "data" / "benchmarks" / "lp_vs_cfr.json")
    live = [race(cfrviz.load_game("kuhn_poker"), "Kuhn", memory=False)]
    return [lp_vs_cfr_figure(recorded, live)]


def _exploitation():
    from cfrviz.views.compare import exploitation_figure
    return [exploitation_figure(["always bet", "always call", "tight"], [0.4, 0.2, 0.1],
                                [1.2, 0.9, 0.3], labels=("DCFR strategy",
                                                         "best response to that bot"),
                                title="Leduc: exact winnings per hand against each archetype")]


def _scaling():
    import cfrviz
    from cfrviz.analysis.scaling import measure_scaling
    from cfrviz.views.sizes import scaling_figure
    games = {"Kuhn": _kuhn(), "Leduc": _leduc(),
             "pocket poker": cfrviz.load_game("pocket_poker")}
    return [scaling_figure(measure_scaling(games))]


def _game_sizes():
    import cfrviz
    from cfrviz.analysis.scaling import game_size
    from cfrviz.views.sizes import game_sizes_figure
    ours = [game_size(cfrviz.load_game(name), label) for name, label in
            (("kuhn_poker", "Kuhn poker"), ("leduc_poker", "Leduc (ranks)"))]
    return [game_sizes_figure(ours, bytes_per_infoset=32.0)]


@cache
def _deep():
    from cfrviz.solvers.deep_cfr import train_deep_cfr
    return train_deep_cfr(_kuhn(), 4, seed=0, traversals=50, train_steps=20,
                          checkpoints=range(1, 5), progress=False).trace


def _recorded_runs():
    from cfrviz.views.deep import recorded_runs_figure
    recorded = json.loads((REPO / "data" / "benchmarks" / "deep_cfr_leduc.json").read_text())
    return [recorded_runs_figure(recorded, axis="nodes")]


def _leaderboard():
    from cfrviz.play.tournament import run_tournament
    from cfrviz.widgets.leaderboard import Leaderboard

    def tight(s):
        if s.strength > 0.3 and "r" in s.actions:
            return "raise"
        return ("call" if s.strength > 0 else "fold") if s.facing_bet else "check"
    field = run_tournament("pocket_poker", {"your bot": tight}, hands=2000)
    return figures_in(Leaderboard(field, highlight="your bot"))


def _resolve_explorer():
    """The re-solve explorer on Leduc after a safe and an unsafe re-solve (all its bars and
    lines drawn)."""
    from cfrviz.widgets.resolve import ResolveExplorer
    widget = ResolveExplorer(_leduc(), iterations=200, state="deal/c/r")
    for method in ("unsafe", "maxmargin"):
        widget.method.value = method
        widget.resolve()
    return figures_in(widget)


def lesson_figures() -> dict[str, Callable[[], list]]:
    """Name -> a function building that lesson figure (a list: a widget may hold several)."""
    import cfrviz
    from cfrviz.views.compare import comparison_figure, iterates_figure
    from cfrviz.views.deep import advantage_regret_figure
    from cfrviz.views.multiplayer import deviation_figure
    from cfrviz.views.training import cost_curve_figure
    from cfrviz.widgets.compare import ComparisonView
    from cfrviz.widgets.discount import DiscountExplorer
    from cfrviz.widgets.matrix import RegretMatchingExplorer
    from cfrviz.widgets.sampling import SampledPaths

    kuhn = _kuhn()
    figures: dict[str, Callable[[], list]] = {
        "01 regret matching explorer": lambda: figures_in(
            RegretMatchingExplorer(iterations=300, seed=0)),
        **_tree_figures(),
        "03 bluff explorer": lambda: figures_in(cfrviz.widgets.bluff_explorer()),
        "03 own-reach comparison": _update_comparison,
        "04 training explorer": lambda: figures_in(
            cfrviz.explore(kuhn, "cfr", iterations=60, seed=0, infoset="J")),
        "04 cost curve": lambda: [cost_curve_figure(_kuhn_runs()[0])],
        "04 equilibrium view": lambda: figures_in(cfrviz.KuhnEquilibriumView(_kuhn_runs())),
        "04 equilibrium figure": lambda: [cfrviz.kuhn_equilibrium_figure(
            list(_kuhn_runs()) + [cfrviz.solve(kuhn, "linear_cfr", iterations=500,
                                               progress=False)])],
        "05 best response explorer": lambda: figures_in(
            cfrviz.BestResponseExplorer(kuhn, player=0)),
        "06 regret estimates": _regret_estimates,
        "06 sampled paths": lambda: figures_in(
            SampledPaths(kuhn, "external_sampling", iterations=5, seed=0)),
        "07 explorer, external sampling": lambda: figures_in(
            cfrviz.explore(kuhn, "external_sampling", iterations=100, seed=0, infoset="Jpb")),
        "07 seeds": lambda: [comparison_figure(
            [cfrviz.solve(_leduc(), "external_sampling", 300, seed=s, progress=False)
             for s in range(3)], ["external sampling, 3 seeds"] * 3, axis="iterations")],
        "08 comparison view": lambda: figures_in(ComparisonView(_leduc_runs(),
                                                                axis="iterations")),
        "08 current strategies": lambda: [comparison_figure(_leduc_runs(), axis="iterations",
                                                            current=True)],
        "08 discount explorer": lambda: figures_in(DiscountExplorer(_leduc(), iterations=100)),
        "09 race": lambda: figures_in(ComparisonView(_frontier_runs(), axis="iterations")),
        "09 average and current": lambda: [iterates_figure(
            _frontier_runs(), labels=["CFR+", "DCFR", "PCFR+", "PDCFR+"])],
        "09 three players": lambda: [deviation_figure(cfrviz.solve(
            cfrviz.load_game("kuhn_poker_3p"), "cfr", 300, progress=False))],
        "10 scaling": _scaling,
        "10 exact convergence": _exact_convergence,
        "10 LP against CFR+": _lp_vs_cfr,
        "10 exploitation": _exploitation,
        "10 tournament leaderboard": _leaderboard,
        "11 game sizes": _game_sizes,
        "12 advantages against regrets": lambda: [advantage_regret_figure(_deep(), "Qb")],
        "12 recorded runs": _recorded_runs,
        "13 re-solve explorer": _resolve_explorer,
    }
    return figures
