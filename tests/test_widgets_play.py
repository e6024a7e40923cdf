"""The play-against-the-bot table driven programmatically, as a student's clicks would drive it."""

import html
import re

import numpy as np
import pytest

import cfrviz
from cfrviz.play import Z95
from cfrviz.play.bots import always_raise
from cfrviz.widgets.play import PlayTable, play_against, play_tabs

KUHN = cfrviz.load_game("kuhn_poker")
LEDUC = cfrviz.load_game("leduc_poker")


@pytest.fixture(scope="module")
def kuhn_trace():
    return cfrviz.solve(KUHN, "cfr", 300)


@pytest.fixture(scope="module")
def leduc_trace():
    return cfrviz.solve(LEDUC, "cfr", 20, checkpoints=[5, 20])


def play_out(widget, pick=lambda names: names[-1]):
    """Click buttons until the hand is over; return the names clicked."""
    clicked = []
    while widget.table.playing:
        names = [b.description for b in widget.action_buttons]
        assert names == list(widget.table.hand.legal_names())
        assert not any(b.disabled for b in widget.action_buttons)
        clicked.append(pick(names))
        widget.button(clicked[-1]).click()
        assert widget.last_error is None, widget.last_error
    return clicked


def explained(widget):
    """The explanation's sentences, unescaped."""
    return [html.unescape(x) for x in re.findall(r"<li>(.*?)</li>", widget.explanation.value)]


def test_kuhn_hands_score_and_explanations(kuhn_trace):
    widget = PlayTable(KUHN, kuhn_trace, iteration=100, seed=0)
    assert "Press <b>Deal</b>" in widget.status.value and widget.action_buttons == []
    assert "after <b>100</b> iterations" in widget.bot_label.value
    policy = kuhn_trace.average_policy(100)
    for hand_number in range(1, 7):
        widget.deal_button.click()
        hand = widget.table.hand
        assert hand.human == (hand_number + 1) % 2  # seats switch every hand, from player 1
        assert "?" in widget.cards.value or hand.over
        play_out(widget, pick=lambda names, n=hand_number: names[n % 2])
        assert hand.over and "?" not in widget.cards.value  # the reveal
        mine, theirs = hand.cards().private[hand.human][0], hand.cards().private[1 - hand.human][0]
        assert f">{mine}</span>" in widget.cards.value and f">{theirs}</span>" in widget.cards.value
        assert all(b.disabled for b in widget.action_buttons)
        # One sentence per bot decision, with the probabilities of the chosen iteration.
        lines = explained(widget)
        assert len(lines) == len(hand.decisions)
        for line, decision in zip(lines, hand.decisions):
            strategy = policy[decision.key]
            names = dict(zip(KUHN.infoset_actions[decision.infoset],
                             widget.table.names[decision.infoset]))
            assert line.startswith(f"At {decision.key!r} the bot chose {names[decision.action]} "
                                   f"(probability {strategy[decision.action]:.2f}; its strategy "
                                   f"there: {names['p']} {strategy['p']:.2f}, "
                                   f"{names['b']} {strategy['b']:.2f}).")
        payoffs = np.array([p for _, p in widget.table.results])
        assert len(payoffs) == hand_number and payoffs[-1] == hand.payoff
        assert f"Score after <b>{hand_number}</b> hand" in widget.score_label.value
        if hand_number == 1:
            assert "needs at least two hands" in widget.score_label.value
        else:
            half = Z95 * payoffs.std(ddof=1) / np.sqrt(len(payoffs))
            low, high = payoffs.mean() - half, payoffs.mean() + half
            assert (f"95% confidence interval {round(low, 2) + 0.0:+.2f} to "
                    f"{round(high, 2) + 0.0:+.2f}") in widget.score_label.value
    assert "(3 as player 1, 3 as player 2)" in widget.score_label.value


def test_readable_buttons_in_kuhn():
    # Against a bot that always bets, player 2 faces a bet: fold or call.
    widget = PlayTable(KUHN, always_raise(KUHN), human=1, seed=0)
    widget.deal()
    assert [b.description for b in widget.action_buttons] == ["fold", "call"]
    assert "Bot: <b>bet</b>" in widget.betting.value
    widget.button("fold").click()
    assert "You folded" in widget.status.value and "You lose <b>1</b>" in widget.status.value
    widget.deal()  # now player 1: check or bet
    assert [b.description for b in widget.action_buttons] == ["check", "bet"]
    assert widget.iteration.layout.display == "none"  # a fixed policy has no iterations


def test_leduc_full_hands(leduc_trace):
    widget = play_against(LEDUC, leduc_trace, seed=3)
    seen_second_round = False
    for _ in range(6):
        widget.deal()
        hand = widget.table.hand
        assert "Public card" in widget.cards.value
        clicked = play_out(widget, pick=lambda names: "call" if "call" in names else names[-1])
        assert set(clicked) <= {"check", "bet", "call", "raise"}
        if hand.cards().public:
            seen_second_round = True
            assert f">{hand.cards().public[0]}</span>" in widget.cards.value
            assert "new card" in widget.betting.value
        if hand.folded is None:
            assert "Showdown." in widget.status.value
        else:  # we never fold, the bot may
            assert hand.folded != hand.human and "The bot folded" in widget.status.value
        keys = [d.key for d in hand.decisions]
        assert all(repr(k) in " ".join(explained(widget)) for k in keys)
    assert seen_second_round
    assert "Score after <b>6</b> hands" in widget.score_label.value


