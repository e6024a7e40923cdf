"""Lesson 04's checkers accept the right answers, explain typical mistakes and never raise."""

import numpy as np
import pytest
from _solutions import SOLUTIONS, as_cell, run_solution

import cfrviz
from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson04 as ex

JUNK = ["0.5", "abc", [0.5, 0.5], {"b": 0.5}, np.array([0.1, 0.2]), float("nan"), float("inf"),
        True, object(), -3, 7]


@pytest.fixture(scope="module")
def run300(kuhn):
    return cfrviz.solve(kuhn, "cfr", ex.EXPLORER_ITERATIONS, seed=0, progress=False)


@pytest.fixture(scope="module")
def mystery(kuhn):
    return cfrviz.solve(kuhn, "linear_cfr", 2000, seed=0, progress=False)


@pytest.fixture(scope="module")
def others(kuhn):
    return [cfrviz.solve(kuhn, "cfr", 2000, progress=False),
            cfrviz.solve(kuhn, "chance_sampling", 2000, seed=1, progress=False)]


def cell(run300, which: str) -> float:
    table = run300.average_strategy if which == "average" else run300.current_strategy
    game = run300.game
    return float(table[run300.index(ex.ITERATION), game.infoset_index(ex.SET), 1])


def test_average_strategy_is_rebuilt_from_the_strategies_played(run300):
    for key in ("Qpb", "Jpb", "Kpb", "Qb", "J"):
        rebuilt = ex.average_from_current(run300, key, upto=ex.ITERATION)
        recorded = run300.average_policy(ex.ITERATION)[key]
        np.testing.assert_allclose(rebuilt, list(recorded.values()), atol=1e-12)
    plain = ex.average_from_current(run300, "Qpb", upto=ex.ITERATION, weighted=False)
    assert abs(plain[1] - cell(run300, "average")) > 0.01  # the weights matter at Qpb


def test_own_reach_of_a_first_move_is_one(run300):
    np.testing.assert_allclose(ex.own_reach_history(run300, "J", upto=20), np.ones(20))


@pytest.fixture(scope="module")
def explorer(kuhn):
    return cfrviz.explore(kuhn, "cfr", iterations=ex.EXPLORER_ITERATIONS, seed=0, infoset="J")


AVERAGE_RIGHT = {
    "exact": lambda value: value,
    "three decimals, as the panel shows": lambda value: round(value, 3),
    "numpy": np.float64,
    "a one-element array": lambda value: np.array([value]),
}


@pytest.mark.parametrize("form", AVERAGE_RIGHT)
def test_average_at_set_accepts_the_average(run300, form):
    answer = AVERAGE_RIGHT[form](cell(run300, "average"))
    assert ex.check_average_at_set(answer, run300).status == CORRECT


def test_average_at_set_not_done(run300):
    assert ex.check_average_at_set(None, run300).status == NOT_DONE


def test_average_at_set_solution_passes(explorer):
    namespace = run_solution("04_average_at_set.py", explorer=explorer)
    assert ex.check_average_at_set(namespace["my_call_probability"], explorer).correct


def test_average_at_set_checks_the_run_the_explorer_shows(kuhn):
    # A student who trained another run in the explorer is checked against that run.
    other = cfrviz.explore(kuhn, "cfr", iterations=100, seed=0, alternating=False)
    trace = other.trace
    value = float(trace.average_strategy[trace.index(ex.ITERATION), kuhn.infoset_index(ex.SET),
                                         1])
    fixed = cfrviz.solve(kuhn, "cfr", ex.EXPLORER_ITERATIONS, progress=False)
    assert abs(value - cell(fixed, "average")) > ex.READ_TOLERANCE  # the case this test needs
    assert ex.check_average_at_set(value, other).correct
    assert not ex.check_average_at_set(value, fixed).correct


def test_average_at_set_names_the_iteration_on_the_explorer(explorer, run300):
    info = run300.game.infoset_index(ex.SET)
    explorer.select(ex.SET)
    explorer.slider.value = list(explorer.frames).index(run300.index(120))
    answer = float(run300.average_strategy[run300.index(120), info, 1])
    feedback = ex.check_average_at_set(answer, explorer)
    assert feedback.mistake == "other-iteration", feedback
    assert "after iteration 120" in feedback.message
    assert "timeline is at iteration 120" in feedback.message
    near = float(run300.average_strategy[run300.index(ex.ITERATION + 1), info, 1])
    assert ex.check_average_at_set(near, explorer).mistake == "off-by-one"


