"""The DCFR slider widget and the comparison view, driven programmatically."""

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.variants import iteration_weights
from cfrviz.widgets.compare import ComparisonView
from cfrviz.widgets.discount import PRESETS, DiscountExplorer


def test_solves_on_construction_and_on_demand(kuhn):
    w = DiscountExplorer(kuhn, iterations=60)
    assert set(w.final_exploitability()) == {"cfr", "cfr+", "linear_cfr", "dcfr"}
    assert len(w.curves.data) == 4 and w.curves.data[-1].name == "DCFR (1.5, 0, 2)"
    assert "exploitability after 60 iterations" in w.status.value
    w.set_parameters(1.0, 1.0, 1.0)
    assert w.trace.params["alpha"] == 1.5  # moving sliders solves nothing
    # ... and the legend says so at once: the curve drawn, and what Solve would run.
    assert w.curves.data[-1].name == "DCFR (1.5, 0, 2): press Solve for (1, 1, 1)"
    w.set_parameters(1.5, 0.0, 2.0)
    assert w.curves.data[-1].name == "DCFR (1.5, 0, 2)"
    w.set_parameters(1.0, 1.0, 1.0)
    w.solve()
    finals = w.final_exploitability()
    assert finals["dcfr"] == pytest.approx(finals["linear_cfr"], rel=1e-12)  # DCFR(1,1,1) = LCFR
    assert w.curves.data[-1].name == "DCFR (1, 1, 1)" and len(w.curves.data) == 4


def test_sliders_move_the_weights_at_once(kuhn):
    w = DiscountExplorer(kuhn, iterations=40)
    w.gamma.value = 0.0
    assert np.allclose(w.weights.data[2].y, 1.0)  # a plain average
    w.iterations.value = 80
    assert len(w.weights.data[0].y) == 80
    negative = iteration_weights(80, 1.5, 0.0, 0.0)["negative regrets"]
    assert np.allclose(w.weights.data[1].y, negative)


def test_presets(kuhn):
    w = DiscountExplorer(kuhn, iterations=20)
    label, params = PRESETS[2]
    w.preset.value = 2
    assert w.parameters == params and w.preset.value == -1


def test_errors_go_to_the_output_area(kuhn):
    w = DiscountExplorer(kuhn, iterations=20)
    w.game = "not a game"
    w.iterations.value = 30  # new baselines are needed, and fail
    w.solve()
    assert w.last_error and "Could not solve" in w.last_error
    assert w.output.outputs


def test_comparison_view_switches_axis(kuhn):
    runs = [cfrviz.solve(kuhn, "cfr", 20), cfrviz.solve(kuhn, "outcome_sampling", 50)]
    view = ComparisonView(runs, axis="iterations")
    assert list(view.figure.data[0].x) == list(range(1, 21))
    view.axis.value = "nodes"
    assert list(view.figure.data[0].x) == list(110.0 * np.arange(1, 21))
    assert view.figure.layout.xaxis.title.text == "nodes touched"
    assert "nodes touched" in view.figure.data[0].hovertemplate
    view.axis.value = "seconds"
    assert view.figure.layout.xaxis.title.text == "solver seconds"


def test_values_beyond_the_sliders_are_kept_and_bad_ones_explained(kuhn):
    """The sliders span 0..5; DCFR takes 0..100.  A typed value is never clamped to a slider."""
    w = DiscountExplorer(kuhn, iterations=20, alpha=7.0)
    assert w.parameters == (7.0, 0.0, 2.0) and w.alpha.value == 5.0  # the slider rests at its end
    assert w.trace.params["alpha"] == 7.0 and w.last_error is None
    w.set_parameters(1.5, 0.0, 200.0)
    assert w.parameters == (1.5, 0.0, 200.0)
    assert w.last_error == ("Could not update the weights: gamma must be a finite number >= 0 "
                            "and <= 100; got 200.0")
    w.solve()
    assert w.last_error == ("Could not solve: gamma must be a finite number >= 0 and <= 100; "
                            "got 200.0")
    assert w.trace.params["gamma"] == 2.0  # the last run stays
    w.fields["gamma"].value = 9.0  # typed in the field beside the slider
    assert w.gamma.value == 5.0 and w.parameters[2] == 9.0
    average = iteration_weights(20, 1.5, 0.0, 9.0)["average strategy"]
    assert np.allclose(w.weights.data[2].y, average)
    w.iterations.value = 5
    w.solve()
    assert w.last_error == ("Could not solve: iterations must be a whole number >= 10 and "
                            "<= 20000; got 5")
    with pytest.raises(ValueError, match="alpha must be a finite number >= 0 and <= 100; got -1"):
        DiscountExplorer(kuhn, iterations=20, alpha=-1.0)
    with pytest.raises(ValueError, match="iterations must be a whole number >= 10"):
        DiscountExplorer(kuhn, iterations=2.5)
