"""Plug-in registries: every game and every algorithm is declared once, with its parameters.

A :class:`Registry` maps names (and aliases) to entries; each entry declares its
parameters as :class:`Param` objects.  ``cfrviz.load_game`` and ``cfrviz.solve``
look names up and check parameters here; widgets build their controls from the
same declarations; lessons' checkers read the aliases.  Writing a list of
algorithm or game names anywhere else is the mistake this module exists to
prevent.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any, Protocol, TypeVar

#: The largest whole number a parameter may be (a 64-bit integer, as numpy and numba hold it).
INT_LIMIT = 2**63 - 1
#: ``Param.kind`` values: what a value must be.
KINDS = ("bool", "int", "float", "choice", "any")


@dataclass(frozen=True)
class Param:
    """One parameter of a game or an algorithm.

    Attributes
    ----------
    name : str
    default
        The value used when the caller gives none (``inspect.Parameter.empty``
        for a required parameter).
    kind : {"bool", "int", "float", "choice", "any"}
        What a value must be; ``"any"`` is checked by the plug-in itself
        (e.g. a payoff matrix or a fixed opponent strategy).
    low, high : float
        Bounds of a number (inclusive unless ``low_open``).
    low_open : bool
        Whether ``low`` itself is excluded (e.g. epsilon > 0).
    step : float
        A sensible increment for a control in a widget.
    choices : tuple
        Allowed values of a ``"choice"`` parameter.
    help : str
        One line for a tooltip or an error message.
    """

    name: str
    default: Any = inspect.Parameter.empty
    kind: str = "any"
    low: float = -math.inf
    high: float = math.inf
    low_open: bool = False
    step: float = 0.1
    choices: tuple[object, ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name!r}: kind must be one of {KINDS}; "
                             f"got {self.kind!r}")

    @property
    def required(self) -> bool:
        """Whether a call must give this parameter (it has no default)."""
        return self.default is inspect.Parameter.empty

    def check(self, value: object) -> Any:
        """``value`` converted to the parameter's kind, or a ``ValueError`` saying what is valid.

        The result's type follows :attr:`kind`, a run-time value (``bool``, ``int``, ``float``,
        one of the choices, or ``value`` itself), hence ``Any``: callers name the type they
        declared, e.g. ``count: int = Param("count", kind="int").check(value)``.
        """
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be True or False; got {value!r}")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                raise ValueError(f"{self.name} must be one of {self.choices}; got {value!r}")
            return value
        if self.kind in ("int", "float"):
            number = Integral if self.kind == "int" else Real
            # Whole numbers reach numpy and compiled code as 64-bit integers.
            wide = (self.kind == "int" and isinstance(value, Integral)
                    and not isinstance(value, bool) and abs(int(value)) > INT_LIMIT)
            if isinstance(value, number) and not isinstance(value, bool) and _finite(value) \
                    and not wide \
                    and not (value <= self.low if self.low_open else value < self.low) \
                    and value <= self.high:  # finite, so "not <" is ">=" (Real types only "<")
                return int(value) if self.kind == "int" and isinstance(value, Integral) \
                    else float(value)
            what = "a whole number" if self.kind == "int" else "a finite number"
            fits = f" that fits in 64 bits (at most {INT_LIMIT:,})" if wide else ""
            raise ValueError(f"{self.name} must be {what}{self.bounds()}{fits}; got "
                             f"{_shown(value)}")
        return value

    def bounds(self) -> str:
        """`` >= 0 and <= 1``-style text for messages (empty when unbounded)."""
        def text(bound: float) -> str:  # 2147483647, not 2.14748e+09
            return str(int(bound)) if float(bound).is_integer() else f"{bound:g}"

        parts = []
        if math.isfinite(self.low):
            parts.append(f"{'>' if self.low_open else '>='} {text(self.low)}")
        if math.isfinite(self.high):
            parts.append(f"<= {text(self.high)}")
        return (" " + " and ".join(parts)) if parts else ""


def _finite(value: Real) -> bool:
    """Whether a number is finite and within a float's range, for numbers of any size
    (``math.isfinite`` raises ``OverflowError`` for ``10**400``)."""
    if isinstance(value, Integral):
        return abs(int(value)) < 2**1024  # within a float's range, as a float parameter needs
    try:
        return math.isfinite(value)
    except (OverflowError, TypeError, ValueError):  # a Fraction or Decimal beyond a float
        return False


def _shown(value: object) -> str:
    """``repr(value)`` for a message, cut short for a number thousands of digits long."""
    if isinstance(value, Integral) and not isinstance(value, bool) and abs(int(value)) > 10**30:
        return f"an integer of {len(str(abs(int(value)))):,} digits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class Entry(Protocol):
    """What a registry holds: a name, aliases and declared parameters."""

    @property
    def name(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...
    @property
    def params(self) -> tuple[Param, ...]: ...


E = TypeVar("E", bound=Entry)


def normalise(name: str) -> str:
    """How aliases are compared: case, spaces and hyphens do not matter."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


