"""Checkers and small helpers for lesson 03, counterfactual regret.

Two exercises: the counterfactual values of one Kuhn information set worked out by
hand (:func:`check_counterfactual_values`), and the regret update of CFR written as
a function (:func:`check_regret_update`), which the checker plugs into a copy of
the readable recursive CFR (:func:`cfr_with_update`) and runs on Kuhn poker side by
side with :func:`cfrviz.reference.vanilla_cfr`.

The helpers put the same ideas on screen: :func:`listing` shows part of a
function's source with its line numbers, :func:`bluff_explorer` moves player 1's
betting and shows what player 2's counterfactual values make of it, and
:func:`update_comparison_figure` trains with the right update and with typical
wrong ones.
"""

from __future__ import annotations

import html
import inspect
from dataclasses import dataclass

import numpy as np

from ..core.regret import regret_matching
from ..core.tree import CHANCE, TERMINAL, as_tree
from . import Feedback, correct, not_done, unanswered, wrong

#: Exercise 1: player 1 bets K always, J one time in three, Q never (other sets uniform).
BLUFF_POLICY = {"J": {"p": 2 / 3, "b": 1 / 3}, "Q": {"p": 1.0, "b": 0.0},
                "K": {"p": 0.0, "b": 1.0}}
#: ...and player 2 holds Q facing a bet.
CF_INFOSET = "Qb"
#: Iterations the regret-update checker runs side by side with the reference.
CHECK_ITERATIONS = 30


def _kuhn():
    from ..games import load_game
    return load_game("kuhn_poker")


# --- exercise 1: counterfactual values by hand -----------------------------------------------

def counterfactual_values(game, policy, infoset) -> dict:
    """The counterfactual quantities of one information set under a strategy profile.

    A thin wrapper over :func:`cfrviz.engine.counterfactual_table` for one set:
    ``opponent_reach`` (chance and opponent, summed over the set's nodes),
    ``own_reach``, ``action_values`` (one per action), ``value`` and
    ``regret`` (``action_values - value``, the immediate counterfactual regret of
    Zinkevich et al., 2007).
    """
    from ..engine import counterfactual_table
    from ..core.policy import Policy

    tree = as_tree(game)
    if isinstance(policy, dict):
        policy = Policy.from_dict(tree, policy)
    probs = np.asarray(getattr(policy, "probabilities", policy), dtype=float)
    info = tree.infoset_index(infoset) if isinstance(infoset, str) else int(infoset)
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


def _pair(answer, actions=("p", "b")):
    """Two finite numbers from a list, a tuple, an array or ``{"p": .., "b": ..}``."""
    if isinstance(answer, dict):
        if set(answer) != set(actions):
            return None
        answer = [answer[a] for a in actions]
    if isinstance(answer, (str, bytes)):
        return None
    try:
        values = np.array(answer, dtype=float)
    except (TypeError, ValueError):
        return None
    if values.shape != (len(actions),) or not np.all(np.isfinite(values)):
        return None
    return values


