"""Discounted CFR with sliders: α, β and γ against CFR, CFR+ and linear CFR on the same budget."""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from ..analysis.variants import iteration_weights
from ..core.markup import escape
from ..core.registry import Param
from ..core.trace import Trace
from ..core.tree import as_tree
from ..solvers import solve
from ..solvers.registry import algorithm
from ..views.compare import comparison_figure, iteration_weights_figure
from ..views.style import MIN_LINE_PX, OKABE_ITO, fit_to_output, get_style
from .controls import number_field, typed_slider
from .export import Exportable
from .figure_widget import FigureWidget
from .panel import Panel

#: Slider ranges.  Wider exponents add nothing visible: t^5 / (t^5 + 1) is already 1 to
#: four decimals from t = 7 on.
ALPHA_RANGE = (0.0, 5.0)
BETA_RANGE = (-5.0, 5.0)
GAMMA_RANGE = (0.0, 5.0)
#: Named settings the preset menu offers: (label, (alpha, beta, gamma)).
PRESETS = (
    ("recommended by Brown & Sandholm (1.5, 0, 2)", (1.5, 0.0, 2.0)),
    ("linear CFR (1, 1, 1)", (1.0, 1.0, 1.0)),
    ("close to CFR+ (5, −5, 1)", (5.0, -5.0, 1.0)),
    ("close to vanilla CFR (5, 5, 0)", (5.0, 5.0, 0.0)),
)
#: The variants DCFR's three exponents move between, drawn beside it (lesson 08's three repairs
#: of vanilla CFR).  The predictive variants (pcfr+, pdcfr+) change the strategy played, which no
#: setting of the exponents reaches, so they are raced elsewhere, not drawn here.
BASELINES = ("cfr", "cfr+", "linear_cfr")
MAX_ITERATIONS = 20_000
ITERATIONS = Param("iterations", 1000, "int", 10, MAX_ITERATIONS,
                   help="iterations of each run (every variant gets the same budget)")
#: The order of DCFR's parameters in this widget.
DCFR_PARAMS = ("alpha", "beta", "gamma")


