"""Time one in-place update of the tree figure, as a timeline step of the explorer does it.

Run: ``.venv/bin/python benchmarks/bench_views.py``.  A ``FigureWidget`` is built once
per game; each timed step moves it to another record of a CFR trace with
``TreeView.update`` (edge widths and labels, best-response highlight, selected
information set), headless, best of several passes over the records.  Targets from
issue 4: a Kuhn slider step within 30 ms for every figure of the explorer (the tree
is one of them), a Leduc subtree within 150 ms.

For comparison, the same changes applied through plotly's validated per-trace setters
(``fig.data[i].update(...)`` inside ``batch_update``) instead of the one
``plotly_update`` that ``TreeView.update`` sends.
"""

from __future__ import annotations

import time

import numpy as np
import plotly.graph_objects as go
from _results import recorded
from _timing import best_of

import cfrviz
from cfrviz.views import TreeView
from cfrviz.widgets.figure_widget import FigureWidget

REPEATS = 5
STEPS = 40


def _validated(view: TreeView, fig, probs, **kwargs) -> None:
    changes, note = view.changes(probs, **kwargs)
    with fig.batch_update():
        for index, props in changes.items():
            fig.data[index].update(**props)
        fig.layout.annotations[1].text = note


def _per_step(step, records: list[np.ndarray]) -> float:
    """Milliseconds per step: best of ``REPEATS`` passes over ``records``."""
    def one_pass():
        for probs in records:
            step(probs)
    return best_of(one_pass, REPEATS) / len(records) * 1000


def _records(game, iterations: int) -> list[np.ndarray]:
    trace = cfrviz.solve(game, "cfr", iterations, checkpoints=list(range(1, iterations + 1)))
    picks = np.linspace(0, len(trace) - 1, STEPS).astype(int)
    return [trace.average_policy(int(trace.iterations[i])).probabilities for i in picks]


def main() -> None:
    cases = {
        "Kuhn, whole tree (55 nodes)": (cfrviz.load_game("kuhn_poker"), {}, "Kb"),
        "Leduc, deal QK (241 nodes)": (cfrviz.load_game("leduc_poker"), {"subtree": "QK"},
                                       "Q:cr"),
    }
    # plotly loads its validators on first use: keep that out of the build times.
    TreeView(cfrviz.load_game("rock_paper_scissors")).figure(widget=FigureWidget())
    print(f"TreeView on a FigureWidget, ms (update: best of {REPEATS} passes over {STEPS} "
          "CFR records)")
    for name, (game, where, selected) in cases.items():
        records = _records(game, 200)
        start = time.perf_counter()
        view = TreeView(game, **where)
        fig = view.figure(records[0], widget=FigureWidget())
        build = (time.perf_counter() - start) * 1000
        assert isinstance(fig, go.FigureWidget)
        extra = dict(best_response=1, selected_infoset=selected)
        # default arguments bind this case's view and figure (the lambdas run inside the loop)
        plain = _per_step(lambda p, v=view, f=fig: v.update(f, p), records)
        full = _per_step(lambda p, v=view, f=fig, x=extra: v.update(f, p, **x), records)
        slow = _per_step(lambda p, v=view, f=fig, x=extra: _validated(v, f, p, **x), records)
        print(f"  {name:<28} build {build:5.0f}   update {plain:5.2f}   "
              f"+ best response and selected set {full:5.2f}   "
              f"(validated setters {slow:5.2f})")


if __name__ == "__main__":
    with recorded("bench_views"):
        main()
