import numpy as np
import pytest

import cfrviz


@pytest.fixture
def game():
    return cfrviz.load_game("rock_paper_scissors")


def test_to_dict_has_one_key_per_information_set(game):
    policy = cfrviz.Policy.uniform(game)
    assert policy.to_dict() == {"P1": {"R": 1 / 3, "P": 1 / 3, "S": 1 / 3},
                                "P2": {"R": 1 / 3, "P": 1 / 3, "S": 1 / 3}}


def test_from_dict_round_trip_and_defaults(game):
    policy = cfrviz.Policy.from_dict(game, {"P1": {"R": 1.0}})
    assert policy["P1"] == {"R": 1.0, "P": 0.0, "S": 0.0}
    assert policy["P2"] == {"R": 1 / 3, "P": 1 / 3, "S": 1 / 3}
    assert cfrviz.Policy.from_dict(game, policy.to_dict()).to_dict() == policy.to_dict()


def test_policy_is_immutable(game):
    policy = cfrviz.Policy.uniform(game)
    with pytest.raises(ValueError):
        policy.probabilities[0, 0] = 1.0


@pytest.mark.parametrize("mapping, message", [
    ({"P3": {"R": 1}}, "no information set 'P3'"),
    ({"P1": {"X": 1}}, "no action 'X'"),
    ({"P1": {"R": 0.5, "P": 0.2}}, "sum to 0.7, not 1"),
    ({"P1": {"R": 1.5, "P": -0.5}}, "negative"),
    ({"P1": {"R": "a lot"}}, "not a number"),
    ({"P1": {"R": float("nan"), "P": 1}}, "finite"),
    ({"P1": [1, 0, 0]}, "expected {action: probability}"),
])
def test_bad_policies_are_explained(game, mapping, message):
    with pytest.raises(ValueError, match=message):
        cfrviz.Policy.from_dict(game, mapping)


def test_wrong_shape(game):
    with pytest.raises(ValueError, match=r"shape \(2, 3\)"):
        cfrviz.Policy(game, np.ones((3, 3)) / 3)
