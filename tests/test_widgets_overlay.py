"""The "now" marks drawn over a figure: their specs, names and states (the drawing itself is
tested under Node, tests/js/overlay.test.js, and in the browser, tests/test_browser.py)."""

import json
import math
import shutil
import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import plotly.graph_objects as go
import pytest

from cfrviz.widgets import overlay
from cfrviz.widgets.late_start import es_module
from cfrviz.widgets.overlay import (
    SPECS,
    NowMarks,
    labels,
    overlaid,
    path,
    point,
    rings,
    segments,
    vline,
)

ROOT = Path(__file__).resolve().parents[1]


def test_marks_move_with_one_message_and_none_when_still():
    marks = NowMarks({"line": vline("x", "y"), "dot": point("x2", "y2", color="#0072B2")})
    assert marks.at == [None, None] and marks.names == ["line", "dot"]
    sent = []
    marks.observe(lambda change: sent.append(change["new"]), names="at")
    marks.move(3, (3, 0.5))
    assert marks.at == [[3.0, None], [3.0, 0.5]]
    marks.move(3, (3, 0.5))
    assert len(sent) == 1
    marks.move(None, (4, math.nan))  # hidden; NaN is "nothing to draw", not a number to send
    assert marks.at == [None, [4.0, None]]


def test_marks_move_by_name_and_the_others_stay():
    marks = NowMarks({"line": vline(), "dot": point()})
    marks.move(2, (2, 1))
    marks.move(dot=(5, 6))
    assert marks.at == [[2.0, None], [5.0, 6.0]]
    marks.show(**{"line": [7.0, None]})
    assert marks.at == [[7.0, None], [5.0, 6.0]]


def test_set_marks_replaces_marks_and_states_in_one_message():
    marks = NowMarks({"line": vline()})
    marks.move(1)
    sent = []
    marks.observe(lambda change: sent.append(change["name"]), names=["marks", "at"])
    with marks.hold_sync():  # (set_marks holds its own: count what it changes)
        marks.set_marks({"a": point(), "b": rings()}, {"b": [[1.0, 2.0]]})
    assert marks.names == ["a", "b"] and marks.at == [None, [[1.0, 2.0]]]
    assert sorted(sent) == ["at", "marks"]
    with pytest.raises(ValueError, match="a state for 'c', which is none of the marks"):
        marks.set_marks({"a": point()}, {"c": None})


def test_marks_explain_what_is_wrong():
    with pytest.raises(ValueError, match="kind must be one of"):
        NowMarks({"arrow": {"kind": "arrow"}})
    with pytest.raises(ValueError, match="marks are named"):
        NowMarks([vline()])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2 marks, 1 positions"):
        NowMarks({"a": vline(), "b": vline()}).move(1)
    with pytest.raises(ValueError, match=r"no mark called 'c'; the marks are \['a', 'b'\]"):
        NowMarks({"a": vline(), "b": vline()}).move(c=1)
    with pytest.raises(ValueError, match="in order or by name, not both"):
        NowMarks({"a": vline(), "b": vline()}).move(1, b=2)


def test_marks_cannot_be_assigned_past_their_validation():
    """Assigning ``marks`` or ``at`` directly is checked as set_marks is (matrix.py used to
    assign both, by position, past the checks)."""
    marks = NowMarks({"a": vline()})
    with pytest.raises(ValueError, match="2 marks but 1 states: set the marks with set_marks"):
        marks.marks = [*marks.marks, dict(vline(), name="b")]
    with pytest.raises(ValueError, match=r"mark 'a' \(vline\): width must be a number >= 0"):
        marks.marks = [dict(vline(), name="a", width=-1)]
    with pytest.raises(ValueError, match=r"mark 'a' \(vline\): a state is None or \[x, ign"):
        marks.at = [["left", None]]
    with pytest.raises(ValueError, match="two marks are called 'a'"):
        marks.marks = [dict(vline(), name="a")] * 2
    assert marks.names == ["a"] and marks.at == [None]  # as they were


# One spec per kind: each made by its maker, refused with a field or a state it does not take.
# (spec, a valid state, a field it refuses, a state it refuses)
CASES = {
    "vline": (vline("x2", "y2", dash="dash"), [1.0, None], {"dash": "wavy"}, [1.0, 2.0, 3.0]),
    "point": (point(size=8), [1.0, 2.0], {"xaxis": "y"}, ["a", 2.0]),
    "path": (path([(0, 1), (2, 3)], marker=dict(symbol="star")), [0.0, 1.0],
             {"marker": {"symbol": "hexagram"}}, [0.0]),
    "segments": (segments([(0, 0, 1, 1), (1, 1, 2, 0)], styles=[{}, {"dash": "dot"}]),
                 [2.0, [1.5, 1]], {"styles": []}, [2.0, [1.5, 2]]),
    "labels": (labels([(0, 0), (1, 1)], ends=[True, False]), ["a", None],
               {"paper": "yes"}, ["a", 3]),
    "rings": (rings(color="red"), [[0.0, 1.0]], {"size": math.inf}, [[0.0, 1.0, 2.0]]),
}


