"""The algorithm registry: every learning algorithm declared once.

An :class:`Algorithm` says what ``cfrviz.solve``, the explorer's menu and
parameter controls, the explanations, the views, the exercise checkers and the
benchmark need to know: its name and aliases, its family, its parameters with
defaults, ranges and one-line help, whether its regrets are exact or sampled,
and the paper it comes from.  To add an algorithm, write its runner in its own
module and register it with :func:`register_algorithm`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from numbers import Integral
from typing import Any, Protocol

import numpy as np

from ..core.checks import bounded_list, check_game
from ..core.registry import Param, Registry
from ..core.trace import Trace


class Trained(Protocol):
    """What a runner returns instead of a plain trace when one of the algorithm's own run
    options asks for more (Deep CFR's ``networks=True``: the trace and the networks)."""

    @property
    def trace(self) -> Trace: ...

#: Families, in the order menus list them.  "network" is for function-approximation
#: methods such as Deep CFR.
FAMILIES = ("matrix", "full_tree", "sampling", "network")

#: Options every algorithm takes besides its own parameters (the training loop's).
RUN_OPTIONS = (
    Param("progress", None, help="show a progress bar: True, False, or None for runs "
                                  "still going after two seconds"),
    Param("resume", None, help="a trace of the same run to continue to `iterations`"),
)


@dataclass(frozen=True)
class Algorithm:
    """One learning algorithm, as the rest of the package sees it.

    Attributes
    ----------
    name : str
        What :func:`cfrviz.solve` takes, e.g. ``"cfr+"``.
    label : str
        How figures and menus write it, e.g. ``"CFR+"``.
    family : {"matrix", "full_tree", "sampling", "network"}
        ``"matrix"`` solves matrix games; ``"full_tree"`` sweeps the whole
        tree every iteration; ``"sampling"`` walks a sampled part of it.
    run : callable
        ``run(request) -> Trace``: the :class:`Request` (game, iterations, generator,
        checkpoints, the declared parameters and run options, already checked) in, the
        trace of :func:`cfrviz.solvers.driver.drive` out.
    params : tuple of Param
        The algorithm's own parameters: what the trace records and the explorer shows
        controls for (``progress`` and ``resume`` are :data:`RUN_OPTIONS`, common to all).
    exact_regrets : bool
        Whether the recorded regrets are the exact counterfactual regrets
        (full-tree sweeps) or sampled estimates.
    summary : str
        One line for menus and docs.
    paper : str
        The reference to cite.
    aliases : tuple of str
        Other names students write (``"vanilla"``, ``"es"``); checkers accept them.
    alternates : bool
        Whether its ``alternating`` parameter (when True) updates player 2
        against player 1's freshly updated strategy, as the full-tree sweeps do.
    options : tuple of Param
        Run options of this algorithm alone, like :data:`RUN_OPTIONS`: how to run or what
        to return, not what is learnt, so neither recorded in the trace nor shown as
        controls (Deep CFR's ``networks``).
    start_only : tuple of str
        Parameters that only say where a fresh run starts (regret matching's
        ``initial_regrets``): checked and passed like the others, but not among the
        settings the trace records, which a resumed run must match.
    predictive : bool
        Whether the strategy played is regret matching on the cumulative regrets *plus*
        the last iteration's regrets (PCFR+, PDCFR+), not on the cumulative regrets alone:
        what a view computes as "the next strategy" of a set.
    regrets : bool
        Whether it minimises regret: its ``cumulative_regret`` table holds cumulative
        regrets and its next strategy is regret matching on them.  ``False`` for magnetic
        mirror descent, which keeps its strategy's logarithms there and moves by a
        mirror-descent step (views then show no regret-matching step).
    stepper : callable, optional
        ``stepper(request) -> Stepper``: the run before it is driven, for a caller that
        iterates it itself (:func:`cfrviz.solvers.driver.iterate`; the re-solves of
        :func:`cfrviz.solvers.subgame.resolve_steps`).  ``run`` is then usually
        ``drive(request, stepper(request))``; ``None`` for an algorithm that only runs whole.
    """

    name: str
    label: str
    family: str
    run: Callable[[Request], Trace | Trained]
    params: tuple[Param, ...] = ()
    exact_regrets: bool = True
    summary: str = ""
    paper: str = ""
    aliases: tuple[str, ...] = ()
    alternates: bool = False
    options: tuple[Param, ...] = ()
    start_only: tuple[str, ...] = ()
    predictive: bool = False
    regrets: bool = True
    #: (typed ``Any``: the driver, which defines Stepper, imports this module)
    stepper: Callable[[Request], Any] | None = None

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"algorithm {self.name!r}: family must be one of {FAMILIES}; "
                             f"got {self.family!r}")
        undeclared = [name for name in self.start_only
                      if name not in {p.name for p in self.params}]
        if undeclared:
            raise ValueError(f"algorithm {self.name!r}: start_only names {undeclared[0]!r}, "
                             "which is not one of its params")

    @property
    def random(self) -> bool:
        """Whether every run depends on the seed (the samplers and the networks, which sample
        and initialise at random; regret matching only when ``update="sampled"``, which this
        property does not see)."""
        return self.family in ("sampling", "network")

    def param(self, name: str) -> Param:
        """The declaration of one of its parameters."""
        for p in self.params:
            if p.name == name:
                return p
        raise ValueError(f"algorithm {self.name!r} has no parameter {name!r}; it has "
                         f"{', '.join(p.name for p in self.params) or 'none'}")


