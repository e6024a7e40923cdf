"""Kuhn poker's equilibria for player 1, and training runs landing on them.

Kuhn poker has a one-parameter family of equilibria for player 1 (Kuhn, 1950;
see also Hoehn et al., 2005): with a free ``alpha`` in ``[0, 1/3]`` player 1
bets a jack with probability ``alpha``, bets a king with ``3 * alpha`` and,
holding a queen, calls a bet after checking with ``alpha + 1/3`` (and always
checks a queen, folds a jack and calls with a king when facing a bet).  In the
three coordinates

    (P(bet | J), P(bet | K), P(call | Q after check, bet))

the family is the straight segment from ``(0, 0, 1/3)`` to ``(1/3, 1, 2/3)``.
A CFR run's average strategy converges to *some* point of it; which one
depends on the algorithm (and, for the sampling variants, on the seed).
Vanilla CFR, CFR+ and linear CFR are deterministic: their seed changes nothing.

The figure draws the segment in two flat projections that share the jack
axis: ``(J, K)`` on the left and ``(J, Q)`` on the right.  Two projections
with a common axis pin a point down exactly, so "on the segment in both panels"
means on the segment, which a perspective 3D view cannot show on a projector.

As in :mod:`cfrviz.views.matrix`, :func:`kuhn_equilibrium_figure` builds the
figure once and :func:`update_kuhn_equilibrium` moves it to another iteration
in place.  Nothing here runs a solver.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..core.checks import whole_number
from ..core.markup import escape
from ..solvers.registry import algorithm
from .matrix import EQUILIBRIUM_COLOUR, display_frames
from .style import OKABE_ITO, apply_style, batch, get_style

#: The three coordinates, as (information-set key, action label): player 1 bets a jack,
#: bets a king, calls with a queen after check-bet.
KUHN_COORDINATES = (("J", "b"), ("K", "b"), ("Qpb", "b"))
AXIS_TITLES = ("P(bet | J)", "P(bet | K)", "P(call | Q, check–bet)")
#: Largest alpha of the family.
ALPHA_MAX = 1 / 3
#: The segment's direction per unit of alpha, and its point at alpha = 0.
_DIRECTION = np.array([1.0, 3.0, 1.0])
_ORIGIN = np.array([0.0, 0.0, 1 / 3])
#: Okabe-Ito colours, and a marker shape and line dash per run, so runs differ by more than
#: colour.
RUN_COLOURS = tuple(OKABE_ITO[c] for c in ("blue", "vermillion", "bluish green",
                                             "reddish purple", "orange", "sky blue"))
RUN_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "pentagon", "star")
RUN_DASHES = ("solid", "dot", "dash", "dashdot", "longdash", "solid")
#: At most this many points per drawn path.
MAX_PATH_POINTS = 400
#: Traces per run in the figure: (path, now, end) in each of the first two panels, then
#: (alpha over iterations, now) in the third.
TRACES_PER_RUN = 8
#: Traces before the first run's: the segment in each panel.
SEGMENT_TRACES = 2


def kuhn_equilibrium_point(alpha) -> np.ndarray:
    """Player 1's equilibrium coordinates ``(alpha, 3 alpha, alpha + 1/3)``.

    Parameters
    ----------
    alpha : float or array_like
        In ``[0, 1/3]``.

    Returns
    -------
    numpy.ndarray, shape (3,) or (n, 3)
    """
    a = np.asarray(alpha, dtype=float)
    if np.any(~np.isfinite(a)) or np.any(a < 0) or np.any(a > ALPHA_MAX + 1e-12):
        raise ValueError(f"alpha must lie in [0, 1/3]; got {alpha!r}")
    return _ORIGIN + a[..., None] * _DIRECTION


def nearest_alpha(points) -> tuple:
    """The equilibrium of the family closest to each point, and how far away it is.

    The point is projected orthogonally onto the line ``(alpha, 3 alpha,
    alpha + 1/3)`` and ``alpha`` is clipped to ``[0, 1/3]``; for a segment
    this clipped projection is the closest point.

    Parameters
    ----------
    points : array_like, shape (3,) or (n, 3)
        Coordinates as in :data:`KUHN_COORDINATES`.

    Returns
    -------
    alpha, distance : float or numpy.ndarray
        Floats for one point, arrays of shape (n,) for several.
    """
    x = np.asarray(points, dtype=float)
    if x.shape[-1:] != (3,) or x.ndim > 2:
        raise ValueError(f"points must have shape (3,) or (n, 3); got {x.shape}")
    alpha = np.clip((x - _ORIGIN) @ _DIRECTION / (_DIRECTION @ _DIRECTION), 0.0, ALPHA_MAX)
    distance = np.linalg.norm(x - kuhn_equilibrium_point(alpha), axis=-1)
    if x.ndim == 1:
        return float(alpha), float(distance)
    return alpha, distance


def _columns(game) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the three coordinates in ``game``'s strategy arrays."""
    rows, cols = [], []
    if getattr(game, "num_players", 2) != 2:
        raise ValueError(f"the Kuhn equilibrium view draws two-player Kuhn poker's equilibrium "
                         f"family (cfrviz.load_game('kuhn_poker')); {game.name} has "
                         f"{game.num_players} players (for them: "
                         f"cfrviz.views.deviation_figure(trace))")
    for key, action in KUHN_COORDINATES:
        if key not in getattr(game, "infoset_keys", ()):
            raise ValueError(f"the Kuhn equilibrium view needs a trace of Kuhn poker "
                             f"(cfrviz.load_game('kuhn_poker')); {game.name} has no "
                             f"information set {key!r}")
        row = game.infoset_index(key)
        actions = game.infoset_actions[row]
        if action not in actions or game.infoset_player[row] != 0:
            raise ValueError(f"the Kuhn equilibrium view needs Kuhn poker's player 1 set "
                             f"{key!r} with actions 'p' and 'b'; {game.name} has "
                             f"{list(actions)} for player {game.infoset_player[row] + 1}")
        rows.append(row)
        cols.append(actions.index(action))
    return np.array(rows), np.array(cols)


