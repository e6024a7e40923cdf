"""Interactive views for JupyterLab (ipywidgets + plotly FigureWidget)."""

from .matrix import RegretMatchingExplorer

__all__ = ["RegretMatchingExplorer"]