def check_counterfactual_values(answer) -> Feedback:
    """Exercise 1: the counterfactual values of fold and call at ``"Qb"`` under
    :data:`BLUFF_POLICY`.

    Player 2 holds Q facing a bet.  Player 1 holds J (chance 1/6, bets 1/3) or K
    (chance 1/6, bets always): weights 1/18 and 1/6.  Folding loses 1 at both:
    -(1/18 + 1/6) = -2/9.  Calling wins 2 against J and loses 2 against K:
    2/18 - 2/6 = -2/9.  Both are -2/9: player 1's bluffs make player 2 indifferent.
    """
    if unanswered(answer):
        return not_done("Set `my_values` to two numbers: the counterfactual value of folding "
                        "(p) and of calling (b), e.g. [-1/3, 1/2].")
    values = _pair(answer)
    if values is None:
        return wrong(f"Expected two numbers, [fold, call] (or {{'p': ..., 'b': ...}}); got "
                     f"{answer!r}.", "shape")
    right = np.array([-2 / 9, -2 / 9])
    if np.allclose(values, right, atol=2e-3):
        return correct("Yes: both are -2/9. Player 1 holds J with weight 1/6 x 1/3 = 1/18 and K "
                       "with weight 1/6 x 1 = 1/6. Folding loses 1 either way: -(1/18 + 1/6). "
                       "Calling wins 2 against J and loses 2 against K: 2/18 - 2/6. Equal "
                       "values mean zero regret for both actions: with these bluffs, player 2 "
                       "with Q has nothing to learn.")
    mistakes = (
        ([-2.0, 0.0], "own-reach",
         "You weighted each node by 1, which is player 2's own reach (it has not moved yet). "
         "A counterfactual value weights each node by how likely chance and the opponent "
         "make it: 1/6 x 1/3 for the J node, 1/6 x 1 for the K node."),
        ([-4 / 3, -4 / 3], "no-chance",
         "You used player 1's betting probabilities (1/3 and 1) but left out chance: each deal "
         "happens with probability 1/6, which multiplies in too."),
        ([-1 / 3, 0.0], "no-opponent",
         "You weighted both nodes by chance alone (1/6 each), as if player 1 bet with J as "
         "often as with K. Player 1's part of the reach counts: it bets K always but J only "
         "a third of the time."),
        ([-1 / 6, 0.0], "uniform",
         "These are the values if player 1 bet half the time with every card. Use the "
         "strategy given: bets J 1/3, K always."),
        ([-1.0, -1.0], "normalised",
         "These are the expected payoffs *given* that play reached Qb: the weights divided by "
         "their total (2/9) so that they sum to 1. The counterfactual value keeps the weights "
         "as they are, 1/18 and 1/6, without dividing."),
        ([2 / 9, 2 / 9], "sign",
         "The sign is flipped: these are player 1's values. The values here are player 2's: "
         "folding loses player 2 its ante, -1."),
    )
    for target, mistake, message in mistakes:
        if np.allclose(values, target, atol=2e-3):
            return wrong(message, mistake)
    return wrong(f"Not quite: you gave {np.round(values, 4).tolist()}. Weight each node of Qb "
                 "(player 1 holds J, or K) by chance x player 1's bet probability, and sum "
                 "weight x payoff: folding pays -1, calling +2 against J and -2 against K.")


# --- the readable recursive CFR with a pluggable regret update -------------------------------

def cfr_with_update(tree, iterations: int, regret_update, alternating: bool = True):
    """Vanilla CFR exactly as :func:`cfrviz.reference.vanilla_cfr`, with the regret line
    replaced by ``regret_update``.

    At each decision node of the player being updated, the walk adds
    ``regret_update(reach, player, action_values, value)`` to that set's regrets,
    where ``reach`` is ``[player 1's reach, player 2's reach, chance's reach]``.
    With ``regret_update = lambda r, i, q, v: r[2] * r[1 - i] * (q - v)`` this is
    CFR (Zinkevich et al., 2007) and agrees with the reference to rounding.

    The function receives copies, and what it returns must be one finite number
    per action; otherwise :class:`BadUpdate` is raised, saying what came back.

    Yields
    ------
    dict
        As :func:`~cfrviz.reference.vanilla_cfr`: ``strategy``, ``cumulative_regret``,
        ``regret`` and ``strategy_sum`` after each iteration.
    """
    mask = tree.legal_mask
    regret_sum = np.zeros(mask.shape)
    strategy_sum = np.zeros(mask.shape)

    def walk(node, player, reach, strategy, regret):
        kind = tree.player[node]
        if kind == TERMINAL:
            return tree.utility[node, player]
        children = tree.children[node]
        if kind == CHANCE:
            value = 0.0
            for child in children:
                p = tree.chance_prob[child]
                value += p * walk(child, player, reach * np.array([1, 1, p]), strategy, regret)
            return value
        info = tree.infoset[node]
        k = len(children)
        action_values = np.zeros(k)
        for a, child in enumerate(children):
            step = np.ones(3)
            step[kind] = strategy[info, a]
            action_values[a] = walk(child, player, reach * step, strategy, regret)
        value = float(strategy[info, :k] @ action_values)
        if kind == player:
            added = regret_update(reach.copy(), int(player), action_values.copy(), value)
            regret[info, :k] += _increment(added, k, tree, node)
            strategy_sum[info, :k] += reach[player] * strategy[info, :k]
        return value

    for _ in range(iterations):
        strategy = regret_matching(regret_sum, mask)
        start = strategy.copy()
        regret = np.zeros(mask.shape)
        if alternating:
            for player in (0, 1):
                walk(0, player, np.ones(3), strategy, regret)
                mine = tree.infoset_player == player
                regret_sum[mine] += regret[mine]
                strategy = regret_matching(regret_sum, mask)
        else:
            for player in (0, 1):
                walk(0, player, np.ones(3), strategy, regret)
            regret_sum += regret
        yield {"strategy": start, "cumulative_regret": regret_sum.copy(), "regret": regret,
               "strategy_sum": strategy_sum.copy()}


