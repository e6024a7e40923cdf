"""LP against CFR+: the measurements, the recorded file's round trip, the power-law fit."""

import json
import math

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.lp_scaling import (
    LpVsCfr,
    average_values,
    cfr_time_to,
    checkpoints_to,
    load_recorded,
    peak_memory,
    power_law,
    race,
    table_text,
    to_json,
)


@pytest.fixture(scope="module")
def kuhn_race():
    return race(cfrviz.load_game("kuhn_poker"), "Kuhn")


def test_checkpoints_are_spaced_by_the_growth_factor():
    points = checkpoints_to(1000, 1.04)
    assert points[:3] == [1, 2, 3] and points[-1] <= 1000
    start = np.array(points[:-1])
    assert np.all(np.diff(points) >= 1)
    assert np.all(np.diff(points) <= np.maximum(1, 0.04 * start + 1))  # 4%, rounded up


def test_cfr_time_to_finds_the_first_checkpoint_below_the_target():
    kuhn = cfrviz.load_game("kuhn_poker")
    iteration, seconds, trace = cfr_time_to(kuhn, 1e-3)
    k = trace.index(iteration)
    assert trace.exploitability[k] <= 1e-3 and np.all(trace.exploitability[:k] > 1e-3)
    assert seconds == trace.extras["elapsed"][k] and seconds > 0
    with pytest.raises(RuntimeError, match="did not reach"):
        cfr_time_to(kuhn, 1e-9, max_iterations=50)


def test_race_on_kuhn(kuhn_race):
    r = kuhn_race
    assert (r.game, r.name, r.nodes, r.infosets, r.sequences) == ("Kuhn", "kuhn_poker", 55, 12,
                                                                  13)
    assert r.lp_value == pytest.approx(-1 / 18, abs=1e-12)
    assert r.cfr_exploitability <= r.target == 1e-3
    # The value of an average strategy lies within twice its exploitability of the game's value.
    assert abs(r.cfr_value - r.lp_value) <= 2 * r.cfr_exploitability
    assert r.cfr_table_bytes == 2 * 12 * 2 * 8 and r.source == "measured now"
    assert r.winner in ("LP", "CFR+")


def test_peak_memory_sees_a_large_allocation():
    result, grown = peak_memory(lambda: np.ones(50_000_000).sum())  # 400 MB, freed at once
    assert result == 50_000_000
    if not math.isnan(grown):  # Linux
        assert 300e6 < grown < 600e6


def test_json_round_trip(tmp_path, kuhn_race):
    stopped = LpVsCfr(**{**kuhn_race.__dict__, "lp_seconds": math.nan, "lp_bytes": math.nan,
                         "source": "LP stopped after 1 s; recorded"})
    path = tmp_path / "run.json"
    path.write_text(to_json([kuhn_race, stopped], {"command": "x", "date": "today"}))
    assert "NaN" not in path.read_text()  # strict JSON: null
    rows, meta = load_recorded(path)
    assert meta == {"command": "x", "date": "today"}
    assert rows[0] == kuhn_race and math.isnan(rows[1].lp_seconds)
    text = table_text(rows)
    assert "Kuhn" in text and "LP stopped" in text


def test_load_recorded_refuses_other_files(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"meta": {}, "rows": [{"game": "Kuhn"}]}))
    with pytest.raises(ValueError, match="row 0 lacks"):
        load_recorded(path)
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="is not a recorded"):
        load_recorded(path)


def test_the_recorded_benchmark_loads():
    from pathlib import Path

    rows, meta = load_recorded(Path(__file__).resolve().parent.parent / "data" / "benchmarks"
                               / "lp_vs_cfr.json")
    assert {"command", "machine", "date"} <= set(meta)
    assert meta["command"].startswith(".venv/bin/python benchmarks/bench_lp_scaling.py")
    assert all(meta["date"] in r.source and "bench_lp_scaling.py" in r.source for r in rows)
    leduc = next(r for r in rows if r.name == "leduc_poker" and not r.params)
    assert (leduc.sequences, leduc.lp_value) == (337, pytest.approx(-0.0856064240, abs=1e-9))
    for r in rows:
        assert r.cfr_exploitability <= r.target
        if math.isfinite(r.lp_value):
            assert abs(r.cfr_value - r.lp_value) <= 2 * r.cfr_exploitability


def test_power_law():
    sizes = np.array([10.0, 100.0, 1000.0])
    exponent, factor = power_law(sizes, 3.0 * sizes ** 1.5)
    assert (exponent, factor) == (pytest.approx(1.5), pytest.approx(3.0))
    assert power_law([1, 2, 4, 8], [1, np.nan, 4, 0])[0] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="at least two"):
        power_law([1, 2], [1, np.nan])


def test_average_values_match_expected_values():
    kuhn = cfrviz.load_game("kuhn_poker")
    trace = cfrviz.solve(kuhn, "cfr", 50, checkpoints=[1, 10, 50])
    values = average_values(trace)
    assert values.shape == (3,)
    assert values[-1] == pytest.approx(cfrviz.expected_values(kuhn, trace.average_policy())[0])


def test_the_recorded_table_fits_a_notebook_at_1000_pixels():
    """Issue 29: lesson 10's table of recorded rows (113 characters) wrapped at 1280 px."""
    from pathlib import Path

    rows, _ = load_recorded(Path(__file__).resolve().parent.parent / "data" / "benchmarks"
                            / "lp_vs_cfr.json")
    assert max(len(line) for line in table_text(rows).splitlines()) <= 95  # about 750 px


def test_the_html_table_has_every_row_and_keeps_numbers_whole():
    from pathlib import Path

    from cfrviz.analysis.lp_scaling import table_html

    rows, _ = load_recorded(Path(__file__).resolve().parent.parent / "data" / "benchmarks"
                            / "lp_vs_cfr.json")
    page = table_html(rows)
    assert page.count("<tr>") == len(rows) + 1 and page.count("<th ") == 8
    assert page.count("white-space:nowrap") == 7 * len(rows) and "8,513" in page
