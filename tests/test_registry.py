"""One registration makes a game or an algorithm available everywhere (cfrviz.core.registry)."""

import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.core.registry import Param, Registry
from cfrviz.core.regret import regret_matching
from cfrviz.core.trace import SolverState
from cfrviz.core.tree import as_tree
from cfrviz.engine import counterfactual_table
from cfrviz.games import GAMES, Game, register_game
from cfrviz.solvers import ALGORITHMS, Algorithm, register_algorithm
from cfrviz.solvers.driver import drive, tree_stepper
from cfrviz.widgets.explorer import explore

ROOT = Path(__file__).resolve().parent.parent


def _damped_cfr(request):
    """A toy plug-in, as docs/ARCHITECTURE.md's recipe writes one: a stepper and a registration.

    Vanilla CFR with simultaneous updates, in numpy, whose cumulative regrets are multiplied
    by ``1 - damping`` before each iteration's are added (``damping=0`` is vanilla CFR).
    """
    tree = as_tree(request.game, request.name)
    mask, owner, damping = tree.legal_mask, tree.infoset_player, request.params["damping"]

    def step(state, first, last):
        for _ in range(first, last + 1):
            sigma = regret_matching(state.regret_sum, mask)
            tables = [counterfactual_table(tree, sigma, p) for p in range(2)]
            mine = [owner == p for p in range(2)]
            regrets = np.select([m[:, None] for m in mine],
                                [t["action_values"] - t["value"][:, None] for t in tables])
            reach = np.select(mine, [t["own_reach"] for t in tables])
            state.current, state.instant = sigma, np.where(mask, regrets, 0.0)
            state.regret_sum = (1 - damping) * state.regret_sum + state.instant
            state.strategy_sum += reach[:, None] * sigma
        return tree.num_nodes * (last - first + 1)

    return drive(request, tree_stepper(request, tree, SolverState.fresh(tree), step))


@pytest.fixture
def toy_algorithm():
    entry = register_algorithm(Algorithm(
        "toy_cfr", "toy CFR", "full_tree", _damped_cfr,
        (Param("damping", 0.0, "float", 0.0, 1.0, help="how much of the past regrets to forget"),),
        summary="a test plug-in", aliases=("toy",)))
    yield entry
    ALGORITHMS.unregister("toy_cfr")