def kuhn_strategy_path(trace) -> np.ndarray:
    """Player 1's average strategy in the three coordinates, at every record of a trace.

    Parameters
    ----------
    trace : Trace
        A run on Kuhn poker.

    Returns
    -------
    numpy.ndarray, shape (records, 3)
        Row ``i`` belongs to ``trace.iterations[i]``.

    Raises
    ------
    ValueError
        For a trace of another game.
    """
    rows, cols = _columns(trace.game)
    return np.array(trace.average_strategy[:, rows, cols])


def as_traces(trace_or_traces) -> list:
    """One trace or several as a list, refusing anything that is not a trace (or no trace).

    Raises
    ------
    ValueError
        For an empty list or something other than a :class:`~cfrviz.core.trace.Trace`.
    """
    traces = list(trace_or_traces) if isinstance(trace_or_traces, (list, tuple)) \
        else [trace_or_traces]
    if not traces:
        raise ValueError("give at least one trace of Kuhn poker")
    for trace in traces:
        if not hasattr(trace, "average_strategy"):
            raise ValueError(f"expected a Trace from cfrviz.solve(kuhn, ...); "
                             f"got {type(trace).__name__}")
    return traces


def run_label(trace) -> str:
    """A short name for a run: ``"cfr+"``, or ``"external_sampling seed 3"``."""
    seed = trace.params.get("seed")
    random = algorithm(trace.algorithm).random
    return f"{trace.algorithm} seed {seed}" if random and seed is not None else trace.algorithm


def record_at(trace, iteration: int) -> int:
    """Index of the last record of ``trace`` taken at or before ``iteration`` (0 if none)."""
    return max(int(np.searchsorted(trace.iterations, iteration, side="right")) - 1, 0)