ALGORITHMS: Registry[Algorithm] = Registry("algorithm", "solve")


def register_algorithm(algorithm: Algorithm) -> Algorithm:
    """Make an algorithm available to :func:`cfrviz.solve`, the explorer and the benchmark.

    Parameters
    ----------
    algorithm : Algorithm
        Its name (what ``solve`` is called with) and aliases, label, family, the function that
        runs it, its declared parameters (each checked by ``solve`` before the run starts),
        summary and paper.  ``tests/test_registry.py`` registers a toy plug-in this way.

    Returns
    -------
    Algorithm
        ``algorithm`` itself, so the call can decorate a module-level definition.

    Raises
    ------
    ValueError
        When ``algorithm`` is not an :class:`Algorithm`, or its name or an alias is taken.
    """
    if not isinstance(algorithm, Algorithm):
        raise ValueError(f"register_algorithm takes a cfrviz.solvers.Algorithm(name, label, "
                         f"family, run, ...); got {type(algorithm).__name__}")
    return ALGORITHMS.register(algorithm)


def algorithm(name: str) -> Algorithm:
    """The registered algorithm called ``name`` (a ``ValueError`` lists the valid names)."""
    return ALGORITHMS.lookup(name)


def algorithms_in(*families: str) -> tuple[str, ...]:
    """Names of the registered algorithms of the given families, in registration order."""
    for family in families:
        if family not in FAMILIES:
            raise ValueError(f"unknown family {family!r}; families are {FAMILIES}")
    return tuple(a.name for a in ALGORITHMS.values() if a.family in families)


def tree_algorithms() -> tuple[str, ...]:
    """Algorithms that solve game trees (what the training explorer offers)."""
    return algorithms_in("full_tree", "sampling", "network")


ITERATIONS = Param("iterations", 1, "int", 1, help="how many iterations to run")
SEED = Param("seed", 0, "int", 0, help="seed of the numpy.random.Generator behind every draw")
#: The most checkpoints a run may be given: a trace of a million records is already far more
#: than a slider can show, and reading more from an endless iterable would never end.
MAX_CHECKPOINTS = 1_000_000


