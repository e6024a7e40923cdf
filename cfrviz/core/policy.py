"""Behaviour strategies: one probability distribution per information set."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Real

import numpy as np
import numpy.typing as npt

from .checks import check_game
from .tree import GameTree
from .types import FloatArray, GameLike

#: How far a distribution may be from summing to 1 before it is rejected.
SUM_TOLERANCE = 1e-6


class Policy:
    """A strategy profile for a game: a distribution over actions at every information set.

    The probabilities are an array of shape ``(information sets, max actions)``
    whose rows follow the game's information-set table; illegal actions hold 0.
    A policy is immutable: its array is a private copy, read-only.

    Parameters
    ----------
    game : GameTree or MatrixGame
        The game the policy plays, from :func:`cfrviz.load_game`.
    probabilities : array_like, shape (information sets, max actions)
        Numbers (not bools or strings); must be non-negative, zero on
        illegal actions and sum to 1 per row.

    Raises
    ------
    ValueError
        For something that is not a game, an array that is not numbers of
        the right shape, or a row that is not a distribution over its legal
        actions (naming the information set).
    """

    def __init__(self, game: GameLike, probabilities: npt.ArrayLike) -> None:
        check_game(game, "Policy")
        mask = game.legal_mask
        probs = _as_table(probabilities, game)
        if probs.shape != mask.shape:
            raise ValueError(f"a policy for {game.name} needs an array of shape {mask.shape} "
                             f"(information sets x actions); got {probs.shape}")
        for row, key in enumerate(game.infoset_keys):
            _check_distribution(probs[row][mask[row]], f"information set {key!r}",
                                game.infoset_actions[row])
            if np.any(probs[row][~mask[row]] != 0):
                raise ValueError(f"information set {key!r} puts probability on an illegal action")
        probs.setflags(write=False)
        self.game = game
        self.probabilities = probs

    @classmethod
    def uniform(cls, game: GameLike) -> Policy:
        """Every legal action equally likely at every information set."""
        mask = check_game(game, "Policy").legal_mask
        return cls(game, mask / mask.sum(axis=1, keepdims=True))

    @classmethod
    def from_dict(cls, game: GameLike, mapping: Mapping[str, Mapping[str, float]]) -> Policy:
        """Build a policy from ``{infoset key: {action: probability}}``.

        Information sets left out are played uniformly; a key or an action
        the game does not have is an error, so typos cannot pass silently.
        """
        check_game(game, "Policy")
        if not isinstance(mapping, Mapping):
            raise ValueError("a policy dict maps information-set keys to {action: probability}; "
                             f"got {type(mapping).__name__}")
        probs = np.array(cls.uniform(game).probabilities)
        for key, dist in mapping.items():
            row = game.infoset_index(key)
            actions = game.infoset_actions[row]
            if not isinstance(dist, Mapping):
                raise ValueError(f"information set {key!r}: expected {{action: probability}} "
                                 f"over {list(actions)}; got {dist!r}")
            unknown = [a for a in dist if a not in actions]
            if unknown:
                raise ValueError(f"information set {key!r} has no action {unknown[0]!r}; "
                                 f"its actions are {list(actions)}")
            probs[row, : len(actions)] = [_as_probability(dist.get(a, 0.0), key, a)
                                          for a in actions]
        return cls(game, probs)

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{infoset key: {action label: probability}}``, one entry per information set."""
        return {
            key: {a: float(p) for a, p in zip(actions, self.probabilities[row])}
            for row, (key, actions) in enumerate(zip(self.game.infoset_keys,
                                                     self.game.infoset_actions))
        }

    def __getitem__(self, key: str) -> dict[str, float]:
        row = self.game.infoset_index(key)
        return dict(zip(self.game.infoset_actions[row], map(float, self.probabilities[row])))

    def __repr__(self) -> str:
        parts = []
        for key, dist in self.to_dict().items():
            parts.append(f"{key}: " + " ".join(f"{a}={p:.3f}" for a, p in dist.items()))
        return f"Policy({self.game.name}; " + "; ".join(parts) + ")"


