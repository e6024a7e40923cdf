"""Checkers and small helpers for lesson 02, games as trees: which information set a Kuhn
node belongs to (and another node in it), and a node's reach probability by hand, split into
its three factors by :func:`reach_breakdown`."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..core.tree import CHANCE, TERMINAL, as_tree
from . import Feedback, as_number, unanswered
from .diagnosis import Case, always, diagnose, fallback

#: Exercise 1: a node of Kuhn poker (player 1 holds J, player 2 holds Q, player 1 bet).
WHICH_SET_NODE = "JQ:b"
#: Exercise 2: the strategy profile (sets left out are uniform) and the node asked about.
REACH_POLICY = {"Q": {"p": 3 / 4, "b": 1 / 4}, "Jp": {"p": 2 / 3, "b": 1 / 3},
                "Qpb": {"p": 1 / 2, "b": 1 / 2}}
REACH_NODE = "QJ:pb"

_ROLE = {0: "player 1", 1: "player 2", CHANCE: "chance", TERMINAL: "a terminal node"}


def _kuhn():
    from ..games import load_game
    return load_game("kuhn_poker")


def _clean(text, cards: int = 1) -> str | None:
    """A string answer without quotes and spaces, cards in capitals and moves in lower case
    (``cards`` leading characters are cards); None when it is not a string."""
    if not isinstance(text, str):
        return None
    text = text.strip().strip("'\"").replace(" ", "")
    return text[:cards].upper() + text[cards:].lower()


def _node_of(tree, history: str) -> int | None:
    """The node with this history; ``"KQb"`` is read as ``"KQ:b"``."""
    if history in tree.history:
        return tree.history.index(history)
    if len(history) >= 2 and ":" not in history:
        fixed = history[:2] + ":" + history[2:]
        if fixed in tree.history:
            return tree.history.index(fixed)
    return None


def _describe(tree, node: int) -> str:
    """Who acts at a node and what they hold, in words."""
    history = tree.history[node]
    who = int(tree.player[node])
    if who in (0, 1):
        card = history[who]
        return (f"{history!r} is a node of {_ROLE[who]}, who holds {card} there: it is in "
                f"set {tree.infoset_keys[tree.infoset[node]]!r}")
    return f"{history!r} is {_ROLE[who]}, where nobody chooses"


# --- exercise 1: which information set ------------------------------------------------------

def check_which_set(key, other_node=None) -> Feedback:
    """Exercise 1: the set of node ``"JQ:b"`` (``"Qb"``: player 2 sees its Q and the bet) and
    another node in it (``"KQ:b"``).  The key is judged first (:func:`key_cases`), then the
    other node; the table reads the other node's id, or None when it is not a node."""
    tree = _kuhn()
    node = tree.history.index(WHICH_SET_NODE)
    right = tree.infoset_keys[tree.infoset[node]]
    other = _clean(other_node, cards=2)
    return diagnose(None if other is None else _node_of(tree, other), (
        Case.not_done(lambda _: unanswered(key),
                      "Set `my_key` to the key of the information set (a string such as 'Kp'), "
                      "and `my_other_node` to the history of another node in it."),
        *key_cases(tree, key, right),
        Case.not_done(lambda _: unanswered(other_node),
                      f"Yes, the key is {right!r}. Now set `my_other_node` to the history of "
                      "another node in the same set, written like 'JQ:b'."),
        Case("not-a-node", lambda found: found is None,
             f"The key {right!r} is right. For the other node, write a history as player 1's "
             "card, player 2's card, a colon and the moves, like 'KJ:pb'; got "
             f"{other_node!r}."),
        Case("same-node", lambda found: found == node,
             f"The key {right!r} is right, but {WHICH_SET_NODE!r} is the node itself. Which "
             "other deal looks exactly the same to player 2?"),
        Case("other-set", lambda found: tree.infoset[found] != tree.infoset[node],
             lambda found: f"The key {right!r} is right, but {_describe(tree, found)}. Keep "
                           "what player 2 sees (its Q and the bet) and change only what it "
                           "cannot see."),
        Case.correct(always,
                     lambda found: f"Yes: player 2 holds Q and has seen a bet, so the node is in "
                                   f"set {right!r}. {tree.history[found]!r} looks the same to "
                                   "player 2: only player 1's hidden card differs. Player 2 "
                                   "must choose without knowing which of the two nodes it is "
                                   "at."),
    ))