@dataclass(frozen=True)
class Request:
    """A run :func:`cfrviz.solve` was asked for, every argument checked: what a runner gets.

    A runner checks what only it knows (a matrix game, a strategy's labels), builds its
    :class:`~cfrviz.solvers.driver.Stepper` and hands both to
    :func:`~cfrviz.solvers.driver.drive`.

    Attributes
    ----------
    algorithm : Algorithm
    game
        The game as given (a runner may solve its tree, :func:`cfrviz.core.tree.as_tree`).
    iterations : int
    seed : int
        The seed ``rng`` was made from (the trace records it).
    rng : numpy.random.Generator
        The run's one generator, ``numpy.random.default_rng(seed)``.
    record : list of int or None
        ``None``: the solver's default schedule; ``[]``: the final state only.
    params : dict
        The algorithm's declared parameters, checked, defaults filled in, in declared order.
    progress : bool or None
    resume : Trace or None
    options : dict
        The algorithm's own run options (:attr:`Algorithm.options`), checked.
    """

    algorithm: Algorithm
    game: Any
    iterations: int
    seed: int
    rng: np.random.Generator
    record: list[int] | None
    params: dict[str, Any]
    progress: bool | None = None
    resume: Trace | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The algorithm's name, as errors and the trace write it."""
        return self.algorithm.name

    def normalised(self, **values: Any) -> Request:
        """The same request with some parameters in the form the runner keeps them (regret
        matching's ``opponent`` as a list of probabilities), for the trace to record."""
        unknown = sorted(set(values) - set(self.params))
        if unknown:
            raise TypeError(f"{self.name} declares no parameter {', '.join(unknown)}")
        return replace(self, params={**self.params, **values})

    def settings(self) -> dict[str, Any]:
        """What the trace records as the run's parameters (and a resume must match): every
        declared parameter but those that only say where a fresh run starts
        (:attr:`Algorithm.start_only`)."""
        return {name: value for name, value in self.params.items()
                if name not in self.algorithm.start_only}


def check_request(game: object, algorithm: str, iterations: object, seed: object,
                  checkpoints: object, params: Mapping[str, Any]) -> Request:
    """Check :func:`cfrviz.solve`'s arguments, in the order its errors name them.

    A ``seed`` left out is 0, or the resumed trace's own.
    """
    entry = ALGORITHMS.lookup(algorithm)
    check_game(game, entry.name)
    runs: int = ITERATIONS.check(iterations)
    if seed is None:
        resumed = params.get("resume")
        recorded = resumed.params.get("seed") if isinstance(resumed, Trace) else None
        seed = 0 if recorded is None else recorded
    number: int = SEED.check(seed)
    record = check_checkpoints(checkpoints, runs)
    values = ALGORITHMS.check_params(entry, params, extra=(*entry.options, *RUN_OPTIONS))
    progress = values.pop("progress")
    if progress is not None and not isinstance(progress, bool):
        raise ValueError(f"progress must be True, False or None (a bar for runs longer than two "
                         f"seconds); got {progress!r}")
    resume = values.pop("resume")
    if resume is not None and not isinstance(resume, Trace):
        raise ValueError(f"resume= takes a Trace returned by cfrviz.solve (or loaded with "
                         f"cfrviz.load_trace); got a {type(resume).__name__}, which has no "
                         "solver state")
    options = {p.name: values.pop(p.name) for p in entry.options}
    return Request(entry, game, runs, number, np.random.default_rng(number), record, values,
                   progress, resume, options)


def check_checkpoints(checkpoints: object, iterations: int) -> list[int] | None:
    """The sorted iterations to record, ``None`` for the solver's default, ``[]`` for final only."""
    if checkpoints is None:
        return None
    if isinstance(checkpoints, (str, bytes)) or not np.iterable(checkpoints):
        raise ValueError(f"checkpoints must be a list of iteration numbers; got {checkpoints!r}")
    # Read once (a generator would be used up by the checks), and never more than a run can
    # record: itertools.count(1) or range(1, 2**62) is refused, not read for ever.
    limit = min(iterations, MAX_CHECKPOINTS)
    why = (f"iteration numbers, one per iteration of this {iterations:,}-iteration run"
           if limit == iterations else
           f"iteration numbers, the most any run records (MAX_CHECKPOINTS); pick fewer, e.g. "
           f"checkpoints=range(1, {iterations + 1}, {-(-iterations // MAX_CHECKPOINTS)})")
    given = bounded_list(checkpoints, "checkpoints", limit, why)
    for c in given:
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, Integral):
            raise ValueError(f"checkpoints must be iteration numbers, whole numbers in "
                             f"1..{iterations}; got {c!r}")
    points = sorted({int(c) for c in given})
    bad = [c for c in points if not 1 <= c <= iterations]
    if bad:
        raise ValueError(f"checkpoint {bad[0]} is outside the run; checkpoints must lie in "
                         f"1..{iterations}")
    if not points:
        return []  # only the final state, and solvers may skip evaluating it
    if points[-1] != iterations:
        points.append(iterations)
    return points
