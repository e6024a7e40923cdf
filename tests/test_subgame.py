"""Subgame solving (cfrviz.solvers.subgame): the gadget's input, the three re-solvers, safety."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.games.public import public_tree
from cfrviz.solvers import subgame as sg
from cfrviz.solvers import subtrees

#: Rounding allowed on top of the proven bound (sums of a few thousand products of numbers <= 13).
ROUNDING = 1e-9


def _blueprint(game, kind: str, seed: int = 0) -> cfrviz.Policy:
    """A short CFR run, the uniform strategy, or a random (deliberately weak) one."""
    if kind.startswith("cfr"):
        n = int(kind[3:])
        return cfrviz.solve(game, "cfr", n, checkpoints=[n]).average_policy()
    if kind == "uniform":
        return cfrviz.Policy.uniform(game)
    rng = np.random.default_rng(seed)
    table = rng.dirichlet(np.ones(game.max_actions), size=game.num_infosets) * game.legal_mask
    return cfrviz.Policy(game, table / table.sum(axis=1, keepdims=True))


def _live_states(game) -> list[str]:
    """Public states after the deal below which someone still acts (a terminal state has
    nothing to re-solve)."""
    return [s.history for s in public_tree(game).states if s.dealt and s.kind != "terminal"]


# ---------------------------------------------------------------- the gadget's input

@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_root_values_at_the_deal_sum_to_the_best_response(name, request):
    game = request.getfixturevalue(name)
    bp = _blueprint(game, "cfr20")
    for player in (0, 1):
        rv = sg.root_values(game, bp, "deal", player)
        assert rv.cbv.sum() == pytest.approx(cfrviz.best_response(game, bp, player).value,
                                             abs=1e-12)
        assert rv.weight.sum() == pytest.approx(1.0)  # chance and a player's whole range


def test_root_values_by_hand_in_kuhn_after_a_bet(kuhn):
    """Player 2 facing a bet acts once, so CBV(I) = max over its two actions of
    sum_h pi_-2(h) u_2(h, a), computed here from the tree by hand."""
    bp = _blueprint(kuhn, "random", seed=3)
    rv = sg.root_values(kuhn, bp, "deal/b", 1)
    roots = public_tree(kuhn).find("deal/b").nodes
    for hand, name in enumerate(rv.hands):
        total = {0: 0.0, 1: 0.0}
        weight = 0.0
        for h in roots[rv.hand_of_root == hand]:
            deal = kuhn.parent[h]
            w = kuhn.chance_prob[deal] * bp[kuhn.infoset_keys[kuhn.infoset[deal]]]["b"]
            weight += w
            for a, child in enumerate(kuhn.children[h]):
                total[a] += w * kuhn.utility[child, 1]
        assert name == kuhn.infoset_keys[kuhn.infoset[h]][0]  # the card player 2 holds
        assert rv.weight[hand] == pytest.approx(weight, abs=1e-15)
        assert rv.cbv[hand] == pytest.approx(max(total.values()), abs=1e-15)
        assert rv.value[hand] == pytest.approx(max(total.values()) / weight, abs=1e-14)


def test_root_values_of_an_unreached_hand_are_zero_and_nan(kuhn):
    # Player 1 never bets the jack: player 2's values after a bet hold no jack history weight.
    bp = cfrviz.Policy.from_dict(kuhn, {"J": {"p": 1.0, "b": 0.0}, "Q": {"p": 1, "b": 0},
                                        "K": {"p": 0.0, "b": 1.0}})
    rv = sg.root_values(kuhn, bp, "deal/b", 1)
    unreached = [i for i, h in enumerate(rv.hands) if rv.weight[i] == 0]
    assert len(unreached) == 1  # only the king bets; player 2 holding the king faces no bet
    assert rv.cbv[unreached[0]] == 0 and np.isnan(rv.value[unreached[0]])


# ---------------------------------------------------------------- re-solving

def test_resolve_keeps_the_blueprint_outside_the_subgame(leduc):
    bp = _blueprint(leduc, "cfr30")
    state = "deal/r/c/Q"
    nodes = public_tree(leduc).find(state).nodes
    inside = np.zeros(leduc.num_nodes, dtype=bool)
    for r in nodes:
        inside[r:subtrees.subtree_end(leduc)[r]] = True
    sets = np.unique(leduc.infoset[inside & (leduc.infoset >= 0)])
    for method in sg.METHODS:
        r = sg.resolve(leduc, bp, state, method, 300)
        same = np.all(r.policy.probabilities == bp.probabilities, axis=1)
        assert same[np.setdiff1d(np.arange(leduc.num_infosets), sets)].all()
        assert not same[sets].all()  # the subgame did change
        assert r.blueprint_exploitability == pytest.approx(cfrviz.exploitability(leduc, bp))
        assert r.exploitability == pytest.approx(cfrviz.exploitability(leduc, r.policy))


def test_unsafe_resolving_can_raise_exploitability(kuhn, leduc):
    """The recorded counterexamples (found by searching every non-terminal public state against
    CFR blueprints of 10, 30 and 100 iterations and the uniform strategy)."""
    r = sg.resolve(kuhn, _blueprint(kuhn, "cfr10"), "deal/b", "unsafe", 1000)
    assert r.blueprint_exploitability == pytest.approx(0.0687, abs=1e-4)
    assert r.exploitability == pytest.approx(0.1520, abs=1e-3)
    r = sg.resolve(leduc, _blueprint(leduc, "cfr30"), "deal/r/r/c/Q/r", "unsafe", 1000)
    assert r.blueprint_exploitability == pytest.approx(0.3109, abs=1e-4)
    assert r.exploitability > r.blueprint_exploitability + 0.15  # measured 0.504
    for method in ("resolve", "maxmargin"):
        safe = sg.resolve(leduc, _blueprint(leduc, "cfr30"), "deal/r/r/c/Q/r", method, 1000)
        assert safe.exploitability <= safe.blueprint_exploitability + safe.bound + ROUNDING


def test_maxmargin_improves_where_the_gadget_only_matches(leduc):
    """Max-margin pushes every root set's margin up; the re-solve gadget need not."""
    bp = _blueprint(leduc, "cfr30")
    gadget = sg.resolve(leduc, bp, "deal", "resolve", 1000)
    margin = sg.resolve(leduc, bp, "deal", "maxmargin", 1000)
    assert margin.exploitability < 0.2 * bp_expl(leduc, bp)  # measured 0.026 from 0.311
    assert gadget.exploitability <= gadget.blueprint_exploitability + gadget.bound + ROUNDING


