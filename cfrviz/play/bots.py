"""Archetype bots: fixed, simple strategies to play a trained policy against.

The source slides evaluate a trained player by letting it play "archetypes":
an aggressive player, a calling station, a random player and a tight player
who bets only strong hands.  Each bot here is a plain :class:`~cfrviz.Policy`
for a :class:`~cfrviz.core.tree.GameTree`, so it can be evaluated exactly
(:func:`cfrviz.expected_values`, :func:`cfrviz.exploitability`) or played
(:func:`cfrviz.play.head_to_head`).

Bots know nothing about poker strings.  What an action *does* is read from
the tree (:func:`action_kinds`), and how strong a hand is comes from the
payoffs (:func:`hand_strength`), so the same bots play Kuhn poker (actions
``p``/``b``), Leduc poker (``f``/``c``/``r``) and any custom game built the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.policy import Policy
from ..core.registry import Factory, Param, Registry
from ..core.tree import CHANCE, TERMINAL, GameTree, check_two_players
from ..engine import tree_reach_probabilities

#: Codes returned by :func:`action_kinds`.
ILLEGAL, FOLD, PASSIVE, AGGRESSIVE = -1, 0, 1, 2
KIND_NAMES = {ILLEGAL: "illegal", FOLD: "fold", PASSIVE: "check/call", AGGRESSIVE: "bet/raise"}

#: Strengths this close to the threshold count as "not strong", so that a hand worth
#: exactly 0 (Kuhn's queen) is not made strong or weak by rounding in the last bit.
STRENGTH_TOLERANCE = 1e-9
#: :func:`strong_hands`'s one parameter, declared once for the function and the registry.
THRESHOLD = Param("threshold", 0.0, "float",
                  help="expected payoff under always-call play a hand must beat to be strong")


def require_card_game(game, what: str = "cfrviz.bot") -> GameTree:
    """``game`` if bots can play it: a two-player card game given as a game tree.

    Raises
    ------
    ValueError
        Naming the game and what ``what`` (for the message) supports: a game that is not a
        tree, deals no cards, or has more than two players (three-player Kuhn poker).
    """
    name = getattr(game, "name", type(game).__name__)
    if not isinstance(game, GameTree):
        raise ValueError(f"bots play card games given as game trees, such as 'kuhn_poker'; "
                         f"{name!r} is a {type(game).__name__}, which has no betting to read")
    check_two_players(game, what, "each reads one opponent's bets and folds; a match seats "
                      "two bots", instead="a two-player game: 'kuhn_poker', 'leduc_poker' or "
                      "'pocket_poker'")
    if not np.any(game.player == CHANCE):
        # Folds are recognised by payoffs that no card can change: without chance, every
        # payoff would look like one.
        raise ValueError(f"bots read bets and folds from how payoffs depend on the cards; "
                         f"{name!r} deals no cards (it has no chance node)")
    return game


def _action_sequences(game: GameTree) -> np.ndarray:
    """An id per node naming the sequence of player actions (and chance steps) above it.

    Two nodes share an id when they lie at the same depth and were reached by
    the same actions, chance events aside: the deals that differ only in the
    cards.  Built level by level with ``np.unique`` (no per-node loop).
    """
    seq = np.zeros(game.num_nodes, dtype=np.int64)
    used = 1
    for nodes in game.levels()[1:]:
        par = game.parent[nodes]
        # A chance step keeps the sequence (code -1) whatever card it deals.
        step = np.where(game.player[par] == CHANCE, -1, game.action[nodes])
        rows, inverse = np.unique(np.stack([seq[par], step], axis=1), axis=0,
                                  return_inverse=True)
        seq[nodes] = used + inverse.ravel()
        used += len(rows)  # one new id per distinct (parent sequence, step)
    return seq


def action_kinds(game) -> np.ndarray:
    """What each action does: fold, check/call or bet/raise, read from the tree.

    Rules (no action labels are consulted):

    * **fold** -- at every node of the information set, the action ends the
      game, the chooser loses, and the payoffs there are the same for every
      deal of the cards that leads to the same actions: folding gives up the
      pot whatever the cards are.  (A check that ends the game goes to a
      showdown, whose payoff depends on the cards, so it is not a fold.)
    * **bet/raise** (aggressive) -- not a fold, and at some node of the set
      it hands the opponent a decision in which folding is possible.
    * **check/call** (passive) -- any other legal action.

    In Kuhn poker this makes ``p`` a fold when facing a bet and a check
    otherwise, and ``b`` a bet when nobody has bet and a call when facing a
    bet; in Leduc poker ``f``, ``c`` and ``r`` come out as fold, check/call
    and bet/raise.

    Parameters
    ----------
    game : GameTree

    Returns
    -------
    numpy.ndarray of int, shape (information sets, max actions)
        ``FOLD`` (0), ``PASSIVE`` (1), ``AGGRESSIVE`` (2), or ``ILLEGAL``
        (-1) where the legal mask is off.
    """
    game = require_card_game(game)
    num_sets, width = game.legal_mask.shape
    seq = _action_sequences(game)
    terminal = game.player == TERMINAL
    # The payoffs of each action sequence over all deals: constant means no card mattered.
    low = np.full((seq.max() + 1, 2), np.inf)
    high = np.full((seq.max() + 1, 2), -np.inf)
    np.minimum.at(low, seq[terminal], game.utility[terminal])
    np.maximum.at(high, seq[terminal], game.utility[terminal])
    card_free = np.all(low == high, axis=1)

    edges = np.flatnonzero((game.parent >= 0) & (game.player[np.maximum(game.parent, 0)] >= 0))
    par = game.parent[edges]
    chooser = game.player[par]
    cell = game.infoset[par] * width + game.action[edges]
    fold_edge = (terminal[edges] & card_free[seq[edges]]
                 & (game.utility[edges, chooser] < 0))
    members = np.bincount(cell, minlength=num_sets * width)
    folds = np.bincount(cell, weights=fold_edge, minlength=num_sets * width)
    fold = (members > 0) & (folds == members)

    child_set = game.infoset[edges]
    faces_fold = np.zeros(len(edges), dtype=bool)
    to_opponent = game.player[edges] == 1 - chooser
    faces_fold[to_opponent] = fold.reshape(num_sets, width)[child_set[to_opponent]].any(axis=1)
    aggressive = np.bincount(cell, weights=faces_fold, minlength=num_sets * width) > 0

    kinds = np.where(fold, FOLD, np.where(aggressive, AGGRESSIVE, PASSIVE)).reshape(num_sets, width)
    kinds[~game.legal_mask] = ILLEGAL
    return kinds


def _values_below(game: GameTree, probabilities: np.ndarray) -> np.ndarray:
    """Each node's expected payoffs (both players) when play continues under a profile."""
    value = np.array(game.utility)
    edge_weight = np.ones(game.num_nodes)
    for nodes in game.levels()[1:]:
        par = game.parent[nodes]
        chance = game.player[par] == CHANCE
        edge_weight[nodes[chance]] = game.chance_prob[nodes[chance]]
        edge_weight[nodes[~chance]] = probabilities[game.infoset[par[~chance]],
                                                    game.action[nodes[~chance]]]
    for nodes in reversed(game.levels()[1:]):
        np.add.at(value, game.parent[nodes], edge_weight[nodes, None] * value[nodes])
    return value


