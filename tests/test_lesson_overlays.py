"""No lesson shows a figure without the marks drawn over or beneath it (issue 19).

A figure of :func:`cfrviz.widgets.overlay.overlaid` or a :class:`cfrviz.widgets.tree.LiveTree`
is a plotly skeleton: the tree's edges and best-response bands, the charts' "now" marks, are an
overlay in the same box.  Lesson 05's "Predict, then reveal" cell showed the best-response
explorer's ``fig`` on its own in a new box, and the student saw nodes without edges.  This test
reads the widget state of each lesson's headless run with its solutions in (the one run
tests/test_lessons.py checks the verdicts of): every figure that has an overlay box must be
displayed inside that box, wherever it is displayed.
"""

from __future__ import annotations

import pytest
from _lessons import NOTEBOOKS
from test_lessons import solved_run

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _children(model: dict) -> list[str]:
    return [c.removeprefix("IPY_MODEL_") for c in model["state"].get("children", ())]


def misplaced_figures(nb) -> list[str]:
    """Where an executed notebook displays an overlaid figure outside its overlay box."""
    if WIDGET_STATE not in nb.metadata.get("widgets", {}):
        return []  # the lesson shows no widget
    state = nb.metadata["widgets"][WIDGET_STATE]["state"]
    home = {}  # figure model id -> its overlay box
    for box_id, model in state.items():
        if "cfrviz-overlaid" in model["state"].get("_dom_classes", ()):
            for child in _children(model):  # the figure, not the marks (NowMarks)
                kind = state.get(child, {}).get("state", {}).get("_anywidget_id", "")
                if not kind.startswith("cfrviz."):
                    home[child] = box_id
    problems = []
    for index, cell in enumerate(nb.cells):
        for out in cell.get("outputs", ()):
            root = out.get("data", {}).get(WIDGET_VIEW, {}).get("model_id")
            stack = [(root, None)] if root else []
            while stack:
                model_id, parent = stack.pop()
                if model_id in home and parent != home[model_id]:
                    line = cell.source.strip().splitlines()[-1]
                    problems.append(f"cell {index + 1} ({line}): a figure shown without "
                                    "its overlay marks (show the box that holds both)")
                stack.extend((c, model_id) for c in _children(state.get(model_id, {"state": {}})))
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if not p.stem.startswith("00")],
                         ids=lambda p: p.stem)
def test_every_overlaid_figure_is_shown_with_its_marks(path):
    nb, _ = solved_run(path)
    assert misplaced_figures(nb) == []
