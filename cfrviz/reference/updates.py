"""CFR's regret update beside the wrong ones people write, and what each does to training.

Every rule has the signature of :func:`~cfrviz.reference.cfr.counterfactual_regret`,
``update(reach, player, action_values, value)`` with ``reach = [player 1,
player 2, chance]``, so any of them can be handed to
:func:`~cfrviz.reference.cfr.vanilla_cfr`.  Lesson 03's checker recognises a
student's mistake by finding the rule that reproduces every call, and
:func:`update_comparison` trains with several of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..core.regret import average_strategy
from ..core.tree import as_tree
from .cfr import counterfactual_regret, vanilla_cfr
from .evaluation import tree_exploitability

#: The right update (``"cfr"``) and typical wrong ones, by the name of the mistake.
REGRET_UPDATES: dict[str, Callable] = {
    "cfr": counterfactual_regret,
    "own-reach": lambda r, i, q, v: r[i] * (q - v),
    "own-and-chance": lambda r, i, q, v: r[i] * r[2] * (q - v),
    "sign": lambda r, i, q, v: r[2] * r[1 - i] * (v - q),
    "no-chance": lambda r, i, q, v: r[1 - i] * (q - v),
    "all-reach": lambda r, _i, q, v: r[0] * r[1] * r[2] * (q - v),
    "unweighted": lambda _r, _i, q, v: q - v,
    "chance-only": lambda r, _i, q, v: r[2] * (q - v),
    "no-baseline": lambda r, i, q, _v: r[2] * r[1 - i] * q,
    "player-2-reach": lambda r, _i, q, v: r[2] * r[1] * (q - v),
    "player-1-reach": lambda r, _i, q, v: r[2] * r[0] * (q - v),
}


def update_comparison(game, iterations: int = 1000, names: Sequence[str] = ("cfr", "own-reach"),
                      points: int = 25) -> dict:
    """Exploitability of the average strategy when vanilla CFR uses each update of
    :data:`REGRET_UPDATES`.

    Runs :func:`~cfrviz.reference.cfr.vanilla_cfr` (plain Python) once per
    name, so a thousand iterations of Kuhn poker take a few seconds.

    Returns
    -------
    dict
        ``{"iterations": int array, name: exploitability array, ...}`` at
        about ``points`` log-spaced iterations.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known ones) or fewer than
        one iteration.
    """
    tree = as_tree(game)
    unknown = [n for n in names if n not in REGRET_UPDATES]
    if unknown:
        raise ValueError(f"unknown update {unknown[0]!r}; choose from {list(REGRET_UPDATES)}")
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1; got {iterations}")
    marks = np.unique(np.geomspace(1, iterations, points).round().astype(int))
    result = {"iterations": marks}
    for name in names:
        run = vanilla_cfr(tree, iterations, update=REGRET_UPDATES[name])
        result[name] = np.array([
            tree_exploitability(tree, average_strategy(step["strategy_sum"], tree.legal_mask))
            for t, step in enumerate(run, start=1) if t in marks])
    return result
