"""Checkers for lesson 11's sequence-form exercises: the constraints ``E x = e`` and the LP.

``my_constraints(tree, player, first) -> (E, e)``: checked for both players of Kuhn poker and
two-rank Leduc against :func:`cfrviz.solvers.lp.sequence_form`'s; each row is found by the set
whose actions it carries (any order, any nonzero multiple) and the first wrong one is named in
words.  ``my_game_value(A, E, e, F, f, linprog)``: any formulation whose value is within
:data:`VALUE_TOLERANCE` of the game's on Kuhn poker and two matrix games; the ``linprog`` given
records its calls, so that a wrong program can be read.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.optimize import linprog

from ..analysis.realization import sequence_labels
from ..games import load_game
from ..solvers import lp
from ..solvers.lp import sequence_form
from . import Feedback, as_number, correct
from .coding import attempt, checks, floats, run_student, short_repr
from .diagnosis import Case, Message, by_name, diagnose, fallback

#: The games the constraints are checked on: (name, parameters, what to call it).
CONSTRAINT_GAMES: tuple[tuple[str, dict, str], ...] = (("kuhn_poker", {}, "Kuhn poker"),
                    ("leduc_poker", {"ranks": 2}, "Leduc poker with two ranks"))
#: Numbers within this of each other count as equal in a row.
ENTRY_TOLERANCE = 1e-9
PLAYER_NAMES = ("player 1 (E, e)", "player 2 (F, f)")


def game_for(name: str, params: dict):
    """The cached tree of one of the checked games."""
    return _game(name, tuple(params.items()))


@lru_cache(maxsize=4)
def _game(name: str, params: tuple):
    return load_game(name, **dict(params))


def reference_constraints(tree, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``(E, e)`` (or ``(F, f)``) as dense arrays, from :func:`cfrviz.solvers.lp.sequence_form`."""
    rows = sequence_form(tree).constraints[player].toarray()
    rhs = np.zeros(len(rows))
    rhs[0] = 1.0
    return rows, rhs


@dataclass
class RowFinding:
    """The first thing wrong with a student's ``(E, e)`` (``kind`` None: nothing)."""

    kind: str | None = None
    game: str = ""
    player: int = 0
    infoset: str = ""
    shape: tuple = ()
    expected_shape: tuple = ()
    sets: int = 0
    detail: dict = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"In {self.game}, for {PLAYER_NAMES[self.player]}"

    def found(self, kind: str, **detail: Any) -> RowFinding:
        """This finding, of ``kind``, with ``detail`` added."""
        self.kind = kind
        self.detail.update(detail)
        return self


def _as_array(value, shape: tuple | None = None) -> np.ndarray | None:
    """A float array of finite numbers from a list, a numpy array or a scipy sparse matrix: 2-d,
    or of ``shape`` (raveled) when given; None when it is not one."""
    if hasattr(value, "toarray"):
        value = value.toarray()
    array, _ = attempt(lambda: floats(value))
    if array is not None and shape is not None:
        array = array.ravel()
    if array is None or (array.shape != shape if shape else array.ndim != 2) \
            or not np.all(np.isfinite(array)):
        return None
    return array


def _read_pair(answer, shape: tuple, tree, finding: RowFinding
               ) -> tuple[np.ndarray, np.ndarray] | RowFinding:
    """``answer`` as ``(E, e)`` of the right shapes, or the finding of what keeps it from it."""
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        return finding.found("not-a-pair", got=short_repr(answer))
    E = _as_array(answer[0])
    if E is None:
        return finding.found("not-a-matrix", got=short_repr(answer[0]))
    finding.shape = E.shape
    if E.shape != shape:
        return finding.found(_shape_mistake(E.shape, shape, tree))
    e = _as_array(answer[1], (len(E),))
    return finding.found("rhs-shape", got=short_repr(answer[1])) if e is None else (E, e)