def _bench_module():
    """benchmarks/bench_solvers.py, imported as the benchmark runs it (its folder on the path)."""
    folder = str(ROOT / "benchmarks")
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location("bench_solvers_under_test",
                                                      ROOT / "benchmarks" / "bench_solvers.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up by name
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(folder)


@pytest.mark.usefixtures("toy_algorithm")
def test_a_registered_algorithm_is_available_everywhere():
    kuhn = cfrviz.load_game("kuhn_poker")
    assert "toy_cfr" in cfrviz.available_algorithms()
    # damping=0: vanilla CFR with simultaneous updates, as the compiled engine computes it
    trace = cfrviz.solve(kuhn, "toy_cfr", 20)
    engine = cfrviz.solve(kuhn, "cfr", 20, alternating=False)
    assert trace.params == {"damping": 0.0, "interrupted": False, "seed": 0, "iterations": 20}
    for name in ("cumulative_regret", "current_strategy", "average_strategy", "exploitability"):
        np.testing.assert_allclose(getattr(trace, name), getattr(engine, name), atol=1e-12,
                                   err_msg=name)
    damped = cfrviz.solve(kuhn, "toy_cfr", 20, damping=0.5, checkpoints=[10])
    assert damped.params["damping"] == 0.5 and damped.iterations.tolist() == [10, 20]
    assert not np.allclose(damped.cumulative_regret[-1], trace.cumulative_regret[-1])
    with pytest.raises(ValueError, match="damping must be a finite number >= 0 and <= 1"):
        cfrviz.solve(kuhn, "toy_cfr", 20, damping=2.0)
    with pytest.raises(ValueError, match="takes no parameter 'alpha'; it accepts: damping, "
                                         "progress, resume"):
        cfrviz.solve(kuhn, "toy_cfr", 20, alpha=1.0)

    ex = explore(kuhn, "toy_cfr", iterations=10, damping=0.75)
    assert "toy_cfr" in [value for _, value in ex.algorithm.options]
    assert ex.control("damping").value == 0.75
    ex.control("damping").value = 0.5
    ex.solve()
    assert ex.last_error is None and ex.trace.params["damping"] == 0.5

    assert "toy_cfr" in _bench_module().algorithms()


@pytest.mark.usefixtures("toy_algorithm")
def test_explain_and_checkers_read_the_registry():
    from cfrviz.analysis.explain import infoset_snapshot
    from cfrviz.exercises import lesson07

    kuhn = cfrviz.load_game("kuhn_poker")
    assert infoset_snapshot(cfrviz.solve(kuhn, "toy_cfr", 5), 3, "K").exact
    assert not infoset_snapshot(cfrviz.solve(kuhn, "external_sampling", 5), 3, "K").exact
    # aliases students write are the registry's
    assert ALGORITHMS.resolve("ES") == "external_sampling"
    assert ALGORITHMS.resolve("Vanilla CFR") == "cfr" and ALGORITHMS.resolve("toy") == "toy_cfr"
    assert lesson07.check_fewest_nodes(["os", "es", "cs", "vanilla"]).status == "correct"


def test_a_registered_game_loads_by_name():
    def tiny_matrix(payoff: float = 1.0):
        return cfrviz.MatrixGame("tiny_matrix", [[payoff, -payoff], [-payoff, payoff]],
                                 ("H", "T"), ("H", "T"))

    register_game(Game("tiny_matrix", tiny_matrix, "matching pennies, scaled"))
    try:
        assert "tiny_matrix" in cfrviz.available_games()
        game = cfrviz.load_game("tiny_matrix", payoff=2.0)
        assert game.payoffs[0, 0] == 2.0
        with pytest.raises(ValueError, match="game 'tiny_matrix' takes no parameter 'size'"):
            cfrviz.load_game("tiny_matrix", size=3)
        trace = cfrviz.solve(game, "regret_matching", 2000)
        assert trace.exploitability[-1] < 0.1
    finally:
        GAMES.unregister("tiny_matrix")
    assert "tiny_matrix" not in cfrviz.available_games()


def test_registry_refuses_clashes_and_explains_lookups():
    registry = Registry("widget", "make")
    registry.register(Game("one", lambda: None, aliases=("uno",)))
    with pytest.raises(ValueError, match="already registered"):
        registry.register(Game("one", lambda: None))
    with pytest.raises(ValueError, match="widget name 'UNO' is already taken by 'one'"):
        registry.register(Game("two", lambda: None, aliases=("UNO",)))
    with pytest.raises(ValueError, match=r"unknown widget 'uno' \(did you mean 'one'\?\); "
                                         r"available widgets: one"):
        registry.lookup("uno")
    with pytest.raises(ValueError, match="make\\('needs', size=...\\)"):
        registry.check_params(registry.register(Game("needs", lambda size: size)), {})


@pytest.mark.parametrize("param, value, message", [
    (Param("n", 1, "int", 1, 10), 0, "n must be a whole number >= 1 and <= 10; got 0"),
    (Param("n", 1, "int", 1, 10), 2.5, "whole number"),
    (Param("x", 0.5, "float", 0.0, 1.0, low_open=True), 0.0, "> 0 and <= 1"),
    (Param("x", 0.5, "float"), math.nan, "finite number; got nan"),
    (Param("x", 0.5, "float"), True, "finite number; got True"),
    (Param("flag", True, "bool"), 1, "flag must be True or False"),
    (Param("mode", "a", "choice", choices=("a", "b")), "c", r"mode must be one of \('a', 'b'\)"),
])
def test_param_checks_say_what_is_valid(param, value, message):
    with pytest.raises(ValueError, match=message):
        param.check(value)


def test_every_registered_parameter_has_a_valid_default_and_help():
    for entry in ALGORITHMS.values():
        assert entry.summary and entry.paper, entry.name
        for param in entry.params:
            assert param.help, (entry.name, param.name)
            assert param.check(param.default) == param.default or param.kind == "any"


def test_start_only_parameters_are_passed_but_not_recorded():
    rps = cfrviz.load_game("rock_paper_scissors")
    start = cfrviz.solve(rps, "regret_matching", 50, initial_regrets={"P1": [1, 0, 0]})
    assert start.params == {"opponent": None, "update": "expected", "interrupted": False,
                            "seed": 0, "iterations": 50}
    assert start.current_strategy[0, 0].tolist() == [1.0, 0.0, 0.0]  # it did start there
    resumed = cfrviz.solve(rps, "regret_matching", 80, resume=start)  # settings match
    assert resumed.iterations[-1] == 80
    with pytest.raises(ValueError, match="start_only names 'nope', which is not one of its"):
        Algorithm("bad", "bad", "full_tree", _damped_cfr, start_only=("nope",))
