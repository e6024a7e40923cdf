"""Evaluation of strategy profiles: expected values, best responses, exploitability."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.checks import check_game, check_player
from ..core.policy import Policy, check_policy
from ..core.tree import GameTree, as_tree, check_two_players, check_zero_sum
from ..engine import tree_best_response, tree_expected_values, tree_reach_probabilities
from ..engine.multi import deviation_gains as tree_deviation_gains
from ..engine.multi import profile_values
from ..games.matrix import MatrixGame
from ..games.matrix import matrix_exploitability as matrix_exploitability  # re-exported


def _checked(game, policy, what: str) -> None:
    """The public functions' checks: the game first (``None`` is named as such), then the policy."""
    check_game(game, what)
    check_policy(game, policy)


def _strategies(game: MatrixGame, policy: Policy) -> tuple[np.ndarray, np.ndarray]:
    probs = policy.probabilities  # the same table whether made on the matrix or on its tree
    return probs[0, : len(game.row_actions)], probs[1, : len(game.col_actions)]


def expected_values(game, policy: Policy) -> tuple[float, ...]:
    """Expected payoff of each player when all play ``policy``.

    Defined in any game, zero-sum or not: each player's value is read from
    their own payoffs, so a general-sum game (e.g. one loaded from a file)
    gets both players' true values.

    Returns
    -------
    tuple of float
        The value for player 1 and for player 2 (they sum to 0 in a zero-sum game);
        one value per player in a game of more players (e.g. three-player Kuhn poker).

    Raises
    ------
    ValueError
        For something that is not a game or not a Policy for it.
    """
    _checked(game, policy, "expected_values")
    if isinstance(game, GameTree) and game.num_players > 2:
        return tuple(float(v) for v in profile_values(game, policy.probabilities))
    if isinstance(game, GameTree):
        return tree_expected_values(game, policy.probabilities)
    x, y = _strategies(game, policy)
    v = float(x @ game.payoffs @ y)
    return v, -v


def reach_probabilities(game, policy) -> np.ndarray:
    """Each node's reach probability under a profile, split by contributor.

    The probability that play reaches node :math:`h` is the product of every
    probability on the path from the root; grouped by who chose each step it
    is :math:`\\pi^\\sigma(h) = \\pi_1^\\sigma(h)\\, \\pi_2^\\sigma(h)\\, \\pi_c(h)`
    (Zinkevich et al., 2007).  Leaving out player :math:`i`'s own factor
    gives :math:`\\pi_{-i}^\\sigma(h)`, the weight of counterfactual values.

    Parameters
    ----------
    game : GameTree or MatrixGame
        A matrix game is read as its two-move tree (``game.tree``).
    policy : Policy or array_like, shape (information sets, max actions)
        An array is checked as :class:`~cfrviz.Policy` checks one.

    Returns
    -------
    numpy.ndarray, shape (3, nodes)
        Rows :math:`\\pi_1`, :math:`\\pi_2` and :math:`\\pi_c`; their product
        over axis 0 is each node's reach probability.

    Raises
    ------
    ValueError
        For a game that is not a game tree or a matrix game, a policy made
        for another game, or an array that is not a strategy profile.
    """
    tree = as_tree(game, "reach_probabilities")
    check_two_players(tree, "reach_probabilities (rows player 1, player 2, chance)",
                      instead="cfrviz.engine.multi.multi_reach_pass, whose rows are player 1 .. "
                              "player N and chance")
    if isinstance(policy, Policy):
        check_policy(tree, policy)
    else:
        policy = Policy(tree, policy)
    return tree_reach_probabilities(tree, policy.probabilities)


@dataclass(frozen=True)
class BestResponse:
    """A best response of ``player`` to the other player's part of a policy.

    Attributes
    ----------
    player : int
        0 for player 1, 1 for player 2.
    value : float
        What the best response earns, from ``player``'s point of view.
    action_values : dict
        In a matrix game, the expected payoff of each of ``player``'s actions
        against the opponent; in a game tree, ``{information-set key:
        {action: counterfactual value}}`` for ``player``'s sets.
    policy : Policy
        The input policy with ``player``'s part replaced by a pure best
        response (ties go to the first best action).
    """

    player: int
    value: float
    action_values: dict[str, float] | dict[str, dict[str, float]]
    policy: Policy


