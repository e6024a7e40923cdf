"""Deep CFR's networks against the exact regrets: what the advantage network predicts at one set.

A Deep CFR trace (``cfrviz.solve(game, "deep_cfr", ...)``) records at each
iteration t the advantages the networks trained at t predict at every set
(``cumulative_regret``) and the exact counterfactual regrets of the strategy
played at t (``instantaneous_regret``).  The network is trained on *sampled*
regrets weighted by their iteration, so what it should predict at a set I is
not iteration t's regret but the t-weighted average of the regrets so far,
divided by how often the traversals reached I:

    target_t(I, a) = sum_{s <= t} s * r_s(I, a) / sum_{s <= t} s * pi_{-p}^{s}(I)

with ``r_s`` the exact counterfactual regret of iteration s and ``pi_{-p}^s(I)``
chance's and the opponent's probability of reaching I (summed over its nodes)
under sigma_s -- the expected number of samples I receives per traversal.
:func:`advantage_targets` computes it exactly from the trace;
:func:`advantage_regret_figure` draws the three side by side.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.checks import infoset_id
from ..core.markup import escape
from .compare import RUN_COLOURS
from .style import apply_style, get_style


def _info(trace, infoset) -> int:
    game = trace.game
    return infoset_id(game, infoset)


def _every_iteration(trace) -> np.ndarray:
    its = np.asarray(trace.iterations)
    if trace.algorithm != "deep_cfr":
        raise ValueError(f"this view needs a deep_cfr trace; got a {trace.algorithm} trace")
    if len(its) == 0 or not np.array_equal(its, np.arange(1, len(its) + 1)):
        raise ValueError("the weighted target needs every iteration recorded: solve with "
                         "checkpoints=range(1, iterations + 1)")
    return its


def advantage_targets(trace, infoset) -> dict[str, np.ndarray]:
    """What the advantage network predicts at one set, and what it is trained towards.

    Parameters
    ----------
    trace : Trace
        A ``deep_cfr`` trace recorded at every iteration 1, 2, ..., T.
    infoset : str or int
        The set's key or id.

    Returns
    -------
    dict of arrays
        ``iterations`` (T,); ``predicted`` (T, actions): the advantages of the
        networks trained at t; ``regret`` (T, actions): the exact counterfactual
        regrets of sigma_t; ``reach`` (T,): chance's and the opponent's reach of
        the set under sigma_t; ``target`` (T, actions): the t-weighted average
        of the regrets divided by the t-weighted reach (see the module's
        documentation), or 0 while the set has not been reached.  Only the
        set's legal actions are kept.

    Raises
    ------
    ValueError
        For a trace of another algorithm, one not recorded at every iteration,
        or an unknown set.
    """
    from ..engine import counterfactual_table

    its = _every_iteration(trace)
    info = _info(trace, infoset)
    game = trace.game
    owner = int(game.infoset_player[info])
    k = len(game.infoset_actions[info])
    reach = np.array([counterfactual_table(game, np.asarray(sigma), owner)["opponent_reach"][info]
                      for sigma in trace.current_strategy])
    regret = np.asarray(trace.instantaneous_regret)[:, info, :k]
    weighted = np.cumsum(its[:, None] * regret, axis=0)
    mass = np.cumsum(its * reach)
    with np.errstate(invalid="ignore", divide="ignore"):
        target = np.where(mass[:, None] > 0, weighted / np.where(mass > 0, mass, 1)[:, None],
                          0.0)
    return {"iterations": its, "predicted": np.asarray(trace.cumulative_regret)[:, info, :k],
            "regret": regret, "reach": reach, "target": target}


def advantage_regret_figure(trace, infoset, presenter: bool | None = None) -> go.Figure:
    """The network's advantages at one set beside the exact regrets, across iterations.

    One colour per action: a solid line for the advantage the networks of
    iteration t predict, a dashed line for the target of
    :func:`advantage_targets` (the weighted average the network is trained
    towards), and dots for the exact counterfactual regret of the strategy
    played at t alone.  The figure sizes itself to the cell's width.

    Parameters
    ----------
    trace : Trace
        A ``deep_cfr`` trace recorded at every iteration.
    infoset : str or int
    presenter : bool, optional
        Larger fonts and lines for a projector (default: the global switch).
    """
    data = advantage_targets(trace, infoset)
    game = trace.game
    info = _info(trace, infoset)
    key = escape(game.infoset_keys[info])
    actions = [escape(a) for a in game.infoset_actions[info]]
    style = get_style(presenter)
    fig = go.Figure()
    x = data["iterations"]
    for a, action in enumerate(actions):
        colour = RUN_COLOURS[a % len(RUN_COLOURS)]
        fig.add_trace(go.Scatter(
            x=x, y=data["regret"][:, a], mode="markers", name=f"{action}: exact regret of σ_t",
            legendgroup=action, marker=dict(color=colour, size=5 * style.line_scale,
                                            opacity=0.5),
            hovertemplate=(f"{action}, iteration %{{x}}<br>exact regret of the strategy played "
                           "%{y:.4f}<extra></extra>")))
        fig.add_trace(go.Scatter(
            x=x, y=data["target"][:, a], mode="lines", name=f"{action}: weighted target",
            legendgroup=action, line=dict(color=colour, dash="dash", width=2 * style.line_scale),
            hovertemplate=(f"{action}, iteration %{{x}}<br>t-weighted average of the exact "
                           "regrets ÷ weighted reach %{y:.4f}<extra></extra>")))
        fig.add_trace(go.Scatter(
            x=x, y=data["predicted"][:, a], mode="lines", name=f"{action}: network's advantage",
            legendgroup=action, line=dict(color=colour, width=2.6 * style.line_scale),
            hovertemplate=(f"{action}, iteration %{{x}}<br>advantage the network predicts "
                           "%{y:.4f}<extra></extra>")))
    fig.update_layout(
        height=int(460 * style.figure_scale), font=style.font(),
        title=dict(text=f"{escape(game.name)}, set {key}: the network's advantages and the "
                        "exact regrets", font=style.font(style.title_size)),
        xaxis=dict(title="iteration t"), yaxis=dict(title="payoff units", zeroline=True),
        margin=dict(l=60, r=20, t=60, b=int(130 * style.figure_scale)),
        # At the foot of the figure, below the axis title (a paper position ran into it).
        legend=dict(orientation="h", yref="container", y=0.01, x=0, yanchor="bottom"))
    return apply_style(fig, style)


def recorded_runs_figure(recorded: dict, axis: str = "iterations",
                         presenter: bool | None = None) -> go.Figure:
    """Exploitability of the runs of ``benchmarks/record_deep_cfr.py`` on one log-log chart.

    ``recorded`` is the file's content (``{"meta": ..., "runs": {name: run}}``),
    each run holding ``iterations``, ``exploitability`` and ``nodes_touched``
    lists; ``axis`` is ``"iterations"`` or ``"nodes"``.  The title says the
    numbers are recorded, with the date.
    """
    if axis not in ("iterations", "nodes"):
        raise ValueError(f"axis must be 'iterations' or 'nodes'; got {axis!r}")
    try:
        meta, runs = recorded["meta"], recorded["runs"]
    except (KeyError, TypeError):
        raise ValueError("not a recording of benchmarks/record_deep_cfr.py: it needs 'meta' and "
                         "'runs'") from None
    style = get_style(presenter)
    fig = go.Figure()
    for k, (name, run) in enumerate(runs.items()):
        x = run["iterations"] if axis == "iterations" else run["nodes_touched"]
        label = escape(name.replace("_", " "))
        fig.add_trace(go.Scatter(
            x=np.asarray(x, dtype=float), y=np.asarray(run["exploitability"], dtype=float),
            mode="lines+markers", name=label,
            line=dict(color=RUN_COLOURS[k % len(RUN_COLOURS)], width=2.2 * style.line_scale),
            marker=dict(size=4 * style.line_scale),
            hovertemplate=(f"{label}<br>{'nodes touched' if axis == 'nodes' else 'iteration'} "
                           "%{x:,.4~g}<br>exploitability %{y:.3~e}<extra></extra>")))
    fig.update_layout(
        height=int(400 * style.figure_scale), font=style.font(),
        title=dict(text=f"{escape(str(meta.get('game', '')))}, recorded "
                        f"{escape(str(meta.get('date', '')))}: exploitability of the average "
                        "strategy",
                   font=style.font(style.title_size)),
        xaxis=dict(type="log", title="nodes touched" if axis == "nodes" else "iterations"),
        yaxis=dict(type="log", title="exploitability", exponentformat="power"),
        margin=dict(l=70, r=20, t=60, b=50),
        legend=dict(x=0.01, y=0.01, yanchor="bottom", bgcolor="rgba(255,255,255,0.8)"))
    return apply_style(fig, style)