def key_cases(tree, key, right: str) -> tuple[Case, ...]:
    """The rows of exercise 1 that judge the key: each holds only when the key is wrong."""
    answer = _clean(key)
    if answer is not None and len(answer) > 1 and answer[1] == ":":
        answer = answer[0] + answer[2:]  # "Q:b" is a fair way to write "Qb"

    def wrong_key(test) -> Callable[[object], bool]:
        return lambda _: answer is not None and answer != right and test(answer)

    def other_set(_) -> str:
        info = tree.infoset_index(answer)
        return (f"{answer!r} is a set of player {tree.infoset_player[info] + 1} with nodes such "
                f"as {tree.history[tree.infoset_members(info)[0]]!r}. In 'JQ:b' player 2 acts, "
                "holding Q, after one bet.")

    return (
        Case("not-a-key", lambda _: answer is None,
             f"A key is a string such as 'Kp' (a card, then the moves seen); got {key!r}."),
        Case("other-card", wrong_key(lambda a: a == "Jb"),
             "That is player 2's set when player 2 holds J. In 'JQ:b' the first card (J) is "
             "player 1's and the second (Q) is player 2's; player 2 acts here and sees only its "
             "own card."),
        Case("both-cards", wrong_key(lambda a: a.upper().startswith(("JQ", "QJ"))),
             "A key with both cards names a single node. Player 2 never sees player 1's card, "
             "so its key holds only its own card and the moves it has seen."),
        Case("no-history", wrong_key(lambda a: a in ("J", "Q", "K")),
             f"{answer!r} is player 1's set at the very start, before anyone has moved. The "
             "node in question comes after player 1's bet, and the bet is public."),
        Case("no-card", wrong_key(lambda a: a.lower() in ("b", ":b")),
             "Add the card: the key is what the acting player knows, and player 2 knows its own "
             "card as well as the bet."),
        Case("other-set", wrong_key(lambda a: a in set(tree.infoset_keys)), other_set),
        Case("not-a-key", wrong_key(lambda _: True),
             f"{key!r} is not a key of Kuhn poker. Keys are the acting player's card followed "
             "by the moves so far, e.g. 'K', 'Qp', 'Jpb'."),
    )


# --- exercise 2: a reach probability by hand --------------------------------------------------

@dataclass(frozen=True, repr=False)
class ReachBreakdown:
    """A node's reach probability as the product of player 1's, player 2's and chance's
    probabilities on the path from the root; ``factors`` are the path's steps, root first,
    as ``(who, where, label, probability)``."""

    history: str
    player1: float
    player2: float
    chance: float
    factors: tuple

    @property
    def total(self) -> float:
        return self.player1 * self.player2 * self.chance

    def others(self, player: int) -> float:
        """Reach without ``player``'s own factor: the opponent's times chance's."""
        return self.chance * (self.player2 if player == 0 else self.player1)

    def __str__(self) -> str:
        lines = [f"reach of {self.history!r}:"]
        for who, where, label, p in self.factors:
            lines.append(f"  {who:<9} {where:<18} {label:<3} {_frac(p)}")
        lines.append(f"  player 1 {_frac(self.player1)} x player 2 {_frac(self.player2)} x "
                     f"chance {_frac(self.chance)} = {_frac(self.total)}")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(str(self))}</pre>"