@dataclass
class Registry(Mapping[str, E]):
    """Entries by name, in registration order: a read-only mapping from name to entry.

    Iterating gives the names; ``registry[name]`` the entry (``KeyError`` if
    absent); :meth:`lookup` the entry or a ``ValueError`` that lists the names.

    Parameters
    ----------
    kind : str
        What the entries are (``"game"``, ``"algorithm"``), for messages.
    api : str
        The function that takes these names, for the example in messages.
    """

    kind: str
    api: str
    _entries: dict[str, E] = field(default_factory=dict)
    _aliases: dict[str, str] = field(default_factory=dict)

    def register(self, entry: E) -> E:
        """Add an entry; a name or alias already taken is an error, and so are aliases that are
        not a tuple of names (one string would register each of its letters)."""
        if not isinstance(entry.name, str) or not entry.name.strip():
            raise ValueError(f"a {self.kind}'s name must be a non-empty string; got "
                             f"{entry.name!r}")
        _names(entry.aliases, f"{self.kind} {entry.name!r}: aliases")
        for label in (entry.name, *entry.aliases):
            taken = self._aliases.get(normalise(label))
            if taken is not None and taken != entry.name:
                raise ValueError(f"{self.kind} name {label!r} is already taken by {taken!r}")
        if entry.name in self._entries:
            raise ValueError(f"a {self.kind} named {entry.name!r} is already registered")
        self._entries[entry.name] = entry
        for label in (entry.name, *entry.aliases):
            self._aliases[normalise(label)] = entry.name
        return entry

    def unregister(self, name: str) -> None:
        """Remove an entry (for tests and notebooks that register a toy plug-in)."""
        entry = self._entries.pop(name)
        for label in (entry.name, *entry.aliases):
            self._aliases.pop(normalise(label), None)

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._entries)

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __getitem__(self, name: str) -> E:
        return self._entries[name]

    def __len__(self) -> int:
        return len(self._entries)

    def lookup(self, name: object) -> E:
        """The entry registered under exactly ``name``, or a ``ValueError`` listing the names."""
        if not isinstance(name, str) or name not in self._entries:
            meant = self.resolve(name)
            hint = f" (did you mean {meant!r}?)" if meant else ""
            raise ValueError(f"unknown {self.kind} {name!r}{hint}; available {self.kind}s: "
                             f"{', '.join(self.names())}")
        return self._entries[name]

    def resolve(self, text: object) -> str | None:
        """The name ``text`` refers to, by name or alias, loosely spelled; ``None`` if none."""
        if not isinstance(text, str):
            return None
        return self._aliases.get(normalise(text))

    def check_params(self, entry: E, given: Mapping[str, Any],
                     extra: tuple[Param, ...] = ()) -> dict[str, Any]:
        """Every declared parameter's value: the given one checked, or the default.

        Raises
        ------
        ValueError
            For an unknown parameter (listing the accepted ones), a missing
            required one, or a value out of range.
        """
        declared = {p.name: p for p in (*entry.params, *extra)}
        unknown = sorted(set(given) - set(declared))
        if unknown:
            raise ValueError(f"{self.kind} {entry.name!r} takes no parameter "
                             f"{', '.join(map(repr, unknown))}; it accepts: "
                             f"{', '.join(declared) or 'none'}")
        missing = [p.name for p in declared.values() if p.required and p.name not in given]
        if missing:
            raise ValueError(f"{self.kind} {entry.name!r} needs the parameter "
                             f"{', '.join(map(repr, missing))}, e.g. "
                             f"{self.api}({entry.name!r}, {missing[0]}=...)")
        return {name: p.check(given[name]) if name in given else p.default
                for name, p in declared.items() if name in given or not p.required}


