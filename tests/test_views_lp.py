"""Figures of CFR against the exact LP: convergence to the exact value, and cost as games grow."""

import math

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.lp_scaling import LpVsCfr, average_values
from cfrviz.views.lp import exact_convergence_figure, lp_vs_cfr_figure


@pytest.fixture(scope="module")
def kuhn_runs():
    kuhn = cfrviz.load_game("kuhn_poker")
    runs = [cfrviz.solve(kuhn, name, 100, checkpoints=[1, 10, 100]) for name in ("cfr", "cfr+")]
    return kuhn, runs, [average_values(r) for r in runs]


def test_convergence_figure(kuhn_runs):
    kuhn, runs, values = kuhn_runs
    fig = exact_convergence_figure(runs, values, -1 / 18, lp_exploitability=1e-16,
                                   labels=["CFR", "<b>CFR+</b>"])
    assert len(fig.data) == 2 * 2  # per run: distance to the exact value, exploitability
    assert list(fig.data[0].y) == pytest.approx(np.abs(values[0] + 1 / 18).tolist())
    assert list(fig.data[0].customdata) == pytest.approx(values[0].tolist())  # in the hover
    assert list(fig.data[1].y) == pytest.approx(runs[0].exploitability.tolist())
    assert fig.data[2].name == "&lt;b&gt;CFR+&lt;/b&gt;"  # labels are text, escaped
    assert [d.showlegend for d in fig.data] == [None, False, None, False]  # each run once
    assert fig.data[2].line == fig.data[3].line != fig.data[0].line
    assert fig.layout.width is None and fig.layout.height  # the notebook sets the width
    assert fig.layout.yaxis.type == fig.layout.yaxis2.type == "log"
    assert fig.layout.xaxis2.type == "log"
    # The exact value and the LP's exploitability are written on the figure, not drawn.
    note = fig.layout.annotations[-1].text
    assert "-0.055556" in note and "1e-16" in note
    assert "exploitability of the LP" not in exact_convergence_figure(
        runs, values, -1 / 18).layout.annotations[-1].text
    # One range of whole decades for both panels, holding every point drawn.
    assert fig.layout.yaxis.range == fig.layout.yaxis2.range
    low, high = fig.layout.yaxis.range
    drawn = np.concatenate([np.abs(v + 1 / 18) for v in values]
                           + [r.exploitability for r in runs])
    drawn = drawn[drawn > 0]
    assert 10 ** low <= drawn.min() and drawn.max() <= 10 ** high


def test_convergence_figure_refuses_mismatches(kuhn_runs):
    _, runs, values = kuhn_runs
    with pytest.raises(ValueError, match="at least one"):
        exact_convergence_figure([], [], 0.0)
    with pytest.raises(ValueError, match="one array of values per trace"):
        exact_convergence_figure(runs, values[:1], 0.0)
    with pytest.raises(ValueError, match="one label per trace"):
        exact_convergence_figure(runs, values, 0.0, labels=["a"])


def row(game, sequences, lp_seconds, cfr_seconds, lp_bytes=2e6, cfr_bytes=1e6, source="x"):
    return LpVsCfr(game=game, name="leduc_poker", params={}, nodes=10 * sequences,
                   infosets=sequences, sequences=sequences, nonzeros=5 * sequences,
                   lp_seconds=lp_seconds, lp_bytes=lp_bytes, lp_value=-0.1, cfr_iterations=500,
                   cfr_seconds=cfr_seconds,
                   cfr_bytes=cfr_bytes, cfr_table_bytes=100, cfr_exploitability=9e-4,
                   cfr_value=-0.1, source=source)


def test_cost_figure_recorded_and_measured():
    recorded = [row("big", 3000, 8.0, 3.0), row("small", 300, 0.05, 0.1),
                row("huge", 9000, math.nan, 9.0, lp_bytes=math.nan,
                    source="LP stopped after 900 s; recorded")]
    measured = [row("<i>Kuhn</i>", 13, 0.01, 0.001)]
    fig = lp_vs_cfr_figure(recorded, measured)
    lp_time, cfr_time, lp_memory, cfr_memory, tables = fig.data[:5]
    assert list(lp_time.x) == [300, 3000] and list(lp_time.y) == [0.05, 8.0]  # sorted, no NaN
    assert list(cfr_time.x) == [300, 3000, 9000]
    assert list(lp_memory.y) == [2.0, 2.0] and list(cfr_memory.y) == [1.0] * 3  # MB
    assert list(tables.y) == [1e-4] * 3 and tables.line.dash == "dot"
    assert "recorded" in lp_time.name and "measured now" in fig.data[5].name
    assert fig.data[5].text == ("&lt;i&gt;Kuhn&lt;/i&gt;",)
    stopped = fig.data[10]
    assert list(stopped.x) == [9000] and stopped.y == (9.0,) and "stopped" in stopped.name
    assert [d.showlegend for d in fig.data[:5]] == [True, True, False, False, True]
    assert fig.layout.width is None and fig.layout.xaxis2.type == "log"
    assert len(lp_vs_cfr_figure(measured=measured).data) == 5
    with pytest.raises(ValueError, match="recorded or measured"):
        lp_vs_cfr_figure()
