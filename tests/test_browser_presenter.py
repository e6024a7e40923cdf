"""Presenter mode at a projector's widths: lesson 04 served as ``make present`` serves it (Voila,
``CFRVIZ_PRESENTER=1``) in a window 1024, 1280 and 1920 pixels wide.  No figure may be clipped
(each lies inside its output area and the window, with at least ``MIN_FIGURE_PX`` of it in
sight) and no control may collapse (the export menu shows its value, the buttons and labels
their text).

At 1280 px the training explorer's per-set chart used to be squeezed beside the set's panel
into a clipped sliver, and the export menu, 180 px wide with a 150 px label, to a bare arrow.
"""

from __future__ import annotations

import pytest
from _browser import chromium, new_page, screenshot, voila

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LESSON = "04_cfr_on_kuhn.ipynb"
WIDTHS = (1024, 1280, 1920)
#: The least width of a figure in sight: a chart narrower than this cannot be read.
MIN_FIGURE_PX = 250
#: Pixels a box may stick out (sub-pixel rounding of borders).
SLACK = 2

# Every plotly figure in an output area: its drawn box (the larger of its SVG's box and plotly's
# own layout width, which a box that is too narrow cuts), the part of it in sight (inside every
# ancestor that clips, and the window), and its output area.
_FIGURES = """() => [...document.querySelectorAll(".jp-OutputArea-output .js-plotly-plot")]
  .map((plot) => {
    const svg = plot.querySelector(".main-svg") || plot;
    const box = svg.getBoundingClientRect();
    const width = Math.max(box.width, (plot._fullLayout || {}).width || 0);
    let left = box.left, right = box.left + width;
    for (let el = plot.parentElement; el && el !== document.body; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.overflowX !== "visible") {
        const r = el.getBoundingClientRect();
        left = Math.max(left, r.left);
        right = Math.min(right, r.right);
      }
    }
    left = Math.max(left, 0);
    right = Math.min(right, document.documentElement.clientWidth);
    const area = plot.closest(".jp-OutputArea-output").getBoundingClientRect();
    const title = plot.querySelector(".gtitle");
    return {title: title ? title.textContent : "(untitled)", left: box.left,
            right: box.left + width, width, seen: Math.max(0, right - left),
            area_left: area.left, area_right: area.right,
            traces: (plot._fullData || []).length};
  })"""

# The export control (the menu whose options are the formats) and every button and widget
# label in the outputs: their width against the width their text needs.
_CONTROLS = """() => {
  const ruler = document.createElement("span");
  ruler.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;";
  document.body.appendChild(ruler);
  const natural = (el, text) => {
    const s = getComputedStyle(el);
    ruler.style.font = s.font;
    ruler.style.letterSpacing = s.letterSpacing;
    ruler.textContent = text;
    return ruler.getBoundingClientRect().width;
  };
  const out = [];
  for (const select of document.querySelectorAll(".jp-OutputArea-output select")) {
    const options = [...select.options].map((o) => o.text);
    if (!options.includes("svg")) continue;
    const s = getComputedStyle(select);
    const padding = parseFloat(s.paddingLeft) + parseFloat(s.paddingRight);
    out.push({kind: "export menu", text: select.options[select.selectedIndex].text,
              width: select.getBoundingClientRect().width,
              needs: Math.max(...options.map((t) => natural(select, t))) + padding});
    const label = select.parentElement.querySelector(".widget-label");
    if (label && label.textContent) {
      out.push({kind: "export menu's label", text: label.textContent,
                width: label.getBoundingClientRect().width,
                needs: natural(label, label.textContent)});
    }
  }
  for (const button of document.querySelectorAll(".jp-OutputArea-output button.jupyter-button")) {
    const text = button.textContent.trim();
    if (!text || button.offsetParent === null) continue;
    out.push({kind: "button", text, width: button.clientWidth, needs: button.scrollWidth});
  }
  ruler.remove();
  return out;
}"""


def _wait_for_the_explorer(page) -> None:
    """Until the explorer's Export button is there and every figure has settled (drawn, and
    no box has changed for a second: a widget's figure is resized a round trip after it is
    drawn)."""
    page.locator("button", has_text="Export").first.wait_for(timeout=300_000)
    last, quiet = None, 0
    for _ in range(240):
        now = page.evaluate(_FIGURES)
        if now == last and now and all(f["traces"] for f in now):
            quiet += 1
            if quiet >= 4:
                return
        else:
            quiet = 0
        last = now
        page.wait_for_timeout(250)


