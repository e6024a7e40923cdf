"""The hold'em river's public tree (games/holdem/public.py) and its vector-form kernels
(engine/river.py) against the tabular dealt tree (games/holdem/river.py): same information
sets, same iterates, same exploitability, on spots small enough to deal out; and the reference
spot's value within twice the exploitability of the sequence-form LP's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz import engine
from cfrviz.core.policy import Policy
from cfrviz.core.regret import average_strategy
from cfrviz.engine.cfr import Tables, UpdateRule
from cfrviz.engine.evaluation import best_response_values
from cfrviz.engine.river import (
    river_best_response,
    river_combo_ev,
    river_exploitability,
    river_plan,
    river_values,
    run_river_cfr,
)
from cfrviz.games.holdem.public import river_public
from cfrviz.games.holdem.river import holdem_river

TOLERANCE = 1e-12
#: Small spots: ties (pairs, the board playing), blockers (shared cards), weights, an OOP
#: combo that meets no IP combo (AhKh: every IP combo holds the Ah, the Kh or both) in a wider
#: tree (a bet or an all-in, pot-sized raises).
SPOTS = {
    "ties and blockers": dict(ranges=("AA,KK,AhKh,T9s,66", "AK,QQ,JTs,98s")),
    "weights, paired board": dict(board="AsKsQs2d2c", ranges=("JJ+,AK,T9s", "22+:0.5,AJs+")),
    "the board plays": dict(board="AsKdQhJcTs", ranges=("22-44,72o", "AA:0.3,53s,82o")),
    "a combo never dealt": dict(ranges=("AhKh,QQ", "AhKh,AhQh,Kh5h"), bets="50%, a",
                                raises="100%"),
}
RULES = {"cfr": UpdateRule(), "cfr_simultaneous": UpdateRule(alternating=False),
         "cfr+": UpdateRule(plus=True, linear_average=True),
         "dcfr": UpdateRule(discount=True, alpha=1.5, beta=0.0, gamma=2.0),
         "linear": UpdateRule(discount=True),
         "pcfr+": UpdateRule(plus=True, linear_average=True, predictive=True,
                             average_power=2.0),
         "pdcfr+": UpdateRule(plus=True, discount=True, alpha=2.3, beta=2.3, gamma=5.0,
                              predictive=True)}
#: OOP's exact value on the reference spot (shared/peers/postflop-river.md: the sequence-form
#: LP's, 47.216254290 - 50).
REFERENCE_VALUE = -2.783745710


def fresh(shape):
    return Tables(*(np.zeros(shape) for _ in range(4)))


def copy(tables):
    return Tables(*(table.copy() for table in tables))


def gap(a, b):
    """Worst difference over the four tables, each relative to its own size (at least 1)."""
    return max(np.abs(x - y).max() / max(1.0, np.abs(x).max()) for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module", params=list(SPOTS))
def spot(request):
    kwargs = SPOTS[request.param]
    return holdem_river(**kwargs), river_plan(river_public(**kwargs))


def test_information_sets_are_the_dealt_trees(spot):
    tree, plan = spot
    public = plan.spot
    assert public.infoset_keys == tree.infoset_keys
    assert np.array_equal(public.infoset_player, tree.infoset_player)
    assert public.infoset_actions == tree.infoset_actions
    assert np.array_equal(public.legal_mask, tree.legal_mask)
    members = np.bincount(tree.infoset[tree.infoset >= 0], minlength=tree.num_infosets)
    for s, node in enumerate(public.bets.nodes):
        if not node.terminal:
            hands = len(public.hands[node.player])
            assert np.array_equal(members[public.infoset[s, :hands]], public.members[node.player])


def test_a_combo_that_meets_no_opponent_combo_is_not_a_hand():
    public = river_public(**SPOTS["a combo never dealt"])
    assert "AhKh" not in public.combo_names(0)
    assert len(public.combo_names(0)) == 6  # the six QQ
    assert all(not key.startswith("AhKh:") for key, p in
               zip(public.infoset_keys, public.infoset_player) if p == 0)


@pytest.mark.parametrize("rule", list(RULES))
def test_each_iteration_is_the_tabular_engines(spot, rule):
    """From the tabular engine's tables, one river iteration gives its regrets, strategy sums,
    current strategy and last regrets, at each of 30 iterations."""
    tree, plan = spot
    arrays = engine.plan(tree).arrays
    tabular = fresh(tree.legal_mask.shape)
    worst = 0.0
    for t in range(1, 31):
        vector = copy(tabular)
        engine.run_full_tree(arrays, tabular, t, t, RULES[rule])
        run_river_cfr(plan.arrays, plan.tree_arrays, vector, t, t, RULES[rule])
        worst = max(worst, gap(tabular, vector))
    assert worst < TOLERANCE


@pytest.mark.parametrize("rule", ["cfr", "cfr+", "dcfr"])
def test_whole_runs_and_exploitability_agree(spot, rule):
    """Chained runs (one call for many iterations, the tables carried in the kernels' layout)
    agree with the tabular engine's at every checkpoint, and so does the exploitability of
    the average strategy (cfrviz.exploitability on the dealt tree).

    Ten iterations: the two sum in different orders and regret matching magnifies a last-bit
    difference along a run (measured: DCFR on the paired board 1.7e-12 apart after 20), which
    is why the test above starts each iteration from the tabular tables."""
    tree, plan = spot
    arrays = engine.plan(tree).arrays
    a, b = fresh(tree.legal_mask.shape), fresh(tree.legal_mask.shape)
    done = 0
    for last in (1, 2, 5, 10):
        engine.run_full_tree(arrays, a, done + 1, last, RULES[rule])
        run_river_cfr(plan.arrays, plan.tree_arrays, b, done + 1, last, RULES[rule])
        done = last
        assert gap(a, b) < TOLERANCE, last
        average = average_strategy(a.strategy_sum, tree.legal_mask)
        want = cfrviz.exploitability(tree, Policy(tree, average))
        assert abs(river_exploitability(plan, average) - want) < TOLERANCE


def test_best_responses_values_and_combo_evs_are_the_dealt_trees(spot):
    """Against a random profile: each best-response value (engine.best_response_values on the
    dealt tree), each player's value (the sum of its root values) and each combo's EV at each
    public state (the dealt tree's node values averaged over the deals reaching the state with
    that combo, weighted by chance and the opponent's reach)."""
    tree, plan = spot
    public = plan.spot
    rng = np.random.default_rng(7)
    strategy = rng.random(tree.legal_mask.shape) * tree.legal_mask
    strategy /= strategy.sum(axis=1, keepdims=True)
    node_values, chance_opponent = _dealt_values(tree, strategy)
    deals = _deals(tree)
    for who in (0, 1):
        tabular = engine.plan(tree)
        want = best_response_values(tabular.arrays, strategy, who, tabular.br_order[who],
                                    tabular.br_stage[who], tabular.br_decisions[who])[0]
        assert abs(river_best_response(plan, strategy, who) - want) < TOLERANCE
        values = np.zeros((len(public.bets.nodes), plan.hands))
        river_values(plan.arrays, strategy, who, 1, values)
        assert abs(values[0].sum() - node_values[0, who]) < TOLERANCE
        ev = river_combo_ev(plan, strategy, who)
        at: dict[tuple[str, str], list[int]] = {}
        for k, (line, combos) in enumerate(deals):
            at.setdefault((line, combos[who]), []).append(k)
        for s, node in enumerate(public.bets.nodes):
            for h, name in enumerate(public.combo_names(who)):
                here = at.get((node.line, name), [])
                weights = chance_opponent[who][here]
                if weights.sum() == 0:
                    assert np.isnan(ev[s, h])
                    continue
                expected = weights @ node_values[here, who] / weights.sum()
                assert abs(ev[s, h] - expected) < 1e-9, (node.line, name)


def _deals(tree):
    """Each dealt-tree node's bet-tree line and (OOP's, IP's) combo ('AsAh|KdKc:X-B50'; the
    root: None)."""
    out = []
    for history in tree.history:
        combos, _, line = history.partition(":")
        out.append((line, tuple(combos.split("|"))) if combos else (None, ("", "")))
    return out


def _dealt_values(tree, strategy):
    """Each node's value for both players under ``strategy`` and, per player, the product of
    chance's and the other player's reach at each node."""
    arrays = engine.plan(tree).arrays
    reach = np.zeros((3, tree.num_nodes))
    prob = np.zeros(tree.num_nodes)
    engine.cfr.reach_pass(arrays, np.ascontiguousarray(strategy), reach, prob)
    values = np.zeros((tree.num_nodes, 2))
    for who in (0, 1):
        column = np.zeros(tree.num_nodes)
        engine.cfr.value_pass(arrays, prob, who, column)
        values[:, who] = column
    return values, (reach[2] * reach[1], reach[2] * reach[0])


def _random_spot(seed):
    """A random board and two ranges of 2 to 9 random combos (some sharing cards, some
    weighted), written as players write them."""
    from cfrviz.games.holdem.cards import card_name

    rng = np.random.default_rng(seed)
    deck = rng.permutation(52)
    board, rest = deck[:5], deck[5:16]  # few cards left: the ranges block each other
    ranges = []
    for _ in range(2):
        combos = {tuple(sorted(rng.choice(rest, 2, replace=False), reverse=True))
                  for _ in range(rng.integers(2, 10))}
        ranges.append(",".join(f"{card_name(int(a))}{card_name(int(b))}"
                               + (":0.5" if rng.random() < 0.3 else "") for a, b in combos))
    return dict(board="".join(card_name(int(c)) for c in board), ranges=tuple(ranges))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_spots_best_responses_and_an_iteration_are_the_dealt_trees(seed):
    """On random boards and ranges (ties, blockers, weights as they fall): the information
    sets, both best responses to a random profile, and a DCFR iteration from it."""
    kwargs = _random_spot(seed)
    try:
        tree = holdem_river(**kwargs)
    except ValueError:  # every pair shares a card: both refuse (checked below)
        with pytest.raises(ValueError, match="no deal is possible"):
            river_public(**kwargs)
        return
    plan = river_plan(river_public(**kwargs))
    assert plan.spot.infoset_keys == tree.infoset_keys
    rng = np.random.default_rng(seed)
    tables = fresh(tree.legal_mask.shape)
    tables.regret_sum[:] = rng.normal(size=tables.regret_sum.shape) * tree.legal_mask
    tables.strategy_sum[:] = rng.random(tables.strategy_sum.shape) * tree.legal_mask
    average = average_strategy(tables.strategy_sum, tree.legal_mask)
    want = cfrviz.exploitability(tree, Policy(tree, average))
    assert abs(river_exploitability(plan, average) - want) < TOLERANCE
    vector = copy(tables)
    engine.run_full_tree(engine.plan(tree).arrays, tables, 3, 3, RULES["dcfr"])
    run_river_cfr(plan.arrays, plan.tree_arrays, vector, 3, 3, RULES["dcfr"])
    assert gap(tables, vector) < TOLERANCE


def test_the_reference_spot():
    """DCFR (alpha 1.5, beta 0, gamma 2, as postflop-solver) on the reference spot: OOP's
    value of the average strategy is within twice its exploitability of the LP's value, and the
    exploitability falls (0.054 after 100 iterations, as the tabular engine's DCFR measured;
    0.0017 after 1,000)."""
    plan = river_plan(river_public())
    public = plan.spot
    assert [len(h) for h in public.hands] == [208, 239]
    assert public.num_infosets == 1788
    rule = UpdateRule(discount=True, alpha=1.5, beta=0.0, gamma=2.0)
    tables = fresh(public.legal_mask.shape)
    run_river_cfr(plan.arrays, plan.tree_arrays, tables, 1, 100, rule)
    hundred = river_exploitability(plan, average_strategy(tables.strategy_sum, public.legal_mask))
    run_river_cfr(plan.arrays, plan.tree_arrays, tables, 101, 1000, rule)
    average = average_strategy(tables.strategy_sum, public.legal_mask)
    exploitability = river_exploitability(plan, average)
    values = np.zeros((len(public.bets.nodes), plan.hands))
    river_values(plan.arrays, average, 0, 1, values)
    value = values[0].sum()
    assert 0.05 < hundred < 0.06
    assert 0 < exploitability < 0.002
    assert abs(value - REFERENCE_VALUE) <= 2 * exploitability
