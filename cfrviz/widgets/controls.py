"""Widget controls built from a plug-in's declared parameters (see :mod:`cfrviz.core.registry`).

One function turns a :class:`~cfrviz.core.registry.Param` into an ipywidget, so
every algorithm's parameters appear in the explorer with their defaults, ranges
and help without the widget knowing any algorithm by name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import ipywidgets as W

from ..core.registry import Param

#: Widest range a numeric control offers when a parameter is unbounded on one side.
OPEN_RANGE = 1e6


def param_control(param: Param, value=None) -> W.Widget | None:
    """An ipywidget for one parameter, or ``None`` for a parameter no control can set.

    Booleans become checkboxes, choices dropdowns, numbers bounded text fields
    (a slider when both bounds are at most 1 apart from 0..1, e.g. epsilon).
    ``"any"`` parameters (a payoff matrix, a fixed strategy) have no control.
    """
    value = param.default if value is None else value
    common = {"description": param.name, "description_allow_html": False,
              "style": {"description_width": "initial"}, "tooltip": param.help}
    if param.kind == "bool":
        return W.Checkbox(value=bool(value), indent=False, **common)
    if param.kind == "choice":
        return W.Dropdown(options=list(param.choices), value=value, **common)
    if param.kind in ("int", "float"):
        low = param.low if math.isfinite(param.low) else -OPEN_RANGE
        high = param.high if math.isfinite(param.high) else OPEN_RANGE
        if param.low_open:
            low += param.step  # a control cannot exclude its own minimum
        if param.kind == "int":
            return W.BoundedIntText(value=int(value), min=int(low), max=int(high), **common,
                                    layout=W.Layout(width="160px"))
        if low >= 0.0 and high <= 1.0:
            return W.FloatSlider(value=float(value), min=low, max=high, step=param.step,
                                 continuous_update=False, **common)
        return W.BoundedFloatText(value=float(value), min=low, max=high, step=param.step,
                                  **common, layout=W.Layout(width="160px"))
    return None


class ParamControls(W.HBox):
    """The controls of one plug-in's parameters, side by side.

    Parameters
    ----------
    params : tuple of Param
    values : mapping, optional
        Starting values (defaults otherwise).
    """

    def __init__(self, params: tuple[Param, ...], values: Mapping | None = None):
        super().__init__()
        values = dict(values or {})
        self.controls: dict[str, W.Widget] = {}
        for param in params:
            control = param_control(param, values.get(param.name))
            if control is not None:
                self.controls[param.name] = control
        self.children = tuple(self.controls.values())
        self.layout.flex_flow = "row wrap"

    def values(self) -> dict:
        """The controls' current values by parameter name (as the controls hold them)."""
        return {name: control.value for name, control in self.controls.items()}
