"""Static export (cfrviz.export): every figure, and a widget's current frame with what its
overlay draws, to PNG, SVG and PDF, checked against the figure on screen.

The mark conversions and the refusals run without a browser.  The exports themselves run
kaleido in Debian's chromium (marked slow: a browser start is 2-3 s); without a browser they
fail, saying so, when CI is set, and skip otherwise.
"""

from __future__ import annotations

import asyncio
import base64
import io
import math
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from types import SimpleNamespace

import plotly.graph_objects as go
import pytest
from _browser import chromium_page, code_notebook, jupyterlab, open_notebook, run_all_and_wait
from _figures import lesson_figures
from _tolerance import STOPPED

import cfrviz
from cfrviz.views import export as static
from cfrviz.views.export import StaticExportError, export_format, figure_size
from cfrviz.widgets import export as ex
from cfrviz.widgets.overlay import (
    KINDS,
    NowMarks,
    labels,
    overlaid,
    path,
    point,
    rings,
    segments,
    vline,
)
from cfrviz.widgets.panel import figure_widgets

SVG = "{http://www.w3.org/2000/svg}"


def _needs_browser():
    """Skip (fail under CI) when kaleido cannot find a Chromium to drive."""
    if static.find_browser() is None:
        message = "no Chromium browser for kaleido: apt install chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def session():
    _needs_browser()
    with static.export_session():
        yield


@pytest.fixture(scope="module")
def explorer():
    return cfrviz.explore(cfrviz.load_game("kuhn_poker"), "cfr", iterations=60, seed=0,
                          infoset="J")


# ---- reading the files back ----------------------------------------------------------------

def png_size(file: Path) -> tuple[int, int]:
    data = file.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{file} is not a PNG"
    return struct.unpack(">II", data[16:24])


def pdf_page(file: Path) -> tuple[float, float]:
    data = file.read_bytes()
    assert data.startswith(b"%PDF-"), f"{file} is not a PDF"
    assert data.rstrip().endswith(b"%%EOF"), f"{file} is cut short"
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([0-9.]+) ([0-9.]+)\s*\]", data)
    assert len(boxes) == 1, f"{file}: expected one page, found {len(boxes)} MediaBoxes"
    return float(boxes[0][0]), float(boxes[0][1])


def svg_elements(file: Path) -> dict:
    """What a plotly SVG draws: its size, trace groups, points, shapes, annotation texts,
    title."""
    root = ET.parse(file).getroot()

    def having(cls: str):
        return [e for e in root.iter() if cls in (e.get("class") or "").split()]

    title = [("".join(e.itertext())) for e in having("gtitle")]
    return dict(width=float(root.get("width")), height=float(root.get("height")),
                traces=len(having("trace")), points=len(having("point")),
                shapes=len([e for g in having("shapelayer") for e in g.iter(f"{SVG}path")]),
                annotations=["".join(e.itertext()) for e in having("annotation-text")],
                title=title[0] if title else None)


def _drawn_traces(fig: go.Figure) -> int:
    """The traces plotly draws a group for: shown, with at least one point (a legend-only
    trace with no data draws none)."""
    def points(t) -> int:
        for name in ("x", "y", "a", "z"):
            values = getattr(t, name, None)
            if values is not None:
                return len(values)
        return 0
    return sum(1 for t in fig.data if t.visible not in (False, "legendonly") and points(t))


# ---- the format, the size, and what is missing (no browser needed) ------------------------

def test_format_comes_from_the_suffix_or_is_checked():
    assert export_format("a/b.PNG") == "png"
    assert export_format("x.svg") == "svg"
    assert export_format("x", "pdf") == "pdf"
    with pytest.raises(ValueError, match=r"'x.jpg'.*\.jpg.*\.png, \.svg or \.pdf"):
        export_format("x.jpg")
    with pytest.raises(ValueError, match="ends in .png but format='svg'"):
        export_format("x.png", "svg")
    with pytest.raises(ValueError, match="format must be one of"):
        export_format("x", "gif")


def test_size_is_the_layouts_or_plotlys_default():
    assert figure_size(go.Figure(layout=dict(width=640, height=360))) == (640, 360)
    assert figure_size(go.Figure()) == (700, 500)  # plotly.io.defaults
    assert figure_size(go.Figure(layout=dict(width=640)), height=300) == (640, 300)


@pytest.fixture
def no_browser_start(monkeypatch):
    """Fail the test if an export starts a browser (every check comes before)."""
    def start(*_args, **_kwargs):
        raise AssertionError("a browser was started")
    monkeypatch.setattr(static, "_Browser", start)
    monkeypatch.setattr(static, "find_browser", lambda: "/usr/bin/chromium")


