"""Lesson 10 checkers: accept the right answers, explain the typical wrong ones, never raise."""

import numpy as np
import pytest
from _misbehaving import stable_id
from _solutions import run_solution

from cfrviz.exercises import CORRECT, NOT_DONE, WRONG
from cfrviz.exercises import lesson10 as ex

JUNK = ["", "504x", {"a": 1}, object(), [504], np.zeros(2), np.nan, np.inf, True, 3.5, -1]


def test_the_count_is_the_tree_s(leduc):
    """Exercise 1 asks for four ranks: the lesson prints three ranks' 288 before it (issue
    29: the answer, 288, was in the table above the exercise)."""
    import cfrviz

    assert ex.leduc_infosets(3) == leduc.num_infosets == 288
    assert ex.RANKS == 4
    assert ex.leduc_infosets() == cfrviz.load_game("leduc_poker", ranks=4).num_infosets == 504


INFOSETS_RIGHT = {"int": 504, "float": 504.0, "numpy int": np.int64(504),
                  "the solution": run_solution("10_leduc_infosets.py")["my_count"]}


@pytest.mark.parametrize("form", INFOSETS_RIGHT)
def test_leduc_infosets(form):
    assert ex.check_leduc_infosets(INFOSETS_RIGHT[form]).status == CORRECT


def test_leduc_infosets_not_done():
    assert ex.check_leduc_infosets(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    (288, "three-ranks"), (1728, "suits"), (4741, "nodes"), (480, "only-round-two"),
    (24, "only-round-one"), (144, "public-card"), (120, "round-one-history"),
    (252, "one-player"), ("504", "shape"), (300, None),
])
def test_leduc_infoset_mistakes_are_explained(answer, mistake):
    feedback = ex.check_leduc_infosets(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback
    assert "504" not in feedback.message or answer == "504"  # its own answer, as a string


def test_tournament_values_match_head_to_head_and_the_answer():
    values = ex.tournament_values()
    assert set(values) == set(ex.BOT_NAMES)
    assert max(values, key=values.get) == "uniform_random"
    assert all(v > 0 for v in values.values())  # the trained strategy beats every archetype


EXPLOITED_RIGHT = {"the name": "uniform_random", "spaces and capitals": " Uniform Random ",
                   "hyphens": "uniform-random",
                   "the solution": run_solution("10_most_exploited.py")["my_pick"]}


@pytest.mark.parametrize("form", EXPLOITED_RIGHT)
def test_most_exploited(form):
    assert ex.check_most_exploited(EXPLOITED_RIGHT[form]).status == CORRECT


def test_most_exploited_not_done():
    assert ex.check_most_exploited(None).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ("always_raise", "maniac"), ("strong_hands", "tight"), ("always_call", "station"),
    ("cfr", "names"), (3, "names"),
])
def test_most_exploited_mistakes_are_explained(answer, mistake):
    feedback = ex.check_most_exploited(answer)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("junk", JUNK, ids=stable_id)
def test_junk_never_raises(junk):
    for checker in (ex.check_leduc_infosets, ex.check_most_exploited):
        feedback = checker(junk)
        assert feedback.status in (WRONG, NOT_DONE)
        assert feedback.message


# --- exercise 3: the LP's memory budget -------------------------------------------------------

FIT = {"exponent": 1.2, "factor": 0.004}
RIGHT = (16_000 / 0.004) ** (1 / 1.2)


BUDGET_RIGHT = {
    "exact": lambda: RIGHT,
    "a rounded hand calculation": lambda: RIGHT * 1.05,
    "numpy": lambda: np.float64(RIGHT),
    "the solution": lambda: run_solution("11_lp_budget.py", **FIT)["my_sequences"],
}


def test_sequences_within_solves_the_fit():
    assert ex.sequences_within(16_000, **FIT) == pytest.approx(RIGHT)