@pytest.mark.parametrize("width", WIDTHS)
def test_lesson04_in_presenter_mode_fits_the_window(width):
    # as make present serves it: presenter sizes, and the lesson's name in CFRVIZ_LESSON
    env = {"CFRVIZ_PRESENTER": "1", "CFRVIZ_LESSON": LESSON.removesuffix(".ipynb")}
    with voila(LESSON, env_extra=env, startup_timeout=120) as server, \
            chromium() as browser, new_page(browser, width, 900) as page:
        page.goto(server.url(""), timeout=300_000)
        _wait_for_the_explorer(page)
        for i in range(page.locator(".jp-OutputArea-output .js-plotly-plot").count()):
            page.locator(".jp-OutputArea-output .js-plotly-plot").nth(i) \
                .scroll_into_view_if_needed()
        page.wait_for_timeout(1000)
        figures, controls = page.evaluate(_FIGURES), page.evaluate(_CONTROLS)
        explorer = page.locator(".jp-OutputArea-output",
                                has=page.locator("button", has_text="Export")).first
        shot = screenshot(explorer, f"presenter-lesson04-{width}")
        where = f"lesson 04 in presenter mode at {width} px (see {shot})"
        assert len(figures) >= 3, f"{where}: expected the explorer's figures, found {figures}"
        problems = []
        for f in figures:
            name = f"figure {f['title']!r} ({f['width']:.0f} px, {f['seen']:.0f} px in sight)"
            if f["left"] < f["area_left"] - SLACK or f["right"] > f["area_right"] + SLACK:
                problems.append(f"{name} sticks out of its output area "
                                f"({f['left']:.0f}..{f['right']:.0f} in "
                                f"{f['area_left']:.0f}..{f['area_right']:.0f})")
            if f["right"] > width + SLACK:
                problems.append(f"{name} sticks out of the window")
            if f["seen"] < f["width"] - SLACK:
                problems.append(f"{name} is clipped")
            if f["seen"] < MIN_FIGURE_PX:
                problems.append(f"{name} is narrower than {MIN_FIGURE_PX} px")
        menus = [c for c in controls if c["kind"] == "export menu"]
        assert menus, f"{where}: no export menu found"
        for c in controls:
            if c["width"] + 1 < c["needs"]:
                problems.append(f"the {c['kind']} {c['text']!r} is {c['width']:.0f} px wide; its "
                                f"text needs {c['needs']:.0f} px")
        # Voila fetches its fonts from a CDN (offline here); the plotly bundle logs
        # "r.setData is not a function" in Voila only, while everything renders; and the page
        # asks for a widget closed in the kernel before it connected ("widget model not
        # found", on main before this test too): not what this test is about.
        problems += [f"JavaScript error: {e}" for e in page.errors if not any(
            known in e for known in ("ERR_NAME_NOT_RESOLVED", "r.setData is not a function",
                                     "widget model not found"))]
        assert not problems, f"{where}:\n" + "\n".join(problems)
        if width == 1280:
            _export_gives_one_named_file(page, where)


def _export_gives_one_named_file(page, where: str) -> None:
    """Export in the dashboard: the button is busy while it works, then one link, to a zip
    named after the lesson, the explorer and the iteration, that holds the file itself
    (Voila's file route would refuse a zip or a PDF)."""
    page.locator("button", has_text="Export").first.click()
    busy = page.locator("button", has_text="exporting…")
    busy.wait_for(timeout=30_000)
    assert busy.is_disabled(), f"{where}: the Export button can be pressed while it exports"
    prefix = f"{LESSON.removesuffix('.ipynb')}-training-explorer-iter"
    link = page.locator(f'a[download^="{prefix}"]')
    link.wait_for(timeout=120_000)
    assert page.locator("button", has_text="Export").first.is_enabled()
    assert page.locator("a[download]").count() == 1, f"{where}: one file per press"
    assert link.get_attribute("download").endswith(".zip")
    assert link.get_attribute("href").startswith("data:application/zip;base64,UEsD"), (
        f"{where}: the link does not hold a zip")  # "PK\x03" in base64
