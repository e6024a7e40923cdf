"""Interactive views for JupyterLab (ipywidgets + plotly FigureWidget).

Every widget is a :class:`~cfrviz.widgets.panel.Panel`: its figures are complete
when first shown, and its callbacks report errors in its own output area.

Each widget's module is imported on first use of its name (PEP 562), so a lesson's kernel
loads the widgets it shows, not all of them (scipy's optimizer, for one, comes with the
regret-matching explorer's exact equilibrium only).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _quick_start  # noqa: F401  first: imports plotly's widget base quickly

# ``leaderboard`` names a module and its function: imported now, the name is the function for
# good (a module imported first would otherwise take the name, as submodules do).
from .leaderboard import Leaderboard, leaderboard

if TYPE_CHECKING:  # the names for the type checker; at run time __getattr__ imports them
    from .best_response import BestResponseExplorer
    from .bluff import BluffExplorer, bluff_explorer
    from .compare import ComparisonView
    from .discount import DiscountExplorer
    from .equilibrium import KuhnEquilibriumView
    from .explorer import TrainingExplorer, explore
    from .holdem import LockExplorer, RiverGrid, river_grid
    from .infoset import InfosetPicker, infoset_picker
    from .matrix import RegretMatchingExplorer
    from .play import PlayTable, play_against, play_tabs
    from .realization import RealizationPlanExplorer
    from .resolve import ResolveExplorer
    from .reveal import ShowMe
    from .sampling import SampledPaths, sampled_paths

#: Public names by the module that defines them.
_MODULES = {
    "best_response": ("BestResponseExplorer",),
    "bluff": ("BluffExplorer", "bluff_explorer"),
    "compare": ("ComparisonView",),
    "discount": ("DiscountExplorer",),
    "equilibrium": ("KuhnEquilibriumView",),
    "explorer": ("TrainingExplorer", "explore"),
    "holdem": ("LockExplorer", "RiverGrid", "river_grid"),
    "infoset": ("InfosetPicker", "infoset_picker"),
    "leaderboard": ("Leaderboard", "leaderboard"),
    "matrix": ("RegretMatchingExplorer",),
    "play": ("PlayTable", "play_against", "play_tabs"),
    "realization": ("RealizationPlanExplorer",),
    "resolve": ("ResolveExplorer",),
    "reveal": ("ShowMe",),
    "sampling": ("SampledPaths", "sampled_paths"),
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names}

__all__ = ["BestResponseExplorer", "BluffExplorer", "ComparisonView", "DiscountExplorer",
           "InfosetPicker", "KuhnEquilibriumView", "Leaderboard", "LockExplorer", "PlayTable",
           "RealizationPlanExplorer", "RegretMatchingExplorer", "ResolveExplorer", "RiverGrid",
           "SampledPaths", "ShowMe", "TrainingExplorer", "bluff_explorer", "explore",
           "infoset_picker", "leaderboard", "play_against", "play_tabs", "river_grid",
           "sampled_paths"]  # the names of _MODULES (tests/test_api.py holds them equal)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'cfrviz.widgets' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
