"""The legibility standard of cfrviz.views.style, checked on every figure a lesson draws.

The figures come from tests/_figures.py (built as the lessons build them); each rule is read
off the figure object as plotly.js would resolve it: a font without a size inherits the
layout's, a layout without a colour takes the template's.
"""

from __future__ import annotations

import math

import pytest
from _figures import lesson_figures

from cfrviz.views.style import (
    MAX_LOG_LABELS,
    MIN_FONT_PX,
    MIN_LINE_PX,
    PLAIN,
    PRESENTER,
    _axis_values,
    decade_step,
    presenting,
)

FIGURES = lesson_figures()
#: plotly.js's own default font size, for a font no one sized.
PLOTLY_DEFAULT_FONT = 12
PLAIN_COLOURS = {"white", "#fff", "#ffffff", "rgba(0,0,0,0)", "rgba(255,255,255,1)"}


@pytest.fixture(scope="module")
def built():
    cache: dict[str, list] = {}

    def get(name, presenter):
        if (name, presenter) not in cache:
            with presenting(presenter):
                cache[name, presenter] = FIGURES[name]()
        return cache[name, presenter]
    return get


def _size(font, inherited):
    return font.size if font is not None and font.size is not None else inherited


def text_sizes(fig) -> dict[str, float]:
    """Every piece of text the figure draws, with the size plotly.js draws it at."""
    layout = fig.layout
    base = _size(layout.font, _size(layout.template.layout.font, PLOTLY_DEFAULT_FONT))
    sizes = {"layout font": base}
    if layout.title.text:
        sizes["title"] = _size(layout.title.font, base)
    if layout.showlegend is not False:
        sizes["legend"] = _size(layout.legend.font, base)
    for name in layout:
        if name.startswith(("xaxis", "yaxis")) and layout[name].visible is not False:
            axis = layout[name]
            sizes[f"{name} ticks"] = _size(axis.tickfont, base)
            if axis.title.text:
                sizes[f"{name} title"] = _size(axis.title.font, base)
        elif name.startswith("ternary"):
            for a in ("aaxis", "baxis", "caxis"):
                sizes[f"{name}.{a} ticks"] = _size(layout[name][a].tickfont, base)
    for k, annotation in enumerate(layout.annotations):
        if annotation.text:
            sizes[f"annotation {k} {annotation.text[:20]!r}"] = _size(annotation.font, base)
    for k, trace in enumerate(fig.data):
        mode = getattr(trace, "mode", None) or ""
        shows_text = "text" in mode or (trace.type == "bar" and trace.text is not None)
        if shows_text and "textfont" in trace:
            sizes[f"trace {k} {trace.name!r} text"] = _size(trace.textfont, base)
    return sizes


def drawn_lines(fig) -> dict[str, float]:
    """The width of every line a trace draws (plotly's default width is 2)."""
    widths = {}
    for k, trace in enumerate(fig.data):
        if trace.type not in ("scatter", "scattergl", "scatterternary"):
            continue
        mode = trace.mode or "lines"
        if "lines" in mode or trace.fill not in (None, "none"):
            width = trace.line.width
            widths[f"trace {k} {trace.name!r}"] = 2.0 if width is None else width
    return widths


def _has_data(trace) -> bool:
    for key in ("x", "y", "a", "values"):
        if key in trace and trace[key] is not None and len(trace[key]) > 0:
            return True
    return False


def legend_entries(fig) -> list[tuple[str, tuple]]:
    """(name, look) of each entry plotly.js shows in the legend."""
    if fig.layout.showlegend is False:
        return []
    entries = []
    for trace in fig.data:
        if trace.showlegend is False or not _has_data(trace):
            continue
        if trace.showlegend is None and len(fig.data) == 1:
            continue  # plotly shows no legend for a single trace
        mode = getattr(trace, "mode", None) or ("lines" if trace.type.startswith("scatter")
                                                 else "")
        look: tuple = (trace.type,)
        if "lines" in mode:
            look += ("line", trace.line.color, trace.line.dash or "solid")
        if "markers" in mode or trace.type == "bar":
            look += ("marker", getattr(trace.marker, "symbol", None), trace.marker.color,
                     getattr(getattr(trace.marker, "pattern", None), "shape", None))
        if getattr(trace, "fill", None) not in (None, "none"):
            look += ("fill", trace.fillcolor)
        entries.append((trace.name, look))
    return entries


