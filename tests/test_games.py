import math

import numpy as np
import pytest

import cfrviz
from cfrviz.games.matrix import RPS_PAYOFFS

VARIANT = [[0, -1, 2], [1, 0, -2], [-2, 2, 0]]


def test_standard_rock_paper_scissors():
    game = cfrviz.load_game("rock_paper_scissors")
    assert game.payoffs.tolist() == [list(map(float, row)) for row in RPS_PAYOFFS]
    assert game.infoset_keys == ("P1", "P2")
    assert game.infoset_actions == (("R", "P", "S"), ("R", "P", "S"))
    assert game.legal_mask.all()


def test_payoffs_can_be_changed_and_are_read_only():
    game = cfrviz.load_game("rock_paper_scissors", payoffs=VARIANT)
    assert game.payoffs[2, 1] == 2.0
    with pytest.raises(ValueError):
        game.payoffs[0, 0] = 5.0


def test_payoffs_are_copied():
    source = np.array(VARIANT, dtype=float)
    game = cfrviz.load_game("rock_paper_scissors", payoffs=source)
    source[0, 0] = 99
    assert game.payoffs[0, 0] == 0


@pytest.mark.parametrize("payoffs, words", [
    ([[0, 1], [1, 0]], ["2 rows", "3x3"]),
    ([[0, -1, 1], [1, 0], [-1, 1, 0]], ["row 1 (P)", "2 entries"]),
    ([[0, -1, 1], [1, math.nan, -1], [-1, 1, 0]], ["cell [1][1]", "P1 P vs P2 P", "finite"]),
    ([[0, -1, 1], [1, 0, -1], [-1, math.inf, 0]], ["cell [2][1]", "finite"]),
    ([[0, -1, "1"], [1, 0, -1], [-1, 1, 0]], ["cell [0][2]", "real numbers"]),
    ([[0, -1, 1], [1, 0, None], [-1, 1, 0]], ["cell [1][2]", "None"]),
    ([[True, -1, 1], [1, 0, -1], [-1, 1, 0]], ["cell [0][0]"]),
    ("rock", ["3x3 payoff matrix"]),
    (np.zeros(9), ["shape (9,)"]),
])
def test_bad_payoffs_say_what_and_where(payoffs, words):
    with pytest.raises(ValueError) as error:
        cfrviz.load_game("rock_paper_scissors", payoffs=payoffs)
    for word in words:
        assert word in str(error.value)


def test_unknown_game_lists_the_valid_ones():
    with pytest.raises(ValueError, match="unknown game 'rps'.*rock_paper_scissors"):
        cfrviz.load_game("rps")


def test_unknown_game_parameter():
    with pytest.raises(ValueError, match="no parameter 'payoff'.*payoffs"):
        cfrviz.load_game("rock_paper_scissors", payoff=VARIANT)