def hand_strength(game) -> np.ndarray:
    """How good each information set is for its player, if nobody bets from here on.

    The strength of a set of player ``p`` is ``p``'s expected payoff when
    both players play :func:`always_call` from the set onwards, the hidden
    information weighted by its chance probability:

    .. math:: s(I) = \\frac{\\sum_{h \\in I} \\pi_c(h)\\, v_p^{call}(h)}{\\sum_{h \\in I} \\pi_c(h)}

    This is the counterfactual value of ``I`` under always-call divided by
    the set's reach.  Always-call's choices depend on the public actions
    only, so the opponent's share of the reach is the same at every node of
    ``I`` and cancels; leaving it out keeps the strength defined at sets
    always-call itself never reaches.  In Kuhn poker the strengths of a
    first decision are -1 (J), 0 (Q) and +1 (K).

    Returns
    -------
    numpy.ndarray, shape (information sets,)
    """
    game = require_card_game(game)
    value = _values_below(game, always_call(game).probabilities)
    # Only the chance row is used, and it does not depend on the players' probabilities.
    chance_reach = tree_reach_probabilities(game, game.legal_mask.astype(float))[2]
    decisions = np.flatnonzero(game.player >= 0)
    sets = game.infoset[decisions]
    mine = value[decisions, game.player[decisions]]
    weight = np.bincount(sets, weights=chance_reach[decisions], minlength=game.num_infosets)
    total = np.bincount(sets, weights=chance_reach[decisions] * mine,
                        minlength=game.num_infosets)
    # A set with zero chance reach cannot occur; call it neutral.
    return np.divide(total, weight, out=np.zeros_like(total), where=weight > 0)


