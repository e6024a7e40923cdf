"""LiteEFG (pip ``liteefg``, C++) run so that its numbers line up with cfrviz's, for
tests/test_liteefg.py and benchmarks/bench_liteefg.py.

LiteEFG (Liu, Farina and Ozdaglar, 2024) builds each algorithm as a computation graph over the
game's information sets; its baselines ``CFR``, ``CFRplus``, ``DCFR`` and ``PCFR`` are the ones
compared here.  Games come from OpenSpiel, whose information-state strings
(``"0pb"``, ``"[Observer: 0][Private: 5][Round 2]...[Public: 2][Round1: 1 2 1][Round2: 2]"``)
are mapped to cfrviz's keys (``"Jpb"``, ``"KhQs:rc/r"``) by :func:`kuhn_key` and
:func:`leduc_key`.

The definitions, aligned (each difference is a choice of convention, not of algorithm):

- **Which strategy is recorded.**  LiteEFG's runner (``baselines/utils.train``) folds the
  strategy into its averages *after* the update, i.e. the next iteration's strategy; cfrviz
  averages the strategy each iteration played.  :func:`run` records *before* the update, as
  cfrviz does.
- **Update order.**  LiteEFG's CFR updates both players from the same strategies (cfrviz's
  ``alternating=False``); its CFR+, DCFR and PCFR+ update player 1, then player 2 against
  player 1's new strategy (cfrviz's default, ``alternating=True``).
- **Averages.**  CFR: the environment's ``avg-iterate`` (own-reach weighted, uniform over
  iterations), cfrviz's CFR average.  CFR+: ``linear-avg-iterate`` (iteration t weighs t), as
  cfrviz's CFR+.  PCFR+: LiteEFG has no quadratic average, so cfrviz's ``gamma=1`` (linear) is
  compared with ``linear-avg-iterate``; the published ``gamma=2`` is compared on the iterates.
  DCFR: the graph's own ``avg_strategy``, which multiplies the sum by ((t-1)/t)^gamma before
  adding iteration t; cfrviz multiplies by (t/(t+1))^gamma after adding it.  Both weigh
  iteration s by s^gamma up to one common factor, which normalising removes.
- **DCFR's regret discount.**  LiteEFG multiplies the cumulative regrets by iteration t-1's
  factors (t-1)^a/((t-1)^a+1) (and ^b for negatives) *before* adding iteration t's regrets;
  cfrviz (as Brown and Sandholm and OpenSpiel) by t's factors *after*.  By induction cfrviz's
  table is LiteEFG's with t's factors applied (:func:`dcfr_discount`): the positive parts differ
  by one factor per information set, so regret matching plays the same strategy.
- **Exploitability.**  LiteEFG returns each player's best-response gain (their sum is NashConv);
  cfrviz reports NashConv / 2.
- **Strategies at sets a strategy never reaches.**  LiteEFG's ``get_strategy`` goes through the
  sequence form and returns uniform there; :func:`run` reads the raw behavioural strategy with
  ``get_value`` instead, as cfrviz's tables hold it.

LiteEFG caches each OpenSpiel game it converts under ``~/game_instances``: :func:`environment`
takes the directory to use instead (the tests pass a temporary one).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import numpy as np


@dataclass(frozen=True)
class Algorithm:
    """One of LiteEFG's baselines compared here: cfrviz's name and ``solve`` arguments, the
    module in ``LiteEFG.baselines``, and the average LiteEFG keeps that matches cfrviz's
    (``"graph"``: the graph's own ``avg_strategy`` node; otherwise the environment's kind)."""

    name: str  # cfrviz's
    module: str  # LiteEFG.baselines.<module>
    kwargs: tuple[tuple[str, object], ...]  # cfrviz.solve's keyword arguments
    average: str

    @property
    def options(self) -> dict[str, object]:
        return dict(self.kwargs)


ALGORITHMS = {
    "cfr": Algorithm("cfr", "CFR", (("alternating", False),), "avg-iterate"),
    "cfr+": Algorithm("cfr+", "CFRplus", (), "linear-avg-iterate"),
    "dcfr": Algorithm("dcfr", "DCFR", (), "graph"),
    "pcfr+": Algorithm("pcfr+", "PCFR", (("gamma", 1.0),), "linear-avg-iterate"),
}

#: OpenSpiel's Leduc actions, in its order (0 fold, 1 call or check, 2 raise or bet).
LEDUC_MOVES = "fcr"
_LEDUC = re.compile(r"\[Private: (\d+)\].*?(?:\[Public: (\d+)\])?"
                    r"\[Round1: ([0-9 ]*)\]\[Round2: ([0-9 ]*)\]")


def kuhn_key(info: str) -> str:
    """OpenSpiel's ``"0pb"`` (card 0, 1, 2 then the moves) as cfrviz's ``"Jpb"``."""
    return "JQK"[int(info[0])] + info[1:]


def leduc_card(card: int, suits: bool) -> str:
    """OpenSpiel's Leduc card: rank ``card // 2`` (J, Q, K), suit ``card % 2`` (cfrviz's s, h).

    With ``suit_isomorphism=True`` OpenSpiel deals ranks only, numbered 0, 1, 2.
    """
    return "JQK"[card // 2] + "sh"[card % 2] if suits else "JQK"[card]


def leduc_key(info: str, suits: bool = True) -> str:
    """OpenSpiel's Leduc information state as cfrviz's key: own card, public card once dealt,
    ``:``, the first round's moves, then ``/`` and the second round's once it has begun."""
    match = _LEDUC.search(info)
    if match is None:
        raise ValueError(f"not an OpenSpiel Leduc information state: {info!r}")
    private, public, first, second = match.groups()

    def moves(text: str) -> str:
        return "".join(LEDUC_MOVES[int(a)] for a in text.split())

    key = leduc_card(int(private), suits)
    if public is None:
        return f"{key}:{moves(first)}"
    return f"{key}{leduc_card(int(public), suits)}:{moves(first)}/{moves(second)}"


@dataclass(frozen=True)
class Game:
    """One game as cfrviz and OpenSpiel name it, and how OpenSpiel's information states map."""

    label: str
    cfrviz: tuple[str, tuple[tuple[str, object], ...]]  # load_game's name and parameters
    openspiel: str
    key: Callable[[str], str]

    def load(self):
        import cfrviz

        name, params = self.cfrviz
        return cfrviz.load_game(name, **dict(params))