def kuhn_equilibrium_figure(trace_or_traces, labels=None, iteration: int | None = None,
                            height: int | None = None, width: int | None = None,
                            presenter: bool | None = None, now_marks: bool = True) -> go.Figure:
    """Training runs on Kuhn poker landing on player 1's segment of equilibria.

    Three panels: two squares side by side, the third across the width below them.  The
    first two share the horizontal axis ``P(bet | J)``: the first plots ``P(bet | K)``, the
    second ``P(call | Q, check-bet)``.  In both the thick black segment is the family of
    equilibria ``(alpha, 3 alpha, alpha + 1/3)``, ``alpha`` in ``[0, 1/3]`` (Kuhn, 1950),
    and each run draws its average strategy's path over the recorded iterations (from the
    uniform start at ``(1/2, 1/2, 1/2)``), a filled marker at ``iteration`` and a hollow
    marker at its last record.  The third panel shows, against the iteration, the ``alpha``
    of the equilibrium nearest to each run's average strategy (:func:`nearest_alpha`): each
    run settles on its own level.  The legend names each run with the ``alpha`` it reached.

    Parameters
    ----------
    trace_or_traces : Trace or list of Trace
        Runs of any algorithm on Kuhn poker (``cfrviz.load_game("kuhn_poker")``).
    labels : list of str, optional
        One name per run (default :func:`run_label`).
    iteration : int, optional
        Where the "now" markers sit (default: each run's last record).
    height, width : int, optional
        Figure size in pixels; by default 760 pixels high (presenter: larger) and as
        wide as the page or output area.
    presenter : bool, optional
        Larger fonts, lines and figure for a projector; ``None`` follows
        :func:`cfrviz.views.set_presenter`.
    now_marks : bool, default True
        ``False`` leaves each run's path and "now" markers without a point to draw (with
        their styles and legend entries) for a widget that draws them over the figure
        (:class:`cfrviz.widgets.KuhnEquilibriumView`); ``iteration`` is then unused.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace order: the segment (first panel, second panel), then per run
        ``TRACES_PER_RUN`` traces: path, now, end in the first panel; the
        same in the second; alpha over iterations and its "now" marker in
        the third.

    Raises
    ------
    ValueError
        For a trace of another game, labels that are not one string per run,
        or an iteration that is not a whole number >= 1.
    """
    traces = as_traces(trace_or_traces)
    labels, style = _run_labels(traces, labels), get_style(presenter)
    fig = _equilibrium_panels(style)
    for k, (trace, label) in enumerate(zip(traces, labels)):
        _add_run(fig, k, trace, label, style.line_scale, now_marks)
    _equilibrium_axes(fig, traces, style, height, width)
    if now_marks:
        update_kuhn_equilibrium(fig, traces, iteration)
    apply_style(fig, style)
    fig.layout.width = width  # only when asked for: by default the output area's width
    return fig


def _run_labels(traces: list, labels) -> list[str]:
    """One name per run, as plotly markup (legend names and hover templates)."""
    if labels is not None and not (isinstance(labels, (list, tuple))
                                   and all(isinstance(label, str) for label in labels)):
        raise ValueError(f"labels must be a list of strings, one per run; got {labels!r}")
    labels = [run_label(t) for t in traces] if labels is None else list(labels)
    if len(labels) != len(traces):
        raise ValueError(f"give one label per run: {len(traces)} runs, {len(labels)} labels")
    return [escape(label) for label in labels]


def _equilibrium_panels(style) -> go.Figure:
    """The three panels, with the segment of equilibria and its ends labelled in the two
    squares.  The squares side by side, the alpha panel across the width below them: in a
    notebook's output area (600 to 900 pixels) each square gets 250 to 400 pixels, where
    three panels in a row got 200."""
    fig = make_subplots(rows=2, cols=2, horizontal_spacing=0.12, vertical_spacing=0.16,
                        row_heights=[0.62, 0.38],
                        specs=[[{}, {}], [{"colspan": 2}, None]],
                        subplot_titles=("bet with K  vs  bet with J",
                                        "call with Q  vs  bet with J",
                                        "nearest equilibrium α"))
    for title in fig.layout.annotations:
        title.font.size = style.title_size
    alphas = np.linspace(0.0, ALPHA_MAX, 61)
    segment = kuhn_equilibrium_point(alphas)
    for col in (1, 2):
        fig.add_trace(go.Scatter(
            x=segment[:, 0], y=segment[:, col], mode="lines",
            name="equilibria, α from 0 to 1/3",
            line=dict(color=EQUILIBRIUM_COLOUR, width=6 * style.line_scale), customdata=alphas,
            showlegend=col == 1, legendgroup="eq",
            hovertemplate="equilibrium α = %{customdata:.3f}<extra></extra>"), row=1, col=col)
    return fig