@pytest.mark.parametrize("form", BUDGET_RIGHT)
def test_lp_budget(form):
    assert ex.check_lp_budget(BUDGET_RIGHT[form](), **FIT).status == CORRECT


def test_lp_budget_not_done():
    assert ex.check_lp_budget(None, **FIT).status == NOT_DONE


@pytest.mark.parametrize("answer, mistake", [
    ((16 / 0.004) ** (1 / 1.2), "units"),           # the budget in GB against a fit in MB
    ((16e9 / 0.004) ** (1 / 1.2), "units"),         # ... or in bytes
    ((16_000 / 0.004) ** 1.2, "root"),
    (16_000 / 0.004, "linear"),
    (2 * RIGHT, "both-players"),
    (-5, "shape"), ("a lot", "shape"),
    (RIGHT / 3, None),
])
def test_lp_budget_mistakes_are_explained(answer, mistake):
    feedback = ex.check_lp_budget(answer, **FIT)
    assert feedback.status == WRONG and feedback.mistake == mistake, feedback


@pytest.mark.parametrize("fit", [{"exponent": None, "factor": 0.004},
                                 {"exponent": 1.2, "factor": -1}, {"exponent": "x", "factor": 1}])
def test_lp_budget_without_a_fit(fit):
    feedback = ex.check_lp_budget(RIGHT, **fit)
    assert feedback.status == WRONG and feedback.mistake == "no-fit"


@pytest.mark.parametrize("junk", JUNK, ids=stable_id)
def test_lp_budget_junk_never_raises(junk):
    feedback = ex.check_lp_budget(junk, **FIT)
    assert feedback.status in (WRONG, NOT_DONE) and feedback.message


# --- the lesson sources (issue 29) -----------------------------------------------------------

def _cells(stem):
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "tools"))
    try:
        import build_lessons
    finally:
        sys.path.pop(0)
    return build_lessons.parse((root / "tools" / "lessons" / f"{stem}.py").read_text())


def test_the_openspiel_section_gives_one_install_instruction_for_the_kernels_python():
    """It gave three (pip in a terminal, into whichever Python that is; the bench extra; make
    bench-install, which also builds LiteEFG's C++); now one, %pip in the notebook, pinned to
    the version requirements/bench.txt tests."""
    import re
    from pathlib import Path

    lock = (Path(__file__).resolve().parent.parent / "requirements" / "bench.txt").read_text()
    pinned = re.search(r"^open-spiel==(\S+)", lock, re.MULTILINE)[1]

    text = "\n".join(c.source for c in _cells("10_scaling_up"))
    assert re.findall(r"pip install[^`]*", text) == [f"pip install open-spiel=={pinned}"]
    assert "bench-install" not in text and "[bench]" not in text
    assert f"%pip install open-spiel=={pinned}`" in text


def test_the_sequence_form_is_out_of_reach_until_the_constraints_exercise_is_checked():
    """`sequence_form(...).constraints` was imported and computed before exercise 'plan
    constraints'; now the lesson gives `first` alone (check_sf.first_columns)."""
    cells = _cells("11_linear_programming")
    check = next(i for i, c in enumerate(cells)
                 if "check_sf.check_plan_constraints(my_constraints)" in c.source)
    before = "\n".join(c.source for c in cells[:check] if c.cell_type == "code")
    assert "sequence_form(" not in before and "first_columns(kuhn)" in before
    assert "from cfrviz.solvers.lp import" not in before
    assert "from cfrviz.analysis.lp import" not in before


def test_the_tournament_is_played_only_once_a_pick_is_made():
    """Exercise 'most exploited' was answered by the tournament table right below it in a Run
    All; the cell now waits for a pick."""
    cells = _cells("10_scaling_up")
    play = next(c.source for c in cells if "cfrviz.round_robin(leduc" in c.source)
    assert play.index("if unanswered(my_pick) and not in_dashboard():") < play.index(
        "cfrviz.round_robin(leduc")