def params_from_signature(factory: Callable[..., object],
                          skip: tuple[str, ...] = ()) -> tuple[Param, ...]:
    """Parameters read from a function's signature (kind ``"any"``: the function checks them).

    Raises
    ------
    ValueError
        When the signature has ``*args`` or ``**kwargs``: such parameters have no names to
        check, list in a message or build a control for (declare ``params=`` instead).
    """
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        raise ValueError(f"cannot read the parameters of {factory!r}; declare them with "
                         f"params=(Param(...), ...)") from None
    loose = [f"{'*' if spec.kind is spec.VAR_POSITIONAL else '**'}{name}"
             for name, spec in signature.parameters.items()
             if spec.kind in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD)]
    if loose:
        raise ValueError(f"{getattr(factory, '__name__', factory)!r} takes {loose[0]}, whose "
                         f"parameters cannot be declared from its signature; name each "
                         f"parameter, or declare them with params=(Param(...), ...)")
    return tuple(Param(name, spec.default) for name, spec in signature.parameters.items()
                 if name not in skip)


def _names(value: object, what: str) -> tuple[str, ...]:
    """``value`` as a tuple of non-empty strings (one string is refused, not split in letters)."""
    if isinstance(value, str) or not isinstance(value, (tuple, list)) \
            or not all(isinstance(v, str) and v.strip() for v in value):
        hint = f", e.g. ({value!r},)" if isinstance(value, str) else ""
        raise ValueError(f"{what} must be a tuple of non-empty names{hint}; got {value!r}")
    return tuple(value)


@dataclass(frozen=True)
class Factory:
    """A plug-in that is a function building something from its parameters (a game, a bot).

    Attributes
    ----------
    name : str
    factory : callable
        ``factory(*given, **params)``: what the registry's user calls.
    summary : str
        One line for menus and docs.
    aliases : tuple of str
    params : tuple of Param
        Read from the factory's signature unless given, leaving out ``given``.
    given : tuple of str
        Leading arguments the caller always supplies (a bot is built for a
        ``game``), which are not parameters.
    """

    name: str
    # What a factory builds depends on its registry (a game, a bot's Policy), and each
    # registry's caller checks it (load_game refuses a factory that returns no game).
    factory: Callable[..., Any]
    summary: str = ""
    aliases: tuple[str, ...] = ()
    params: tuple[Param, ...] = ()
    given: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a plug-in's name must be a non-empty string; got {self.name!r}")
        if not callable(self.factory):
            raise ValueError(f"{self.name!r}: factory must be a function; got "
                             f"{type(self.factory).__name__}")
        object.__setattr__(self, "aliases", _names(self.aliases, f"{self.name!r}: aliases"))
        object.__setattr__(self, "given", _names(self.given, f"{self.name!r}: given"))
        if not isinstance(self.params, tuple) \
                or not all(isinstance(p, Param) for p in self.params):
            raise ValueError(f"{self.name!r}: params must be a tuple of Param; got "
                             f"{self.params!r}")
        if not self.params:
            try:
                params = params_from_signature(self.factory, self.given)
            except ValueError as error:
                raise ValueError(f"{self.name!r}: {error}") from None
            object.__setattr__(self, "params", params)

