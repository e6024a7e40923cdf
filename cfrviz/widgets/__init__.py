"""Interactive views for JupyterLab (ipywidgets + plotly FigureWidget).

Every widget is a :class:`~cfrviz.widgets.panel.Panel`: its figures are complete
when first shown, and its callbacks report errors in its own output area.
"""

from . import _quick_start  # noqa: F401  first: imports plotly's widget base quickly
from .best_response import BestResponseExplorer
from .bluff import BluffExplorer, bluff_explorer
from .compare import ComparisonView
from .discount import DiscountExplorer
from .equilibrium import KuhnEquilibriumView
from .explorer import TrainingExplorer, explore
from .holdem import LockExplorer, RiverGrid, river_grid
from .infoset import InfosetPicker, infoset_picker
from .leaderboard import Leaderboard, leaderboard
from .matrix import RegretMatchingExplorer
from .play import PlayTable, play_against, play_tabs
from .realization import RealizationPlanExplorer
from .resolve import ResolveExplorer
from .reveal import ShowMe
from .sampling import SampledPaths, sampled_paths

__all__ = ["BestResponseExplorer", "BluffExplorer", "ComparisonView", "DiscountExplorer",
           "InfosetPicker", "KuhnEquilibriumView", "Leaderboard", "LockExplorer", "leaderboard",
           "PlayTable", "RealizationPlanExplorer", "RegretMatchingExplorer", "ResolveExplorer",
           "RiverGrid",
           "SampledPaths",
           "ShowMe", "TrainingExplorer",
           "bluff_explorer", "explore", "infoset_picker", "play_against", "play_tabs",
           "river_grid", "sampled_paths"]