def test_average_at_set_recognises_a_percentage_and_the_next_strategy(run300):
    value = cell(run300, "average")
    feedback = ex.check_average_at_set(round(100 * value, 1), run300)
    assert feedback.mistake == "percentage" and f"{value:.3f}" in feedback.message
    from cfrviz.analysis.explain import infoset_snapshot
    step = infoset_snapshot(run300, run300.index(ex.ITERATION), ex.SET).next_strategy[1]
    assert abs(step - cell(run300, "current")) > ex.READ_TOLERANCE  # the case this test needs
    assert ex.check_average_at_set(float(step), run300).mistake == "next-strategy"


def test_average_at_set_needs_the_run(kuhn):
    short = cfrviz.solve(kuhn, "cfr", 30, progress=False)
    assert ex.check_average_at_set(0.5, short).mistake == "run-too-short"
    for junk in (None, "explorer", 3, object()):
        assert ex.check_average_at_set(0.5, junk).mistake == "no-explorer"
    rps = cfrviz.solve(cfrviz.load_game("rock_paper_scissors"), "cfr", 60, progress=False)
    assert ex.check_average_at_set(0.5, rps).mistake == "no-explorer"


def test_average_at_set_recognises_the_current_strategy(run300):
    feedback = ex.check_average_at_set(round(cell(run300, "current"), 3), run300)
    assert feedback.status == WRONG and feedback.mistake == "current"
    assert "current" in feedback.message and "average" in feedback.message


#: What a student might read instead of the average P(call) at Qpb after 50 iterations, and
#: the mistake the checker names for it.
AVERAGE_WRONG = {
    "fold-not-call": lambda run: 1 - cell(run, "average"),
    "unweighted": lambda run: ex.average_from_current(run, ex.SET, ex.ITERATION, False)[1],
    "other-iteration": lambda run: run.average_policy()[ex.SET]["b"],
    "other-set": lambda run: run.average_strategy[run.index(ex.ITERATION),
                                                  run.game.infoset_index("J"), 1],
    "current": lambda run: round(cell(run, "current"), 3),
    "percentage": lambda run: round(100 * cell(run, "average"), 1),
    "not-a-probability": lambda _: 1.5,
    "off-by-one": lambda run: run.average_strategy[run.index(ex.ITERATION + 1),
                                                   run.game.infoset_index(ex.SET), 1],
}


@pytest.mark.parametrize("mistake", AVERAGE_WRONG)
def test_average_at_set_explains_other_mistakes(run300, mistake):
    feedback = ex.check_average_at_set(float(AVERAGE_WRONG[mistake](run300)), run300)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert len(feedback.message) > 40


@pytest.mark.parametrize("junk", JUNK)
def test_average_at_set_never_raises_on_junk(run300, junk):
    feedback = ex.check_average_at_set(junk, run300)
    assert feedback.status == WRONG and feedback.message


ALPHA_RIGHT = {
    "bet J": lambda run: ex.alpha_estimates(run)["bet J"],
    "bet K / 3": lambda run: ex.alpha_estimates(run)["bet K / 3"],
    "call Q - 1/3": lambda run: ex.alpha_estimates(run)["call Q - 1/3"],
    "nearest": lambda run: ex.alpha_estimates(run)["nearest"],
    "two decimals": lambda run: round(ex.alpha_estimates(run)["nearest"], 2),
    "the solution": lambda run: run_solution("04_alpha.py", mystery=run)["my_alpha"],
}

ALPHA_WRONG = {
    "bet-king": lambda run, _: run.average_policy()["K"]["b"],
    "call-queen": lambda run, _: run.average_policy()["Qpb"]["b"],
    "check-not-bet": lambda run, _: run.average_policy()["J"]["p"],
    "other-run": lambda _, others: ex.alpha_estimates(others[0])["nearest"],
    "out-of-range": lambda *_: 0.5,
    "percentage": lambda run, _: 100 * ex.alpha_estimates(run)["nearest"],
    "not-a-number": lambda *_: "0.2",
}