def _add_run(fig: go.Figure, k: int, trace, label: str, lines: float, now_marks: bool) -> None:
    """Run ``k``'s ``TRACES_PER_RUN`` traces: path, now and end in each square, then its
    nearest alpha over the iterations and its now marker."""
    path = kuhn_strategy_path(trace)
    colour = RUN_COLOURS[k % len(RUN_COLOURS)]
    symbol = RUN_SYMBOLS[k % len(RUN_SYMBOLS)]
    alpha, distance = nearest_alpha(path[-1])
    end_hover = (f"{label} after {int(trace.iterations[-1]):,} iterations<br>nearest "
                 f"equilibrium α = {alpha:.3f}, distance {distance:.4f}<extra></extra>")
    for col in (1, 2):
        # A widget draws the path over the figure: one missing point draws nothing and
        # keeps the legend entry (a trace without data has none).
        drawn = path if now_marks else np.full((1, 3), np.nan)
        # The way there is context, drawn light and plain; where a run lands (its
        # marker, in the legend with its alpha) is the message.
        fig.add_trace(go.Scatter(
            x=drawn[:, 0], y=drawn[:, col], mode="lines", name=f"{label} path",
            legendgroup=str(k), showlegend=False, opacity=0.4,
            line=dict(color=colour, width=2 * lines), hoverinfo="skip"),
            row=1, col=col)
        fig.add_trace(_now_marker(label, colour, symbol, lines), row=1, col=col)
        fig.add_trace(go.Scatter(
            x=[path[-1, 0]], y=[path[-1, col]], mode="markers",
            name=f"{label}: lands at α ≈ {alpha:.3f}", legendgroup=str(k),
            showlegend=col == 1,
            marker=dict(size=16 * lines, symbol=f"{symbol}-open", color=colour,
                        line=dict(color=colour, width=3 * lines)),
            hovertemplate=end_hover), row=1, col=col)
    frames = display_frames(trace, MAX_PATH_POINTS)
    fig.add_trace(go.Scatter(
        x=trace.iterations[frames], y=nearest_alpha(path[frames])[0], mode="lines",
        name=f"{label} α", legendgroup=str(k), showlegend=False,
        line=dict(color=colour, width=2.5 * lines, dash=RUN_DASHES[k % len(RUN_DASHES)]),
        hovertemplate=f"{label}<br>iteration %{{x:,}}: α = %{{y:.3f}}<extra></extra>"),
        row=2, col=1)
    fig.add_trace(_now_marker(label, colour, symbol, lines), row=2, col=1)


