"""Static export (cfrviz.export): seconds per file, per format, through kaleido in Chromium.

Run: ``.venv/bin/python benchmarks/bench_export.py [--repeats N]``.

Two figures: the training explorer's frame on Kuhn poker (its tree, 1 figure of 3, with the
overlay's edges, labels and ring converted into it: the largest), and a small line chart
(the explorer's exploitability curve).  For each format it prints

- ``cold``: one ``cfrviz.export`` on its own, which starts Chromium and stops it (what one
  click of the download control costs), the median of N;
- ``warm``: the median of N exports inside ``export_session()`` (one browser for all, what
  the tests and ``widget.export`` of a several-figure widget use);

and the size of the file written.  Also the time to build the frame's figures in Python
(``frame_figures``: the marks converted), without any browser.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from _results import recorded

import cfrviz
from cfrviz.views.export import FORMATS, export_session, find_browser
from cfrviz.widgets.export import frame_figures


def _seconds(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    browser = find_browser()
    if browser is None:
        raise SystemExit("no Chromium browser: static export needs one (apt install chromium)")
    explorer = cfrviz.explore(cfrviz.load_game("kuhn_poker"), "cfr", iterations=1000, seed=0,
                              infoset="J")
    build = _seconds(lambda: frame_figures(explorer), args.repeats)
    tree, _history, curve = frame_figures(explorer)
    print(f"browser {browser}; load average {os.getloadavg()[0]:.1f}; repeats {args.repeats}")
    print(f"frame_figures(explorer): {build * 1000:.0f} ms (3 figures, marks converted; "
          f"tree: {len(tree.data)} traces, {len(tree.layout.shapes)} shapes, "
          f"{len(tree.layout.annotations)} annotations)")
    print(f"{'figure':<10} {'format':<6} {'cold s':>7} {'warm s':>7} {'file KiB':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for label, fig in (("tree", tree), ("curve", curve)):
            for fmt in FORMATS:
                path = Path(folder) / f"{label}.{fmt}"
                cold = _seconds(lambda f=fig, p=path: cfrviz.export(f, p), args.repeats)
                with export_session():
                    cfrviz.export(fig, path)  # the session's first export starts the browser
                    warm = _seconds(lambda f=fig, p=path: cfrviz.export(f, p), args.repeats)
                size = path.stat().st_size / 1024
                print(f"{label:<10} {fmt:<6} {cold:>7.2f} {warm:>7.2f} {size:>9.0f}")


if __name__ == "__main__":
    with recorded("bench_export"):
        main()