def find_row_mistake(tree, player: int, answer, game: str = "") -> RowFinding:
    """What is wrong with ``answer = (E, e)`` for ``player`` of ``tree`` (kind None: nothing)."""
    want, _ = reference_constraints(tree, player)
    form = sequence_form(tree)
    sets = [int(i) for i in np.flatnonzero(tree.infoset_player == player)]
    finding = RowFinding(game=game, player=player, expected_shape=want.shape, sets=len(sets))
    read = _read_pair(answer, want.shape, tree, finding)
    if isinstance(read, RowFinding):
        return read
    E, e = read
    labels = sequence_labels(tree, player, form)
    rows = np.column_stack([E, e])
    used = np.zeros(len(rows), dtype=bool)
    # The row x(∅) = 1: a row with nothing but column 0.
    only_root = [r for r in range(len(E)) if abs(E[r, 0]) > ENTRY_TOLERANCE
                 and np.all(np.abs(E[r, 1:]) <= ENTRY_TOLERANCE)]
    if not only_root:
        return finding.found("no-root-row")
    root = only_root[0]
    used[root] = True
    if not np.isclose(e[root] / E[root, 0], 1.0, atol=ENTRY_TOLERANCE):
        return finding.found("root-rhs", value=float(e[root] / E[root, 0]))
    columns = {info: list(range(int(form.first[info]),
                                int(form.first[info]) + len(tree.infoset_actions[info])))
               for info in sets}
    # Which sets each row states in full: a row that weighs every action of a set (two or
    # more), all with one sign, is that set's row, whatever its place in E.
    owns = [{info for info in sets if len(columns[info]) > 1 and _covers(E[r, columns[info]])}
            for r in range(len(E))]
    for info in sets:
        actions = columns[info]
        key = tree.infoset_keys[info]
        finding.infoset = key
        touching = [r for r in range(len(E)) if not used[r]
                    and np.any(np.abs(E[r, actions]) > ENTRY_TOLERANCE)]
        if not touching:
            return finding.found("missing-set", actions=[labels[c] for c in actions])
        # The set's own row by content, not by position: a row that states the set in full
        # first, then the row weighing most of its actions; a row another set owns (a child
        # set's row has -1 on one of these actions, its parent sequence) comes last.
        r = max(touching, key=lambda r: (info in owns[r],
                                         int(np.sum(np.abs(E[r, actions]) > ENTRY_TOLERANCE)),
                                         not owns[r] - {info}, -r))
        start = actions[0]
        used[r] = True
        row = rows[r] / E[r, start] if abs(E[r, start]) > ENTRY_TOLERANCE else rows[r]
        finding.detail.update(actions=[labels[c] for c in actions], row=r,
                              parent=labels[int(form.parent[info])])
        mistake = _set_row_mistake(row, rows[r], actions, int(form.parent[info]), labels)
        if mistake is not None:
            return finding.found(mistake[0], **mistake[1])
    if not np.all(used):
        return finding.found("extra-rows", row=int(np.flatnonzero(~used)[0]))
    return finding


def _set_row_mistake(row, raw, actions: list[int], parent: int, labels
                     ) -> tuple[str, dict] | None:
    """What is wrong with one set's row, with details: ``row`` (right-hand side last) divided
    by its first action's coefficient, ``raw`` as given, ``parent`` the set's parent column."""
    others = [c for c in np.flatnonzero(np.abs(row[:-1]) > ENTRY_TOLERANCE).tolist()
              if c not in actions]
    rhs, weight = float(row[-1]), float(row[parent])
    coefficients = np.round(raw[actions], 4).tolist()
    checks: tuple[tuple[Any, str, dict], ...] = (
        (not np.allclose(row[actions], 1.0, atol=ENTRY_TOLERANCE), "actions",
         {"coefficients": coefficients}),
        (abs(rhs) > ENTRY_TOLERANCE,
         "behaviour-rows" if not others and np.isclose(rhs, 1.0) else "row-rhs", {"rhs": rhs}),
        (not others, "no-parent", {}),
        (others == [parent] and np.isclose(weight, 1.0), "parent-sign", {}),
        # x(I, ·) and x(σ(I)) with different weights
        (others == [parent] and weight < 0 and not np.isclose(weight, -1.0), "actions",
         {"coefficients": coefficients, "parent_coefficient": round(float(raw[parent]), 4)}),
        (others != [parent] or not np.isclose(weight, -1.0),
         "parent-is-empty" if others == [0] and parent != 0 and np.isclose(row[0], -1.0)
         else "wrong-parent", {}),
    )
    found = {"others": {labels[c]: round(float(row[c]), 4) for c in others}}
    return next(((kind, {**found, **extra}) for holds, kind, extra in checks if holds), None)