@pytest.mark.parametrize("reading", ALPHA_RIGHT)
def test_alpha_accepts_each_reading(mystery, others, reading):
    assert ex.check_alpha(ALPHA_RIGHT[reading](mystery), mystery, others).status == CORRECT


@pytest.mark.parametrize("mistake", ALPHA_WRONG)
def test_alpha_recognises_typical_mistakes(mystery, others, mistake):
    feedback = ex.check_alpha(ALPHA_WRONG[mistake](mystery, others), mystery, others)
    assert feedback.status == WRONG and feedback.mistake == mistake, (mistake, feedback)


def test_alpha_not_done(mystery):
    assert ex.check_alpha(None, mystery).status == NOT_DONE


@pytest.mark.parametrize("answer", [None, 0.0, "0.2", "junk"])
def test_the_alpha_figure_waits_for_a_right_answer(mystery, others, answer):
    """Issue 29: the figure after exercise 2 named the run's alpha in its legend; unanswered
    or wrong, the cell now says what it will draw and shows no alpha."""
    shown = ex.alpha_figure(answer, mystery, others)
    assert shown.status == NOT_DONE and "my_alpha" in shown.message
    alphas = ex.alpha_estimates(mystery).values()
    assert not any(f"{a:.3f}" in shown.message or f"{a:.2f}" in shown.message for a in alphas)


def test_the_alpha_figure_draws_the_run_once_answered(mystery, others):
    alpha = ex.alpha_estimates(mystery)["nearest"]
    fig = ex.alpha_figure(alpha, mystery, others)
    legend = [t.name for t in fig.data if t.showlegend is not False and "lands at" in t.name]
    assert len(legend) == len(others) + 1 and f"α ≈ {alpha:.3f}" in legend[-1]


def test_the_rebuilt_average_is_not_exercise_1s_answer():
    """Issue 29: lesson 04 rebuilt the average at exercise 1's set and iteration and printed
    the answer; the demonstration now uses another iteration."""
    from _lessons import LESSONS
    source = (LESSONS.parent / "tools" / "lessons" / "04_cfr_on_kuhn.py").read_text()
    assert "upto = 20" in source and f"upto={ex.ITERATION}" not in source
    assert f"average_policy({ex.ITERATION})" not in source


def test_alpha_recognises_the_current_strategy(kuhn):
    run = cfrviz.solve(kuhn, "chance_sampling", 300, seed=2, progress=False)
    current = ex.nearest_alpha(ex.kuhn_coordinates(run, current=True))[0]
    average = ex.alpha_estimates(run)["nearest"]
    assert abs(current - average) > 3 * ex.ALPHA_TOLERANCE  # the case this test needs
    assert ex.check_alpha(current, run).mistake == "current"


@pytest.mark.parametrize("junk", JUNK)
def test_alpha_never_raises_on_junk(mystery, junk):
    assert ex.check_alpha(junk, mystery).status == WRONG


def test_alpha_never_raises_on_a_bad_trace():
    assert ex.check_alpha(0.2, "not a trace").status == WRONG
    assert ex.check_alpha(0.2, None).status == WRONG


def test_alpha_estimates_agree_on_the_segment(kuhn):
    alpha = 0.1
    policy = cfrviz.Policy.from_dict(kuhn, {"J": {"p": 1 - alpha, "b": alpha},
                                            "K": {"p": 1 - 3 * alpha, "b": 3 * alpha},
                                            "Qpb": {"p": 2 / 3 - alpha, "b": alpha + 1 / 3}})
    estimates = ex.alpha_estimates(policy)
    assert all(abs(v - alpha) < 1e-12 for v in estimates.values())


def test_describe_and_table(kuhn, run300):
    assert ex.describe_kuhn_set("Qpb") == ("player 1", "holds Q, checked, then player 2 bet",
                                           "call")
    assert ex.describe_kuhn_set("Jp")[2] == "bet"
    with pytest.raises(ValueError):
        ex.describe_kuhn_set("Qx")
    table = ex.strategy_table(kuhn, {"avg": run300.average_policy()})
    assert len(table.splitlines()) == 1 + kuhn.num_infosets and "Qpb" in table