class BadUpdate(ValueError):
    """A regret update returned something other than one finite number per action."""


def _increment(added, k: int, tree, node: int) -> np.ndarray:
    shown = added.tolist() if isinstance(added, (np.ndarray, np.generic)) else added
    where = f"at node {tree.history[node]!r} (set {tree.infoset_keys[tree.infoset[node]]!r})"
    if added is None:
        raise BadUpdate(f"{where} it returned None (a missing `return`?)")
    try:
        values = np.array(added, dtype=float)
    except (TypeError, ValueError):
        raise BadUpdate(f"{where} it returned {shown!r}, which is not numbers") from None
    if values.shape != (k,):
        raise BadUpdate(f"{where} it returned {shown!r}; it should return one number per "
                        f"action ({k} here), like action_values does")
    if not np.all(np.isfinite(values)):
        raise BadUpdate(f"{where} it returned {values.tolist()}, which is not finite")
    return values


def _opp(r, i):
    return r[1 - i]


#: The right update and typical wrong ones: name -> (update, explanation).
UPDATES = {
    "cfr": (lambda r, i, q, v: r[2] * _opp(r, i) * (q - v),
            "Counterfactual regret: chance's and the opponent's reach times (action value - "
            "node value)."),
    "own-reach": (lambda r, i, q, v: r[i] * (q - v),
                  "You weighted by the acting player's own reach, reach[player]. Counterfactual "
                  "regret weights each node by how likely *the others* make it: chance and the "
                  "opponent, reach[2] * reach[1 - player]. Your own reach is the same at every "
                  "node of a set, so it cannot tell which hidden card is more likely; the "
                  "opponent's and chance's reach can."),
    "own-and-chance": (lambda r, i, q, v: r[i] * r[2] * (q - v),
                       "You weighted by chance and the acting player's own reach, reach[player]. "
                       "Use the opponent's instead: reach[1 - player]. The player's own reach is "
                       "the same at every node of a set and tells nothing about which hidden "
                       "card is more likely; the opponent's betting does."),
    "sign": (lambda r, i, q, v: r[2] * _opp(r, i) * (v - q),
             "The sign is flipped: regret is (what the action earns) - (what the strategy "
             "earns), action_values - value. With value - action_values, regret matching "
             "would favour the worst actions."),
    "no-chance": (lambda r, i, q, v: _opp(r, i) * (q - v),
                  "You left out chance: multiply by reach[2] too. In Kuhn poker every deal has "
                  "probability 1/6, so this only rescales the regrets by 6 and the strategies "
                  "come out the same; in a game where some deals are likelier than others (Leduc "
                  "poker) the weights between nodes would be wrong."),
    "all-reach": (lambda r, i, q, v: r[0] * r[1] * r[2] * (q - v),
                  "You multiplied all three reaches, the player's own included. The "
                  "counterfactual weight leaves out the acting player's own reach: it asks "
                  "'what if I had played to get here?'. Use reach[2] * reach[1 - player]."),
    "unweighted": (lambda r, i, q, v: q - v,
                   "You added action_values - value without a weight. Each node of a set "
                   "counts in proportion to how likely chance and the opponent make it: "
                   "multiply by reach[2] * reach[1 - player]."),
    "chance-only": (lambda r, i, q, v: r[2] * (q - v),
                    "You weighted by chance alone; the opponent's reach counts too: "
                    "reach[2] * reach[1 - player]."),
    "no-baseline": (lambda r, i, q, v: r[2] * _opp(r, i) * q,
                    "You added the weighted action values but did not subtract the node's "
                    "value. Regret compares each action with what the strategy earned: "
                    "(action_values - value)."),
    "player-2-reach": (lambda r, i, q, v: r[2] * r[1] * (q - v),
                       "Right for player 1, whose opponent is player 2 (reach[1]), but player 2's "
                       "opponent is player 1: use reach[1 - player], not a fixed index."),
    "player-1-reach": (lambda r, i, q, v: r[2] * r[0] * (q - v),
                       "You always used reach[0], player 1's reach: for player 1's own nodes that "
                       "is its own reach. Use the opponent's, reach[1 - player]."),
}