def _covers(entries: np.ndarray) -> bool:
    """Whether ``entries`` are all nonzero and of one sign."""
    return bool(np.all(entries > ENTRY_TOLERANCE) or np.all(entries < -ENTRY_TOLERANCE))


def _shape_mistake(shape: tuple, want: tuple, tree) -> str:
    if shape == want[::-1]:
        return "transposed"
    if shape[1] != want[1]:
        return "columns"
    if shape[0] == want[0] - 1:
        return "no-root-row"
    if shape[0] in (tree.num_infosets, tree.num_infosets + 1):
        return "all-sets"
    return "rows"


def _seq_list(names) -> str:
    return ", ".join(f"x({n})" for n in names)


def _shape_messages(f: RowFinding) -> dict[str, str]:
    """What to say when the constraints as a whole are off (:func:`_row_cases`'s first rows)."""
    d = f.detail
    return {
        "not-a-pair": f"{f.where}, your function returned {d.get('got')}; return two things, "
                      "the matrix and the right-hand side: `return E, e`.",
        "not-a-matrix": f"{f.where}, the matrix you returned, {d.get('got')}, is not a table "
                        "of finite numbers (a numpy array of shape rows × sequences).",
        "transposed": f"{f.where}, your E has shape {f.shape}; it should be "
                      f"{f.expected_shape}: one row per constraint (the empty sequence, then "
                      "each information set of the player) and one column per sequence. It "
                      "looks transposed.",
        "columns": f"{f.where}, your E has {f.shape[1] if f.shape else '?'} columns; the "
                   f"player has {f.expected_shape[1]} sequences (∅ plus one per action of "
                   f"each of their {f.sets} information sets), one column each, numbered "
                   "first[I] + a.",
        "all-sets": f"{f.where}, your E has {f.shape[0] if f.shape else '?'} rows: a row for "
                    "every information set of the game. A player's plan is constrained only "
                    f"at their own sets: {f.sets} rows for them, plus the row x(∅) = 1.",
        "no-root-row": f"{f.where}, no row says x(∅) = 1 (a row with a single 1, in column 0, "
                       "and right-hand side 1). Without it the all-zero vector satisfies "
                       "every other row, and zero is no strategy. Make row 0 that row.",
        "root-rhs": f"{f.where}, the row of the empty sequence says x(∅) = "
                    f"{d.get('value', 0):g}. The empty sequence is played with certainty: its "
                    "right-hand side, e[0], must be 1 (and the others 0).",
        "rhs-shape": f"{f.where}, the right-hand side you returned, {d.get('got')}, should be "
                     f"{f.expected_shape[0]} numbers, one per row of E: 1 for x(∅) = 1, 0 "
                     "elsewhere.",
        "rows": f"{f.where}, your E has {f.shape[0] if f.shape else '?'} rows; it should have "
                f"{f.expected_shape[0]}: the row x(∅) = 1 and one per information set of the "
                f"player ({f.sets}).",
    }


