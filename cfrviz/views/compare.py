"""Several training runs on one chart: exploitability against iterations, nodes touched or seconds.

An iteration of vanilla CFR walks the whole tree; an iteration of outcome
sampling walks one path.  Comparing them per iteration flatters the full-tree
method, so these figures also put *nodes touched* (what a traversal costs,
whatever the machine) or *seconds* (what it cost on this machine) on the
x axis.  Pure functions of traces; nothing here runs a solver.

Names and labels given to these functions are text: they are escaped
(:func:`cfrviz.core.markup.escape`) where they become plotly markup, since a
label may be a game's name or key.  A ``title`` argument is markup written by the
caller and is used as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..core.markup import escape
from .style import OKABE_ITO, apply_style, get_style

#: What each x axis reads from a trace, and its title.
COST_AXES = {"iterations": "iterations", "nodes": "nodes touched", "seconds": "solver seconds"}
#: One colour per run label, in this order (Okabe-Ito, black and yellow left out).
RUN_COLOURS = (OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["bluish green"],
               OKABE_ITO["reddish purple"], OKABE_ITO["orange"], OKABE_ITO["sky blue"],
               "#555555")
#: Line styles cycled with the colours, so that runs differ by more than colour.
RUN_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "solid")


def cost(trace, axis: str = "nodes") -> np.ndarray:
    """The cost of each recorded iteration of ``trace``, as floats.

    Parameters
    ----------
    trace : Trace
        A run of a tree algorithm (its ``extras`` hold ``nodes_touched`` and
        ``elapsed``).
    axis : {"iterations", "nodes", "seconds"}

    Raises
    ------
    ValueError
        For an unknown axis, or a trace that did not record that cost.
    """
    if axis not in COST_AXES:
        raise ValueError(f"axis must be one of {list(COST_AXES)}; got {axis!r}")
    if axis == "iterations":
        return np.asarray(trace.iterations, dtype=float)
    key = "nodes_touched" if axis == "nodes" else "elapsed"
    if key not in trace.extras:
        raise ValueError(f"this {trace.algorithm} trace did not record {key!r}; only the tree "
                         f"algorithms (cfr, cfr+, ..., outcome_sampling) do")
    return np.asarray(trace.extras[key], dtype=float)


def exploitability_at(trace, budget: float, axis: str = "nodes",
                      current: bool = False) -> float:
    """Exploitability of the last record whose cost is within ``budget`` (NaN if none is).

    Parameters
    ----------
    trace : Trace
    budget : float
        Iterations, nodes touched or seconds, as ``axis`` says.
    axis : {"iterations", "nodes", "seconds"}
    current : bool, default False
        Read the current strategy's exploitability instead of the average's.
    """
    x = cost(trace, axis)
    values = trace.current_exploitability if current else trace.exploitability
    within = np.flatnonzero(x <= float(budget))
    return float(values[within[-1]]) if len(within) else float("nan")


def log_checkpoints(iterations: int, count: int = 80) -> list[int]:
    """About ``count`` iterations spread evenly on a log scale from 1 to ``iterations``.

    Recording fewer snapshots keeps long runs cheap to evaluate while a
    log-log chart still looks smooth.
    """
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) \
            or iterations < 1:
        raise ValueError(f"iterations must be a whole number >= 1; got {iterations!r}")
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ValueError(f"count must be a whole number >= 1; got {count!r}")
    points = np.unique(np.geomspace(1, iterations, count).round().astype(int))
    return sorted(set(points.tolist()) | {int(iterations)})


def positive_or_gap(values) -> list:
    """Values as a list, with ``None`` (a gap in a plotly line) where a log axis cannot go.

    ``None`` rather than NaN: a ``FigureWidget`` sends its data as strict JSON,
    which has no NaN.
    """
    return [float(v) if np.isfinite(v) and v > 0 else None for v in np.asarray(values, float)]


def _runs_on_one_game(traces: Sequence, caller: str) -> list:
    """The runs as a list, refusing none and runs on different games."""
    traces = list(traces)
    if not traces:
        raise ValueError(f"{caller} needs at least one trace")
    names = {t.game.name for t in traces}
    if len(names) > 1:
        raise ValueError(f"compare runs on one game; got {', '.join(sorted(names))}")
    return traces


def _labels(traces, labels) -> list[str]:
    """One label per trace, escaped for plotly (legend names and hover templates)."""
    if labels is None:
        return [escape(t.algorithm) for t in traces]
    labels = [escape(label) for label in labels]
    if len(labels) != len(traces):
        raise ValueError(f"give one label per trace: {len(traces)} traces, {len(labels)} labels")
    return labels


def comparison_figure(traces: Sequence, labels: Sequence[str] | None = None,
                      axis: str = "nodes", current: bool = False,
                      title: str | None = None, presenter: bool | None = None) -> go.Figure:
    """Exploitability of several runs on one log-log chart.

    Runs that share a label (several seeds of one algorithm, say) share a
    colour and one legend entry, so the spread between seeds is visible as
    a bundle of lines.

    Parameters
    ----------
    traces : sequence of Trace
        Runs of tree algorithms, on one game.
    labels : sequence of str, optional
        A name per trace (default: each trace's algorithm).
    axis : {"iterations", "nodes", "seconds"}, default "nodes"
        The cost on the x axis: iterations, nodes touched (what a traversal
        costs anywhere), or solver seconds (what it cost on this machine).
    current : bool, default False
        Plot the current strategy's exploitability instead of the average's.
    title : str, optional
    presenter : bool, optional
        Larger fonts and lines for a projector (default: the global switch).

    Returns
    -------
    plotly.graph_objects.Figure
        One trace per run, in the order given.

    Raises
    ------
    ValueError
        For no traces, traces of different games, a bad axis or labels.
    """
    traces = _runs_on_one_game(traces, "comparison_figure")
    labels = _labels(traces, labels)
    style = get_style(presenter)
    order = list(dict.fromkeys(labels))
    fig = go.Figure()
    shown = set()
    for trace, label in zip(traces, labels):
        fig.add_trace(_exploitability_line(trace, label, order.index(label), axis, current,
                                           label not in shown, style.line_scale))
        shown.add(label)
    which = "current" if current else "average"
    game = escape(traces[0].game.name)
    fig.update_layout(
        height=int(400 * style.figure_scale), font=style.font(),
        title=dict(text=title or f"{game}: exploitability of the {which} strategy",
                   font=style.font(style.title_size)),
        xaxis=dict(type="log", title=COST_AXES[axis]),
        yaxis=dict(type="log", title="exploitability", exponentformat="power"),
        margin=dict(l=70, r=20, t=60, b=50), legend=dict(x=0.01, y=0.01, yanchor="bottom",
                                                         bgcolor="rgba(255,255,255,0.8)"))
    return apply_style(fig, style)


def _exploitability_line(trace, label: str, k: int, axis: str, current: bool,
                         in_legend: bool, scale: float) -> go.Scatter:
    """One run's exploitability against its cost, in the colour and dash of its label (the
    ``k``-th)."""
    values = trace.current_exploitability if current else trace.exploitability
    return go.Scatter(
        x=cost(trace, axis), y=positive_or_gap(values), mode="lines", name=label,
        legendgroup=label, showlegend=in_legend,
        line=dict(color=RUN_COLOURS[k % len(RUN_COLOURS)],
                  dash=RUN_DASHES[k % len(RUN_DASHES)], width=2.2 * scale),
        hovertemplate=(f"{label}<br>{COST_AXES[axis]} %{{x:,.4~g}}<br>"
                       "exploitability %{y:.3~e}<extra></extra>"))


def iterates_figure(traces: Sequence, labels: Sequence[str] | None = None,
                    axis: str = "iterations", title: str | None = None,
                    presenter: bool | None = None) -> go.Figure:
    """The average strategy and the current strategy of each run, on one log-log chart.

    Each run keeps one colour: its average is a solid line, its current strategy (the
    one played at that iteration) a dotted line of the same colour, so that whether
    the *last iterate* converges, or only the average, reads at a glance.  Points where
    an exploitability is zero or below (rounding, once a run is exact) are gaps.

    Parameters
    ----------
    traces : sequence of Trace
        Runs of tree algorithms on one game (their records hold both exploitabilities).
    labels : sequence of str, optional
        A name per trace (default: each trace's algorithm).
    axis : {"iterations", "nodes", "seconds"}, default "iterations"
    title : str, optional
    presenter : bool, optional

    Raises
    ------
    ValueError
        For no traces, traces of different games, a bad axis or labels.
    """
    traces = _runs_on_one_game(traces, "iterates_figure")
    labels = _labels(traces, labels)
    style = get_style(presenter)
    fig = go.Figure()
    for k, (trace, label) in enumerate(zip(traces, labels)):
        colour = RUN_COLOURS[k % len(RUN_COLOURS)]
        for which, values, dash in (("average", trace.exploitability, "solid"),
                                    ("current", trace.current_exploitability, "dot")):
            fig.add_trace(go.Scatter(
                x=cost(trace, axis), y=positive_or_gap(values), mode="lines",
                name=f"{label}: {which}", legendgroup=label,
                line=dict(color=colour, dash=dash, width=2.2 * style.line_scale),
                hovertemplate=(f"{label}, {which} strategy<br>{COST_AXES[axis]} %{{x:,.4~g}}"
                               "<br>exploitability %{y:.3~e}<extra></extra>")))
    game = escape(traces[0].game.name)
    fig.update_layout(
        height=int(440 * style.figure_scale), font=style.font(),
        title=dict(text=title or f"{game}: average (solid) and current (dotted) strategies",
                   font=style.font(style.title_size)),
        xaxis=dict(type="log", title=COST_AXES[axis]),
        yaxis=dict(type="log", title="exploitability", exponentformat="power"),
        margin=dict(l=70, r=20, t=60, b=50), legend=dict(x=1.02, y=1, xanchor="left",
                                                         bgcolor="rgba(255,255,255,0.8)"))
    return apply_style(fig, style)


#: Legend names of the regret updates of :data:`cfrviz.reference.updates.REGRET_UPDATES`.
UPDATE_LABELS = {"cfr": "opponent and chance reach (CFR)", "own-reach": "own reach instead",
                 "sign": "sign flipped", "no-chance": "chance left out",
                 "all-reach": "all three reaches", "unweighted": "no weight"}


def update_comparison_figure(comparison: dict, presenter: bool | None = None) -> go.Figure:
    """Log-log exploitability curves, one line per regret update.

    ``comparison`` is what :func:`cfrviz.reference.updates.update_comparison`
    returns: ``{"iterations": array, name: exploitability array, ...}``.
    """
    style = get_style(presenter)
    fig = go.Figure()
    its = comparison["iterations"]
    for n, name in enumerate(k for k in comparison if k != "iterations"):
        fig.add_trace(go.Scatter(x=its, y=np.maximum(comparison[name], 1e-12),
                                 name=escape(UPDATE_LABELS.get(name, name)),
                                 mode="lines+markers",
                                 line=dict(color=RUN_COLOURS[n % len(RUN_COLOURS)],
                                           dash=RUN_DASHES[n % len(RUN_DASHES)],
                                           width=2.5 * style.line_scale),
                                 marker=dict(size=5 * style.line_scale)))
    fig.update_layout(
        title=dict(text="Kuhn poker: exploitability of the average strategy",
                   font=style.font(style.title_size)),
        font=style.font(), height=int(380 * style.figure_scale),
        width=int(720 * style.figure_scale), plot_bgcolor="white",
        xaxis=dict(type="log", title="iteration", gridcolor="#e5e5e5"),
        yaxis=dict(type="log", title="exploitability", gridcolor="#e5e5e5"),
        legend=dict(x=0.02, y=0.02, xanchor="left", yanchor="bottom",
                    bgcolor="rgba(255,255,255,0.8)"),
        margin=dict(l=70, r=20, t=60, b=60))
    return apply_style(fig, style)


def iteration_weights_figure(weights: dict, title: str | None = None,
                             presenter: bool | None = None) -> go.Figure:
    """How much each iteration still counts at the end of a run (one line per kind of sum).

    ``weights`` maps a name (``"positive regrets"``, ...) to an array whose
    entry ``k`` is the factor by which iteration ``k + 1``'s contribution has
    been multiplied by the end, as :func:`cfrviz.analysis.variants.iteration_weights`
    returns.  Update it in place by assigning to ``fig.data[i].y``.
    """
    style = get_style(presenter)
    fig = go.Figure()
    for k, (name, values) in enumerate(weights.items()):
        values = np.asarray(values, dtype=float)
        fig.add_trace(go.Scatter(
            x=np.arange(1, len(values) + 1), y=values, mode="lines", name=escape(name),
            line=dict(color=RUN_COLOURS[k % len(RUN_COLOURS)],
                      dash=RUN_DASHES[k % len(RUN_DASHES)], width=2.2 * style.line_scale)))
    fig.update_layout(
        height=int(300 * style.figure_scale), font=style.font(),
        title=dict(text=title or "How much iteration t still counts at the end",
                   font=style.font(style.title_size)),
        xaxis=dict(title="iteration t"), yaxis=dict(title="weight", range=[-0.03, 1.05]),
        margin=dict(l=60, r=20, t=70, b=45),
        legend=dict(orientation="h", y=1.02, x=1, xanchor="right", yanchor="bottom"))
    return apply_style(fig, style)


def regret_estimates_figure(keys: Sequence[str], exact: np.ndarray, one_run: np.ndarray,
                            mean: np.ndarray, runs: int, title: str | None = None,
                            presenter: bool | None = None) -> go.Figure:
    """Exact regrets beside one sampled estimate and the mean of many (grouped bars).

    The three arrays hold one number per information set in ``keys`` (the
    regret of one action); see :func:`cfrviz.analysis.sampling.first_iteration_regrets`.
    """
    style = get_style(presenter)
    keys = [escape(key) for key in keys]  # category labels are markup
    fig = go.Figure()
    for name, values, colour in (("exact (full tree)", exact, OKABE_ITO["black"]),
                                 ("one sampled run", one_run, OKABE_ITO["orange"]),
                                 (f"mean of {runs:,} sampled runs", mean, OKABE_ITO["blue"])):
        fig.add_trace(go.Bar(x=keys, y=np.asarray(values, dtype=float), name=name,
                             marker_color=colour))
    fig.update_layout(
        barmode="group", height=int(340 * style.figure_scale), font=style.font(),
        title=dict(text=title or "Regret estimates at iteration 1",
                   font=style.font(style.title_size)),
        xaxis=dict(title="information set"), yaxis=dict(title="regret"),
        margin=dict(l=60, r=20, t=50, b=50), legend=dict(orientation="h", y=1.02, x=1,
                                                         xanchor="right", yanchor="bottom"))
    return apply_style(fig, style)


def exploitation_figure(names: Sequence[str], trained: Sequence[float], best: Sequence[float],
                        labels: tuple[str, str] = ("trained strategy", "best response"),
                        title: str | None = None, presenter: bool | None = None) -> go.Figure:
    """What two players win per hand against each opponent (grouped bars).

    Typically ``trained`` holds an equilibrium strategy's exact winnings
    against each bot and ``best`` what a best response to that bot wins
    (the bot's exploitability): the gap is what the equilibrium leaves on
    the table by not adapting.
    """
    seen: set = set()
    for name in map(str, names):  # one bar per name: a repeated name would hide a result
        if name in seen:
            raise ValueError(f"two opponents are both named {name!r}: give each its own name "
                             f"so that no bar hides another")
        seen.add(name)
    names = [escape(n) for n in names]
    trained_values = np.asarray(trained, dtype=float)
    best_values = np.asarray(best, dtype=float)
    if not len(names) == len(trained_values) == len(best_values):
        raise ValueError(f"give one value per opponent: {len(names)} names, "
                         f"{len(trained_values)} and {len(best_values)} values")
    style = get_style(presenter)
    fig = go.Figure()
    for label, values, colour, pattern in (
            (escape(labels[0]), trained_values, OKABE_ITO["blue"], ""),
            (escape(labels[1]), best_values, OKABE_ITO["bluish green"], "/")):
        fig.add_trace(go.Bar(x=names, y=values, name=label, marker_color=colour,
                             marker_pattern_shape=pattern, text=[f"{v:+.2f}" for v in values],
                             textposition="outside",
                             hovertemplate=(f"{label} vs %{{x}}: %{{y:+.3f}} per hand"
                                            "<extra></extra>")))
    fig.update_layout(
        barmode="group", height=int(360 * style.figure_scale), font=style.font(),
        title=dict(text=title or "Winnings per hand against each opponent (exact)",
                   font=style.font(style.title_size)),
        yaxis=dict(title="payoff per hand"), xaxis=dict(title="opponent"),
        margin=dict(l=60, r=20, t=60, b=50),
        legend=dict(orientation="h", y=1.02, x=1, xanchor="right", yanchor="bottom"))
    return apply_style(fig, style)
