"""A bot's answer, checked: :func:`as_probabilities` reads what a bot returned at a situation
as probabilities over the legal actions, or refuses it saying why; :func:`decode` reads an
answer made plain data (:func:`cfrviz.play.runner.plain`) back into those values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Real

import numpy as np

from ..core.policy import SUM_TOLERANCE
from .runner import Situation

#: Readable names a bot may use for the same action: with no bet to face, "raise" is the bet
#: and "call" the check (and the other way round).
SYNONYMS = {"raise": "bet", "bet": "raise", "call": "check", "check": "call"}


class Refused(ValueError):
    """An answer that is not a distribution over the legal actions (kind, message)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def as_probabilities(answer, situation: Situation) -> np.ndarray:
    """A bot's answer at ``situation`` as probabilities over ``situation.actions``.

    Accepted: an action label or readable name (``"r"``, ``"raise"``, any case;
    ``"raise"`` and ``"bet"``, ``"call"`` and ``"check"`` are the same action),
    a mapping ``{action: probability}`` (labels or names), or a sequence of
    ``len(situation.actions)`` probabilities.  Probabilities must be finite,
    non-negative and sum to 1 (within ``SUM_TOLERANCE``).

    Raises
    ------
    ValueError
        Saying what was returned and what the legal actions are; its
        ``kind`` attribute is ``"illegal action"``, ``"bad answer"`` or
        ``"bad probabilities"``.
    """
    actions, lookup = situation.actions, _lookup(situation)
    if isinstance(answer, str):
        probs = np.zeros(len(actions))
        probs[_action_index(answer, lookup)] = 1.0
        return probs
    if answer is None:
        raise Refused("bad answer", "returned None (is a `return` missing?); return an action "
                       f"such as {actions[0]!r}, {{action: probability}} or a list of "
                       f"{len(actions)} probabilities")
    if isinstance(answer, Mapping):
        probs = np.zeros(len(actions))
        for label, p in answer.items():
            probs[_action_index(label, lookup)] += _probability(p, label)
    elif isinstance(answer, (Sequence, np.ndarray)) and not isinstance(answer, (bytes, bytearray)):
        probs = _listed_probabilities(answer, actions)
    else:
        raise Refused("bad answer", f"returned {answer!r:.60}; return an action such as "
                       f"{actions[0]!r}, {{action: probability}} or a list of {len(actions)} "
                       "probabilities")
    _check_distribution(probs, actions)
    return probs


def _lookup(situation: Situation) -> dict[str, int]:
    """``{word: action index}``: each action's label and readable name in lower case, and
    their synonyms ("raise" with no bet to face is the bet, and so on)."""
    lookup = {a.lower(): i for i, a in enumerate(situation.actions)}
    lookup.update({n.lower(): i for i, n in enumerate(situation.names)})
    for word, same in SYNONYMS.items():
        if same in lookup and word not in lookup:
            lookup[word] = lookup[same]
    return lookup


def _action_index(label, lookup: dict[str, int]) -> int:
    """The index of the action ``label`` names, in any case and spacing."""
    if isinstance(label, str) and label.strip().lower() in lookup:
        return lookup[label.strip().lower()]
    if isinstance(label, str):
        raise Refused("illegal action", f"returned {label!r}, which is not a legal action "
                       "here")
    raise Refused("bad answer", f"used {label!r} as an action; actions are strings")


def _listed_probabilities(answer, actions: tuple[str, ...]) -> np.ndarray:
    """A sequence (or array) of one probability per legal action, in their order."""
    values = list(np.asarray(answer, dtype=object).ravel()) \
        if isinstance(answer, np.ndarray) else list(answer)
    if len(values) != len(actions):
        raise Refused("bad answer", f"returned {len(values)} probabilities, but there are "
                       f"{len(actions)} legal actions here, in the order of "
                       "situation.actions")
    return np.array([_probability(p, a) for p, a in zip(values, actions)])


def _check_distribution(probs: np.ndarray, actions: tuple[str, ...]) -> None:
    if not np.all(np.isfinite(probs)):
        raise Refused("bad probabilities", f"returned probabilities {probs.tolist()}, which "
                       "are not all finite numbers (a NaN often comes from 0/0)")
    if np.any(probs < 0):
        raise Refused("bad probabilities", f"returned a negative probability: {probs.tolist()}")
    total = float(probs.sum())
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise Refused("bad probabilities", f"returned probabilities {probs.tolist()} over "
                       f"{list(actions)}, which sum to {total:g}, not 1")


def _probability(value, label) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (Real, np.number)):
        raise Refused("bad probabilities", f"gave {label!r} the probability {value!r:.40}, "
                       "which is not a number")
    return float(value)


class _Shown:
    """An object a bot answered with, known by its repr only: refused, and shown in the
    message as the bot wrote it."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def decode(data) -> object:
    """An answer made plain by :func:`cfrviz.play.runner.plain` (in this process, or parsed from a
    bot's process), as the values :func:`as_probabilities` checks: a str, None, a list of
    floats or a dict.  Anything else raises a ``ValueError``.
    """
    match data:
        case ["none"]:
            return None
        case ["seq", list() as values]:
            return [_decode_item(v) for v in values]
        case ["map", list() as pairs] if all(isinstance(p, list) and len(p) == 2 for p in pairs):
            return {_decode_item(key): _decode_item(value) for key, value in pairs}
        case ["s" | "repr", str()]:
            return _decode_item(data)
    raise ValueError(f"not an answer: {data!r:.60}")


def _decode_item(value) -> object:
    """One plain value of an answer: a str, a bool, a number or an object shown by its repr."""
    match value:
        case ["s", str() as text]:
            return text
        case ["repr", str() as text]:
            return _Shown(text)
        case ["bool", bool() as flag]:
            return flag
        case int() | float() if not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:
                pass
    raise ValueError(f"not part of an answer: {value!r:.60}")