@pytest.mark.usefixtures("no_browser_start")
def test_bad_paths_and_scales_are_refused_before_a_browser_starts(tmp_path):
    fig = go.Figure()
    with pytest.raises(ValueError, match="its folder .* does not exist"):
        cfrviz.export(fig, tmp_path / "missing" / "x.png")
    with pytest.raises(ValueError, match=r"scale must be a finite number >= 0.1 and <= 10; "
                                         r"got 0"):
        cfrviz.export(fig, tmp_path / "x.png", scale=0)
    with pytest.raises(ValueError, match="a plotly figure or a cfrviz widget; got int"):
        cfrviz.export(3, tmp_path / "x.png")
    # issue 30: a folder named out.png where the file was to go; a file where its folder is
    (tmp_path / "out.png").mkdir()
    with pytest.raises(ValueError, match=r"cannot write '.*out.png': it is a folder"):
        cfrviz.export(fig, tmp_path / "out.png")
    (tmp_path / "notes").write_text("mine")
    with pytest.raises(ValueError, match=r"'.*notes' is a file, not a folder"):
        cfrviz.export(fig, tmp_path / "notes" / "x.png")
    with pytest.raises(ValueError, match=r"cannot export into '.*notes': a file of that name"):
        ex.export_file(fig, tmp_path / "notes", "x")
    assert (tmp_path / "notes").read_text() == "mine"
    # a folder nobody can write in: the path given is named, no temporary file
    with pytest.raises(ValueError, match=r"^cannot write '/proc/x.png': "):
        cfrviz.export(fig, "/proc/x.png")
    # a PDF page past the format's 200 inches (issue 30: 200000 x 200000)
    with pytest.raises(ValueError, match=r"layout.width must be a finite number >= 10 and "
                                         r"<= 19200; got 200000"):
        cfrviz.export(go.Figure(layout=dict(width=200000, height=200000)), tmp_path / "x.pdf")
    with pytest.raises(ValueError, match=r"time_limit must be a finite number > 0"):
        cfrviz.export(fig, tmp_path / "x.png", time_limit=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes", "out.png"]


BAD_SCALES = [0, -1, 1e-9, 0.099, 10.001, 60, 1e308, math.inf, -math.inf, math.nan, True,
              "2", None, [2]]
BAD_SIDES = [0, 9, 9.4, -700, 19_201, 200_000, 1e12, math.inf, math.nan, "700", True]


@pytest.mark.usefixtures("no_browser_start")
@pytest.mark.parametrize("fmt", static.FORMATS)
def test_every_bad_scale_or_size_is_a_clear_error_before_a_browser_starts(fmt, tmp_path):
    fig = go.Figure(go.Scatter(y=[1, 2]))
    for scale in BAD_SCALES:
        with pytest.raises(ValueError, match=r"^scale must be a finite number >= 0.1 and "
                                             r"<= 10; got "):
            cfrviz.export(fig, tmp_path / f"x.{fmt}", scale=scale)
    for side in BAD_SIDES:
        for name in ("width", "height"):
            with pytest.raises(ValueError, match=rf"^{name} must be a finite number >= 10 "
                                                 rf"and <= 19200; got "):
                static.write_figure(fig, tmp_path / f"x.{fmt}", **{name: side})
            if _plotly_takes(name, side):  # plotly refuses < 10 itself, not > 19200
                with pytest.raises(ValueError, match=rf"^the figure's layout.{name} must be"):
                    cfrviz.export(go.Figure(layout={name: side}), tmp_path / f"x.{fmt}")
    # a PNG past Chromium's canvas: every side x scale beyond 16,384 pixels, named
    for side, scale in [(1700, 10), (2000, 8.5), (19_200, 1), (16_385, 1)]:
        call = lambda s=side, k=scale: static.write_figure(  # noqa: E731
            fig, tmp_path / f"x.{fmt}", width=s, height=100, scale=k)
        if fmt == "png":
            with pytest.raises(ValueError, match=rf"a PNG {side} px wide at scale={scale:g} "
                                                 r"would be .* pixels.*at most 16,384"):
                call()
        else:  # SVG and PDF have no pixels: the size alone is checked
            with pytest.raises(AssertionError, match="a browser was started"):
                call()
    assert list(tmp_path.iterdir()) == []


def _plotly_takes(name: str, side) -> bool:
    """Whether plotly's own validator lets ``layout.<name> = side`` in (it wants >= 10)."""
    try:
        go.Figure(layout={name: side})
    except ValueError:
        return False
    return True


class _NeverAnswers:
    """kaleido's Kaleido as a browser that starts (a real process, in its own session as
    choreographer starts it) and never answers."""

    started: list = []

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.subprocess = subprocess.Popen(["sleep", "600"], start_new_session=True)
        _NeverAnswers.started.append(self.subprocess)

    async def open(self):
        await asyncio.sleep(3600)

    async def calc_fig(self, *_args, **_kwargs):
        await asyncio.sleep(3600)

    async def close(self):
        pass


def test_a_browser_that_never_answers_is_stopped_at_the_time_limit(tmp_path, monkeypatch):
    import kaleido

    monkeypatch.setattr(kaleido, "Kaleido", _NeverAnswers)
    monkeypatch.setattr(static, "find_browser", lambda: "/usr/bin/chromium")
    _NeverAnswers.started.clear()
    start = time.monotonic()
    with pytest.raises(StaticExportError, match=r"static export of '.*x.svg' did not finish "
                                                r"within 0.5 s \(time_limit\), so it was "
                                                r"stopped and nothing was written"):
        cfrviz.export(go.Figure(), tmp_path / "x.svg", time_limit=0.5)
    assert time.monotonic() - start < STOPPED  # it returned: the limit, then the kill
    (process,) = _NeverAnswers.started
    assert process.wait(timeout=5) == -signal.SIGKILL  # the browser was killed
    assert list(tmp_path.iterdir()) == []
    # the Export button says so too, and is ready again
    control = ex.DownloadControl(go.FigureWidget(), "fig", folder=tmp_path)
    monkeypatch.setattr(static, "TIME_LIMIT", 0.3)
    assert control.export() == []
    assert "did not finish within 0.3 s" in control.links.outputs[0]["text"]
    assert not control.button.disabled and list(tmp_path.iterdir()) == []
    for process in _NeverAnswers.started:
        assert process.wait(timeout=5) == -signal.SIGKILL


def test_a_browser_that_cannot_start_is_one_clear_error(tmp_path, monkeypatch):
    import kaleido
    from choreographer.errors import BrowserFailedError

    class Fails(_NeverAnswers):
        async def open(self):
            raise BrowserFailedError("The browser seemed to close immediately after starting.",
                                     "You may try installing ... `$ choreo_get_chrome`.")

    monkeypatch.setattr(kaleido, "Kaleido", Fails)
    monkeypatch.setattr(static, "find_browser", lambda: "/bin/false")
    with pytest.raises(StaticExportError) as caught:
        cfrviz.export(go.Figure(), tmp_path / "x.png")
    message = str(caught.value)
    assert message.startswith("the browser at /bin/false could not start")
    assert "apt install chromium" in message and "choreo_get_chrome" not in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


@pytest.mark.slow
def test_browser_path_naming_a_program_that_is_no_browser(tmp_path, monkeypatch):
    """issue 30: BROWSER_PATH=/bin/false gave 22 frames of choreographer advising
    choreo_get_chrome; now one error naming the path and what to install (kaleido and
    choreographer for real, no Chromium needed: about 30 s, choreographer's own wait)."""
    monkeypatch.setenv("BROWSER_PATH", "/bin/false")
    with pytest.raises(StaticExportError, match=r"^the browser at /bin/false could not start "
                                                r".*apt install chromium"):
        cfrviz.export(go.Figure(), tmp_path / "x.png")
    assert list(tmp_path.iterdir()) == []


def test_without_a_browser_it_says_how_to_get_one(tmp_path, monkeypatch):
    # No BROWSER_PATH, a PATH holding no browser and nothing at the usual places
    # (/usr/bin/chromium, ...): what a machine without one looks like to kaleido's own search
    # (choreographer's).
    import choreographer.browsers.chromium as search

    monkeypatch.delenv("BROWSER_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(search, "_is_exe", lambda _path: False)
    assert static.find_browser() is None
    with pytest.raises(StaticExportError, match=r"needs a Chromium browser.*apt install "
                                                r"chromium.*BROWSER_PATH"):
        cfrviz.export(go.Figure(), tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()
    # A BROWSER_PATH naming nothing is no browser either.
    monkeypatch.setenv("BROWSER_PATH", str(tmp_path / "chromium"))
    assert static.find_browser() is None


def test_without_kaleido_it_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "kaleido", None)  # find_spec then finds nothing
    with pytest.raises(StaticExportError, match=r"needs kaleido 1.x.*pip install 'kaleido>=1'"):
        cfrviz.export(go.Figure(), tmp_path / "x.svg")


def test_the_download_control_reports_a_missing_browser(tmp_path, monkeypatch):
    monkeypatch.setattr(static, "find_browser", lambda: None)
    control = ex.DownloadControl(go.FigureWidget(), "fig", folder=tmp_path)
    assert control.export() == []
    (shown,) = control.links.outputs
    assert "Could not export: static export needs a Chromium browser" in shown["text"]
    assert list(tmp_path.iterdir()) == []  # no empty file left where the export was to go


# ---- the Export button: one file per press, named, never overwriting, busy while it works --

@pytest.fixture
def fake_writer(monkeypatch):
    """Exports without a browser: each figure "written" as a small file; each write records
    its path and format, and the state of the controls in ``writer.controls`` at that time."""
    writer = SimpleNamespace(calls=[], controls=[])

    def write(jobs, fmt, *, scale, sizes, time_limit):  # noqa: ARG001 (write_figures')
        for fig, file in jobs:
            writer.calls.append({"path": Path(file), "format": fmt, "scale": scale, "busy": [
                (c.button.disabled, c.button.description, c.format.disabled)
                for c in writer.controls]})
            Path(file).write_text(f"{fmt}: {fig.layout.title.text}")
        return [Path(file) for _, file in jobs]

    monkeypatch.setattr(ex, "write_figures", write)
    return writer


@pytest.fixture
def no_lesson(monkeypatch):
    """A kernel that knows no notebook (not started by JupyterLab nor Voila)."""
    for name in ("JPY_SESSION_NAME", "VOILA_SERVER_URL", "VOILA_BASE_URL", "SCRIPT_NAME",
                 "VOILA_REQUEST_URL", "CFRVIZ_LESSON"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_lesson")
def test_the_lesson_is_named_from_the_notebook_the_kernel_runs(monkeypatch):
    assert ex.lesson_name() is None  # the fallback: file names start at the widget's name
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/s/course/lessons/07_sampling_in_practice.ipynb")
    assert ex.lesson_name() == "07_sampling_in_practice"  # JupyterLab's kernels have this
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/s/course/lessons/a kernel's console")
    assert ex.lesson_name() is None  # a console, not a notebook
    # make lab exports CFRVIZ_LESSON (the default lesson) to every kernel: not a notebook's name
    monkeypatch.delenv("JPY_SESSION_NAME")
    monkeypatch.setenv("CFRVIZ_LESSON", "04_cfr_on_kuhn")
    assert ex.lesson_name() is None
    # ... but in a dashboard served by make present it is the lesson on screen
    monkeypatch.setenv("VOILA_SERVER_URL", "/")
    assert ex.lesson_name() == "04_cfr_on_kuhn"
    monkeypatch.delenv("CFRVIZ_LESSON")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/lessons/05_best_response.ipynb")
    assert ex.lesson_name() == "05_best_response"  # Voila serving a folder


def test_a_files_name_says_lesson_widget_and_iteration():
    assert ex.export_name("training-explorer", 50, "04_cfr_on_kuhn") == \
        "04_cfr_on_kuhn-training-explorer-iter0050"
    assert ex.export_name("training-explorer", 12345, None) == "training-explorer-iter12345"
    assert ex.export_name("dcfr-explorer") == "dcfr-explorer"
    assert ex.export_name("a b/c", None, "x") == "x-a_b_c"  # nothing that leaves the folder


@pytest.mark.usefixtures("no_lesson")
def test_each_press_writes_one_new_file_named_after_lesson_widget_and_iteration(
        fake_writer, monkeypatch, tmp_path):
    explorer = cfrviz.explore(cfrviz.load_game("kuhn_poker"), "cfr", iterations=60, seed=0)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "04_cfr_on_kuhn.ipynb"))
    control = ex.DownloadControl(explorer, "training-explorer")  # as the explorer's own
    fake_writer.controls.append(control)
    explorer.show_iteration(50)
    control.button.click()
    first = tmp_path / "exports" / "04_cfr_on_kuhn-training-explorer-iter0050-png.zip"
    assert control.written == [first]
    assert [p.name for p in (tmp_path / "exports").iterdir()] == [first.name]
    with zipfile.ZipFile(first) as archive:  # the frame's three figures, in display order
        assert archive.namelist() == [f"04_cfr_on_kuhn-training-explorer-iter0050-{i}.png"
                                      for i in (1, 2, 3)]
    (link,) = control.links.outputs
    html = link["data"]["text/html"]
    assert f'href="exports/{first.name}"' in html and "not overwritten" not in html
    monkeypatch.setenv("VOILA_SERVER_URL", "/")  # make present: the file in the link itself
    href = ex._href(f"exports/{first.name}", first)
    assert href.startswith("data:application/zip;base64,")
    assert base64.b64decode(href.split(",", 1)[1]) == first.read_bytes()
    monkeypatch.delenv("VOILA_SERVER_URL")
    # The same frame again: a new name, and the message says the first was kept.
    control.button.click()
    second = first.with_name("04_cfr_on_kuhn-training-explorer-iter0050-png-2.zip")
    assert control.written == [second] and first.exists()
    (link,) = control.links.outputs
    assert f"exports/{second.name}" in link["data"]["text/html"]
    assert f"{first.name} exists already and was not overwritten" in link["data"]["text/html"]
    # Another lesson's export of the same widget and iteration takes another name.
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "07_sampling_in_practice.ipynb"))
    control.format.value = "svg"
    control.button.click()
    assert control.written[0].name == "07_sampling_in_practice-training-explorer-iter0050-svg.zip"
    assert len(list((tmp_path / "exports").iterdir())) == 3  # one file per press


