"""CFR for more than two players (engine/multi, reference/multi, solvers/multi) and what is
refused there: the compiled kernel against the readable recursion at every iteration, the
measures against identities that hold for two players, and the two-player-only functions'
refusals."""

import functools

import numpy as np
import pytest
from _tolerance import FOLD, assert_close, assert_iteration_close, magnitude, walk_roundings
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz import engine
from cfrviz.core.regret import average_strategy
from cfrviz.core.tree import build_tree
from cfrviz.engine import multi
from cfrviz.games.kuhn3 import KuhnPokerN
from cfrviz.reference import multi as reference


@pytest.fixture(scope="module")
def kuhn3():
    return cfrviz.load_game("kuhn_poker_3p")


RULES = {"cfr": {}, "cfr+": {"plus": True, "linear_average": True}}
REFERENCE = {"cfr": {}, "cfr+": {"regret_floor": True, "linear_average": True}}


def fresh(tree):
    shape, p = tree.legal_mask.shape, multi.multi_plan(tree)
    return (engine.Tables(*(np.zeros(shape) for _ in range(4))),
            multi.JointPlay(np.zeros((p.players, p.n)), np.zeros(p.players)))


def compiled_iteration(tree, rule, t, step_before):
    """Iteration ``t`` of the compiled kernel, from copies of the reference's state after t-1."""
    tables, joint = fresh(tree)
    if step_before is not None:
        tables.regret_sum[:] = step_before["cumulative_regret"]
        tables.strategy_sum[:] = step_before["strategy_sum"]
        joint.reach_sum[:], joint.value_sum[:] = step_before["joint"]
    p = multi.multi_plan(tree)
    multi.run_multi_full_tree(p.arrays, p.players, tables, t, t, rule, joint)
    return tables, joint


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
@pytest.mark.parametrize("alternating", [True, False])
def test_kernel_matches_the_recursive_reference_every_iteration(kuhn3, algorithm, alternating):
    n = 25
    rule = engine.UpdateRule(alternating=alternating, **RULES[algorithm])
    steps = list(reference.multiplayer_cfr(kuhn3, n, alternating=alternating,
                                           **REFERENCE[algorithm]))
    trace = cfrviz.solve(kuhn3, algorithm, n, alternating=alternating,
                         checkpoints=list(range(1, n + 1)))
    roundings = walk_roundings(kuhn3) + FOLD
    chained, chained_joint = fresh(kuhn3)
    p = multi.multi_plan(kuhn3)
    for k, step in enumerate(steps):
        t = k + 1
        before = steps[k - 1] if k else None
        one, joint = compiled_iteration(kuhn3, rule, t, before)
        regrets = magnitude(kuhn3.utility, step["cumulative_regret"],
                            before["cumulative_regret"] if before else 0.0)
        sums = magnitude(float(t), step["strategy_sum"])
        assert_iteration_close(one, step, regrets=regrets, sums=sums, roundings=roundings,
                               iteration=t)
        assert_close(joint.reach_sum, step["joint"][0], scale=float(t), roundings=roundings,
                     what=f"joint reach, iteration {t}")
        assert_close(joint.value_sum, step["joint"][1], scale=2.0 * t, roundings=roundings,
                     what=f"joint values, iteration {t}")
        # the solver's trace is the compiled kernel's own chained run, bit for bit
        multi.run_multi_full_tree(p.arrays, p.players, chained, t, t, rule, chained_joint)
        assert np.array_equal(trace.cumulative_regret[k], chained.regret_sum)
        assert np.array_equal(trace.average_strategy[k],
                              average_strategy(chained.strategy_sum, kuhn3.legal_mask))
        assert np.array_equal(trace.extras["cce_gaps"][k],
                              multi.coarse_correlated_gaps(kuhn3, chained_joint, t))


def test_a_missing_other_player_in_the_weight_is_caught(kuhn3, monkeypatch):
    """The comparison bites: a reference weighting by chance x one other player (the
    two-player formula) differs from the kernel at the first iteration."""
    def two_player_weight(tree, node, player, reach, strategy, regret, strategy_sum, weight=1.0):
        reach = reach.copy()
        reach[(player + 2) % 3] = 1.0  # forget the second opponent
        return walk(tree, node, player, reach, strategy, regret, strategy_sum, weight)

    walk = reference.walk
    monkeypatch.setattr(reference, "walk", two_player_weight)
    step = next(reference.multiplayer_cfr(kuhn3, 1))
    one, _ = compiled_iteration(kuhn3, engine.UpdateRule(), 1, None)
    with pytest.raises(AssertionError, match="regrets, iteration 1"):
        assert_iteration_close(one, step, regrets=2.0, sums=1.0, roundings=30, iteration=1)