def _row_cases(f: RowFinding) -> tuple[Case, ...]:
    """The diagnosis table of one finding (the value judged is the finding's kind)."""
    d = f.detail
    key = f"{f.infoset!r}"
    # Name the row by its index in the student's matrix, where the checker found it by content.
    at = f" (row {d['row']} of your matrix)" if "row" in d and f.kind != "extra-rows" else ""
    return (
        Case.correct(lambda kind: kind is None, ""),
        *by_name({
            **_shape_messages(f),
            "missing-set": f"{f.where}, no row mentions the sequences of information set {key} "
                           f"({_seq_list(d.get('actions', []))}). Each set of the player gets one "
                           "row.",
            "actions":
                f"{f.where}, the row of information set {key}{at} gives its action sequences "
                f"{', '.join(d.get('actions', []))} the coefficients {d.get('coefficients')}"
                + (f" and x({d.get('parent')}) {d['parent_coefficient']:g}"
                if "parent_coefficient" in d else "")
                + ". The actions' weights add up to exactly the parent's weight: 1 on each "
                f"action, −1 on x({d.get('parent')}).",
            "behaviour-rows": f"{f.where}, the row of information set {key}{at} says "
                              f"{' + '.join(_seq_list(d.get('actions', [])).split(', '))} = 1: "
                              "that is a behaviour strategy's rule (probabilities at a set sum to "
                              "1). A realization plan multiplies the probabilities along the way, "
                              "so the actions share out the weight of the sequence that leads to "
                              f"{key}: the row needs −1 on x({d.get('parent')}) and right-hand "
                              "side 0.",
            "row-rhs": f"{f.where}, the row of information set {key}{at} has right-hand side "
                       f"{d.get('rhs', 0):g} (after dividing the row by its action coefficient). "
                       "Only the row x(∅) = 1 has a right-hand side; the sets' rows are Σ_a x(I, "
                       "a) − x(σ(I)) = 0.",
            "no-parent": f"{f.where}, the row of information set {key}{at} adds up its action "
                         f"sequences ({', '.join(d.get('actions', []))}) and nothing else, with "
                         "right-hand side 0: that forces them all to 0. It should subtract the "
                         f"weight of the sequence leading to {key}, x({d.get('parent')}), with "
                         "coefficient −1.",
            "parent-sign": f"{f.where}, the row of information set {key}{at} has +1 on "
                           f"x({d.get('parent')}): it says the actions' weights plus "
                           f"x({d.get('parent')}) make 0. The parent's weight goes on the other "
                           "side of the equation: coefficient −1.",
            "parent-is-empty": f"{f.where}, the row of information set {key}{at} takes its weight "
                               f"from the empty sequence ∅. But the player reaches {key} only "
                               f"after their own earlier move {d.get('parent')}: its parent "
                               f"sequence is x({d.get('parent')}), the player's own last move on "
                               "the way (perfect recall makes it the same for every history of "
                               "the set).",
            "wrong-parent": f"{f.where}, the row of information set {key}{at} has "
                            f"{_coefficients(d.get('others', {}))} besides its actions. The one "
                            "sequence whose weight it shares out is the player's own last move "
                            f"before {key}, x({d.get('parent')}), with −1 (the opponent's and "
                            "chance's moves are not the player's sequences).",
            "extra-rows": f"{f.where}, row {d.get('row')} of E is one row too many: every set's "
                          "row and the row of ∅ are there already. Is one set listed twice?",
        }),
        fallback(f"{f.where}, something is off at information set {key}."),
    )


def _coefficients(others: dict) -> str:
    return ", ".join(f"{v:+g} on x({k})" for k, v in others.items()) or "no other entry"


#: The package's own answers to the constraints exercise: calling one is not writing it.
_CONSTRAINT_ANSWERS: dict[Callable[..., Any], str] = {
    sequence_form: "cfrviz.solvers.lp.sequence_form (whose .constraints are E and F)",
    lp.plan_constraints: "cfrviz.solvers.lp.plan_constraints",
}


def first_columns(tree) -> np.ndarray:
    """``first[I]``: the column of information set ``I``'s first action in its player's plan
    (what the constraints exercise is given), without handing over the sequence form."""
    return sequence_form(tree).first.copy()


_CONSTRAINT_HINTS = {
    IndexError: "first[I] + a is the column of action a at set I; the matrix has one column "
                "per sequence of the player (len(first) is the number of sets of the game, "
                "not of columns).",
    TypeError: "The checker calls my_constraints(tree, player, first) with player 0 or 1 and "
               "first an array of column numbers; return (E, e).",
}


