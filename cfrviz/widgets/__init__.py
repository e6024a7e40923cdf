"""Interactive views for JupyterLab (ipywidgets + plotly FigureWidget)."""

from .best_response import BestResponseExplorer
from .equilibrium import KuhnEquilibriumView
from .explorer import TrainingExplorer, explore
from .matrix import RegretMatchingExplorer
from .play import PlayTable, play_against

__all__ = ["BestResponseExplorer", "KuhnEquilibriumView", "PlayTable", "RegretMatchingExplorer",
           "TrainingExplorer", "explore", "play_against"]