@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("rule", [engine.UpdateRule(), engine.UpdateRule(alternating=False),
                                  engine.UpdateRule(plus=True, linear_average=True),
                                  engine.UpdateRule(discount=True, alpha=1.5, beta=0.0,
                                                    gamma=2.0)])
def test_on_two_players_the_kernel_is_the_two_player_engine_bit_for_bit(game_name, rule):
    tree = cfrviz.load_game(game_name)
    n = 40 if game_name == "kuhn_poker" else 8
    two = engine.Tables(*(np.zeros(tree.legal_mask.shape) for _ in range(4)))
    engine.run_full_tree(engine.plan(tree).arrays, two, 1, n, rule)
    tables, joint = fresh(tree)
    p = multi.multi_plan(tree)
    multi.run_multi_full_tree(p.arrays, p.players, tables, 1, n, rule, joint)
    for mine, theirs in zip(tables, two):
        assert np.array_equal(mine, theirs)


@pytest.mark.parametrize("game_name", ["kuhn_poker", "leduc_poker"])
def test_two_player_identities(game_name):
    """For two players the measures meet the two-player engine: the deviation gains sum to
    NashConv = 2 x exploitability, and with simultaneous updates the two external regrets of
    the joint play sum to the NashConv of the (uniformly) averaged strategies."""
    tree = cfrviz.load_game(game_name)
    n = 50 if game_name == "kuhn_poker" else 10
    tables, joint = fresh(tree)
    p = multi.multi_plan(tree)
    multi.run_multi_full_tree(p.arrays, p.players, tables, 1, n,
                              engine.UpdateRule(alternating=False), joint)
    average = average_strategy(tables.strategy_sum, tree.legal_mask)
    nash_conv = 2 * engine.tree_exploitability(tree, average)
    assert nash_conv > 1e-3  # far from converged: the identities are not 0 = 0
    assert multi.deviation_gains(tree, average).sum() == pytest.approx(nash_conv, abs=1e-12)
    assert multi.coarse_correlated_gaps(tree, joint, n).sum() == pytest.approx(nash_conv,
                                                                               abs=1e-12)
    assert cfrviz.deviation_gains(tree, cfrviz.Policy(tree, average)).sum() == \
        pytest.approx(nash_conv, abs=1e-12)


def test_measures_match_the_reference_and_one_profile_is_its_own_joint_play(kuhn3):
    trace = cfrviz.solve(kuhn3, "cfr", 40, seed=0)
    average = trace.average_strategy[-1]
    assert np.allclose(multi.deviation_gains(kuhn3, average),
                       reference.deviation_gains(kuhn3, average), atol=1e-13)
    steps = list(reference.multiplayer_cfr(kuhn3, 40))
    assert np.allclose(trace.extras["cce_gaps"][-1],
                       reference.coarse_correlated_gaps(kuhn3, *steps[-1]["joint"], 40),
                       atol=1e-13)
    # After one iteration the joint play is one profile: its gaps are that profile's gains.
    first = cfrviz.solve(kuhn3, "cfr", 1, seed=0)
    assert np.allclose(first.extras["cce_gaps"][0],
                       multi.deviation_gains(kuhn3, first.current_strategy[0]), atol=1e-14)
    # A profile's values are what everyone's reach times the payoffs gives.
    rows = reference.reach_rows(kuhn3, average)
    want = (np.prod(rows, axis=0)[:, None] * kuhn3.utility).sum(axis=0)
    assert np.allclose(multi.profile_values(kuhn3, average), want, atol=1e-14)


def test_best_deviation_beats_every_pure_strategy_on_a_sample(kuhn3):
    """The staged best response is the best pure strategy: no pure strategy of a sample of
    500 random ones (each valued by a direct walk) earns more, and its own choice earns it."""
    rng = np.random.default_rng(0)
    average = cfrviz.solve(kuhn3, "cfr", 20, seed=0).average_strategy[-1]
    values = multi.profile_values(kuhn3, average)
    gains = multi.deviation_gains(kuhn3, average)
    for player in range(3):
        best = values[player] + gains[player]
        mine = kuhn3.infoset_player == player
        for _ in range(500):
            pure = average.copy()
            pure[mine] = 0.0
            pure[np.flatnonzero(mine), rng.integers(0, 2, mine.sum())] = 1.0
            assert multi.profile_values(kuhn3, pure)[player] <= best + 1e-12