def _diagnose(calls) -> str | None:
    """The name of the one wrong update that reproduces every recorded call, if any."""
    for name, (rule, _) in UPDATES.items():
        if name == "cfr":
            continue
        if all(np.allclose(rule(r, i, q, v), out, rtol=1e-9, atol=1e-12)
               for r, i, q, v, out in calls):
            return name
    return None


def check_regret_update(function, iterations: int = CHECK_ITERATIONS) -> Feedback:
    """Exercise 2: ``function(reach, player, action_values, value)`` is CFR's regret update.

    The checker runs :func:`cfr_with_update` with the student's function on Kuhn
    poker for ``iterations`` iterations beside :func:`cfrviz.reference.vanilla_cfr`
    and compares the cumulative regrets after every iteration.  When they differ it
    names the mistake if one of :data:`UPDATES` reproduces every call the function
    answered (own reach instead of the opponent's, a flipped sign, chance left
    out, ...).
    """
    from ..reference.cfr import vanilla_cfr

    if unanswered(function):
        return not_done("Write the body of `my_regret_update`, then run this cell again.")
    if not callable(function):
        return wrong(f"Pass the function itself, check_regret_update(my_regret_update); got "
                     f"{function!r}.", "not-callable")
    tree = _kuhn()
    calls = []

    def recorded(reach, player, action_values, value):
        out = function(reach.copy(), player, action_values.copy(), value)
        calls.append((reach, player, action_values, value,
                      None if out is None else np.array(out, dtype=float, copy=True)
                      if _numeric(out) else out))
        return out

    mine = cfr_with_update(tree, iterations, recorded)
    reference = vanilla_cfr(tree, iterations)
    worst, first_bad = 0.0, None
    try:
        with np.errstate(all="ignore"):
            # Run every iteration even after a difference: the more calls are recorded, the
            # surer the diagnosis (in iteration 1 several wrong weights happen to agree).
            for t, (got, want) in enumerate(zip(mine, reference), start=1):
                diff = np.abs(got["cumulative_regret"] - want["cumulative_regret"])
                scale = np.maximum(1.0, np.abs(want["cumulative_regret"]))
                worst = max(worst, float(np.max(diff / scale)))
                if worst > 1e-9 and first_bad is None:
                    first_bad = (t, got, want)
    except NotImplementedError:
        return not_done("`my_regret_update` still raises NotImplementedError: replace that line "
                        "with your code.")
    except BadUpdate as error:
        return wrong(f"Your function ran, but {error}.", "shape")
    except Exception as error:  # the student's code crashed: explain, never re-raise
        hint = ""
        if isinstance(error, (IndexError, TypeError)):
            hint = (" `reach` is a numpy array of three numbers [player 1, player 2, chance], "
                    "`player` is 0 or 1, `action_values` a numpy array with one value per "
                    "action and `value` one number.")
        return wrong(f"Your function raised {type(error).__name__}: {error}.{hint}", "crash")
    if first_bad is not None:
        return _explain(tree, calls, *first_bad)
    return correct(f"Your update reproduces vanilla_cfr's cumulative regrets at all "
                   f"{tree.num_infosets} information sets of Kuhn poker after each of "
                   f"{iterations} iterations ({len(calls):,} calls; largest relative difference "
                   f"{worst:.1e}). Chance's and the opponent's reach, times action value minus "
                   "node value: that is the counterfactual regret.")


