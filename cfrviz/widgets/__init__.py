"""Interactive views for JupyterLab (ipywidgets + plotly FigureWidget)."""

from .equilibrium import KuhnEquilibriumView
from .matrix import RegretMatchingExplorer
from .play import PlayTable, play_against

__all__ = ["KuhnEquilibriumView", "PlayTable", "RegretMatchingExplorer", "play_against"]
