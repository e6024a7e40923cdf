"""cfrviz's Play: the kernel side of ipywidgets' Play, with a front end whose timer belongs to
the model (the browser test, tests/test_browser_breakages.py, shows it playing from two
views)."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as W
import pytest

import cfrviz
from cfrviz.widgets import KuhnEquilibriumView, RegretMatchingExplorer, playback
from cfrviz.widgets.late_start import es_module
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


def test_its_front_end_is_playback_js_wrapped_to_start_late_safely():
    """The timer's behaviour (one per model, any number of views) is tested under Node:
    tests/js/playback.test.js."""
    path = Path(cfrviz.__file__).parent / "widgets" / "playback.js"
    assert path.read_text(encoding="utf-8") == playback.FRONT_END
    assert Play._esm == es_module(playback.FRONT_END)


@pytest.mark.parametrize("make", [
    lambda: cfrviz.explore(cfrviz.load_game("kuhn_poker"), "cfr", iterations=10, seed=0),
    lambda: RegretMatchingExplorer(iterations=10, seed=0),
    lambda: KuhnEquilibriumView([cfrviz.solve(cfrviz.load_game("kuhn_poker"), "cfr",
                                              iterations=10, seed=0)]),
], ids=["explorer", "regret-matching", "kuhn-equilibrium"])
def test_every_timeline_uses_it(make):
    assert isinstance(make().play, Play)