@pytest.mark.usefixtures("no_lesson")
def test_a_single_figure_is_one_file_of_the_chosen_format(explorer, fake_writer, tmp_path):
    control = ex.DownloadControl(explorer.curve, "curve", folder=tmp_path)
    for fmt in ("pdf", "pdf", "svg"):
        control.format.value = fmt
        control.export()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curve-2.pdf", "curve.pdf",
                                                          "curve.svg"]
    assert [c["format"] for c in fake_writer.calls] == ["pdf", "pdf", "svg"]


@pytest.mark.usefixtures("no_lesson")
def test_the_button_is_busy_while_it_exports_and_restored_after(explorer, fake_writer,
                                                                 tmp_path):
    control = ex.DownloadControl(explorer.curve, "curve", folder=tmp_path)
    fake_writer.controls.append(control)
    idle = (control.button.disabled, control.button.description, control.format.disabled)
    assert idle == (False, "Export", False)
    control.button.click()
    assert fake_writer.calls[0]["busy"] == [(True, "exporting…", True)]
    assert (control.button.disabled, control.button.description, control.format.disabled) \
        == idle
    assert control.button.icon == "download"


@pytest.mark.usefixtures("no_lesson")
def test_a_failed_export_restores_the_button_says_why_and_leaves_no_file(
        explorer, monkeypatch, tmp_path):
    control = ex.DownloadControl(explorer, "training-explorer", folder=tmp_path)
    seen = []

    def fail(jobs, fmt, **_):  # noqa: ARG001 (write_figures' signature)
        seen.append((control.button.disabled, control.button.description))
        Path(jobs[0][1]).write_text("half")
        raise RuntimeError("the browser crashed")

    monkeypatch.setattr(ex, "write_figures", fail)
    assert control.export() == [] and control.written == []
    assert seen == [(True, "exporting…")]
    assert (control.button.disabled, control.button.description, control.format.disabled) \
        == (False, "Export", False)
    (shown,) = control.links.outputs
    assert "Could not export: the browser crashed" in shown["text"]
    assert list(tmp_path.iterdir()) == []  # neither the archive nor a half-written figure