def test_solve_records_the_measures_and_no_nash_conv_over_two(kuhn3):
    trace = cfrviz.solve(kuhn3, "cfr", 100, seed=0, checkpoints=[10, 100])
    assert np.all(np.isnan(trace.exploitability)) and np.all(np.isnan(
        trace.current_exploitability))
    gains, gaps = trace.extras["deviation_gains"], trace.extras["cce_gaps"]
    assert gains.shape == gaps.shape == (2, 3)
    assert np.array_equal(trace.extras["cce_gap"], gaps.max(axis=1))
    assert np.all(gains[-1] < gains[0])  # CFR's average moves towards no gain to deviate
    assert np.allclose(gains[-1], cfrviz.deviation_gains(kuhn3, trace.average_policy()))
    assert cfrviz.nash_conv(kuhn3, trace.average_policy()) == pytest.approx(gains[-1].sum())
    # asked for no evaluation: no gains, but the gaps are taken live all the same
    quiet = cfrviz.solve(kuhn3, "cfr", 20, seed=0, checkpoints=[])
    assert np.all(np.isnan(quiet.extras["deviation_gains"]))
    assert np.all(np.isfinite(quiet.extras["cce_gaps"]))
    saved = cfrviz.load_trace(cfrviz.save_trace(trace, "/tmp/test_multiplayer_trace.npz"))
    assert np.array_equal(saved.extras["cce_gaps"], gaps)


@pytest.mark.parametrize("algorithm", ["cfr+", "linear_cfr", "dcfr", "pcfr+"])
def test_every_full_tree_variant_runs_on_three_players(kuhn3, algorithm):
    trace = cfrviz.solve(kuhn3, algorithm, 200, seed=0, checkpoints=[10, 200])
    gains = trace.extras["deviation_gains"]
    assert np.all(gains[-1] < gains[0]) and np.all(gains >= -1e-12)


# ----------------------------------------------------------------------------- refusals

TWO_PLAYER = "is defined for two-player games.*; kuhn_poker_3p has 3 players"


@pytest.mark.parametrize("call", [
    lambda g, p: cfrviz.exploitability(g, p),
    lambda g, p: cfrviz.best_response(g, p, 0),
    lambda g, _: cfrviz.exact_equilibrium(g),
    lambda g, p: cfrviz.analysis.evaluation.reach_probabilities(g, p),
    lambda g, _: cfrviz.solve(g, "external_sampling", 10),
    lambda g, _: cfrviz.solve(g, "outcome_sampling", 10),
    lambda g, _: cfrviz.solve(g, "chance_sampling", 10),
    lambda g, p: cfrviz.head_to_head(g, p, p, hands=10, seed=0),
], ids=["exploitability", "best_response", "exact_equilibrium", "reach_probabilities",
        "external_sampling", "outcome_sampling", "chance_sampling", "head_to_head"])
def test_two_player_only_functions_refuse_three_players_and_say_why(kuhn3, call):
    policy = cfrviz.Policy.uniform(kuhn3)
    with pytest.raises(ValueError, match=TWO_PLAYER):
        call(kuhn3, policy)


def test_the_refusal_says_what_to_use_instead(kuhn3):
    with pytest.raises(ValueError, match=r"exploitability as NashConv / 2 is defined for "
                                         r"two-player games .* use cfrviz.deviation_gains"):
        cfrviz.exploitability(kuhn3, cfrviz.Policy.uniform(kuhn3))
    with pytest.raises(ValueError, match=r"use a full-tree algorithm, e.g. "
                                         r"cfrviz.solve\(game, 'cfr', n\)"):
        cfrviz.solve(kuhn3, "external_sampling", 10)
    with pytest.raises(ValueError, match="has 3 players, whose kernels are in "
                                         "cfrviz.engine.multi"):
        engine.plan(kuhn3)


def test_resume_is_refused_for_three_players(kuhn3):
    trace = cfrviz.solve(kuhn3, "cfr", 10, seed=0)
    with pytest.raises(ValueError, match="resume= is not available for cfr on kuhn_poker_3p"):
        cfrviz.solve(kuhn3, "cfr", 20, seed=0, resume=trace)


def test_matrix_games_get_their_deviation_gains():
    rps = cfrviz.load_game("rock_paper_scissors")
    policy = cfrviz.Policy(rps, np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]))
    # both play rock: paper gains 1 for either player
    assert cfrviz.deviation_gains(rps, policy) == pytest.approx([1.0, 1.0])


# ----------------------------------------------------------------------------- views, widgets

