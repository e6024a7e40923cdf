"""The pre-save hook make lab gives JupyterLab: cfrviz's widget views become a notice and its
widget state goes; every other format of an output, every other widget's view and state stay
(issue 30 item 2).  The browser test, tests/test_browser_breakages.py, saves and reopens a
notebook in a real JupyterLab.

The notebooks here are displayed as a kernel displays them (IPython's display formatter with
cfrviz's :func:`cfrviz.views.saved.marked_bundle`, the widgets' state as ipywidgets saves it)
and saved through jupyter_server's own contents manager with the hook configured by name, as
``jupyter/jupyter_lab_config.json`` does.
"""

from __future__ import annotations

import base64
import copy
import itertools
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import ipywidgets as W
import nbformat
import pytest
import traitlets
from IPython.core.formatters import DisplayFormatter
from jupyter_server.services.contents.filemanager import FileContentsManager

import cfrviz.views.saved as saved
from cfrviz.jupyter_hooks import MARK, NOTICE, WIDGET_STATE, WIDGET_VIEW, forget_widget_views
from cfrviz.widgets.figure_widget import FigureWidget
from cfrviz.widgets.overlay import NowMarks, overlaid, vline
from cfrviz.widgets.panel import Panel
from cfrviz.widgets.playback import Play

CONFIG = Path(__file__).resolve().parent.parent / "jupyter" / "jupyter_lab_config.json"
HOOK = json.loads(CONFIG.read_text())["ContentsManager"]["pre_save_hook"]
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n not a real image").decode()


class Canvas(W.DOMWidget):
    """What ipympl's ``%matplotlib widget`` figure displays: its widget view, a PNG of the
    figure and its repr (ipympl.backend_nbagg.Canvas._repr_mimebundle_)."""

    _model_module = traitlets.Unicode("jupyter-matplotlib").tag(sync=True)
    _model_name = traitlets.Unicode("MPLCanvasModel").tag(sync=True)
    _view_module = traitlets.Unicode("jupyter-matplotlib").tag(sync=True)
    _view_name = traitlets.Unicode("MPLCanvasView").tag(sync=True)

    def _repr_mimebundle_(self, **kwargs):
        return {**super()._repr_mimebundle_(**kwargs), "image/png": PNG}


class Answer(W.HTML):
    """An object of a student's shown with its widget view and HTML, JSON and text."""

    def _repr_mimebundle_(self, **kwargs):
        return {**super()._repr_mimebundle_(**kwargs), "text/html": "<b>42</b>",
                "application/json": {"answer": 42}, "text/plain": "42"}


def shown(obj, formatter: DisplayFormatter) -> tuple[dict, dict]:
    """What a kernel with cfrviz imported sends for ``obj``: (data, metadata)."""
    return formatter.format(obj)


@pytest.fixture
def formatter(monkeypatch) -> DisplayFormatter:
    """IPython's display formatter, as the kernel's is once cfrviz is imported."""
    display = DisplayFormatter()
    import IPython

    monkeypatch.setattr(IPython, "get_ipython", lambda: SimpleNamespace(display_formatter=display))
    saved.mark_widget_outputs()
    return display


def output(data: dict, metadata: dict, kind: str = "display_data") -> dict:
    if kind == "execute_result":
        return nbformat.v4.new_output(kind, data=data, metadata=metadata, execution_count=7)
    return nbformat.v4.new_output(kind, data=data, metadata=metadata)


def notebook(outputs: list[dict], widgets: list | None = None) -> dict:
    """A notebook of one cell per output; with ``widgets``, their state saved in it as
    ipywidgets' "save widget state" does (every model, as the page's manager holds them)."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"cell {i}", outputs=[o])
                for i, o in enumerate(outputs)]
    nb.cells.append(nbformat.v4.new_markdown_cell("text"))
    if widgets is not None:
        state = W.Widget.get_manager_state(drop_defaults=True, widgets=widgets)
        nb.metadata["widgets"] = {WIDGET_STATE: state}
    return joined(nbformat.writes(nb))


def joined(text: str) -> dict:
    """A notebook as plain JSON with its strings whole, as JupyterLab sends it to be saved."""
    return json.loads(json.dumps(nbformat.reads(text, as_version=4)))


def save(content: dict, tmp_path: Path) -> dict:
    """Save through jupyter_server's contents manager with the configured hook; read back."""
    manager = FileContentsManager(root_dir=str(tmp_path), pre_save_hook=HOOK)
    manager.save({"type": "notebook", "format": "json", "content": content}, "n.ipynb")
    written = joined((tmp_path / "n.ipynb").read_text())
    nbformat.validate(nbformat.from_dict(written))
    return written