# --- exercise 3: vanilla CFR, whole -----------------------------------------------------------

CFR_SOLUTION = "04_my_cfr.py"
REGRET = "reach[2] * reach[1 - player] * (action_values - value)"
AVERAGE = "+= reach[player] * strategy[info"
RETURN = "    return strategy_sum / strategy_sum.sum(axis=1, keepdims=True)"
LOOP = "    for _ in range(iterations):\n"
ALTERNATING = """        for player in (0, 1):                            # alternating updates
            strategy = regret_matching(regret_sum)
            walk(0, player, np.ones(3), strategy)"""


def my_cfr(**replace):
    """The solution with some lines changed: a student's CFR, right or wrong."""
    source = (SOLUTIONS / CFR_SOLUTION).read_text()
    for old, new in replace.items():
        assert old in source, old
        source = source.replace(old, new)
    return as_cell(source)["my_cfr"]


SIMULTANEOUS = {ALTERNATING: """        strategy = regret_matching(regret_sum)
        for player in (0, 1):
            walk(0, player, np.ones(3), strategy)"""}


def test_variant_run_is_vanilla_cfr(kuhn):
    for alternating in (True, False):
        want = cfrviz.solve(kuhn, "cfr", 40, alternating=alternating, progress=False)
        runs = ex.cfr_variant_run(kuhn, 40, alternating=alternating)
        np.testing.assert_allclose(runs[40]["own"], want.average_strategy[-1], atol=1e-12)
        np.testing.assert_allclose(runs[39]["own"], want.average_strategy[-2], atol=1e-12)
        np.testing.assert_allclose(runs[40]["played"], want.current_strategy[-1], atol=1e-12)


# The solution itself, unchanged, is test_my_cfr_solution_passes.
@pytest.mark.parametrize("replace, mode", [
    (SIMULTANEOUS, "simultaneous"),
    ({"for player in (0, 1):                            # alternating":
      "for player in (1, 0):  #"}, "player 2 first"),
    ({RETURN: "    average = strategy_sum / strategy_sum.sum(axis=1, keepdims=True)\n"
              "    return {key: dict(zip(tree.infoset_actions[i], average[i]))\n"
              "            for i, key in enumerate(tree.infoset_keys)}"}, "alternating"),
    ({RETURN: "    average = strategy_sum / strategy_sum.sum(axis=1, keepdims=True)\n"
              "    return {key: list(average[i]) for i, key in enumerate(tree.infoset_keys)}"},
     "alternating"),
])
def test_my_cfr_accepts_vanilla_cfr_in_every_form(replace, mode):
    feedback = ex.check_my_cfr(my_cfr(**replace))
    assert feedback.status == CORRECT, feedback
    assert mode in feedback.message and "exploitability" in feedback.message


def test_my_cfr_solution_passes():
    feedback = ex.check_my_cfr(run_solution(CFR_SOLUTION)["my_cfr"])
    assert feedback.status == CORRECT, feedback
    assert "alternating" in feedback.message and "exploitability" in feedback.message


@pytest.mark.parametrize("replace, mistake", [
    ({REGRET: "reach[player] * (action_values - value)"}, "own-reach"),
    ({REGRET: "reach[2] * reach[player] * (action_values - value)"}, "own-reach"),
    ({REGRET: "(action_values - value)"}, "own-reach"),
    ({REGRET: "reach[0] * reach[1] * reach[2] * (action_values - value)"}, "all-reach"),
    ({REGRET: "reach[1 - player] * (action_values - value)"}, "no-chance"),
    ({REGRET: "reach[2] * reach[1 - player] * (value - action_values)"}, "sign"),
    ({LOOP: LOOP + "        np.maximum(regret_sum, 0, out=regret_sum)\n"}, "regret-floor"),
    ({RETURN: "    return regret_matching(regret_sum)"}, "current"),
    ({AVERAGE: "+= strategy[info"}, "unweighted-average"),
    ({AVERAGE: "+= reach[0] * reach[1] * reach[2] * strategy[info"}, "full-reach-average"),
    ({AVERAGE: "+= reach[2] * reach[1 - player] * strategy[info"}, "others-reach-average"),
    ({"for _ in range(iterations):": "for _ in range(iterations + 1):"}, "off-by-one"),
    ({RETURN: "    return strategy_sum"}, "not-normalised"),
    ({**SIMULTANEOUS, REGRET: "reach[player] * (action_values - value)"}, "own-reach"),
    ({REGRET: "reach[player] * (action_values - value)", AVERAGE: "+= strategy[info"},
     "own-reach+unweighted-average"),
])
def test_my_cfr_names_each_mistake(replace, mistake):
    feedback = ex.check_my_cfr(my_cfr(**replace))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    for name in mistake.split("+"):
        if name in ex.CFR_MISTAKES:
            assert ex.CFR_MISTAKES[name] in feedback.message