def _numeric(out) -> bool:
    try:
        np.array(out, dtype=float)
    except (TypeError, ValueError):
        return False
    return True


def _explain(tree, calls, t, got, want) -> Feedback:
    usable = [c for c in calls if isinstance(c[4], np.ndarray)]
    name = _diagnose(usable) if len(usable) == len(calls) else None
    if name is not None:
        return wrong(UPDATES[name][1], name)
    # No known mistake fits: show the first call that went wrong.
    for reach, player, q, v, out in calls:
        right = UPDATES["cfr"][0](reach, player, q, v)
        if not (isinstance(out, np.ndarray) and np.allclose(out, right, rtol=1e-9, atol=1e-12)):
            shown = out.tolist() if isinstance(out, np.ndarray) else out
            return wrong(f"At a node of player {player + 1} with reach "
                         f"{np.round(reach, 4).tolist()} (player 1, player 2, chance), action_values "
                         f"{np.round(q, 4).tolist()} and value {v:.4f}, your function returned "
                         f"{shown}; CFR adds {np.round(right, 4).tolist()}: chance's reach times "
                         "the opponent's reach times (action_values - value).")
    diff = np.abs(got["cumulative_regret"] - want["cumulative_regret"])
    info = int(np.argmax(diff.max(axis=1)))
    return wrong(f"After iteration {t} your cumulative regrets at set "
                 f"{tree.infoset_keys[info]!r} differ from vanilla_cfr's "
                 f"({np.round(got['cumulative_regret'][info], 4).tolist()} against "
                 f"{np.round(want['cumulative_regret'][info], 4).tolist()}), although each call "
                 "looked right: does your function keep state between calls?", "stateful")


# --- what goes wrong with a wrong update ------------------------------------------------------

def _average(tree, strategy_sum) -> np.ndarray:
    mask = tree.legal_mask
    total = strategy_sum.sum(axis=1, keepdims=True)
    uniform = mask / mask.sum(axis=1, keepdims=True)
    return np.where(total > 0, strategy_sum / np.where(total > 0, total, 1.0), uniform)


def update_comparison(game, iterations: int = 1000, names=("cfr", "own-reach"),
                      points: int = 25) -> dict:
    """Exploitability of the average strategy when CFR uses each update of :data:`UPDATES`.

    Returns ``{"iterations": int array, name: exploitability array, ...}`` at about
    ``points`` log-spaced iterations.
    """
    from ..engine import tree_exploitability

    tree = as_tree(game)
    unknown = [n for n in names if n not in UPDATES]
    if unknown:
        raise ValueError(f"unknown update {unknown[0]!r}; choose from {list(UPDATES)}")
    if iterations < 1:
        raise ValueError(f"iterations must be at least 1; got {iterations}")
    marks = np.unique(np.geomspace(1, iterations, points).round().astype(int))
    result = {"iterations": marks}
    for name in names:
        values = []
        for t, step in enumerate(cfr_with_update(tree, iterations, UPDATES[name][0]), start=1):
            if t in marks:
                values.append(tree_exploitability(tree, _average(tree, step["strategy_sum"])))
        result[name] = np.array(values)
    return result


LABELS = {"cfr": "opponent and chance reach (CFR)", "own-reach": "own reach instead",
          "sign": "sign flipped", "no-chance": "chance left out", "all-reach": "all three reaches",
          "unweighted": "no weight"}


