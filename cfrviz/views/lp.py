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
from .style import OKABE_ITO, apply_style, get_style

#: Colours of the two solvers in the cost figure.
LP_COLOUR = OKABE_ITO["vermillion"]
CFR_COLOUR = OKABE_ITO["blue"]
#: CFR's two tables alone (what a CFR that does not store the tree needs).
TABLES_COLOUR = OKABE_ITO["sky blue"]


def exact_convergence_figure(traces: Sequence, values: Sequence, exact_value: float,
                             lp_exploitability: float | None = None,
                             labels: Sequence[str] | None = None,
                             presenter: bool | None = None) -> go.Figure:
    """Runs of CFR and its variants measured against the exact solution of the same game.

    One message: each run's answer closes in on the exact one, its value long before its
    strategy.  Two log-log panels with the same vertical range, one line per run in each
    (the same colour and dash in both): on top, how far the value each run's average
    strategy gives player 1 is from the exact value of the game (from the sequence-form
    LP); below, the run's exploitability.  The exact value and the LP policy's own
    exploitability (the rounding error of an exact method) are written on the figure.

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
        Exploitability of the LP's policy, written in the lower panel.
    labels : sequence of str, optional
        Legend names (default: the algorithms).
    presenter : bool, optional

    Returns
    -------
    plotly.graph_objects.Figure
        For run ``k``: ``data[2k]`` its distance to the exact value (top panel, in the
        legend), ``data[2k + 1]`` its exploitability (bottom panel).

    Raises
    ------
    ValueError
        For no traces, or values or labels that do not match the traces.
    """
    traces, values, names = _convergence_runs(traces, values, labels)
    style = get_style(presenter)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                        subplot_titles=("how far the value is from the exact value",
                                        "exploitability of the strategy"))
    drawn = []
    for k, (trace, value, name) in enumerate(zip(traces, values, names)):
        drawn += _add_convergence_run(fig, k, trace, value, name, exact_value,
                                      2.5 * style.line_scale)
    notes = [f"exact value of the game (LP): {exact_value:.6f}"]
    if lp_exploitability is not None and lp_exploitability > 0:
        notes.append(f"exploitability of the LP's policy: {lp_exploitability:.0e} (rounding)")
    fig.add_annotation(text="<br>".join(notes), xref="x2 domain", yref="y2 domain", x=0.02,
                       y=0.04, xanchor="left", yanchor="bottom", showarrow=False, align="left",
                       bgcolor="rgba(255,255,255,0.85)", font=style.font(style.small_font))
    _convergence_layout(fig, escape(traces[0].game.name), drawn, style)
    return apply_style(fig, style)


def _convergence_runs(traces: Sequence, values: Sequence, labels: Sequence[str] | None
                      ) -> tuple[list, list[np.ndarray], list[str]]:
    """The runs, their values as arrays and their legend names (markup), checked to match."""
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
    return traces, values, names


def _add_convergence_run(fig: go.Figure, k: int, trace, value: np.ndarray, name: str,
                         exact_value: float, width: float) -> list[float]:
    """Run ``k``'s two lines (distance to the exact value above, exploitability below); the
    values drawn."""
    colour, dash = RUN_COLOURS[k % len(RUN_COLOURS)], RUN_DASHES[k % len(RUN_DASHES)]
    x = np.asarray(trace.iterations, dtype=float)
    gap = positive_or_gap(np.abs(value - exact_value))
    exploitability = positive_or_gap(trace.exploitability)
    line = dict(color=colour, dash=dash, width=width)
    fig.add_trace(go.Scatter(
        x=x, y=gap, mode="lines", name=name, legendgroup=name, line=line,
        customdata=value,
        hovertemplate=(f"{name}<br>iteration %{{x:,}}<br>value %{{customdata:.6f}}<br>"
                       "|value − exact value| %{y:.3~e}<extra></extra>")), row=1, col=1)
    fig.add_trace(go.Scatter(
        x=x, y=exploitability, mode="lines", name=name, legendgroup=name,
        showlegend=False, line=line,
        hovertemplate=(f"{name}<br>iteration %{{x:,}}<br>exploitability "
                       "%{y:.3~e}<extra></extra>")), row=2, col=1)
    return [v for v in gap + exploitability if v is not None]