@checks("`my_constraints`", "check_plan_constraints(my_constraints)")
def check_plan_constraints(function) -> Feedback:
    """Exercise: ``function(tree, player, first) -> (E, e)``, the realization-plan constraints,
    on :data:`CONSTRAINT_GAMES` (see :func:`find_row_mistake`); calling the package's own
    answer or changing ``first`` is wrong."""
    for name, params, label in CONSTRAINT_GAMES:
        tree = game_for(name, params)
        for player in (0, 1):
            given = first_columns(tree)  # the student's to read
            answer, failed = run_student(
                lambda tree=tree, player=player, given=given: function(tree, player, given),
                name="`my_constraints`", hints=_CONSTRAINT_HINTS,
                forbidden=_CONSTRAINT_ANSWERS, unchanged=[("first", given)])
            if failed is not None:
                return failed
            finding = find_row_mistake(tree, player, answer, label)
            if finding.kind is not None:
                return diagnose(finding.kind, _row_cases(finding))
    return correct("Right, for both players of Kuhn poker and of two-rank Leduc: x(∅) = 1, "
                   "and at each information set the actions share out exactly the weight of "
                   "the player's own last move before it. In Kuhn, player 1's sets J, Q, K "
                   "hang from ∅ and Jpb, Qpb, Kpb from J·p, Q·p, K·p; all of player 2's hang "
                   "from ∅, since player 2 has not moved before. E and F have 7 rows and 13 "
                   "columns each.")


#: The value must be this close to the game's (HiGHS' own feasibility tolerance is 1e-7).
VALUE_TOLERANCE = 1e-7
#: Matrix games as sequence forms: player 1 picks a row, player 2 a column.
MATRIX_GAMES = (("the matrix game [[2, -1, 0], [-1, 3, -2]]", ((2, -1, 0), (-1, 3, -2))),
                ("the matrix game [[1, -2], [-1, 2], [0, 1]]", ((1, -2), (-1, 2), (0, 1))))


def matrix_sequence_form(matrix) -> tuple[np.ndarray, ...]:
    """``(A, E, e, F, f)`` of a matrix game: one set per player, its actions hang from ∅."""
    M = np.asarray(matrix, dtype=float)
    E, F = (np.array([[1.0] + [0.0] * k, [-1.0] + [1.0] * k]) for k in M.shape)
    return np.pad(M, ((1, 0), (1, 0))), E, np.array([1.0, 0.0]), F, np.array([1.0, 0.0])


@lru_cache(maxsize=1)
def lp_cases() -> tuple[tuple[str, tuple[np.ndarray, ...], float], ...]:
    """(name, (A, E, e, F, f), value) of each program the LP exercise is checked on."""
    from ..analysis.equilibrium import matrix_equilibrium

    kuhn = game_for("kuhn_poker", {})
    form = sequence_form(kuhn)
    (E, e), (F, f) = (reference_constraints(kuhn, p) for p in (0, 1))
    cases: list[tuple[str, tuple[np.ndarray, ...], float]] = [
        ("Kuhn poker", (form.payoff.toarray(), E, e, F, f), float(Fraction(-1, 18)))]
    for name, matrix in MATRIX_GAMES:
        value = float(matrix_equilibrium(matrix).value)
        cases.append((name, matrix_sequence_form(matrix), value))
    return tuple(cases)


class LinprogRecorder:
    """SciPy's ``linprog``, keeping each call's arguments, by name, and result."""

    def __init__(self):
        self.calls: list[tuple[dict, object]] = []

    def __call__(self, *args, **kwargs):
        result = linprog(*args, **kwargs)
        self.calls.append((inspect.signature(linprog).bind(*args, **kwargs).arguments, result))
        return result


@dataclass
class LPFinding:
    """What the checker learned from one run of the student's LP function."""

    game: str
    value: float
    got: object
    number: float | None
    calls: list
    crashed: Feedback | None = None


def _lower_bounds(bounds, count: int) -> np.ndarray:
    """Each variable's lower bound as linprog reads ``bounds`` (default: 0 for all)."""
    if bounds is None:
        return np.zeros(count)
    pairs = list(bounds) if not isinstance(bounds, tuple) or len(bounds) != 2 or \
        isinstance(bounds[0], (tuple, list, np.ndarray)) else [bounds] * count
    if len(pairs) == 1:  # one pair for every variable
        pairs *= count
    low = np.full(count, np.nan)
    for i, pair in enumerate(pairs[:count]):
        with contextlib.suppress(TypeError, IndexError):  # not a pair: no bound read
            low[i] = -np.inf if pair[0] is None else float(pair[0])
    return low