@pytest.mark.parametrize("replace, mistake", [
    ({RETURN: "    return None"}, "no-return"),
    ({RETURN: "    return strategy_sum[:, 0]"}, "shape"),
    ({RETURN: "    return {'J': [0.5, 0.5]}"}, "shape"),
    ({RETURN: "    return 'done'"}, "shape"),
    ({RETURN: "    return strategy_sum - 1"}, "not-a-strategy"),
    ({RETURN: "    return strategy_sum / 0"}, "not-finite"),
    ({"        info = tree.infoset[node]\n": "        info = tree.infoset[node]['x']\n"},
     "crash"),
])
def test_my_cfr_explains_bad_results(replace, mistake):
    with np.errstate(all="ignore"):
        feedback = ex.check_my_cfr(my_cfr(**replace))
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("source", [
    "import cfrviz\n\ndef my_cfr(tree, iterations):\n"
    "    return cfrviz.solve(tree, 'cfr', iterations).average_policy().probabilities\n",
    "from cfrviz import solve as train\n\ndef my_cfr(tree, iterations):\n"
    "    return train(tree, 'cfr', iterations, progress=False).average_strategy[-1]\n",
    "from cfrviz.exercises import lesson04 as check\n\ndef my_cfr(tree, iterations):\n"
    "    return check.cfr_variant_run(tree, iterations)\n",
], ids=["cfrviz.solve", "renamed", "the checker's own"])
def test_my_cfr_refuses_the_package_cfr(source):
    """Issue 29: a my_cfr that returns the package's CFR run is not the student's CFR."""
    feedback = ex.check_my_cfr(as_cell(source)["my_cfr"])
    assert feedback.status == WRONG and feedback.mistake == "calls the answer", feedback


def test_my_cfr_crash_reports_the_line():
    feedback = ex.check_my_cfr(my_cfr(**{
        "        info = tree.infoset[node]\n": "        info = tree.infoset[node]['x']\n"}))
    assert "line" in feedback.message and "tree.infoset[node]['x']" in feedback.message
    assert "in walk" in feedback.message


def test_my_cfr_an_unrecognised_difference_is_shown():
    # Regret matching that ignores the legal mask's uniform fallback: plays [1, 0] instead.
    feedback = ex.check_my_cfr(my_cfr(**{
        "return np.where(totals > 0, positive / np.where(totals > 0, totals, 1.0), uniform)":
        "return np.where(totals > 0, positive / np.where(totals > 0, totals, 1.0), "
        "np.eye(mask.shape[1])[0] * mask)"}))
    assert feedback.status == WRONG and feedback.mistake is None, feedback
    assert "differs from vanilla CFR's" in feedback.message


def test_my_cfr_starter_and_junk():
    def starter(_tree, iterations):
        def walk(_node):
            raise NotImplementedError
        return walk(iterations)
    assert ex.check_my_cfr(starter).status == NOT_DONE
    assert ex.check_my_cfr(None).status == NOT_DONE
    for junk in ("my_cfr", 3, [1, 2]):
        assert ex.check_my_cfr(junk).mistake == "not-callable"


# --- by class of hole (issue 22 item 2): right code written differently is accepted ----------