@pytest.mark.usefixtures("no_lesson")
def test_the_button_after_its_folder_is_deleted(fake_writer, monkeypatch, tmp_path):
    # issue 30: the export button after its folder was deleted was a dead button
    work = tmp_path / "lessons"
    work.mkdir()
    monkeypatch.chdir(work)
    control = ex.DownloadControl(go.FigureWidget(layout=dict(title="t")), "fig")
    control.button.click()
    assert control.written == [work / "exports" / "fig.png"]
    shutil.rmtree(work / "exports")  # exports/ deleted: made again on the next press
    control.button.click()
    assert control.written == [work / "exports" / "fig.png"]
    shutil.rmtree(work)  # the notebook's own folder deleted under the kernel: said so
    control.button.click()
    assert control.written == []
    (shown,) = control.links.outputs
    assert "Could not export: the notebook's folder no longer exists" in shown["text"]
    assert (control.button.disabled, control.button.description) == (False, "Export")
    assert len(fake_writer.calls) == 2


# ---- each kind of mark becomes plotly's own drawing (no browser needed) -------------------

def test_every_kind_of_mark_has_a_converter():
    assert set(ex.CONVERTERS) == set(KINDS)


def _chart(**layout) -> go.FigureWidget:
    return go.FigureWidget(go.Scatter(x=[0, 1, 2], y=[0, 1, 4], name="data"),
                           layout=dict(width=500, height=300, **layout))