def _as_table(probabilities: npt.ArrayLike, game: GameLike) -> FloatArray:
    """A private float copy of a table of numbers, or a ValueError saying what was given."""
    want = (f"a policy for {game.name} needs an array of shape {game.legal_mask.shape} "
            "(information sets x actions) holding numbers")
    try:
        raw = np.asarray(probabilities)
    except ValueError:  # a ragged nested list
        raise ValueError(f"{want}; got rows of different lengths") from None
    if raw.dtype.kind == "b":
        raise ValueError(f"{want}; its probabilities must be numbers, not bools")
    numbers = raw.dtype.kind in "iuf" or raw.dtype.kind == "O" and raw.ndim > 0 and all(
        isinstance(v, Real) and not isinstance(v, (bool, np.bool_)) for v in raw.ravel())
    if not numbers:
        raise ValueError(f"{want}; got {probabilities!r:.80}")
    return np.array(raw, dtype=float)


def _as_probability(value: object, key: str, action: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise ValueError(f"information set {key!r}, action {action!r}: probability {value!r} "
                         "is not a number")
    return float(value)


def _check_distribution(values: FloatArray, where: str, actions: Sequence[str]) -> None:
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{where}: probabilities {values.tolist()} must be finite numbers")
    if np.any(values < 0):
        bad = [a for a, v in zip(actions, values) if v < 0]
        raise ValueError(f"{where}: probability of {bad[0]!r} is negative "
                         f"({values.tolist()}); probabilities must be >= 0")
    total = float(values.sum())
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise ValueError(f"{where}: probabilities {values.tolist()} over {list(actions)} "
                         f"sum to {total:g}, not 1")


def as_distribution(value: npt.ArrayLike | Mapping[str, float], actions: Sequence[str],
                    where: str) -> FloatArray:
    """Validate a user-given distribution (a list, array or ``{action: p}``) over ``actions``."""
    if isinstance(value, Mapping):
        unknown = [a for a in value if a not in actions]
        if unknown:
            raise ValueError(f"{where}: unknown action {unknown[0]!r}; actions are {list(actions)}")
        value = [value.get(a, 0.0) for a in actions]
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{where} must be {len(actions)} probabilities over {list(actions)}; "
                         f"got {value!r}") from None
    if arr.shape != (len(actions),):
        raise ValueError(f"{where} must be {len(actions)} probabilities over {list(actions)}; "
                         f"got {value!r}")
    _check_distribution(arr, where, actions)
    return arr


def check_policy(game: GameLike, policy: object, what: str = "") -> None:
    """Refuse anything but a :class:`~cfrviz.Policy` that fits ``game``.

    A policy fits when it was made for ``game`` or for a game with the same
    information sets and actions (a payoff variant, or a matrix game and its
    two-move tree).

    Parameters
    ----------
    game : GameTree or MatrixGame
    policy : Policy
    what : str, optional
        Which argument is checked (e.g. ``"policy_a"``), put in front of the message.

    Raises
    ------
    ValueError
        For something that is not a Policy, a policy made for another game,
        or a game evaluation does not cover.
    """
    prefix = f"{what}: " if what else ""
    if not isinstance(getattr(game, "tree", game), GameTree):  # a MatrixGame has its .tree
        raise ValueError(f"{prefix}evaluation needs a game from cfrviz.load_game (a GameTree or "
                         f"a MatrixGame); got {type(game).__name__}")
    if not isinstance(policy, Policy):
        raise ValueError(f"{prefix}expected a cfrviz Policy (e.g. trace.average_policy()); "
                         f"got {type(policy).__name__}")
    if policy.game is not game and (policy.game.infoset_keys != game.infoset_keys
                                    or policy.game.infoset_actions != game.infoset_actions):
        raise ValueError(f"{prefix}this policy was made for {policy.game.name}, not {game.name}")