@pytest.mark.parametrize("presenter", [False, True], ids=["notebook", "presenter"])
@pytest.mark.parametrize("name", list(FIGURES))
def test_every_lesson_figure_meets_the_standard(name, presenter, built):
    figures = built(name, presenter)
    assert figures, f"{name} drew no figure"
    for fig in figures:
        where = f"{name}, figure {fig.layout.title.text!r}"
        # On a projector every text grows with the figure (presenter mode).
        least = PRESENTER.small_font if presenter else MIN_FONT_PX
        small = {k: v for k, v in text_sizes(fig).items() if v < least}
        assert not small, f"{where}: text under {least} px: {small}"
        thin = {k: v for k, v in drawn_lines(fig).items() if 0 < v < MIN_LINE_PX}
        assert not thin, f"{where}: lines under {MIN_LINE_PX} px: {thin}"
        assert fig.layout.template == PLAIN, f"{where}: not the plain template"
        for part in ("paper_bgcolor", "plot_bgcolor"):
            colour = fig.layout[part] or PLAIN.layout[part]
            assert colour.replace(" ", "").lower() in PLAIN_COLOURS, f"{where}: {part} {colour}"
        entries = legend_entries(fig)
        names = [n for n, _ in entries]
        looks = [look for _, look in entries]
        assert len(set(names)) == len(names), f"{where}: legend names repeat: {names}"
        assert len(set(looks)) == len(looks), \
            f"{where}: two legend entries look the same: {entries}"
        for axis_name in fig.layout:
            axis = fig.layout[axis_name]
            if axis_name.startswith(("xaxis", "yaxis")) and axis.type == "log":
                labelled_at = axis.tickvals if axis.tickmode == "array" else axis.dtick
                assert axis.tickmode == "array" or (
                    isinstance(labelled_at, int | float) and labelled_at >= 1
                    and float(labelled_at).is_integer()), \
                    f"{where}: {axis_name} is labelled at {labelled_at!r}, not at decades"
                values = [v for v in _axis_values(fig, axis_name)
                          if isinstance(v, int | float) and v > 0]
                if values and axis.tickmode != "array":
                    decades = math.ceil(math.log10(max(values))) - math.floor(
                        math.log10(min(values)))
                    assert decades / labelled_at <= MAX_LOG_LABELS + 1, \
                        f"{where}: {axis_name} prints a label at each of {decades} decades"
                if axis_name.startswith("yaxis") and axis.tickmode != "array" and (
                        axis.range is not None or values):
                    low, high = axis.range if axis.range is not None else (
                        math.log10(min(values)), math.log10(max(values)))
                    assert math.floor(high + 1e-9) - math.ceil(low - 1e-9) + 1 >= 2, \
                        f"{where}: {axis_name} shows fewer than two decade labels"
        assert fig.layout.width is None, f"{where}: a fixed width of {fig.layout.width} px"


def test_the_checks_catch_what_they_check():
    """Each rule fails on a figure that breaks it (so the test above can fail)."""
    import plotly.graph_objects as go

    from cfrviz.views.style import apply_style
    fig = go.Figure([go.Scatter(x=[1, 10], y=[1, 2], name="a", line=dict(width=1)),
                     go.Scatter(x=[1, 10], y=[2, 3], name="a", line=dict(width=1))])
    fig.update_layout(font=dict(size=9), width=500, xaxis=dict(type="log", dtick="D1"))
    fig.add_annotation(x=1, y=1, text="tiny", font=dict(size=8))
    assert min(text_sizes(fig).values()) == 8
    assert min(drawn_lines(fig).values()) == 1
    entries = legend_entries(fig)
    assert entries[0] == entries[1]
    apply_style(fig)
    assert min(text_sizes(fig).values()) >= MIN_FONT_PX
    assert min(drawn_lines(fig).values()) >= MIN_LINE_PX
    assert fig.layout.xaxis.dtick == 1 and fig.layout.width is None
    assert fig.layout.template == PLAIN


def test_decade_steps():
    assert decade_step([1e-3, 1.0]) == 1
    assert decade_step([1e-15, 1.0]) == 2
    assert decade_step([1.0, 1e160]) == 20
    assert decade_step([]) == decade_step([0.0, None]) == 1