def _frac(p: float) -> str:
    f = Fraction(float(p)).limit_denominator(10_000)
    if abs(float(f) - p) > 1e-12:
        return f"{p:.4g}"
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def reach_breakdown(game, policy, history: str) -> ReachBreakdown:
    """Split the reach probability of the node at ``history`` (``"QJ:pb"``) under ``policy``
    (a Policy, or ``{key: {action: p}}`` with sets left out uniform) into its three factors,
    :math:`\\pi(h) = \\pi_1(h)\\,\\pi_2(h)\\,\\pi_c(h)` (Zinkevich et al., 2007)."""
    from ..core.policy import Policy

    tree = as_tree(game)
    if isinstance(policy, dict):
        policy = Policy.from_dict(tree, policy)
    probs = np.asarray(getattr(policy, "probabilities", policy), dtype=float)
    if probs.shape != tree.legal_mask.shape:
        raise ValueError(f"the policy must have shape {tree.legal_mask.shape} for {tree.name}; "
                         f"got {probs.shape}")
    node = _node_of(tree, history)
    if node is None:
        raise ValueError(f"{tree.name} has no node with history {history!r}; histories look "
                         f"like {tree.history[-1]!r}")
    path = []
    n = node
    while tree.parent[n] >= 0:
        path.append(n)
        n = int(tree.parent[n])
    reach = {0: 1.0, 1: 1.0, CHANCE: 1.0}
    factors = []
    for child in reversed(path):
        par = int(tree.parent[child])
        who = int(tree.player[par])
        if who == CHANCE:
            p = float(tree.chance_prob[child])
            factors.append(("chance", "deals", tree.chance_labels[par][tree.action[child]], p))
        else:
            info = int(tree.infoset[par])
            p = float(probs[info, tree.action[child]])
            factors.append((_ROLE[who], f"at set {tree.infoset_keys[info]!r}",
                            tree.infoset_actions[info][tree.action[child]], p))
        reach[who] *= p
    return ReachBreakdown(tree.history[node], reach[0], reach[1], reach[CHANCE], tuple(factors))


def check_reach(answer) -> Feedback:
    """Exercise 2: the reach probability of ``"QJ:pb"`` under :data:`REACH_POLICY`, 1/6 x 3/4
    x 1/3 = 1/24; answers within 3% count (a rounded decimal)."""
    b = reach_breakdown(_kuhn(), REACH_POLICY, REACH_NODE)
    p1, p2, c = b.player1, b.player2, b.chance
    call = REACH_POLICY["Qpb"]["b"]

    def near(x) -> Callable[[float], bool]:
        return lambda value: bool(np.isclose(value, x, rtol=0.03, atol=1e-9))

    return diagnose(as_number(answer), (
        Case.not_done(lambda _: unanswered(answer),
                      "Set `my_reach` to a number, e.g. a product like 1/2 * 1/3."),
        Case("not-a-number", lambda value: value is None,
             f"A reach probability is one number between 0 and 1; got {answer!r}."),
        Case.correct(near(b.total),
                     f"Yes, {_frac(b.total)}: chance deals QJ ({_frac(c)}), player 1 checks with "
                     f"Q ({_frac(p1)}), player 2 bets with J ({_frac(p2)}). The reach is the "
                     "product of every probability on the path, and it splits into one factor "
                     "per contributor: player 1, player 2 and chance."),
        Case("sum-not-product", lambda value: not 0 <= value <= 1,
             lambda value: f"{value:g} cannot be a probability. Reach probabilities multiply "
                           "the probabilities along the path, so they never exceed 1."),
        Case("forgot-chance", near(p1 * p2),
             f"You left out chance: the deal QJ itself happens with probability {_frac(c)}."),
        Case("chance-one-card", near(p1 * p2 / 3),
             "Chance deals both cards at once: the ordered pair QJ is one of 6 equally likely "
             "deals, so its probability is 1/6, not 1/3."),
        Case("left-out-own", near(b.others(0)),
             f"That is {_frac(b.others(0))}, chance times player 2: the reach without player "
             "1's own contribution. Lesson 03 uses exactly this number; here we want the whole "
             f"probability of arriving, including player 1's check ({_frac(p1)})."),
        Case("left-out-opponent", near(b.others(1)),
             f"You left out player 2's bet with J ({_frac(p2)}): every move on the path counts, "
             "whoever makes it."),
        Case("one-step-too-far", near(b.total * call),
             f"You multiplied in player 1's call ({_frac(call)}), but that move is made *at* "
             "the node, after arriving. Reach counts only the moves that lead to it."),
        Case("one-step-too-far", near(b.total * (1 - call)),
             "You multiplied in player 1's next move, which is made *at* the node, after "
             "arriving. Reach counts only the moves that lead to it."),
        Case("own-only", near(p1),
             f"{_frac(p1)} is player 1's part alone; multiply in chance's and player 2's parts."),
        Case("sum-not-product",
             lambda value: near(p1 + p2 + c)(value) or near((p1 + p2 + c) / 3)(value),
             "The probabilities along a path multiply: every step must happen, one after the "
             "other."),
        fallback(lambda value: f"Not quite ({value:.4g}). Follow the path root -> QJ -> p -> b "
                               "and multiply the probability of each step: the deal, player 1's "
                               "check with Q, player 2's bet with J after a check."),
    ))