def _primal_shape(call, sizes) -> dict | None:
    """The pieces of a recorded call when it has player 1's primal layout ([x, q])."""
    named, result = call
    n1, n2, m2 = sizes
    c, A_ub = named.get("c"), named.get("A_ub")
    if c is None or A_ub is None:
        return None
    c = np.asarray(c, dtype=float).ravel()
    A_ub = _as_array(A_ub)
    if len(c) != n1 + m2 or A_ub is None or A_ub.shape != (n2, n1 + m2):
        return None
    return {"c": c, "A_ub": A_ub, "status": getattr(result, "status", None),
            "low": _lower_bounds(named.get("bounds"), n1 + m2)}


def _lp_conditions(f: LPFinding, program: tuple) -> dict[str, Callable[[LPFinding], bool]]:
    """When the run ``f`` is right (``"correct"``) or shows each mistake, in order: by its
    value first, then by its last call of linprog."""
    A, rhs = program[0], program[4]
    n1 = A.shape[0]
    last = f.calls[-1][1] if f.calls else None
    primal = _primal_shape(f.calls[-1], (n1, A.shape[1], len(rhs))) if f.calls else None
    block = -A.T if primal is None else primal["A_ub"][:, :n1]  # the rows' block on x
    unsolved = primal is not None and primal["status"] != 0
    low, costs = (primal["low"][n1:], primal["c"][n1:]) if primal is not None else ((), ())
    number = np.nan if f.number is None else f.number
    return {
        "correct": lambda _: f.crashed is None and abs(number - f.value) <= VALUE_TOLERANCE,
        "returned-result": lambda _: f.crashed is None and f.number is None
        and hasattr(f.got, "fun"),
        "not-a-number": lambda _: f.crashed is None and f.number is None,
        "q-nonnegative": lambda _: unsolved and bool(np.any(np.asarray(low) > -np.inf)),
        "minimise": lambda _: unsolved and np.allclose(costs, rhs),
        "plus-A": lambda _: not np.allclose(block, -A.T) and np.allclose(block, A.T),
        "A-not-transposed": lambda _: not np.allclose(block, -A.T)
        and A.shape[0] == A.shape[1] and np.allclose(block, -A),
        "no-optimum": lambda _: last is not None and getattr(last, "status", 0) != 0,
        "crash": lambda _: f.crashed is not None,
        "no-linprog": lambda _: not f.calls,
        "sign": lambda _: abs(f.value) > VALUE_TOLERANCE
        and abs(number + f.value) <= VALUE_TOLERANCE,
    }


