"""The realization-plan widget, driven as a student would: move sliders, press buttons."""

import re

import ipywidgets as W
import numpy as np
import pytest

import cfrviz
from cfrviz.analysis.realization import plan_from_behaviour, plan_rows, worst_case_value
from cfrviz.views.style import MIN_FONT_PX, PRESENTER
from cfrviz.widgets.panel import Panel
from cfrviz.widgets.realization import RealizationPlanExplorer


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).replace("&nbsp;", " ")


@pytest.fixture(scope="module")
def kuhn():
    return cfrviz.load_game("kuhn_poker")


def test_it_starts_at_the_uniform_plan_which_is_feasible(kuhn):
    w = RealizationPlanExplorer(kuhn)
    assert isinstance(w, Panel)
    assert len(w.sliders) == 12 and set(w.sliders) >= {"J·p", "Jpb·b", "Kpb·p"}
    assert w.plan[0] == 1 and w.sliders["J·p"].value == 0.5 and w.sliders["Jpb·p"].value == 0.25
    assert w.feasible
    # Uniform player 1 against a best response: -5/12 (measured by cfrviz's best response).
    uniform = cfrviz.Policy.uniform(kuhn)
    br = cfrviz.best_response(kuhn, uniform, 1)
    assert w.worst_case == pytest.approx(-br.value, abs=1e-12)
    assert "A realization plan" in text(w.summary.value)


def test_moving_one_slider_breaks_exactly_its_row_and_says_by_how_much(kuhn):
    w = RealizationPlanExplorer(kuhn)
    w.sliders["J·b"].value = 0.7
    assert not w.feasible and w.worst_case is None and w.against_equilibrium is None
    failing = [r.infoset for r in w.rows if not r.holds]
    # J's own row fails by +0.2; Jpb's row still holds (its parent J·p did not move).
    assert failing == ["J"]
    assert "fails by +0.20" in text(w._row_html[1].value)
    assert "holds" in text(w._row_html[2].value)
    summary = text(w.summary.value)
    assert "Not a realization plan" in summary and "1 of 7 rows fail" in summary
    assert "set J, off by +0.20" in summary
    w.sliders["J·p"].value = 0.3                    # 0.3 + 0.7 = x(∅): J's row holds again...
    assert [r.infoset for r in w.rows if not r.holds] == ["Jpb"]  # ...but Jpb's parent moved
    w.sliders["Jpb·p"].value = 0.1
    w.sliders["Jpb·b"].value = 0.2
    assert w.feasible


def test_the_equilibrium_button_reaches_the_value(kuhn):
    w = RealizationPlanExplorer(kuhn)
    w.equilibrium_button.click()
    assert w.feasible and w.last_error is None
    assert w.worst_case == pytest.approx(-1 / 18, abs=1e-9)
    assert w.against_equilibrium == pytest.approx(-1 / 18, abs=1e-9)
    assert "takes 0.0000" in text(w.summary.value) and "-1/18" in text(w.summary.value)
    w.zero_button.click()
    assert [r.infoset for r in w.rows if not r.holds] == ["J", "Q", "K"]
    w.uniform_button.click()
    assert w.feasible


def test_a_feasible_plan_shows_its_behaviour_and_what_a_best_response_takes(kuhn):
    w = RealizationPlanExplorer(kuhn)
    probs = kuhn.legal_mask / kuhn.legal_mask.sum(axis=1, keepdims=True)
    probs = probs.copy()
    probs[kuhn.infoset_keys.index("K")] = [0.0, 1.0]     # always bet the king
    w.set_behaviour(probs)
    assert w.sliders["K·b"].value == 1 and w.sliders["Kpb·p"].value == 0
    assert "K: p 0.00, b 1.00" in text(w.summary.value)
    assert "Kpb: p 0.50, b 0.50 (never reached)" in text(w.summary.value)
    plan = plan_from_behaviour(kuhn, probs, 0)
    loss = cfrviz.exact_equilibrium(kuhn).value - worst_case_value(kuhn, plan, 0)
    assert f"takes {loss:.4f}" in text(w.summary.value) and loss > 0


def test_player_2s_plan(kuhn):
    w = RealizationPlanExplorer(kuhn, player=1)
    assert set(w.sliders) >= {"Qb·p", "Jp·b"} and len(w.sliders) == 12
    w.equilibrium_button.click()
    assert w.worst_case == pytest.approx(-1 / 18, abs=1e-9)
    assert "player 1 best-responding" in text(w.summary.value)


@pytest.mark.parametrize("plan, says", [
    ([1.0] * 12, "must be 13 numbers"),
    ([0.0] + [0.5] * 12, "plan[0] is x(∅), always 1"),
    ([1.0, -0.1] + [0.5] * 11, "plan[1] is -0.1"),
    ([1.0, 1.5] + [0.5] * 11, "x(J·p) would be 1.5"),
    ([1.0, np.nan] + [0.5] * 11, "plan[1] is nan"),
    ("half", "must be 13 numbers"),
])
def test_bad_plans_are_refused_naming_the_sequence(kuhn, plan, says):
    w = RealizationPlanExplorer(kuhn)
    before = w.plan.copy()
    with pytest.raises(ValueError, match=re.escape(says)):
        w.set_plan(plan)
    assert np.array_equal(w.plan, before)


def test_sliders_cannot_leave_zero_to_one(kuhn):
    w = RealizationPlanExplorer(kuhn)
    w.sliders["Q·b"].value = 7.0                     # ipywidgets clamps to the range
    assert w.sliders["Q·b"].value == 1.0
    w.sliders["Q·b"].value = -3.0
    assert w.sliders["Q·b"].value == 0.0
    with pytest.raises(ValueError, match="player must be 0"):
        RealizationPlanExplorer(kuhn, player=2)


def test_text_is_legible_in_both_settings(kuhn):
    for presenter, least in ((False, MIN_FONT_PX), (True, PRESENTER.font_size)):
        w = RealizationPlanExplorer(kuhn, presenter=presenter)
        html = [w.summary.value] + [h.value for h in w._row_html]
        sizes = [int(s) for h in html for s in re.findall(r"font-size:(\d+)px", h)]
        assert sizes and min(sizes) >= least
        assert all("font-size" in h for h in html)


def test_rows_match_the_sequence_forms_matrix(kuhn):
    from cfrviz.solvers.lp import sequence_form
    E = sequence_form(kuhn).constraints[0].toarray()
    x = np.random.default_rng(0).random(13)
    x[0] = 1.0
    gaps = [r.gap for r in plan_rows(kuhn, 0, x)]
    e = np.eye(7)[0]
    assert np.allclose(gaps, E @ x - e)


def test_each_sets_sliders_share_the_full_width_under_its_row():
    """Issue 29: the plan sliders were 22 em wide with a 7 em label beside the row's text, a
    track of a few dozen pixels; now each set's row is a line of its own and its sliders grow
    to the notebook's width together, labels in full."""
    w = RealizationPlanExplorer(cfrviz.load_game("kuhn_poker"))
    for slider in w.sliders.values():
        assert slider.layout.flex.startswith("1 1 ") and slider.layout.width == "auto"
        assert slider.layout.min_width == slider.layout.flex.split()[-1]  # then they wrap
    lines = [c for c in w.children if isinstance(c, W.VBox)]
    assert len(lines) == 6
    for line in lines:
        status, sliders = line.children
        assert status in w._row_html and sliders.layout.width == "100%"
        assert sliders.layout.flex_flow == "row wrap"
        assert all(s in w.sliders.values() for s in sliders.children)
