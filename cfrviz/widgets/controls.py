"""Widget controls built from a plug-in's declared parameters (see :mod:`cfrviz.core.registry`).

One function turns a :class:`~cfrviz.core.registry.Param` into an ipywidget, so
every algorithm's parameters appear in the explorer with their defaults, ranges
and help without the widget knowing any algorithm by name.

No number a student types is clamped.  ipywidgets' ``Bounded*Text`` fields and
slider readouts clamp a typed value to their range in the browser, before the
kernel sees it: 500000 typed into a field capped at 200000 silently runs
200000.  So every typed number goes into an unbounded field
(:func:`number_field`, beside a slider with :func:`typed_slider`); the widget
checks it with :meth:`Param.check` when it uses it, and a value out of range
becomes a message in its output area (:meth:`cfrviz.widgets.panel.Panel.report`).
"""

from __future__ import annotations

from collections.abc import Mapping

import ipywidgets as W

from ..core.registry import Param

#: The seed field of the widgets that solve: what ``numpy.random.default_rng`` takes, within
#: what a browser's number field represents exactly.
SEED = Param("seed", 0, "int", 0, 2**31 - 1, help="seeds every random choice of the run")


def number_field(param: Param, value=None, *, description: str | None = None,
                 width: str = "160px") -> W.IntText | W.FloatText:
    """An unbounded text field for an ``"int"`` or ``"float"`` parameter.

    It passes on whatever number is typed (its tooltip gives the valid
    range); the widget checks the value with ``param.check`` when it uses it.

    Parameters
    ----------
    param : Param
    value : optional
        The starting value (default: the parameter's default).
    description : str, optional
        The label (default: the parameter's name; ``""`` for none).
    width : str
    """
    value = param.default if value is None else value
    kind = "whole number" if param.kind == "int" else "number"
    field = W.IntText if param.kind == "int" else W.FloatText
    return field(value=value, description=param.name if description is None else description,
                 description_allow_html=False, style={"description_width": "initial"},
                 tooltip=f"{param.help} (a {kind}{param.bounds()})".lstrip(" "),
                 step=1 if param.kind == "int" else param.step, layout=W.Layout(width=width))


def typed_slider(slider: W.FloatSlider, param: Param, value=None,
                 width: str = "80px") -> W.FloatText:
    """An unbounded field beside ``slider``, linked to it: drag the slider or type any number.

    The slider's own readout is turned off (the browser would clamp a value
    typed there).  The field holds the value: a typed value beyond the
    slider's range stays as typed, the slider resting at its end, and the
    widget checks it with ``param.check``.  Setting either moves the other.
    ``value`` is the starting value (default: the slider's, already clamped).
    """
    slider.readout = False
    start = slider.value if value is None else value
    field = number_field(param, start, description="", width=width)
    W.link((field, "value"), (slider, "value"))  # the link never echoes a clamped value back
    return field


def param_control(param: Param, value=None) -> W.Widget | None:
    """An ipywidget for one parameter, or ``None`` for a parameter no control can set.

    Booleans become checkboxes, choices dropdowns, numbers unbounded text
    fields (:func:`number_field`: :func:`cfrviz.solve` checks the range when
    the explorer solves, and its message names the parameter).  ``"any"``
    parameters (a payoff matrix, a fixed strategy) have no control.
    """
    value = param.default if value is None else value
    common = {"description": param.name, "description_allow_html": False,
              "style": {"description_width": "initial"}, "tooltip": param.help}
    if param.kind == "bool":
        return W.Checkbox(value=bool(value), indent=False, **common)
    if param.kind == "choice":
        return W.Dropdown(options=list(param.choices), value=value, **common)
    if param.kind in ("int", "float"):
        return number_field(param, value)
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