class DiscountExplorer(Exportable, Panel):
    """Sliders for DCFR's α, β, γ; **Solve** runs it and draws it beside the other variants.

    The top chart shows exploitability against iterations for CFR, CFR+ and
    linear CFR (thin lines, computed once per number of iterations) and for
    DCFR with the sliders' setting (thick line, redrawn in place on each
    **Solve**).  The bottom chart follows the sliders at once, without
    solving: how much each iteration still counts at the end of the run in
    the positive regrets, the negative regrets and the average strategy
    (:func:`cfrviz.analysis.variants.iteration_weights`).  Errors appear in the
    widget's output area.

    Parameters
    ----------
    game
        A game tree, e.g. ``cfrviz.load_game("leduc_poker")``.
    iterations : int, default 1000
        A whole number from 10 to ``MAX_ITERATIONS``.
    alpha, beta, gamma : float
        Starting values (default: the paper's 1.5, 0, 2), anywhere in the
        ranges DCFR declares (wider than the sliders': a value beyond a slider
        stays in the field beside it, the slider resting at its end).
    presenter : bool, optional
        Larger fonts and figures (default: the global switch).

    Raises
    ------
    ValueError
        For an argument of the wrong type or out of range.  Values typed into
        the fields later are checked when used, and a bad one is explained in
        the output area (nothing is clamped silently).
    """

    def __init__(self, game, iterations: int = 1000, alpha: float = 1.5, beta: float = 0.0,
                 gamma: float = 2.0, presenter: bool | None = None):
        super().__init__()
        self.game = as_tree(game, "the DCFR explorer")
        self.params = {name: algorithm("dcfr").param(name) for name in DCFR_PARAMS}
        iterations = ITERATIONS.check(iterations)
        alpha, beta, gamma = (self.params[n].check(v) for n, v in zip(DCFR_PARAMS,
                                                                       (alpha, beta, gamma)))
        self.presenter = presenter
        self.trace: Trace | None = None
        self._solved: tuple[float, float, float] = (alpha, beta, gamma)
        self.baselines: dict[str, Trace] = {}
        self._baseline_iterations: int | None = None
        self.status = W.HTML()
        st = {"description_width": "initial"}
        # Room for "α (positive regrets)" whole at presenter mode's 19-pixel controls too.
        big = get_style(presenter).presenter
        lay = W.Layout(width="500px" if big else "360px")
        wide = {"description_width": "240px" if big else "150px"}
        self.alpha = W.FloatSlider(value=alpha, min=ALPHA_RANGE[0], max=ALPHA_RANGE[1], step=0.1,
                                   description="α (positive regrets)", style=wide, layout=lay)
        self.beta = W.FloatSlider(value=beta, min=BETA_RANGE[0], max=BETA_RANGE[1], step=0.1,
                                  description="β (negative regrets)", style=wide, layout=lay)
        self.gamma = W.FloatSlider(value=gamma, min=GAMMA_RANGE[0], max=GAMMA_RANGE[1], step=0.1,
                                   description="γ (average)", style=wide, layout=lay)
        #: The values as typed, per parameter (the sliders follow them within their range).
        sliders = (self.alpha, self.beta, self.gamma)
        self.fields = {name: typed_slider(slider, self.params[name], value)
                       for name, slider, value in zip(DCFR_PARAMS, sliders, (alpha, beta, gamma))}
        self.iterations = number_field(ITERATIONS, iterations, width="190px")
        self.preset = W.Dropdown(options=[("— choose a preset —", -1)]
                                 + [(label, i) for i, (label, _) in enumerate(PRESETS)],
                                 value=-1, description="preset", style=st,
                                 layout=W.Layout(width="380px"))
        self.solve_button = W.Button(description="Solve", button_style="primary", icon="play")
        self.solve_button.on_click(lambda _: self.solve())
        self.preset.observe(self._on_preset, names="value")
        for field in self.fields.values():
            field.observe(self._on_slider, names="value")
        self.iterations.observe(self._on_slider, names="value")
        self.curves = fit_to_output(FigureWidget())
        self.weights = fit_to_output(FigureWidget(iteration_weights_figure(
            self._weights(), presenter=presenter)))
        self.children = [
            W.HBox([W.VBox([W.HBox([slider, self.fields[name]])
                            for name, slider in zip(DCFR_PARAMS, sliders)]),
                    W.VBox([self.preset, self.iterations, W.HBox([self.solve_button])])]),
            self.status, self.output, self.curves, self.weights]
        self._add_download("dcfr-explorer")  # the frame as PNG, SVG or PDF
        self.solve()

    # -- public actions (also used by tests) ----------------------------------------------------
    @property
    def parameters(self) -> tuple[float, float, float]:
        """(α, β, γ) as set, which may lie beyond the sliders' range."""
        alpha, beta, gamma = (float(self.fields[name].value) for name in DCFR_PARAMS)
        return alpha, beta, gamma

    def set_parameters(self, alpha: float, beta: float, gamma: float) -> None:
        """Set (α, β, γ) as given; the sliders follow (nothing is solved until :meth:`solve`)."""
        for name, value in zip(DCFR_PARAMS, (alpha, beta, gamma)):
            self.fields[name].value = value
        self._on_slider()

    def solve(self) -> None:
        """Run DCFR with the sliders' setting (and the baselines when the budget changed)."""
        self.clear_report()
        try:  # typed values are checked here, never clamped: a bad one is explained below
            iterations, alpha, beta, gamma = self._setting()
            if self._baseline_iterations != iterations:
                self.baselines = {name: solve(self.game, name, iterations, progress=False)
                                  for name in BASELINES}
                self._baseline_iterations = iterations
            trace = solve(self.game, "dcfr", iterations, alpha=alpha, beta=beta, gamma=gamma,
                          progress=False)
        except Exception as error:  # shown to the student, never a dead widget
            self.report("Could not solve", error)
            return
        self.trace = trace
        self._solved = (alpha, beta, gamma)
        label = _dcfr_label(alpha, beta, gamma)
        runs = [*self.baselines.values(), trace]
        title = f"{escape(self.game.name)}: {iterations:,} iterations each"  # a title is markup
        source = comparison_figure(runs, labels=[*self.baselines, label], axis="iterations",
                                   title=title, presenter=self.presenter)
        for line in source.data[:-1]:
            line.line.width = MIN_LINE_PX * get_style(self.presenter).line_scale
        source.data[-1].line.update(width=4, color=OKABE_ITO["black"], dash="solid")
        with self.curves.batch_update():
            if len(self.curves.data) != len(source.data):
                self.curves.data = []
                self.curves.add_traces(source.data)
            else:
                for old, new in zip(self.curves.data, source.data):
                    old.update(x=new.x, y=new.y, name=new.name, line=new.line,
                               hovertemplate=new.hovertemplate)
            self.curves.layout = source.layout
        finals = {name: float(t.exploitability[-1]) for name, t in self.baselines.items()}
        finals[label] = float(trace.exploitability[-1])
        best = min(finals, key=finals.__getitem__)
        cells = " · ".join(
            (f"<b>{escape(n)} {v:.2e}</b>" if n == best else f"{escape(n)} {v:.2e}")
            for n, v in finals.items())
        self.status.value = f"exploitability after {iterations:,} iterations: {cells}"

    def final_exploitability(self) -> dict[str, float]:
        """Exploitability of each run's average strategy at the end: baselines and DCFR."""
        out = {name: float(t.exploitability[-1]) for name, t in self.baselines.items()}
        if self.trace is not None:
            out["dcfr"] = float(self.trace.exploitability[-1])
        return out

    # -- internals ----------------------------------------------------------------------------
    def _setting(self) -> tuple[int, float, float, float]:
        """(iterations, α, β, γ), each checked against its declaration (a ValueError if not)."""
        alpha, beta, gamma = (self.params[name].check(self.fields[name].value)
                              for name in DCFR_PARAMS)
        return ITERATIONS.check(self.iterations.value), alpha, beta, gamma

    def _weights(self) -> dict:
        return iteration_weights(*self._setting())

    def _on_slider(self, _change=None) -> None:
        with self.reporting("Could not update the weights"):
            weights = self._weights()
            self._name_the_curve()
            with self.weights.batch_update():
                for line, values in zip(self.weights.data, weights.values()):
                    line.x = np.arange(1, len(values) + 1)
                    line.y = values

    def _name_the_curve(self) -> None:
        """The DCFR curve's legend names the setting it was solved with and, once the
        sliders have moved away from it, the setting that Solve would run."""
        if self.trace is None or not self.curves.data:
            return
        solved = _dcfr_label(*self._solved)
        setting = self.parameters
        name = solved if np.allclose(setting, self._solved) else \
            f"{solved}: press Solve for ({', '.join(f'{v:g}' for v in setting)})"
        self.curves.data[-1].name = name

    def _on_preset(self, change) -> None:
        if change["new"] < 0:
            return
        self.set_parameters(*PRESETS[change["new"]][1])
        self.preset.value = -1


def _dcfr_label(alpha: float, beta: float, gamma: float) -> str:
    return f"DCFR ({alpha:g}, {beta:g}, {gamma:g})"


def discount_explorer(game, iterations: int = 1000, **options) -> DiscountExplorer:
    """The DCFR slider widget for ``game`` (see :class:`DiscountExplorer`)."""
    return DiscountExplorer(game, iterations, **options)
