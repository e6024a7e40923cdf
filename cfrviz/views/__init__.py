"""Pure functions from games and traces to plotly figures."""

from .matrix import (display_frames, exploitability_figure, history_figure, simplex_figure,
                     update_exploitability, update_history, update_simplex)

__all__ = ["display_frames", "exploitability_figure", "history_figure", "simplex_figure",
           "update_exploitability", "update_history", "update_simplex"]