def best_response(game, policy: Policy, player: int) -> BestResponse:
    """The best that ``player`` can do knowing the opponent's strategy in ``policy``.

    Meaningful in any game, zero-sum or not: a best response maximises
    ``player``'s own payoffs against a fixed opponent, so general-sum games
    are accepted (only :func:`exploitability` reads the gain as the
    opponent's loss).

    Parameters
    ----------
    game : GameTree or MatrixGame
    policy : Policy
    player : int
        0 (player 1) or 1 (player 2); a bool or a float is refused.

    Raises
    ------
    ValueError
        For something that is not a game, not a Policy for it, or not a player.
    """
    _checked(game, policy, "best_response")
    check_two_players(game, "best_response", "it answers the one opponent's part of the policy")
    player = check_player(player)
    if isinstance(game, GameTree):
        value, choice, values = tree_best_response(game, policy.probabilities, player)
        probs = np.array(policy.probabilities)
        action_values: dict[str, dict[str, float]] = {}
        for info in np.flatnonzero(game.infoset_player == player):
            probs[info] = 0.0
            probs[info, choice[info]] = 1.0
            action_values[game.infoset_keys[info]] = dict(zip(game.infoset_actions[info],
                                                              map(float, values[info])))
        return BestResponse(player, value, action_values, Policy(game, probs))
    x, y = _strategies(game, policy)
    values = game.payoffs @ y if player == 0 else -(x @ game.payoffs)
    actions = game.infoset_actions[player]
    best = int(np.argmax(values))
    probs = np.array(policy.probabilities)
    probs[player] = 0.0
    probs[player, best] = 1.0
    return BestResponse(player, float(values[best]), dict(zip(actions, map(float, values))),
                        Policy(game, probs))


def nash_conv(game, policy: Policy) -> float:
    """NashConv: the sum over players of what a best response gains over ``policy``.

    Zero exactly at a Nash equilibrium, in any game (of any number of players: the sum of
    :func:`deviation_gains`): each player's gain is
    measured in their own payoffs, so NashConv is accepted for general-sum
    games too (as OpenSpiel computes it), where it is the total incentive to
    deviate.  What it is *not* there is a loss to the other player; that
    reading belongs to :func:`exploitability`, which needs zero-sum.

    Raises
    ------
    ValueError
        For something that is not a game or not a Policy for it.
    """
    _checked(game, policy, "nash_conv")
    if isinstance(game, GameTree) and game.num_players > 2:
        return float(np.sum(deviation_gains(game, policy)))
    v1, v2 = expected_values(game, policy)
    if isinstance(game, GameTree):  # the values alone, without building per-set tables
        gains = [tree_best_response(game, policy.probabilities, p)[0] for p in (0, 1)]
        return (gains[0] - v1) + (gains[1] - v2)
    return (best_response(game, policy, 0).value - v1) + (best_response(game, policy, 1).value - v2)


def exploitability(game, policy: Policy) -> float:
    """Exploitability: NashConv / 2, the mean gain of the two best responses.

    Zero exactly at a Nash equilibrium.  The convention (half of NashConv,
    as in OpenSpiel) makes the number read as "how much an opponent who
    knows your strategy wins per game".

    That reading needs a two-player zero-sum game, where what a best
    response wins is what the other player loses and the game value makes
    the number a distance to equilibrium.  In a general-sum game neither
    holds, so the number would mislead and is refused; :func:`nash_conv`
    still measures the incentive to deviate there.

    Raises
    ------
    ValueError
        For something that is not a game, not a Policy for it, or a game that
        is not zero-sum (naming the first terminal history at fault).
    """
    _checked(game, policy, "exploitability")
    check_two_players(game, "exploitability as NashConv / 2", "it needs a two-player zero-sum "
                      "game")
    check_zero_sum(game, "exploitability")
    return nash_conv(game, policy) / 2


def deviation_gains(game, policy: Policy) -> np.ndarray:
    """Each player's gain from deviating alone from ``policy``, for any number of players.

    Player i's gain is the value of its best response to the other players' strategies in
    ``policy`` minus its value when everyone plays ``policy``: exact, by a walk of the tree.
    All are zero exactly at a Nash equilibrium; their sum is :func:`nash_conv`.  With more
    than two players this is what can be said of a single profile (exploitability as
    NashConv / 2 is a two-player zero-sum measure, and is refused there).

    Returns
    -------
    numpy.ndarray, shape (players,)
        Non-negative up to rounding (never clipped).

    Raises
    ------
    ValueError
        For something that is not a game tree (or matrix game) or not a Policy for it.
    """
    _checked(game, policy, "deviation_gains")
    gains: np.ndarray = tree_deviation_gains(as_tree(game, "deviation_gains"),
                                             policy.probabilities)
    return gains