GAMES = {
    "kuhn": Game("Kuhn", ("kuhn_poker", ()), "kuhn_poker", kuhn_key),
    # OpenSpiel's Leduc deals six cards: cfrviz's suits=True has the same 936 information sets.
    "leduc": Game("Leduc", ("leduc_poker", (("suits", True),)), "leduc_poker", leduc_key),
    # cfrviz's default Leduc deals ranks (288 sets), as OpenSpiel's suit_isomorphism=True does.
    "leduc-ranks": Game("Leduc, ranks", ("leduc_poker", ()),
                        "leduc_poker(suit_isomorphism=True)",
                        lambda info: leduc_key(info, suits=False)),
}


def environment(game: Game, cache: Path):
    """LiteEFG's ``OpenSpielEnv`` for ``game`` (full-tree traversal), its converted game file
    kept under ``cache`` instead of ``~/game_instances``."""
    import LiteEFG as leg
    import pyspiel

    home = os.environ.get("HOME")
    os.environ["HOME"] = str(cache)
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # "Generating ... instance"
            return leg.OpenSpielEnv(pyspiel.load_game(game.openspiel),
                                    traverse_type="Enumerate", regenerate=False)
    finally:
        if home is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = home


def graph(algorithm: Algorithm):
    """A fresh LiteEFG graph of ``algorithm`` (its banner, printed on creation, swallowed)."""
    import importlib

    module = importlib.import_module(f"LiteEFG.baselines.{algorithm.module}")
    with contextlib.redirect_stdout(io.StringIO()):
        return module.graph()


#: (game label, LiteEFG's information-set name) -> cfrviz's information-set index, filled as
#: names are met: mapping a name parses it once.
_INDEX: dict[tuple[str, str], int] = {}


def index(tree, game: Game, name: str) -> int:
    """cfrviz's index of LiteEFG's information set ``name`` (``pl<player>_<n>__<quoted
    OpenSpiel information state>``)."""
    found = _INDEX.get((game.label, name))
    if found is None:
        found = tree.infoset_index(game.key(unquote(name[name.find("__") + 2:])))
        _INDEX[game.label, name] = found
    return found