def _lp_cases(f: LPFinding, program: tuple) -> tuple[Case, ...]:
    """The LP exercise's table over one run: :func:`_lp_conditions`, each with what to say."""
    conditions = _lp_conditions(f, program)
    last = f.calls[-1][1] if f.calls else None
    status, message = getattr(last, "status", None), getattr(last, "message", "")
    shown = f"{f.number:.10g}" if f.number is not None else short_repr(f.got)
    messages: dict[str, Message] = {
        "q-nonnegative": f"On {f.game}, linprog found no optimum (status {status}: "
                         f"{message}). Your bounds keep q ≥ 0 — linprog's default for every "
                         "variable unless told otherwise. q are the multipliers of the "
                         "equalities F y = f, free in sign: give x the bounds (0, None) and q "
                         "(None, None).",
        "minimise": f"On {f.game}, linprog found no optimum (status {status}: {message}). "
                    "Your objective is +f on q: linprog minimises, so that minimises fᵀq, "
                    "which has no bottom. Player 1 maximises fᵀq: pass c = −f on q (and 0 on "
                    "x), then the value is −result.fun.",
        "plus-A": f"On {f.game} you returned {shown}; the value is {f.value:.10g}. Your "
                  "inequality rows hold +Aᵀ on x: that is Fᵀq + Aᵀx ≤ 0, the program of a "
                  "player 1 who wants to lose. The constraint is Fᵀq − Aᵀx ≤ 0: the block on "
                  "x is −Aᵀ.",
        "A-not-transposed": f"On {f.game} you returned {shown}; the value is {f.value:.10g}. "
                            "Your inequality rows hold −A, not −Aᵀ: there is one inequality "
                            "per sequence of player 2 (a column of A), so the block on x is "
                            "−A.T. (Kuhn's A is square, so the shapes did not complain.)",
        "no-optimum": f"On {f.game}, linprog found no optimum (status {status}: {message}). "
                      "Check the program against maximise fᵀq subject to Fᵀq − Aᵀx ≤ 0, Ex = "
                      "e, x ≥ 0, q free.",
        "crash":
            lambda _: f"On {f.game}: {f.crashed.message if f.crashed is not None else ''}",
        "returned-result": f"On {f.game} you returned linprog's whole result. Return the "
                           "value, a number: −result.fun for player 1's maximisation (linprog "
                           "minimises, so the objective was negated).",
        "not-a-number": f"On {f.game} you returned {short_repr(f.got)}; return the game's "
                        "value, one number.",
        "no-linprog": f"On {f.game} you returned {shown} without calling the linprog you were "
                      f"given; the value is {f.value:.10g}. Solve the program with linprog "
                      "(the last argument of my_game_value).",
        "sign": f"On {f.game} you returned {shown}, the value with the wrong sign. linprog "
                "minimises: to maximise fᵀq you minimised −fᵀq, so the maximum is −result.fun.",
    }
    return (
        Case.correct(conditions.pop("correct"), ""),
        *(Case(name, when, messages[name]) for name, when in conditions.items()),
        fallback(f"On {f.game} you returned {shown}; the value of the game to player 1 is "
                 f"{f.value:.10g}. Compare your program with: maximise fᵀq subject to "
                 "Fᵀq − Aᵀx ≤ 0, Ex = e, x ≥ 0, q free."),
    )


_LP_HINTS = {
    ValueError: "Check the shapes: A is (sequences of player 1) × (sequences of player 2), E "
                "has a column per sequence of player 1 and F per sequence of player 2; the "
                "variables are x (one per column of E) then q (one per row of F), and "
                "Fᵀq − Aᵀx ≤ 0 has one row per sequence of player 2.",
    TypeError: "If linprog found no optimum, result.fun is None: print result.status and "
               "result.message. Call my_game_value(A, E, e, F, f, linprog) and return a "
               "number.",
}


@checks("`my_game_value`", "check_sequence_lp(my_game_value)")
def check_sequence_lp(function) -> Feedback:
    """Exercise: ``function(A, E, e, F, f, linprog) -> value`` solves the sequence-form LP, on
    :func:`lp_cases` with a :class:`LinprogRecorder`; mistakes are named from the value and,
    for player 1's layout ``[x, q]``, from the program.  The arrays must stay unchanged."""
    for name, program, value in lp_cases():
        recorder = LinprogRecorder()
        copies = tuple(np.array(a, copy=True) for a in program)  # the student's to read
        got, failed = run_student(lambda copies=copies, recorder=recorder: function(
            *copies, recorder), name="`my_game_value`", hints=_LP_HINTS,
            unchanged=list(zip(("A", "E", "e", "F", "f"), copies)))
        if failed is not None and failed.mistake != "crash":
            return failed
        finding = LPFinding(name, value, got, as_number(got) if failed is None else None,
                            recorder.calls, failed)
        verdict = diagnose(finding, _lp_cases(finding, program))
        if not verdict.correct:
            return verdict
    A, E, _, F, _ = lp_cases()[0][1]
    return correct(f"Right: −1/18 = {-1 / 18:.10f} for Kuhn poker (to within "
                   f"{VALUE_TOLERANCE:g}), and the values of both matrix games. One linear "
                   f"program of {A.shape[0] + len(F)} variables and {A.shape[1] + len(E)} "
                   "constraints gives the exact value that CFR approaches over thousands of "
                   "iterations.")
