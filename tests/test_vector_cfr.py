"""Vector-form CFR over the public tree: the tabular engine's iterates, a correct prefix sum,
and the algorithm as cfrviz.solve runs it."""

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pytest
from test_public_tree import CoinGame, RaceGame

import cfrviz
from cfrviz import engine
from cfrviz.core.tree import CHANCE, build_tree
from cfrviz.engine.cfr import Tables, UpdateRule
from cfrviz.engine.vector_cfr import VectorPlan, run_vector_cfr, vector_plan

RULES = {
    "cfr": UpdateRule(),
    "simultaneous": UpdateRule(alternating=False),
    "cfr+": UpdateRule(plus=True, linear_average=True),
    "linear": UpdateRule(discount=True),
    "dcfr": UpdateRule(discount=True, alpha=1.5, beta=0.0, gamma=2.0),
    "pcfr+": UpdateRule(plus=True, predictive=True, linear_average=True, average_power=2.0),
}
TOLERANCE = 1e-12


def fresh(tree):
    return Tables(*(np.zeros(tree.legal_mask.shape) for _ in range(4)))


def copy(tables):
    return Tables(*(table.copy() for table in tables))


def gap(a, b):
    """Worst difference over the four tables, each relative to its own size (at least 1)."""
    return max(np.abs(x - y).max() / max(1.0, np.abs(x).max()) for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class SumPoker:
    """A card game built for the prefix sum's hard cases: six cards (ranks 1, 1, 2, 2, 3, 3),
    two private cards each, so hands share cards (card removal) and tie (equal sums).  Player
    1 checks or bets 1; after a bet player 2 folds or calls; the larger sum of ranks wins."""

    dealt: tuple[tuple[int, int], ...] = ()
    moves: str = ""

    def is_terminal(self):
        return self.moves in ("c", "bf", "bc")

    def current_player(self):
        return CHANCE if len(self.dealt) < 2 else len(self.moves)

    def legal_actions(self):
        return ("c", "b") if not self.moves else ("f", "c")

    def chance_outcomes(self):
        used = {card for hand in self.dealt for card in hand}
        hands = list(combinations([c for c in range(6) if c not in used], 2))
        return tuple((f"{a}{b}", 1 / len(hands)) for a, b in hands)

    def child(self, action):
        if len(self.dealt) < 2:
            return SumPoker((*self.dealt, (int(action[0]), int(action[1]))))
        return SumPoker(self.dealt, self.moves + action)

    def returns(self):
        if self.moves == "bf":
            return (1.0, -1.0)
        pot = 1.0 if self.moves == "c" else 2.0
        mine, theirs = (sum(c // 2 + 1 for c in hand) for hand in self.dealt)
        u = pot * np.sign(mine - theirs)
        return (float(u), float(-u))

    def infoset_key(self):
        return f"{self.dealt[len(self.moves)]}:{self.moves}"

    def history(self):
        return f"{self.dealt}:{self.moves}"


class SumPokerGame:
    name = "sum_poker"

    def initial_state(self):
        return SumPoker()


GAMES = {
    "kuhn": (lambda: cfrviz.load_game("kuhn_poker"), 200),
    "leduc": (lambda: cfrviz.load_game("leduc_poker"), 60),
    "leduc_suits": (lambda: cfrviz.load_game("leduc_poker", suits=True), 15),
    "pocket": (lambda: cfrviz.load_game("pocket_poker"), 10),
    "sum_poker": (lambda: build_tree(SumPokerGame()), 100),
    "race": (lambda: build_tree(RaceGame()), 30),  # no private information: one hand a side
    "coin": (lambda: build_tree(CoinGame()), 30),  # a public coin, then the deal: two roots
}


#: The larger games run every rule in the slow suite; vanilla CFR on them runs in the quick one.
CASES = [pytest.param(game, rule, marks=[pytest.mark.slow] * (
    game in ("leduc_suits", "pocket") and rule != "cfr")) for game in GAMES for rule in RULES]


@pytest.mark.parametrize(("game", "rule"), CASES)
def test_each_iteration_is_the_tabular_engines(game, rule):
    """At every iteration, from the tabular engine's tables, one vector iteration gives the
    tabular engine's regrets, strategy sums, current strategy and last regrets to 1e-12
    (measured: at most 2.4e-15 over these games and rules)."""
    make, iterations = GAMES[game]
    tree = make()
    vp = vector_plan(tree)
    tabular = fresh(tree)
    worst = 0.0
    for t in range(1, iterations + 1):
        vector = copy(tabular)
        engine.run_full_tree(engine.plan(tree).arrays, tabular, t, t, RULES[rule])
        run_vector_cfr(vp.arrays, vp.tree_arrays, vector, t, t, RULES[rule])
        worst = max(worst, gap(tabular, vector))
    assert worst < TOLERANCE


@pytest.mark.parametrize(("game", "iterations"), [("leduc_poker", 60), ("pocket_poker", 60)])
def test_whole_runs_agree(game, iterations):
    """Through cfrviz.solve, whole runs of "vector_cfr" and "cfr" agree at every iteration.

    Not every run does: rounding differs in the last bits, and regret matching is
    discontinuous where a set's regrets are all <= 0.  On Kuhn poker the tabular engine sums
    one set's (Qp) cumulative regret to exactly 0 at iteration 2 and the vector form to
    1.4e-17, so their third strategies differ (uniform against pure) and the runs part; on
    Leduc the last bits grow past 1e-12 after ~60 iterations (the test above starts each
    iteration afresh from the tabular tables for that reason).
    """
    tree = cfrviz.load_game(game)
    schedule = list(range(1, iterations + 1))
    a = cfrviz.solve(tree, "vector_cfr", iterations, checkpoints=schedule, progress=False)
    b = cfrviz.solve(tree, "cfr", iterations, checkpoints=schedule, progress=False)
    for name in ("cumulative_regret", "instantaneous_regret", "average_strategy",
                 "current_strategy"):
        x, y = getattr(a, name), getattr(b, name)
        assert np.abs(x - y).max() / max(1.0, np.abs(y).max()) < TOLERANCE, name
    assert np.allclose(a.exploitability, b.exploitability, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("game", GAMES)
def test_sorted_prefix_sum_and_sum_over_deals_both_give_the_tabular_iterates(game):
    """Every public leaf computed by the sorted prefix sum (chance's probabilities factored per
    hand, the deals the product misses corrected one by one), or every leaf summed over its
    deals: each iteration from the tabular tables gives the tabular engine's tables."""
    make, iterations = GAMES[game]
    tree = make()
    plans = {leaves: VectorPlan(tree, leaves) for leaves in ("sorted", "sparse")}
    # every leaf that pays one pot by a ranking (the coin game's payoffs do not, at half)
    assert plans["sorted"].sorted_leaves == plans["sorted"].leaves // (2 if game == "coin" else 1)
    assert plans["sparse"].sorted_leaves == 0
    tabular, worst = fresh(tree), dict.fromkeys(plans, 0.0)
    for t in range(1, min(iterations, 30) + 1):
        runs = {leaves: copy(tabular) for leaves in plans}
        engine.run_full_tree(engine.plan(tree).arrays, tabular, t, t, UpdateRule())
        for leaves, vp in plans.items():
            run_vector_cfr(vp.arrays, vp.tree_arrays, runs[leaves], t, t, UpdateRule())
            worst[leaves] = max(worst[leaves], gap(tabular, runs[leaves]))
    assert max(worst.values()) < TOLERANCE, worst


def test_card_removal_is_exercised():
    """SumPoker's hands share cards: the prefix sum has deals to correct, and ties."""
    vp = VectorPlan(build_tree(SumPokerGame()), "sorted")
    assert vp.sorted_leaves == 3 and len(vp.arrays.exc_other) > 0
    leaf = int(np.flatnonzero(vp.arrays.kind == 2)[0])
    assert len(set(vp.arrays.rank[leaf, 0].tolist())) < len(vp.arrays.rank[leaf, 0])


def test_each_leaf_takes_the_cheaper_sum():
    """By default a leaf uses the prefix sum when it reads fewer numbers than its deals: not
    in Kuhn or Leduc (three hands a side), everywhere in pocket poker and larger Leduc."""
    for name, params, expected in (("kuhn_poker", {}, 0), ("leduc_poker", {}, 0),
                                   ("leduc_poker", {"suits": True}, 274),
                                   ("pocket_poker", {}, 45)):
        vp = vector_plan(cfrviz.load_game(name, **params))
        assert vp.sorted_leaves == expected
    with pytest.raises(ValueError, match="leaves must be 'auto', 'sorted' or 'sparse'"):
        VectorPlan(cfrviz.load_game("kuhn_poker"), "fast")


def test_registered_and_refusing_games_without_a_public_tree():
    kuhn = cfrviz.load_game("kuhn_poker")
    assert "vector_cfr" in cfrviz.available_algorithms()
    from cfrviz.solvers import ALGORITHMS
    assert ALGORITHMS.resolve("vector") == "vector_cfr"
    trace = cfrviz.solve(kuhn, "vector_cfr", 300, progress=False, alternating=False)
    assert trace.params["alternating"] is False
    assert trace.exploitability[-1] < trace.exploitability[0] / 10  # 0.0135 (from 0.46)
    tabular = cfrviz.solve(kuhn, "cfr", 300, progress=False, alternating=False)
    assert np.abs(trace.average_strategy[-1] - tabular.average_strategy[-1]).max() < TOLERANCE
    with pytest.raises(ValueError, match="vector_cfr sweeps the public tree: .* not all public"):
        cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "vector_cfr", 10)
    with pytest.raises(ValueError, match="two-player"):
        cfrviz.solve(cfrviz.load_game("kuhn_poker_3p"), "vector_cfr", 10)


@pytest.mark.parametrize(("game", "iterations"), [("kuhn", 50), ("leduc", 15), ("sum_poker", 30)])
@pytest.mark.parametrize("alternating", [True, False])
def test_kernel_matches_the_readable_version(game, iterations, alternating):
    """Each compiled iteration, run from the readable version's tables, gives its next tables
    to 1e-12; and the readable version's first iteration is tabular CFR's (vanilla_cfr)."""
    from cfrviz.reference import vanilla_cfr
    from cfrviz.reference.vector_cfr import vector_cfr

    tree = GAMES[game][0]()
    vp = vector_plan(tree)
    rule = UpdateRule(alternating=alternating)
    before = fresh(tree)
    worst = 0.0
    for t, step in enumerate(vector_cfr(tree, iterations, alternating), start=1):
        run_vector_cfr(vp.arrays, vp.tree_arrays, before, t, t, rule)
        readable = (step["cumulative_regret"], step["strategy_sum"], step["strategy"])
        worst = max(worst, gap(readable, before[:3]))
        before = Tables(step["cumulative_regret"].copy(), step["strategy_sum"].copy(),
                        step["strategy"].copy(), np.zeros(tree.legal_mask.shape))
    assert worst < TOLERANCE
    first = next(vanilla_cfr(tree, 1, alternating))
    mine = next(vector_cfr(tree, 1, alternating))
    for key in ("cumulative_regret", "strategy_sum", "regret"):
        assert np.abs(first[key] - mine[key]).max() < TOLERANCE, key


def test_readable_showdown_prefix_sum():
    from cfrviz.reference.vector_cfr import showdown_values

    rng = np.random.default_rng(0)
    for _ in range(20):
        mine, theirs = rng.integers(0, 6, 9), rng.integers(0, 6, 7)
        their_range = rng.random(7)
        table = np.sign(mine[:, None] - theirs[None, :])  # the hands x hands way
        assert np.allclose(showdown_values(mine, theirs, their_range), table @ their_range)