def test_vline_and_point_become_a_shape_and_an_open_circle():
    marks = NowMarks({"now": vline(color="#123", width=2, dash="dash"),
                      "dot": point(color="#456", size=10, width=2)})
    marks.move(1.5, (1, 1))
    fig = ex.with_marks(_chart(), marks)
    (line,) = fig.layout.shapes
    assert (line.x0, line.x1, line.y0, line.y1, line.yref) == (1.5, 1.5, 0, 1, "y domain")
    assert (line.line.color, line.line.width, line.line.dash) == ("#123", 2, "dash")
    assert len(fig.data) == 2 and fig.data[0].name == "data"  # over: after the figure's own
    dot = fig.data[1]
    assert (dot.x, dot.y, dot.marker.symbol, dot.marker.size) == ((1,), (1,), "circle-open", 10)
    assert dot.showlegend is False
    marks.move(None, None)  # hidden marks add nothing
    bare = ex.with_marks(_chart(), marks)
    assert (len(bare.data), bare.layout.shapes, bare.layout.annotations) == (1, (), ())


def test_path_draws_first_to_last_bridging_gaps_and_hides_with_its_trace():
    trail = path([(0, 0), (1, None), (2, 2), (3, 3)], line=dict(color="red", width=2),
                 marker=dict(symbol="star", size=9, color="red"), titles=list("abcd"),
                 trace=0)
    marks = NowMarks({"trail": trail})
    marks.move((0, 2))
    fig = ex.with_marks(_chart(), marks)
    line, marker = fig.data[1:]
    assert (line.x, line.y, line.mode) == ((0, 2), (0, 2), "lines")
    assert (marker.x, marker.y, marker.marker.symbol, marker.hovertext) == ((2,), (2,), "star",
                                                                            "c")
    hidden = _chart()
    hidden.data[0].visible = "legendonly"  # a legend click hides the mark with its trace
    assert len(ex.with_marks(hidden, marks).data) == 1


def test_a_ternary_path_goes_back_to_its_strategies():
    fig = go.FigureWidget(go.Scatterternary(a=[1], b=[0], c=[0]))
    marks = NowMarks({"trail": path([(0.2, 0.3, 0.5), (1, 1, 2)], ternary="ternary",
                                    line=dict(color="blue"))})
    marks.move((0, 1))
    trail = ex.with_marks(fig, marks).data[1]
    assert trail.type == "scatterternary" and trail.subplot == "ternary"
    assert trail.a == pytest.approx([0.2, 0.25])
    assert trail.b == pytest.approx([0.3, 0.25])
    assert trail.c == pytest.approx([0.5, 0.5])


def test_segments_become_line_shapes_at_their_widths_and_styles_under_the_figure():
    marks = NowMarks({"edges": segments([(0, 0, 1, 1), (1, 1, 2, 0), (0, 1, 1, 0)],
                                        styles=[dict(color="black"),
                                                dict(color="grey", dash="dot")])})
    marks.show([3, [1, 1], None])
    fig = ex.with_marks(_chart(), marks, under=True)
    first, second = fig.layout.shapes  # the hidden third adds nothing
    assert (first.x0, first.y0, first.x1, first.y1) == (0, 0, 1, 1)
    assert (first.line.width, first.line.color, first.layer) == (3, "black", "below")
    assert (second.line.width, second.line.color, second.line.dash) == (1, "grey", "dot")
    # the box's white under a transparent figure, as on screen (overlay.css)
    css = (Path(ex.__file__).with_name("overlay.css")).read_text(encoding="utf-8")
    assert f".cfrviz-overlaid-under {{ background: {ex.UNDER_BACKGROUND}; }}" in css
    assert fig.layout.paper_bgcolor == ex.UNDER_BACKGROUND
    assert ex.with_marks(_chart(), marks).layout.paper_bgcolor is None  # over: unchanged