def test_every_kind_has_a_spec_case_here():
    assert set(CASES) == set(SPECS) == set(overlay.KINDS)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_each_kind_takes_its_spec_and_states_and_refuses_others(kind):
    mark, state, bad_field, bad_state = CASES[kind]
    assert mark["kind"] == kind
    marks = NowMarks({"m": mark})
    marks.show(state)
    assert marks.at == [state]
    marks.show(None)  # every kind can be hidden
    field = next(iter(bad_field))
    with pytest.raises(ValueError, match=rf"mark 'm' \({kind}\): {field} must be"):
        NowMarks({"m": {**mark, **bad_field}})
    with pytest.raises(ValueError, match=rf"mark 'm' \({kind}\): a state is"):
        marks.show(bad_state)
    with pytest.raises(ValueError, match=r"unknown fields \['colour'\]"):
        NowMarks({"m": {**mark, "colour": "red"}})


def test_overlaid_stacks_the_marks_over_the_figure():
    fig, marks = go.FigureWidget(), NowMarks({"now": vline()})
    box = overlaid(fig, marks, width="300px")
    assert box.children == (fig, marks)
    assert "cfrviz-overlaid" in box._dom_classes and "cfrviz-now" in marks._dom_classes
    assert box.layout.width == "300px"


def test_a_figure_that_fits_its_output_may_shrink_with_its_box():
    from cfrviz.views.style import fit_to_output

    fixed = overlaid(go.FigureWidget(), NowMarks())
    fitting = overlaid(fit_to_output(go.FigureWidget()), NowMarks())
    assert "cfrviz-overlaid-fit" not in fixed._dom_classes
    assert "cfrviz-overlaid-fit" in fitting._dom_classes


def test_a_path_is_sent_once_and_a_frame_moves_two_indices():
    mark = path([(0, 1), (1, math.nan), (2, 3)], "x2", "y2", line=dict(color="#123", dash="dot"),
                marker=dict(symbol="star", size=14), titles=["a", "b", "c"], trace=4)
    assert (mark["kind"], mark["xaxis"], mark["yaxis"], mark["trace"]) == ("path", "x2", "y2", 4)
    assert mark["x"] == [0, 1, 2] and mark["y"] == [1, None, 3]  # NaN: a gap
    assert mark["line"]["dash"] == "dot" and mark["marker"]["symbol"] == "star"
    marks = NowMarks({"path": mark, "now": vline()})
    marks.move((0, 2), 5)
    assert marks.at == [[0.0, 2.0], [5.0, None]]


def test_a_ternary_path_is_in_plotlys_inner_cartesian_coordinates():
    """plotly draws (a, b, c) at x = c - b, y = a of its ternary's inner axes (sum 1)."""
    mark = path([(1, 0, 0), (0, 1, 0), (0, 0, 2), (1 / 3, 1 / 3, 1 / 3)], ternary="ternary2")
    assert mark["ternary"] == "ternary2"
    assert mark["x"] == pytest.approx([0, -1, 1, 0])
    assert mark["y"] == pytest.approx([1, 0, 0, 1 / 3])


def test_a_path_explains_what_is_wrong():
    with pytest.raises(ValueError, match="2 points, 1 titles"):
        path([(0, 0), (1, 1)], titles=["one"])
    with pytest.raises(ValueError, match=r"\(x, y\) pairs"):
        path([(0, 0, 1)])


# ---- the front end ---------------------------------------------------------------------------

def _node_exports() -> dict:
    """overlay.js's exported tables, read by Node from the file itself
    (tests/js/overlay_tables.js prints them)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the overlay's JavaScript is not checked here "
                    "(install Node.js 20 or later)")
    done = subprocess.run([node, str(ROOT / "tests" / "js" / "overlay_tables.js")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_python_and_javascript_know_the_same_kinds_symbols_and_dashes():
    exports = _node_exports()
    assert exports["kinds"] == list(SPECS)
    assert exports["symbols"] == list(overlay.SYMBOLS)
    assert exports["dashes"] == list(overlay.DASHES)


def test_the_front_end_is_a_file_shipped_as_package_data():
    """anywidget reads the file (_esm is its path); a wheel must carry it (a non-editable
    ``pip install .`` takes package data only as pyproject.toml lists it)."""
    assert NowMarks._esm == es_module(overlay.FRONT_END.read_text())  # wrapped (late_start)
    assert overlay.FRONT_END.read_text().startswith("// @ts-check")
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]
    for shipped in (overlay.FRONT_END, overlay.STYLE):
        assert any(fnmatch(shipped.name, pattern)
                   for pattern in package_data.get("cfrviz.widgets", [])), shipped.name


def test_a_wheel_carries_the_front_end(tmp_path):
    """Build the wheel a non-editable ``pip install .`` would install and look inside."""
    import sys
    import zipfile

    source = tmp_path / "source"  # a copy: pip builds in the source tree (build/, egg-info)
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "cfrviz", source / "cfrviz",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    import importlib.util

    if importlib.util.find_spec("pip") is not None:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                   "-w", str(tmp_path), str(source)]
    else:  # a venv made by uv has no pip (CI's newest-version venvs): uv builds the wheel
        command = [sys.executable, "-m", "uv", "build", "--wheel", "--out-dir", str(tmp_path),
                   str(source)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = tmp_path.glob("cfrviz-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    front_ends = {f"cfrviz/widgets/{p.name}" for p in (ROOT / "cfrviz" / "widgets").glob("*.js")}
    assert {"cfrviz/widgets/overlay.css", "cfrviz/widgets/playback.js",
            "cfrviz/widgets/figure_widget.js"} | front_ends <= names