ITERATIVE_PURE_PYTHON = '''
def my_cfr(tree, iterations):
    """Vanilla CFR without recursion: reaches top-down, values bottom-up, in node order."""
    n = len(tree.player)
    sets, width = tree.legal_mask.shape
    regret = [[0.0] * width for _ in range(sets)]
    total = [[0.0] * width for _ in range(sets)]

    def matching(row, k):
        positive = [max(r, 0.0) for r in row[:k]]
        s = sum(positive)
        return [p / s for p in positive] if s > 0 else [1.0 / k] * k

    for _ in range(iterations):
        for player in (0, 1):
            sigma = [matching(regret[i], int(tree.legal_mask[i].sum())) for i in range(sets)]
            reach = [[1.0, 1.0, 1.0] for _ in range(n)]
            for node in range(n):  # a parent's id is smaller than its children's
                kind = int(tree.player[node])
                for a, child in enumerate(tree.children[node]):
                    r = list(reach[node])
                    if kind == -1:
                        r[2] *= float(tree.chance_prob[child])
                    elif kind >= 0:
                        r[kind] *= sigma[int(tree.infoset[node])][a]
                    reach[child] = r
            value = [0.0] * n
            for node in reversed(range(n)):
                kind = int(tree.player[node])
                children = list(tree.children[node])
                if kind == -2:
                    value[node] = float(tree.utility[node, player])
                elif kind == -1:
                    value[node] = sum(float(tree.chance_prob[c]) * value[c] for c in children)
                else:
                    info = int(tree.infoset[node])
                    q = [value[c] for c in children]
                    v = sum(p * x for p, x in zip(sigma[info], q))
                    value[node] = v
                    if kind == player:
                        r = reach[node]
                        for a in range(len(q)):
                            regret[info][a] += r[2] * r[1 - player] * (q[a] - v)
                            total[info][a] += r[player] * sigma[info][a]
    out = {}
    for i, key in enumerate(tree.infoset_keys):
        k = int(tree.legal_mask[i].sum())
        s = sum(total[i][:k])
        out[key] = [x / s for x in total[i][:k]]
    return out
'''

FLOAT32 = {"np.zeros(mask.shape)    # cumulative": "np.zeros(mask.shape, np.float32)  #",
           "np.zeros(mask.shape)  # strategies": "np.zeros(mask.shape, np.float32)  #"}


def test_tree_nodes_come_after_their_parents(kuhn):
    # What ITERATIVE_PURE_PYTHON relies on.
    assert all(child > node for node in range(len(kuhn.player)) for child in kuhn.children[node])


@pytest.mark.parametrize("cell, mode", [
    (lambda: as_cell(ITERATIVE_PURE_PYTHON)["my_cfr"], "alternating"),   # pure Python, iterative
    (lambda: my_cfr(**FLOAT32), "alternating"),                     # numpy float32, recursive
    (lambda: my_cfr(**FLOAT32, **SIMULTANEOUS), "simultaneous"),           # float32, other order
    (lambda: run_solution(CFR_SOLUTION)["my_cfr"], "alternating"),  # numpy float64, recursive
])
def test_my_cfr_accepts_right_code_in_any_style(cell, mode):
    feedback = ex.check_my_cfr(cell())
    assert feedback.status == CORRECT, feedback.message
    assert mode in feedback.message


def test_float32_tables_are_accepted_with_a_message_that_says_so():
    feedback = ex.check_my_cfr(my_cfr(**FLOAT32))
    assert feedback.correct, feedback.message
    assert f"within {ex.FLOAT_TOLERANCE:g}" in feedback.message and "float32" in feedback.message
    exact = ex.check_my_cfr(run_solution(CFR_SOLUTION)["my_cfr"])
    assert "float32" not in exact.message


def test_the_float_tolerance_is_below_the_nearest_wrong_run(kuhn):
    # One iteration more or fewer is the wrong run closest to the right one: it must stay out.
    n = ex.CFR_RUNS[0][1]
    runs = ex.cfr_variant_run(kuhn, n)
    for t in (n - 1, n + 1):
        gap = np.abs(runs[t]["own"] - runs[n]["own"])[kuhn.legal_mask].max()
        assert gap > 5 * ex.FLOAT_TOLERANCE, (t, gap)