def _pick(kinds: np.ndarray, *preferences: int) -> np.ndarray:
    """Per information set, the first legal action of the first kind present, as a policy row."""
    choice = np.argmax(kinds >= 0, axis=1)  # first legal action as the last resort
    for kind in reversed(preferences):
        has = (kinds == kind).any(axis=1)
        choice = np.where(has, np.argmax(kinds == kind, axis=1), choice)
    probs = np.zeros(kinds.shape)
    probs[np.arange(len(kinds)), choice] = 1.0
    return probs


def always_raise(game) -> Policy:
    """The maniac: bet or raise wherever that is legal, otherwise check or call.

    Actions are classified by :func:`action_kinds`; with several bet sizes the
    first one listed is taken.  Never folds.
    """
    game = require_card_game(game)
    return Policy(game, _pick(action_kinds(game), AGGRESSIVE, PASSIVE))


def always_call(game) -> Policy:
    """The calling station: check or call, never fold, never bet or raise.

    In Kuhn poker this is ``b`` when facing a bet (a call) and ``p``
    otherwise (a check).  Where no check or call is legal the bot bets
    rather than folds.
    """
    game = require_card_game(game)
    return Policy(game, _pick(action_kinds(game), PASSIVE, AGGRESSIVE))


def uniform_random(game) -> Policy:
    """Every legal action equally likely (folds included)."""
    return Policy.uniform(require_card_game(game))


def strong_hands(game, threshold: float = 0.0) -> Policy:
    """The tight player: bet and raise only with strong hands.

    An information set is *strong* when its :func:`hand_strength` exceeds
    ``threshold`` (by more than ``STRENGTH_TOLERANCE``).  With a strong hand
    the bot plays like :func:`always_raise`; with any other hand it folds
    when facing a bet and checks otherwise.  In Kuhn poker with the default
    threshold 0 it bets and calls only with the king.

    Parameters
    ----------
    game : GameTree
    threshold : float
        Expected payoff (under always-call play) a hand must beat to count
        as strong.
    """
    game = require_card_game(game)
    threshold = THRESHOLD.check(threshold)  # a finite number; a bool or a string is refused
    kinds = action_kinds(game)
    strong = hand_strength(game) > threshold + STRENGTH_TOLERANCE
    probs = np.where(strong[:, None], _pick(kinds, AGGRESSIVE, PASSIVE),
                     _pick(kinds, FOLD, PASSIVE))
    return Policy(game, probs)


@dataclass(frozen=True)
class Bot(Factory):
    """An archetype opponent as :func:`bot` knows it: ``factory(game, **params) -> Policy``."""

    given: tuple[str, ...] = ("game",)


#: The archetypes by name, in the order the slides introduce them.
BOTS: Registry[Bot] = Registry("bot", "bot")
BOTS.register(Bot("always_raise", always_raise, "bets or raises whenever it may"))
BOTS.register(Bot("always_call", always_call, "checks or calls, never folds or raises"))
BOTS.register(Bot("uniform_random", uniform_random, "every legal action equally likely"))
BOTS.register(Bot("strong_hands", strong_hands, "bets strong hands, folds weak ones to a bet",
                  params=(THRESHOLD,)))


def bot(game, name: str, **params) -> Policy:
    """An archetype bot by name, e.g. ``bot(game, "strong_hands", threshold=0.5)``.

    Raises
    ------
    ValueError
        For an unknown name or parameter (listing what is valid), or a game
        that is not a game tree.
    """
    entry = BOTS.lookup(name)
    BOTS.check_params(entry, params)
    return entry.factory(game, **params)
