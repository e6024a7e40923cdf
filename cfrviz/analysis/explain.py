"""What CFR did at one information set in one iteration, computed from a trace.

The training explorer's panel shows these numbers; the lessons quote them.
:func:`counterfactual_values` gives the same numbers for any strategy profile.
Everything here is recomputed exactly from the recorded strategies (never
re-running the solver), so a student can check each step by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.checks import infoset_id
from ..core.markup import escape
from ..core.policy import Policy
from ..core.regret import regret_matching
from ..core.tree import as_tree
from ..engine import counterfactual_table
from ..solvers.registry import algorithm


def played_profile(trace, index: int, player: int) -> np.ndarray:
    """The strategy profile ``player``'s regrets were computed against at record ``index``.

    With alternating updates player 2 is updated after player 1, against
    player 1's freshly updated strategy (regret matching on player 1's rows of
    the recorded cumulative regrets); otherwise both faced the strategy
    played at the start of the iteration.
    """
    game = trace.game
    profile = np.array(trace.current_strategy[index])
    if (player == 1 and trace.params.get("alternating", True)
            and algorithm(trace.algorithm).alternates):
        first = game.infoset_player == 0
        profile[first] = regret_matching(trace.cumulative_regret[index], game.legal_mask)[first]
    return profile


@dataclass(frozen=True)
class InfosetSnapshot:
    """One information set at one recorded iteration.

    Attributes
    ----------
    key, player, actions, iteration
    opponent_reach : float
        Probability that chance and the opponent lead play into the set (summed
        over its nodes): the weight of its counterfactual values.
    own_reach : float
        The owner's own probability of playing towards the set.
    action_values, value : numpy arrays / float
        Counterfactual value of each action and of the strategy played.
    regret, cumulative_regret, current, next_strategy, average
        This iteration's regret, the sum so far, the strategy played, the
        regret-matching strategy for the next iteration, the average strategy.
    exact : bool
        Whether ``regret`` is the exact counterfactual regret (full-tree
        algorithms); sampling algorithms record a sampled estimate.
    regrets : bool
        Whether the algorithm is a regret minimiser (see
        :attr:`cfrviz.solvers.Algorithm.regrets`).  If not (magnetic mirror descent),
        ``regret`` is the counterfactual regret of the current strategy, computed here,
        ``cumulative_regret`` the algorithm's own state (its strategy's logarithms) and
        ``next_strategy`` the current strategy: the panel shows no regret-matching step.
    """

    key: str
    player: int
    actions: tuple
    iteration: int
    opponent_reach: float
    own_reach: float
    action_values: np.ndarray
    value: float
    regret: np.ndarray
    cumulative_regret: np.ndarray
    current: np.ndarray
    next_strategy: np.ndarray
    average: np.ndarray
    exact: bool
    regrets: bool = True


def infoset_snapshot(trace, index: int, infoset) -> InfosetSnapshot:
    """The numbers behind one information set at record ``index`` of a tree trace.

    ``infoset`` is an information-set id or key.
    """
    game = trace.game
    info = infoset_id(game, infoset)
    if not 0 <= index < len(trace):
        raise ValueError(f"record {index} is outside this trace (0..{len(trace) - 1})")
    player = int(game.infoset_player[info])
    k = len(game.infoset_actions[info])
    table = counterfactual_table(game, played_profile(trace, index, player), player)
    cumulative = trace.cumulative_regret[index, info, :k]
    regret = trace.instantaneous_regret[index, info, :k]
    solver = algorithm(trace.algorithm)
    # what regret matching plays next: on the cumulative regrets, or on them plus the last
    # regrets (the prediction) for PCFR+ and PDCFR+
    upcoming = cumulative + regret if solver.predictive else cumulative
    current = trace.current_strategy[index, info, :k]
    if not solver.regrets:  # no regrets recorded: the current strategy's, from the table
        regret = table["action_values"][info, :k] - table["value"][info]
    return InfosetSnapshot(
        key=game.infoset_keys[info], player=player, actions=game.infoset_actions[info],
        iteration=int(trace.iterations[index]),
        opponent_reach=float(table["opponent_reach"][info]),
        own_reach=float(table["own_reach"][info]),
        action_values=table["action_values"][info, :k], value=float(table["value"][info]),
        regret=regret, cumulative_regret=cumulative,
        current=current,
        next_strategy=regret_matching(upcoming) if solver.regrets else current,
        average=trace.average_strategy[index, info, :k], exact=solver.exact_regrets,
        regrets=solver.regrets)


def counterfactual_values(game, policy, infoset) -> dict:
    """The counterfactual quantities of one information set under a strategy profile.

    A thin wrapper over :func:`cfrviz.engine.counterfactual_table` for one set.

    Parameters
    ----------
    game : GameTree or MatrixGame
    policy : Policy, dict or array_like
        A :class:`~cfrviz.core.policy.Policy`, ``{key: {action: p}}`` (sets
        left out are uniform) or a probability table.
    infoset : str or int
        The set's key or id.

    Returns
    -------
    dict
        ``key``, ``player``, ``actions``, ``opponent_reach`` (chance and
        opponent, summed over the set's nodes), ``own_reach``,
        ``action_values`` (one per action), ``value`` and ``regret``
        (``action_values - value``, this iteration's counterfactual regret;
        Zinkevich et al.'s *immediate* counterfactual regret is the time
        average of the largest cumulative one).
    """
    tree = as_tree(game)
    if isinstance(policy, dict):
        policy = Policy.from_dict(tree, policy)
    probs = np.asarray(getattr(policy, "probabilities", policy), dtype=float)
    info = infoset_id(tree, infoset)
    player = int(tree.infoset_player[info])
    k = len(tree.infoset_actions[info])
    table = counterfactual_table(tree, probs, player)
    values = table["action_values"][info, :k].copy()
    value = float(table["value"][info])
    return {"key": tree.infoset_keys[info], "player": player,
            "actions": tree.infoset_actions[info],
            "opponent_reach": float(table["opponent_reach"][info]),
            "own_reach": float(table["own_reach"][info]),
            "action_values": values, "value": value, "regret": values - value}


def snapshot_html(s: InfosetSnapshot, font_size: int = 13) -> str:
    """The panel: reach, counterfactual values, regrets and the regret-matching step, as HTML.

    The set's key and action labels come from the game (perhaps a shared file) and are
    escaped (:func:`cfrviz.core.markup.escape`).
    """
    def row(name, values, fmt="{:+.4f}"):
        cells = "".join(f"<td style='padding:2px 10px;text-align:right'>"
                        f"{fmt.format(float(v) + 0.0)}</td>" for v in values)
        return f"<tr><td style='padding:2px 10px'>{name}</td>{cells}</tr>"

    head = "".join(f"<th style='padding:2px 10px'>{escape(a)}</th>" for a in s.actions)
    positive = np.maximum(s.cumulative_regret, 0)
    total = positive.sum()
    if total > 0:
        step = " + ".join(f"{p:.3f}" for p in positive)
        rm = (f"positive regrets ({step}) sum to {total:.3f}; each action's share of that sum is "
              f"its next probability")
    else:
        rm = "no action has positive cumulative regret, so the next strategy is uniform"
    kind = "" if s.exact else " (a sampled estimate: this algorithm samples)"
    if not s.regrets:
        return (
            f"<div style='font-size:{font_size}px'>"
            f"<b>{escape(s.key)}</b> — player {s.player + 1}, iteration {s.iteration:,}<br>"
            f"opponent-and-chance reach <b>{s.opponent_reach:.4f}</b>; own reach "
            f"{s.own_reach:.4f}<br>counterfactual value of the current strategy "
            f"<b>{s.value + 0.0:+.4f}</b>"
            f"<table><tr><th></th>{head}</th></tr>"
            + row("counterfactual value", s.action_values)
            + row("regret of the current strategy", s.regret)
            + row("current strategy", s.current, "{:.3f}")
            + row("average strategy", s.average, "{:.3f}")
            + "</table><i>Not regret matching:</i> this algorithm keeps no regrets; its next "
              "strategy is a mirror-descent step, at each set a softmax of the step size "
              "times the values, the last strategy's logarithms and the magnet's.</div>")
    return (
        f"<div style='font-size:{font_size}px'>"
        f"<b>{escape(s.key)}</b> — player {s.player + 1}, iteration {s.iteration:,}<br>"
        f"opponent-and-chance reach <b>{s.opponent_reach:.4f}</b>; own reach "
        f"{s.own_reach:.4f}<br>counterfactual value of the strategy played "
        f"<b>{s.value + 0.0:+.4f}</b>"
        f"<table><tr><th></th>{head}</th></tr>"
        + row("counterfactual value", s.action_values)
        + row(f"regret this iteration{kind}", s.regret)
        + row("cumulative regret", s.cumulative_regret)
        + row("strategy played", s.current, "{:.3f}")
        + row("next strategy (regret matching)", s.next_strategy, "{:.3f}")
        + row("average strategy", s.average, "{:.3f}")
        + f"</table><i>Regret matching:</i> {rm}.</div>")