def _equilibrium_axes(fig: go.Figure, traces: list, style, height: int | None,
                      width: int | None) -> None:
    """The segment's ends labelled, the squares' and the alpha panel's axes, the layout."""
    for col in (1, 2):
        for a, text in ((0.0, "α = 0"), (ALPHA_MAX, "α = 1/3")):
            point = kuhn_equilibrium_point(a)
            # Right of each end, hanging below it, clear of the segment; an end on the bottom
            # edge (α = 0 at bet K = 0) gets its label above instead: hanging below, it sat on
            # the axis and covered its tick labels in a narrow output area.
            low = point[col] < 0.1
            fig.add_annotation(x=point[0], y=point[col], text=text, showarrow=False,
                               xanchor="left", yanchor="bottom" if low else "top", xshift=10,
                               yshift=4 if low else -2,
                               row=1, col=col, bgcolor="rgba(255,255,255,0.8)",
                               font=style.font(style.font_size))
    square = dict(range=[-0.04, 1.04], dtick=0.25, zeroline=False, gridcolor="#e6e6e6",
                  constrain="domain")
    fig.update_xaxes(title_text=AXIS_TITLES[0], row=1, col=1, **square)
    fig.update_xaxes(title_text=AXIS_TITLES[0], row=1, col=2, **square)
    fig.update_yaxes(title_text=AXIS_TITLES[1], row=1, col=1, scaleanchor="x", **square)
    fig.update_yaxes(title_text=AXIS_TITLES[2], row=1, col=2, scaleanchor="x2", **square)
    log = max(int(t.iterations[-1]) for t in traces) > 20
    fig.update_xaxes(title_text="iteration", type="log" if log else "linear",
                     dtick=1 if log else None, gridcolor="#e6e6e6", row=2, col=1)
    fig.update_yaxes(range=[-0.01, ALPHA_MAX + 0.01], tickvals=[0, 1 / 9, 2 / 9, 1 / 3],
                     ticktext=["0", "1/9", "2/9", "1/3"], gridcolor="#e6e6e6", row=2, col=1)
    fig.update_layout(height=int(760 * style.figure_scale) if height is None else height,
                      width=width, plot_bgcolor="white", font=style.font(),
                      margin=dict(l=70, r=30, t=60, b=int(130 * style.figure_scale)),
                      uirevision="keep",
                      # Below the iteration axis's title: one entry per run, where it lands.
                      legend=dict(orientation="h", yanchor="top", y=-0.15, x=0.5,
                                  xanchor="center"))


def _now_marker(label: str, colour: str, symbol: str, scale: float) -> go.Scatter:
    return go.Scatter(x=[None], y=[None], mode="markers", name=f"{label} now",
                      showlegend=False, text=[""],
                      marker=dict(color=colour, size=12 * scale, symbol=symbol,
                                  line=dict(color="white", width=1.5)),
                      hovertemplate=f"{label}<br>%{{text}}<extra></extra>")


def now_text(trace, index: int, path=None) -> str:
    """The hover text of a run's "now" marker at record ``index`` (plotly markup: ``<br>``)."""
    path = kuhn_strategy_path(trace) if path is None else path
    alpha, distance = nearest_alpha(path[index])
    return (f"iteration {int(trace.iterations[index]):,}<br>nearest equilibrium "
            f"α = {alpha:.3f}, distance {distance:.3f}")


def update_kuhn_equilibrium(fig, trace_or_traces, iteration: int | None = None) -> None:
    """Move :func:`kuhn_equilibrium_figure` to ``iteration``, in place.

    Each run's path is drawn up to its last record at or before
    ``iteration`` and its "now" markers sit there (a run not yet recorded
    shows its first record).  ``None`` means each run's last record; any
    other value must be a whole number >= 1.
    """
    if iteration is not None:
        iteration = whole_number(iteration, "iteration", low=1)
    traces = as_traces(trace_or_traces)
    if len(fig.data) != SEGMENT_TRACES + TRACES_PER_RUN * len(traces):
        raise ValueError(f"this figure was drawn for "
                         f"{(len(fig.data) - SEGMENT_TRACES) // TRACES_PER_RUN} runs; "
                         f"got {len(traces)}")
    with batch(fig):
        for k, trace in enumerate(traces):
            path = kuhn_strategy_path(trace)
            index = len(trace) - 1 if iteration is None else record_at(trace, iteration)
            frames = display_frames(trace, MAX_PATH_POINTS)
            shown = frames[frames <= index]
            if len(shown) == 0 or shown[-1] != index:
                shown = np.append(shown, index)
            alpha = nearest_alpha(path[index])[0]
            text = now_text(trace, index, path)
            base = SEGMENT_TRACES + TRACES_PER_RUN * k
            for panel in (0, 1):
                first = base + 3 * panel
                fig.data[first].update(x=path[shown, 0], y=path[shown, panel + 1])
                fig.data[first + 1].update(x=[path[index, 0]], y=[path[index, panel + 1]],
                                           text=[text])
            fig.data[base + 7].update(x=[int(trace.iterations[index])], y=[alpha], text=[text])
