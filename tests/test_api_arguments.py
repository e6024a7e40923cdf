"""Every public name refuses arguments of the wrong type, saying what was given and what is valid.

A bool is not a player or a count, a float or a string is not a checkpoint or
an iteration, ``None`` or a game's name is not a game.  Each case must raise a
``ValueError`` (never a deep ``AttributeError``, ``TypeError`` or numba typing
error, and never a silent conversion) whose message names the value given.
``test_every_public_name_is_probed`` keeps the table complete as ``cfrviz``
grows.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from _games import Coordination

import cfrviz
from cfrviz.core.tree import build_tree

NAN = float("nan")


@pytest.fixture(scope="module")
def g():
    kuhn = cfrviz.load_game("kuhn_poker")
    coordination = build_tree(Coordination())
    return SimpleNamespace(
        kuhn=kuhn, rps=cfrviz.load_game("rock_paper_scissors"),
        policy=cfrviz.Policy.uniform(kuhn), trace=cfrviz.solve(kuhn, "cfr", 5),
        coordination=coordination, coordination_policy=cfrviz.Policy.uniform(coordination))


def case(name: str, given: str, call, message: str):
    """``call(g)`` must raise a ValueError matching ``message``; ``name`` is the public name."""
    return pytest.param(name, call, message, id=f"{name}({given})")


PLAYER = r"player must be 0 \(player 1\) or 1 \(player 2\); got "
WHOLE = "must be a whole number"

CASES = [
    # -- analysis.evaluation ---------------------------------------------------------------
    *[case("best_response", f"player={p!r}",
           lambda g, p=p: cfrviz.best_response(g.kuhn, g.policy, p), PLAYER + text)
      for p, text in ((True, "True"), (False, "False"), (1.0, "1.0"), ("0", "'0'"),
                      (None, "None"), (NAN, "nan"))],
    case("best_response", "None, policy, 0", lambda g: cfrviz.best_response(None, g.policy, 0),
         "best_response needs a game from cfrviz.load_game.*got 'NoneType'"),
    *[case(name, "None, policy", lambda g, f=name: getattr(cfrviz, f)(None, g.policy),
           f"{name} needs a game from cfrviz.load_game.*got 'NoneType'")
      for name in ("exploitability", "nash_conv", "expected_values", "deviation_gains")],
    *[case(name, "'kuhn_poker', policy",
           lambda g, f=name: getattr(cfrviz, f)("kuhn_poker", g.policy),
           f"{name} needs a game, not its name 'kuhn_poker'.*cfrviz.load_game\\('kuhn_poker'\\)")
      for name in ("exploitability", "nash_conv", "expected_values", "deviation_gains")],
    *[case(name, "kuhn, None", lambda g, f=name: getattr(cfrviz, f)(g.kuhn, None),
           "expected a cfrviz Policy.*got NoneType")
      for name in ("exploitability", "nash_conv", "expected_values", "deviation_gains")],
    case("exploitability", "kuhn, an array",
         lambda g: cfrviz.exploitability(g.kuhn, g.policy.probabilities),
         "expected a cfrviz Policy.*got ndarray"),
    case("exploitability", "a game that is not zero-sum",
         lambda g: cfrviz.exploitability(g.coordination, g.coordination_policy),
         "exploitability needs a two-player zero-sum game; coordination is not zero-sum"),
    # -- analysis.equilibrium ----------------------------------------------------------------
    case("matrix_equilibrium", "None", lambda _g: cfrviz.matrix_equilibrium(None),
         "payoff matrix.*got None"),
    case("matrix_equilibrium", "'ab'", lambda _g: cfrviz.matrix_equilibrium("ab"),
         "payoff matrix.*got 'ab'"),
    case("matrix_equilibrium", "NaN cell",
         lambda _g: cfrviz.matrix_equilibrium([[NAN, 1], [0, 1]]),
         r"finite numbers.*cell \[0\]\[0\] is nan"),
    case("matrix_equilibrium", "bools",
         lambda _g: cfrviz.matrix_equilibrium([[True, False], [False, True]]),
         "numbers, not bools"),
    case("matrix_equilibrium", "0x0", lambda _g: cfrviz.matrix_equilibrium(np.zeros((0, 0))),
         r"at least 1x1 .*got shape \(0, 0\)"),
    # -- solvers.lp ----------------------------------------------------------------------------
    case("exact_equilibrium", "None", lambda _g: cfrviz.exact_equilibrium(None),
         "exact_equilibrium needs a game from cfrviz.load_game"),
    case("exact_equilibrium", "a name", lambda _g: cfrviz.exact_equilibrium("kuhn_poker"),
         "needs a game, not its name 'kuhn_poker'"),
    case("exact_equilibrium", "a game that is not zero-sum",
         lambda g: cfrviz.exact_equilibrium(g.coordination),
         "exact_equilibrium needs a two-player zero-sum game; coordination is not zero-sum"),
    # -- core.policy ---------------------------------------------------------------------------
    case("Policy", "None, probabilities",
         lambda g: cfrviz.Policy(None, g.policy.probabilities),
         "Policy needs a game from cfrviz.load_game.*got 'NoneType'"),
    case("Policy", "'kuhn_poker', probabilities",
         lambda g: cfrviz.Policy("kuhn_poker", g.policy.probabilities),
         "Policy needs a game, not its name 'kuhn_poker'"),
    case("Policy", "kuhn, 'abc'", lambda g: cfrviz.Policy(g.kuhn, "abc"),
         r"needs an array of shape \(12, 2\).*holding numbers; got 'abc'"),
    case("Policy", "kuhn, a bool array",
         lambda g: cfrviz.Policy(g.kuhn, g.kuhn.legal_mask & np.array([True, False])),
         "probabilities must be numbers, not bools"),
    case("Policy", "uniform(None)", lambda _g: cfrviz.Policy.uniform(None),
         "Policy needs a game from cfrviz.load_game"),
    case("Policy", "from_dict(None, {})", lambda _g: cfrviz.Policy.from_dict(None, {}),
         "Policy needs a game from cfrviz.load_game"),
    case("Policy", "from_dict(kuhn, a bool probability)",
         lambda g: cfrviz.Policy.from_dict(g.kuhn, {"J": {"b": True, "p": False}}),
         "information set 'J', action 'p': probability False is not a number"),
    case("Policy", "from_dict(kuhn, a str probability)",
         lambda g: cfrviz.Policy.from_dict(g.kuhn, {"J": {"b": "0.5", "p": "0.5"}}),
         "information set 'J', action 'p': probability '0.5' is not a number"),
    # -- core.regret ---------------------------------------------------------------------------
    case("regret_matching", "None", lambda _g: cfrviz.regret_matching(None),
         "regrets must be an array of numbers.*got None"),
    case("regret_matching", "'ab'", lambda _g: cfrviz.regret_matching("ab"),
         "regrets must be an array of numbers.*got 'ab'"),
    case("regret_matching", "NaN", lambda _g: cfrviz.regret_matching([NAN, 1.0]),
         r"regrets must be finite numbers; got \[nan, 1.0\]"),
    case("regret_matching", "a mask of another shape",
         lambda _g: cfrviz.regret_matching([1.0, 2.0], [True]),
         r"mask must have the regrets' shape \(2,\); got shape \(1,\)"),
    # -- core.trace ----------------------------------------------------------------------------
    *[case("Trace", f"average_policy({it!r})",
           lambda g, it=it: g.trace.average_policy(it), f"iteration {WHOLE}.*got {text}")
      for it, text in ((True, "True"), (3.0, "3.0"), ("3", "'3'"))],
    case("Trace", "current_policy(2.5)", lambda g: g.trace.current_policy(2.5),
         f"iteration {WHOLE}.*got 2.5"),
    # -- games -------------------------------------------------------------------------------
    case("load_game", "None", lambda _g: cfrviz.load_game(None), "unknown game None"),
    case("load_game", "leduc_poker, suits='yes'",
         lambda _g: cfrviz.load_game("leduc_poker", suits="yes"),
         "suits must be True or False; got 'yes'"),
    case("load_game", "file, path=5", lambda _g: cfrviz.load_game("file", path=5),
         "path must be a str or pathlib.Path.*; got 5"),
    case("MatrixGame", "name=5",
         lambda _g: cfrviz.MatrixGame(5, [[1]], ("a",), ("b",)), "name must be a string; got 5"),
    case("MatrixGame", "actions as one string",
         lambda _g: cfrviz.MatrixGame("x", [[1, 2]], "a", "bc"),
         "row_actions must be a tuple of action labels.*got 'a'"),
    case("register_game", "None", lambda _g: cfrviz.register_game(None),
         "register_game takes a cfrviz.games.Game.*got NoneType"),
    # -- io ----------------------------------------------------------------------------------
    case("save_trace", "None", lambda _g: cfrviz.save_trace(None, "unused.npz"),
         "save_trace needs a Trace.*got NoneType"),
    case("load_trace", "''", lambda _g: cfrviz.load_trace(""),
         "load_trace: path must name a file, e.g. 'trace.npz'; got ''"),
    case("game_fingerprint", "None", lambda _g: cfrviz.game_fingerprint(None),
         "cannot fingerprint a NoneType"),
    # -- play.bots -----------------------------------------------------------------------------
    *[case(name, "None", lambda _g, f=name: getattr(cfrviz, f)(None),
           "bots play card games given as game trees")
      for name in ("always_raise", "always_call", "uniform_random", "strong_hands")],
    *[case("strong_hands", f"threshold={t!r}",
           lambda g, t=t: cfrviz.strong_hands(g.kuhn, threshold=t),
           f"threshold must be a finite number; got {text}")
      for t, text in ((True, "True"), ("0.5", "'0.5'"), (NAN, "nan"))],
    case("bot", "strong_hands, threshold=True",
         lambda g: cfrviz.bot(g.kuhn, "strong_hands", threshold=True),
         "threshold must be a finite number; got True"),
    case("bot", "kuhn, None", lambda g: cfrviz.bot(g.kuhn, None), "unknown bot None"),
    # -- play.match ----------------------------------------------------------------------------
    *[case("head_to_head", f"hands={h!r}",
           lambda g, h=h: cfrviz.head_to_head(g.kuhn, g.policy, g.policy, hands=h),
           "hands must be a whole number of deals, at least 2")
      for h in (True, 2.5, "10", None, -1, NAN)],
    *[case("head_to_head", f"seed={s!r}",
           lambda g, s=s: cfrviz.head_to_head(g.kuhn, g.policy, g.policy, hands=10, seed=s),
           "seed must be a non-negative integer")
      for s in (True, 2.5, "1", None, -1)],
    *[case("head_to_head", f"names={n!r}",
           lambda g, n=n: cfrviz.head_to_head(g.kuhn, g.policy, g.policy, hands=10, names=n),
           f"names must be two strings.*got {text}")
      for n, text in ((5, "5"), (("a",), r"\('a',\)"), ("ab", "'ab'"), (("a", 2), r"\('a', 2\)"))],
    case("head_to_head", "None, ...",
         lambda g: cfrviz.head_to_head(None, g.policy, g.policy, hands=10), "needs a game"),
    *[case("round_robin", f"hands={h!r}",
           lambda g, h=h: cfrviz.round_robin(g.kuhn, {"a": g.policy, "b": g.policy}, hands=h),
           "hands must be a whole number of deals")
      for h in (True, 2.5)],
    *[case("round_robin", f"seed={s!r}",
           lambda g, s=s: cfrviz.round_robin(g.kuhn, {"a": g.policy, "b": g.policy}, seed=s),
           "seed must be a non-negative integer")
      for s in (True, -1, None)],
    case("round_robin", "a list of policies",
         lambda g: cfrviz.round_robin(g.kuhn, [g.policy, g.policy]), "must be a dict"),
    # -- solvers (iterations, seed, checkpoints, progress, resume and each algorithm's own
    #    parameters: tests/test_contract.py, for every algorithm) ------------------------------
    case("solve", "None", lambda _g: cfrviz.solve(None, "cfr", 3), "needs a game"),
    case("solve", "'kuhn_poker'", lambda _g: cfrviz.solve("kuhn_poker", "cfr", 3),
         "needs a game, not its name 'kuhn_poker'"),
    case("register_algorithm", "None", lambda _g: cfrviz.register_algorithm(None),
         "register_algorithm takes a cfrviz.solvers.Algorithm.*got NoneType"),
    # -- views ---------------------------------------------------------------------------------
    *[case("plot_tree", f"depth={d!r}", lambda g, d=d: cfrviz.plot_tree(g.kuhn, depth=d),
           f"depth is how many levels.*got {text}")
      for d, text in ((True, "True"), (2.5, "2.5"), ("2", "'2'"), (0, "0"))],
    *[case("plot_tree", f"subtree={s!r}", lambda g, s=s: cfrviz.plot_tree(g.kuhn, subtree=s),
           f"kuhn_poker has no deal or node {text}")
      for s, text in ((True, "True"), (2.5, "2.5"))],
    case("plot_tree", "None", lambda _g: cfrviz.plot_tree(None), "needs a game"),
    case("plot_tree", "widget='yes'", lambda g: cfrviz.plot_tree(g.kuhn, widget="yes"),
         "widget must be True or False; got 'yes'"),
    case("plot_tree", "best_response=True",
         lambda g: cfrviz.plot_tree(g.kuhn, g.policy, best_response=True),
         "best_response takes the player.*got True"),
    case("TreeView", "None", lambda _g: cfrviz.TreeView(None), "needs a game"),
    case("TreeView", "depth=True", lambda g: cfrviz.TreeView(g.kuhn, depth=True),
         "depth is how many levels"),
    *[case("tree_graph", f"nodes={n!r}", lambda g, n=n: cfrviz.tree_graph(g.kuhn, nodes=n),
           f"nodes must be a list of node ids, whole numbers in 0..54; got {text}")
      for n, text in ((5, "5"), ([1.5], "1.5"), ([True], "True"), ([10**6], "1000000"))],
    case("set_presenter", "1", lambda _g: cfrviz.set_presenter(1),
         "set_presenter takes True or False; got 1"),
    *[case("kuhn_equilibrium_figure", f"iteration={it!r}",
           lambda g, it=it: cfrviz.kuhn_equilibrium_figure(g.trace, iteration=it),
           f"iteration {WHOLE} >= 1; got {text}")
      for it, text in ((2.5, "2.5"), (True, "True"), (-1, "-1"))],
    case("kuhn_equilibrium_figure", "labels='a'",
         lambda g: cfrviz.kuhn_equilibrium_figure(g.trace, labels="a"),
         "labels must be a list of strings, one per run; got 'a'"),
    # -- widgets -------------------------------------------------------------------------------
    *[case("explore", f"iterations={it!r}",
           lambda g, it=it: cfrviz.explore(g.kuhn, iterations=it),
           f"iterations {WHOLE} >= 1 and <= 1000000; got {text}")
      for it, text in ((True, "True"), (2.5, "2.5"), ("5", "'5'"), (-1, "-1"))],
    *[case("TrainingExplorer", f"seed={s!r}",
           lambda g, s=s: cfrviz.TrainingExplorer(g.kuhn, seed=s), f"seed {WHOLE} >= 0")
      for s in (True, -1, 2.5)],
    case("explore", "outcome_sampling, epsilon=2.0",
         lambda g: cfrviz.explore(g.kuhn, "outcome_sampling", epsilon=2.0),
         "epsilon must be a finite number > 0 and <= 1; got 2.0"),
    *[case("BestResponseExplorer", f"player={p!r}",
           lambda g, p=p: cfrviz.BestResponseExplorer(g.kuhn, player=p), PLAYER + text)
      for p, text in ((True, "True"), (1.0, "1.0"))],
    case("BestResponseExplorer", "policy='x'",
         lambda g: cfrviz.BestResponseExplorer(g.kuhn, policy="x"),
         "expected a cfrviz Policy.*got str"),
    case("BestResponseExplorer", "None", lambda _g: cfrviz.BestResponseExplorer(None),
         "needs a game"),
    case("PlayTable", "switch_seats='yes'",
         lambda g: cfrviz.PlayTable(g.kuhn, g.policy, switch_seats="yes"),
         "switch_seats must be True or False; got 'yes'"),
    case("PlayTable", "human=True", lambda g: cfrviz.PlayTable(g.kuhn, g.policy, human=True),
         "human must be 0 .player 1. or 1 .player 2.; got True"),
    *[case("play_against", f"iteration={it!r}",
           lambda g, it=it: cfrviz.play_against(g.kuhn, g.trace, iteration=it),
           f"iteration {WHOLE}.*got {text}")
      for it, text in ((True, "True"), (3.0, "3.0"))],
    case("play_tabs", "iterations=[True]",
         lambda g: cfrviz.play_tabs(g.kuhn, g.trace, iterations=[True]),
         f"iteration {WHOLE}.*got True"),
    case("solve", "alpha=10**400", lambda g: cfrviz.solve(g.kuhn, "dcfr", 2, alpha=10**400),
         r"alpha must be a finite number >= 0 and <= 100; got an integer of 401 digits"),
    case("solve", "seed=1 on a seed=0 trace",
         lambda g: cfrviz.solve(g.kuhn, "cfr", 9, seed=1, resume=g.trace),
         r"resume= continues the trace's own random stream, seeded with 0; seed=1 was given"),
    case("round_robin", "names 1 and '1'",
         lambda g: cfrviz.round_robin(g.kuhn, {1: g.policy, "1": g.policy}, hands=2),
         r"each key must be a non-empty string, e\.g\. \{'cfr': policy\}; got the key 1"),
    case("round_robin", "names 'a' and 'a '",
         lambda g: cfrviz.round_robin(g.kuhn, {"a": g.policy, "a ": g.policy}, hands=2),
         r"two policies are both shown as 'a'"),
    case("KuhnEquilibriumView", "labels=5",
         lambda g: cfrviz.KuhnEquilibriumView(g.trace, labels=5),
         "labels must be a list of strings, one per run; got 5"),
    # -- widgets.export (refused before any browser starts) ------------------------------------
    case("export", "None, 'x.png'", lambda _g: cfrviz.export(None, "x.png"),
         "export takes a plotly figure or a cfrviz widget; got NoneType"),
    case("export", "fig, 'x.gif'", lambda _g: cfrviz.export(_figure(), "x.gif"),
         r"cannot tell the format of 'x.gif' from its suffix \.gif"),
    case("export", "fig, 'x', format=1", lambda _g: cfrviz.export(_figure(), "x", 1),
         r"format must be one of \('png', 'svg', 'pdf'\); got 1"),
    case("export", "scale=True", lambda _g: cfrviz.export(_figure(), "x.png", scale=True),
         "scale must be a finite number >= 0.1 and <= 10; got True"),
]


def _figure():
    import plotly.graph_objects as go
    return go.Figure()

#: Public names no case calls, and why.
NOT_CALLED = {
    "BOTS": "a registry (a read-only mapping of the bots), not a function",
    "BestResponse": "the result of best_response, not built by users",
    "MatrixEquilibrium": "the result of matrix_equilibrium, not built by users",
    "ExactEquilibrium": "the result of exact_equilibrium, not built by users",
    "MatchResult": "the result of head_to_head, not built by users",
    "RoundRobin": "the result of round_robin, not built by users",
    "available_algorithms": "takes no arguments (Python refuses any)",
    "available_games": "takes no arguments (Python refuses any)",
}


@pytest.mark.parametrize("name, call, message", CASES)
def test_bad_arguments_are_refused_with_a_message(g, name, call, message):
    assert name in cfrviz.__all__
    with pytest.raises(ValueError, match=message):
        call(g)


def test_every_public_name_is_probed():
    probed = {p.values[0] for p in CASES}
    assert probed <= set(cfrviz.__all__)
    assert set(cfrviz.__all__) - probed - set(NOT_CALLED) == set()


def test_numpy_integers_are_whole_numbers(g):
    """A bool is refused, but a numpy integer (what arrays hold) is a whole number."""
    assert cfrviz.best_response(g.kuhn, g.policy, np.int64(1)).player == 1
    assert type(cfrviz.best_response(g.kuhn, g.policy, np.int64(1)).player) is int
    trace = cfrviz.solve(g.kuhn, "cfr", np.int64(5), seed=np.int64(2),
                         checkpoints=np.array([2, 4]))
    assert trace.iterations.tolist() == [2, 4, 5]
    assert g.trace.average_policy(np.int64(3)).game is g.kuhn


# -- zero-sum: which numbers mean something in a game that is not zero-sum -------------------

def test_exploitability_refuses_a_game_that_is_not_zero_sum(g):
    with pytest.raises(ValueError, match="exploitability needs a two-player zero-sum game; "
                                         "coordination is not zero-sum at history 'a'"):
        cfrviz.exploitability(g.coordination, g.coordination_policy)


def test_nash_conv_expected_values_and_best_response_hold_in_general_sum_games(g):
    """Both players win 1 on 'a' and 0 on 'b'; uniform play earns each 0.5."""
    game, uniform = g.coordination, g.coordination_policy
    assert cfrviz.expected_values(game, uniform) == (0.5, 0.5)
    response = cfrviz.best_response(game, uniform, 0)
    assert response.value == 1.0 and response.policy["only"] == {"a": 1.0, "b": 0.0}
    # Player 1 gains 0.5 by switching to 'a'; player 2 has no decision.
    assert cfrviz.nash_conv(game, uniform) == 0.5
    assert cfrviz.nash_conv(game, response.policy) == 0.0  # an equilibrium


def test_registry_entries_are_checked_when_declared():
    from cfrviz.games import GAMES, Game, register_game
    kuhn = cfrviz.load_game("kuhn_poker")
    with pytest.raises(ValueError, match=r"'toy': aliases must be a tuple of non-empty names, "
                                         r"e\.g\. \('toy'\,\); got 'toy'"):
        Game("toy", lambda: kuhn, "a toy", "toy")
    with pytest.raises(ValueError, match=r"takes \*\*options, whose parameters cannot be "
                                         r"declared from its signature"):
        Game("toy", lambda **options: kuhn)  # noqa: ARG005
    import dataclasses

    from cfrviz.solvers.registry import ALGORITHMS, register_algorithm
    with pytest.raises(ValueError, match=r"algorithm 'toy': aliases must be a tuple of "
                                         r"non-empty names"):
        register_algorithm(dataclasses.replace(ALGORITHMS["cfr"], name="toy", aliases="toy"))
    assert ALGORITHMS.resolve("t") is None
    register_game(Game("toy_list", lambda: [kuhn], "returns a list"))
    try:
        with pytest.raises(ValueError, match=r"game 'toy_list' is registered with a factory "
                                             r"that returned a list, not a game"):
            cfrviz.load_game("toy_list")
    finally:
        GAMES.unregister("toy_list")