def bp_expl(game, bp) -> float:
    return float(cfrviz.exploitability(game, bp))


def _check_safe(game, bp, state, method, iterations=300):
    r = sg.resolve(game, bp, state, method, iterations)
    assert all(t >= -1e-12 for t in r.solve_exploitability)
    assert r.exploitability <= r.blueprint_exploitability + r.bound + ROUNDING, (
        f"{method} at {state!r}: {r.blueprint_exploitability} -> {r.exploitability}, "
        f"bound {r.bound}")
    return r


@pytest.mark.parametrize("kind,method", list(product(["cfr10", "cfr100", "uniform", "random"],
                                                     ["resolve", "maxmargin"])))
def test_safe_resolving_never_raises_kuhn_exploitability(kuhn, kind, method):
    bp = _blueprint(kuhn, kind, seed=1)
    for state in _live_states(kuhn):
        for iterations in (20, 300):  # a loose solve has a loose bound, still respected
            _check_safe(kuhn, bp, state, method, iterations)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6),
       method=st.sampled_from(["resolve", "maxmargin"]))
def test_safe_resolving_random_leduc_blueprints(leduc, seed, pick, method):
    states = _live_states(leduc)
    _check_safe(leduc, _blueprint(leduc, "random", seed), states[pick % len(states)], method)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["cfr10", "cfr30", "uniform", "random"])