def test_labels_become_annotations_placed_as_the_overlay_places_them():
    marks = NowMarks({"texts": labels([(1, 2), (2, 1)], ends=[False, True],
                                      font=dict(size=11, color="#222"), offset=(3, 4)),
                      "note": labels([(1, 1)], ends=[True], paper=True)})
    marks.show(texts=["b .19", "<b>x</b>"], note=["note"])
    fig = ex.with_marks(_chart(yaxis=dict(type="log")), marks)
    start, end, note = fig.layout.annotations
    assert (start.x, start.y, start.xanchor, start.yanchor) == (1, pytest.approx(0.30103),
                                                                 "left", "middle")
    assert (start.xshift, start.yshift, start.font.size) == (3, -4, 11)
    assert end.xanchor == "right" and "<b>" not in end.text  # game text is escaped
    assert (note.xref, note.yref, note.x, note.y) == ("x domain", "y domain", 1, 1)


def test_rings_become_open_circles():
    marks = NowMarks({"ring": rings(size=20, width=3, color="purple")})
    marks.show([[0, 0], [2, 4]])
    ring = ex.with_marks(_chart(), marks).data[1]
    assert (ring.x, ring.y, ring.marker.size, ring.marker.line.width) == ((0, 2), (0, 4), 20, 3)


def test_an_explorers_frame_holds_every_figure_with_its_marks(explorer):
    figures = ex.frame_figures(explorer)
    widgets = figure_widgets(explorer)
    assert len(figures) == len(widgets) == 3
    tree, marks = explorer.tree_fig, explorer.tree.marks
    states = dict(zip(marks.names, marks.at))
    shown = sum(w is not None for w in states["edges"]) + sum(
        w is not None for w in states["best response"])
    assert len(figures[0].layout.shapes) == len(tree.layout.shapes) + shown
    texts = [t for t in states["edge labels"] if t] + [t for t in states["note"] if t]
    assert len(figures[0].layout.annotations) == len(tree.layout.annotations) + len(texts)
    assert len(figures[0].data) == len(tree.data) + 1  # the ring around the selected set
    # the charts' "now" marks: two lines on the history, a point on the curve
    assert len(figures[1].layout.shapes) == len(explorer.history.layout.shapes) + 2
    assert len(figures[2].data) == len(explorer.curve.data) + 1


def test_a_box_with_marks_exports_like_the_explorers():
    fig = _chart()
    marks = NowMarks({"now": vline()})
    marks.move(1)
    (copy,) = ex.frame_figures(overlaid(fig, marks))
    assert len(copy.layout.shapes) == 1


# ---- the files, against the figure on screen (kaleido in chromium) -------------------------

@pytest.mark.slow
def test_png_is_the_layouts_size_times_the_scale(tmp_path, session):  # noqa: ARG001
    fig = _chart(title="sized")
    (out,) = cfrviz.export(fig, tmp_path / "f.png", scale=2)
    assert png_size(out) == (1000, 600)
    # a figure that follows its output area has no width in Python: plotly's 700 px
    auto = go.Figure(go.Bar(y=[1, 2]))
    (out,) = cfrviz.export(auto, tmp_path / "auto.png")
    assert png_size(out) == (700, 500)


@pytest.mark.slow
def test_svg_holds_the_traces_points_title_and_overlay_marks(tmp_path, session):  # noqa: ARG001
    fig = _chart(title="Regret of J")
    marks = NowMarks({"now": vline(), "dot": point(),
                      "texts": labels([(1, 1), (2, 4)])})
    marks.move(1.5, (2, 4), None)
    marks.show(texts=["now", "later"])
    (out,) = cfrviz.export(overlaid(fig, marks), tmp_path / "f.svg")
    drawn = svg_elements(out)
    assert (drawn["width"], drawn["height"]) == (500, 300)
    assert drawn["title"] == "Regret of J"
    assert drawn["traces"] == 2  # the data and the point mark
    assert drawn["shapes"] == 1  # the vline
    assert drawn["points"] == 3 + 1  # the data's markers (lines+markers) and the point mark
    assert drawn["annotations"] == ["now", "later"]


@pytest.mark.slow
def test_pdf_is_one_page_of_the_figures_size(tmp_path, session):  # noqa: ARG001
    (out,) = cfrviz.export(_chart(), tmp_path / "f.pdf")
    width, height = pdf_page(out)  # points: 3/4 of a CSS pixel
    assert width == pytest.approx(500 * 0.75, abs=1) and height == pytest.approx(300 * 0.75,
                                                                                 abs=1)


