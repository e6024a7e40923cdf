"""views.training: where the cost curve's legend sits."""

import cfrviz
from cfrviz.views.training import cost_curve_figure


def test_the_cost_curve_legend_is_outside_the_plot():
    # Inside the plot (top right) it hid the current strategy's line wherever that stays high,
    # as Deep CFR's does in lesson 13's explorer (issue 29): it sits below the axis now.
    trace = cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr", 20, checkpoints=range(1, 21))
    legend = cost_curve_figure(trace).layout.legend
    assert legend.orientation == "h"
    assert legend.yref == "container" and legend.y < 0.1 and legend.yanchor == "bottom"