def read(env, node, tree, game: Game, kind: str = "raw") -> np.ndarray:
    """A table over cfrviz's (information sets, actions) of LiteEFG node ``node``: its raw
    values (``kind="raw"``) or the behavioural strategy of one of the environment's averages.

    Every information set of ``tree`` must be filled exactly once, and each with as many values
    as it has legal actions: a mapping that missed or doubled a set fails here.
    """
    import LiteEFG as leg

    out = np.full(tree.legal_mask.shape, np.nan)
    seen = np.zeros(tree.num_infosets, dtype=int)
    legal = tree.legal_mask.sum(axis=1)
    for player in (1, 2):
        if kind == "raw":
            rows = leg.FileEnv.get_value(env, player, node)
        else:
            rows = leg.FileEnv.get_strategy(env, player, node, kind)
        for name, values in rows:
            info = index(tree, game, name)
            if len(values) != legal[info]:
                raise ValueError(f"{tree.infoset_keys[info]!r}: LiteEFG has {len(values)} "
                                 f"actions, cfrviz {int(legal[info])}")
            out[info, tree.legal_mask[info]] = values
            seen[info] += 1
    if not (seen == 1).all():
        missing = [tree.infoset_keys[i] for i in np.flatnonzero(seen != 1)][:5]
        raise ValueError(f"LiteEFG's information sets do not map one to one on cfrviz's: "
                         f"{missing}")
    return out


def write(env, node, tree, game: Game, table: np.ndarray) -> None:
    """Set LiteEFG node ``node`` to cfrviz's (information sets, actions) ``table``."""
    import LiteEFG as leg

    for player in (1, 2):
        rows = leg.FileEnv.get_value(env, player, node)
        values = []
        for name, _ in rows:
            info = index(tree, game, name)
            values.append(table[info, tree.legal_mask[info]].tolist())
        leg.FileEnv.set_value(env, player, node, values)


@dataclass
class Run:
    """A LiteEFG run, in cfrviz's layout: ``current[k]`` the strategy played at iteration k+1
    (both players), ``regret[k]`` the cumulative regrets after it, and at each checkpoint the
    average strategy and its exploitability (NashConv / 2)."""

    current: np.ndarray
    regret: np.ndarray
    average: dict[int, np.ndarray]
    exploitability: dict[int, float]


def run(game: Game, algorithm: Algorithm, iterations: int, checkpoints: list[int],
        cache: Path) -> Run:
    """``iterations`` iterations of LiteEFG's ``algorithm`` on ``game``, recorded as cfrviz
    records them (the strategy before each update: see the module's notes)."""
    tree = game.load()
    env = environment(game, cache)
    g = graph(algorithm)
    env.set_graph(g)
    current, regret, average, exploitability = [], [], {}, {}
    for t in range(1, iterations + 1):
        current.append(read(env, g.current_strategy(), tree, game))
        env.update_strategy(g.current_strategy())
        g.update_graph(env)
        regret.append(read(env, g.regret_buffer, tree, game))
        if t in checkpoints:
            node, kind = ((g.avg_strategy, "default") if algorithm.average == "graph"
                          else (g.current_strategy(), algorithm.average))
            average[t] = read(env, node, tree, game, kind)
            exploitability[t] = sum(env.exploitability(node, kind)) / 2
    return Run(np.array(current), np.array(regret), average, exploitability)


#: DCFR's parameters in both (the paper's, and both libraries' defaults).
DCFR_ALPHA, DCFR_BETA = 1.5, 0.0


def dcfr_discount(table: np.ndarray, t: int, inverse: bool = False) -> np.ndarray:
    """``table`` with DCFR's discount of iteration ``t`` applied (or undone): positive entries
    times t^alpha / (t^alpha + 1), the others times t^beta / (t^beta + 1).  LiteEFG's regret
    table after iteration t, so discounted, is cfrviz's."""
    pos = t ** DCFR_ALPHA / (t ** DCFR_ALPHA + 1.0)
    neg = t ** DCFR_BETA / (t ** DCFR_BETA + 1.0)
    if inverse:
        pos, neg = 1.0 / pos, 1.0 / neg
    return np.where(table > 0, table * pos, table * neg)


def step(game: Game, algorithm: Algorithm, tree, env, g, t: int, regret: np.ndarray,
         strategy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LiteEFG's iteration ``t`` started from cfrviz's state: the cumulative regrets after
    iteration t-1 (``regret``) and the strategy played at t (``strategy``).

    Returns LiteEFG's cumulative regrets after iteration t, in cfrviz's convention (DCFR's
    discount of t applied), and the strategy it plays at t+1.  ``env`` and ``g`` are a LiteEFG
    environment and graph that have run t-1 iterations (DCFR's graph counts them).
    """
    if algorithm.name == "dcfr" and t > 1:
        # LiteEFG will discount by t-1's factors before adding: hand it the undiscounted table.
        regret = dcfr_discount(regret, t - 1, inverse=True)
    write(env, g.regret_buffer, tree, game, regret)
    write(env, g.current_strategy(), tree, game, strategy)
    g.update_graph(env)
    after = read(env, g.regret_buffer, tree, game)
    if algorithm.name == "dcfr":
        after = dcfr_discount(after, t)
    return after, read(env, g.current_strategy(), tree, game)
