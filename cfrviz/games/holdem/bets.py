"""The bet tree of a two-player no-limit river (issue 32 item 1): sizes written as players write
them, walked into every line of the betting.

The conventions, checked on the reference spot of ``shared/peers/postflop-river.md`` (pot 100,
stack 200, bets ``50%``, raises ``2.5x``; its 13 lines ``X-X, X-B50-F, ..., B50-R125-AI200-C``):

- OOP (player 0) acts first, IP (player 1) second.  ``X`` checks, ``B<n>`` bets ``n``, ``R<n>``
  raises *to* ``n``, ``AI<n>`` goes all-in for ``n``, ``F`` folds, ``C`` calls.  A line joins its
  actions with ``-``; the root's line is ``""``.
- Amounts are the chips a player has put in *on the river*, after the action: ``B50-R125`` is a
  bet of 50 raised to 125.  The pot at a node is the starting pot plus both players' amounts.
- ``stack`` is the effective stack behind each player when the river starts; nobody puts in
  more, so the all-in is ``AI<stack>`` (``AI200`` in the reference).
- Bet sizes: ``p%`` bets p% of the pot (``50%`` of 100 is ``B50``); ``a`` (or ``allin``) bets
  the stack.  A multiple (``2.5x``) is refused for a bet: the first bet faces none.
- Raise sizes: ``mx`` raises to m times the bet faced (``2.5x`` facing 50 is ``R125``, the
  reference's number); ``p%`` raises by p% of the pot after calling (``100%`` facing 50 into 100
  raises to 50 + 200 = 250: the pot-sized raise); ``a`` raises all-in.  No minimum-raise rule is
  applied (``1.5x`` raises to 1.5 times the bet faced).
- A size that reaches the stack becomes the all-in (``2.5x`` facing 125 would be 312.5: it is
  ``AI200``); sizes landing on the same amount are merged, and a node lists its bets or raises
  from the smallest.  Amounts are rounded to the cent (0.01 chip), so a label is its exact amount;
  a size that rounds to no increase is dropped.
- There is no raise cap but the stack: raises go on until a player is all-in, and a player
  facing the all-in only folds or calls (the reference's tree).
- A terminal node is a fold (``folder`` names who folded) or a showdown (``X-X`` or a call);
  its ``contributions`` are what each player put in on the river, on top of the starting pot.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ...core.tree import TERMINAL

OOP, IP = 0, 1
PLAYERS = ("OOP", "IP")
#: The largest tree :func:`bet_tree` builds (raise multiples near 1 would make it explode).
MAX_NODES = 20_000
ALLIN_WORDS = ("a", "allin", "all-in")
SizeKind = Literal["pot", "multiple", "allin"]
SIZE_FORMS = ("a percentage of the pot ('50%'), a multiple of the bet faced ('2.5x', raises "
              "only) or all-in ('a')")
#: A choice at a decision: (label, who acts next or TERMINAL, contributions after it, folder).
_Move = tuple[str, int, tuple[float, float], int | None]


@dataclass(frozen=True)
class BetSize:
    """One size: ``kind`` ``"pot"`` (``value`` a fraction of the pot: 0.5 for ``50%``),
    ``"multiple"`` (``value`` times the bet faced: 2.5 for ``2.5x``) or ``"allin"``."""

    kind: SizeKind
    value: float = 0.0

    def __str__(self) -> str:
        if self.kind == "pot":
            return f"{_chips(100 * self.value)}%"
        return f"{_chips(self.value)}x" if self.kind == "multiple" else "a"

    def target(self, pot: float, faced: float, own: float) -> float:
        """The total a player puts in on the river with this size, before the stack caps it:
        ``pot`` at the node, ``faced`` the opponent's total, ``own`` the player's."""
        if self.kind == "allin":
            return math.inf
        if self.kind == "multiple":
            return self.value * faced
        return faced + self.value * (pot + faced - own)


@dataclass(frozen=True)
class BetNode:
    """One node of a :class:`BetTree`.

    Attributes
    ----------
    line : str
        The actions leading here, e.g. ``"X-B50-R125"`` (``""`` at the root).
    parent : int
        The parent's node id, -1 at the root.
    player : int
        Who acts: ``OOP`` (0), ``IP`` (1), or ``TERMINAL`` (-2).
    actions, children : tuple
        The labels of the choices (``"X"``, ``"B50"``, ``"F"``, ...) and the node each leads to.
    contributions : (float, float)
        Chips OOP and IP have put in on the river.
    pot : float
        The starting pot plus both contributions.
    folder : int or None
        At a fold, who folded; None everywhere else (a showdown or a decision).
    """

    line: str
    parent: int
    player: int
    actions: tuple[str, ...]
    children: tuple[int, ...]
    contributions: tuple[float, float]
    pot: float
    folder: int | None = None

    @property
    def terminal(self) -> bool:
        return self.player == TERMINAL

    @property
    def showdown(self) -> bool:
        return self.terminal and self.folder is None


@dataclass(frozen=True)
class BetTree:
    """A two-player river betting tree (see the module's conventions); build it with
    :func:`bet_tree`.  ``nodes`` lists the nodes depth first, the root first and each node's
    choices in order, so the terminal lines come out as the reference writes them."""

    pot: float
    stack: float
    bets: tuple[BetSize, ...]
    raises: tuple[BetSize, ...]
    nodes: tuple[BetNode, ...]

    @property
    def lines(self) -> tuple[str, ...]:
        """Every terminal line, in order: ``("X-X", "X-B50-F", ...)``."""
        return tuple(node.line for node in self.nodes if node.terminal)

    def decision_nodes(self, player: int | None = None) -> tuple[int, ...]:
        """The ids of the decision nodes (of ``player`` alone if given: ``OOP`` or ``IP``)."""
        return tuple(i for i, node in enumerate(self.nodes) if not node.terminal
                     and (player is None or node.player == player))

    def terminal_nodes(self) -> tuple[int, ...]:
        """The ids of the terminal nodes, in the order of :attr:`lines`."""
        return tuple(i for i, node in enumerate(self.nodes) if node.terminal)

    def index(self, line: str) -> int:
        """The id of the node whose line is ``line`` (``""`` for the root)."""
        for i, node in enumerate(self.nodes):
            if node.line == line:
                return i
        raise ValueError(f"no line {line!r} in this bet tree; its lines are "
                         f"{', '.join(self.lines)}")

    def __str__(self) -> str:
        head = (f"river bet tree: pot {_chips(self.pot)}, stack {_chips(self.stack)}, bets "
                f"{', '.join(map(str, self.bets))}, raises "
                f"{', '.join(map(str, self.raises)) or 'none'} "
                f"({len(self.decision_nodes())} decision nodes, {len(self.lines)} terminal)")
        width = max(len(line) for line in self.lines)
        rows = [f"  {node.line:<{width}}  {_outcome(node):<9}  "
                f"in: OOP {_chips(node.contributions[OOP])}, IP {_chips(node.contributions[IP])}; "
                f"pot {_chips(node.pot)}" for node in self.nodes if node.terminal]
        return "\n".join([head, *rows])


def parse_sizes(sizes: str | Sequence[str | BetSize], kind: str) -> tuple[BetSize, ...]:
    """Read bet or raise sizes as players write them.

    Parameters
    ----------
    sizes : str or sequence
        Comma-separated sizes (``"50%, 100%, a"``) or a list of them (``["50%", "a"]``, items may
        also be :class:`BetSize`): ``p%`` a percentage of the pot, ``mx`` a multiple of the bet
        faced (raises only), ``a``/``allin``/``all-in`` all-in.  Case and spaces do not matter.
    kind : {"bet", "raise"}
        What the sizes are for.  Bets need at least one size; raises may be empty (no raising).

    Returns
    -------
    tuple of BetSize
        In the order written.

    Raises
    ------
    ValueError
        For an unknown ``kind``, an empty bet list, or a token that is not a size (named with its
        position), a percentage <= 0 or a multiple <= 1 (each named with what is valid).
    """
    if kind not in ("bet", "raise"):
        raise ValueError(f"kind must be 'bet' or 'raise', got {kind!r}")
    if not isinstance(sizes, str | Sequence):
        raise ValueError(f"the {kind} sizes must be text such as '50%, a' or a list of sizes, "
                         f"got {sizes!r}")
    tokens = sizes.split(",") if isinstance(sizes, str) else list(sizes)
    if isinstance(sizes, str) and not sizes.strip():
        tokens = []
    if not tokens and kind == "bet":
        raise ValueError("the bet sizes are empty: give at least one, e.g. '50%' or '33%, a'")
    return tuple(token if isinstance(token, BetSize) else _parse_one(token, kind, i + 1, sizes)
                 for i, token in enumerate(tokens))


def _parse_one(token: object, kind: str, position: int, written: object) -> BetSize:
    if not isinstance(token, str):
        raise ValueError(f"{kind} size {position} ({token!r}) of {written!r} is not text: "
                         f"write {SIZE_FORMS}")
    where = f"{kind} size {position} ({token.strip()!r}) of {written!r}"
    text = token.strip().lower().replace(" ", "")
    if text in ALLIN_WORDS:
        return BetSize("allin")
    number = _number(text[:-1]) if text[-1:] in ("%", "x") else None
    if number is None:
        raise ValueError(f"{where} is not a size: write {SIZE_FORMS}")
    if text.endswith("%"):
        if number <= 0:
            raise ValueError(f"{where}: a percentage of the pot must be > 0%")
        return BetSize("pot", number / 100)
    if kind == "bet":
        raise ValueError(f"{where}: a multiple of the bet faced is a raise size, and the first "
                         f"bet faces none; write a percentage of the pot ('50%') or all-in ('a')")
    if number <= 1:
        raise ValueError(f"{where}: a raise must be a multiple > 1 of the bet faced (e.g. '2.5x')")
    return BetSize("multiple", number)


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def bet_tree(pot: float, stack: float, bets: str | Sequence[str | BetSize],
             raises: str | Sequence[str | BetSize] = ()) -> BetTree:
    """The betting tree of a two-player no-limit river, OOP first (conventions: the module's).

    Parameters
    ----------
    pot : float
        Chips in the pot when the river starts (> 0).
    stack : float
        The effective stack behind each player (> 0): the all-in amount.
    bets, raises : str or sequence
        Sizes as :func:`parse_sizes` reads them: ``bets="50%"``, ``raises="2.5x"``.

    Returns
    -------
    BetTree
        On the reference spot (``bet_tree(100, 200, "50%", "2.5x")``) its 13 lines ``X-X, X-B50-F,
        ..., B50-R125-AI200-C``: 8 decision nodes and 13 terminal.

    Raises
    ------
    ValueError
        For a pot or stack that is not a finite number > 0, bad sizes (see :func:`parse_sizes`),
        or a tree over ``MAX_NODES`` nodes.
    """
    pot, stack = _chips_argument("pot", pot), _chips_argument("stack", stack)
    bet_sizes, raise_sizes = parse_sizes(bets, "bet"), parse_sizes(raises, "raise")
    nodes: list[BetNode] = []
    children: list[list[int]] = []
    # (parent id, line, the move into the node), popped depth first: each node's first choice
    # is pushed last so that it comes out first
    pending: list[tuple[int, str, _Move]] = [(-1, "", ("", OOP, (0.0, 0.0), None))]
    while pending:
        parent, line, (_, player, put_in, folder) = pending.pop()
        if len(nodes) == MAX_NODES:
            raise ValueError(f"the bet tree of bets {bets!r} and raises {raises!r} passes "
                             f"{MAX_NODES:,} nodes: use fewer sizes or larger raise multiples")
        here = len(nodes)
        if parent >= 0:
            children[parent].append(here)
        moves = [] if player == TERMINAL else _moves(player, put_in, pot, stack, bet_sizes,
                                                     raise_sizes)
        nodes.append(BetNode(line, parent, player, tuple(m[0] for m in moves), (), put_in,
                             pot + sum(put_in), folder))
        children.append([])
        pending.extend((here, f"{line}-{m[0]}" if line else m[0], m) for m in reversed(moves))
    return BetTree(pot, stack, bet_sizes, raise_sizes,
                   tuple(replace(node, children=tuple(kids))
                         for node, kids in zip(nodes, children)))


def _moves(player: int, put_in: tuple[float, float], pot: float, stack: float,
           bets: tuple[BetSize, ...], raises: tuple[BetSize, ...]) -> list[_Move]:
    """The choices at a decision node, in order: check or fold and call first, then the bets or
    raises from the smallest."""
    other = 1 - player
    faced, own = put_in[other], put_in[player]

    def after(total: float) -> tuple[float, float]:
        return (total, put_in[IP]) if player == OOP else (put_in[OOP], total)

    moves: list[_Move]
    if faced == own:  # nothing to call: check (IP's check ends the betting) or bet
        moves = [("X", TERMINAL if player == IP else IP, put_in, None)]
        sizes, word = bets, "B"
    else:  # facing a bet: fold, call, or raise unless the bet is all-in
        moves = [("F", TERMINAL, put_in, player), ("C", TERMINAL, after(faced), None)]
        sizes, word = (raises if faced < stack else ()), "R"
    for total in _amounts(sizes, pot + sum(put_in), faced, own, stack):
        label = f"AI{_chips(total)}" if total >= stack else f"{word}{_chips(total)}"
        moves.append((label, other, after(total), None))
    return moves


def _amounts(sizes: tuple[BetSize, ...], pot: float, faced: float, own: float,
             stack: float) -> list[float]:
    """The distinct totals the sizes reach at a node, capped by the stack, from the smallest;
    rounded to the cent, and only those above the bet faced."""
    totals = {min(round(size.target(pot, faced, own), 2), stack) for size in sizes}
    return sorted(total for total in totals if total > faced)


def _chips_argument(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number of chips > 0, got {value!r}")
    return float(value)


def _outcome(node: BetNode) -> str:
    return "showdown" if node.folder is None else f"{PLAYERS[node.folder]} folds"


def _chips(amount: float) -> str:
    """An amount as a line writes it: ``50``, ``82.5``, ``33.33``."""
    return f"{amount:.2f}".rstrip("0").rstrip(".")