@pytest.mark.slow
def test_an_explorers_frame_exports_in_every_format(tmp_path, explorer, session):  # noqa: ARG001
    figures = ex.frame_figures(explorer)
    svgs = explorer.export(tmp_path / "frame.svg")
    assert [p.name for p in svgs] == ["frame-1.svg", "frame-2.svg", "frame-3.svg"]
    for fig, file in zip(figures, svgs):
        drawn = svg_elements(file)
        assert (drawn["width"], drawn["height"]) == figure_size(fig)
        assert drawn["traces"] == _drawn_traces(fig)
        assert drawn["shapes"] == len(fig.layout.shapes)  # the tree's edges among them
        texts = [a.text for a in fig.layout.annotations if a.visible is not False]
        assert len(drawn["annotations"]) == len(texts)
    edge_labels = [t for t in dict(zip(explorer.tree.marks.names,
                                       explorer.tree.marks.at))["edge labels"] if t]
    assert set(edge_labels) <= set(svg_elements(svgs[0])["annotations"])
    for file, fig in zip(explorer.export(tmp_path / "frame.png"), figures):
        assert png_size(file) == figure_size(fig)
    for file, fig in zip(explorer.export(tmp_path / "frame.pdf"), figures):
        w, h = figure_size(fig)
        assert pdf_page(file) == (pytest.approx(w * 0.75, abs=1), pytest.approx(h * 0.75, abs=1))


