"""Subgame solving: re-solve one public state's subgame, unsafely or safely, inside a blueprint.

A *subgame* here is everything below one public state: its *root histories* (one per private
deal that reaches it) and the trees under them.  Its information sets lie wholly inside it (the
public state is common knowledge), so a new strategy for it can replace the blueprint's there
and the rest of the game keeps the blueprint's.  Three ways to compute that new strategy:

``"unsafe"``
    Chance deals the root histories in proportion to their blueprint reach (both players'
    ranges and chance, :math:`\\pi^\\sigma(h)`), and the subgame is solved as a game of its own
    for both players at once.  It assumes the opponent keeps playing into the subgame as the
    blueprint says, so it can make the whole strategy *more* exploitable.
``"resolve"``
    The re-solve gadget of Burch, Johanson and Bowling (*Solving imperfect information games
    using decomposition*, AAAI 2014, CFR-D).  For our player :math:`p` and opponent :math:`o`:
    chance deals root history :math:`h` with probability proportional to
    :math:`\\pi_{-o}^\\sigma(h) = \\pi_p^\\sigma(h)\\pi_c(h)`; at its root information set
    :math:`I` (its private hand) the opponent chooses *terminate* ``T``, receiving its
    counterfactual best-response value against the blueprint (:func:`root_values`,
    normalised per history), or *follow* ``F`` into the subgame.  Solving the gadget for
    :math:`p` cannot raise the opponent's best-response value in the whole game by more than
    :math:`Z_p \\cdot \\mathrm{NashConv}(\\text{gadget})` (:math:`Z_p = \\sum_h
    \\pi_{-o}^\\sigma(h)`), so we solve one gadget per player and keep each player's part.
``"maxmargin"``
    Max-margin subgame refinement (Moravčík, Schmid, Ha, Hladík and Gaukrodger, *Refining
    subgames in large imperfect information games*, AAAI 2016), as the gadget Brown and
    Sandholm describe (*Safe and nested subgame solving*, NeurIPS 2017, section 4): the
    opponent first picks which root information set :math:`I` to enter, chance deals
    :math:`h \\in I` in proportion to :math:`\\pi_{-o}^\\sigma(h)`, and every payoff below is
    shifted by :math:`I`'s normalised best-response value.  The game's value is then minus the
    smallest margin :math:`\\min_I (\\mathrm{CBV}^{\\sigma}(I) - \\mathrm{CBV}^{\\sigma'}(I))`
    (normalised by :math:`I`'s weight), and solving it by CFR maximises that margin.  The same
    bound as the re-solve gadget holds; unlike it, the solution is pushed to *improve* on the
    blueprint at every root set, not just to match it.

Public states and hands come from :mod:`cfrviz.games.public` (a subgame is given as a
:class:`~cfrviz.games.public.PublicState`, its public history or its node ids, checked to be
closed under information sets by :func:`~cfrviz.solvers.subtrees.subgame_roots`); a player's
root information sets are its private hands there, so games without a well-defined public state
are refused, as :func:`~cfrviz.games.public.public_tree` refuses them.  The gadgets are built
from the game's subtrees by :mod:`cfrviz.solvers.subtrees`.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from ..core.checks import check_player, whole_number
from ..core.policy import Policy, check_policy
from ..core.registry import INT_LIMIT
from ..core.tree import CHANCE, TERMINAL, GameTree, as_tree, check_zero_sum
from ..core.types import FloatArray, IntArray
from ..engine import tree_best_response, tree_exploitability, tree_reach_probabilities
from .driver import InterruptFlag, Progress, Row, deferred_interrupt, iterate
from .progress import progress_bar
from .registry import ALGORITHMS, Algorithm, check_request
from .registry import algorithm as find_algorithm
from .subtrees import (
    TreeBuilder,
    deal_roots,
    hands_at,
    node_values,
    profile_on,
    shared_infosets,
    subgame_roots,
)

#: The three re-solving methods, by the names :func:`resolve` takes.
METHODS = ("unsafe", "resolve", "maxmargin")
#: What each method is called in a table or a menu.
METHOD_LABELS = {"unsafe": "unsafe", "resolve": "re-solve gadget (Burch et al. 2014)",
                 "maxmargin": "max-margin (Moravčík et al. 2016)"}


# --------------------------------------------------------------------------- the gadget's input

@dataclass(frozen=True)
class RootValues:
    """A player's counterfactual best-response values at a subgame's root, against a blueprint.

    Attributes
    ----------
    player : int
        Whose values (the opponent of the player whose strategy is re-solved).
    hands : tuple of str
        The player's private hands, all of them, in :meth:`PublicTree.hands
        <cfrviz.games.public.PublicTree.hands>` order (``"J", "Q", "K"`` in Kuhn and Leduc):
        its root information sets (a hand that cannot be here has weight 0).
    weight : array, shape (hands,)
        :math:`\\sum_{h \\in I} \\pi_{-i}^\\sigma(h)`: chance's and the other player's reach of
        the set's root histories.
    cbv : array, shape (hands,)
        :math:`\\mathrm{CBV}_i^{\\sigma}(I) = \\sum_{h \\in I} \\pi_{-i}^\\sigma(h)\\,
        v_i^{\\langle \\sigma_{-i}, \\mathrm{BR}\\rangle}(h)`: what a best response inside the
        subgame earns there, weighted by that reach.
    value : array, shape (hands,)
        ``cbv / weight``, the value per unit of reach (NaN where the weight is 0): the payoff of
        the re-solve gadget's *terminate*.
    roots : int array
        The subgame's root histories (node ids).
    hand_of_root : int array
        Which of ``hands`` each root history is in.
    root_weight : array
        :math:`\\pi_{-i}^\\sigma(h)` of each root history.
    """

    player: int
    hands: tuple[str, ...]
    weight: FloatArray
    cbv: FloatArray
    value: FloatArray
    roots: IntArray
    hand_of_root: IntArray
    root_weight: FloatArray


def root_values(game: object, policy: Policy, state: object, player: int) -> RootValues:
    """``player``'s counterfactual best-response values at a subgame's root information sets.

    The input of the re-solve and max-margin gadgets (Burch, Johanson and Bowling 2014;
    Moravčík et al. 2016): for each of ``player``'s root sets :math:`I`, what a best response
    to the other player's blueprint earns inside the subgame, weighted by chance's and the
    other player's reach, :math:`\\mathrm{CBV}(I) = \\sum_{h\\in I}\\pi_{-i}^\\sigma(h)\\,
    v_i^{\\langle\\sigma_{-i},\\mathrm{BR}\\rangle}(h)`.

    Parameters
    ----------
    game : GameTree
        A two-player zero-sum game whose root deals the private cards (Kuhn, Leduc).
    policy : Policy
        The blueprint.
    state : PublicState, str or sequence of int
        The subgame's public state (from :func:`cfrviz.games.public.public_tree`), its public
        history (``"deal/b"`` in Kuhn, :meth:`cfrviz.games.public.PublicTree.find`) or its
        root node ids.
    player : int
        0 or 1 (an int; ``1.0`` and ``True`` are refused): whose values.

    Raises
    ------
    ValueError
        For a game or policy that does not fit, nodes that are not one public state's (node ids
        that are not whole numbers of the tree, nodes of two public states, a set of nodes not
        closed under information sets), or a player that is not 0 or 1.
    """
    tree = as_tree(game, "root_values")
    check_zero_sum(tree, "subgame solving")
    check_policy(tree, policy)
    who = check_player(player)
    roots = subgame_roots(tree, state)
    return _root_values(tree, policy.probabilities, roots, who)


def _root_values(tree: GameTree, probs: FloatArray, roots: IntArray, player: int) -> RootValues:
    reach = tree_reach_probabilities(tree, probs)
    w = reach[1 - player, roots] * reach[2, roots]
    hands, which = hands_at(tree, roots, player)
    weight: FloatArray = np.bincount(which, weights=w, minlength=len(hands)).astype(float)
    cbv: FloatArray = np.zeros(len(hands))
    live = w > 0
    if live.any():
        b = TreeBuilder(tree)
        deal_roots(b, roots[live], w[live], -1, -1, 0, "")
        sub = b.build(f"{tree.name} subgame")
        table = profile_on(sub, tree, probs)
        best = tree_best_response(sub, table, player)[1]
        mine = np.flatnonzero(sub.infoset_player == player)
        table[mine] = 0.0
        table[mine, best[mine]] = 1.0
        v = node_values(sub, table)[sub.children[0], player]
        cbv = np.bincount(which[live], weights=w[live] * v, minlength=len(hands)).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(weight > 0, cbv / np.where(weight > 0, weight, 1.0), np.nan)
    return RootValues(player, hands, weight, cbv, value, roots, which, w)


# --------------------------------------------------------------------------- re-solving

@dataclass(frozen=True)
class Resolution:
    """A subgame re-solved and put back into the blueprint.

    Attributes
    ----------
    method : str
        ``"unsafe"``, ``"resolve"`` or ``"maxmargin"``.
    policy : Policy
        The blueprint with the subgame's information sets replaced.
    exploitability : float
        The whole game's NashConv / 2 of ``policy``.
    blueprint_exploitability : float
    gadgets : tuple of GameTree
        The games solved: one for ``"unsafe"``; for the safe methods one per player whose
        strategy is re-solved (player 1's first).
    solve_exploitability : tuple of float
        NashConv / 2 of each gadget's solution, in the gadget.
    weights : tuple of float
        :math:`Z_p = \\sum_h \\pi_p^\\sigma(h)\\pi_c(h)` for the safe gadgets (each player's
        own reach of the subgame with chance's); for ``"unsafe"``, the subgame's reach.
    bound : float
        For the safe methods, :math:`\\sum_p Z_p\\,\\epsilon_p` with :math:`\\epsilon_p` the
        gadget's NashConv / 2: how far the whole game's exploitability may rise above the
        blueprint's; ``inf`` for ``"unsafe"`` (no guarantee).
    seconds : float
        Wall time of building and solving the gadgets (not of the evaluation).
    iterations : tuple of int
        Iterations each gadget's run did, one per entry of ``weights`` (0 where nobody reaches
        the subgame and there was nothing to solve).
    interrupted : bool
        True when a Ctrl-C (a kernel interrupt) ended the re-solve early, as a trace's
        ``params["interrupted"]`` says of :func:`cfrviz.solve`: the result is *partial*.  It
        holds what was done: each gadget run so far, its average strategy put back (a safe
        gadget's bound holds for it, with its ``solve_exploitability`` as it stands), the
        blueprint where no gadget was reached; ``iterations`` says how far each run went.
    """

    method: str
    policy: Policy
    exploitability: float
    blueprint_exploitability: float
    gadgets: tuple[GameTree, ...]
    solve_exploitability: tuple[float, ...]
    weights: tuple[float, ...]
    bound: float
    seconds: float
    iterations: tuple[int, ...] = ()
    interrupted: bool = False


def _gadget(tree: GameTree, probs: FloatArray, roots: IntArray, method: str, us: int
            ) -> tuple[GameTree | None, float]:
    """The game to solve for player ``us`` (both players for ``"unsafe"``), and its weight."""
    reach = tree_reach_probabilities(tree, probs)
    b = TreeBuilder(tree)
    if method == "unsafe":
        w = reach[0, roots] * reach[1, roots] * reach[2, roots]
        live = w > 0
        if not live.any():
            return None, 0.0
        deal_roots(b, roots[live], w[live], -1, -1, 0, "")
        return b.build(f"{tree.name} unsafe subgame"), float(w.sum())
    them = 1 - us
    rv = _root_values(tree, probs, roots, them)
    w = rv.root_weight
    if not (w > 0).any():
        return None, 0.0

    def payoff(v: float) -> tuple[float, float]:
        return (v, -v) if them == 0 else (-v, v)

    if method == "resolve":
        root = b.node(-1, -1, CHANCE, 0, "", labels=tuple(tree.history[r] for r in roots[w > 0]))
        total = w.sum()
        for i, r in enumerate(np.flatnonzero(w > 0)):
            hand = int(rv.hand_of_root[r])
            node = b.node(root, i, them, 1, tree.history[roots[r]] + " (gadget)",
                          prob=float(w[r] / total), key=f"gadget {rv.hands[hand]}",
                          actions=("terminate", "follow"))
            b.node(node, 0, TERMINAL, 2, tree.history[roots[r]] + " terminate",
                   utility=payoff(float(rv.value[hand])))
            b.copy(int(roots[r]), node, 1, 2)
        return b.build(f"{tree.name} re-solve gadget"), float(total)
    entered = np.flatnonzero(rv.weight > 0)
    root = b.node(-1, -1, them, 0, "", key="max-margin gadget",
                  actions=tuple(rv.hands[i] for i in entered))
    for a, hand in enumerate(entered.tolist()):
        mine = (rv.hand_of_root == hand) & (w > 0)
        deal_roots(b, roots[mine], w[mine], root, a, 1, rv.hands[hand],
                     shift=float(rv.value[hand]), who_gains=them)
    return b.build(f"{tree.name} max-margin gadget"), float(w.sum())


def resolve(game: object, blueprint: Policy, state: object, method: str = "resolve",
            iterations: int = 1000, algorithm: str = "cfr+") -> Resolution:
    """Re-solve one public state's subgame and put the result back into the blueprint.

    Parameters
    ----------
    game : GameTree
        A two-player zero-sum game whose root deals the private cards (Kuhn, Leduc).
    blueprint : Policy
    state : PublicState, str or sequence of int
        The subgame (as :func:`root_values` takes it).
    method : {"unsafe", "resolve", "maxmargin"}
        See the module's docstring.
    iterations : int
        Iterations of ``algorithm`` on each gadget: a whole number from 1 to 2**63 - 1.
    algorithm : str
        A full-tree algorithm of :func:`cfrviz.solve` (``"cfr+"``, ``"dcfr"``, ...); its
        average strategy is the re-solved one.

    Returns
    -------
    Resolution
        Partial (``interrupted=True``, with a ``RuntimeWarning`` saying how far it went) when a
        Ctrl-C ended the run: one Ctrl-C ends the whole re-solve, not just a gadget.

    Raises
    ------
    ValueError
        For an unknown method (listing the three), iterations that are not a whole number in
        range, or what :func:`root_values` refuses.
    """
    *_, last = resolve_steps(game, blueprint, state, method, iterations, algorithm, chunks=1)
    assert last.resolution is not None
    return last.resolution


@dataclass
class ResolveStep:
    """Where a re-solve stands, as :func:`resolve_steps` yields it.

    Attributes
    ----------
    gadget, gadgets : int
        The gadget being solved (0-based) and how many there are (1 unsafe, 2 safe).
    curves : list of (name, iterations, exploitability)
        Each gadget's run so far (its NashConv / 2 in the gadget after each chunk): only
        iterations actually done (after a Ctrl-C, the last point is where the run stopped).
    done, total : int
        Chunks done and to do, over all gadgets.
    resolution : Resolution or None
        Set on the last step only.
    """

    gadget: int
    gadgets: int
    curves: list[tuple[str, list[int], list[float]]] = field(default_factory=list)
    done: int = 0
    total: int = 0
    resolution: Resolution | None = None


#: The most chunks :func:`resolve_steps` splits a gadget's run into.  Each chunk is one stretch
#: of the algorithm's run and one point of the curve (the widget uses 10); a run's memory does
#: not grow with the chunks (only the last record is kept), so the limit is one of time.
MAX_CHUNKS = 1000


def _chunk_marks(iterations: int, chunks: int) -> list[int]:
    """Log-spaced iterations ending at ``iterations`` (just ``[iterations]`` for one chunk):
    at most ``min(chunks, iterations)`` of them, exact for any 64-bit ``iterations``."""
    if chunks >= iterations:
        return list(range(1, iterations + 1))
    inner = np.geomspace(1, iterations, num=chunks)[:-1]
    return sorted({min(max(1, round(float(x))), iterations - 1) for x in inner}) + [iterations]


def resolve_steps(game: object, blueprint: Policy, state: object, method: str = "resolve",
                  iterations: int = 1000, algorithm: str = "cfr+",
                  chunks: int = 10) -> Iterator[ResolveStep]:
    """:func:`resolve`, step by step: yields a :class:`ResolveStep` after every chunk of every
    gadget's run, the last one holding the :class:`Resolution` (for a progress bar and a live
    convergence plot: :class:`cfrviz.widgets.ResolveExplorer`).

    Each gadget's run is one run of the algorithm, iterated chunk by chunk
    (:func:`cfrviz.solvers.driver.iterate`, recording at the chunks' ends), so the Resolution
    does not depend on ``chunks``: :func:`resolve` is this with one chunk.  Its
    ``seconds`` count the work done inside the generator only (not what the caller does
    between steps).  The arguments are checked when this is called, before the first step.

    A Ctrl-C (a kernel interrupt) while a step is computed ends the whole re-solve: the next
    step is the last, its Resolution partial (``interrupted=True``, a ``RuntimeWarning`` says
    how far it went) and its curves hold only the iterations done.  Between steps (while the
    caller draws) Ctrl-C is the caller's, as usual.

    Parameters
    ----------
    game, blueprint, state, method, iterations, algorithm
        As :func:`resolve` takes them.
    chunks : int
        Chunks per gadget (log-spaced, so a log-scale curve gets even points): a whole number
        from 1 to :data:`MAX_CHUNKS`; at most ``iterations`` are used.

    Raises
    ------
    ValueError
        What :func:`resolve` refuses, or ``chunks`` out of range.
    """
    if method not in METHODS:
        raise ValueError(f"unknown re-solving method {method!r}; choose one of "
                         f"{', '.join(repr(m) for m in METHODS)}")
    runs = whole_number(iterations, "iterations", 1, INT_LIMIT)  # as cfrviz.solve takes them
    parts = whole_number(chunks, "chunks", 1, MAX_CHUNKS)
    tree = as_tree(game, "resolve")
    check_zero_sum(tree, "subgame solving")
    check_policy(tree, blueprint)
    roots = subgame_roots(tree, state)
    entry = find_algorithm(algorithm)
    if entry.stepper is None:
        stepped = [a.name for a in ALGORITHMS.values() if a.stepper is not None]
        raise ValueError(f"a re-solve runs its algorithm chunk by chunk; {entry.name} runs only "
                         f"whole: use one of {', '.join(stepped)}")
    return _resolve_steps(tree, blueprint, roots, method, runs, entry,
                          _chunk_marks(runs, parts))


def _advance(run: Iterator[Progress], start: int, mark: int, algorithm: str, game: str
             ) -> tuple[Row | None, bool]:
    """Run a gadget's iterations (``run``, :func:`~cfrviz.solvers.driver.iterate`) from
    ``start`` on to ``mark``: ``(its newest record, whether a Ctrl-C ended the run)``.  A run
    still going after two seconds shows a progress bar, as :func:`cfrviz.solve`'s do."""
    newest = None
    bar = progress_bar(mark, start, algorithm, game, None)
    try:
        for progress in run:
            if progress.records:
                newest = progress.records[-1]
            if progress.interrupted:
                return newest, True
            if bar is not None:
                bar.update(progress.done)
            if progress.iteration >= mark:
                break
    finally:
        if bar is not None:
            bar.close()
    return newest, False


@contextmanager
def _ctrl_c() -> Iterator[InterruptFlag]:
    """:func:`~cfrviz.solvers.driver.deferred_interrupt` around one piece of a re-solve, with a
    ``KeyboardInterrupt`` raised by code inside counted like the signal (the rest of the piece
    is then skipped: the caller reads ``flag.hit`` before using what it made)."""
    with deferred_interrupt() as flag:
        try:
            yield flag
        except KeyboardInterrupt:
            flag.count += 1


def _curve_name(method: str, us: int) -> str:
    """What the convergence curve of the gadget solved for player ``us`` is called."""
    if method == "unsafe":
        return "the unsafe subgame"
    kind = "max-margin" if method == "maxmargin" else "re-solve"
    return f"{kind} gadget for player {us + 1}'s strategy"


class _Stopwatch:
    """The time spent inside a generator: paused while its caller holds a step."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.started = time.perf_counter()

    def pause(self) -> None:
        self.seconds += time.perf_counter() - self.started

    def resume(self) -> None:
        self.started = time.perf_counter()


@dataclass
class _Solved:
    """The gadgets solved so far, and the blueprint with their strategies put back."""

    combined: FloatArray
    gadgets: list[GameTree] = field(default_factory=list)
    tolerance: list[float] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)

    def skip(self, weight: float) -> None:
        """A gadget nobody (or not we) reaches: nothing to solve, the blueprint kept there."""
        self.weights.append(weight)
        self.tolerance.append(0.0)
        self.iterations.append(0)

    def add(self, tree: GameTree, gadget: GameTree, weight: float, row: Row, method: str,
            us: int) -> None:
        """Put back the average strategy of a gadget's newest record ``row``: at player
        ``us``'s sets (at every set for ``"unsafe"``, solved for both players)."""
        solved = np.asarray(row[4])
        self.gadgets.append(gadget)
        self.weights.append(weight)
        self.tolerance.append(float(tree_exploitability(gadget, solved)))
        self.iterations.append(row[0])
        for sub_row, src in shared_infosets(gadget, tree):
            if method == "unsafe" or tree.infoset_player[src] == us:
                width = len(tree.infoset_actions[src])
                self.combined[src, :width] = solved[sub_row, :width]

    def resolution(self, tree: GameTree, blueprint: FloatArray, method: str, seconds: float,
                   interrupted: bool) -> Resolution:
        """What was solved, put back into the blueprint and evaluated in the whole game."""
        bound = float(np.dot(self.weights, self.tolerance)) if method != "unsafe" else float("inf")
        return Resolution(method, Policy(tree, self.combined),
                          float(tree_exploitability(tree, self.combined)),
                          float(tree_exploitability(tree, blueprint)), tuple(self.gadgets),
                          tuple(self.tolerance), tuple(self.weights), bound, seconds,
                          tuple(self.iterations), interrupted)


def _solve_gadget(gadget: GameTree, entry: Algorithm, iterations: int, marks: list[int],
                  step: ResolveStep, name: str, clock: _Stopwatch
                  ) -> Generator[ResolveStep, None, tuple[Row | None, bool]]:
    """One run of the algorithm on ``gadget``, its records at ``marks``: yields ``step`` after
    each chunk, with a point more on the curve ``name``; returns ``(the newest record, whether
    a Ctrl-C ended the run)``."""
    stepper = entry.stepper
    assert stepper is not None  # resolve_steps checked
    its: list[int] = []
    values: list[float] = []
    step.curves.append((name, its, values))
    run: Iterator[Progress] | None = None
    row: Row | None = None
    for m in marks:
        ended = True
        with _ctrl_c() as flag:
            if run is None:
                request = check_request(gadget, entry.name, iterations, None, marks,
                                        {"progress": False})
                # ``flag`` is read when the run asks: the flag of the piece being computed.
                run = iterate(request, stepper(request), stop=lambda: flag.hit)
            newest, ended = _advance(run, its[-1] if its else 0, m, entry.name, gadget.name)
            if newest is not None and (not its or newest[0] > its[-1]):
                row = newest
                its.append(row[0])
                values.append(float(tree_exploitability(gadget, np.asarray(row[4]))))
        if ended or flag.hit:
            if not its:  # stopped before its first iteration: no curve to draw
                step.curves.pop()
            return row, True
        step.done += 1
        clock.pause()
        yield step
        clock.resume()
    return row, False


def _resolve_steps(tree: GameTree, blueprint: Policy, roots: IntArray, method: str,
                   iterations: int, entry: Algorithm, marks: list[int]
                   ) -> Iterator[ResolveStep]:
    """:func:`resolve_steps` on checked arguments: a gadget per player whose strategy is
    re-solved (one for ``"unsafe"``), each solved in chunks, then the Resolution."""
    clock = _Stopwatch()
    probs = blueprint.probabilities
    solved = _Solved(np.array(probs))
    players = (0,) if method == "unsafe" else (0, 1)
    step = ResolveStep(0, len(players), total=len(marks) * len(players))
    stopped = False  # a Ctrl-C ended the run
    for k, us in enumerate(players):
        step.gadget = k
        with _ctrl_c() as flag:
            gadget, weight = _gadget(tree, probs, roots, method, us)
        if flag.hit:
            stopped = True
            break
        if gadget is None:  # nobody (or not we) reaches the subgame: its strategy cannot matter
            solved.skip(weight)
            step.done += len(marks)
            continue
        row, stopped = yield from _solve_gadget(gadget, entry, iterations, marks, step,
                                                _curve_name(method, us), clock)
        with deferred_interrupt() as flag:
            if row is not None:
                solved.add(tree, gadget, weight, row, method, us)
        stopped = stopped or flag.hit
        if stopped:
            break
    with deferred_interrupt() as flag:
        clock.pause()
        step.resolution = solved.resolution(tree, probs, method, clock.seconds,
                                            stopped or flag.hit)
    if step.resolution.interrupted:
        ran = ", ".join(f"{n:,}" for n in solved.iterations) or "none"
        warnings.warn(f"re-solve ({method}) interrupted: the Resolution is partial "
                      f"(interrupted=True). Iterations done per gadget: {ran} of "
                      f"{iterations:,} each, in {len(solved.iterations)} of {len(players)} gadget"
                      f"{'s' if len(players) > 1 else ''}; the blueprint is kept where no "
                      f"gadget was solved", RuntimeWarning, stacklevel=2)
    yield step


def resolve_all(game: object, blueprint: Policy, state: object, iterations: int = 1000,
                algorithm: str = "cfr+", methods: Iterable[str] = METHODS
                ) -> dict[str, Resolution]:
    """:func:`resolve` by each of ``methods`` on one subgame: ``{method: Resolution}``."""
    return {m: resolve(game, blueprint, state, m, iterations, algorithm) for m in methods}


__all__: Sequence[str] = ("MAX_CHUNKS", "METHODS", "METHOD_LABELS", "ResolveStep", "Resolution",
                          "RootValues", "resolve", "resolve_all", "resolve_steps", "root_values")