def _refs(value) -> list[str]:
    """Every ``IPY_MODEL_<id>`` string in a saved state."""
    if isinstance(value, str):
        return [value] if value.startswith("IPY_MODEL_") else []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [ref for item in items for ref in _refs(item)]


def state_ids(nb: dict) -> set[str]:
    return set(nb["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}))


def all_models(*widgets) -> list:
    """Every widget model ``widgets`` hold, themselves included."""
    found, stack = {}, list(widgets)
    while stack:
        w = stack.pop()
        if w.model_id not in found:
            found[w.model_id] = w
            stack += saved._held(w)
    return list(found.values())


# ---- the notebook: ipympl, plain ipywidgets, an Output widget's text, cfrviz --------

def test_only_cfrviz_widgets_go_and_everything_else_is_saved_intact(formatter, tmp_path):
    figure = Canvas()
    slider = W.IntSlider(value=3, description="mine")
    answer_box = W.Output()
    answer_box.outputs = ({"output_type": "stream", "name": "stdout", "text": "my answer: 42\n"},)
    answer = Answer(value="42")
    fig = FigureWidget()
    explorer_like = overlaid(fig, NowMarks({"now": vline()}))  # a cfrviz box, figure and marks
    play = Play(max=10)
    mixed = W.VBox([W.HBox([play, W.IntSlider()]), W.Label("lesson 04's second view")])
    shows = [figure, slider, answer_box, answer, fig, explorer_like, mixed]
    outputs = [output(*shown(w, formatter), kind="execute_result" if w is answer else
                      "display_data") for w in shows]
    cfrviz_models = {m.model_id for w in (fig, explorer_like.children[1], play)
                     for m in all_models(w)}
    assert cfrviz_models == {m for o in outputs for m in o["metadata"].get(MARK, {}).get(
        "models", ())}
    others = [figure, slider, answer_box, answer, mixed]
    content = notebook(outputs, all_models(*shows))
    before = copy.deepcopy(content)
    after = save(content, tmp_path)
    cells = after["cells"]
    # ipympl's figure, the student's slider, their Output widget and their answer: as they were
    for i in range(4):
        assert cells[i]["outputs"] == before["cells"][i]["outputs"]
    assert cells[3]["outputs"][0]["data"]["text/plain"] == "42"
    assert cells[3]["outputs"][0]["execution_count"] == 7
    # cfrviz's: the notice, as Markdown first (JupyterLab breaks text/plain anywhere)
    for i in (4, 5, 6):
        (out,) = cells[i]["outputs"]
        assert out["data"] == {"text/markdown": NOTICE, "text/plain": NOTICE}
        assert MARK not in out["metadata"]
    assert cells[-1] == before["cells"][-1]
    # the state: every other widget's, exactly (the Output widget's text in it); none of ours,
    # nor of the containers that held ours (a saved box whose child is gone fails to open)
    states = after["metadata"]["widgets"][WIDGET_STATE]["state"]
    old = before["metadata"]["widgets"][WIDGET_STATE]["state"]
    holders = {mixed.model_id, mixed.children[0].model_id, explorer_like.model_id}
    assert not cfrviz_models & set(states)
    assert {w.model_id for w in others} - holders <= set(states)
    assert set(states) == set(old) - cfrviz_models - holders
    assert all(ref[len("IPY_MODEL_"):] in states for state in states.values()
               for ref in _refs(state))
    assert all(states[k] == old[k] for k in states)
    assert states[answer_box.model_id]["state"]["outputs"][0]["text"] == "my answer: 42\n"
    assert states[slider.model_id]["state"]["value"] == 3


def test_without_saved_state_views_of_others_stay_and_ours_go(formatter, tmp_path):
    slider, fig = W.IntSlider(), FigureWidget()
    content = notebook([output(*shown(slider, formatter)), output(*shown(fig, formatter))])
    before = copy.deepcopy(content)
    after = save(content, tmp_path)
    assert after["cells"][0] == before["cells"][0]
    assert after["cells"][1]["outputs"][0]["data"]["text/markdown"] == NOTICE
    assert "widgets" not in after["metadata"]


def test_a_plain_widget_of_a_cfrviz_widget_shown_on_its_own_keeps_view_and_state(
        formatter, tmp_path):
    # lesson 04 shows its explorer's slider again, outside the explorer: that view is not
    # marked (an IntSlider), so it stays, and so does the slider's state it needs
    slider = W.IntSlider(value=4)
    panel = Panel(children=[slider])
    data, metadata = shown(panel, formatter)
    assert slider.model_id in metadata[MARK]["models"]
    content = notebook([output(data, metadata), output(*shown(slider, formatter))],
                       all_models(panel))
    before = copy.deepcopy(content)
    after = save(content, tmp_path)
    assert after["cells"][0]["outputs"][0]["data"]["text/markdown"] == NOTICE
    assert after["cells"][1] == before["cells"][1]
    assert slider.model_id in state_ids(after) and slider.layout.model_id in state_ids(after)
    assert panel.model_id not in state_ids(after)


def test_what_held_a_cfrviz_widget_goes_with_it_down_to_what_shows_it(formatter, tmp_path):
    """A box of the student's that holds cfrviz's widget, itself held by another box, and an
    Output widget that shows it: none is shown in a kept output, all go with it, so nothing
    saved names a model that is gone (JupyterLab's manager fails on opening such a state with
    "widget model not found", which lesson 14 met in the browser); the student's own slider in
    the inner box, which refers to nothing gone, stays."""
    fig = FigureWidget()
    slider = W.IntSlider(value=5)
    inner = W.HBox([fig, slider])
    outer = W.VBox([inner])
    out = W.Output()
    out.outputs = ({"output_type": "display_data", "metadata": {},
                    "data": {WIDGET_VIEW: {"version_major": 2, "version_minor": 0,
                                           "model_id": fig.model_id}}},)
    content = notebook([output(*shown(outer, formatter))], all_models(outer, out))
    after = save(content, tmp_path)
    states = state_ids(after)
    assert not {fig.model_id, inner.model_id, outer.model_id, out.model_id} & states
    assert slider.model_id in states
    every = after["metadata"]["widgets"][WIDGET_STATE]["state"]
    assert all(ref[len("IPY_MODEL_"):] in states for s in every.values() for ref in _refs(s))


def test_other_files_pass_unchanged():
    model = {"type": "file", "content": "print(1)", "format": "text"}
    forget_widget_views(model)
    assert model == {"type": "file", "content": "print(1)", "format": "text"}


def test_make_labs_configuration_names_the_hook():
    assert HOOK == "cfrviz.jupyter_hooks.forget_widget_views"


# ---- the kernel's side: which outputs say they are cfrviz's ------------------------------

def test_the_mark_lists_cfrviz_widgets_and_what_they_hold(formatter):
    plain = W.IntSlider()
    data, metadata = shown(plain, formatter)
    assert MARK not in metadata and WIDGET_VIEW in data  # ipywidgets' own, unchanged
    fig, play = FigureWidget(), Play(max=3)
    box = W.VBox([plain, fig, play])  # a student's box around a cfrviz figure and Play
    data, metadata = shown(box, formatter)
    models = metadata[MARK]["models"]
    assert {fig.model_id, play.model_id, play.layout.model_id} <= set(models)
    assert box.model_id not in models and plain.model_id not in models
    assert saved.is_ours(fig) and not saved.is_ours(plain)


def test_a_widget_cfrviz_shows_is_marked_whatever_its_class(formatter, monkeypatch):
    """A solver's progress bar is tqdm's widget (an HBox of ipywidgets) but cfrviz's output:
    shown by a solve (driver.progress_bar), it is marked like the rest, and saved it becomes
    the notice (kept, lesson 13's Deep CFR run reopened as "model not found")."""
    import tqdm.auto
    import tqdm.notebook

    from cfrviz.core.notebook import displayed_as_ours
    from cfrviz.solvers.progress import progress_bar

    bar = W.HBox([W.FloatProgress(), W.HTML("solving")])
    assert MARK not in shown(bar, formatter)[1]
    with displayed_as_ours():
        metadata = shown(bar, formatter)[1]
    assert set(metadata[MARK]["models"]) >= {w.model_id for w in all_models(bar)}
    assert MARK not in shown(bar, formatter)[1]  # only inside the block

    displays: list[dict] = []
    monkeypatch.setattr(tqdm.auto, "tqdm", tqdm.notebook.tqdm)  # as in a notebook
    monkeypatch.setattr(tqdm.notebook, "display",
                        lambda widget: displays.append(shown(widget, formatter)[1]))
    for progress in (True, None):  # shown when made; shown at an update after the delay
        run = progress_bar(3, 0, "cfr", "Kuhn", progress=progress)
        if progress is None:
            run.due -= 5  # as if the two-second delay had passed
        run.update(3)
        run.close()
    assert len(displays) == 2 and all(MARK in metadata for metadata in displays)


def test_a_run_shorter_than_the_bar_delay_makes_no_widget(monkeypatch):
    """tqdm's notebook bar sends its widgets to the page when it is made, shown or not: a
    solve makes its bar only once it is to be shown (lesson 14's solves sent thousands of
    models the page never showed, and under load it failed to build some)."""
    import tqdm.auto
    import tqdm.notebook
    from ipywidgets.widgets.widget import _instances

    import cfrviz

    monkeypatch.setattr(tqdm.auto, "tqdm", tqdm.notebook.tqdm)  # as in a notebook
    game = cfrviz.load_game("kuhn_poker")
    cfrviz.solve(game, "cfr", 2)
    before = set(_instances)
    cfrviz.solve(game, "cfr", 20)
    assert set(_instances) == before


@pytest.mark.slow
def test_a_kernel_that_imports_a_cfrviz_widget_marks_its_outputs():
    # in a fresh IPython shell: importing any cfrviz widget imports cfrviz.views, which
    # registers the mark; a plain widget's display stays ipywidgets' own
    code = """
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
from cfrviz.widgets.reveal import ShowMe
import ipywidgets as W
data, md = shell.display_formatter.format(ShowMe("x = 1"))
plain = shell.display_formatter.format(W.IntSlider())
print(sorted(md), sorted(plain[1]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    assert done.stdout.split("\n")[-2] == f"['{MARK}'] []", done.stdout + done.stderr


# ---- generated: every combination of output formats x widget kinds x output types ---------

EXTRA_FORMATS = {"image/png": PNG, "text/html": "<i>html</i>", "application/json": {"a": 1},
                 "image/svg+xml": "<svg/>"}
KINDS = {
    "ipywidgets": lambda: W.IntSlider(),
    "ipympl-like": Canvas,
    "output widget": lambda: W.Output(outputs=({"output_type": "stream", "name": "stdout",
                                                "text": "my answer: 42\n"},)),
    "cfrviz overlay": lambda: NowMarks({"now": vline()}),
    "cfrviz play": lambda: Play(max=3),
    "box holding cfrviz": lambda: W.HBox([W.IntSlider(), Play(max=3)]),
}
CASES = [(kind, extras, otype)
         for kind in KINDS
         for n in range(len(EXTRA_FORMATS) + 1)
         for extras in itertools.combinations(EXTRA_FORMATS, n)
         for otype in ("display_data", "execute_result")]


@pytest.mark.parametrize("with_state", [False, True])
def test_only_ours_goes_over_every_combination(with_state, formatter, tmp_path):
    """Each case a cell of one notebook (saved once): the widget of a kind shown with extra
    formats beside its view, as display data or an execute result; a bystander widget last."""
    widgets, outputs, marks = [], [], []
    for kind, extras, otype in CASES:
        widget = KINDS[kind]()
        data, metadata = shown(widget, formatter)
        assert (MARK in metadata) == kind.startswith(("cfrviz", "box holding")), kind
        widgets.append(widget)
        marks.append(metadata.get(MARK))
        outputs.append(output({**data, **{k: EXTRA_FORMATS[k] for k in extras}}, metadata,
                              otype))
    bystander = W.Checkbox(value=True)  # another widget in the same notebook
    outputs.append(output(*shown(bystander, formatter)))
    content = notebook(outputs, all_models(*widgets, bystander) if with_state else None)
    before = copy.deepcopy(content)
    after = save(content, tmp_path)
    assert after["cells"][-2:] == before["cells"][-2:]  # the bystander, the Markdown cell
    for (kind, extras, otype), mark, cell, old in zip(CASES, marks, after["cells"],
                                                      before["cells"]):
        case = f"{kind} with {extras} as {otype}"
        (out,) = cell["outputs"]
        if mark is None:
            assert cell == old, case
            continue
        assert WIDGET_VIEW not in out["data"] and MARK not in out["metadata"], case
        expected = ({k: EXTRA_FORMATS[k] for k in extras} if extras else
                    {"text/markdown": NOTICE, "text/plain": NOTICE})
        assert out["data"] == expected, case  # every other format kept, as it was
        assert out.get("execution_count") == old["outputs"][0].get("execution_count"), case
    if with_state:
        old = before["metadata"]["widgets"][WIDGET_STATE]["state"]
        ours = {m for mark in marks if mark for m in mark["models"]}
        states = after["metadata"]["widgets"][WIDGET_STATE]["state"]
        holders = {w.model_id for (kind, _, _), w in zip(CASES, widgets)
                   if kind.startswith("box holding")}  # gone with what they held
        assert set(states) == set(old) - ours - holders
        assert all(states[k] == old[k] for k in states)
        assert bystander.model_id in states
    else:
        assert "widgets" not in after["metadata"]