def test_switching_iteration_changes_the_bot(kuhn_trace):
    widget = PlayTable(KUHN, kuhn_trace, seed=1)
    assert widget.iteration.value == 300
    np.testing.assert_array_equal(widget.table.bot.probabilities, kuhn_trace.average_strategy[-1])
    widget.deal()
    play_out(widget)
    widget.iteration.value = widget.iteration.options[3][1]  # the slider
    chosen = widget.iteration.value
    np.testing.assert_array_equal(widget.table.bot.probabilities,
                                  kuhn_trace.average_strategy[kuhn_trace.index(chosen)])
    assert "no hands played yet" in widget.score_label.value
    assert f"after <b>{chosen:,}</b> iterations" in widget.bot_label.value
    widget.set_iteration(37)  # recorded, even if not a stop on the slider
    assert widget.iteration.value == 37 and widget.last_error is None
    np.testing.assert_array_equal(widget.table.bot.probabilities,
                                  kuhn_trace.average_strategy[kuhn_trace.index(37)])
    widget.deal()
    assert widget.table.hand.bot is widget.table.bot


def test_errors_go_to_the_output_area(kuhn_trace):
    widget = PlayTable(KUHN, kuhn_trace, seed=0)
    widget.act("b")
    assert widget.last_error == "Could not play 'b': no hand is running: deal first"
    assert widget.output.outputs[0]["text"] == widget.last_error + "\n"
    widget.deal()
    assert widget.output.outputs == () and widget.last_error is None
    widget.act("raise")
    assert "'raise' is not a legal action" in widget.last_error
    assert "legal: 'check' ('p'), 'bet' ('b')" in widget.last_error
    assert widget.table.playing  # the hand goes on
    play_out(widget)
    stale = widget.action_buttons[0]
    stale.click()
    assert widget.last_error.endswith("this hand is over: deal a new one")
    before = widget.table.bot
    widget.set_iteration(12345)
    assert "iteration 12345 is not in this trace" in widget.last_error
    assert widget.table.bot is before and widget.iteration.value == 300


def test_unexpected_errors_never_kill_the_widget(kuhn_trace, monkeypatch):
    widget = PlayTable(KUHN, kuhn_trace, seed=0)

    def broken(_action):
        raise RuntimeError("boom")

    monkeypatch.setattr(widget.table, "act", broken)
    widget.deal()
    widget.action_buttons[0].click()
    assert widget.last_error == "Could not play 'p': RuntimeError('boom')"
    monkeypatch.undo()
    widget.action_buttons[0].click()
    assert widget.last_error is None


def test_fixed_policy_has_no_iterations():
    widget = PlayTable(KUHN, cfrviz.Policy.uniform(KUHN))
    widget.set_iteration(10)
    assert "a fixed policy, not a trace" in widget.last_error


def test_bad_construction(kuhn_trace):
    with pytest.raises(ValueError, match="iteration 5000 is not in this trace"):
        PlayTable(KUHN, kuhn_trace, iteration=5000)
    with pytest.raises(ValueError, match="made for kuhn_poker, not leduc_poker"):
        PlayTable(LEDUC, kuhn_trace)
    with pytest.raises(ValueError, match="Policy or a Trace"):
        PlayTable(KUHN, "cfr")


def test_presenter_text_is_larger(kuhn_trace):
    normal = PlayTable(KUHN, kuhn_trace, presenter=False)
    large = PlayTable(KUHN, kuhn_trace, presenter=True)
    for w in (normal, large):
        w.deal()
    size = [int(re.search(r"font-size:(\d+)px", w.status.value).group(1)) for w in (normal, large)]
    assert size[1] > size[0]


def test_an_iteration_must_be_a_whole_number(kuhn_trace):
    """True is not iteration 1, nor 37.0 iteration 37: the bot stays, and the table says so."""
    widget = PlayTable(KUHN, kuhn_trace, seed=0)
    before = widget.table.bot
    for bad in (True, 37.0, "37"):
        widget.set_iteration(bad)
        assert widget.last_error == (f"Could not switch the bot: iteration must be a whole number, "
                                     f"a recorded iteration between 1 and 300; got {bad!r}")
        assert widget.table.bot is before and widget.iteration.value == 300
    with pytest.raises(ValueError, match="switch_seats must be True or False; got 1"):
        PlayTable(KUHN, kuhn_trace, switch_seats=1)


def test_tab_titles_follow_each_tables_slider(kuhn_trace):
    """Issue 29: lesson 05's tab kept the title "10 iterations" after its slider moved."""
    tabs = play_tabs(KUHN, kuhn_trace, iterations=[10, 100, 300])
    assert tabs.titles == ("10 iterations", "100 iterations", "300 iterations")
    first, second, _ = tabs.children
    assert [first.iteration.value, second.iteration.value] == [10, 100]
    first.iteration.value = 200  # the student drags the first table's slider
    assert tabs.titles == ("200 iterations", "100 iterations", "300 iterations")
    assert "after <b>200</b> iterations" in first.bot_label.value
    second.set_iteration(7)  # from code too, also to an iteration not yet on the slider
    assert tabs.titles[1] == "7 iterations" and second.last_error is None
    # the tables deal different hands (each seeded with its iteration unless told otherwise)
    assert [t.table.rng.bit_generator.state != first.table.rng.bit_generator.state
            for t in tabs.children[1:]] == [True, True]