def update_comparison_figure(comparison: dict, presenter: bool | None = None):
    """Log-log exploitability curves of :func:`update_comparison`, one line per update."""
    import plotly.graph_objects as go

    from ..views.style import OKABE_ITO, get_style

    style = get_style(presenter)
    colours = (OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["bluish green"],
               OKABE_ITO["orange"], OKABE_ITO["reddish purple"], OKABE_ITO["sky blue"])
    dashes = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
    fig = go.Figure()
    its = comparison["iterations"]
    for n, name in enumerate(k for k in comparison if k != "iterations"):
        fig.add_trace(go.Scatter(x=its, y=np.maximum(comparison[name], 1e-12),
                                 name=LABELS.get(name, name), mode="lines+markers",
                                 line=dict(color=colours[n % 6], dash=dashes[n % 6],
                                           width=2.5 * style.line_scale),
                                 marker=dict(size=5 * style.line_scale)))
    fig.update_layout(
        title=dict(text="Kuhn poker: exploitability of the average strategy",
                   font=style.font(style.title_size)),
        font=style.font(), height=int(380 * style.figure_scale),
        width=int(720 * style.figure_scale), plot_bgcolor="white",
        xaxis=dict(type="log", title="iteration", gridcolor="#e5e5e5"),
        yaxis=dict(type="log", title="exploitability", gridcolor="#e5e5e5"),
        legend=dict(x=0.02, y=0.02, xanchor="left", yanchor="bottom",
                    bgcolor="rgba(255,255,255,0.8)"),
        margin=dict(l=70, r=20, t=60, b=60))
    return fig


# --- a widget: player 1's bets and player 2's counterfactual values --------------------------

def bluff_explorer(presenter: bool | None = None):
    """Sliders for player 1's betting with J and with K; player 2's counterfactual values at Qb.

    Player 2 holds Q and faces a bet.  The bar chart shows the counterfactual value
    of folding and of calling, and the text gives each node's weight (chance times
    player 1's bet probability) and the immediate counterfactual regrets.  Returns an
    ``ipywidgets.VBox`` with attributes ``bluff``, ``value_bet`` (the sliders),
    ``figure`` and ``text``.
    """
    import ipywidgets as W
    import plotly.graph_objects as go

    from ..views.style import OKABE_ITO, get_style

    style = get_style(presenter)
    tree = _kuhn()
    st = {"description_width": "initial"}
    bluff = W.FloatSlider(value=1 / 3, min=0, max=1, step=0.01, readout_format=".2f",
                          description="player 1 bets with J", style=st, continuous_update=True,
                          layout=W.Layout(width="420px"))
    value_bet = W.FloatSlider(value=1.0, min=0, max=1, step=0.01, readout_format=".2f",
                              description="player 1 bets with K", style=st,
                              continuous_update=True, layout=W.Layout(width="420px"))
    fig = go.FigureWidget(go.Bar(x=["fold (p)", "call (b)"], y=[0, 0],
                                 marker_color=[OKABE_ITO["vermillion"], OKABE_ITO["blue"]],
                                 text=["", ""], textposition="outside",
                                 textfont=style.font(style.font_size)))
    fig.update_layout(title=dict(text="player 2 holds Q, facing a bet: counterfactual values",
                                 font=style.font(style.title_size)),
                      font=style.font(), height=int(330 * style.figure_scale),
                      width=int(520 * style.figure_scale), plot_bgcolor="white",
                      yaxis=dict(range=[-0.45, 0.45], zeroline=True, zerolinecolor="#888",
                                 gridcolor="#e5e5e5", title="counterfactual value"),
                      margin=dict(l=70, r=20, t=60, b=40))
    text = W.HTML()

    def show(change=None):
        j, k = float(bluff.value), float(value_bet.value)
        policy = {"J": {"p": 1 - j, "b": j}, "Q": {"p": 1.0, "b": 0.0}, "K": {"p": 1 - k, "b": k}}
        cf = counterfactual_values(tree, policy, CF_INFOSET)
        with fig.batch_update():
            fig.data[0].y = cf["action_values"].tolist()
            fig.data[0].text = [f"{v:+.3f}" for v in cf["action_values"]]
        fold, call = cf["regret"]
        better = ("calling" if call > 1e-12 else "folding" if fold > 1e-12
                  else "neither: the two are worth the same")
        text.value = (f"<div style='font-size:{style.font_size}px'>weights: player 1 holds J "
                      f"1/6 &times; {j:.2f} = {j / 6:.4f}; holds K 1/6 &times; {k:.2f} = "
                      f"{k / 6:.4f}<br>immediate counterfactual regrets (value minus the "
                      f"uniform strategy's {cf['value']:+.4f}): fold {fold:+.4f}, call "
                      f"{call:+.4f}; regret matching moves towards <b>{better}</b></div>")

    bluff.observe(show, names="value")
    value_bet.observe(show, names="value")
    show()
    box = W.VBox([bluff, value_bet, fig, text])
    box.bluff, box.value_bet, box.figure, box.text = bluff, value_bet, fig, text
    return box


