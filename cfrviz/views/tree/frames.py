"""What one strategy shows on a drawn tree: the checked inputs (strategy, best-responding
player, selected information set), edge widths in probability steps, edge labels, and
:class:`TreeFrame`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.tree import GameTree
from ..style import MIN_LINE_PX, Style, get_style

#: Edge widths are drawn in this many probability steps (one trace each): 1/10 = 0.1, a
#: width step of 0.6 px.
WIDTH_STEPS = 10


def edge_width(probability, style: Style | None = None):
    """Drawn width of an edge taken with ``probability``: ``2 + 5 p`` pixels (scaled), never
    under the legibility standard's ``MIN_LINE_PX``."""
    scale = (style or get_style()).line_scale
    return scale * (MIN_LINE_PX + 5.0 * np.asarray(probability, dtype=float))


def width_steps(probability) -> np.ndarray:
    """Each probability in steps of ``1 / WIDTH_STEPS`` (nearest): step 0, under half a
    step, is drawn dotted and thin, as never taken."""
    return np.rint(np.asarray(probability, dtype=float) * WIDTH_STEPS).astype(np.int64)


def strategy_array(tree: GameTree, policy) -> np.ndarray | None:
    """The (information sets, actions) array of a Policy or an array, checked against ``tree``."""
    if policy is None:
        return None
    game = getattr(policy, "game", None)
    if game is not None:
        if game is not tree and (
                tuple(game.infoset_keys) != tree.infoset_keys
                or tuple(map(tuple, game.infoset_actions)) != tree.infoset_actions):
            raise ValueError(f"this policy was made for {game.name}, not {tree.name}; make it "
                             f"from the game drawn (e.g. cfrviz.Policy.uniform(game))")
        policy = policy.probabilities
    try:
        probs = np.asarray(policy, dtype=float)
    except (TypeError, ValueError):
        probs = np.asarray(None)  # reported below with what was given
    if probs.shape != tree.legal_mask.shape:
        raise ValueError(f"a strategy for {tree.name} is a Policy or an array of shape "
                         f"{tree.legal_mask.shape} (information sets x actions); "
                         f"got {f'shape {probs.shape}' if probs.ndim else repr(policy)[:80]}")
    return probs


def best_response_player(spec) -> int | None:
    """``None``, 0, 1, ``{"player": 0 or 1}`` or an object with ``.player`` -> player or None."""
    if spec is None or spec is False:
        return None
    player = spec.get("player") if isinstance(spec, dict) else getattr(spec, "player", spec)
    if isinstance(player, (bool, np.bool_)) or player not in (0, 1):
        raise ValueError("best_response takes the player who best-responds: 0 (player 1) or 1 "
                         f"(player 2), or {{'player': 0 or 1}}; got {spec!r}")
    return int(player)


def infoset_id(tree: GameTree, selected) -> int | None:
    if selected is None:
        return None
    if isinstance(selected, str):
        return tree.infoset_index(selected)
    if isinstance(selected, (int, np.integer)) and not isinstance(selected, bool) \
            and 0 <= selected < tree.num_infosets:
        return int(selected)
    raise ValueError(f"selected_infoset is an information-set key such as "
                     f"{tree.infoset_keys[0]!r} or an id in 0..{tree.num_infosets - 1}; "
                     f"got {selected!r}")


@dataclass(frozen=True)
class TreeFrame:
    """What one strategy shows on a drawn tree (:meth:`TreeView.frame`).

    Attributes
    ----------
    probability : float array of shape (decision edges,) or None
        Each drawn decision edge's probability (``TreeView.decision_edges`` order); ``None``
        without a strategy.
    player : int or None
        Who best-responds (0 or 1), if anyone.
    value : float or None
        The best response's value for that player.
    chosen : bool array of shape (decision edges,)
        The best response's actions (all ``False`` without one).
    selected : int or None
        The selected information set.
    ringed : int array
        Its drawn members (node ids).
    """

    probability: np.ndarray | None
    player: int | None
    value: float | None
    chosen: np.ndarray
    selected: int | None
    ringed: np.ndarray

    @property
    def note(self) -> str:
        """The best response in words (``""`` without one), shown above the tree."""
        if self.player is None:
            return ""
        return f"best response of player {self.player + 1} (green bands): value {self.value:+.4f}"


def edge_texts(actions, probability) -> list[str]:
    """Edge labels: each action followed by its probability in at most four characters
    (``"b .33"``), or the actions alone when ``probability`` is ``None``."""
    if probability is None:
        return list(actions)
    return [f"{a} {_short(q)}" for a, q in zip(actions, np.asarray(probability).tolist())]




def _short(q: float) -> str:
    """A probability in at most four characters: 1, 0, .33."""
    text = f"{q:.2f}"
    return {"1.00": "1", "0.00": "0"}.get(text, text[1:] if text.startswith("0") else text)