def _convergence_layout(fig: go.Figure, game: str, drawn: list[float], style) -> None:
    """Title, legend and log axes; one vertical range for both panels, so that their
    heights compare at a glance."""
    low, high = (math.floor(math.log10(min(drawn))), math.ceil(math.log10(max(drawn)))) \
        if drawn else (-6, 0)
    fig.update_layout(
        height=int(640 * style.figure_scale), font=style.font(),
        title=dict(text=f"{game}: CFR's answers closing in on the exact one",
                   font=style.font(style.title_size), yref="container", y=0.985,
                   yanchor="top"),
        margin=dict(l=80, r=20, t=int(110 * style.figure_scale), b=50),
        legend=dict(orientation="h", x=0, y=1.09, xanchor="left", yanchor="bottom"))
    fig.update_xaxes(type="log")
    fig.update_xaxes(title="iterations", row=2, col=1)
    fig.update_yaxes(type="log", range=[low - 0.2, high + 0.2])
    fig.update_yaxes(title="|value − exact|", row=1, col=1)
    fig.update_yaxes(title="exploitability", row=2, col=1)


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
    are marked on the time panel at the top edge.  The legend names the solvers once
    (colour and line); a note under the title says which markers are recorded and
    which measured now.

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
        if rows:
            # each solver once in the legend
            _add_cost_rows(fig, rows, kind, target, kind == "recorded" or not recorded, style)
    _add_stopped(fig, recorded, style)
    fig.update_layout(
        height=int(640 * style.figure_scale), font=style.font(),
        title=dict(text="Exact LP against CFR+: what each costs as the game grows",
                   font=style.font(style.title_size)),
        margin=dict(l=80, r=20, t=60, b=50),
        # In the time panel's empty upper left corner.
        legend=dict(x=0.01, y=0.995, xanchor="left", yanchor="top",
                    bgcolor="rgba(255,255,255,0.85)",
                    title=dict(text=" · ".join(k for rows, k in (
                        (recorded, "recorded: open circles"),
                        (measured, "now: filled diamonds")) if rows))))
    fig.update_xaxes(type="log", row=1, col=1)
    fig.update_xaxes(type="log", title="sequences per player (size of the LP)", row=2, col=1)
    fig.update_yaxes(type="log", title="CPU seconds", row=1, col=1)
    fig.update_yaxes(type="log", title="peak memory, MB", row=2, col=1)
    return apply_style(fig, style)


def _add_cost_rows(fig: go.Figure, rows: list, kind: str, target: float, in_legend: bool,
                   style) -> None:
    """The recorded (lines with open markers) or measured (filled markers) rows: each
    solver's time in the upper panel, its memory and CFR's tables alone in the lower."""
    filled = kind != "recorded"
    for panel, (what, solver, colour, unit) in enumerate(
            (("lp_seconds", "LP", LP_COLOUR, "s"),
             ("cfr_seconds", f"CFR+ to {target:g}", CFR_COLOUR, "s"),
             ("lp_bytes", "LP", LP_COLOUR, "MB"),
             ("cfr_bytes", "CFR+", CFR_COLOUR, "MB"),
             ("cfr_table_bytes", "CFR's two tables alone", TABLES_COLOUR, "MB"))):
        x, y, text = _series(rows, what)
        tables = what == "cfr_table_bytes"
        fig.add_trace(go.Scatter(
            x=x, y=y, text=text, mode="markers" if filled else "lines+markers",
            name=f"{solver}, {kind}", legendgroup=solver,
            showlegend=in_legend and (panel < 2 or tables), legendgrouptitle=None,
            marker=dict(color=colour, size=(12 if filled else 8) * style.line_scale,
                        symbol="diamond" if filled else "circle-open",
                        line=dict(width=2, color=colour)),
            line=dict(color=colour, width=2.5 * style.line_scale,
                      dash="dot" if tables else "solid"),
            hovertemplate=(f"%{{text}}<br>%{{x:,}} sequences per player<br>{solver}: "
                           f"%{{y:.3~g}} {unit}<extra>{kind}</extra>")),
            row=1 if panel < 2 else 2, col=1)


def _add_stopped(fig: go.Figure, recorded: list, style) -> None:
    """The recorded LPs that were stopped, marked on the time panel at its top edge."""
    stopped = [r for r in recorded if not math.isfinite(r.lp_seconds) and r.sequences > 0]
    if stopped:
        top = max(t for r in recorded for t in (r.lp_seconds, r.cfr_seconds) if math.isfinite(t))
        fig.add_trace(go.Scatter(
            x=[r.sequences for r in stopped], y=[top] * len(stopped),
            text=[escape(f"{r.game}: {r.source.split(';')[0]}") for r in stopped],
            mode="markers", name="LP stopped (did not finish)",
            marker=dict(color=LP_COLOUR, symbol="x", size=12 * style.line_scale),
            hovertemplate="%{text}<extra></extra>"), row=1, col=1)
