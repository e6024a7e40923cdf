"""cfrviz's Play: the kernel side of ipywidgets' Play, with a front end whose timer belongs to
the model (the browser test, tests/test_browser_breakages.py, shows it playing from two
views)."""

from __future__ import annotations

import ipywidgets as W
import pytest

import cfrviz
from cfrviz.widgets import KuhnEquilibriumView, RegretMatchingExplorer, playback
from cfrviz.widgets.playback import Play


def test_play_keeps_ipywidgets_play_traits_and_links_to_a_slider():
    play = Play(value=2, min=0, max=9, interval=50, show_repeat=False)
    assert isinstance(play, W.Play)
    state = play.get_state()
    assert state["_model_name"] == "AnyModel" and state["_view_name"] == "AnyView"
    assert {k: state[k] for k in ("value", "min", "max", "step", "interval", "playing",
                                  "repeat", "show_repeat")} == {
        "value": 2, "min": 0, "max": 9, "step": 1, "interval": 50, "playing": False,
        "repeat": False, "show_repeat": False}
    slider = W.IntSlider(max=9)
    link = W.jslink((play, "value"), (slider, "value"))
    assert link.source == (play, "value")


def test_the_timer_is_started_once_per_model_not_per_view():
    esm = playback._ESM  # the module that late_start wraps into Play._esm
    assert "export default { initialize, render }" in esm
    # The view never starts or pauses the timer: only initialize() listens to "playing".
    render = esm[esm.index("function render("):]
    assert 'on("change:playing", onPlaying)' in esm[:esm.index("function render(")]
    assert "onPlaying" not in render and "setTimeout" not in render


@pytest.mark.parametrize("make", [
    lambda: cfrviz.explore(cfrviz.load_game("kuhn_poker"), "cfr", iterations=10, seed=0),
    lambda: RegretMatchingExplorer(iterations=10, seed=0),
    lambda: KuhnEquilibriumView([cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr",
                                              iterations=10, seed=0)]),
], ids=["explorer", "regret-matching", "kuhn-equilibrium"])
def test_every_timeline_uses_it(make):
    assert isinstance(make().play, Play)
