"""CFR against the exact answer of linear programming: convergence, then cost as games grow.

Pure functions returning plotly figures; nothing here runs a solver.  The
numbers come from :mod:`cfrviz.analysis.lp_scaling` (measured in the notebook,
or recorded by ``benchmarks/bench_lp_scaling.py``).  Figures set a height and
leave the width to the notebook (plotly's autosize).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..core.markup import escape
from .compare import RUN_COLOURS, RUN_DASHES, positive_or_gap
from .style import OKABE_ITO, get_style

#: Colours of the two solvers in the cost figure.
LP_COLOUR = OKABE_ITO["vermillion"]
CFR_COLOUR = OKABE_ITO["blue"]
EXACT_COLOUR = "#333333"
#: The convergence figure's value panel is framed to fit the records from this iteration on.
SETTLED = 10


def exact_convergence_figure(traces: Sequence, values: Sequence, exact_value: float,
                             lp_exploitability: float | None = None,
                             labels: Sequence[str] | None = None,
                             presenter: bool | None = None) -> go.Figure:
    """Runs of CFR and its variants measured against the exact solution of the same game.

    Top: player 1's value when both play each run's average strategy, with
    the exact value of the game (from the sequence-form LP) as a dashed line;
    the axis frames the values from iteration ``SETTLED`` on (earlier ones
    swing widely and may leave the panel).
    Bottom, on log axes: each run's exploitability (solid) and its distance
    to the exact value (dotted), with the LP policy's own exploitability, the
    rounding error of an exact method, as the floor.

    Parameters
    ----------
    traces : sequence of Trace
        Runs on one game, with exploitability recorded.
    values : sequence of numpy.ndarray
        Player 1's value of each run's average strategy at each record
        (:func:`cfrviz.analysis.lp_scaling.average_values`).
    exact_value : float
        The value of the game (:func:`cfrviz.exact_equilibrium`'s ``value``).
    lp_exploitability : float, optional
        Exploitability of the LP's policy; drawn when positive.
    labels : sequence of str, optional
        Legend names (default: the algorithms).
    presenter : bool, optional

    Returns
    -------
    plotly.graph_objects.Figure
        For run ``k``: ``data[3k]`` its value, ``data[3k + 1]`` its
        exploitability, ``data[3k + 2]`` its distance to the exact value; then
        the exact value's line and, if drawn, the LP's floor.

    Raises
    ------
    ValueError
        For no traces, or values or labels that do not match the traces.
    """
    traces = list(traces)
    values = [np.asarray(v, dtype=float) for v in values]
    if not traces:
        raise ValueError("exact_convergence_figure needs at least one trace")
    if len(values) != len(traces) or any(len(v) != len(t) for v, t in zip(values, traces)):
        raise ValueError("give one array of values per trace, one value per record")
    names = [escape(t.algorithm) for t in traces] if labels is None else [escape(x)
                                                                            for x in labels]
    if len(names) != len(traces):
        raise ValueError(f"give one label per trace: {len(traces)} traces, {len(names)} labels")
    style = get_style(presenter)
    width = 2.2 * style.line_scale
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        row_heights=[0.38, 0.62])
    for k, (trace, value, name) in enumerate(zip(traces, values, names)):
        colour, dash = RUN_COLOURS[k % len(RUN_COLOURS)], RUN_DASHES[k % len(RUN_DASHES)]
        x = np.asarray(trace.iterations, dtype=float)
        fig.add_trace(go.Scatter(
            x=x, y=value, mode="lines", name=name, legendgroup=name,
            line=dict(color=colour, dash=dash, width=width),
            hovertemplate=f"{name}<br>iteration %{{x:,}}<br>value %{{y:.6f}}<extra></extra>"),
            row=1, col=1)
        fig.add_trace(go.Scatter(
            x=x, y=positive_or_gap(trace.exploitability), mode="lines", name=name,
            legendgroup=name, showlegend=False, line=dict(color=colour, width=width),
            hovertemplate=(f"{name}<br>iteration %{{x:,}}<br>exploitability "
                           "%{y:.3~e}<extra></extra>")), row=2, col=1)
        fig.add_trace(go.Scatter(
            x=x, y=positive_or_gap(np.abs(value - exact_value)), mode="lines", name=name,
            legendgroup=name, showlegend=False,
            line=dict(color=colour, dash="dot", width=width * 0.8),
            hovertemplate=(f"{name}<br>iteration %{{x:,}}<br>|value − exact value| "
                           "%{y:.3~e}<extra></extra>")), row=2, col=1)
    ends = [min(float(t.iterations[0]) for t in traces),
            max(float(t.iterations[-1]) for t in traces)]
    fig.add_trace(go.Scatter(
        x=ends, y=[exact_value] * 2, mode="lines", name=f"exact value (LP) {exact_value:.6f}",
        line=dict(color=EXACT_COLOUR, dash="dash", width=1.5 * style.line_scale),
        hovertemplate=f"exact value {exact_value:.10f}<extra>LP</extra>"), row=1, col=1)
    if lp_exploitability is not None and lp_exploitability > 0:
        fig.add_trace(go.Scatter(
            x=ends, y=[lp_exploitability] * 2, mode="lines",
            name=f"LP policy's exploitability {lp_exploitability:.0e} (rounding)",
            line=dict(color=EXACT_COLOUR, dash="dash", width=1.5 * style.line_scale),
            hovertemplate=f"{lp_exploitability:.2e}<extra>LP</extra>"), row=2, col=1)
    # The first iterations swing widely; the top panel frames the rest around the exact value.
    settled = np.concatenate([v[np.asarray(t.iterations) >= SETTLED] for t, v in
                              zip(traces, values)] + [np.array([exact_value])])
    spread = max(float(np.max(np.abs(settled - exact_value))), 1e-9) * 1.1
    game = escape(traces[0].game.name)
    fig.update_layout(
        height=int(660 * style.figure_scale), font=style.font(),
        title=dict(text=f"{game}: CFR's answers against the exact one",
                   font=style.font(style.title_size)),
        margin=dict(l=80, r=20, t=60, b=50),
        legend=dict(orientation="h", x=0, y=-0.1, yanchor="top"))
    fig.update_xaxes(type="log", row=1, col=1)
    fig.update_xaxes(type="log", title="iterations", row=2, col=1)
    fig.update_yaxes(title="value to player 1", row=1, col=1,
                     range=[exact_value - spread, exact_value + spread])
    fig.update_yaxes(type="log", exponentformat="power",
                     title="exploitability (solid)<br>|value − exact| (dotted)", row=2, col=1)
    return fig


def _series(rows, what: str) -> tuple[list, list, list]:
    """x (sequences), y and hover text of the rows that measured ``what``."""
    xs, ys, texts = [], [], []
    for r in sorted(rows, key=lambda r: r.sequences):
        y = {"lp_seconds": r.lp_seconds, "cfr_seconds": r.cfr_seconds,
             "lp_bytes": r.lp_bytes / 1e6, "cfr_bytes": r.cfr_bytes / 1e6,
             "cfr_table_bytes": r.cfr_table_bytes / 1e6}[what]
        if r.sequences <= 0 or not math.isfinite(y):
            continue
        xs.append(r.sequences)
        ys.append(max(y, 1e-3) if what in ("lp_bytes", "cfr_bytes") else y)  # RSS granularity
        texts.append(escape(r.game))
    return xs, ys, texts


def lp_vs_cfr_figure(recorded: Sequence = (), measured: Sequence = (),
                     presenter: bool | None = None) -> go.Figure:
    """Time and memory of the LP against CFR+ to a target exploitability, as games grow.

    Log-log against the sequences of one player (the LP's size).  Recorded
    rows (from ``benchmarks/bench_lp_scaling.py``) are lines with open
    markers; rows measured in this session are filled markers.  Times are
    CPU seconds.  Memory is the peak growth of resident memory during the
    solve, shown from 0.001 MB up, and, dotted, CFR's two tables alone
    (what a CFR that does not store the tree needs).  LPs that were stopped
    are marked on the time panel at the top edge.

    Parameters
    ----------
    recorded, measured : sequence of LpVsCfr
    presenter : bool, optional

    Returns
    -------
    plotly.graph_objects.Figure
        ``data``: for each of recorded and measured (when given) the LP's time,
        CFR+'s time, the LP's memory, CFR+'s memory and CFR's tables, in that
        order; then the stopped LPs, if any.

    Raises
    ------
    ValueError
        When both are empty.
    """
    recorded, measured = list(recorded), list(measured)
    if not recorded and not measured:
        raise ValueError("lp_vs_cfr_figure needs recorded or measured rows")
    style = get_style(presenter)
    target = (recorded or measured)[0].target
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    for rows, kind in ((recorded, "recorded"), (measured, "measured now")):
        if not rows:
            continue
        filled = kind != "recorded"
        for panel, (what, solver, colour, unit) in enumerate(
                (("lp_seconds", "LP", LP_COLOUR, "s"),
                 ("cfr_seconds", f"CFR+ to {target:g}", CFR_COLOUR, "s"),
                 ("lp_bytes", "LP", LP_COLOUR, "MB"),
                 ("cfr_bytes", "CFR+", CFR_COLOUR, "MB"),
                 ("cfr_table_bytes", "CFR's two tables alone", CFR_COLOUR, "MB"))):
            x, y, text = _series(rows, what)
            name = f"{solver}, {kind}"
            tables = what == "cfr_table_bytes"
            fig.add_trace(go.Scatter(
                x=x, y=y, text=text, mode="markers" if filled else "lines+markers",
                name=name, legendgroup=name, showlegend=panel < 2 or tables,
                marker=dict(color=colour, size=(11 if filled else 7) * style.line_scale,
                            symbol="diamond" if filled else "circle-open",
                            line=dict(width=1.5, color=colour)),
                line=dict(color=colour, width=1.8 * style.line_scale,
                          dash="dot" if tables else "solid"),
                hovertemplate=(f"%{{text}}<br>%{{x:,}} sequences per player<br>{solver}: "
                               f"%{{y:.3~g}} {unit}<extra>{kind}</extra>")),
                row=1 if panel < 2 else 2, col=1)
    stopped = [r for r in recorded if not math.isfinite(r.lp_seconds) and r.sequences > 0]
    if stopped:
        top = max(t for r in recorded for t in (r.lp_seconds, r.cfr_seconds) if math.isfinite(t))
        fig.add_trace(go.Scatter(
            x=[r.sequences for r in stopped], y=[top] * len(stopped),
            text=[escape(f"{r.game}: {r.source.split(';')[0]}") for r in stopped],
            mode="markers", name="LP stopped (did not finish)",
            marker=dict(color=LP_COLOUR, symbol="x", size=12 * style.line_scale),
            hovertemplate="%{text}<extra></extra>"), row=1, col=1)
    fig.update_layout(
        height=int(640 * style.figure_scale), font=style.font(),
        title=dict(text="Exact LP against CFR+: what each costs as the game grows",
                   font=style.font(style.title_size)),
        margin=dict(l=80, r=20, t=60, b=50),
        legend=dict(orientation="h", x=0, y=-0.1, yanchor="top"))
    fig.update_xaxes(type="log", row=1, col=1)
    fig.update_xaxes(type="log", title="sequences per player (size of the LP)", row=2, col=1)
    fig.update_yaxes(type="log", title="CPU seconds", row=1, col=1)
    fig.update_yaxes(type="log", title="peak memory, MB", row=2, col=1)
    return fig
