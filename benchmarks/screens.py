"""Photograph the lessons' figures in headless Chromium, as a 1280 x 900 window shows them.

Each figure of ``tests/_figures.py`` is drawn by plotly.js in a page whose output column is
848 pixels wide (JupyterLab's output area in a 1280-pixel window, file browser closed) and
saved as a PNG.  A widget's figure is drawn as plotly draws it alone, without the marks a
widget lays over it.  Usage::

    .venv/bin/python benchmarks/screens.py OUTDIR [NAME-FILTER ...] [--presenter]

e.g. ``benchmarks/screens.py /work/notes/screens/after kuhn equilibrium`` photographs the
figures whose names contain "kuhn" or "equilibrium".  Nothing here is a test.
"""

from __future__ import annotations

import sys
from pathlib import Path

import plotly.graph_objects as go
import plotly.io as pio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _browser import CHROMIUM, CHROMIUM_ARGS
from _figures import lesson_figures

#: JupyterLab's output area in a 1280-pixel window.
OUTPUT_PX = 848
PAGE = """<!doctype html><html><head><meta charset="utf-8">
<style>body {{ margin: 0; background: white; font-family: Arial, sans-serif; }}
.cell {{ width: {width}px; margin: 16px 0 0 {left}px; }}
h3 {{ font-size: 13px; color: #666; margin: 0 0 4px 0; }}</style></head>
<body>{body}</body></html>"""


def page_for(name: str, figures: list) -> str:
    parts = []
    for k, fig in enumerate(figures):
        plain = go.Figure(fig.to_dict()) if isinstance(fig, go.FigureWidget) else fig
        html = pio.to_html(plain, include_plotlyjs="inline" if k == 0 else False,
                           full_html=False, default_width="100%",
                           config={"responsive": True})
        parts.append(f'<div class="cell"><h3>{name} ({k + 1}/{len(figures)})</h3>{html}</div>')
    return PAGE.format(width=OUTPUT_PX, left=(1280 - OUTPUT_PX) // 2, body="".join(parts))


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    out = Path(argv[0])
    presenter = "--presenter" in argv
    filters = [a.lower() for a in argv[1:] if not a.startswith("--")]
    out.mkdir(parents=True, exist_ok=True)
    import cfrviz
    cfrviz.set_presenter(presenter)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        for name, make in lesson_figures().items():
            if filters and not any(f in name.lower() for f in filters):
                continue
            html = out / (name.replace(" ", "_").replace(",", "").replace("+", "plus")
                          + ".html")
            html.write_text(page_for(name, make()))
            page.goto(html.resolve().as_uri())
            page.wait_for_function("() => document.querySelectorAll('.main-svg').length > 0")
            page.wait_for_timeout(400)
            png = html.with_suffix(".png")
            page.screenshot(path=str(png), full_page=True)
            html.unlink()
            print(png)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