# --- showing source code with its line numbers -----------------------------------------------

_PRE = ("font-family: var(--jp-code-font-family, monospace); font-size: 0.95em; "
        "line-height: 1.35; margin: 0")


@dataclass(frozen=True, repr=False)
class Listing:
    """Lines of a function's source with the line numbers of its file."""

    name: str
    first: int
    lines: tuple

    def __str__(self) -> str:
        width = len(str(self.first + len(self.lines) - 1))
        return "\n".join(f"{self.first + n:>{width}}  {line}"
                         for n, line in enumerate(self.lines))

    __repr__ = __str__

    def _repr_html_(self) -> str:
        code = "\n".join(self.lines)
        try:
            from pygments import highlight
            from pygments.formatters import HtmlFormatter
            from pygments.lexers import PythonLexer
            body = highlight(code, PythonLexer(),
                             HtmlFormatter(noclasses=True, linenos="inline", prestyles=_PRE,
                                           linenostart=self.first, nobackground=True))
        except ImportError:  # pygments comes with IPython; plain text if it is missing
            body = f"<pre style='{_PRE}'>{html.escape(str(self))}</pre>"
        return (f"<div style='font-size:90%'><i>{html.escape(self.name)}</i>, lines "
                f"{self.first}-{self.first + len(self.lines) - 1}{body}</div>")


def listing(function, start: str | None = None, stop: str | None = None) -> Listing:
    """The lines of ``function``'s source from the first containing ``start`` up to and
    including the next containing ``stop`` (the whole function by default), continued
    to the end of the statement when brackets are still open there.

    Raises
    ------
    ValueError
        When ``start`` or ``stop`` does not occur in the source.
    """
    lines, first = inspect.getsourcelines(function)
    lines = [line.rstrip("\n") for line in lines]
    name = f"{function.__module__}.{function.__qualname__}"
    begin = 0
    if start is not None:
        found = [n for n, line in enumerate(lines) if start in line]
        if not found:
            raise ValueError(f"{start!r} does not occur in the source of {name}")
        begin = found[0]
    end = len(lines) - 1
    if stop is not None:
        found = [n for n, line in enumerate(lines) if n >= begin and stop in line]
        if not found:
            raise ValueError(f"{stop!r} does not occur after {start!r} in the source of {name}")
        end = found[0]
        while end + 1 < len(lines) and _open_brackets(lines[begin:end + 1]) > 0:
            end += 1
    chunk = lines[begin:end + 1]
    indent = min((len(line) - len(line.lstrip()) for line in chunk if line.strip()), default=0)
    return Listing(name, first + begin, tuple(line[indent:] for line in chunk))


def _open_brackets(lines) -> int:
    """How many brackets the lines leave open (strings and comments are rare enough here that
    counting characters is good enough for choosing where a listing ends)."""
    text = "\n".join(lines)
    return sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
