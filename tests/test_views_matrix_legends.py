"""The regret-matching explorer's legends sit outside its plots (issue 29: in lesson 01 the
exploitability chart's legend, in the top right corner of the plot, covered the current
strategy's line, which stays near the top)."""

import pytest

from cfrviz.widgets import RegretMatchingExplorer
from cfrviz.widgets.panel import figure_widgets


def outside_the_plot(legend) -> bool:
    """Whether a legend is placed beyond the plot area: at the figure's foot (container
    coordinates), above the plot, or right of it."""
    anchor_y = legend.yanchor or "auto"
    if legend.yref == "container":
        return legend.y is not None and legend.y < 0.1 and anchor_y == "bottom"
    if legend.y is not None and legend.y > 1:
        return True
    return legend.x is not None and legend.x > 1 and legend.xanchor == "left"


@pytest.fixture(scope="module")
def figures():
    return figure_widgets(RegretMatchingExplorer(iterations=200, seed=0))


def test_every_legend_of_the_explorer_is_outside_its_plot(figures):
    assert len(figures) == 3
    for fig in figures:
        assert outside_the_plot(fig.layout.legend), (fig.layout.title.text, fig.layout.legend)


def test_the_exploitability_legend_has_room_below_the_axis(figures):
    fig = next(f for f in figures if "Exploitability" in (f.layout.title.text or ""))
    assert fig.layout.legend.orientation == "h"
    assert fig.layout.margin.b >= 90  # tick labels, axis title, then the legend's row
