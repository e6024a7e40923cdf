"""One hand against a bot, stepped through the game tree (cfrviz.play.hand)."""

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.core.tree import TERMINAL
from cfrviz.play import Z95
from cfrviz.play.bots import always_call, always_raise, hand_strength
from cfrviz.play.hand import Hand, Table, TableCards, action_names, explain, score, table_cards

KUHN = cfrviz.load_game("kuhn_poker")
LEDUC = cfrviz.load_game("leduc_poker")


def names_of(game, key):
    return action_names(game)[game.infoset_index(key)]


def test_readable_action_names():
    assert names_of(KUHN, "J") == ("check", "bet")
    assert names_of(KUHN, "Qp") == ("check", "bet")
    assert names_of(KUHN, "Qb") == ("fold", "call")
    assert names_of(KUHN, "Kpb") == ("fold", "call")
    assert names_of(LEDUC, "J:") == ("check", "bet")
    assert names_of(LEDUC, "J:r") == ("fold", "call", "raise")
    assert names_of(LEDUC, "K:rr") == ("fold", "call")
    assert names_of(LEDUC, "QK:cc/c") == ("check", "bet")
    # Without chance there is nothing to read folds from: labels stay.
    rps = cfrviz.load_game("rock_paper_scissors").tree
    assert action_names(rps) == rps.infoset_actions


def test_table_cards():
    assert table_cards(KUHN, ["JQ"]) == table_cards(KUHN, ("JQ",))
    cards = table_cards(KUHN, ["JQ"])
    assert cards.private == (("J",), ("Q",)) and cards.public == ()
    suits = cfrviz.load_game("leduc_poker", suits=True)
    cards = table_cards(suits, ["JsQh", "Kh"])
    assert cards.private == (("Js",), ("Qh",)) and cards.public == ("Kh",)
    pocket = SimpleNamespace(name="pocket_poker")  # only the name matters; the tree is slow
    assert table_cards(pocket, ["AK", "QQ", "T"]) == TableCards((("AK",), ("QQ",)), ("T",))
    assert table_cards(cfrviz.load_game("rock_paper_scissors").tree, []) is None


def test_a_kuhn_hand_step_by_step():
    # The bot always raises: as player 2 facing a check it bets, so the human must answer.
    hand = Hand(KUHN, always_raise(KUHN), human=0, rng=np.random.default_rng(5))
    assert hand.to_act == 0 and not hand.over and len(hand.dealt) == 1
    mine = hand.cards().private[0][0]
    assert hand.known_to(0) == mine and hand.legal_actions() == ("p", "b")
    assert hand.legal_names() == ("check", "bet")
    hand.act("check")
    assert [m.action for m in hand.moves] == ["p", "b"] and hand.moves[1].by_bot
    assert hand.known_to(0) == mine + "pb" and hand.legal_names() == ("fold", "call")
    [decision] = hand.decisions
    bot_card = hand.cards().private[1][0]
    assert decision.key == bot_card + "p" and decision.action == "b"
    assert decision.probability == 1.0 and decision.strategy == {"p": 0.0, "b": 1.0}
    hand.act("b")
    assert hand.over and hand.to_act is None and hand.legal_actions() == ()
    assert KUHN.history[hand.node] == f"{mine}{bot_card}:pbb"
    assert hand.payoffs == tuple(KUHN.utility[hand.node])
    assert hand.payoff == (2.0 if "JQK".index(mine) > "JQK".index(bot_card) else -2.0)
    assert hand.folded is None


def test_bad_actions_name_the_legal_ones():
    hand = Hand(KUHN, always_raise(KUHN), human=0, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"'x' is not a legal action at '[JQK]'; legal: "
                                         r"'check' \('p'\), 'bet' \('b'\)"):
        hand.act("x")
    hand.act("b")  # the bot calls: showdown
    assert hand.over
    with pytest.raises(ValueError, match="this hand is over: deal a new one"):
        hand.act("b")
    with pytest.raises(ValueError, match="not over"):
        _ = Hand(KUHN, always_raise(KUHN), rng=np.random.default_rng(0)).payoff


def test_bad_setup():
    with pytest.raises(ValueError, match="made for leduc_poker, not kuhn_poker"):
        Hand(KUHN, cfrviz.Policy.uniform(LEDUC), rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="human must be 0"):
        Hand(KUHN, cfrviz.Policy.uniform(KUHN), human=2, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="numpy.random.Generator"):
        Hand(KUHN, cfrviz.Policy.uniform(KUHN))
    with pytest.raises(ValueError, match="seed must be"):
        Table(KUHN, cfrviz.Policy.uniform(KUHN), seed=-1)
    with pytest.raises(ValueError, match="needs a game"):
        Table("kuhn_poker", cfrviz.Policy.uniform(KUHN))