def test_the_deviation_figure_draws_each_player_and_the_gap_legibly(kuhn3):
    from test_legibility import drawn_lines, legend_entries, text_sizes

    from cfrviz.views import deviation_figure
    from cfrviz.views.style import MIN_FONT_PX, MIN_LINE_PX, PLAIN, PLAYER_COLOURS, presenting

    trace = cfrviz.solve(kuhn3, "cfr", 300, seed=0, checkpoints=[1, 3, 10, 30, 100, 300])
    for presenter in (False, True):
        with presenting(presenter):
            fig = deviation_figure(trace)
        assert [t.name for t in fig.data] == [
            "player 1 gains by deviating from the average",
            "player 2 gains by deviating from the average",
            "player 3 gains by deviating from the average",
            "coarse-correlated gap of the joint play"]
        assert fig.layout.xaxis.type == fig.layout.yaxis.type == "log"
        assert [t.line.color for t in fig.data[:3]] == list(PLAYER_COLOURS[:3])
        for k in range(3):
            drawn = np.array([np.nan if v is None else v for v in fig.data[k].y], dtype=float)
            assert np.allclose(drawn, trace.extras["deviation_gains"][:, k], rtol=1e-15)
        assert fig.layout.template == PLAIN
        assert min(text_sizes(fig).values()) >= MIN_FONT_PX
        assert min(drawn_lines(fig).values()) >= MIN_LINE_PX
        looks = [look for _, look in legend_entries(fig)]
        assert len(set(looks)) == len(looks)  # no two entries look the same
    # a gap at or below zero has no place on a log axis: left out, not faked
    negative = cfrviz.solve(kuhn3, "cfr", 30, seed=0, checkpoints=[30])
    object.__setattr__(negative, "extras", dict(negative.extras, cce_gap=np.array([-1e-3])))
    assert deviation_figure(negative).data[3].y == (None,)


def test_the_deviation_figure_refuses_a_two_player_run(kuhn):
    from cfrviz.views import deviation_figure

    with pytest.raises(ValueError, match="a two-player run's measure is its exploitability"):
        deviation_figure(cfrviz.solve(kuhn, "cfr", 10))


def test_plot_tree_draws_the_third_player(kuhn3):
    from cfrviz.views.style import PLAYER_COLOURS, ROLE_SYMBOLS

    fig = cfrviz.plot_tree(kuhn3, subtree="JQK")
    third = next(t for t in fig.data if t.name == "player 3 (hexagon)")
    assert len(third.x) == 4 and third.marker.color == PLAYER_COLOURS[2]
    assert third.marker.symbol == ROLE_SYMBOLS["player 3"] and set(third.text) == {"3"}
    assert all("<b>player 3</b>" in h for h in third.hovertext)
    terminals = next(t for t in fig.data if t.name == "terminal (payoffs to players 1–3)")
    assert "-2,-2,+4" in terminals.text  # JQK:bbb, every payoff shown
    assert any("payoffs: player 1 -2, player 2 -2, player 3 +4" in h
               for h in terminals.hovertext)
    # two-player figures keep their roles and payoff text
    kuhn = cfrviz.load_game("kuhn_poker")
    names = [t.name for t in cfrviz.plot_tree(kuhn).data]
    assert "player 3 (hexagon)" not in names and "terminal (payoff to player 1)" in names


@pytest.mark.parametrize("make", [lambda g: cfrviz.explore(g),
                                  lambda g: cfrviz.BestResponseExplorer(g),
                                  lambda g: cfrviz.play_against(g, cfrviz.solve(g, "cfr", 5))],
                         ids=["explore", "best_response_explorer", "play_against"])
def test_two_player_widgets_refuse_three_players(kuhn3, make):
    with pytest.raises(ValueError, match=TWO_PLAYER):
        make(kuhn3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_random_profiles_gains_are_non_negative_and_match_the_reference(seed, players):
    """Any profile, on Kuhn poker for three or four players: the compiled gains equal the
    recursive reference's, are never below zero, and the values sum to zero (zero-sum)."""
    tree = _kuhn_for(players)
    rng = np.random.default_rng(seed)
    table = rng.random(tree.legal_mask.shape) ** 3 * tree.legal_mask
    table /= table.sum(axis=1, keepdims=True)
    gains = multi.deviation_gains(tree, table)
    assert np.allclose(gains, reference.deviation_gains(tree, table), atol=1e-13)
    assert np.all(gains >= -1e-13)
    assert abs(multi.profile_values(tree, table).sum()) < 1e-13


@functools.cache
def _kuhn_for(players):
    return build_tree(KuhnPokerN(players))


def test_the_kuhn_equilibrium_view_names_the_players(kuhn3):
    with pytest.raises(ValueError, match="kuhn_poker_3p has 3 players .*deviation_figure"):
        cfrviz.kuhn_equilibrium_figure([cfrviz.solve(kuhn3, "cfr", 5)])