@pytest.mark.slow
@pytest.mark.usefixtures("no_lesson")
def test_the_download_control_writes_the_file_and_links_it(tmp_path, explorer, session,  # noqa: ARG001
                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    control = ex.DownloadControl(explorer.curve, "curve")
    control.format.value = "svg"
    control.button.click()
    assert control.written == [tmp_path / "exports" / "curve.svg"]
    assert svg_elements(control.written[0])["traces"] == _drawn_traces(explorer.curve)
    (link,) = control.links.outputs
    assert '<a href="exports/curve.svg" download="curve.svg"' in link["data"]["text/html"]
    assert explorer.download in explorer.children  # the explorers carry one
    # a frame of several figures: one zip of them, each a real file of the format
    explorer.download.folder = tmp_path
    explorer.download.format.value = "pdf"
    (archive,) = explorer.download.export()
    assert archive.name == "training-explorer-iter0060-pdf.zip"
    with zipfile.ZipFile(archive) as zipped:
        names = zipped.namelist()
        assert len(names) == 3
        assert all(zipped.read(n).startswith(b"%PDF-") for n in names)


FIGURES = lesson_figures()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_lesson_figure_round_trips(name, tmp_path, session):  # noqa: ARG001
    # one format per figure, in turn, so each format meets every kind of view
    for i, fig in enumerate(FIGURES[name]()):
        fmt = static.FORMATS[(sorted(FIGURES).index(name) + i) % 3]
        (out,) = cfrviz.export(fig, tmp_path / f"{i}.{fmt}")
        w, h = figure_size(fig)
        if fmt == "png":
            assert png_size(out) == (w, h)
        elif fmt == "pdf":
            assert pdf_page(out) == (pytest.approx(w * 0.75, abs=1),
                                     pytest.approx(h * 0.75, abs=1))
        else:
            drawn = svg_elements(out)
            assert (drawn["width"], drawn["height"]) == (w, h)
            assert drawn["traces"] == _drawn_traces(fig), "a trace went missing"
            title = fig.layout.title.text
            if title:
                assert drawn["title"] is not None


def _widgets() -> dict:
    """Every kind of cfrviz widget with figures, built small (name -> a function)."""
    from cfrviz.widgets import (
        ComparisonView,
        DiscountExplorer,
        KuhnEquilibriumView,
        RegretMatchingExplorer,
        SampledPaths,
    )

    kuhn = cfrviz.load_game("kuhn_poker")

    def runs():
        return [cfrviz.solve(kuhn, name, 200, progress=False) for name in ("cfr", "cfr+")]
    return {
        "training explorer": lambda: cfrviz.explore(kuhn, "cfr", iterations=60, seed=0),
        "best response explorer": lambda: cfrviz.BestResponseExplorer(kuhn, player=0),
        "regret matching explorer": lambda: RegretMatchingExplorer(iterations=300, seed=0),
        "dcfr explorer": lambda: DiscountExplorer(kuhn, iterations=100),
        "comparison view": lambda: ComparisonView(runs(), axis="iterations"),
        "equilibrium view": lambda: KuhnEquilibriumView(runs()),
        "sampled paths": lambda: SampledPaths(kuhn, "external_sampling", iterations=5, seed=0),
        "bluff explorer": cfrviz.widgets.bluff_explorer,
        "infoset picker": lambda: cfrviz.widgets.infoset_picker(kuhn, "J"),
        "leaderboard": lambda: _leaderboard_widget(),
    }


def _leaderboard_widget():
    from cfrviz.play.tournament import run_tournament
    from cfrviz.widgets.leaderboard import Leaderboard
    return Leaderboard(run_tournament("pocket_poker", {}, hands=200))


WIDGETS = _widgets()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_every_widgets_frame_exports_with_its_marks(name, tmp_path, session):  # noqa: ARG001
    widget = WIDGETS[name]()
    figures = ex.frame_figures(widget)
    files = cfrviz.export(widget, tmp_path / "frame.svg")
    assert len(files) == len(figures) == len(figure_widgets(widget))
    for fig, file in zip(figures, files):
        drawn = svg_elements(file)
        assert (drawn["width"], drawn["height"]) == figure_size(fig)
        assert drawn["traces"] == _drawn_traces(fig)
        assert drawn["shapes"] == len(fig.layout.shapes)
        assert len(drawn["annotations"]) == len([a for a in fig.layout.annotations
                                                 if a.visible is not False])


def test_a_widget_without_figures_says_so():
    # the realization plan is sliders and a table (HTML): no figure to export
    from cfrviz.widgets import RealizationPlanExplorer
    with pytest.raises(ValueError, match="RealizationPlanExplorer holds no figure to export"):
        ex.frame_figures(RealizationPlanExplorer(cfrviz.load_game("kuhn_poker")))


@pytest.mark.browser
@pytest.mark.slow
def test_the_export_button_offers_its_files_in_jupyterlab(tmp_path):
    """In a real JupyterLab: the explorer's Export button, busy while it works, writes its
    frame as one zip of figures into exports/ beside the notebook, named after the notebook,
    the explorer and the iteration, and the link it shows downloads it (JupyterLab resolves
    the relative link to the server's file)."""
    notebook = code_notebook(tmp_path / "export_demo.ipynb", [
        "import cfrviz\n"
        "explorer = cfrviz.explore(cfrviz.load_game('kuhn_poker'), iterations=100)\n"
        "explorer"])
    with jupyterlab(extra_files=[notebook]) as server, chromium_page() as page:
        open_notebook(page, server, notebook.name)
        run_all_and_wait(page)
        page.locator("select", has=page.locator("option", has_text="svg")).first \
            .select_option("svg")
        page.locator("button", has_text="Export").first.click()
        busy = page.locator("button", has_text="exporting…")
        busy.wait_for(timeout=30_000)
        assert busy.is_disabled(), "the button can be pressed again while it exports"
        name = "export_demo-training-explorer-iter0100-svg.zip"
        link = page.locator(f'a[download="{name}"]')
        link.wait_for(timeout=90_000)
        assert page.locator("button", has_text="Export").first.is_enabled()
        assert page.locator("a[download]").count() == 1  # one file per press
        href = link.get_attribute("href")
        assert "/files/" in href and f"exports/{name}" in href, href
        answer = page.request.get(href if href.startswith("http") else server.base_url + href)
        assert answer.ok, f"{href}: HTTP {answer.status}"
        with zipfile.ZipFile(io.BytesIO(answer.body())) as archive:
            members = archive.namelist()
            assert members == [f"{name[:-8]}-{i}.svg" for i in (1, 2, 3)], members
            for member in members:
                assert archive.read(member).lstrip().startswith(b"<svg"), member
        # Where the overlay draws the tree's edges on screen is where the export draws them:
        # the same frame (same run), exported at the size the figure has on the page.
        screen = page.evaluate(_SCREEN_EDGES)
        assert not page.errors, "JavaScript errors in the page:\n" + "\n".join(page.errors)
    assert len(screen["edges"]) > 20, "no edges drawn by the overlay on screen"
    explorer = cfrviz.explore(cfrviz.load_game("kuhn_poker"), iterations=100)
    tree = ex.frame_figures(explorer)[0]
    out = static.write_figure(tree, tmp_path / "tree.svg", width=round(screen["width"]),
                              height=round(screen["height"]))
    exported = _shape_segments(out)
    for edge in map(_segment, screen["edges"]):
        assert any(max(abs(a - b) for a, b in zip(edge, other)) <= 1.0 for other in exported), \
            f"the edge drawn on screen at {edge} is not in the export"


# The tree's overlay on the page: its figure's size, and the edges it draws (their path data).
_SCREEN_EDGES = """() => {
  const box = document.querySelector('.cfrviz-overlaid-under');
  const gd = box.querySelector('.js-plotly-plot');
  const edges = [...box.querySelectorAll('path.cfrviz-now-mark.cfrviz-now-segments')]
    .map((p) => p.getAttribute('d'));
  return {width: gd._fullLayout.width, height: gd._fullLayout.height, edges};
}"""


def _segment(d: str) -> tuple[float, ...]:
    """(x0, y0, x1, y1) of an SVG path ``M x0,y0 L x1,y1``."""
    numbers = [float(v) for v in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", d)]
    assert len(numbers) == 4, f"not a segment: {d!r}"
    return tuple(numbers)


def _shape_segments(file: Path) -> list[tuple[float, ...]]:
    """The two-point line shapes of a plotly SVG, as (x0, y0, x1, y1) in figure pixels."""
    found = []
    for layer in ET.parse(file).getroot().iter():
        if "shapelayer" in (layer.get("class") or "").split():
            for path in layer.iter(f"{SVG}path"):
                d = path.get("d") or ""
                if re.fullmatch(r"M[-0-9.,e ]+L[-0-9.,e ]+", d.strip()):
                    found.append(_segment(d))
    return found


def test_a_mark_without_a_converter_is_named(monkeypatch):
    marks = NowMarks({"now": vline()})
    marks.move(1)
    monkeypatch.delitem(ex.CONVERTERS, "vline")
    with pytest.raises(ValueError, match="mark 'now': static export cannot draw a 'vline' mark"):
        ex.with_marks(_chart(), marks)