def test_same_seed_same_session():
    def session(seed):
        table = Table(LEDUC, cfrviz.Policy.uniform(LEDUC), seed=seed)
        histories = []
        for _ in range(20):
            hand = table.deal()
            while not hand.over:
                table.act(hand.legal_actions()[-1])
            histories.append(LEDUC.history[hand.node])
        return table.results, histories

    assert session(3) == session(3)
    assert session(3) != session(4)


def test_deals_follow_chance_probabilities():
    rng = np.random.default_rng(0)
    policy = always_call(KUHN)
    deals = [Hand(KUHN, policy, human=1, rng=rng).dealt[0] for _ in range(3000)]
    labels, counts = np.unique(deals, return_counts=True)
    assert list(labels) == sorted(KUHN.chance_labels[0])
    # Six deals of probability 1/6: each count within 5 standard deviations of 500.
    assert np.all(np.abs(counts - 500) < 5 * np.sqrt(3000 * (1 / 6) * (5 / 6)))


def test_bot_samples_its_strategy():
    probs = np.array(cfrviz.Policy.uniform(KUHN).probabilities)
    probs[KUHN.infoset_index("K")] = [0.25, 0.75]
    bot = cfrviz.Policy(KUHN, probs)
    rng = np.random.default_rng(1)
    bets, seen = 0, 0
    for _ in range(4000):
        hand = Hand(KUHN, bot, human=1, rng=rng)
        first = hand.decisions[0]
        if first.key == "K":
            seen += 1
            bets += first.action == "b"
            assert first.probability == (0.75 if first.action == "b" else 0.25)
    assert abs(bets / seen - 0.75) < 5 * np.sqrt(0.75 * 0.25 / seen)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), human=st.integers(0, 1),
       leduc=st.booleans(), choices=st.lists(st.integers(0, 2), min_size=8, max_size=8))
def test_any_play_ends_at_a_zero_sum_terminal(seed, human, leduc, choices):
    game = LEDUC if leduc else KUHN
    hand = Hand(game, cfrviz.Policy.uniform(game), human, np.random.default_rng(seed))
    for choice in choices:
        if hand.over:
            break
        assert hand.to_act == human
        assert game.infoset_player[hand.infoset] == human
        hand.act(hand.legal_actions()[choice % len(hand.legal_actions())])
    assert hand.over and game.player[hand.node] == TERMINAL
    assert sum(hand.payoffs) == 0
    # The recorded moves are the path from the root.
    node, path = hand.node, []
    while game.parent[node] >= 0:
        if game.player[game.parent[node]] >= 0:
            path.append(int(game.parent[node]))
        node = int(game.parent[node])
    assert [m.node for m in hand.moves] == path[::-1]
    assert all(m.by_bot == (m.player != human) for m in hand.moves)
    assert [d.node for d in hand.decisions] == [m.node for m in hand.moves if m.by_bot]


def test_explanations_and_bluffs():
    hand = Hand(KUHN, always_raise(KUHN), human=1, rng=np.random.default_rng(0))
    while hand.decisions[0].key != "J":
        hand = Hand(KUHN, always_raise(KUHN), human=1, rng=hand.rng)
    strength = hand_strength(KUHN)
    [line] = explain(hand, strength)
    assert line == ("At 'J' the bot chose bet (probability 1.00; its strategy there: "
                    "check 0.00, bet 1.00). A bluff: with this hand it loses more than it "
                    "wins if nobody bets.")
    assert "bluff" not in explain(hand)[0]


def test_score_and_confidence_interval():
    s = score([2, -1, 1, -2, 1])
    x = np.array([2, -1, 1, -2, 1.0])
    assert (s.hands, s.total, s.mean) == (5, 1.0, pytest.approx(0.2))
    assert s.half_width == pytest.approx(Z95 * x.std(ddof=1) / np.sqrt(5))
    assert s.ci == pytest.approx((0.2 - s.half_width, 0.2 + s.half_width))
    assert np.isnan(score([1]).half_width) and np.isnan(score([]).mean)


def test_table_switches_seats_and_resets_score_for_a_new_bot():
    table = Table(KUHN, always_call(KUHN), human=1, seed=0)
    seats = []
    for _ in range(4):
        hand = table.deal()
        seats.append(hand.human)
        while not hand.over:
            table.act("p")
    assert seats == [1, 0, 1, 0] and [s for s, _ in table.results] == seats
    table.switch_seats = False
    assert {table.deal().human for _ in range(3)} == {0}
    assert table.score().hands == 4  # hands abandoned by a new deal are not scored
    running = table.deal()
    while running.over:
        running = table.deal()
    table.set_bot(always_raise(KUHN))
    assert table.score().hands == 0
    while not running.over:
        table.act("p")
    assert table.score().hands == 0  # finished against the old bot: not scored
    table.deal()
    assert table.hand.bot is table.bot


def test_table_act_before_deal():
    with pytest.raises(ValueError, match="no hand is running: deal first"):
        Table(KUHN, always_call(KUHN)).act("b")