def test_safe_resolving_never_raises_leduc_exploitability_everywhere(leduc, kind):
    bp = _blueprint(leduc, kind, seed=2)
    for state in _live_states(leduc):
        for method in ("resolve", "maxmargin"):
            _check_safe(leduc, bp, state, method, 500)


def test_the_safety_test_can_fail(leduc, monkeypatch):
    """A gadget whose terminate pays the opponent's on-policy values (the blueprint's own
    counterfactual values, not a best response's: a usual mistake) is caught raising
    exploitability beyond the bound."""
    real = sg._root_values

    def on_policy(tree, probs, roots, player):
        rv = real(tree, probs, roots, player)
        below = subtrees.node_values(tree, probs)[roots, player]  # the blueprint played on
        cbv = np.bincount(rv.hand_of_root, weights=rv.root_weight * below,
                          minlength=len(rv.hands))
        assert np.all(cbv <= rv.cbv + 1e-12)  # a best response earns at least as much
        with np.errstate(invalid="ignore"):
            value = cbv / rv.weight
        return sg.RootValues(rv.player, rv.hands, rv.weight, cbv, value, rv.roots,
                             rv.hand_of_root, rv.root_weight)

    monkeypatch.setattr(sg, "_root_values", on_policy)
    bp = _blueprint(leduc, "cfr10")  # found by a search over Leduc's states (none in Kuhn)
    for state, method, measured in (("deal/c/c/J", "resolve", 0.8924),
                                    ("deal/r/r/c", "maxmargin", 0.9834)):
        r = sg.resolve(leduc, bp, state, method, 300)
        assert r.blueprint_exploitability == pytest.approx(0.8886, abs=1e-4)
        assert r.exploitability > r.blueprint_exploitability + r.bound + 1e-3
        assert r.exploitability == pytest.approx(measured, abs=2e-3)


def test_resolve_accepts_a_public_state_object_and_node_ids(kuhn):
    bp = _blueprint(kuhn, "cfr10")
    state = public_tree(kuhn).find("deal/p/b")
    nodes = state.nodes
    a = sg.resolve(kuhn, bp, "deal/p/b", "resolve", 100)
    b = sg.resolve(kuhn, bp, state, "resolve", 100)
    c = sg.resolve(kuhn, bp, list(nodes), "resolve", 100)
    assert np.array_equal(a.policy.probabilities, b.policy.probabilities)
    assert np.array_equal(a.policy.probabilities, c.policy.probabilities)


@pytest.mark.parametrize("state,message", [
    ("deal/x", "has no public state 'deal/x'"),
    ([0], "below its root"),
    ([10**6], "below its root"),
    (["not", "nodes"], "has no public state|public state"),
])
def test_bad_subgames_are_refused(kuhn, state, message):
    with pytest.raises(ValueError, match=message):
        sg.resolve(kuhn, cfrviz.Policy.uniform(kuhn), state, "resolve", 10)


def test_half_a_public_state_is_not_a_subgame(kuhn):
    nodes = public_tree(kuhn).find("deal/p").nodes
    with pytest.raises(ValueError, match="not a subgame.*information set"):
        sg.resolve(kuhn, cfrviz.Policy.uniform(kuhn), nodes[:2], "resolve", 10)


def test_bad_method_iterations_player_and_game(kuhn):
    bp = cfrviz.Policy.uniform(kuhn)
    with pytest.raises(ValueError, match="'unsafe', 'resolve', 'maxmargin'"):
        sg.resolve(kuhn, bp, "deal/p", "safe", 10)
    with pytest.raises(ValueError, match="iterations"):
        sg.resolve(kuhn, bp, "deal/p", "resolve", 0)
    with pytest.raises(ValueError, match="player must be 0"):
        sg.root_values(kuhn, bp, "deal/p", 2)
    rps = cfrviz.load_game("rock_paper_scissors")
    with pytest.raises(ValueError, match="no public tree"):
        sg.root_values(rps.tree, cfrviz.Policy.uniform(rps.tree), [1], 0)
