"""A :class:`SolverState`: what a solver carries between iterations, enough to resume a
run bit for bit."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ..types import FloatArray, GameLike, UIntArray


@dataclass(eq=False)
class SolverState:
    """What a solver carries between iterations: enough to resume a run bit for bit.

    The four tables have the shape of the game's ``legal_mask``, (information
    sets, max actions), and are updated in place by the solvers.

    Attributes
    ----------
    regret_sum : numpy.ndarray of float64
        Cumulative regrets.
    strategy_sum : numpy.ndarray of float64
        Cumulative (weighted) strategies, whose normalisation is the average strategy.
    current : numpy.ndarray of float64
        The strategy played at the last iteration.
    instant : numpy.ndarray of float64
        The regrets incurred at the last iteration.
    rng : numpy.ndarray of uint64, shape (1,)
        The SplitMix64 state of the compiled engine's generator (zero for
        regret matching, which draws from numpy: see ``generator``).
    iteration : int
        Iterations done.
    nodes_touched : int
        Game-tree nodes visited so far.
    elapsed : float
        Seconds spent solving so far (compilation and evaluation excluded).
    generator : dict or None
        The state of a ``numpy.random`` bit generator
        (``Generator.bit_generator.state``, JSON-safe) for a solver whose draws
        come from numpy (sampled regret matching); ``None`` otherwise.
    """

    regret_sum: FloatArray
    strategy_sum: FloatArray
    current: FloatArray
    instant: FloatArray
    rng: UIntArray
    iteration: int = 0
    nodes_touched: int = 0
    elapsed: float = 0.0
    generator: dict[str, Any] | None = None  # numpy's bit_generator.state: JSON-like values

    #: The (information sets, actions) tables.
    TABLES: ClassVar[tuple[str, ...]] = ("regret_sum", "strategy_sum", "current", "instant")
    #: What a trace keeps (``current`` and ``instant`` are its last record's, which a
    #: resume restores); ``generator`` is kept too when it is not None.
    SAVED: ClassVar[tuple[str, ...]] = ("iteration", "regret_sum", "strategy_sum", "rng",
                                        "nodes_touched", "elapsed")
    #: What a trace's ``state`` may hold: :attr:`SAVED` and the optional ``generator``.
    KEYS: ClassVar[tuple[str, ...]] = (*SAVED, "generator")

    @classmethod
    def array_fields(cls, game: GameLike) -> dict[str, tuple[np.dtype[Any], tuple[int, ...]]]:
        """The dtype and shape of every array field on ``game``: the four tables and ``rng``."""
        fields: dict[str, tuple[np.dtype[Any], tuple[int, ...]]] = {
            name: (np.dtype(np.float64), tuple(game.legal_mask.shape)) for name in cls.TABLES}
        fields["rng"] = (np.dtype(np.uint64), (1,))
        return fields

    @classmethod
    def fresh(cls, game: GameLike, rng: npt.ArrayLike | None = None,
              regret_sum: npt.ArrayLike | None = None,
              generator: dict[str, Any] | None = None) -> SolverState:
        """The state before the first iteration on ``game``.

        Parameters
        ----------
        game
            Anything with a ``legal_mask`` (a game tree or a matrix game).
        rng : array_like of uint64, optional
            The SplitMix64 state (:func:`cfrviz.engine.seed_state`); zero when
            omitted.
        regret_sum : array_like, optional
            Cumulative regrets to start from (zeros when omitted).
        generator : dict, optional
            A numpy bit generator's state, for solvers that draw from numpy.
        """
        shape = game.legal_mask.shape
        return cls(
            regret_sum=np.zeros(shape) if regret_sum is None else np.array(regret_sum,
                                                                           dtype=np.float64),
            strategy_sum=np.zeros(shape), current=np.zeros(shape), instant=np.zeros(shape),
            rng=(np.zeros(1, dtype=np.uint64) if rng is None
                 else np.array(rng, dtype=np.uint64).reshape(1)),
            generator=copy.deepcopy(generator))

    def copy(self) -> SolverState:
        """A deep copy: no array or dict shared with this state."""
        return dataclasses.replace(
            self, **{name: getattr(self, name).copy() for name in (*self.TABLES, "rng")},
            generator=copy.deepcopy(self.generator))

    def validate(self, game: GameLike) -> SolverState:
        """Check the state fits ``game``; return it.

        Raises
        ------
        ValueError
            Naming the field at fault and what it should be: a table of the
            wrong type, dtype or shape or holding NaN or infinities, a negative
            strategy sum, an ``rng``
            that is not one uint64 word, a count that is not a whole number in
            0..:data:`MAX_COUNT`, a negative or non-finite time, or a
            ``generator`` that is not a state numpy's bit generator of that
            name reads back unchanged.
        """
        fields = self.array_fields(game)
        _check_rng(self.rng, fields.pop("rng"))
        for name, (dtype, shape) in fields.items():
            _check_table(name, getattr(self, name), dtype, shape, game)
        for name in ("iteration", "nodes_touched"):
            _check_count(name, getattr(self, name))
        elapsed = self.elapsed
        if isinstance(elapsed, bool) or not isinstance(elapsed, Real) \
                or not np.isfinite(elapsed) or elapsed < 0:
            raise _state_error("elapsed", f"must be a finite number of seconds >= 0; it is "
                                          f"{elapsed!r}")
        if self.generator is not None:
            _check_generator(self.generator)
        return self

    def as_dict(self) -> dict[str, Any]:
        """What a :class:`Trace` keeps as its ``state``: copies of the :attr:`SAVED` fields."""
        out: dict[str, Any] = {}
        for name in self.SAVED:
            value = getattr(self, name)
            out[name] = value.copy() if isinstance(value, np.ndarray) else value
        out["iteration"] = int(self.iteration)
        out["nodes_touched"] = int(self.nodes_touched)
        out["elapsed"] = float(self.elapsed)
        if self.generator is not None:
            out["generator"] = copy.deepcopy(self.generator)
        return out

    @classmethod
    def from_dict(cls, saved: Mapping[str, Any], game: GameLike) -> SolverState:
        """A fresh, validated state from a trace's ``state`` (the inverse of :meth:`as_dict`).

        Arrays are copied (a loaded trace's are read-only); ``current`` and
        ``instant`` start at zero.  ``nodes_touched``, ``elapsed`` and
        ``generator`` may be missing (0, 0.0, None).

        Raises
        ------
        ValueError
            When a required field is missing, a field is not one of
            :attr:`KEYS`, or a value does not fit ``game``; the message names
            the field.
        """
        if not isinstance(saved, Mapping):
            raise ValueError(f"a solver state must be a dict as Trace.state holds; got "
                             f"{type(saved).__name__}")
        for name in ("iteration", "regret_sum", "strategy_sum", "rng"):
            if name not in saved:
                raise _state_error(name, "is missing; a resumable state holds "
                                         f"{', '.join(cls.SAVED)}")
        unknown = [str(name) for name in saved if name not in cls.KEYS]
        if unknown:
            raise _state_error(unknown[0], f"is not part of a solver state, which holds "
                                           f"{', '.join(cls.KEYS)}")
        shape = game.legal_mask.shape
        rng = _converted(saved["rng"], np.uint64, "rng")
        state = cls(regret_sum=_converted(saved["regret_sum"], np.float64, "regret_sum"),
                    strategy_sum=_converted(saved["strategy_sum"], np.float64, "strategy_sum"),
                    current=np.zeros(shape), instant=np.zeros(shape),
                    rng=rng.reshape(1) if rng.ndim == 0 else rng,
                    iteration=saved["iteration"],
                    nodes_touched=saved.get("nodes_touched", 0),
                    elapsed=saved.get("elapsed", 0.0),
                    generator=copy.deepcopy(saved.get("generator")))
        state.validate(game)
        state.iteration = int(state.iteration)
        state.nodes_touched = int(state.nodes_touched)
        state.elapsed = float(state.elapsed)
        return state


#: The largest iteration count and node count a solver state may hold: far beyond any run,
#: and with room to go on counting in 64 bits.
MAX_COUNT = 2**62


def _same_state(read: object, given: object) -> bool:
    """Whether numpy's reading of a bit generator state equals the state given (numpy may
    reduce an out-of-range number silently)."""
    if isinstance(read, dict) and isinstance(given, dict):
        return read.keys() == given.keys() and all(_same_state(read[k], given[k]) for k in read)
    if isinstance(read, np.ndarray) or isinstance(given, (list, np.ndarray)):
        try:
            return bool(np.array_equal(np.asarray(read), np.asarray(given)))
        except (TypeError, ValueError, OverflowError):
            return False
    return type(read) is type(given) and read == given or (
        isinstance(read, Integral) and isinstance(given, Integral)
        and not isinstance(given, bool) and int(read) == int(given))


def _check_rng(rng: object, expected: tuple[np.dtype[Any], tuple[int, ...]]) -> None:
    if not isinstance(rng, np.ndarray) or (rng.dtype, rng.shape) != expected:
        got = (f"{rng.dtype} of shape {rng.shape}" if isinstance(rng, np.ndarray)
               else type(rng).__name__)
        raise _state_error("rng", f"must be one SplitMix64 word, a uint64 array of shape "
                                  f"(1,); it is {got}")


def _check_table(name: str, value: object, dtype: np.dtype[Any], shape: tuple[int, ...],
                 game: GameLike) -> None:
    """One (information sets x actions) table: an array of ``dtype`` and ``shape``, finite,
    and no negative strategy sum."""
    if not isinstance(value, np.ndarray):
        raise _state_error(name, f"must be a numpy array; it is a {type(value).__name__}")
    if value.dtype != dtype:
        raise _state_error(name, f"must hold {dtype} numbers; it holds {value.dtype}")
    if value.shape != shape:
        raise _state_error(name, f"has shape {value.shape}; "
                                 f"{getattr(game, 'name', 'the game')} needs {shape} "
                                 "(information sets x actions)")
    if not np.all(np.isfinite(value)):
        raise _state_error(name, "holds NaN or infinite values")
    if name == "strategy_sum" and np.any(value < 0):
        # A sum of probabilities times positive weights: never below 0.
        info, action = (int(k) for k in np.argwhere(value < 0)[0])
        raise _state_error(name, f"holds a negative sum {value[info, action].item()!r} "
                                 f"(information set {game.infoset_keys[info]!r}, action "
                                 f"{action}): a sum of weighted probabilities is >= 0")


def _check_count(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < 0:
        raise _state_error(name, f"must be a whole number >= 0; it is {value!r:.60}")
    if int(value) > MAX_COUNT:
        shown = f"{int(value):,}" if int(value) < 10**30 else "a number of 31+ digits"
        raise _state_error(name, f"must be at most {MAX_COUNT:,} (the compiled engine "
                                 f"counts in 64 bits); it is {shown}")


def _check_generator(generator: dict[str, Any]) -> None:
    """A numpy bit generator's state that numpy reads back unchanged."""
    kind = generator.get("bit_generator") if isinstance(generator, dict) else None
    if not (isinstance(kind, str) and isinstance(getattr(np.random, kind, None), type)
            and issubclass(getattr(np.random, kind), np.random.BitGenerator)):
        raise _state_error("generator", "must be None or a numpy bit generator's state "
                                        "(Generator.bit_generator.state); it is "
                                        f"{generator!r:.80}")
    # The state itself, as numpy reads it when a resumed run draws: checked here, not
    # deep inside the run.
    try:
        bits = getattr(np.random, kind)()
        bits.state = copy.deepcopy(generator)
        same = _same_state(bits.state, generator)
    except Exception as exc:  # numpy raises ValueError, TypeError or OverflowError
        raise _state_error("generator", f"is not a valid {kind} state "
                                        f"({type(exc).__name__}: {exc!s:.120})") from None
    if not same:
        raise _state_error("generator", f"is not a valid {kind} state: numpy reads it "
                                        f"as another state (a number out of range)")


def _state_error(name: str, what: str) -> ValueError:
    return ValueError(f"solver state field {name!r} {what}")


def _converted(value: object, dtype: type[np.generic], name: str) -> npt.NDArray[Any]:
    try:
        return np.array(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        raise _state_error(name, f"cannot be read as {np.dtype(dtype)} numbers ({exc})") \
            from None
