"""Game sizes, time and memory per iteration, the lossless rank abstraction, published sizes."""

import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.scaling import (
    PUBLISHED_SIZES,
    game_size,
    lift_policy,
    measure_scaling,
    seconds_per_iteration,
    solver_bytes,
    suit_free_key,
    tree_bytes,
)


@pytest.fixture(scope="module")
def games():
    return {"kuhn": cfrviz.load_game("kuhn_poker"), "leduc": cfrviz.load_game("leduc_poker"),
            "suits": cfrviz.load_game("leduc_poker", suits=True)}


def test_sizes(games):
    kuhn = game_size(games["kuhn"])
    assert (kuhn.nodes, kuhn.infosets, kuhn.terminals, kuhn.chance_nodes) == (55, 12, 30, 1)
    assert kuhn.decision_nodes == 24 and kuhn.infoset_actions == 24 and kuhn.max_actions == 2
    assert kuhn.nodes == kuhn.decision_nodes + kuhn.chance_nodes + kuhn.terminals
    assert game_size(games["leduc"]).infosets == 288 and game_size(games["suits"]).infosets == 936
    assert game_size(games["leduc"], "Leduc").name == "Leduc"
    assert solver_bytes(games["kuhn"]) == 2 * 12 * 2 * 8
    assert solver_bytes(games["leduc"], tables=4) == 4 * 288 * 3 * 8
    assert tree_bytes(games["leduc"]) > tree_bytes(games["kuhn"]) > 0


def test_timing_and_table(games):
    assert 0 < seconds_per_iteration(games["kuhn"], iterations=20, repeats=1) < 0.1
    table = measure_scaling({"Kuhn": games["kuhn"], "Leduc": games["leduc"]}, iterations=20,
                            repeats=1)
    assert [r.size.name for r in table.rows] == ["Kuhn", "Leduc"]
    assert "Leduc" in str(table) and "<table>" in table._repr_html_()
    assert all(r.microseconds_per_infoset > 0 for r in table.rows)


def test_suit_free_key():
    assert suit_free_key("KsQh:rc/r") == "KQ:rc/r"
    assert suit_free_key("Jh:") == "J:"
    with pytest.raises(ValueError):
        suit_free_key("no colon")


def test_rank_solution_lifts_losslessly(games):
    policy = cfrviz.solve(games["leduc"], "dcfr", 200, checkpoints=[]).average_policy()
    lifted = lift_policy(policy, games["suits"])
    assert lifted["Ks:"] == policy["K:"] and lifted["KhQs:cc/r"] == policy["KQ:cc/r"]
    assert cfrviz.exploitability(games["suits"], lifted) == pytest.approx(
        cfrviz.exploitability(games["leduc"], policy), abs=1e-12)
    assert cfrviz.expected_values(games["suits"], lifted)[0] == pytest.approx(
        cfrviz.expected_values(games["leduc"], policy)[0], abs=1e-12)


def test_lift_refuses_a_mismatch(games):
    with pytest.raises(ValueError):
        lift_policy(cfrviz.Policy.uniform(games["kuhn"]), games["suits"])
    with pytest.raises(ValueError):
        game_size(cfrviz.load_game("rock_paper_scissors").payoffs)


def test_published_sizes_cite_their_sources():
    assert {p.cite for p in PUBLISHED_SIZES} == {"Bowling et al. 2015", "Johanson 2013"}
    hulhe = next(p for p in PUBLISHED_SIZES if p.cite == "Bowling et al. 2015")
    assert hulhe.infosets == 3.19e14 and "Science" in hulhe.source
    for p in PUBLISHED_SIZES:
        assert p.infosets > 1e10 and p.source and p.note
        assert any(str(year) in p.source for year in range(2000, 2030))
    assert np.isfinite([p.infosets for p in PUBLISHED_SIZES]).all()
