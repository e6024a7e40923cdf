"""No blank figures under load (issue 25 item 5): figure-heavy widgets drawn in JupyterLab while
the CPU is busy with kernels training.

The cause, found with this test: plotly's ``FigureWidget`` (an anywidget since plotly 6) makes
the page import its whole 5 MB front end once per figure, and anywidget gives each model two
seconds to start before it drops, for good, every message the kernel sends it.  Under load the
second and third empty figures of an explorer waited behind the first one's import, missed
their two seconds, never received their traces, and stayed blank, with the page error
"[anywidget] Failed to initialize model".  :class:`cfrviz.views.figure_widget.FigureWidget`
starts at once, imports plotly's front end once per page, and hands it the messages that came
meanwhile.

The test starts :data:`TRAINERS` processes training CFR on Leduc (what a class's kernels do),
opens a notebook of :data:`CELLS` (three regret-matching explorers, two Kuhn equilibrium views
and a training explorer with its live tree: 14 FigureWidgets, most made empty and filled at
once), runs it once the load average has reached :data:`LOAD_FLOOR`, and checks that every
figure holds all its traces and draws within :data:`DRAW_LIMIT` seconds of Run All, with no
JavaScript error.  It prints the load average and each figure's time to first draw.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest
from _browser import chromium_page, code_notebook, jupyterlab, open_notebook, run_all_and_wait

#: CPU-bound processes started for the test: each trains CFR on Leduc, as a student's kernel
#: does.  On 2 cores, 4 of them gave load averages of 7-11, where plotly's own front end drew
#: every figure in the runs tried; 8 give 13-17, where it left figures blank.  In a fresh-clone
#: .ci/run, 8 brought the one-minute average only to 7.4 within 120 s, so 12 are started and
#: the wait is 240 s (the average climbs toward the number of runnable processes).
TRAINERS = 12
TRAINING = ("import cfrviz; game = cfrviz.load_game('leduc_poker'); "
            "cfrviz.solve(game, 'cfr', iterations=10**6)")
#: Seconds from Run All to the last figure drawn with all its traces.  On 2 cores at a load
#: average of 13-16, Run All takes 45-75 s and the last figure draws within it.
DRAW_LIMIT = 120
#: Run All starts once the one-minute load average has reached this (within LOAD_WAIT s).
LOAD_FLOOR, LOAD_WAIT = 8, 240

CELLS = [
    "import cfrviz\n"
    "import ipywidgets as W\n"
    "from cfrviz.widgets import KuhnEquilibriumView, RegretMatchingExplorer, TrainingExplorer\n"
    "from cfrviz.widgets.panel import figure_widgets\n"
    "kuhn = cfrviz.load_game('kuhn_poker')\n"
    "runs = [cfrviz.solve(kuhn, a, iterations=300) for a in ('cfr', 'cfr+')]",
    # Made one after the other in one cell, each explorer's three empty figures at once.
    "shown = [RegretMatchingExplorer(iterations=500, seed=s, show_controls=False)\n"
    "         for s in range(3)]\n"
    "shown += [KuhnEquilibriumView(runs) for _ in range(2)]\n"
    "shown.append(TrainingExplorer(kuhn, 'cfr', iterations=200))\n"
    "W.VBox(shown)",
    "figures = [f for w in shown for f in figure_widgets(w)]\n"
    "print('traces per figure:', sorted(len(f.data) for f in figures))",
]

#: Per plotly figure in the page: the traces its front end holds (``data``: what the kernel's
#: messages gave it), the traces drawn (plotly's ``g.trace`` groups; a trace without points
#: draws none) and when the recorder first saw one drawn, in ms after the recorder started.
_RECORD = """() => {
  const seen = new Map();
  const start = performance.now();
  window.cfrvizDrawn = () => [...document.querySelectorAll(".js-plotly-plot")].map((plot) => ({
    data: (plot.data || []).length,
    traces: plot.querySelectorAll("g.trace").length,
    drawnAt: seen.has(plot) ? seen.get(plot) : null,
  }));
  const look = () => {
    for (const plot of document.querySelectorAll(".js-plotly-plot")) {
      if (!seen.has(plot) && plot.querySelector("g.trace")) {
        seen.set(plot, Math.round(performance.now() - start));
      }
    }
  };
  window.cfrvizRecorder = setInterval(look, 100);
}"""


@contextmanager
def training_processes(n: int):
    """``n`` processes training CFR (stopped, by their own ids, afterwards)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    processes = [subprocess.Popen([sys.executable, "-c", TRAINING], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for _ in range(n)]
    try:
        yield processes
    finally:
        for process in processes:
            process.kill()
        for process in processes:
            process.wait(timeout=30)


def expected_traces(page) -> list[int]:
    text = page.locator(".jp-OutputArea-output", has_text="traces per figure:").inner_text()
    return sorted(int(n) for n in text.split(":", 1)[1].strip(" []\n").split(","))


@pytest.mark.browser
@pytest.mark.slow
def test_every_figure_draws_under_load(tmp_path):
    notebook = code_notebook(tmp_path / "figures_under_load.ipynb", CELLS)
    with training_processes(TRAINERS), jupyterlab(extra_files=[notebook]) as server, \
            chromium_page() as page:
        open_notebook(page, server, notebook.name)
        deadline = time.monotonic() + LOAD_WAIT
        while os.getloadavg()[0] < LOAD_FLOOR and time.monotonic() < deadline:
            time.sleep(1)
        load_before = os.getloadavg()[0]
        # The test means something only if the machine is busy.
        assert load_before >= LOAD_FLOOR, (f"the load average reached only {load_before:.1f} "
                                           f"with {TRAINERS} trainers")
        page.evaluate(_RECORD)
        start = time.monotonic()
        run_all_and_wait(page, timeout=DRAW_LIMIT)
        ran = time.monotonic() - start
        expected = expected_traces(page)
        drawn: list[dict] = []
        while time.monotonic() - start < DRAW_LIMIT:
            drawn = page.evaluate("() => window.cfrvizDrawn()")
            if sorted(d["data"] for d in drawn) == expected and all(d["traces"] for d in drawn):
                break
            time.sleep(0.25)
        times = sorted(d["drawnAt"] for d in drawn if d["drawnAt"] is not None)
        report = (f"load average {load_before:.1f}-{os.getloadavg()[0]:.1f}; Run All "
                  f"{ran:.1f} s; {len(times)} of {len(expected)} figures drawn, first draws "
                  f"at {[round(t / 1000, 1) for t in times]} s")
        print(report)
        blank = sum(d["traces"] == 0 for d in drawn)
        assert not blank and sorted(d["data"] for d in drawn) == expected, (
            f"{blank} blank figure(s); traces per figure in the page "
            f"{sorted(d['data'] for d in drawn)}, in the kernel {expected} ({report})\n"
            + "\n".join(page.errors))
        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)
