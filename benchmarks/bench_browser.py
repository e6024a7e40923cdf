"""How fast each animated widget plays in a real browser, beside a bare baseline (issue 14).

Method: JupyterLab and headless Chromium as in ``tests/_browser.py``.  Each widget gets a
notebook of its own holding, above it, a bare ``Play`` + slider driving a one-trace
``FigureWidget`` and a label at the widget's own Play interval (the least any timeline does per
frame).  In the page, a ``requestAnimationFrame`` loop reads each label once per rendered frame:
a value replaced before a paint was never seen, so "shown/s" counts the iterations a student
actually sees per second (first to last change in the timed window, after 1 s of warm-up;
the median of the repeats).  The rAF timestamps
give the front end's time per frame; a ``PerformanceObserver`` adds up long tasks (> 50 ms) as
the share of time the main thread was blocked; "drain" is how long the label kept changing
after Pause (frames queued and drawn late).  Baseline and widget are timed alternately, in the
same page, ``--repeats`` times each; the ratio widget / baseline is what to compare across
machines (absolute rates follow the machine's load).  "key" is the time from a keydown on the
timeline slider (the best-response explorer: its first strategy slider) to the first painted
frame showing the new label.

Run: .venv/bin/python benchmarks/bench_browser.py [--seconds 4] [--repeats 2] [widget ...]
Target (issue 14): every widget at or above 80 % of the baseline's rate.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _browser import (
    TIMED_WIDGETS,
    chromium_page,
    code_notebook,
    jupyterlab,
    measure_key_steps,
    measure_play,
    open_timing_notebook,
    timing_cells,
)
from _results import recorded

BASELINE, WIDGET = ".bench-baseline", ".bench-widget"
TARGET = 0.8


def _median(values) -> float:
    values = [v for v in values if v == v]  # drop NaN
    return statistics.median(values) if values else float("nan")


def time_one(page, server, key: str, workspace: str, seconds: float, repeats: int) -> dict:
    """Open ``key``'s notebook, run it, and time baseline and widget alternately."""
    widget = TIMED_WIDGETS[key]
    open_timing_notebook(page, server, key, workspace)
    result: dict = {"name": widget.name, "interval": widget.interval}
    if widget.interval is not None:
        runs: dict = {BASELINE: [], WIDGET: []}
        for _ in range(repeats):
            for root in (BASELINE, WIDGET):
                runs[root].append(measure_play(page, root, seconds=seconds))
        for root, tag in ((BASELINE, "base"), (WIDGET, "widget")):
            for field in runs[root][0]._fields:
                result[f"{tag}_{field}"] = _median(getattr(r, field) for r in runs[root])
    for root, tag in ((BASELINE, "base"), (WIDGET, "widget")):
        keys = measure_key_steps(page, root)
        result[f"{tag}_key_ms"] = keys.paint_ms
        result[f"{tag}_key_worst_ms"] = keys.worst_ms
    page.evaluate("() => jupyterapp.serviceManager.sessions.shutdownAll()")
    if page.errors:
        raise RuntimeError("JavaScript errors in the page:\n" + "\n".join(page.errors))
    return result


def print_table(results: list[dict]) -> None:
    print(f"\n{'widget':34} {'ms':>4} {'want/s':>6} {'base/s':>6} {'shown/s':>7} {'ratio':>6} "
          f"{'ticks/s':>7} {'frame ms b|w':>13} {'p90 ms b|w':>11} {'busy b|w':>9} "
          f"{'drain s':>7} {'key ms b|w':>11}")
    for r in results:
        key = f"{r['base_key_ms']:5.0f}|{r['widget_key_ms']:<5.0f}"
        if r["interval"] is None:
            print(f"{r['name']:34} {'':>4} {'':>6} {'':>6} {'':>7} {'':>6} {'':>7} {'':>13} "
                  f"{'':>11} {'':>9} {'':>7} {key:>11}")
            continue
        ratio = r["widget_shown_per_s"] / r["base_shown_per_s"]
        verdict = "ok" if ratio >= TARGET else "SLOW"
        print(f"{r['name']:34} {r['interval']:4d} {1000 / r['interval']:6.1f} "
              f"{r['base_shown_per_s']:6.1f} {r['widget_shown_per_s']:7.1f} {ratio:6.2f} "
              f"{r['widget_ticks_per_s']:7.1f} "
              f"{r['base_frame_ms']:6.0f}|{r['widget_frame_ms']:<6.0f} "
              f"{r['base_frame_p90_ms']:5.0f}|{r['widget_frame_p90_ms']:<5.0f} "
              f"{r['base_busy']:4.0%}|{r['widget_busy']:<4.0%} "
              f"{r['widget_drain_s']:7.1f} {key:>11} {verdict}")
    print(f"\nratio = widget shown/s over baseline shown/s in the same page; target >= {TARGET}. "
          "ticks/s: Play's own steps painted per second; busy: share of the time in long tasks; "
          "drain: seconds the label kept changing after Pause; key: keydown to painted label.")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("widgets", nargs="*", default=[],
                        help=f"which to time (default all): {', '.join(TIMED_WIDGETS)}")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds timed per run")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each, alternating")
    args = parser.parse_args(argv)
    keys = args.widgets or list(TIMED_WIDGETS)
    unknown = [key for key in keys if key not in TIMED_WIDGETS]
    if unknown:
        parser.error(f"no widget {', '.join(unknown)}; choose from {', '.join(TIMED_WIDGETS)}")
    with tempfile.TemporaryDirectory(prefix="cfrviz-timing-") as tmp:
        folder = Path(tmp) / "timing"
        folder.mkdir()
        for key in keys:
            code_notebook(folder / f"{key}.ipynb", timing_cells(TIMED_WIDGETS[key]))
        results = []
        with jupyterlab(extra_files=[folder]) as server, chromium_page() as page:
            for i, key in enumerate(keys):
                results.append(time_one(page, server, key, f"w{i}", args.seconds, args.repeats))
                print(f"timed {key}", flush=True)
        print_table(results)


if __name__ == "__main__":
    with recorded("bench_browser"):
        main()
